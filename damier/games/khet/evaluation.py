"""Khet evaluations, from the side to move's point of view, in units where a Pyramid is worth 1000.

``strong`` (the default): material, what each laser hits now, the Pharaoh's exposure along open lines and its
guards, the beam's reach. ``simple``: material only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.games.khet import INFO
from damier.games.khet.kernel import (
    ANUBIS,
    HIT,
    NEIGHBOURS,
    PHARAOH,
    PYRAMID,
    SQUARES,
    TO_MOVE,
    trace,
)

EVALUATIONS = INFO.evaluations
WIN = 100_000
PYRAMID_VALUE = 1000
ANUBIS_VALUE = 1300
#: the laser of the side to move already hits the other Pharaoh: any quiet move elsewhere wins
PHARAOH_IN_SIGHT = 20_000


def index_of(name: str) -> int:
    if name not in EVALUATIONS:
        raise ValueError(f"unknown evaluation {name!r}; khet has {', '.join(EVALUATIONS)}")
    return EVALUATIONS.index(name)


@njit(cache=True, inline="always")
def piece_value(c: int) -> int:
    k = c >> 3
    if k == PYRAMID:
        return PYRAMID_VALUE
    if k == ANUBIS:
        return ANUBIS_VALUE
    return 0


@njit(cache=True)
def _pharaoh_safety(s: np.ndarray, colour: int, pharaoh: int) -> int:
    """Guards next to the Pharaoh, less its open lines (orthogonal lines to the edge with no piece)."""
    score = 0
    for d in range(8):
        t = NEIGHBOURS[pharaoh, d]
        if t >= 0 and s[t] != 0 and ((s[t] >> 2) & 1) == colour:
            score += 60 if (d & 1) == 0 else 25
    for d in range(0, 8, 2):
        t = NEIGHBOURS[pharaoh, d]
        while t >= 0 and s[t] == 0:
            t = NEIGHBOURS[t, d]
        if t >= 0 and ((s[t] >> 2) & 1) != colour and (s[t] >> 3) == PYRAMID:
            score -= 120  # an enemy mirror faces down an open line to the Pharaoh
        elif t < 0:
            score -= 20
    return score


@njit(cache=True)
def evaluate(s: np.ndarray, which: int) -> int:
    """The evaluation ``which`` (index into ``EVALUATIONS``) of ``s`` for the side to move."""
    me = s[TO_MOVE]
    if me < 0:
        return 0
    material = 0
    my_pharaoh = their_pharaoh = -1
    for sq in range(SQUARES):
        c = s[sq]
        if c == 0:
            continue
        v = piece_value(c)
        mine = ((c >> 2) & 1) == me
        if (c >> 3) == PHARAOH:
            if mine:
                my_pharaoh = sq
            else:
                their_pharaoh = sq
        material += v if mine else -v
    if which == 1:
        return material
    score = material
    them = 1 - me
    # what each laser hits if it fired now, and how far it reaches (a longer beam controls more of the board)
    my_reach, how, at = trace(s, me, None)
    if how == HIT:
        victim = s[at]
        if (victim >> 3) == PHARAOH:
            if ((victim >> 2) & 1) == them:
                return PHARAOH_IN_SIGHT + material
            score -= 400  # our own beam ends on our Pharaoh: only moves that change it are safe
        elif ((victim >> 2) & 1) == them:
            score += piece_value(victim) // 2
        else:
            score -= piece_value(victim) // 4
    their_reach, how, at = trace(s, them, None)
    if how == HIT:
        victim = s[at]
        if (victim >> 3) == PHARAOH:
            score -= 3000 if ((victim >> 2) & 1) == me else -200
        elif ((victim >> 2) & 1) == me:
            score -= piece_value(victim) // 3
        else:
            score += piece_value(victim) // 5
    score += 4 * (my_reach - their_reach)
    if my_pharaoh >= 0 and their_pharaoh >= 0:
        score += _pharaoh_safety(s, me, my_pharaoh) - _pharaoh_safety(s, them, their_pharaoh)
    return score
