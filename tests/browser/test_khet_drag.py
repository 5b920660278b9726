"""Khet moves dragged in a real browser, in both themes: a piece follows the pointer, the shot of the target under
it is the server's preview, a drop on a target plays the move, a drop anywhere else or Esc puts the piece back and
plays nothing, and clicks still play; on a phone a finger drags a piece without scrolling the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.browser.conftest import open_page
from tests.browser.test_khet import DUEL, LEGAL, check_preview, view_of
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(params=["light", "dark"])
def themed(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A desktop page in the light or the dark theme (the system's choice, which the arcade follows)."""
    yield from open_page(browser, viewport={"width": 1280, "height": 800}, color_scheme=request.param)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone-size touch screen."""
    yield from open_page(browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)


def two_humans(server: ServerProcess, start: str = DUEL) -> dict[str, Any]:
    created = http.post(f"{server.url}/api/games", json={
        "game": "khet", "start": start, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    assert isinstance(created, dict)
    return created


def centre(page: Page, square: str) -> tuple[float, float]:
    box = page.get_by_test_id(f"square-{square}").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag_over(page: Page, source: str, target: str) -> None:
    """Press on ``source`` and move (in steps) over ``target``, the button still down."""
    page.mouse.move(*centre(page, source))
    page.mouse.down()
    page.mouse.move(*centre(page, target), steps=8)


def piece_transform(page: Page, square: str) -> str | None:
    return page.get_by_test_id(f"piece-{square}").get_attribute("transform")


def test_a_dragged_piece_plays_on_a_target_and_goes_back_from_anywhere_else(
        themed: Page, live_server: ServerProcess) -> None:
    page = themed
    created = two_humans(live_server)
    game_id, silver = created["id"], created["tokens"]["0"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={silver}")
    page.wait_for_selector(LEGAL)
    previews = view_of(live_server, game_id, silver)["board"]["previews"]
    home = piece_transform(page, "e1")

    # dropped on a square that is no target: nothing is played and the Pharaoh is back on e1
    drag_over(page, "e1", "h4")
    assert piece_transform(page, "e1") != home  # it followed the pointer
    expect(page.get_by_test_id("piece-e1")).to_have_class(re.compile(r"\bdragging\b"))
    expect(page.get_by_test_id("square-e2")).to_have_attribute("data-target", "true")
    expect(page.get_by_test_id("laser-preview")).to_have_count(0)  # h4 is no target: no shot shown
    page.mouse.up()
    expect(page.get_by_test_id("square-e1")).to_have_attribute("data-selected", "false")
    assert piece_transform(page, "e1") == home
    # Esc while dragging over a target: the shot was shown, then the piece goes back and nothing is played
    drag_over(page, "e1", "d2")
    check_preview(page, "e1d2", previews["e1d2"])
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("laser-preview")).to_have_count(0)
    page.mouse.up()
    assert piece_transform(page, "e1") == home
    expect(page.get_by_test_id("square-d2")).to_have_attribute("data-target", "false")
    assert view_of(live_server, game_id)["version"] == 0

    # the preview follows the pointer from target to target; the drop plays the move under it
    drag_over(page, "e1", "d2")
    check_preview(page, "e1d2", previews["e1d2"])
    page.mouse.move(*centre(page, "e2"), steps=4)
    check_preview(page, "e1e2", previews["e1e2"])
    expect(page.get_by_test_id("laser-preview-text")).to_contain_text("e1e2: The laser removes the Red Pyramid on e6")
    page.mouse.up()
    expect(page.get_by_test_id("move-1")).to_contain_text("e1e2")
    view = view_of(live_server, game_id)
    assert view["version"] == 1
    assert {(p["square"], p["kind"]) for p in view["board"]["pieces"]} >= {("e2", "pharaoh")}
    assert "e6" not in {p["square"] for p in view["board"]["pieces"]}
    expect(page.get_by_test_id("piece-e6")).to_have_count(0)


def test_clicks_still_play_beside_dragging(themed: Page, live_server: ServerProcess) -> None:
    page = themed
    created = two_humans(live_server)
    game_id, silver = created["id"], created["tokens"]["0"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={silver}")
    page.wait_for_selector(LEGAL)
    # a press that does not move is a click: it selects, and a click on a target plays
    page.get_by_test_id("square-j6").click()
    expect(page.get_by_test_id("square-j6")).to_have_attribute("data-selected", "true")
    page.get_by_test_id("square-i6").click()
    expect(page.get_by_test_id("move-1")).to_contain_text("j6i6")
    assert view_of(live_server, game_id)["version"] == 1


#: press, move and lift a finger through the browser's own touch input (so that the page would scroll if the
#: board let it); then say where the finger went
def touch_drag(page: Page, source: str, target: str) -> None:
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = centre(page, source), centre(page, target)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_on_a_phone_a_finger_drags_a_piece_without_scrolling_the_page(phone: Page, live_server: ServerProcess) -> None:
    page = phone
    created = two_humans(live_server)
    game_id, silver = created["id"], created["tokens"]["0"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={silver}")
    page.wait_for_selector(LEGAL)
    page.get_by_test_id("square-j6").scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    # a finger on a piece of one's own moves that piece, not the page (a scroll would cancel the drag)
    touch_drag(page, "j6", "j5")  # j6 down to j5 (as Silver sees the board, rank 5 is below)
    expect(page.get_by_test_id("move-1")).to_contain_text("j6j5")
    assert view_of(live_server, game_id)["version"] == 1
    assert page.evaluate("window.scrollY") == scrolled
    # Red to move: two taps choose a premove at once (no shot to pin: the position will change), played after Red
    expect(page.locator(".khet-board")).to_have_class(re.compile(r"\bpremoving\b"))  # once the move is drawn
    page.get_by_test_id("square-j5").tap()
    page.get_by_test_id("square-j4").tap()
    premove_marked(page, ["j5", "j4"])
    red_plays(live_server, game_id, created["tokens"]["1"], "b6b7")
    expect(page.get_by_test_id("move-3")).to_contain_text("j5j4")
    assert [m["move"] for m in view_of(live_server, game_id)["moves"]] == ["j6j5", "b6b7", "j5j4"]


#: Red to move: Silver may choose a premove for the Pyramid on e4; Red's e6e5 takes e5 (no premove e4e5 then),
#: b6b7 leaves it free
WAITING = "xs9/10/1ps2yw5/10/4Yn5/10/10/4Pn4Xn r 0"


def red_plays(server: ServerProcess, game_id: str, red: str, move: str) -> None:
    answer = http.post(f"{server.url}/api/games/{game_id}/moves", json={"move": move},
                        headers={"X-Seat-Token": red})
    assert answer.status_code == 200, answer.text


def premove_marked(page: Page, squares: list[str]) -> None:
    marked = page.locator("[data-testid^='square-'][data-premove='true']")
    expect(marked).to_have_count(len(squares))
    for square in squares:
        expect(page.get_by_test_id(f"square-{square}")).to_have_attribute("data-premove", "true")


def test_a_premove_is_played_as_the_turn_comes_and_a_click_or_esc_cancels_it(
        themed: Page, live_server: ServerProcess) -> None:
    page = themed
    created = two_humans(live_server, WAITING)
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={silver}")
    board = page.locator(".khet-board")
    # Red to move: Silver's pieces are offered as premoves (the server's list, as if it were Silver's turn)
    expect(board).to_have_class(re.compile(r"\bpremoving\b"))
    assert view_of(live_server, game_id, silver)["premove"]["legal_moves"].count("e4e5") == 1
    page.get_by_test_id("square-e4").click()
    expect(page.get_by_test_id("square-e5")).to_have_attribute("data-target", "true")
    page.get_by_test_id("square-f4").click()
    expect(board).to_have_attribute("data-premove", "e4f4")
    premove_marked(page, ["e4", "f4"])
    expect(page.get_by_test_id("laser-preview")).to_have_count(0)  # no shot: the position will change
    # a click anywhere on the board cancels it
    page.get_by_test_id("square-b2").click()
    expect(board).to_have_attribute("data-premove", "")
    premove_marked(page, [])
    # so does Esc
    page.get_by_test_id("square-e4").click()
    page.get_by_test_id("square-d4").click()
    premove_marked(page, ["e4", "d4"])
    tutorial = page.get_by_test_id("tutorial")  # a first Khet game: the tutorial's card is open
    expect(tutorial).to_be_visible()
    page.keyboard.press("Escape")
    premove_marked(page, [])
    expect(tutorial).to_be_visible()  # Escape cancelled the premove, and only that
    page.keyboard.press("Escape")
    expect(tutorial).to_have_count(0)  # the next one closes the card
    assert view_of(live_server, game_id)["version"] == 0  # nothing was sent

    # dragged this time; sent as soon as Red has moved, and legal: played
    drag_over(page, "e4", "e5")
    page.mouse.up()
    premove_marked(page, ["e4", "e5"])
    red_plays(live_server, game_id, red, "b6b7")
    expect(page.get_by_test_id("move-2")).to_contain_text("e4e5")
    view = view_of(live_server, game_id)
    assert view["version"] == 2 and [m["move"] for m in view["moves"]] == ["b6b7", "e4e5"]
    assert ("e5", "pyramid", 0) in {(p["square"], p["kind"], p["colour"]) for p in view["board"]["pieces"]}
    premove_marked(page, [])


def test_a_premove_no_longer_legal_is_cancelled_with_a_note(themed: Page, live_server: ServerProcess) -> None:
    page = themed
    created = two_humans(live_server, WAITING)
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={silver}")
    expect(page.locator(".khet-board")).to_have_class(re.compile(r"\bpremoving\b"))
    page.get_by_test_id("square-e4").click()
    page.get_by_test_id("square-e5").click()
    premove_marked(page, ["e4", "e5"])
    red_plays(live_server, game_id, red, "e6e5")  # Red's Pyramid now stands on e5
    expect(page.get_by_text("Premove e4e5 cancelled")).to_be_visible()
    premove_marked(page, [])
    expect(page.locator(".khet-board")).not_to_have_class(re.compile(r"\bpremoving\b"))
    view = view_of(live_server, game_id)
    assert view["version"] == 1 and view["player"] == 0  # Silver to move, nothing played for Silver
    # it is Silver's turn now: an ordinary click-click move plays
    page.get_by_test_id("square-e4").click()
    page.get_by_test_id("square-f4").click()
    expect(page.get_by_test_id("move-2")).to_contain_text("e4f4")


def test_on_the_board_turned_round_the_piece_stays_under_the_pointer(page: Page, live_server: ServerProcess) -> None:
    created = two_humans(live_server, WAITING)
    game_id, red = created["id"], created["tokens"]["1"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=1&token={red}")
    page.wait_for_selector(LEGAL)
    expect(page.locator(".khet-board")).to_have_attribute("data-flipped", "true")
    drag_over(page, "e6", "e7")
    x, y = centre(page, "e7")
    page.mouse.move(x + 9, y - 7)  # off the square's centre: the piece follows the pointer, not the squares
    box = page.get_by_test_id("piece-e6").bounding_box()
    assert box is not None
    assert abs(box["x"] + box["width"] / 2 - (x + 9)) < 6 and abs(box["y"] + box["height"] / 2 - (y - 7)) < 6
    page.mouse.up()
    expect(page.get_by_test_id("move-1")).to_contain_text("e6e7")
    assert [m["move"] for m in view_of(live_server, game_id)["moves"]] == ["e6e7"]
