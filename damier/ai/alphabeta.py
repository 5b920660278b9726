"""Alpha-beta search with iterative deepening, a transposition table, move ordering and a time limit.

Two players: minimax from the root player's view (what negamax computes). More players: paranoid search,
every opponent minimising the root player's evaluation. Chance nodes: expectimax (the probability-weighted
mean). When the game offers its own kernel search (``Game.search``) it is used, driven by the same iterative
deepening loop, with the time limit turned into node limits.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from damier.ai.base import SearchInfo
from damier.core.errors import StateError
from damier.core.game import CHANCE, TERMINAL, State

MAX_DEPTH = 64


class _Timeout(Exception):
    pass


@dataclass
class _Entry:
    depth: int
    flag: int  # 0 exact, 1 lower bound, 2 upper bound
    value: float
    move: int


class AlphaBetaAgent:
    """Iterative-deepening alpha-beta to a fixed ``depth`` or for ``time_limit`` seconds.

    >>> import damier
    >>> state = damier.load("atoms", rows=3, cols=3).new_state()
    >>> agent = AlphaBetaAgent(depth=3)
    >>> agent.choose(state) in state.legal_moves()
    True
    >>> agent.info.depth
    3
    """

    def __init__(
        self,
        depth: int | None = None,
        time_limit: float | None = None,
        evaluation: str | None = None,
        use_kernel: bool = True,
        spec: str = "alphabeta",
    ) -> None:
        if depth is None and time_limit is None:
            depth = 4
        self.depth = depth
        self.time_limit = time_limit
        self.evaluation = evaluation
        self.use_kernel = use_kernel
        self.spec = spec
        self.info = SearchInfo()
        self._table: dict[bytes, _Entry] = {}
        self._context: Any = None  # the game's kernel search context (its transposition table)

    def reset(self) -> None:
        self._table.clear()
        self._context = None

    def choose(self, state: State) -> int:
        if state.player < 0:
            raise StateError("alpha-beta chooses moves for a player; this state is a chance node or over")
        moves = state.legal_moves()
        if len(moves) == 1:
            self.info = SearchInfo(move=moves[0], depth=0, pv=[moves[0]])
            return moves[0]
        started = time.perf_counter()
        deadline = None if self.time_limit is None else started + self.time_limit
        max_depth = self.depth if self.depth is not None else MAX_DEPTH
        if self.use_kernel and state.game.has_search:
            info = self._deepen_in_kernel(state, max_depth, deadline, started)
        else:
            info = self._deepen_in_python(state, max_depth, deadline, started)
        self.info = info
        assert info.move is not None
        return info.move

    def _evaluation_name(self, state: State) -> str:
        return self.evaluation or (state.game.evaluations[0] if state.game.evaluations else "")

    # ----- the game's own kernel search -----------------------------------------------------------------
    def _deepen_in_kernel(self, state: State, max_depth: int, deadline: float | None, started: float) -> SearchInfo:
        game = state.game
        self._context = game.new_search(self._context)
        evaluation = self._evaluation_name(state)
        best = SearchInfo()
        total_nodes = 0
        for depth in range(1, max_depth + 1):
            node_limit = 2**62
            if deadline is not None and best.move is not None:
                remaining = deadline - time.perf_counter()
                elapsed = time.perf_counter() - started
                if remaining <= 0:
                    break
                node_limit = max(1, int(total_nodes / max(elapsed, 1e-6) * remaining))
            result = game.search(state, depth, node_limit, evaluation, self._context)
            total_nodes += result.nodes
            if not result.completed:
                break
            best = SearchInfo(move=result.move, score=result.score, depth=depth, nodes=total_nodes,
                              seconds=time.perf_counter() - started, pv=list(result.pv))
            if game.is_decided_score(result.score):
                break
        best.nodes = total_nodes
        best.seconds = time.perf_counter() - started
        return best

    # ----- the generic search over the contract ---------------------------------------------------------
    def _deepen_in_python(self, state: State, max_depth: int, deadline: float | None, started: float) -> SearchInfo:
        self._table.clear()
        self._deadline = deadline
        self._nodes = 0
        self._root = state.player
        self._has_eval = state.game.has_evaluation
        self._evaluation = self.evaluation
        self._win = state.game.win_score
        work = state.copy()
        best = SearchInfo()
        for depth in range(1, max_depth + 1):
            try:
                value, move = self._root_search(work, depth)
            except _Timeout:
                break
            best = SearchInfo(move=move, score=value, depth=depth, nodes=self._nodes,
                              seconds=time.perf_counter() - started, pv=[move])
            if state.game.is_decided_score(value):
                break
        if best.move is None:  # not even depth 1 finished in time: take the table's or the first move
            entry = self._table.get(state.key())
            best.move = entry.move if entry else state.legal_moves()[0]
        best.nodes = self._nodes
        best.seconds = time.perf_counter() - started
        return best

    def _root_search(self, state: State, depth: int) -> tuple[float, int]:
        value = self._value(state, depth, -math.inf, math.inf, 0)
        entry = self._table[state.key()]
        return value, entry.move

    def _leaf(self, state: State, ply: int) -> float:
        outcome = state.outcome()
        if outcome is not None:
            result = outcome.returns[self._root]
            if result > 0:
                return self._win - ply
            if result < 0:
                return -self._win + ply
            return 0.0
        if self._has_eval:
            return state.game.evaluate(state, self._root, self._evaluation)
        return 0.0

    def _value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._nodes += 1
        if self._deadline is not None and self._nodes % 256 == 0 and time.perf_counter() > self._deadline:
            raise _Timeout
        player = state.player
        if player == TERMINAL or depth == 0:
            return self._leaf(state, ply)
        if player == CHANCE:
            total = 0.0
            for move, probability in state.chance_outcomes():
                state._apply(move)
                try:
                    total += probability * self._value(state, depth - 1, -math.inf, math.inf, ply + 1)
                finally:
                    state.undo()
            return total
        key = state.key()
        entry = self._table.get(key)
        first = -1
        if entry is not None:
            first = entry.move
            bound_holds = (
                entry.flag == 0
                or (entry.flag == 1 and entry.value >= beta)
                or (entry.flag == 2 and entry.value <= alpha)
            )
            if ply > 0 and entry.depth >= depth and bound_holds:
                return entry.value
        moves = state.legal_moves()
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maximizing = player == self._root
        best = -math.inf if maximizing else math.inf
        best_move = moves[0]
        a, b = alpha, beta
        for move in moves:
            state._apply(move)
            try:
                value = self._value(state, depth - 1, a, b, ply + 1)
            finally:
                state.undo()
            if maximizing:
                if value > best:
                    best, best_move = value, move
                a = max(a, value)
            else:
                if value < best:
                    best, best_move = value, move
                b = min(b, value)
            if a >= b:
                break
        flag = 2 if best <= alpha else 1 if best >= beta else 0
        self._table[key] = _Entry(depth, flag, best, best_move)
        return best
