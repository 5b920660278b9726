"""``damier micro ...``: Micro Robots' own commands (the ``commands`` feature), today ``stats``."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

app = typer.Typer(help="Micro Robots: statistics of the board sides.", no_args_is_help=True)


def side_statistics(side: str) -> dict[str, Any]:
    """Every arrangement's diameter and the optimal-length distribution over all start/target pairs.

    >>> side_statistics("A")["diameters"]
    {'5': 288, '6': 2000, '7': 2160, '8': 1168, '9': 400, '10': 112, '12': 16}
    """
    import numpy as np

    from damier.games.micro import kernel, setup

    started = time.perf_counter()
    arrangements = setup.all_arrangements(side)
    diameters = np.zeros(len(arrangements), dtype=np.int64)
    lengths = np.zeros(40, dtype=np.int64)
    kernel.board_statistics(arrangements, diameters, lengths)
    values, counts = np.unique(diameters, return_counts=True)
    reachable = int(lengths[1:].sum())
    return {
        "side": side,
        "arrangements": len(arrangements),
        "disconnected": int((diameters < 0).sum()),
        "diameters": {str(int(v)): int(c) for v, c in zip(values, counts, strict=True) if v >= 0},
        "puzzles": reachable,
        "optimal_lengths": {str(k): int(lengths[k]) for k in range(1, len(lengths)) if lengths[k]},
        "optimal_length_share_percent": {str(k): round(100 * int(lengths[k]) / reachable, 1)
                                         for k in range(1, len(lengths)) if lengths[k]},
        "seconds": round(time.perf_counter() - started, 3),
    }


@app.command()
def stats(
    side: Annotated[str, typer.Option("--side", help="The tile side: A (the printed one we know) or B (damier's).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Arrangement diameters and the optimal-length distribution over all 6,144 arrangements of a side and every
    start/target pair (compile included in the time)."""
    from damier.core.errors import DamierError
    from damier.games.micro import setup

    key = side.strip().upper()
    if key not in setup.SIDES:
        raise DamierError(f"--side {side!r}: the sides are {' and '.join(setup.SIDES)}")
    report = side_statistics(key)
    if as_json:
        print(json.dumps(report))
        return
    print(f"Micro Robots side {key}: {report['arrangements']:,} arrangements, {report['disconnected']} not connected "
          f"({report['seconds']} s)")
    print("  diameters: " + ", ".join(f"{k}: {v}" for k, v in report["diameters"].items()))
    shares = report["optimal_length_share_percent"]
    print(f"  optimal lengths over {report['puzzles']:,} puzzles (%): "
          + ", ".join(f"{k}: {v}" for k, v in shares.items()))
