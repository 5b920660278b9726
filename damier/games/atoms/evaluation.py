"""Evaluation functions for Exploding Atoms, as numba kernels over the position array.

``classic`` is the critical-squares heuristic of the rules file, exactly (the baseline agent ``atoms-classic``
uses it). ``strong`` is relative: a player's classic score minus the best classic score among the opponents
still in the game, so it also sees the opponents' threats and groups. Both come from one pass over the
board that scores every player at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.games.atoms import INFO
from damier.games.atoms.kernel import TERMINAL, TO_MOVE, WINNER, elim_at

#: The score of a won position (a lost one scores minus this).
WIN = 10000

EVALUATIONS = INFO.evaluations


@njit(cache=True)
def classic_scores(
    s: np.ndarray, nb: np.ndarray, cap: np.ndarray, n: int, p: int, work: np.ndarray, scores: np.ndarray
) -> None:
    """Write the classic score of every player into ``scores`` (undecided positions only).

    For each square of player P: +1 per atom; if an enemy critical square is next to it, minus
    (5 - its capacity); otherwise +3 in a corner, +2 on an edge, +2 if it is critical itself. Then +2 x size
    for every connected group of two or more of P's critical squares.
    """
    for q in range(p):
        scores[q] = 0
    for sq in range(n):
        owner = s[n + sq]
        if owner < 0:
            continue
        score = s[sq]
        threatened = False
        for k in range(4):
            t = nb[sq, k]
            if t >= 0 and s[n + t] >= 0 and s[n + t] != owner and s[t] == cap[t] - 1:
                threatened = True
        if threatened:
            score -= 5 - cap[sq]
        else:
            if cap[sq] == 2:
                score += 3
            elif cap[sq] == 3:
                score += 2
            if s[sq] == cap[sq] - 1:
                score += 2
        scores[owner] += score
    # connected groups of critical squares of one owner (flood fill)
    seen = work[0:n]
    stack = work[n : 2 * n]
    for sq in range(n):
        seen[sq] = 0
    for start in range(n):
        owner = s[n + start]
        if seen[start] or owner < 0 or s[start] != cap[start] - 1:
            continue
        seen[start] = 1
        stack[0] = start
        top = 1
        size = 0
        while top > 0:
            top -= 1
            sq = stack[top]
            size += 1
            for k in range(4):
                t = nb[sq, k]
                if t >= 0 and seen[t] == 0 and s[n + t] == owner and s[t] == cap[t] - 1:
                    seen[t] = 1
                    stack[top] = t
                    top += 1
        if size >= 2:
            scores[owner] += 2 * size


@njit(cache=True)
def evaluate(
    s: np.ndarray, player: int, kind: int, nb: np.ndarray, cap: np.ndarray, n: int, p: int, work: np.ndarray,
    scores: np.ndarray,
) -> int:
    """The evaluation ``EVALUATIONS[kind]`` of ``s`` for ``player``: +/-WIN once decided for them (``scores``:
    scratch space of ``p`` int64)."""
    if s[2 * n + TO_MOVE] == TERMINAL:
        return WIN if s[2 * n + WINNER] == player else -WIN
    elim = elim_at(n, p)
    if s[elim + player] == 1:
        return -WIN
    classic_scores(s, nb, cap, n, p, work, scores)
    if kind == 0:
        return int(scores[player])
    best_other = -WIN
    for q in range(p):
        if q != player and s[elim + q] == 0 and scores[q] > best_other:
            best_other = scores[q]
    return int(scores[player] - best_other)
