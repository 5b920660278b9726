"""Rectangular grid geometry shared by the games: square names and precomputed neighbour tables.

Squares are numbered row-major from the top-left corner (index = row * cols + col). Tables are built once per
board shape, as pgx does, never recomputed per move.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from damier.core.errors import ParseError
from damier.core.messages import say

if TYPE_CHECKING:  # numpy is imported when a table is built, not when the game list is read
    import numpy as np

MAX_SIDE = 26  # columns are named by one letter A..Z

# orthogonal steps: north, east, south, west (row delta, col delta)
ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))

_SQUARE = re.compile(r"^\s*([A-Za-z])\s*([0-9]{1,2})\s*$")


def square_name(index: int, cols: int) -> str:
    """Name of square ``index`` with column letters from A and row numbers from 1 at the top.

    >>> square_name(0, 8), square_name(8, 8), square_name(63, 8)
    ('A1', 'A2', 'H8')
    """
    row, col = divmod(index, cols)
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_square(text: str, rows: int, cols: int) -> int:
    """Index of the square named ``text`` (case-insensitive), or ``ParseError``.

    >>> parse_square("c4", 8, 8)
    26
    >>> parse_square("Z9", 8, 8)
    Traceback (most recent call last):
    ...
    damier.core.errors.ParseError: square 'Z9' is off the 8x8 board; squares run from A1 to H8
    """
    match = _SQUARE.match(text) if isinstance(text, str) else None
    last = square_name(rows * cols - 1, cols)
    if not match:
        raise ParseError(say("rules.square.bad", text=repr(text), last=last))
    col = ord(match.group(1).upper()) - ord("A")
    row = int(match.group(2)) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        raise ParseError(say("rules.square.off_board", text=repr(text.strip()), rows=rows, cols=cols, last=last))
    return row * cols + col


@lru_cache(maxsize=64)
def orthogonal_neighbours(rows: int, cols: int) -> np.ndarray:
    """An int32 array (rows*cols, 4): the N, E, S, W neighbour of each square, or -1 off the board.

    >>> orthogonal_neighbours(2, 2).tolist()
    [[-1, 1, 2, -1], [-1, -1, 3, 0], [0, 3, -1, -1], [1, -1, -1, 2]]
    """
    import numpy as np

    table = np.full((rows * cols, 4), -1, dtype=np.int32)
    for index in range(rows * cols):
        row, col = divmod(index, cols)
        for k, (dr, dc) in enumerate(ORTHOGONAL):
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols:
                table[index, k] = r * cols + c
    table.setflags(write=False)
    return table
