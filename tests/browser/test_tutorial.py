"""Khet's first-game tutorial beside play: on a phone it never covers the game's buttons (nor the bar of a
selected piece's turns), step after step, and it closes when the game ends."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import LOOKS, in_look
from tests.browser.test_howto import start_khet
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

PHONE = LOOKS["dark-phone"]["viewport"]

#: the boxes the tutorial's card overlaps (in the page's coordinates, scrolled or not): the game's buttons, the bar of
#: a selected piece's turns and the board itself, each visible one as [name, box]
OVERLAPS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { l: r.left, t: r.top, r: r.right, b: r.bottom };
  };
  const card = box(document.querySelector("[data-testid='tutorial']"));
  const controls = [...document.querySelectorAll(
    ".controls button, .controls [role='status'], [data-testid='request'], .board-bar button, [data-testid='board'], "
    + "[data-testid='status']")].filter((el) => el.getClientRects().length && !el.closest("[hidden]"));
  const names = controls.map((el) => el.dataset.testid || el.className);
  const over = controls.map(box).map((c, i) =>
    c.l < card.r && card.l < c.r && c.t < card.b && card.t < c.b ? names[i] : null).filter(Boolean);
  return { over, controls: names.length, card };
}"""


@pytest.fixture
def dark_phone(browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    yield from in_look(browser, "dark-phone")


def overlaps(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(OVERLAPS)
    assert found["controls"] >= 4, found  # the buttons were found: undo, hint, resign and the board at least
    return found


def test_the_tutorial_never_covers_the_controls_on_a_phone(dark_phone: Page, live_server: ServerProcess) -> None:
    page = dark_phone
    start_khet(page, live_server.url)
    card = page.get_by_test_id("tutorial")
    expect(card).to_be_visible()
    expect(page.get_by_test_id("btn-abort")).to_be_visible()  # no move yet: the game may be aborted
    assert overlaps(page)["over"] == []
    # the card is in sight when it opens, wholly, within the phone's width
    box = card.bounding_box()
    assert box and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"]
    # a selected piece's bar of turns comes under the board: the card still covers nothing
    page.locator("[data-testid^='square-'][data-colour='0'][data-legal='true']").first.tap()
    expect(page.locator(".board-bar button").first).to_be_visible()
    assert overlaps(page)["over"] == []
    # step by step, scrolled to the bottom of the page and back
    for _ in range(2):
        page.get_by_test_id("tutorial-next").tap()
        assert overlaps(page)["over"] == []
    page.mouse.wheel(0, 2000)
    page.wait_for_function("() => window.scrollY > 0")
    assert overlaps(page)["over"] == []
    expect(page.get_by_test_id("tutorial-step")).to_have_text(re.compile(r"Step 3 of \d"))


def test_the_tutorial_closes_when_the_game_ends(browser: Browser, live_server: ServerProcess) -> None:
    for page in in_look(browser, "light-desktop"):
        start_khet(page, live_server.url)
        expect(page.get_by_test_id("tutorial")).to_be_visible()
        page.get_by_test_id("btn-abort").click()  # no move yet: the game is aborted, and so it ends
        expect(page.get_by_test_id("result-banner")).to_be_visible()
        expect(page.get_by_test_id("tutorial")).to_have_count(0)
        expect(page.locator(".tutorial-spots")).to_have_count(0)
