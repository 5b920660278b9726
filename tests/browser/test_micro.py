"""Micro Robots in a real browser: a puzzle solved by clicking (a move taken back by Reset first) whose result says
it is optimal, the graded hints shown level by level (each as the game's solver says it, the first move marked and
the whole path stepped through on the board), and a race between two browser contexts on one server: one player
claims, demonstrates by clicking while the other watches the robot jump, and scores; then a wrong claim hands
that chip to the other player. The paths are the game's solver's, asked in the test; the page computes none."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import damier
from damier.games.micro.search import analyse, hint
from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: a puzzle of 4 moves with one shortest path (R1 R2 R6 G6) on side A's first arrangement
PUZZLE = "A-1234-0000_R5_G6"
ROBOT = "[data-testid^='square-'][data-robot='true']"


def shortest(position: str) -> list[str]:
    """One shortest path of a puzzle (its id or a position), from the game's solver."""
    moves: list[str] = analyse(damier.load("micro").state_from_position(position))["moves"]
    return moves


def robot_on(page: Page, square: str) -> None:
    expect(page.locator(ROBOT)).to_have_attribute("data-square", square)


def test_a_puzzle_solved_by_clicking_says_it_is_optimal(page: Page, live_server: ServerProcess) -> None:
    legal = page.locator("[data-testid^='square-'][data-legal='true']")
    for _ in range(20):  # about one medium puzzle in twenty has a single first move, and no detour to try
        page.goto(f"{live_server.url}/#/new/micro")
        page.get_by_test_id("preset-medium").click()
        expect(page.get_by_test_id("option-difficulty")).to_have_value("4")
        page.get_by_test_id("new-game-submit").click()
        page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
        puzzle = page.get_by_test_id("puzzle-id")
        expect(puzzle).not_to_have_value("")
        path = shortest(puzzle.input_value())
        assert len(path) == 4
        expect(page.get_by_test_id("puzzle-timer")).to_be_visible()
        expect(legal.first).to_be_visible()
        squares = [legal.nth(i).get_attribute("data-square") for i in range(legal.count())]
        if any(square != path[0] for square in squares):
            break
    # a move off the path, taken back by Reset
    detour = next(square for square in squares if square != path[0])
    page.get_by_test_id(f"square-{detour}").click()
    robot_on(page, str(detour))
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("1")
    page.get_by_test_id("btn-reset").click()
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("0")
    # the shortest path, square by square (each square the server lists as legal)
    for square in path:
        target = page.get_by_test_id(f"square-{square}")
        expect(target).to_have_attribute("data-legal", "true")
        target.click()
        robot_on(page, square)
    banner = page.get_by_test_id("result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-optimal", "true")
    expect(banner).to_have_attribute("data-cost", "4")
    expect(banner).to_have_attribute("data-optimum", "4")
    expect(banner).to_contain_text("optimal")
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("4")
    expect(page.get_by_test_id("puzzle-timer")).to_have_class(re.compile(r"\bstopped\b"))
    assert page.locator("[data-testid^='square-'][data-legal='true']").count() == 0


def test_hints_are_shown_level_by_level(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/new/micro")
    page.get_by_test_id("puzzle-id-input").fill(PUZZLE)
    expect(page.get_by_test_id("puzzle-id-check")).to_have_attribute("data-valid", "true")
    page.get_by_test_id("puzzle-id-play").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    expect(page.get_by_test_id("puzzle-id")).to_have_value(PUZZLE)
    state = damier.load("micro").state_from_position(PUZZLE)
    expected = {level: hint(state, level) for level in (1, 2, 3, 4)}
    for level in (1, 2, 3, 4):
        show = page.get_by_test_id(f"hint-show-{level}")
        if level < 4:  # a hint is asked only after the vaguer ones
            expect(page.get_by_test_id(f"hint-show-{level + 1}")).to_be_disabled()
        show.click()
        expect(page.get_by_test_id(f"hint-text-{level}")).to_have_text(expected[level]["text"])
        expect(page.get_by_test_id("puzzle-hints")).to_have_text(str(level))
    first = expected[3]["move"]
    expect(page.get_by_test_id(f"square-{first}")).to_have_class(re.compile(r"\bhint\b"))
    # the whole path: numbered on the board, stepped through with the ghost robot
    moves = expected[4]["moves"]
    for k, square in enumerate(moves, start=1):
        expect(page.get_by_test_id(f"square-{square}")).to_have_attribute("data-step", str(k))
    step = page.get_by_test_id("path-step")
    for k in range(1, len(moves) + 1):
        page.get_by_test_id("path-next").click()
        expect(step).to_have_attribute("data-step", str(k))
        expect(page.locator("[data-testid='board'] .mr-ghost")).to_have_attribute("data-square", moves[k - 1])
    expect(page.get_by_test_id("path-next")).to_be_disabled()
    page.get_by_test_id("path-first").click()
    expect(step).to_have_attribute("data-step", "0")
    robot_on(page, "R5")  # stepping moves no robot: the puzzle is where it was


def test_an_expert_puzzle_played_by_keyboard_marks_its_waypoint(page: Page, live_server: ServerProcess) -> None:
    """R5 to R1 by the waypoint P1: the robot reaches the target first (the puzzle goes on: the waypoint is still
    to visit), then the waypoint (marked visited), then the target again; every jump by arrow keys and Enter."""
    page.goto(f"{live_server.url}/#/new/micro")
    page.get_by_test_id("option-expert").check()
    page.get_by_test_id("puzzle-id-input").fill("A-1234-0000_R5_R1_P1")
    expect(page.get_by_test_id("puzzle-id-check")).to_have_attribute("data-valid", "true")
    page.get_by_test_id("puzzle-id-play").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    waypoint = page.get_by_test_id("square-P1")
    expect(waypoint).to_have_attribute("data-waypoint", "true")
    expect(waypoint).to_have_attribute("data-visited", "false")
    expect(page.get_by_test_id("square-R1")).to_have_attribute("data-target", "true")
    page.locator("body").press("ArrowRight")  # brings the cursor to the board: the first jump, R1
    expect(page.get_by_test_id("square-R1")).to_be_focused()
    page.keyboard.press("Enter")
    robot_on(page, "R1")
    expect(page.get_by_test_id("result-banner")).to_be_hidden()  # on the target, the waypoint still to visit
    page.keyboard.press("ArrowRight")
    expect(waypoint).to_be_focused()
    page.keyboard.press("Enter")
    robot_on(page, "P1")
    expect(waypoint).to_have_attribute("data-visited", "true")
    expect(page.get_by_test_id("board-info")).to_contain_text("visited")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("result-banner")).to_have_attribute("data-optimal", "true")


def race_view(base: str, race_id: str) -> Any:
    return http.get(f"{base}/api/races/{race_id}").json()


def open_race(host: Page, guest: Page, base: str, names: tuple[str, str]) -> str:
    """The host creates an easy Micro Robots race under its name, the guest joins it by its link under its own:
    the race's id (not started yet)."""
    host.goto(f"{base}/#/new/micro")
    host.get_by_test_id("preset-easy").click()
    host.get_by_test_id("race-name").fill(names[0])
    host.get_by_test_id("race-create").click()
    host.wait_for_url(re.compile(r".*#/race/[^/?]+$"))
    link = host.get_by_test_id("race-link").input_value()
    expect(host.get_by_test_id("race-start")).to_be_disabled()  # one player so far
    guest.goto(link)
    guest.get_by_test_id("race-join-name").fill(names[1])
    guest.get_by_test_id("race-join").click()
    expect(host.get_by_test_id("race-player-1")).to_contain_text(names[1])
    return link.rsplit("/", 1)[1]


def test_a_race_round_scored_then_a_wrong_claim_hands_the_chip_over(browser: Browser,
                                                                   live_server: ServerProcess) -> None:
    base = live_server.url
    host_pages = open_page(browser, viewport={"width": 1280, "height": 900})
    guest_pages = open_page(browser, viewport={"width": 390, "height": 844})
    ann = next(host_pages)
    bob = next(guest_pages)
    try:
        race_id = open_race(ann, bob, base, ("Ann", "Bob"))
        expect(bob.get_by_test_id("race-start")).to_have_count(0)  # only the host starts
        ann.get_by_test_id("race-start").click()
        for page in (ann, bob):
            expect(page.get_by_test_id("race-round")).to_have_text("Round 1")
            expect(page.get_by_test_id("claim-box")).to_be_visible()
            expect(page.get_by_test_id("race-timer")).to_contain_text("left")

        # round 1: Bob claims the shortest path's length and shows it by clicking; Ann sees each jump
        path = shortest(race_view(base, race_id)["round"]["position"])
        bob.get_by_test_id(f"claim-{len(path)}").click()
        expect(bob.get_by_test_id("demo-bar")).to_be_visible()
        expect(ann.get_by_test_id("race-status")).to_contain_text(f"Bob demonstrates {len(path)} move")
        expect(ann.get_by_test_id("claim-box")).to_have_count(0)  # no claim while Bob demonstrates
        assert ann.locator("[data-testid^='square-'][data-legal='true']").count() == 0
        for k, square in enumerate(path):
            bob.get_by_test_id(f"square-{square}").click()
            if k < len(path) - 1:
                robot_on(ann, square)  # shown live to the other player
        for page in (ann, bob):
            expect(page.get_by_test_id("race-verdict")).to_have_attribute("data-correct", "true")
            expect(page.get_by_test_id("race-verdict")).to_contain_text("Bob scores")
            expect(page.get_by_test_id("race-player-1")).to_have_attribute("data-chips", "1")
            expect(page.get_by_test_id("race-supply")).to_have_attribute("data-supply", "24")
            expect(page.get_by_test_id("race-round")).to_have_text("Round 2")
        expect(ann.get_by_test_id("race-round-1")).to_have_attribute("data-outcome", "scored")

        # round 2: Bob claims one move and jumps somewhere else than the target: wrong, his chip goes to Ann
        board = race_view(base, race_id)["round"]["board"]
        away = next(square for square in board["legal"] if square != board["target"])
        bob.get_by_test_id("claim-1").click()
        expect(bob.get_by_test_id("demo-bar")).to_be_visible()
        bob.get_by_test_id(f"square-{away}").click()
        for page in (ann, bob):
            expect(page.get_by_test_id("race-verdict")).to_have_attribute("data-correct", "false")
            expect(page.get_by_test_id("chip-transfer")).to_have_text(re.compile("Bob gives a chip to Ann"))
            expect(page.get_by_test_id("race-player-0")).to_have_attribute("data-chips", "1")
            expect(page.get_by_test_id("race-player-1")).to_have_attribute("data-chips", "0")
            expect(page.get_by_test_id("race-supply")).to_have_attribute("data-supply", "24")
            expect(page.get_by_test_id("race-round")).to_have_text("Round 3")
        expect(bob.get_by_test_id("race-round-2")).to_have_attribute("data-outcome", "missed")
        view = race_view(base, race_id)
        assert [p["chips"] for p in view["players"]] == [1, 0]
        assert view["rounds"][1]["demonstrations"][0]["verdict"]["transfer"] == {"from": 1, "to": 0}
    finally:
        for pages in (host_pages, guest_pages):
            next(pages, None)  # closes the context and checks the page raised no JavaScript error


def test_the_robot_is_dragged_onto_a_jump_and_back_from_anywhere_else(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/new/micro")
    page.get_by_test_id("puzzle-id-input").fill(PUZZLE)
    expect(page.get_by_test_id("puzzle-id-check")).to_have_attribute("data-valid", "true")
    page.get_by_test_id("puzzle-id-play").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    robot_on(page, "R5")
    jumps = page.locator("[data-testid^='square-'][data-legal='true']")
    legal = {el.get_attribute("data-square") for el in jumps.all()}
    first = shortest(PUZZLE)[0]
    assert first in legal
    other = next(el.get_attribute("data-square") for el in page.locator("[data-testid^='square-']").all()
                 if el.get_attribute("data-square") not in legal | {"R5"})

    def centre(square: str) -> tuple[float, float]:
        box = page.locator(f"[data-testid^='square-'][data-square='{square}']").bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    robot = page.get_by_test_id("robot")
    home = robot.get_attribute("transform")
    lines = page.locator("[data-testid='board'] .mr-preview-line")
    # over a square it cannot jump to: no jump drawn; let go, it goes back and nothing is played
    page.mouse.move(*centre("R5"))
    page.mouse.down()
    page.mouse.move(*centre(other), steps=8)
    expect(robot).to_have_class(re.compile(r"\bdragging\b"))
    expect(lines).to_have_count(0)
    page.mouse.up()
    assert robot.get_attribute("transform") == home
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("0")
    # over the first jump of the shortest path: the jump is drawn; dropped there, it is played
    page.mouse.move(*centre("R5"))
    page.mouse.down()
    page.mouse.move(*centre(first), steps=8)
    expect(lines).to_have_count(1)
    page.mouse.up()
    expect(page.get_by_test_id("puzzle-moves")).to_have_text("1")
    robot_on(page, first)
