"""Exploding Atoms figures, measured side by side in one run (ratios; absolute times are context only).

    python benchmarks/atoms.py [--seconds 3]

Prints: random playouts per second through the numba kernel, through the Python contract (State.play),
and with the JIT disabled; the cold compile time of the Atoms kernels (fresh cache, a subprocess); the
start-up of `damier games` and the first board of `damier play` with a warm cache; the alpha-beta depth
reached in 1 s from the start and from a middle-game position.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import damier
from damier.agents import make_agent
from damier.cli import measure_playouts


def contract_playouts_per_s(seconds: float) -> float:
    """Random games per second through the Python facade (legal_moves + play), for comparison."""
    game = damier.load("atoms")
    rng = random.Random(1)
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_state()
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
        count += 1
    return count / (time.perf_counter() - started)


COMPILE_SCRIPT = """
import time
t = time.perf_counter()
import damier
g = damier.load("atoms"); s = g.new_state(); s.play(0); s.legal_moves(); s.events()
g.random_playouts(s, 1, 0); g.evaluate(s, 0); g.search(s, 2, 10**9, "classic", g.new_search())
print(time.perf_counter() - t)
"""


def cold_compile_seconds() -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT], env=env, capture_output=True, text=True,
                             check=True)
    return float(out.stdout.strip())


def command_seconds(args: list[str], stdin: str = "") -> float:
    started = time.perf_counter()
    subprocess.run(args, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - started


def depth_in(seconds: float, plies: int) -> dict[str, float]:
    game = damier.load("atoms")
    state = game.new_state()
    rng = random.Random(5)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    agent = make_agent(f"alphabeta:time={seconds},eval=strong", game)
    agent.choose(state)
    return {"depth": agent.info.depth, "nodes_per_s": round(agent.info.nodes / agent.info.seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    game = damier.load("atoms")
    kernel = measure_playouts(game, args.seconds)
    contract = contract_playouts_per_s(args.seconds)
    nojit_env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    nojit = float(subprocess.run([sys.executable, "-m", "damier.cli", "_bench-once", "atoms", "--seconds",
                                  str(args.seconds)], env=nojit_env, capture_output=True, text=True,
                                 check=True).stdout)
    damier_cmd = [sys.executable, "-m", "damier.cli"]
    command_seconds([*damier_cmd, "play", "atoms"], stdin="")  # warm the cache
    report = {
        "playouts_per_s": {"kernel": round(kernel), "python_contract": round(contract, 1),
                           "nojit": round(nojit, 2)},
        "ratios": {"kernel_over_contract": round(kernel / contract, 1), "kernel_over_nojit": round(kernel / nojit)},
        "cold_compile_s": round(cold_compile_seconds(), 2),
        "damier_games_s": round(command_seconds([*damier_cmd, "games"]), 2),
        "play_first_board_warm_s": round(command_seconds([*damier_cmd, "play", "atoms"], stdin=""), 2),
        "alphabeta_1s_start": depth_in(1.0, 0),
        "alphabeta_1s_midgame": depth_in(1.0, 30),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
