"""Several arcades on one PostgreSQL database (issue 13, "several servers, one truth"): each keeps its own rooms in
memory, and the database decides; a change made on a copy of a game that is not the latest (the other server
changed it since) is refused with 409 and changes nothing, and the next request sees the game as it is."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from damier.server.app import create_app
from tests.server.conftest import GENEROUS, ServerProcess
from tests.server.test_storage import postgres_url  # noqa: F401 (the fixture)

HUMANS = {"game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[tuple[TestClient, TestClient]]:  # noqa: F811
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text("DROP DATABASE IF EXISTS two_servers WITH (FORCE)"))
        conn.execute(text("CREATE DATABASE two_servers"))
    url = postgres_url.rsplit("/", 1)[0] + "/two_servers"
    try:
        with TestClient(create_app(url, workers=1, limits=GENEROUS)) as one, \
                TestClient(create_app(url, workers=1, limits=GENEROUS)) as other:
            yield one, other
    finally:
        with admin.connect() as conn:
            conn.execute(text("DROP DATABASE IF EXISTS two_servers WITH (FORCE)"))
        admin.dispose()


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
    # an undo decided on the stale copy would take back moves it never saw: refused, nothing changed
    undo = act(other, f"{path}/undo", red)
    assert undo.status_code == 409 and "changed elsewhere" in undo.json()["error"], undo.text
    seen = other.get(path).json()  # the other server reads the game again: the four moves are there
    assert [m["move"] for m in seen["moves"]] == ["A1", "C3", "A2", "C2"] and seen["undo_request"] == []
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
    # the first server's copy missed that move: its next change is refused, and it reads the game again
    refused = act(one, f"{path}/moves", blue, {"move": "c2"})  # blue to move, in its copy
    assert refused.status_code == 409 and "reload" in refused.json()["error"], refused.text
    assert [m["move"] for m in one.get(path).json()["moves"]] == [*stored, "C3"]


def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    first = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "first.log")
    first.start()
    try:
        second = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--db", first.db, "--port", "1"],
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert second.stderr.strip().splitlines() == [
            f"error: another damier server is running on {tmp_path / 'arcade.sqlite3'} (it holds "
            f"{tmp_path / 'arcade.sqlite3.lock'}); a SQLite database serves one server at a time: stop the other, "
            "or run several on PostgreSQL (--db postgresql://...)"]
        first.kill()  # a killed server leaves no lock behind
        first.start()
        assert first.process is not None and first.process.poll() is None
    finally:
        first.stop()
