"""The analysis board read by a player: a game's analysis names the game and the move (a custom position is called so
only when it is one), the scores are in the game's units and said once, an evaluation bar stands beside the board,
the graph of the game's evaluation fills as the server evaluates it and a click on it goes to that move, and the
engine's lines are whole."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

import damier
from damier.core import registry
from tests.browser import http
from tests.browser.conftest import open_page
from tests.browser.test_analysis import depth_reaches
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: long enough for the analysis of the position (12 s) and then the whole game's evaluation on the one worker
GRAPH_MS = 90_000


def finished_game(base: str, name: str, options: dict[str, Any], plies: int) -> dict[str, Any]:
    """A game of ``name`` between two people with ``plies`` moves played (a middle legal move each time, fewer
    when the rules end it first), then resigned if still going on: its view."""
    seeded = {"seed": 4} if registry.info(name).seeded_setup else {}  # a seed only for a board drawn from one
    created = http.post(f"{base}/api/games", json={"game": name, "options": options, **seeded,
                                                     "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    game_id, tokens, view = created.json()["id"], created.json()["tokens"], created.json()["state"]
    for _ in range(plies):
        if not view["legal_moves"]:
            break
        legal = view["legal_moves"]
        answer = http.post(f"{base}/api/games/{game_id}/moves", json={"move": legal[len(legal) // 2]},
                            headers={"X-Seat-Token": tokens[str(view["player"])]})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    if view["status"] == "active":
        assert http.post(f"{base}/api/games/{game_id}/resign", headers={"X-Seat-Token": tokens["0"]}).is_success
    finished = http.get(f"{base}/api/games/{game_id}").json()
    assert len(finished["moves"]) >= 3, finished["moves"]
    return finished


def position_after(view: dict[str, Any], ply: int) -> str:
    state = damier.load(view["game"], **view["options"]).state_from_position(view["start_position"])
    for move in view["moves"][:ply]:
        state.play(state.parse_move(move["move"]))
    return state.position()


def test_a_game_s_analysis_names_the_game_and_the_move_not_a_custom_position(page: Page,
                                                                           live_server: ServerProcess) -> None:
    view = finished_game(live_server.url, "khet", {}, 6)
    plies = len(view["moves"])
    page.goto(f"{live_server.url}/#/game/{view['id']}")
    page.get_by_test_id("btn-analyse").click()
    page.wait_for_url(re.compile(r".*#/analysis/khet\?.*"))
    title = f"Analysis of Khet 2.0 game {view['id']}, move {plies}"
    expect(page.get_by_test_id("analysis-title")).to_have_text(title)
    expect(page).to_have_title(f"{title} · damier")
    expect(page.get_by_test_id("game-options")).to_contain_text("Classic setup")
    expect(page.get_by_test_id("game-options")).not_to_contain_text("Custom position")
    expect(page.get_by_test_id("analysis-position")).to_have_value(position_after(view, plies))
    # a position on its own (the editor's, an address's) is a custom one, and is called so
    page.goto(f"{live_server.url}/#/analysis/khet?{urlencode({'position': position_after(view, 2)})}")
    expect(page.get_by_test_id("game-options")).to_contain_text("Custom position")
    expect(page.get_by_test_id("analysis-title")).to_have_text("Analysis: Khet 2.0")


def test_scores_in_the_game_s_units_said_once_and_the_bar_beside_the_board(page: Page,
                                                                         live_server: ServerProcess) -> None:
    for name, score in (("khet", r"^([+−]\d+\.\d\d|0\.00|(Silver|Red) wins in \d+)$"),
                        ("atoms", r"^((Red|Blue) \d+%|(Red|Blue) wins in \d+)$")):
        view = finished_game(live_server.url, name, {"rows": 5, "cols": 5} if name == "atoms" else {}, 4)
        page.goto(f"{live_server.url}/#/analysis/{name}?{urlencode({'id': view['id'], 'ply': 2})}")
        expect(page.get_by_test_id("analysis-units")).to_have_count(1)
        expect(page.get_by_test_id("analysis-units")).to_contain_text(
            "in Pyramids" if name == "khet" else "chance to win")
        depth_reaches(page, 3)
        deepest = page.get_by_test_id("analysis-line").first
        expect(deepest.get_by_test_id("analysis-score")).to_have_text(re.compile(score))
        # whole lines: the deepest line plays more than one move (Atoms showed one)
        assert deepest.locator(".pv-move").count() > 1, deepest.inner_text()
        bar = page.get_by_test_id("eval-bar")
        expect(bar).to_have_attribute("data-state", "shown")
        assert 0 <= int(bar.get_attribute("aria-valuenow") or "-1") <= 100
        assert re.search(r"\d+%", bar.get_attribute("aria-valuetext") or ""), bar.get_attribute("aria-valuetext")
        drawing = page.locator("[data-testid='board'] svg.board")
        bar_box, board_box = bar.bounding_box(), drawing.bounding_box()
        assert bar_box and board_box
        assert bar_box["x"] + bar_box["width"] <= board_box["x"] + 1, (bar_box, board_box)  # beside it, on the left
        assert abs(bar_box["y"] - board_box["y"]) <= 2 and abs(bar_box["height"] - board_box["height"]) <= 2


def test_the_graph_fills_and_a_click_goes_to_that_move(page: Page, live_server: ServerProcess) -> None:
    view = finished_game(live_server.url, "atoms", {"rows": 4, "cols": 4}, 9)
    plies = len(view["moves"])
    page.goto(f"{live_server.url}/#/game/{view['id']}")
    page.get_by_test_id("btn-analyse").click()
    graph = page.get_by_test_id("eval-graph")
    expect(graph).to_have_attribute("data-plies", str(plies))
    expect(graph).to_have_attribute("data-state", "done", timeout=GRAPH_MS)
    expect(graph).to_have_attribute("data-points", str(plies + 1))
    expect(graph).to_have_attribute("data-current", str(plies))
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": box["width"] * 2 / plies, "y": box["height"] / 2})
    expect(page.get_by_test_id("board")).to_have_attribute("data-position", position_after(view, 2))
    expect(page.get_by_test_id("analysis-title")).to_have_text(f"Analysis of Exploding Atoms game {view['id']}, move 2")
    expect(graph).to_have_attribute("data-current", "2")
    assert re.search(r"[?&]ply=2(&|$)", page.url), page.url
    expect(page.get_by_test_id("eval-graph-caption")).to_contain_text(re.compile(r"^Move 2: (Red|Blue) "))
    # the keys on the focused graph step through the game
    graph.press("ArrowRight")
    expect(page.get_by_test_id("board")).to_have_attribute("data-position", position_after(view, 3))
    graph.press("Home")
    expect(page.get_by_test_id("analysis-title")).to_have_text(f"Analysis of Exploding Atoms game {view['id']}, start")
    expect(page.get_by_test_id("board")).to_have_attribute("data-position", position_after(view, 0))


def test_a_game_s_analysis_on_a_phone(browser: Browser, live_server: ServerProcess) -> None:
    for phone in open_page(browser, viewport={"width": 390, "height": 844}, color_scheme="dark", is_mobile=True):
        view = finished_game(live_server.url, "atoms", {"rows": 5, "cols": 5}, 6)
        phone.goto(f"{live_server.url}/#/analysis/atoms?{urlencode({'id': view['id'], 'ply': 3})}")
        expect(phone.get_by_test_id("eval-bar")).to_have_attribute("data-state", "shown", timeout=GRAPH_MS)
        expect(phone.get_by_test_id("eval-graph")).to_be_visible()
        width = phone.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
