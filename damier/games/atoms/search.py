"""Alpha-beta search for Exploding Atoms inside numba: paranoid minimax from the root player's view.

With two players this is plain minimax with alpha-beta (what negamax computes); with more, every opponent is
assumed to play against the root player (paranoid search). A Zobrist transposition table, the table's move
first, then captures-by-explosion and corners, order the moves. The search stops once it has visited
``node_limit`` nodes or when another thread asks it to (``AtomsSearch.stop``); ``damier.ai.deepening`` drives
it depth by depth.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from damier.core.game import Iteration
from damier.games.atoms import INFO
from damier.games.atoms.evaluation import WIN, evaluate
from damier.games.atoms.kernel import TERMINAL, TO_MOVE, WINNER, apply, legal_moves

EXACT, LOWER, UPPER = 0, 1, 2
MAX_COUNT = 16  # counts above this share a Zobrist key slot (only over-full squares of a finished game)


class Tables:
    """The transposition table and Zobrist keys of one searcher (reused across its searches)."""

    def __init__(self, n: int, p: int, bits: int = 18) -> None:
        self.n, self.p = n, p
        size = 1 << bits
        self.keys = np.zeros(size, dtype=np.uint64)
        self.data = np.zeros((size, 4), dtype=np.int32)  # depth, flag, move, score
        rng = np.random.default_rng(20261129)
        self.zobrist = rng.integers(1, 2**63, size=(n, p, MAX_COUNT), dtype=np.uint64)
        self.side = rng.integers(1, 2**63, size=p, dtype=np.uint64)

    def clear(self) -> None:
        self.keys[:] = 0


@njit(cache=True)
def position_hash(s: np.ndarray, n: int, zobrist: np.ndarray, side: np.ndarray) -> np.uint64:
    h = side[max(s[2 * n + TO_MOVE], 0)]
    for sq in range(n):
        owner = s[n + sq]
        if owner >= 0:
            h ^= zobrist[sq, owner, min(s[sq], MAX_COUNT - 1)]
    return h


@njit(cache=True)
def _order(s: np.ndarray, moves: np.ndarray, k: int, first: int, cap: np.ndarray, n: int, keys: np.ndarray) -> None:
    """Sort ``moves[:k]`` best-first: the table move, then exploding squares, corners, edges."""
    for i in range(k):
        sq = moves[i]
        if sq == first:
            keys[i] = 100
        elif s[sq] == cap[sq] - 1:
            keys[i] = 10
        else:
            keys[i] = 4 - cap[sq]
    for i in range(1, k):  # insertion sort, descending keys, stable
        key = keys[i]
        mv = moves[i]
        j = i - 1
        while j >= 0 and keys[j] < key:
            keys[j + 1] = keys[j]
            moves[j + 1] = moves[j]
            j -= 1
        keys[j + 1] = key
        moves[j + 1] = mv


_SEARCH_SIGNATURE = (
    "int64(int32[:, ::1], int64, int64, int64, int64, int64, int64, int32[:, ::1], int32[::1], int64, int64, "
    "int32[::1], int32[:, ::1], int32[:, ::1], int64[::1], int64, uint64[::1], int32[:, ::1], uint64[:, :, ::1], "
    "uint64[::1])"
)


@njit(_SEARCH_SIGNATURE, cache=True)
def _search(
    stack: np.ndarray,
    ply: int,
    depth: int,
    alpha: int,
    beta: int,
    root: int,
    kind: int,
    nb: np.ndarray,
    cap: np.ndarray,
    n: int,
    p: int,
    work: np.ndarray,
    moves: np.ndarray,
    keys: np.ndarray,
    counters: np.ndarray,
    node_limit: int,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    zobrist: np.ndarray,
    side: np.ndarray,
) -> int:
    s = stack[ply]
    counters[0] += 1
    if counters[0] > node_limit:
        counters[1] = 1
        return 0
    to_move = s[2 * n + TO_MOVE]
    if to_move == TERMINAL:
        return (WIN - ply) if s[2 * n + WINNER] == root else -(WIN - ply)
    if depth == 0:
        return evaluate(s, root, kind, nb, cap, n, p, work)
    h = position_hash(s, n, zobrist, side)
    slot = int(h & np.uint64(tt_keys.shape[0] - 1))
    first = -1
    if tt_keys[slot] == h:
        first = tt_data[slot, 2]
        if ply > 0 and tt_data[slot, 0] >= depth:
            flag = tt_data[slot, 1]
            value = tt_data[slot, 3]
            if flag == EXACT:
                return value
            if flag == LOWER and value >= beta:
                return value
            if flag == UPPER and value <= alpha:
                return value
    row = moves[ply]
    k = legal_moves(s, n, row)
    _order(s, row, k, first, cap, n, keys[ply])
    maximizing = to_move == root
    best = -(WIN + 1) if maximizing else WIN + 1
    best_move = row[0]
    a, b = alpha, beta
    child = stack[ply + 1]
    log = np.empty(1, dtype=np.int32)
    for i in range(k):
        mv = row[i]
        for j in range(s.shape[0]):  # an explicit loop: slice assignment costs seconds of compile time
            child[j] = s[j]
        apply(child, mv, nb, cap, n, p, work, log, False)
        value = _search(stack, ply + 1, depth - 1, a, b, root, kind, nb, cap, n, p, work, moves, keys,
                        counters, node_limit, tt_keys, tt_data, zobrist, side)
        if counters[1] == 1:
            return 0
        if maximizing:
            if value > best:
                best = value
                best_move = mv
                if value > a:
                    a = value
        else:
            if value < best:
                best = value
                best_move = mv
                if value < b:
                    b = value
        if a >= b:
            break
    if best <= alpha:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    else:
        flag = EXACT
    tt_keys[slot] = h
    tt_data[slot, 0] = depth
    tt_data[slot, 1] = flag
    tt_data[slot, 2] = best_move
    tt_data[slot, 3] = best
    if ply == 0:
        counters[2] = best_move
    return best


@njit(cache=True, nogil=True)
def search(
    s: np.ndarray,
    depth: int,
    kind: int,
    nb: np.ndarray,
    cap: np.ndarray,
    n: int,
    p: int,
    node_limit: int,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    zobrist: np.ndarray,
    side: np.ndarray,
    counters: np.ndarray,
) -> tuple[int, int, int, bool]:
    """Search ``s`` to ``depth`` plies: (best move, score for the player to move, nodes, completed).

    ``counters[1] = 1``, set by another thread while the search runs (it runs without the GIL), stops it.
    """
    stack = np.empty((depth + 2, s.shape[0]), dtype=np.int32)
    for j in range(s.shape[0]):
        stack[0, j] = s[j]
    moves = np.empty((depth + 1, n), dtype=np.int32)
    keys = np.empty((depth + 1, n), dtype=np.int32)
    work = np.zeros(3 * n, dtype=np.int32)
    counters[0] = 0
    root = s[2 * n + TO_MOVE]
    counters[2] = -1
    score = _search(stack, 0, depth, -(WIN + 1), WIN + 1, root, kind, nb, cap, n, p, work, moves, keys,
                    counters, node_limit, tt_keys, tt_data, zobrist, side)
    return int(counters[2]), score, int(counters[0]), bool(counters[1] == 0)


class AtomsSearch:
    """The Atoms kernel's fixed-depth search (the ``search`` feature, driven by ``damier.ai.deepening``)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.tables = Tables(game.n, game.players)
        self._counters = np.zeros(3, dtype=np.int64)

    def new_game(self) -> None:
        self.tables.clear()

    def new_search(self, state: Any) -> None:
        """A cleared transposition table: its scores are relative to one root player, so one per position."""
        self.tables.clear()
        self._counters[1] = 0

    def stop(self) -> None:
        self._counters[1] = 1

    def search(self, state: Any, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        g = self.game
        kind = INFO.evaluations.index(evaluation or INFO.evaluations[0])
        # depth 1 always completes: it gets counters no other thread can stop
        counters = self._counters if depth > 1 else np.zeros(3, dtype=np.int64)
        limit = 2**62 if node_limit is None or depth == 1 else node_limit
        t = self.tables
        move, score, nodes, completed = search(state.kernel_array(), depth, kind, g.neighbours, g.capacity, g.n,
                                               g.players, limit, t.keys, t.data, t.zobrist, t.side, counters)
        return Iteration(depth=depth, score=score, move=move, pv=[move], nodes=nodes, completed=completed)
