"""Several arcades on one PostgreSQL database (issue 13, "several servers, one truth"): each keeps its own rooms in
memory, and the database decides; a change made on a copy of a game that is not the latest (the other server
changed it since) is refused with 409 and changes nothing, and the next request sees the game as it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import damier
from damier.server import secret
from tests.server.conftest import GENEROUS, ServerProcess, make_app
from tests.server.postgres import fresh_database
from tests.server.test_storage import postgres_url  # noqa: F401 (the fixture)

HUMANS = {"game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[tuple[TestClient, TestClient]]:  # noqa: F811
    with fresh_database(postgres_url, "two_servers") as url, \
            TestClient(make_app(url, workers=1, limits=GENEROUS)) as one, \
            TestClient(make_app(url, workers=1, limits=GENEROUS)) as other:
        yield one, other


def act(client: TestClient, path: str, token: str, body: Any = None) -> Any:
    return client.post(path, json=body, headers={"X-Seat-Token": token})


def test_a_change_on_a_stale_copy_is_refused_and_changes_nothing(two_servers: tuple[TestClient, TestClient]) -> None:
    one, other = two_servers
    game = one.post("/api/games", json=HUMANS).json()
    red, blue, path = game["tokens"]["0"], game["tokens"]["1"], f"/api/games/{game['id']}"
    for token, square in ((red, "a1"), (blue, "c3")):
        assert act(one, f"{path}/moves", token, {"move": square}).status_code == 200
    assert other.get(path).json()["version"] == 2  # the other server keeps a copy of the game at move 2
    for token, square in ((red, "a2"), (blue, "c2")):
        assert act(one, f"{path}/moves", token, {"move": square}).status_code == 200
    # an undo decided on a stale copy would take back moves it never saw: it is refused, or (the other server
    # heard of the moves first) it is the request of the game as it is
    undo = act(other, f"{path}/undo", red)
    assert undo.status_code == 200 or "changed elsewhere" in undo.json()["error"], undo.text
    seen = other.get(path).json()
    assert [m["move"] for m in seen["moves"]] == ["A1", "C3", "A2", "C2"]
    assert one.get(path).json()["moves"] == seen["moves"]


def test_moves_through_both_servers_never_fork(two_servers: tuple[TestClient, TestClient]) -> None:
    one, other = two_servers
    game = one.post("/api/games", json=HUMANS).json()
    red, blue, path = game["tokens"]["0"], game["tokens"]["1"], f"/api/games/{game['id']}"
    # both servers take a move for ply 1 from their copies: one is stored, the other refused
    answers = [act(server, f"{path}/moves", red, {"move": square}) for server, square in ((one, "a1"), (other, "b1"))]
    assert sorted(a.status_code for a in answers) == [200, 409]
    stored = [m["move"] for m in one.get(path).json()["moves"]]
    assert stored == [m["move"] for m in other.get(path).json()["moves"]] and len(stored) == 1
    assert act(other, f"{path}/moves", blue, {"move": "c3"}).status_code == 200
    # the first server hears of the move (LISTEN/NOTIFY) and shows it
    deadline = time.monotonic() + 10
    while [m["move"] for m in one.get(path).json()["moves"]] != [*stored, "C3"]:
        assert time.monotonic() < deadline, "the first server did not hear of the other's move"
        time.sleep(0.05)


def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    first = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "first.log")
    first.start()
    try:
        second = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--db", first.db, "--port", "1"],
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert first.process is not None
        [line] = second.stderr.strip().splitlines()
        assert line.startswith(f"error: another damier server is running on {tmp_path / 'arcade.sqlite3'} "
                               f"(pid {first.process.pid}: ")  # the first one named, from the kernel's locks
        assert "damier.cli serve" in line and line.endswith(
            "a SQLite database serves one server at a time, whatever its name (a link to it too): stop the other, or "
            "run several on PostgreSQL (--db postgresql://...)")
        first.kill()  # a killed server leaves no lock behind
        first.start()
        assert first.process is not None and first.process.poll() is None
    finally:
        first.stop()


@pytest.fixture
def pg_servers(postgres_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:  # noqa: F811
    with fresh_database(postgres_url, "two_processes") as url:
        one = ServerProcess(url, tmp_path / "one.log")
        other = ServerProcess(url, tmp_path / "other.log")
        env = {secret.ENV: "5e" * 32}  # servers on one database share one secret
        try:
            os.environ.update(env)
            one.start()
            other.start()
            yield one, other
        finally:
            for name in env:
                os.environ.pop(name, None)
            one.stop()
            other.stop()


def test_two_server_processes_share_games_live(pg_servers: tuple[ServerProcess, ServerProcess]) -> None:
    from websockets.sync.client import connect

    one, other = pg_servers
    game = httpx.post(f"{one.url}/api/games", json=HUMANS, timeout=30).json()
    red, blue = game["tokens"]["0"], game["tokens"]["1"]
    with connect(f"{other.url.replace('http', 'ws')}/api/games/{game['id']}/ws", open_timeout=30) as socket:
        assert json.loads(socket.recv(timeout=30))["state"]["version"] == 0
        # a move made on the first server reaches a watcher of the second at once
        moved = httpx.post(f"{one.url}/api/games/{game['id']}/moves", json={"move": "a1"}, timeout=30,
                           headers={"X-Seat-Token": red})
        assert moved.status_code == 200, moved.text
        seen = json.loads(socket.recv(timeout=10))["state"]
        assert seen["version"] == 1 and [m["move"] for m in seen["moves"]] == ["A1"]
        # a move made on the second (the same tokens: one secret) reaches the first
        moved = httpx.post(f"{other.url}/api/games/{game['id']}/moves", json={"move": "c3"}, timeout=30,
                           headers={"X-Seat-Token": blue})
        assert moved.status_code == 200, moved.text
    deadline = time.monotonic() + 10
    while httpx.get(f"{one.url}/api/games/{game['id']}", timeout=30).json()["version"] != 2:
        assert time.monotonic() < deadline, "the first server did not hear of the second's move"
        time.sleep(0.1)


def test_who_is_here_is_shown_across_two_server_processes(pg_servers: tuple[ServerProcess, ServerProcess]) -> None:
    """Each player's page on a different server: each sees the other online, then away, then gone."""
    from websockets.sync.client import connect

    one, other = pg_servers
    game = httpx.post(f"{one.url}/api/games", json=HUMANS, timeout=30).json()
    red, blue = game["tokens"]["0"], game["tokens"]["1"]

    def next_presence(socket: Any) -> dict[str, str]:
        while True:
            message = json.loads(socket.recv(timeout=20))
            if message["type"] == "presence":
                return dict(message["seats"])

    path = f"/api/games/{game['id']}/ws"
    with connect(f"{one.url.replace('http', 'ws')}{path}", open_timeout=30) as red_socket:
        assert json.loads(red_socket.recv(timeout=30))["type"] == "state"
        red_socket.send(json.dumps({"type": "hello", "token": red}))
        assert next_presence(red_socket) == {"0": "online"}
        with connect(f"{other.url.replace('http', 'ws')}{path}", open_timeout=30) as blue_socket:
            assert json.loads(blue_socket.recv(timeout=30))["type"] == "state"
            blue_socket.send(json.dumps({"type": "hello", "token": blue}))
            # the second server asks who is here as its player arrives: the first answers at once
            assert next_presence(red_socket) == {"0": "online", "1": "online"}
            seen = next_presence(blue_socket)
            if seen != {"0": "online", "1": "online"}:
                assert seen == {"1": "online"}
                assert next_presence(blue_socket) == {"0": "online", "1": "online"}
            blue_socket.send(json.dumps({"type": "hello", "token": blue, "away": True}))
            assert next_presence(red_socket) == {"0": "online", "1": "away"}
        assert next_presence(red_socket) == {"0": "online"}  # the second player's page closed


def test_moves_sent_to_two_server_processes_at_once_never_fork(
        pg_servers: tuple[ServerProcess, ServerProcess]) -> None:
    one, other = pg_servers
    game = httpx.post(f"{one.url}/api/games", json={**HUMANS, "options": {"rows": 6, "cols": 6}}, timeout=30).json()
    tokens = game["tokens"]
    path = f"/api/games/{game['id']}"
    for ply in range(8):
        deadline = time.monotonic() + 10
        while True:  # both servers know the game at this ply (they heard of each other's moves)
            views = [httpx.get(f"{s.url}{path}", timeout=30, headers={"X-Seat-Token": tokens["0"]}).json()
                     for s in (one, other)]
            if all(v["version"] == ply for v in views):
                break
            assert time.monotonic() < deadline, [v["version"] for v in views]
            time.sleep(0.05)
        seat = views[0]["player"]
        if seat < 0:
            break  # the game is over
        legal = httpx.get(f"{one.url}{path}", timeout=30, headers={"X-Seat-Token": tokens[str(seat)]}).json()[
            "legal_moves"]
        picks = [legal[0], legal[-1]]
        answers: list[httpx.Response] = []

        def send(server: ServerProcess, move: str, ply: int, seat: int, answers: list[httpx.Response]) -> None:
            answers.append(httpx.post(f"{server.url}{path}/moves", json={"move": move, "version": ply}, timeout=30,
                                      headers={"X-Seat-Token": tokens[str(seat)]}))

        threads = [threading.Thread(target=send, args=(s, m, ply, seat, answers))
                   for s, m in zip((one, other), picks, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(a.status_code for a in answers).count(200) == 1, [a.text for a in answers]
    record = httpx.get(f"{other.url}{path}/record", timeout=30).json()
    assert len(record["moves"]) == ply + (seat >= 0) and damier.Record.from_json(record).replay() is not None


@pytest.mark.slow
def test_a_computer_game_goes_on_when_the_server_thinking_it_is_killed(
        pg_servers: tuple[ServerProcess, ServerProcess]) -> None:
    one, other = pg_servers
    computers = {"game": "atoms", "options": {"rows": 4, "cols": 4},
                 "seats": [{"kind": "computer", "level": "hard"}, {"kind": "computer", "level": "medium"}]}
    # (one seat thinks a second a move, so that the kill comes mid-game; the other answers at once)
    game = httpx.post(f"{one.url}/api/games", json=computers, timeout=30).json()
    path = f"/api/games/{game['id']}"
    deadline = time.monotonic() + 60
    while httpx.get(f"{other.url}{path}", timeout=30).json()["version"] < 2:  # the first server plays it
        assert time.monotonic() < deadline, "the first server did not play"
        time.sleep(0.2)
    one.kill()  # mid-turn: it held the lease of the next computer turn
    left = httpx.get(f"{other.url}{path}", timeout=30).json()["version"]
    deadline = time.monotonic() + 120
    while (view := httpx.get(f"{other.url}{path}", timeout=30).json())["status"] == "active":
        assert time.monotonic() < deadline, f"the game stopped at version {view['version']} (left at {left})"
        time.sleep(0.5)
    assert view["status"] == "finished" and view["version"] > left
    record = httpx.get(f"{other.url}{path}/record", timeout=30).json()
    assert damier.Record.from_json(record).replay().is_over()
    # one server thought each turn: no answer was refused for a move another server had stored first
    for server in (one, other):
        assert "computer move failed" not in server.log.read_text(), server.log.read_text()[-2000:]
