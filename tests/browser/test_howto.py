"""The How to play pages in a real browser: every game's page opens from its home card, its diagrams are drawn by
the game's board view from the server's boards and its examples play (and replay); the page is linked from the game
page; Khet's first-game tutorial shows on the first Khet game only, points at the board, closes with Escape or its
button without blocking play, and is reopened from the How to play page; in both themes and at a phone's size
(with reduced motion asked for there)."""

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

PHONE = {"width": 390, "height": 844}


def catalog(base: str) -> list[dict[str, Any]]:
    return [e for e in http.get(f"{base}/api/catalog", timeout=30).json() if "howto" in e["features"]]


def howto(base: str, game: str) -> dict[str, Any]:
    page: dict[str, Any] = http.get(f"{base}/api/catalog/{game}/howto", timeout=60).json()
    return page


def diagrams(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for s in doc["sections"] for d in s["diagrams"]]


def themed(browser: Browser, theme: str, **options: Any) -> Iterator[Page]:
    """A page whose theme is chosen before any script runs (the toggle keeps it in localStorage)."""
    pages = open_page(browser, **options)
    page = next(pages)
    page.context.add_init_script(f"try {{ localStorage.setItem('damier.theme', '{theme}') }} catch (e) {{}}")
    yield page
    yield from pages


@pytest.fixture
def dark_phone(browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    """A phone in the dark theme whose player asked for reduced motion (the examples still play, in short steps)."""
    yield from themed(browser, "dark", viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce")


@pytest.fixture
def light_page(browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    yield from themed(browser, "light", viewport={"width": 1280, "height": 800})


def check_page(page: Page, base: str, entry: dict[str, Any]) -> None:
    """Open the game's page from its home card; every diagram drawn, every example played to its end and
    replayed."""
    name = entry["name"]
    doc = howto(base, name)
    page.goto(f"{base}/#/")
    page.get_by_test_id(f"howto-link-{name}").click()
    page.wait_for_url(re.compile(rf".*#/howto/{name}$"))
    root = page.get_by_test_id("howto-page")
    expect(root).to_have_attribute("data-game", name)
    expect(page.locator("h1")).to_have_text(f"How to play {entry['title']}")
    expect(page.get_by_test_id("howto-summary")).to_have_text(doc["summary"])
    expect(root.locator("section.howto-section")).to_have_count(len(doc["sections"]))
    for index, d in enumerate(diagrams(doc)):
        figure = page.get_by_test_id(f"howto-diagram-{index}")
        board = page.get_by_test_id(f"howto-board-{index}")
        expect(figure.locator("figcaption")).to_have_text(d["caption"])
        # the game's board view drew it: its SVG, a square per square of the server's board
        expect(board.locator("svg").first).to_be_visible()
        assert board.locator("[data-testid^='square-']").count() >= 16
        if not d["animated"]:
            continue
        figure.scroll_into_view_if_needed()
        expect(figure).to_have_attribute("data-state", "done", timeout=30_000)  # played once on sight
        expect(figure).to_have_attribute("data-plays", "1")
        page.get_by_test_id(f"howto-replay-{index}").click()
        expect(figure).to_have_attribute("data-plays", "2", timeout=30_000)
        expect(figure).to_have_attribute("data-state", "done")
    # nothing wider than the screen (a phone's, too)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_every_game_s_rules_open_from_its_card_drawn_and_played_in_the_light_theme(
        light_page: Page, live_server: ServerProcess) -> None:
    entries = catalog(live_server.url)
    assert {e["name"] for e in entries} == {e["name"] for e in http.get(f"{live_server.url}/api/catalog").json()}
    for entry in entries:
        check_page(light_page, live_server.url, entry)
    assert light_page.evaluate("document.documentElement.dataset.theme") == "light"


def test_every_game_s_rules_on_a_phone_in_the_dark_theme_with_reduced_motion(dark_phone: Page,
                                                                            live_server: ServerProcess) -> None:
    assert dark_phone.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    for entry in catalog(live_server.url):
        check_page(dark_phone, live_server.url, entry)
        for board in dark_phone.locator(".howto-board svg").all():
            box = board.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
    assert dark_phone.evaluate("document.documentElement.dataset.theme") == "dark"


def test_the_khet_examples_draw_the_server_s_boards(page: Page, live_server: ServerProcess) -> None:
    """The shot's piece is on its square before the example and gone after it, as the server's boards say; the
    board view drew the beam meanwhile."""
    doc = howto(live_server.url, "khet")
    page.goto(f"{live_server.url}/#/howto/khet")
    for index, d in enumerate(diagrams(doc)):
        if not d["animated"]:
            continue
        removed = next(e for e in d["events"] if e["type"] == "laser")["removed"]["square"]
        board = page.get_by_test_id(f"howto-board-{index}")
        page.get_by_test_id(f"howto-diagram-{index}").scroll_into_view_if_needed()
        expect(page.get_by_test_id(f"howto-diagram-{index}")).to_have_attribute("data-state", "done")
        expect(board.get_by_test_id(f"square-{removed}")).to_have_attribute("data-piece", "")
        page.get_by_test_id(f"howto-replay-{index}").click()
        expect(board.get_by_test_id("laser-beam")).to_have_attribute("data-removed", removed)
        expect(page.get_by_test_id(f"howto-diagram-{index}")).to_have_attribute("data-state", "done")
        expect(board.get_by_test_id(f"square-{removed}")).to_have_attribute("data-piece", "")
        before = {p["square"]: p["kind"] for p in d["board"]["pieces"]}
        after = {p["square"]: p["kind"] for p in d["after"]["pieces"]}
        assert before[removed] and removed not in after
        for square, kind in after.items():
            expect(board.get_by_test_id(f"square-{square}")).to_have_attribute("data-piece", kind)


def test_an_unknown_game_s_rules_say_so(page: Page, live_server: ServerProcess) -> None:
    page.goto(f"{live_server.url}/#/howto/nosuchgame")
    expect(page.get_by_test_id("howto-error")).to_contain_text("No rules to show")
    expect(page.get_by_test_id("howto-error")).to_contain_text("unknown game 'nosuchgame'")


def start_khet(page: Page, base: str) -> str:
    page.goto(f"{base}/#/")
    page.get_by_test_id("quick-play-khet").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    expect(page.locator("[data-testid^='square-'][data-legal='true']").first).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def play_a_step(page: Page) -> None:
    """Select Silver's pieces in turn until one has a square to go to, and step there."""
    targets = page.locator("[data-testid^='square-'][data-target='true']")
    if not targets.count():
        own = page.locator("[data-testid^='square-'][data-colour='0'][data-legal='true']")
        for i in range(own.count()):
            own.nth(i).click()
            if targets.count():
                break
    targets.first.click()


def test_the_khet_tutorial_on_the_first_game_only(light_page: Page, live_server: ServerProcess) -> None:
    page, base = light_page, live_server.url
    steps = howto(base, "khet")["tutorial"]
    start_khet(page, base)
    tutorial = page.get_by_test_id("tutorial")
    expect(tutorial).to_be_visible()
    expect(tutorial.locator("h2")).to_have_text(steps[0]["title"])
    expect(page.get_by_test_id("tutorial-step")).to_have_text(f"Step 1 of {len(steps)}")
    own = page.locator("[data-testid^='square-'][data-colour='0'][data-legal='true']")
    expect(page.locator(".tutorial-spots")).to_have_attribute("data-count", str(own.count()))
    # the board stays playable under the tutorial: select a piece, the next step rings its targets
    own.first.click()
    page.get_by_test_id("tutorial-next").click()
    expect(tutorial.locator("h2")).to_have_text(steps[1]["title"])
    targets = page.locator("[data-testid^='square-'][data-target='true']")
    expect(page.locator(".tutorial-spots")).to_have_attribute("data-count", str(targets.count()))
    page.get_by_test_id("tutorial-back").click()
    expect(tutorial.locator("h2")).to_have_text(steps[0]["title"])
    for step in steps[1:]:
        page.get_by_test_id("tutorial-next").click()
        expect(tutorial.locator("h2")).to_have_text(step["title"])
        # each step finds what it points at (the whole board is only the fallback)
        page.wait_for_function("""() => {
            const board = document.querySelector("[data-testid='board']").getBoundingClientRect();
            const rings = [...document.querySelectorAll(".tutorial-spot")];
            return rings.length && rings.every((r) => r.getBoundingClientRect().width < board.width * 0.6);
        }""")
    # the goal: the Red Pharaoh ringed
    expect(page.locator(".tutorial-spots")).to_have_attribute("data-count", "1")
    page.wait_for_function("""() => {
        const ring = document.querySelector(".tutorial-spot").getBoundingClientRect();
        const square = document.querySelector("[data-testid^='square-'][data-piece='pharaoh'][data-colour='1']")
            .getBoundingClientRect();
        return Math.abs(ring.x + ring.width / 2 - square.x - square.width / 2) < 4
            && Math.abs(ring.y + ring.height / 2 - square.y - square.height / 2) < 4;
    }""")
    expect(page.get_by_test_id("tutorial-next")).to_have_text("Done")
    page.keyboard.press("Escape")
    expect(tutorial).to_have_count(0)
    expect(page.locator(".tutorial-spots")).to_have_count(0)
    # Escape went to the tutorial only, and play goes on: a move by clicking
    play_a_step(page)
    expect(page.locator("[data-testid='move-list'] li")).not_to_have_count(0)
    # the How to play link of the game page
    page.get_by_test_id("howto-link").click()
    page.wait_for_url(re.compile(r".*#/howto/khet$"))
    expect(page.get_by_test_id("howto-page")).to_be_visible()
    # the next Khet game has no tutorial
    start_khet(page, base)
    page.wait_for_timeout(1000)  # time for a tutorial that should not come (it would be asked for at once)
    expect(page.get_by_test_id("tutorial")).to_have_count(0)
    # reopened from the How to play page: a new game with it; closed by its button this time
    page.goto(f"{base}/#/howto/khet")
    page.get_by_test_id("howto-tutorial").click()
    page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
    expect(tutorial).to_be_visible()
    expect(tutorial.locator("h2")).to_have_text(steps[0]["title"])
    page.get_by_test_id("tutorial-close").click()
    expect(tutorial).to_have_count(0)
    page.reload()
    expect(page.locator("[data-testid^='square-'][data-legal='true']").first).to_be_visible()
    page.wait_for_timeout(1000)
    expect(page.get_by_test_id("tutorial")).to_have_count(0)


def test_the_khet_tutorial_on_a_phone_in_the_dark_theme(dark_phone: Page, live_server: ServerProcess) -> None:
    page = dark_phone
    start_khet(page, live_server.url)
    card = page.get_by_test_id("tutorial")
    expect(card).to_be_visible()
    box = card.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] + box["height"] <= PHONE["height"]
    page.get_by_test_id("tutorial-next").tap()
    expect(page.get_by_test_id("tutorial-step")).to_have_text(re.compile(r"Step 2 of \d"))
    expect(page.get_by_test_id("tutorial-next")).to_be_focused()  # the keyboard follows the steps
    page.keyboard.press("Escape")
    expect(card).to_have_count(0)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"


def test_the_rules_are_linked_from_the_puzzle_and_new_game_pages(page: Page, live_server: ServerProcess) -> None:
    for entry in catalog(live_server.url):
        page.goto(f"{live_server.url}/#/new/{entry['name']}")
        page.get_by_test_id("howto-link").click()
        page.wait_for_url(re.compile(rf".*#/howto/{entry['name']}$"))
        expect(page.get_by_test_id("howto-page")).to_have_attribute("data-game", entry["name"])


def test_the_rules_are_linked_from_the_race_and_puzzle_game_pages(page: Page, live_server: ServerProcess) -> None:
    for entry in catalog(live_server.url):
        if "race" not in entry["features"]:
            continue
        race = http.post(f"{live_server.url}/api/races", json={"game": entry["name"], "name": "Ann"}, timeout=60)
        assert race.status_code == 201, race.text
        page.goto(f"{live_server.url}/#/race/{race.json()['id']}")
        page.get_by_test_id("howto-link").click()
        page.wait_for_url(re.compile(rf".*#/howto/{entry['name']}$"))
        page.goto(f"{live_server.url}/#/")
        page.get_by_test_id(f"quick-play-{entry['name']}").click()  # a puzzle's game page
        page.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
        page.get_by_test_id("howto-link").click()
        page.wait_for_url(re.compile(rf".*#/howto/{entry['name']}$"))
        expect(page.get_by_test_id("howto-page")).to_have_attribute("data-game", entry["name"])


def test_no_tutorial_for_someone_watching(page: Page, live_server: ServerProcess) -> None:
    """A watcher (no seat) of this browser's first Khet game is not walked through a turn: there is nothing to
    play."""
    created = http.post(f"{live_server.url}/api/games", timeout=60, json={
        "game": "khet", "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]})
    assert created.status_code == 201, created.text
    page.goto(f"{live_server.url}/#/game/{created.json()['id']}")
    expect(page.get_by_test_id("watching")).to_be_visible()
    expect(page.get_by_test_id("howto-link")).to_be_visible()
    page.wait_for_timeout(1000)  # time for a tutorial that should not come (it would be asked for at once)
    expect(page.get_by_test_id("tutorial")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('damier.tutorial.khet')") is None  # still to show on a first game
