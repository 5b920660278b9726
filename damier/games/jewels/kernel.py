"""The Jewels and Lasers rules as numba kernels: lit squares, the men's moves, the robots' turn, random playouts.

A position is one int32 array (``layout(squares)`` long), so a search copies it in one go:

- ``s[0:N]``: the board, one code per square (``EMPTY``, ``WALL``, ``JEWEL``, ``ROBOT``, ``DEAD``); the men are not
  on it (they do not block rays);
- ``s[MAN + p]``: the square of player p's man (-1 before the placement), ``s[COUNT + p]`` the jewels p has,
  ``s[BOMB + p]`` 1 while p's explosion is unused;
- ``s[NEXT]``: the man who moves next (0 or 1), ``s[PHASE]``: ``PLACE``, ``MEN``, ``ROBOTS`` or ``OVER``;
- ``s[QUIET]``: men's plies since a jewel was taken; ``s[RESULT]`` (``NONE``, ``A_WINS``, ``B_WINS``, ``DRAW``) and
  ``s[WHY]`` (``HIT``, ``BOTH_HIT``, ``COLLECTED``, ``COLUMN``, ``CAP``) once over;
- ``s[PENDING + sq]`` (with ``robot_steps = all``): 1 where a robot has yet to step in this robots' turn.

Offsets above ``N`` are written ``N + k``: the functions take them from the array's length.

Moves: ``square`` (a slide's end, or the placement), ``N + d`` (an explosion towards d: N, E, S, W), ``N + 4``
(pass). Chance outcomes: ``square * 5 + d`` (the robot on square steps towards d) or ``square * 5 + 4`` (a robot
that has to stay: ``robot_steps = all`` only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.core.laser import ABSORB, light_all
from damier.core.rng import below

EMPTY, WALL, JEWEL, ROBOT, DEAD = 0, 1, 2, 3, 4
PLACE, MEN, ROBOTS, OVER = 0, 1, 2, 3
NONE, A_WINS, B_WINS, DRAW = 0, 1, 2, 3
NO_END, HIT, BOTH_HIT, COLLECTED, COLUMN, CAP = 0, 1, 2, 3, 4, 5
# offsets after the board
MAN, COUNT, BOMB, NEXT, PHASE, QUIET, RESULT, WHY, LEFT, PENDING_COUNT = 0, 2, 4, 6, 7, 8, 9, 10, 11, 12
PENDING = 16
# the parameters array
P_ROWS, P_COLS, P_ALL, P_CAP, P_COLUMN, P_EDGE = 0, 1, 2, 3, 4, 5
STAY = 4
#: the kernel's win score (a loss is minus it): far above any evaluation
WIN = 1_000_000.0

#: a ray stops before every piece: every code absorbs it (the lit mark on the stopping square is cleared after)
DEFLECTION = np.full((5, 4), ABSORB, dtype=np.int32)
DEFLECTION[0] = [0, 1, 2, 3]


def layout(squares: int) -> int:
    """The length of a position array for a board of ``squares`` squares."""
    return 2 * squares + PENDING


@njit(cache=True)
def squares_of(s: np.ndarray) -> int:
    return (s.shape[0] - PENDING) // 2


@njit(cache=True)
def is_free(s: np.ndarray, n: int, sq: int) -> bool:
    """Whether a robot may step onto ``sq`` (on the board, no piece and no man)."""
    return sq >= 0 and s[sq] == EMPTY and s[n + MAN] != sq and s[n + MAN + 1] != sq


@njit(cache=True)
def lit_map(s: np.ndarray, nb: np.ndarray, lit: np.ndarray, emitters: np.ndarray) -> None:
    """``lit[sq] = 1`` on every square a living robot's ray covers (rays stop before the first piece)."""
    n = squares_of(s)
    count = 0
    for sq in range(n):
        if s[sq] == ROBOT:
            emitters[count] = sq
            count += 1
    light_all(s[:n], emitters, count, DEFLECTION, nb, lit)
    for sq in range(n):
        if s[sq] != EMPTY:
            lit[sq] = 0


@njit(cache=True)
def blast(s: np.ndarray, nb: np.ndarray, man: int, d: int, changed: np.ndarray) -> int:
    """The squares an explosion from ``man`` towards ``d`` clears (the wall first, then the walls and robots next
    to it other than the man's square): ``changed[:k]``, k returned."""
    wall = nb[man, d]
    changed[0] = wall
    k = 1
    for e in range(4):
        q = nb[wall, e]
        if q >= 0 and q != man and (s[q] == WALL or s[q] == ROBOT or s[q] == DEAD):
            changed[k] = q
            k += 1
    return k


@njit(cache=True)
def explosion_ok(s: np.ndarray, nb: np.ndarray, p: np.ndarray, d: int) -> int:
    """Why the man to move may not explode towards ``d`` (0: he may): 1 explosion used, 2 no wall there, 3 nothing
    behind the wall, 4 the wall's square is lit after the explosion."""
    n = squares_of(s)
    me = s[n + NEXT]
    man = s[n + MAN + me]
    if s[n + BOMB + me] == 0:
        return 1
    wall = nb[man, d]
    if wall < 0 or s[wall] != WALL:
        return 2
    behind = nb[wall, d]
    if behind < 0:
        if p[P_EDGE] == 0:
            return 3
    elif s[behind] == EMPTY and s[n + MAN + 1 - me] != behind:
        return 3
    changed = np.empty(4, dtype=np.int32)
    saved = np.empty(4, dtype=np.int32)
    k = blast(s, nb, man, d, changed)
    for i in range(k):
        saved[i] = s[changed[i]]
        s[changed[i]] = EMPTY
    lit_after = is_lit(s, nb, wall)
    for i in range(k):
        s[changed[i]] = saved[i]
    return 4 if lit_after else 0


@njit(cache=True)
def jewel_slide_ok(s: np.ndarray, jewel: int, nb: np.ndarray) -> bool:
    """Whether a slide that takes ``jewel`` (along unlit squares) stays unlit once the jewel is gone: its removal
    lets through only rays that cross its square, so the square itself decides."""
    s[jewel] = EMPTY
    ok = not is_lit(s, nb, jewel)
    s[jewel] = JEWEL
    return ok


@njit(cache=True)
def man_moves(s: np.ndarray, nb: np.ndarray, p: np.ndarray, lit: np.ndarray, emitters: np.ndarray,
              out: np.ndarray) -> int:
    """The legal moves of the man to move into ``out`` (increasing), their count returned (``lit`` and
    ``emitters`` are scratch). A slide asks of the squares it crosses whether a ray covers them (``lit_across``,
    once it knows no robot is ahead); the placement, which asks of every square, computes the lit map."""
    n = squares_of(s)
    me = s[n + NEXT]
    man = s[n + MAN + me]
    other = s[n + MAN + 1 - me]
    count = 0
    if s[n + PHASE] == PLACE:
        lit_map(s, nb, lit, emitters)
        for sq in range(n):
            m = n - 1 - sq
            if m != sq and s[sq] == EMPTY and s[m] == EMPTY and lit[sq] == 0 and lit[m] == 0:
                out[count] = sq
                count += 1
        return count
    # the ends of the slides, in increasing order: north (nearest last), west (nearest last), east, south
    for d in (0, 3, 1, 2):
        first = count
        # along the slide's own line only a robot ahead can shine (one behind would light the man, who is not
        # lit when he moves): it lights every square up to it, so the slide is empty; else only rays across count
        ahead = nb[man, d]
        while ahead >= 0 and s[ahead] == EMPTY:
            ahead = nb[ahead, d]
        if ahead >= 0 and s[ahead] == ROBOT:
            continue
        sq = nb[man, d]
        while sq >= 0 and sq != other:
            code = s[sq]
            if code == JEWEL:
                if jewel_slide_ok(s, sq, nb):
                    out[count] = sq
                    count += 1
                break
            if code != EMPTY or lit_across(s, nb, sq, d):
                break
            out[count] = sq
            count += 1
            sq = nb[sq, d]
        if d == 0 or d == 3:  # walked away from increasing order: reverse
            i, j = first, count - 1
            while i < j:
                out[i], out[j] = out[j], out[i]
                i += 1
                j -= 1
    for d in range(4):
        if explosion_ok(s, nb, p, d) == 0:
            out[count] = n + d
            count += 1
    if count == 0:
        out[0] = n + 4
        count = 1
    return count


@njit(cache=True)
def _compare(s: np.ndarray, n: int) -> int:
    a, b = s[n + COUNT], s[n + COUNT + 1]
    return A_WINS if a > b else B_WINS if b > a else DRAW


@njit(cache=True)
def _end(s: np.ndarray, n: int, result: int, why: int) -> None:
    s[n + RESULT] = result
    s[n + WHY] = why
    s[n + PHASE] = OVER


@njit(cache=True)
def begin_robots(s: np.ndarray, nb: np.ndarray, p: np.ndarray) -> None:
    """The robots' turn begins: every living robot that cannot step dies; with none left living the turn is empty
    and the next man moves, else the turn waits for its chance outcome(s)."""
    n = squares_of(s)
    living = 0
    for sq in range(n):
        if s[sq] == ROBOT:
            free = False
            for d in range(4):
                if is_free(s, n, nb[sq, d]):
                    free = True
            if free:
                living += 1
            else:
                s[sq] = DEAD
    if living == 0:
        s[n + PHASE] = MEN
        return
    s[n + PHASE] = ROBOTS
    if p[P_ALL]:
        for sq in range(n):
            s[n + PENDING + sq] = 1 if s[sq] == ROBOT else 0
        s[n + PENDING_COUNT] = living


@njit(cache=True)
def act_man(s: np.ndarray, move: int, nb: np.ndarray) -> bool:
    """The pieces a legal man's move changes (the placement, a slide, an explosion, a pass), nothing judged yet;
    whether a jewel was taken."""
    n = squares_of(s)
    me = s[n + NEXT]
    if s[n + PHASE] == PLACE:
        s[n + MAN] = move
        s[n + MAN + 1] = n - 1 - move
        return False
    took = False
    if move < n:
        if s[move] == JEWEL:
            s[move] = EMPTY
            s[n + COUNT + me] += 1
            s[n + LEFT] -= 1
            took = True
        s[n + MAN + me] = move
    elif move < n + 4:
        changed = np.empty(4, dtype=np.int32)
        k = blast(s, nb, s[n + MAN + me], move - n, changed)
        for i in range(k):
            s[changed[i]] = EMPTY
        s[n + MAN + me] = changed[0]
        s[n + BOMB + me] = 0
    return took


@njit(cache=True)
def apply_man(s: np.ndarray, move: int, nb: np.ndarray, p: np.ndarray) -> None:
    """Play a legal man's move (or the placement), then judge hits and ends, then begin the robots' turn."""
    n = squares_of(s)
    me = s[n + NEXT]
    if s[n + PHASE] == PLACE:
        act_man(s, move, nb)
        s[n + PHASE] = MEN
        return
    took = act_man(s, move, nb)
    s[n + QUIET] = 0 if took else s[n + QUIET] + 1
    s[n + NEXT] = 1 - me
    if is_lit(s, nb, s[n + MAN + 1 - me]):
        _end(s, n, A_WINS if me == 0 else B_WINS, HIT)
    elif s[n + LEFT] == 0:
        _end(s, n, _compare(s, n), COLLECTED)
    elif s[n + COUNT + me] >= p[P_COLUMN]:
        _end(s, n, A_WINS if me == 0 else B_WINS, COLUMN)
    elif p[P_CAP] > 0 and s[n + QUIET] >= p[P_CAP]:
        _end(s, n, _compare(s, n), CAP)
    else:
        begin_robots(s, nb, p)


@njit(cache=True)
def _free_steps(s: np.ndarray, nb: np.ndarray, n: int, sq: int) -> int:
    free = 0
    for d in range(4):
        if is_free(s, n, nb[sq, d]):
            free += 1
    return free


@njit(cache=True)
def chance_outcomes(s: np.ndarray, nb: np.ndarray, p: np.ndarray, out: np.ndarray, weight: np.ndarray) -> int:
    """The robots' possible steps (``square * 5 + d``, increasing) with their probabilities; their count."""
    n = squares_of(s)
    count = 0
    if p[P_ALL] == 0:
        for sq in range(n):
            if s[sq] == ROBOT:
                for d in range(4):
                    if is_free(s, n, nb[sq, d]):
                        out[count] = sq * 5 + d
                        count += 1
        for i in range(count):
            weight[i] = 1.0 / count
        return count
    pending = s[n + PENDING_COUNT]
    for sq in range(n):
        if s[n + PENDING + sq]:
            free = _free_steps(s, nb, n, sq)
            if free == 0:
                out[count] = sq * 5 + STAY
                weight[count] = 1.0 / pending
                count += 1
            else:
                for d in range(4):
                    if is_free(s, n, nb[sq, d]):
                        out[count] = sq * 5 + d
                        weight[count] = 1.0 / (pending * free)
                        count += 1
    return count


@njit(cache=True)
def apply_chance(s: np.ndarray, outcome: int, nb: np.ndarray, p: np.ndarray) -> None:
    """Play a robot's step (a legal chance outcome); at the end of the robots' turn, judge the hits."""
    n = squares_of(s)
    sq, d = outcome // 5, outcome % 5
    if d != STAY:
        to = nb[sq, d]
        s[to] = ROBOT
        s[sq] = EMPTY
    if p[P_ALL]:
        s[n + PENDING + sq] = 0
        s[n + PENDING_COUNT] -= 1
        if s[n + PENDING_COUNT] > 0:
            return
    hit_a = is_lit(s, nb, s[n + MAN])
    hit_b = is_lit(s, nb, s[n + MAN + 1])
    if hit_a and hit_b:
        _end(s, n, DRAW, BOTH_HIT)
    elif hit_a:
        _end(s, n, B_WINS, HIT)
    elif hit_b:
        _end(s, n, A_WINS, HIT)
    else:
        s[n + PHASE] = MEN


@njit(cache=True)
def sample_chance(s: np.ndarray, nb: np.ndarray, p: np.ndarray, rng: np.ndarray, scratch: np.ndarray) -> int:
    """One chance outcome drawn with its probability from ``rng`` (``damier.core.rng``); ``scratch`` holds a
    square per robot. A robot and a direction are drawn until the step is legal: uniform over the legal steps."""
    n = squares_of(s)
    robots = 0
    for sq in range(n):
        if s[sq] == ROBOT and (p[P_ALL] == 0 or s[n + PENDING + sq]):
            scratch[robots] = sq
            robots += 1
    if p[P_ALL] == 0:
        while True:
            k = below(rng, 4 * robots)
            sq = scratch[k >> 2]
            if is_free(s, n, nb[sq, k & 3]):
                return sq * 5 + (k & 3)
    sq = scratch[below(rng, robots)]
    free = _free_steps(s, nb, n, sq)
    if free == 0:
        return sq * 5 + STAY
    k = below(rng, free)
    for d in range(4):
        if is_free(s, n, nb[sq, d]):
            if k == 0:
                return sq * 5 + d
            k -= 1
    return -1


@njit(cache=True)
def is_lit(s: np.ndarray, nb: np.ndarray, target: int) -> bool:
    """Whether a living robot's ray covers ``target``: looking out from it every way, the first piece is a living
    robot (an empty square with a piece on it, or ``target`` holding a piece, is never lit)."""
    if s[target] != EMPTY:
        return False
    for d in range(4):
        q = nb[target, d]
        while q >= 0 and s[q] == EMPTY:
            q = nb[q, d]
        if q >= 0 and s[q] == ROBOT:
            return True
    return False


@njit(cache=True)
def lit_across(s: np.ndarray, nb: np.ndarray, target: int, d: int) -> bool:
    """Whether a ray crossing the line of direction ``d`` covers the empty square ``target`` (``is_lit`` looking
    only the two ways across ``d``)."""
    for e in ((d + 1) & 3, (d + 3) & 3):
        q = nb[target, e]
        while q >= 0 and s[q] == EMPTY:
            q = nb[q, e]
        if q >= 0 and s[q] == ROBOT:
            return True
    return False


@njit(cache=True)
def lit_by_one_step(s: np.ndarray, nb: np.ndarray, target: int) -> int:
    """How many single robot steps (one living robot, one square) would light ``target``."""
    n = squares_of(s)
    hits = 0
    for sq in range(n):
        if s[sq] != ROBOT:
            continue
        for d in range(4):
            to = nb[sq, d]
            if not is_free(s, n, to):
                continue
            s[sq] = EMPTY
            s[to] = ROBOT
            if is_lit(s, nb, target):
                hits += 1
            s[to] = EMPTY
            s[sq] = ROBOT
    return hits


@njit(cache=True)
def step_count(s: np.ndarray, nb: np.ndarray) -> int:
    """How many single robot steps the living robots have."""
    n = squares_of(s)
    total = 0
    for sq in range(n):
        if s[sq] == ROBOT:
            total += _free_steps(s, nb, n, sq)
    return total


@njit(cache=True)
def playout(s: np.ndarray, nb: np.ndarray, p: np.ndarray, limit: int, rng: np.ndarray) -> int:
    """Play ``s`` (changed in place) to the end with uniformly random men's moves and robots' steps; the result
    (``A_WINS``, ``B_WINS``, ``DRAW``; after ``limit`` plies the jewels decide)."""
    n = squares_of(s)
    lit = np.zeros(n, dtype=np.uint8)
    emitters = np.empty(n, dtype=np.int32)
    moves = np.empty(n + 5, dtype=np.int32)
    for _ in range(limit):
        phase = s[n + PHASE]
        if phase == OVER:
            return s[n + RESULT]
        if phase == ROBOTS:
            apply_chance(s, sample_chance(s, nb, p, rng, emitters), nb, p)
        else:
            count = man_moves(s, nb, p, lit, emitters, moves)
            apply_man(s, moves[below(rng, count)], nb, p)
    return _compare(s, n)


@njit(cache=True)
def playouts(s: np.ndarray, nb: np.ndarray, p: np.ndarray, count: int, limit: int, rng: np.ndarray) -> np.ndarray:
    """Wins of A, of B, and draws in ``count`` random playouts from ``s`` (left unchanged)."""
    wins = np.zeros(3, dtype=np.int64)
    work = np.empty_like(s)
    for _ in range(count):
        work[:] = s
        result = playout(work, nb, p, limit, rng)
        wins[result - 1] += 1
    return wins
