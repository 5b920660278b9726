"""A test fixture, not a real game: a one-player sliding puzzle that gives the conformance suite a puzzle.

A robot stands on a ``size`` x ``size`` board with blocked squares; a move (N, E, S or W) slides it until the
next square is blocked or off the board, as Ricochet and Micro Robots move. Reach the target (the far corner)
in as few moves as possible. The game declares a ``solver`` (breadth-first search, exact) and gives hints with
it. The conformance conftest registers it as ``test-slide`` for the tests and removes it after.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, ParseError, StateError
from damier.core.game import TERMINAL, Game, Outcome, Solution, State, solved
from damier.core.options import Option, OptionSet
from damier.core.registry import GameInfo

DIRECTIONS = "NESW"
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))

OPTIONS = OptionSet((
    Option("size", int, 5, "side of the square board", None, 3, 9),
    Option("layout", int, 0, "which pattern of blocked squares", None, 0, 4),
))

INFO = GameInfo(
    name="test-slide",
    title="Test sliding puzzle",
    description="A one-player sliding puzzle used by the conformance tests to exercise puzzles and solvers.",
    options=OPTIONS,
    factory="tests.conformance.slide_game:SlideGame",
    players="1",
    has_draws=False,
    hint="solver",
    features={"solver": "tests.conformance.slide_game:solve"},
)

Square = tuple[int, int]


class SlideGame(Game):
    """The sliding puzzle (a test fixture)."""

    info = INFO

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n, layout = self.options["size"], self.options["layout"]
        self.size: int = n
        self.target: Square = (n - 1, n - 1)
        self.blocked = frozenset(
            (r, c) for r in range(n) for c in range(n)
            if (r * 7 + c * 3 + layout) % 5 == 0 and (r, c) not in ((0, 0), self.target)
        )

    @property
    def num_players(self) -> int:
        return 1

    @property
    def board_shape(self) -> tuple[int, int]:
        return (self.size, self.size)

    @property
    def num_moves(self) -> int:
        return len(DIRECTIONS)

    def new_state(self, seed: int | None = None) -> SlideState:
        return SlideState(self, (0, 0), seed=seed, start=None)

    def state_from_position(self, position: str, seed: int | None = None) -> SlideState:
        """``"r,c used r0,c0"``: the robot's square, the moves used so far and the puzzle's first square."""
        fields = position.split() if isinstance(position, str) else []
        if len(fields) != 3 or not fields[1].isdigit():
            raise ParseError(f"a position is 'row,column moves-used row,column' (e.g. '2,3 1 0,0'), not {position!r}")
        state = SlideState(self, self.parse_square(fields[0]), seed=seed, start=position.strip())
        state._used, state._first = int(fields[1]), self.parse_square(fields[2])
        return state

    def parse_square(self, text: str) -> Square:
        try:
            r_text, c_text = text.strip().split(",")
            square = (int(r_text), int(c_text))
        except (AttributeError, ValueError):
            raise ParseError(f"a position is the robot's row,column (e.g. 0,0), not {text!r}") from None
        if not all(0 <= v < self.size for v in square) or square in self.blocked:
            raise ParseError(f"{text!r} is not a free square of this {self.size}x{self.size} board")
        return square

    def slide(self, square: Square, move: int) -> Square:
        """Where the robot on ``square`` stops when it slides ``DIRECTIONS[move]``."""
        dr, dc = STEPS[move]
        r, c = square
        while 0 <= r + dr < self.size and 0 <= c + dc < self.size and (r + dr, c + dc) not in self.blocked:
            r, c = r + dr, c + dc
        return (r, c)

    def fewest_moves(self, square: Square) -> int | None:
        """The fewest moves from ``square`` to the target (None when it cannot be reached)."""
        solution = bfs(self, square, None)
        return solution.cost if solution.found else None


class SlideState(State):
    game: SlideGame

    def __init__(self, game: SlideGame, robot: Square, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self._robot = robot
        self._trail: list[Square] = []
        self._first = robot  # where the puzzle started
        self._used = 0  # moves used before this state's history

    @property
    def robot(self) -> Square:
        return self._robot

    @property
    def player(self) -> int:
        return TERMINAL if self._robot == self.game.target else 0

    def legal_moves(self) -> list[int]:
        if self.player == TERMINAL:
            return []
        return [m for m in range(4) if self.game.slide(self._robot, m) != self._robot]

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def _apply(self, move: int) -> None:
        self._trail.append(self._robot)
        self._robot = self.game.slide(self._robot, move)
        self.history.append(move)

    def undo(self) -> None:
        if not self._trail:
            raise StateError("there is no move to undo")
        self._robot = self._trail.pop()
        self.history.pop()

    def copy(self) -> SlideState:
        other = SlideState(self.game, self._robot, self.seed, self.start)
        other.history, other._trail, other._first = list(self.history), list(self._trail), self._first
        other._used = self._used
        return other

    def outcome(self) -> Outcome | None:
        if self.player != TERMINAL:
            return None
        return solved(self._used + len(self.history), self.game.fewest_moves(self._first))

    def move_to_str(self, move: int) -> str:
        if not isinstance(move, int | np.integer) or not 0 <= move < 4:
            raise IllegalMoveError(f"{move!r} is not a move of this game (0 to 3)")
        return DIRECTIONS[int(move)]

    def parse_move(self, text: str) -> int:
        word = text.strip().upper() if isinstance(text, str) else ""
        if len(word) != 1 or word not in DIRECTIONS:
            raise ParseError(f"{text!r} is not a move: write N, E, S or W")
        move = DIRECTIONS.index(word)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{word} does not move the robot now; legal: {self._legal_summary()}")
        return move

    def position(self) -> str:
        used = self._used + len(self.history)
        return f"{self._robot[0]},{self._robot[1]} {used} {self._first[0]},{self._first[1]}"

    def render_text(self) -> str:
        rows = []
        for r in range(self.game.size):
            row = ""
            for c in range(self.game.size):
                row += "R" if (r, c) == self._robot else "T" if (r, c) == self.game.target else (
                    "#" if (r, c) in self.game.blocked else ".")
            rows.append(row)
        return "\n".join(rows)

    def observation(self) -> np.ndarray:
        planes = np.zeros((3, self.game.size, self.game.size), dtype=np.float32)
        planes[0][self._robot] = 1
        planes[1][self.game.target] = 1
        for square in self.game.blocked:
            planes[2][square] = 1
        return planes

    def events(self) -> list[dict[str, Any]]:
        if not self._trail:
            return []
        return [{"type": "slide", "from": list(self._trail[-1]), "to": list(self._robot)}]

    def key(self) -> bytes:
        return f"{self._robot}".encode()  # the moves used do not change what can follow


def bfs(game: SlideGame, start: Square, node_limit: int | None) -> Solution:
    """Breadth-first search from ``start``: the fewest moves to the target."""
    parents: dict[Square, tuple[Square, int] | None] = {start: None}
    frontier: deque[Square] = deque([start])
    nodes = 0
    while frontier:
        square = frontier.popleft()
        nodes += 1
        if square == game.target:
            line: list[int] = []
            step = parents[square]
            while step is not None:
                line.append(step[1])
                step = parents[step[0]]
            return Solution(tuple(reversed(line)), len(line), True, nodes)
        if node_limit is not None and nodes >= node_limit:
            return Solution((), -1, False, nodes)
        for move in range(4):
            nxt = game.slide(square, move)
            if nxt not in parents:
                parents[nxt] = (square, move)
                frontier.append(nxt)
    return Solution((), -1, True, nodes)  # proven unsolvable


def solve(state: State, max_cost: int | None = None, node_limit: int | None = None) -> Solution:
    """The ``solver`` feature: an optimal line from ``state`` (``max_cost`` bounds the answer's length)."""
    assert isinstance(state, SlideState)
    solution = bfs(state.game, state.robot, node_limit)
    if max_cost is not None and solution.found and solution.cost > max_cost:
        return Solution((), -1, True, solution.nodes)
    return solution
