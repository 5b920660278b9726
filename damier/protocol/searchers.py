"""What the text engine protocol needs of a game: its ``EngineInfo`` (declared in its ``GameInfo``) and a
searcher, the one iterative-deepening driver over the game's kernel search. The protocol names no game.
"""

from __future__ import annotations

from typing import Any

from damier.ai.alphabeta import fixed_depth_search
from damier.ai.deepening import Deepening
from damier.core import registry
from damier.core.game import Game
from damier.core.registry import EngineInfo


def option_text(value: Any) -> str:
    """A game option's value as ``setoption`` writes it (``true``/``false`` for a switch).

    >>> option_text(True), option_text(50), option_text("claim")
    ('true', '50', 'claim')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def protocol_game(name: str) -> EngineInfo:
    """The protocol description of game ``name``; a ``FeatureError`` naming the games that have an engine."""
    engine = registry.require(name, "engine").engine
    assert engine is not None
    return engine


def make_searcher(game: Game) -> Deepening:
    """The engine's searcher: the one deepening driver over the game's declared kernel search."""
    return Deepening(fixed_depth_search(game))
