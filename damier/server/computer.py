"""Computer moves off the event loop: a pool of worker processes, each replaying the game and thinking.

A worker gets only names and notation (game, options, seed, start, moves, agent spec), so the server never
ships a live object across processes, and a restarted server asks again from the stored moves.

Every job has a hard deadline (its time budget plus ``GRACE_SECONDS``): a worker still thinking at the deadline
is killed and replaced, so no search can hold a worker longer. Jobs wait in a fair queue: one line per game (or
per hint asker), the line served longest ago first (round-robin), at most ``MAX_WAITING`` jobs in all and
``MAX_PER_KEY`` per line; a job whose deadline passes while it waits is dropped, not run. Workers die with the
server in every case: the kernel kills them when the server process ends (``PR_SET_PDEATHSIG``), even while a
search holds a worker's interpreter lock, and a watching thread covers the systems without it.

A job for a game whose kernels are still compiling (``damier.server.compiler``) waits for them before it joins the
queue: its deadline counts from when they are ready, and the worker that runs it loads them from numba's cache.

A game's computer turn is *patient*: it was admitted with its game (``damier.server.admission``), so it waits for
a worker as long as it takes and its deadline counts from its start (never a random move for want of a worker).
The turns of the games people play go first; the turns of greedy games (programs that answer at once) and long
one-off jobs (analyses) run on all workers but one, so a person's game always finds a worker within a moment.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from damier.server.admission import Admission
from damier.server.jobs import Job, Report, think
from damier.server.kernels import Part, compile_part

if TYPE_CHECKING:
    from damier.server.compiler import Compiler

log = logging.getLogger("damier.server")

#: A job still running its time budget plus this after it was asked for is killed (a computer move then becomes
#: a random move, a hint an error): the budget is the search's, the grace covers replaying the game and a queue.
GRACE_SECONDS = 5.0
PR_SET_PDEATHSIG = 1
#: jobs waiting for a worker, in all and per line (a game, or whoever asks for hints)
MAX_WAITING = 256
MAX_PER_KEY = 4
#: lines whose last service the queue remembers (the others count as never served)
MAX_REMEMBERED = 4096
#: what the server sends a worker to end an analysis early
STOP = "stop"
#: how often a thread waiting for a worker looks whether its job was stopped (seconds)
STOP_POLL = 0.1
#: a one-off job that may take longer than this (an analysis) runs on all workers but one, like a greedy game's
#: turns (``damier.server.admission``): the turns of the games people play always find a worker
LONG_SECONDS = 3.0
#: the niceness every worker takes: on a machine whose cores they fill, the server's event loop (which answers
#: every request, in a few milliseconds each) comes first; a search then loses a few percent of a core to it
NICENESS = 4
#: the longest an idle worker may take to load a game's kernels from numba's cache (``ComputerPool.prepare``)
PREPARE_SECONDS = 120.0


class Busy(Exception):
    """The computer players are too busy to take another job now (the queue is full)."""


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT held back in this thread while it starts a child process: the child begins with it blocked (the
    mask passes through fork and exec), so a Ctrl-C that reaches the process group while the child still imports
    cannot end it with a traceback (its own code ignores SIGINT once it runs; the server stops its children). A
    Ctrl-C meanwhile is not lost: it reaches the server when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # multiprocessing's resource tracker, started with the first child, unblocks SIGINT after starting itself:
    # started first
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def exit_with_parent(parent: int) -> None:
    """Runs first in every worker: end the worker when the server is gone (killed with SIGKILL, say), which
    the pool itself never notices, so that a crash leaves no process behind. On Linux the kernel sends SIGKILL
    when the server ends (it needs no Python, so a search holding the interpreter lock cannot delay it);
    elsewhere a thread watches the parent."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0 and os.getppid() == parent:
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="damier-parent-watch", daemon=True).start()


def _serve(conn: Connection, parent: int, nice: int = 0) -> None:
    """A worker's life: answer each job sent on ``conn`` with ``("ok", answer)`` or ``("error", text)`` (a
    ``Part``: compile it, answering how many kernels it compiled and its seconds; ``nice``: the niceness it takes
    once it compiles). Ctrl-C in the terminal reaches the whole process group: a worker leaves it to the server,
    which stops its workers. It runs at niceness ``NICENESS``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    _import_games()
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job == STOP:
            continue  # for a job that had ended already
        try:
            if isinstance(job, Part):
                conn.send(("ok", compile_part(job.game, job.part, nice)))
            elif job.analysis_seconds is not None or job.graph_seconds is not None:
                conn.send(("ok", _analyse(conn, job)))
            else:
                conn.send(("ok", think(job)))
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


def _import_games() -> None:
    """Import what every job imports (the agents, numba, every game's rules; compiling nothing), while the worker
    waits for its first job: about half a second that no job then spends."""
    from damier.core.registry import all_infos

    for info in all_infos():
        info.game_class()


def _analyse(conn: Connection, job: Job) -> dict[str, Any]:
    """An analysis (or a game's graph) in a worker: each depth (each position) is sent as ``("progress", report)``
    while a thread listens for ``STOP`` from the server (the asker left, or asked about another position)."""
    stop = threading.Event()
    done = threading.Event()

    def listen() -> None:
        while not done.is_set():
            if conn.poll(0.05) and conn.recv() == STOP:
                stop.set()

    listener = threading.Thread(target=listen, name="damier-analysis-listen", daemon=True)
    listener.start()
    try:
        return think(job, lambda data: conn.send(("progress", data)), stop)
    finally:
        done.set()
        listener.join()


def budget_seconds(spec: str) -> float:
    """The time an agent spec may take (its ``time=`` parameter, else a generous default)."""
    for part in spec.replace(":", ",").split(","):
        key, _, value = part.partition("=")
        if key.strip() == "time":
            try:
                return float(value)
            except ValueError:
                break
    return 10.0


class Worker:
    """One worker process and the server's end of its pipe (``nice``: the niceness it takes once it compiles, for
    a background one), and the games whose kernels it has loaded."""

    def __init__(self, nice: int = 0, name: str = "damier-computer") -> None:
        context = multiprocessing.get_context("spawn")  # free of the server's threads and event loop
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(target=_serve, args=(child, os.getpid(), nice), daemon=True,
                                                    name=name)
        self.loaded: set[str] = set()
        self._killing = threading.Lock()
        with interrupts_held():
            self.process.start()
        child.close()

    def run(self, job: Job | Part, seconds: float, progress: Report | None = None,
            stop: threading.Event | None = None) -> tuple[str, Any]:
        """Send ``job`` and wait at most ``seconds`` for the answer (in a thread: it blocks), passing the reports
        sent meanwhile to ``progress`` and telling the worker to stop once ``stop`` is set; ``("killed", why)``
        when the worker overran or died (it is then killed: the pool replaces it)."""
        deadline = time.monotonic() + max(0.0, seconds)
        stopping = False
        try:
            self.conn.send(job)
            while (left := deadline - time.monotonic()) > 0:
                if stop is not None and stop.is_set() and not stopping:
                    self.conn.send(STOP)
                    stopping = True
                if not self.conn.poll(min(left, STOP_POLL)):
                    continue
                answer: tuple[str, Any] = self.conn.recv()
                if answer[0] == "progress":
                    if progress is not None:
                        progress(answer[1])
                    continue
                return answer
            why = f"no answer within {seconds:.1f} s"
        except (EOFError, OSError) as exc:
            why = f"the worker died ({type(exc).__name__})"
        self.kill()
        return "killed", why

    def kill(self) -> None:
        """End the process and close the pipe (once, whoever else is ending it: the thread waiting for its answer,
        or the server stopping)."""
        with self._killing:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(timeout=5)
            if not self.conn.closed:
                self.conn.close()


@dataclass(eq=False)  # kept in sets: each job is itself
class _Waiting:
    job: Job
    deadline: float  # time.monotonic(); a patient job's is set when it starts
    group: str  # whose share of the workers the job takes (a client address, or the line's own key)
    future: asyncio.Future[tuple[str, Any]] = field(repr=False)
    started: bool = False
    progress: Report | None = None  # hears an analysis's reports (in a thread of the pool)
    stop: threading.Event | None = None  # set: the asker no longer wants the answer (an analysis ends early)
    #: a patient job (a game's computer turn) waits for a worker as long as it takes: its time counts from its start
    patient: bool = False
    seconds: float = 0.0  # its time (budget and grace)
    expected: float = 0.0  # the time it is expected to take (the work a queue estimate counts)
    began: float = math.inf  # when it started (time.monotonic())
    #: it runs on all workers but one, leaving that one to the turns of games played by people: a long one-off job
    #: (an analysis), or a turn of a greedy game (``admission``)
    confined: bool = False


class ComputerPool:
    """Worker processes for agents; ``await pool.move(job, budget, key)`` never blocks the event loop, answers
    within ``budget + GRACE_SECONDS`` once the job's game's kernels are ready (or raises ``TimeoutError``), and
    shares the workers fairly between keys. ``kernels``: the compiler the jobs wait for (None: none to wait for)."""

    def __init__(self, workers: int | None = None, kernels: Compiler | None = None) -> None:
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.kernels = kernels
        #: what the games ask of the workers, and the verdicts on new work (``damier.server.admission``)
        self.admission = Admission(self.workers)
        #: the confined jobs running (they leave one worker to the turns of people's games), and the jobs running
        self._confined_running = 0
        self._started_entries: set[_Waiting] = set()
        #: every worker process this pool started and has not seen die (closing the pool kills them)
        self._workers: set[Worker] = set()
        #: the games whose kernels every worker loads while it is idle (``prepare``)
        self.prepared: list[str] = []
        self._idle: list[Worker] = []
        self._started = 0
        self._lines: collections.OrderedDict[str, collections.deque[_Waiting]] = collections.OrderedDict()
        self._waiting = 0
        #: when each line was last served (a tick), for the recently served lines
        self._served: collections.OrderedDict[str, int] = collections.OrderedDict()
        #: jobs running, by group
        self._running: dict[str, int] = {}
        self._tick = 0
        self._threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="damier-computer")
        self._closed = False
        self._tasks: set[asyncio.Future[None]] = set()
        #: jobs killed at their deadline, and jobs dropped in the queue past it (for the logs and the tests)
        self.killed = 0
        self.dropped = 0

    def start(self) -> None:
        """Start every worker now (in the running event loop), so that no job waits for a process to start."""
        while not self._closed and self._started < self.workers:
            self._idle.append(self._new_worker())
            self._started += 1

    def prepare(self, game: str) -> None:
        """Have every worker load game ``game``'s computer kernels from numba's cache while it is idle (they are
        compiled: ``damier.server.compiler``), so that its first job there does not spend its time loading them."""
        if game not in self.prepared:
            self.prepared.append(game)
        self._prepare_idle()

    def _prepare_idle(self) -> None:
        """Give each idle worker that lacks a prepared game's kernels the first it lacks to load, when no job
        waits (a worker back from loading is looked at again)."""
        if self._closed or self._waiting:
            return
        for worker in list(self._idle):
            game = next((g for g in self.prepared if g not in worker.loaded), None)
            if game is not None:
                self._idle.remove(worker)
                task = asyncio.ensure_future(self._load(worker, game))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _load(self, worker: Worker, game: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            status, value = await loop.run_in_executor(self._threads, worker.run, Part(game, "computer"),
                                                       PREPARE_SECONDS)
        except Exception as exc:  # the thread pool is shut down: the server is stopping
            worker.kill()
            status, value = "killed", f"the pool is closing ({exc})"
        worker.loaded.add(game)  # loaded, or failed: its jobs load what they need, as without preparing
        if status != "ok" and not self._closed:
            log.warning("a worker could not load %s's kernels: %s", game, value)
        if status == "killed":
            self._started -= 1
            self._workers.discard(worker)
        elif self._closed:
            worker.kill()
        else:
            self._idle.append(worker)
        self._dispatch()

    @property
    def waiting(self) -> int:
        return self._waiting

    async def move(self, job: Job, budget: float, key: str = "", group: str | None = None,
                   progress: Report | None = None, stop: threading.Event | None = None,
                   patient: bool = False, expected: float | None = None,
                   follows: str = "person") -> dict[str, Any]:
        """The agent's answer; ``TimeoutError`` when it did not come within ``budget + GRACE_SECONDS`` (the
        worker was killed, or the job waited past that); ``Busy`` when the queue is full; ``RuntimeError`` for a
        job that failed in its worker. ``key`` is the job's line (a game), ``group`` whose share of the workers it
        takes (a client address; default: the line's own). An analysis job's reports go to ``progress`` (called in
        a thread of the pool) as they come; setting ``stop`` ends it early (a job not started yet never starts).
        A job whose game's kernels are compiling waits for them first, however long: ``budget`` counts from then.
        A ``patient`` job (a game's computer turn: ``key`` is the game) waits for a worker as long as it takes and
        thinks its whole budget from its start; it counts in its game's demand (``admission``), and a greedy game's
        leaves one worker to the others; it ``follows`` a "person"'s move, a "computer"'s or the "start" (how quick
        the game's replies are: ``Admission.started``). ``expected``: the time it usually takes, when its budget is
        only a bound (drawing a puzzle); the queue's estimates count it (``queued_seconds``)."""
        if self.kernels is not None:
            await self.kernels.ready(job.game)
        if patient:
            self.admission.started(key, follows)
        try:
            future = self._enqueue(job, budget + GRACE_SECONDS, key, group, progress, stop, patient,
                                   budget if expected is None else expected)
            status, value = await future
        finally:
            if patient:
                self.admission.ended(key)
        if status == "ok":
            answer: dict[str, Any] = value
            return answer
        if status == "killed":
            raise TimeoutError(f"the computer gave no answer within its time ({value})")
        raise RuntimeError(f"the computer's job failed: {value}")

    def _enqueue(self, job: Job, seconds: float, key: str, group: str | None = None,
                 progress: Report | None = None, stop: threading.Event | None = None,
                 patient: bool = False, expected: float = 0.0) -> asyncio.Future[tuple[str, Any]]:
        if self._closed:
            raise Busy("the server is stopping")
        line = self._lines.get(key)
        # a game's computer turns were admitted with the game: they wait whatever else waits
        if (self._waiting >= MAX_WAITING and not patient) or (line is not None and len(line) >= MAX_PER_KEY):
            raise Busy("the computer players are busy; try again in a moment")
        loop = asyncio.get_running_loop()
        entry = _Waiting(job, math.inf if patient else time.monotonic() + seconds,
                         group if group is not None else key, loop.create_future(), progress=progress, stop=stop,
                         patient=patient, seconds=seconds, expected=expected)
        if not patient:
            loop.call_later(seconds, self._expire, entry)
        if line is None:
            line = self._lines[key] = collections.deque()
        line.append(entry)
        self._waiting += 1
        self._dispatch()
        return entry.future

    def _expire(self, entry: _Waiting) -> None:
        """At a job's deadline: one still waiting for a worker is answered now, and dropped when its turn comes."""
        if not entry.started and not entry.future.done():
            self.dropped += 1
            entry.future.set_result(("killed", "its deadline passed while it waited for a worker"))

    def _next(self) -> _Waiting | None:
        """The first job of the line served longest ago (a line never served first; then the oldest line), among
        the lines whose group has the fewest jobs running, and none of a group already running on all workers but
        one: each game gets its turn, and no client takes every worker from the others. Jobs whose deadline
        passed are dropped on the way."""
        cap = max(1, self.workers - 1)
        confined_full = self._confined_running >= cap
        while self._lines:
            open_lines = [k for k, line in self._lines.items() if self._running.get(line[0].group, 0) < cap
                          and not (confined_full and self._confined(k, line[0]))]
            if not open_lines:
                return None  # every waiting job's group has its share running: the next to finish frees one
            # the turns of games people play first, then the others (on all workers but one)
            key = min(open_lines, key=lambda k: (self._confined(k, self._lines[k][0]),
                                                 self._running.get(self._lines[k][0].group, 0),
                                                 self._served.get(k, 0)))
            line = self._lines[key]
            entry = line.popleft()
            self._waiting -= 1
            if not line:
                del self._lines[key]
            if entry.future.done():
                continue  # the asker gave up (a cancelled turn), or its deadline passed while it waited
            if entry.stop is not None and entry.stop.is_set():
                entry.future.set_result(("error", "stopped before it started"))
                continue
            if time.monotonic() >= entry.deadline:
                self._expire(entry)
                continue
            entry.started = True
            entry.began = time.monotonic()
            if entry.patient:
                entry.deadline = time.monotonic() + entry.seconds
                self.admission.running(key)
            entry.confined = self._confined(key, entry)
            self._confined_running += entry.confined
            self._running[entry.group] = self._running.get(entry.group, 0) + 1
            self._tick += 1
            self._served[key] = self._tick
            self._served.move_to_end(key)
            while len(self._served) > MAX_REMEMBERED:
                self._served.popitem(last=False)
            return entry
        return None

    def _confined(self, key: str, entry: _Waiting) -> bool:
        """Whether a waiting job runs on all workers but one: a turn of a greedy game, or a one-off job that may
        run long, by its bound (an analysis; a start drawn, whose search may take its whole 30 s however quick the
        last ones were)."""
        if entry.patient:
            return self.admission.greedy(key)
        return entry.seconds - GRACE_SECONDS > LONG_SECONDS

    def queued_seconds(self, long: bool = False) -> float:
        """The work ahead of a new job (seconds, the time each job is expected to take): for a short job, the jobs
        waiting and what the running ones have left, but the long ones (they leave a worker free); for a ``long``
        job (``LONG_SECONDS``: an analysis), the long jobs waiting and running only."""
        now = time.monotonic()
        waiting = sum(entry.expected for line in self._lines.values() for entry in line
                      if not entry.future.done() and (entry.expected > LONG_SECONDS) == long)
        running = sum(max(0.0, entry.began + entry.expected - now) for entry in self._started_entries
                      if (entry.expected > LONG_SECONDS) == long)
        return waiting + running

    def _dispatch(self) -> None:
        while not self._closed and (self._idle or self._started < self.workers):
            entry = self._next()
            if entry is None:
                self._prepare_idle()
                return
            if self._idle:
                worker = self._idle.pop()
            else:
                worker = self._new_worker()
                self._started += 1
            task = asyncio.ensure_future(self._run(worker, entry))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, worker: Worker, entry: _Waiting) -> None:
        loop = asyncio.get_running_loop()
        self._started_entries.add(entry)
        try:
            status, value = await loop.run_in_executor(self._threads, worker.run, entry.job,
                                                       entry.deadline - time.monotonic(), entry.progress, entry.stop)
        except Exception as exc:  # the thread pool is shut down: the server is stopping
            worker.kill()
            status, value = "killed", f"the pool is closing ({exc})"
        self._started_entries.discard(entry)
        self._confined_running -= entry.confined
        left = self._running.get(entry.group, 1) - 1
        if left > 0:
            self._running[entry.group] = left
        else:
            self._running.pop(entry.group, None)
        if status == "killed":
            self.killed += 1
            self._started -= 1  # the worker is gone; the next job starts a new one
            self._workers.discard(worker)
        elif self._closed:
            worker.kill()
        else:
            worker.loaded.add(entry.job.game)  # what its jobs need is loaded now
            self._idle.append(worker)
        if not entry.future.done():
            entry.future.set_result((status, value))
        self._dispatch()

    def _new_worker(self) -> Worker:
        """A new worker process of this pool (started on the event loop's thread: the workers' parent-death
        signal follows it)."""
        worker = Worker()
        self._workers.add(worker)
        return worker

    def close(self) -> None:
        """Kill every worker of this pool now (a search is not waited for) and fail what waits."""
        self._closed = True
        for line in self._lines.values():
            for entry in line:
                if not entry.future.done():
                    entry.future.set_result(("killed", "the server is stopping"))
        self._lines.clear()
        self._idle.clear()
        for worker in self._workers:  # idle or busy: the threads waiting for busy ones end as their pipes close
            worker.kill()
        self._workers.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)
