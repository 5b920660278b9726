"""Khet in a real browser: a position built in the setup editor, played to its end against the computer by
clicking (the laser preview under the pointer is the engine's shot, the shot is animated, a removed piece goes),
its replay, the editor's dragging, checking, quiet count and repetition draws claimed by a button, a game on a
touch screen (a first tap shows the shot, a second plays it), and a move drawn step by step from the boards the
server sent (the piece moved before the shot, then the piece removed)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: Silver's first shot removes the Red Pyramid on e6 (j1 up to j6, then west); Red's Pharaoh waits on b6
DUEL = "xs9/10/1ps2yw4Ys/10/10/10/10/4Pn4Xn s 0"
SHUFFLE = "xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0"
LEGAL = "[data-testid^='square-'][data-legal='true']"
BANNER = "[data-testid='result-banner']:not([hidden])"


def view_of(server: ServerProcess, game_id: str, token: str | None = None) -> Any:
    """The game's view; with a seat's ``token`` (a spectator's view has no laser previews)."""
    headers = {"X-Seat-Token": token} if token else {}
    return http.get(f"{server.url}/api/games/{game_id}", headers=headers).json()


def token_in(page: Page, game_id: str, seat: int) -> str:
    """The token of ``seat`` that the page's browser keeps."""
    token = page.evaluate(f"JSON.parse(localStorage.getItem('damier.seats.{game_id}')).tokens['{seat}']")
    assert isinstance(token, str)
    return token


def game_id_of(page: Page) -> str:
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def finished(page: Page) -> bool:
    return page.get_by_test_id("result-banner").is_visible()


def wait_valid(page: Page) -> None:
    expect(page.get_by_test_id("editor-status")).to_have_attribute("data-valid", "true")


def build_duel_in_the_editor(page: Page, base: str) -> None:
    """From the Classic setup: keep the Sphinxes and Pharaohs, walk Red's Pharaoh to b6, add a Red Pyramid on e6
    facing west and a Silver Pyramid on j6 facing south."""
    page.goto(f"{base}/#/editor/khet")
    wait_valid(page)
    page.get_by_test_id("editor-clear").click()
    # the palette is the game's: what is left of each side's limits, all but the required pieces
    catalog = http.get(f"{base}/api/catalog").json()
    palette = next(g for g in catalog if g["name"] == "khet")["client"]["palette"]
    for piece in palette["pieces"]:
        button = page.get_by_test_id(f"palette-{piece['colour']}-{piece['kind']}")
        expect(button).to_have_attribute("data-left", str(piece["limit"] - (1 if piece["required"] else 0)))
    page.get_by_test_id("square-f8").click()  # pick up Red's Pharaoh
    page.get_by_test_id("square-b6").click()  # and put it down
    expect(page.get_by_test_id("square-b6")).to_have_attribute("data-piece", "pharaoh")
    page.get_by_test_id("palette-1-pyramid").click()
    page.get_by_test_id("square-e6").click()  # placed facing south, selected
    page.get_by_test_id("editor-rotate-cw").click()  # S -> W
    page.get_by_test_id("palette-0-pyramid").click()
    page.get_by_test_id("square-j6").click()  # placed facing north
    page.get_by_test_id("editor-rotate-cw").click()
    page.get_by_test_id("editor-rotate-cw").click()  # N -> E -> S
    expect(page.get_by_test_id("square-j6")).to_have_attribute("data-facing", "S")
    expect(page.get_by_test_id("editor-position")).to_have_value(DUEL)
    wait_valid(page)


def choose(previews: dict[str, Any]) -> str:
    """Silver's move: take the Red Pharaoh if a shot can, else a Red piece, else a harmless move."""

    def rank(move: str) -> int:
        removed = previews[move]["removed"]
        if removed is None:
            return 2
        if removed["colour"] == 1:
            return 0 if removed["kind"] == "pharaoh" else 1
        return 4 if removed["kind"] == "pharaoh" else 3

    return min(sorted(previews), key=rank)


def point_at(page: Page, move: str) -> None:
    """Select the piece of ``move`` and point at its target square or its turn button."""
    source, target = move[:2], move[2:]
    page.get_by_test_id(f"square-{source}").click()
    if target in ("+", "-"):
        page.locator(f"[data-testid^='rotate-'][data-move='{move}']").hover()
    else:
        page.get_by_test_id(f"square-{target}").hover()


def check_preview(page: Page, move: str, beam: dict[str, Any]) -> None:
    """The preview drawn is the engine's shot for ``move``."""
    preview = page.get_by_test_id("laser-preview")
    expect(preview).to_have_attribute("data-move", move)
    assert preview.get_attribute("data-squares") == " ".join(beam["squares"])
    assert preview.get_attribute("data-stop") == beam["stop"]
    assert preview.get_attribute("data-removed") == (beam["removed"]["square"] if beam["removed"] else "")


def test_a_game_from_the_editor_played_to_its_end_against_the_computer(page: Page, live_server: ServerProcess) -> None:
    build_duel_in_the_editor(page, live_server.url)
    page.get_by_test_id("option-quiet_ply_limit").fill("12")  # so the game surely ends
    page.get_by_test_id("seat-0-kind").select_option("human")
    page.get_by_test_id("seat-1-kind").select_option("computer")
    page.get_by_test_id("seat-1-level").select_option("easy")
    page.get_by_test_id("editor-start").click()
    game_id = game_id_of(page)
    silver = token_in(page, game_id, 0)
    view = view_of(live_server, game_id, silver)
    assert view["position"] == DUEL and view["options"]["quiet_ply_limit"] == 12
    expect(page.get_by_test_id("game-options")).to_contain_text("Custom position")  # not "Classic setup"

    # a turn button shows its shot too (the Pyramid on j6 turned clockwise would send the laser east, off the board)
    page.wait_for_selector(LEGAL)
    point_at(page, "j6+")
    check_preview(page, "j6+", view["board"]["previews"]["j6+"])
    page.get_by_test_id("select-cancel").click()

    removed_seen = False
    for _ in range(30):
        page.wait_for_selector(f"{LEGAL}, {BANNER}")
        if finished(page):
            break
        version = int(page.get_by_test_id("board").get_attribute("data-version") or -1)
        view = view_of(live_server, game_id, silver)
        assert view["version"] == version and view["player"] == 0
        previews = view["board"]["previews"]
        assert sorted(previews) == sorted(view["legal_moves"])
        move = choose(previews)
        point_at(page, move)
        check_preview(page, move, previews[move])
        taken = previews[move]["removed"]
        if taken and taken["colour"] == 1:
            words = "Wins the game" if taken["kind"] == "pharaoh" else "The laser removes the Red"
            expect(page.get_by_test_id("laser-preview-text")).to_contain_text(words)
        before = page.locator("[data-testid='move-list'] li").count()
        if move[2:] in ("+", "-"):
            page.locator(f"[data-testid^='rotate-'][data-move='{move}']").click()
        else:
            page.get_by_test_id(f"square-{move[2:]}").click()
        page.wait_for_selector("[data-testid='laser-beam']", state="attached")  # the shot is animated
        expect(page.locator("[data-testid='move-list'] li")).not_to_have_count(before)
        removed = previews[move]["removed"]
        if removed:
            expect(page.get_by_test_id(f"piece-{removed['square']}")).to_have_count(0)
            removed_seen = True
    expect(page.get_by_test_id("result-banner")).to_be_visible()
    final = view_of(live_server, game_id)
    assert final["status"] == "finished" and final["result"] is not None
    assert removed_seen
    assert page.locator(LEGAL).count() == 0
    banner = page.get_by_test_id("result-banner").inner_text()
    assert ("Silver wins" in banner) if final["result"]["winner"] == 0 else ("wins" in banner or "Draw" in banner)

    # the replay shows the board and the shots
    page.goto(f"{live_server.url}/#/replay/{game_id}")
    expect(page.get_by_test_id("game-options")).to_contain_text("Custom position")
    page.get_by_test_id("replay-first").click()
    expect(page.get_by_test_id("replay-ply")).to_have_attribute("data-ply", "0")
    expect(page.get_by_test_id("piece-e6")).to_have_count(1)
    page.get_by_test_id("replay-next").click()
    page.wait_for_selector("[data-testid='laser-beam']", state="attached")
    expect(page.get_by_test_id("replay-ply")).to_have_attribute("data-ply", "1")
    expect(page.get_by_test_id("last-beam")).to_have_attribute("data-removed", "e6")
    expect(page.get_by_test_id("removed-mark")).to_have_attribute("data-square", "e6")
    expect(page.get_by_test_id("piece-e6")).to_have_count(0)
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("result-banner")).to_be_visible()


def test_the_editor_drags_checks_and_starts_a_game_where_a_repetition_is_claimed(
        page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/new/khet")
    page.get_by_test_id("preset-imhotep").click()
    page.get_by_test_id("option-repetition").select_option("claim")
    page.get_by_test_id("setup-editor-link").click()
    wait_valid(page)
    assert page.get_by_test_id("option-repetition").input_value() == "claim"  # the options came along
    expect(page.get_by_test_id("square-c1")).to_have_attribute("data-piece", "scarab")  # the Imhotep setup

    # drag a piece to another square
    source = page.get_by_test_id("square-d3").bounding_box()
    target = page.get_by_test_id("square-d2").bounding_box()
    assert source and target
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=6)
    page.mouse.up()
    expect(page.get_by_test_id("square-d2")).to_have_attribute("data-piece", "pyramid")
    expect(page.get_by_test_id("square-d3")).to_have_attribute("data-piece", "")
    wait_valid(page)

    # a position the server refuses says why, and cannot be started
    text = page.get_by_test_id("editor-position")
    text.fill(SHUFFLE.replace("4Pn4Xn", "Yn3Pn4Xn"))
    page.get_by_test_id("editor-load").click()
    expect(page.get_by_test_id("editor-status")).to_have_attribute("data-valid", "false")
    expect(page.get_by_test_id("editor-status")).to_contain_text("a1 is reserved for Red")
    expect(page.get_by_test_id("editor-start")).to_be_disabled()

    # a pasted position keeps its quiet count (and a count the limit forbids is refused)
    text.fill(SHUFFLE.replace(" s 0", " s 37"))
    page.get_by_test_id("editor-load").click()
    wait_valid(page)
    expect(page.get_by_test_id("editor-quiet")).to_have_value("37")
    expect(text).to_have_value(SHUFFLE.replace(" s 0", " s 37"))
    page.get_by_test_id("editor-quiet").fill("100")
    expect(page.get_by_test_id("editor-status")).to_have_attribute("data-valid", "false")
    expect(page.get_by_test_id("editor-status")).to_contain_text("100 quiet plies")
    page.get_by_test_id("editor-quiet").fill("0")

    text.fill(SHUFFLE)
    page.get_by_test_id("editor-load").click()
    wait_valid(page)
    page.get_by_test_id("editor-side").select_option("1")
    expect(text).to_have_value(SHUFFLE.replace(" s ", " r "))
    wait_valid(page)
    expect(page.get_by_test_id("editor-status")).to_contain_text("Red to move")
    page.get_by_test_id("seat-1-kind").select_option("human")
    page.get_by_test_id("editor-start").click()
    game_id = game_id_of(page)
    view = view_of(live_server, game_id)
    assert view["position"] == SHUFFLE.replace(" s ", " r ") and view["player"] == 1
    assert view["options"]["repetition"] == "claim"

    # both seats on this device; Red's first move by keyboard (Enter selects, an arrow points, Enter plays)
    page.get_by_test_id("invite-local-1").click()
    page.wait_for_selector(LEGAL)
    page.get_by_test_id("square-f8").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("laser-preview")).to_have_attribute("data-move", "f8f7")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("move-1")).to_contain_text("f8f7")
    shuffle = ["e1e2", "f7f8", "e2e1", "f8f7", "e1e2", "f7f8", "e2e1"]
    for ply, move in enumerate(shuffle, start=2):
        page.wait_for_selector(f"[data-testid='board'][data-version='{ply - 1}'] {LEGAL}")
        page.get_by_test_id(f"square-{move[:2]}").click()
        page.get_by_test_id(f"square-{move[2:]}").click()
        expect(page.get_by_test_id(f"move-{ply}")).to_contain_text(move)
    # the third time Red is to move here: a draw may be claimed
    expect(page.get_by_test_id("btn-claim")).to_be_visible()
    expect(page.get_by_test_id("khet-counters")).to_contain_text("3 times")
    page.get_by_test_id("btn-claim").click()
    expect(page.get_by_test_id("result-banner")).to_be_visible()
    expect(page.get_by_test_id("result-banner")).to_contain_text("Draw")
    assert view_of(live_server, game_id)["result"]["winner"] is None


#: DUEL with a Silver Scarab on f1 beside the Pharaoh and a Silver Pyramid on f2, which the Scarab may swap with
TOUCH = "xs9/10/1ps2yw4Ys/10/10/10/5Yn4/4PnSe3Xn s 0"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page on a touch screen (no hover: a finger only taps)."""
    yield from open_page(browser, viewport={"width": 412, "height": 915}, has_touch=True, is_mobile=True)


def test_on_a_touch_screen_a_first_tap_shows_the_shot_and_a_second_plays_it(
        phone: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "start": TOUCH, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    page = phone
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={silver}")
    page.wait_for_selector(LEGAL)
    previews = view_of(live_server, game_id, silver)["board"]["previews"]
    preview_text = page.get_by_test_id("laser-preview-text")

    # the Scarab's swap with its own Pyramid: a tap shows it and does not play it; the Pyramid can be picked instead
    page.get_by_test_id("square-f1").tap()
    expect(page.get_by_test_id("square-f2")).to_have_attribute("data-target", "true")
    page.get_by_test_id("square-f2").tap()
    check_preview(page, "f1f2", previews["f1f2"])
    expect(page.get_by_test_id("preview-play")).to_have_text("Play f1f2")
    page.get_by_test_id("select-instead").tap()
    expect(page.get_by_test_id("square-f2")).to_have_attribute("data-selected", "true")
    expect(page.get_by_test_id("laser-preview")).to_have_count(0)
    # another of one's pieces that is no target is selected at once
    page.get_by_test_id("square-j6").tap()
    expect(page.get_by_test_id("square-j6")).to_have_attribute("data-selected", "true")

    # a step: the first tap pins the shot (drawn, and said in the bar), the second tap on it plays it
    page.get_by_test_id("square-e1").tap()
    page.get_by_test_id("square-e2").tap()
    check_preview(page, "e1e2", previews["e1e2"])
    expect(preview_text).to_contain_text("e1e2: The laser removes the Red Pyramid on e6")
    expect(page.get_by_test_id("square-e2")).to_have_class(re.compile(r"\bpinned\b"))
    page.wait_for_timeout(300)
    assert view_of(live_server, game_id)["version"] == 0  # nothing played yet
    expect(page.locator("[data-testid='move-list'] li")).to_have_count(0)
    page.get_by_test_id("square-e2").tap()
    expect(page.get_by_test_id("move-1")).to_contain_text("e1e2")
    expect(page.get_by_test_id("piece-e6")).to_have_count(0)
    assert view_of(live_server, game_id)["version"] == 1

    # Red answers from elsewhere; then a turn button: the first tap shows, the bar's Play button plays
    red_moves = view_of(live_server, game_id, red)["board"]["previews"]
    harmless = sorted(m for m, beam in red_moves.items() if beam["removed"] is None)[0]
    answer = http.post(f"{live_server.url}/api/games/{game_id}/moves", json={"move": harmless},
                        headers={"X-Seat-Token": red})
    assert answer.status_code == 200, answer.text
    page.wait_for_selector(f"[data-testid='board'][data-version='2'] {LEGAL}")
    previews = view_of(live_server, game_id, silver)["board"]["previews"]
    page.get_by_test_id("square-j6").tap()
    page.locator("[data-testid='rotate-cw'][data-move='j6+']").tap()
    check_preview(page, "j6+", previews["j6+"])
    expect(page.locator("[data-testid='rotate-cw'][data-move='j6+']")).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)
    assert view_of(live_server, game_id)["version"] == 2
    page.get_by_test_id("preview-play").tap()
    expect(page.get_by_test_id("move-3")).to_contain_text("j6+")
    assert view_of(live_server, game_id)["version"] == 3


#: record, in window.__seen, the squares of the pieces drawn each time the pieces are drawn again
WATCH_PIECES = """() => {
  window.__seen = [];
  const layer = document.querySelector(".khet-board .pieces");
  new MutationObserver(() => window.__seen.push([...layer.children].map((p) => p.dataset.square).sort().join(" ")))
    .observe(layer, { childList: true });
}"""


def test_a_move_is_drawn_with_the_boards_the_server_sent(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "start": DUEL, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    page.goto(f"{live_server.url}/#/game/{created['id']}?seat=0&token={created['tokens']['0']}")
    page.wait_for_selector(LEGAL)
    page.evaluate(WATCH_PIECES)
    page.get_by_test_id("square-e1").click()
    page.get_by_test_id("square-e2").click()
    page.wait_for_selector("[data-testid='laser-beam']", state="attached")
    expect(page.get_by_test_id("piece-e6")).to_have_count(0)
    page.wait_for_function("() => !document.querySelector('.khet-board.animating')")
    events = view_of(live_server, created["id"])["events"]
    assert [e["type"] for e in events] == ["step", "laser", "remove"]
    # the Pharaoh on e2 and the Red Pyramid still on e6 while the laser crosses; then the Pyramid is gone
    drawn = page.evaluate("window.__seen")
    assert [s for i, s in enumerate(drawn) if i == 0 or s != drawn[i - 1]] == ["a8 b6 e2 e6 j1 j6", "a8 b6 e2 j1 j6"]


def test_on_a_phone_the_editors_palette_is_right_under_the_board(phone: Page, live_server: ServerProcess) -> None:
    phone.goto(f"{live_server.url}/#/editor/khet")
    expect(phone.get_by_test_id("editor-status")).to_have_attribute("data-valid", "true")  # the board is drawn
    expect(phone.get_by_test_id("palette-panel")).to_be_visible()
    board = phone.get_by_test_id("board").bounding_box()
    palette = phone.get_by_test_id("palette-panel").bounding_box()
    start = phone.get_by_test_id("editor-start").bounding_box()
    assert board is not None and palette is not None and start is not None
    assert board["y"] + board["height"] <= palette["y"] < board["y"] + board["height"] + 200
    assert palette["y"] < start["y"]  # before the panel that starts a game, and the others
