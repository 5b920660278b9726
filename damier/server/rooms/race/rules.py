"""A race room's rules of play, pure: who may join, start, claim, bid, demonstrate or give up, and what follows a
verdict or a deadline, decided as events added to a ``Draft`` (a copy of the race's log with each event applied at
once, and the events in order), or a ``RoomError`` saying why not. No storage, no lock, no clock read, no worker:
what needs one (a round's puzzle drawn, its solution searched) is the shell's (``changes``), which these functions
name by what they return; ``commands`` takes the lock and stores the draft's events before anyone hears of them.
``log`` folds the events into the race's state (players, chips, rounds), the same way when a room is loaded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from damier.core import messages
from damier.core.errors import DamierError, IllegalMoveError, ParseError
from damier.core.game import Game, State
from damier.core.race import RaceRules
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.rooms.race.log import MAX_BIDS, MAX_CLAIM, RaceLog, Settings, iso, judge, judged
from damier.server.words import say


@dataclass(frozen=True)
class Step:
    """One event added: its number in the race (``seq``), kind, seat, data and when (ISO, UTC)."""

    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    at: str


@dataclass
class Draft:
    """A race's next state being decided at ``now`` (seconds since the epoch): ``log``, a copy of the race's log
    with each event applied as it is added, and ``steps``, the events added."""

    log: RaceLog
    settings: Settings
    rules: RaceRules
    now: float
    steps: list[Step] = field(default_factory=list)

    def add(self, kind: str, seat: int | None, data: dict[str, Any], first: State | None = None) -> None:
        self.log.apply(kind, seat, data, self.now, first)
        self.steps.append(Step(self.log.version, kind, seat, data, iso(self.now)))


def playing(log: RaceLog, round_number: int | None) -> None:
    """``Conflict`` unless the race is under way (and, with ``round_number``, in that round)."""
    if log.status == "lobby":
        raise Conflict(say("error.race.not_started"))
    if log.status == "finished":
        raise Conflict(say("error.race.over"))
    now = log.current
    assert now is not None
    if round_number is not None and round_number != now.number:
        # (the number as the client sent it: 12345, not 12,345)
        raise Conflict(say("error.race.round_over", round=str(round_number), current=now.number))


def join(draft: Draft, name: str) -> int:
    """A new player named ``name`` (cleaned) takes the next seat, in the lobby or during the race while seats are
    left: the seat."""
    log = draft.log
    if log.status == "finished":
        raise Conflict(say("error.race.over"))
    if len(log.players) >= draft.settings.max_players:
        raise Conflict(say("error.race.full", players=draft.settings.max_players))
    if any(p.name.casefold() == name.casefold() for p in log.players):
        raise Conflict(say("error.race.name_taken", name=repr(name)))
    seat = len(log.players)
    draft.add("join", seat, {"name": name})
    return seat


def start(draft: Draft, seat: int) -> None:
    """The host starts the race (the shell then draws the first round's puzzle: ``changes.next_round``)."""
    log = draft.log
    if seat != 0:
        raise Conflict(say("error.race.host_starts"))
    if log.status != "lobby":
        raise Conflict(say("error.race.started_already" if log.status == "playing" else "error.race.over"))
    if len(log.players) < 2:
        raise Conflict(say("error.race.too_few_players"))
    draft.add("start", seat, {})


def claim_count(count: Any) -> int:
    """``count`` if it is a claim (a number of moves from 1 to ``MAX_CLAIM``), else ``Invalid``."""
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CLAIM:
        raise Invalid(say("error.race.claim_count", max=MAX_CLAIM))
    return count


def claim(draft: Draft, seat: int, count: int, round_number: int | None) -> None:
    """``seat`` claims the round's puzzle in ``count`` moves (``exact``: it demonstrates at once; ``at_most``: a
    bid, lowered later if one likes, until the bid deadline). ``round_number`` refuses a claim meant for a round
    that is over."""
    playing(draft.log, round_number)
    log = draft.log
    now = log.current
    assert now is not None
    if log.phase() == "demonstrating":
        demo = now.demonstration
        assert demo is not None
        raise Conflict(say("error.race.demonstrating_claim", player=log.name(demo.seat), count=demo.count))
    if draft.rules.claim == "exact":
        draft.add("claim", seat, {"count": count})
        demonstrate_next(draft, seat, count)
        return
    mine = [c for c in now.claims if c.seat == seat]
    if mine and count >= mine[-1].count:
        raise Conflict(say("error.race.bid_not_lower", bid=mine[-1].count))
    if len(mine) >= MAX_BIDS:
        raise Conflict(say("error.race.too_many_bids", times=MAX_BIDS, bid=mine[-1].count))
    data: dict[str, Any] = {"count": count}
    if not now.claims:
        data["bid_deadline"] = round(draft.now + draft.settings.bid_seconds, 3)
    draft.add("claim", seat, data)


def demonstrate_next(draft: Draft, seat: int, count: int) -> None:
    """``seat`` demonstrates its claim of ``count`` moves, before its deadline."""
    draft.add("demo", seat, {"count": count, "deadline": round(draft.now + draft.settings.demo_seconds, 3)})


def demonstrator(log: RaceLog, seat: int, round_number: int | None, giving_up: bool = False) -> None:
    """``Conflict`` unless ``seat`` is demonstrating a claim in the race's round now."""
    playing(log, round_number)
    now = log.current
    assert now is not None
    demo = now.demonstration
    if demo is None or demo.seat != seat:
        if giving_up:
            raise Conflict(say("error.race.give_up_not_demonstrating"))
        if demo is None:
            raise Conflict(say("error.race.nobody_demonstrating"))
        raise Conflict(say("error.race.not_demonstrator", player=log.name(demo.seat)))


def moves_sent(moves: list[str]) -> None:
    """``Invalid`` for a demonstration of no move."""
    if not moves:
        raise Invalid(say("error.race.no_moves"))


def read_moves(log: RaceLog, game: Game, seat: int, moves: list[str], round_number: int | None
               ) -> tuple[list[str], str | None]:
    """The demonstrator's next moves, each checked with the game's rules from where the demonstration stands: the
    legal ones (as the game writes them), and why the move after them is not legal (None: all are). Text that is not
    a move of the game at all (a typo) is ``Invalid``, and so is a line longer than the moves left."""
    demonstrator(log, seat, round_number)
    now = log.current
    assert now is not None and now.demonstration is not None
    demo = now.demonstration
    left = demo.count - len(demo.moves)
    if len(moves) > left:
        raise Invalid(say("error.race.too_many_moves", claimed=demo.count, left=left, sent=len(moves)))
    assert demo.state is not None
    probe = demo.state.copy()
    legal: list[str] = []
    for text in moves:
        try:
            move = probe.parse_move(text)
        except IllegalMoveError as exc:
            return legal, say("verdict.illegal", move=text, reason=messages.cause_of(exc))
        except (ParseError, DamierError) as exc:
            raise Invalid(say("error.race.not_a_move", move=repr(text[:64]), game=messages.title_of(game),
                              reason=messages.cause_of(exc))) from None
        legal.append(probe.move_to_str(move))
        probe.play(move)
    return legal, None


def play_moves(draft: Draft, seat: int, moves: list[str], illegal: str | None) -> str | None:
    """Add the demonstration's (legal) moves, then its verdict if it has one (``illegal``: why the move after them
    is not legal, judged wrong at once). The round's end that follows, if any (``verdict``)."""
    if moves:
        draft.add("move", seat, {"moves": moves})
    now = draft.log.current
    demo = now.demonstration if now is not None else None
    assert demo is not None
    if illegal is not None:
        return verdict(draft, judged(False, illegal, None))
    found = judge(draft.rules, demo)
    return verdict(draft, found) if found is not None else None


def verdict(draft: Draft, judged: dict[str, Any]) -> str | None:
    """Judge the demonstration under way: a wrong claimant hands a chip to the player with the fewest (the game's
    ``wrong_claim`` rule); then the next bidder demonstrates (``at_most``), or the round is to close: its outcome
    (``scored`` or ``missed``) for the shell, which searches the solution to show (``changes.close_round``)."""
    now = draft.log.current
    demo = now.demonstration if now is not None else None
    assert demo is not None
    transfer = None
    if not judged["correct"] and draft.rules.wrong_claim == "transfer" and draft.log.players[demo.seat].chips > 0:
        receiver = draft.log.fewest_after(demo.seat)
        if receiver is not None:
            transfer = {"from": demo.seat, "to": receiver}
    draft.add("verdict", demo.seat, {**judged, "transfer": transfer})
    if judged["correct"]:
        return "scored"
    bids = draft.log.bids()
    if draft.rules.claim == "at_most" and bids:
        demonstrate_next(draft, bids[0].seat, bids[0].count)
        return None
    return "missed"


def expire(draft: Draft) -> str | None:
    """Enforce the deadline that ran out, if one did: bidding closes and the lowest bid demonstrates, a
    demonstration out of time is wrong; a round with no claim is to close. The round's end that follows, if any
    (``timeout``, ``scored``, ``missed``); None also when nothing ran out (``due``)."""
    due = draft.log.deadline()
    if due is None or due[1] > draft.now:
        return None
    if due[0] == "round":
        return "timeout"
    if due[0] == "bids":
        bids = draft.log.bids()
        demonstrate_next(draft, bids[0].seat, bids[0].count)
        return None
    return verdict(draft, judged(False, say("verdict.time_out"), None))


def due(draft: Draft) -> bool:
    """Whether a deadline of the race has run out at the draft's time."""
    deadline = draft.log.deadline()
    return deadline is not None and deadline[1] <= draft.now


def close(draft: Draft, outcome: str, optimum: int | None, solution: list[str] | None) -> bool:
    """Close the round (``scored``, ``missed`` or ``timeout``) with the game's solution (its length and line, when
    the solver proved one); then the race ends if its ending has come. Whether the race goes on (the shell then
    draws the next round's puzzle)."""
    draft.add("close", None, {"outcome": outcome, "optimum": optimum, "solution": solution})
    ending = draft.log.ending()
    if ending is not None:
        draft.add("end", None, {**ending, "chips": [p.chips for p in draft.log.players]})
        return False
    return True


def no_puzzle(draft: Draft, why: Any) -> None:
    """No puzzle could be drawn for the next round: the race ends, the most chips winning."""
    draft.add("end", None, {**draft.log.most_chips("puzzles", say("race_end.no_puzzle", why=why)),
                            "chips": [p.chips for p in draft.log.players]})


def next_round(draft: Draft, number: int, first: State) -> None:
    """Round ``number`` begins on the puzzle ``first``, to be claimed before its deadline."""
    draft.add("round", None, {"number": number, "start": first.start, "seed": first.seed,
                              "position": first.position(),
                              "deadline": round(draft.now + draft.settings.round_seconds, 3)}, first)
