"""Micro Robots figures, measured side by side in one run (ratios; absolute times are context only).

    python benchmarks/micro.py [--puzzles 1000] [--reference 100] [--seed 1] [--json]

Prints:

- ``damier micro stats`` for both sides: every arrangement's diameter and the optimal-length distribution over all
  7,741,440 puzzles of a side, timed as a user runs the command (a subprocess) with a fresh ``NUMBA_CACHE_DIR``
  (compile included), then again with that cache warm, and in this process once compiled;
- one puzzle answer after warm-up, over a seeded set of puzzles (sides A and B, random boards, expert waypoints
  with either rule): ``analyse`` (the shortest length, the number of shortest lines, one line) with a line of
  exactly k moves for one k drawn from 1 to 20 (``damier solve --exact K``), and the same with every k from 1 to
  20 asked in turn; median and mean microseconds per puzzle;
- the naive reference of the tests (``tests/games/micro/reference.py``: plain Python, breadth-first search,
  counting place by place) answering the same questions (length, count, which k up to 20 are possible) on the
  first ``--reference`` puzzles, and the ratio of its mean time to ours on those puzzles.

The issue's goals: stats under 5 s compile included; one answer under 1 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' reference, run from anywhere

import damier
from damier.games.micro import commands, search, setup
from damier.games.micro.rules import MicroState
from tests.games.micro import reference

#: the option sets the puzzles are drawn from, in turn
MIXES: tuple[dict[str, Any], ...] = (
    {"board": "A"},
    {"board": "B"},
    {"board": "random"},
    {"board": "A", "expert": True},
    {"board": "B", "expert": True, "waypoint_pass": True},
)
LONGEST_K = 20


def stats_command(side: str, cache: str) -> dict[str, float]:
    """``damier micro stats --side SIDE --json`` in a fresh interpreter on the numba cache ``cache``: the wall
    time of the command and the seconds it reports (the statistics, compile or cache load included)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "damier.cli", "micro", "stats", "--side", side, "--json"],
                          env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    report = json.loads(done.stdout)
    assert report["disconnected"] == 0, report
    return {"command_s": round(wall, 3), "statistics_s": report["seconds"]}


def stats_figures() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for side in setup.SIDES:
        with tempfile.TemporaryDirectory() as cache:
            cold = stats_command(side, cache)
            warm = stats_command(side, cache)
        commands.side_statistics(side)  # compiled in this process
        in_process = commands.side_statistics(side)["seconds"]
        out[side] = {"cold_cache": cold, "warm_cache": warm, "in_process_s": in_process}
    return out


def puzzles(count: int, seed: int) -> list[tuple[MicroState, int]]:
    """``count`` puzzles drawn by seed, cycling through ``MIXES``, each with a k drawn from 1 to 20."""
    rng = random.Random(seed)
    games = [damier.load("micro", **options) for options in MIXES]
    out = []
    for i in range(count):
        state = games[i % len(games)].new_state(rng.randrange(10**9))
        assert isinstance(state, MicroState)
        out.append((state, rng.randint(1, LONGEST_K)))
    return out


def answer(state: MicroState, k: int) -> dict[str, Any]:
    return search.analyse(state, exact=k)


def answer_every_k(state: MicroState, k: int) -> list[int]:
    search.analyse(state)
    return [j for j in range(1, LONGEST_K + 1) if search.path_of_length(state, j) is not None]


def reference_answer(state: MicroState, k: int) -> list[int]:
    puzzle = state.puzzle
    ref = reference.Puzzle([setup.square_text(int(c)) for c in puzzle.board], puzzle.start, puzzle.target,
                           puzzle.waypoint, state.game.waypoint_pass)
    length = ref.shortest()
    if length is not None:
        ref.count(length)
    return ref.exact_lengths(LONGEST_K)


def microseconds(function: Any, cases: list[tuple[MicroState, int]]) -> list[float]:
    times = []
    for state, k in cases:
        started = time.perf_counter_ns()
        function(state, k)
        times.append((time.perf_counter_ns() - started) / 1000)
    return times


def summary(times: list[float]) -> dict[str, float]:
    return {"median_us": round(statistics.median(times), 1), "mean_us": round(statistics.fmean(times), 1)}


def answer_figures(count: int, sample: int, seed: int) -> dict[str, Any]:
    cases = puzzles(count, seed)
    for state, k in cases[:20]:  # warm-up: compiled (or loaded from the cache) before timing
        answer(state, k)
        answer_every_k(state, k)
    ours = microseconds(answer, cases)
    every_k = microseconds(answer_every_k, cases)
    head = cases[:sample]
    assert all(answer_every_k(s, k) == reference_answer(s, k) for s, k in head)  # the same answers
    naive = microseconds(reference_answer, head)
    return {
        "puzzles": count,
        "answer_one_k": summary(ours),
        "answer_every_k_to_20": summary(every_k),
        "reference_every_k_to_20": {"puzzles": len(head), **summary(naive)},
        "ratio_reference_over_ours": round(statistics.fmean(naive) / statistics.fmean(every_k[:sample]), 1),
        "optimal_lengths": dict(sorted(_lengths(cases).items())),
    }


def _lengths(cases: list[tuple[MicroState, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for state, _ in cases:
        solution = search.solve(state)
        out[solution.cost] = out.get(solution.cost, 0) + 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", type=int, default=1000, help="Puzzles answered (default 1000).")
    parser.add_argument("--reference", type=int, default=100, help="Of these, answered by the reference too.")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the puzzle set.")
    parser.add_argument("--json", action="store_true", help="Print JSON only.")
    args = parser.parse_args()
    report = {"stats": stats_figures(), "answer": answer_figures(args.puzzles, args.reference, args.seed)}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for side, figures in report["stats"].items():
        print(f"damier micro stats --side {side}: fresh cache {figures['cold_cache']['command_s']} s "
              f"(statistics {figures['cold_cache']['statistics_s']} s, compile included); warm cache "
              f"{figures['warm_cache']['command_s']} s (statistics {figures['warm_cache']['statistics_s']} s); "
              f"in process {figures['in_process_s']} s")
    ans = report["answer"]
    one, every, naive = ans["answer_one_k"], ans["answer_every_k_to_20"], ans["reference_every_k_to_20"]
    print(f"one answer over {ans['puzzles']} puzzles: length, count, a line and exactly k (one k in 1..20): "
          f"median {one['median_us']} us, mean {one['mean_us']} us")
    print(f"  with every k from 1 to 20: median {every['median_us']} us, mean {every['mean_us']} us")
    print(f"  naive reference on {naive['puzzles']} of them: median {naive['median_us']} us, mean "
          f"{naive['mean_us']} us; ratio {ans['ratio_reference_over_ours']}x")
    print(f"  optimal lengths of the puzzle set: {ans['optimal_lengths']}")


if __name__ == "__main__":
    main()
