"""What a move costs at short times: depth reached, nodes, nodes per second and the time outside the kernel search.

    python benchmarks/search_cost.py [--game atoms] [--opt rows=9 --opt cols=6] [--budgets 0.01 0.03 0.1]
        [--positions 40] [--seed 1] [--eval strong] [--baseline DIR] [--json]

For each budget (seconds a move), the one iterative-deepening driver over the game's kernel search
(``damier.ai.deepening.Deepening``, what ``AlphaBetaAgent(time_limit=...)`` and the levels think with) chooses a
move in each of ``--positions`` positions reached by seeded random play, one driver through all of them as in a
game (its tables kept between moves).
Reported per budget: the mean depth completed, nodes a move, nodes per second (all nodes over all wall time),
the mean wall time of a move, and the share of it spent outside the kernel's depth searches (the driver,
alarms, bookkeeping between depths).

``--baseline DIR`` runs the same measurement, in a subprocess, on another checkout of damier (a ``git worktree``
of an earlier commit, say) on the same positions, and prints both side by side with the ratios: before and
after in one run, on one machine under one load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import damier
from damier.ai.alphabeta import fixed_depth_search
from damier.ai.deepening import Deepening
from damier.core.game import Iteration, State


class TimedSearch:
    """A fixed-depth search that counts the seconds spent inside its ``search`` calls."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.partial_moves = getattr(inner, "partial_moves", False)

    def new_game(self) -> None:
        self.inner.new_game()

    def new_search(self, state: State) -> None:
        self.inner.new_search(state)

    def stop(self) -> None:
        self.inner.stop()

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        started = time.perf_counter()
        try:
            found: Iteration = self.inner.search(state, depth, node_limit, evaluation)
            return found
        finally:
            self.seconds += time.perf_counter() - started


def positions(game: damier.Game, count: int, seed: int) -> list[State]:
    """``count`` positions with a choice to make, after 2 to 30 seeded random plies."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_state(seed=rng.randrange(2**31))
        for _ in range(rng.randrange(2, 31)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_over() and state.player >= 0 and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def measure(game: damier.Game, states: list[State], budget: float, evaluation: str | None) -> dict[str, float]:
    timed = TimedSearch(fixed_depth_search(game))
    driver = Deepening(timed)  # what AlphaBetaAgent(time_limit=budget) thinks with
    driver.think(states[0], max_depth=2, evaluation=evaluation)  # compiles or loads the kernel
    driver.new_game()
    timed.seconds = 0.0
    depths, nodes, walls = [], [], []
    for state in states:
        started = time.perf_counter()
        found = driver.think(state, seconds=budget, evaluation=evaluation)
        walls.append(time.perf_counter() - started)
        depths.append(found.depth)
        nodes.append(found.nodes)
    wall = sum(walls)
    return {"budget": budget, "depth": round(statistics.fmean(depths), 2),
            "nodes": round(statistics.fmean(nodes)), "nps": round(sum(nodes) / wall),
            "ms": round(1000 * statistics.fmean(walls), 2), "outside": round(1 - timed.seconds / wall, 3)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    options = dict(item.split("=", 1) for item in args.opt)
    game = damier.load(args.game, **options)
    states = positions(game, args.positions, args.seed)
    return {"damier": str(Path(damier.__file__).resolve().parents[1]),
            "rows": [measure(game, states, budget, args.eval) for budget in args.budgets]}


def baseline(args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, __file__, "--game", args.game, "--positions", str(args.positions),
               "--seed", str(args.seed), "--json", "--budgets", *map(str, args.budgets)]
    for item in args.opt:
        command += ["--opt", item]
    if args.eval:
        command += ["--eval", args.eval]
    env = dict(os.environ, PYTHONPATH=str(Path(args.baseline).resolve()))
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="atoms")
    parser.add_argument("--opt", action="append", default=[], help="a game option, NAME=VALUE (repeatable)")
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.01, 0.03, 0.1])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval", default=None, help="the evaluation (the game's first when not given)")
    parser.add_argument("--baseline", help="another damier checkout, measured on the same positions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    before = baseline(args) if args.baseline else None
    after = run(args)
    if args.json:
        print(json.dumps(after if before is None else {"before": before, "after": after}))
        return
    print(f"{args.game} {' '.join(args.opt)}: {args.positions} positions (seed {args.seed}), eval {args.eval}")
    header = "budget  depth  nodes/move  nodes/s   ms/move  outside the kernel"
    for title, result in (("before", before), ("after", after)):
        if result is None:
            continue
        print(f"{title}: {result['damier']}\n  {header}")
        for row in result["rows"]:
            print(f"  {row['budget']:<6}  {row['depth']:<5}  {row['nodes']:<10}  {row['nps']:<8}  "
                  f"{row['ms']:<7}  {100 * row['outside']:.1f}%")
    if before is not None:
        print("after / before:")
        for old, new in zip(before["rows"], after["rows"], strict=True):
            print(f"  {new['budget']:<6}  depth {new['depth'] - old['depth']:+.2f}, nodes/move "
                  f"{new['nodes'] / max(old['nodes'], 1):.2f}x, nodes/s {new['nps'] / max(old['nps'], 1):.2f}x")


if __name__ == "__main__":
    main()
