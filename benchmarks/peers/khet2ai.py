"""damier's Khet levels against the C++ engine Khet2-AI (github.com/AlexKent3141/Khet2-AI), in the arena.

    python benchmarks/peers/khet2ai.py --source KHET2AI_SRC [--games 4] [--time 0.5] [--levels medium hard]
        [--seed 0] [--opening 2] [--margin 1.0] [--workers 1] [--build-dir DIR] [--records DIR] [--json]

Builds Khet2-AI from its source tree (KHET2AI_SRC, an unpacked checkout) with ``g++ -O3 -std=c++14``, its own
flags, into a temporary folder outside the repository (removed at the end; ``--build-dir`` keeps the binary
there instead), checks that the binary answers ``go depth 1``, then for each level runs

    damier arena khet --agents LEVEL "ext(clock=wall,untold=play,time=T,margin=M):BINARY" --games N
        --seed S --opening K --workers W --opt strict_swap_reserved=false --json

and reports each level's wins, draws and losses against the peer, and how every game ended: counts per
termination (``pharaoh_hit``, ``move_limit``, ``repetition``, ``resignation``, ``forfeit``) and per reason (the
result's words), with the forfeits and resignations listed. ``--json`` prints the same as one JSON object;
``--records DIR`` also writes each game's record there (``LEVEL-N.json``, for ``damier record show``).

Why the spec reads so: Khet2-AI times ``go movetime`` in CPU time, which overruns the wall-clock deadline on a
loaded machine (``clock=wall``: ``go infinite``, then ``stop``); it knows no ``setoption`` (``untold=play``); its
Scarab swaps follow damier's ``strict_swap_reserved=false`` (the match's rule, so the rules in force are the
engine's own); and it answers ``bestmove none`` when every move loses to a forced mate, which damier counts as a
resignation. Its CMake build is not used: configuring it downloads Catch2 for its tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
#: the rule the match is played by: Khet2-AI's own (it cannot be told another)
OPTIONS = {"strict_swap_reserved": "false"}


def sources(source: Path) -> list[Path]:
    """The engine's translation units: ``src/main.cpp``, ``src/CommsHandler.cpp`` and ``src/core/*.cpp``."""
    main = source / "src" / "main.cpp"
    if not main.is_file():
        raise SystemExit(f"{source} is not a Khet2-AI source tree (no src/main.cpp)")
    return [main, source / "src" / "CommsHandler.cpp", *sorted((source / "src" / "core").glob("*.cpp"))]


def fingerprint(source: Path) -> str:
    """A sha256 over the engine's sources (``src``, tests left out): which code was measured."""
    digest = hashlib.sha256()
    for path in sorted(p for p in (source / "src").rglob("*") if p.is_file() and "tests" not in p.parts):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def build(source: Path, folder: Path, compiler: str) -> Path:
    """Compile the engine into ``folder`` (outside the repository); the binary's path."""
    if folder.resolve().is_relative_to(REPOSITORY):
        raise SystemExit(f"build folder {folder} is inside the repository; pick one outside it")
    folder.mkdir(parents=True, exist_ok=True)
    binary = folder / "khet"
    command = [compiler, "-O3", "-std=c++14", "-Wall", "-Wpedantic", f"-I{source / 'src'}",
               *map(str, sources(source)), "-pthread", "-o", str(binary)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"building Khet2-AI failed ({shlex.join(command)}):\n{done.stderr[-2000:]}")
    return binary


def check(binary: Path) -> str:
    """The engine's ``bestmove`` from the Classic start at depth 1: it runs and speaks the protocol. (Its input
    stays open until the answer: at the end of its input it exits without waiting for its search.)"""
    engine = subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60.0, engine.kill)
    watchdog.start()
    try:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write("position standard\ngo depth 1\n")
        engine.stdin.flush()
        for line in engine.stdout:
            if line.startswith("bestmove "):
                engine.stdin.write("quit\n")
                engine.stdin.flush()
                return line.strip()
    finally:
        watchdog.cancel()
        engine.kill()
        engine.wait()
    raise SystemExit(f"{binary} gave no bestmove to 'go depth 1' within 60 s")


def arena(level: str, peer: str, args: argparse.Namespace) -> dict[str, Any]:
    """One ``damier arena khet`` between ``level`` and the peer; its JSON report."""
    command = [sys.executable, "-m", "damier.cli", "arena", "khet", "--agents", level, peer, "--games", str(args.games),
               "--seed", str(args.seed), "--opening", str(args.opening), "--workers", str(args.workers), "--json"]
    for name, value in OPTIONS.items():
        command += ["--opt", f"{name}={value}"]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False, cwd=REPOSITORY)
    if done.returncode != 0:
        raise SystemExit(f"the arena failed: {shlex.join(command)}")
    report: dict[str, Any] = json.loads(done.stdout)
    report["command"] = shlex.join(["damier", *command[3:]])
    if args.records is not None:
        args.records.mkdir(parents=True, exist_ok=True)
        for number, game in enumerate(report["games"], start=1):
            name = "".join(c if c.isalnum() else "-" for c in level)
            (args.records / f"{name}-{number}.json").write_text(json.dumps(game["record"], indent=1))
    return report


def summarise(level: str, peer: str, report: dict[str, Any]) -> dict[str, Any]:
    """The level's W/D/L against the peer, and how the games ended (per termination, per reason)."""
    record = report["pairs"][f"{level} vs {peer}"]
    games = report["games"]
    early = [{"game": number, "how": key, "by": "peer" if game[key]["agent"] == peer else level,
              "reason": game["reason"], "detail": game[key]["reason"]}
             for number, game in enumerate(games, start=1) for key in ("forfeit", "resignation") if game[key]]
    return {
        "level": level,
        "command": report["command"],
        "games": len(games),
        "level_wins": record["wins"], "draws": record["draws"], "peer_wins": record["losses"],
        "terminations": dict(Counter(game["termination"] for game in games).most_common()),
        "reasons": dict(Counter(game["reason"] for game in games).most_common()),
        "plies": round(sum(game["plies"] for game in games) / len(games), 1) if games else 0,
        "early": early,
        "untold": report["untold"],
    }


def show(result: dict[str, Any]) -> None:
    peer = result["peer"]
    print(f"Khet2-AI (sources {peer['sources_sha256']}, g++ -O3) as {peer['spec_form']}")
    print(f"rules in force: {', '.join(f'{k}={v}' for k, v in OPTIONS.items())} (the others damier's defaults); "
          f"{result['games']} games in {result['seconds']:.0f} s")
    for level in result["levels"]:
        print(f"\n{level['level']} against Khet2-AI: {level['level_wins']} W, {level['draws']} D, "
              f"{level['peer_wins']} L over {level['games']} games ({level['plies']} plies on average)")
        print(f"  {level['command']}")
        print("  ended by: " + ", ".join(f"{count} {how}" for how, count in level["terminations"].items()))
        for reason, count in level["reasons"].items():
            print(f"    {count} x {reason}")
        for ended in level["early"]:
            print(f"  game {ended['game']}: {ended['how']} by {ended['by']}: {ended['detail']}")
        for entry in level["untold"]:
            rules = ", ".join(f"{k}={json.dumps(v)}" for k, v in entry["rules"].items())
            print(f"  the peer was not told {rules} in {entry['games']} games (it knows no setoption)")
    print("\nall games, ended by: " + ", ".join(f"{count} {how}" for how, count in result["terminations"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="Khet2-AI's source tree (an unpacked checkout)")
    parser.add_argument("--games", type=int, default=4, help="games per level (seats alternate)")
    parser.add_argument("--time", type=float, default=0.5, help="the peer's seconds per move (wall clock)")
    parser.add_argument("--margin", type=float, default=1.0, help="the peer's seconds to answer after stop")
    parser.add_argument("--levels", nargs="+", default=["medium", "hard"], help="damier's agents (levels or specs)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random openings")
    parser.add_argument("--opening", type=int, default=2, help="random plies at the start of each game")
    parser.add_argument("--workers", type=int, default=1, help="arena worker processes (each runs a peer)")
    parser.add_argument("--build-dir", type=Path, help="build (and keep) the binary here, outside the repository")
    parser.add_argument("--records", type=Path, help="write each game's record to this folder")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"), help="the C++ compiler (default: $CXX or g++)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.time <= 0:
        raise SystemExit("--games must be at least 1 and --time positive")
    source = args.source.resolve()
    folder = args.build_dir or Path(tempfile.mkdtemp(prefix="khet2ai-"))
    started = time.perf_counter()
    try:
        binary = build(source, folder, args.cxx)
        first = check(binary)
        spec = f"ext(clock=wall,untold=play,time={args.time:g},margin={args.margin:g}):{shlex.quote(str(binary))}"
        levels = [summarise(level, spec, arena(level, spec, args)) for level in args.levels]
    finally:
        if args.build_dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    totals: Counter[str] = Counter()
    for level in levels:
        totals.update(level["terminations"])
    result = {
        "peer": {"name": "Khet2-AI", "url": "https://github.com/AlexKent3141/Khet2-AI",
                 "sources_sha256": fingerprint(source), "depth_1_from_the_start": first,
                 "spec_form": f"ext(clock=wall,untold=play,time={args.time:g},margin={args.margin:g}):BINARY"},
        "options": OPTIONS, "time": args.time, "games": sum(level["games"] for level in levels),
        "seconds": round(time.perf_counter() - started, 1), "terminations": dict(totals.most_common()),
        "levels": levels,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        show(result)


if __name__ == "__main__":
    main()
