"""The arcade in English, Spanish and French: the client formats every message of every catalogue as the server's
``damier.core.messages`` does (numbers, plurals, choices: one reading of the ICU subset in both), the language
follows the browser, the picker changes it and the choice is remembered."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from damier.core import messages, registry
from damier.core.messages import Argument, parse_message
from damier.server.routes.languages import client_words as served
from tests.browser import http
from tests.browser.conftest import open_page
from tests.browser.test_howto import play_a_step, start_khet
from tests.browser.test_micro import ROBOT, open_race, shortest
from tests.server.conftest import ServerProcess

NUMBERS = (0, 1, 2, 5, 21, 1234, 12345, 1_000_000, 2.5, "1234", 0.000025, True)


def client_words(lang: str) -> dict[str, str]:
    """The words the client loads in ``lang`` (``GET /api/i18n/<lang>``)."""
    body: bytes = served(lang)[0]
    return json.loads(body)["messages"]


def options_of(pattern: str) -> dict[str, set[str]]:
    """Each select argument's option keys."""
    found: dict[str, set[str]] = {}

    def walk(parts: tuple[object, ...]) -> None:
        for part in parts:
            if isinstance(part, Argument):
                if part.kind == "select":
                    found.setdefault(part.name, set()).update(k for k, _ in part.options)
                for _key, sub in part.options:
                    walk(sub)

    walk(parse_message(pattern))
    return found


def cases() -> list[tuple[str, dict[str, Any], str]]:
    """(pattern, params, lang) for every message of every catalogue in its language, with numbers, words and
    choices enough to reach each of its branches."""
    catalogues = [messages.SHARED] + [(info.messages, "messages") for info in registry.all_infos()]
    out = []
    for (package, folder), lang in itertools.product(catalogues, messages.LANGUAGES):
        for pattern in messages.raw_catalogue(package, folder, lang).values():
            kinds = messages.signature(pattern)
            selects = options_of(pattern)
            for k in range(3):
                params: dict[str, Any] = {}
                for name, kind in kinds.items():
                    if kind == "select":
                        keys = [*sorted(selects[name]), "zz-none"]
                        params[name] = keys[k % len(keys)]
                    elif kind == "plural" or k == 1:
                        params[name] = NUMBERS[(k * 3 + len(name)) % len(NUMBERS)]
                    elif k == 2:  # a seat of a game, named by the game's catalogue or as sent
                        params[name] = {"seats": [0, 1], "names": ["Rosso", "Blu"], "game": "atoms"}
                    else:
                        params[name] = f"«{name}»"
                out.append((pattern, params, lang))
    return out


@pytest.fixture
def page(browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    yield from open_page(browser)


def test_the_client_formats_every_message_as_the_server_does(page: Page, live_server: ServerProcess) -> None:
    page.goto(live_server.url + "/")
    expect(page.get_by_test_id("lang-picker")).to_be_visible()
    table = cases()
    assert len(table) > 1000
    got = page.evaluate("""async (table) => {
      const i18n = await import("/static/js/i18n.js");
      const words = {};
      for (const lang of ["en", "es", "fr"]) words[lang] = (await (await fetch(`/api/i18n/${lang}`)).json()).messages;
      return table.map(([pattern, params, lang]) => i18n.formatMessage(pattern, params, lang, [], words[lang]));
    }""", table)
    words = {lang: client_words(lang) for lang in messages.LANGUAGES}
    wrong = [(case, js) for case, js in zip(table, got, strict=True)
             if messages.format_message(case[0], case[1], case[2], words=words[case[2]]) != js]
    assert not wrong, json.dumps(wrong[:5], ensure_ascii=False)


def test_the_page_speaks_the_browsers_language_until_the_picker_changes_it(browser: Browser,
                                                                           live_server: ServerProcess) -> None:
    for page in open_page(browser, locale="fr-FR"):
        page.goto(live_server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.get_by_test_id("lang-picker")).to_have_value("fr")
        french = messages.raw_catalogue(*messages.SHARED, "fr")
        expect(page.locator("[data-nav='home']")).to_have_text(french["nav.games"])
        page.get_by_test_id("lang-picker").select_option("es")
        expect(page.locator("html")).to_have_attribute("lang", "es")  # the page reloaded in Spanish
        spanish = messages.raw_catalogue(*messages.SHARED, "es")
        expect(page.locator("[data-nav='home']")).to_have_text(spanish["nav.games"])
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "es")  # remembered
        expect(page.get_by_test_id("lang-picker")).to_have_value("es")
    for page in open_page(browser, locale="de-DE"):
        page.goto(live_server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "en")  # a language the arcade does not speak


def words_of(lang: str) -> dict[str, str]:
    return client_words(lang)


def say(words: dict[str, str], key: str, lang: str, **params: Any) -> str:
    """What the page shows for ``key`` in ``lang`` (the catalogue's message, said as the server says it)."""
    return messages.format_message(words[key], params, lang, words=words)


def shoot(page: Page, name: str) -> None:
    """A screenshot for the docs when DAMIER_SCREENSHOTS names a folder (docs/screenshots: how they were made)."""
    folder = os.environ.get("DAMIER_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


def test_a_khet_game_in_spanish_says_the_spanish_editions_words(browser: Browser, live_server: ServerProcess) -> None:
    es = words_of("es")
    for page in open_page(browser, locale="es-ES", viewport={"width": 1280, "height": 900}):
        start_khet(page, live_server.url)
        expect(page.locator("html")).to_have_attribute("lang", "es")
        # the pieces as the Spanish edition names them, the seats as it calls the colours
        pyramid = es["khet.piece.pyramid"]
        assert pyramid == "Deflector" and es["khet.piece.pharaoh"] == "Rey"
        expect(page.locator(f"[data-testid^='square-'][aria-label*='{pyramid}']").first).to_be_attached()
        expect(page.get_by_test_id("player-0")).to_contain_text(es["khet.client.seats.0"])
        expect(page.get_by_test_id("status")).to_contain_text(
            say(es, "panel.status.your_turn", "es", name=es["khet.client.seats.0"]))
        play_a_step(page)
        expect(page.get_by_test_id("move-2")).to_be_attached()  # the computer answered
        shoot(page, "khet-es.png")
        resign = page.get_by_test_id("btn-resign")
        expect(resign).to_have_text(es["play.resign.button"])
        resign.click()
        expect(resign).to_have_text(es["play.resign.confirm"])
        resign.click()
        banner = page.get_by_test_id("result-banner")
        expect(banner).to_contain_text(say(es, "panel.result.wins", "es", name=es["khet.client.seats.1"]))
        # why, in Spanish, the seat named as the edition names it: "Azul-blanco se rindió"
        resigned = say(es, "outcome.resigned", "es", losers={"seats": [0], "names": ["Silver"], "game": "khet"})
        expect(banner).to_contain_text(resigned[0].upper() + resigned[1:])
        # the record is the same in every language: English reason, the moves in notation
        game_id = page.url.rsplit("/", 1)[1]
        record = http.get(f"{live_server.url}/api/games/{game_id}/record", timeout=30).json()
        assert record["result"]["reason"].startswith("Silver resigned")


def test_a_micro_puzzle_and_race_in_french(browser: Browser, live_server: ServerProcess) -> None:
    fr, base = words_of("fr"), live_server.url
    host_pages = open_page(browser, locale="fr-FR", viewport={"width": 1280, "height": 900})
    guest_pages = open_page(browser, locale="fr-FR", viewport={"width": 390, "height": 844})
    ann, bob = next(host_pages), next(guest_pages)
    try:
        # a puzzle: the French rules' words, solved by the shortest path, the result in French
        ann.goto(f"{base}/#/new/micro")
        expect(ann.get_by_test_id("preset-easy")).to_contain_text(fr["micro.client.presets.easy.label"])
        ann.get_by_test_id("preset-easy").click()
        ann.get_by_test_id("new-game-submit").click()
        ann.wait_for_url(re.compile(r".*#/game/[^/?]+$"))
        puzzle = ann.get_by_test_id("puzzle-id")
        expect(puzzle).not_to_have_value("")
        path = shortest(puzzle.input_value())
        shoot(ann, "micro-fr.png")
        for square in path:
            ann.get_by_test_id(f"square-{square}").click()
            expect(ann.locator(ROBOT)).to_have_attribute("data-square", square)
        banner = ann.get_by_test_id("result-banner")
        expect(banner).to_contain_text(fr["panel.result.optimal"])
        solved = say(fr, "outcome.solved_optimal", "fr", cost=len(path))
        expect(banner).to_contain_text(solved[0].upper() + solved[1:])

        # a race: rounds, claims and the verdict in French
        race_id = open_race(ann, bob, base, ("Anne", "Bruno"))
        ann.get_by_test_id("race-start").click()
        for page in (ann, bob):
            expect(page.get_by_test_id("race-round")).to_have_text(say(fr, "race.round", "fr", number=1))
        position = http.get(f"{base}/api/races/{race_id}", timeout=30).json()["round"]["position"]
        line = shortest(position)
        bob.get_by_test_id(f"claim-{len(line)}").click()
        expect(bob.get_by_test_id("demo-bar")).to_be_visible()
        for k, square in enumerate(line):
            bob.get_by_test_id(f"square-{square}").click()
            if k < len(line) - 1:
                expect(bob.locator(ROBOT)).to_have_attribute("data-square", square)
        verdict = say(fr, "race.verdict.scores", "fr", name="Bruno",
                      reason=say(fr, "verdict.as_claimed", "fr", cost=len(line)))
        for page in (ann, bob):
            expect(page.get_by_test_id("race-verdict")).to_have_attribute("data-correct", "true")
            expect(page.get_by_test_id("race-verdict")).to_contain_text(verdict)
        shoot(bob, "micro-race-fr.png")
    finally:
        for pages in (host_pages, guest_pages):
            next(pages, None)  # closes the context and checks the page raised no JavaScript error
