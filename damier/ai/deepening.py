"""The one iterative-deepening driver: the levels, the arena, hints and the text engine protocol all think here.

A game's kernel provides a fixed-depth search (``damier.core.search.FixedDepthSearch``); games without one are
searched by the generic alpha-beta over the contract (``damier.ai.alphabeta.ContractSearch``), through the same
driver. One time rule: an alarm stops the running depth at the deadline, and no new depth starts once more than
``NEXT_DEPTH_SHARE`` of the time is spent (the next depth would most likely not finish); a depth stopped early
is discarded, unless its search declares ``partial_moves`` and found a better root move. Such a search deepens
until its alarm, since a depth it does not finish may still change its move (Atoms at 0.02 s a move: 112-88
against stopping at the share). One report type,
``Iteration``. The alarms of every search share one thread (``Alarms``): starting a thread per move cost about a
millisecond, a tenth of a 10 ms move.

>>> import damier
>>> from damier.ai.alphabeta import ContractSearch
>>> state = damier.load("atoms", rows=3, cols=3).new_state()
>>> found = Deepening(ContractSearch()).think(state, max_depth=2)
>>> found.depth, state.is_legal(found.move)
(2, True)
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import ClassVar

from damier.core.game import Iteration, State
from damier.core.search import FixedDepthSearch

#: no new depth starts once this share of the time is spent
NEXT_DEPTH_SHARE = 0.45
#: the share of the lateness kept after a move that answered less late than it (``Deepening.lateness``)
LATENESS_KEPT = 0.9


class Alarms:
    """One daemon thread that calls each alarm's function at its time (``time.perf_counter`` seconds).

    >>> rang = threading.Event()
    >>> alarm = ALARMS.set(0.01, rang.set)
    >>> rang.wait(5)
    True
    >>> ALARMS.cancel(ALARMS.set(0.01, rang.clear)); rang.is_set()  # a cancelled alarm never rings
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    def set(self, seconds: float, call: Callable[[], None]) -> int:
        """Call ``call`` (on the alarm thread) ``seconds`` from now; returns the alarm's id for ``cancel``."""
        alarm = next(self._ids)
        with self._lock:
            heapq.heappush(self._heap, (time.perf_counter() + seconds, alarm, call))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="damier-alarms", daemon=True)
                self._thread.start()
            self._lock.notify()
        return alarm

    def cancel(self, alarm: int) -> None:
        with self._lock:
            if any(entry[1] == alarm for entry in self._heap):
                self._cancelled.add(alarm)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._heap:
                    self._lock.wait()
                when, alarm, call = self._heap[0]
                wait = when - time.perf_counter()
                if wait > 0:
                    self._lock.wait(min(wait, threading.TIMEOUT_MAX))
                    continue
                heapq.heappop(self._heap)
                if alarm in self._cancelled:
                    self._cancelled.discard(alarm)
                    continue
            call()


#: the alarms of every search in this process
ALARMS = Alarms()


class Deepening:
    """Iterative deepening over one ``FixedDepthSearch``; ``stop`` (from another thread) ends ``think`` early."""

    #: the lateness the latest timed search of this process measured, where a new driver starts (the alarm's
    #: thread and the machine are the same for every search of a process: a new game's first move keeps to its
    #: time too)
    recent_lateness: ClassVar[float] = 0.0

    def __init__(self, searcher: FixedDepthSearch) -> None:
        self.searcher = searcher
        self._stopped = threading.Event()
        self._deadline = threading.Lock()
        self._thinking: object | None = None  # the running think, which its alarm may stop
        #: how many seconds an answer came after its alarm was due (the alarm's thread may wake late, the search
        #: stops at its next check, the answer is made): the next alarm is set that much before the time is up (at
        #: most half of it earlier), so that the answer comes in time. A later answer raises it at once, earlier
        #: ones lower it slowly: a timed move keeps within its time rather than within it on average
        self.lateness = Deepening.recent_lateness  # from what this process's searches measured
        self._rang_at: float | None = None

    def _ring(self, think: object) -> None:
        """The alarm of ``think``: it stops that think only, never one begun after it (an alarm that rang as its
        think ended and was cancelled must not stop the next)."""
        with self._deadline:
            if self._thinking is think:
                self._rang_at = time.perf_counter()
                self.stop()

    def new_game(self) -> None:
        self.searcher.new_game()

    def stop(self) -> None:
        """End a running ``think`` now: it returns its last completed depth."""
        self._stopped.set()
        self.searcher.stop()

    def think(self, state: State, max_depth: int | None = None, seconds: float | None = None,
              node_limit: int | None = None, evaluation: str | None = None,
              on_iteration: Callable[[Iteration], None] | None = None) -> Iteration:
        """Search ``state`` deeper and deeper until ``max_depth``, ``seconds``, ``node_limit`` nodes in all, a
        decided score, or ``stop``. ``on_iteration`` hears each completed depth. The answer is the last completed
        depth (depth 1 always completes), with the nodes and seconds of the whole search.
        """
        legal = state.legal_moves()
        if state.player < 0 or not legal:
            raise ValueError("the search needs a position with a player to move")
        built = getattr(self.searcher, "game", None)
        if built is not None and (built.name, built.options) != (state.game.name, state.game.options):
            raise ValueError(f"this search was built for {built.name} {dict(built.options)}, not for the "
                             f"position's {state.game.name} {dict(state.game.options)}")
        seconds = None if seconds is None else min(max(seconds, 0.0), threading.TIMEOUT_MAX)
        started = time.perf_counter()
        self._stopped.clear()
        self.searcher.new_search(state)
        think = self._thinking = object()
        self._rang_at = None
        due = None if seconds is None else max(seconds - self.lateness, seconds / 2)
        alarm = None if due is None else ALARMS.set(due, lambda: self._ring(think))
        best = Iteration(depth=0, move=legal[0], pv=[legal[0]])
        partial = getattr(self.searcher, "partial_moves", False)
        total = 0
        try:
            for depth in range(1, (max_depth or 64) + 1):
                if depth > 1 and self._stopped.is_set():
                    break
                remaining = None if node_limit is None else max(1, node_limit - total)
                found = self.searcher.search(state, depth, remaining, evaluation)
                total += found.nodes
                if not found.completed and depth > 1:
                    if partial and found.move is not None and found.move != best.move and found.move in legal:
                        # a root move proven better than the last depth's best before the stop
                        best = Iteration(depth=best.depth, score=best.score, move=found.move, pv=[found.move],
                                         nodes=total, seconds=time.perf_counter() - started)
                    break
                elapsed = time.perf_counter() - started
                move = legal[0] if found.move is None else found.move
                pv = found.pv if found.pv and found.pv[0] == move else [move]
                best = Iteration(depth=depth, score=found.score, move=move, pv=list(pv), nodes=total,
                                 seconds=elapsed)
                if on_iteration is not None:
                    on_iteration(best)
                if state.game.is_decided_score(found.score) or len(legal) == 1:
                    break
                if node_limit is not None and total >= node_limit:
                    break
                if seconds is not None and not partial and elapsed > NEXT_DEPTH_SHARE * seconds:
                    break  # (a search that keeps a stopped depth's better move uses the time to the alarm)
        finally:
            if alarm is not None:
                ALARMS.cancel(alarm)
            with self._deadline:
                self._thinking = None
            if self._rang_at is not None and due is not None:
                late = max(0.0, time.perf_counter() - started - due)
                kept = LATENESS_KEPT * self.lateness + (1 - LATENESS_KEPT) * late
                self.lateness = Deepening.recent_lateness = max(late, kept)
        best.nodes = total
        best.seconds = time.perf_counter() - started
        return best
