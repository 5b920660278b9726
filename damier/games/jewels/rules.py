"""Jewels and Lasers: the ``Game`` and ``State`` facade over the numba kernel (the kernel holds every rule).

>>> import damier
>>> game = damier.load("jewels", size=6, jewels=2, walls=2, robots=2)
>>> state = game.state_from_position("6/1R2J1/1W4/4W1/1J2R1/6 p 0-0 AB 0")
>>> state.player, state.legal_moves()[:4]
(0, [0, 2, 3, 4])
>>> state.play(state.parse_move("@A3"))         # Gold's man on A3, Silver's on the mirror square F4
>>> state.position()
'6/1R2J1/AW4/4WB/1J2R1/6 a 0-0 AB 0'
>>> state.parse_move("A3-A1")
Traceback (most recent call last):
...
damier.core.errors.IllegalMoveError: A3-A1: A2 is lit by the robot on B2; a man may not enter or cross a lit square
>>> state.play(state.parse_move("A3-A6"))
>>> state.player == damier.CHANCE, len(state.chance_outcomes())
(True, 6)
>>> state.play(state.parse_move("rE5-E6"))      # the robot steps into Gold's row: Gold's man is hit
>>> state.outcome().reason
"Silver wins: Gold's man was hit by a laser on A6"
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, ParseError, StateError
from damier.core.game import CHANCE, TERMINAL, Game, Outcome, State, Termination
from damier.core.grid import orthogonal_neighbours, square_name
from damier.core.messages import nested, say
from damier.core.rng import make_rng
from damier.games.jewels import COLLECTED, COLOURS, INFO, LASER_HIT, kernel, notation, setup, view
from damier.games.jewels.evaluation import WIN as SEARCH_WIN
from damier.games.jewels.kernel import (
    BOMB,
    COUNT,
    LEFT,
    MAN,
    NEXT,
    OVER,
    PENDING,
    PENDING_COUNT,
    PHASE,
    PLACE,
    QUIET,
    RESULT,
    ROBOTS,
    WHY,
)

#: a random playout with no ply cap is decided by the jewels after this many plies
PLAYOUT_PLIES = 4000


class JewelsGame(Game):
    """Jewels and Lasers on a ``size`` x ``size`` board, Gold (Player 1) against Silver."""

    info = INFO
    win_score = SEARCH_WIN

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        self.size: int = o["size"]
        setup.check_counts(self.size, o["jewels"], o["walls"], o["robots"])
        self.n: int = self.size * self.size
        # a writable copy: numba compiles read-only arrays as another type
        self.neighbours: np.ndarray = orthogonal_neighbours(self.size, self.size).copy()
        params = np.zeros(8, dtype=np.int32)
        params[kernel.P_ROWS] = params[kernel.P_COLS] = self.size
        params[kernel.P_ALL] = 1 if o["robot_steps"] == "all" else 0
        params[kernel.P_CAP] = o["cap"]
        params[kernel.P_COLUMN] = self.size
        params[kernel.P_EDGE] = 1 if o["edge_explosion"] else 0
        self.params: np.ndarray = params

    @property
    def num_players(self) -> int:
        return 2

    @property
    def board_shape(self) -> tuple[int, int]:
        return (self.size, self.size)

    @property
    def num_moves(self) -> int:
        """Squares (placements and slides' ends), four explosions, and the pass."""
        return self.n + 5

    @property
    def num_chance_outcomes(self) -> int:
        """A robot's square times five: its four steps, and staying (``robot_steps = all``)."""
        return self.n * 5

    @property
    def player_names(self) -> tuple[str, ...]:
        return COLOURS

    @property
    def column(self) -> int:
        """The height of a counting column: a player who fills it wins."""
        return self.size

    def new_state(self, seed: int | None = None) -> JewelsState:
        """The board ``seed`` draws (None is seed 0), Player 1 to place the men."""
        o = self.options
        board = setup.generate(self.size, o["jewels"], o["walls"], o["robots"], 0 if seed is None else seed)
        s = np.zeros(kernel.layout(self.n), dtype=np.int32)
        s[: self.n] = board
        s[self.n + MAN] = s[self.n + MAN + 1] = -1
        s[self.n + BOMB] = s[self.n + BOMB + 1] = 1
        s[self.n + PHASE] = PLACE
        s[self.n + LEFT] = int((board == kernel.JEWEL).sum())
        return JewelsState(self, s, seed=seed, start=None)

    def state_from_position(self, position: str, seed: int | None = None) -> JewelsState:
        """A state from a position string (``notation``)."""
        s = notation.parse_position(self, position)
        return JewelsState(self, s, seed=seed, start=position.strip())


class JewelsState(State):
    """A Jewels and Lasers position with its history."""

    game: JewelsGame

    def __init__(self, game: JewelsGame, s: np.ndarray, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self._s = s
        self._snapshots: list[np.ndarray] = []
        self._moves: list[int] | None = None

    # ----- the contract ---------------------------------------------------------------------------------
    @property
    def player(self) -> int:
        phase = int(self._s[self.game.n + PHASE])
        if phase == OVER:
            return TERMINAL
        if phase == ROBOTS:
            return CHANCE
        return int(self._s[self.game.n + NEXT])

    def legal_moves(self) -> list[int]:
        if self._moves is None:
            g = self.game
            if self.player == TERMINAL:
                self._moves = []
            elif self.player == CHANCE:
                self._moves = [m for m, _ in self.chance_outcomes()]
            else:
                out = np.empty(g.n + 5, dtype=np.int32)
                k = kernel.man_moves(self._s, g.neighbours, g.params, np.zeros(g.n, dtype=np.uint8),
                                     np.empty(g.n, dtype=np.int32), out)
                self._moves = [int(m) for m in out[:k]]
        return list(self._moves)

    def took_marks(self, first: int = 0) -> list[str]:
        """``"x"`` for a move that took something: a jewel (a man's slide) or a robot (blown up, or lit)."""
        n = self.game.n
        boards = [*self._snapshots[first:], self._s]
        marks = []
        for before, after in itertools.pairwise(boards):
            jewel = int(after[n + COUNT] + after[n + COUNT + 1]) > int(before[n + COUNT] + before[n + COUNT + 1])
            robots = np.count_nonzero(after[:n] == kernel.ROBOT) < np.count_nonzero(before[:n] == kernel.ROBOT)
            marks.append("x" if jewel or robots else "")
        return marks

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.player != CHANCE:
            return []
        g = self.game
        out = np.empty(g.n * 5, dtype=np.int32)
        weight = np.empty(g.n * 5, dtype=np.float64)
        k = kernel.chance_outcomes(self._s, g.neighbours, g.params, out, weight)
        return [(int(out[i]), float(weight[i])) for i in range(k)]

    def _apply(self, move: int) -> None:
        g = self.game
        self._snapshots.append(self._s)  # never written again (copies share them)
        s = self._s.copy()
        if self.player == CHANCE:
            kernel.apply_chance(s, move, g.neighbours, g.params)
        else:
            kernel.apply_man(s, move, g.neighbours, g.params)
        self._s = s
        self._moves = None
        self.history.append(move)

    def undo(self) -> None:
        if not self._snapshots:
            raise StateError(say("jewels.error.no_undo"))
        self._s = self._snapshots.pop()
        self._moves = None
        self.history.pop()

    def copy(self) -> JewelsState:
        other = JewelsState(self.game, self._s.copy(), self.seed, self.start)
        other.history = list(self.history)
        other._snapshots = list(self._snapshots)
        return other

    def outcome(self) -> Outcome | None:
        if self.player != TERMINAL:
            return None
        n = self.game.n
        why = int(self._s[n + WHY])
        result = int(self._s[n + RESULT])
        winner = None if result == kernel.DRAW else result - 1
        returns = (0.0, 0.0) if winner is None else (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        score = self.score_words()
        if why == kernel.HIT:
            loser = 1 - (winner or 0)
            square = square_name(int(self._s[n + MAN + loser]), self.game.size)
            hit = say("jewels.outcome.hit", self.game, loser={"seat": loser}, square=square)
            reason = say("outcome.wins_because", self.game, winner={"seat": 1 - loser}, what=nested(hit))
            termination = LASER_HIT
        elif why == kernel.BOTH_HIT:
            reason, termination = say("jewels.outcome.both_hit"), LASER_HIT
        elif why == kernel.COLUMN:
            full = say("jewels.outcome.column", self.game, winner={"seat": winner or 0}, jewels=self.game.column)
            reason = say("outcome.wins_because", self.game, winner={"seat": winner or 0}, what=nested(full))
            termination = Termination.GOAL
        elif why == kernel.COLLECTED:
            reason, termination = say("jewels.outcome.collected", self.game, score=nested(score)), COLLECTED
        else:
            reason = say("jewels.outcome.cap", self.game, plies=str(self.game.options["cap"]), score=nested(score))
            termination = Termination.MOVE_LIMIT
        return Outcome(winner=winner, returns=returns, reason=reason, termination=termination)

    def can_win(self, player: int) -> bool:
        """Whether ``player`` could still win: False only when certain. With no living robot left no laser can
        ever hit a man again (dead robots do not radiate, none comes back), so the game can only end on the jewels
        (all collected, a full column, the cap): ``player`` wins only with more jewels than the other, and at best
        takes every jewel still on the board (none is ever destroyed)."""
        if self.player == TERMINAL:
            outcome = self.outcome()
            return outcome is not None and outcome.winner == player
        board = self._s[:self.game.n]
        if np.any(board == kernel.ROBOT):
            return True
        left = int(np.count_nonzero(board == kernel.JEWEL))
        return self.jewels(player) + left > self.jewels(1 - player)

    def agreement_outcome(self) -> Outcome:
        """The players agree to stop: the one with more jewels wins (equal: a draw)."""
        a, b = self.jewels(0), self.jewels(1)
        winner = None if a == b else 0 if a > b else 1
        returns = (0.0, 0.0) if winner is None else (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        return Outcome(winner=winner, returns=returns,
                       reason=say("jewels.outcome.agreed", self.game, score=nested(self.score_words())),
                       termination=Termination.AGREEMENT)

    def score_words(self) -> str:
        """``Gold wins 5-3`` or ``a draw, 4-4``."""
        a, b = self.jewels(0), self.jewels(1)
        if a == b:
            return say("jewels.outcome.score_draw", a=str(a), b=str(b))
        if a > b:
            return say("jewels.outcome.score_win", self.game, winner={"seat": 0}, a=str(a), b=str(b))
        return say("jewels.outcome.score_win", self.game, winner={"seat": 1}, a=str(b), b=str(a))

    # ----- notation -------------------------------------------------------------------------------------
    def move_to_str(self, move: int) -> str:
        g = self.game
        if self.player == CHANCE:
            if not 0 <= move < g.num_chance_outcomes:
                raise IllegalMoveError(f"{move!r} is not a robot's step here (0 to {g.num_chance_outcomes - 1})")
            sq, d = divmod(int(move), 5)
            if d != kernel.STAY and g.neighbours[sq, d] < 0:
                raise IllegalMoveError(f"outcome {move}: the robot's step from {square_name(sq, g.size)} leaves the "
                                       "board")
            return notation.outcome_to_str(int(move), g.size)
        if not 0 <= move < g.num_moves:
            raise IllegalMoveError(f"{move!r} is not a Jewels and Lasers move number (0 to {g.num_moves - 1})")
        man = self.man(int(self._s[g.n + NEXT]))
        if g.n <= move < g.n + 4 and (self.placing or g.neighbours[man, move - g.n] < 0):
            raise IllegalMoveError(f"move {move}: an explosion needs a placed man with a square beside him that way")
        return notation.move_to_str(int(move), man, g.size, self.placing)

    def parse_move(self, text: str) -> int:
        """The move written ``text``, if legal here; else ``IllegalMoveError`` naming the rule it breaks."""
        if not isinstance(text, str):
            raise ParseError(say("jewels.error.not_string", type=type(text).__name__))
        g = self.game
        if self.player in (CHANCE, TERMINAL):
            try:
                move = notation.parse_outcome(text, g.size)
            except ParseError:
                man = self.man(int(self._s[g.n + NEXT]))
                notation.parse_man_move(text, man, g.size, False)  # ParseError for what is not a move at all
                if self.player == TERMINAL:
                    raise IllegalMoveError(self._over_error(text)) from None
                raise IllegalMoveError(say("jewels.error.robots_move", move=text)) from None
            if self.player == TERMINAL:
                raise IllegalMoveError(self._over_error(text))
            if not self.is_legal(move):
                raise IllegalMoveError(self._steps_error(text))
            return move
        move = notation.parse_man_move(text, self.man(self.player), g.size, self.placing)
        if not self.is_legal(move):
            why = view.why_illegal(self, move)
            raise IllegalMoveError(say("jewels.error.illegal", move=text.strip(), why=nested(why)))
        return move

    def _over_error(self, text: str) -> str:
        """``text``: the game is over (why)."""
        return say("jewels.error.game_over", move=text, reason=nested(self.outcome_reason()))

    def _steps_error(self, text: str, limit: int = 12) -> str:
        """``text`` is not a step the robots can take: the steps they can (``_legal_summary``'s words)."""
        moves = self.legal_moves()
        steps = ", ".join(self.move_to_str(m) for m in moves[:limit])
        more = "none" if not moves else "yes" if len(moves) > limit else "no"
        return say("jewels.error.robots_cannot", move=text, steps=steps, more=more, total=str(len(moves)))

    def position(self) -> str:
        return notation.write_position(self)

    # ----- queries --------------------------------------------------------------------------------------
    @property
    def placing(self) -> bool:
        """Whether Player 1 has still to place the men."""
        return int(self._s[self.game.n + PHASE]) == PLACE

    def man(self, player: int) -> int:
        """The square of ``player``'s man (-1 before the placement)."""
        return int(self._s[self.game.n + MAN + player])

    def jewels(self, player: int) -> int:
        """The jewels ``player`` has taken."""
        return int(self._s[self.game.n + COUNT + player])

    def explosive(self, player: int) -> bool:
        """Whether ``player``'s man still has his explosion."""
        return bool(self._s[self.game.n + BOMB + player])

    @property
    def quiet_plies(self) -> int:
        """Men's plies since a jewel was taken."""
        return int(self._s[self.game.n + QUIET])

    def pending(self) -> list[int]:
        """With ``robot_steps = all``: the robots yet to step in this robots' turn."""
        n = self.game.n
        if int(self._s[n + PENDING_COUNT]) == 0 or self.player != CHANCE:
            return []
        return [sq for sq in range(n) if self._s[n + PENDING + sq]]

    def lit(self) -> np.ndarray:
        """A uint8 array, 1 on each lit square."""
        g = self.game
        lit = np.zeros(g.n, dtype=np.uint8)
        kernel.lit_map(self._s, g.neighbours, lit, np.empty(g.n, dtype=np.int32))
        return lit

    def kernel_array(self) -> np.ndarray:
        """The kernel's position array (a copy)."""
        return self._s.copy()

    # ----- views ----------------------------------------------------------------------------------------
    def render_text(self) -> str:
        return "".join(text for text, _ in view.render_styled(self))

    def render_styled(self) -> list[tuple[str, str | None]]:
        return view.render_styled(self)

    def board_json(self, previews: bool = True) -> dict[str, Any]:
        return view.board_json(self, previews)

    def observation(self) -> np.ndarray:
        """float32 (9, size, size) from the view of the player to move: walls, jewels, living robots, dead
        robots, lit squares, the mover's man, the other man, robots yet to step, and a plane of ones when the
        mover's explosion is unused."""
        g = self.game
        me = max(self.player, 0) if self.player != CHANCE else int(self._s[g.n + NEXT])
        planes = np.zeros((9, g.n), dtype=np.float32)
        board = self._s[: g.n]
        for k, code in enumerate((kernel.WALL, kernel.JEWEL, kernel.ROBOT, kernel.DEAD)):
            planes[k] = board == code
        planes[4] = self.lit()
        for k, who in ((5, me), (6, 1 - me)):
            if self.man(who) >= 0:
                planes[k, self.man(who)] = 1.0
        for sq in self.pending():
            planes[7, sq] = 1.0
        if self.explosive(me):
            planes[8] = 1.0
        return planes.reshape(9, g.size, g.size)

    def events(self) -> list[dict[str, Any]]:
        """The last move as events (``view.events``): what it did, each step with the board after it."""
        if not self._snapshots:
            return []
        return view.events(self, self._snapshots[-1], self.history[-1])

    def key(self) -> bytes:
        return self._s.tobytes()


# ----- features --------------------------------------------------------------------------------------------
def evaluate(state: State, player: int, evaluation: str) -> float:
    """The search's static evaluation of ``state`` for ``player`` (``search.evaluate``)."""
    from damier.games.jewels.search import evaluate_state

    return evaluate_state(state, player, evaluation)


def random_playouts(state: State, count: int, seed: int) -> list[int]:
    """Wins of each player in ``count`` random playouts in the kernel."""
    assert isinstance(state, JewelsState)
    g = state.game
    wins = kernel.playouts(state.kernel_array(), g.neighbours, g.params, count, PLAYOUT_PLIES, make_rng(seed))
    return [int(wins[0]), int(wins[1])]


def random_playout(state: State, seed: int) -> tuple[float, ...]:
    """One random game from ``state`` (left unchanged) in the kernel: the returns."""
    assert isinstance(state, JewelsState)
    g = state.game
    result = kernel.playout(state.kernel_array(), g.neighbours, g.params, PLAYOUT_PLIES, make_rng(seed))
    return {kernel.A_WINS: (1.0, -1.0), kernel.B_WINS: (-1.0, 1.0)}.get(int(result), (0.0, 0.0))

