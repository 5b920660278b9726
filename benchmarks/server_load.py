"""Load benchmark of the arcade: N concurrent human-vs-human games over WebSocket on loopback.

    python benchmarks/server_load.py [--games 200] [--moves 30] [--think 1.0] [--port 8790]

Starts `damier serve` on a temporary SQLite database, opens one WebSocket per game, and plays random legal
moves for both seats through it (every move validated and stored by the server). Players think between
moves like people do: a random pause averaging --think seconds (0.5x to 1.5x; --think 0 sends the next move
at once, which measures the server's saturation throughput instead). The latency of a move is the time from
sending it to receiving the state that contains it. Prints moves/s and p50/p99 latency. Only loopback is
used; the run is bounded by --games x --moves and a time limit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


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


async def run(port: int, games: int, moves: int, think: float) -> dict[str, float]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=games)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        started = time.perf_counter()
        counts = await asyncio.wait_for(
            asyncio.gather(*(play_one(base, ws_base, moves, i, latencies, client, think) for i in range(games))),
            timeout=600,
        )
        elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "games": games,
        "think_s": think,
        "moves": sum(counts),
        "seconds": round(elapsed, 2),
        "moves_per_s": round(sum(counts) / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "max_ms": round(1000 * latencies[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per game (fewer if the game ends)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks between moves")
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        server = subprocess.Popen([sys.executable, "-m", "damier.cli", "serve", "--port", str(args.port), "--db", db,
                                   "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env=dict(os.environ))
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{args.port}/api/health", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            report = asyncio.run(run(args.port, args.games, args.moves, args.think))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
