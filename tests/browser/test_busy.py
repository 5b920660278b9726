"""An arcade whose computer players are fully booked says so in words a player understands, on the new-game form,
and creates nothing; a game between people is still made at once (issue 36: admission, not degradation)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import open_page
from tests.server.conftest import GENEROUS_TEXT, ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def booked_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """An arcade whose games may book 1 % of its one worker: less than any new game asks, so it is always full."""
    folder: Path = tmp_path_factory.mktemp("booked")
    server = ServerProcess(f"sqlite:///{folder / 'arcade.sqlite3'}", folder / "server.log",
                           limits=GENEROUS_TEXT.replace("booking=100000", "booking=1"))
    server.start()
    yield server
    server.stop()


def fill(page: Page, base: str, seat1: str) -> None:
    page.goto(f"{base}/#/new/atoms")
    page.get_by_test_id("seat-0-kind").select_option("human")
    page.get_by_test_id("seat-1-kind").select_option(seat1)
    page.get_by_test_id("new-game-submit").click()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from open_page(browser)


def test_a_full_arcade_says_it_is_busy_and_a_game_between_people_still_starts(page: Page,
                                                                                booked_server: ServerProcess) -> None:
    fill(page, booked_server.url, "computer")
    error = page.locator(".form-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("the arcade is busy")
    expect(error).to_contain_text("play a friend")
    assert re.search(r"#/new/atoms", page.url), page.url  # still on the form: nothing was created
    expect(page.get_by_test_id("new-game-submit")).to_be_enabled()  # and the player may try again
    fill(page, booked_server.url, "human")
    page.wait_for_url(re.compile(r".*#/game/[^/?]+"))
    expect(page.get_by_test_id("board")).to_be_visible()
