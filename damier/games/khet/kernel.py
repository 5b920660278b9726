"""The Khet 2.0 rules as numba kernels over one int32 array per position.

Squares are numbered ``rank * 10 + file`` from a1 = 0 (files a..j left to right as Silver sees the board,
ranks 1..8 from Silver's side). Colours: Silver = 0 (moves first), Red = 1. Directions: N = 0, E = 1, S = 2,
W = 3 (clockwise). A square holds 0 (empty) or ``kind * 8 + colour * 4 + facing``.

Layout of a position array ``s`` (``STATE_LENGTH`` int32):

==================  =================================================================
``s[0:80]``         the squares
``s[TO_MOVE]``      colour to move, or ``TERMINAL`` (-2) once the game is over
``s[QUIET]``        consecutive plies with no piece removed
``s[WINNER]``       the winner's colour, or -1 (game on, or drawn)
``s[END]``          why the game ended: ``END_NONE``, ``END_PHARAOH``, ``END_REPETITION``, ...
``s[PLY]``          plies played
``s[REMOVED_SQ]``   the square of the piece the last shot removed, or -1
``s[REMOVED_CODE]`` the code of that piece, or 0
==================  =================================================================

A move is ``square * 10 + action``: actions 0..7 step (or swap) towards N, NE, E, SE, S, SW, W, NW; 8 turns the
piece clockwise (``+``) and 9 anticlockwise (``-``). ``CLAIM`` (800) claims a repetition draw when the
``repetition`` option is ``claim``. A Scarab's facing is kept as N (a ``\\`` mirror) or E (a ``/`` mirror):
turning it either way gives the same mirror, so its one rotation is ``+``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.core import laser
from damier.core.laser import ABSORB, REMOVE
from damier.core.laser import ABSORBED as ABSORBED  # how a beam stopped, for the facade
from damier.core.laser import HIT as HIT
from damier.core.laser import LEFT_BOARD as LEFT_BOARD
from damier.core.rng import below

WIDTH, HEIGHT = 10, 8
SQUARES = WIDTH * HEIGHT
TERMINAL = -2
SILVER, RED = 0, 1
N, E, S, W = 0, 1, 2, 3
EMPTY, SPHINX, PHARAOH, ANUBIS, PYRAMID, SCARAB = 0, 1, 2, 3, 4, 5

TO_MOVE, QUIET, WINNER, END, PLY, REMOVED_SQ, REMOVED_CODE = range(SQUARES, SQUARES + 7)
STATE_LENGTH = SQUARES + 8
END_NONE, END_PHARAOH, END_REPETITION, END_QUIET, END_CLAIM = 0, 1, 2, 3, 4
#: the quiet-ply count stops growing here (with no limit a game could otherwise overflow it)
MAX_QUIET = 1_000_000

ROTATE_CW, ROTATE_CCW = 8, 9
ACTIONS = 10
CLAIM = SQUARES * ACTIONS
NUM_MOVES = CLAIM + 1
MAX_MOVES = 128  # more than any position can have (7 movable pieces x 10 actions + the Sphinx)

#: longest beam (``trace`` writes at most this many path entries)
MAX_PATH = laser.max_path(SQUARES)

SPHINX_SQUARE = np.array([9, 70], dtype=np.int32)  # j1, a8

# step offsets of the 8 directions N, NE, E, SE, S, SW, W, NW as (d file, d rank)
_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def _neighbours() -> np.ndarray:
    out = np.full((SQUARES, 8), -1, dtype=np.int32)
    for sq in range(SQUARES):
        f, r = sq % WIDTH, sq // WIDTH
        for d, (df, dr) in enumerate(_STEPS):
            if 0 <= f + df < WIDTH and 0 <= r + dr < HEIGHT:
                out[sq, d] = (r + dr) * WIDTH + f + df
    return out


def _reserved() -> np.ndarray:
    """-1 for an open square, else the only colour that may enter it."""
    out = np.full(SQUARES, -1, dtype=np.int32)
    for r in range(HEIGHT):
        out[r * WIDTH + 0] = RED  # the a-file (a8 is Red's Sphinx)
        out[r * WIDTH + 9] = SILVER  # the j-file (j1 is Silver's Sphinx)
    out[0 * WIDTH + 8] = out[7 * WIDTH + 8] = RED  # i1, i8
    out[0 * WIDTH + 1] = out[7 * WIDTH + 1] = SILVER  # b1, b8
    return out


NEIGHBOURS = _neighbours()
#: the N, E, S, W neighbours only: the four directions a beam travels
BEAM_NEIGHBOURS = np.ascontiguousarray(NEIGHBOURS[:, ::2])
RESERVED = _reserved()


def _zobrist() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0x4B4845)
    keys = rng.integers(1, 2**63, size=(SQUARES, 48), dtype=np.uint64)
    return keys, rng.integers(1, 2**63, size=2, dtype=np.uint64)


ZOBRIST, ZOBRIST_SIDE = _zobrist()


@njit(cache=True, inline="always")
def code(kind: int, colour: int, facing: int) -> int:
    return kind * 8 + colour * 4 + facing


@njit(cache=True, inline="always")
def colour_of(c: int) -> int:
    return (c >> 2) & 1


def _beam_meets(kind: int, facing: int, d: int) -> int:
    """What a piece does to a beam travelling ``d``: the direction it leaves in, ``ABSORB`` or ``REMOVE``.

    The rules file's table, read once into ``DEFLECTION``. A beam travelling ``d`` strikes the side ``d + 2``.
    """
    side = (d + 2) & 3
    if kind == EMPTY:
        return d
    if kind == SCARAB:
        # a two-sided diagonal mirror: facing N (or S) a \ mirror (N<->W, E<->S), facing E (or W) a / (N<->E, S<->W)
        return 3 - d if facing % 2 == 0 else d ^ 1
    if kind == PYRAMID:
        # its mirror spans its facing side and the side clockwise next; the beam leaves by the other of the two
        if side == facing:
            return (facing + 1) & 3
        if side == (facing + 1) & 3:
            return facing
        return REMOVE
    if kind == ANUBIS:
        return ABSORB if side == facing else REMOVE  # its front absorbs, any other side is hit
    if kind == PHARAOH:
        return REMOVE
    return ABSORB  # a Sphinx


def _deflection_table() -> np.ndarray:
    """``DEFLECTION[code, d]``: ``_beam_meets`` for every piece code and direction (the core laser's table)."""
    table = np.zeros((SCARAB * 8 + 8, 4), dtype=np.int32)
    for c in range(table.shape[0]):
        for d in range(4):
            table[c, d] = _beam_meets(c >> 3, c & 3, d)
    table.setflags(write=False)
    return table


DEFLECTION = _deflection_table()


@njit(cache=True, inline="always")
def deflect(d: int, c: int) -> int:
    """What the piece of code ``c`` does to a beam travelling ``d``: the direction it leaves in (0-3), ``ABSORB``
    (a Sphinx, or an Anubis's front) or ``REMOVE`` (the piece is removed); a lookup in ``DEFLECTION``."""
    return DEFLECTION[c, d]


@njit(cache=True)
def trace(s: np.ndarray, colour: int, path: np.ndarray | None) -> tuple[int, int, int]:
    """Fire ``colour``'s laser over the squares of ``s`` (nothing is changed): ``damier.core.laser.walk``.

    Unless ``path`` is None, it receives ``square * 4 + direction`` for every square the beam enters, the
    direction being the one it leaves in (after any mirror; the one it arrived in where it stops). Returns (path
    length, how it stopped, the square it stopped on or -1).
    """
    sq = SPHINX_SQUARE[colour]
    return laser.walk(s, sq, s[sq] & 3, DEFLECTION, BEAM_NEIGHBOURS, path)


@njit(cache=True)
def shot_target(s: np.ndarray, colour: int) -> int:
    """The square whose piece ``colour``'s laser would remove now, or -1 (``trace`` without the path)."""
    sq = SPHINX_SQUARE[colour]
    return laser.target(s, sq, s[sq] & 3, DEFLECTION, BEAM_NEIGHBOURS)


@njit(cache=True)
def light(s: np.ndarray, colour: int, lit: np.ndarray) -> int:
    """Set ``lit[square]`` to 1 on the squares ``colour``'s beam enters now, 0 elsewhere; returns how many."""
    sq = SPHINX_SQUARE[colour]
    n, _, _ = laser.light(s, sq, s[sq] & 3, DEFLECTION, BEAM_NEIGHBOURS, lit)
    return n


@njit(cache=True)
def sphinx_rotation(c: int) -> int:
    """The one rotation action of a Sphinx of code ``c`` (Silver N<->W, Red S<->E)."""
    f = c & 3
    if colour_of(c) == SILVER:
        return ROTATE_CCW if f == N else ROTATE_CW
    return ROTATE_CCW if f == S else ROTATE_CW


#: why a move is not legal (``LEGAL`` when it is): ``verdict``'s answers, put in words by the facade
(LEGAL, WHY_GAME_OVER, WHY_NOT_A_MOVE, WHY_EMPTY, WHY_NOT_YOURS, WHY_SPHINX_STEPS, WHY_SPHINX_TURN, WHY_NO_TURN,
 WHY_SCARAB_TURN, WHY_OFF_BOARD, WHY_RESERVED, WHY_OCCUPIED, WHY_SWAP_KIND, WHY_SWAP_RESERVED) = range(14)


@njit(cache=True, inline="always")
def _step_verdict(s: np.ndarray, sq: int, kind: int, me: int, d: int, strict_swap: bool) -> int:
    """``LEGAL``, or why ``me``'s piece of ``kind`` on ``sq`` may not step (or swap) towards ``d`` (0-7)."""
    if kind == SPHINX:
        return WHY_SPHINX_STEPS
    t = NEIGHBOURS[sq, d]
    if t < 0:
        return WHY_OFF_BOARD
    if RESERVED[t] == 1 - me:
        return WHY_RESERVED
    tc = s[t]
    if tc == 0:
        return LEGAL
    if kind != SCARAB:
        return WHY_OCCUPIED
    tk = tc >> 3
    if tk != PYRAMID and tk != ANUBIS:
        return WHY_SWAP_KIND
    if strict_swap and RESERVED[sq] == 1 - ((tc >> 2) & 1):  # the swapped piece lands on the Scarab's square
        return WHY_SWAP_RESERVED
    return LEGAL


@njit(cache=True, inline="always")
def _turn_verdict(c: int, action: int, pharaoh_rotation: bool) -> int:
    """``LEGAL``, or why the mover's piece of code ``c`` may not make the turn ``action`` (8 or 9)."""
    kind = c >> 3
    if kind == SPHINX:  # it only toggles between its two directions
        return LEGAL if action == sphinx_rotation(c) else WHY_SPHINX_TURN
    if kind == SCARAB:  # both turns give the same mirror: one move, written +
        return LEGAL if action == ROTATE_CW else WHY_SCARAB_TURN
    if kind == PHARAOH and not pharaoh_rotation:
        return WHY_NO_TURN
    return LEGAL


@njit(cache=True, inline="always")
def _verdict(s: np.ndarray, sq: int, action: int, me: int, pharaoh_rotation: bool, strict_swap: bool) -> int:
    """``LEGAL``, or the first rule of a turn that forbids ``me`` the ``action`` of the piece on ``sq``: the move
    rules in one place (with the two above), for ``generate`` and for the facade's explanations."""
    c = s[sq]
    if c == 0:
        return WHY_EMPTY
    if ((c >> 2) & 1) != me:
        return WHY_NOT_YOURS
    if action < 8:
        return _step_verdict(s, sq, c >> 3, me, action, strict_swap)
    return _turn_verdict(c, action, pharaoh_rotation)


@njit(cache=True)
def generate(s: np.ndarray, out: np.ndarray, pharaoh_rotation: bool, strict_swap: bool) -> int:
    """Write the legal moves (increasing) into ``out``; return how many (0 once the game is over). A move is
    listed when ``_verdict`` finds it legal: the piece's steps, then its turns."""
    me = s[TO_MOVE]
    if me < 0:
        return 0
    k = 0
    for sq in range(SQUARES):
        c = s[sq]
        if c == 0 or ((c >> 2) & 1) != me:
            continue
        base = sq * ACTIONS
        for d in range(8):
            if _step_verdict(s, sq, c >> 3, me, d, strict_swap) == LEGAL:
                out[k] = base + d
                k += 1
        for a in range(ROTATE_CW, ACTIONS):
            if _turn_verdict(c, a, pharaoh_rotation) == LEGAL:
                out[k] = base + a
                k += 1
    return k


@njit(cache=True)
def verdict(s: np.ndarray, move: int, pharaoh_rotation: bool, strict_swap: bool) -> int:
    """``LEGAL`` when ``generate`` would list ``move`` in ``s``, else why not (a ``WHY_`` code). ``CLAIM`` is
    decided by the caller, who knows the history: here it is ``WHY_NOT_A_MOVE`` like any number out of range."""
    if s[TO_MOVE] < 0:
        return WHY_GAME_OVER
    if move < 0 or move >= CLAIM:
        return WHY_NOT_A_MOVE
    sq = move // ACTIONS
    return _verdict(s, sq, move - sq * ACTIONS, s[TO_MOVE], pharaoh_rotation, strict_swap)


@njit(cache=True)
def is_legal(s: np.ndarray, move: int, pharaoh_rotation: bool, strict_swap: bool) -> bool:
    """Whether ``move`` is legal in ``s`` (CLAIM is decided by the caller, who knows the history)."""
    return verdict(s, move, pharaoh_rotation, strict_swap) == LEGAL


@njit(cache=True)
def move_piece(s: np.ndarray, move: int) -> None:
    """The piece part of a legal ``move`` (step, swap or rotation), without firing."""
    sq = move // ACTIONS
    a = move - sq * ACTIONS
    c = s[sq]
    if a < 8:
        t = NEIGHBOURS[sq, a]
        s[sq] = s[t]  # empty, or the swapped piece (a swap never rotates either piece)
        s[t] = c
    elif (c >> 3) == SCARAB:
        s[sq] = c ^ 1  # toggles the mirror between N (\) and E (/)
    elif a == ROTATE_CW:
        s[sq] = (c & ~3) | ((c + 1) & 3)
    else:
        s[sq] = (c & ~3) | ((c + 3) & 3)


@njit(cache=True)
def apply(s: np.ndarray, move: int, quiet_limit: int) -> int:
    """Play the legal ``move``: move the piece, fire the mover's laser, remove what it hits, decide the end.

    Returns the square of the removed piece, or -1. Repetition is decided by the caller (it needs the history).
    """
    return _apply(s, move, quiet_limit)


@njit(cache=True, inline="always")
def _apply(s: np.ndarray, move: int, quiet_limit: int) -> int:
    """``apply``, compiled into the loops that play most moves."""
    me = s[TO_MOVE]
    move_piece(s, move)
    return _settle(s, me, shot_target(s, me), quiet_limit)


@njit(cache=True, inline="always")
def _settle(s: np.ndarray, me: int, hit: int, quiet_limit: int) -> int:
    """After ``me``'s piece moved: remove the piece on ``hit`` (its shot's target, or -1), count the ply, decide
    the end and pass the turn; returns ``hit``."""
    s[PLY] += 1
    s[REMOVED_SQ] = hit
    if hit >= 0:
        victim = s[hit]
        s[REMOVED_CODE] = victim
        s[hit] = 0
        s[QUIET] = 0
        if (victim >> 3) == PHARAOH:
            s[WINNER] = 1 - ((victim >> 2) & 1)
            s[END] = END_PHARAOH
            s[TO_MOVE] = TERMINAL
            return hit
    else:
        s[REMOVED_CODE] = 0
        if s[QUIET] < MAX_QUIET:
            s[QUIET] += 1
    if quiet_limit > 0 and s[QUIET] >= quiet_limit:
        s[WINNER] = -1
        s[END] = END_QUIET
        s[TO_MOVE] = TERMINAL
        return hit
    s[TO_MOVE] = 1 - me
    return hit


#: the entries after the squares (side to move, counts, end, last removal): what ``undo`` restores
TAIL = STATE_LENGTH - SQUARES


@njit(cache=True)
def undo(s: np.ndarray, move: int, tail: np.ndarray) -> None:
    """Take back the legal ``move`` that ``apply`` just played in ``s``, given ``tail``, a copy of
    ``s[SQUARES:]`` from before it: the removed piece comes back, then the piece moves or turns back."""
    _undo(s, move, tail)


@njit(cache=True, inline="always")
def _undo(s: np.ndarray, move: int, tail: np.ndarray) -> None:
    hit = s[REMOVED_SQ]
    if hit >= 0:
        s[hit] = s[REMOVED_CODE]
    sq = move // ACTIONS
    a = move - sq * ACTIONS
    # a step or a swap exchanges two squares, so it is its own inverse; a turn is undone by the other turn
    move_piece(s, move if a < 8 else sq * ACTIONS + ROTATE_CW + ROTATE_CCW - a)
    for i in range(TAIL):
        s[SQUARES + i] = tail[i]


@njit(cache=True)
def position_hash(s: np.ndarray) -> np.uint64:
    """The Zobrist key of the pieces (Scarabs by mirror) and the side to move."""
    h = np.uint64(0)
    for sq in range(SQUARES):
        c = s[sq]
        if c != 0:
            h ^= ZOBRIST[sq, c]
    if s[TO_MOVE] == RED:
        h ^= ZOBRIST_SIDE[1]
    return h


@njit(cache=True)
def repetitions(hashes: np.ndarray, count: int, quiet: int) -> int:
    """How often the last of ``hashes[:count]`` occurs among the positions since the last removal (``quiet``
    plies ago): the one count of repetitions, for the facade and the engine.

    Only positions with the same side to move (every second ply) and no removal in between can be equal.
    """
    last = hashes[count - 1]
    seen = 1
    i = count - 3
    oldest = count - 1 - quiet
    while i >= oldest and i >= 0:
        if hashes[i] == last:
            seen += 1
        i -= 2
    return seen


@njit(cache=True)
def record_position(s: np.ndarray, hashes: np.ndarray, count: int, automatic: bool) -> int:
    """Write the key of ``s`` (the position a move just led to) at ``hashes[count]`` after the ``count`` earlier
    ones; return how often it has now occurred. With ``automatic``, a third occurrence ends the game drawn."""
    hashes[count] = position_hash(s)
    seen = repetitions(hashes, count + 1, s[QUIET])
    if automatic and seen >= 3 and s[TO_MOVE] >= 0:
        s[TO_MOVE] = TERMINAL
        s[WINNER] = -1
        s[END] = END_REPETITION
    return seen


@njit(cache=True)
def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    for i in range(STATE_LENGTH):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def _touches(lit: np.ndarray, move: int) -> bool:
    """Whether ``move`` changes a square marked in ``lit``: its piece's square, or the square it steps to."""
    sq = move // ACTIONS
    a = move - sq * ACTIONS
    return lit[sq] != 0 or (a < 8 and lit[NEIGHBOURS[sq, a]] != 0)


@njit("int64(int32[::1], int32[:, ::1], int32[:, ::1], uint8[:, ::1], int64, int64, boolean, boolean, boolean, "
      "int64)", cache=True)
def _perft(s: np.ndarray, tails: np.ndarray, moves: np.ndarray, beams: np.ndarray, ply: int, depth: int, bulk: bool,
           pharaoh_rotation: bool, strict_swap: bool, quiet_limit: int) -> int:
    """Leaves ``depth`` (at least 1) plies below ``s``, a game on: each move is played on ``s``, its shot fired,
    and taken back.

    The mover's beam is walked once here, its squares (and its Sphinx's) marked in ``beams[ply]``: a move that
    changes none of them leaves the beam as it was, so its shot removes the piece the beam reaches now (or
    nothing); a move that changes one fires its laser anew.
    """
    out = moves[ply]
    k = generate(s, out, pharaoh_rotation, strict_swap)
    if depth == 1 and bulk:
        return k
    tail = tails[ply]
    for i in range(TAIL):
        tail[i] = s[SQUARES + i]
    me = s[TO_MOVE]
    lit = beams[ply]
    sphinx = SPHINX_SQUARE[me]
    _, how, at = laser.light(s, sphinx, s[sphinx] & 3, DEFLECTION, BEAM_NEIGHBOURS, lit)
    lit[sphinx] = 1
    target = at if how == laser.HIT else -1
    total = 0
    for i in range(k):
        m = out[i]
        if _touches(lit, m):
            _apply(s, m, quiet_limit)
        else:
            move_piece(s, m)
            _settle(s, me, target, quiet_limit)
        if depth == 1:
            total += 1
        elif s[TO_MOVE] >= 0:
            total += _perft(s, tails, moves, beams, ply + 1, depth - 1, bulk, pharaoh_rotation, strict_swap,
                            quiet_limit)
        _undo(s, m, tail)
    return total


@njit(cache=True)
def perft(s: np.ndarray, depth: int, bulk: bool, pharaoh_rotation: bool, strict_swap: bool, quiet_limit: int,
          divide: np.ndarray) -> int:
    """Leaf nodes at exactly ``depth`` plies below ``s`` (a removed Pharaoh ends a branch).

    Every leaf is played and its shot fired (from the beam before the move when the move leaves that beam's
    squares alone: see ``_perft``). With ``bulk`` the last ply counts the moves instead of playing them (same
    count, faster). ``divide[i]`` receives the count below the i-th legal move (increasing move order).
    """
    if depth == 0:
        return 1
    work = np.empty(STATE_LENGTH, dtype=np.int32)
    _copy(s, work)
    tails = np.zeros((depth + 1, TAIL), dtype=np.int32)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int32)
    beams = np.zeros((depth + 1, SQUARES), dtype=np.uint8)
    out = moves[0]
    k = generate(work, out, pharaoh_rotation, strict_swap)
    tail = tails[0]
    for i in range(TAIL):
        tail[i] = work[SQUARES + i]
    total = 0
    for i in range(k):
        apply(work, out[i], quiet_limit)
        sub = 1
        if depth > 1:
            sub = 0
            if work[TO_MOVE] >= 0:
                sub = _perft(work, tails, moves, beams, 1, depth - 1, bulk, pharaoh_rotation, strict_swap,
                             quiet_limit)
        undo(work, out[i], tail)
        divide[i] = sub
        total += sub
    return total


@njit(cache=True)
def shots_after(s: np.ndarray, moves: np.ndarray, k: int, paths: np.ndarray, shots: np.ndarray) -> None:
    """For each of ``moves[:k]``, the mover's shot right after it (the laser preview of a user interface).

    ``paths[i]`` receives the beam as ``trace`` writes it; ``shots[i]`` its length, how it stopped, the square it
    stopped on (-1 when it left the board), the code of the piece it removes (0 for none) and the facing of the
    mover's Sphinx after the move.
    """
    me = s[TO_MOVE]
    scratch = np.empty(STATE_LENGTH, dtype=np.int32)
    for i in range(k):
        _copy(s, scratch)
        if moves[i] != CLAIM:
            move_piece(scratch, moves[i])
        n, how, at = trace(scratch, me, paths[i])
        shots[i, 0] = n
        shots[i, 1] = how
        shots[i, 2] = at
        shots[i, 3] = scratch[at] if how == HIT else 0
        shots[i, 4] = scratch[SPHINX_SQUARE[me]] & 3


@njit(cache=True)
def random_playouts(s: np.ndarray, rng: np.ndarray, count: int, pharaoh_rotation: bool, strict_swap: bool,
                    quiet_limit: int, max_plies: int) -> np.ndarray:
    """Play ``count`` uniformly random games from ``s`` (unchanged); wins of Silver, Red and draws.

    A game ends as the rules say, or drawn after ``max_plies`` (so that a playout ends even with
    ``quiet_limit`` 0). Repetitions are not tracked here: random games almost never repeat.
    """
    results = np.zeros(3, dtype=np.int64)
    work = np.empty(STATE_LENGTH, dtype=np.int32)
    out = np.empty(MAX_MOVES, dtype=np.int32)
    for _ in range(count):
        _copy(s, work)
        plies = 0
        while work[TO_MOVE] >= 0 and plies < max_plies:
            k = generate(work, out, pharaoh_rotation, strict_swap)
            apply(work, out[below(rng, k)], quiet_limit)
            plies += 1
        if work[TO_MOVE] >= 0 or work[WINNER] < 0:
            results[2] += 1
        else:
            results[work[WINNER]] += 1
    return results
