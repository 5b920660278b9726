"""The one iterative-deepening driver: the levels, the arena, hints and the text engine protocol all think here.

A game's kernel provides a fixed-depth search (``damier.core.search.FixedDepthSearch``); games without one are
searched by the generic alpha-beta over the contract (``damier.ai.alphabeta.ContractSearch``), through the same
driver. One time rule: a timer stops the running depth at the deadline, and no new depth starts once more than
``NEXT_DEPTH_SHARE`` of the time is spent (the next depth would most likely not finish). One report type,
``Iteration``.

>>> import damier
>>> from damier.ai.alphabeta import ContractSearch
>>> state = damier.load("atoms", rows=3, cols=3).new_state()
>>> found = Deepening(ContractSearch()).think(state, max_depth=2)
>>> found.depth, state.is_legal(found.move)
(2, True)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from damier.core.game import Iteration, State
from damier.core.search import FixedDepthSearch

#: no new depth starts once this share of the time is spent
NEXT_DEPTH_SHARE = 0.45


class Deepening:
    """Iterative deepening over one ``FixedDepthSearch``; ``stop`` (from another thread) ends ``think`` early."""

    def __init__(self, searcher: FixedDepthSearch) -> None:
        self.searcher = searcher
        self._stopped = threading.Event()

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
        seconds = None if seconds is None else min(max(seconds, 0.0), threading.TIMEOUT_MAX)
        started = time.perf_counter()
        self._stopped.clear()
        self.searcher.new_search(state)
        timer = None
        if seconds is not None:
            timer = threading.Timer(seconds, self.stop)
            timer.daemon = True
            timer.start()
        best = Iteration(depth=0, move=legal[0], pv=[legal[0]])
        total = 0
        try:
            for depth in range(1, (max_depth or 64) + 1):
                if depth > 1 and self._stopped.is_set():
                    break
                remaining = None if node_limit is None else max(1, node_limit - total)
                found = self.searcher.search(state, depth, remaining, evaluation)
                total += found.nodes
                if not found.completed and depth > 1:
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
                if seconds is not None and elapsed > NEXT_DEPTH_SHARE * seconds:
                    break
        finally:
            if timer is not None:
                timer.cancel()
        best.nodes = total
        best.seconds = time.perf_counter() - started
        return best
