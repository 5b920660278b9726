"""Lasers on a rectangular grid: one numba kernel walks a beam square by square, for every game that fires one.

A game gives the board (an int array of piece codes, 0 for an empty square), a neighbour table
(``neighbours[square, direction]``, -1 off the board; directions 0-3) and a **deflection table**
(``deflection[code, incoming direction]`` = the direction the beam leaves in, 0-3, or ``ABSORB`` or
``REMOVE``), precomputed once from its rules. The kernel knows no game: Khet's Sphinxes and Jewels and Lasers'
robots fire the same walk with their own tables.

A tiny board, 3 x 3 with row 0 at the top (directions N, E, S, W), where code 1 is a ``\\`` mirror, code 2
absorbs the beam and code 3 is removed by a beam from any side:

>>> import numpy as np
>>> from damier.core.grid import orthogonal_neighbours
>>> table = np.zeros((4, 4), dtype=np.int32)
>>> table[1] = [3, 2, 1, 0]                  # travelling N it leaves W, E leaves S, S leaves E, W leaves N
>>> table[2], table[3] = ABSORB, REMOVE
>>> board = np.array([3, 0, 0,
...                   0, 0, 0,
...                   1, 0, 0], dtype=np.int32)
>>> path = np.zeros(max_path(9), dtype=np.int32)
>>> walk(board, 8, 3, table, orthogonal_neighbours(3, 3), path)   # from the bottom-right corner, heading W
(4, 2, 0)
>>> [(int(p) >> 2, "NESW"[int(p) & 3]) for p in path[:4]]        # the mirror on 6 turns it N, 0 is removed
[(7, 'W'), (6, 'N'), (3, 'N'), (0, 'N')]
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: deflection-table entries for a beam that goes no further: it is absorbed, or the piece it hits is removed
ABSORB, REMOVE = -1, -2
#: how a beam stopped: it left the board, was absorbed, hit a piece that is removed, or went round in a loop
LEFT_BOARD, ABSORBED, HIT, LOOPED = 0, 1, 2, 3


def max_path(squares: int) -> int:
    """The longest path a beam can have on a board of ``squares`` squares (each square entered at most once per
    direction, then it would be looping): the length of a ``path`` array that never overflows."""
    return 4 * squares


@njit(cache=True)
def _walk(board: np.ndarray, start: int, direction: int, deflection: np.ndarray, neighbours: np.ndarray,
          path: np.ndarray | None, lit: np.ndarray | None) -> tuple[int, int, int]:
    """The one beam walk: ``walk``, ``target`` and ``light`` are this loop with their outputs. numba compiles a
    version per combination of outputs given (an output that is None is pruned at compile time)."""
    limit = 4 * neighbours.shape[0]
    sq = int(start)
    d = int(direction)
    n = 0
    while n < limit:
        sq = int(neighbours[sq, d])
        if sq < 0:
            return n, LEFT_BOARD, -1
        c = board[sq]
        if c != 0:
            out = deflection[c, d]
            if out < 0:
                if path is not None:
                    path[n] = sq * 4 + d
                if lit is not None:
                    lit[sq] = 1
                return n + 1, (ABSORBED if out == ABSORB else HIT), int(sq)
            d = int(out)
        if path is not None:
            path[n] = sq * 4 + d
        if lit is not None:
            lit[sq] = 1
        n += 1
    return n, LOOPED, -1


@njit(cache=True)
def walk(board: np.ndarray, start: int, direction: int, deflection: np.ndarray, neighbours: np.ndarray,
         path: np.ndarray | None) -> tuple[int, int, int]:
    """Fire a beam from ``start`` (the emitter's square, not entered) towards ``direction``.

    Returns (path length, how it stopped, the square it stopped on or -1): the length counts the squares the beam
    enters, the one it stops on included; how it stopped is ``LEFT_BOARD``, ``ABSORBED``, ``HIT`` (the piece
    there is removed) or ``LOOPED`` (it would go round forever; the square is then -1). Unless ``path`` is None,
    ``path[i]`` receives ``square * 4 + direction`` for the i-th square entered, the direction being the one the
    beam leaves in (the one it arrived in, where it stops); ``path`` needs ``max_path(squares)`` entries.

    On a 1 x 4 row whose last square holds a piece that absorbs the beam from the west, fired from square 0:

    >>> import numpy as np
    >>> from damier.core.grid import orthogonal_neighbours
    >>> table = np.array([[0, 1, 2, 3], [ABSORB, ABSORB, ABSORB, ABSORB]], dtype=np.int32)
    >>> path = np.zeros(max_path(4), dtype=np.int32)
    >>> walk(np.array([0, 0, 0, 1], dtype=np.int32), 0, 1, table, orthogonal_neighbours(1, 4), path)
    (3, 1, 3)
    >>> (path[:3] >> 2).tolist(), (path[:3] & 3).tolist()
    ([1, 2, 3], [1, 1, 1])
    """
    return _walk(board, start, direction, deflection, neighbours, path, None)


@njit(cache=True)
def target(board: np.ndarray, start: int, direction: int, deflection: np.ndarray, neighbours: np.ndarray) -> int:
    """The square whose piece the beam removes (it stops there with ``HIT``), or -1: ``walk`` without a path.

    >>> import numpy as np
    >>> from damier.core.grid import orthogonal_neighbours
    >>> table = np.array([[0, 1, 2, 3], [REMOVE, REMOVE, REMOVE, REMOVE]], dtype=np.int32)
    >>> target(np.array([0, 0, 1, 0], dtype=np.int32), 0, 1, table, orthogonal_neighbours(1, 4))
    2
    """
    _, how, at = _walk(board, start, direction, deflection, neighbours, None, None)
    return at if how == HIT else -1


@njit(cache=True)
def light(board: np.ndarray, start: int, direction: int, deflection: np.ndarray, neighbours: np.ndarray,
          lit: np.ndarray) -> tuple[int, int, int]:
    """Clear ``lit`` (one entry per square), then set ``lit[square] = 1`` on every square the beam enters,
    the one it stops on included. Returns what ``walk`` returns.

    On a 2 x 2 board (row 0 at the top), a ``/`` mirror (code 1) in the top-left corner turns a beam fired
    north from the bottom-left corner to the east:

    >>> import numpy as np
    >>> from damier.core.grid import orthogonal_neighbours
    >>> table = np.array([[0, 1, 2, 3], [1, 0, 3, 2]], dtype=np.int32)
    >>> lit = np.zeros(4, dtype=np.uint8)
    >>> light(np.array([1, 0, 0, 0], dtype=np.int32), 2, 0, table, orthogonal_neighbours(2, 2), lit)
    (2, 0, -1)
    >>> lit.tolist()
    [1, 1, 0, 0]
    """
    for i in range(lit.shape[0]):
        lit[i] = 0
    return _walk(board, start, direction, deflection, neighbours, None, lit)


@njit(cache=True)
def light_all(board: np.ndarray, emitters: np.ndarray, count: int, deflection: np.ndarray, neighbours: np.ndarray,
              lit: np.ndarray) -> None:
    """Clear ``lit``, then fire a beam from each of the first ``count`` squares of ``emitters`` in each of the four
    directions, setting ``lit[square] = 1`` on every square a beam enters (the one it stops on included): the lit
    squares of a board of emitters that shine every way at once (Jewels and Lasers' robots).

    Two emitters (code 1, which absorbs a beam) on a 1 x 5 row: everything but the emitters' own squares is
    lit, and each emitter is lit by the other's beam, which stops on it:

    >>> import numpy as np
    >>> from damier.core.grid import orthogonal_neighbours
    >>> table = np.array([[0, 1, 2, 3], [ABSORB, ABSORB, ABSORB, ABSORB]], dtype=np.int32)
    >>> lit = np.zeros(5, dtype=np.uint8)
    >>> board = np.array([0, 1, 0, 1, 0], dtype=np.int32)
    >>> light_all(board, np.array([1, 3], dtype=np.int32), 2, table, orthogonal_neighbours(1, 5), lit)
    >>> lit.tolist()
    [1, 1, 1, 1, 1]
    >>> light_all(board, np.array([1, 3], dtype=np.int32), 1, table, orthogonal_neighbours(1, 5), lit)
    >>> lit.tolist()
    [1, 0, 1, 1, 0]
    """
    for i in range(lit.shape[0]):
        lit[i] = 0
    for k in range(count):
        for d in range(4):
            _walk(board, emitters[k], d, deflection, neighbours, None, lit)
