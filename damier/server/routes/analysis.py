"""The analysis board: a position to try moves on, an engine's analysis of a position (or a puzzle's optimal
solution), and the evaluation of every position of a game (its graph)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, Field

from damier.server import analysis, game_graphs, rendering
from damier.server.rooms import Unavailable
from damier.server.routes.common import (
    MAX_MOVE_TEXT,
    MAX_POSITION,
    OptionValue,
    address,
    arcade_of,
    heavy_of,
    limits_of,
)
from damier.server.words import say

router = APIRouter()


class AnalysisBoard(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the position (None: the usual start with these options)
    position: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    #: moves played from it first (a game's moves up to the ply shown, chance events included)
    moves: list[Annotated[str, Field(min_length=1, max_length=MAX_MOVE_TEXT)]] = Field(
        default_factory=list, max_length=analysis.MAX_BOARD_MOVES)
    #: then a move tried on the analysis board (the chance events after it are drawn at random)
    move: str | None = Field(default=None, min_length=1, max_length=MAX_MOVE_TEXT)


class AnalysisBody(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    position: str = Field(min_length=1, max_length=MAX_POSITION)


def analyses_of(request: Request) -> analysis.Analyses:
    analyses: analysis.Analyses = request.app.state.analyses
    return analyses


def graphs_of(request: Request) -> game_graphs.Graphs:
    graphs: game_graphs.Graphs = request.app.state.graphs
    return graphs


def board_slots_of(request: Request) -> asyncio.Semaphore:
    """The analysis boards being set up at once (``analysis.BOARDS_AT_ONCE``)."""
    slots: asyncio.Semaphore = request.app.state.board_slots
    return slots


@router.post("/api/analysis/board", summary="A position to try moves on: its board and legal moves, after a line "
             "and a tried move")
async def analysis_board(body: AnalysisBoard, request: Request) -> Response:
    limits_of(request).heavy_read(address(request))
    # a long line is replayed in a thread: a few at once, the others told to come back (the threads are shared)
    board_slots = board_slots_of(request)
    if board_slots.locked():
        raise Unavailable(say("error.busy.analysis_board", count=analysis.BOARDS_AT_ONCE))
    async with board_slots:
        return await heavy_of(request).answer(rendering.analysis_board, body.game, dict(body.options),
                                              body.position, list(body.moves), body.move)


@router.post("/api/analysis", status_code=201, summary="Analyse a position: the engine's lines as it deepens, or "
             "a puzzle's optimal solution")
async def start_analysis(body: AnalysisBody, request: Request) -> dict[str, Any]:
    started = await analyses_of(request).start(body.game, dict(body.options), body.position, address(request))
    return started.view()


@router.get("/api/analysis/{analysis_id}", summary="An analysis: the depths completed so far")
async def read_analysis(analysis_id: Annotated[str, PathParam(max_length=40)], request: Request) -> dict[str, Any]:
    return analyses_of(request).read(analysis_id).view()


@router.post("/api/analysis/{analysis_id}/stop", summary="Stop an analysis (the page left, or analyses another "
             "position)")
async def stop_analysis(analysis_id: Annotated[str, PathParam(max_length=40)], request: Request) -> dict[str, Any]:
    return analyses_of(request).stop(analysis_id).view()


@router.post("/api/games/{game_id}/evaluations", summary="Evaluate every position of the game (the analysis "
             "board's graph), or join the evaluation already asked for: 201 when this asks for it")
async def start_graph(game_id: str, request: Request, response: Response) -> dict[str, Any]:
    graph, started = await graphs_of(request).start(await arcade_of(request).room(game_id), address(request))
    response.status_code = 201 if started else 200
    return graph.view()


@router.get("/api/games/{game_id}/evaluations", summary="The positions of the game evaluated so far, at a version")
async def read_graph(game_id: str, request: Request,
                     version: Annotated[int, Query(ge=0, le=10**6)]) -> dict[str, Any]:
    return graphs_of(request).read(game_id, version).view()
