"""Generate Micro Robots' side B once, reproducibly, and write it as the package's data (run from the repository).

    python scripts/micro_side_b.py [--seed 20261201] [--write]

The printed second side of the tiles is not known, so damier ships its own: the 36 colour-number pairs dealt onto
four 3 x 3 tiles such that every one of the 6,144 arrangements is connected (every square reaches every other),
with statistics close to side A's. From a seeded deal, a local search swaps two squares at a time and keeps a swap
that does not make the score worse: first the number of disconnected arrangements (on a sample, grown with every
disconnected arrangement the full check finds), then the distance between the optimal-length shares and side
A's. The result is checked on all 6,144 arrangements; ``--write`` saves it to damier/games/micro/data/side_b.json.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from damier.games.micro import setup
from damier.games.micro.kernel import board_statistics

OUT = Path(__file__).resolve().parents[1] / "damier" / "games" / "micro" / "data" / "side_b.json"
LONGEST = 40


def statistics(codes: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(diameters, length histogram) of the arrangements ``rows`` of the tiles ``codes``."""
    table = setup.arrangement_table()[rows]
    diameters = np.zeros(len(rows), dtype=np.int64)
    lengths = np.zeros(LONGEST, dtype=np.int64)
    board_statistics(codes[table], diameters, lengths)
    return diameters, lengths


def shares(lengths: np.ndarray) -> np.ndarray:
    reachable = lengths[1:].sum()
    return lengths[1:] / reachable if reachable else lengths[1:] * 0.0


def score(codes: np.ndarray, rows: np.ndarray, target: np.ndarray) -> tuple[int, float]:
    diameters, lengths = statistics(codes, rows)
    return int((diameters < 0).sum()), float(np.abs(shares(lengths) - target).sum())


def generate(seed: int) -> np.ndarray:
    rng = random.Random(seed)
    everything = np.arange(len(setup.ORDERS) * len(setup.ROTATIONS))
    _, a_lengths = statistics(setup.tiles_codes(setup.side_tiles("A")), everything)
    target = shares(a_lengths)
    codes = np.array(rng.sample(range(setup.SQUARES), setup.SQUARES), dtype=np.int8)
    sample = np.array(rng.sample(range(len(everything)), 256))
    best = score(codes, sample, target)
    steps = 0
    while True:
        steps += 1
        i, j = rng.sample(range(setup.SQUARES), 2)
        if i // 9 == j // 9 and rng.random() < 0.5:
            continue  # a swap inside one tile changes little; prefer swaps between tiles
        codes[i], codes[j] = codes[j], codes[i]
        tried = score(codes, sample, target)
        if tried <= best:
            best = tried
        else:
            codes[i], codes[j] = codes[j], codes[i]
        if best[0] == 0 and (steps % 200 == 0 or best[1] < 0.03):
            diameters, _ = statistics(codes, everything)
            bad = np.nonzero(diameters < 0)[0]
            if len(bad) == 0 and best[1] < 0.03:
                return codes
            sample = np.unique(np.concatenate([sample, bad[:64]]))
            best = score(codes, sample, target)


def report(name: str, codes: np.ndarray) -> dict[str, object]:
    everything = np.arange(len(setup.ORDERS) * len(setup.ROTATIONS))
    diameters, lengths = statistics(codes, everything)
    values, counts = np.unique(diameters, return_counts=True)
    share = shares(lengths)
    out = {"diameters": {str(int(v)): int(c) for v, c in zip(values, counts, strict=True)},
           "optimal_length_share_percent": {str(k + 1): round(100 * float(share[k]), 1)
                                            for k in range(len(share)) if share[k] > 0}}
    print(f"side {name}: diameters {out['diameters']}")
    print(f"        optimal lengths (%) {out['optimal_length_share_percent']}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--write", action="store_true", help="write damier/games/micro/data/side_b.json")
    args = parser.parse_args()
    codes = generate(args.seed)
    report("A", setup.tiles_codes(setup.side_tiles("A")))
    facts = report("B", codes)
    tiles = {str(t + 1): [[setup.square_text(int(codes[9 * t + 3 * r + c])) for c in range(3)] for r in range(3)]
             for t in range(4)}
    data = {
        "format": "micro-robots-tiles/1",
        "note": (f"damier's own second side of the four Micro Robots tiles (the printed one is not known), made by "
                 f"scripts/micro_side_b.py --seed {args.seed}: every colour-number pair once, every one of the "
                 f"6,144 arrangements connected, optimal-length shares close to side A's."),
        "side": "B",
        "seed": args.seed,
        "tiles": tiles,
        "facts": {"arrangement_diameters": facts["diameters"],
                  "optimal_length_share_percent": facts["optimal_length_share_percent"]},
    }
    if args.write:
        OUT.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {OUT}")


if __name__ == "__main__":
    main()
