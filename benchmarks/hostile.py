"""The arcade under hostile load (issues 13 and 36), measured side by side: an honest victim plays a game against
the `hard` computer (the time its computer takes to answer, whether each answer was searched), a game between two
people (its moves' latency, and that every move acknowledged is stored), and reads the server's health every
50 ms (the GET p99, and the event loop's worst lag the server measures itself) while an attacker, from other
addresses of this machine, runs one of the attacks; each attack against this checkout's server and, with
``--base PATH``, against another checkout's, in the same run, beside an unloaded baseline.

    python benchmarks/hostile.py [--base PATH] [--seconds 20] [--attacks puzzles,idle,addresses,...]

Attacks (each bounded, on loopback; the attacker's addresses are 127.0.x.y, the victim's 127.0.0.2):
- ``computers``: 200 `hard` vs `hard` games asked for at once from one address;
- ``addresses``: 525 addresses, each asking for 4 games against `hard` (2,100 in all) and answering every
  computer move at once, as a program does;
- ``puzzles``: 30 Ricochet Robots puzzles of 30 moves at once (their drawing searches and finds none), from 10
  addresses, again and again;
- ``hints``: 60 whole-line hints at once on a puzzle whose hint searches for seconds, again and again;
- ``idle``: 1,000 connections that never send anything (half from one address, half from 60);
- ``positions``: 40 clients checking a 200-move line on the largest 8-colour Atoms board, again and again;
- ``watchers``: 1,000 WebSockets watching one game (from 40 addresses), its two players moving;
- ``pings``: 4 WebSockets sending protocol pings as fast as they can;
- ``replays``: 4 clients fetching the replay of a whole 12 x 12 Atoms game in a loop.
And, not a load: ``sqlite``, a second server started on the same SQLite file through a symlink, a hard link and
a ``file:`` URI (each must be refused).

Prints, per attack and server: the victim's `hard` answers (count, worst seconds; the budget is 1 s) and how many
were random moves (the server's log), the human moves' p50/p99 latency (ms) and whether every acknowledged move was
stored, the health GET's p99 (ms), the loop's worst lag (ms), and the attacker's requests by outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import queue
import random
import signal
import ssl
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

ATTACKS = ("computers", "addresses", "puzzles", "hints", "idle", "positions", "watchers", "pings", "replays")
HUMANS = {"game": "atoms", "options": {"rows": 8, "cols": 8}, "seats": [{"kind": "human"}, {"kind": "human"}]}
VS_HARD = {"game": "atoms", "options": {"rows": 8, "cols": 8},
           "seats": [{"kind": "human"}, {"kind": "computer", "level": "hard"}]}
HARD_PUZZLE = "7650+42+E2302B12+C9"
VICTIM = "127.0.0.2"
#: the goals of issue 36, for every attack
GOALS = {"hard_over_budget_s": 0.5, "get_p99_ms": 100.0, "loop_lag_ms": 50.0}
#: the attacker's niceness: it stands for clients elsewhere, and its load reaches the server through its requests
ATTACKER_NICENESS = 10


def attacker(number: int) -> str:
    """The ``number``-th attacking address (127.0.1.0 on: never the victim's)."""
    return f"127.0.{1 + number // 250}.{number % 250 + 1}"


def start(checkout: Path, port: int, folder: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """``damier serve`` of ``checkout`` (its own code: PYTHONPATH) on a new SQLite database, once it answers."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    log = folder / f"server-{port}.log"
    server = subprocess.Popen([sys.executable, "-m", "damier.cli", "serve", "--port", str(port), "--db",
                               f"sqlite:///{folder / f'arcade-{port}.sqlite3'}", "--workers", "2"],
                              stdout=open(log, "ab"), stderr=subprocess.STDOUT, env=env, cwd=checkout,  # noqa: SIM115
                              start_new_session=True)
    return answering(server, port, log, 120), log


#: one TLS context for every client (the requests are plain HTTP; httpx would make one per client, tens of
#: milliseconds of the attacker's CPU each, which this machine's server would pay for)
TLS = ssl.create_default_context()


def client_from(address: str, **kwargs: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address, verify=TLS), **kwargs)


async def warm(base: str) -> None:
    """One answer of the `hard` computer first (a new server's workers may still be compiling their kernels), and
    every game's kernels loaded."""
    async with client_from(VICTIM, timeout=300) as client:
        game = (await client.post(f"{base}/api/games", json=VS_HARD)).json()
        token = game["tokens"]["0"]
        state = (await client.post(f"{base}/api/games/{game['id']}/moves", json={"move": "A1"},
                                   headers={"X-Seat-Token": token})).json()
        deadline = time.monotonic() + 300
        while state["player"] != 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            state = (await client.get(f"{base}/api/games/{game['id']}", headers={"X-Seat-Token": token})).json()
        await client.post(f"{base}/api/games/{game['id']}/resign", headers={"X-Seat-Token": token})
        while time.monotonic() < deadline:  # and every game's kernels loaded: the server's start is over
            kernels = (await client.get(f"{base}/api/health")).json().get("kernels")
            if kernels is None or kernels.get("ready"):
                break
            await asyncio.sleep(0.5)


async def victim(base: str, seconds: float) -> dict[str, Any]:
    """The honest player, for ``seconds``: a game between two people (a move every 0.5 s), a game against `hard`
    (each answer timed), and a health check every 50 ms."""
    latencies: list[float] = []
    answers: list[float] = []
    gets: list[float] = []
    games: list[str] = []  # the victim's games against the computer
    stored = True
    dropped = 0  # the victim's sockets the server closed
    ws_base = base.replace("http", "ws")
    rng = random.Random(1)
    deadline = time.monotonic() + seconds
    async with client_from(VICTIM, timeout=120) as client:

        async def humans() -> None:
            nonlocal stored, dropped
            while time.monotonic() < deadline:
                game = (await client.post(f"{base}/api/games", json=HUMANS)).json()
                acknowledged: list[str] = []
                status = "active"
                while status == "active" and time.monotonic() < deadline:
                    try:  # a socket the server drops (too far behind: a slow server) is opened again
                        async with websockets.connect(f"{ws_base}/api/games/{game['id']}/ws", max_size=2**22,
                                                      local_addr=(VICTIM, 0)) as ws:
                            state = await next_state(ws)
                            while state["status"] == "active" and time.monotonic() < deadline:
                                await asyncio.sleep(0.5)
                                move = rng.choice(state["legal_moves"])
                                sent = time.perf_counter()
                                await ws.send(json.dumps({"type": "move", "move": move, "version": state["version"],
                                                          "token": game["tokens"][str(state["player"])]}))
                                while (after := await next_state(ws))["version"] <= state["version"]:
                                    pass
                                state = after
                                latencies.append(time.perf_counter() - sent)
                                acknowledged = [m["move"] for m in state["moves"]]
                            status = state["status"]
                    except websockets.ConnectionClosed:
                        dropped += 1
                record = (await client.get(f"{base}/api/games/{game['id']}/record")).json()
                stored = stored and record["moves"][:len(acknowledged)] == acknowledged

        async def computer() -> None:
            while time.monotonic() < deadline:
                created = await client.post(f"{base}/api/games", json=VS_HARD)
                if created.status_code != 201:
                    await asyncio.sleep(1.0)  # busy: the victim's next game waits (its running ones never do)
                    continue
                game = created.json()
                games.append(game["id"])
                token = game["tokens"]["0"]
                state = game["state"]
                while state["status"] == "active" and time.monotonic() < deadline:
                    await asyncio.sleep(1.0)  # a person thinks
                    sent = time.perf_counter()
                    state = (await client.post(f"{base}/api/games/{game['id']}/moves",
                                               json={"move": rng.choice(state["legal_moves"])},
                                               headers={"X-Seat-Token": token})).json()
                    while state["status"] == "active" and state["player"] != 0:
                        await asyncio.sleep(0.05)
                        state = (await client.get(f"{base}/api/games/{game['id']}",
                                                  headers={"X-Seat-Token": token})).json()
                    answers.append(time.perf_counter() - sent)

        async def health() -> None:
            while time.monotonic() < deadline:
                sent = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):
                    await client.get(f"{base}/api/health")
                gets.append(time.perf_counter() - sent)
                await asyncio.sleep(0.05)

        await asyncio.gather(humans(), computer(), health())
        # the worst lag while the victim played (the server's start before it is not the attack's)
        lag = (await client.get(f"{base}/api/health?window={min(60.0, seconds):.0f}")).json().get("loop_lag_ms")
    latencies.sort()
    gets.sort()
    return {"hard_answers": len(answers), "hard_worst_s": round(max(answers), 2) if answers else None,
            "human_p50_ms": ms(statistics.median(latencies)) if latencies else None,
            "human_p99_ms": ms(percentile(latencies, 0.99)) if latencies else None, "stored": stored,
            "sockets_dropped": dropped,
            "get_p99_ms": ms(percentile(gets, 0.99)) if gets else None, "loop_lag_ms": lag, "games": games}


async def next_state(ws: Any) -> dict[str, Any]:
    """The next whole view a game's socket sends (its other messages skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 120))
        if message["type"] == "state":
            state: dict[str, Any] = message["state"]
            return state


def ms(seconds: float) -> float:
    return round(1000 * seconds, 1)


def percentile(values: list[float], share: float) -> float:
    return values[int(share * (len(values) - 1))]


class Counts(dict[str, int]):
    def add(self, response: httpx.Response | None) -> None:
        key = "failed" if response is None else str(response.status_code)
        self[key] = self.get(key, 0) + 1


async def send(client: httpx.AsyncClient, counts: Counts, method: str, url: str,
               **kwargs: Any) -> httpx.Response | None:
    try:
        response = await client.request(method, url, **kwargs)
    except httpx.HTTPError:
        response = None
    counts.add(response)
    return response


async def attack(kind: str, base: str, seconds: float, counts: Counts) -> None:
    """Run the attack ``kind`` for ``seconds``, counting its requests by outcome (status code, or failed)."""
    deadline = time.monotonic() + seconds
    ws_base = base.replace("http", "ws")
    if kind == "computers":
        async with client_from(attacker(0), timeout=60, limits=httpx.Limits(max_connections=300)) as client:
            computers = {**VS_HARD, "seats": [{"kind": "computer", "level": "hard"}] * 2}
            await asyncio.gather(*(send(client, counts, "POST", f"{base}/api/games", json=computers)
                                   for _ in range(200)))
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    elif kind == "addresses":
        async def program(number: int) -> None:  # four games from one address, each answered at once
            async with client_from(attacker(number), timeout=60) as client:
                async def play() -> None:
                    created = await send(client, counts, "POST", f"{base}/api/games", json=VS_HARD)
                    if created is None or created.status_code != 201:
                        return
                    game = created.json()
                    token, state = game["tokens"]["0"], game["state"]
                    while time.monotonic() < deadline and state["status"] == "active":
                        if state["player"] == 0:
                            answer = await send(client, counts, "POST", f"{base}/api/games/{game['id']}/moves",
                                                json={"move": state["legal_moves"][0]},
                                                headers={"X-Seat-Token": token})
                        else:
                            await asyncio.sleep(0.02)
                            answer = await send(client, counts, "GET", f"{base}/api/games/{game['id']}",
                                                headers={"X-Seat-Token": token})
                        if answer is None or answer.status_code != 200:
                            await asyncio.sleep(0.2)
                            continue
                        state = answer.json()

                await asyncio.gather(*(play() for _ in range(4)))

        await asyncio.gather(*(program(number) for number in range(525)))
    elif kind == "puzzles":
        async def puzzles(number: int) -> None:
            async with client_from(attacker(number), timeout=120) as client:
                seed = number * 1000
                while time.monotonic() < deadline:
                    seed += 1
                    await send(client, counts, "POST", f"{base}/api/puzzles",
                               json={"game": "ricochet", "options": {"difficulty": 30}, "seed": seed})

        await asyncio.gather(*(puzzles(number % 10 * 100 + number) for number in range(30)))
    elif kind == "hints":
        async with client_from(attacker(0), timeout=120, limits=httpx.Limits(max_connections=100)) as client:
            made = []
            for _ in range(60):
                puzzle = await send(client, counts, "POST", f"{base}/api/puzzles",
                                    json={"game": "ricochet", "puzzle": HARD_PUZZLE})
                if puzzle is not None and puzzle.status_code == 201:
                    made.append(puzzle.json())
            while time.monotonic() < deadline:
                await asyncio.gather(*(send(client, counts, "POST", f"{base}/api/games/{p['id']}/hint?level=4",
                                            headers={"X-Seat-Token": p["token"]}) for p in made))
                if not made:
                    await asyncio.sleep(0.5)
    elif kind == "idle":
        host, port = base.removeprefix("http://").split(":")
        writers = []
        for number in range(1000):
            address = attacker(0) if number < 500 else attacker(1 + number % 60)
            try:
                _, writer = await asyncio.open_connection(host, int(port), local_addr=(address, 0))
                writers.append(writer)
                counts["opened"] = counts.get("opened", 0) + 1
            except OSError:
                counts["refused"] = counts.get("refused", 0) + 1
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        for writer in writers:
            writer.close()
    elif kind == "positions":
        line = long_atoms_line()
        body = {"game": "atoms", "options": {"rows": 26, "cols": 26, "players": 8}, "moves": line}

        async def checker(number: int) -> None:
            async with client_from(attacker(number), timeout=60) as client:
                while time.monotonic() < deadline:
                    await send(client, counts, "POST", f"{base}/api/positions", json=body)

        await asyncio.gather(*(checker(number) for number in range(40)))
    elif kind == "watchers":
        async with client_from(attacker(0), timeout=60) as client:
            game = (await client.post(f"{base}/api/games", json=HUMANS)).json()

            async def watch(number: int) -> None:
                with contextlib.suppress(Exception):
                    async with websockets.connect(f"{ws_base}/api/games/{game['id']}/ws",
                                                  local_addr=(attacker(number % 40), 0)) as ws:
                        counts["watching"] = counts.get("watching", 0) + 1
                        while time.monotonic() < deadline:
                            await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))

            async def players() -> None:
                rng = random.Random(3)
                while time.monotonic() < deadline:
                    state = (await client.get(f"{base}/api/games/{game['id']}")).json()
                    if state["status"] != "active":
                        break
                    await send(client, counts, "POST", f"{base}/api/games/{game['id']}/moves",
                               json={"move": rng.choice(state["legal_moves"])},
                               headers={"X-Seat-Token": game["tokens"][str(state["player"])]})
                    await asyncio.sleep(0.3)

            await asyncio.gather(*(watch(number) for number in range(1000)), players(), return_exceptions=True)
    elif kind == "pings":
        async with client_from(attacker(0), timeout=60) as client:
            game = (await client.post(f"{base}/api/games", json=HUMANS)).json()

        async def flood() -> None:
            with contextlib.suppress(Exception):
                async with websockets.connect(f"{ws_base}/api/games/{game['id']}/ws",
                                              local_addr=(attacker(0), 0)) as ws:
                    while time.monotonic() < deadline:
                        await ws.ping()
                        counts["pings"] = counts.get("pings", 0) + 1
                        await asyncio.sleep(0)
            counts["closed"] = counts.get("closed", 0) + 1

        await asyncio.gather(*(flood() for _ in range(4)))
    elif kind == "replays":
        state = damier.load("atoms", rows=12, cols=12).new_state(0)
        record = damier.Record.from_state(state).to_json()
        record["moves"] = long_game()
        async with client_from(attacker(0), timeout=60) as client:
            imported = await send(client, counts, "POST", f"{base}/api/records", json=record)
            game_id = imported.json().get("id") if imported is not None and imported.status_code == 201 else None

            async def fetch() -> None:
                while time.monotonic() < deadline and game_id:
                    await send(client, counts, "GET", f"{base}/api/games/{game_id}/replay")

            await asyncio.gather(*(fetch() for _ in range(4)))


def long_game() -> list[str]:
    """The moves of a whole Atoms game on 12 x 12 (random play: about 280 moves), for the replay attack."""
    state = damier.load("atoms", rows=12, cols=12).new_state(0)
    rng = random.Random(7)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return state.moves_in_notation()


def long_atoms_line() -> list[str]:
    """200 moves on the largest Atoms board with eight colours (the position check's largest answer)."""
    state = damier.load("atoms", rows=26, cols=26, players=8).new_state()
    rng = random.Random(5)
    for _ in range(200):
        state.play(rng.choice(state.legal_moves()))
    return state.moves_in_notation()


def attacking(kind: str, base: str, seconds: float, results: Any) -> None:
    """The attacker's process: the attack ``kind`` for ``seconds`` (cut 30 s later if it lingers), its counts put
    on ``results``. It stands for clients on other machines: on this one it yields the cores (``ATTACKER_NICENESS``)
    to the server and to the victim's measures, and it has its own event loop, so that neither delays the other's
    clock."""
    os.nice(ATTACKER_NICENESS)
    counts = Counts()
    with contextlib.suppress(Exception):
        asyncio.run(asyncio.wait_for(attack(kind, base, seconds, counts), seconds + 30))
    results.put(dict(counts))


def measure(base: str, kind: str, seconds: float) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    attacker_process = context.Process(target=attacking, args=(kind, base, seconds, results))
    attacker_process.start()
    time.sleep(1.0)  # the attack under way
    figures = asyncio.run(victim(base, seconds - 2))
    try:
        counts = results.get(timeout=60)
    except queue.Empty:
        counts = {"error": "the attack did not end"}
    attacker_process.join(timeout=10)
    if attacker_process.is_alive():
        attacker_process.kill()
    return {**figures, "attacker": counts}


def second_servers(checkout: Path, folder: Path, port: int) -> dict[str, Any]:
    """A server on a SQLite file, then a second one on the same file by other names: each must be refused."""
    database = folder / "arcade.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(checkout))
    first = subprocess.Popen([sys.executable, "-m", "damier.cli", "serve", "--port", str(port), "--db",
                              f"sqlite:///{database}", "--workers", "1"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.STDOUT, env=env, cwd=checkout, start_new_session=True)
    refused: dict[str, Any] = {}
    try:
        answering(first, port, folder / "none.log", 120)
        (folder / "link.sqlite3").symlink_to(database)
        os.link(database, folder / "hard.sqlite3")
        for name, url in (("symlink", f"sqlite:///{folder / 'link.sqlite3'}"),
                          ("hard link", f"sqlite:///{folder / 'hard.sqlite3'}"),
                          ("file: URI", f"sqlite:///file:{database}?uri=true")):
            second = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--port", str(port + 1), "--db",
                                     url, "--workers", "1"], capture_output=True, text=True, env=env, cwd=checkout,
                                    timeout=60, start_new_session=True)
            refused[name] = second.returncode != 0
    except subprocess.TimeoutExpired:
        refused["error"] = "a second server started and kept running"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    return refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, help="another checkout to measure side by side (before the fixes)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attacks", default=",".join((*ATTACKS, "sqlite")))
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
                if kind == "sqlite":
                    report.setdefault(kind, {})[name] = second_servers(checkout, Path(folder), port)
                    port += 2
                    print(kind, name, json.dumps(report[kind][name]), flush=True)
                    continue
                server, log = start(checkout, port, Path(folder))
                try:
                    base = f"http://127.0.0.1:{port}"
                    asyncio.run(warm(base))
                    figures = (asyncio.run(victim(base, args.seconds)) if kind == "none"
                               else measure(base, kind, args.seconds))
                    # the victim's computer moves that were random (the server logs each, with its game)
                    randoms = [line for line in log.read_text(errors="replace").splitlines()
                               if "playing a random move" in line]
                    games = figures.pop("games")
                    figures["hard_random"] = sum(any(g in line for g in games) for line in randoms)
                    figures["all_random"] = len(randoms)
                    report.setdefault(kind, {})[name] = figures
                finally:  # the server and every process it started (an old server's workers outlive it)
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(server.pid, signal.SIGKILL)
                    server.wait(timeout=30)
                port += 1
            print(kind, name, json.dumps(report[kind][name]), flush=True)
    print(json.dumps({"goals": GOALS, "report": report}, indent=2))


if __name__ == "__main__":
    main()
