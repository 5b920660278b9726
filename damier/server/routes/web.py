"""The web client: its page (``/``), its files (``/static``) and the board modules' styles in one sheet
(``/static/games.css``: each ``static/js/games/<module>/style.css``, beside the module's scripts, so that the
shared ``styles.css`` holds no game's look; every page links both, before it draws)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles


def games_css(static: Path) -> bytes:
    """The board modules' style sheets, one after the other (in the modules' folder order)."""
    parts = sorted((static / "js" / "games").glob("*/style.css"))
    return b"\n".join(part.read_bytes() for part in parts)


def mount(app: FastAPI, static: Path) -> None:
    """Serve the web client from ``static`` (nothing when the folder is absent: an API-only install)."""
    if not static.is_dir():
        return
    sheet = games_css(static)
    etag = '"' + hashlib.sha256(sheet).hexdigest()[:32] + '"'

    @app.get("/static/games.css", include_in_schema=False)
    async def game_styles(request: Request) -> Response:
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag})
        return Response(sheet, media_type="text/css", headers={"ETag": etag})

    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(static / "index.html")
