"""The browser tests' own requests to their server: httpx with the pages' patience (``WAIT_MS``), not its 5 s
default: a loaded CI machine answers later, and a test that asked the server a fact must not fail for it."""

from __future__ import annotations

from typing import Any

import httpx

#: seconds a request waits for its answer (what a page waits: tests/browser/conftest.py's WAIT_MS)
TIMEOUT = 30.0


def get(url: str, **kwargs: Any) -> httpx.Response:
    kwargs.setdefault("timeout", TIMEOUT)
    return httpx.get(url, **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    kwargs.setdefault("timeout", TIMEOUT)
    return httpx.post(url, **kwargs)


def delete(url: str, **kwargs: Any) -> httpx.Response:
    kwargs.setdefault("timeout", TIMEOUT)
    return httpx.delete(url, **kwargs)
