"""Changing a race room: events are applied to a copy of its log, stored in one transaction, and only then is
the copy the room's log (nobody hears of a change that is not committed). What follows a verdict or a deadline
is decided here: the next bidder's demonstration, the end of the round (with the game's solution to show), the
end of the race or the next round's puzzle, and the verdicts of deadlines that ran out."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from damier.core import registry
from damier.core.errors import DamierError
from damier.core.game import State
from damier.server.rooms.errors import Conflict
from damier.server.rooms.race_log import RaceLog, iso, judge
from damier.server.storage import ConflictError, RaceEvent

if TYPE_CHECKING:
    from damier.server.rooms.arcade import Arcade
    from damier.server.rooms.race_room import RaceRoom

log = logging.getLogger("damier.server")

#: the most nodes the game's solver may search for the solution shown after a round
SOLVER_NODES = 2_000_000


class Change:
    """Events being added to a race: each is applied at once to ``log`` (a copy), and stored by ``commit``."""

    def __init__(self, room: RaceRoom) -> None:
        self.room = room
        self.log: RaceLog = room.log.copy()
        self.now = room.clock()
        self.events: list[RaceEvent] = []

    def add(self, kind: str, seat: int | None, data: dict[str, Any], first: State | None = None) -> None:
        self.log.apply(kind, seat, data, self.now, first)
        self.events.append(RaceEvent(self.log.version, kind, seat, data, iso(self.now)))


async def commit(arcade: Arcade, change: Change) -> bool:
    """Store the change's events in one transaction, then make its log the room's; whether there were any."""
    room = change.room
    if not change.events:
        return False
    now = iso(change.now)
    try:
        await asyncio.wrap_future(arcade.storage.races.append_events(
            room.id, change.events, change.log.status, change.log.result, now))
    except ConflictError:
        arcade.rooms.forget(room)  # another server (or a request on a stale room) wrote first: reload from the db
        raise Conflict("the race changed meanwhile; reload it") from None
    room.log = change.log
    room.row.events.extend(change.events)
    room.row.status, room.row.result, room.row.updated_at = change.log.status, change.log.result, now
    return True


def round_seed(arcade: Arcade, room: RaceRoom, number: int) -> int:
    """The seed of round ``number``'s puzzle: drawn from the server's secret (nobody can see puzzles coming)."""
    return arcade.keys.chance(room.id, number).getrandbits(62)


async def next_round(arcade: Arcade, change: Change) -> None:
    """Add the next round (the race's first one, or the one drawn from the last round's puzzle): its puzzle comes
    from the game's race; a puzzle that cannot follow (no puzzle of the difficulty from there) gives way to a
    fresh first one, and when none can be drawn the race ends."""
    room = change.room
    number = len(change.log.rounds) + 1
    seed = round_seed(arcade, room, number)
    previous = change.log.rounds[-1] if change.log.rounds else None

    def draw() -> State:
        if previous is not None and previous.first is not None:
            try:
                won = [r.first for r in change.log.rounds if r.first is not None and scored(r) is not None]
                return room.race.next_round(room.game, round_end(previous.first, previous), seed, won)
            except DamierError as exc:
                log.info("race %s: round %d cannot follow the last puzzle (%s); a fresh one", room.id, number, exc)
        return room.race.first_round(room.game, seed)

    try:
        first = await asyncio.to_thread(draw)
    except DamierError as exc:
        change.add("end", None, {**change.log.most_chips("puzzles", f"no puzzle could be drawn ({exc})"),
                                 "chips": [p.chips for p in change.log.players]})
        return
    change.add("round", None, {"number": number, "start": first.start, "seed": first.seed,
                               "position": first.position(),
                               "deadline": round(change.now + room.settings.round_seconds, 3)}, first)


def round_end(first: State, played: Any) -> State:
    """Where a round left the puzzle: its first state with the successful demonstration's moves played (the
    robots stay there), or its first state when nobody scored."""
    state = first.copy()
    demo = scored(played)
    for text in demo.moves if demo is not None else []:
        state.play(state.parse_move(text))
    return state


def scored(played: Any) -> Any:
    """A round's successful demonstration, or None when nobody scored."""
    return next((d for d in played.demos if d.verdict is not None and d.verdict.get("correct")), None)


async def close_round(arcade: Arcade, change: Change, outcome: str) -> None:
    """End the round (``scored``, ``missed`` or ``timeout``) with the solution the game's solver finds, then end
    the race or start the next round."""
    now = change.log.current
    assert now is not None and now.first is not None
    optimum, solution = await asyncio.to_thread(solve, now.first)
    change.add("close", None, {"outcome": outcome, "optimum": optimum, "solution": solution})
    ending = change.log.ending()
    if ending is not None:
        change.add("end", None, {**ending, "chips": [p.chips for p in change.log.players]})
    else:
        await next_round(arcade, change)


def solve(first: State) -> tuple[int | None, list[str] | None]:
    """The fewest moves of a round's puzzle and one such line (when the game declares a solver that proves it
    within ``SOLVER_NODES``); (None, None) otherwise."""
    info = registry.info(first.game.name)
    if not info.has("solver"):
        return None, None
    try:
        solution = info.hook("solver")(first.copy(), None, SOLVER_NODES)
        if not solution.found or not solution.optimal:
            return None, None
        state = first.copy()
        line = []
        for move in solution.moves:
            line.append(state.move_to_str(move))
            state.play(move)
        return int(solution.cost), line
    except Exception:
        log.exception("the solver failed on a race puzzle %s", first.position())
        return None, None


async def verdict(arcade: Arcade, change: Change, verdict: dict[str, Any]) -> None:
    """Judge the demonstration under way: a wrong claimant hands a chip to the player with the fewest (the game's
    ``wrong_claim`` rule); then the next bidder demonstrates (``at_most``) or the round closes."""
    now = change.log.current
    demo = now.demonstration if now is not None else None
    assert demo is not None
    transfer = None
    if not verdict["correct"] and change.room.rules.wrong_claim == "transfer" and \
            change.log.players[demo.seat].chips > 0:
        receiver = change.log.fewest_after(demo.seat)
        if receiver is not None:
            transfer = {"from": demo.seat, "to": receiver}
    change.add("verdict", demo.seat, {**verdict, "transfer": transfer})
    if verdict["correct"]:
        await close_round(arcade, change, "scored")
        return
    bids = change.log.bids()
    if change.room.rules.claim == "at_most" and bids:
        start_demonstration(change, bids[0].seat, bids[0].count)
    else:
        await close_round(arcade, change, "missed")


def start_demonstration(change: Change, seat: int, count: int) -> None:
    change.add("demo", seat, {"count": count, "deadline": round(change.now + change.room.settings.demo_seconds, 3)})


async def play_moves(arcade: Arcade, change: Change, seat: int, moves: list[str], illegal: str | None) -> None:
    """Add the demonstration's (legal) moves, then its verdict if it has one: ``illegal`` is why the move after
    them is not legal (judged wrong at once)."""
    if moves:
        change.add("move", seat, {"moves": moves})
    now = change.log.current
    demo = now.demonstration if now is not None else None
    assert demo is not None
    if illegal is not None:
        await verdict(arcade, change, {"correct": False, "reason": illegal, "cost": None})
        return
    found = judge(change.room.rules, demo)
    if found is not None:
        await verdict(arcade, change, found)


async def expire(arcade: Arcade, room: RaceRoom) -> bool:
    """Enforce what ran out (call under the room's lock): a round with no claim ends (nobody scores), bidding
    closes and the lowest bid demonstrates, a demonstration out of time is wrong. Whether anything changed."""
    change = Change(room)
    for _ in range(4):  # each step starts a timer of its own, in the future: a few steps at most
        due = change.log.deadline()
        if due is None or due[1] > change.now:
            break
        kind = due[0]
        if kind == "round":
            await close_round(arcade, change, "timeout")
        elif kind == "bids":
            bids = change.log.bids()
            start_demonstration(change, bids[0].seat, bids[0].count)
        else:
            await verdict(arcade, change, {"correct": False, "reason": "the demonstration's time ran out",
                                           "cost": None})
    return await commit(arcade, change)
