"""Browser tests: Playwright driving Debian's chromium-headless-shell (found on PATH) against a real
`damier serve`."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from tests.server.conftest import ServerProcess

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: how long a page action or an ``expect`` waits for the server's work (a computer's move, a search) before it
#: fails: the same for both, and long enough for the loaded 2-core CI, where a fresh server's first search warms up
#: (``expect``'s own 5 s once failed there while the page showed the computer still thinking)
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


def chromium_path() -> str:
    """Debian's chromium-headless-shell (Chromium's own engine without its windows: the same page, about 40% less
    CPU than the whole browser run headless, measured on the How to play and arcade tests), else chromium."""
    for name in ("chromium-headless-shell", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("the browser tests need Debian's chromium-headless-shell (or chromium) on PATH "
                       "(apt-get install chromium-headless-shell)")


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("browser")
    process = ServerProcess(f"sqlite:///{folder / 'arcade.sqlite3'}", folder / "server.log")
    process.start()
    yield process
    process.stop()


def open_page(browser: Browser, **context_options: Any) -> Iterator[Page]:
    """A page in a new browser context (``context_options`` as Playwright takes them); after the test the
    context is closed, and any JavaScript error the page raised, or anything its Content-Security-Policy refused,
    fails the test."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # a script, a style or a connection the server's Content-Security-Policy refuses is an error too
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and "Content Security Policy" in msg.text else None)
    # and a word the page asked of a catalogue that has none (static/js/i18n.js warns of it)
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "warning" and msg.text.startswith("damier: no message") else None)
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    yield from open_page(browser, viewport={"width": 1280, "height": 800})


#: the two looks a feature is tried in: a desktop in the light theme, a phone (touch) in the dark one
LOOKS: dict[str, dict[str, Any]] = {
    "light-desktop": {"viewport": {"width": 1280, "height": 800}, "color_scheme": "light"},
    "dark-phone": {"viewport": {"width": 390, "height": 844}, "color_scheme": "dark", "is_mobile": True,
                   "has_touch": True},
}


def in_look(browser: Browser, look: str) -> Iterator[Page]:
    """A page (``open_page``) in ``look``, checked to be drawn in that look's theme after the test."""
    for page in open_page(browser, **LOOKS[look]):
        yield page
        if not page.is_closed() and page.url.startswith("http"):
            assert page.evaluate("document.documentElement.dataset.theme") == LOOKS[look]["color_scheme"]


@pytest.fixture(params=list(LOOKS))
def looked(request: pytest.FixtureRequest, browser: Browser, live_server: ServerProcess) -> Iterator[Page]:
    """A page in each look (the test runs twice)."""
    yield from in_look(browser, request.param)
