"""The game contract every damier game implements: an immutable ``Game`` and a mutable ``State``.

``ai``, ``arena``, ``rl``, ``protocol`` and ``server`` see games only through these two classes (OpenSpiel's
model), plus the optional hooks a game may override for speed (``evaluate``, ``random_playout``, ``search``).
"""

from __future__ import annotations

import abc
import json
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # numpy is imported by the games, not by ``import damier`` (fast start-up)
    import numpy as np

from damier.core.errors import IllegalMoveError, OptionError, ParseError, RecordError, StateError
from damier.core.options import OptionSet

#: ``State.player`` when the next move is a chance event (dice, random robots): see ``chance_outcomes``.
CHANCE = -1
#: ``State.player`` once the game is over.
TERMINAL = -2

STATE_FORMAT = "damier.state"
STATE_VERSION = 1


def check_header(obj: Any, noun: str, expected_format: str, expected_version: int) -> None:
    """``RecordError`` unless ``obj`` is a JSON object of ``expected_format`` at ``expected_version``."""
    if not isinstance(obj, Mapping):
        raise RecordError(f"a {noun} must be a JSON object, not {type(obj).__name__}")
    if obj.get("format") != expected_format:
        raise RecordError(f"not a damier {noun}: format is {obj.get('format')!r}, expected {expected_format!r}")
    if obj.get("version") != expected_version:
        raise RecordError(
            f"unsupported {noun} version {obj.get('version')!r}; this damier reads version {expected_version}"
        )


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (``None`` for a draw), a return per player, the reason in words.

    >>> o = Outcome(winner=0, returns=(1.0, -1.0), reason="Blue has no atoms left")
    >>> Outcome.from_json(o.to_json()) == o
    True
    """

    winner: int | None
    returns: tuple[float, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "returns": list(self.returns), "reason": self.reason}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Outcome:
        try:
            winner = obj["winner"]
            returns = tuple(float(r) for r in obj["returns"])
            reason = str(obj["reason"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"result is not of the form {{winner, returns, reason}}: {exc}") from None
        if winner is not None and not isinstance(winner, int):
            raise RecordError(f"result winner must be a player index or null, not {winner!r}")
        return cls(winner=winner, returns=returns, reason=reason)


@dataclass(frozen=True)
class SearchResult:
    """What a game's own search hook returns for one fixed-depth search."""

    move: int
    score: float
    nodes: int
    completed: bool
    pv: tuple[int, ...] = ()


@dataclass
class Iteration:
    """One completed depth of an iterative-deepening search: the score from the side to move's view, the best
    move, the principal variation, the nodes searched and the seconds taken so far (engines and the text engine
    protocol report these)."""

    depth: int
    score: int
    move: int
    pv: list[int] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class Game(abc.ABC):
    """An immutable game configuration: the rules variant, metadata and the factory of states.

    Subclasses set the class-level metadata and implement ``new_state``. Instances are created by
    ``damier.load(name, **options)``, which validates the options.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    option_set: ClassVar[OptionSet]
    has_chance: ClassVar[bool] = False
    #: whether a game can end in a draw (and players may agree to one)
    has_draws: ClassVar[bool] = True

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = self.option_set.validate(options, self.name)

    # ----- metadata -------------------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """How many players take part."""

    @property
    @abc.abstractmethod
    def board_shape(self) -> tuple[int, int]:
        """(rows, columns) of the board."""

    @property
    @abc.abstractmethod
    def num_moves(self) -> int:
        """Size of the move space: every move is an int in ``range(num_moves)``."""

    @property
    def player_names(self) -> tuple[str, ...]:
        """Names of the players in seat order."""
        return tuple(f"Player {i + 1}" for i in range(self.num_players))

    # ----- states ---------------------------------------------------------------------------------------
    @abc.abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """The initial state. ``seed`` drives every chance event of the game, so a game replays exactly."""

    def state_from_position(self, position: str, seed: int | None = None) -> State:
        """A state set up from this game's position notation (see ``State.position``)."""
        raise ParseError(f"{self.name} has no position notation")

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        """Rebuild a state written by ``State.to_json``: same position, same history (undo works)."""
        check_header(obj, "state", STATE_FORMAT, STATE_VERSION)
        if obj.get("game") != self.name:
            raise RecordError(f"the state is of game {obj.get('game')!r}, not {self.name!r}")
        options = obj.get("options", {})
        try:
            same = isinstance(options, Mapping) and self.option_set.validate(options, self.name) == self.options
        except OptionError as exc:
            raise RecordError(f"the state's options are not valid: {exc}") from None
        if not same:
            raise RecordError(f"the state's options {options!r} differ from this game's {self.options!r}")
        state = self.replay(obj.get("moves"), seed=obj.get("seed"), start=obj.get("start"))
        if "position" in obj and state.position() != obj["position"]:
            raise RecordError(
                f"the moves lead to {state.position()!r}, not to the saved position {obj['position']!r}"
            )
        return state

    def replay(self, moves: Any, seed: Any = None, start: Any = None) -> State:
        """Play a list of moves in notation from the start (or from the ``start`` position)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(f"seed must be an integer or null, not {seed!r}")
        if start is not None and not isinstance(start, str):
            raise RecordError(f"start must be a position string or null, not {start!r}")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("moves must be a list of moves in notation (strings)")
        try:
            state = self.new_state(seed) if start is None else self.state_from_position(start, seed)
        except ParseError as exc:
            raise RecordError(f"bad start position: {exc}") from None
        for ply, text in enumerate(moves, start=1):
            try:
                state.play(state.parse_move(text))
            except (ParseError, IllegalMoveError, StateError) as exc:
                raise RecordError(f"move {ply} ({text!r}) does not replay: {exc}") from None
        return state

    # ----- optional hooks for the generic players -------------------------------------------------------
    #: names of the evaluation functions the game offers, the default first
    evaluations: ClassVar[tuple[str, ...]] = ()

    def evaluate(self, state: State, player: int, evaluation: str | None = None) -> float:
        """Static evaluation of ``state`` from ``player``'s point of view (higher is better)."""
        raise NotImplementedError(f"{self.name} has no evaluation function")

    @property
    def has_evaluation(self) -> bool:
        return type(self).evaluate is not Game.evaluate

    def random_playout(self, state: State, seed: int) -> tuple[float, ...] | None:
        """Play uniformly random moves from ``state`` (left unchanged) to the end; the returns per player.

        ``None`` means the game offers no fast playout, and callers play one through the contract.
        """
        return None

    def random_playouts(self, state: State, count: int, seed: int) -> list[int]:
        """Play ``count`` random games from ``state``; how many each player won (for benchmarks and MCTS).

        Games override this with a kernel loop; the default plays through ``random_playout``.
        """
        import random

        wins = [0] * self.num_players
        rng = random.Random(seed)
        for _ in range(count):
            returns = self.random_playout(state, rng.getrandbits(63))
            if returns is None:
                returns = play_randomly(state, rng)
            best = max(returns)
            if list(returns).count(best) == 1:
                wins[list(returns).index(best)] += 1
        return wins

    def search(self, state: State, depth: int, node_limit: int, evaluation: str, context: Any) -> SearchResult:
        """A fixed-depth alpha-beta search inside the game's kernel (see ``has_search``).

        ``context`` comes from ``new_search`` and belongs to one searcher (its transposition table), so two
        searchers never share one.
        """
        raise NotImplementedError(f"{self.name} has no kernel search")

    @property
    def has_search(self) -> bool:
        return type(self).search is not Game.search

    def new_search(self, previous: Any = None) -> Any:
        """The context of a kernel search of a new position (a cleared transposition table, reusing the
        memory of ``previous`` when it is one)."""
        return None

    #: the score of a won position in this game's evaluations and searches (a loss is minus this; a win
    #: found n plies ahead scores ``win_score - n``)
    win_score: ClassVar[float] = 1e9

    def is_decided_score(self, score: float) -> bool:
        """Whether a search score means a forced win or loss (deepening further is pointless)."""
        return abs(score) >= 0.9 * self.win_score

    # ----- identity -------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.options, sort_keys=True)))

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"damier.load({self.name!r}{args})"


def play_randomly(state: State, rng: Any) -> tuple[float, ...]:
    """A uniformly random game from ``state`` through the contract (chance events drawn with their odds)."""
    scratch = state.copy()
    while not scratch.is_over():
        if scratch.player == CHANCE:
            outcomes = scratch.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]
        else:
            move = rng.choice(scratch.legal_moves())
        scratch._apply(move)
    outcome = scratch.outcome()
    assert outcome is not None
    return outcome.returns


class State(abc.ABC):
    """A mutable position with its history: play and undo moves, ask what is legal, how it ended.

    Moves are small ints; ``move_to_str`` and ``parse_move`` convert them to and from notation.
    """

    game: Game
    seed: int | None
    start: str | None
    history: list[int]

    # ----- the core of the contract ---------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def player(self) -> int:
        """Index of the player to move, or ``CHANCE``, or ``TERMINAL``."""

    @abc.abstractmethod
    def legal_moves(self) -> list[int]:
        """The legal moves (or, at a chance node, the possible outcomes), in increasing order."""

    @abc.abstractmethod
    def is_legal(self, move: int) -> bool:
        """Whether ``move`` is legal now."""

    def legal_mask(self) -> np.ndarray:
        """A boolean array of length ``game.num_moves``, True where the move is legal (for RL code)."""
        import numpy as np

        mask = np.zeros(self.game.num_moves, dtype=bool)
        mask[self.legal_moves()] = True
        return mask

    def play(self, move: int) -> None:
        """Play ``move`` (an int from ``legal_moves``); raise ``IllegalMoveError`` if it is not legal."""
        if self.player == TERMINAL:
            raise IllegalMoveError(f"the game is over ({self.outcome_reason()}); no move can be played")
        if not isinstance(move, numbers.Integral) or isinstance(move, bool) or not self.is_legal(int(move)):
            raise IllegalMoveError(f"{move!r} is not a legal move here; legal moves: {self._legal_summary()}")
        self._apply(int(move))

    @abc.abstractmethod
    def _apply(self, move: int) -> None:
        """Apply a move already known to be legal, pushing what ``undo`` needs."""

    @abc.abstractmethod
    def undo(self) -> None:
        """Take back the last move; raise ``StateError`` if no move was played."""

    @abc.abstractmethod
    def copy(self) -> State:
        """An independent copy (history included)."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, the outcomes with their probabilities (summing to 1); otherwise empty."""
        return []

    def is_over(self) -> bool:
        return self.player == TERMINAL

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def outcome_reason(self) -> str:
        outcome = self.outcome()
        return outcome.reason if outcome else "in progress"

    # ----- notation -------------------------------------------------------------------------------------
    @abc.abstractmethod
    def move_to_str(self, move: int) -> str:
        """The notation of ``move`` (need not be legal now, only well formed)."""

    @abc.abstractmethod
    def parse_move(self, text: str) -> int:
        """The move written ``text``; ``ParseError`` if it is not notation, ``IllegalMoveError`` if not legal."""

    @abc.abstractmethod
    def position(self) -> str:
        """The position in this game's text notation (round-trips through ``game.state_from_position``)."""

    def moves_in_notation(self) -> list[str]:
        """The history as notation, each move written in the position where it was played."""
        replay = self.game.new_state(self.seed) if self.start is None else self.game.state_from_position(
            self.start, self.seed
        )
        out = []
        for move in self.history:
            out.append(replay.move_to_str(move))
            replay._apply(move)
        return out

    # ----- serialisation and views ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A lossless, versioned JSON object; ``game.state_from_json`` rebuilds the state from it."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self.seed,
            "start": self.start,
            "moves": self.moves_in_notation(),
            "position": self.position(),
        }

    @abc.abstractmethod
    def render_text(self) -> str:
        """A plain-text picture of the position, with coordinates."""

    def board_json(self, previews: bool = True) -> dict[str, Any]:
        """The data a board view draws (JSON-ready; ``kind`` names the game's web view).

        ``previews=False`` leaves out what only a player about to move needs (Khet's laser preview of every
        legal move), for replays and watchers; games with no such data ignore it.
        """
        return {"kind": self.game.name, "position": self.position()}

    def render_styled(self) -> list[tuple[str, str | None]]:
        """``render_text`` cut into (text, colour name or None) segments, for coloured terminals."""
        return [(self.render_text(), None)]

    @abc.abstractmethod
    def observation(self) -> np.ndarray:
        """A numpy tensor of the position from the view of the player to move (layout documented per game)."""

    @abc.abstractmethod
    def events(self) -> list[dict[str, Any]]:
        """What the last move did, for animation (empty before the first move)."""

    @abc.abstractmethod
    def key(self) -> bytes:
        """A compact key identifying the position (for transposition tables and repetition)."""

    def _legal_summary(self, limit: int = 12) -> str:
        moves = self.legal_moves()
        names = [self.move_to_str(m) for m in moves[:limit]]
        more = f" ... ({len(moves)} in all)" if len(moves) > limit else ""
        return (", ".join(names) + more) if names else "none"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"

    def __str__(self) -> str:
        return self.render_text()
