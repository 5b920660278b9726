"""A fast first start in a real browser (issue 35): on a fresh server whose numba cache is empty, the home page
draws every game's card and says that the computer players are being compiled, and the How to play pages draw
their diagrams, while the kernels compile; once they are ready, there is no note."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = [pytest.mark.slow, pytest.mark.alone]


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """`damier serve` as after a fresh install: its numba cache an empty folder."""
    folder: Path = tmp_path_factory.mktemp("fresh")
    (folder / "numba-cache").mkdir()
    server = ServerProcess(f"sqlite:///{folder / 'arcade.sqlite3'}", folder / "server.log",
                           env={"NUMBA_CACHE_DIR": str(folder / "numba-cache")}, compilers=None)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def fresh_page(browser: Browser, fresh_server: ServerProcess) -> Iterator[Page]:
    yield from open_page(browser, viewport={"width": 1280, "height": 800})


def test_the_home_page_and_the_rules_while_the_kernels_compile(fresh_page: Page,
                                                               fresh_server: ServerProcess) -> None:
    games = http.get(f"{fresh_server.url}/api/catalog", timeout=60).json()
    fresh_page.goto(f"{fresh_server.url}/#/")
    for entry in games:  # every card, with its picture drawn by the game's board view
        card = fresh_page.get_by_test_id(f"game-card-{entry['name']}")
        expect(card.locator(".card-picture svg").first).to_be_visible()
    note = fresh_page.get_by_test_id("compiling-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text(re.compile(r"computer players are being compiled \(\d+ of \d+ parts ready\)"))
    kernels = http.get(f"{fresh_server.url}/api/health").json()["kernels"]
    assert not kernels["ready"]  # it was all drawn while they compiled
    fresh_page.get_by_test_id("howto-link-ricochet").click()
    fresh_page.wait_for_url(re.compile(r".*#/howto/ricochet$"))
    expect(fresh_page.get_by_test_id("howto-board-0").locator("svg").first).to_be_visible()


def test_no_note_once_the_kernels_are_ready(page: Page, live_server: ServerProcess) -> None:
    deadline = time.monotonic() + 300  # a full cache: every part loads in a few seconds
    while not http.get(f"{live_server.url}/api/health").json()["kernels"]["ready"]:
        assert time.monotonic() < deadline, "the kernels never got ready"
        time.sleep(0.5)
    with page.expect_response(re.compile(r".*/api/health$")):
        page.goto(f"{live_server.url}/#/")
    expect(page.get_by_test_id("game-card-khet")).to_be_visible()
    expect(page.get_by_test_id("compiling-note")).to_be_hidden()
