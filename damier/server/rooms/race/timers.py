"""The server enforces a race's deadlines (the round, the bids, the demonstration): one timer per race room in
memory, waiting for the deadline that governs now; deadlines are stored as absolute times, so after a restart
the races under way are loaded and their timers run again (what ran out meanwhile is enforced at once).
Every request to a race also enforces what ran out first (``changes.expire``), so a room that left memory
is right the moment someone asks."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from damier.server.rooms.race.changes import expire
from damier.server.rooms.race.room import RaceRoom

if TYPE_CHECKING:
    from damier.server.rooms.race.house import RaceHouse

log = logging.getLogger("damier.server")

#: a timer wakes this long after its deadline (so the deadline has surely passed on the room's clock)
MARGIN = 0.02


def schedule(house: RaceHouse, room: RaceRoom) -> None:
    """Start (or keep) the timer for the deadline that governs the room now; none when nothing is timed."""
    due = room.log.deadline()
    deadline = None if due is None else due[1]
    if room.timer is not None and not room.timer.done():
        if room.timer_deadline == deadline:
            return
        room.timer.cancel()
    room.timer, room.timer_deadline = None, deadline
    if deadline is not None:
        room.timer = asyncio.create_task(_wait(house, room, deadline))


async def _wait(house: RaceHouse, room: RaceRoom, deadline: float) -> None:
    await asyncio.sleep(max(0.0, deadline - room.clock()) + MARGIN)
    try:
        async with room.lock:
            changed = await expire(house, room)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("a deadline of race %s could not be enforced; the next request will", room.id)
        if room.timer is asyncio.current_task():
            room.timer, room.timer_deadline = None, None
        return
    if room.timer is asyncio.current_task():
        room.timer, room.timer_deadline = None, None
    if changed:
        room.broadcast()
    if house.rooms.holds(room):
        schedule(house, room)


def wake(house: RaceHouse) -> None:
    """Start every race room's timer again from its clock (after the clock was moved: tests)."""
    for room in house.rooms:
        if isinstance(room, RaceRoom):
            room.stop_timer()
            schedule(house, room)


async def resume(house: RaceHouse) -> int:
    """After a start: load the races under way (the most recently changed first, as many as the room cache
    holds), so their timers run again; how many."""
    ids = await asyncio.to_thread(house.storage.races.playing_ids, house.rooms.capacity)
    resumed = 0
    for race_id in ids:
        try:
            await house.race(race_id)
        except Exception:
            log.exception("race %s cannot be resumed", race_id)
            continue
        resumed += 1
    return resumed
