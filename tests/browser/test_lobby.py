"""The lobby in real browsers: quick pairing by game and time control, the seek seen on every other home page and
joined in one click (both players land in the same game, on their own seats), gone everywhere once joined or once
its creator left, a game offered in the lobby from the new-game form, and a game going on shown to watch."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import APIResponse, Browser, Page, Route, expect

from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "color_scheme": "dark"}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SEEK = "[data-testid='seek-list'] li"


@pytest.fixture
def three(browser: Browser, live_server: ServerProcess) -> Iterator[tuple[Page, Page, Page]]:
    """Three players' browsers: two on a desktop, one on a phone."""
    openers = [open_page(browser, **DESKTOP), open_page(browser, **PHONE), open_page(browser, **DESKTOP)]
    pages = [next(opener) for opener in openers]
    for page in pages:
        page.goto(f"{live_server.url}/#/")
        expect(page.get_by_test_id("quick-pairing")).to_be_visible()
    yield pages[0], pages[1], pages[2]
    for opener in openers:
        next(opener, None)


def game_id(page: Page) -> str:
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def test_quick_pairing_pairs_two_players_in_one_click(three: tuple[Page, Page, Page],
                                                      live_server: ServerProcess) -> None:
    host, guest, watcher = three
    host.get_by_test_id("quick-khet-3+2").click()
    mine = host.locator(f"{SEEK}.mine")
    expect(mine).to_contain_text("waiting for an opponent")
    expect(mine.locator("[data-testid^='cancel-seek-']")).to_be_visible()
    expect(mine.locator("[data-testid^='join-seek-']")).to_have_count(0)  # one's own seek is not joined
    for page in (guest, watcher):
        expect(page.locator(SEEK)).to_have_count(1)
        expect(page.locator(SEEK)).to_contain_text("Khet 2.0")
        expect(page.locator(SEEK)).to_contain_text("3+2")
    guest.locator("[data-testid^='join-seek-']").click()
    both = {game_id(guest), game_id(host)}
    assert len(both) == 1
    expect(watcher.locator(SEEK)).to_have_count(0)  # gone from every lobby at once
    seats = {page.evaluate("JSON.parse(localStorage.getItem(`damier.seats.${location.hash.split('/')[2]}`)).primary")
             for page in (host, guest)}
    assert seats == {0, 1}
    view = http.get(f"{live_server.url}/api/games/{both.pop()}").json()
    assert view["clock"]["control"] == "3+2" and [s["kind"] for s in view["seats"]] == ["human", "human"]


def test_the_same_button_pairs_who_waits_for_the_same(three: tuple[Page, Page, Page]) -> None:
    host, guest, _ = three
    host.get_by_test_id("quick-atoms-1+0").click()
    expect(guest.locator(SEEK)).to_have_count(1)
    guest.get_by_test_id("quick-atoms-1+0").click()  # quick pairing joins the seek waiting for the same
    assert game_id(guest) == game_id(host)


def test_a_seek_leaves_the_lobby_when_its_creator_leaves(three: tuple[Page, Page, Page],
                                                         live_server: ServerProcess) -> None:
    host, guest, _ = three
    host.get_by_test_id("quick-jewels-5+3").click()
    expect(guest.locator(SEEK)).to_have_count(1)
    host.goto(f"{live_server.url}/#/import")  # the creator's lobby page is gone
    expect(guest.locator(SEEK)).to_have_count(0, timeout=20_000)


def test_a_seek_whose_answer_comes_after_its_creator_left_leaves_the_lobby_too(
        three: tuple[Page, Page, Page], live_server: ServerProcess) -> None:
    host, guest, _ = three
    held: list[tuple[Route, APIResponse]] = []
    # the offer reaches the server at once; its answer reaches the creator's page only once it has left the lobby
    host.route("**/api/seeks", lambda route: held.append((route, route.fetch())))
    host.get_by_test_id("quick-jewels-5+3").click()
    expect(guest.locator(SEEK)).to_have_count(1)
    host.goto(f"{live_server.url}/#/import")
    expect(host.get_by_test_id("quick-pairing")).to_have_count(0)
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(guest.locator(SEEK)).to_have_count(0, timeout=10_000)  # not after the server's hold of a lost page


def test_a_game_is_offered_in_the_lobby_from_the_new_game_form(three: tuple[Page, Page, Page],
                                                              live_server: ServerProcess) -> None:
    host, guest, _ = three
    host.goto(f"{live_server.url}/#/new/atoms")
    host.get_by_test_id("option-rows").fill("5")
    host.get_by_test_id("option-cols").fill("5")
    host.get_by_test_id("seat-1-kind").select_option("human")
    host.get_by_test_id("in-lobby").check()
    expect(host.get_by_test_id("new-game-submit")).to_have_text("Offer in the lobby")
    host.get_by_test_id("new-game-submit").click()
    expect(host.locator(f"{SEEK}.mine")).to_contain_text("5×5")
    expect(guest.locator(SEEK)).to_contain_text("5×5")
    guest.locator("[data-testid^='join-seek-']").click()
    assert game_id(guest) == game_id(host)
    expect(host.get_by_test_id("status")).to_have_attribute("data-turn", "mine")  # the host took the first seat


def test_a_game_going_on_is_shown_to_watch(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "atoms", "options": {"rows": 5, "cols": 5},
        "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}).json()
    http.post(f"{live_server.url}/api/games/{created['id']}/moves", json={"move": "A1"},
               headers={"X-Seat-Token": created["tokens"]["0"]}).raise_for_status()
    page.goto(f"{live_server.url}/#/")
    link = page.get_by_test_id(f"watch-{created['id']}")
    expect(link).to_be_visible()
    link.click()
    expect(page.get_by_test_id("watching")).to_be_visible()
