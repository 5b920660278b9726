"""The lobby's routes: open seeks (list, offer, quick pairing, cancel, join), the lobby's WebSocket, and a few games
going on to watch."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response, WebSocket
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from damier.server import sockets
from damier.server.identity import IdentityError
from damier.server.lobby import Lobby, public
from damier.server.rooms import Arcade, GameRoom, RoomError, Watcher
from damier.server.rooms.game import views
from damier.server.rooms.game.idle import iso_before
from damier.server.routes.common import address, arcade_of, limits_of, players_of
from damier.server.words import say

router = APIRouter()
OptionValue = int | bool | str
#: games shown to watch, moved in the last LIVE_SECONDS; the list is made once every LIVE_EVERY seconds
LIVE_GAMES = 6
LIVE_SECONDS = 600
LIVE_EVERY = 5


class OfferSeek(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: a time control (``{"minutes", "increment"}`` or ``"3+2"``), or null for none
    clock: Any = Field(default=None, examples=["3+2", {"minutes": 5, "increment": 3}])
    #: the seat the creator takes: the first, the second, or one drawn when the seek is joined
    side: Literal["random", "first", "second"] = "random"
    #: quick pairing: join the oldest matching seek of someone else if there is one (else open this one)
    quick: bool = False


def lobby_of(connection: Request | WebSocket) -> Lobby:
    lobby: Lobby = connection.app.state.lobby
    return lobby


def paired(arcade: Arcade, room: GameRoom, seat: int) -> dict[str, Any]:
    return {"game": {"id": room.id, "seat": seat, "token": arcade.keys.token(room.id, seat)}}


@router.get("/api/seeks", summary="The lobby's open seeks (the newest first)")
async def open_seeks(request: Request) -> dict[str, Any]:
    return lobby_of(request).snapshot()


@router.post("/api/seeks", status_code=201, summary="Offer a game in the lobby (or, quick, join a matching one): "
             "201 {seek} while it waits, or 200 {game} when it was paired at once")
async def offer(body: OfferSeek, request: Request, response: Response) -> dict[str, Any]:
    identity = players_of(request).ensure(request, response)
    client = address(request)
    limits_of(request).new_game(client)
    lobby = lobby_of(request)
    if body.quick:
        found = await lobby.quick(identity, client, body.game, dict(body.options), body.clock)
        if isinstance(found, tuple):
            response.status_code = 200
            return paired(lobby.arcade, *found)
        return {"seek": public(found)}
    return {"seek": public(await lobby.offer(identity, client, body.game, dict(body.options), body.clock,
                                             body.side))}


@router.delete("/api/seeks/{seek_id}", summary="Cancel your seek")
async def cancel(seek_id: Annotated[str, PathParam(max_length=40)], request: Request) -> dict[str, Any]:
    await lobby_of(request).cancel(seek_id, players_of(request).identify(request))
    return {"cancelled": seek_id}


@router.post("/api/seeks/{seek_id}/join", status_code=201,
             summary="Join a seek: the game is created; your seat and its token")
async def join(seek_id: Annotated[str, PathParam(max_length=40)], request: Request,
               response: Response) -> dict[str, Any]:
    identity = players_of(request).ensure(request, response)
    lobby = lobby_of(request)
    room, seat = await lobby.join(seek_id, identity)
    return paired(lobby.arcade, room, seat)


@router.websocket("/api/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's page: sent the open seeks at once and after each change; a creator's page is also sent
    ``{"type": "paired", "seek", "game", "seat", "token"}`` when one of its seeks is joined, and its seeks live while
    one of its lobby pages is open."""
    lobby = lobby_of(websocket)
    try:
        identity = players_of(websocket).identify(websocket)
    except IdentityError:
        identity = None  # a page with a bad cookie watches; it has no seek to keep

    async def load() -> Lobby:
        return lobby

    async def handle(text: str, _watcher: Watcher) -> dict[str, Any] | None:
        read = sockets.read_message(text)
        if isinstance(read, dict):
            return read
        kind, _ = read
        if kind == "ping":
            return {"type": "pong"}
        return sockets.error(422, say("error.socket.unknown_type", type=repr(kind[:40]), accepted="ping"))

    await sockets.watch(websocket, load, handle, opened=lambda watcher: lobby.arrive(identity, watcher),
                        closed=lobby.depart)


@router.get("/api/games/live", summary="A few games going on to watch (moved in the last ten minutes)")
async def live_games(request: Request) -> Response:
    arcade = arcade_of(request)

    async def make() -> bytes:
        since = iso_before(LIVE_SECONDS, time.time())
        ids = await asyncio.to_thread(arcade.storage.games.live, since, LIVE_GAMES)
        games = []
        for game_id in ids:
            try:
                room = await arcade.room(game_id)
            except RoomError:
                continue
            if room.active:
                games.append({"id": room.id, "game": room.game.name, "title": room.game.title,
                              "options": dict(room.game.options), "start": room.row.start,
                              "seats": views.seats(room), "player": room.state.player,
                              "moves": len(room.row.moves), "control": views.time_control(room),
                              "board": room.state.board_json(previews=False)})
        return json.dumps({"games": games}, separators=(",", ":")).encode()

    body = await arcade.answers.get(("live", int(time.time() // LIVE_EVERY)), make)
    return Response(body, media_type="application/json")
