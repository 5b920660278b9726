"""The Jewels and Lasers evaluation, in numba: what a position is worth to a player without searching it.

On one scale with the search's won game (``WIN``), from a player's view, a jewel worth 100:

- the jewels taken, mine minus the other's;
- danger: the chance that the robots' next step lights a man who cannot move before it, times ``DANGER`` (nearly
  a lost game: the search's horizon must not make a likely death look cheap);
- jewels each man can take with his next slide (``REACH`` each), and the distance to the nearest jewel;
- mobility: the squares his slides can end on (``MOBILITY`` each, up to ``MOBILE``);
- escapes: those of them (and the jewels he can take) that no single robot step lights (``threats``), ``ESCAPE``
  each up to ``ESCAPES``, and ``TRAPPED`` off for a man with none (he cannot step out of the next ray's way: a
  man boxed in a pocket of the board dies there sooner or later);
- an unused explosion (``EXPLOSIVE``).

The evaluations by name (``EVALUATIONS``): ``standard`` (the above), ``material`` (the jewels alone) and
``futures`` (the mean result of futures played out by careful men: ``damier.games.jewels.futures``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.games.jewels import kernel
from damier.games.jewels.kernel import (
    BOMB,
    COUNT,
    EMPTY,
    JEWEL,
    MAN,
    NEXT,
    PHASE,
    PLACE,
    ROBOT,
    ROBOTS,
    is_lit,
    lit_by_one_step,
    squares_of,
    step_count,
)

STANDARD, MATERIAL, FUTURES = 0, 1, 2
EVALUATIONS = {"standard": STANDARD, "material": MATERIAL, "futures": FUTURES}
JEWEL_VALUE = 100.0
#: a won game, on the evaluation's scale: more than any jewel lead (26 jewels at most), so that a chance of
#: being hit weighs what losing the game weighs, in the search and in the danger term alike
WIN = 4000.0
DANGER = 0.9 * WIN
REACH = 25.0
DISTANCE = 3.0
EXPLOSIVE = 6.0
MOBILITY = 5.0
MOBILE = 8
TRAPPED = 600.0
ESCAPE = 100.0
ESCAPES = 6


@njit(cache=True)
def threats(s: np.ndarray, nb: np.ndarray, out: np.ndarray) -> None:
    """Mark in ``out`` the squares some single robot step would light: the rays of a robot from the square it
    steps to (a ray crosses empty squares, the one the robot left included, and stops before any piece). Of the
    squares not lit now, exactly those ``kernel.lit_by_one_step`` counts a step for (the rays the step unblocks, of
    robots behind the square left, cross only squares the robot lit before it left)."""
    n = squares_of(s)
    out[:] = 0
    for sq in range(n):
        if s[sq] != ROBOT:
            continue
        for d in range(4):
            to = nb[sq, d]
            if to < 0 or not kernel.is_free(s, n, to):
                continue
            for e in range(4):
                t = nb[to, e]
                while t >= 0 and (s[t] == EMPTY or t == sq):
                    out[t] = 1
                    t = nb[t, e]


@njit(cache=True)
def slides(s: np.ndarray, nb: np.ndarray, who: int, threat: np.ndarray) -> tuple[int, int, int]:
    """(jewels ``who``'s man can take with one slide, squares his slides can end on, those of them no single
    robot step lights (``threat``))."""
    n = squares_of(s)
    man = s[n + MAN + who]
    other = s[n + MAN + 1 - who]
    takeable = 0
    mobility = 0
    escapes = 0
    for d in range(4):
        sq = nb[man, d]
        while sq >= 0 and sq != other:
            if s[sq] == JEWEL:
                if kernel.jewel_slide_ok(s, sq, nb):
                    takeable += 1
                    if not threat[sq]:
                        escapes += 1
                break
            if s[sq] != EMPTY or is_lit(s, nb, sq):
                break
            mobility += 1
            if not threat[sq]:
                escapes += 1
            sq = nb[sq, d]
    return takeable, mobility, escapes


@njit(cache=True)
def jewel_distance(s: np.ndarray, nb: np.ndarray, who: int) -> int:
    """The Manhattan distance from ``who``'s man to the nearest jewel (0 when none is left)."""
    n = squares_of(s)
    man = s[n + MAN + who]
    # the board's width, from the neighbour table: square 0's southern neighbour is square ``cols``
    cols = nb[0, 2] if nb[0, 2] > 0 else n
    best = 1 << 20
    mr, mc = man // cols, man % cols
    for sq in range(n):
        if s[sq] == JEWEL:
            dist = abs(sq // cols - mr) + abs(sq % cols - mc)
            if dist < best:
                best = dist
    return best if best < (1 << 20) else 0


@njit(cache=True)
def evaluate(s: np.ndarray, nb: np.ndarray, player: int, kind: int, jewel: float = JEWEL_VALUE) -> float:
    """The static value of ``s`` for ``player`` (a position not over), a jewel taken worth ``jewel``:
    ``MATERIAL`` counts the jewels, every other kind is ``STANDARD`` here (``FUTURES`` is played out by
    ``damier.games.jewels.futures``, which weighs a jewel less where its futures stop)."""
    n = squares_of(s)
    value = jewel * (s[n + COUNT + player] - s[n + COUNT + 1 - player])
    if kind == MATERIAL or s[n + PHASE] == PLACE:
        return value
    steps = step_count(s, nb)
    robots_next = s[n + PHASE] == ROBOTS
    to_move = s[n + NEXT]
    threat = np.empty(n, dtype=np.uint8)
    threats(s, nb, threat)
    for who in range(2):
        sign = 1.0 if who == player else -1.0
        # a man faces the robots before he can move again when they move now, or when the other man moves first
        exposed = robots_next or who != to_move
        if steps > 0:
            danger = lit_by_one_step(s, nb, s[n + MAN + who]) / steps
            value -= sign * (DANGER if exposed else DANGER / 8.0) * danger
        takeable, mobility, escapes = slides(s, nb, who, threat)
        distance = jewel_distance(s, nb, who)
        value += sign * (REACH * takeable - DISTANCE * distance + MOBILITY * min(mobility, MOBILE)
                         + ESCAPE * min(escapes, ESCAPES))
        if escapes == 0:
            value -= sign * TRAPPED
        if s[n + BOMB + who]:
            value += sign * EXPLOSIVE
    return value
