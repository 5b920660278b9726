"""Khet 2.0 figures, measured side by side in one run (ratios; absolute times are context only).

    python benchmarks/khet.py [--depth 4] [--json]

Prints: perft of the Classic start (every leaf played and its shot fired) and the same count with bulk
counting at the last ply; perft depth 2 with the JIT disabled (a subprocess) for the kernel/no-JIT ratio;
random playouts per second in the kernel and through the Python contract; the cold compile time of the Khet
kernels (fresh cache, a subprocess); the depth the engine completes from the Classic start in 1 s and in 5 s.
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
from typing import Any

import numpy as np

import damier
from damier.games.khet import kernel, notation
from damier.games.khet.search import Engine

PERFT_CLASSIC = {1: 77, 2: 5_920, 3: 451_859, 4: 34_065_081}


def perft(depth: int, bulk: bool) -> dict[str, float]:
    s = notation.setup_array("classic")
    divide = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
    kernel.perft(s, 1, bulk, False, True, 100, divide)  # compiled before timing
    started = time.perf_counter()
    nodes = kernel.perft(s, depth, bulk, False, True, 100, divide)
    seconds = time.perf_counter() - started
    if depth in PERFT_CLASSIC and nodes != PERFT_CLASSIC[depth]:
        raise SystemExit(f"perft {depth} = {nodes}, expected {PERFT_CLASSIC[depth]}: the move generator is wrong")
    return {"nodes": nodes, "seconds": round(seconds, 3), "nps": round(nodes / seconds)}


NO_JIT_SCRIPT = """
import time, numpy as np
from damier.games.khet import kernel, notation
s = notation.setup_array("classic"); d = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
t = time.perf_counter(); n = kernel.perft(s, 2, False, False, True, 100, d)
print(n, time.perf_counter() - t)
"""

COMPILE_SCRIPT = """
import time
t = time.perf_counter()
import damier
from damier.games.khet.search import Engine
g = damier.load("khet"); s = g.new_state(); s.play(s.legal_moves()[0]); s.events(); s.previews()
g.random_playouts(s, 1, 0); g.evaluate(s, 0); Engine(tt_bits=12).think(s, max_depth=2)
print(time.perf_counter() - t)
"""


def no_jit_perft() -> dict[str, float]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", NO_JIT_SCRIPT], env=env, capture_output=True, text=True, check=True)
    nodes, seconds = out.stdout.split()
    return {"nodes": int(nodes), "seconds": round(float(seconds), 3), "nps": round(int(nodes) / float(seconds))}


def cold_compile_seconds() -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT], env=env, capture_output=True, text=True,
                             check=True)
    return round(float(out.stdout.strip()), 2)


def playouts(seconds: float) -> dict[str, float]:
    game = damier.load("khet")
    state = game.new_state()
    game.random_playouts(state, 10, 0)
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        game.random_playouts(state, 500, count)
        count += 500
    kernel_rate = count / (time.perf_counter() - started)
    rng = random.Random(1)
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        scratch = game.new_state()
        while not scratch.is_over():
            scratch.play(rng.choice(scratch.legal_moves()))
        count += 1
    contract_rate = count / (time.perf_counter() - started)
    return {"kernel_per_s": round(kernel_rate), "contract_per_s": round(contract_rate, 1),
            "ratio": round(kernel_rate / contract_rate, 1)}


def engine_depth(seconds: float) -> dict[str, Any]:
    state = damier.load("khet").new_state()
    engine = Engine()
    engine.think(state, max_depth=2)  # compiled before timing
    engine.new_game()
    result = engine.think(state, seconds=seconds)
    return {"seconds": seconds, "depth": result.depth, "nodes": result.nodes,
            "nps": round(result.nodes / max(result.seconds, 1e-9)), "move": state.move_to_str(result.move)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=4, help="perft depth (4 = 34,065,081 leaves)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout measurement")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    full = perft(args.depth, bulk=False)
    bulk = perft(args.depth, bulk=True)
    slow = no_jit_perft()
    small = perft(2, bulk=False)
    report = {
        "perft": full,
        "perft_bulk": bulk,
        "perft_depth2_jit": small,
        "perft_depth2_no_jit": slow,
        "jit_ratio": round(full["nps"] / slow["nps"], 1),
        "playouts": playouts(args.seconds),
        "cold_compile_seconds": cold_compile_seconds(),
        "engine_1s": engine_depth(1.0),
        "engine_5s": engine_depth(5.0),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"perft classic depth {args.depth}: {full['nodes']:,} leaves in {full['seconds']} s = "
          f"{full['nps'] / 1e6:.1f} M leaves/s (every leaf played and fired)")
    print(f"  bulk counting at the last ply: {bulk['nps'] / 1e6:.1f} M leaves/s")
    print(f"  JIT disabled (depth 2): {slow['nps']:,} leaves/s; the kernel is {report['jit_ratio']}x faster")
    p = report["playouts"]
    print(f"random playouts from the start: {p['kernel_per_s']:,}/s in the kernel, {p['contract_per_s']}/s "
          f"through the Python contract ({p['ratio']}x)")
    print(f"cold compile of the Khet kernels: {report['cold_compile_seconds']} s")
    for key in ("engine_1s", "engine_5s"):
        e = report[key]
        print(f"engine from the Classic start in {e['seconds']:.0f} s: depth {e['depth']}, {e['nodes']:,} nodes, "
              f"{e['nps']:,} nodes/s, plays {e['move']}")


if __name__ == "__main__":
    main()
