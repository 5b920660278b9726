"""The Jewels and Lasers computer: an expectimax search over the robots' chance node, in numba.

The search is alpha-beta between the two men and a probability-weighted mean at the robots' turn (Ballard's
Star1 pruning there: once the outcomes seen, with the rest at their best or worst possible value, cannot bring the
mean inside the window, the node is cut). A depth counts men's plies and robots' turns alike (depth 4: a move,
the robots, the reply, the robots). With ``robot_steps = all`` a robots' turn has too many orderings to list:
the search averages ``TURN_SAMPLES`` whole turns drawn at random (from a generator seeded by the position, so a
search is repeatable).

At the root, a move after which a single robot step could light the man is played only when every move is like
that (``safe_moves``), and the men are not placed in a room of walls with no jewel when they can be placed
elsewhere (``open_placements``).

The principal variation is collected as the search goes: at a men's node the best move's line, at a robots' turn
the line of the outcome whose value is nearest the turn's mean (the robots' step or steps, then what follows):
the most typical of the futures the score averages, not a forecast of the dice.

The leaves are valued by an evaluation of ``damier.games.jewels.evaluation`` (``standard``, ``material``), or
played out by ``damier.games.jewels.futures`` (``futures``). A search of depth 1 with the futures spends them
where the choice is close (``futures_root``: successive halving), the placement's hundred squares and more too
(by the placed man's safety alone: selfish futures).
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
from numba import njit

from damier.core.game import CHANCE, Iteration, State
from damier.core.rng import new_rng
from damier.games.jewels import kernel
from damier.games.jewels.evaluation import EVALUATIONS, FUTURES, WIN, evaluate
from damier.games.jewels.futures import (
    FINAL_FUTURES,
    FINALISTS,
    FIRST_FUTURES,
    FUTURE_COUNT,
    FUTURE_PLIES,
    future_mean,
    future_sum,
    jewel_worth,
)
from damier.games.jewels.kernel import (
    JEWEL,
    MAN,
    NEXT,
    OVER,
    P_ALL,
    PHASE,
    PLACE,
    RESULT,
    ROBOTS,
    lit_by_one_step,
    squares_of,
)

TURN_SAMPLES = 6
MAX_PLY = 32
#: the longest line a search reports (a robots' turn of ``robot_steps = all`` is a step per robot), and the column
#: of the line tables that holds each line's length
PV_LEN = 64


@njit(cache=True)
def _terminal(s: np.ndarray, root: int, ply: int) -> float:
    n = squares_of(s)
    result = s[n + RESULT]
    if result == kernel.DRAW:
        return 0.0
    won = (result == kernel.A_WINS) == (root == 0)
    return WIN - ply if won else -WIN + ply


#: the recursive kernel is compiled for these types up front (numba cannot infer a recursion's types reliably)
_VALUE_SIGNATURE = (
    "float64(int32[:, ::1], int64, int64, float64, float64, int64, int32[:, ::1], int32[::1], int64, int32[:, ::1], "
    "int32[:, ::1], float64[:, ::1], uint8[::1], int32[::1], int64[::1], int64, uint64[::1], int64, int32[:, ::1], "
    "int32[:, :, ::1], float64[:, ::1])"
)


@njit(cache=True, inline="always")
def _take_line(pv: np.ndarray, ply: int, move: int) -> None:
    """The line of ``ply`` becomes ``move`` followed by the line of the ply after it."""
    length = min(pv[ply + 1, PV_LEN], PV_LEN - 1)
    pv[ply, 0] = move
    for j in range(length):
        pv[ply, j + 1] = pv[ply + 1, j]
    pv[ply, PV_LEN] = length + 1


@njit(cache=True)
def _keep_outcome(lines: np.ndarray, ply: int, i: int, steps: np.ndarray, count: int, pv: np.ndarray) -> None:
    """Keep the line of a robots' turn's outcome ``i``: its ``count`` steps, then the line of the ply after it."""
    kept = lines[ply, i]
    length = min(count, PV_LEN)
    for j in range(length):
        kept[j] = steps[j]
    for j in range(min(pv[ply + 1, PV_LEN], PV_LEN - length)):
        kept[length + j] = pv[ply + 1, j]
    kept[PV_LEN] = length + min(pv[ply + 1, PV_LEN], PV_LEN - length)


@njit(cache=True)
def _typical_line(pv: np.ndarray, lines: np.ndarray, values: np.ndarray, ply: int, k: int, mean: float) -> None:
    """The line of ``ply`` (a robots' turn) becomes the kept line of the outcome valued nearest ``mean``."""
    if k <= 0:
        return
    best = 0
    for i in range(1, k):
        if abs(values[ply, i] - mean) < abs(values[ply, best] - mean):
            best = i
    for j in range(lines[ply, best, PV_LEN] + 1):
        pv[ply, j] = lines[ply, best, j]
    pv[ply, PV_LEN] = lines[ply, best, PV_LEN]


@njit(_VALUE_SIGNATURE, cache=True)
def _value(stack: np.ndarray, ply: int, depth: int, alpha: float, beta: float, root: int, nb: np.ndarray,
           p: np.ndarray, kind: int, moves: np.ndarray, outs: np.ndarray, weights: np.ndarray, lit: np.ndarray,
           emitters: np.ndarray, counters: np.ndarray, limit: int, rng: np.ndarray, seed: int, pv: np.ndarray,
           lines: np.ndarray, values: np.ndarray) -> float:
    """The value of ``stack[ply]`` for ``root``; ``counters[0]`` counts nodes, ``counters[1]`` is set to stop;
    ``seed`` seeds the futures of the ``futures`` evaluation (``stack[0]`` is the search's root). Its principal
    variation is left in ``pv[ply]`` (``lines`` and ``values`` hold a robots' turn's outcomes meanwhile)."""
    s = stack[ply]
    pv[ply, PV_LEN] = 0
    n = squares_of(s)
    counters[0] += 1
    if (counters[0] & 1023) == 0 and limit > 0 and counters[0] > limit:
        counters[1] = 1
    if counters[1]:
        return 0.0
    phase = s[n + PHASE]
    if phase == OVER:
        return _terminal(s, root, ply)
    if depth == 0 or ply >= MAX_PLY - 1:
        if kind == FUTURES:
            return future_mean(s, nb, p, root, FUTURE_COUNT, FUTURE_PLIES, seed, counters, False,
                               jewel_worth(stack[0], p, root))
        return evaluate(s, nb, root, kind)
    child = stack[ply + 1]
    if phase == ROBOTS:
        steps = outs[ply]  # a sample's steps (``robot_steps = all``)
        if p[P_ALL]:
            total = 0.0
            for i in range(TURN_SAMPLES):
                child[:] = s
                count = 0
                while child[n + PHASE] == ROBOTS:
                    step = kernel.sample_chance(child, nb, p, rng, emitters)
                    steps[count] = step
                    count += 1
                    kernel.apply_chance(child, step, nb, p)
                v = _value(stack, ply + 1, depth - 1, -np.inf, np.inf, root, nb, p, kind, moves, outs, weights, lit,
                           emitters, counters, limit, rng, seed, pv, lines, values)
                values[ply, i] = v
                _keep_outcome(lines, ply, i, steps, count, pv)
                total += v
            _typical_line(pv, lines, values, ply, TURN_SAMPLES, total / TURN_SAMPLES)
            return total / TURN_SAMPLES
        k = kernel.chance_outcomes(s, nb, p, outs[ply], weights[ply])
        total = 0.0
        left = 1.0
        for i in range(k):
            w = weights[ply, i]
            child[:] = s
            kernel.apply_chance(child, outs[ply, i], nb, p)
            v = _value(stack, ply + 1, depth - 1, -np.inf, np.inf, root, nb, p, kind, moves, outs, weights, lit,
                       emitters, counters, limit, rng, seed, pv, lines, values)
            values[ply, i] = v
            _keep_outcome(lines, ply, i, outs[ply, i:], 1, pv)
            total += w * v
            left -= w
            if left > 1e-12:
                if total + left * WIN <= alpha:
                    return total + left * WIN
                if total - left * WIN >= beta:
                    return total - left * WIN
        _typical_line(pv, lines, values, ply, k, total)
        return total
    k = kernel.man_moves(s, nb, p, lit, emitters, moves[ply])
    # jewels first
    front = 0
    for i in range(k):
        m = moves[ply, i]
        if m < n and s[m] == JEWEL:
            moves[ply, i], moves[ply, front] = moves[ply, front], m
            front += 1
    maximizing = (0 if phase == PLACE else s[n + NEXT]) == root
    best = -np.inf if maximizing else np.inf
    for i in range(k):
        child[:] = s
        kernel.apply_man(child, moves[ply, i], nb, p)
        v = _value(stack, ply + 1, depth - 1, alpha, beta, root, nb, p, kind, moves, outs, weights, lit, emitters,
                   counters, limit, rng, seed, pv, lines, values)
        if v > alpha if maximizing else v < beta:  # a better line within the window
            _take_line(pv, ply, moves[ply, i])
        if maximizing:
            if v > best:
                best = v
            if v > alpha:
                alpha = v
        else:
            if v < best:
                best = v
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    return best


@njit(cache=True)
def search_root(s: np.ndarray, nb: np.ndarray, p: np.ndarray, depth: int, allowed: np.ndarray, kind: int,
                counters: np.ndarray, limit: int, seed: int, pv: np.ndarray) -> tuple[int, float]:
    """The best of the moves ``allowed`` for the man to move in ``s``, searched ``depth`` plies, and its value;
    its line in ``pv[0]`` (the length at ``PV_LEN``)."""
    pv[0, PV_LEN] = 0
    if kind == FUTURES and depth == 1:
        return futures_root(s, nb, p, allowed, counters, seed)
    n = squares_of(s)
    width = s.shape[0]
    stack = np.empty((MAX_PLY, width), dtype=np.int32)
    moves = np.empty((MAX_PLY, n + 5), dtype=np.int32)
    outs = np.empty((MAX_PLY, 5 * n), dtype=np.int32)
    weights = np.empty((MAX_PLY, 5 * n), dtype=np.float64)
    lit = np.zeros(n, dtype=np.uint8)
    emitters = np.empty(n, dtype=np.int32)
    rng = new_rng(seed, 0)
    # the outcomes' lines and values of each robots' turn on the way down (the deepest ply is a leaf)
    plies = min(depth, MAX_PLY - 1) + 1
    lines = np.empty((plies, max(5 * n, TURN_SAMPLES), PV_LEN + 1), dtype=np.int32)
    values = np.empty((plies, max(5 * n, TURN_SAMPLES)), dtype=np.float64)
    root = 0 if s[n + PHASE] == PLACE else s[n + NEXT]
    stack[0, :] = s
    best_move = allowed[0]
    best = -np.inf
    alpha = -np.inf
    for i in range(allowed.shape[0]):
        stack[1, :] = s
        kernel.apply_man(stack[1], allowed[i], nb, p)
        v = _value(stack, 1, depth - 1, alpha, np.inf, root, nb, p, kind, moves, outs, weights, lit, emitters,
                   counters, limit, rng, seed, pv, lines, values)
        if counters[1]:
            break
        if v > best:
            best, best_move = v, allowed[i]
            _take_line(pv, 0, allowed[i])
        if v > alpha:
            alpha = v
    return best_move, best


@njit(cache=True)
def futures_root(s: np.ndarray, nb: np.ndarray, p: np.ndarray, allowed: np.ndarray, counters: np.ndarray,
                 seed: int) -> tuple[int, float]:
    """The best of the moves ``allowed`` by their futures, spent where the choice is close (successive halving):
    every move valued by its first ``FIRST_FUTURES`` futures, then the ``FINALISTS`` best of them by more (the
    first round's and the rest of what ``FUTURE_COUNT`` futures a move would have cost, up to ``FINAL_FUTURES``
    each: with ``FINALISTS`` moves or fewer, each is valued by ``FUTURE_COUNT``); the best finalist is played.
    Once ``counters[1]`` is set the first round stops (a move not valued is never chosen) and the second is not
    used. A placement is valued by selfish futures (``future_sum``): the placed man's hits alone."""
    n = squares_of(s)
    root = 0 if s[n + PHASE] == PLACE else s[n + NEXT]
    k = allowed.shape[0]
    # the placement seeks the placed man's safety alone: both men stand on mirror squares, and a pocket that
    # the first mover may escape before the other is a gamble a careful player does not take
    selfish = s[n + PHASE] == PLACE
    jewel = jewel_worth(s, p, root)
    sums = np.zeros(k)
    first = np.full(k, -np.inf)
    ended = np.zeros(k, dtype=np.bool_)
    after = np.empty_like(s)
    for i in range(k):
        after[:] = s
        kernel.apply_man(after, allowed[i], nb, p)
        if after[n + PHASE] == OVER:
            first[i] = _terminal(after, root, 1)
            ended[i] = True
            continue
        total, played = future_sum(after, nb, p, root, 0, FIRST_FUTURES, FUTURE_PLIES, seed, counters, selfish,
                                   jewel)
        if counters[1]:
            break
        sums[i] = total
        first[i] = total / played
    order = np.argsort(-first, kind="mergesort")  # ties: the move listed first
    finalists = min(FINALISTS, k)
    # the second round spends what valuing every move by ``FUTURE_COUNT`` futures would have, up to FINAL_FUTURES
    more = min(FINAL_FUTURES, FIRST_FUTURES + (FUTURE_COUNT - FIRST_FUTURES) * k // finalists) - FIRST_FUTURES
    final = first.copy()
    for j in range(finalists):
        i = order[j]
        if counters[1]:
            break
        if ended[i]:
            continue
        after[:] = s
        kernel.apply_man(after, allowed[i], nb, p)
        total, played = future_sum(after, nb, p, root, FIRST_FUTURES, more, FUTURE_PLIES, seed, counters, selfish,
                                   jewel)
        if counters[1]:
            final = first  # the second round cut short: the first round decides
            break
        final[i] = (sums[i] + total) / (FIRST_FUTURES + played)
    choice = order[0]
    for j in range(1, finalists):
        if final[order[j]] > final[choice]:
            choice = order[j]
    return allowed[choice], final[choice]


def strictly_safe_moves(state: Any) -> list[int]:
    """The legal moves after which no single robot step can light the mover (the placement counts as safe when
    neither man can be lit by one step); none when every move can be punished so."""
    g = state.game
    s = state.kernel_array()
    n = g.n
    me = 0 if state.placing else state.player
    safe = []
    moves = state.legal_moves()
    for move in moves:
        after = s.copy()
        kernel.apply_man(after, move, g.neighbours, g.params)
        if after[n + PHASE] == OVER:
            safe.append(move)  # the game ends: no robot steps after it
            continue
        men = (0, 1) if state.placing else (me,)
        if all(lit_by_one_step(after, g.neighbours, int(after[n + MAN + who])) == 0 for who in men):
            safe.append(move)
    return safe


def safe_moves(state: Any) -> list[int]:
    """The moves the computer chooses among: ``strictly_safe_moves``, or every legal move when none is safe."""
    return strictly_safe_moves(state) or state.legal_moves()


def open_placements(state: Any, moves: list[int]) -> list[int]:
    """Of the placements ``moves``, those whose square's part of the board (the squares joined to it without
    crossing a wall or a dead robot; the robots step away) holds a jewel; all of them when none does. The men
    stand on mirror squares of a point-symmetric board, so where one is walled into a room with no jewel so is
    the other: both safe from every ray, and the game waits for the no-jewel cap, a draw. Any other move is
    returned as it is."""
    if not state.placing:
        return moves
    g = state.game
    s = state.kernel_array()
    n = g.n
    part = [-1] * n  # the part of the board each square belongs to
    jewels: list[int] = []  # the jewels of each part
    for start in range(n):
        if part[start] >= 0 or s[start] in (kernel.WALL, kernel.DEAD):
            continue
        part[start] = len(jewels)
        count = 0
        todo = [start]
        while todo:
            sq = todo.pop()
            count += s[sq] == kernel.JEWEL
            for d in range(4):
                to = int(g.neighbours[sq, d])
                if to >= 0 and part[to] < 0 and s[to] not in (kernel.WALL, kernel.DEAD):
                    part[to] = part[start]
                    todo.append(to)
        jewels.append(count)
    open_ = [move for move in moves if jewels[part[move]] > 0]
    return open_ or moves


def evaluate_state(state: Any, player: int, evaluation: str) -> float:
    """The evaluation ``evaluation`` (``standard``, ``material`` or ``futures``) of ``state`` for ``player``."""
    s = state.kernel_array()
    if state.is_over():
        outcome = state.outcome()
        return 0.0 if outcome.winner is None else WIN if outcome.winner == player else -WIN
    g = state.game
    if EVALUATIONS[evaluation] == FUTURES and not state.placing:
        counters = np.zeros(2, dtype=np.int64)
        return float(future_mean(s, g.neighbours, g.params, player, FUTURE_COUNT, FUTURE_PLIES, _seed(state), counters,
                                 False, jewel_worth(s, g.params, player)))
    return float(evaluate(s, g.neighbours, player, EVALUATIONS[evaluation]))


def _seed(state: Any) -> int:
    """A seed of the position alone (a search of it is repeatable)."""
    return int.from_bytes(state.key()[:8].ljust(8, b"\0"), "little") & 0x7FFFFFFF


class JewelsSearch:
    """The kernel search as a ``FixedDepthSearch`` (``damier.core.search``), driven by ``damier.ai.deepening``."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self._counters = np.zeros(2, dtype=np.int64)
        self._lock = threading.Lock()
        self._allowed: np.ndarray | None = None
        self.pv = np.zeros((MAX_PLY, PV_LEN + 1), dtype=np.int32)

    def new_game(self) -> None:
        pass

    def new_search(self, state: State) -> None:
        self._counters[1] = 0
        if state.player == CHANCE:
            raise ValueError("the search chooses a man's move; the robots' turn is drawn at random")
        self._allowed = np.array(open_placements(state, safe_moves(state)), dtype=np.int32)

    def stop(self) -> None:
        self._counters[1] = 1

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        assert self._allowed is not None
        g = self.game
        kind = EVALUATIONS[evaluation or "standard"]
        self._counters[0] = 0
        limit = 0 if depth == 1 or node_limit is None else int(node_limit)
        s = state.kernel_array()  # type: ignore[attr-defined]
        seed = _seed(state)
        move, score = search_root(s, g.neighbours, g.params, depth, self._allowed, kind, self._counters, limit, seed,
                                  self.pv)
        completed = depth == 1 or not self._counters[1]  # depth 1 has a move even when stopped early
        score = float(score) if math.isfinite(score) else 0.0
        line = [int(m) for m in self.pv[0, : int(self.pv[0, PV_LEN])]]
        if not completed or not line or line[0] != int(move):
            line = [int(move)]
        return Iteration(depth=depth, score=score, move=int(move), pv=line, nodes=int(self._counters[0]),
                         completed=completed)


