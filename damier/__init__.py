"""damier: play, solve and study grid games of lasers, robots and explosions.

>>> import damier
>>> game = damier.load("atoms", rows=4, cols=4)
>>> state = game.new_state()
>>> state.play(state.parse_move("A1"))
>>> state.move_to_str(state.history[-1]), state.player
('A1', 1)
>>> [g.name for g in damier.games()]
['atoms', 'jewels', 'khet', 'micro', 'ricochet']
"""

from __future__ import annotations

from typing import Any

from damier.core import registry
from damier.core.errors import (
    AgentSpecError,
    DamierError,
    FeatureError,
    IllegalMoveError,
    OptionError,
    ParseError,
    RecordError,
    StateError,
    UnknownGameError,
)
from damier.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    Iteration,
    Outcome,
    Solution,
    State,
    Termination,
    abandonment,
    aborted,
    agreement,
    forfeit,
    resignation,
    solved,
    timeout,
    unfinished,
)
from damier.core.messages import cause_of, say
from damier.core.record import Record
from damier.core.registry import EngineInfo, GameInfo, ScoreScale
from damier.games import register_builtin_games

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AgentSpecError",
    "DamierError",
    "EngineInfo",
    "FeatureError",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "Iteration",
    "OptionError",
    "Outcome",
    "ParseError",
    "Record",
    "RecordError",
    "ScoreScale",
    "Solution",
    "State",
    "StateError",
    "Termination",
    "UnknownGameError",
    "abandonment",
    "aborted",
    "agreement",
    "forfeit",
    "games",
    "load",
    "resignation",
    "solved",
    "state_from_json",
    "timeout",
    "unfinished",
]

register_builtin_games()


def load(name: str, **options: Any) -> Game:
    """The game ``name`` configured with ``options``; ``UnknownGameError`` / ``OptionError`` on bad input.

    >>> load("atoms", rows=1)
    Traceback (most recent call last):
    ...
    damier.core.errors.OptionError: option 'rows': 1 is out of range; expected an integer from 2 to 26
    """
    return registry.load(name, **options)


def games() -> list[GameInfo]:
    """Every registered game with its title, description and options (imports no rules kernel)."""
    return registry.all_infos()


def state_from_json(obj: Any) -> State:
    """Rebuild any saved state: the game and options are read from the object itself."""
    if not isinstance(obj, dict) or not isinstance(obj.get("game"), str):
        raise RecordError(say("rules.state.saved_not_object"))
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(say("rules.state.saved_options"))
    try:
        game = registry.load(obj["game"], **options)
    except (UnknownGameError, OptionError) as exc:
        raise RecordError(say("rules.state.saved_game", error=cause_of(exc))) from None
    return game.state_from_json(obj)
