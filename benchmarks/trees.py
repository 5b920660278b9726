"""Two source trees of damier side by side in one run, through the command line both have (ratios, not times).

    python benchmarks/trees.py --base PATH [--rounds 3] [--json]

PATH is another checkout of damier (e.g. ``git worktree add /tmp/base <commit>``). For each tree, alternating
round by round so both see the same machine: ``damier games`` start-up, the cold compile of Khet's kernels (a
fresh numba cache: ``damier perft khet --depth 1``, then the engine's ``isready``, which compiles its search),
Khet perft Classic depth 4 leaves per second (every leaf played), and the Khet engine's nodes per second at
``go depth 7`` from the Classic start. The best of the rounds is kept for each figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def run(tree: Path, args: list[str], stdin: str | None = None, cache: str | None = None) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "damier.cli", *args], input=stdin, capture_output=True, text=True,
                          env=env, check=False, cwd=tree)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{tree}: damier {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return seconds, done.stdout


def engine_nps(tree: Path, game: str, position: str, depth: int) -> float:
    """Nodes per second of the last ``info`` line of ``go depth`` (the kernels compiled first by ``isready``)."""
    _, out = run(tree, ["engine", game], stdin=f"isready\nposition {position}\ngo depth {depth}\n")
    infos = [line.split() for line in out.splitlines() if line.startswith("info time")]
    last = infos[-1]
    return float(last[last.index("nps") + 1])


def measure(tree: Path) -> dict[str, float]:
    out: dict[str, float] = {}
    out["games_startup_s"], _ = run(tree, ["games", "--json"])
    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        run(tree, ["perft", "khet", "--depth", "1"], cache=cache)
        run(tree, ["engine", "khet"], stdin="isready\n", cache=cache)
        out["cold_compile_s"] = time.perf_counter() - start
    _, text = run(tree, ["perft", "khet", "--depth", "4", "--json"])
    report = json.loads(text)
    if report["nodes"] != 34_065_081:
        raise SystemExit(f"{tree}: perft 4 = {report['nodes']}, expected 34,065,081")
    out["perft4_leaves_per_s"] = float(report["nps"])
    out["khet_engine_nps"] = engine_nps(tree, "khet", "standard", 7)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, required=True, help="another checkout of damier")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "this": HERE}
    best: dict[str, dict[str, float]] = {name: {} for name in trees}
    lower_is_better = {"games_startup_s", "cold_compile_s"}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            for key, value in measure(tree).items():
                old = best[name].get(key)
                better = old is None or (value < old if key in lower_is_better else value > old)
                best[name][key] = value if better else old  # type: ignore[assignment]
    ratios = {key: best["this"][key] / best["base"][key] for key in best["this"]}
    if args.json:
        print(json.dumps({"base": best["base"], "this": best["this"], "this_over_base": ratios}, indent=2))
        return
    print(f"{'figure':24} {'base':>16} {'this':>16} {'this/base':>10}")
    for key in best["this"]:
        print(f"{key:24} {best['base'][key]:16,.3f} {best['this'][key]:16,.3f} {ratios[key]:10.3f}")


if __name__ == "__main__":
    main()
