"""Jewels and Lasers' boards in a real browser: each game started from the new-game form draws a new board, whose
number the game page shows beside the options; the number typed in the form's Board field (or reached by the
game page's link) plays that board again; a finished game's rematch keeps the board or draws a new one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser import http
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: a small board, quick to draw
SMALL = {"size": 8, "jewels": 4, "walls": 6, "robots": 2}
GAME_URL = re.compile(r".*#/game/[^/?]+$")


def view_of_page(page: Page, server: ServerProcess) -> Any:
    """The view of the game the page shows, asked of the server."""
    game_id = page.url.rsplit("/", 1)[1]
    return http.get(f"{server.url}/api/games/{game_id}").json()


def start_from_form(page: Page, server: ServerProcess, seed: str = "") -> Any:
    """A game between two people of this browser, started from the new-game form with the small options and
    ``seed`` typed in the Board field (empty: a new board): its view, once the page shows it."""
    page.goto(f"{server.url}/#/new/jewels")
    for name, value in SMALL.items():
        page.get_by_test_id(f"option-{name}").fill(str(value))
    page.get_by_test_id("option-seed").fill(seed)
    page.get_by_test_id("seat-1-kind").select_option("human")
    page.get_by_test_id("new-game-submit").click()
    page.wait_for_url(GAME_URL)
    view = view_of_page(page, server)
    expect(page.get_by_test_id("board-seed")).to_have_text(f"board {view['seed']}")
    return view


def test_two_new_games_get_two_boards_and_the_seed_typed_gives_its_board(page: Page,
                                                                         live_server: ServerProcess) -> None:
    first = start_from_form(page, live_server)
    second = start_from_form(page, live_server)
    assert isinstance(first["seed"], int) and isinstance(second["seed"], int)
    assert first["seed"] != second["seed"]
    assert first["position"] != second["position"]
    # the number the first game showed, typed in the form: the first game's board
    again = start_from_form(page, live_server, str(first["seed"]))
    assert again["seed"] == first["seed"] and again["position"] == first["position"]
    assert again["id"] != first["id"]
    # the form refuses what is not a board's number, before asking the server
    page.goto(f"{live_server.url}/#/new/jewels")
    page.get_by_test_id("option-seed").fill("board 5")
    page.get_by_test_id("new-game-submit").click()
    expect(page.locator(".form-error")).to_contain_text("Board: a whole number")
    # the game page's link opens the form with that board and those options: it plays the board again
    page.goto(f"{live_server.url}/#/game/{first['id']}")
    page.get_by_test_id("board-seed").click()
    expect(page.get_by_test_id("option-seed")).to_have_value(str(first["seed"]))
    expect(page.get_by_test_id("option-size")).to_have_value(str(SMALL["size"]))
    expect(page.locator(".preview-text")).to_contain_text(f"board {first['seed']}")
    page.get_by_test_id("seat-1-kind").select_option("human")
    page.get_by_test_id("new-game-submit").click()
    page.wait_for_url(GAME_URL)
    linked = view_of_page(page, live_server)
    assert linked["position"] == first["position"] and linked["id"] not in (first["id"], again["id"])


def resign(page: Page) -> None:
    """End the game: aborted before both have moved, else resigned (the second click confirms)."""
    page.wait_for_selector("[data-testid='btn-abort']:not([hidden]), [data-testid='btn-resign']:not([hidden])")
    if page.get_by_test_id("btn-abort").is_visible():
        page.get_by_test_id("btn-abort").click()
    else:
        page.get_by_test_id("btn-resign").click()
        page.get_by_test_id("btn-resign").click()
    expect(page.get_by_test_id("result-banner")).to_be_visible()


def test_a_rematch_keeps_the_board_or_draws_a_new_one(page: Page, live_server: ServerProcess) -> None:
    first = start_from_form(page, live_server)
    resign(page)
    expect(page.get_by_test_id("btn-rematch")).to_have_text(re.compile("Rematch, same board"))
    page.get_by_test_id("btn-rematch").click()
    page.wait_for_url(re.compile(rf".*#/game/(?!{first['id']})[^/?]+$"))
    same = view_of_page(page, live_server)
    assert same["seed"] == first["seed"] and same["position"] == first["position"]
    expect(page.get_by_test_id("board-seed")).to_have_text(f"board {first['seed']}")
    resign(page)
    page.get_by_test_id("btn-rematch-new").click()
    page.wait_for_url(re.compile(rf".*#/game/(?!{same['id']})[^/?]+$"))
    new = view_of_page(page, live_server)
    assert new["seed"] != first["seed"] and new["position"] != first["position"]
    assert new["options"] == same["options"]
    expect(page.get_by_test_id("board-seed")).to_have_text(f"board {new['seed']}")
    # the old game now offers to join the rematch made, not another board
    page.goto(f"{live_server.url}/#/game/{same['id']}")
    expect(page.get_by_test_id("btn-rematch")).to_have_text(re.compile("Join the rematch"))
    expect(page.get_by_test_id("btn-rematch-new")).to_have_count(0)
