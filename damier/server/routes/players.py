"""``/api/me``: this browser's identity (no account): its games and races under way, and the one-time link that
carries it to another device."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from damier.server.rooms import Arcade, Conflict, GameRoom, RaceRoom, RoomError
from damier.server.rooms.game import views
from damier.server.routes.common import arcade_of, players_of
from damier.server.words import say

router = APIRouter()
#: the games of a listing described in full (their rooms loaded), the most recently changed first
DESCRIBED = 20


class TakeLink(BaseModel):
    code: str = Field(min_length=1, max_length=200)


def game_summary(arcade: Arcade, room: GameRoom, seat: int) -> dict[str, Any]:
    """What the home page lists of a game this browser plays: enough to resume, resign or abort it."""
    state = room.state
    to_move = state.player if room.active else -1
    return {"kind": "game", "id": room.id, "game": room.game.name, "title": room.game.title,
            "options": dict(room.game.options), "start": room.row.start, "seat": seat,
            "token": arcade.keys.token(room.id, seat), "seats": views.seats(room), "player": to_move,
            "your_turn": to_move == seat, "moves": len(room.row.moves), "abortable": room.abortable,
            "clock": room.row.clock["minutes"] if room.row.clock else None,
            "control": views.time_control(room), "updated_at": room.row.updated_at}


def race_summary(arcade: Arcade, room: RaceRoom, seat: int) -> dict[str, Any]:
    return {"kind": "race", "id": room.id, "game": room.game.name, "title": room.game.title,
            "options": dict(room.game.options), "seat": seat, "token": arcade.keys.token(room.id, seat),
            "status": room.row.status, "updated_at": room.row.updated_at}


@router.get("/api/me", summary="This browser's games and races under way (its identity cookie's), with their "
            "seat tokens")
async def me(request: Request) -> dict[str, Any]:
    arcade = arcade_of(request)
    identity = players_of(request).identify(request)
    if identity is None:
        return {"games": [], "races": []}
    held = await asyncio.to_thread(players_of(request).store.held, identity)
    games: list[dict[str, Any]] = []
    races: list[dict[str, Any]] = []
    for seat in held[:DESCRIBED]:
        try:
            if seat.kind == "game":
                room = await arcade.room(seat.room_id)
                if room.active:
                    games.append(game_summary(arcade, room, seat.seat))
            else:
                race = await arcade.race(seat.room_id)
                if race.row.status != "finished":
                    races.append(race_summary(arcade, race, seat.seat))
        except RoomError:
            continue  # gone meanwhile, or another server's change: the next listing tells
    return {"games": games, "races": races}


@router.post("/api/me/links", status_code=201,
             summary="A one-time link that carries this browser's identity (its games) to another device")
async def make_link(request: Request) -> dict[str, Any]:
    identity = players_of(request).identify(request)
    if identity is None:
        raise Conflict(say("error.identity.none_yet"))
    return await players_of(request).link(identity)


@router.post("/api/me/take", summary="Take the identity a one-time link carries: this browser then lists its games")
async def take_link(body: TakeLink, request: Request, response: Response) -> dict[str, Any]:
    players = players_of(request)
    identity = await players.take(body.code)
    players.set_cookie(request, response, identity)
    held = await asyncio.to_thread(players.store.held, identity)
    return {"games": sum(1 for seat in held if seat.kind == "game"),
            "races": sum(1 for seat in held if seat.kind == "race")}
