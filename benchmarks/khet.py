"""Khet 2.0 figures, measured side by side in one run (ratios; absolute times are context only).

    python benchmarks/khet.py [--depth 4] [--json] [--peer PATH] [--baseline DIR] [--repeat 3]

Prints: perft of the Classic start (every leaf played and its shot fired) and the same count with bulk
counting at the last ply; perft depth 2 with the JIT disabled (a subprocess) for the kernel/no-JIT ratio;
random playouts per second in the kernel and through the Python contract; the cold compile time of the Khet
kernels (fresh cache, a subprocess); the depth the engine completes from the Classic start in 1 s and in 5 s.

``--peer PATH`` also counts the same perft with the C++ engine Khet2-AI (github.com/AlexKent3141/Khet2-AI):
PATH is its source tree, and a small perft driver of ours over its ``Board`` and ``MoveGenerator`` (it has
no perft command of its own) is built with ``g++ -O3`` in a temporary folder; or PATH is such a driver already
built (``driver 'khet string' depth`` printing ``leaves seconds``). ``--baseline DIR`` also counts it with the
damier checkout in DIR (an older commit, in a subprocess). Ours, the baseline and the peer then run in turn,
``--repeat`` times each, and the best run of each is compared (the same leaves, every leaf played and fired);
with ``--peer``, the CPU time of each whole process too (``damier perft khet``, start-up included, and the peer's
driver).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import damier
from damier.ai.deepening import Deepening
from damier.games.khet import kernel
from damier.games.khet.search import Engine
from damier.games.khet.setup import setup_array

REPOSITORY = Path(__file__).resolve().parents[1]
PERFT_CLASSIC = {1: 77, 2: 5_920, 3: 451_859, 4: 34_065_081}


def perft(depth: int, bulk: bool, setup: str = "classic") -> dict[str, float]:
    s = setup_array(setup)
    divide = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
    kernel.perft(s, 1, bulk, False, True, 100, divide)  # compiled before timing
    started = time.perf_counter()
    nodes = kernel.perft(s, depth, bulk, False, True, 100, divide)
    seconds = time.perf_counter() - started
    if setup == "classic" and depth in PERFT_CLASSIC and nodes != PERFT_CLASSIC[depth]:
        raise SystemExit(f"perft {depth} = {nodes}, expected {PERFT_CLASSIC[depth]}: the move generator is wrong")
    return {"nodes": nodes, "seconds": round(seconds, 3), "nps": round(nodes / seconds)}


NO_JIT_SCRIPT = """
import time, numpy as np
from damier.games.khet import kernel, notation
from damier.games.khet.setup import setup_array
s = setup_array("classic"); d = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
t = time.perf_counter(); n = kernel.perft(s, 2, False, False, True, 100, d)
print(n, time.perf_counter() - t)
"""

COMPILE_SCRIPT = """
import time
t = time.perf_counter()
import damier
from damier.ai.deepening import Deepening
from damier.games.khet.search import Engine
g = damier.load("khet"); s = g.new_state(); s.play(s.legal_moves()[0]); s.events(); s.previews()
g.random_playouts(s, 1, 0); g.evaluate(s, 0); Deepening(Engine(tt_bits=12)).think(s, max_depth=2)
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
    engine = Deepening(Engine())
    engine.think(state, max_depth=2)  # compiled before timing
    engine.new_game()
    result = engine.think(state, seconds=seconds)
    return {"seconds": seconds, "depth": result.depth, "nodes": result.nodes,
            "nps": round(result.nodes / max(result.seconds, 1e-9)), "move": state.move_to_str(result.move)}


# ----- side by side with another perft: Khet2-AI (C++), or an older damier ---------------------------------

#: our perft driver over Khet2-AI's public classes (a position string and a depth in, "leaves seconds" out)
PEER_DRIVER = r"""
#include "core/Board.h"
#include "core/MoveGenerator.h"
#include "core/Zobrist.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

static long long perft(Board& board, int depth) {
    if (depth == 0) return 1;
    if (board.IsCheckmate()) return 0;
    MoveGenerator moves(board);
    long long leaves = 0;
    for (Move m = moves.Next(); m != NoMove; m = moves.Next()) {
        board.MakeMove(m);
        leaves += perft(board, depth - 1);
        board.UndoMove();
    }
    return leaves;
}

int main(int argc, char** argv) {
    if (argc != 3) { std::fprintf(stderr, "usage: perft 'khet string' depth\n"); return 2; }
    Zobrist::Initialise();
    Board board{std::string(argv[1])};
    auto start = std::chrono::steady_clock::now();
    long long leaves = perft(board, std::atoi(argv[2]));
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("%lld %.6f\n", leaves, took.count());
    return 0;
}
"""

#: Khet2-AI's letters for our kinds (upper case Silver); its facings are 1-4 for N, E, S, W, none for a Pharaoh
PEER_LETTERS = {kernel.SPHINX: "x", kernel.PHARAOH: "k", kernel.ANUBIS: "a", kernel.PYRAMID: "p", kernel.SCARAB: "s"}


def peer_position(setup: str) -> str:
    """Our setup in Khet2-AI's position notation: ranks 8 to 1, a piece as its letter and facing, empty squares
    counted, an empty rank left blank, then the side to move (0 Silver)."""
    s = setup_array(setup)
    ranks = []
    for rank in range(kernel.HEIGHT - 1, -1, -1):
        text, empty = "", 0
        for file in range(kernel.WIDTH):
            c = int(s[rank * kernel.WIDTH + file])
            if c == 0:
                empty += 1
                continue
            letter = PEER_LETTERS[c >> 3]
            text += (str(empty) if empty else "") + (letter.upper() if ((c >> 2) & 1) == kernel.SILVER else letter)
            text += "" if (c >> 3) == kernel.PHARAOH else str((c & 3) + 1)
            empty = 0
        ranks.append(text + (str(empty) if text and empty else ""))
    return "/".join(ranks) + f" {int(s[kernel.TO_MOVE])}"


def build_peer(path: Path, folder: Path) -> Path:
    """The perft driver: ``path`` itself when it is one, else ours built over the Khet2-AI sources in ``path``."""
    if path.is_file():
        return path
    core = path / "src" / "core"
    if not (core / "Board.h").is_file():
        raise SystemExit(f"--peer {path}: neither a perft driver nor a Khet2-AI source tree (no src/core/Board.h)")
    compiler = shutil.which("g++")
    if compiler is None:
        raise SystemExit("--peer needs g++ to build the Khet2-AI driver (apt-get install g++)")
    driver = folder / "perft.cpp"
    driver.write_text(PEER_DRIVER)
    exe = folder / "khet2ai-perft"
    sources = sorted(str(p) for p in core.glob("*.cpp"))
    subprocess.run([compiler, "-O3", "-std=c++14", f"-I{path / 'src'}", "-o", str(exe), str(driver), *sources,
                    "-pthread"], check=True)
    return exe


def peer_perft(exe: Path, position: str, depth: int) -> dict[str, float]:
    out = subprocess.run([str(exe), position, str(depth)], capture_output=True, text=True, check=True)
    nodes, seconds = out.stdout.split()
    return {"nodes": int(nodes), "seconds": round(float(seconds), 3), "nps": round(int(nodes) / float(seconds))}


BASELINE_SCRIPT = """
import sys, time, numpy as np
from damier.games.khet import kernel, notation
from damier.games.khet.setup import setup_array
s = setup_array(sys.argv[1]); d = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
kernel.perft(s, 1, False, False, True, 100, d)
t = time.perf_counter(); n = kernel.perft(s, int(sys.argv[2]), False, False, True, 100, d)
print(n, time.perf_counter() - t, kernel.__file__)
"""


def baseline_perft(checkout: Path, setup: str, depth: int) -> dict[str, Any]:
    """Our perft as the damier checkout in ``checkout`` counts it (its own kernels, in a subprocess)."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", BASELINE_SCRIPT, setup, str(depth)], env=env, cwd=checkout,
                         capture_output=True, text=True, check=True)
    nodes, seconds, where = out.stdout.split()
    if not Path(where).resolve().is_relative_to(checkout.resolve()):
        raise SystemExit(f"--baseline {checkout}: the subprocess imported damier from {where}")
    return {"nodes": int(nodes), "seconds": round(float(seconds), 3), "nps": round(int(nodes) / float(seconds))}


def process_cpu(command: list[str], cwd: Path | None = None) -> float:
    """The CPU seconds (user + system) a whole process takes, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, capture_output=True, check=True, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 3)


def side_by_side(depth: int, setup: str, repeat: int, peer: Path | None, baseline: Path | None) -> dict[str, Any]:
    """Ours, the baseline and the peer in turn, ``repeat`` times; the best run of each, and the ratios. With the
    peer, also the CPU time of the whole process of each (``damier perft khet`` and the peer's driver)."""
    contenders: dict[str, Any] = {"damier": lambda: perft(depth, bulk=False, setup=setup)}
    if baseline is not None:
        contenders["baseline"] = lambda: baseline_perft(baseline, setup, depth)
    processes: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        if peer is not None:
            exe = build_peer(peer, Path(folder))
            position = peer_position(setup)
            contenders["khet2ai"] = lambda: peer_perft(exe, position, depth)
            processes = {"damier": [sys.executable, "-m", "damier.cli", "perft", "khet", "--setup", setup,
                                    "--depth", str(depth)],
                         "khet2ai": [str(exe), position, str(depth)]}
        best: dict[str, dict[str, float]] = {}
        cpu: dict[str, float] = {}
        for _ in range(repeat):
            for name, run in contenders.items():
                result = run()
                if name in best and result["nodes"] != best[name]["nodes"]:
                    raise SystemExit(f"{name} counted {result['nodes']} then {best[name]['nodes']}")
                if name not in best or result["seconds"] < best[name]["seconds"]:
                    best[name] = result
            for name, command in processes.items():
                cpu[name] = min(cpu.get(name, float("inf")), process_cpu(command, REPOSITORY))
    counts = {name: r["nodes"] for name, r in best.items()}
    if len(set(counts.values())) != 1:
        raise SystemExit(f"perft {depth} of {setup}: the counts differ: {counts}")
    ours = best["damier"]["nps"]
    report = {"setup": setup, "depth": depth, "repeat": repeat, **best,
              **{f"damier_vs_{name}": round(ours / r["nps"], 2) for name, r in best.items() if name != "damier"}}
    if cpu:
        report["process_cpu_seconds"] = cpu
        report["process_damier_vs_khet2ai"] = round(cpu["khet2ai"] / cpu["damier"], 2)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=4, help="perft depth (4 = 34,065,081 leaves)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout measurement")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--peer", type=Path, help="Khet2-AI's source tree (or a perft driver built over it)")
    parser.add_argument("--baseline", type=Path, help="another damier checkout whose perft runs beside ours")
    parser.add_argument("--setup", default="classic", help="the setup of the side-by-side perft")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side-by-side perft (the best counts)")
    parser.add_argument("--only-perft", action="store_true", help="only the side-by-side perft")
    args = parser.parse_args()
    if args.peer is not None or args.baseline is not None or args.only_perft:
        compared = side_by_side(args.depth, args.setup, args.repeat, args.peer, args.baseline)
        if args.only_perft:
            print(json.dumps(compared, indent=2) if args.json else side_by_side_text(compared))
            return
    else:
        compared = None
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
    if compared is not None:
        report["side_by_side"] = compared
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
    if compared is not None:
        print(side_by_side_text(compared))


def side_by_side_text(compared: dict[str, Any]) -> str:
    lines = [f"perft {compared['setup']} depth {compared['depth']} side by side (best of {compared['repeat']}, "
             f"every leaf played and fired):"]
    for name in ("damier", "baseline", "khet2ai"):
        if name in compared:
            r = compared[name]
            ratio = "" if name == "damier" else f"  (damier is {compared[f'damier_vs_{name}']}x this)"
            lines.append(f"  {name:9} {r['nodes']:,} leaves in {r['seconds']} s = {r['nps'] / 1e6:.2f} M leaves/s"
                         f"{ratio}")
    if "process_cpu_seconds" in compared:
        cpu = compared["process_cpu_seconds"]
        lines.append(f"  whole processes, start-up included (CPU seconds, best of {compared['repeat']}): "
                     f"damier perft khet {cpu['damier']} s, Khet2-AI's driver {cpu['khet2ai']} s "
                     f"(damier is {compared['process_damier_vs_khet2ai']}x)")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
