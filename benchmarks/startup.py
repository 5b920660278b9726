"""A quick start for kernel commands (issue 40), measured: the wall and CPU seconds of whole `damier` processes
that run a kernel, beside Python's own start and beside numba's floor (a process that calls one trivial cached
``njit`` function: what any command that runs a compiled kernel pays at least), in one run, interleaved.

    python benchmarks/startup.py [--runs 9] [--base PATH]

Run it with the interpreter to measure (a fresh environment with damier alone installed: ``python -m venv v &&
v/bin/pip install -e . && v/bin/python benchmarks/startup.py``).

Every process is started as ``python -m damier.cli ...`` with this interpreter (no shell or launcher in between)
on a warm numba cache (each command runs once untimed first). The report gives each command's median wall and
CPU seconds and its wall seconds beyond ``python -c pass``. Numba's floor depends on what else is installed: when
SciPy is, numba imports ``scipy.linalg`` as it first loads a compiled function (about 0.15 s), and cffi's
parser as it is imported; the report says which of them this interpreter has.

With ``--base PATH`` (another checkout: the code before a change), its commands too, in the same run.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: the kernel commands of the issue, and `--help` (no kernel) for scale
COMMANDS = {
    "damier --help": ["--help"],
    "damier perft khet --depth 1": ["perft", "khet", "--depth", "1"],
    "damier solve ricochet --puzzle ID": ["solve", "ricochet", "--puzzle", "1A2A3A4A.94FFF08F.rc"],
    "damier solve micro --puzzle P": ["solve", "micro", "--puzzle", "A-2413-1300_Y5_W1 Y5 0 -"],
}

#: numba's floor: one trivial cached function called, the process then ended as `damier` ends (its exit handlers
#: run, the interpreter's teardown skipped: ``damier.cli.quick_exit``)
FLOOR = """
import atexit, os
import numba

@numba.njit(cache=True)
def one_more(x):
    return x + 1

one_more(1)
atexit._run_exitfuncs()
os._exit(0)
"""


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one process."""
    before = os.times()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return (after.elapsed - before.elapsed,
            after.children_user - before.children_user + after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each process (default 9)")
    parser.add_argument("--base", type=Path, help="another checkout whose commands are timed too")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        floor_file = Path(scratch) / "floor.py"
        floor_file.write_text(FLOOR)
        env = dict(os.environ, PYTHONPATH=str(HERE))
        # each process runs in its checkout (``python -m`` puts the folder it runs in first on the path)
        runs: dict[str, tuple[list[str], dict[str, str], Path]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], env, HERE),
            "numba's floor": ([sys.executable, str(floor_file)], dict(env, NUMBA_CACHE_DIR=str(Path(scratch) / "nb")),
                              HERE),
        }
        checkouts = [("this", HERE)] + ([("base", args.base.resolve())] if args.base else [])
        for label, checkout in checkouts:
            for name, command in COMMANDS.items():
                key = f"{name} ({label})" if args.base else name
                runs[key] = ([sys.executable, "-m", "damier.cli", *command], dict(os.environ, PYTHONPATH=str(checkout)),
                             checkout)
        for argv, run_env, cwd in runs.values():  # warm: the numba caches filled, the files in the page cache
            timed(argv, run_env, cwd)
        walls: dict[str, list[float]] = {key: [] for key in runs}
        cpus: dict[str, list[float]] = {key: [] for key in runs}
        for _ in range(args.runs):  # interleaved: a slow moment of the machine falls on every command alike
            for key, (argv, run_env, cwd) in runs.items():
                wall, cpu = timed(argv, run_env, cwd)
                walls[key].append(wall)
                cpus[key].append(cpu)

    python = statistics.median(walls["python -c pass"])
    have = [name for name in ("scipy", "cffi") if importlib.util.find_spec(name) is not None]
    print(f"{sys.executable} (Python {sys.version.split()[0]}); installed beside numba: "
          f"{', '.join(have) or 'neither scipy nor cffi'}; {args.runs} runs each, medians")
    print(f"{'process':<48} {'wall s':>7} {'CPU s':>7} {'beyond python':>14}")
    for key in runs:
        wall, cpu = statistics.median(walls[key]), statistics.median(cpus[key])
        print(f"{key:<48} {wall:7.3f} {cpu:7.3f} {wall - python:14.3f}")


if __name__ == "__main__":
    main()
