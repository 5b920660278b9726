"""Micro Robots: the ``Game`` and ``State`` facade of the one-player puzzle over the kernel's jumps.

>>> import damier
>>> game = damier.load("micro")
>>> state = game.state_from_position("A-1234-0000_R5_B1")
>>> [state.move_to_str(m) for m in state.legal_moves()]  # R1 shares the colour, B5 the number
['R1', 'B5']
>>> for square in ("B5", "B1"):
...     state.play(state.parse_move(square))
>>> state.outcome().reason
'solved in 2 moves (optimal)'
"""

from __future__ import annotations

import random
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, OptionError, ParseError, StateError
from damier.core.game import TERMINAL, Game, Outcome, State, solved
from damier.core.messages import nested, say
from damier.games.micro import INFO, kernel, notation, setup
from damier.games.micro.notation import Puzzle, square_name

#: how many boards are drawn before a difficulty is declared impossible (about 4% of random boards have a puzzle
#: of 12 moves; of a side's arrangements, as few as 16 in 6,144)
_BOARDS = 300
_ARRANGEMENT_DRAWS = 4 * len(setup.ORDERS) * len(setup.ROTATIONS)


def diameter(board: np.ndarray) -> int:
    """The longest optimal puzzle of ``board`` (-1 if it is not connected)."""
    out = np.zeros(1, dtype=np.int64)
    kernel.board_statistics(board.reshape(1, setup.SQUARES), out, np.zeros(kernel.NODES, dtype=np.int64))
    return int(out[0])


class MicroGame(Game):
    """Micro Robots puzzles on the boards the ``board`` option names, with the options of the race game."""

    info = INFO

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.board_option: str = self.options["board"]
        self.expert: bool = self.options["expert"]
        self.waypoint_pass: bool = self.options["waypoint_pass"]
        self.difficulty: int = self.options["difficulty"]
        self.reroll_short: bool = self.options["reroll_short"]
        if self.board_option not in ("A", "B", "random"):
            try:
                self.board_option = setup.board_id_of(self.board_option)
            except ParseError as exc:
                cause = nested(exc.args[0]) if exc.args and isinstance(exc.args[0], str) else str(exc)
                raise OptionError(say("micro.error.option_board", cause=cause)) from None
        if self.reroll_short and self.difficulty in (1, 2):
            raise OptionError(say("micro.error.option_difficulty_reroll", difficulty=self.difficulty))
        if self.expert and not self.waypoint_pass and self.difficulty == 1:
            raise OptionError(say("micro.error.option_difficulty_expert"))

    @property
    def num_players(self) -> int:
        return 1

    @property
    def board_shape(self) -> tuple[int, int]:
        return (setup.SIZE, setup.SIZE)

    @property
    def num_moves(self) -> int:
        return setup.SQUARES

    @property
    def player_names(self) -> tuple[str, ...]:
        return ("Player",)

    # ----- puzzles --------------------------------------------------------------------------------------
    def _draw_board(self, rng: random.Random) -> str:
        if self.board_option in setup.SIDES:
            if self.difficulty and not self.expert:  # an arrangement with a puzzle that long (as few as 16)
                for _ in range(_ARRANGEMENT_DRAWS):
                    board_id = setup.random_arrangement_id(self.board_option, rng)
                    if diameter(setup.parse_board_id(board_id)) >= self.difficulty:
                        return board_id
            return setup.random_arrangement_id(self.board_option, rng)
        if self.board_option == "random":
            return f"random:{rng.randrange(10**9)}"
        return self.board_option

    def _targets(self, board: np.ndarray, first: int, waypoint: int) -> np.ndarray:
        """The targets the options accept for a puzzle from ``first`` (by ``waypoint``): reachable, neither the start
        nor the waypoint, more than 2 moves away with ``reroll_short``, exactly ``difficulty`` moves when set."""
        out = np.zeros((kernel.NODES, kernel.MAX_JUMPS), dtype=np.int64)
        count = np.zeros(kernel.NODES, dtype=np.int64)
        kernel.puzzle_graph(board, waypoint, self.waypoint_pass, out, count)
        dist = np.empty(kernel.NODES, dtype=np.int64)
        kernel.distances(out, count, first * 2 + int(waypoint < 0), dist, np.empty(kernel.NODES, dtype=np.int64))
        lengths = dist[1::2]
        fits = lengths < kernel.UNREACHABLE
        fits[[first, waypoint] if waypoint >= 0 else [first]] = False
        if self.reroll_short:
            fits &= lengths > 2
        if self.difficulty:
            fits &= lengths == self.difficulty
        return np.nonzero(fits)[0]

    def draw_puzzle(self, rng: random.Random, start: int | None = None, board_id: str | None = None) -> Puzzle:
        """A puzzle by the options, drawn with ``rng``; from ``start`` on ``board_id`` when given (the race game's
        next round starts on the old target).

        As at the table: the start is rolled (rolled again only when no target fits from it), then the waypoint
        among the other squares, then the target among the squares the options accept (``_targets``): a target
        equal to the start or the waypoint, out of reach, too short for ``reroll_short`` or not of the
        ``difficulty`` is re-rolled. A board with no such puzzle is replaced when the board option draws boards.
        """
        fixed = board_id is not None or self.board_option not in ("A", "B", "random")
        for _ in range(1 if fixed else _BOARDS):
            chosen = board_id or self._draw_board(rng)
            board = setup.parse_board_id(chosen)
            for first in [start] if start is not None else rng.sample(range(setup.SQUARES), setup.SQUARES):
                others = [s for s in range(setup.SQUARES) if s != first]
                for waypoint in rng.sample(others, len(others)) if self.expert else [-1]:
                    targets = self._targets(board, first, waypoint)
                    if len(targets):
                        return Puzzle(chosen, board, first, int(targets[rng.randrange(len(targets))]), waypoint)
        wanted = "length" if self.difficulty else ("long" if self.reroll_short else "reachable")
        raise StateError(say("micro.error.no_puzzle", wanted=wanted, difficulty=self.difficulty,
                             where="board" if board_id or fixed else "boards", board=board_id or self.board_option,
                             boards=_BOARDS, start="yes" if start is not None else "no"))

    def new_state(self, seed: int | None = None) -> MicroState:
        """The puzzle that ``seed`` draws (seed None is seed 0: a puzzle is always reproducible). Its ``start`` is
        the puzzle id, so records replay the same puzzle whatever a later damier would draw from the seed."""
        puzzle = self.draw_puzzle(random.Random(0 if seed is None else seed))
        return MicroState(self, puzzle, seed=seed, start=notation.puzzle_id(puzzle))

    def state_from_position(self, position: str, seed: int | None = None) -> MicroState:
        """A state from a position, a puzzle id or the JSON puzzle form (its ``waypoint_pass`` must agree with the
        game's option)."""
        text = position.strip() if isinstance(position, str) else position
        if isinstance(text, str) and text.startswith("{"):
            puzzle, passing = notation.parse_puzzle_json(text)
            if passing != self.waypoint_pass:
                raise ParseError(say("micro.error.waypoint_pass_mismatch", puzzle=str(passing).lower(),
                                     game=str(self.waypoint_pass).lower()))
            state = MicroState(self, puzzle, seed=seed, start=notation.puzzle_id(puzzle))
            return state
        puzzle, robot, used, visited = notation.parse_position(text)
        state = MicroState(self, puzzle, seed=seed, start=text)
        state.set_progress(robot, used, visited)
        return state


def optimum(puzzle: Puzzle, passing: bool, robot: int | None = None, visited: bool = False) -> int | None:
    """The fewest moves from the start (or from ``robot``) to the target, None if it cannot be reached."""
    out = np.zeros((kernel.NODES, kernel.MAX_JUMPS), dtype=np.int64)
    count = np.zeros(kernel.NODES, dtype=np.int64)
    kernel.puzzle_graph(puzzle.board, puzzle.waypoint, passing, out, count)
    dist = np.empty(kernel.NODES, dtype=np.int64)
    ways = np.empty(kernel.NODES, dtype=np.int64)
    here = puzzle.start if robot is None else robot
    kernel.distances(out, count, here * 2 + int(visited or puzzle.waypoint < 0), dist, ways)
    length = int(dist[puzzle.target * 2 + 1])
    return None if length >= kernel.UNREACHABLE else length


@lru_cache(maxsize=256)
def _board_facts(cells: bytes, dtype: str) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...], dict[str, int]]:
    """A board's jumps from each square (increasing: the kernel's ``jumps``), each square's name, and the square
    each name and each coordinate (``c4``) is written with: read once per board and shared by every state on it
    (a record's replay reads and plays every move)."""
    board = np.frombuffer(cells, dtype=dtype).copy()  # writable: the kernels' usual signature
    jumps = np.zeros((setup.SQUARES, kernel.MAX_JUMPS), dtype=np.int64)
    degree = np.zeros(setup.SQUARES, dtype=np.int64)
    kernel.jumps(board, jumps, degree)
    names = tuple(square_name(board, sq) for sq in range(setup.SQUARES))
    written = {name: sq for sq, name in enumerate(names)}
    written.update({notation.coordinates(sq): sq for sq in range(setup.SQUARES)})
    return tuple(tuple(sorted(jumps[sq, : degree[sq]].tolist())) for sq in range(setup.SQUARES)), names, written


class MicroState(State):
    """A Micro Robots puzzle in play: the robot's square, the moves used, whether the waypoint was visited."""

    game: MicroGame

    def __init__(self, game: MicroGame, puzzle: Puzzle, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self.puzzle = puzzle
        self._robot = puzzle.start
        self._visited = puzzle.waypoint < 0
        self._used_before = 0
        self._trail: list[tuple[int, bool]] = []
        self._jumps, self._names, self._written = _board_facts(puzzle.board.tobytes(), puzzle.board.dtype.str)

    def set_progress(self, robot: int, used: int, visited: bool) -> None:
        """Put the robot on ``robot`` with ``used`` moves spent (a position read from notation)."""
        if self.history:
            raise StateError("progress can be set only before any move")
        self._robot, self._used_before = robot, used
        self._visited = visited or self.puzzle.waypoint < 0

    # ----- contract -------------------------------------------------------------------------------------
    @property
    def robot(self) -> int:
        return self._robot

    @property
    def visited(self) -> bool:
        """Whether the waypoint was visited (always True in a puzzle without one)."""
        return self._visited

    @property
    def node(self) -> int:
        """The node of the puzzle graph (``kernel``) the robot stands on."""
        return self._robot * 2 + int(self._visited)

    @property
    def moves_used(self) -> int:
        return self._used_before + len(self.history)

    @property
    def player(self) -> int:
        return TERMINAL if self._robot == self.puzzle.target and self._visited else 0

    def legal_moves(self) -> list[int]:
        if self.player == TERMINAL:
            return []
        return list(self._jumps[self._robot])

    def is_legal(self, move: int) -> bool:
        return self.player != TERMINAL and move in self._jumps[self._robot]

    def _apply(self, move: int) -> None:
        self._trail.append((self._robot, self._visited))
        w = self.puzzle.waypoint
        if not self._visited and (move == w or (self.game.waypoint_pass and kernel.on_line(self._robot, move, w))):
            self._visited = True
        self._robot = move
        self.history.append(move)

    def undo(self) -> None:
        if not self._trail:
            raise StateError(say("micro.error.no_undo"))
        self._robot, self._visited = self._trail.pop()
        self.history.pop()

    def copy(self) -> MicroState:
        other = MicroState.__new__(MicroState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._trail = list(self._trail)
        return other

    @cached_property
    def _optimum(self) -> int | None:
        return optimum(self.puzzle, self.game.waypoint_pass)

    def outcome(self) -> Outcome | None:
        if self.player != TERMINAL:
            return None
        return solved(self.moves_used, self._optimum)

    # ----- notation -------------------------------------------------------------------------------------
    def move_to_str(self, move: int) -> str:
        if not isinstance(move, int | np.integer) or isinstance(move, bool) or not 0 <= move < setup.SQUARES:
            raise IllegalMoveError(say("micro.error.not_a_square_index", move=repr(move)))
        return self._names[move]

    def parse_move(self, text: str) -> int:
        square = self._written.get(text) if isinstance(text, str) else None
        if square is None:  # anything but the exact name or coordinates: read (or refused) by the notation
            square = notation.square_index(self.puzzle.board, text)
        if self.player == TERMINAL:
            raise IllegalMoveError(say("micro.error.solved_no_jump", reason=nested(self.outcome_reason())))
        if not self.is_legal(square):
            here = square_name(self.puzzle.board, self._robot)
            jumps = nested(say("micro.error.no_jumps")) if not self.legal_moves() else self._legal_summary()
            raise IllegalMoveError(say("micro.error.not_a_jump", square=square_name(self.puzzle.board, square),
                                       here=here, jumps=jumps))
        return square

    def position(self) -> str:
        return notation.position_text(self.puzzle, self._robot, self.moves_used,
                                      self._visited and self.puzzle.waypoint >= 0)

    # ----- views ----------------------------------------------------------------------------------------
    def render_text(self) -> str:
        from damier.games.micro import view

        return view.render(self)

    def observation(self) -> np.ndarray:
        """float32 (16, 6, 6): the six colours, the six numbers, the robot, the target, the waypoint, and a plane
        of ones once the waypoint is visited (or when there is none)."""
        board = self.puzzle.board.astype(np.int64)
        planes = np.zeros((16, setup.SIZE, setup.SIZE), dtype=np.float32)
        flat = planes.reshape(16, setup.SQUARES)
        squares = np.arange(setup.SQUARES)
        flat[board // setup.SIZE, squares] = 1
        flat[6 + board % setup.SIZE, squares] = 1
        flat[12, self._robot] = 1
        flat[13, self.puzzle.target] = 1
        if self.puzzle.waypoint >= 0:
            flat[14, self.puzzle.waypoint] = 1
        flat[15, :] = float(self._visited)
        return planes

    def events(self) -> list[dict[str, Any]]:
        """The last jump: ``jump`` (from, to, the squares passed over), ``waypoint`` when it was visited, then
        ``solved`` at the end."""
        if not self._trail:
            return []
        before, seen = self._trail[-1]
        board = self.puzzle.board
        step = np.sign(self._robot - before) * (1 if before // setup.SIZE == self._robot // setup.SIZE
                                                 else setup.SIZE)
        passed = [square_name(board, s) for s in range(before + step, self._robot, step)]
        out: list[dict[str, Any]] = [{"type": "jump", "from": square_name(board, before),
                                      "to": square_name(board, self._robot), "passed": passed}]
        if self._visited and not seen:
            out.append({"type": "waypoint", "square": square_name(board, self.puzzle.waypoint)})
        if self.player == TERMINAL:
            outcome = self.outcome()
            assert outcome is not None
            out.append({"type": "solved", "moves": outcome.cost, "optimum": outcome.optimum})
        return out

    def key(self) -> bytes:
        return bytes((self._robot, int(self._visited)))

    def board_json(self, previews: bool = True) -> dict[str, Any]:
        from damier.games.micro import view

        return view.board_json(self)


def puzzle_state(text: str, options: dict[str, Any]) -> MicroState:
    """The ``puzzle`` feature: a state from a puzzle id, a position or the JSON form, on a game made with
    ``options`` (the JSON form's ``waypoint_pass`` sets that option).

    >>> puzzle_state('{"board": "A-1234-0000", "start": "R5", "target": "B1", "waypoint": "B3", '
    ...              '"waypoint_pass": true}', {}).game.waypoint_pass
    True
    """
    from damier.core import registry

    chosen = dict(options)
    if isinstance(text, str) and text.strip().startswith("{"):
        _, passing = notation.parse_puzzle_json(text)
        chosen["waypoint_pass"] = passing
    game = registry.load(INFO.name, **chosen)
    assert isinstance(game, MicroGame)
    return game.state_from_position(text)
