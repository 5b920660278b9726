"""A first online game, as on lichess, in real browsers: the host of a timed game waits for the friend without
losing on time (the page says whose clock starts when), a game is aborted by a button until both have moved, a
takeback asked on one's own turn takes back one's own move (and the reply), the question standing where it is seen
without scrolling on a laptop and on a phone, and a player whose opponent left may claim the game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

LEGAL = "[data-testid^='square-'][data-legal='true']"
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "color_scheme": "dark"}


def create(server: ServerProcess, clock: Any, options: dict[str, Any] | None = None) -> Any:
    return http.post(f"{server.url}/api/games", json={
        "game": "atoms", "options": options or {"rows": 5, "cols": 5},
        "seats": [{"kind": "human"}, {"kind": "human"}], "clock": clock}, timeout=30).json()


def join(page: Page, server: ServerProcess, created: Any, seat: int) -> None:
    page.goto(f"{server.url}/#/game/{created['id']}?seat={seat}&token={created['tokens'][str(seat)]}")
    expect(page.get_by_test_id("board")).to_have_attribute("data-version", re.compile(r"\d+"))


def click(page: Page, square: str) -> None:
    before = page.get_by_test_id("board").get_attribute("data-version")
    page.get_by_test_id(f"square-{square}").click()
    expect(page.get_by_test_id("board")).not_to_have_attribute("data-version", before or "")


def seen_without_scrolling(page: Page, testid: str) -> None:
    """The element is on the screen as the page opens (scrolled to its top)."""
    assert page.evaluate("window.scrollY") == 0
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (testid, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (testid, box, size)


@pytest.fixture
def two(browser: Browser, live_server: ServerProcess) -> Iterator[tuple[Page, Page]]:
    """The host on a laptop, the friend on a phone."""
    host_pages, friend_pages = open_page(browser, **LAPTOP), open_page(browser, **PHONE)
    host, friend = next(host_pages), next(friend_pages)
    yield host, friend
    for pages in (host_pages, friend_pages):
        next(pages, None)


def test_the_host_of_a_timed_game_waits_for_the_friend_without_losing_on_time(page: Page,
                                                                              live_server: ServerProcess) -> None:
    created = create(live_server, {"minutes": 0.05, "increment": 0})  # 3 seconds each
    join(page, live_server, created, 0)
    note = page.get_by_test_id("start-note")
    expect(note).to_contain_text("Make your first move")
    expect(note).to_contain_text("your clock starts after it")
    expect(page.get_by_test_id("clock-0")).to_have_text("0:03.0")
    expect(page.get_by_test_id("clock-0")).not_to_have_class(re.compile(r"\brunning\b"))
    page.wait_for_timeout(3_500)  # longer than the whole clock: it does not run before the first move
    expect(page.get_by_test_id("result-banner")).to_be_hidden()
    expect(page.get_by_test_id("clock-0")).to_have_text("0:03.0")
    assert http.get(f"{live_server.url}/api/games/{created['id']}").json()["status"] == "active"


def test_a_game_is_aborted_by_either_player_until_both_have_moved(two: tuple[Page, Page],
                                                                   live_server: ServerProcess) -> None:
    host, friend = two
    created = create(live_server, "3+2")
    join(host, live_server, created, 0)
    join(friend, live_server, created, 1)
    expect(host.get_by_test_id("btn-abort")).to_be_visible()
    expect(host.get_by_test_id("btn-resign")).to_be_hidden()  # nothing to resign before the game started
    click(host, "A1")
    expect(friend.get_by_test_id("start-note")).to_contain_text("Make your first move within")
    friend.get_by_test_id("btn-abort").click()
    for page in (host, friend):
        banner = page.get_by_test_id("result-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Blue aborted the game")
        expect(page.get_by_test_id("btn-abort")).to_be_hidden()


def test_a_takeback_asked_on_ones_own_turn_takes_back_ones_own_move(two: tuple[Page, Page],
                                                                    live_server: ServerProcess) -> None:
    host, friend = two
    created = create(live_server, None)
    join(host, live_server, created, 0)
    join(friend, live_server, created, 1)
    click(host, "A1")
    click(friend, "E5")
    expect(host.get_by_test_id("status")).to_have_attribute("data-turn", "mine")
    expect(host.get_by_test_id("btn-resign")).to_be_visible()  # both have moved: the game counts now
    host.get_by_test_id("btn-undo").click()  # Red, on Red's turn: take back A1 (and Blue's reply)
    request = friend.get_by_test_id("request")
    expect(request).to_contain_text("Red asks to take back their move A1 and the reply after it")
    seen_without_scrolling(friend, "request")
    friend.get_by_test_id("btn-undo-accept").click()
    for page in (host, friend):
        expect(page.locator("[data-testid='move-list'] li")).to_have_count(0)
    expect(host.get_by_test_id("status")).to_have_attribute("data-turn", "mine")  # Red moves again, not Blue
    atoms = http.get(f"{live_server.url}/api/games/{created['id']}").json()
    assert atoms["moves"] == [] and atoms["player"] == 0


def test_a_draw_offer_is_seen_without_scrolling_on_a_laptop(two: tuple[Page, Page],
                                                           live_server: ServerProcess) -> None:
    host, friend = two
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "seats": [{"kind": "human"}, {"kind": "human"}]}, timeout=30).json()
    for seat in (0, 1):  # a draw may be offered once both have moved (before, the game is aborted instead)
        token = created["tokens"][str(seat)]
        view = http.get(f"{live_server.url}/api/games/{created['id']}", headers={"X-Seat-Token": token}).json()
        http.post(f"{live_server.url}/api/games/{created['id']}/moves", json={"move": view["legal_moves"][0]},
                   headers={"X-Seat-Token": token}).raise_for_status()
    join(friend, live_server, created, 1)
    join(host, live_server, created, 0)
    friend.get_by_test_id("btn-draw").click()
    expect(host.get_by_test_id("request")).to_contain_text("offers a draw")
    seen_without_scrolling(host, "request")


def test_a_player_whose_opponent_left_may_claim_the_win(two: tuple[Page, Page], live_server: ServerProcess) -> None:
    host, friend = two
    created = create(live_server, "1+0")
    join(host, live_server, created, 0)
    join(friend, live_server, created, 1)
    click(host, "A1")
    click(friend, "E5")
    friend.close()  # Blue's page is gone
    left = host.get_by_test_id("left")
    expect(left).to_contain_text("Blue left the game. You can claim the win in")
    seen_without_scrolling(host, "left")
    claim = host.get_by_test_id("btn-claim-win")
    expect(claim).to_be_visible(timeout=30_000)  # after the 15 s a 1+0 game gives (counted by the page)
    claim.click()
    banner = host.get_by_test_id("result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Blue left the game")
    result = http.get(f"{live_server.url}/api/games/{created['id']}").json()["result"]
    assert result["termination"] == "abandonment" and result["winner"] == 0
