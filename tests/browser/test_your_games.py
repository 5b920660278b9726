"""Your games, with no account: the games a browser plays are listed on its home page in any tab (resumed,
aborted or resigned from there), carried to another device by a one-time link, a cookie that is not valid is
said and dropped, and the refusal of a game against the computer past the limit names and links the games that
hold it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "color_scheme": "dark"}


def quick_game(page: Page, base: str, game: str) -> str:
    """A game against the computer from the home page's card; its id."""
    page.goto(f"{base}/#/")
    page.get_by_test_id(f"quick-play-{game}").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def test_a_game_is_listed_in_another_tab_and_resumed_there(page: Page, live_server: ServerProcess) -> None:
    game_id = quick_game(page, live_server.url, "khet")
    other = page.context.new_page()  # another tab of the same browser: no seat in its localStorage to start with
    other.goto(f"{live_server.url}/#/")
    item = other.get_by_test_id(f"your-game-{game_id}")
    expect(item).to_contain_text("Khet 2.0")
    expect(item).to_contain_text("your turn")
    other.evaluate("localStorage.clear()")  # this tab knows the game from the server only
    other.get_by_test_id(f"resume-{game_id}").click()
    expect(other.get_by_test_id("status")).to_have_attribute("data-turn", "mine")  # it plays the seat
    other.close()


def test_a_game_is_aborted_from_the_home_page(page: Page, live_server: ServerProcess) -> None:
    game_id = quick_game(page, live_server.url, "atoms")
    page.goto(f"{live_server.url}/#/")
    page.get_by_test_id(f"abort-{game_id}").click()
    expect(page.get_by_test_id(f"your-game-{game_id}")).to_have_count(0)
    page.goto(f"{live_server.url}/#/game/{game_id}")
    expect(page.get_by_test_id("result-banner")).to_contain_text("aborted the game")


def test_a_one_time_link_carries_the_games_to_a_phone(browser: Browser, page: Page,
                                                      live_server: ServerProcess) -> None:
    game_id = quick_game(page, live_server.url, "jewels")
    page.goto(f"{live_server.url}/#/")
    page.get_by_test_id("btn-carry").click()
    link = page.get_by_test_id("carry-link").input_value()
    phones: Iterator[Page] = open_page(browser, **PHONE)
    phone = next(phones)
    try:
        phone.goto(link)
        expect(phone.get_by_test_id("take-link")).to_contain_text("Your games are here")
        phone.get_by_test_id("take-done").click()
        expect(phone.get_by_test_id(f"your-game-{game_id}")).to_be_visible()
        phone.get_by_test_id(f"resume-{game_id}").click()
        expect(phone.get_by_test_id("status")).to_have_attribute("data-turn", "mine")
        # the link worked once
        phone.goto(link)
        expect(phone.get_by_test_id("take-error")).to_contain_text("used already")
    finally:
        next(phones, None)


def test_a_forged_cookie_is_said_and_dropped(page: Page, live_server: ServerProcess) -> None:
    quick_game(page, live_server.url, "atoms")
    page.context.add_cookies([{"name": "damier_id", "value": f"{'f' * 32}.1.{'0' * 32}", "url": live_server.url}])
    page.goto(f"{live_server.url}/#/")
    expect(page.locator(".message.error")).to_contain_text("identity cookie (damier_id) is not valid")
    expect(page.get_by_test_id("your-games")).to_have_count(0)
    # removed by the server (the page's own games, opened with their seats' tokens, may give a new one)
    assert not [c for c in page.context.cookies() if c["name"] == "damier_id" and c["value"].startswith("f" * 32)]


@pytest.fixture
def strict_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the default limit of two games against the computer at once, for one address."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "server.log",
                            limits="new_games=1000,computer_games=2,hints=100")
    process.start()
    yield process
    process.stop()


def test_the_refusal_past_the_limit_links_the_games_that_hold_it(page: Page, strict_server: ServerProcess) -> None:
    held = [quick_game(page, strict_server.url, "atoms") for _ in range(2)]
    page.goto(f"{strict_server.url}/#/")
    page.get_by_test_id("quick-play-atoms").click()
    message = page.locator(".message.error")
    expect(message).to_contain_text("2 games with a computer seat going on")
    links = page.get_by_test_id("message-link")
    expect(links).to_have_count(2)
    assert sorted(link.get_attribute("href") or "" for link in links.all()) == sorted(f"#/game/{g}" for g in held)
    links.first.click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
