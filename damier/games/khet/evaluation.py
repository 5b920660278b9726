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
    NEIGHBOURS,
    PHARAOH,
    PYRAMID,
    SPHINX_SQUARE,
    SQUARES,
    TO_MOVE,
    deflect,
    shot_target,
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
def _beam_reach(s: np.ndarray, colour: int) -> int:
    """Squares the beam of ``colour`` crosses before it stops (a longer beam controls more of the board)."""
    sq = SPHINX_SQUARE[colour]
    d = s[sq] & 3
    n = 0
    for _ in range(4 * SQUARES + 2):
        sq = NEIGHBOURS[sq, 2 * d]
        if sq < 0:
            return n
        n += 1
        if s[sq] != 0:
            d = deflect(d, s[sq])
            if d < 0:
                return n
    return n


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
    pharaohs = np.full(2, -1, dtype=np.int64)
    for sq in range(SQUARES):
        c = s[sq]
        if c == 0:
            continue
        v = piece_value(c)
        if (c >> 3) == PHARAOH:
            pharaohs[(c >> 2) & 1] = sq
        material += v if ((c >> 2) & 1) == me else -v
    if which == 1:
        return material
    score = material
    them = 1 - me
    # what each laser hits if it fired now
    mine = shot_target(s, me)
    if mine >= 0:
        victim = s[mine]
        if (victim >> 3) == PHARAOH:
            if ((victim >> 2) & 1) == them:
                return PHARAOH_IN_SIGHT + material
            score -= 400  # our own beam ends on our Pharaoh: only moves that change it are safe
        elif ((victim >> 2) & 1) == them:
            score += piece_value(victim) // 2
        else:
            score -= piece_value(victim) // 4
    theirs = shot_target(s, them)
    if theirs >= 0:
        victim = s[theirs]
        if (victim >> 3) == PHARAOH:
            score -= 3000 if ((victim >> 2) & 1) == me else -200
        elif ((victim >> 2) & 1) == me:
            score -= piece_value(victim) // 3
        else:
            score += piece_value(victim) // 5
    score += 4 * (_beam_reach(s, me) - _beam_reach(s, them))
    if pharaohs[me] >= 0 and pharaohs[them] >= 0:
        score += _pharaoh_safety(s, me, pharaohs[me]) - _pharaoh_safety(s, them, pharaohs[them])
    return score
