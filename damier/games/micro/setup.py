"""Micro Robots boards: the printed tile sides, arrangements (tile order and rotations), random boards, board ids.

A board is 36 squares, row-major from the top-left corner, each a colour (``COLOURS``) and a number 1..6; it is
kept as one ``int8`` array of ``colour * 6 + number - 1`` (0..35, every value once). Four 3 x 3 tiles of one side
are laid NW, NE, SW, SE in a tile order, each turned clockwise 0..3 quarter turns: 4! x 4^4 = 6,144
arrangements per side.

Board ids (short and shareable, parsed and printed):

- ``A-1234-0000``: side, the tiles laid NW, NE, SW, SE, and each one's clockwise quarter turns;
- ``random:42``: the 36 pairs shuffled by seed 42, redrawn until every square reaches every other;
- ``custom:R5G6R1P1W4P2.G2W2Y1G5W5G3...``: six rows of six squares, top to bottom (any valid board).

>>> board = parse_board_id("A-1234-0000")
>>> square_text(int(board[0])), square_text(int(board[35]))
('R5', 'B1')
>>> board_id_of("a-2143-0123")
'A-2143-0123'
"""

from __future__ import annotations

import itertools
import json
import random
import re
from functools import cache, lru_cache
from importlib import resources

import numpy as np

from damier.core.errors import ParseError
from damier.core.messages import say

#: colour letters in code order, and their names
COLOURS = "RGBYWP"
COLOUR_NAMES = ("red", "green", "blue", "yellow", "white", "pink")
SIDES = ("A", "B")
SIZE = 6
SQUARES = SIZE * SIZE
#: every tile order (NW, NE, SW, SE) and every rotation tuple: the 6,144 arrangements of a side
ORDERS = tuple(itertools.permutations((1, 2, 3, 4)))
ROTATIONS = tuple(itertools.product(range(4), repeat=4))
#: where each tile slot's top-left square is (row, column)
_SLOTS = ((0, 0), (0, 3), (3, 0), (3, 3))
_ID = re.compile(r"^([AB])-([1-4]{4})-([0-3]{4})$")
_SQUARE_TEXT = re.compile(r"^([RGBYWP])([1-6])$")
_SEED = re.compile(r"^[0-9]{1,18}$")


def square_code(text: str) -> int:
    """The code of a square written ``R5`` (colour letter, number); ``ParseError`` otherwise."""
    match = _SQUARE_TEXT.match(text.strip().upper()) if isinstance(text, str) else None
    if match is None:
        raise ParseError(say("micro.error.not_a_square_code", text=repr(text), letters=", ".join(COLOURS)))
    return COLOURS.index(match.group(1)) * SIZE + int(match.group(2)) - 1


def square_text(code: int) -> str:
    """``R5`` for a square's code."""
    return f"{COLOURS[code // SIZE]}{code % SIZE + 1}"


@cache
def side_tiles(side: str) -> tuple[np.ndarray, ...]:
    """The four tiles of printed side ``side`` (A or B), each a 3 x 3 array of square codes."""
    if side not in SIDES:
        raise ParseError(f"unknown board side {side!r}; sides: {', '.join(SIDES)}")
    text = resources.files("damier.games.micro").joinpath(f"data/side_{side.lower()}.json").read_text("utf-8")
    data = json.loads(text)
    return tuple(np.array([[square_code(sq) for sq in row] for row in data["tiles"][str(t)]], dtype=np.int8)
                 for t in (1, 2, 3, 4))


def arrange(tiles: tuple[np.ndarray, ...], order: tuple[int, ...], rotations: tuple[int, ...]) -> np.ndarray:
    """The 36 square codes of ``tiles`` laid in ``order`` (NW, NE, SW, SE), each turned clockwise."""
    board = np.empty((SIZE, SIZE), dtype=np.int8)
    for slot, (tile, turns) in enumerate(zip(order, rotations, strict=True)):
        r, c = _SLOTS[slot]
        board[r : r + 3, c : c + 3] = np.rot90(tiles[tile - 1], k=-turns)
    return board.reshape(SQUARES).copy()


def arrangement(side: str, order: tuple[int, ...], rotations: tuple[int, ...]) -> np.ndarray:
    return arrange(side_tiles(side), order, rotations)


@lru_cache(maxsize=1)
def arrangement_table() -> np.ndarray:
    """For every arrangement (tile orders outermost, rotations innermost) and every square of the board, which of
    the 36 tile squares lies there (tile 1's nine squares row by row, then tile 2's, ...): a (6144, 36) array."""
    tiles = tuple(np.arange(9 * t, 9 * t + 9, dtype=np.int8).reshape(3, 3) for t in range(4))
    return np.array([arrange(tiles, o, r) for o in ORDERS for r in ROTATIONS], dtype=np.int64)


def tiles_codes(tiles: tuple[np.ndarray, ...]) -> np.ndarray:
    """The four tiles' square codes as one array of 36 (tile 1's rows, then tile 2's, ...)."""
    return np.concatenate([t.reshape(9) for t in tiles]).astype(np.int8)


def all_arrangements(side: str | tuple[np.ndarray, ...]) -> np.ndarray:
    """Every arrangement of a side (its name, or its four tiles): a (6144, 36) array of boards, tile orders
    outermost, rotations innermost."""
    tiles = side_tiles(side) if isinstance(side, str) else side
    table: np.ndarray = tiles_codes(tiles)[arrangement_table()]
    return table


def random_board(seed: int) -> np.ndarray:
    """The 36 pairs shuffled by ``seed``, shuffled again until the board is connected (reproducible)."""
    from damier.games.micro.kernel import is_connected

    rng = random.Random(seed)
    codes = list(range(SQUARES))
    while True:
        rng.shuffle(codes)
        board = np.array(codes, dtype=np.int8)
        if is_connected(board):
            return board


def parse_board_id(text: str) -> np.ndarray:
    """The board of a board id (see the module's doc); ``ParseError`` saying what is accepted."""
    if not isinstance(text, str):
        raise ParseError(say("micro.error.board_id_not_string", type=type(text).__name__))
    word = text.strip()
    if word.lower().startswith("random:"):
        seed = word[len("random:"):]
        if not _SEED.match(seed):
            raise ParseError(say("micro.error.random_board_id", text=repr(text)))
        return random_board(int(seed))
    if word.lower().startswith("custom:"):
        return parse_rows(word[len("custom:"):].split("."), text)
    match = _ID.match(word.upper())
    if match is None:
        raise ParseError(say("micro.error.not_a_board_id", text=repr(text)))
    side, order_text, turns_text = match.groups()
    order = tuple(int(ch) for ch in order_text)
    if sorted(order) != [1, 2, 3, 4]:
        raise ParseError(say("micro.error.tile_order", text=repr(text)))
    return arrangement(side, order, tuple(int(ch) for ch in turns_text))


def parse_rows(rows: list[str] | list[list[str]], source: object) -> np.ndarray:
    """A board from six rows of six squares, top to bottom: each row a list of ``R5``-like squares or one string
    of twelve characters; every colour-number pair must occur once."""
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise ParseError(say("micro.error.board_rows", size=SIZE, source=repr(source)))
    codes = []
    for number, row in enumerate(rows, start=1):
        squares = [row[i : i + 2] for i in range(0, len(row), 2)] if isinstance(row, str) else row
        if not isinstance(squares, list) or len(squares) != SIZE or (isinstance(row, str) and len(row) != 2 * SIZE):
            raise ParseError(say("micro.error.board_row", number=number, size=SIZE, row=repr(row)))
        codes += [square_code(sq) for sq in squares]
    missing = sorted(set(range(SQUARES)) - set(codes))
    if missing:
        raise ParseError(say("micro.error.board_lacks", squares=", ".join(square_text(c) for c in missing)))
    return np.array(codes, dtype=np.int8)


def board_id_of(text: str) -> str:
    """The canonical spelling of a board id (upper-case side ids, lower-case kinds)."""
    word = text.strip()
    parse_board_id(word)
    lowered = word.lower()
    if lowered.startswith("random:"):
        return f"random:{int(word[len('random:'):])}"
    if lowered.startswith("custom:"):
        return f"custom:{word[len('custom:'):].upper()}"
    return word.upper()


def custom_id(board: np.ndarray) -> str:
    """The ``custom:`` id of any board."""
    rows = ["".join(square_text(int(board[r * SIZE + c])) for c in range(SIZE)) for r in range(SIZE)]
    return "custom:" + ".".join(rows)


def random_arrangement_id(side: str, rng: random.Random) -> str:
    """A uniformly drawn arrangement of ``side``, as its board id."""
    order = rng.choice(ORDERS)
    turns = tuple(rng.randrange(4) for _ in range(4))
    return f"{side}-{''.join(map(str, order))}-{''.join(map(str, turns))}"


def arrangement_id(side: str, index: int) -> str:
    """The board id of arrangement ``index`` of ``all_arrangements`` (tile orders outermost, rotations innermost).

    >>> arrangement_id("A", 0), arrangement_id("B", 6143)
    ('A-1234-0000', 'B-4321-3333')
    """
    order, turns = divmod(index, len(ROTATIONS))
    return f"{side}-{''.join(map(str, ORDERS[order]))}-{''.join(map(str, ROTATIONS[turns]))}"
