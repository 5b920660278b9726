"""Changing a game room: moves with the chance events after them, the end of a game, and the other stored
fields. Every change is committed to the database first and only then made visible in the room. And the clocks'
timers, which end a game on time when nobody sends anything (the clocks' arithmetic is ``clocks``, pure)."""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from damier.agents.spec import resolve
from damier.core.game import CHANCE, Outcome, State
from damier.core.record import now_iso
from damier.server.computer import GRACE_SECONDS, budget_seconds
from damier.server.rooms.errors import Conflict
from damier.server.rooms.game import clocks
from damier.server.storage import ConflictError
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse
    from damier.server.rooms.game.room import GameRoom

log = logging.getLogger("damier.server")
#: the most games the sweep settles a round (``turns.sweep`` runs it every few seconds)
SWEEP_LIMIT = 50


def chance_moves(house: GameHouse, room_id: str, state: State) -> list[tuple[str, int]]:
    """Play the chance events due now on ``state``, each drawn from the server's secret, the room and the ply
    (so they cannot be predicted from outside, and a restart draws the same)."""
    out = []
    while state.player == CHANCE:
        move = state.sample_chance(house.keys.chance(room_id, len(state.history)))
        out.append((state.move_to_str(move), CHANCE))
        state.play(move)
    return out


async def commit(house: GameHouse, room: GameRoom, played: list[tuple[int, int]]) -> None:
    """Play ``played`` (move, seat) pairs and the chance events after them on a copy, store them, and only then
    make the copy the room's state: nobody sees a move that is not committed. With clocks, the mover is charged
    the time since its clock started; a move after its flag fell is refused (``Conflict``) and the game ends on
    time."""
    moment = house.now()
    if played and clocks.due(room, moment):
        await settle_locked(house, room)
        room.broadcast()
        reason = str((room.row.result or {}).get("reason", "lost on time"))
        raise Conflict(say("error.game.over_reason", reason=reason))
    state = room.state.copy()
    first_ply = len(state.history) + 1
    new_moves: list[tuple[str, int]] = []
    for move, seat in played:
        new_moves.append((state.move_to_str(move), seat))
        state.play(move)
    new_moves += chance_moves(house, room.id, state)
    outcome = state.outcome()
    status = "finished" if outcome else "active"
    result = outcome.to_json() if outcome else None
    now = now_iso()
    clock = room.row.clock
    if clock is not None and played:
        moved = room.moved_seats() | {seat for _, seat in played}
        clock = clocks.after_moves(clock, played[-1][1], state.player if status == "active" else -1, moved,
                                   room.human_seats(), moment)
    try:
        await asyncio.wrap_future(house.storage.games.append_moves(room.id, first_ply, new_moves, now, status, result,
                                                             revision=room.row.revision,
                                                             lease=next_lease(house, room, state, status),
                                                             clock=clock))
    except ConflictError:
        house.rooms.forget(room)  # the database knows better: the next request loads the game from it
        raise Conflict(say("error.game.move_stored_first")) from None
    room.row.revision += 1
    room.state = state
    room.row.moves.extend(new_moves)
    room.row.status, room.row.result = status, result
    room.row.draw_offer, room.row.undo_request = None, []
    room.row.updated_at = now
    room.row.finished_at = now if status == "finished" else None
    room.row.clock = clock
    arm(house, room)


#: a computer turn's lease outlasts its hard deadline by this (seconds; ``turns`` looks for expired ones)
LEASE_MARGIN = 10.0


def next_lease(house: GameHouse, room: GameRoom, state: State, status: str) -> tuple[str, float] | None:
    """When ``state`` is a computer seat's turn: its lease for this server (which thinks it next), stored with the
    move, so that a server dying before it thinks leaves a lease another takes over."""
    level = room.computer_level(state.player) if status == "active" and state.player >= 0 else None
    if level is None:
        return None
    budget = budget_seconds(resolve(level, room.game.name))
    return house.server_id, time.time() + budget + GRACE_SECONDS + LEASE_MARGIN


async def stored(house: GameHouse, room: GameRoom, write: Future[None]) -> None:
    """Wait for a write of the room's game; one refused because the game changed elsewhere since the room's copy
    (another server) forgets the room and is a ``Conflict``: nothing is changed, the next request reloads it."""
    try:
        await asyncio.wrap_future(write)
    except ConflictError:
        house.rooms.forget(room)
        raise Conflict(say("error.game.changed_elsewhere")) from None
    room.row.revision += 1


async def update(house: GameHouse, room: GameRoom, **values: Any) -> None:
    """Store new values of the game's fields (``draw_offer``, ``undo_request``, ``rematch`` ...), then set them."""
    now = now_iso()
    await stored(house, room, house.storage.games.update(room.id, now, revision=room.row.revision, **values))
    for key, value in values.items():
        setattr(room.row, key, value)
    room.row.updated_at = now
    if values.get("status") == "finished":
        room.row.finished_at = now


async def finish(house: GameHouse, room: GameRoom, outcome: Outcome) -> None:
    """End the game with ``outcome`` (a resignation, an agreed draw, a clock that fell: an end its moves did not
    reach); the clocks stop."""
    values: dict[str, Any] = {}
    if room.row.clock is not None:
        values["clock"] = clocks.stopped(room.row.clock, house.now())
    await update(house, room, status="finished", result=outcome.to_json(), draw_offer=None, undo_request=[],
                 **values)
    house.stop_turn(room)
    disarm(room)


async def truncate(house: GameHouse, room: GameRoom, keep: int) -> None:
    """Take back every move after the first ``keep`` (an undo); the time spent stays spent, and the clock of the
    seat to move then runs from now."""
    now = now_iso()
    state = room.state.copy()
    while len(state.history) > keep:
        state.undo()
    clock = room.row.clock
    if clock is not None:
        moved = {player for _, player in room.row.moves[:keep] if player >= 0}
        clock = clocks.restarted(clock, state.player, moved, room.human_seats(), house.now())
    await stored(house, room, house.storage.games.truncate_moves(room.id, keep, now, revision=room.row.revision,
                                                            clock=clock))
    room.state = state
    del room.row.moves[keep:]
    room.row.undo_request, room.row.draw_offer, room.row.updated_at = [], None, now
    room.row.finished_at = None
    room.row.clock = clock
    house.stop_turn(room)
    arm(house, room)


# ----- ending games on time: the clocks' timers ------------------------------------------------------------

async def settle(house: GameHouse, room: GameRoom) -> bool:
    """End the game if the clocks say so (under the room's lock; the watchers are told): on time when the clock
    of the seat to move fell, aborted when its first move is overdue; whether it ended now."""
    if not clocks.due(room, house.now()):
        return False
    async with room.lock:
        ended = await settle_locked(house, room)
    if ended:
        room.broadcast()
    return ended


async def settle_locked(house: GameHouse, room: GameRoom) -> bool:
    """``settle`` for a caller holding the room's lock (no broadcast)."""
    outcome = clocks.verdict(room, house.now())
    if outcome is None:
        return False
    await finish(house, room, outcome)
    return True


def arm(house: GameHouse, room: GameRoom) -> None:
    """Set the room's one timer for the next moment its clocks need the server (the running clock falls, a first
    move is overdue), replacing the one it had; none when neither can happen. The timer settles the game even when
    nobody sends anything."""
    disarm(room)
    if not house.rooms.holds(room):
        return  # evicted or replaced: whoever loads it next settles it (a timer would keep it in memory)
    falls = clocks.flag_at(room.row.clock) if room.active else None
    if falls is None:
        return
    loop = asyncio.get_running_loop()
    delay = max(0.0, falls - house.now()) + 0.01
    room.flag_timer = loop.call_later(delay, _fire, house, room)


def disarm(room: GameRoom) -> None:
    if room.flag_timer is not None:
        room.flag_timer.cancel()
        room.flag_timer = None


def _fire(house: GameHouse, room: GameRoom) -> None:
    room.flag_timer = None
    if not house.rooms.holds(room) or room.settling is not None:
        return  # evicted or replaced: whoever loads it next settles it (``Arcade.room``, the sweep)
    room.settling = asyncio.create_task(_settle_soon(house, room))


async def _settle_soon(house: GameHouse, room: GameRoom) -> None:
    try:
        if not await settle(house, room) and room.active:
            arm(house, room)  # not fallen yet (a move came meanwhile, or the timer fired a moment early)
    except Conflict:
        pass  # another server ended it or moved first: the room is read again at the next request
    except Exception:
        log.exception("ending game %s on time failed", room.id)
    finally:
        room.settling = None


async def sweep(house: GameHouse) -> None:
    """Settle the games whose clock fell (or whose first move is overdue) but whose room is not in memory (evicted,
    or another server's that stopped): each is loaded, which settles it (``Arcade.room``); at most ``SWEEP_LIMIT`` a
    round."""
    ids = await asyncio.to_thread(house.storage.games.running_clocks, SWEEP_LIMIT, house.now())
    for game_id in ids:
        try:
            await house.room(game_id)
        except Conflict:
            continue
        except asyncio.CancelledError:
            raise
        except Exception:  # one game that cannot be loaded must not hold up the others' ends
            log.exception("the clock of game %s cannot be settled", game_id)


async def resume(house: GameHouse, limit: int) -> int:
    """After a start: load the games whose clock runs (the soonest to fall first, at most ``limit``): each gets
    its timer, or ends on time at once if its clock fell while the server was down; how many (logged). The games
    past ``limit`` are settled by the sweep when their clock falls."""
    ids = await asyncio.to_thread(house.storage.games.running_clocks, limit)
    for game_id in ids:
        try:
            await house.room(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock of game %s cannot be resumed", game_id)
    if ids:
        log.info("resumed %d games whose clock runs", len(ids))
    return len(ids)
