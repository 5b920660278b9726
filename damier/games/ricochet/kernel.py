"""The Ricochet Robots rules as numba kernels: where a robot's slide stops, and the transparent robot's stops.

Cells are ``y * 16 + x``; ``walls[cell]`` is a bitmask (N 1, E 2, S 4, W 8) of the walls around a cell, both sides
of every wall recorded (``boards``); ``solid`` the walls even the transparent robot cannot pass (the outer edge and
the centre block). ``robots`` holds each robot's cell, in the order red, green, blue, yellow, then silver and the
transparent robot when the game has them. A slide goes until a wall on the robot's side, or a robot in the next
cell: it never enters the centre block (walled all round) and never leaves the board (walled all round).
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIZE = 16
STEP = np.array([-16, 1, 16, -1], dtype=np.int64)
BIT = np.array([1, 2, 4, 8], dtype=np.int64)
#: the most walls one transparent slide can pass (a line of 16 cells has at most 15 walls inside it)
MAX_PASS = 16


@njit(cache=True, inline="always")
def _occupied(robots: np.ndarray, n: int, cell: int) -> bool:
    for i in range(n):
        if robots[i] == cell:
            return True
    return False


@njit(cache=True)
def slide(walls: np.ndarray, robots: np.ndarray, n: int, r: int, d: int) -> int:
    """Where robot ``r`` stops sliding in direction ``d`` (N 0, E 1, S 2, W 3): its own cell if it cannot move."""
    cell = robots[r]
    step, bit = STEP[d], BIT[d]
    while (walls[cell] & bit) == 0 and not _occupied(robots, n, cell + step):
        cell += step
    return cell


@njit(cache=True)
def transparent_stops(walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray, robots: np.ndarray, n: int,
                      r: int, d: int, cells: np.ndarray, passes: np.ndarray) -> int:
    """The cells where the transparent robot ``r`` may end a slide in direction ``d``, with the walls it passes to
    get there (the move costs 1 + that): wherever a robot would stop (a wall, a robot ahead), it may stop, or pass
    the wall at one more move; never a solid wall, never a robot, never ending on a coloured target (``coloured``)
    nor where it started. Returns how many stops, written to ``cells`` and ``passes`` in increasing passes."""
    start = robots[r]
    cell = start
    step, bit = STEP[d], BIT[d]
    passed = 0
    k = 0
    while True:
        wall = (walls[cell] & bit) != 0
        hard = (solid[cell] & bit) != 0
        robot_ahead = not hard and _occupied(robots, n, cell + step)
        if wall or robot_ahead:
            if cell != start and not coloured[cell]:
                cells[k] = cell
                passes[k] = passed
                k += 1
            if robot_ahead or hard:
                return k
            passed += 1  # through the wall, at one more move
        cell += step
