"""What a move costs to broadcast (issue 13, finding 6): for each game of the registry, a game between people
(default options) played with random legal moves over the real app, one WebSocket watching; per move, the
length of the whole view's message, of the message the watcher was sent (a delta when the view is large), and
the server's work for it, once per move whatever the number of watchers: serialising the view (before and
after), and then parsing it and diffing against the last one (after only). Then, for ``--watchers`` sockets,
the bytes a move sends before (every socket the whole view) and after.

    python benchmarks/broadcast.py [--moves 40] [--watchers 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

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
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
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
    ``Room.broadcast`` does); and the view now (parsed), the next move's ``before``."""
    view = room.snapshot()
    whole = encode({"type": "state", "seq": room.seq, "state": view})
    row = {"whole": len(whole.encode()), "sent": len(sent.encode()), "kind": json.loads(sent)["type"],
           "encode": best_time(lambda: encode(room.snapshot())),
           "diff": best_time(lambda: encode(delta.diff(before, json.loads(encode(view)))))}
    return row, json.loads(encode(view))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    limits = Limits.parse("new_games=100000,computer_games=100000,hints=100000")
    with tempfile.TemporaryDirectory() as folder, TestClient(
            create_app(f"sqlite:///{Path(folder) / 'arcade.sqlite3'}", workers=1, limits=limits)) as client:
        print(f"{'game':10} {'moves':>5} {'whole B':>8} {'sent B':>7} {'deltas':>6} {'encode ms':>9} "
              f"{'diff ms':>7} {'MB/move before':>14} {'after':>6}  (x{args.watchers} watchers)")
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
                  f"{whole * args.watchers / 1e6:14.2f} {sent * args.watchers / 1e6:6.2f}")


if __name__ == "__main__":
    main()
