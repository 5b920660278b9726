"""No lost click: the status says it is your turn only when the board takes your move. In every game whose moves
are animated (a laser shot, explosions, robots' steps, a robot sliding), a click made at the very instant the page
says "your turn" (from inside the page, when the status line changes) reaches the board, and the move is played."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser import http
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

LEGAL = "[data-testid^='square-'][data-legal='true']"
#: what the board offers as playable: its legal squares, or the pass of a player with no legal move (Jewels)
PLAYABLE = f"{LEGAL}, [data-testid='btn-pass']"
ENDED = "[data-testid='result-banner']:not([hidden])"
#: a target of the piece selected, in the boards whose moves take two clicks (a piece, then where it goes)
TARGET = "[data-testid='board'] [data-move]:not([data-move=''])"

#: armed with the number of moves listed: at the first change of the status line that says it is this player's
#: turn ("Your turn", "Your move") once a move more is listed, click the first square the board offers as
#: playable, and note how many it offered then
WATCH = """(listed) => {
  window.__instant = null;
  const status = document.querySelector("[data-testid='status']");
  const observer = new MutationObserver(() => {
    const moves = document.querySelectorAll("[data-testid='move-list'] li").length;
    if (window.__instant || moves <= listed || !/your (turn|move)/i.test(status.textContent)) return;
    const legal = document.querySelectorAll("[data-testid^='square-'][data-legal='true'], [data-testid='btn-pass']");
    const board = document.querySelector("[data-testid='board']");
    window.__instant = { legal: legal.length, moves, version: Number(board.dataset.version) };
    legal[0]?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    observer.disconnect();
  });
  observer.observe(status, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


def listed(page: Page) -> int:
    return page.locator("[data-testid='move-list'] li").count()


def version(page: Page) -> int:
    return int(page.get_by_test_id("board").get_attribute("data-version") or -1)


def finish_move(page: Page, before: int) -> None:
    """Complete a move whose first click was made (a piece selected): click where it goes, unless the first click
    was the whole move."""
    try:
        expect(page.get_by_test_id("board")).not_to_have_attribute("data-version", str(before), timeout=1_500)
        return
    except AssertionError:
        pass
    page.locator(TARGET).first.click()


def play_a_move(page: Page) -> bool:
    """Play some move the board offers, by clicking as a player does; False when the game ended instead (the reply
    before this turn, or the robots' turn, may end it: the banner shows once it is drawn)."""
    page.wait_for_function(f"() => !!document.querySelector({PLAYABLE!r}) || !!document.querySelector({ENDED!r})")
    if page.locator(ENDED).count():
        return False
    before = version(page)
    page.locator(PLAYABLE).first.click()
    finish_move(page, before)
    expect(page.get_by_test_id("board")).not_to_have_attribute("data-version", str(before))
    return True


def open_game(page: Page, server: ServerProcess, body: dict[str, Any], create: str = "/api/games") -> None:
    created = http.post(f"{server.url}{create}", json=body, timeout=60).json()
    token = created["tokens"]["0"] if "tokens" in created else created["token"]
    page.goto(f"{server.url}/#/game/{created['id']}?seat=0&token={token}")
    page.wait_for_selector(LEGAL)


AGAINST_EASY = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
GAMES: dict[str, tuple[dict[str, Any], str]] = {
    # the laser shot after every move
    "khet": ({"game": "khet", "seats": AGAINST_EASY}, "/api/games"),
    # the robots' steps after every move
    "jewels": ({"game": "jewels", "seats": AGAINST_EASY, "seed": 5}, "/api/games"),
    # explosions, on a board small enough for chain reactions early
    "atoms": ({"game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": AGAINST_EASY}, "/api/games"),
    # the robot sliding after each move of a puzzle
    "micro": ({"game": "micro", "seed": 3}, "/api/puzzles"),
    "ricochet": ({"game": "ricochet", "seed": 3}, "/api/puzzles"),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_click_at_the_instant_your_turn_shows_plays_the_move(page: Page, live_server: ServerProcess,
                                                                game: str) -> None:
    body, create = GAMES[game]
    open_game(page, live_server, body, create)
    for _ in range(3):  # a few turns: the first ones may have no animation (a placement, a quiet move)
        count = listed(page)
        page.evaluate(WATCH, count)
        if not play_a_move(page):
            break
        page.wait_for_function(f"() => window.__instant !== null || !!document.querySelector({ENDED!r})")
        instant = page.evaluate("window.__instant")
        if instant is None:
            break  # the game ended with that move
        # the board offered its moves at the very instant the status said so, and the click there counted
        assert instant["legal"] > 0, f"{game}: 'your turn' was shown while the board took no move"
        finish_move(page, instant["version"])
        expect(page.locator("[data-testid='move-list'] li")).not_to_have_count(instant["moves"])
