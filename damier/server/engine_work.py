"""Engine work a client started in the worker pool and others read as it goes: an analysis, a game's graph.

Such work has a status (``running``, then ``done``, ``stopped`` or ``failed`` with a reason), the place it takes in
its client's limit (``ClientLimits.start_analysis``: given back once, when the worker is done with it, so that
stopping and starting again cannot hold more workers than the limit) and a stop the worker hears. ``watch`` waits
for the pool's answer and stops the work once nobody has read it for ``abandon`` seconds (its pages are gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from damier.core.messages import coded
from damier.server.computer import GRACE_SECONDS, Busy

log = logging.getLogger("damier.server")


def error_words(error: str | None) -> dict[str, Any]:
    """An analysis's error with its code and parameters (``error_code``, ``error_params``) when the server said it
    so: the client says it in the player's language."""
    words = coded(error)
    return {"error_code": words["code"], "error_params": words["params"]} if words else {}


@dataclass(kw_only=True)
class EngineWork:
    release: Callable[[], None]
    stop: threading.Event = field(default_factory=threading.Event)
    status: str = "running"  # running | done | stopped | failed
    reason: str | None = None
    error: str | None = None
    read: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None
    freed: bool = False

    def end(self, status: str, reason: str | None, error: str | None = None) -> None:
        """End it (the worker is told to stop); the client's place is freed once the worker is done (``free``)."""
        if self.status == "running":
            self.status, self.reason, self.error = status, reason, error
        self.stop.set()

    def free(self) -> None:
        """Give the client's place back (once)."""
        if not self.freed:
            self.freed = True
            self.release()


Answer = asyncio.Future[dict[str, Any]]


async def watch(work: EngineWork, answer: Answer, seconds: float, abandon: Callable[[], float], what: str,
                busy: str, failed: str, next_part: Callable[[dict[str, Any]], Answer | None] | None = None) -> None:
    """Wait for the pool's ``answer`` to ``work`` (``seconds`` its time budget), then for the answer to each next
    part of it that ``next_part`` asks for (given the last answer; None: the work is done); stop it when nobody has
    read it for ``abandon()`` seconds; free its client's place once the worker is done. ``what`` names it in the
    logs; ``busy`` and ``failed`` are the errors a reader is told when the pool was too busy, or the work failed."""
    try:
        while True:
            answer.add_done_callback(lambda f: f.cancelled() or f.exception())  # read even when nobody waits
            while not answer.done() and work.status == "running":
                await asyncio.wait({answer}, timeout=1.0)
                if time.monotonic() - work.read > abandon():
                    work.end("stopped", "abandoned")
            if work.status != "running":
                return
            try:
                result = answer.result()
            except TimeoutError:
                work.end("done", "deadline")
                return
            except Busy:
                work.end("failed", "busy", busy)
                return
            except Exception as exc:
                log.warning("%s failed: %s", what, exc)
                work.end("failed", "error", failed)
                return
            following = next_part(result) if next_part is not None and not work.stop.is_set() else None
            if following is None:
                work.end("done", str(result.get("reason")))
                return
            answer = following
    finally:
        work.end("stopped", "stopped")  # a no-op once ended
        # the client's place is taken until the worker is done (a solver does not stop early; the pool kills a
        # worker past its deadline): a stop does not free a place for another search at once
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait({answer}, timeout=seconds + GRACE_SECONDS)
        work.free()
