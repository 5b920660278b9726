"""Jewels and Lasers: how often each man is in a ray's reach, measured on the arena's own games.

    python benchmarks/jewels.py [--agents hard jewels-greedy] [--games 100] [--seed 7] [--opening K] [--workers 2]

Plays the games ``damier arena jewels --agents A B --games N --seed S`` plays (the same schedule, seeds, opening
(by default the game's own: no random plies) and dice, so its results are the arena's) and prints, besides A's
wins, draws and losses (in all, and by A's seat: Player 1 places both men) and how the games ended:

- each man's **hazard**: at every robots' turn, the exact chance that the robot step lights him (the share of the
  robots' steps that do), summed and given per 1,000 robots' turns. Games are decided by which man is hit first, and
  the hazard is that race without the draw of the dice (a hit is one chance in a few hundred), so it tells two builds
  apart in far fewer games than the wins do;
- A's hazard split by whose move came before the robots' turn: after A's own move it is not 0 only where A had no
  safe move left (a pocket of rays closed round him); after the other man's, it is the second robot step since A
  moved;
- A's hazard summed over the games (what the games lose on average, without the dice) by A's seat and by how many
  moves A had made before the robots' turn: 0 (the random placement's first steps, for Player 2), 1, 2 to 10,
  later;
- how the games ended: a hit by the robots' step, a hit by a man's move (a jewel taken or a wall blown up opens a
  ray onto the other man), the no-jewel cap, the jewels;
- the jewels each took per game (they decide the games that end at the no-jewel cap);
- how near A's moves are to the least hazard they could have had: at each of A's moves, the chance of a hit within
  the next two robots' turns (the other man standing, ``two_step_hazard``) of the move chosen and the least of it
  over the safe moves (``search.safe_moves``), per 1,000 of A's moves, and summed over A's first ten moves of its
  games by A's seat (what the other's placement leaves Player 2: the least is what no choice of those moves
  could have saved on the two-turn horizon).

The hazards are counted for ``robot_steps = one`` (the default), where a robots' turn is one uniform step.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit

from damier.agents.spec import make_agent
from damier.ai.base import close_agent
from damier.arena.match import play_match
from damier.arena.tournament import schedule
from damier.core.game import CHANCE, State
from damier.core.registry import load
from damier.games.jewels import kernel
from damier.games.jewels.search import safe_moves

Observer = TypeVar("Observer", bound=Callable[[State], None])  # an observer of a game's states


@njit(cache=True)
def step_hazard(s: np.ndarray, nb: np.ndarray, man: int) -> float:
    """At a robots' turn (``robot_steps = one``), the chance that its step lights the man on ``man``: the share of
    the robots' steps that do (0 with no step)."""
    steps = kernel.step_count(s, nb)
    return kernel.lit_by_one_step(s, nb, man) / steps if steps else 0.0


@njit(cache=True)
def two_step_hazard(s: np.ndarray, nb: np.ndarray, p: np.ndarray, move: int, me: int) -> float:
    """The chance that ``me``'s man is hit within the two robots' turns after ``move`` (the other man standing)."""
    n = kernel.squares_of(s)
    after = s.copy()
    kernel.apply_man(after, move, nb, p)
    if after[n + kernel.PHASE] != kernel.ROBOTS:
        return 0.0
    outs = np.empty(5 * n, dtype=np.int32)
    weights = np.empty(5 * n)
    k = kernel.chance_outcomes(after, nb, p, outs, weights)
    total = 0.0
    child = np.empty_like(after)
    for i in range(k):
        child[:] = after
        kernel.apply_chance(child, outs[i], nb, p)
        if child[n + kernel.PHASE] == kernel.OVER:
            total += weights[i] if kernel.is_lit(child, nb, child[n + kernel.MAN + me]) else 0.0
            continue
        kernel.begin_robots(child, nb, p)  # the second turn: robots that cannot step die first
        if child[n + kernel.PHASE] == kernel.ROBOTS:
            total += weights[i] * step_hazard(child, nb, child[n + kernel.MAN + me])
    return total


class Hazards:
    """Counts, at each robots' turn of a game, each seat's exact chance of a hit (``play_match``'s observer)."""

    def __init__(self, game: Any, first: int) -> None:
        self.n, self.neighbours, self.first = game.n, game.neighbours, first
        self.hazard = [0.0, 0.0]  # by seat
        self.split = [0.0, 0.0]  # the first agent's: after its own move, after the other's
        self.turns = 0
        self.by_moves = [0.0, 0.0, 0.0, 0.0]  # the first agent's hazard by its moves made: 0, 1, 2 to 10, later
        self.last = -1  # the seat that moved last
        self.robots_last = False  # whether the last ply seen is a robots' turn
        self.moves = 0  # the first agent's moves, and their two-step hazards: chosen, least of the safe moves
        self.two_step = [0.0, 0.0]
        self.early_two_step = [0.0, 0.0]  # the same over its first ten moves (for Player 2: the placement's part)
        self.pending: tuple[int, dict[int, float], float] | None = None  # the first agent's move due: its ply,
        # each legal move's two-step hazard, the least of the safe moves'

    def __call__(self, state: State) -> None:
        self.state = state  # the game's one state, played on in place: the final position once the game is over
        self.robots_last = state.player == CHANCE
        if self.pending is not None and len(state.history) > self.pending[0]:
            ply, hazards, least = self.pending
            chosen = hazards[state.history[ply]]
            self.moves += 1
            for sums in (self.two_step, self.early_two_step) if self.moves <= 10 else (self.two_step,):
                sums[0] += chosen
                sums[1] += least
            self.pending = None
        if state.player != CHANCE:
            self.last = state.player
            if state.player == self.first and not state.placing and not state.is_over():  # type: ignore[attr-defined]
                s = state.kernel_array()  # type: ignore[attr-defined]
                g: Any = state.game
                hazards = {move: two_step_hazard(s, g.neighbours, g.params, move, self.first)
                           for move in state.legal_moves()}
                self.pending = (len(state.history), hazards, min(hazards[move] for move in safe_moves(state)))
            return
        s = state.kernel_array()  # type: ignore[attr-defined]
        for seat in (0, 1):
            h = step_hazard(s, self.neighbours, int(s[self.n + kernel.MAN + seat]))
            self.hazard[seat] += h
            if seat == self.first:
                self.split[0 if self.last == self.first else 1] += h
                self.by_moves[min(self.moves, 2) if self.moves <= 10 else 3] += h
        self.turns += 1


def play_observed(task: dict[str, Any], observer: Callable[[Any, int], Observer]) -> tuple[Any, int, Observer]:
    """One arena game (``damier.arena.match.play_match``, as ``damier.arena.match.run_match_task`` plays it),
    watched by ``observer(game, seat of the first agent)`` (called with every state); the outcome, that seat and
    the observer."""
    game = load(task["game"], **task["options"])
    agents = [make_agent(spec, game, seed=task["seed"] * 31 + i) for i, spec in enumerate(task["specs"])]
    first = task["seats"].index(0)
    watching = observer(game, first)
    try:
        result = play_match(game, agents, task["seats"], task["seed"], task["opening"], names=task["specs"],
                            observe=watching)
    finally:
        for agent in agents:
            close_agent(agent)  # an external engine's process ends with its game
    return result.outcome, first, watching


def play(task: dict[str, Any]) -> dict[str, Any]:
    """One arena game, with the hazards counted."""
    outcome, first, hazards = play_observed(task, Hazards)
    won = "D" if outcome.winner is None else "W" if outcome.winner == first else "L"
    reason = str(outcome.reason)
    hit = "hit by the robots" if hazards.robots_last else "hit by a man's move"
    end = "no-jewel cap" if "no jewel" in reason else hit if "hit" in reason else "jewels"
    final = hazards.state
    return {"result": won, "end": end, "turns": hazards.turns, "seat": first,
            "hazard": (hazards.hazard[first], hazards.hazard[1 - first]), "split": hazards.split,
            "moves": hazards.moves, "two_step": hazards.two_step, "early_two_step": hazards.early_two_step,
            "by_moves": hazards.by_moves,
            "jewels": (final.jewels(first), final.jewels(1 - first))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", nargs=2, default=["hard", "jewels-greedy"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--opening", type=int, default=None, help="random plies (default: the arena's, none)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    opening = load("jewels").info.opening if args.opening is None else args.opening
    tasks = schedule("jewels", {}, args.agents, args.games, args.seed, opening, 2)
    with multiprocessing.Pool(args.workers) as pool:
        games = pool.map(play, tasks, chunksize=1)
    a, b = args.agents
    count = collections.Counter(g["result"] for g in games)
    turns = sum(g["turns"] for g in games)
    per = 1000.0 / turns
    print(f"{a} vs {b}, {len(games)} games: {count['W']} won, {count['D']} drawn, {count['L']} lost "
          f"({100.0 * (count['W'] + count['D'] / 2) / len(games):.1f} %)")
    for seat in (0, 1):
        by = collections.Counter(g["result"] for g in games if g["seat"] == seat)
        print(f"{a} as {('Player 1 (who places both men)', 'Player 2')[seat]}: {by['W']} won, {by['D']} drawn, "
              f"{by['L']} lost")
    ends = collections.Counter((g["end"], g["result"]) for g in games)
    print("ends (for " + a + "): " + ", ".join(f"{end} {result} {k}" for (end, result), k in sorted(ends.items())))
    mine, theirs = (per * sum(g["hazard"][i] for g in games) for i in (0, 1))
    own, other = (per * sum(g["split"][i] for g in games) for i in (0, 1))
    print(f"hazard per 1,000 robots' turns ({turns} turns): {a} {mine:.2f}, {b} {theirs:.2f}; "
          f"{a}'s after its own move {own:.2f}, after the other's {other:.2f}")
    for seat in (0, 1):
        sums = [sum(g["by_moves"][k] for g in games if g["seat"] == seat) for k in range(4)]
        print(f"{a}'s hazard summed over its games as Player {seat + 1}: {sum(sums):.2f}, by its moves made before "
              f"the robots' turn: none {sums[0]:.2f}, one {sums[1]:.2f}, 2 to 10 {sums[2]:.2f}, later {sums[3]:.2f}")
    moves = sum(g["moves"] for g in games)
    chosen, least = (1000.0 / moves * sum(g["two_step"][i] for g in games) for i in (0, 1))
    print(f"{a}'s chance of a hit within two robots' turns per 1,000 of its moves ({moves} moves): the moves chosen "
          f"{chosen:.2f}, the least of the safe moves {least:.2f}")
    for seat in (0, 1):
        early = [sum(g["early_two_step"][i] for g in games if g["seat"] == seat) for i in (0, 1)]
        print(f"{a}'s chance of a hit within two robots' turns summed over its first ten moves of its games as Player "
              f"{seat + 1}: the moves chosen {early[0]:.2f}, the least of the safe moves {early[1]:.2f}")
    print(f"jewels per game: {a} {sum(g['jewels'][0] for g in games) / len(games):.2f}, "
          f"{b} {sum(g['jewels'][1] for g in games) / len(games):.2f}")


if __name__ == "__main__":
    main()
