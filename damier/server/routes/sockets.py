"""The rooms' WebSockets: a game's (its moves, a player's hello, pings) and a race's (its players' actions). A
socket watching a room is sent its view at once and after every change (``damier.server.sockets``)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket

from damier.server import sockets
from damier.server.identity import IdentityError
from damier.server.rooms import Arcade, NotFound, RoomError, Watcher
from damier.server.rooms.game import commands
from damier.server.rooms.race import commands as race_commands
from damier.server.rooms.race.log import MAX_CLAIM
from damier.server.routes.common import arcade_of, players_of, status_of
from damier.server.words import say

log = logging.getLogger("damier.server")
router = APIRouter()

RACE_MESSAGES = ("start", "claim", "move", "demonstrate", "giveup", "ping")


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    arcade = arcade_of(websocket)
    try:
        await arcade.room(game_id)
    except NotFound as exc:
        await websocket.close(code=4404, reason=exc.message[:120])
        return
    await sockets.watch(websocket, lambda: arcade.room(game_id),
                        lambda text, watcher: game_message(arcade, game_id, text, watcher, websocket))


@router.websocket("/api/races/{race_id}/ws")
@router.websocket("/ws/races/{race_id}")
async def race_socket(websocket: WebSocket, race_id: str) -> None:
    arcade = arcade_of(websocket)
    try:
        await race_commands.look(arcade, race_id)
    except NotFound as exc:
        await websocket.close(code=4404, reason=exc.message[:120])
        return
    await sockets.watch(websocket, lambda: race_commands.look(arcade, race_id),
                        lambda text, _watcher: race_message(arcade, race_id, text))


async def race_message(arcade: Arcade, race_id: str, text: str) -> dict[str, Any] | None:
    """Handle a race socket's ``start``, ``claim`` (``count``, ``round``?), ``move`` (``move``), ``demonstrate``
    (``moves``), ``giveup`` (each with ``token``) or ``ping``; the reply, if any (a change's success is the
    state every watcher receives)."""
    read = sockets.read_message(text)
    if isinstance(read, dict):
        return read
    kind, message = read
    if kind == "ping":
        return {"type": "pong"}
    if kind not in RACE_MESSAGES:
        return sockets.error(422, say("error.socket.unknown_type", type=repr(kind[:40]),
                                      accepted=", ".join(RACE_MESSAGES)))
    token, round_number = message.get("token"), message.get("round")
    if not isinstance(token, str) or not (round_number is None or type(round_number) is int):
        return sockets.error(422, say("error.socket.race_token", type=kind))
    try:
        if kind == "start":
            await race_commands.start(arcade, race_id, token)
        elif kind == "claim":
            count = message.get("count")
            if type(count) is not int:
                return sockets.error(422, say("error.socket.claim_count"))
            await race_commands.claim(arcade, race_id, token, count, round_number)
        elif kind == "giveup":
            await race_commands.give_up(arcade, race_id, token)
        else:
            moves = [message.get("move")] if kind == "move" else message.get("moves")
            if not isinstance(moves, list) or not 1 <= len(moves) <= MAX_CLAIM or \
                    not all(isinstance(m, str) and 1 <= len(m) <= 64 for m in moves):
                return sockets.error(422, say("error.socket.race_moves", max=MAX_CLAIM))
            await race_commands.demonstrate(arcade, race_id, token, moves, round_number)
    except RoomError as exc:
        return sockets.error(status_of(exc), exc.message)
    except Exception:
        log.exception("a %s over the WebSocket failed in race %s", kind, race_id)
        return sockets.error(500, say("error.internal"))
    return None


async def game_message(arcade: Arcade, game_id: str, text: str, watcher: Watcher,
                       websocket: WebSocket) -> dict[str, Any] | None:
    """Handle ``{"type": "move", "move", "version", "token"}``, ``{"type": "hello", "token", "away"?}`` (this
    socket plays the token's seat; ``away``: its page is hidden) or ``{"type": "ping"}``; the reply, if any (a
    move's success is the state every watcher receives, a hello's the ``presence`` message)."""
    read = sockets.read_message(text)
    if isinstance(read, dict):
        return read
    kind, message = read
    if kind == "ping":
        return {"type": "pong"}
    if kind == "hello":
        token, away = message.get("token"), message.get("away", False)
        if not isinstance(token, str) or not isinstance(away, bool):
            return sockets.error(422, say("error.socket.hello"))
        try:
            room = await arcade.room(game_id)
            if watcher not in room.watchers:
                return sockets.error(409, say("error.socket.stale_copy"))
            seat = arcade.require_seat(room, token)
            room.present(watcher, seat, away)
            await commands.arrive(arcade, room, seat)
            with contextlib.suppress(IdentityError):  # a socket with a bad cookie plays all the same
                await players_of(websocket).hold(players_of(websocket).identify(websocket), "game", room.id, seat)
        except RoomError as exc:
            return sockets.error(status_of(exc), exc.message)
        return None
    if kind != "move":
        return sockets.error(422, say("error.socket.unknown_type", type=repr(kind[:40]), accepted="move, hello, ping"))
    move, version, token = message.get("move"), message.get("version"), message.get("token")
    if not isinstance(move, str) or not (version is None or isinstance(version, int)) or not isinstance(token, str):
        return sockets.error(422, say("error.socket.move"))
    try:
        await commands.move(arcade, game_id, token, move[:64], version)
    except RoomError as exc:
        return sockets.error(status_of(exc), exc.message)
    except Exception:
        log.exception("move over the WebSocket failed in game %s", game_id)
        return sockets.error(500, say("error.internal"))
    return None
