"""The Exploding Atoms rules as numba kernels over one int32 array per position.

Layout of a position array ``s`` for ``n`` squares and ``p`` players (``base = 2 * n``):

=====================  ===========================================================
``s[0:n]``             atom count of each square
``s[n:2n]``            owner of each square (player index, or -1 when empty)
``s[base + TO_MOVE]``  player to move, or ``TERMINAL`` (-2)
``s[base + PLY]``      plies played
``s[base + WINNER]``   the winner, or -1
``s[moved(p)...]``     1 for each player who has made a move
``s[elim(p)...]``      1 for each eliminated player
``s[owned(p)...]``     number of squares each player owns
=====================  ===========================================================

Explosions are resolved in breadth-first waves: every square at or over capacity at the start of a wave
explodes once in that wave. The final position of a settled chain does not depend on this order (chip-firing),
and checking for the win after each wave gives a well-defined place to stop a chain that never settles.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.core.rng import below

TERMINAL = -2
TO_MOVE, PLY, WINNER, HEADER = 0, 1, 2, 3


def state_length(n: int, p: int) -> int:
    return 2 * n + HEADER + 3 * p


@njit(cache=True)
def moved_at(n: int, p: int) -> int:
    return 2 * n + HEADER


@njit(cache=True)
def elim_at(n: int, p: int) -> int:
    return 2 * n + HEADER + p


@njit(cache=True)
def owned_at(n: int, p: int) -> int:
    return 2 * n + HEADER + 2 * p


@njit(cache=True)
def is_legal(s: np.ndarray, move: int, n: int) -> bool:
    me = s[2 * n + TO_MOVE]
    if me < 0 or move < 0 or move >= n:
        return False
    owner = s[n + move]
    return owner == -1 or owner == me


@njit(cache=True)
def legal_moves(s: np.ndarray, n: int, out: np.ndarray) -> int:
    """Write the legal squares into ``out``; return how many."""
    me = s[2 * n + TO_MOVE]
    if me < 0:
        return 0
    k = 0
    for sq in range(n):
        owner = s[n + sq]
        if owner == -1 or owner == me:
            out[k] = sq
            k += 1
    return k


@njit(cache=True)
def has_won(s: np.ndarray, me: int, n: int, p: int) -> bool:
    """Every other player has moved and owns nothing."""
    moved = moved_at(n, p)
    owned = owned_at(n, p)
    for q in range(p):
        if q != me and (s[moved + q] == 0 or s[owned + q] > 0):
            return False
    return True


@njit(cache=True)
def _take(s: np.ndarray, sq: int, me: int, n: int, owned: int) -> None:
    """Square ``sq`` becomes ``me``'s (a capture when another player owned it)."""
    old = s[n + sq]
    if old != me:
        if old >= 0:
            s[owned + old] -= 1
        s[n + sq] = me
        s[owned + me] += 1


@njit(cache=True)
def apply(
    s: np.ndarray,
    move: int,
    nb: np.ndarray,
    cap: np.ndarray,
    n: int,
    p: int,
    work: np.ndarray,
    log: np.ndarray,
    record: bool,
) -> int:
    """Play a legal ``move`` in place. With ``record``, log the board after the atom is placed, then each wave:
    a step is its exploding squares (none for the placement), -1, then the board after it (the ``2 * n`` counts
    and owners), so a view draws every step without computing one.

    ``work`` is scratch space of at least ``3 * n`` int32, all zero in ``[2n, 3n)`` (kept zero on return).
    Returns the number of log entries the move needs; when that is more than ``len(log)``, the log holds
    only the first entries and the caller replays the move with a larger log.
    """
    base = 2 * n
    me = s[base + TO_MOVE]
    owned = owned_at(n, p)
    s[move] += 1
    _take(s, move, me, n, owned)
    s[moved_at(n, p) + me] = 1
    front = work[0:n]
    nxt = work[n : 2 * n]
    mark = work[2 * n : 3 * n]
    nlog = 0
    if record:
        nlog = _log_board(s, n, log, nlog)
    nfront = 0
    if s[move] >= cap[move]:
        front[0] = move
        nfront = 1
    won = False
    while nfront > 0:
        for i in range(nfront):
            sq = front[i]
            s[sq] -= cap[sq]
            if s[sq] == 0:
                s[n + sq] = -1
                s[owned + me] -= 1
            for k in range(4):
                t = nb[sq, k]
                if t >= 0:
                    _take(s, t, me, n, owned)
                    s[t] += 1
            if record:
                if nlog < log.shape[0]:
                    log[nlog] = sq
                nlog += 1
        if record:
            nlog = _log_board(s, n, log, nlog)
        if has_won(s, me, n, p):
            won = True
            break
        nnext = 0
        for i in range(nfront):
            sq = front[i]
            for k in range(5):
                t = sq if k == 4 else nb[sq, k]
                if t >= 0 and mark[t] == 0 and s[t] >= cap[t]:
                    mark[t] = 1
                    nxt[nnext] = t
                    nnext += 1
        for i in range(nnext):
            mark[nxt[i]] = 0
            front[i] = nxt[i]
        nfront = nnext
    _finish_turn(s, me, won, n, p)
    return nlog


@njit(cache=True)
def _log_board(s: np.ndarray, n: int, log: np.ndarray, nlog: int) -> int:
    """Close a logged step with -1 and the board after it (counts, then owners); the log's new length."""
    if nlog < log.shape[0]:
        log[nlog] = -1
    nlog += 1
    for i in range(2 * n):
        if nlog < log.shape[0]:
            log[nlog] = s[i]
        nlog += 1
    return nlog


@njit(cache=True)
def _finish_turn(s: np.ndarray, me: int, won: bool, n: int, p: int) -> None:
    base = 2 * n
    moved = moved_at(n, p)
    elim = elim_at(n, p)
    owned = owned_at(n, p)
    s[base + PLY] += 1
    for q in range(p):
        if q != me and s[moved + q] == 1 and s[owned + q] == 0:
            s[elim + q] = 1
    if won:
        s[base + WINNER] = me
        s[base + TO_MOVE] = TERMINAL
        return
    q = (me + 1) % p
    while s[elim + q] == 1:
        q = (q + 1) % p
    s[base + TO_MOVE] = q


@njit(cache=True)
def random_move(s: np.ndarray, n: int, rng: np.ndarray, moves: np.ndarray) -> int:
    """A uniformly random legal move (rejection sampling, then a scan when legal squares are scarce)."""
    me = s[2 * n + TO_MOVE]
    for _ in range(8):
        sq = below(rng, n)
        owner = s[n + sq]
        if owner == -1 or owner == me:
            return int(sq)
    k = legal_moves(s, n, moves)
    return int(moves[below(rng, k)])


@njit(cache=True)
def random_playouts(
    s0: np.ndarray, nb: np.ndarray, cap: np.ndarray, n: int, p: int, rng: np.ndarray, count: int
) -> np.ndarray:
    """Play ``count`` complete games of uniformly random moves from ``s0`` (left unchanged).

    Returns the number of games each player won. Every game ends: no settled position holds more than
    2E - V atoms, so a game lasts at most 2E - V + 1 plies.
    """
    wins = np.zeros(p, dtype=np.int64)
    s = np.empty_like(s0)
    work = np.zeros(3 * n, dtype=np.int32)
    moves = np.empty(n, dtype=np.int32)
    log = np.empty(1, dtype=np.int32)
    base = 2 * n
    for _ in range(count):
        for j in range(s0.shape[0]):
            s[j] = s0[j]
        while s[base + TO_MOVE] >= 0:
            apply(s, random_move(s, n, rng, moves), nb, cap, n, p, work, log, False)
        wins[s[base + WINNER]] += 1
    return wins
