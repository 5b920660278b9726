"""The ``futures`` evaluation: what a position is worth, played out many times by careful men, in numba.

Most games of Jewels and Lasers end with a man hit, and a man is rarely hit by the next robot step (no player
worth the name stands where one step can light him) but by a pocket of rays closing round him over several turns.
A static evaluation sees a few slides ahead; a future sees the pocket close. So this evaluation plays ``FUTURE_COUNT``
futures of ``FUTURE_PLIES`` men's plies from the position, the robots stepping at random and both men moving
like careful players (``careful_move``), and returns their mean result for a player: ``WIN`` for a won future,
``-WIN`` for a lost one, 0 for a drawn one, and the ``standard`` evaluation where a future stops with the game
going on (a jewel there worth ``FUTURE_JEWEL``: the futures are about staying alive; more as the no-jewel cap
nears for a player not ahead, ``jewel_worth``, since the lead decides the game there). A hit drawn is replaced by
its exact chance (``future_sum``: a control variate), so that the few hits in a thousand robot steps that
separate the safe moves are weighed, not sampled.

Future ``k`` draws from a generator seeded by ``k`` and the search's seed alone, so the moves a search compares
meet the same dice (common random numbers: the differences of their values are the moves', not the dice's), and
a search is repeatable.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.core.rng import below, seed_rng
from damier.games.jewels import kernel
from damier.games.jewels.evaluation import ESCAPES, STANDARD, WIN, evaluate, slides, threats
from damier.games.jewels.kernel import (
    COUNT,
    JEWEL,
    MAN,
    NEXT,
    OVER,
    P_ALL,
    P_CAP,
    PHASE,
    QUIET,
    RESULT,
    ROBOTS,
    squares_of,
)

#: the futures played per position, and the men's plies of each
FUTURE_COUNT = 512
FUTURE_PLIES = 12
#: at a search's root (depth 1), successive halving: every move valued by ``FIRST_FUTURES`` futures, then the
#: ``FINALISTS`` best by what is left of ``FUTURE_COUNT`` a move, up to ``FINAL_FUTURES`` each
FIRST_FUTURES = 256
FINALISTS = 4
FINAL_FUTURES = 2048
#: a jewel taken, where a future stops (the ``standard`` evaluation weighs it ``JEWEL_VALUE``, 100): nine games in
#: ten are decided by a hit, the jewels only at the no-jewel cap or with the last jewel, and a jewel weighed as
#: 2.5 % of a won game made the man buy jewels with safety. Against ``jewels-greedy`` (``benchmarks/jewels.py``,
#: 100 games) the hard man's chance of a hit per 1,000 robots' turns was 2.89 with 250, 2.60 with 100, 2.15 with
#: 30 and 2.06 with 10
FUTURE_JEWEL = 10.0
#: but the lead decides a game that reaches the no-jewel cap: from a quarter of the cap on, for a player not ahead,
#: a jewel where the futures stop is worth more with every quiet ply, up to ``CAP_JEWEL`` at the cap
CAP_JEWEL = WIN / 2
#: how many escapes a jewel is worth to a careful man (he takes it unless a move keeps this many more escapes)
JEWEL_ESCAPES = 3


@njit(cache=True)
def jewel_worth(s: np.ndarray, p: np.ndarray, player: int) -> float:
    """What a jewel taken is worth to ``player`` where the futures of a search from ``s`` (its root) stop:
    ``FUTURE_JEWEL``; from a quarter of the no-jewel cap on, with ``player`` not ahead, rising in step with the
    men's plies since a jewel was taken to ``CAP_JEWEL`` at the cap (the game ends there as if agreed: more jewels
    win, so a jewel taken turns a draw into a win or a loss into a draw)."""
    n = squares_of(s)
    cap = p[P_CAP]
    quiet = s[n + QUIET]
    if cap <= 0 or 4 * quiet < cap or s[n + COUNT + player] > s[n + COUNT + 1 - player]:
        return FUTURE_JEWEL
    return float(FUTURE_JEWEL + (CAP_JEWEL - FUTURE_JEWEL) * min(4 * quiet - cap, 3 * cap) / (3 * cap))


@njit(cache=True)
def careful_move(s: np.ndarray, nb: np.ndarray, p: np.ndarray, moves: np.ndarray, after: np.ndarray,
                 threat: np.ndarray, lit: np.ndarray, emitters: np.ndarray, rng: np.ndarray) -> int:
    """The move of a careful man (the man to move in ``s``): a move that wins at once; else, of the moves after
    which no single robot step can light him (``threats``), the one that leaves him the most escapes (``slides``:
    the squares of his next slides that no single robot step lights, counted up to ``ESCAPES``; a jewel taken
    counts ``JEWEL_ESCAPES`` more; ties drawn from ``rng``); else any move at random. The other arrays are
    scratch."""
    n = squares_of(s)
    me = s[n + NEXT]
    k = kernel.man_moves(s, nb, p, lit, emitters, moves)
    best = -1.0
    choice = -1
    for i in range(k):
        m = moves[i]
        after[:] = s
        kernel.apply_man(after, m, nb, p)
        if after[n + PHASE] == OVER:
            result = after[n + RESULT]
            if result == (kernel.A_WINS if me == 0 else kernel.B_WINS):
                return int(m)
            if result != kernel.DRAW:
                continue
            score = 0.0  # a drawn end: better than a likely death, worse than any safe move
        else:
            threats(after, nb, threat)
            if threat[after[n + MAN + me]]:
                continue  # a single robot step can light him
            escapes = min(slides(after, nb, me, threat)[2], ESCAPES)
            score = 1.0 + escapes + (JEWEL_ESCAPES if m < n and s[m] == JEWEL else 0)
        score += below(rng, 1024) / 2048.0  # the tie-break: less than one escape
        if score > best:
            best, choice = score, m
    if choice >= 0:
        return int(choice)
    return int(moves[below(rng, k)])


@njit(cache=True)
def future_mean(s: np.ndarray, nb: np.ndarray, p: np.ndarray, player: int, count: int, plies: int, seed: int,
                counters: np.ndarray, selfish: bool = False, jewel: float = FUTURE_JEWEL) -> float:
    """The mean result for ``player`` of ``count`` futures of ``plies`` men's plies from ``s`` (left unchanged; a
    future ends at a man's turn: a robots' turn due is played first); ``selfish`` and ``jewel`` as for
    ``future_sum``.
    ``counters[0]`` counts the futures played; a future is not begun once ``counters[1]`` is set (the mean of
    those played is returned, 0 when none was)."""
    total, played = future_sum(s, nb, p, player, 0, count, plies, seed, counters, selfish, jewel)
    return total / played if played else 0.0


@njit(cache=True)
def future_sum(s: np.ndarray, nb: np.ndarray, p: np.ndarray, player: int, first: int, count: int, plies: int,
               seed: int, counters: np.ndarray, selfish: bool = False,
               jewel: float = FUTURE_JEWEL) -> tuple[float, int]:
    """The summed result for ``player`` of the futures ``first``, ..., ``first + count - 1`` from ``s`` (future
    ``k``'s dice are the same whatever the range), and how many were played (fewer once ``counters[1]`` is set).

    A man is hit by a robot step a few times in a thousand: too rare for a few hundred futures to weigh, and most
    of what separates one safe move from another. So each future's result is corrected, at every robots' turn it
    meets (``robot_steps = one``), by ``WIN`` times the hit drawn (1 or 0) minus its exact chance (the share of the
    robots' steps that light the man), for ``player``'s man and, the other sign, for the other's. These terms
    have mean 0 whatever came before (a control variate): the mean is the futures' mean, with far less noise.

    ``selfish`` counts ``player``'s own hits alone: a future he loses (or draws with both men hit) is ``-WIN``, one
    he wins or draws otherwise 0, and the other man's hits are not corrected for; where the futures stop, the
    standard evaluation as always. It values a placement by the placed man's safety (``futures_root``).

    Where a future stops with the game going on, it is valued by the standard evaluation with a jewel worth
    ``jewel`` (a search passes ``jewel_worth`` of its root, the same for every move it compares)."""
    n = squares_of(s)
    work = np.empty_like(s)
    after = np.empty_like(s)
    moves = np.empty(n + 5, dtype=np.int32)
    threat = np.empty(n, dtype=np.uint8)
    lit = np.zeros(n, dtype=np.uint8)
    emitters = np.empty(n, dtype=np.int32)
    rng = np.empty(1, dtype=np.uint64)
    one_step = p[P_ALL] == 0  # the robots' turn is one step: its hits are counted by their exact chance
    total = 0.0
    played = 0
    for k in range(first, first + count):
        if counters[1]:
            break
        counters[0] += 1
        seed_rng(rng, seed, k)
        work[:] = s
        men = 0
        while work[n + PHASE] != OVER and (men < plies or work[n + PHASE] == ROBOTS):
            if work[n + PHASE] == ROBOTS:
                hazard = 0.0
                if one_step:
                    steps = kernel.step_count(work, nb)
                    mine = kernel.lit_by_one_step(work, nb, work[n + MAN + player])
                    theirs = kernel.lit_by_one_step(work, nb, work[n + MAN + 1 - player])
                    hazard = (mine - (0 if selfish else theirs)) / steps
                kernel.apply_chance(work, kernel.sample_chance(work, nb, p, rng, emitters), nb, p)
                if one_step:
                    total -= WIN * hazard
                    if work[n + PHASE] == OVER:
                        result = work[n + RESULT]
                        hit_a = 1 if result != kernel.A_WINS else 0  # a robots' turn ends the game by hits only
                        hit_b = 1 if result != kernel.B_WINS else 0
                        hit_me, hit_other = (hit_a, hit_b) if player == 0 else (hit_b, hit_a)
                        total += WIN * (hit_me - (0 if selfish else hit_other))
            else:
                kernel.apply_man(work, careful_move(work, nb, p, moves, after, threat, lit, emitters, rng), nb, p)
                men += 1
        if work[n + PHASE] == OVER:
            result = work[n + RESULT]
            won = result == (kernel.A_WINS if player == 0 else kernel.B_WINS)
            if selfish:
                lost = not won and (result != kernel.DRAW or work[n + kernel.WHY] == kernel.BOTH_HIT)
                total += -WIN if lost else 0.0
            elif result != kernel.DRAW:
                total += WIN if won else -WIN
        else:
            total += evaluate(work, nb, player, STANDARD, jewel)
        played += 1
    return total, played
