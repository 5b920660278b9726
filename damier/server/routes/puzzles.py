"""Solo puzzles: one drawn by its options, read from a puzzle id, or the puzzle of the day."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from damier.server.rooms.game import creation, puzzles, views
from damier.server.routes.common import MAX_POSITION, OptionValue, address, arcade_of, limits_of, players_of

router = APIRouter()


class CreatePuzzle(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: a puzzle id, position or JSON form the game reads; None: one drawn by the options and the seed
    puzzle: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    seed: int | None = Field(default=None, ge=0, le=creation.MAX_SEED, description=creation.SEED_WORDS)
    #: the puzzle of the day: True for today's (UTC), or a date YYYY-MM-DD up to today
    daily: bool | str = False


@router.post("/api/puzzles", status_code=201,
             summary="A solo puzzle: drawn by the options (difficulty), read from a puzzle id, or the daily one")
async def create_puzzle(body: CreatePuzzle, request: Request, response: Response) -> dict[str, Any]:
    day = None
    if body.daily is not False:
        day = puzzles.day_of(None if body.daily is True else str(body.daily)[:40])
    owner = players_of(request).ensure(request, response)
    limits_of(request).new_game(address(request))
    room, token = await puzzles.create(arcade_of(request), body.game, dict(body.options), body.puzzle,
                                       body.seed, day)
    await players_of(request).hold(owner, "game", room.id, 0)
    return {"id": room.id, "token": token, "state": views.view(room, 0)}


@router.get("/api/puzzles/{game}/daily", summary="The puzzle of the day (UTC), the same for everyone")
async def daily_puzzle(game: str, request: Request,
                       date: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    limits_of(request).heavy_read(address(request))
    day = puzzles.day_of(date)
    return await puzzles.daily(arcade_of(request), game[:40], day)
