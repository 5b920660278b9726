"""Alpha-beta search for Exploding Atoms inside numba: paranoid minimax from the root player's view.

With two players this is plain minimax with alpha-beta (what negamax computes); with more, every opponent is
assumed to play against the root player (paranoid search). Moves after the first of a node are searched with a
null window first (principal variation search). Move ordering: the transposition table's move, then the
squares that explode, then the two killer moves of the ply, then corners, edges and the rest, each group by
its history score (cut-offs seen so far). The search stops once it has visited ``node_limit`` nodes or when
another thread asks it to (``AtomsSearch.stop``); ``damier.ai.deepening`` drives it depth by depth.

The principal variation is collected as the search goes (a line per ply, the best move's followed by its
child's); a node searched with a full window takes no cut-off from the table, so the line it reports is searched
to the depth and not cut short where a transposition (or the previous move's search) answered for it.

The tables are kept from one move to the next (a new game clears them): the scores are from the root player's
view and for one evaluation, so both are part of every position's key, and won or lost scores are stored
relative to the node (the distance to the end), so an entry is right from any root.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from damier.core.game import Iteration
from damier.core.scores import from_table, to_table
from damier.games.atoms import INFO
from damier.games.atoms.evaluation import WIN, evaluate
from damier.games.atoms.kernel import TERMINAL, TO_MOVE, WINNER, apply, legal_moves

EXACT, LOWER, UPPER = 0, 1, 2
MAX_COUNT = 16  # counts above this share a Zobrist key slot (only over-full squares of a finished game)
MAX_PLY = 128
DECIDED = WIN - 1000  # scores beyond this are won or lost positions (WIN minus the plies to the end)
HISTORY_CAP = 1 << 20
QUIESCENCE = 2  # plies of explosions tried beyond the depth
LATE_DEPTH, LATE_MOVE = 3, 4  # from this depth, quiet moves from this index on are searched a ply less first
#: the column of the principal-variation table that holds the length of each ply's line
PV_LEN = MAX_PLY


class Tables:
    """The transposition table, Zobrist keys, killers and history of one searcher (kept across its searches)."""

    def __init__(self, n: int, p: int, kinds: int, bits: int = 18) -> None:
        self.n, self.p = n, p
        size = 1 << bits
        self.keys = np.zeros(size, dtype=np.uint64)
        self.data = np.zeros((size, 4), dtype=np.int32)  # depth, flag, move, score
        rng = np.random.default_rng(20261129)
        self.zobrist = rng.integers(1, 2**63, size=(n, p, MAX_COUNT), dtype=np.uint64)
        self.side = rng.integers(1, 2**63, size=p, dtype=np.uint64)
        self.view = rng.integers(1, 2**63, size=(p, kinds), dtype=np.uint64)  # the root player and evaluation
        self.killers = np.full((MAX_PLY, 2), -1, dtype=np.int32)
        self.history = np.zeros((p, n), dtype=np.int32)

    def clear(self) -> None:
        self.keys[:] = 0
        self.killers[:] = -1
        self.history[:] = 0


@njit(cache=True)
def position_hash(s: np.ndarray, n: int, zobrist: np.ndarray, side: np.ndarray) -> np.uint64:
    h = side[max(s[2 * n + TO_MOVE], 0)]
    for sq in range(n):
        owner = s[n + sq]
        if owner >= 0:
            h ^= zobrist[sq, owner, min(s[sq], MAX_COUNT - 1)]
    return h


@njit(cache=True)
def _order(s: np.ndarray, moves: np.ndarray, k: int, first: int, cap: np.ndarray, nb: np.ndarray, n: int,
           keys: np.ndarray, killer: np.ndarray, history: np.ndarray) -> None:
    """Give ``moves[:k]`` their ordering keys: the table move, explosions that capture at once (next to another
    player's square), killers, the other explosions, corners, edges, the rest, and last a placement next to an
    enemy critical square (taken back at once); by history within a group (``_pick`` takes them best-first)."""
    me = s[2 * n + TO_MOVE]
    for i in range(k):
        sq = moves[i]
        touches, exposed = False, False
        for j in range(4):
            t = nb[sq, j]
            if t >= 0 and s[n + t] >= 0 and s[n + t] != me:
                touches = True
                if s[t] == cap[t] - 1:
                    exposed = True
        if sq == first:
            group = 8
        elif s[sq] == cap[sq] - 1:
            group = 7 if touches else 4
        elif sq == killer[0]:
            group = 6
        elif sq == killer[1]:
            group = 5
        elif exposed:
            group = 0  # an enemy critical square next to it takes it back at once
        else:
            group = 5 - cap[sq]  # corners 3, edges 2, the rest 1
        keys[i] = group * HISTORY_CAP + history[sq]


@njit(cache=True)
def _pick(moves: np.ndarray, keys: np.ndarray, i: int, k: int) -> int:
    """Swap the best of ``moves[i:k]`` into place ``i`` and return it: a cut-off after a few moves leaves the
    rest unsorted (a full sort cost more than the search of most nodes near the leaves)."""
    best = i
    for j in range(i + 1, k):
        if keys[j] > keys[best]:
            best = j
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        keys[i], keys[best] = keys[best], keys[i]
    return int(moves[i])


@njit(cache=True)
def _reward(history: np.ndarray, killers: np.ndarray, to_move: int, mv: int, depth: int, ply: int) -> None:
    """A move that cut off: it becomes the ply's first killer and gains history."""
    if killers[ply, 0] != mv:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = mv
    value = history[to_move, mv] + depth * depth
    if value >= HISTORY_CAP:  # age every score rather than let one overflow its group
        for q in range(history.shape[0]):
            for sq in range(history.shape[1]):
                history[q, sq] >>= 1
        value = history[to_move, mv] + depth * depth
    history[to_move, mv] = value


@njit("int64(int32[:, ::1], int64, int64, int64, int64, int64, int64, int32[:, ::1], int32[::1], int64, int64, "
      "int32[::1], int64[::1], int32[::1], int64[::1])", cache=True)
def _quiesce(stack: np.ndarray, ply: int, left: int, alpha: int, beta: int, root: int, kind: int, nb: np.ndarray,
             cap: np.ndarray, n: int, p: int, work: np.ndarray, counters: np.ndarray, log: np.ndarray,
             scores: np.ndarray) -> int:
    """The score of a leaf once the explosions the side to move can start have been tried (``left`` more plies
    of them): the side to move may also play a quiet move, whose score the evaluation stands for."""
    s = stack[ply]
    to_move = s[2 * n + TO_MOVE]
    if to_move == TERMINAL:
        return (WIN - ply) if s[2 * n + WINNER] == root else -(WIN - ply)
    best = evaluate(s, root, kind, nb, cap, n, p, work, scores)
    if left == 0 or ply + 1 >= stack.shape[0] - 1 or best > DECIDED or best < -DECIDED:
        return best
    maximizing = to_move == root
    if (maximizing and best >= beta) or (not maximizing and best <= alpha):
        return best
    a, b = alpha, beta
    if maximizing:
        a = max(a, best)
    else:
        b = min(b, best)
    child = stack[ply + 1]
    for sq in range(n):
        if s[n + sq] != to_move or s[sq] != cap[sq] - 1:
            continue
        touches = False  # only explosions that capture at once: a critical square next to another player's
        for k in range(4):
            t = nb[sq, k]
            if t >= 0 and s[n + t] >= 0 and s[n + t] != to_move:
                touches = True
        if not touches:
            continue
        counters[0] += 1
        for j in range(s.shape[0]):
            child[j] = s[j]
        apply(child, sq, nb, cap, n, p, work, log, False)
        value = _quiesce(stack, ply + 1, left - 1, a, b, root, kind, nb, cap, n, p, work, counters, log, scores)
        if maximizing:
            if value > best:
                best = value
                a = max(a, value)
        elif value < best:
            best = value
            b = min(b, value)
        if a >= b:
            break
    return best


@njit(cache=True, inline="always")
def _take_line(pv: np.ndarray, ply: int, mv: int) -> None:
    """The line of ``ply`` becomes ``mv`` followed by the line of the ply after it."""
    length = pv[ply + 1, PV_LEN]
    pv[ply, 0] = mv
    for j in range(length):
        pv[ply, j + 1] = pv[ply + 1, j]
    pv[ply, PV_LEN] = length + 1


_SEARCH_SIGNATURE = (
    "int64(int32[:, ::1], int64, int64, int64, int64, int64, int64, int32[:, ::1], int32[::1], int64, int64, "
    "int32[::1], int32[:, ::1], int32[:, ::1], int64[::1], int64, uint64[::1], int32[:, ::1], uint64[:, :, ::1], "
    "uint64[::1], uint64, int32[:, ::1], int32[:, ::1], int32[::1], int64[::1], int64, int64, int32[:, ::1])"
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
    view: np.uint64,
    killers: np.ndarray,
    history: np.ndarray,
    log: np.ndarray,
    scores: np.ndarray,
    quiescence: int,
    late_move: int,
    pv: np.ndarray,
) -> int:
    s = stack[ply]
    pv[ply, PV_LEN] = 0
    counters[0] += 1
    if counters[0] > node_limit or counters[1] == 1:
        counters[1] = 1
        return 0
    to_move = s[2 * n + TO_MOVE]
    if to_move == TERMINAL:
        return (WIN - ply) if s[2 * n + WINNER] == root else -(WIN - ply)
    if depth == 0:
        return _quiesce(stack, ply, quiescence, alpha, beta, root, kind, nb, cap, n, p, work, counters, log,
                        scores)
    h = position_hash(s, n, zobrist, side) ^ view
    slot = int(h & np.uint64(tt_keys.shape[0] - 1))
    first = -1
    if tt_keys[slot] == h:
        first = tt_data[slot, 2]
        if ply > 0 and tt_data[slot, 0] >= depth and beta - alpha == 1:  # a full window's line is searched
            flag = tt_data[slot, 1]
            value = from_table(tt_data[slot, 3], ply, DECIDED)
            if flag == EXACT:
                return value
            if flag == LOWER and value >= beta:
                return value
            if flag == UPPER and value <= alpha:
                return value
    row = moves[ply]
    k = legal_moves(s, n, row)
    _order(s, row, k, first, cap, nb, n, keys[ply], killers[ply], history[to_move])
    maximizing = to_move == root
    best = -(WIN + 1) if maximizing else WIN + 1
    best_move = row[0]
    a, b = alpha, beta
    child = stack[ply + 1]
    killer = killers[ply]
    order = keys[ply]
    for i in range(k):
        mv = _pick(row, order, i, k)
        quiet = s[mv] != cap[mv] - 1 and mv != killer[0] and mv != killer[1]
        for j in range(s.shape[0]):  # an explicit loop: slice assignment costs seconds of compile time
            child[j] = s[j]
        apply(child, mv, nb, cap, n, p, work, log, False)
        # the child's array is only read below it, so it can be searched again without being rebuilt
        if i == 0:
            value = _search(stack, ply + 1, depth - 1, a, b, root, kind, nb, cap, n, p, work, moves, keys,
                            counters, node_limit, tt_keys, tt_data, zobrist, side, view, killers, history, log,
                            scores, quiescence, late_move, pv)
        else:
            # a null window (does this move beat the best so far?), a ply less for a late quiet move
            lo, hi = (a, a + 1) if maximizing else (b - 1, b)
            reduced = 1 if late_move > 0 and depth >= LATE_DEPTH and i >= late_move and quiet else 0
            value = _search(stack, ply + 1, depth - 1 - reduced, lo, hi, root, kind, nb, cap, n, p, work, moves,
                            keys, counters, node_limit, tt_keys, tt_data, zobrist, side, view, killers, history,
                            log, scores, quiescence, late_move, pv)
            if reduced and (value > a if maximizing else value < b) and counters[1] == 0:
                value = _search(stack, ply + 1, depth - 1, lo, hi, root, kind, nb, cap, n, p, work, moves, keys,
                                counters, node_limit, tt_keys, tt_data, zobrist, side, view, killers, history,
                                log, scores, quiescence, late_move, pv)
            if a < value < b and b - a > 1 and counters[1] == 0:
                value = _search(stack, ply + 1, depth - 1, a, b, root, kind, nb, cap, n, p, work, moves, keys,
                                counters, node_limit, tt_keys, tt_data, zobrist, side, view, killers, history,
                                log, scores, quiescence, late_move, pv)
        if counters[1] == 1:
            return 0
        inside = value > a if maximizing else value < b  # a better line within the window: the new principal one
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
        if inside:
            _take_line(pv, ply, mv)
        if ply == 0:  # the best root move so far, every move before it searched to the end
            counters[2] = best_move
        if a >= b:
            _reward(history, killers, to_move, mv, depth, ply)
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
    tt_data[slot, 3] = to_table(best, ply, DECIDED)
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
    view: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    counters: np.ndarray,
    quiescence: int,
    late_move: int,
    pv: np.ndarray,
) -> tuple[int, int, int, bool]:
    """Search ``s`` to ``depth`` plies: (best move, score for the player to move, nodes, completed), with
    ``quiescence`` plies of explosions at the leaves and, when ``late_move`` > 0, the quiet moves from that index
    on searched a ply less first; the principal variation is left in ``pv[0]`` (its length at ``PV_LEN``).

    ``counters[1] = 1``, set by another thread while the search runs (it runs without the GIL), stops it.
    """
    depth = min(depth, MAX_PLY - 2)
    stack = np.empty((depth + quiescence + 2, s.shape[0]), dtype=np.int32)
    for j in range(s.shape[0]):
        stack[0, j] = s[j]
    moves = np.empty((depth + 1, n), dtype=np.int32)
    keys = np.empty((depth + 1, n), dtype=np.int32)
    work = np.zeros(3 * n, dtype=np.int32)
    log = np.empty(1, dtype=np.int32)
    scores = np.empty(p, dtype=np.int64)
    counters[0] = 0
    root = s[2 * n + TO_MOVE]
    counters[2] = -1
    score = _search(stack, 0, depth, -(WIN + 1), WIN + 1, root, kind, nb, cap, n, p, work, moves, keys,
                    counters, node_limit, tt_keys, tt_data, zobrist, side, view[root, kind], killers, history, log,
                    scores, quiescence, late_move, pv)
    return int(counters[2]), score, int(counters[0]), bool(counters[1] == 0)


class AtomsSearch:
    """The Atoms kernel's fixed-depth search (the ``search`` feature, driven by ``damier.ai.deepening``).

    A depth stopped early answers the best of the root moves searched to the end (the previous depth's best is
    searched first), or no move when not even that one was (``partial_moves``).

    ``selective`` (the default) adds the quiescence search and the late-move reductions; without it, a depth is
    exactly the minimax value of that many plies (what the tests compare with a plain minimax).
    """

    partial_moves = True

    def __init__(self, game: Any, selective: bool = True) -> None:
        self.game = game
        self.quiescence, self.late_move = (QUIESCENCE, LATE_MOVE) if selective else (0, 0)
        self.tables = Tables(game.n, game.players, len(INFO.evaluations))
        self._counters = np.zeros(3, dtype=np.int64)
        self.pv = np.zeros((MAX_PLY, PV_LEN + 1), dtype=np.int32)

    def new_game(self) -> None:
        self.tables.clear()

    def new_search(self, state: Any) -> None:
        """The tables are kept (their keys hold the root player and the evaluation); only the stop is cleared."""
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
                                               g.players, limit, t.keys, t.data, t.zobrist, t.side, t.view,
                                               t.killers, t.history, counters, self.quiescence,
                                               self.late_move, self.pv)
        line = [int(m) for m in self.pv[0, : int(self.pv[0, PV_LEN])]]
        if completed and line and line[0] == move:
            return Iteration(depth=depth, score=score, move=move, pv=line, nodes=nodes, completed=True)
        if completed or move >= 0:
            return Iteration(depth=depth, score=score, move=move, pv=[move], nodes=nodes, completed=completed)
        return Iteration(depth=depth, nodes=nodes, completed=False)
