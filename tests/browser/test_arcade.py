"""The arcade in a real browser: a whole Atoms game against the computer by clicking, an online game between
two browser contexts, the replay of a finished game, and a chain reaction drawn wave by wave with the boards the
server sent (the client computes no explosion)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

LEGAL = "[data-testid^='square-'][data-legal='true']"


def start_game(page: Page, base: str, rows: int, cols: int, seat1: str, level: str | None = None) -> str:
    """Fill the new-game form; return the game id from the address."""
    page.goto(f"{base}/#/new/atoms")
    page.get_by_test_id("option-rows").fill(str(rows))
    page.get_by_test_id("option-cols").fill(str(cols))
    page.get_by_test_id("seat-0-kind").select_option("human")
    page.get_by_test_id("seat-1-kind").select_option(seat1)
    if level:
        page.get_by_test_id("seat-1-level").select_option(level)
    page.get_by_test_id("new-game-submit").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def finished(page: Page) -> bool:
    return page.get_by_test_id("result-banner").is_visible()


def play_first_legal(page: Page) -> None:
    """Click the first legal square once it is our turn, and wait until the server took the move."""
    page.wait_for_selector(LEGAL)
    before = page.locator("[data-testid='move-list'] li").count()
    page.locator(LEGAL).first.click()
    expect(page.locator("[data-testid='move-list'] li")).not_to_have_count(before)


def test_whole_game_against_the_computer_by_clicking(page: Page, live_server: ServerProcess) -> None:
    start_game(page, live_server.url, 3, 3, "computer", "easy")
    expect(page.get_by_test_id("board")).to_be_visible()
    for _ in range(60):
        if finished(page):
            break
        page.wait_for_selector(f"{LEGAL}, [data-testid='result-banner']:not([hidden])")
        if finished(page):
            break
        play_first_legal(page)
    expect(page.get_by_test_id("result-banner")).to_be_visible()
    expect(page.get_by_test_id("result-banner")).to_contain_text("wins")
    assert page.locator(LEGAL).count() == 0


def test_online_game_between_two_browsers(browser: Browser, live_server: ServerProcess) -> None:
    red_context = browser.new_context(viewport={"width": 1280, "height": 800})
    blue_context = browser.new_context(viewport={"width": 390, "height": 800})
    try:
        red = red_context.new_page()
        game_id = start_game(red, live_server.url, 3, 3, "human")
        invite = red.get_by_test_id("invite-link-1").input_value()
        assert game_id in invite and "token=" in invite
        blue = blue_context.new_page()
        blue.goto(invite)
        blue.wait_for_url(re.compile(rf".*#/game/{game_id}$"))  # the token left the address bar
        expect(blue.get_by_test_id("board")).to_be_visible()
        pages = [red, blue]
        for ply in range(40):
            mover = pages[ply % 2]
            if finished(red) and finished(blue):
                break
            mover.wait_for_selector(f"{LEGAL}, [data-testid='result-banner']:not([hidden])")
            if finished(mover):
                break
            assert pages[(ply + 1) % 2].locator(LEGAL).count() == 0  # not the other browser's turn
            play_first_legal(mover)
            # the other browser sees the move through the WebSocket
            expect(pages[(ply + 1) % 2].get_by_test_id(f"move-{ply + 1}")).to_be_visible()
        expect(red.get_by_test_id("result-banner")).to_be_visible()
        expect(blue.get_by_test_id("result-banner")).to_be_visible()
        assert red.get_by_test_id("result-banner").inner_text() == blue.get_by_test_id("result-banner").inner_text()
    finally:
        red_context.close()
        blue_context.close()


def test_replay_of_a_finished_game_steps_through_every_move(page: Page, live_server: ServerProcess) -> None:
    game_id = start_game(page, live_server.url, 3, 3, "computer", "easy")
    while not finished(page):
        page.wait_for_selector(f"{LEGAL}, [data-testid='result-banner']:not([hidden])")
        if finished(page):
            break
        play_first_legal(page)
    total = page.locator("[data-testid='move-list'] li").count()
    page.goto(f"{live_server.url}/#/replay/{game_id}")
    ply = page.get_by_test_id("replay-ply")
    page.get_by_test_id("replay-first").click()
    expect(ply).to_contain_text("0")
    assert page.locator("[data-testid^='square-'][data-owner='-1']").count() == 9  # the empty board
    page.get_by_test_id("replay-next").click()
    expect(ply).to_contain_text("1")
    assert page.locator("[data-testid^='square-'][data-count='1']").count() == 1
    page.get_by_test_id("replay-last").click()
    expect(ply).to_contain_text(str(total))
    expect(page.get_by_test_id("result-banner")).to_be_visible()
    page.get_by_test_id("replay-prev").click()
    expect(ply).to_contain_text(str(total - 1))


def test_a_long_replay_loads_page_after_page_and_opens_at_a_later_ply(page: Page, live_server: ServerProcess) -> None:
    import random

    import damier

    game = damier.load("atoms", rows=12, cols=12)
    state = game.new_state(5)
    rng = random.Random(5)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    moves = len(state.history)
    assert moves > 200  # more than two of the server's pages
    game_id = http.post(f"{live_server.url}/api/records", json=damier.Record.from_state(state).to_json(),
                         timeout=60).json()["id"]
    page.goto(f"{live_server.url}/#/replay/{game_id}?ply={moves - 3}")
    ply = page.get_by_test_id("replay-ply")
    expect(ply).to_have_attribute("data-ply", str(moves - 3))  # shown once its page arrived
    expect(ply).to_contain_text(f"of {moves}")
    expect(page.locator("[data-testid='move-list'] li")).to_have_count(moves)
    page.get_by_test_id("replay-last").click()
    expect(ply).to_have_attribute("data-ply", str(moves))
    page.get_by_test_id("replay-first").click()
    expect(ply).to_have_attribute("data-ply", "0")


def test_keyboard_plays_and_a_watcher_sees_it(browser: Browser, page: Page, live_server: ServerProcess) -> None:
    game_id = start_game(page, live_server.url, 3, 3, "human")
    watcher_context = browser.new_context(viewport={"width": 375, "height": 667})
    try:
        watcher = watcher_context.new_page()
        watcher.goto(f"{live_server.url}/#/game/{game_id}")
        expect(watcher.get_by_test_id("watching")).to_be_visible()
        page.get_by_test_id("square-A1").focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")  # plays B1
        expect(page.get_by_test_id("move-1")).to_contain_text("B1")
        expect(watcher.get_by_test_id("move-1")).to_contain_text("B1")
        expect(watcher.get_by_test_id("square-B1")).to_have_attribute("data-count", "1")
        assert watcher.locator(LEGAL).count() == 0  # a watcher has nothing to click
    finally:
        watcher_context.close()


def test_theme_toggle_switches_and_is_remembered(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/")
    root = page.locator("html")
    before = root.get_attribute("data-theme")
    page.get_by_test_id("theme-toggle").click()
    after = root.get_attribute("data-theme")
    assert after != before and after in ("light", "dark")
    page.reload()
    assert page.locator("html").get_attribute("data-theme") == after


#: 4 x 4, Red to move: B2 (3 atoms, capacity 4) explodes, then B1 and A2 (3 each, capacity 3), then A1
CHAIN = "1r,2r,.,./2r,3r,1b,./.,.,1b,./.,.,.,1b r rb 9"

#: record the values an attribute of a square takes (every time it is set) in window.__seen
WATCH = """([testid, attribute]) => {
  window.__seen = [];
  const el = document.querySelector(`[data-testid='${testid}']`);
  new MutationObserver(() => window.__seen.push(el.getAttribute(attribute)))
    .observe(el, { attributes: true, attributeFilter: [attribute] });
}"""


def distinct(values: list[Any]) -> list[Any]:
    """``values`` without consecutive repeats."""
    return [v for i, v in enumerate(values) if i == 0 or v != values[i - 1]]


def test_a_chain_is_drawn_wave_by_wave_with_the_boards_the_server_sent(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "atoms", "options": {"rows": 4, "cols": 4}, "start": CHAIN,
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    page.goto(f"{live_server.url}/#/game/{created['id']}?seat=0&token={created['tokens']['0']}")
    page.wait_for_selector(LEGAL)
    expect(page.get_by_test_id("square-B1")).to_have_attribute("data-count", "2")
    page.evaluate(WATCH, ["square-B1", "data-count"])
    page.get_by_test_id("square-B2").click()
    page.wait_for_selector(".atoms-board .sq.exploding", state="attached")  # the waves are animated
    expect(page.get_by_test_id("move-1")).to_contain_text("B2")
    page.wait_for_function("() => !document.querySelector('.atoms-board.animating')")
    view = http.get(f"{live_server.url}/api/games/{created['id']}").json()
    waves = [e for e in view["events"] if e["type"] == "wave"]
    assert len(waves) == 3
    # B1 showed the count of each wave's board in turn: 3 after the first, 0 after the second, 1 after the third
    expected = [str(e["changes"]["B1"]["count"]) for e in view["events"] if "B1" in e.get("changes", {})]
    assert expected == ["3", "0", "1"]
    seen = distinct(page.evaluate("window.__seen"))
    assert (seen[1:] if seen[0] == "2" else seen) == expected
    for index, (count, owner) in enumerate(zip(view["board"]["counts"], view["board"]["owners"], strict=True)):
        square = page.locator(f"[data-testid^='square-'][data-index='{index}']")
        expect(square).to_have_attribute("data-count", str(count))
        expect(square).to_have_attribute("data-owner", str(owner if count else -1))


#: 4 x 4, Red to move: B2 explodes onto Blue's only atom (C2): Red wins as the explosion is drawn
LAST_EXPLOSION = "1r,2r,.,./2r,3r,1b,./.,.,.,./.,.,.,. r rb 9"

#: record whether the result banner ever showed while the board was animating, and whether it animated at all
SPOILERS = """() => {
  window.__spoiled = false;
  window.__animated = false;
  const board = document.querySelector("[data-testid='board']");
  const banner = document.querySelector("[data-testid='result-banner']");
  new MutationObserver(() => {
    const animating = board.dataset.animating === "true";
    window.__animated ||= animating;
    window.__spoiled ||= animating && !banner.hidden;
  }).observe(document.body, { attributes: true, childList: true, subtree: true });
}"""


def test_the_result_shows_after_the_last_explosion_and_below_the_board(browser: Browser,
                                                                          live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "atoms", "options": {"rows": 4, "cols": 4}, "start": LAST_EXPLOSION,
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/game/{created['id']}?seat=0&token={created['tokens']['0']}")
        page.wait_for_selector(LEGAL)
        page.evaluate(SPOILERS)
        page.get_by_test_id("square-B2").click()
        expect(page.get_by_test_id("result-banner")).to_be_visible()
        expect(page.get_by_test_id("result-banner")).to_contain_text("Red wins")
        assert page.evaluate("window.__animated") is True
        assert page.evaluate("window.__spoiled") is False
        page.evaluate("window.scrollTo(0, 0)")
        board = page.get_by_test_id("board").bounding_box()
        assert board is not None and board["y"] + board["height"] <= 900  # the board is not pushed out of sight
    finally:
        context.close()


def test_a_seat_is_shown_out_when_the_rules_say_so(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "atoms", "options": {"players": 3, "rows": 3, "cols": 3}, "seats": [{"kind": "human"}] * 3}).json()
    game_id, tokens = created["id"], created["tokens"]
    page.goto(f"{live_server.url}/#/game/{game_id}")  # a watcher
    for ply, move in enumerate(["C1", "B1", "B2", "A1", "A3", "B3", "C2", "C3", "A2", "A1", "A3"]):
        view = http.get(f"{live_server.url}/api/games/{game_id}").json()
        answer = http.post(f"{live_server.url}/api/games/{game_id}/moves", json={
            "move": move, "version": ply}, headers={"X-Seat-Token": tokens[str(view["player"])]})
        assert answer.status_code == 200, answer.text
        if ply == 0:  # Blue and Green have not moved yet, with no atom: not out
            expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
            for seat in range(3):
                expect(page.get_by_test_id(f"player-{seat}")).not_to_have_class(re.compile(r"\bout\b"))
    # Green lost its last atom: out; Red and Blue play on
    expect(page.get_by_test_id("player-2")).to_have_class(re.compile(r"\bout\b"))
    expect(page.get_by_test_id("player-2")).to_contain_text("out")
    for seat in (0, 1):
        expect(page.get_by_test_id(f"player-{seat}")).not_to_have_class(re.compile(r"\bout\b"))
