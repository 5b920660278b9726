"""Clocks in a real browser: a half-minute game (a custom clock, 0.5+0) between two people in two browser
contexts (one at a desktop size in the light theme, one at a phone size in the dark theme), lost on time by the
side that does not move once both have made their first moves (free): both pages show the clocks ticking down from
the server's values, the low-time warning, and the loss on time the server decides."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

LEGAL = "[data-testid^='square-'][data-legal='true']"


def shown_ms(page: Page, seat: int) -> int:
    return int(page.get_by_test_id(f"clock-{seat}").get_attribute("data-ms") or "0")


def danger(page: Page) -> str:
    """The theme's warning colour, as the browser computes a colour."""
    return page.evaluate("""() => { const probe = document.createElement('span');
        probe.style.color = 'var(--danger)'; document.body.append(probe);
        const colour = getComputedStyle(probe).color; probe.remove(); return colour; }""")


def test_a_half_minute_game_is_lost_on_time_by_the_side_that_does_not_move(browser: Browser,
                                                                            live_server: ServerProcess) -> None:
    red_pages = open_page(browser, viewport={"width": 1280, "height": 800}, color_scheme="light")
    blue_pages = open_page(browser, viewport={"width": 390, "height": 800}, color_scheme="dark", is_mobile=True,
                           has_touch=True)
    red, blue = next(red_pages), next(blue_pages)
    try:
        red.goto(f"{live_server.url}/#/new/atoms")
        red.get_by_test_id("option-rows").fill("5")
        red.get_by_test_id("option-cols").fill("5")
        red.get_by_test_id("seat-0-kind").select_option("human")
        red.get_by_test_id("seat-1-kind").select_option("human")
        red.get_by_test_id("clock-1+0").click()
        expect(red.get_by_test_id("clock-1+0")).to_have_attribute("aria-pressed", "true")
        red.get_by_test_id("clock-custom").click()  # a preset, then a custom clock instead: half a minute each
        expect(red.get_by_test_id("clock-1+0")).to_have_attribute("aria-pressed", "false")
        red.get_by_test_id("clock-minutes").fill("0.5")
        red.get_by_test_id("clock-increment").fill("0")
        red.get_by_test_id("new-game-submit").click()
        red.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
        game_id = red.url.rsplit("/", 1)[1]
        expect(red.get_by_test_id("clock-1")).to_have_text("0:30")
        expect(red.get_by_test_id("game-options")).to_contain_text("clock 0.5+0")
        blue.goto(red.get_by_test_id("invite-link-1").input_value())
        blue.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
        for page in (red, blue):  # sounds on: the low-time beep is for the player whose clock runs low
            page.evaluate("localStorage.setItem('damier.sound', 'on')")
        # the first moves are free (no clock runs before a seat's first move); then Red moves again, Blue's clock
        # runs, and Blue does not move
        for ply, (page, square) in enumerate(((red, "A1"), (blue, "E5"), (red, "C3")), start=1):
            page.wait_for_selector(LEGAL)
            page.get_by_test_id(f"square-{square}").click()
            expect(red.get_by_test_id(f"move-{ply}")).to_be_visible()
            expect(blue.get_by_test_id(f"move-{ply}")).to_be_visible()
            if ply < 3:  # Red's first move cost nothing, and Blue's either
                for each in (red, blue):
                    expect(each.get_by_test_id(f"clock-{ply - 1}")).to_have_text("0:30")
                    expect(each.get_by_test_id(f"clock-{ply - 1}")).not_to_have_class(re.compile(r"\brunning\b"))
        for page in (red, blue):
            expect(page.get_by_test_id("clock-1")).to_have_class(re.compile(r"\brunning\b"))
            expect(page.get_by_test_id("clock-0")).not_to_have_class(re.compile(r"\brunning\b"))
        # the clocks tick: the value shown on each page decreases (the server sent it once)
        first = {id(p): shown_ms(p, 1) for p in (red, blue)}
        time.sleep(1.5)
        for page in (red, blue):
            assert shown_ms(page, 1) < first[id(page)] - 1000
        still = {id(p): shown_ms(p, 0) for p in (red, blue)}
        time.sleep(0.5)
        for page in (red, blue):
            assert shown_ms(page, 0) == still[id(page)]  # Red's clock stands still
        # on the phone the players panel is below the board: the status line shows the running clock too
        status_clock = blue.get_by_test_id("status-clock")
        expect(status_clock).to_be_visible()
        expect(red.get_by_test_id("status-clock")).to_be_hidden()  # beside the board, the panel is enough
        for testid in ("clock-1", "status-clock"):
            box = blue.get_by_test_id(testid).bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390  # on the phone's screen
        # under a tenth of its time the clock turns red, in both themes (and stays red once it has fallen)
        for page in (red, blue):
            clock = page.get_by_test_id("clock-1")
            expect(clock).to_have_class(re.compile(r"\blow\b"), timeout=40_000)
            assert clock.evaluate("el => getComputedStyle(el).color") == danger(page)
            assert "low" not in (page.get_by_test_id("clock-0").get_attribute("class") or "")
        assert danger(red) != danger(blue)  # each theme has its own warning colour
        expect(status_clock).to_have_class(re.compile(r"\blow\b"))
        # the low-time sound, played by the page of the player whose clock runs low, as it turns red
        assert "lowtime" in blue.evaluate("window.__damierSounds || []")
        assert "lowtime" not in red.evaluate("window.__damierSounds || []")  # not Red's clock
        # the server ends the game on time, with nobody sending anything, and both pages show it
        for page in (red, blue):
            banner = page.get_by_test_id("result-banner")
            expect(banner).to_be_visible(timeout=20_000)
            expect(banner).to_contain_text("out of time")
            expect(page.get_by_test_id("clock-1")).to_have_text("0:00.0")
        # the replay names the time control the game was played with
        red.goto(f"{live_server.url}/#/replay/{game_id}")
        expect(red.get_by_test_id("game-options")).to_contain_text("clock 0.5+0")
    finally:
        for pages in (red_pages, blue_pages):
            next(pages, None)  # closes the context, checking the page had no error
