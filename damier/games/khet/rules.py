"""Khet 2.0: the ``Game`` and ``State`` facade over the numba kernel (the kernel holds every rule).

>>> import damier
>>> game = damier.load("khet")
>>> state = game.new_state()
>>> len(state.legal_moves())
77
>>> state.play(state.parse_move("j1-"))  # Silver turns its Sphinx west, along its own rank 1
>>> [e["type"] for e in state.events()]
['rotate', 'laser', 'remove']
>>> state.events()[1]["squares"], state.events()[2]["kind"]  # the side of its own Anubis: removed
(['i1', 'h1', 'g1', 'f1'], 'anubis')
>>> state.position()
'xs3aspsasye2/2ys7/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/7Yn2/2YwAnPn4Xw r 0'
>>> state.undo(); state.position() == game.new_state().position()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from damier.core.errors import DamierError, IllegalMoveError, ParseError, StateError
from damier.core.game import Game, Outcome, State, Termination
from damier.core.messages import nested, say
from damier.core.rng import make_rng
from damier.games.khet import COLOURS, INFO, PHARAOH_HIT, kernel, notation, view
from damier.games.khet.evaluation import WIN
from damier.games.khet.kernel import (
    ACTIONS,
    CLAIM,
    END,
    END_CLAIM,
    END_PHARAOH,
    END_QUIET,
    END_REPETITION,
    MAX_MOVES,
    MAX_PATH,
    NEIGHBOURS,
    QUIET,
    REMOVED_CODE,
    REMOVED_SQ,
    RESERVED,
    SPHINX_SQUARE,
    SQUARES,
    TERMINAL,
    TO_MOVE,
    WINNER,
)
from damier.games.khet.notation import FACINGS, KIND_NAMES, piece_word, square_name
from damier.games.khet.setup import SETUP_TEXT, setup_array, setup_position

#: a random playout with no quiet-ply limit is called a draw after this many plies
PLAYOUT_PLIES = 1000
STOP_WORDS = {kernel.LEFT_BOARD: "left", kernel.ABSORBED: "absorbed", kernel.HIT: "removed"}


class KhetGame(Game):
    """Khet 2.0 on the 10 x 8 board, Silver against Red, from the ``setup`` named by the options."""

    info = INFO
    win_score = float(WIN)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.setup: str = self.options["setup"]
        self.pharaoh_rotation: bool = self.options["pharaoh_rotation"]
        self.strict_swap: bool = self.options["strict_swap_reserved"]
        self.claim_repetition: bool = self.options["repetition"] == "claim"
        self.quiet_limit: int = self.options["quiet_ply_limit"]
        self._start = setup_array(self.setup)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def board_shape(self) -> tuple[int, int]:
        return (kernel.HEIGHT, kernel.WIDTH)

    @property
    def num_moves(self) -> int:
        return kernel.NUM_MOVES

    @property
    def player_names(self) -> tuple[str, ...]:
        return COLOURS

    def new_state(self, seed: int | None = None) -> KhetState:
        return KhetState(self, self._start.copy(), seed=seed, start=None)

    def state_from_position(self, position: str, seed: int | None = None) -> KhetState:
        """A state from a position string, damier's or Khet2-AI's (see ``damier.games.khet.notation``), or a setup
        name. The state's ``start`` is the position in damier's format.

        >>> import damier
        >>> game = damier.load("khet")
        >>> dynasty = damier.load("khet", setup="dynasty").new_state()
        >>> game.state_from_position("dynasty").position() == dynasty.position()
        True
        >>> game.state_from_position("x34k4///////4K4X1 1").position()  # Khet2-AI's: Red (1) to move
        'xs4ps4/10/10/10/10/10/10/4Pn4Xn r 0'
        """
        text = position.strip() if isinstance(position, str) else position
        if isinstance(text, str) and text.lower() in SETUP_TEXT:
            text = setup_position(text.lower())
        s, written = notation.read_position(text, self.strict_swap)
        if written != notation.DAMIER:
            text = notation.format_position(s)  # records and replays carry damier's string
        if s[END] == END_QUIET and not (self.quiet_limit and s[QUIET] >= self.quiet_limit):
            raise ParseError(say("khet.error.position.quiet_end", limit=str(self.quiet_limit),
                                 count=str(int(s[QUIET]))))
        if self.quiet_limit and s[TO_MOVE] >= 0 and s[QUIET] >= self.quiet_limit:
            raise ParseError(say("khet.error.position.already_drawn", count=str(int(s[QUIET])),
                                 limit=str(self.quiet_limit)))
        return KhetState(self, s, seed=seed, start=text)

class KhetState(State):
    """A Khet position with its history (undo, repetition)."""

    game: KhetGame

    def __init__(self, game: KhetGame, s: np.ndarray, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self._s = s
        self._snapshots: list[np.ndarray] = []
        # Zobrist keys of the positions so far (start included), for repetition
        self._hashes = np.zeros(64, dtype=np.uint64)
        self._hashes[0] = kernel.position_hash(s)
        self._count = 1

    # ----- contract -------------------------------------------------------------------------------------
    @property
    def player(self) -> int:
        return int(self._s[TO_MOVE])

    def legal_moves(self) -> list[int]:
        g = self.game
        out = np.empty(MAX_MOVES, dtype=np.int32)
        k = kernel.generate(self._s, out, g.pharaoh_rotation, g.strict_swap)
        moves = [int(m) for m in out[:k]]
        if k and self.can_claim_draw():
            moves.append(CLAIM)
        return moves

    def took_marks(self, first: int = 0) -> list[str]:
        """``"x"`` for a move whose shot removed a piece (the kernel keeps the square it removed)."""
        after = [*self._snapshots[first + 1:], self._s]
        return ["x" if int(s[REMOVED_SQ]) >= 0 else "" for s in after[: len(self.history) - first]]

    def is_legal(self, move: int) -> bool:
        g = self.game
        if move == CLAIM:
            return self.player >= 0 and self.can_claim_draw()
        if not 0 <= move < CLAIM:
            return False
        return bool(kernel.is_legal(self._s, move, g.pharaoh_rotation, g.strict_swap))

    def repetitions(self) -> int:
        """How many times the current position has occurred (pieces, facings, side to move), this time included."""
        return int(kernel.repetitions(self._hashes, self._count, int(self._s[QUIET])))

    def can_claim_draw(self) -> bool:
        """With ``repetition=claim``: whether the player to move may claim a draw now (third occurrence)."""
        return self.game.claim_repetition and self.player >= 0 and self.repetitions() >= 3

    def _apply(self, move: int) -> None:
        g = self.game
        self._snapshots.append(self._s)  # never written again (copies may share it)
        self._s = self._s.copy()
        if move == CLAIM:
            self._s[TO_MOVE] = TERMINAL
            self._s[WINNER] = -1
            self._s[END] = END_CLAIM
            self._s[REMOVED_SQ] = -1
            self._s[REMOVED_CODE] = 0
        else:
            kernel.apply(self._s, move, g.quiet_limit)
        self.history.append(move)
        if self._count == self._hashes.shape[0]:
            self._hashes = np.concatenate([self._hashes, np.zeros_like(self._hashes)])
        kernel.record_position(self._s, self._hashes, self._count, not g.claim_repetition)  # may end it drawn
        self._count += 1

    def undo(self) -> None:
        if not self._snapshots:
            raise StateError(say("khet.error.undo"))
        self._s = self._snapshots.pop()
        self.history.pop()
        self._count -= 1

    def copy(self) -> KhetState:
        other = KhetState.__new__(KhetState)
        other.game = self.game
        other.seed = self.seed
        other.start = self.start
        other.history = list(self.history)
        other._s = self._s.copy()
        other._snapshots = list(self._snapshots)  # snapshots are never mutated, sharing them is safe
        other._hashes = self._hashes.copy()
        other._count = self._count
        return other

    def outcome(self) -> Outcome | None:
        if self.player != TERMINAL:
            return None
        winner = int(self._s[WINNER])
        end = int(self._s[END])
        if end == END_PHARAOH:
            hit = say("khet.outcome.pharaoh_hit", self.game, loser={"seat": 1 - winner})
            reason = say("outcome.wins_because", self.game, winner={"seat": winner}, what=nested(hit))
            return Outcome(winner=winner, returns=(1.0, -1.0) if winner == 0 else (-1.0, 1.0), reason=reason,
                           termination=PHARAOH_HIT)
        reason = {
            END_REPETITION: say("khet.outcome.repetition"),
            END_CLAIM: say("khet.outcome.repetition_claimed"),
            END_QUIET: say("khet.outcome.quiet", plies=str(self.game.quiet_limit)),  # records wrote 1000, not 1,000
        }[end]
        termination = Termination.MOVE_LIMIT if end == END_QUIET else Termination.REPETITION
        return Outcome(winner=None, returns=(0.0, 0.0), reason=reason, termination=termination)

    # ----- notation -------------------------------------------------------------------------------------
    def move_to_str(self, move: int) -> str:
        if not isinstance(move, int | np.integer) or not 0 <= move < kernel.NUM_MOVES:
            raise IllegalMoveError(f"{move!r} is not a Khet move number (0 to {kernel.NUM_MOVES - 1})")
        sq, action = divmod(int(move), ACTIONS)
        if action == kernel.ROTATE_CCW and move != CLAIM and (int(self._s[sq]) >> 3) == kernel.SCARAB:
            raise IllegalMoveError(f"move {move}: a Scarab has one rotation, written {square_name(sq)}+")
        return notation.move_to_str(int(move))

    def parse_move(self, text: str) -> int:
        """The move written ``text`` (``c1c2``, ``c4+``, ``j1-``, ``claim``), if it is legal here.

        >>> import damier
        >>> state = damier.load("khet").new_state()
        >>> state.parse_move("a4a3")
        Traceback (most recent call last):
        ...
        damier.core.errors.IllegalMoveError: a4a3: the Pyramid on a4 is Red's; Silver is to move
        """
        move = notation.parse_move_text(text)
        if self.player == TERMINAL:
            raise IllegalMoveError(say("khet.error.game_over", reason=nested(self.outcome_reason())))
        if move == CLAIM:
            if not self.game.claim_repetition:
                raise IllegalMoveError(say("khet.error.claim.automatic"))
            if not self.can_claim_draw():
                raise IllegalMoveError(say("khet.error.claim.too_soon", count=self.repetitions()))
            return CLAIM
        sq, action = divmod(move, ACTIONS)
        c = int(self._s[sq])
        if (c >> 3) == kernel.SCARAB and action == kernel.ROTATE_CCW:
            move = sq * ACTIONS + kernel.ROTATE_CW  # a Scarab's two rotations are the same move
        if self.is_legal(move):
            return move
        raise IllegalMoveError(say("khet.error.illegal", move=text.strip(), why=nested(self._why_illegal(move))))

    def _why_illegal(self, move: int) -> str:
        """Why ``move`` is not legal here, in words: the move generator's own verdict (``kernel.verdict``)."""
        g = self.game
        why = int(kernel.verdict(self._s, move, g.pharaoh_rotation, g.strict_swap))
        if why == kernel.WHY_GAME_OVER:
            return say("khet.why.game_over")
        if why == kernel.WHY_NOT_A_MOVE:
            return say("khet.why.not_a_move", move=str(move), last=str(CLAIM - 1))
        sq, action = divmod(move, ACTIONS)
        c = int(self._s[sq])
        me = self.player
        what = {"piece": piece_word(c >> 3), "square": square_name(sq)}  # the piece that would move
        to = int(NEIGHBOURS[sq, action]) if action < 8 else sq
        tc = int(self._s[to]) if to >= 0 else 0
        tk, tcolour = tc >> 3, (tc >> 2) & 1
        turn = notation.move_to_str(sq * ACTIONS + int(kernel.sphinx_rotation(c))) if c else ""
        if why == kernel.WHY_EMPTY:
            return say("khet.why.empty", square=square_name(sq))
        if why == kernel.WHY_NOT_YOURS:
            return say("khet.why.not_yours", g, owner={"seat": (c >> 2) & 1}, seat={"seat": me}, **what)
        if why == kernel.WHY_SPHINX_STEPS:
            return say("khet.why.sphinx_steps", turn=turn, **what)
        if why == kernel.WHY_SPHINX_TURN:
            return say("khet.why.sphinx_turn", facing=FACINGS[c & 3], turn=turn, **what)
        if why == kernel.WHY_NO_TURN:
            return say("khet.why.no_turn", **what)
        if why == kernel.WHY_SCARAB_TURN:
            return say("khet.why.scarab_turn", **what)
        if why == kernel.WHY_OFF_BOARD:
            return say("khet.why.off_board", **what)
        if why == kernel.WHY_RESERVED:
            return say("khet.why.reserved", g, square=square_name(to), seat={"seat": 1 - me})
        if why == kernel.WHY_OCCUPIED:
            return say("khet.why.occupied", square=square_name(to))
        if why == kernel.WHY_SWAP_KIND:
            return say("khet.why.swap_kind", piece=piece_word(tk))
        if why == kernel.WHY_SWAP_RESERVED:
            return say("khet.why.swap_reserved", g, seat={"seat": tcolour}, piece=piece_word(tk),
                       square=square_name(sq), other={"seat": 1 - tcolour})
        return say("khet.why.other")

    def position(self, format: str = notation.DAMIER) -> str:
        """The position as text: damier's position string (``format="damier"``, the default), or Khet2-AI's
        (``format="khet2ai"``: no quiet-ply count, no Pharaoh facing; ``StateError`` once the game is over).

        >>> import damier
        >>> damier.load("khet").new_state().position(format="khet2ai")
        'x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0'
        """
        if format == notation.DAMIER:
            return notation.format_position(self._s)
        if format == notation.KHET2AI:
            return notation.format_khet2ai(self._s)
        raise DamierError(f"unknown position format {format!r}; formats: {', '.join(notation.FORMATS)}")

    # ----- lasers ---------------------------------------------------------------------------------------
    def laser(self, colour: int | None = None) -> dict[str, Any]:
        """Where ``colour``'s laser (default: the player to move's) would go if it fired now.

        >>> import damier
        >>> beam = damier.load("khet").new_state().laser(1)
        >>> beam["turns"], beam["stop"]
        (['a5', 'c5', 'c4', 'a4'], 'left')
        """
        who = self.player if colour is None else colour
        if who not in (0, 1):
            raise StateError("the game is over: give the colour whose laser to trace (0 Silver, 1 Red)")
        path = np.zeros(MAX_PATH, dtype=np.int32)
        n, how, at = kernel.trace(self._s, who, path)
        return _beam_json(who, path[:n], how, at, _sphinx_facing(self._s, who), int(self._s[at]) if at >= 0 else 0)

    def previews(self) -> dict[str, dict[str, Any]]:
        """For every legal move, the mover's shot right after it: the laser preview of a user interface.

        Computed by the kernel that plays the moves, so the preview is exactly the shot that will follow.
        """
        if self.player < 0:
            return {}
        moves = np.array([m for m in self.legal_moves() if m != CLAIM], dtype=np.int32)
        k = len(moves)
        paths = np.zeros((max(k, 1), MAX_PATH), dtype=np.int32)
        shots = np.zeros((max(k, 1), 5), dtype=np.int32)
        kernel.shots_after(self._s, moves, k, paths, shots)
        out = {}
        for i in range(k):
            length, how, at, victim, facing = (int(x) for x in shots[i])
            out[notation.move_to_str(int(moves[i]))] = _beam_json(self.player, paths[i, :length], how, at, facing,
                                                                  victim)
        return out

    # ----- views ----------------------------------------------------------------------------------------
    def pieces(self) -> list[dict[str, Any]]:
        """The pieces as dicts: square, kind, colour (0 Silver, 1 Red), facing (N E S W; a Scarab N or E)."""
        return [_piece_json(sq, int(self._s[sq])) for sq in range(SQUARES) if self._s[sq]]

    def render_text(self) -> str:
        return view.render(self._s, self._last_beam())

    def render_styled(self) -> list[tuple[str, str | None]]:
        return view.render_styled(self._s, self._last_beam())

    def _last_beam(self) -> set[int]:
        laser = next((e for e in self.events() if e["type"] == "laser"), None)  # none before a move, or a claim
        return {notation.parse_square(sq) for sq in laser["squares"]} if laser else set()

    def board_json(self, previews: bool = True) -> dict[str, Any]:
        """What the browser view draws: pieces, reserved squares, and (``previews``) every legal move by its
        notation: what it does (``moves``: ``from`` and ``to``, or the turned piece's ``square``, ``turn`` and the
        ``facing`` it ends with) and the shot after it (``previews``); both are empty when ``previews`` is False."""
        reserved = {square_name(sq): int(RESERVED[sq]) for sq in range(SQUARES) if RESERVED[sq] >= 0}
        return {
            "kind": "khet",
            "rows": kernel.HEIGHT,
            "cols": kernel.WIDTH,
            "position": self.position(),
            "to_move": self.player,
            "pieces": self.pieces(),
            "reserved": reserved,
            "sphinx": {"0": square_name(int(SPHINX_SQUARE[0])), "1": square_name(int(SPHINX_SQUARE[1]))},
            "moves": self._moves_json() if previews else {},
            "previews": self.previews() if previews else {},
            "repetitions": self.repetitions(),
            "can_claim": self.can_claim_draw(),
            "quiet": int(self._s[QUIET]),
            "quiet_limit": self.game.quiet_limit,
        }

    def _moves_json(self) -> dict[str, dict[str, Any]]:
        """Every legal move by its notation, as the board view offers it: a ``step`` or a ``swap`` (``from``,
        ``to``), a ``rotate`` (``square``, ``turn`` ``cw`` or ``ccw``, the ``facing`` after it), or ``claim``."""
        out: dict[str, dict[str, Any]] = {}
        for move in self.legal_moves():
            text = notation.move_to_str(move)
            if move == CLAIM:
                out[text] = {"type": "claim"}
                continue
            sq, action = divmod(move, ACTIONS)
            if action < 8:
                to = int(NEIGHBOURS[sq, action])
                out[text] = {"type": "swap" if self._s[to] else "step", "from": square_name(sq), "to": square_name(to)}
            else:
                turned = self._s.copy()
                kernel.move_piece(turned, move)
                out[text] = {"type": "rotate", "square": square_name(sq),
                             "turn": "cw" if action == kernel.ROTATE_CW else "ccw",
                             "facing": FACINGS[int(turned[sq]) & 3]}
        return out

    def observation(self) -> np.ndarray:
        """float32 (17, 8, 10), row 0 = rank 1: planes 0-4 the mover's Sphinx, Pharaoh, Anubis, Pyramid,
        Scarab; 5-9 the opponent's; 10-13 facing N, E, S, W of any piece; 14 squares reserved for the mover,
        15 for the opponent; 16 all ones when Silver is to move."""
        me = max(self.player, 0)
        planes = np.zeros((17, kernel.HEIGHT, kernel.WIDTH), dtype=np.float32)
        for sq in range(SQUARES):
            r, f = divmod(sq, kernel.WIDTH)
            c = int(self._s[sq])
            if c:
                kind, colour, facing = c >> 3, (c >> 2) & 1, c & 3
                planes[(kind - 1) + (0 if colour == me else 5), r, f] = 1.0
                planes[10 + facing, r, f] = 1.0
            if RESERVED[sq] >= 0:
                planes[14 if RESERVED[sq] == me else 15, r, f] = 1.0
        if me == 0:
            planes[16] = 1.0
        return planes

    def events(self) -> list[dict[str, Any]]:
        """The last move as events: the piece action (``step``, ``swap``, ``rotate``, or ``claim``), the
        ``laser`` (every square of the beam, where it turned, how it stopped), ``remove``, and ``win``/``draw``.

        The piece action and ``remove`` carry ``changes``: each square whose piece changed in that step, with the
        piece on it after the step (``null`` when it is empty), so a client draws the board after the move before
        the shot, and after the removal, without applying a move itself.
        """
        if not self._snapshots:
            return []
        before = self._snapshots[-1]
        move = self.history[-1]
        mover = int(before[TO_MOVE])
        events: list[dict[str, Any]] = []
        if move == CLAIM:
            return [{"type": "claim", "player": mover}, {"type": "draw", "reason": self.outcome_reason()}]
        moved = before.copy()
        kernel.move_piece(moved, move)
        sq, action = divmod(move, ACTIONS)
        if action < 8:
            to = int(NEIGHBOURS[sq, action])
            kind = "swap" if before[to] else "step"
            events.append({"type": kind, "player": mover, "from": square_name(sq), "to": square_name(to),
                           "move": notation.move_to_str(move), "changes": _changes(before, moved)})
        else:
            events.append({"type": "rotate", "player": mover, "square": square_name(sq),
                           "clockwise": action == kernel.ROTATE_CW, "facing": FACINGS[int(moved[sq]) & 3],
                           "move": notation.move_to_str(move), "changes": _changes(before, moved)})
        path = np.zeros(MAX_PATH, dtype=np.int32)
        n, how, at = kernel.trace(moved, mover, path)
        victim = int(moved[at]) if at >= 0 else 0
        events.append({"type": "laser", **_beam_json(mover, path[:n], how, at, _sphinx_facing(moved, mover), victim)})
        if self._s[REMOVED_SQ] >= 0:
            events.append({"type": "remove", **_piece_json(int(self._s[REMOVED_SQ]), int(self._s[REMOVED_CODE])),
                           "changes": _changes(moved, self._s)})
        if self.player == TERMINAL:
            winner = int(self._s[WINNER])
            if winner >= 0:
                events.append({"type": "win", "player": winner})
            else:
                events.append({"type": "draw", "reason": self.outcome_reason()})
        return events

    def key(self) -> bytes:
        """Pieces (Scarabs by mirror) and the side to move: equal keys are the same position for repetition."""
        return self._s[: SQUARES + 1].tobytes()

    @property
    def ply(self) -> int:
        return int(self._s[kernel.PLY])

    @property
    def quiet_plies(self) -> int:
        return int(self._s[QUIET])

    def kernel_array(self) -> np.ndarray:
        """A copy of the kernel's array of this position (``damier.games.khet.kernel`` documents its layout)."""
        return self._s.copy()

    def position_hashes(self) -> np.ndarray:
        """The Zobrist keys of every position of the game so far, the current one last (for repetitions)."""
        return self._hashes[: self._count].copy()


def _piece_json(sq: int, c: int) -> dict[str, Any]:
    return {"square": square_name(sq), "kind": KIND_NAMES[c >> 3].lower(), "colour": (c >> 2) & 1,
            "facing": FACINGS[c & 3]}


def _changes(before: np.ndarray, after: np.ndarray) -> dict[str, dict[str, Any] | None]:
    """The squares whose piece differs between two position arrays, each with its piece in ``after`` (or None)."""
    return {square_name(sq): _piece_json(sq, int(after[sq])) if after[sq] else None
            for sq in range(SQUARES) if before[sq] != after[sq]}


def _sphinx_facing(board: np.ndarray, colour: int) -> int:
    return int(board[SPHINX_SQUARE[colour]]) & 3


def _beam_json(colour: int, path: np.ndarray, how: int, at: int, facing: int, victim: int) -> dict[str, Any]:
    """A beam as JSON: its squares, the direction it leaves each in, the squares where it turned, its end.

    ``facing`` is the Sphinx's as it fires; ``victim`` the code of the piece the beam removes (when it does).
    """
    squares = [square_name(int(p) >> 2) for p in path]
    directions = [FACINGS[int(p) & 3] for p in path]
    previous = facing
    turns = []
    for sq, d in zip(squares, directions, strict=True):
        if FACINGS.index(d) != previous:
            turns.append(sq)
        previous = FACINGS.index(d)
    out: dict[str, Any] = {
        "player": colour,
        "from": square_name(int(SPHINX_SQUARE[colour])),
        "facing": FACINGS[facing],
        "squares": squares,
        "directions": directions,
        "turns": turns,
        "stop": STOP_WORDS[how],
        "at": square_name(at) if at >= 0 else None,
        "removed": _piece_json(at, victim) if how == kernel.HIT else None,
    }
    return out


# ----- the features declared in ``damier.games.khet.INFO`` ------------------------------------------------------
def evaluate(state: State, player: int, evaluation: str) -> float:
    """The evaluation ``evaluation`` of ``state`` for ``player``, a Pyramid = 1000 (the ``evaluate`` feature).

    >>> import damier
    >>> game = damier.load("khet")
    >>> game.evaluate(game.new_state(), 0) == -game.evaluate(game.new_state(), 1)
    True
    """
    from damier.games.khet import evaluation as ev

    assert isinstance(state, KhetState)
    index = ev.index_of(evaluation)
    if state.player == TERMINAL:
        winner = int(state._s[WINNER])
        return 0.0 if winner < 0 else (float(ev.WIN) if winner == player else -float(ev.WIN))
    score = ev.evaluate(state._s, index)  # from the side to move
    return float(score if state.player == player else -score)


def waiting_side(state: State) -> KhetState:
    """The position of ``state`` with the other side to move (no history, so no draw to claim): the moves the
    player who waits could choose ahead of their turn, as premoves (the ``premoves`` feature). Whether a premove is
    still legal once the opponent has moved is for the rules to decide when it is played.

    >>> import damier
    >>> state = damier.load("khet").new_state()
    >>> ahead = waiting_side(state)
    >>> ahead.player, ahead.position().split()[1], state.player
    (1, 'r', 0)
    """
    assert isinstance(state, KhetState) and state.player >= 0
    s = state._s.copy()
    s[TO_MOVE] = 1 - state.player
    s[REMOVED_SQ] = -1
    s[REMOVED_CODE] = 0
    return KhetState(state.game, s, seed=state.seed, start=notation.format_position(s))


def random_playouts(state: State, count: int, seed: int) -> list[int]:
    """``count`` random games from ``state`` in the kernel: the wins of Silver and Red (the ``playouts`` feature)."""
    assert isinstance(state, KhetState)
    g = state.game
    results = kernel.random_playouts(state._s, make_rng(seed), count, g.pharaoh_rotation, g.strict_swap,
                                     g.quiet_limit, PLAYOUT_PLIES)
    return [int(results[0]), int(results[1])]


def random_playout(state: State, seed: int) -> tuple[float, ...]:
    """One random game from ``state`` in the kernel: the returns per player, 0 for a draw (``playout``)."""
    wins = random_playouts(state, 1, seed)
    return (1.0, -1.0) if wins[0] else (-1.0, 1.0) if wins[1] else (0.0, 0.0)


def perft(state: State, depth: int, bulk: bool) -> dict[str, int]:
    """The leaves ``depth`` plies below ``state`` under each first move, from the kernel's perft (every leaf
    played and its shot fired; ``bulk`` counts the last ply's moves without playing them): the ``perft`` feature.

    >>> import damier
    >>> sum(perft(damier.load("khet").new_state(), 2, False).values())
    5920
    """
    assert isinstance(state, KhetState)
    g = state.game
    moves = np.zeros(MAX_MOVES, dtype=np.int32)
    count = kernel.generate(state._s, moves, g.pharaoh_rotation, g.strict_swap)
    divide = np.zeros(MAX_MOVES, dtype=np.int64)
    if depth <= 0:
        return {}
    kernel.perft(state._s.copy(), depth, bulk, g.pharaoh_rotation, g.strict_swap, g.quiet_limit, divide)
    return {state.move_to_str(int(moves[i])): int(divide[i]) for i in range(count)}
