"""The games' kernels compiled once, in the background, when the arcade starts, in the order players ask for them.

From an empty numba cache every game's kernels take about a minute and a half of CPU to compile (a fresh install,
or after an upgrade; docs/server.md, "A fast first start"). Nobody waits for what they do not need: the catalog
and the How to play pages run no kernel compiled (``damier.server.descriptions``), and the rest is compiled here,
once.

``Compiler`` compiles each game's kernels in two parts (``damier.server.kernels``), each where it is run: the
rules in the server itself, in a thread, one game after the other (``here``: with a full cache it only loads them,
in a fraction of a second); what the computer's jobs run in a few processes of their own, which lower their
priority once they compile (the server and its workers come first), into numba's cache, which the workers then
load (``ComputerPool.prepare``). The parts wait in a queue; a game somebody creates, plays or asks a hint for goes
to the front (``ask``), and a game's computer part starts once its rules are done (it replays them). A computer
job waits for its game's computer part (``ready``), and its deadline counts from then; making or showing a game
waits for its rules (``here``). ``status`` says how far it is (``/api/health``, the home page's note), and
``report`` hears each step (the terminal's progress line). With a full cache every part only loads: a few seconds
in all.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from damier.core import registry
from damier.server.computer import Worker
from damier.server.kernels import PARTS, Part, compile_part

log = logging.getLogger("damier.server")

#: the niceness a compiling process takes once it compiles (loading from the cache goes at full speed): the server
#: and the computer's workers come first
NICENESS = 10
#: the part the server compiles itself (the others are the compiling processes')
RULES = PARTS[0]
#: the longest one part may compile before its process is killed (the workers then compile what they need)
PART_SECONDS = 900.0

Report = Callable[[dict[str, Any]], None]


class Compiler:
    """Every registered game's kernel parts, compiled by ``processes`` processes (0: none; every part counts as
    ready, and a worker compiles what its job needs on first use)."""

    def __init__(self, processes: int, report: Report | None = None,
                 compiled: Callable[[str], None] | None = None) -> None:
        self.processes = max(0, processes)
        self.report = report
        #: told the name of each game whose computer part is compiled (the pool's workers then load it)
        self.compiled = compiled
        self._running: set[Part] = set()
        #: the parts, with how many kernels each compiled (None: failed) and its seconds
        self.finished: dict[Part, tuple[int | None, float]] = {}
        self._workers: set[Worker] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._threads: ThreadPoolExecutor | None = None
        self._started = time.monotonic()
        self._ended: float | None = None
        #: told each time a part ends (a process waiting for a game's rules looks again)
        self._ended_one = asyncio.Condition()
        #: the parts compiled in this process (``here``), while they are
        self._here: dict[Part, asyncio.Future[tuple[int, float]]] = {}
        # every part of every registered game, in the queue from now on (what asks for one waits for it)
        games = [info.name for info in registry.all_infos()]
        self._queue = [Part(game, part) for part in PARTS for game in games]
        self._done = {part: asyncio.Event() for part in self._queue}
        if not self.processes:
            self._queue = []
            for event in self._done.values():
                event.set()
            self._ended = self._started

    def start(self) -> None:
        """Start compiling (in the running event loop; the parts are queued from the making on): the rules here,
        the computer's in the processes."""
        if not self._queue or self._threads is not None:
            return
        self._threads = ThreadPoolExecutor(max_workers=self.processes, thread_name_prefix="damier-compile")
        for run in [self._rules_here] + [self._compile] * min(self.processes, len(self._queue)):
            task = asyncio.create_task(run())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        self._tell()

    async def _rules_here(self) -> None:
        """Every game's rules, one after the other in the queue's order, compiled in this process (``here``): the
        server plays them itself, and the workers replay them from the cache."""
        while (part := next((p for p in self._queue if p.part == RULES), None)) is not None:
            await self.here(part.game, part.part)

    def ask(self, game: str) -> None:
        """Put game ``game``'s parts not started yet at the front of the queue (its rules first)."""
        mine = [part for part in self._queue if part.game == game]
        if mine:
            self._queue = mine + [part for part in self._queue if part.game != game]

    def is_ready(self, game: str, part: str = "computer") -> bool:
        """Whether ``game``'s ``part`` is compiled (a game the compiler does not know counts as ready)."""
        event = self._done.get(Part(game, part))
        return event is None or event.is_set()

    async def ready(self, game: str, part: str = "computer", timeout: float | None = None) -> bool:
        """Wait until ``game``'s ``part`` is compiled, moving the game to the front of the queue; False when it was
        not within ``timeout`` seconds (None: no bound)."""
        event = self._done.get(Part(game, part))
        if event is None or event.is_set():
            return True
        self.ask(game)
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def rules_loaded(self) -> None:
        """Wait until every game's rules are compiled (or loaded) in this process, or failed."""
        for part, event in self._done.items():
            if part.part == RULES:
                await event.wait()

    @property
    def done(self) -> bool:
        return all(event.is_set() for event in self._done.values())

    def status(self) -> dict[str, Any]:
        """How far compiling is: ``{"ready", "done", "total" (parts), "compiling" (the parts under way, "game
        part"), "pending" (the parts not done, under way or waiting), "compiled" (kernels compiled so far: 0 when
        the cache had them all), "seconds" (since the start, or what the whole took)}``."""
        end = self._ended if self._ended is not None else time.monotonic()
        return {"ready": self.done, "done": sum(event.is_set() for event in self._done.values()),
                "total": len(self._done), "compiling": sorted(f"{p.game} {p.part}" for p in self._running),
                "pending": [f"{p.game} {p.part}" for p, event in self._done.items() if not event.is_set()],
                "compiled": sum(count or 0 for count, _ in self.finished.values()),
                "seconds": round(end - self._started, 1)}

    def _next(self) -> Part | None:
        """The first computer part of the queue whose game's rules are done (it replays them: compiling both at
        once would compile the rules twice)."""
        for part in self._queue:
            if part.part != RULES and self.is_ready(part.game, RULES):
                self._queue.remove(part)
                return part
        return None

    async def _compile(self) -> None:
        """One process's life: compile the next part while there is one, then end the process."""
        loop = asyncio.get_running_loop()
        worker: Worker | None = None
        try:
            while any(part.part != RULES for part in self._queue):
                part = self._next()
                if part is None:  # only parts waiting for their rules: wait for a part to end
                    async with self._ended_one:
                        await self._ended_one.wait()
                    continue
                if worker is None:
                    worker = Worker(nice=NICENESS, name="damier-compiler")
                    self._workers.add(worker)
                self._running.add(part)
                self._tell()
                status, value = await loop.run_in_executor(self._threads, worker.run, part, PART_SECONDS)
                if status == "killed":
                    self._workers.discard(worker)
                    worker = None
                await self._finish(part, status, value)
        except asyncio.CancelledError:  # the server stops: the thread waiting for the answer closes the pipe
            if worker is not None:
                worker.process.kill()
            raise
        if worker is not None:
            worker.kill()
            self._workers.discard(worker)

    async def here(self, game: str, part: str) -> None:
        """``game``'s ``part`` compiled in this process, which needs it now (the server, to make or show a game):
        nothing when it is done; else compiled (or loaded, from a full cache) here, in a thread, at this process's
        priority, once however many ask at a time."""
        key = Part(game, part)
        event = self._done.get(key)
        if event is None or event.is_set():
            return
        making = self._here.get(key)
        if making is None:
            if key in self._queue:
                self._queue.remove(key)
            self._running.add(key)
            self._tell()
            making = self._here[key] = asyncio.ensure_future(asyncio.to_thread(compile_part, game, part))
        status: str = "ok"
        value: Any
        try:
            value = await asyncio.shield(making)
        except Exception as exc:
            status, value = "error", f"{type(exc).__name__}: {exc}"
        if not event.is_set():
            await self._finish(key, status, value)

    async def _finish(self, part: Part, status: str, value: Any) -> None:
        """Part ``part`` ended (``status`` "ok" with ``(kernels compiled, seconds)``, or else why not): whoever
        waits for it goes on, and so do the processes waiting for a game's rules."""
        if self._done[part].is_set():
            return
        self._running.discard(part)
        if status == "ok":
            self.finished[part] = value
            if part.part != RULES and self.compiled is not None:
                self.compiled(part.game)
        else:  # nothing waits for a part that failed: the workers compile what they need themselves
            log.warning("compiling the %s part of %s's kernels failed: %s", part.part, part.game, value)
            self.finished[part] = (None, 0.0)
        self._done[part].set()
        async with self._ended_one:
            self._ended_one.notify_all()
        if self.done and self._ended is None:
            self._ended = time.monotonic()
        self._tell()

    def _tell(self) -> None:
        if self.report is not None:
            try:
                self.report(self.status())
            except Exception:  # a progress line that fails must not stop compiling
                log.exception("reporting the kernels' compilation failed")

    def close(self) -> None:
        """Stop compiling now: kill the processes (a part under way is left to the workers)."""
        for task in self._tasks:
            task.cancel()
        for worker in list(self._workers):
            worker.process.kill()  # the thread waiting for its answer sees it end, and closes its pipe
        self._workers.clear()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
