"""Changing a race room, the shell around its rules (``rules``, pure): a change is a draft (a copy of the room's
log and the events the rules add to it), stored in one transaction, and only then is its log the room's (nobody
hears of a change that is not committed). What the rules cannot do is done here: a round's puzzle drawn and its
solution searched, in threads, and the deadlines that ran out enforced."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from damier.core import messages, registry
from damier.core.errors import DamierError
from damier.core.game import State
from damier.server.rooms.errors import Conflict
from damier.server.rooms.race import rules
from damier.server.rooms.race.log import iso
from damier.server.rooms.race.rules import Draft
from damier.server.storage import ConflictError, RaceEvent
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.race.house import RaceHouse
    from damier.server.rooms.race.room import RaceRoom

log = logging.getLogger("damier.server")

#: the most nodes the game's solver may search for the solution shown after a round
SOLVER_NODES = 2_000_000


def draft_of(room: RaceRoom) -> Draft:
    """A change of ``room`` begun now: a copy of its log, to which the rules add events (``rules.Draft``)."""
    return Draft(room.log.copy(), room.settings, room.rules, room.clock())


def stored_events(draft: Draft) -> list[RaceEvent]:
    """The draft's events as the storage writes them."""
    return [RaceEvent(step.seq, step.kind, step.seat, step.data, step.at) for step in draft.steps]


async def commit(house: RaceHouse, room: RaceRoom, draft: Draft) -> bool:
    """Store the draft's events in one transaction, then make its log the room's; whether there were any."""
    if not draft.steps:
        return False
    now = iso(draft.now)
    events = stored_events(draft)
    try:
        await asyncio.wrap_future(house.storage.races.append_events(
            room.id, events, draft.log.status, draft.log.result, now))
    except ConflictError:
        house.rooms.forget(room)  # another server (or a request on a stale room) wrote first: reload from the db
        raise Conflict(say("error.race.changed")) from None
    room.log = draft.log
    room.row.events.extend(events)
    room.row.status, room.row.result, room.row.updated_at = draft.log.status, draft.log.result, now
    return True


def round_seed(house: RaceHouse, room: RaceRoom, number: int) -> int:
    """The seed of round ``number``'s puzzle: drawn from the server's secret (nobody can see puzzles coming)."""
    return house.keys.chance(room.id, number).getrandbits(62)


async def next_round(house: RaceHouse, room: RaceRoom, draft: Draft) -> None:
    """Add the next round (the race's first one, or the one drawn from the last round's puzzle): its puzzle comes
    from the game's race, drawn in a thread; a puzzle that cannot follow (no puzzle of the difficulty from there)
    gives way to a fresh first one, and when none can be drawn the race ends."""
    number = len(draft.log.rounds) + 1
    seed = round_seed(house, room, number)
    previous = draft.log.rounds[-1] if draft.log.rounds else None

    def draw() -> State:
        if previous is not None and previous.first is not None:
            try:
                won = [r.first for r in draft.log.rounds if r.first is not None and scored(r) is not None]
                return room.race.next_round(room.game, round_end(previous.first, previous), seed, won)
            except DamierError as exc:
                log.info("race %s: round %d cannot follow the last puzzle (%s); a fresh one", room.id, number, exc)
        return room.race.first_round(room.game, seed)

    try:
        first = await asyncio.to_thread(draw)
    except DamierError as exc:
        rules.no_puzzle(draft, messages.cause_of(exc))
        return
    rules.next_round(draft, number, first)


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


async def close_round(house: RaceHouse, room: RaceRoom, draft: Draft, outcome: str | None) -> None:
    """When the rules said the round is to close (``outcome``: ``scored``, ``missed`` or ``timeout``): close it with
    the solution the game's solver finds (in a thread), then start the next round unless the race ended."""
    if outcome is None:
        return
    now = draft.log.current
    assert now is not None and now.first is not None
    optimum, solution = await asyncio.to_thread(solve, now.first)
    if rules.close(draft, outcome, optimum, solution):
        await next_round(house, room, draft)


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


async def expire(house: RaceHouse, room: RaceRoom) -> bool:
    """Enforce what ran out (call under the room's lock; ``rules.expire``): a round with no claim ends (nobody
    scores), bidding closes and the lowest bid demonstrates, a demonstration out of time is wrong. Whether anything
    changed."""
    draft = draft_of(room)
    for _ in range(4):  # each step starts a timer of its own, in the future: a few steps at most
        if not rules.due(draft):
            break
        await close_round(house, room, draft, rules.expire(draft))
    return await commit(house, room, draft)
