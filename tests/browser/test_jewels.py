"""Jewels and Lasers in a real browser: a small game against the computer played to its end by clicking (the
placement offers only the server's squares, the man is selected and his marked targets clicked, the robots' turn
is animated); a game between two browser contexts, each clicking its own moves and seeing the other's, where the
forbidden squares say why, the rays and the piece set are switched, one move is played by keyboard, and the
players agree to stop (the player with more jewels wins)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import http
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: a short game: 8 x 8, 4 jewels, 6 walls, 2 robots, and at most 40 men's plies without a jewel
SMALL = {"size": 8, "jewels": 4, "walls": 6, "robots": 2, "cap": 40}
LEGAL = "[data-testid^='square-'][data-legal='true']"
#: what a page shows when its player may move: squares to click, or the pass button
PLAYABLE = f":is({LEGAL}, [data-testid='btn-pass'])"
#: record, in window.__drawn, Gold's man's square and the robots' squares each time the pieces are drawn again
WATCH = """() => {
  window.__drawn = [];
  const board = document.querySelector(".jewels-board");
  const seen = () => window.__drawn.push([
    board.querySelector("[data-testid='man-0']")?.dataset.square || "",
    [...board.querySelectorAll(".jw-piece.robot")].map((r) => r.dataset.square).sort().join(" ")]);
  new MutationObserver(seen).observe(board.querySelector(".jw-men"), { childList: true });
}"""
BANNER = "[data-testid='result-banner']:not([hidden])"


def view_of(server: ServerProcess, game_id: str, token: str | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return http.get(f"{server.url}/api/games/{game_id}", headers=headers).json()


def create(server: ServerProcess, seed: int, seats: list[dict[str, Any]]) -> Any:
    answer = http.post(f"{server.url}/api/games", timeout=60,
                        json={"game": "jewels", "options": SMALL, "seed": seed, "seats": seats})
    assert answer.status_code == 201, answer.text
    return answer.json()


def distance(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def choose(view: Any) -> str:
    """The test's player: take a jewel when a slide can, else slide nearest to a jewel (a placement: the first)."""
    board, legal = view["board"], view["legal_moves"]
    moves = {m: board["moves"][m] for m in legal}
    jewels = [sq for sq, kind in board["pieces"].items() if kind == "jewel"]

    def rank(move: str) -> tuple[int, int, str]:
        what = moves[move]
        if what["type"] != "slide":
            return (2 if what["type"] == "explode" else 3, 0, move)
        if what["jewel"]:
            return (0, 0, move)
        return (1, min((distance(what["to"], j) for j in jewels), default=0), move)

    if any(m["type"] == "place" for m in moves.values()):
        return sorted(legal)[0]
    return min(legal, key=rank)


def wait_turn(page: Page, after_version: int) -> None:
    """Until the page shows a position after ``after_version`` where it may move, or the game's end."""
    page.wait_for_selector(f"[data-testid='board']:not([data-version='{after_version}']) {PLAYABLE}, {BANNER}",
                           timeout=60_000)


def play_one(page: Page, view: Any) -> None:
    """Play ``view``'s chosen move by clicking: a placement square, the pass button, or the man and a target."""
    move = choose(view)
    what = view["board"]["moves"][move]
    if what["type"] == "place":
        page.get_by_test_id(f"square-{what['square']}").click()
    elif what["type"] == "pass":
        page.get_by_test_id("btn-pass").click()
    else:
        man = page.get_by_test_id(f"square-{what['from']}")
        man.click()
        expect(man).to_have_attribute("data-selected", "true")
        target = page.get_by_test_id(f"square-{what['to'] if what['type'] == 'slide' else what['wall']}")
        expect(target).to_have_attribute("data-move", move)
        expect(target).to_have_attribute("data-target", what["type"])
        target.click()


def check_placement(page: Page, view: Any) -> None:
    """The squares offered are exactly the server's placements; pointing at one shows the mirror square."""
    places = {w["square"]: w for m, w in view["board"]["moves"].items() if m in view["legal_moves"]}
    offered = {el.get_attribute("data-square") for el in page.locator(LEGAL).all()}
    assert offered == set(places) and offered
    assert all(w["type"] == "place" for w in places.values())
    square, what = sorted(places.items())[0]
    page.get_by_test_id(f"square-{square}").hover()
    expect(page.get_by_test_id("mirror-ghost")).to_have_attribute("data-square", what["mirror"])
    expect(page.get_by_test_id("jewels-info")).to_contain_text(f"goes on {what['mirror']}")


def test_a_small_game_against_the_computer_is_clicked_to_its_end(page: Page, live_server: ServerProcess) -> None:
    created = create(live_server, 11, [{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    game_id, token = created["id"], created["tokens"]["0"]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={token}")
    page.wait_for_selector(LEGAL)
    expect(page.get_by_test_id("game-options")).to_contain_text("8×8 · 4 jewels · 6 walls · 2 robots")
    check_placement(page, view_of(live_server, game_id, token))
    version = -1
    for _ in range(200):
        wait_turn(page, version)
        if page.locator(BANNER).count():
            break
        view = view_of(live_server, game_id, token)
        version = view["version"]
        assert page.get_by_test_id("board").get_attribute("data-version") == str(version) and view["player"] == 0
        # the board drawn is the server's: the men, the counting columns, what is lit
        board = view["board"]
        if board["phase"] == "men":
            expect(page.get_by_test_id("man-0")).to_have_attribute("data-square", board["men"][0])
            expect(page.get_by_test_id("column-1")).to_have_attribute("data-count", str(board["jewels"][1]))
            for square in board["lit"][:3]:
                expect(page.get_by_test_id(f"square-{square}")).to_have_attribute("data-lit", "true")
        play_one(page, view)
    expect(page.locator(BANNER)).to_be_visible()
    final = view_of(live_server, game_id)
    assert final["status"] == "finished" and final["result"] is not None
    assert any(m["player"] < 0 for m in final["moves"]), "the robots stepped"
    assert len([m for m in final["moves"] if m["player"] == 0]) >= 2, final["moves"]  # the placement, a move
    assert page.locator(LEGAL).count() == 0
    banner = page.get_by_test_id("result-banner").inner_text()
    assert re.search(r"wins|Draw", banner)


def test_two_browsers_play_each_their_moves(browser: Browser, live_server: ServerProcess) -> None:
    created = create(live_server, 5, [{"kind": "human"}, {"kind": "human"}])
    game_id, tokens = created["id"], created["tokens"]
    contexts = [open_page(browser, viewport={"width": 1280, "height": 900}) for _ in range(2)]
    gold, silver = (next(c) for c in contexts)
    try:
        for seat, page in enumerate((gold, silver)):
            page.goto(f"{live_server.url}/#/game/{game_id}?seat={seat}&token={tokens[str(seat)]}")
        gold.wait_for_selector(LEGAL)
        check_placement(gold, view_of(live_server, game_id, tokens["0"]))
        expect(silver.locator(LEGAL)).to_have_count(0)  # Gold places both men
        play_one(gold, view_of(live_server, game_id, tokens["0"]))
        expect(silver.get_by_test_id("man-1")).to_have_attribute("data-square", re.compile(r"^[A-H]\d$"))
        expect(silver.get_by_test_id("man-0")).to_have_attribute(
            "data-square", gold.get_by_test_id("man-0").get_attribute("data-square") or "")

        # Gold's first move (the same for this seed whatever the robots do later): a forbidden square says why,
        # and the move is played by keyboard; Silver's page draws the slide, then the robot's step
        pages = (gold, silver)
        check_rays(gold)
        check_piece_sets(silver)
        gold.wait_for_selector(f"[data-testid='board'][data-version='1'] {LEGAL}")
        view = view_of(live_server, game_id, tokens["0"])
        assert view["player"] == 0 and view["board"]["forbidden"], "seed 5 has a forbidden square at once"
        check_forbidden(gold, view)
        silver.evaluate(WATCH)
        assert play_by_keyboard(gold, view), "seed 5 has a one-square slide at once"
        see_move(pages, live_server, game_id, view, 0)
        after = view_of(live_server, game_id)
        robots = lambda board: " ".join(sorted(sq for sq, k in board["pieces"].items() if k == "robot"))  # noqa: E731
        drawn = [tuple(s) for s in silver.evaluate("window.__drawn")]
        steps = [s for i, s in enumerate(drawn) if i == 0 or s != drawn[i - 1]]
        man = view["board"]["men"][0]
        moved = after["board"]["men"][0]
        assert steps[0] == (moved, robots(view["board"])) and steps[-1] == (moved, robots(after["board"])), steps
        assert man != moved and robots(view["board"]) != robots(after["board"])
        for _ in range(6):
            view = view_of(live_server, game_id)
            if view["status"] != "active":
                break
            seat = view["player"]
            me = pages[seat]
            me.wait_for_selector(f"[data-testid='board'][data-version='{view['version']}'] {PLAYABLE}")
            view = view_of(live_server, game_id, tokens[str(seat)])
            play_one(me, view)
            see_move(pages, live_server, game_id, view, seat)

        view = view_of(live_server, game_id)
        if view["status"] == "active":
            # agreeing to stop: the player with more jewels wins (equal: a draw)
            offerer = pages[view["player"]]
            answerer = pages[1 - view["player"]]
            expect(offerer.get_by_test_id("btn-draw")).to_have_text("Offer to stop")
            offerer.get_by_test_id("btn-draw").click()
            expect(offerer.get_by_test_id("btn-draw")).to_have_text("Stop offered")
            expect(answerer.get_by_test_id("btn-draw-accept")).to_have_text("Accept: stop here")
            answerer.get_by_test_id("btn-draw-accept").click()
            final = view_of(live_server, game_id)
            jewels = final["board"]["jewels"]
            assert final["status"] == "finished"
            assert final["result"]["winner"] == (None if jewels[0] == jewels[1] else int(jewels[1] > jewels[0]))
        for page in pages:
            expect(page.locator(BANNER)).to_be_visible()
    finally:
        for c in contexts:
            next(c, None)


def see_move(pages: tuple[Page, Page], server: ServerProcess, game_id: str, view: Any, seat: int) -> None:
    """Both pages see the move played from ``view`` (and the robots' turn after it): the move list grows, the
    version drawn is the server's, the man stands where the server says."""
    before = len(view["moves"])
    for page in pages:
        expect(page.locator("[data-testid='move-list'] li")).not_to_have_count(before)
    after = view_of(server, game_id)
    for page in pages:
        expect(page.get_by_test_id("board")).to_have_attribute("data-version", str(after["version"]))
        if after["board"]["men"][seat]:
            expect(page.get_by_test_id(f"man-{seat}")).to_have_attribute("data-square", after["board"]["men"][seat])


def check_forbidden(page: Page, view: Any) -> None:
    """With the man selected, a forbidden square is crossed and says why (its title, and the bar when pointed at)."""
    man = view["board"]["men"][view["player"]]
    forbidden = view["board"]["forbidden"][0]
    square = page.get_by_test_id(f"square-{forbidden['square']}")
    expect(square).to_have_attribute("data-forbidden", "")
    page.get_by_test_id(f"square-{man}").click()
    expect(square).to_have_attribute("data-forbidden", forbidden["reason"])
    expect(square.locator("title")).to_contain_text(forbidden["reason"])
    square.hover()
    expect(page.get_by_test_id("jewels-info")).to_contain_text(forbidden["reason"])
    expect(page.locator(".jw-mark-cross")).to_have_count(len(view["board"]["forbidden"]))
    page.get_by_test_id("select-cancel").click()
    expect(page.get_by_test_id(f"square-{man}")).to_have_attribute("data-selected", "false")


def play_by_keyboard(page: Page, view: Any) -> bool:
    """Enter on the man selects him, an arrow key walks to the square next to him, Enter plays that slide (when
    the chosen move is a one-square slide). False when there is none."""
    board = view["board"]
    man = board["men"][view["player"]]
    near = sorted(m for m in view["legal_moves"]
                  if board["moves"][m]["type"] == "slide" and distance(board["moves"][m]["to"], man) == 1)
    if not near:
        return False
    move = near[0]
    to = board["moves"][move]["to"]
    key = ("ArrowRight" if to[0] > man[0] else "ArrowLeft") if to[0] != man[0] else (
        "ArrowDown" if int(to[1:]) > int(man[1:]) else "ArrowUp")
    page.get_by_test_id(f"square-{man}").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id(f"square-{man}")).to_have_attribute("data-selected", "true")
    page.keyboard.press(key)
    expect(page.get_by_test_id("jewels-info")).to_contain_text(f"{to}: slide here ({move})")
    page.keyboard.press("Enter")
    return True


def check_rays(page: Page) -> None:
    """The rays toggle (button and key R) hides and shows the rays; the choice is kept."""
    rays = page.get_by_test_id("rays")
    board = view_of_page(page)
    expect(rays).to_have_attribute("data-shown", "true")
    expect(page.locator(".jw-ray")).to_have_count(len(board["rays"]))
    assert board["rays"], "the robots have rays"
    page.get_by_test_id("btn-rays").click()
    expect(rays).to_have_attribute("data-shown", "false")
    expect(page.locator(".jw-ray")).to_have_count(0)
    page.reload()
    expect(page.get_by_test_id("rays")).to_have_attribute("data-shown", "false")
    page.keyboard.press("r")
    expect(page.get_by_test_id("rays")).to_have_attribute("data-shown", "true")
    expect(page.locator(".jw-ray")).to_have_count(len(board["rays"]))


def view_of_page(page: Page) -> Any:
    """The board the page's own game view has, asked of the server the page talks to."""
    game_id = page.url.rsplit("/", 1)[1]
    base = page.url.split("/#/")[0]
    return http.get(f"{base}/api/games/{game_id}").json()["board"]


def check_piece_sets(page: Page) -> None:
    """The piece-set switch draws the colourful set (cut gems) and back; the choice is kept."""
    board = page.locator(".jewels-board")
    expect(board).to_have_attribute("data-piece-set", "classic")
    jewels = page.locator(".jw-piece.jewel")
    count = jewels.count()
    expect(page.locator(".jw-gem")).to_have_count(0)
    page.get_by_test_id("btn-piece-set").click()
    expect(board).to_have_attribute("data-piece-set", "colourful")
    expect(page.locator(".jw-gem")).to_have_count(count)
    page.reload()
    expect(page.locator(".jewels-board")).to_have_attribute("data-piece-set", "colourful")
    page.get_by_test_id("btn-piece-set").click()
    expect(page.locator(".jewels-board")).to_have_attribute("data-piece-set", "classic")
    expect(page.locator(".jw-gem")).to_have_count(0)


def test_the_man_is_dragged_to_a_target_and_back_from_anywhere_else(page: Page, live_server: ServerProcess) -> None:
    created = create(live_server, 5, [{"kind": "human"}, {"kind": "human"}])
    game_id, tokens = created["id"], created["tokens"]
    # the placement over the API, until Gold's man may move
    view = view_of(live_server, game_id)
    while view["board"]["phase"] != "men" or view["player"] != 0:
        mover = view["player"]
        answer = http.post(f"{live_server.url}/api/games/{game_id}/moves", timeout=30,
                            json={"move": view_of(live_server, game_id, tokens[str(mover)])["legal_moves"][0]},
                            headers={"X-Seat-Token": tokens[str(mover)]})
        assert answer.status_code == 200, answer.text
        view = view_of(live_server, game_id)
    seated = view_of(live_server, game_id, tokens["0"])
    moves = {m: seated["board"]["moves"][m] for m in seated["legal_moves"]}
    slides = sorted((m for m, w in moves.items() if w["type"] == "slide"), key=lambda m: -len(moves[m]["path"]))
    move = slides[0]
    what = moves[move]
    page.goto(f"{live_server.url}/#/game/{game_id}?seat=0&token={tokens['0']}")
    page.wait_for_selector(LEGAL)

    def centre(square: str) -> tuple[float, float]:
        box = page.get_by_test_id(f"square-{square}").bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    man = page.get_by_test_id("man-0")
    home = man.get_attribute("transform")
    # over a square he may not reach, then let go: he goes back and nothing is played
    unreachable = next(f["square"] for f in seated["board"]["forbidden"]) if seated["board"]["forbidden"] else None
    elsewhere = unreachable or next(sq for sq in ("A1", "H8", "A8", "H1") if sq != what["from"] and sq not in
                                    {w.get("to") for w in moves.values()})
    page.mouse.move(*centre(what["from"]))
    page.mouse.down()
    page.mouse.move(*centre(elsewhere), steps=8)
    expect(man).to_have_class(re.compile(r"\bdragging\b"))
    page.mouse.up()
    assert man.get_attribute("transform") == home
    assert view_of(live_server, game_id)["version"] == view["version"]
    # dragged over a target: its path is shown; dropped there: played
    page.mouse.move(*centre(what["from"]))
    page.mouse.down()
    page.mouse.move(*centre(what["to"]), steps=8)
    for square in what["path"]:
        expect(page.get_by_test_id(f"square-{square}")).to_have_class(re.compile(r"\bpath\b"))
    expect(page.get_by_test_id("jewels-info")).to_contain_text(f"{what['to']}: slide here ({move})")
    page.mouse.up()
    expect(page.get_by_test_id("move-list")).to_contain_text(move)
    after = view_of(live_server, game_id)
    assert after["version"] > view["version"] and after["board"]["men"][0] == what["to"]
