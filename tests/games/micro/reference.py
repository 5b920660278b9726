"""A naive Micro Robots, written from ``shared/rules/micro_robots.md`` alone, to check the numba kernels against.

Plain Python over a list of 36 square names (``"R5"``), row by row from the top-left corner: its own tile layout
and rotation, jumps read straight from the movement rule, a breadth-first search, and path counting by
enumerating move sequences. It shares no code with ``damier.games.micro``; only the notation (documented in
``docs/games/micro.md``) is common. Side A's tiles are the rules data file's, copied as a literal.
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass

COLOURS = "RGBYWP"
SIZE = 6
#: side A, copied from ``shared/data/micro_robots_tiles.json`` (rows top to bottom)
SIDE_A = {
    1: [["R5", "G6", "R1"], ["G2", "W2", "Y1"], ["W3", "G1", "Y3"]],
    2: [["P1", "W4", "P2"], ["G5", "W5", "G3"], ["G4", "W1", "P4"]],
    3: [["P3", "R6", "R2"], ["B6", "Y2", "R3"], ["B5", "Y5", "R4"]],
    4: [["B2", "Y6", "P5"], ["B4", "W6", "P6"], ["B3", "Y4", "B1"]],
}
#: side A's arrangement diameters, from the same file
SIDE_A_DIAMETERS = {5: 288, 6: 2000, 7: 2160, 8: 1168, 9: 400, 10: 112, 12: 16}
ALL_PAIRS = {f"{colour}{number}" for colour in COLOURS for number in range(1, 7)}

Board = list[str]
#: a puzzle position: the robot's square (0..35) and whether the waypoint has been visited
Place = tuple[int, bool]


# ----- boards -------------------------------------------------------------------------------------------
def turn_clockwise(tile: list[list[str]]) -> list[list[str]]:
    """A 3 x 3 tile turned a quarter clockwise: the left column, read bottom to top, becomes the top row."""
    return [[tile[2 - c][r] for c in range(3)] for r in range(3)]


def lay(tiles: dict[int, list[list[str]]], order: tuple[int, ...], turns: tuple[int, ...]) -> Board:
    """Tiles ``order`` laid NW, NE, SW, SE, each turned ``turns`` quarters clockwise."""
    grid = [["" for _ in range(SIZE)] for _ in range(SIZE)]
    corners = [(0, 0), (0, 3), (3, 0), (3, 3)]
    for (top, left), number, quarter in zip(corners, order, turns, strict=True):
        tile = tiles[number]
        for _ in range(quarter):
            tile = turn_clockwise(tile)
        for r in range(3):
            for c in range(3):
                grid[top + r][left + c] = tile[r][c]
    return [square for row in grid for square in row]


def arrangements() -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every (tile order, turns) of a side: 4! x 4^4."""
    for order in itertools.permutations((1, 2, 3, 4)):
        for turns in itertools.product(range(4), repeat=4):
            yield order, turns


def coordinates(index: int) -> str:
    """``c4``: column a-f from the left, row 1-6 from the top."""
    return "abcdef"[index % SIZE] + str(index // SIZE + 1)


# ----- movement -----------------------------------------------------------------------------------------
def line(a: int, direction: tuple[int, int]) -> list[int]:
    """The squares from ``a`` (excluded) to the edge of the board in ``direction`` (row step, column step)."""
    r, c = divmod(a, SIZE)
    out: list[int] = []
    while True:
        r, c = r + direction[0], c + direction[1]
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return out
        out.append(r * SIZE + c)


def jumps(board: Board, a: int) -> set[int]:
    """Every square of the robot's row or column sharing the colour or the number of the square it stands on."""
    here = board[a]
    return {t for d in ((-1, 0), (0, 1), (1, 0), (0, -1)) for t in line(a, d)
            if board[t][0] == here[0] or board[t][1] == here[1]}


def passed(a: int, b: int) -> list[int]:
    """The squares a jump from ``a`` to ``b`` passes over (both ends excluded)."""
    for d in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        squares = line(a, d)
        if b in squares:
            return squares[: squares.index(b)]
    raise ValueError("not on one line")


@dataclass(frozen=True)
class Puzzle:
    """A board, a start, a target, a waypoint (-1: none) and whether passing over the waypoint counts."""

    board: Board
    start: int
    target: int
    waypoint: int = -1
    passing: bool = False

    @property
    def first(self) -> Place:
        return self.start, self.waypoint < 0

    def solved(self, place: Place) -> bool:
        return place == (self.target, True)

    def moves(self, place: Place) -> set[int]:
        """The jumps from ``place``; none once the puzzle is solved."""
        return set() if self.solved(place) else jumps(self.board, place[0])

    def step(self, place: Place, b: int) -> Place:
        """Where a jump to ``b`` leads: the waypoint is visited by stopping on it (or passing over it, if that
        counts)."""
        a, seen = place
        w = self.waypoint
        return b, seen or b == w or (self.passing and w in passed(a, b))

    def distances(self, source: Place | None = None) -> dict[Place, int]:
        """Breadth-first: the fewest moves to every place reachable from ``source`` (the start)."""
        origin = source or self.first
        seen = {origin: 0}
        queue = deque([origin])
        while queue:
            place = queue.popleft()
            for b in self.moves(place):
                after = self.step(place, b)
                if after not in seen:
                    seen[after] = seen[place] + 1
                    queue.append(after)
        return seen

    def shortest(self, source: Place | None = None) -> int | None:
        return self.distances(source).get((self.target, True))

    def sequences(self, length: int, source: Place | None = None) -> list[tuple[int, ...]]:
        """Every sequence of exactly ``length`` jumps that ends solved, by plain enumeration."""
        out: list[tuple[int, ...]] = []

        def extend(place: Place, path: tuple[int, ...]) -> None:
            if len(path) == length:
                if self.solved(place):
                    out.append(path)
                return
            for b in sorted(self.moves(place)):
                extend(self.step(place, b), (*path, b))

        extend(source or self.first, ())
        return out

    def count(self, length: int, source: Place | None = None) -> int:
        """How many sequences of exactly ``length`` jumps end solved, counted place by place, jump by jump."""
        ways: Counter[Place] = Counter({source or self.first: 1})
        for _ in range(length):
            after: Counter[Place] = Counter()
            for place, n in ways.items():
                for b in self.moves(place):
                    after[self.step(place, b)] += n
            ways = after
        return ways[(self.target, True)]

    def exact_possible(self, k: int, source: Place | None = None) -> bool:
        """Whether some sequence of exactly ``k`` jumps ends solved (the set of places after each jump)."""
        places = {source or self.first}
        for _ in range(k):
            places = {self.step(p, b) for p in places for b in self.moves(p)}
        return (self.target, True) in places

    def exact_lengths(self, up_to: int, source: Place | None = None) -> list[int]:
        """Every k from 1 to ``up_to`` for which a sequence of exactly k jumps ends solved (one pass of
        ``exact_possible``)."""
        places = {source or self.first}
        found = []
        for k in range(1, up_to + 1):
            places = {self.step(p, b) for p in places for b in self.moves(p)}
            if (self.target, True) in places:
                found.append(k)
        return found

    def replay(self, path: list[int], source: Place | None = None) -> bool:
        """Whether ``path`` is legal jump by jump and ends solved."""
        place = source or self.first
        for b in path:
            if b not in self.moves(place):
                return False
            place = self.step(place, b)
        return self.solved(place)


def distances_from(board: Board, a: int) -> dict[int, int]:
    """The fewest jumps from square ``a`` to every square it reaches (no target, no waypoint)."""
    seen = {a: 0}
    queue = deque([a])
    while queue:
        here = queue.popleft()
        for b in jumps(board, here):
            if b not in seen:
                seen[b] = seen[here] + 1
                queue.append(b)
    return seen


def connected(board: Board) -> bool:
    """Whether every square reaches every other (a search from each square)."""
    return all(len(distances_from(board, a)) == SIZE * SIZE for a in range(SIZE * SIZE))


def diameter(board: Board) -> int | None:
    """The longest shortest puzzle of a board, None when it is not connected."""
    longest = 0
    for a in range(SIZE * SIZE):
        reach = distances_from(board, a)
        if len(reach) < SIZE * SIZE:
            return None
        longest = max(longest, *reach.values())
    return longest
