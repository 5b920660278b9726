"""Load benchmark of the arcade: N concurrent human-vs-human games over WebSocket on loopback.

    python benchmarks/server_load.py [--games 200] [--moves 30] [--think 1.0] [--port 8790] [--servers 1]

Starts `damier serve` on a temporary SQLite database (with ``--servers N`` above 1: N servers on one throwaway
PostgreSQL, started from Debian's binaries as the tests do; ``--postgres`` also runs one server there), opens
one WebSocket per game (game i on server i mod N, as a load balancer with sticky sessions would), and plays
random legal moves for both seats through it (every move validated and stored by the server). Players think between
moves like people do: a random pause averaging --think seconds (0.5x to 1.5x; --think 0 sends the next move
at once, which measures the server's saturation throughput instead). The latency of a move is the time from
sending it to receiving the state that contains it. Prints moves/s and p50/p99 latency, and the CPU time a move
cost each part (from /proc: the servers, PostgreSQL's processes, this load generator): their sum, times the
moves a second asked for, is the number of cores the load needs. Only loopback is used; the run is bounded by
--games x --moves and a time limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' throwaway PostgreSQL, run from anywhere
from tests.server.postgres import throwaway_postgres


async def play_one(base: str, ws_base: str, moves: int, seed: int, latencies: list[float],
                   client: httpx.AsyncClient, think: float) -> int:
    created = (await client.post(f"{base}/api/games", json={
        "game": "atoms", "options": {}, "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
    game_id, tokens = created["id"], created["tokens"]
    rng = random.Random(seed)
    played = 0
    async with websockets.connect(f"{ws_base}/api/games/{game_id}/ws", max_size=2**22) as ws:
        state = json.loads(await ws.recv())["state"]
        while played < moves and state["status"] == "active":
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            square = rng.choice(state["legal_moves"])
            version = state["version"]
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "move": square, "version": version,
                                      "token": tokens[str(state["player"])]}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "error":
                    raise RuntimeError(message["error"])
                if message["type"] == "state" and message["state"]["version"] > version:
                    state = message["state"]
                    break
            latencies.append(time.perf_counter() - sent)
            played += 1
    return played


async def run(ports: list[int], games: int, moves: int, think: float) -> dict[str, Any]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=games)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        started = time.perf_counter()
        counts = await asyncio.wait_for(
            asyncio.gather(*(play_one(f"http://127.0.0.1:{ports[i % len(ports)]}",
                                      f"ws://127.0.0.1:{ports[i % len(ports)]}", moves, i, latencies, client, think)
                             for i in range(games))),
            timeout=900,
        )
        elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "servers": len(ports),
        "games": games,
        "think_s": think,
        "moves": sum(counts),
        "seconds": round(elapsed, 2),
        "moves_per_s": round(sum(counts) / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "max_ms": round(1000 * latencies[-1], 2),
    }


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds used so far by the processes ``pids`` (those still running), from /proc."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def postgres_pids() -> list[int]:
    """Every PostgreSQL process on the machine (the throwaway server's; no other runs beside a benchmark)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if Path(entry, "comm").read_text().strip() in {"postgres", "postmaster"}:
                    pids.append(int(entry.name))
    return pids


def start(port: int, db: str, log: Path) -> subprocess.Popen[bytes]:
    """``damier serve`` on ``port`` and ``db``, once it answers (no per-client limits: every game, its connection
    and its WebSocket come from this one address)."""
    server = subprocess.Popen([sys.executable, "-m", "damier.cli", "serve", "--port", str(port), "--db", db,
                               "--workers", "1", "--limits", "new_games=1000000,computer_games=1000000,hints=1000",
                               "--connections", "address_connections=4096,address_sockets=3072,address_pings=100000,"
                               "address_messages=100000"],
                              stdout=open(log, "ab"), stderr=subprocess.STDOUT, env=dict(os.environ))  # noqa: SIM115
    return answering(server, port, log, 60)


def answering(server: subprocess.Popen[bytes], port: int, log: Path, seconds: float) -> subprocess.Popen[bytes]:
    """``server`` once its health check on ``port`` answers; ``SystemExit`` with the end of ``log`` if it exits
    or ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).raise_for_status()
            return server
        except httpx.HTTPError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per game (fewer if the game ends)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks between moves")
    parser.add_argument("--port", type=int, default=8790, help="the first server's port (the others follow)")
    parser.add_argument("--servers", type=int, default=1, help="servers on one database (above 1: PostgreSQL)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL even for one server")
    args = parser.parse_args()
    ports = [args.port + k for k in range(args.servers)]
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        if args.servers > 1 or args.postgres:
            db = stack.enter_context(throwaway_postgres())
            os.environ.setdefault("DAMIER_SECRET", os.urandom(32).hex())  # servers on one database share it
        else:
            db = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        servers = [start(port, db, Path(folder) / f"server-{port}.log") for port in ports]
        try:
            parts: dict[str, Callable[[], float]] = {
                "servers": lambda: cpu_seconds([server.pid for server in servers]),
                "postgresql": lambda: cpu_seconds(postgres_pids()),
                "generator": lambda: cpu_seconds([os.getpid()]),
            }
            before = {name: read() for name, read in parts.items()}
            report = asyncio.run(run(ports, args.games, args.moves, args.think))
            used = {name: read() - before[name] for name, read in parts.items()}
            report["cpu_ms_per_move"] = {name: round(1000 * seconds / max(1, report["moves"]), 3)
                                         for name, seconds in used.items()}
            report["cpu_ms_per_move"]["total"] = round(sum(report["cpu_ms_per_move"].values()), 3)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(timeout=30)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
