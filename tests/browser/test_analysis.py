"""The analysis board in a real browser: opened from a game against the computer, a replay and the editor; the
engine's depth grows, a move tried restarts the analysis at the new position, the tried line steps back, and
"Return" goes back where the player came from; a puzzle's analysis is its solver's solution; dark theme on a
phone."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

import damier
from damier.ai.analysis import SOLVER_NODES
from damier.core.record import Record
from tests.browser import http
from tests.browser.conftest import open_page
from tests.browser.test_arcade import LEGAL, start_game
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow


def depth_reaches(page: Page, depth: int) -> None:
    page.wait_for_function(
        "depth => Number(document.querySelector(\"[data-testid='analysis-lines']\")?.dataset.depth || 0) >= depth",
        arg=depth, timeout=60_000)


def test_analysis_from_a_computer_game_deepens_restarts_after_a_move_and_returns(
        page: Page, live_server: ServerProcess) -> None:
    game_id = start_game(page, live_server.url, 4, 4, "computer", "easy")
    page.wait_for_selector(LEGAL)
    page.get_by_test_id("btn-analyse").click()
    page.wait_for_url(re.compile(r".*#/analysis/atoms\?.*"))
    depth_reaches(page, 2)
    expect(page.get_by_test_id("analysis-line").first).to_contain_text("depth")
    board = page.get_by_test_id("board")
    first = board.get_attribute("data-position")
    # a move tried: a new position from the server, and its own analysis from depth 1 again
    page.locator(f"[data-testid='board'] {LEGAL}").first.click()
    expect(page.get_by_test_id("analysis-move-1")).to_be_visible()
    expect(board).not_to_have_attribute("data-position", first or "")
    depth_reaches(page, 2)
    assert page.get_by_test_id("analysis-status").get_attribute("data-state") in ("running", "done")
    page.get_by_test_id("analysis-back").click()
    expect(page.get_by_test_id("analysis-move-1")).to_have_count(0)
    expect(board).to_have_attribute("data-position", first or "")
    page.get_by_test_id("analysis-return").first.click()
    page.wait_for_url(re.compile(rf".*#/game/{game_id}$"))
    expect(page.get_by_test_id("board")).to_be_visible()


def test_analysis_of_a_position_browsed_in_a_game_going_on(page: Page, live_server: ServerProcess) -> None:
    game_id = start_game(page, live_server.url, 4, 4, "computer", "easy")
    page.locator(f"[data-testid='board'] {LEGAL}").first.click()
    expect(page.get_by_test_id("move-2")).to_be_visible()  # the computer answered
    page.locator("[data-testid='move-1'] button").click()
    expect(page.get_by_test_id("browse-bar")).to_be_visible()
    page.get_by_test_id("btn-analyse").click()
    page.wait_for_url(re.compile(r".*#/analysis/atoms\?.*"))
    view = http.get(f"{live_server.url}/api/games/{game_id}").json()
    state = damier.load("atoms", **view["options"]).new_state()
    state.play(state.parse_move(view["moves"][0]["move"]))
    expect(page.get_by_test_id("analysis-position")).to_have_value(state.position())  # after move 1, not the live one


def imported_replay(base: str) -> tuple[str, str]:
    """A finished 3 x 3 Atoms game imported for replay; its id and the position after its first move."""
    state = damier.load("atoms", rows=3, cols=3).new_state()
    after_first = ""
    while not state.is_over():
        state.play(state.legal_moves()[len(state.history) % len(state.legal_moves())])
        after_first = after_first or state.position()
    answer = http.post(f"{base}/api/records", json=Record.from_state(state).to_json())
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], after_first


def test_analysis_from_a_replay_at_its_ply_and_back(page: Page, live_server: ServerProcess) -> None:
    replay_id, after_first = imported_replay(live_server.url)
    page.goto(f"{live_server.url}/#/replay/{replay_id}?ply=1")
    expect(page.get_by_test_id("replay-ply")).to_have_attribute("data-ply", "1")
    page.get_by_test_id("replay-analyse").click()
    page.wait_for_url(re.compile(r".*#/analysis/atoms\?.*"))
    expect(page.get_by_test_id("analysis-position")).to_have_value(after_first)
    depth_reaches(page, 1)
    page.get_by_test_id("analysis-return").first.click()
    page.wait_for_url(re.compile(rf".*#/replay/{replay_id}\?ply=1$"))
    expect(page.get_by_test_id("replay-ply")).to_have_attribute("data-ply", "1")


def test_analysis_from_the_editor_and_back_to_the_same_position(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/editor/khet")
    expect(page.get_by_test_id("editor-status")).to_have_attribute("data-valid", "true")
    position = page.get_by_test_id("editor-position").input_value()
    page.get_by_test_id("editor-analyse").click()
    page.wait_for_url(re.compile(r".*#/analysis/khet\?.*"))
    expect(page.get_by_test_id("analysis-position")).to_have_value(position)
    depth_reaches(page, 2)
    page.get_by_test_id("analysis-return").first.click()
    page.wait_for_url(re.compile(r".*#/editor/khet\?.*"))
    expect(page.get_by_test_id("editor-status")).to_have_attribute("data-valid", "true")
    expect(page.get_by_test_id("editor-position")).to_have_value(position)


def puzzle_position(name: str) -> tuple[str, int]:
    """A puzzle of ``name`` with a solution of at least two moves, and its optimal length (the solver's own)."""
    game = damier.load(name)
    for seed in range(50):
        state = game.new_state(seed)
        found = game.info.hook("solver")(state.copy(), None, SOLVER_NODES)
        if found.optimal and found.cost >= 2:
            return state.position(), found.cost
    raise AssertionError("no puzzle found")


def test_a_puzzle_is_analysed_by_its_solver(page: Page, live_server: ServerProcess) -> None:
    position, optimum = puzzle_position("micro")
    page.goto(f"{live_server.url}/#/analysis/micro?{urlencode({'position': position})}")
    solution = page.get_by_test_id("analysis-solution")
    expect(solution).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("analysis-lines")).to_have_attribute("data-length", str(optimum))
    assert len(solution.inner_text().split()) == optimum
    expect(page.get_by_test_id("analysis-status")).to_contain_text(f"Optimal solution: {optimum} moves")


def test_a_bad_position_says_why(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/analysis/khet?position=nonsense&from=/editor/khet")
    expect(page.get_by_test_id("analysis-error")).to_contain_text("bad position")
    expect(page.get_by_test_id("analysis-return")).to_contain_text("Return to the editor")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_analysis_board_on_a_phone_in_both_themes(browser: Browser, live_server: ServerProcess,
                                                     scheme: str) -> None:
    for phone in open_page(browser, viewport={"width": 390, "height": 844}, color_scheme=scheme, is_mobile=True):
        position = damier.load("atoms", rows=5, cols=5).new_state().position()
        query = urlencode({"position": position, "options": '{"rows": 5, "cols": 5}'})
        phone.goto(f"{live_server.url}/#/analysis/atoms?{query}")
        depth_reaches(phone, 2)
        expect(phone.locator("html")).to_have_attribute("data-theme", scheme)  # the system's theme
        expect(phone.get_by_test_id("analysis-line").first).to_be_visible()
        width = phone.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        box = phone.get_by_test_id("board").bounding_box()
        assert box is not None and box["width"] <= 390


def test_a_live_game_between_people_offers_no_analysis_until_it_is_over(page: Page,
                                                                     live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["0"]
    page.goto(f"{live_server.url}/#/game/{game_id}")
    expect(page.get_by_test_id("btn-record")).to_be_visible()
    expect(page.get_by_test_id("btn-analyse")).to_have_count(0)  # analysing it now would be cheating
    resigned = http.post(f"{live_server.url}/api/games/{game_id}/resign", headers={"X-Seat-Token": token})
    assert resigned.status_code == 200, resigned.text
    expect(page.get_by_test_id("btn-analyse")).to_be_visible()
