"""The arcade under hostile load (issue 13), measured side by side: a victim plays a human-vs-human game (its
move latency) and asks a `hard` computer for moves (its answer time) while an attacker, from the same machine,
runs one of the attacks the probe found; each attack against this checkout's server and, with ``--base PATH``,
against another checkout's (the code before the fixes), in the same run.

    python benchmarks/hostile.py [--base PATH] [--seconds 20] [--attacks computers,hints,sockets,replays]

Attacks (each bounded and on loopback):
- ``computers``: 200 `hard` vs `hard` games created as fast as the server takes them;
- ``hints``: 60 hint requests at once, again and again, on puzzles whose whole-line hint searches for seconds;
- ``sockets``: 4 WebSockets that send pings as fast as they can and never read;
- ``replays``: 4 clients fetching the replay of a whole 12 x 12 Atoms game (about 280 moves) in a loop.
Prints, per attack and server: the victim's human-move p50/p99 (ms) and its `hard` computer's answer time
(the budget is 1 s) at worst, and how many of the attacker's requests were refused (429) or failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from server_load import answering  # benchmarks/, this script's folder

import damier

ATTACKS = ("computers", "hints", "sockets", "replays")
HUMANS = {"game": "atoms", "options": {"rows": 8, "cols": 8}, "seats": [{"kind": "human"}, {"kind": "human"}]}
VS_HARD = {"game": "atoms", "options": {"rows": 8, "cols": 8},
           "seats": [{"kind": "human"}, {"kind": "computer", "level": "hard"}]}
HARD_PUZZLE = "7650+42+E2302B12+C9"
VICTIM = "127.0.0.2"


def start(checkout: Path, port: int, folder: Path) -> subprocess.Popen[bytes]:
    """``damier serve`` of ``checkout`` (its own code: PYTHONPATH) on a new SQLite database, once it answers."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    log = folder / f"server-{port}.log"
    server = subprocess.Popen([sys.executable, "-m", "damier.cli", "serve", "--port", str(port), "--db",
                               f"sqlite:///{folder / f'arcade-{port}.sqlite3'}", "--workers", "2"],
                              stdout=open(log, "ab"), stderr=subprocess.STDOUT, env=env, cwd=checkout,  # noqa: SIM115
                              start_new_session=True)
    return answering(server, port, log, 90)


async def warm(client: httpx.AsyncClient, base: str) -> None:
    """One answer of the `hard` computer first (a server's workers may still be compiling their kernels)."""
    game = (await client.post(f"{base}/api/games", json=VS_HARD)).json()
    state = game["state"]
    token = game["tokens"]["0"]
    state = (await client.post(f"{base}/api/games/{game['id']}/moves", json={"move": state["legal_moves"][0]},
                               headers={"X-Seat-Token": token})).json()
    deadline = time.monotonic() + 300
    while state["player"] != 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        state = (await client.get(f"{base}/api/games/{game['id']}", headers={"X-Seat-Token": token})).json()


async def victim(base: str, seconds: float) -> dict[str, Any]:
    """A human-vs-human game (a move every 0.5 s: the latency until its state comes back) and a game against
    `hard` (the time each computer answer takes), for ``seconds``."""
    latencies: list[float] = []
    answers: list[float] = []
    ws_base = base.replace("http", "ws")
    rng = random.Random(1)
    # the victim comes from another address than the attacker (127.0.0.2: any 127.x address is this machine)
    transport = httpx.AsyncHTTPTransport(local_address=VICTIM)
    async with httpx.AsyncClient(timeout=120, transport=transport) as client:
        await warm(client, base)
        deadline = time.monotonic() + seconds

        async def humans() -> None:
            while time.monotonic() < deadline:
                game = (await client.post(f"{base}/api/games", json=HUMANS)).json()
                async with websockets.connect(f"{ws_base}/api/games/{game['id']}/ws", max_size=2**22,
                                              local_addr=(VICTIM, 0)) as ws:
                    state = json.loads(await ws.recv())["state"]
                    while state["status"] == "active" and time.monotonic() < deadline:
                        await asyncio.sleep(0.5)
                        sent = time.perf_counter()
                        await ws.send(json.dumps({"type": "move", "move": rng.choice(state["legal_moves"]),
                                                  "version": state["version"],
                                                  "token": game["tokens"][str(state["player"])]}))
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                            if message["type"] == "state" and message["state"]["version"] > state["version"]:
                                state = message["state"]
                                break
                        latencies.append(time.perf_counter() - sent)

        async def computer() -> None:
            while time.monotonic() < deadline:
                game = (await client.post(f"{base}/api/games", json=VS_HARD)).json()
                token = game["tokens"]["0"]
                state = game["state"]
                while state["status"] == "active" and time.monotonic() < deadline:
                    move = rng.choice(state["legal_moves"])
                    sent = time.perf_counter()
                    state = (await client.post(f"{base}/api/games/{game['id']}/moves", json={"move": move},
                                               headers={"X-Seat-Token": token})).json()
                    while state["status"] == "active" and state["player"] != 0:
                        await asyncio.sleep(0.05)
                        state = (await client.get(f"{base}/api/games/{game['id']}",
                                                  headers={"X-Seat-Token": token})).json()
                    answers.append(time.perf_counter() - sent)

        await asyncio.gather(humans(), computer())
    latencies.sort()
    return {"human_p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "human_p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1) if latencies else None,
            "hard_answers": len(answers), "hard_worst_s": round(max(answers), 2) if answers else None}


async def attack(kind: str, base: str, seconds: float, counts: dict[str, int]) -> None:
    """Run the attack ``kind`` for ``seconds``, counting its requests by outcome."""
    deadline = time.monotonic() + seconds

    def count(response: httpx.Response | None) -> None:
        key = "failed" if response is None else "refused" if response.status_code == 429 else "served"
        counts[key] = counts.get(key, 0) + 1

    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=300)) as client:
        async def post(path: str, **kwargs: Any) -> httpx.Response | None:
            try:
                response = await client.post(f"{base}{path}", **kwargs)
            except httpx.HTTPError:
                response = None
            count(response)
            return response

        if kind == "computers":
            computers = {**VS_HARD, "seats": [{"kind": "computer", "level": "hard"}] * 2}
            await asyncio.gather(*(post("/api/games", json=computers) for _ in range(200)))
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        elif kind == "hints":
            puzzles = [await post("/api/puzzles", json={"game": "ricochet", "puzzle": HARD_PUZZLE}) for _ in range(60)]
            made = [p.json() for p in puzzles if p is not None and p.status_code == 201]
            while time.monotonic() < deadline:
                await asyncio.gather(*(post(f"/api/games/{p['id']}/hint?level=4", headers={"X-Seat-Token": p["token"]})
                                       for p in made))
                if not made:
                    await asyncio.sleep(0.5)
        elif kind == "sockets":
            game = (await client.post(f"{base}/api/games", json=HUMANS)).json()

            async def flood() -> None:
                with contextlib.suppress(Exception):
                    async with websockets.connect(f"{base.replace('http', 'ws')}/api/games/{game['id']}/ws") as ws:
                        while time.monotonic() < deadline:
                            await ws.send('{"type": "ping"}')
                            counts["served"] = counts.get("served", 0) + 1

            await asyncio.gather(*(flood() for _ in range(4)))
        elif kind == "replays":
            state = damier.load("atoms", rows=12, cols=12).new_state(0)
            record = damier.Record.from_state(state).to_json()
            record["moves"] = long_game()
            imported = await post("/api/records", json=record)
            game_id = imported.json().get("id") if imported is not None and imported.status_code == 201 else None

            async def loop() -> None:
                while time.monotonic() < deadline and game_id:
                    try:
                        response = await client.get(f"{base}/api/games/{game_id}/replay")
                    except httpx.HTTPError:
                        response = None
                    count(response)

            await asyncio.gather(*(loop() for _ in range(4)))


def long_game() -> list[str]:
    """The moves of a whole Atoms game on 12 x 12 (random play: about 280 moves), for the replay attack."""
    state = damier.load("atoms", rows=12, cols=12).new_state(0)
    rng = random.Random(7)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return state.moves_in_notation()


async def measure(base: str, kind: str, seconds: float) -> dict[str, Any]:
    counts: dict[str, int] = {}
    attacker = asyncio.create_task(attack(kind, base, seconds, counts))
    await asyncio.sleep(1.0)  # the attack under way
    figures = await victim(base, seconds - 2)
    attacker.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await attacker
    return {**figures, "attacker": counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, help="another checkout to measure side by side (before the fixes)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attacks", default=",".join(ATTACKS))
    parser.add_argument("--port", type=int, default=8830)
    args = parser.parse_args()
    checkouts = {"this": Path(__file__).resolve().parents[1]}
    if args.base:
        checkouts["base"] = args.base.resolve()
    report: dict[str, dict[str, Any]] = {}
    port = args.port
    for kind in ["none", *args.attacks.split(",")]:
        for name, checkout in checkouts.items():
            with tempfile.TemporaryDirectory() as folder:
                server = start(checkout, port, Path(folder))
                try:
                    base = f"http://127.0.0.1:{port}"
                    report.setdefault(kind, {})[name] = (asyncio.run(victim(base, args.seconds)) if kind == "none"
                                                         else asyncio.run(measure(base, kind, args.seconds)))
                finally:  # the server and every process it started (an old server's workers outlive it)
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(server.pid, signal.SIGKILL)
                    server.wait(timeout=30)
                port += 1
            print(kind, name, json.dumps(report[kind][name]), flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
