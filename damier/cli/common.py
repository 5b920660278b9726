"""What every ``damier`` command shares: the Typer app, the consoles, one-line errors, loading a game."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperOption

from damier.core.options import parse_option_pairs

_type_label = TyperOption.display_type_rich


def _no_label_on_flags(self: TyperOption, ctx: Any) -> str | None:
    """The type label of an option in the help (``<int range>``), none for a flag: Typer 0.2x writes
    ``--help <bool>`` and ``--json <bool>``, which reads as if the flag took a value."""
    return None if self.is_flag else _type_label(self, ctx)


TyperOption.display_type_rich = _no_label_on_flags  # type: ignore[method-assign]

app = typer.Typer(
    help="damier: play, solve and study grid games (damier games lists them).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
record_app = typer.Typer(help="Game records: show a record file.", no_args_is_help=True)
app.add_typer(record_app, name="record")

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

OptArg = Annotated[list[str] | None, typer.Option("--opt", "-o", help="Game option key=value (repeatable).")]
JsonArg = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def fail(message: str) -> typer.Exit:
    print_error(message)
    return typer.Exit(code=2)


def print_error(message: str) -> None:
    """One line on stderr: user text is never read as markup and never wrapped."""
    errors.print(Text.assemble(("error:", "bold red"), " ", message), soft_wrap=True)


def load_game(name: str, opts: list[str] | None) -> Any:
    from damier.core.registry import load

    return load(name, **parse_option_pairs(opts or []))


def show_board(state: Any) -> None:
    text = Text()
    for segment, style in state.render_styled():
        text.append(segment, style=style)
    console.print(text)
