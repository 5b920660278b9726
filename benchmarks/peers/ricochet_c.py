"""damier's Ricochet Robots solver against Michael Fogleman's C solver (github.com/fogleman/Ricochet), side by side.

    python benchmarks/peers/ricochet_c.py --peer PEER_DIR [--puzzles 200] [--seed 1] [--no-hard] [--json]

PEER_DIR is a checkout of fogleman/Ricochet, outside this repository, whose shared library ``_ricochet`` was built
as its README says; this script only loads it (ctypes) and calls its ``search``. Each puzzle goes to both solvers
in the same run: the hardest known puzzles (DriftingDroids game ids ``7650+42+E2302B12+C9``, 25 moves, and
``0765+42+2E21BD0F+93``, 24 moves), then the default-rule random puzzles ``game.new_state(seed * 1_000_000 + i)``
(the set of ``benchmarks/ricochet.py``). Both lengths must agree; a disagreement is printed loudly with both lines
replayed through damier's rules (which line is legal and reaches the target says which solver is wrong), and the
exit code is 1. The peer's line is replayed every time: its length agreeing is not enough, it must solve the
puzzle under damier's rules.

What the peer expresses, read from its ``ricochet.c``: four robots, the one in slot 0 must reach the target cell
(so the target's robot goes to slot 0 and the other three are interchangeable, as in damier's default rules); no
vortex (any robot) target, no silver or transparent robot, no ricochet rule. Vortex puzzles are skipped and
counted. Its board is damier's exactly: cell ``y * 16 + x`` (x east, y south), walls ``N=1 E=2 S=4 W=8`` on both
cells, the edge and the centre block walled, plus ``0x10`` on a robot's cell. Its search never moves a robot
straight back at once (damier's ``rebound=false``), where damier's default allows it. That changes no optimal
length under the default rules: a robot that moved from A to B and goes straight back slides through A and stops
where the same move from A would have stopped (nothing else moved), so the two moves can be replaced by the
second alone made from A (or by none, if it stops at A): a shorter line to the same position.

Times: the peer's ``search`` call alone (its per-target bound table and its hash set included); damier's
``search.solve`` (setup, search, the line traced back and replayed through the rules), after a warm-up solve.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # damier from this checkout, run from anywhere

import damier
from damier.core.game import Termination
from damier.games.ricochet import notation, search, setup
from damier.games.ricochet.rules import RicochetState, move_of

HARD = {"7650+42+E2302B12+C9": 25, "0765+42+2E21BD0F+93": 24}
WARM_UP = "1A2A3A4A.0F00F0FF.rc"
ROBOT = 0x10
#: the peer's direction bits N, E, S, W, in damier's direction order
PEER_BITS = (1, 2, 4, 8)


class PeerGame(ctypes.Structure):
    """The peer's ``Game``: walls and robot bits per cell, its bound table, the robots (slot 0 finishes), the target
    cell and the last move."""

    _fields_ = [("grid", ctypes.c_uint * 256), ("moves", ctypes.c_uint * 256), ("robots", ctypes.c_uint * 4),
                ("token", ctypes.c_uint), ("last", ctypes.c_uint)]


def load_peer(folder: Path) -> tuple[ctypes.CDLL, str]:
    """The peer's library and a sha256 of its ``ricochet.c`` (which code was measured)."""
    library, source = folder / "_ricochet", folder / "ricochet.c"
    if not library.is_file() or not source.is_file():
        raise SystemExit(f"{folder} has no _ricochet and ricochet.c: check out fogleman/Ricochet there and build its "
                         f"library as its README says")
    dll = ctypes.CDLL(str(library.resolve()))
    dll.search.argtypes = [ctypes.POINTER(PeerGame), ctypes.c_char_p, ctypes.c_void_p]
    dll.search.restype = ctypes.c_uint
    return dll, hashlib.sha256(source.read_bytes()).hexdigest()[:16]


def peer_slots(state: RicochetState) -> list[int] | None:
    """damier's robot in each of the peer's slots (the target's robot first), or None if the peer cannot express
    the puzzle."""
    puzzle = state.puzzle
    if (puzzle.target.shape == "vortex" or puzzle.silver or puzzle.transparent or puzzle.ricochet != "off"
            or state.cost):
        return None
    robot = notation.ROBOT_NAMES.index(puzzle.target.colour)
    return [robot] + [r for r in range(4) if r != robot]


def peer_solve(dll: ctypes.CDLL, state: RicochetState, slots: list[int]) -> tuple[float, list[int]]:
    """The peer's seconds and its line as damier's moves."""
    game = PeerGame()
    walls = state.puzzle.board.walls
    for cell in range(setup.CELLS):
        game.grid[cell] = int(walls[cell])
    for slot, robot in enumerate(slots):
        cell = int(state.puzzle.robots[robot])
        game.robots[slot] = cell
        game.grid[cell] |= ROBOT
    game.token, game.last = state.puzzle.target.cell, 0
    path = ctypes.create_string_buffer(64)
    started = time.perf_counter()
    length = dll.search(ctypes.byref(game), path, None)
    seconds = time.perf_counter() - started
    line = [move_of(slots[code >> 4], PEER_BITS.index(code & 0x0F)) for code in path.raw[:length]]
    return seconds, line


def replay(state: RicochetState, line: list[int]) -> str:
    """What damier's rules say of a line: ``solves in N``, or where it breaks."""
    trial = state.game.state_from_position(notation.puzzle_id(state.puzzle))
    assert isinstance(trial, RicochetState)
    for i, move in enumerate(line):
        if not trial.is_legal(move):
            return f"illegal at move {i + 1} ({trial.move_to_str(move)})"
        trial.play(move)
    outcome = trial.outcome()
    solved = outcome is not None and outcome.termination is Termination.SOLVED
    return f"solves in {len(line)}" if solved else "does not reach the target"


def compare(dll: ctypes.CDLL, state: RicochetState, slots: list[int]) -> dict[str, Any]:
    """Both solvers on one puzzle: lengths, seconds, and a disagreement's replays."""
    started = time.perf_counter()
    found = search.solve(state)
    ours_s = time.perf_counter() - started
    peer_s, line = peer_solve(dll, state, slots)
    peer_replay = replay(state, line)
    out: dict[str, Any] = {"id": notation.puzzle_id(state.puzzle), "ours": found.cost, "peer": len(line),
                           "ours_s": ours_s, "peer_s": peer_s, "agree": found.cost == len(line) and
                           peer_replay == f"solves in {len(line)}"}
    if not out["agree"]:
        out["ours_line"] = f"{' '.join(map(state.move_to_str, found.moves))}: {replay(state, list(found.moves))}"
        out["peer_line"] = f"{' '.join(map(state.move_to_str, line))}: {peer_replay}"
        print(f"!!! DISAGREEMENT on {out['id']}: damier {found.cost}, peer {len(line)}\n"
              f"    damier: {out['ours_line']}\n    peer:   {out['peer_line']}", file=sys.stderr)
    return out


def summary(times_s: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times_s)
    return {"min_ms": round(ms[0], 3), "median_ms": round(statistics.median(ms), 3),
            "mean_ms": round(statistics.fmean(ms), 3), "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 3),
            "max_ms": round(ms[-1], 1)}


def random_figures(dll: ctypes.CDLL, count: int, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Both solvers on the default-rule puzzles ``new_state(seed * 1_000_000 + i)``: the figures, each result."""
    game = damier.load("ricochet")
    results, skipped = [], 0
    for i in range(count):
        state = game.new_state(seed * 1_000_000 + i)
        assert isinstance(state, RicochetState)
        slots = peer_slots(state)
        if slots is None:
            skipped += 1
            continue
        results.append(compare(dll, state, slots))
    figures: dict[str, Any] = {"drawn": count, "skipped_vortex": skipped, "compared": len(results)}
    if results:
        ours, peer = summary([r["ours_s"] for r in results]), summary([r["peer_s"] for r in results])
        lengths = [r["ours"] for r in results]
        figures |= {"ours": ours, "peer": peer,
                    "median_ratio_peer_over_ours": round(peer["median_ms"] / ours["median_ms"], 2),
                    "mean_ratio_peer_over_ours": round(peer["mean_ms"] / ours["mean_ms"], 2),
                    "optimal_lengths": {n: lengths.count(n) for n in sorted(set(lengths))},
                    "bands": bands(results)}
    return figures, results


#: the length bands the figures are split by (optimal moves, both ends included)
BANDS = ((2, 8), (9, 14), (15, 99))


def bands(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each band's puzzles: how many, both solvers' figures, and the peer's median and mean over damier's."""
    out = {}
    for low, high in BANDS:
        inside = [r for r in results if low <= r["ours"] <= high]
        if inside:
            ours, peer = summary([r["ours_s"] for r in inside]), summary([r["peer_s"] for r in inside])
            out[f"{low}-{high}" if high < 99 else f"{low}+"] = {
                "puzzles": len(inside), "ours": ours, "peer": peer,
                "median_ratio_peer_over_ours": round(peer["median_ms"] / ours["median_ms"], 2),
                "mean_ratio_peer_over_ours": round(peer["mean_ms"] / ours["mean_ms"], 2)}
    return out


def show(report: dict[str, Any], seed: int) -> None:
    print(f"peer: fogleman/Ricochet, ricochet.c sha256 {report['peer_source_sha256']}")
    for r in report["hard"]:
        print(f"{r['driftingdroids']} ({r['id']}, known {r['known']}): damier {r['ours']} moves in "
              f"{r['ours_s']:.2f} s, peer {r['peer']} moves in {r['peer_s']:.2f} s; "
              f"peer/damier {r['peer_s'] / r['ours_s']:.1f}x")
    rnd = report["random"]
    print(f"{rnd['compared']} random default-rule puzzles (seed {seed}; {rnd['skipped_vortex']} of {rnd['drawn']} "
          f"skipped: vortex target)")
    if rnd["compared"]:
        for name in ("min_ms", "median_ms", "mean_ms", "p90_ms", "max_ms"):
            print(f"  {name:9s}  damier {rnd['ours'][name]:>9}  peer {rnd['peer'][name]:>9}")
        print(f"  peer/damier: median {rnd['median_ratio_peer_over_ours']}x, mean {rnd['mean_ratio_peer_over_ours']}x")
        print(f"  optimal lengths: {rnd['optimal_lengths']}")
        for band, figures in rnd["bands"].items():
            print(f"  {band} moves ({figures['puzzles']} puzzles): median damier {figures['ours']['median_ms']} ms, "
                  f"peer {figures['peer']['median_ms']} ms ({figures['median_ratio_peer_over_ours']}x); mean "
                  f"damier {figures['ours']['mean_ms']}, peer {figures['peer']['mean_ms']} "
                  f"({figures['mean_ratio_peer_over_ours']}x); p90 damier {figures['ours']['p90_ms']}, peer "
                  f"{figures['peer']['p90_ms']}; max damier {figures['ours']['max_ms']}, peer "
                  f"{figures['peer']['max_ms']}")
    print(f"disagreements: {len(report['disagreements'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", type=Path, required=True, help="fogleman/Ricochet's folder, _ricochet built.")
    parser.add_argument("--puzzles", type=int, default=200, help="Random default-rule puzzles (default 200).")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the random set (default 1).")
    parser.add_argument("--no-hard", action="store_true", help="Leave out the hardest puzzles.")
    parser.add_argument("--json", action="store_true", help="Print JSON only.")
    args = parser.parse_args()
    dll, source = load_peer(args.peer)
    search.solve(search.puzzle_state(WARM_UP, {}))  # compiled, or loaded from numba's cache
    hard = []
    for puzzle_id, length in ({} if args.no_hard else HARD).items():
        state = search.puzzle_state(puzzle_id, {})
        slots = peer_slots(state)
        assert slots is not None
        hard.append({**compare(dll, state, slots), "driftingdroids": puzzle_id, "known": length})
    figures, results = random_figures(dll, args.puzzles, args.seed)
    disagreements = [r for r in hard + results if not r["agree"]]
    report = {"peer_source_sha256": source, "hard": hard, "random": figures, "disagreements": disagreements}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        show(report, args.seed)
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
