"""``jewels-greedy``: the baseline that goes for the nearest jewel it can reach safely, and searches nothing.

Among the safe moves (``search.safe_moves``: no single robot step can light the man after them), it takes a
jewel when one is in reach of a slide; otherwise it slides to the square from which the fewest slides reach a
jewel, on the board as it stands. Ties are drawn at random.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from numba import njit

from damier.games.jewels import kernel
from damier.games.jewels.kernel import JEWEL, MAN, NEXT, PHASE, PLACE, squares_of
from damier.games.jewels.search import safe_moves

FAR = 1 << 20


@njit(cache=True)
def jewel_distance(s: np.ndarray, nb: np.ndarray, p: np.ndarray, start: int) -> int:
    """The fewest slides that take a jewel for the man to move, were he on ``start`` (the board frozen)."""
    n = squares_of(s)
    me = s[n + NEXT]
    work = s.copy()
    work[n + PHASE] = kernel.MEN
    dist = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    moves = np.empty(n + 5, dtype=np.int32)
    lit = np.zeros(n, dtype=np.uint8)
    emitters = np.empty(n, dtype=np.int32)
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        sq = queue[head]
        head += 1
        work[n + MAN + me] = sq
        k = kernel.man_moves(work, nb, p, lit, emitters, moves)
        for i in range(k):
            t = moves[i]
            if t >= n:
                continue
            if work[t] == JEWEL:
                return int(dist[sq]) + 1
            if dist[t] < 0:
                dist[t] = dist[sq] + 1
                queue[tail] = t
                tail += 1
    return FAR


def greedy(state: Any, rng: random.Random) -> int:
    """The greedy collector's move in ``state`` (a man to move, or the placement)."""
    g = state.game
    s = state.kernel_array()
    n = g.n
    moves = safe_moves(state)
    takes = [m for m in moves if m < n and s[m] == JEWEL and not state.placing]
    if takes:
        return int(rng.choice(takes))
    best, choice = FAR + 1, []
    for move in moves:
        if move >= n:
            distance = FAR  # an explosion or a pass: the last resort
        else:
            probe = s.copy()
            if s[n + PHASE] == PLACE:
                probe[n + MAN], probe[n + MAN + 1] = move, n - 1 - move
            distance = int(jewel_distance(probe, g.neighbours, g.params, move))
        if distance < best:
            best, choice = distance, [move]
        elif distance == best:
            choice.append(move)
    return int(rng.choice(choice))


#: the game's policies (``policy:name=greedy``)
POLICIES = {"greedy": greedy}
