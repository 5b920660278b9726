"""The registry of games: one declaration per game, available without importing any rules kernel.

A game declares one ``GameInfo`` in its package ``__init__`` (cheap to import). The declaration says everything
an outer layer (``ai``, ``arena``, ``protocol``, ``server``, ``cli``, the web client) may use of the game: its
metadata and options, its computer levels and named agents, and its optional features, each a lazy reference
``"package.module:attribute"`` that is imported only when used. ``load`` imports the rules module only when a game
is actually created, so ``damier games`` starts fast and compiles nothing.

>>> info("atoms").has("search"), info("atoms").has("solver")
(True, False)
>>> sorted(i.name for i in with_feature("perft"))
['khet']
>>> require("atoms", "solver")
Traceback (most recent call last):
...
damier.core.errors.FeatureError: atoms has no solver; games with one: micro, ricochet
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from damier.core import messages
from damier.core.endings import Termination, declare
from damier.core.errors import FeatureError, UnknownGameError
from damier.core.messages import say
from damier.core.options import OptionSet

if TYPE_CHECKING:
    from damier.core.game import Game

#: the optional features a game may declare, with what each reference names (the contract is in docs/api.md)
FEATURES: dict[str, str] = {
    "search": "a factory (game) -> FixedDepthSearch: the kernel's fixed-depth alpha-beta (damier.ai.deepening)",
    "evaluate": "a function (state, player, evaluation name) -> float, higher is better for player",
    "playout": "a function (state, seed) -> returns per player: one random game from state in the kernel",
    "playouts": "a function (state, count, seed) -> wins per player of count random games in the kernel",
    "perft": "a function (state, depth, bulk) -> {move in notation: leaves}: the kernel's perft",
    "solver": "a function (state, max_cost, node_limit) -> Solution: an exact puzzle solver",
    "puzzle": "a function (text, options) -> State: a puzzle from its id or JSON form (which may set options)",
    "analyse": "a function (state, exact=None, all_paths=False) -> dict: what `damier solve` prints of a puzzle",
    "hints": "a function (state, level) -> dict: a graded hint, level 1 (vaguest) to 4 (the whole line)",
    "commands": "a Typer app: the game's own commands, run as `damier GAME ...`",
    "race": "a Race (damier.core.race): the rules and rounds of the game's race rooms (puzzles)",
    "describe_events": "a function (state) -> list of lines: what the last move did, for the terminal",
    "client": "a function (game) -> dict: what the web client draws with (setups, palette, squares)",
    "editor": "a function (game, board) -> str: the position of a board set up in the position editor",
    "svg": "a function (state) -> str: an SVG picture of the position (notebooks)",
    "policies": "a dict name -> function (state, random.Random) -> move: simple players (the agent policy:name=)",
    "howto": "a HowTo (damier.core.howto): the How to play page's texts, diagrams from real positions and example "
             "moves, and a first-game tutorial",
    "premoves": "a function (state) -> State: the position with the player who waits to move (premoves)",
}


@dataclass(frozen=True)
class EngineInfo:
    """How the game's engine speaks the text engine protocol (``damier engine GAME``)."""

    #: ``position`` words for the game's setups: protocol word -> value of the game's ``setup`` option.
    #: ``startpos`` (the game's default start) is accepted by every game and need not be listed.
    setups: Mapping[str, str] = field(default_factory=dict)
    #: how many space-separated fields a position string has (``position <fields...> [moves]``)
    position_fields: int = 1
    #: for a game that reads positions in more than one format: ``"package.module:function"``, a function (the
    #: words after ``position``) -> how many of them are the position string; empty: always ``position_fields``
    position_words: str = ""
    #: the deepest ``go depth`` the search can do
    max_depth: int = 64
    #: game options that every ``position`` command conveys (the setup's name), so an ``ext:`` agent does not
    #: send them with ``setoption``
    position_options: tuple[str, ...] = ()

    def count_position_words(self, words: Sequence[str]) -> int:
        """How many of ``words`` (a ``position`` command's, after ``position``) are the position string.

        >>> EngineInfo(position_fields=4).count_position_words(["a", "b", "c", "d", "e"])
        4
        """
        if not self.position_words:
            return self.position_fields
        module_name, _, attribute = self.position_words.partition(":")
        count: int = getattr(importlib.import_module(module_name), attribute)(list(words))
        return count

    def setup_word(self, setup: str) -> str:
        """The protocol word of the game's setup ``setup`` (the first word naming it)."""
        return next(word for word, value in self.setups.items() if value == setup)


@dataclass(frozen=True)
class ScoreScale:
    """How a player reads the game's search scores: the analysis board's lines, its bar and its graph.

    A score of ``s`` search points (from the side to move's view) is a winning chance of
    ``1 / (1 + exp(-s / chance))``, lichess's curve over centipawns; ``chance`` is measured from games between the
    game's levels (``benchmarks/score_scale.py``). The lines say a score in the game's ``unit`` (a material-like
    unit, in the plural, worth ``points`` search points: Khet's Pyramids), or, with no unit, as that winning chance.
    A decided score (``Game.is_decided_score``) reads as a win or a loss some moves away instead. ``evaluation`` is
    the one the analyses search with (empty: the game's first).

    >>> ScoreScale(chance=1500.0, unit="Pyramids", points=1000.0).to_json()["unit"]
    'Pyramids'
    """

    chance: float
    unit: str = ""
    points: float = 1.0
    evaluation: str = ""

    def __post_init__(self) -> None:
        if not (self.chance > 0 and self.points > 0):
            raise ValueError(f"a score scale's chance and points are positive, not {self.chance} and {self.points}")

    def to_json(self) -> dict[str, Any]:
        return {"chance": self.chance, "unit": self.unit or None, "points": self.points,
                "evaluation": self.evaluation or None}


@dataclass(frozen=True)
class GameInfo:
    """Everything known about a game before its rules are imported: its one declaration."""

    name: str
    title: str
    description: str
    options: OptionSet
    factory: str  # "package.module:ClassName" of the Game subclass
    players: str = "2"  # how many players, in words ("1", "2", "2 to 8")
    has_chance: bool = False
    #: whether the game's usual start is drawn from a seed (a board, a deal, a puzzle): the arcade draws a new seed
    #: for each new game, shows it and lets a player choose it; a game whose start is always the same says False,
    #: and a seed means nothing to it
    seeded_setup: bool = False
    #: whether a game can end in a draw (and players may agree to one)
    has_draws: bool = True
    #: the version of the rules as implemented; records and states carry it, and one written under another
    #: version is refused with a clear error
    rules_version: int = 1
    #: computer levels, each an agent spec string (``easy``, ``medium``, ``hard``) for this game
    levels: dict[str, str] = field(default_factory=dict)
    #: named agents specific to this game (``atoms-classic``), each an agent spec string
    agents: dict[str, str] = field(default_factory=dict)
    #: the agent spec that gives hints to people (a level, a named agent or any spec)
    hint: str = "hard"
    #: puzzles: the options of the puzzle of the day (beside the defaults), e.g. no one-move puzzles
    daily: Mapping[str, Any] = field(default_factory=dict)
    #: names of the evaluation functions the ``evaluate`` feature offers, the default first
    evaluations: tuple[str, ...] = ()
    #: the optional features (keys of ``FEATURES``), each ``"package.module:attribute"``
    features: Mapping[str, str] = field(default_factory=dict)
    #: the text engine protocol's view of the game (with the ``search`` feature)
    engine: EngineInfo | None = None
    #: the random plies the arena plays by default at the start of each game, so that the games of deterministic
    #: engines differ; 0 where each game's seeded setup and chance events already make it a new game
    opening: int = 2
    #: how a player reads the search's scores (a game of several players with an evaluation); None: as they are
    scores: ScoreScale | None = None
    #: the game's own ways to end (a Pharaoh hit), beside core's (``Termination.RESIGNATION`` ...): declared when
    #: the game is registered, so that records and results name them
    endings: tuple[Termination, ...] = ()
    #: the package whose ``messages/<lang>.json`` hold the game's words in each language (its pieces, its board
    #: module's texts, its How to play page, its errors), keys without the game's name (``damier.core.messages``)
    messages: str = ""

    def __post_init__(self) -> None:
        unknown = sorted(set(self.features) - set(FEATURES))
        if unknown:
            raise ValueError(f"game {self.name!r} declares unknown features {unknown}; known: {', '.join(FEATURES)}")
        if ("evaluate" in self.features) != bool(self.evaluations):
            raise ValueError(f"game {self.name!r}: declare 'evaluate' and its evaluations together")
        if self.engine is not None and "search" not in self.features:
            raise ValueError(f"game {self.name!r}: an engine needs the 'search' feature")
        if self.scores is not None and self.scores.evaluation and self.scores.evaluation not in self.evaluations:
            raise ValueError(f"game {self.name!r}: its scores are read from evaluation {self.scores.evaluation!r}, "
                             f"which it does not declare (it has: {', '.join(self.evaluations) or 'none'})")

    @property
    def players_text(self) -> str:
        """How many players, with the noun: ``players`` as a phrase.

        >>> [GameInfo(n, n, "", OptionSet(()), "", players=n).players_text for n in ("1", "2", "2 to 8")]
        ['1 player', '2 players', '2 to 8 players']
        """
        return f"{self.players} {'player' if self.players.strip() == '1' else 'players'}"

    def has(self, feature: str) -> bool:
        """Whether the game declares ``feature`` (a key of ``FEATURES``)."""
        if feature not in FEATURES:
            raise ValueError(f"unknown feature {feature!r}; known: {', '.join(FEATURES)}")
        return feature in self.features

    def hook(self, feature: str) -> Any:
        """The object behind ``feature`` (imported now); ``FeatureError`` naming the games that have it."""
        if not self.has(feature):
            raise FeatureError(missing_message(self.name, feature))
        module_name, _, attribute = self.features[feature].partition(":")
        return getattr(importlib.import_module(module_name), attribute)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "players": self.players,
            "has_chance": self.has_chance,
            "seeded_setup": self.seeded_setup,
            "has_draws": self.has_draws,
            "rules_version": self.rules_version,
            "options": [o.to_json() for o in self.options.options],
            "levels": dict(self.levels),
            "agents": dict(self.agents),
            "hint": self.hint,
            "daily": dict(self.daily),
            "evaluations": list(self.evaluations),
            "features": sorted(self.features) + (["engine"] if self.engine else []),
            "scores": self.scores.to_json() if self.scores else None,
        }

    def game_class(self) -> type[Game]:
        module_name, _, class_name = self.factory.partition(":")
        cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
        return cls


_REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    """Add a game (built-in games register themselves; tests and plug-ins may add more)."""
    for ending in info.endings:
        declare(ending)
    _REGISTRY[info.name] = info
    if info.messages:
        messages.GAMES[info.name] = info.messages


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)
    messages.GAMES.pop(name, None)


def info(name: str) -> GameInfo:
    """The ``GameInfo`` of a registered game, or ``UnknownGameError`` listing the known names."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _REGISTRY:
        raise UnknownGameError(say("rules.game.unknown", name=repr(name), games=", ".join(sorted(_REGISTRY))))
    return _REGISTRY[key]


def all_infos() -> list[GameInfo]:
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def with_feature(feature: str) -> list[GameInfo]:
    """The registered games that declare ``feature`` (or ``"engine"``: an engine for the text protocol)."""
    if feature == "engine":
        return [i for i in all_infos() if i.engine is not None]
    return [i for i in all_infos() if i.has(feature)]


def missing_message(name: str, feature: str) -> str:
    """``khet has no solver; games with one: ...`` (the games that declare ``feature``), the feature said in words
    (``rules.feature.<feature>`` in the core's catalogue)."""
    code = f"rules.feature.{feature}"
    word = {"code": code, "params": {}} if code in messages.catalogue(*messages.CORE, "en") else feature
    having = [i.name for i in with_feature(feature)]
    if having:
        return say("rules.feature.missing", game=name, feature=word, games=", ".join(having))
    return say("rules.feature.missing_anywhere", game=name, feature=word)


def require(name: str, feature: str) -> GameInfo:
    """The ``GameInfo`` of ``name`` if it declares ``feature`` (or ``"engine"``); else ``FeatureError``."""
    game = info(name)
    present = game.engine is not None if feature == "engine" else game.has(feature)
    if not present:
        raise FeatureError(missing_message(game.name, feature))
    return game


def load(name: str, **options: Any) -> Game:
    """Create the game ``name`` with ``options`` (validated; unknown options raise ``OptionError``)."""
    return info(name).game_class()(**options)

