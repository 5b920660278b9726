"""The game contract every damier game implements: an immutable ``Game`` and a mutable ``State``.

``ai``, ``arena``, ``rl``, ``protocol`` and ``server`` see games only through these two classes (OpenSpiel's
model), plus the optional features a game declares in its ``GameInfo`` (``damier.core.registry``).
"""

from __future__ import annotations

import abc
import json
import numbers
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # numpy is imported by the games, not by ``import damier`` (fast start-up)
    import numpy as np

from damier.core.endings import Termination as Termination  # re-exported: Termination is part of the game API
from damier.core.endings import declared
from damier.core.errors import IllegalMoveError, OptionError, ParseError, RecordError, StateError
from damier.core.messages import cause_of, coded, from_coded, nested, say
from damier.core.options import OptionSet

if TYPE_CHECKING:
    from damier.core.registry import GameInfo

#: ``State.player`` when the next move is a chance event (dice, random robots): see ``chance_outcomes``.
CHANCE = -1
#: ``State.player`` once the game is over.
TERMINAL = -2

STATE_FORMAT = "damier.state"
STATE_VERSION = 1


def check_header(obj: Any, noun: str, expected_format: str, expected_version: int) -> None:
    """``RecordError`` unless ``obj`` is a JSON object of ``expected_format`` at ``expected_version``."""
    if not isinstance(obj, Mapping):
        raise RecordError(say("rules.record.not_object", noun=_noun(noun), type=type(obj).__name__))
    if obj.get("format") != expected_format:
        raise RecordError(say("rules.record.format", noun=_noun(noun), found=repr(obj.get("format")),
                              expected=repr(expected_format)))
    if obj.get("version") != expected_version:
        raise RecordError(say("rules.record.version", noun=_noun(noun), found=repr(obj.get("version")),
                              expected=str(expected_version)))


def _noun(noun: str) -> Any:
    """What a saved object is (``state``, ``record``) as a message's parameter, said in the reader's language."""
    return {"code": f"rules.noun.{noun}", "params": {}} if noun in ("state", "record") else noun


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (``None`` for a draw), a return per player, the reason in words, the
    ``termination`` code, and for puzzles the moves used (``cost``) against the fewest possible (``optimum``).

    >>> o = Outcome(winner=0, returns=(1.0, -1.0), reason="Blue has no atoms left", termination=Termination.ELIMINATION)
    >>> Outcome.from_json(o.to_json()) == o
    True
    >>> solved(cost=9, optimum=6).returns
    (0.6666666666666666,)
    """

    winner: int | None
    returns: tuple[float, ...]
    reason: str
    termination: Termination = Termination.UNKNOWN
    cost: int | None = None
    optimum: int | None = None

    @property
    def is_early(self) -> bool:
        """Whether the game ended outside its rules (resignation, agreement, forfeit): a replay of its moves does
        not reach this result."""
        return self.termination in (Termination.RESIGNATION, Termination.AGREEMENT, Termination.FORFEIT,
                                    Termination.TIME, Termination.ABORTED, Termination.ABANDONMENT,
                                    Termination.UNFINISHED)

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"winner": self.winner, "returns": list(self.returns), "reason": self.reason,
                               "termination": self.termination.value, **coded(self.reason)}
        if self.cost is not None:
            obj["cost"] = self.cost
        if self.optimum is not None:
            obj["optimum"] = self.optimum
        return obj

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Outcome:
        try:
            winner = obj["winner"]
            returns = tuple(float(r) for r in obj["returns"])
            reason = from_coded(str(obj["reason"]), obj)  # its code and parameters, when it has them
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(say("rules.result.form", error=str(exc))) from None
        if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
            raise RecordError(say("rules.result.winner", value=repr(winner)))
        code = obj.get("termination", Termination.UNKNOWN.value)
        try:
            termination = Termination.of(code)
        except ValueError:
            known = ", ".join(t.value for t in declared())
            raise RecordError(say("rules.result.termination", value=repr(code), known=known)) from None
        numbers_ = {}
        for key in ("cost", "optimum"):
            value = obj.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise RecordError(say("rules.result.count", field=key, value=repr(value)))
            numbers_[key] = value
        return cls(winner=winner, returns=returns, reason=reason, termination=termination, **numbers_)


def _early_end(game: Game, losers: set[int], verb: str, termination: Termination, cause: str = "") -> Outcome:
    """The one rule for games that end outside their rules: each loser gets -1, the others share the losers'
    points equally (zero sum), and the winner is named when exactly one player remains. ``verb`` is the code of
    what the losers did (``outcome.resigned``), ``cause`` what led to it (words, or a ``Said``)."""
    count = game.num_players
    others = [q for q in range(count) if q not in losers]
    share = len(losers) / len(others) if others else 0.0
    returns = tuple(-1.0 if q in losers else share for q in range(count))
    winner = others[0] if len(others) == 1 else None
    reason = say(verb, game, losers={"seats": sorted(losers)}, count=len(losers))
    if cause:
        reason = say("outcome.because", game, cause=nested(cause), what=nested(reason))
    if winner is not None:
        reason = say("outcome.wins", game, what=nested(reason), winner={"seat": winner})
    elif others:
        reason = say("outcome.ends", game, what=nested(reason))
    return Outcome(winner=winner, returns=returns, reason=reason, termination=termination)


def resignation(state: State, seat: int) -> Outcome:
    """The result of ``seat`` resigning ``state``'s game (the arena, the server and the terminal all use it).

    >>> import damier
    >>> resignation(damier.load("atoms").new_state(), 0).reason
    'Red resigned: Blue wins'
    >>> resignation(damier.load("atoms", players=3).new_state(), 1).returns
    (0.5, -1.0, 0.5)
    """
    _check_seat(state, seat)
    verb = "outcome.gave_up" if state.game.num_players == 1 else "outcome.resigned"
    return _early_end(state.game, {seat}, verb, Termination.RESIGNATION)


def agreement(state: State) -> Outcome:
    """The result of the players agreeing to end the game (the server's and the terminal's draw offers): a draw
    in most games, the score's verdict in a game that keeps one (``State.agreement_outcome``).

    >>> import damier
    >>> agreement(damier.load("khet").new_state()).reason
    'draw agreed'
    """
    return state.agreement_outcome()


def forfeit(state: State, seats: Collection[int], cause: str) -> Outcome:
    """The result of a game lost by forfeit in ``seats`` (an agent may hold several), ``cause`` in words.

    >>> import damier
    >>> forfeit(damier.load("khet").new_state(), [1], "Red's engine timed out").reason
    "Red's engine timed out; Red loses by forfeit: Silver wins"
    """
    losers = set(seats)
    for seat in losers:
        _check_seat(state, seat)
    return _early_end(state.game, losers, "outcome.forfeit", Termination.FORFEIT, cause)


def timeout(state: State, seat: int) -> Outcome:
    """The result of ``seat``'s clock running out in ``state`` (the arcade's time controls): ``seat`` loses, as a
    player who resigns, and so does every other player who could no longer win anyway (``State.can_win``: one
    already eliminated, say); the players who still could share the losers' points, the winner named when one is
    left. When no other player could still win, the game is drawn instead (chess's rule for a flag that falls
    against a lone king).

    >>> import damier
    >>> timeout(damier.load("khet").new_state(), 0).reason
    'Silver ran out of time: Red wins'
    >>> timeout(damier.load("atoms", players=3).new_state(), 2).returns
    (0.5, 0.5, -1.0)
    """
    _check_seat(state, seat)
    game = state.game
    count = game.num_players
    able = [q for q in range(count) if q != seat and state.can_win(q)]
    if not able:
        others = {"seats": [q for q in range(count) if q != seat]}
        return Outcome(winner=None, returns=(0.0,) * count,
                       reason=say("outcome.time_draw", game, seat={"seat": seat}, others=others),
                       termination=Termination.TIME)
    share = (count - len(able)) / len(able)
    returns = tuple(share if q in able else -1.0 for q in range(count))
    winner = able[0] if len(able) == 1 else None
    reason = say("outcome.time", game, seat={"seat": seat})
    reason = say("outcome.wins", game, what=nested(reason), winner={"seat": winner}) if winner is not None else (
        say("outcome.ends", game, what=nested(reason)))
    return Outcome(winner=winner, returns=returns, reason=reason, termination=Termination.TIME)


def aborted(state: State, cause: str) -> Outcome:
    """The result of a game called off before every player had made a first move (``cause``, the reason in
    words): nobody wins or loses, and the game does not count (lichess's abort).

    >>> import damier
    >>> aborted(damier.load("khet").new_state(), "Silver aborted the game").returns
    (0.0, 0.0)
    """
    count = state.game.num_players
    return Outcome(winner=None, returns=(0.0,) * count, reason=cause,
                   termination=Termination.ABORTED)


def unfinished(state: State, cause: str) -> Outcome:
    """The result of a game left alone so long that it was ended where it stood (``cause``, the reason in words):
    nobody wins or loses.

    >>> import damier
    >>> unfinished(damier.load("khet").new_state(), "no move for 3 days").termination.value
    'unfinished'
    """
    count = state.game.num_players
    return Outcome(winner=None, returns=(0.0,) * count, reason=cause, termination=Termination.UNFINISHED)


def abandonment(state: State, gone: Collection[int], claimant: int, draw: bool = False) -> Outcome:
    """The result of the players ``gone`` having left a game under way, when ``claimant`` claims it: the win (each
    gone player loses, as one who resigns, by the one rule of ``_early_end``) or, with ``draw``, a draw.

    >>> import damier
    >>> abandonment(damier.load("khet").new_state(), [1], 0).reason
    'Red left the game: Silver wins'
    >>> abandonment(damier.load("khet").new_state(), [1], 0, draw=True).reason
    'Red left the game: draw claimed by Silver'
    """
    losers = set(gone)
    for seat in (*losers, claimant):
        _check_seat(state, seat)
    if claimant in losers:
        raise ValueError("a player who left cannot claim the game")
    game = state.game
    if draw:
        return Outcome(winner=None, returns=(0.0,) * state.game.num_players,
                       reason=say("outcome.left_draw", game, losers={"seats": sorted(losers)},
                                  claimant={"seat": claimant}),
                       termination=Termination.ABANDONMENT)
    return _early_end(game, losers, "outcome.left", Termination.ABANDONMENT)


def solved(cost: int, optimum: int | None) -> Outcome:
    """A solved puzzle: the return compares the moves used with the fewest possible (1.0 when optimal)."""
    ratio = 1.0 if optimum is None or cost <= 0 else min(1.0, optimum / cost)
    if optimum is None:
        words = say("outcome.solved", cost=cost)
    else:
        words = say("outcome.solved_optimal", cost=cost) if cost <= optimum else say("outcome.solved_over", cost=cost,
                                                                                        optimum=optimum)
    return Outcome(winner=0, returns=(ratio,), reason=words, termination=Termination.SOLVED, cost=cost,
                   optimum=optimum)


def _check_seat(state: State, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < state.game.num_players:
        raise StateError(say("rules.seat.unknown", value=repr(seat), last=str(state.game.num_players - 1)))


@dataclass
class Iteration:
    """One search report: the best move, its score from the side to move's view, the principal variation, the
    depth, the nodes searched and the seconds taken so far, and whether the depth was searched to the end
    (engines, hints and the text engine protocol report these; a fixed-depth search answers one)."""

    depth: int = 0
    score: float = 0
    move: int | None = None
    pv: list[int] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    completed: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "score": self.score, "depth": self.depth, "nodes": self.nodes,
                "seconds": round(self.seconds, 4), "pv": list(self.pv)}


@dataclass(frozen=True)
class Solution:
    """What a puzzle solver found: the moves, their cost (moves counted by the game's rule), whether the cost is
    proven the fewest possible, and the nodes searched. ``moves`` is empty when nothing was found within the
    limits (then ``cost`` is -1)."""

    moves: tuple[int, ...]
    cost: int
    optimal: bool
    nodes: int

    @property
    def found(self) -> bool:
        return self.cost >= 0


class Game(abc.ABC):
    """An immutable game configuration: the rules variant, metadata and the factory of states.

    Subclasses name their declaration (``info``, the game's ``GameInfo``) and implement ``new_state``; metadata
    and optional features come from the declaration, stated once. Instances are created by
    ``damier.load(name, **options)``, which validates the options.
    """

    info: ClassVar[GameInfo]

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = self.option_set.validate(options, self.name)

    # ----- metadata (from the declaration) --------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def description(self) -> str:
        return self.info.description

    @property
    def option_set(self) -> OptionSet:
        return self.info.options

    @property
    def has_chance(self) -> bool:
        return self.info.has_chance

    @property
    def has_draws(self) -> bool:
        """Whether a game can end in a draw (and players may agree to one)."""
        return self.info.has_draws

    @property
    def rules_version(self) -> int:
        return self.info.rules_version

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """How many players take part (1 for a puzzle)."""

    @property
    @abc.abstractmethod
    def board_shape(self) -> tuple[int, int]:
        """(rows, columns) of the board."""

    @property
    @abc.abstractmethod
    def num_moves(self) -> int:
        """Size of the move space: every move is an int in ``range(num_moves)``."""

    @property
    def num_chance_outcomes(self) -> int:
        """Size of the chance outcome space (OpenSpiel's ``max_chance_outcomes``): at a chance node every outcome
        is an int in ``range(num_chance_outcomes)``, a space of its own (0 for a game with no chance)."""
        return 0

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
        raise ParseError(say("rules.position.none", game=self.name))

    def start_state(self, start: str | None = None, seed: int | None = None) -> State:
        """The first state of a game: the usual start, or the position ``start`` when one is given."""
        return self.new_state(seed) if start is None else self.state_from_position(start, seed)

    def check_rules_version(self, obj: Mapping[str, Any], noun: str) -> None:
        """``RecordError`` unless ``obj`` (a saved state or record) was written under this game's rules version
        (an object without one predates rules versions: version 1)."""
        version = obj.get("rules_version", 1)
        if version != self.rules_version:
            raise RecordError(say("rules.record.rules_version", noun=_noun(noun), game=self.name, found=repr(version),
                                  version=str(self.rules_version)))

    def state_from_json(self, obj: Mapping[str, Any]) -> State:
        """Rebuild a state written by ``State.to_json``: same position, same history (undo works)."""
        check_header(obj, "state", STATE_FORMAT, STATE_VERSION)
        if obj.get("game") != self.name:
            raise RecordError(say("rules.state.other_game", found=repr(obj.get("game")), game=repr(self.name)))
        self.check_rules_version(obj, "state")
        options = obj.get("options", {})
        try:
            same = isinstance(options, Mapping) and self.option_set.validate(options, self.name) == self.options
        except OptionError as exc:
            raise RecordError(say("rules.state.bad_options", error=cause_of(exc))) from None
        if not same:
            raise RecordError(say("rules.state.other_options", found=repr(options), options=repr(self.options)))
        state = self.replay(obj.get("moves"), seed=obj.get("seed"), start=obj.get("start"))
        if "position" in obj and state.position() != obj["position"]:
            raise RecordError(say("rules.state.other_position", found=repr(state.position()),
                                  saved=repr(obj["position"])))
        return state

    def replay(self, moves: Any, seed: Any = None, start: Any = None) -> State:
        """Play a list of moves in notation from the start (or from the ``start`` position)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(say("rules.replay.seed", value=repr(seed)))
        if start is not None and not isinstance(start, str):
            raise RecordError(say("rules.replay.start", value=repr(start)))
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(say("rules.replay.moves"))
        try:
            state = self.start_state(start, seed)
        except ParseError as exc:
            raise RecordError(say("rules.replay.bad_start", error=cause_of(exc))) from None
        for ply, text in enumerate(moves, start=1):
            try:
                state.play(state.parse_move(text))
            except (ParseError, IllegalMoveError, StateError) as exc:
                raise RecordError(say("rules.replay.bad_move", ply=str(ply), move=repr(text),
                                      error=cause_of(exc))) from None
        return state

    # ----- the declared features, for the generic players -----------------------------------------------
    @property
    def evaluations(self) -> tuple[str, ...]:
        """Names of the evaluation functions the game declares, the default first (empty: none)."""
        return self.info.evaluations

    def evaluate(self, state: State, player: int, evaluation: str | None = None) -> float:
        """Static evaluation of ``state`` from ``player``'s point of view (higher is better); ``FeatureError``
        when the game declares none, ``ValueError`` for an evaluation it does not offer."""
        hook = self.info.hook("evaluate")
        name = evaluation or self.evaluations[0]
        if name not in self.evaluations:
            raise ValueError(f"unknown evaluation {name!r}; {self.name} has {', '.join(self.evaluations)}")
        return float(hook(state, player, name))

    def random_playout(self, state: State, seed: int) -> tuple[float, ...]:
        """One uniformly random game from ``state`` (left unchanged) to the end: the returns per player (the
        kernel's when the game declares ``playout``, else through the contract)."""
        if self.info.has("playout"):
            returns: tuple[float, ...] = self.info.hook("playout")(state, seed)
            return returns
        return play_randomly(state, random.Random(seed))

    def random_playouts(self, state: State, count: int, seed: int) -> list[int]:
        """Play ``count`` random games from ``state``; how many each player won (for benchmarks and MCTS)."""
        if self.info.has("playouts"):
            return [int(w) for w in self.info.hook("playouts")(state, count, seed)]
        wins = [0] * self.num_players
        rng = random.Random(seed)
        for _ in range(count):
            returns = list(self.random_playout(state, rng.getrandbits(63)))
            best = max(returns)
            if returns.count(best) == 1:
                wins[returns.index(best)] += 1
        return wins

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


def play_randomly(state: State, rng: random.Random) -> tuple[float, ...]:
    """A uniformly random game from ``state`` through the contract (chance events drawn with their odds)."""
    scratch = state.copy()
    while not scratch.is_over():
        move = scratch.sample_chance(rng) if scratch.player == CHANCE else rng.choice(scratch.legal_moves())
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
            raise IllegalMoveError(say("rules.move.game_over", reason=nested(self.outcome_reason())))
        if not isinstance(move, numbers.Integral) or isinstance(move, bool) or not self.is_legal(int(move)):
            raise IllegalMoveError(say("rules.move.illegal", move=repr(move), legal=nested(self._legal_summary())))
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
        """At a chance node, the outcomes with their probabilities (summing to 1); otherwise empty.

        Outcomes are ints in ``range(game.num_chance_outcomes)``. A game whose outcomes are too many to list
        (a turn of several random robots) may list none and override ``sample_chance`` instead.
        """
        return []

    def sample_chance(self, rng: random.Random) -> int:
        """Draw the chance outcome of this chance node with its probability: the one chance sampler that players,
        the arena, the server and the terminal use (a game may override it to draw from its own kernel)."""
        if self.player != CHANCE:
            raise StateError("sample_chance needs a state at a chance node")
        outcomes = self.chance_outcomes()
        return rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]

    def is_over(self) -> bool:
        return self.player == TERMINAL

    def eliminated(self) -> list[int]:
        """The players out of the game here: they move no more and cannot win (Exploding Atoms: a colour left with
        no atom once it has moved). None by default; the arcade shows them out beside the board."""
        return []

    def can_win(self, player: int) -> bool:
        """Whether ``player`` could still win from here by some series of legal moves (of every player, chance
        included): False only when that is certain. The arcade asks it when another player's clock runs out
        (``timeout``: a draw if no other player can win). The default, True, is right for games where any player
        can always still win; a game overrides it only with an exact test."""
        return True

    def agreement_outcome(self) -> Outcome:
        """How the game ends when every player agrees to stop it here: a draw (every return 0), unless the game
        keeps a score that decides it (Jewels and Lasers: the player with more jewels wins)."""
        count = self.game.num_players
        return Outcome(winner=None, returns=(0.0,) * count, reason=say("outcome.draw_agreed"),
                       termination=Termination.AGREEMENT)

    @property
    def moves_used(self) -> int:
        """A puzzle's cost so far: the moves played (a puzzle whose moves may cost more, such as Ricochet's
        transparent robot passing walls, or a position that records moves used before it, says so)."""
        return len(self.history)

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def outcome_reason(self) -> str:
        outcome = self.outcome()
        return outcome.reason if outcome else say("rules.state.in_progress")

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
        replay = self.game.start_state(self.start, self.seed)
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
            "rules_version": self.game.rules_version,
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

    def move_marks(self, first: int = 0) -> list[str]:
        """The mark of each move from ply ``first`` on (0: every move played), as a move list shows them: ``"x"``
        for a move that took something (``took_marks``), and ``"#"`` after the move that ended the game with a laser
        hit (a Pharaoh shot, a man lit: the mark its game declares with that ending), like chess's mate sign; ``""``
        for a plain move.

        >>> import damier
        >>> state = damier.load("atoms", rows=3, cols=3).new_state()
        >>> state.play(state.parse_move("A1")); state.move_marks()
        ['']
        """
        marks = self.took_marks(first)
        if marks and self.is_over():
            outcome = self.outcome()
            if outcome is not None:
                marks[-1] += outcome.termination.mark
        return marks

    def took_marks(self, first: int = 0) -> list[str]:
        """``"x"`` for each move from ply ``first`` on that took something (a piece shot, atoms captured, a jewel
        taken or a robot blown up), ``""`` otherwise. This default marks nothing: a game where moves take things
        says which do."""
        return [""] * max(0, len(self.history) - first)

    @abc.abstractmethod
    def key(self) -> bytes:
        """A compact key identifying the position (for transposition tables and repetition)."""

    def _legal_summary(self, limit: int = 12) -> str:
        """The legal moves in notation for an error message, the first ``limit`` of them (a ``Said`` when there
        are more, or none)."""
        moves = self.legal_moves()
        names = ", ".join(self.move_to_str(m) for m in moves[:limit])
        if len(moves) > limit:
            return say("rules.move.more", moves=names, count=str(len(moves)))
        return names or say("rules.move.none")

    def __repr__(self) -> str:
        """A constructor expression for this position (python-chess's ``Board('...')``); the history is not in
        it (``to_json`` keeps that)."""
        seed = "" if self.seed is None else f", seed={self.seed!r}"
        return f"{self.game!r}.state_from_position({self.position()!r}{seed})"

    def _repr_svg_(self) -> str | None:
        """An SVG picture of the position for notebooks (Jupyter), where the game declares one (``svg``)."""
        info = self.game.info
        if not info.has("svg"):
            return None
        picture: str = info.hook("svg")(self)
        return picture

    def __str__(self) -> str:
        return self.render_text()
