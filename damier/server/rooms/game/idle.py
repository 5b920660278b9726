"""Games left alone: a game not moved for ``ADJOURN_MINUTES`` is adjourned (it waits for its players, and no longer
counts in its creator's limit of games against the computer: ``damier.server.limits``), and one not moved for
``IDLE_DAYS`` is ended unfinished (``damier.core.game.unfinished``: nobody wins; its record says so). A game with a
running clock ends on time long before; this is for the games without one, against the computer above all."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from damier.core import messages
from damier.core.game import unfinished
from damier.server.rooms.errors import Conflict, NotFound
from damier.server.rooms.game.moves import finish

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse

#: minutes without a move after which a game is adjourned, and days after which it is ended unfinished
ADJOURN_MINUTES = 10
IDLE_DAYS = 3
#: the most games ended a round (the sweep runs every few seconds)
SWEEP_LIMIT = 20


def iso_before(seconds: float, now: float) -> str:
    """The ISO time ``seconds`` before ``now`` (epoch seconds), as the games' ``updated_at`` is written."""
    return datetime.fromtimestamp(now - seconds, UTC).isoformat(timespec="seconds")


async def sweep(house: GameHouse) -> int:
    """End the games nobody moved for ``IDLE_DAYS`` (at most ``SWEEP_LIMIT`` a round); how many."""
    before = iso_before(IDLE_DAYS * 86400, house.now())
    ended = 0
    for game_id in await asyncio.to_thread(house.storage.games.idle, before, SWEEP_LIMIT):
        with contextlib.suppress(NotFound, Conflict):  # gone, or changed elsewhere meanwhile: the next round sees
            room = await house.room(game_id)
            async with room.lock:
                if not room.active or room.row.updated_at >= before:
                    continue
                await finish(house, room, unfinished(room.state, messages.say("outcome.idle", days=IDLE_DAYS)))
                ended += 1
            room.broadcast()
    return ended
