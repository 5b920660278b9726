"""Jewels and Lasers: how much of its survival the first agent gives away in pockets, against an exact search.

    python benchmarks/jewels_pockets.py [--agents hard random] [--games 200] [--seed 7] [--seat 1] [--plies 3]

Plays the arena's games (``damier arena jewels --agents A B --games N --seed S``: the same schedule, seeds and dice)
in which A sits at ``--seat`` (1: Player 2, the other agent placing both men), and at each of A's moves in a
**pocket** (three safe moves or fewer: moves after which no single robot step can light the man) values every
legal move by an exact expectimax against a uniformly random other man (``random``'s own policy) over ``--plies``
men's plies and every robots' turn between them: the chance of not losing within them (a loss 0, a draw 1/2, a
win or a man still standing 1). It prints the pocket moves, those where A's choice is below the best, and the sum
of the best value minus the chosen one's: the games A's choices gave away against that search over that horizon.
Against ``random`` the search is exact for the opponent, so a small sum says the losses do not come from A's
choices in the pockets but from being in them. Also printed: the sum over the games of the best value at A's first
move (1 where the first move is not in a pocket, the result where the game ended before it): more wins than the
first positions allow, at that horizon.
"""

from __future__ import annotations

import argparse
import multiprocessing
from typing import Any

import numpy as np
from jewels import play_observed  # benchmarks/jewels.py, beside this script
from numba import njit

from damier.arena.tournament import schedule
from damier.core.game import State
from damier.core.registry import load
from damier.games.jewels import kernel
from damier.games.jewels.kernel import NEXT, OVER, PHASE, RESULT, ROBOTS, squares_of
from damier.games.jewels.search import strictly_safe_moves

_SIGNATURE = (
    "float64(int32[:, ::1], int64, int64, int64, int32[:, ::1], int32[::1], int32[:, ::1], int32[:, ::1], "
    "float64[:, ::1], uint8[::1], int32[::1])"
)


@njit(_SIGNATURE, cache=True)
def survival(stack: np.ndarray, ply: int, left: int, me: int, nb: np.ndarray, p: np.ndarray, moves: np.ndarray,
             outs: np.ndarray, weights: np.ndarray, lit: np.ndarray, emitters: np.ndarray) -> float:
    """``me``'s chance of not losing within ``left`` men's plies from ``stack[ply]``: ``me`` picks the best move,
    the other man moves uniformly at random, the robots' turns are averaged exactly."""
    s = stack[ply]
    n = squares_of(s)
    if s[n + PHASE] == OVER:
        result = s[n + RESULT]
        if result == kernel.DRAW:
            return 0.5
        return 1.0 if (result == kernel.A_WINS) == (me == 0) else 0.0
    child = stack[ply + 1]
    if s[n + PHASE] == ROBOTS:
        k = kernel.chance_outcomes(s, nb, p, outs[ply], weights[ply])
        total = 0.0
        for i in range(k):
            child[:] = s
            kernel.apply_chance(child, outs[ply, i], nb, p)
            total += weights[ply, i] * survival(stack, ply + 1, left, me, nb, p, moves, outs, weights, lit, emitters)
        return total
    if left == 0:
        return 1.0
    k = kernel.man_moves(s, nb, p, lit, emitters, moves[ply])
    best = 0.0
    total = 0.0
    for i in range(k):
        child[:] = s
        kernel.apply_man(child, moves[ply, i], nb, p)
        v = survival(stack, ply + 1, left - 1, me, nb, p, moves, outs, weights, lit, emitters)
        best = max(best, v)
        total += v
    return best if s[n + NEXT] == me else total / k


def move_values(game: Any, s: np.ndarray, legal: list[int], plies: int) -> dict[int, float]:
    """Each legal move's ``survival`` over ``plies`` men's plies (the move itself the first)."""
    n = game.n
    me = int(s[n + NEXT])
    depth = 2 * plies + 4  # a man's ply and a robots' turn each
    stack = np.empty((depth, s.shape[0]), dtype=np.int32)
    moves = np.empty((depth, n + 5), dtype=np.int32)
    outs = np.empty((depth, 5 * n), dtype=np.int32)
    weights = np.empty((depth, 5 * n))
    lit = np.zeros(n, dtype=np.uint8)
    emitters = np.empty(n, dtype=np.int32)
    values = {}
    for move in legal:
        stack[0, :] = s
        kernel.apply_man(stack[0], move, game.neighbours, game.params)
        values[move] = survival(stack, 0, plies - 1, me, game.neighbours, game.params, moves, outs, weights, lit,
                                emitters)
    return values


class Pockets:
    """Records the first agent's moves in pockets: the position, the legal moves, the move chosen."""

    def __init__(self, game: Any, first: int) -> None:
        self.game, self.first = game, first
        self.decisions: list[tuple[np.ndarray, list[int], int]] = []
        self.pending: tuple[int, np.ndarray, list[int]] | None = None
        self.moved = False  # whether the first agent has moved (its first move is the game's first pocket check)
        self.first_pocket: int | None = None  # the index in ``decisions`` of its first move, if in a pocket

    def __call__(self, state: State) -> None:
        if self.pending is not None and len(state.history) > self.pending[0]:
            ply, s, legal = self.pending
            self.decisions.append((s, legal, int(state.history[ply])))
            self.pending = None
        if state.player != self.first or state.placing or state.is_over():  # type: ignore[attr-defined]
            return
        s = state.kernel_array()  # type: ignore[attr-defined]
        legal = [int(move) for move in state.legal_moves()]
        pocket = len(strictly_safe_moves(state)) <= 3
        if not self.moved and pocket:
            self.first_pocket = len(self.decisions)
        self.moved = True
        if pocket:
            self.pending = (len(state.history), s.copy(), legal)


def play(task: dict[str, Any]) -> dict[str, Any]:
    """One arena game, A's pocket moves valued by ``move_values``."""
    outcome, first, pockets = play_observed(task, Pockets)
    score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == first else 0.0
    gaps, below = 0.0, 0
    first_best = 1.0 if pockets.moved else score
    for i, (s, legal, chosen) in enumerate(pockets.decisions):
        values = move_values(pockets.game, s, legal, task["plies"])
        best = max(values.values())
        gaps += best - values[chosen]
        below += best - values[chosen] > 1e-9
        if i == pockets.first_pocket:
            first_best = best
    return {"score": score, "pockets": len(pockets.decisions), "below": below, "gap": gaps, "first": first_best}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", nargs=2, default=["hard", "random"])
    parser.add_argument("--games", type=int, default=200, help="the arena's games; those with A at --seat are played")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seat", type=int, choices=(0, 1), default=1)
    parser.add_argument("--plies", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    opening = load("jewels").info.opening
    tasks = [dict(task, plies=args.plies) for task in schedule("jewels", {}, args.agents, args.games, args.seed,
                                                                 opening, 2) if task["seats"].index(0) == args.seat]
    with multiprocessing.Pool(args.workers) as pool:
        games = pool.map(play, tasks, chunksize=1)
    a = args.agents[0]
    print(f"{a} as Player {args.seat + 1}, {len(games)} games: {sum(g['score'] for g in games):g} scored")
    print(f"{a}'s moves in a pocket (three safe moves or fewer): {sum(g['pockets'] for g in games)}, "
          f"below the best of an exact search over {args.plies} men's plies: {sum(g['below'] for g in games)}; "
          f"the survival given away, in games: {sum(g['gap'] for g in games):.2f}")
    print(f"the most the first positions allow at that horizon: {sum(g['first'] for g in games):.2f} scored")


if __name__ == "__main__":
    main()
