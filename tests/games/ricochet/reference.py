"""A naive Ricochet Robots, written from ``shared/rules/ricochet.md`` and the quadrant data file alone, to check the
numba kernels and the facade against.

Plain Python over squares ``(x, y)``: walls are a set of pairs of neighbouring squares (so a wall blocks both
ways, across quadrant seams too), the placement of a side is the data file's formula read literally, a slide
walks square by square, and the ricochet rule is read from the list of moves played (no flags kept on the way).
It shares no code with ``damier.games.ricochet``; only the move notation (``RN``, ``TE2``, in
``docs/games/ricochet.md``) is common.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

Square = tuple[int, int]
#: a move: robot index (red, green, blue, yellow, silver, transparent), direction letter, walls passed
Move = tuple[int, str, int]

SIZE = 16
LETTERS = "RGBYST"
COLOURS = ("red", "green", "blue", "yellow")
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CENTRE = frozenset({(7, 7), (8, 7), (7, 8), (8, 8)})
POSITIONS = ("NW", "NE", "SE", "SW")
TRANSPARENT = 5
#: the decision of ``docs/games/ricochet.md``: a puzzle not solved when 100 moves are used ends there, unsolved
MOVE_LIMIT = 100

#: the shared data next to the repository when present, else the copy the package ships (read as plain JSON)
SHARED = Path(__file__).resolve().parents[4] / "shared" / "data" / "ricochet_quadrants.json"
SHIPPED = Path(__file__).resolve().parents[3] / "damier" / "games" / "ricochet" / "data" / "quadrants.json"


@cache
def data() -> dict[str, Any]:
    path = SHARED if SHARED.exists() else SHIPPED
    out: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return out


# ----- boards -------------------------------------------------------------------------------------------
def place(x: int, y: int, position: str) -> Square:
    """The data file's placement, literally: NW (x, y), NE (15-y, x), SE (15-x, 15-y), SW (y, 15-x)."""
    return {"NW": (x, y), "NE": (15 - y, x), "SE": (15 - x, 15 - y), "SW": (y, 15 - x)}[position]


def turn(letter: str, position: str) -> str:
    """A wall letter turned with its side: one step N -> E -> S -> W -> N per quarter turn."""
    return "NESW"[("NESW".index(letter) + POSITIONS.index(position)) % 4]


def on_board(square: Square) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def step(square: Square, direction: str) -> Square:
    dx, dy = DELTA[direction]
    return square[0] + dx, square[1] + dy


@dataclass(frozen=True)
class Board:
    """Walls between neighbouring squares (inside the board; the edge is not listed) and the 17 targets."""

    sides: tuple[str, ...]
    walls: frozenset[frozenset[Square]]
    targets: dict[Square, tuple[str, str]] = field(hash=False)

    def wall(self, a: Square, b: Square) -> bool:
        return frozenset((a, b)) in self.walls


def is_legal_board(sides: tuple[str, ...]) -> bool:
    """Four known sides, one of each group."""
    known = data()["sides"]
    return len(sides) == 4 and all(s in known for s in sides) and sorted(known[s]["group"] for s in sides) == [
        1, 2, 3, 4]


@cache
def placed_side(side: str, position: str) -> tuple[frozenset[frozenset[Square]], tuple[tuple[Square, str, str], ...]]:
    """The walls (pairs of squares) and targets of one side laid in one position."""
    entry = data()["sides"][side]
    walls = set()
    for x, y, letters in entry["walls"]:
        square = place(x, y, position)
        for letter in letters:
            other = step(square, turn(letter, position))
            if on_board(other):
                walls.add(frozenset((square, other)))
    targets = tuple((place(x, y, position), colour, shape) for x, y, colour, shape in entry["targets"])
    return frozenset(walls), targets


def assemble(sides: tuple[str, ...]) -> Board:
    """The board of four sides laid NW, NE, SE, SW."""
    walls: set[frozenset[Square]] = set()
    targets = {}
    for side, position in zip(sides, POSITIONS, strict=True):
        side_walls, side_targets = placed_side(side, position)
        walls |= side_walls
        targets.update({square: (colour, shape) for square, colour, shape in side_targets})
    return Board(tuple(sides), frozenset(walls), targets)


# ----- puzzles ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Puzzle:
    """A board, each robot's square (None: not in play), the target square and the rules."""

    board: Board
    robots: tuple[Square | None, ...]
    target: Square
    ricochet: str = "off"
    rebound: bool = True

    @property
    def colour(self) -> str:
        return self.board.targets[self.target][0]

    def may_finish(self, robot: int) -> bool:
        """The vortex takes any robot; a coloured target only the robot of its colour."""
        return self.colour == "any" or (robot < 4 and COLOURS[robot] == self.colour)

    def coloured_target(self, square: Square) -> bool:
        return square in self.board.targets and self.board.targets[square][0] != "any"

    # ----- movement -------------------------------------------------------------------------------------
    def slide(self, robots: tuple[Square | None, ...], robot: int, direction: str) -> Square:
        """Where a robot stops: before a wall, the edge, the centre block or another robot."""
        here = robots[robot]
        assert here is not None
        while True:
            ahead = step(here, direction)
            if not on_board(ahead) or ahead in CENTRE or ahead in robots or self.board.wall(here, ahead):
                return here
            here = ahead

    def transparent_stops(self, robots: tuple[Square | None, ...], direction: str) -> list[tuple[Square, int]]:
        """Where the transparent robot may end a slide, with the walls passed: at any wall it may stop or pass (one
        more move); never through the edge, the centre block or a robot; never ending on a coloured target."""
        start = robots[TRANSPARENT]
        assert start is not None
        here, passed, out = start, 0, []
        while True:
            ahead = step(here, direction)
            hard = not on_board(ahead) or ahead in CENTRE or ahead in robots
            wall = not hard and self.board.wall(here, ahead)
            if hard or wall:
                if here != start and not self.coloured_target(here):
                    out.append((here, passed))
                if hard:
                    return out
                passed += 1
            here = ahead

    def moves_from(self, robots: tuple[Square | None, ...], last: Move | None) -> dict[Move, Square]:
        """Every move from ``robots`` (not yet knowing whether the puzzle is solved) and where it ends."""
        out = {}
        for robot, square in enumerate(robots):
            if square is None:
                continue
            for direction in "NESW":
                if not self.rebound and last is not None and last[0] == robot and last[1] == OPPOSITE[direction]:
                    continue
                if robot == TRANSPARENT:
                    for end, passed in self.transparent_stops(robots, direction):
                        out[(robot, direction, passed)] = end
                else:
                    end = self.slide(robots, robot, direction)
                    if end != square:
                        out[(robot, direction, 0)] = end
        return out

    # ----- the goal -------------------------------------------------------------------------------------
    @cached_property
    def trivial(self) -> frozenset[int]:
        """The robots that may finish on the target and stand on it, or reach it in one straight move (no wall
        passed), from the puzzle's start: those the ``if_trivial`` rule makes turn."""
        out = {r for r, square in enumerate(self.robots) if square == self.target and self.may_finish(r)}
        for (robot, _, passed), end in self.moves_from(self.robots, None).items():
            if passed == 0 and end == self.target and self.may_finish(robot):
                out.add(robot)
        return frozenset(out)

    @staticmethod
    def turned(robot: int, line: list[Move]) -> bool:
        """Whether two of the robot's own moves in a row (other robots' moves between them do not matter) are at a
        right angle."""
        directions = [d for r, d, _ in line if r == robot]
        return any((a in "NS") != (b in "NS") for a, b in itertools.pairwise(directions))

    def solved_at(self, robots: tuple[Square | None, ...], line: list[Move]) -> bool:
        """Whether ``robots``, reached by ``line``, solve the puzzle: a robot that may finish stands on the target,
        and the rule mode is met for it."""
        for robot, square in enumerate(robots):
            if square != self.target or not self.may_finish(robot):
                continue
            if self.ricochet == "off" or (self.ricochet == "if_trivial" and robot not in self.trivial):
                return True
            if self.turned(robot, line):
                return True
        return False

    def walk(self, line: list[Move]) -> tuple[Square | None, ...]:
        """The robots after ``line`` from the start; AssertionError unless every move is legal in its turn."""
        robots = self.robots
        for i, move in enumerate(line):
            assert not self.solved_at(robots, line[:i]), f"the puzzle is solved before move {i + 1} of {line}"
            assert self.cost(line[:i]) < MOVE_LIMIT, f"the moves are used up before move {i + 1} of {line}"
            ends = self.moves_from(robots, line[i - 1] if i else None)
            assert move in ends, f"{move} is not legal after {line[:i]}"
            robots = tuple(ends[move] if r == move[0] else sq for r, sq in enumerate(robots))
        return robots

    def solved(self, line: list[Move]) -> bool:
        return self.solved_at(self.walk(line), line)

    def over(self, line: list[Move]) -> bool:
        """Solved, or the moves used up."""
        return self.solved(line) or self.cost(line) >= MOVE_LIMIT

    def legal(self, line: list[Move]) -> dict[Move, Square]:
        """The legal moves after ``line`` and where each ends (none once the puzzle is over)."""
        robots = self.walk(line)
        if self.solved_at(robots, line) or self.cost(line) >= MOVE_LIMIT:
            return {}
        return self.moves_from(robots, line[-1] if line else None)

    @staticmethod
    def cost(line: list[Move]) -> int:
        """One per move, plus one per wall the transparent robot passed."""
        return sum(1 + passed for _, _, passed in line)


def notation(move: Move) -> str:
    robot, direction, passed = move
    return f"{LETTERS[robot]}{direction}{passed if passed else ''}"


def target_code(colour: str, shape: str) -> str:
    """Our puzzle id's target: ``v`` for the vortex, else the colour's and the shape's first letters."""
    return "v" if shape == "vortex" else colour[0] + shape[0]


def puzzle_id(puzzle: Puzzle) -> str:
    """Our puzzle id, written from its documentation: ``BOARD.ROBOTS.TARGET[.RULES]``."""
    cells = [puzzle.robots[r] for r in range(4)]
    silver, transparent = puzzle.robots[4], puzzle.robots[5]
    if silver is not None or transparent is not None:
        cells.append(silver)
    if transparent is not None:
        cells.append(transparent)
    robots = "".join("--" if sq is None else f"{sq[1] * SIZE + sq[0]:02X}" for sq in cells)
    rules = {"off": "", "if_trivial": "i", "strict": "s"}[puzzle.ricochet] + ("" if puzzle.rebound else "x")
    colour, shape = puzzle.board.targets[puzzle.target]
    return ".".join(["".join(puzzle.board.sides), robots, target_code(colour, shape)] + ([rules] if rules else []))


def square_name(square: Square) -> str:
    """``a1`` is the north-west corner: column a..p from the west, row 1..16 from the north."""
    return f"{'abcdefghijklmnop'[square[0]]}{square[1] + 1}"
