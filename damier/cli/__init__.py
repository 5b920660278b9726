"""The ``damier`` command: a thin layer over the API (games, play, arena, bench, engine, perft, serve, record).

Human text by default, ``--json`` for machines. Bad input prints one line saying what is wrong and what
is accepted, and exits with code 2; no traceback. The commands name no game: what a game offers comes from its
declaration (``damier.core.registry.GameInfo``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from typing import Annotated

import typer

from damier.cli import compete, play, study
from damier.cli.common import app, console, fail, print_error
from damier.cli.play import describe_events, split_specs
from damier.core import registry
from damier.core.errors import DamierError

__all__ = ["app", "compete", "console", "describe_events", "fail", "main", "play", "split_specs", "study"]


@app.callback(invoke_without_command=True)
def main_options(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        from damier import __version__

        print(f"damier {__version__}")
        raise typer.Exit()


def expand_multi_value_options(argv: list[str], options: tuple[str, ...] = ("--agents", "-a")) -> list[str]:
    """Let ``--agents a b c`` mean ``--agents a --agents b --agents c`` (click options take one value).

    >>> expand_multi_value_options(["arena", "GAME", "--agents", "hard", "random", "--games", "4"])
    ['arena', 'GAME', '--agents', 'hard', '--agents', 'random', '--games', '4']
    """
    out: list[str] = []
    current: str | None = None
    for arg in argv:
        if arg in options:
            current = arg
            out.append(arg)
            continue
        if current is not None and not arg.startswith("-") and out[-1] != current:
            out += [current, arg]
            continue
        if arg.startswith("-"):
            current = None
        out.append(arg)
    return out


def mount_game_commands() -> None:
    """Each game's own commands (its ``commands`` feature) as ``damier GAME ...``."""
    for info in registry.with_feature("commands"):
        app.add_typer(info.hook("commands"), name=info.name)


mount_game_commands()


def main() -> None:
    try:
        app(args=expand_multi_value_options(sys.argv[1:]), prog_name="damier")
    except DamierError as exc:
        print_error(str(exc))
        quick_exit(2)
    except SystemExit as done:  # as Python ends with it: None is 0, an int itself, anything else printed and 1
        code = done.code
        if code is not None and not isinstance(code, int):
            print(code, file=sys.stderr)
            code = 1
        quick_exit(code or 0)
    quick_exit(0)


def quick_exit(code: int) -> None:
    """End the process with ``code`` once the command is done: the exit handlers run (logging, multiprocessing's
    children, temporary files) and the standard streams are flushed, but the interpreter's teardown is skipped:
    freeing the compiled kernels' code one object at a time takes about 0.2 s of every command that ran a kernel.
    With threads of the command still running (they would be cut), the interpreter ends as usual."""
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream: what could be written was
            stream.flush()
    os._exit(code)
