"""Ricochet Robots boards: the 16 quadrant sides (four groups), their placement, walls as bitmasks, targets.

A board is 256 cells, index ``y * 16 + x`` (x east 0..15, y south 0..15; (0, 0) is the north-west corner). Each
cell's walls are a bitmask ``N = 1, E = 2, S = 4, W = 8``, recorded on both cells a wall separates (the data lists
each wall once). ``solid`` holds the walls no robot passes, not even the transparent one: the outer edge and the
walls around the central 2 x 2 block, whose cells are ``blocked``. A board id lists one side per group for the
quadrants NW, NE, SE, SW: ``1A2B3C4D`` (in any group order, e.g. ``1B4C2A3A``).

>>> board = build("1A2A3A4A")
>>> int(board.walls[0]), bool(board.blocked[7 * 16 + 7]), len(board.targets)
(9, True, 17)
>>> board.side_ids
('1A', '2A', '3A', '4A')
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from damier.core.errors import ParseError
from damier.core.messages import say

SIZE = 16
CELLS = SIZE * SIZE
N, E, S, W = 1, 2, 4, 8
#: wall bits by direction index N, E, S, W, and the step of each direction
BITS = (N, E, S, W)
STEPS = (-SIZE, 1, SIZE, -1)
COLOURS = ("red", "green", "blue", "yellow")
SHAPES = ("circle", "triangle", "square", "hexagon", "vortex")
CENTRE = (7 * SIZE + 7, 7 * SIZE + 8, 8 * SIZE + 7, 8 * SIZE + 8)
QUADRANTS = ("NW", "NE", "SE", "SW")
_SIDE = re.compile(r"([1-4])([A-D])")


@dataclass(frozen=True)
class Target:
    """A target square: its cell, colour (``any`` for the vortex) and shape."""

    cell: int
    colour: str
    shape: str

    @property
    def name(self) -> str:
        """``red circle``, ``vortex``."""
        return "vortex" if self.shape == "vortex" else f"{self.colour} {self.shape}"


@dataclass(frozen=True)
class Board:
    """An assembled board: walls, the walls nobody passes, the centre block, the 17 targets."""

    side_ids: tuple[str, ...]
    walls: np.ndarray = field(compare=False, repr=False)
    solid: np.ndarray = field(compare=False, repr=False)
    blocked: np.ndarray = field(compare=False, repr=False)
    targets: tuple[Target, ...] = field(compare=False, repr=False)

    @property
    def board_id(self) -> str:
        return "".join(self.side_ids)

    def target_at(self, cell: int) -> Target | None:
        return next((t for t in self.targets if t.cell == cell), None)


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    text = resources.files("damier.games.ricochet").joinpath("data/quadrants.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def sides() -> dict[str, Any]:
    """The 16 quadrant sides as the data file gives them."""
    out: dict[str, Any] = _data()["sides"]
    return out


def driftingdroids_sides() -> list[str]:
    """DriftingDroids' quadrant numbering: index -> side id."""
    out: list[str] = _data()["driftingdroids_index"]
    return out


def _place(x: int, y: int, quadrant: int) -> tuple[int, int]:
    """Where a NW-drawn cell lands in quadrant ``quadrant`` (turned clockwise ``quadrant`` quarter turns)."""
    for _ in range(quadrant):
        x, y = 15 - y, x
    return x, y


def parse_sides(text: str) -> tuple[str, ...]:
    """The four side ids of a board id (``1A2B3C4D``: NW, NE, SE, SW); ``ParseError`` naming what is wrong."""
    word = text.strip().upper().replace(",", "").replace(" ", "") if isinstance(text, str) else ""
    found = _SIDE.findall(word)
    if len(found) != 4 or "".join(g + s for g, s in found) != word:
        raise ParseError(say("ricochet.error.not_a_board", text=repr(text)))
    groups = sorted(g for g, _ in found)
    if groups != ["1", "2", "3", "4"]:
        raise ParseError(say("ricochet.error.board_groups", text=repr(text), groups=", ".join(groups)))
    return tuple(g + s for g, s in found)


@lru_cache(maxsize=64)
def build(board_id: str) -> Board:
    """The board of ``board_id`` (cached: boards are immutable)."""
    ids = parse_sides(board_id)
    walls = np.zeros(CELLS, dtype=np.uint8)
    targets = []
    for quadrant, side_id in enumerate(ids):
        side = sides()[side_id]
        for x, y, letters in side["walls"]:
            gx, gy = _place(x, y, quadrant)
            for letter in letters:
                d = ("NESW".index(letter) + quadrant) % 4
                _wall(walls, gy * SIZE + gx, d)
        for x, y, colour, shape in side["targets"]:
            gx, gy = _place(x, y, quadrant)
            targets.append(Target(gy * SIZE + gx, colour, shape))
    solid = np.zeros(CELLS, dtype=np.uint8)
    for i in range(SIZE):  # the outer edge
        for cell, d in ((i, 0), (i * SIZE + 15, 1), (15 * SIZE + i, 2), (i * SIZE, 3)):
            _wall(walls, cell, d)
            solid[cell] |= BITS[d]
    blocked = np.zeros(CELLS, dtype=np.bool_)
    for cell in CENTRE:
        blocked[cell] = True
        for d in range(4):
            _wall(walls, cell, d)
            _wall(solid, cell, d)
    targets.sort(key=lambda t: (t.shape == "vortex", COLOURS.index(t.colour) if t.colour in COLOURS else 4,
                                SHAPES.index(t.shape)))
    return Board(ids, walls, solid, blocked, tuple(targets))


def _wall(walls: np.ndarray, cell: int, d: int) -> None:
    """A wall on side ``d`` of ``cell``, and on the facing side of the neighbour (inside the board)."""
    walls[cell] |= BITS[d]
    x, y = cell % SIZE, cell // SIZE
    nx, ny = x + (0, 1, 0, -1)[d], y + (-1, 0, 1, 0)[d]
    if 0 <= nx < SIZE and 0 <= ny < SIZE:
        walls[ny * SIZE + nx] |= BITS[(d + 2) % 4]


def random_board_id(rng: random.Random) -> str:
    """A random legal board: one side per group, the groups in a random order of quadrants."""
    groups = ["1", "2", "3", "4"]
    rng.shuffle(groups)
    return "".join(g + rng.choice("ABCD") for g in groups)


def cell_name(cell: int) -> str:
    """A human name: column letter a..p from the west, row number 1..16 from the north (``a1`` is the NW corner).

    >>> cell_name(0), cell_name(255), cell_name(7 * 16 + 3)
    ('a1', 'p16', 'd8')
    """
    return f"{'abcdefghijklmnop'[cell % SIZE]}{cell // SIZE + 1}"


def parse_cell(text: str) -> int:
    """A cell from its name (``d8``) or coordinates (``3,7``: x, y); ``ParseError`` otherwise."""
    word = text.strip().lower() if isinstance(text, str) else ""
    match = re.fullmatch(r"([a-p])(1[0-6]|[1-9])", word) or re.fullmatch(r"(\d{1,2}),(\d{1,2})", word)
    if match is None:
        raise ParseError(say("ricochet.error.not_a_square", text=repr(text)))
    if "," in word:
        x, y = int(match.group(1)), int(match.group(2))
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            raise ParseError(say("ricochet.error.square_range", text=repr(text)))
        return y * SIZE + x
    return (int(match.group(2)) - 1) * SIZE + "abcdefghijklmnop".index(match.group(1))
