"""The Ricochet Robots rules as numba kernels: where a robot's slide stops (through the board's table of stops),
the transparent robot's stops, and the one move generator (``moves``) that the game's facade and its solver use.

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
#: the most moves of one position: 4 for each of the five sliding robots, up to ``MAX_PASS`` stops a direction for
#: the transparent one (the rows ``moves`` may write)
MOVES = 4 * 5 + 4 * MAX_PASS
CELLS = SIZE * SIZE
#: the bits of a cell that stay the same along a slide in each direction: the column (N, S) or the row (E, W)
LINE = np.array([15, 240, 15, 240], dtype=np.int64)


@njit(cache=True, inline="always")
def _occupied(robots: np.ndarray, n: int, cell: int) -> bool:
    for i in range(n):
        if robots[i] == cell:
            return True
    return False


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


@njit(cache=True)
def stop_table(walls: np.ndarray, out: np.ndarray) -> None:
    """``out[cell * 4 + d]``: where a robot alone on the board stops sliding from ``cell`` in direction ``d``."""
    for c in range(CELLS):
        for d in range(4):
            cell = c
            while (walls[cell] & BIT[d]) == 0:
                cell += STEP[d]
            out[c * 4 + d] = cell


@njit(cache=True)
def slide(stops: np.ndarray, cells: np.ndarray, n: int, s: int, d: int) -> int:
    """Where the robot in slot ``s`` stops in direction ``d``: the walls' stop, or short of the nearest of the
    ``n`` robots of ``cells`` on the way (its own cell if it cannot move)."""
    return slide_from(stops, cells, n, s, cells[s], d)


@njit(cache=True)
def slide_from(stops: np.ndarray, cells: np.ndarray, n: int, s: int, c: int, d: int) -> int:
    """Where the robot in slot ``s`` stops in direction ``d`` from cell ``c`` (its cell in ``cells``, or another
    where it has moved on its own): short of the nearest other robot on the way, else the walls' stop (``c`` if it
    cannot move)."""
    stop = stops[c * 4 + d]
    if stop == c:
        return c
    step = STEP[d]
    line = LINE[d]
    for o in range(n):
        q = cells[o]
        if o != s and (q & line) == (c & line) and (c < q <= stop if step > 0 else stop <= q < c):
            stop = q - step
    return stop


@njit(cache=True)
def moves(walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray, stops: np.ndarray, cells: np.ndarray,
           nr: int, tslot: int, last_s: int, last_d: int, rebound: bool, out: np.ndarray, cbuf: np.ndarray,
           pbuf: np.ndarray) -> int:
    """Every move of the position, the one move generator of the rules and the solver: the robots' cells in
    ``cells`` (``nr`` of them; ``tslot`` the transparent robot's slot, or -1), ``stops`` the board's
    ``stop_table``; ``out[i] = (slot, direction, walls passed, destination)`` rows; how many. Without rebounds
    (``rebound`` false) the last move's robot (slot ``last_s``, direction ``last_d``) may not go straight back.
    ``cbuf``, ``pbuf``: room for the transparent robot's stops."""
    n = 0
    nall = cells.shape[0]
    for s in range(nr):
        for d in range(4):
            if not rebound and s == last_s and d == ((last_d + 2) & 3):
                continue
            if s == tslot:
                k = transparent_stops(walls, solid, coloured, cells, nall, s, d, cbuf, pbuf)
                for i in range(k):
                    out[n, 0] = s
                    out[n, 1] = d
                    out[n, 2] = pbuf[i]
                    out[n, 3] = cbuf[i]
                    n += 1
            else:
                dest = slide(stops, cells, nall, s, d)
                if dest != cells[s]:
                    out[n, 0] = s
                    out[n, 1] = d
                    out[n, 2] = 0
                    out[n, 3] = dest
                    n += 1
    return n
