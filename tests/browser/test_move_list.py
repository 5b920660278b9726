"""The game page's move list: in pairs between two players (`1. B1 C3`, the first player's moves in the left
column, so colours never zigzag), one numbered cell per move with more players."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import damier
from tests.browser import http
from tests.browser.conftest import LOOKS, in_look
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(params=list(LOOKS))
def page(request: pytest.FixtureRequest, browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    """Each test in both looks: a desktop in the light theme, a phone in the dark one."""
    yield from in_look(browser, request.param)


def played(server: ServerProcess, seats: int, squares: list[str]) -> str:
    """An Exploding Atoms game between ``seats`` people on 5 x 5 with ``squares`` played in turn; its id."""
    options: dict[str, Any] = {"rows": 5, "cols": 5, "players": seats}
    created = http.post(f"{server.url}/api/games", json={
        "game": "atoms", "options": options, "seats": [{"kind": "human"}] * seats}).json()
    for ply, square in enumerate(squares):
        token = created["tokens"][str(ply % seats)]
        answer = http.post(f"{server.url}/api/games/{created['id']}/moves", json={"move": square},
                            headers={"X-Seat-Token": token})
        assert answer.status_code == 200, answer.text
    return str(created["id"])


def box(page: Page, ply: int) -> dict[str, float]:
    found = page.get_by_test_id(f"move-{ply}").bounding_box()
    assert found is not None
    return dict(found)


def test_two_players_read_in_numbered_pairs(page: Page, live_server: ServerProcess) -> None:
    game_id = played(live_server, 2, ["A1", "E5", "C3", "B4", "D2"])
    page.goto(f"{live_server.url}/#/game/{game_id}")
    expect(page.get_by_test_id("move-5")).to_be_visible()
    for ply, number in ((1, "1."), (3, "2."), (5, "3.")):
        expect(page.get_by_test_id(f"move-{ply}").locator(".ply")).to_have_text(number)
    for ply in (2, 4):
        expect(page.get_by_test_id(f"move-{ply}").locator(".ply")).to_have_text("")
    first, second, third = box(page, 1), box(page, 2), box(page, 3)
    assert abs(first["y"] - second["y"]) < 1 and second["x"] > first["x"] + first["width"] / 2
    assert third["y"] > first["y"] + first["height"] / 2 and abs(third["x"] - first["x"]) < 1
    assert abs(box(page, 5)["x"] - first["x"]) < 1  # the first player's moves stay in the left column


def test_three_players_get_one_numbered_cell_per_move(page: Page, live_server: ServerProcess) -> None:
    game_id = played(live_server, 3, ["A1", "E5", "C3", "B4"])
    page.goto(f"{live_server.url}/#/game/{game_id}")
    expect(page.get_by_test_id("move-4")).to_be_visible()
    for ply in range(1, 5):
        expect(page.get_by_test_id(f"move-{ply}").locator(".ply")).to_have_text(str(ply))


def test_a_move_that_took_something_is_marked(page: Page, live_server: ServerProcess) -> None:
    duel = "xs9/10/1ps2yw4Ys/10/10/10/10/4Pn4Xn s 0"  # Silver's shot takes the Red Pyramid on e6 unless j6 moves
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "start": duel, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    previews = created["state"]["board"]["previews"]
    shot = next(m for m, beam in previews.items() if beam["removed"] is not None)
    quiet = next(m for m, beam in http.post(f"{live_server.url}/api/games/{created['id']}/moves", json={
        "move": shot}, headers={"X-Seat-Token": created["tokens"]["0"]}).json()["board"]["previews"].items()
        if beam["removed"] is None)
    answer = http.post(f"{live_server.url}/api/games/{created['id']}/moves", json={"move": quiet},
                        headers={"X-Seat-Token": created["tokens"]["1"]})
    assert answer.status_code == 200, answer.text
    page.goto(f"{live_server.url}/#/game/{created['id']}")
    expect(page.get_by_test_id("move-2")).to_be_visible()
    expect(page.get_by_test_id("took-1")).to_have_text("×")
    expect(page.get_by_test_id("took-2")).to_have_count(0)
    expect(page.get_by_test_id("hit-1")).to_have_count(0)


def test_the_move_that_shot_the_pharaoh_is_marked(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game, tokens = created["id"], created["tokens"]
    rng = random.Random(3)
    state = damier.load("khet").new_state()
    while not state.is_over():  # random moves, played through the API, until a Pharaoh is shot
        move = state.move_to_str(rng.choice(state.legal_moves()))
        answer = http.post(f"{live_server.url}/api/games/{game}/moves", json={"move": move},
                            headers={"X-Seat-Token": tokens[str(state.player)]})
        assert answer.status_code == 200, answer.text
        state.play(state.parse_move(move))
        if len(state.history) > 400:
            pytest.fail("no Pharaoh was shot in 400 random plies")
    last = len(state.history)
    page.goto(f"{live_server.url}/#/game/{game}")
    expect(page.get_by_test_id(f"hit-{last}")).to_have_text("#")
    expect(page.locator(".move-list .hit")).to_have_count(1)


def counts_on(page: Page, squares: list[str]) -> list[str | None]:
    return [page.get_by_test_id(f"square-{s}").get_attribute("data-count") for s in squares]


def test_browsing_earlier_positions_while_the_game_goes_on(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "atoms", "options": {"rows": 5, "cols": 5}, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game_id, red_token, blue_token = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    for ply, square in enumerate(["A1", "E5", "A1", "E5"]):
        answer = http.post(f"{live_server.url}/api/games/{game_id}/moves", json={"move": square},
                            headers={"X-Seat-Token": red_token if ply % 2 == 0 else blue_token})
        assert answer.status_code == 200, answer.text
    frames = http.get(f"{live_server.url}/api/games/{game_id}/replay").json()["frames"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={red_token}")
    legal = page.locator("[data-testid^='square-'][data-legal='true']")
    expect(legal.first).to_be_visible()
    watched = ["A1", "E5"]
    page.get_by_test_id("move-2").click()
    expect(page.get_by_test_id("browse-text")).to_contain_text("After move 2 of 4")
    expected = [str(frames[2]["board"]["counts"][i]) for i in (0, 24)]
    expect(page.get_by_test_id("square-A1")).to_have_attribute("data-count", expected[0])
    assert counts_on(page, watched) == expected
    assert legal.count() == 0  # nothing to play on an earlier position
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("browse-text")).to_contain_text("After move 1 of 4")
    expect(page.get_by_test_id("square-E5")).to_have_attribute("data-count", "0")
    page.keyboard.press("Home")
    expect(page.get_by_test_id("browse-text")).to_have_text("The start position")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("browse-text")).to_contain_text("After move 1 of 4")
    # the game goes on meanwhile: the new move is listed, the position browsed stays
    http.post(f"{live_server.url}/api/games/{game_id}/moves", json={"move": "C3"}, headers={"X-Seat-Token": red_token})
    expect(page.get_by_test_id("move-5")).to_be_visible()
    expect(page.get_by_test_id("browse-text")).to_contain_text("After move 1 of 5")
    page.get_by_test_id("browse-live").click()
    expect(page.get_by_test_id("browse-bar")).to_be_hidden()
    expect(page.get_by_test_id("square-C3")).to_have_attribute("data-count", "1")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("browse-bar")).to_be_hidden()
