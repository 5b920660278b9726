"""Alpha-beta with iterative deepening, a transposition table, move ordering and a time limit.

The depths are driven by ``damier.ai.deepening`` (one driver, one time rule). Each depth is searched by the
game's own kernel search when it declares one (the ``search`` feature), else by ``ContractSearch`` below, over
the contract: two players, minimax from the root player's view (what negamax computes); more players, paranoid
search, every opponent minimising the root player's evaluation; chance nodes, expectimax (the
probability-weighted mean).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from damier.ai.deepening import Deepening
from damier.core.errors import StateError
from damier.core.game import CHANCE, TERMINAL, Game, Iteration, State
from damier.core.search import FixedDepthSearch

MAX_DEPTH = 64


class _Stopped(Exception):
    pass


@dataclass
class _Entry:
    depth: int
    flag: int  # 0 exact, 1 lower bound, 2 upper bound
    value: float
    move: int


class ContractSearch:
    """A fixed-depth alpha-beta / paranoid / expectimax search through the game contract (any game).

    >>> import damier
    >>> state = damier.load("atoms", rows=3, cols=3).new_state()
    >>> search = ContractSearch()
    >>> search.new_search(state)
    >>> found = search.search(state, 2, None, None)
    >>> found.completed, state.is_legal(found.move)
    (True, True)
    """

    def __init__(self, game: Game | None = None) -> None:
        self._table: dict[bytes, _Entry] = {}
        self._stop = threading.Event()
        self._nodes = 0
        self._limit: int | None = None
        self._abortable = True
        self._root = 0
        self._evaluation: str | None = None

    def new_game(self) -> None:
        self._table.clear()

    def new_search(self, state: State) -> None:
        """The table's scores are from one root player's view: a new root starts a new table."""
        self._table.clear()
        self._stop.clear()

    def stop(self) -> None:
        self._stop.set()

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        self._nodes = 0
        self._limit = None if depth == 1 else node_limit
        self._abortable = depth > 1  # depth 1 always completes
        self._root = state.player
        self._evaluation = evaluation
        work = state.copy()
        try:
            value = self._value(work, depth, -math.inf, math.inf, 0)
        except _Stopped:
            entry = self._table.get(state.key())
            move = entry.move if entry else state.legal_moves()[0]
            return Iteration(depth=depth, move=move, pv=[move], nodes=self._nodes, completed=False)
        move = self._table[state.key()].move
        return Iteration(depth=depth, score=value, move=move, pv=self._line(state, depth), nodes=self._nodes)

    def _line(self, state: State, depth: int) -> list[int]:
        """The principal variation of a completed search: the table's move from the root, then from each position
        it leads to, for ``depth`` moves (or until a chance event, the end, or a position the table forgot)."""
        work = state.copy()
        line: list[int] = []
        while len(line) < depth and work.player >= 0:
            entry = self._table.get(work.key())
            if entry is None or not work.is_legal(entry.move):
                break
            line.append(entry.move)
            work.play(entry.move)
        return line

    def _leaf(self, state: State, ply: int) -> float:
        outcome = state.outcome()
        game = state.game
        if outcome is not None:
            result = outcome.returns[self._root]
            if result > 0:
                return game.win_score - ply
            if result < 0:
                return -game.win_score + ply
            return 0.0
        if game.evaluations:
            return game.evaluate(state, self._root, self._evaluation)
        return 0.0

    def _value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._nodes += 1
        if self._abortable and self._nodes % 256 == 0 and (
            self._stop.is_set() or (self._limit is not None and self._nodes > self._limit)
        ):
            raise _Stopped
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


def fixed_depth_search(game: Game, use_kernel: bool = True) -> FixedDepthSearch:
    """The game's kernel search when it declares one (and ``use_kernel``), else ``ContractSearch``."""
    if use_kernel and game.info.has("search"):
        searcher: FixedDepthSearch = game.info.hook("search")(game)
        return searcher
    return ContractSearch(game)


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
        self.info = Iteration()
        self._driver: Deepening | None = None
        self._game: Any = None

    @property
    def searcher(self) -> FixedDepthSearch | None:
        """The fixed-depth search in use (the game's kernel search or ``ContractSearch``), once it has chosen."""
        return None if self._driver is None else self._driver.searcher

    def prepare(self, game: Any) -> None:
        """Build the search for ``game`` now (its kernels loaded, its tables allocated), so that a timed first
        move does not spend its time on it (``make_agent`` calls it)."""
        if self._driver is None or self._game != game:
            self._driver = Deepening(fixed_depth_search(game, self.use_kernel))
            self._game = game

    def reset(self) -> None:
        if self._driver is not None:
            self._driver.new_game()

    def choose(self, state: State) -> int:
        if state.player < 0:
            raise StateError("alpha-beta chooses moves for a player; this state is a chance node or over")
        started = time.perf_counter()  # a timed move's allotment counts from here: building the search is in it
        moves = state.legal_moves()
        if len(moves) == 1:
            self.info = Iteration(move=moves[0], depth=0, pv=[moves[0]])
            return moves[0]
        self.prepare(state.game)
        assert self._driver is not None
        seconds = None if self.time_limit is None else self.time_limit - (time.perf_counter() - started)
        self.info = self._driver.think(state, max_depth=self.depth or MAX_DEPTH, seconds=seconds,
                                       evaluation=self.evaluation)
        assert self.info.move is not None
        return self.info.move
