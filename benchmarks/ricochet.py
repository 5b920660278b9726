"""Ricochet Robots solver figures, measured side by side in one run (ratios; absolute times are context only).

    python benchmarks/ricochet.py [--puzzles 1000] [--reference 40] [--seed 1] [--no-hard] [--json]

Prints:

- ``damier solve ricochet`` on an easy puzzle as a user runs it (a subprocess), with a fresh ``NUMBA_CACHE_DIR``
  (the kernels compiled) and again with that cache warm;
- the hardest known puzzles (DriftingDroids game ids ``7650+42+E2302B12+C9``, 25 moves, and
  ``0765+42+2E21BD0F+93``, 24 moves), each solved in a fresh process on the warm cache: the optimal length, the
  solve's seconds, positions expanded, and the process's peak memory;
- one optimal solve (``search.solve``: the search, the line traced back and replayed through the rules) over a
  seeded set of random puzzles as ``game.new_state(seed)`` draws them (no 0- or 1-move puzzles), for each option
  set side by side: the default 4 robots, the strict and if_trivial ricochet rules, no rebounds, the silver
  robot, the transparent robot (weighted moves), five robots under the strict rule without rebounds; median,
  mean, 90th percentile and slowest milliseconds, and the optimal lengths of the default set;
- the naive uniform-cost search of the tests (``tests/games/ricochet/test_solver.py``: plain Python over
  ``RicochetState``) on positions a few moves from their goal, the same answers checked, and the ratio of its mean
  time to ours.

The issue's goals: each hard puzzle under 10 s and 2 GiB; random 4-robot puzzles: median under 0.5 ms, mean under
15 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' reference, run from anywhere

import damier
from damier.games.ricochet import search
from damier.games.ricochet.rules import RicochetState
from tests.games.ricochet.test_solver import naive_cost, near_goal

HARD = {"7650+42+E2302B12+C9": 25, "0765+42+2E21BD0F+93": 24}
EASY = "1A2A3A4A.0F00F0FF.v"
#: the option sets of the random puzzles, side by side
MIXES: dict[str, dict[str, Any]] = {
    "default": {},
    "strict": {"ricochet": "strict"},
    "if_trivial": {"ricochet": "if_trivial"},
    "no rebound": {"rebound": False},
    "silver": {"silver": True},
    "transparent": {"transparent": True},
    "silver strict no rebound": {"silver": True, "ricochet": "strict", "rebound": False},
}
#: a hard puzzle solved in a fresh process: its answer and the peak memory, as JSON
CHILD = """
import json, resource, sys, time
from damier.games.ricochet import search
state = search.puzzle_state(sys.argv[1], {})
started = time.perf_counter()
found = search.solve(state)
seconds = time.perf_counter() - started
print(json.dumps({"length": found.cost, "seconds": round(seconds, 3), "nodes": found.nodes,
                  "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}))
"""


def command(cache: str) -> dict[str, Any]:
    """``damier solve ricochet --puzzle EASY --json`` in a fresh interpreter on the numba cache ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "damier.cli", "solve", "ricochet", "--puzzle", EASY, "--json"],
                          env=env, capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    return {"command_s": round(time.perf_counter() - started, 3), "solve_s": report["seconds"]}


def compile_figures() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as cache:
        return {"cold_cache": command(cache), "warm_cache": command(cache)}


def hard_figures() -> dict[str, Any]:
    search.solve(search.puzzle_state(EASY, {}))  # the cache warm for the children
    out = {}
    for puzzle, length in HARD.items():
        done = subprocess.run([sys.executable, "-c", CHILD, puzzle], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parents[1])
        report = json.loads(done.stdout)
        assert report["length"] == length, report
        out[puzzle] = report
    return out


def milliseconds(states: list[RicochetState]) -> tuple[list[float], list[int]]:
    times, lengths = [], []
    for state in states:
        started = time.perf_counter_ns()
        found = search.solve(state)
        times.append((time.perf_counter_ns() - started) / 1e6)
        lengths.append(found.cost)
    return times, lengths


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(times), 3), "mean_ms": round(statistics.fmean(times), 3),
            "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 3), "max_ms": round(ordered[-1], 1)}


def random_figures(count: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, options in MIXES.items():
        game = damier.load("ricochet", **options)
        states = []
        for i in range(count):
            state = game.new_state(seed * 1_000_000 + i)
            assert isinstance(state, RicochetState)
            states.append(state)
        milliseconds(states[:10])  # warm-up: compiled (or loaded from the cache), the board tables built
        times, lengths = milliseconds(states)
        out[name] = {"puzzles": count, **summary(times)}
        if name == "default":
            out[name]["optimal_lengths"] = {n: lengths.count(n) for n in sorted(set(lengths))}
    return out


def reference_figures(count: int, seed: int) -> dict[str, Any]:
    cases = [near_goal(MIXES[name], seed * 1000 + i, 4, 0, False) for i in range(count)
             for name in ("default", "strict", "transparent")]
    ours, naive = [], []
    for state in cases:
        started = time.perf_counter_ns()
        found = search.solve(state)
        ours.append((time.perf_counter_ns() - started) / 1e6)
        started = time.perf_counter_ns()
        expected = naive_cost(state, 4)
        naive.append((time.perf_counter_ns() - started) / 1e6)
        assert expected == found.cost, state.position()
    return {"positions": len(cases), "ours": summary(ours), "naive": summary(naive),
            "ratio_naive_over_ours": round(statistics.fmean(naive) / statistics.fmean(ours), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", type=int, default=1000, help="Random puzzles per option set (default 1000).")
    parser.add_argument("--reference", type=int, default=40,
                        help="Positions per option set (default, strict, transparent) for the naive search.")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the puzzle sets.")
    parser.add_argument("--no-hard", action="store_true", help="Leave out the hardest puzzles.")
    parser.add_argument("--json", action="store_true", help="Print JSON only.")
    args = parser.parse_args()
    report: dict[str, Any] = {"compile": compile_figures()}
    if not args.no_hard:
        report["hard"] = hard_figures()
    report["random"] = random_figures(args.puzzles, args.seed)
    report["reference"] = reference_figures(args.reference, args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    cold, warm = report["compile"]["cold_cache"], report["compile"]["warm_cache"]
    print(f"damier solve ricochet --puzzle {EASY}: fresh cache {cold['command_s']} s (solve {cold['solve_s']} s, "
          f"compile included); warm cache {warm['command_s']} s (solve {warm['solve_s']} s)")
    for puzzle, figures in report.get("hard", {}).items():
        print(f"{puzzle}: {figures['length']} moves in {figures['seconds']} s, {figures['nodes']:,} positions "
              f"expanded, peak memory {figures['peak_mib']} MiB")
    for name, figures in report["random"].items():
        print(f"{figures['puzzles']} random puzzles, {name}: median {figures['median_ms']} ms, mean "
              f"{figures['mean_ms']} ms, 90% {figures['p90_ms']} ms, slowest {figures['max_ms']} ms")
    print(f"  optimal lengths (default): {report['random']['default']['optimal_lengths']}")
    ref = report["reference"]
    print(f"naive search of the tests on {ref['positions']} positions 4 moves or less from the goal: mean "
          f"{ref['naive']['mean_ms']} ms against {ref['ours']['mean_ms']} ms; ratio {ref['ratio_naive_over_ours']}x")


if __name__ == "__main__":
    main()
