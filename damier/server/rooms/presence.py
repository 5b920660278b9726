"""Who is here across several servers on one PostgreSQL database: each server says who plays a room through it
(``presence <room> <server> <ask> <seats>`` on the database's notification channel) when that changes and again
every ``BEAT`` seconds while anyone plays there; what another server said holds for ``HOLD`` seconds, so a server
that stopped is forgotten. A server that starts hearing a room asks the others to say at once (``ask``).

On SQLite there is one server, and nothing is sent."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING

from damier.server.rooms.room import Room

if TYPE_CHECKING:
    from damier.server.rooms.arcade import Arcade

log = logging.getLogger("damier.server")

#: seconds between two words of a server about the rooms played through it
BEAT = 15.0
#: seconds a server's word holds (a little more than two beats)
HOLD = 40.0
#: the most seats a word names (a room has at most 8 seats; anything longer is not ours)
SEATS = 16


def attach(arcade: Arcade, room: Room) -> None:
    """Let ``room`` tell the other servers when who plays it here changes."""
    if not arcade.storage.is_sqlite:
        room.on_presence = lambda changed: say(arcade, changed, ask=not changed.elsewhere)


def say(arcade: Arcade, room: Room, ask: bool = False) -> None:
    """Tell the other servers who plays ``room`` through this one (one word in flight per room: a change while
    one is sent is said after it)."""
    if room.id in arcade.saying:
        arcade.saying[room.id] = True
        return
    arcade.saying[room.id] = False

    async def send() -> None:
        try:
            while True:
                # the room in memory now (the one asked about may have been evicted and loaded again)
                current = arcade.rooms.peek(room.id) or room
                seats = json.dumps(current.local_presence(), separators=(",", ":"))
                await asyncio.to_thread(arcade.storage.notifications.announce,
                                        f"presence {room.id} {arcade.server_id} {int(ask)} {seats}")
                if not arcade.saying.get(room.id):
                    break
                arcade.saying[room.id] = False
        except Exception:
            log.warning("telling the other servers who plays game %s failed", room.id)
        finally:
            arcade.saying.pop(room.id, None)

    task = asyncio.create_task(send())
    arcade.tasks.add(task)
    task.add_done_callback(arcade.tasks.discard)


def heard(arcade: Arcade, rest: str) -> None:
    """Another server's word (``<room> <server> <ask> <seats>``): the room, if in memory here, takes it."""
    room_id, server, ask, seats_text = [*rest.split(" ", 3), "", "", ""][:4]
    if server == arcade.server_id:
        return
    room = arcade.rooms.peek(room_id)
    if room is None:
        return
    try:
        seats = json.loads(seats_text)
    except ValueError:
        return
    if not isinstance(seats, dict) or len(seats) > SEATS or not all(
            isinstance(k, str) and v in ("online", "away") for k, v in seats.items()):
        return
    room.hear(server, seats, time.monotonic() + HOLD)
    if ask == "1" and room.local_presence():
        say(arcade, room)


async def beat(arcade: Arcade) -> None:
    """Forever, every ``BEAT`` seconds: say again who plays each room in memory here, and forget what other
    servers said and did not say again (on SQLite, one server: nothing to do)."""
    if arcade.storage.is_sqlite:
        return
    while True:
        await asyncio.sleep(BEAT)
        try:
            now = time.monotonic()
            for room in list(arcade.rooms):
                room.forget_elsewhere(now)
                if room.local_presence():
                    say(arcade, room)
        except Exception:  # the next beat tries again
            log.exception("telling the other servers who is here failed")
