"""The arcade in English, Spanish and French: the client formats every message of every catalogue as the server's
``damier.core.messages`` does (numbers, plurals, choices: one reading of the ICU subset in both), the language
follows the browser, the picker changes it and the choice is remembered."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from damier.core import messages, registry
from damier.core.messages import Argument, parse_message
from damier.server.routes.languages import client_words as served
from tests.browser.conftest import open_page
from tests.server.conftest import ServerProcess

NUMBERS = (0, 1, 2, 5, 21, 1234, 12345, 1_000_000, 2.5)


def client_words(lang: str) -> dict[str, str]:
    """The words the client loads in ``lang`` (``GET /api/i18n/<lang>``)."""
    return json.loads(served(lang)[0])["messages"]


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
