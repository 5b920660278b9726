"""Exploding Atoms: the ``Game`` and ``State`` facade over the numba kernel (the kernel holds every rule).

>>> import damier
>>> game = damier.load("atoms", rows=3, cols=3)
>>> state = game.new_state()
>>> for square in ["A1", "C3", "A1"]:
...     state.play(state.parse_move(square))
>>> print(state.render_text())
      A  B  C
  1   . 1r  .
  2  1r  .  .
  3   .  . 1B
Blue to move.
(count + colour letter; upper case = critical, one atom from exploding)
>>> [e["type"] for e in state.events()]
['place', 'wave']
>>> state.position()
'.,1r,./1r,.,./.,.,1b b rb 3'
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, OptionError, StateError
from damier.core.game import Game, Outcome, State, Termination
from damier.core.grid import orthogonal_neighbours, parse_square, square_name
from damier.core.messages import nested, say
from damier.core.rng import make_rng
from damier.games.atoms import COLOURS, INFO, kernel, notation, view
from damier.games.atoms import evaluation as evaluation_kernels


class AtomsGame(Game):
    """Exploding Atoms on a ``rows`` x ``cols`` board for ``players`` players."""

    info = INFO
    win_score = float(evaluation_kernels.WIN)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows: int = self.options["rows"]
        self.cols: int = self.options["cols"]
        self.players: int = self.options["players"]
        if self.players > self.rows * self.cols:
            # the first round needs an empty square for every player's first atom
            raise OptionError(say("atoms.error.option.players", players=self.players, rows=self.rows, cols=self.cols,
                                  squares=self.rows * self.cols))
        self.n: int = self.rows * self.cols
        # writable copies: numba compiles read-only arrays as a different type (kernels never write them)
        self.neighbours: np.ndarray = orthogonal_neighbours(self.rows, self.cols).copy()
        self.capacity: np.ndarray = (self.neighbours >= 0).sum(axis=1).astype(np.int32)
        self.square_names: tuple[str, ...] = tuple(square_name(i, self.cols) for i in range(self.n))

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def board_shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def num_moves(self) -> int:
        return self.n

    @property
    def player_names(self) -> tuple[str, ...]:
        return COLOURS[: self.players]

    @property
    def edges(self) -> int:
        """E, the number of pairs of adjacent squares."""
        return int(self.capacity.sum()) // 2

    @property
    def max_plies(self) -> int:
        """2E - V + 1: no game lasts longer (a settled position holds at most 2E - V atoms)."""
        return 2 * self.edges - self.n + 1

    def new_state(self, seed: int | None = None) -> AtomsState:
        s = np.zeros(kernel.state_length(self.n, self.players), dtype=np.int32)
        s[self.n : 2 * self.n] = -1
        s[2 * self.n + kernel.WINNER] = -1
        return AtomsState(self, s, seed=seed, start=None)

    def state_from_position(self, position: str, seed: int | None = None) -> AtomsState:
        """A state from a position string (see ``damier.games.atoms.notation``).

        >>> import damier
        >>> s = damier.load("atoms", rows=2, cols=2).state_from_position("1r,./.,1b r rb 2")
        >>> s.legal_moves()
        [0, 1, 2]
        """
        s = notation.parse_position(position, self.rows, self.cols, self.players, self.capacity)
        return AtomsState(self, s, seed=seed, start=position.strip())

class AtomsState(State):
    """An Exploding Atoms position with its history."""

    game: AtomsGame

    def __init__(self, game: AtomsGame, s: np.ndarray, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self._s = s
        self._snapshots: list[np.ndarray] = []
        self._work = np.zeros(3 * game.n, dtype=np.int32)
        self._log = np.empty(1, dtype=np.int32)

    # ----- contract -------------------------------------------------------------------------------------
    @property
    def player(self) -> int:
        return int(self._s[2 * self.game.n + kernel.TO_MOVE])

    def legal_moves(self) -> list[int]:
        out = np.empty(self.game.n, dtype=np.int32)
        k = kernel.legal_moves(self._s, self.game.n, out)
        return [int(m) for m in out[:k]]

    def took_marks(self, first: int = 0) -> list[str]:
        """``"x"`` for a move whose explosions took a square another player held (its atoms turn the mover's)."""
        n = self.game.n
        boards = [*self._snapshots[first:], self._s]
        marks = []
        for before, after in itertools.pairwise(boards):
            mover = int(before[2 * n + kernel.TO_MOVE])
            held = (before[:n] > 0) & (before[n:2 * n] != mover)
            marks.append("x" if bool(np.any(held & (after[n:2 * n] == mover) & (after[:n] > 0))) else "")
        return marks

    def is_legal(self, move: int) -> bool:
        return 0 <= move < self.game.n and bool(kernel.is_legal(self._s, move, self.game.n))

    def _apply(self, move: int) -> None:
        g = self.game
        # the old array becomes the snapshot and is never written again (copies may share it)
        self._snapshots.append(self._s)
        self._s = self._s.copy()
        kernel.apply(self._s, move, g.neighbours, g.capacity, g.n, g.players, self._work, self._log, False)
        self.history.append(move)

    def undo(self) -> None:
        if not self._snapshots:
            raise StateError(say("rules.undo.nothing"))
        self._s = self._snapshots.pop()
        self.history.pop()

    def copy(self) -> AtomsState:
        other = AtomsState(self.game, self._s.copy(), self.seed, self.start)
        other.history = list(self.history)
        other._snapshots = list(self._snapshots)  # snapshots are never mutated, sharing them is safe
        return other

    def outcome(self) -> Outcome | None:
        if self.player != kernel.TERMINAL:
            return None
        winner = int(self._s[2 * self.game.n + kernel.WINNER])
        losers = [q for q in range(self.game.players) if q != winner]
        why = say("atoms.outcome.no_atoms_left", self.game, loser={"seat": losers[0]}) if len(losers) == 1 else (
            say("atoms.outcome.all_eliminated"))
        reason = say("outcome.wins_because", self.game, winner={"seat": winner}, what=nested(why))
        returns = tuple(1.0 if q == winner else -1.0 for q in range(self.game.players))
        return Outcome(winner=winner, returns=returns, reason=reason, termination=Termination.ELIMINATION)

    # ----- notation -------------------------------------------------------------------------------------
    def move_to_str(self, move: int) -> str:
        if not isinstance(move, int | np.integer) or not 0 <= move < self.game.n:
            raise IllegalMoveError(say("atoms.error.move.not_square", move=repr(move), last=self.game.n - 1))
        return self.game.square_names[move]

    def parse_move(self, text: str) -> int:
        """The square written ``text`` (``C4``, any case), if the player to move may play there."""
        g = self.game
        move = parse_square(text, g.rows, g.cols)
        if self.player == kernel.TERMINAL:
            raise IllegalMoveError(say("rules.move.game_over", reason=nested(self.outcome_reason())))
        if not self.is_legal(move):
            raise IllegalMoveError(say("atoms.error.move.not_yours", g, square=square_name(move, g.cols),
                                       owner={"seat": int(self._s[g.n + move])}, mover={"seat": self.player}))
        return move

    def position(self) -> str:
        g = self.game
        return notation.format_position(self._s, g.rows, g.cols, g.players)

    # ----- views ----------------------------------------------------------------------------------------
    def cells(self) -> list[list[view.Cell]]:
        """The board as rows of ``Cell`` (name, count, owner, capacity), for views."""
        g = self.game
        return [
            [
                view.Cell(square_name(r * g.cols + c, g.cols), int(self._s[r * g.cols + c]),
                          int(self._s[g.n + r * g.cols + c]), int(g.capacity[r * g.cols + c]))
                for c in range(g.cols)
            ]
            for r in range(g.rows)
        ]

    def render_text(self) -> str:
        return view.render(self.cells(), self._s, self.game.n, self.game.players)

    def board_json(self, previews: bool = True) -> dict[str, Any]:
        """Rows, columns, and per square (row-major from A1) the atom count, owner (-1 empty) and capacity."""
        g = self.game
        return {
            "kind": "atoms",
            "rows": g.rows,
            "cols": g.cols,
            "counts": [int(c) for c in self._s[: g.n]],
            "owners": [int(o) for o in self._s[g.n : 2 * g.n]],
            "capacity": [int(c) for c in g.capacity],
        }

    def render_styled(self) -> list[tuple[str, str | None]]:
        return view.render_styled(self.cells(), self._s, self.game.n, self.game.players)

    def observation(self) -> np.ndarray:
        """float32 (players + 1, rows, cols): plane i holds the atoms of the player i seats after the player
        to move (plane 0: the player to move's own atoms); the last plane holds each square's capacity."""
        g = self.game
        me = max(self.player, 0)
        counts = self._s[: g.n]
        owners = self._s[g.n : 2 * g.n]
        planes = np.zeros((g.players + 1, g.rows, g.cols), dtype=np.float32)
        for i in range(g.players):
            q = (me + i) % g.players
            planes[i] = np.where(owners == q, counts, 0).reshape(g.rows, g.cols)
        planes[g.players] = g.capacity.reshape(g.rows, g.cols)
        return planes

    def events(self) -> list[dict[str, Any]]:
        """The last move as events: ``place``, one ``wave`` per explosion layer, ``eliminate``, ``win``.

        ``place`` and each ``wave`` carry ``changes``: the squares whose atoms changed in that step, each with its
        count and owner after it, so a client draws the board after every wave without computing an explosion.
        A wave also lists, for each exploding square (``squares``), the squares it sends an atom to (``targets``).
        """
        if not self._snapshots:
            return []
        g = self.game
        move = self.history[-1]
        before = self._snapshots[-1]
        mover = int(before[2 * g.n + kernel.TO_MOVE])
        (_, placed), *waves = self._steps()
        events: list[dict[str, Any]] = [{"type": "place", "player": mover, "square": self.move_to_str(move),
                                         "changes": _changes([move], placed[: g.n], placed[g.n :], g.cols)}]
        for index, (wave, board) in enumerate(waves):
            targets = [[int(t) for t in g.neighbours[sq] if t >= 0] for sq in wave]
            counts, owners = board[: g.n], board[g.n :]
            touched = sorted(set(wave).union(*targets))
            events.append({"type": "wave", "index": index, "squares": [square_name(sq, g.cols) for sq in wave],
                           "targets": [[square_name(t, g.cols) for t in ts] for ts in targets],
                           "changes": _changes(touched, counts, owners, g.cols)})
        elim = kernel.elim_at(g.n, g.players)
        for q in range(g.players):
            if self._s[elim + q] and not before[elim + q]:
                events.append({"type": "eliminate", "player": q})
        if self.player == kernel.TERMINAL:
            events.append({"type": "win", "player": int(self._s[2 * g.n + kernel.WINNER])})
        return events

    def _steps(self) -> list[tuple[list[int], np.ndarray]]:
        """Each step of the last move, the placement and then each wave: its exploding squares and the board after
        it (counts, then owners), as the kernel logs them when it replays the move from its snapshot."""
        g = self.game
        log = np.empty(8 * g.n, dtype=np.int32)
        while True:  # grow the log if it was too short
            nlog = kernel.apply(
                self._snapshots[-1].copy(), self.history[-1], g.neighbours, g.capacity, g.n, g.players,
                np.zeros(3 * g.n, dtype=np.int32), log, True,
            )
            if nlog <= log.shape[0]:
                break
            log = np.empty(nlog, dtype=np.int32)
        waves: list[tuple[list[int], np.ndarray]] = []
        i = 0
        while i < nlog:
            squares = []
            while log[i] >= 0:
                squares.append(int(log[i]))
                i += 1
            waves.append((squares, log[i + 1 : i + 1 + 2 * g.n].copy()))
            i += 1 + 2 * g.n
        return waves

    def key(self) -> bytes:
        """Counts, owners, the player to move and who has moved (not the ply count)."""
        g = self.game
        moved = kernel.moved_at(g.n, g.players)
        return self._s[: 2 * g.n + 1].tobytes() + self._s[moved : moved + g.players].tobytes()

    # ----- facts used by views and tests ----------------------------------------------------------------
    def kernel_array(self) -> np.ndarray:
        """A copy of the kernel's array of this position (``damier.games.atoms.kernel`` documents its layout)."""
        return self._s.copy()

    def atoms(self, player: int | None = None) -> int:
        """Total atoms on the board, or those of ``player``."""
        g = self.game
        counts = self._s[: g.n]
        if player is None:
            return int(counts[self._s[g.n : 2 * g.n] >= 0].sum())
        return int(counts[self._s[g.n : 2 * g.n] == player].sum())

    def can_win(self, player: int) -> bool:
        """Exact: a colour eliminated never comes back; any other can still win (chain reactions can turn any
        board round)."""
        if self.player == kernel.TERMINAL:
            outcome = self.outcome()
            return outcome is not None and outcome.winner == player
        return player not in self.eliminated()

    def eliminated(self) -> list[int]:
        """The colours with no atom left once they had moved (the kernel's flags).

        >>> from damier import load
        >>> state = load("atoms", rows=2, cols=2).new_state()
        >>> state.eliminated()
        []
        """
        elim = kernel.elim_at(self.game.n, self.game.players)
        return [q for q in range(self.game.players) if self._s[elim + q]]

    @property
    def ply(self) -> int:
        return int(self._s[2 * self.game.n + kernel.PLY])


def _changes(squares: list[int], counts: np.ndarray, owners: np.ndarray, cols: int) -> dict[str, dict[str, int]]:
    return {square_name(sq, cols): {"count": int(counts[sq]), "owner": int(owners[sq])} for sq in squares}


# ----- the features declared in ``damier.games.atoms.INFO`` -----------------------------------------------------
def evaluate(state: State, player: int, evaluation: str) -> float:
    """The ``classic`` critical-squares evaluation (or ``strong``) of ``state`` for ``player`` (``evaluate``).

    >>> import damier
    >>> game = damier.load("atoms", rows=3, cols=3)
    >>> corner = game.state_from_position(".,.,./.,.,./.,.,1r b r 1")
    >>> game.evaluate(corner, 0)  # 1 atom, +3 for a corner, +2 for a critical square
    6.0
    """
    assert isinstance(state, AtomsState)
    g = state.game
    work = np.zeros(3 * g.n, dtype=np.int32)
    index = INFO.evaluations.index(evaluation)
    scores = np.empty(g.players, dtype=np.int64)
    return float(evaluation_kernels.evaluate(state._s, player, index, g.neighbours, g.capacity, g.n, g.players, work,
                                             scores))


def random_playouts(state: State, count: int, seed: int) -> list[int]:
    """``count`` random games from ``state`` in the kernel: the wins of each colour (the ``playouts`` feature)."""
    assert isinstance(state, AtomsState)
    g = state.game
    wins = kernel.random_playouts(state._s, g.neighbours, g.capacity, g.n, g.players, make_rng(seed), count)
    return [int(w) for w in wins]


def random_playout(state: State, seed: int) -> tuple[float, ...]:
    """One random game from ``state`` in the kernel: +1 for the winner, -1 for the others (``playout``)."""
    wins = random_playouts(state, 1, seed)
    return tuple(1.0 if w else -1.0 for w in wins)
