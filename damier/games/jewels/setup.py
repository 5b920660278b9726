"""The seeded, point-symmetric setup of a Jewels and Lasers board.

A board's 180-degree turn about its centre maps square ``sq`` to ``squares - 1 - sq``; every piece is placed in a
pair of such mirror squares, so the board looks the same from both men's sides. The same seed gives the same
board; a seed whose board would leave Player 1 no square to place the men on is drawn again from the same
generator, so the board is still a function of the seed alone.

>>> board = generate(8, jewels=4, walls=6, robots=2, seed=7)
>>> (board == board[::-1]).all()
np.True_
>>> [int((board == code).sum()) for code in (WALL, JEWEL, ROBOT)]
[6, 4, 2]
"""

from __future__ import annotations

import random

import numpy as np

from damier.core.errors import OptionError
from damier.core.grid import orthogonal_neighbours
from damier.core.messages import say
from damier.games.jewels.kernel import EMPTY, JEWEL, ROBOT, WALL, layout, lit_map

#: the boards drawn for one seed before giving up (a board with no legal placement is drawn again)
ATTEMPTS = 1000


def check_counts(size: int, jewels: int, walls: int, robots: int) -> None:
    """``OptionError`` unless the pieces come in mirror pairs and leave room for the two men."""
    for name, count in (("jewels", jewels), ("walls", walls), ("robots", robots)):
        if count % 2:
            raise OptionError(say("jewels.option.odd", name=repr(name), count=str(count)))
    pairs = size * size // 2
    needed = (jewels + walls + robots) // 2 + 1
    if needed > pairs:
        raise OptionError(say("jewels.option.too_many", total=str(jewels + walls + robots), size=str(size),
                              pairs=str(pairs)))


def generate(size: int, jewels: int, walls: int, robots: int, seed: int) -> np.ndarray:
    """The board (an int32 array of square codes, row-major from the top-left) that ``seed`` draws."""
    check_counts(size, jewels, walls, robots)
    n = size * size
    rng = random.Random(seed)
    halves = [sq for sq in range(n) if sq < n - 1 - sq]
    for _ in range(ATTEMPTS):
        rng.shuffle(halves)
        board = np.zeros(n, dtype=np.int32)
        k = 0
        for code, count in ((JEWEL, jewels), (WALL, walls), (ROBOT, robots)):
            for sq in halves[k:k + count // 2]:
                board[sq] = board[n - 1 - sq] = code
            k += count // 2
        if has_placement(board, size):
            return board
    raise OptionError(say("jewels.option.no_board", seed=str(seed), attempts=str(ATTEMPTS)))


def has_placement(board: np.ndarray, size: int) -> bool:
    """Whether some empty, unlit square has an empty, unlit mirror square (other than itself)."""
    n = size * size
    s = np.zeros(layout(n), dtype=np.int32)
    s[:n] = board
    s[n] = s[n + 1] = -1
    lit = np.zeros(n, dtype=np.uint8)
    lit_map(s, orthogonal_neighbours(size, size).copy(), lit, np.empty(n, dtype=np.int32))
    free = (board == EMPTY) & (lit == 0)
    return bool((free & free[::-1]).any())
