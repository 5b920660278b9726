"""The catalog's client descriptions and the How to play pages, made without compiling a kernel.

Both are played by the games' rules (a sample board, diagrams and their events), so in the server they would
compile the kernels they touch: from an empty numba cache, the home page then waited 20 s for its cards and the
Ricochet page up to a minute. They are made instead in a short-lived process with ``NUMBA_DISABLE_JIT=1``: the
same rules, as plain Python, in under a second for every game (a diagram plays a few moves). The code stays their
one source of truth; the server asks once, when the first of them is asked for, and keeps the answers.

``python -m damier.server.descriptions`` prints them as JSON: ``{game: {"client": ..., "howto": ...}}`` (None
for what a game does not declare; ``{"error": text}`` for a page its rules refuse).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from typing import Any

from damier.core import registry
from damier.core.errors import DamierError

log = logging.getLogger("damier.server")

#: the longest the describing process may take (a game's page is a few moves played by its rules)
DESCRIBE_SECONDS = 120.0


def describe(info: registry.GameInfo) -> dict[str, Any]:
    """Game ``info``'s ``{"client": its client description, "howto": its How to play page}`` (``None`` for what it
    does not declare; ``{"error": text}`` for a page its rules refuse)."""
    from damier.core.howto import page

    entry: dict[str, Any] = {"client": None, "howto": None}
    if info.has("client"):
        entry["client"] = info.hook("client")(registry.load(info.name))
    if info.has("howto"):
        try:
            entry["howto"] = page(info)
        except DamierError as exc:
            entry["howto"] = {"error": str(exc)}
    return entry


def describe_all() -> dict[str, dict[str, Any]]:
    """Every registered game's ``describe``, by name."""
    return {info.name: describe(info) for info in registry.all_infos()}


class DescriptionError(Exception):
    """The describing process failed (its error output says why)."""


class Descriptions:
    """The descriptions, made once by the describing process when first asked for (``get``; the askers meanwhile
    wait for that one making, and a failed making is tried again by the next asker)."""

    def __init__(self) -> None:
        self._making: asyncio.Future[dict[str, dict[str, Any]]] | None = None

    def start(self) -> None:
        """Start making them now (in the running event loop), if they are not made or being made."""
        if self._making is None or (self._making.done() and self._making.exception() is not None):
            self._making = asyncio.ensure_future(describe_elsewhere())
            self._making.add_done_callback(_log_failure)

    async def get(self) -> dict[str, dict[str, Any]]:
        """The descriptions of every game the describing process knows, by name (``DescriptionError`` when it
        failed: the next call tries again)."""
        self.start()
        assert self._making is not None
        return await asyncio.shield(self._making)

    async def entry(self, info: registry.GameInfo) -> dict[str, Any]:
        """Game ``info``'s ``{"client", "howto"}``; a game registered in this process only (a plug-in's, a test's)
        is not known to the describing process: it is described here, off the event loop, and kept."""
        described = await self.get()
        if info.name not in described:
            described[info.name] = await asyncio.to_thread(describe, info)
        return described[info.name]

    async def client(self, info: registry.GameInfo) -> dict[str, Any] | None:
        """Game ``info``'s client description (None: it declares none)."""
        described: dict[str, Any] | None = (await self.entry(info))["client"]
        return described

    async def howto(self, info: registry.GameInfo) -> dict[str, Any]:
        """Game ``info``'s How to play page; ``DescriptionError`` when its rules refuse it."""
        page: dict[str, Any] | None = (await self.entry(info))["howto"]
        if page is None or "error" in page:
            raise DescriptionError(f"no How to play page for {info.name}: {page['error'] if page else 'none'}")
        return page

    def close(self) -> None:
        if self._making is not None:
            self._making.cancel()


def _log_failure(making: asyncio.Future[dict[str, dict[str, Any]]]) -> None:
    if not making.cancelled() and making.exception() is not None:
        log.error("%s", making.exception())


async def describe_elsewhere() -> dict[str, dict[str, Any]]:
    """``describe_all`` in a process of its own run with ``NUMBA_DISABLE_JIT=1`` (killed past
    ``DESCRIBE_SECONDS``)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "damier.server.descriptions", stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    try:
        out, err = await asyncio.wait_for(process.communicate(), DESCRIBE_SECONDS)
    except BaseException:
        if process.returncode is None:
            process.kill()
            await process.wait()
        raise
    if process.returncode != 0:
        lines = err.decode(errors="replace").strip().splitlines()
        raise DescriptionError(f"describing the games failed ({lines[-1] if lines else process.returncode})")
    described: dict[str, dict[str, Any]] = json.loads(out)
    return described


if __name__ == "__main__":
    json.dump(describe_all(), sys.stdout, separators=(",", ":"))
