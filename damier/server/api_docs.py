"""The API's documentation page, ``/docs``: Swagger UI from the installed ``fastapi-offline`` package (its
assets only: no CDN, so the page works without internet), started by a script of the arcade's own, as the pages'
Content-Security-Policy allows no inline script."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

#: Swagger UI's script and style sheet, as the package ships them
ASSETS = Path(fastapi_offline.__file__).parent / "static"

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>damier arcade API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-testid="api-docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/js/api-docs.js"></script>
</body>
</html>
"""


def mount(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets (the app is made with ``docs_url=None``: FastAPI's page loads a CDN)."""
    app.mount("/docs/assets", StaticFiles(directory=ASSETS), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(PAGE)
