"""The games the text engine protocol plays: each with its setup names and the search an engine runs.

A game joins by adding a ``ProtocolGame`` to ``GAMES``; the protocol itself sees the game only through the
contract (positions, moves in notation) and the ``Searcher`` below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from damier.core.errors import DamierError
from damier.core.game import Game, Iteration, State


class Searcher(Protocol):
    """An iterative-deepening search that another thread may stop."""

    def new_game(self) -> None:
        """Forget everything learnt in the previous game (transposition table, move ordering)."""
        ...

    def think(self, state: State, max_depth: int | None, seconds: float | None,
              on_iteration: Callable[[Iteration], None]) -> Iteration:
        """Search ``state`` (a position with legal moves) until the depth, the time or ``stop``."""
        ...

    def stop(self) -> None:
        """Ask a running ``think`` (in another thread) to return its last completed iteration now."""
        ...


@dataclass(frozen=True)
class ProtocolGame:
    """How a game appears in the protocol."""

    name: str
    #: ``position`` words for the game's setups: protocol word -> value of the game's ``setup`` option
    setups: Mapping[str, str]
    #: how many space-separated fields a position string has (``position <fields...> [moves]``)
    position_fields: int
    make_searcher: Callable[[Game], Searcher]
    #: the deepest ``go depth`` the search can do
    max_depth: int = 80
    #: game options that every ``position`` command conveys (the setup's name), so an ``ext:`` agent does not
    #: send them with ``setoption``
    position_options: tuple[str, ...] = ()

    def setup_word(self, setup: str) -> str:
        """The protocol word of the game's setup ``setup`` (the first word naming it)."""
        return next(word for word, value in self.setups.items() if value == setup)


class KhetSearcher:
    """The Khet engine (``damier.games.khet.search.Engine``) behind the ``Searcher`` protocol."""

    def __init__(self, game: Game) -> None:
        from damier.games.khet.search import Engine

        self._engine = Engine()

    def new_game(self) -> None:
        self._engine.new_game()

    def think(self, state: State, max_depth: int | None, seconds: float | None,
              on_iteration: Callable[[Iteration], None]) -> Iteration:
        return self._engine.think(state, max_depth=max_depth, seconds=seconds, on_iteration=on_iteration)

    def stop(self) -> None:
        self._engine.stop[0] = 1


def _khet_searcher(game: Game) -> Searcher:
    return KhetSearcher(game)


GAMES: dict[str, ProtocolGame] = {
    "khet": ProtocolGame(
        name="khet",
        setups={"standard": "classic", "classic": "classic", "imhotep": "imhotep", "dynasty": "dynasty"},
        position_fields=3,
        make_searcher=_khet_searcher,
        max_depth=80,  # the engine's stack holds 96 plies, quiescence included
        position_options=("setup",),
    ),
}


def option_text(value: Any) -> str:
    """A game option's value as ``setoption`` writes it (``true``/``false`` for a switch).

    >>> option_text(True), option_text(50), option_text("claim")
    ('true', '50', 'claim')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def protocol_game(name: str) -> ProtocolGame:
    """The protocol description of game ``name``; a ``DamierError`` naming the games that have an engine."""
    key = name.strip().lower()
    if key not in GAMES:
        raise DamierError(f"{name} has no engine for the text protocol; games with one: {', '.join(sorted(GAMES))}")
    return GAMES[key]
