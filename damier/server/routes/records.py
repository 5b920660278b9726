"""Game records: a game's record (JSON) to download, its positions page by page for the replay viewer, and a
record imported for replay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from damier.server import rendering
from damier.server.rooms import Invalid
from damier.server.rooms.game import creation, views
from damier.server.routes.common import address, arcade_of, heavy_of, limits_of
from damier.server.words import say

router = APIRouter()


@router.get("/api/games/{game_id}/record", summary="The game record (JSON)")
async def record(game_id: str, request: Request) -> JSONResponse:
    arcade = arcade_of(request)
    room = await arcade.room(game_id)
    return JSONResponse(views.record(room), headers={
        "Content-Disposition": f'attachment; filename="damier-{room.game.name}-{room.id}.json"'})


@router.get("/api/games/{game_id}/replay",
            summary="A page of the game's positions, for the replay viewer (frames from, how many, the total)")
async def replay(game_id: str, request: Request,
                 first: Annotated[int, Query(alias="from", ge=0, le=10**6)] = 0,
                 count: Annotated[int, Query(ge=1, le=views.MAX_REPLAY_PAGE)] = views.REPLAY_PAGE) -> Response:
    limits_of(request).heavy_read(address(request))
    arcade = arcade_of(request)
    room = await arcade.room(game_id)
    version = room.version
    heavy = heavy_of(request)

    async def make() -> bytes:  # long games take a while: in a heavy process, once per page and version
        page = views.replay_page(room, first)
        return await heavy.run(rendering.replay_page, page, room.game.name, dict(room.game.options),
                               room.job_start(), room.row.seed, list(room.row.moves), page["from"], count)

    body = await arcade.answers.get(("replay", room.id, version, first, count), make)
    return Response(body, media_type="application/json")


@router.post("/api/records", status_code=201, summary="Import a record for replay")
async def import_record(request: Request) -> dict[str, Any]:
    try:
        obj = await request.json()
    except ValueError:
        raise Invalid(say("error.record.not_json")) from None
    except RecursionError:
        raise StarletteHTTPException(400, say("error.request.too_deep")) from None
    limits_of(request).new_game(address(request))
    room = await creation.import_record(arcade_of(request), obj)
    return {"id": room.id}
