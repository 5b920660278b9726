"""Fair hints and offers in the browser: no Hint button in a game between people unless it was created casual with
hints on (the new-game form offers it only when two seats or more are people's), and a draw offered to the computer
answered at once (declined with a message in a level position, the game ended in an agreed draw when the computer
stands worse)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.browser.conftest import LOOKS, in_look
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(params=list(LOOKS))
def page(request: pytest.FixtureRequest, browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    """Each test in both looks: a desktop in the light theme, a phone in the dark one."""
    yield from in_look(browser, request.param)

#: Khet positions (see tests/server/test_hints_and_offers.py): level, and Red (the computer) a Pyramid down
LEVEL = "xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0"
SILVER_UP = "xs4pn4/10/10/10/10/10/1Yn8/4Pn4Xn s 0"


def new_game(page: Page, base: str, seat1: str, casual: bool | None) -> None:
    """Fill the Exploding Atoms form (3 x 3); ``casual``: tick the hints box (None: it must not be offered)."""
    page.goto(f"{base}/#/new/atoms")
    page.get_by_test_id("option-rows").fill("3")
    page.get_by_test_id("option-cols").fill("3")
    page.get_by_test_id("seat-0-kind").select_option("human")
    page.get_by_test_id("seat-1-kind").select_option(seat1)
    box = page.get_by_test_id("casual-hints")
    if casual is None:
        expect(box).to_be_hidden()
    else:
        expect(box).to_be_visible()
        if casual:
            box.check()
    page.get_by_test_id("new-game-submit").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    expect(page.get_by_test_id("board")).to_be_visible()


def test_between_people_the_hint_button_shows_only_in_a_casual_game(page: Page, live_server: ServerProcess) -> None:
    new_game(page, live_server.url, "human", casual=False)
    expect(page.get_by_test_id("btn-undo")).to_be_visible()
    expect(page.get_by_test_id("btn-hint")).to_be_hidden()
    page.keyboard.press("h")  # nor by its key
    expect(page.locator(".message.error")).to_have_count(0)

    new_game(page, live_server.url, "human", casual=True)
    expect(page.get_by_test_id("game-options")).to_contain_text("casual, hints on")
    expect(page.get_by_test_id("btn-hint")).to_be_visible()
    page.get_by_test_id("btn-hint").click()  # the engine answers from the worker pool
    expect(page.locator("[data-testid^='square-'].hint")).to_have_count(1, timeout=30_000)


def test_against_the_computer_the_form_offers_no_casual_box_and_hints_are_there(
        page: Page, live_server: ServerProcess) -> None:
    new_game(page, live_server.url, "computer", casual=None)
    expect(page.get_by_test_id("btn-hint")).to_be_visible()


def open_khet(page: Page, server: ServerProcess, start: str) -> Any:
    """A Khet game against the computer from ``start``, Silver (the person) to move. No draw is offered before both
    have moved (the game may be aborted instead, as on lichess): Silver makes a move that removes nothing, and the
    computer replies."""
    created = http.post(f"{server.url}/api/games", json={
        "game": "khet", "start": start, "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}).json()
    page.goto(f"{server.url}/#/game/{created['id']}?seat=0&token={created['tokens']['0']}")
    expect(page.get_by_test_id("btn-abort")).to_be_visible()
    expect(page.get_by_test_id("btn-draw")).to_have_count(0)
    view = http.get(f"{server.url}/api/games/{created['id']}", headers={"X-Seat-Token": created["tokens"]["0"]})
    http.post(f"{server.url}/api/games/{created['id']}/moves", json={"move": quiet_move(view.json())},
               headers={"X-Seat-Token": created["tokens"]["0"]}).raise_for_status()
    expect(page.get_by_test_id("btn-draw")).to_have_text("Offer a draw")  # once the computer replied
    return created


def quiet_move(view: Any) -> str:
    """A move of Silver's that removes no piece (the position's balance stays as it was)."""
    previews = view["board"]["previews"]
    return next(move for move in sorted(previews) if previews[move]["removed"] is None)


def test_a_draw_offered_to_the_computer_is_answered_at_once(page: Page, live_server: ServerProcess) -> None:
    open_khet(page, live_server, LEVEL)
    page.get_by_test_id("btn-draw").click()
    expect(page.locator(".message")).to_contain_text("The computer declines the draw")
    expect(page.get_by_test_id("btn-draw")).to_have_text("Offer a draw")
    expect(page.get_by_test_id("result-banner")).to_be_hidden()

    open_khet(page, live_server, SILVER_UP)
    page.get_by_test_id("btn-draw").click()
    expect(page.get_by_test_id("result-banner")).to_be_visible()
    expect(page.get_by_test_id("result-banner")).to_contain_text("Draw")


def test_a_takeback_request_between_two_browsers_declined(browser: Browser, live_server: ServerProcess) -> None:
    red_context = browser.new_context(**LOOKS["light-desktop"])
    blue_context = browser.new_context(**LOOKS["dark-phone"])
    try:
        red = red_context.new_page()
        new_game(red, live_server.url, "human", casual=False)
        invite = red.get_by_test_id("invite-link-1").input_value()
        blue = blue_context.new_page()
        blue.goto(invite)
        expect(blue.get_by_test_id("board")).to_be_visible()
        red.locator("[data-testid='square-A1'][data-legal='true']").click()
        expect(blue.get_by_test_id("move-1")).to_be_visible()
        expect(red.get_by_test_id("btn-undo")).to_be_enabled()
        red.get_by_test_id("btn-undo").click()
        expect(red.get_by_test_id("btn-undo")).to_have_text("Undo asked")
        request = blue.get_by_test_id("request")
        expect(request).to_be_visible()
        expect(request).to_contain_text("Red asks to take back their move A1.")
        expect(blue.get_by_test_id("btn-undo")).to_be_disabled()
        blue.get_by_test_id("btn-undo-decline").click()
        expect(request).to_be_hidden()
        expect(red.locator(".message", has_text="Your takeback request was declined.")).to_be_visible()
        expect(red.get_by_test_id("btn-undo")).to_have_text("Undo")
        expect(red.get_by_test_id("move-1")).to_be_visible()
        expect(blue.get_by_test_id("move-1")).to_be_visible()
    finally:
        red_context.close()
        blue_context.close()


HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_the_invite_panel_sees_the_friend_join_and_every_seat_shows_presence(
        browser: Browser, live_server: ServerProcess) -> None:
    red_context = browser.new_context(**LOOKS["light-desktop"])
    blue_context = browser.new_context(**LOOKS["dark-phone"])
    try:
        red = red_context.new_page()
        new_game(red, live_server.url, "human", casual=False)
        expect(red.get_by_test_id("invite-state-1")).to_have_text("invited · not here yet")
        expect(red.get_by_test_id("presence-1")).to_have_attribute("data-presence", "offline")
        expect(red.get_by_test_id("presence-0")).to_have_attribute("data-presence", "online")
        invite = red.get_by_test_id("invite-link-1").input_value()
        blue = blue_context.new_page()
        blue.goto(invite)
        expect(blue.get_by_test_id("board")).to_be_visible()
        expect(red.get_by_test_id("invite-state-1")).to_have_text("joined · online")
        expect(red.get_by_test_id("presence-1")).to_have_attribute("data-presence", "online")
        expect(blue.get_by_test_id("presence-0")).to_have_attribute("data-presence", "online")
        blue.evaluate(HIDE)
        expect(red.get_by_test_id("presence-1")).to_have_attribute("data-presence", "away")
        blue.close()
        expect(red.get_by_test_id("presence-1")).to_have_attribute("data-presence", "offline")
        expect(red.get_by_test_id("invite-state-1")).to_have_text("invited · not here yet")
    finally:
        red_context.close()
        blue_context.close()


def test_sounds_are_off_by_default_and_follow_the_moves_once_on(page: Page, live_server: ServerProcess) -> None:
    duel = "xs9/10/1ps2yw4Ys/10/10/10/10/4Pn4Xn s 0"
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "start": duel, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    page.goto(f"{live_server.url}/#/game/{game_id}")
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")

    def play(token: str) -> None:
        view = http.get(f"{live_server.url}/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
        shot = next(m for m, beam in view["board"]["previews"].items() if beam["removed"] is not None) \
            if view["player"] == 0 else view["legal_moves"][0]
        assert http.post(f"{live_server.url}/api/games/{game_id}/moves", json={"move": shot},
                          headers={"X-Seat-Token": token}).status_code == 200

    play(silver)
    expect(page.get_by_test_id("move-1")).to_be_visible()
    assert page.evaluate("window.__damierSounds || []") == []  # off: silent
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    play(red)
    expect(page.get_by_test_id("move-2")).to_be_visible()
    page.wait_for_function("(window.__damierSounds || []).includes('zap')")  # Khet's laser, the page's zap
    page.reload()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")  # remembered
