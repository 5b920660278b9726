"""Ricochet Robots in a real browser: a puzzle solved by clicking robots and the squares they reach (after detours
by keyboard, by a swipe and by the bar's buttons, taken back by Reset), the transparent robot passing a wall (its
stops one way stepped through by the arrow key), the graded hints and the optimal line stepped through on the board
once the solver answers them, and a bidding round between two browser contexts: two players bid (one lowers hers),
the bid timer runs out, the lowest bidder demonstrates by clicking while the other sees each slide, and scores.

The lines played are computed in the test through the Python API: the game's solver when it is registered, else a
breadth-first search over the rules' own moves; the page computes none."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import damier
from damier.core import registry
from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: the vortex on 1A2B3C4D, reached by the red robot in two moves (RN, RE): found by search, checked in the test
PUZZLE = "1A2B3C4D.E2302B12.v"
ROBOT_NAMES = ("red", "green", "blue", "yellow", "silver", "transparent")


def shortest(state: Any, max_states: int = 50_000) -> list[str] | None:
    """One shortest line of a puzzle, from the game's solver."""
    found = registry.info("ricochet").hook("solver")(state.copy(), None, None)
    if not found.found:
        return None
    replay = state.copy()
    line = []
    for move in found.moves:
        line.append(replay.move_to_str(move))
        replay.play(move)
    return line


def squares_after(state: Any, line: list[str]) -> list[dict[str, str]]:
    """Where the robots stand after each move of ``line`` (the rules' own boards)."""
    replay = state.copy()
    out = []
    for move in line:
        replay.play(replay.parse_move(move))
        out.append(dict(replay.board_json()["robots"]))
    return out


def robot(page: Page, name: str) -> Locator:
    return page.get_by_test_id(f"robot-{name}")


def name_of(move: str) -> str:
    return ROBOT_NAMES["RGBYST".index(move[0])]


def play_by_clicking(page: Page, move: str) -> None:
    """Pick the move's robot on the board, then click the square the board rings for that move."""
    robot(page, name_of(move)).click()
    expect(robot(page, name_of(move))).to_have_attribute("data-selected", "true")
    square = page.locator(f"[data-testid^='square-'][data-move='{move}']")
    expect(square).to_have_attribute("data-legal", "true")
    square.click()


def open_puzzle(page: Page, base: str, puzzle: str, **options: bool) -> None:
    page.goto(f"{base}/#/new/ricochet")
    for name, on in options.items():
        if on:
            page.get_by_test_id(f"option-{name}").check()
    page.get_by_test_id("puzzle-id-input").fill(puzzle)
    expect(page.get_by_test_id("puzzle-id-check")).to_have_attribute("data-valid", "true")
    page.get_by_test_id("puzzle-id-play").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    expect(page.get_by_test_id("puzzle-id")).to_have_value(puzzle)


def test_a_puzzle_solved_by_clicking(page: Page, live_server: ServerProcess) -> None:
    state = damier.load("ricochet").state_from_position(PUZZLE)
    line = shortest(state)
    assert line is not None and len(line) == 2
    after = squares_after(state, line)
    start = dict(state.board_json()["robots"])
    open_puzzle(page, live_server.url, PUZZLE)
    expect(page.get_by_test_id("board-info")).to_contain_text("the vortex on h11")
    expect(page.get_by_test_id("round-target")).to_have_attribute("data-cell", "h11")
    expect(page.get_by_test_id("square-h11")).to_have_attribute("data-target", "true")
    expect(page.get_by_test_id("square-h8")).to_have_class(re.compile(r"\bblocked\b"))

    # a detour by keyboard: G picks the green robot, an arrow key moves it
    green = start["green"]
    page.locator("body").press("g")
    expect(robot(page, "green")).to_have_attribute("data-selected", "true")
    page.keyboard.press("ArrowDown")
    expect(robot(page, "green")).not_to_have_attribute("data-square", green)
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("1")
    # a swipe (a drag on the board) moves the selected robot the way it goes
    box = robot(page, "green").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 2, steps=4)
    page.mouse.move(x + 90, y + 3, steps=4)
    page.mouse.up()
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("2")
    # the bar's buttons: the yellow robot's first move
    page.get_by_test_id("select-yellow").click()
    page.locator("[data-testid^='move-Y']").first.click()
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("3")
    expect(page.get_by_test_id("board-info")).to_contain_text("3 moves used")
    page.get_by_test_id("btn-reset").click()
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("0")
    for name, square in start.items():
        expect(robot(page, name)).to_have_attribute("data-square", square)

    # the shortest line, clicked: each robot, then the square the server says its move ends on
    for move, squares in zip(line, after, strict=True):
        play_by_clicking(page, move)
        expect(robot(page, name_of(move))).to_have_attribute("data-square", squares[name_of(move)])
    banner = page.get_by_test_id("result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-cost", "2")
    expect(page.get_by_test_id("puzzle-timer")).to_have_class(re.compile(r"\bstopped\b"))
    expect(page.get_by_test_id("ricochet-bar")).to_be_hidden()
    assert page.locator("[data-testid^='square-'][data-legal='true']").count() == 0
    expect(banner).to_have_attribute("data-optimal", "true")
    expect(banner).to_have_attribute("data-optimum", "2")
    # the optimal line the server found, stepped through from the puzzle's start: the ghosts stand where it leads
    solution = page.get_by_test_id("puzzle-solution")
    expect(solution).to_be_visible()
    page.get_by_test_id("solution-show").click()
    expect(page.get_by_test_id("path-stepper")).to_be_visible()
    for name, square in start.items():
        expect(robot(page, name)).to_have_attribute("data-square", square)  # the board of the start
    shown = page.locator("[data-testid='path-stepper'] .path-moves span").all_inner_texts()
    for k, squares in enumerate(squares_after(state, shown), start=1):
        page.get_by_test_id("path-next").click()
        expect(page.get_by_test_id("path-step")).to_have_attribute("data-step", str(k))
        mover = name_of(shown[k - 1])
        expect(page.locator(f".rr-ghost[data-robot='{mover}']")).to_have_attribute("data-square", squares[mover])


def test_the_transparent_robot_passes_walls(page: Page, live_server: ServerProcess) -> None:
    """The see-through robot's stops one way: the arrow key shows the nearest, a second press the next (a wall
    passed, one move more), Enter plays it; the cost counts the wall."""
    game = damier.load("ricochet", transparent=True)
    found: tuple[str, str, str, list[dict[str, str]]] | None = None
    for cell in range(256):  # a square from which the transparent robot has two stops one way
        puzzle = f"1A2B3C4D.E2302B12--{cell:02X}.v"
        try:
            state: Any = game.state_from_position(puzzle)
        except damier.ParseError:
            continue
        legal = state.board_json()["legal"]
        for direction, key in (("E", "ArrowRight"), ("S", "ArrowDown"), ("W", "ArrowLeft"), ("N", "ArrowUp")):
            stops = [m for m in legal if m["move"] in (f"T{direction}", f"T{direction}1")]
            if len(stops) == 2 and not state.solved_after(state.parse_move(f"T{direction}1")):
                found = (puzzle, direction, key, stops)
                break
        if found:
            break
    assert found is not None
    puzzle, direction, key, stops = found
    open_puzzle(page, live_server.url, puzzle, transparent=True)
    token = robot(page, "transparent")
    expect(token).to_be_visible()
    alpha = token.locator(".rr-robot-fill").evaluate("el => getComputedStyle(el).fill")
    assert "rgba" in alpha and float(alpha.rsplit(",", 1)[1].strip(" )")) < 0.5  # see-through
    page.locator("body").press("t")
    expect(token).to_have_attribute("data-selected", "true")
    far = next(m for m in stops if m["move"].endswith("1"))
    badge = page.locator(f"[data-testid='square-{far['to']}'] .rr-pass-badge")
    expect(badge).to_have_text("+1")
    expect(page.get_by_test_id(f"move-T{direction}1")).to_contain_text(far["to"])
    page.keyboard.press(key)
    expect(page.locator(".ricochet-board")).to_have_attribute("data-preview", f"T{direction}")
    page.keyboard.press(key)
    expect(page.locator(".ricochet-board")).to_have_attribute("data-preview", f"T{direction}1")
    page.keyboard.press("Enter")
    expect(token).to_have_attribute("data-square", far["to"])
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("1")
    expect(page.get_by_test_id("board-info")).to_contain_text("2 moves used")
    expect(page.get_by_test_id("move-1")).to_contain_text(f"T{direction}1")


def test_hints_are_shown_level_by_level(page: Page, live_server: ServerProcess) -> None:
    puzzle = "1A2B3C4D.E2302B12.bt"
    state = damier.load("ricochet").state_from_position(puzzle)
    hint = registry.info("ricochet").hook("hints")
    open_puzzle(page, live_server.url, puzzle)
    rows = page.locator("[data-testid^='hint-'][data-kind]")
    expect(rows.first).to_be_visible()
    count = rows.count()
    expected = {level: hint(state, level) for level in range(1, count + 1)}
    for level in range(1, count + 1):
        page.get_by_test_id(f"hint-show-{level}").click()
        expect(page.get_by_test_id(f"hint-text-{level}")).to_have_text(expected[level]["text"])
        expect(page.get_by_test_id("puzzle-hints")).to_have_text(str(level))
    first = next((a.get("move") for a in expected.values() if a.get("move")), None)
    if first:  # the first move: its robot ringed and the square it ends on marked
        to = next(m["to"] for m in state.board_json()["legal"] if m["move"] == first)
        expect(page.get_by_test_id(f"square-{to}")).to_have_class(re.compile(r"\bhint\b"))
    moves = next((a["moves"] for a in expected.values() if a.get("moves")), None)
    if moves:  # the whole line, stepped through: the ghosts stand where the server's boards say
        for k, squares in enumerate(squares_after(state, moves), start=1):
            page.get_by_test_id("path-next").click()
            expect(page.get_by_test_id("path-step")).to_have_attribute("data-step", str(k))
            mover = name_of(moves[k - 1])
            expect(page.locator(f".rr-ghost[data-robot='{mover}']")).to_have_attribute("data-square", squares[mover])
        page.get_by_test_id("path-first").click()
        for name, square in state.board_json()["robots"].items():
            expect(robot(page, name)).to_have_attribute("data-square", square)  # stepping moves no robot


def race_view(base: str, race_id: str) -> Any:
    return http.get(f"{base}/api/races/{race_id}").json()


def round_after(base: str, race_id: str, number: int) -> Any:
    """The race's view once a round after round ``number`` is under way: the server starts it a moment after the
    click that asks for it (the start, the last give-up)."""
    deadline = time.monotonic() + 30
    while True:
        view = race_view(base, race_id)
        if view["round"] is not None and view["round"]["number"] > number:
            return view
        assert time.monotonic() < deadline, f"no round after round {number}: {view}"
        time.sleep(0.1)


def bid(page: Page, count: int) -> None:
    page.get_by_test_id("claim-count").fill(str(count))
    page.get_by_test_id("claim-submit").click()


def test_a_bidding_round(browser: Browser, live_server: ServerProcess) -> None:
    base = live_server.url
    host_pages = open_page(browser, viewport={"width": 1280, "height": 900})
    guest_pages = open_page(browser, viewport={"width": 390, "height": 844})
    ann = next(host_pages)
    bob = next(guest_pages)
    try:
        ann.goto(f"{base}/#/new/ricochet")
        ann.get_by_test_id("option-board").fill("1A2B3C4D")
        ann.get_by_test_id("race-setting-round_seconds").fill("600")
        ann.get_by_test_id("race-setting-bid_seconds").fill("5")
        ann.get_by_test_id("race-name").fill("Ann")
        ann.get_by_test_id("race-create").click()
        ann.wait_for_url(re.compile(r".*#/race/[^/?]+$"))
        link = ann.get_by_test_id("race-link").input_value()
        race_id = link.rsplit("/", 1)[1]
        assert race_view(base, race_id)["settings"]["bid_seconds"] == 5
        bob.goto(link)
        bob.get_by_test_id("race-join-name").fill("Bob")
        bob.get_by_test_id("race-join").click()
        expect(ann.get_by_test_id("race-player-1")).to_contain_text("Bob")
        ann.get_by_test_id("race-start").click()
        game = damier.load("ricochet", board="1A2B3C4D")
        line, number = None, 0
        for _ in range(8):  # rounds nobody can show (beyond the search here) are bid, given up and passed
            view = round_after(base, race_id, number)
            number = view["round"]["number"]
            for page in (ann, bob):
                expect(page.get_by_test_id("race-round")).to_have_text(f"Round {view['round']['number']}")
                expect(page.get_by_test_id("claim-box")).to_be_visible()
            state = game.state_from_position(view["round"]["position"])
            line = shortest(state, max_states=60_000)
            if line is not None:
                break
            bid(ann, 30)
            expect(ann.get_by_test_id("race-timer")).to_have_attribute("data-kind", "bids")
            bid(bob, 30)
            for page in (ann, bob):  # equal bids: the earlier shows first; each gives up in turn
                expect(page.get_by_test_id("demo-giveup")).to_be_visible(timeout=15_000)
                page.get_by_test_id("demo-giveup").click()
        assert line is not None, "no round within reach of the search"
        n = len(line)

        # the bids: Ann bids, then lowers hers; Bob bids the shortest line's length, lowest
        bid(ann, n + 5)
        expect(ann.get_by_test_id("race-timer")).to_have_attribute("data-kind", "bids")  # the first bid starts it
        expect(bob.get_by_test_id("bids-timer")).to_contain_text("bidding closes in")
        bid(ann, n + 2)
        bid(bob, n)
        for page in (ann, bob):
            expect(page.get_by_test_id("bid-1")).to_have_attribute("data-rank", "1")
            expect(page.get_by_test_id("bid-0")).to_have_attribute("data-rank", "2")
            expect(page.get_by_test_id("bid-0")).to_contain_text(f"{n + 5}")  # the bid she lowered, struck through
            expect(page.get_by_test_id("bid-0")).to_have_attribute("data-count", str(n + 2))
        expect(ann.get_by_test_id("race-status")).to_contain_text(f"the lowest is Bob's {n}")

        # the timer runs out: the lowest bid demonstrates, by clicking; Ann sees each slide
        expect(bob.get_by_test_id("demo-bar")).to_be_visible(timeout=15_000)
        expect(ann.get_by_test_id("race-status")).to_contain_text(f"Bob demonstrates a bid of {n}")
        expect(ann.get_by_test_id("bid-1")).to_have_attribute("data-state", "demonstrating")
        expect(ann.get_by_test_id("bid-0")).to_have_attribute("data-state", "waiting")
        expect(ann.get_by_test_id("claim-box")).to_have_count(0)
        assert ann.locator("[data-testid^='square-'][data-legal='true']").count() == 0
        for k, (move, squares) in enumerate(zip(line, squares_after(state, line), strict=True)):
            play_by_clicking(bob, move)
            if k < n - 1:
                expect(robot(ann, name_of(move))).to_have_attribute("data-square", squares[name_of(move)])
        for page in (ann, bob):
            expect(page.get_by_test_id("race-verdict")).to_have_attribute("data-correct", "true")
            expect(page.get_by_test_id("race-verdict")).to_contain_text("Bob scores")
            expect(page.get_by_test_id("race-player-1")).to_have_attribute("data-chips", "1")
            expect(page.get_by_test_id("race-supply")).to_have_attribute("data-supply", "16")
            expect(page.get_by_test_id("race-round")).to_have_text(f"Round {number + 1}")
        expect(ann.get_by_test_id(f"race-round-{number}")).to_have_attribute("data-outcome", "scored")
        # the robots stay where Bob's line left them
        final = squares_after(state, line)[-1]
        for name, square in final.items():
            expect(robot(ann, name)).to_have_attribute("data-square", square)
        view = race_view(base, race_id)
        assert [p["chips"] for p in view["players"]] == [0, 1]
        assert view["rounds"][-1]["demonstrations"][0]["moves"] == line
    finally:
        for pages in (host_pages, guest_pages):
            next(pages, None)  # closes the context and checks the page raised no JavaScript error
