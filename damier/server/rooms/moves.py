"""Changing a game room: moves with the chance events after them, the end of a game, and the other stored
fields. Every change is committed to the database first and only then made visible in the room."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from damier.ai.spec import resolve
from damier.core.game import CHANCE, Outcome, State
from damier.core.record import now_iso
from damier.server.computer import GRACE_SECONDS, budget_seconds
from damier.server.rooms import clocks
from damier.server.rooms.errors import Conflict
from damier.server.storage import ConflictError

if TYPE_CHECKING:
    from damier.server.rooms.arcade import Arcade
    from damier.server.rooms.game_room import GameRoom


def chance_moves(arcade: Arcade, room_id: str, state: State) -> list[tuple[str, int]]:
    """Play the chance events due now on ``state``, each drawn from the server's secret, the room and the ply
    (so they cannot be predicted from outside, and a restart draws the same)."""
    out = []
    while state.player == CHANCE:
        move = state.sample_chance(arcade.keys.chance(room_id, len(state.history)))
        out.append((state.move_to_str(move), CHANCE))
        state.play(move)
    return out


async def commit(arcade: Arcade, room: GameRoom, played: list[tuple[int, int]]) -> None:
    """Play ``played`` (move, seat) pairs and the chance events after them on a copy, store them, and only then
    make the copy the room's state: nobody sees a move that is not committed. With clocks, the mover is charged
    the time since its clock started; a move after its flag fell is refused (``Conflict``) and the game ends on
    time."""
    moment = arcade.now()
    if played and clocks.due(room, moment):
        await clocks.settle_locked(arcade, room)
        room.broadcast()
        raise Conflict(f"the game is over ({(room.row.result or {}).get('reason', 'lost on time')})")
    state = room.state.copy()
    first_ply = len(state.history) + 1
    new_moves: list[tuple[str, int]] = []
    for move, seat in played:
        new_moves.append((state.move_to_str(move), seat))
        state.play(move)
    new_moves += chance_moves(arcade, room.id, state)
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
        await asyncio.wrap_future(arcade.storage.append_moves(room.id, first_ply, new_moves, now, status, result,
                                                              revision=room.row.revision,
                                                              lease=next_lease(arcade, room, state, status),
                                                              clock=clock))
    except ConflictError:
        arcade.rooms.forget(room)  # the database knows better: the next request loads the game from it
        raise Conflict("another move was stored first; reload the game") from None
    room.row.revision += 1
    room.state = state
    room.row.moves.extend(new_moves)
    room.row.status, room.row.result = status, result
    room.row.draw_offer, room.row.undo_request = None, []
    room.row.updated_at = now
    room.row.finished_at = now if status == "finished" else None
    room.row.clock = clock
    clocks.arm(arcade, room)


#: a computer turn's lease outlasts its hard deadline by this (seconds; ``turns`` looks for expired ones)
LEASE_MARGIN = 10.0


def next_lease(arcade: Arcade, room: GameRoom, state: State, status: str) -> tuple[str, float] | None:
    """When ``state`` is a computer seat's turn: its lease for this server (which thinks it next), stored with the
    move, so that a server dying before it thinks leaves a lease another takes over."""
    level = room.computer_level(state.player) if status == "active" and state.player >= 0 else None
    if level is None:
        return None
    budget = budget_seconds(resolve(level, room.game.name))
    return arcade.server_id, time.time() + budget + GRACE_SECONDS + LEASE_MARGIN


async def stored(arcade: Arcade, room: GameRoom, write: Future[None]) -> None:
    """Wait for a write of the room's game; one refused because the game changed elsewhere since the room's copy
    (another server) forgets the room and is a ``Conflict``: nothing is changed, the next request reloads it."""
    try:
        await asyncio.wrap_future(write)
    except ConflictError:
        arcade.rooms.forget(room)
        raise Conflict("the game was changed elsewhere in the meantime; reload it") from None
    room.row.revision += 1


async def update(arcade: Arcade, room: GameRoom, **values: Any) -> None:
    """Store new values of the game's fields (``draw_offer``, ``undo_request``, ``rematch`` ...), then set them."""
    now = now_iso()
    await stored(arcade, room, arcade.storage.update_game(room.id, now, revision=room.row.revision, **values))
    for key, value in values.items():
        setattr(room.row, key, value)
    room.row.updated_at = now
    if values.get("status") == "finished":
        room.row.finished_at = now


async def finish(arcade: Arcade, room: GameRoom, outcome: Outcome) -> None:
    """End the game with ``outcome`` (a resignation, an agreed draw, a clock that fell: an end its moves did not
    reach); the clocks stop."""
    values: dict[str, Any] = {}
    if room.row.clock is not None:
        values["clock"] = clocks.stopped(room.row.clock, arcade.now())
    await update(arcade, room, status="finished", result=outcome.to_json(), draw_offer=None, undo_request=[],
                 **values)
    arcade.stop_turn(room)
    clocks.disarm(room)


async def truncate(arcade: Arcade, room: GameRoom, keep: int) -> None:
    """Take back every move after the first ``keep`` (an undo); the time spent stays spent, and the clock of the
    seat to move then runs from now."""
    now = now_iso()
    state = room.state.copy()
    while len(state.history) > keep:
        state.undo()
    clock = room.row.clock
    if clock is not None:
        moved = {player for _, player in room.row.moves[:keep] if player >= 0}
        clock = clocks.restarted(clock, state.player, moved, room.human_seats(), arcade.now())
    await stored(arcade, room, arcade.storage.truncate_moves(room.id, keep, now, revision=room.row.revision,
                                                             clock=clock))
    room.state = state
    del room.row.moves[keep:]
    room.row.undo_request, room.row.draw_offer, room.row.updated_at = [], None, now
    room.row.finished_at = None
    room.row.clock = clock
    arcade.stop_turn(room)
    clocks.arm(arcade, room)
