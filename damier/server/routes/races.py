"""Race rooms: people racing on the puzzles of a puzzle game. Create one (its host), join it, read it, and the
players' actions: start, claim, demonstrate, give up."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from damier.server.rooms.race import commands as race_commands
from damier.server.rooms.race import views as race_views
from damier.server.rooms.race.log import MAX_CLAIM
from damier.server.routes.common import (
    OptionValue,
    SeatToken,
    address,
    arcade_of,
    limits_of,
    players_of,
    race_view,
)

router = APIRouter()


class CreateRace(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the room's settings (round_seconds, demo_seconds, max_players, chips_total, chips_to_win, ...)
    settings: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the host's name (seat 0)
    name: str = Field(min_length=1, max_length=64)


class JoinRace(BaseModel):
    name: str = Field(min_length=1, max_length=64)


class ClaimBody(BaseModel):
    count: int = Field(ge=1, le=MAX_CLAIM)
    #: the round the claim is for (refused with 409 once that round is over)
    round: int | None = Field(default=None, ge=1)


class DemonstrateBody(BaseModel):
    moves: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(min_length=1, max_length=MAX_CLAIM)
    round: int | None = Field(default=None, ge=1)


@router.post("/api/races", status_code=201, summary="Create a race room on a puzzle game; you are its host")
async def create_race(body: CreateRace, request: Request, response: Response) -> dict[str, Any]:
    arcade = arcade_of(request)
    owner = players_of(request).ensure(request, response)
    limits_of(request).new_game(address(request))
    room, token = await race_commands.create(arcade, body.game, dict(body.options), dict(body.settings),
                                             body.name)
    await players_of(request).hold(owner, "race", room.id, 0)
    return {"id": room.id, "seat": 0, "token": token, "state": race_views.view(room, 0)}


@router.post("/api/races/{race_id}/join", status_code=201, summary="Join a race with a name; returns your token")
async def join_race(race_id: str, body: JoinRace, request: Request, response: Response) -> dict[str, Any]:
    owner = players_of(request).ensure(request, response)
    room, seat, token = await race_commands.join(arcade_of(request), race_id, body.name)
    await players_of(request).hold(owner, "race", room.id, seat)
    return {"id": room.id, "seat": seat, "token": token, "state": race_views.view(room, seat)}


@router.get("/api/races/{race_id}", summary="The race as its players and watchers see it")
async def read_race(race_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    return race_view(arcade, await race_commands.look(arcade, race_id), x_seat_token)


@router.post("/api/races/{race_id}/start", summary="The host starts the race")
async def start_race(race_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    return race_view(arcade, await race_commands.start(arcade, race_id, x_seat_token), x_seat_token)


@router.post("/api/races/{race_id}/claim", summary="Claim the round's puzzle in a number of moves")
async def claim(race_id: str, body: ClaimBody, request: Request,
                x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    room = await race_commands.claim(arcade, race_id, x_seat_token, body.count, body.round)
    return race_view(arcade, room, x_seat_token)


@router.post("/api/races/{race_id}/demonstrate", summary="Demonstrate your claim: one move or the whole line")
async def demonstrate(race_id: str, body: DemonstrateBody, request: Request,
                      x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    room = await race_commands.demonstrate(arcade, race_id, x_seat_token, list(body.moves), body.round)
    return race_view(arcade, room, x_seat_token)


@router.post("/api/races/{race_id}/giveup", summary="Give up your demonstration (the claim is wrong)")
async def give_up(race_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    return race_view(arcade, await race_commands.give_up(arcade, race_id, x_seat_token), x_seat_token)
