"""What a move costs to broadcast (issue 13, finding 6): for each game of the registry, a game between people
(default options) played with random legal moves over the real app, one WebSocket watching; per move, the
length of the whole view's message, of the message the watcher was sent (a delta when the view is large), and
the server's work for it, once per move whatever the number of watchers: serialising the view (before and
after), and then parsing it and diffing against the last one (after only); and, side by side, the same JSON
Patch made by the ``jsonpatch`` package's ``make_patch`` instead of ours (its time, and the length of its delta).
Then, for ``--watchers`` sockets, the bytes a move sends before (every socket the whole view) and after.

With ``--sockets N``: a Khet game between people on a real ``damier serve`` of this checkout (and with ``--base
PATH``, of another checkout: the code before deltas) watched by N WebSockets; per move, the server process's CPU
time (moves made over HTTP, each waited for on every socket) and the bytes each socket received.

    python benchmarks/broadcast.py [--moves 40] [--watchers 1000] [--seed 1]
    python benchmarks/broadcast.py --sockets 1000 [--moves 20] [--base PATH]
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
import jsonpatch
import websockets
from fastapi.testclient import TestClient
from server_load import answering  # benchmarks/, this script's folder

import damier
from damier.server.app import create_app
from damier.server.limits import Limits
from damier.server.rooms import delta
from damier.server.rooms.room import encode


def best_time(work: Any, repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs of ``work()``, in seconds (the least disturbed)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def play(client: TestClient, name: str, moves: int, rng: random.Random) -> list[dict[str, Any]]:
    """A game of ``name`` between people, ``moves`` random moves (fewer if it ends), watched by one socket: per
    move, the lengths of the whole message and of the message sent, and the server's work."""
    players = damier.load(name).num_players
    created = client.post("/api/games", json={"game": name, "options": {}, "seats": [{"kind": "human"}] * players})
    created.raise_for_status()
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    rows = []
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/games/{game_id}/ws?deltas=1") as socket:
        before = json.loads(socket.receive_text())["state"]
        for _ in range(moves):
            view = client.get(f"/api/games/{game_id}").json()
            if view["status"] != "active" or not view["legal_moves"]:
                break
            move = rng.choice(view["legal_moves"])
            answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "version": view["version"]},
                                 headers={"X-Seat-Token": tokens[str(view["player"])]})
            answer.raise_for_status()
            text = socket.receive_text()
            while json.loads(text)["type"] not in ("state", "delta"):
                text = socket.receive_text()
            row, before = measure(arcade.rooms.peek(game_id), before, text)
            rows.append(row)
    return rows


def measure(room: Any, before: Any, sent: str) -> tuple[dict[str, Any], Any]:
    """The lengths of the whole message of ``room``'s view now and of the message ``sent``, and the server's work
    for them: serialising the view, and parsing it and diffing it against the view ``before`` (as
    ``Room.broadcast`` does), by our diff and by ``jsonpatch.make_patch``, with the length of the message the
    library's patch makes; and the view now (parsed), the next move's ``before``."""
    view = room.snapshot()
    whole = encode({"type": "state", "seq": room.seq, "state": view})
    kind = json.loads(sent)["type"]
    theirs = jsonpatch.make_patch(before, json.loads(encode(view))).patch
    row = {"whole": len(whole.encode()), "sent": len(sent.encode()), "kind": kind,
           "encode": best_time(lambda: encode(room.snapshot())),
           "diff": best_time(lambda: encode(delta.diff(before, json.loads(encode(view))))),
           "library": best_time(lambda: encode(jsonpatch.make_patch(before, json.loads(encode(view))).patch)),
           "library_sent": len(encode({"type": "delta", "seq": room.seq, "base": room.seq - 1, "patch": theirs})
                               .encode()) if kind == "delta" else len(sent.encode())}
    return row, json.loads(encode(view))


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def watched(url: str, pid: int, sockets: int, moves: int, rng: random.Random) -> tuple[float, float, int]:
    """A Khet game between people watched by ``sockets`` WebSockets, ``moves`` random moves made over HTTP, each
    waited for until every socket has it: the server's CPU seconds per move, the bytes a socket received per move
    (its first view left out), and the moves made."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        created = (await client.post("/api/games", json={"game": "khet", "seats": [{"kind": "human"}] * 2})).json()
        game_id, tokens = created["id"], created["tokens"]
        received = [0] * sockets
        views = [0] * sockets
        changed = asyncio.Condition()

        async def watch(k: int, socket: Any) -> None:
            async for text in socket:
                if '"type":"state"' in text[:40] or '"type":"delta"' in text[:40]:
                    views[k] += 1
                    received[k] += len(text.encode()) if views[k] > 1 else 0
                    async with changed:
                        changed.notify_all()

        async def seen(count: int) -> None:
            async with changed:
                await changed.wait_for(lambda: min(views) >= count)

        ws_url = url.replace("http", "ws") + f"/api/games/{game_id}/ws?deltas=1"  # a base ignores the query
        async with contextlib.AsyncExitStack() as stack:
            readers = []
            for k in range(sockets):
                socket = await stack.enter_async_context(websockets.connect(ws_url, max_size=None))
                readers.append(asyncio.create_task(watch(k, socket)))
            await seen(1)
            start, made = cpu_seconds(pid), 0
            for ply in range(moves):
                view = (await client.get(f"/api/games/{game_id}")).json()
                if view["status"] != "active":
                    break
                answer = await client.post(f"/api/games/{game_id}/moves", headers={
                    "X-Seat-Token": tokens[str(view["player"])]}, json={
                    "move": rng.choice(view["legal_moves"]), "version": view["version"]})
                answer.raise_for_status()
                await seen(ply + 2)
                made += 1
            used = cpu_seconds(pid) - start
            for reader in readers:
                reader.cancel()
        return used / max(made, 1), sum(received) / sockets / max(made, 1), made


def serve(checkout: Path, port: int, folder: Path) -> subprocess.Popen[bytes]:
    """``damier serve`` of ``checkout`` (its own code: PYTHONPATH) on a new SQLite database, once it answers."""
    log = folder / f"server-{port}.log"
    server = subprocess.Popen([sys.executable, "-m", "damier.cli", "serve", "--port", str(port), "--db",
                               f"sqlite:///{folder / f'arcade-{port}.sqlite3'}", "--workers", "1"],
                              stdout=open(log, "ab"), stderr=subprocess.STDOUT,  # noqa: SIM115
                              env=dict(os.environ, PYTHONPATH=str(checkout)), cwd=checkout, start_new_session=True)
    return answering(server, port, log, 90)


def sockets_main(args: argparse.Namespace) -> None:
    """The ``--sockets`` measure, on this checkout's server and on ``--base``'s."""
    checkouts = [("this checkout", Path(__file__).resolve().parent.parent)]
    if args.base:
        checkouts.insert(0, ("base", Path(args.base).resolve()))
    print(f"Khet between people, {args.sockets} watching sockets, server CPU and bytes per move")
    for k, (name, checkout) in enumerate(checkouts):
        with tempfile.TemporaryDirectory() as folder:
            server = serve(checkout, args.port + k, Path(folder))
            try:
                cpu, received, made = asyncio.run(watched(f"http://127.0.0.1:{args.port + k}", server.pid,
                                                          args.sockets, args.moves, random.Random(args.seed)))
            finally:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(30)
        print(f"{name:14} {made} moves: server CPU {1000 * cpu:.1f} ms a move, "
              f"{received / 1000:.1f} KB a socket a move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sockets", type=int, default=0, help="watch a game served for real with this many sockets")
    parser.add_argument("--base", help="with --sockets: another checkout to measure too (the code before)")
    parser.add_argument("--port", type=int, default=8795)
    args = parser.parse_args()
    if args.sockets:
        sockets_main(args)
        return
    rng = random.Random(args.seed)
    limits = Limits.parse("new_games=100000,computer_games=100000,hints=100000")
    with tempfile.TemporaryDirectory() as folder, TestClient(
            create_app(f"sqlite:///{Path(folder) / 'arcade.sqlite3'}", workers=1, limits=limits)) as client:
        print(f"{'game':10} {'moves':>5} {'whole B':>8} {'sent B':>7} {'deltas':>6} {'encode ms':>9} "
              f"{'diff ms':>7} {'jsonpatch ms':>12} {'its B':>6} {'MB/move before':>14} {'after':>6}  "
              f"(x{args.watchers} watchers)")
        for info in damier.games():
            try:
                rows = play(client, info.name, args.moves, rng)
            except Exception as exc:  # a game this script cannot play as people with default options
                print(f"{info.name:10} skipped: {exc}")
                continue
            if not rows:
                continue
            whole = statistics.mean(r["whole"] for r in rows)
            sent = statistics.mean(r["sent"] for r in rows)
            deltas = sum(r["kind"] == "delta" for r in rows)
            print(f"{info.name:10} {len(rows):5} {whole:8.0f} {sent:7.0f} {deltas:6} "
                  f"{1000 * statistics.median(r['encode'] for r in rows):9.3f} "
                  f"{1000 * statistics.median(r['diff'] for r in rows):7.3f} "
                  f"{1000 * statistics.median(r['library'] for r in rows):12.3f} "
                  f"{statistics.mean(r['library_sent'] for r in rows):6.0f} "
                  f"{whole * args.watchers / 1e6:14.2f} {sent * args.watchers / 1e6:6.2f}")


if __name__ == "__main__":
    main()
