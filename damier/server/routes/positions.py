"""Positions checked for a position editor: a position (or a game's usual start) with a line of moves, and the
position of a board the editor set up."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from damier.server import rendering
from damier.server.rooms.game import creation, setups
from damier.server.routes.common import (
    MAX_LINE,
    MAX_MOVE_TEXT,
    MAX_POSITION,
    OptionValue,
    address,
    arcade_of,
    heavy_of,
    limits_of,
)

router = APIRouter()


class PositionBody(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the position to check; None: the usual start of the game with these options
    position: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    #: a line of moves from the position (a hint's or a solution's): the answer adds the board after each
    moves: list[Annotated[str, Field(min_length=1, max_length=MAX_MOVE_TEXT)]] | None = Field(
        default=None, max_length=MAX_LINE)
    #: with no position, the seed the usual start is drawn from (a game with a seeded setup); None: the game's own
    seed: int | None = Field(default=None, ge=0, le=creation.MAX_SEED, description=creation.SEED_WORDS)


class EditedBoard(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the board a position editor set up, as the game's board view draws it (the pieces, the side to move...)
    board: dict[str, Any]


@router.post("/api/positions", summary="Check a position (a position editor asks before starting a game)")
async def position(body: PositionBody, request: Request) -> Response:
    limits_of(request).heavy_read(address(request))
    checked = body.position
    if checked is None:  # a usual start drawn from a seed (an example one without): drawn in the pool
        game = creation.load_game(body.game, dict(body.options))
        checked = await setups.usual_start(arcade_of(request), game, 0 if body.seed is None else body.seed)
    return await heavy_of(request).answer(rendering.position, body.game, dict(body.options), checked, body.moves,
                                          body.seed)


@router.post("/api/positions/board", summary="The position of a board set up in a position editor, checked")
async def position_of_board(body: EditedBoard, request: Request) -> Response:
    limits_of(request).heavy_read(address(request))
    # the game's declared editor writes the position; the position check judges it
    return await heavy_of(request).answer(rendering.edited, body.game, dict(body.options), body.board)
