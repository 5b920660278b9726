"""The puzzle pages in a real browser: a Ricochet Robots puzzle's header keeps its optimal length (a hint the player
asks for) until the puzzle is over, and "Play it" of the new-puzzle page waits for an id the server reads as a
puzzle."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: the vortex on 1A2B3C4D, reached by the red robot in two moves
PUZZLE = "1A2B3C4D.E2302B12.v"


def test_the_puzzle_header_does_not_tell_the_optimal_length(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/new/ricochet")
    page.get_by_test_id("preset-easy").click()  # a puzzle whose shortest solution takes 3 moves
    expect(page.get_by_test_id("option-difficulty")).to_have_value("3")
    page.get_by_test_id("new-game-submit").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    header = page.get_by_test_id("game-options")
    expect(header).to_contain_text("Random board")
    expect(header).not_to_contain_text("move")
    expect(header).not_to_contain_text("length")
    # once the puzzle is given up, the header says what it was
    page.get_by_test_id("btn-resign").click()
    page.get_by_test_id("btn-resign").click()  # the second click confirms
    expect(page.get_by_test_id("result-banner")).to_be_visible()
    expect(header).to_contain_text("3 moves")


def test_play_it_waits_for_a_valid_puzzle_id(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/new/ricochet")
    field, play = page.get_by_test_id("puzzle-id-input"), page.get_by_test_id("puzzle-id-play")
    check = page.get_by_test_id("puzzle-id-check")
    expect(play).to_be_disabled()
    field.fill("not a puzzle")
    expect(play).to_be_disabled()  # while the id is checked
    expect(check).to_have_attribute("data-valid", "false")
    expect(play).to_be_disabled()
    field.press("Enter")  # nothing to play
    page.wait_for_timeout(300)
    assert "#/new/ricochet" in page.url
    field.fill(PUZZLE)
    expect(check).to_have_attribute("data-valid", "true")
    expect(play).to_be_enabled()
    field.fill(PUZZLE[:-2])  # changed: checked again, not playable until then
    expect(check).to_have_attribute("data-valid", "false")
    expect(play).to_be_disabled()
    field.fill(PUZZLE)
    expect(play).to_be_enabled()
    play.click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    expect(page.get_by_test_id("puzzle-id")).to_have_value(PUZZLE)
