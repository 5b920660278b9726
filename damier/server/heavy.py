"""Heavy reads: work on the rules that anyone may ask for and that holds Python's interpreter for a while (a long
line's boards checked, a board from an editor, the analysis board's long lines, a replay's pages: ``rendering``).
It runs in a process of its own, at a lower priority, so the event loop never waits for the interpreter, nor for a
core, while it runs; ``PROCESSES`` at a time, the others waiting their turn, and past ``WAITING`` of them the answer
is 503 (the arcade is busy) rather than a queue that grows. Each has ``SECONDS`` at most: past that its process is
ended and started again. The answers come back as JSON text, encoded there."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.responses import Response

from damier.server.computer import exit_with_parent, interrupts_held
from damier.server.rooms.errors import Unavailable
from damier.server.words import say

#: the processes heavy reads run in, how many may wait, the most one may take (seconds), and the processes' niceness
PROCESSES = 1
WAITING = 32
SECONDS = 30.0
NICENESS = 10


def _start(parent: int) -> None:
    """A heavy process starts: it ends with the server (``parent``), yields the cores to it, and imports what its
    work imports."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the process group: the server stops it
    exit_with_parent(parent)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    import damier.server.rendering  # noqa: F401


class HeavyReads:
    """The process heavy reads run in, and their queue."""

    def __init__(self, processes: int = PROCESSES, waiting: int = WAITING, seconds: float = SECONDS) -> None:
        self.processes = processes
        self.seconds = seconds
        self._limit = processes + waiting
        self._admitted = 0
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start, initargs=(os.getpid(),))

    def start(self) -> None:
        """Start the processes now (they import the games for a second or two), not at the first heavy read."""
        with interrupts_held():  # a process starts at a submit
            self._pool.submit(int)

    async def answer(self, work: Callable[..., bytes], *args: Any) -> Response:
        """``work(*args)`` (a function of ``damier.server.rendering``, answering JSON text) in a heavy process once
        one is free, as a response; ``Unavailable`` (503) when too many wait or it took too long. The errors it
        raises (``Invalid``: a bad position) are raised here."""
        return Response(await self.run(work, *args), media_type="application/json")

    async def run(self, work: Callable[..., bytes], *args: Any) -> bytes:
        if self._admitted >= self._limit:
            raise Unavailable(say("error.busy.heavy_reads", count=self._admitted))
        self._admitted += 1
        pool = self._pool
        try:
            with interrupts_held():  # a process starts at a submit (after one was ended)
                future = asyncio.get_running_loop().run_in_executor(pool, work, *args)
            return await asyncio.wait_for(future, self.seconds)
        except TimeoutError:
            self._renew(pool)  # the process still works on it: it ends, and another starts
            raise Unavailable(say("error.busy.heavy_too_long", seconds=round(self.seconds))) from None
        except BrokenProcessPool:
            self._renew(pool)
            raise Unavailable(say("error.busy.heavy_failed")) from None
        finally:
            self._admitted -= 1

    def _renew(self, pool: ProcessPoolExecutor) -> None:
        """End ``pool``'s processes (a read that overran, or one that crashed) and start a new pool."""
        if pool is not self._pool:
            return  # renewed already
        self._pool = self._new_pool()
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._renew(self._pool)
        self._pool.shutdown(wait=False, cancel_futures=True)
