"""The API documentation page, /docs, in a real browser: Swagger UI served by the arcade itself (no request leaves
the server's origin, so it works without internet) lists the API's routes, under the pages' security policy (a
refused script or style would fail the test: see open_page)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow


def test_the_api_docs_load_from_the_server_alone(page: Page, live_server: ServerProcess) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{live_server.url}/docs")
    expect(page.locator(".opblock-summary-path", has_text="/api/games/{game_id}/hint")).to_be_visible()
    expect(page.locator(".info .title")).to_contain_text("damier arcade")
    assert requested and all(url.startswith(live_server.url) for url in requested), requested
