"""A race room's state, folded from its stored events: the players and their chips, the supply, the rounds (each
one's puzzle, claims and demonstrations), the end. Pure: no storage, no clock, no lock; the changes
(``rules``) decide which events happen and this log applies them, the same way when a room is loaded.

Events, each ``(kind, seat, data)`` at a time:

- ``join`` ``{"name"}``: a player takes the next seat; ``start``: the host starts the race;
- ``round`` ``{"number", "start", "seed", "position", "deadline"}``: a new puzzle (the game's first state
  from ``start`` and ``seed``), to be claimed before ``deadline``;
- ``claim`` ``{"count"}`` (``"bid_deadline"`` on the first bid of an ``at_most`` race): a claim or a bid;
- ``demo`` ``{"count", "deadline"}``: the seat demonstrates its claim before ``deadline``;
- ``move`` ``{"moves"}``: demonstration moves, legal ones (each checked with the game's rules);
- ``verdict`` ``{"correct", "reason", "cost", "transfer"}``: the demonstration judged; a correct one takes a
  chip from the supply, a wrong one may hand a chip over (``transfer``: ``{"from", "to"}``);
- ``close`` ``{"outcome", "optimum", "solution"}``: the round is over (``scored``, ``missed``, ``timeout``);
- ``end`` ``{"winners", "ending", "reason", "chips"}``: the race is over.

Times are seconds since the epoch (floats) in memory and in event data; ``iso`` writes them for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, ClassVar

from damier.core.game import Game, State, Termination
from damier.core.messages import coded, nested
from damier.core.race import RaceRules
from damier.server.rooms.errors import Invalid
from damier.server.words import say

#: a claim (or a bid) is a number of moves from 1 to this
MAX_CLAIM = 99
#: bids a player may make in one round (``at_most``: each lower than the last)
MAX_BIDS = 5


def iso(seconds: float) -> str:
    """``seconds`` since the epoch as ISO 8601 text in UTC, to the millisecond."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def epoch(text: str) -> float:
    """The seconds since the epoch of an ISO 8601 time (``iso``'s inverse)."""
    return datetime.fromisoformat(text).timestamp()


@dataclass(frozen=True)
class Settings:
    """A race room's own options (beside the game's): timers, seats, chips and the bounds that end a race."""

    round_seconds: int
    bid_seconds: int
    demo_seconds: int
    max_players: int
    chips_total: int
    chips_to_win: int
    idle_rounds: int
    max_rounds: int

    #: each setting's bounds; the defaults come from the game's ``RaceRules`` or from ``DEFAULTS``
    BOUNDS: ClassVar[dict[str, tuple[int, int]]] = {
        "round_seconds": (5, 3600), "bid_seconds": (5, 600), "demo_seconds": (5, 600), "max_players": (2, 12),
        "chips_total": (1, 100), "chips_to_win": (1, 100), "idle_rounds": (1, 20), "max_rounds": (1, 200)}
    DEFAULTS: ClassVar[dict[str, int]] = {"max_players": 8, "idle_rounds": 3, "max_rounds": 100}

    @classmethod
    def read(cls, given: Mapping[str, Any], rules: RaceRules) -> Settings:
        """Settings from a request (``Invalid`` naming a wrong one), the rest from ``rules`` and the defaults."""
        unknown = sorted(set(given) - set(cls.BOUNDS))
        if unknown:
            raise Invalid(say("error.race.unknown_setting", setting=repr(unknown[0]), accepted=", ".join(cls.BOUNDS)))
        values: dict[str, int] = {**cls.DEFAULTS, "round_seconds": rules.round_seconds,
                                  "bid_seconds": rules.bid_seconds, "demo_seconds": rules.demo_seconds,
                                  "chips_total": rules.chips_total}
        values["chips_to_win"] = rules.chips_to_win
        for name, value in given.items():
            low, high = cls.BOUNDS[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                # (the bounds as written: 3600, not 3,600)
                raise Invalid(say("error.race.setting_range", setting=repr(name), low=str(low), high=str(high),
                                  value=repr(value)))
            values[name] = value
        if "chips_total" in given and "chips_to_win" not in given:
            values["chips_to_win"] = min(values["chips_to_win"], values["chips_total"])
        if values["chips_to_win"] > values["chips_total"]:
            raise Invalid(say("error.race.chips_to_win_over_total", to_win=values["chips_to_win"],
                              total=values["chips_total"]))
        for name, (low, high) in cls.BOUNDS.items():  # the game's own defaults are kept within the bounds too
            values[name] = min(max(values[name], low), high)
        return cls(**values)

    def to_json(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.BOUNDS}


@dataclass
class Player:
    seat: int
    name: str
    joined_at: float
    chips: int = 0


@dataclass(frozen=True)
class Claim:
    seat: int
    count: int
    at: float


@dataclass
class Demonstration:
    """A claim being shown: ``state`` is the puzzle as the moves so far left it."""

    seat: int
    count: int
    started_at: float
    deadline: float
    state: State | None
    moves: list[str] = field(default_factory=list)
    verdict: dict[str, Any] | None = None
    ended_at: float | None = None

    def copy(self) -> Demonstration:
        return replace(self, state=self.state.copy() if self.state is not None else None, moves=list(self.moves))


@dataclass
class Round:
    """One puzzle of the race: ``first`` is its first state (kept for the round being played and the one the next
    round is drawn from)."""

    number: int
    start: str | None
    seed: int | None
    position: str
    first: State | None
    started_at: float
    deadline: float
    claims: list[Claim] = field(default_factory=list)
    bid_deadline: float | None = None
    demos: list[Demonstration] = field(default_factory=list)
    result: dict[str, Any] | None = None
    ended_at: float | None = None

    @property
    def closed(self) -> bool:
        return self.result is not None

    @property
    def demonstration(self) -> Demonstration | None:
        """The demonstration under way (not judged yet), if any."""
        if self.demos and self.demos[-1].verdict is None:
            return self.demos[-1]
        return None

    def copy(self) -> Round:
        return replace(self, claims=list(self.claims), demos=[d.copy() for d in self.demos])


class RaceLog:
    """A race folded from its events (``apply`` one at a time, in order)."""

    def __init__(self, game: Game, rules: RaceRules, settings: Settings) -> None:
        self.game = game
        self.rules = rules
        self.settings = settings
        self.players: list[Player] = []
        self.status = "lobby"  # playing once started, finished at the end
        self.rounds: list[Round] = []
        self.supply = settings.chips_total
        self.idle = 0  # rounds in a row that ran out with no claim
        self.result: dict[str, Any] | None = None
        self.version = 0  # events applied
        self.started_at: float | None = None

    def copy(self) -> RaceLog:
        """A copy to change (closed rounds are never changed again, so they are shared)."""
        other = RaceLog.__new__(RaceLog)
        other.__dict__.update(self.__dict__)
        other.players = [replace(p) for p in self.players]
        other.rounds = list(self.rounds)
        if other.rounds:
            other.rounds[-1] = other.rounds[-1].copy()
        return other

    # ----- reading --------------------------------------------------------------------------------------
    @property
    def current(self) -> Round | None:
        """The round being played (None in the lobby, between a close and the next round, and at the end)."""
        if self.rounds and not self.rounds[-1].closed:
            return self.rounds[-1]
        return None

    def seats(self) -> list[int]:
        return [p.seat for p in self.players]

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def phase(self) -> str | None:
        """``searching`` (claims are open), ``bidding`` (``at_most``: bids until the bid deadline),
        ``demonstrating``; None when no round is being played."""
        now = self.current
        if now is None:
            return None
        if now.demonstration is not None:
            return "demonstrating"
        if now.claims and not now.demos:
            return "bidding"
        return "searching"

    def deadline(self) -> tuple[str, float] | None:
        """What runs out next and when: ``round``, ``bids`` or ``demonstration``; None when nothing is timed."""
        now = self.current
        if self.status != "playing" or now is None:
            return None
        phase = self.phase()
        if phase == "demonstrating":
            demo = now.demonstration
            assert demo is not None
            return "demonstration", demo.deadline
        if phase == "bidding" and now.bid_deadline is not None:
            return "bids", now.bid_deadline
        return "round", now.deadline

    def bids(self) -> list[Claim]:
        """The current round's claims still to be demonstrated, in the order they are: lowest count first, then
        the earliest (each player's last bid only)."""
        now = self.current
        if now is None:
            return []
        latest: dict[int, tuple[int, Claim]] = {}  # seat -> (order of the bid, the bid)
        for order, claim in enumerate(now.claims):
            latest[claim.seat] = (order, claim)
        shown = {d.seat for d in now.demos}
        waiting = sorted((claim.count, order, claim) for order, claim in latest.values() if claim.seat not in shown)
        return [claim for _, _, claim in waiting]

    def fewest_after(self, claimant: int) -> int | None:
        """Who receives a wrong claimant's chip: the player (other than the claimant) with the fewest chips, ties
        to the first such player in seating order after the claimant; None with no other player."""
        others = [p for p in self.players if p.seat != claimant]
        if not others:
            return None
        fewest = min(p.chips for p in others)
        count = len(self.players)
        for step in range(1, count):
            player = self.players[(claimant + step) % count]
            if player.chips == fewest:
                return player.seat
        return None  # unreachable: some other player has the fewest chips

    def leaders(self) -> list[int]:
        """The seats with the most chips (everyone at 0: nobody)."""
        most = max((p.chips for p in self.players), default=0)
        return [p.seat for p in self.players if p.chips == most and most > 0]

    def ending(self) -> dict[str, Any] | None:
        """How the race ends now, if it does (checked after each round): a player with enough chips, the supply
        out, too many idle rounds, or the most rounds a race may have."""
        settings = self.settings
        enough = [p for p in self.players if p.chips >= settings.chips_to_win]
        if enough:
            winner = max(enough, key=lambda p: p.chips)
            reason = say("race_end.won", name=winner.name, chips=winner.chips)
            return {"ending": "chips", "winners": [winner.seat], "reason": reason, **coded(reason)}
        if self.supply <= 0:
            return self.most_chips("supply", say("race_end.supply"))
        if self.idle >= settings.idle_rounds:
            return self.most_chips("idle", say("race_end.idle", rounds=self.idle))
        if len(self.rounds) >= settings.max_rounds:
            return self.most_chips("rounds", say("race_end.rounds", rounds=settings.max_rounds))
        return None

    def most_chips(self, ending: str, cause: str) -> dict[str, Any]:
        """The end of a race won by the most chips (ties possible), ``cause`` saying why it ends."""
        winners = self.leaders()
        names = {"list": [self.name(s) for s in winners]}
        verdict = say("race_end.most_chips", names=names, count=len(winners)) if winners else say("race_end.nobody")
        reason = say("race_end.because", cause=nested(cause), verdict=nested(verdict))
        return {"ending": ending, "winners": winners, "reason": reason, **coded(reason)}

    # ----- applying -------------------------------------------------------------------------------------
    def apply(self, kind: str, seat: int | None, data: Mapping[str, Any], at: float,
              first: State | None = None) -> None:
        """Apply one event; ``first`` is a ``round``'s first state when the caller has it already (else it is
        made from the event's ``start`` and ``seed``)."""
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise ValueError(f"unknown race event {kind!r}")
        handler(seat, data, at, first)
        self.version += 1

    def _on_join(self, seat: int | None, data: Mapping[str, Any], at: float, _first: State | None) -> None:
        assert seat == len(self.players)
        self.players.append(Player(seat, str(data["name"]), at))

    def _on_start(self, _seat: int | None, _data: Mapping[str, Any], at: float, _first: State | None) -> None:
        self.status = "playing"
        self.started_at = at

    def _on_round(self, _seat: int | None, data: Mapping[str, Any], at: float, first: State | None) -> None:
        if self.rounds:  # only the last round's first state is needed again (the next round is drawn from it)
            last = self.rounds[-1]
            self.rounds[-1] = replace(last, first=None, demos=[replace(d, state=None) for d in last.demos])
        if first is None:
            first = self.game.start_state(data["start"], data["seed"])
            if first.position() != data["position"]:  # the game draws puzzles differently now: the stored one
                first = self.game.state_from_position(str(data["position"]))
        self.rounds.append(Round(int(data["number"]), data["start"], data["seed"], str(data["position"]), first,
                                 at, float(data["deadline"])))

    def _on_claim(self, seat: int | None, data: Mapping[str, Any], at: float, _first: State | None) -> None:
        now = self.current
        assert now is not None and seat is not None
        now.claims.append(Claim(seat, int(data["count"]), at))
        if "bid_deadline" in data:
            now.bid_deadline = float(data["bid_deadline"])
        self.idle = 0

    def _on_demo(self, seat: int | None, data: Mapping[str, Any], at: float, _first: State | None) -> None:
        now = self.current
        assert now is not None and now.first is not None and seat is not None
        now.demos.append(Demonstration(seat, int(data["count"]), at, float(data["deadline"]), now.first.copy()))

    def _on_move(self, _seat: int | None, data: Mapping[str, Any], _at: float, _first: State | None) -> None:
        now = self.current
        demo = now.demonstration if now is not None else None
        assert demo is not None and demo.state is not None
        for text in data["moves"]:
            demo.state.play(demo.state.parse_move(text))
            demo.moves.append(text)

    def _on_verdict(self, seat: int | None, data: Mapping[str, Any], at: float, _first: State | None) -> None:
        now = self.current
        demo = now.demonstration if now is not None else None
        assert demo is not None and seat == demo.seat
        demo.verdict = dict(data)
        demo.ended_at = at
        if data["correct"]:
            self.players[seat].chips += 1
            self.supply -= 1
        transfer = data.get("transfer")
        if transfer:
            self.players[transfer["from"]].chips -= 1
            self.players[transfer["to"]].chips += 1

    def _on_close(self, _seat: int | None, data: Mapping[str, Any], at: float, _first: State | None) -> None:
        now = self.current
        assert now is not None
        now.result = dict(data)
        now.ended_at = at
        if data["outcome"] == "timeout":
            self.idle += 1

    def _on_end(self, _seat: int | None, data: Mapping[str, Any], _at: float, _first: State | None) -> None:
        self.status = "finished"
        self.result = dict(data)


def judge(rules: RaceRules, demo: Demonstration) -> dict[str, Any] | None:
    """The verdict on a demonstration so far (``{"correct", "reason", "cost"}``), or None while it goes on:
    right when the puzzle is solved in exactly the claimed number of moves (``exact``) or in at most that many
    (``at_most``); wrong when it is solved otherwise, or when the claimed moves are spent."""
    state = demo.state
    assert state is not None
    used = state.moves_used  # the cost so far (a round's puzzle starts at none): a move may cost more than one
    outcome = state.outcome()
    if outcome is not None:
        cost = outcome.cost if outcome.cost is not None else used
        if outcome.termination is not Termination.SOLVED:
            return judged(False, say("verdict.unsolved", reason=nested(outcome.reason)), cost)
        if cost == demo.count or (rules.claim == "at_most" and cost < demo.count):
            return judged(True, say("verdict.as_claimed", cost=cost), cost)
        return judged(False, say("verdict.not_as_claimed", cost=cost, count=demo.count), cost)
    if used >= demo.count:
        return judged(False, say("verdict.spent", used=used), None)
    return None


def judged(correct: bool, reason: str, cost: int | None) -> dict[str, Any]:
    """A verdict: right or wrong, why (its words, with their code and parameters), and the moves it took."""
    return {"correct": correct, "reason": reason, **coded(reason), "cost": cost}
