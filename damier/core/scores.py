"""Won and lost scores in the kernels' transposition tables, shared by every game's search.

A search scores a won position ``win - plies`` from the root (a lost one the negation), so that a quicker win
scores higher; every score beyond ``decided`` (``win`` minus the longest line a search may reach) is such a
decided score. A table entry is reused at other distances from the root, so it stores the score counted from
its own node, and a probe counts it back from the root.

>>> stored = to_table(10_000 - 7, 3, 9_000)  # a win 7 plies from the root, stored at a node 3 plies deep
>>> stored, from_table(stored, 5, 9_000)  # 4 plies from that node; met again 5 plies deep: 9 from the root
(9996, 9991)
>>> to_table(-9_993, 3, 9_000), to_table(42, 3, 9_000)
(-9996, 42)
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def to_table(score: int, ply: int, decided: int) -> int:
    """``score``, found ``ply`` plies from the root, as a table stores it: a decided score counted from the node."""
    if score > decided:
        return score + ply
    if score < -decided:
        return score - ply
    return score


@njit(cache=True, inline="always")
def from_table(score: int, ply: int, decided: int) -> int:
    """A stored ``score`` met ``ply`` plies from the root, counted from the root again."""
    if score > decided:
        return score - ply
    if score < -decided:
        return score + ply
    return score
