"""Hostile input the arcade must survive (issue 13, findings 8 and 10): deeply nested JSON, bodies that are not
JSON or arrive too slowly, a read-only database at start and at run time, servers starting at once on a new
file; the security headers on every answer."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import damier.server
from damier.server.app import BODY_SECONDS
from damier.server.storage import Storage, StorageError
from tests.server.conftest import ServerProcess, make_app
from tests.server.postgres import fresh_database
from tests.server.test_storage import postgres_url  # noqa: F401 (the fixture)

NEW_GAME = {"game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]}


def test_deeply_nested_json_is_a_clear_400_and_the_server_goes_on(client: TestClient) -> None:
    deep = "[" * 30_000 + "]" * 30_000
    for path in ("/api/records", "/api/games", "/api/positions"):
        answer = client.post(path, content=deep, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, (path, answer.status_code, answer.text)
        assert answer.json()["error"] == "the JSON body is nested too deeply", answer.text
    assert client.get("/api/catalog").status_code == 200


def test_a_body_that_is_not_json_is_refused_with_415_and_changes_nothing(client: TestClient) -> None:
    import json

    record = client.post("/api/games", json=NEW_GAME)
    assert record.status_code == 201
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        answer = client.post("/api/records", content=json.dumps({"game": "atoms"}), headers={"Content-Type": kind})
        assert answer.status_code == 415, answer.text
        assert answer.json()["error"] == f"a request body is JSON (Content-Type: application/json), not " \
                                          f"{kind.split(';')[0]}"
    untyped = client.post("/api/games", content=json.dumps(NEW_GAME), headers={"Content-Type": ""})
    assert untyped.status_code == 415 and "not untyped" in untyped.json()["error"]
    # a request without a body needs no type (a hint, an undo)
    game = record.json()
    hint = client.post(f"/api/games/{game['id']}/hint", headers={"X-Seat-Token": game["tokens"]["0"]})
    assert hint.status_code != 415


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/static/js/main.js", "/api/catalog", "/api/games/nope"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy and "unsafe" not in policy
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"
    refused = client.post("/api/records", content="x", headers={"Content-Type": "text/plain"})
    assert "content-security-policy" in refused.headers
    docs = client.get("/docs").headers["content-security-policy"]
    assert "script-src 'self';" in docs and "http" not in docs and "frame-ancestors 'none'" in docs


def slow_upload(url: str, send_every: float, total: float) -> tuple[bool, bytes]:
    """Send a POST of 1,000 bytes whose body trickles in (a byte every ``send_every`` s, for at most ``total`` s,
    far less than the whole body needs): whether the server answered while the body was still coming, and its
    answer."""
    host, port = url.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=total + 5) as sock:
        sock.sendall(b"POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n")
        sock.settimeout(send_every)
        answer = b""
        while time.monotonic() - started < total and not answer:
            try:
                answer = sock.recv(4096)
            except TimeoutError:
                try:
                    sock.sendall(b" ")
                except OSError:
                    break
        while_sending = bool(answer)
        sock.settimeout(5)
        while chunk := sock.recv(4096):  # the rest of the answer, until the server closes the connection
            answer += chunk
        return while_sending, answer


def test_a_slow_upload_is_answered_408_and_dropped(server: ServerProcess) -> None:
    # the body would take 500 s; the client trickles it for BODY_SECONDS + 20 s: the server answers before
    while_sending, answer = slow_upload(server.url, 0.5, BODY_SECONDS + 20)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within" in answer and while_sending
    assert httpx.get(f"{server.url}/api/health", timeout=5).status_code == 200


def test_a_read_only_database_is_refused_at_start_with_the_reason(tmp_path: Path) -> None:
    Storage(f"sqlite:///{tmp_path / 'a.db'}").close()
    read_only = f"sqlite:///file:{tmp_path / 'a.db'}?mode=ro&uri=true"
    with pytest.raises(StorageError, match=r"cannot be written .*readonly database.*give a database it may write"):
        Storage(read_only)
    done = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--db", read_only], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "cannot be written" in done.stderr


def test_a_database_turned_read_only_answers_503_with_the_reason_and_changes_nothing(
        postgres_url: str) -> None:  # noqa: F811
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    try:
        with fresh_database(postgres_url, "read_only_test") as url, TestClient(make_app(url, workers=1)) as client:
            game = client.post("/api/games", json=NEW_GAME).json()
            with admin.connect() as conn:  # the database turns read-only; the server's connections are cut
                conn.execute(text("ALTER DATABASE read_only_test SET default_transaction_read_only = on"))
                conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE datname = 'read_only_test' AND pid <> pg_backend_pid()"))
            moved = client.post(f"/api/games/{game['id']}/moves", json={"move": "a1"},
                                headers={"X-Seat-Token": game["tokens"]["0"]})
            assert moved.status_code == 503 and moved.headers["retry-after"] == "30", moved.text
            assert "read-only transaction" in moved.json()["error"] and "nothing was changed" in moved.json()["error"]
            created = client.post("/api/games", json=NEW_GAME)
            assert created.status_code == 503, created.text
            view = client.get(f"/api/games/{game['id']}").json()
            assert view["moves"] == [] and view["version"] == 0
    finally:
        admin.dispose()


def test_servers_starting_at_once_on_a_new_database_all_open_it(tmp_path: Path) -> None:
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'new{attempt}.sqlite3'}"
        script = f"from damier.server.storage import Storage; Storage({url!r}).close(); print('ok')"

        def start(_: int, script: str = script) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)

        with ThreadPoolExecutor(4) as pool:
            runs = list(pool.map(start, range(4)))
        assert all(r.returncode == 0 and r.stdout.strip() == "ok" for r in runs), [r.stderr for r in runs]
        storage = Storage(url)
        assert storage.current_version() >= 1
        storage.close()


def test_a_socket_that_floods_messages_is_closed_with_1008(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    from damier.server.sockets import WS_BURST

    game = client.post("/api/games", json=NEW_GAME).json()
    pongs = 0
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        for _ in range(int(WS_BURST) + 40):
            socket.send_text('{"type": "ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                assert socket.receive_json()["type"] == "pong"
                pongs += 1
    assert closed.value.code == 1008 and "messages a second" in closed.value.reason
    assert WS_BURST - 5 <= pongs <= WS_BURST + 5, pongs


def test_a_watcher_too_far_behind_is_dropped_once_and_takes_nothing_more() -> None:
    from damier.server.rooms.room import Watcher

    async def scenario() -> tuple[list[bool], int]:
        closes = 0
        stalled = asyncio.Event()

        async def send(_text: str) -> None:
            await stalled.wait()  # a client that never reads

        async def close() -> None:
            nonlocal closes
            closes += 1

        watcher = Watcher(send, close)
        accepted = [watcher.offer(f"message {i}") for i in range(Watcher.QUEUE_SIZE + 10)]
        await asyncio.sleep(0.05)
        return accepted, closes

    accepted, closes = asyncio.run(scenario())
    # the queue fills (nothing is sent yet); the next offer drops the watcher, and every later one is refused
    assert accepted[:Watcher.QUEUE_SIZE] == [True] * Watcher.QUEUE_SIZE and not any(accepted[Watcher.QUEUE_SIZE:])
    assert closes == 1


def test_the_board_modules_styles_are_served_as_one_sheet(client: TestClient) -> None:
    page = client.get("/").text
    assert page.index('href="/static/styles.css"') < page.index('href="/static/games.css"')
    sheet = client.get("/static/games.css")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/css")
    assert "script-src 'self';" in sheet.headers["content-security-policy"]
    # each board module's own sheet, whole, in the modules' order
    modules = sorted(Path(damier.server.__file__).parent.glob("static/js/games/*/style.css"))
    assert len(modules) >= 4
    at = [sheet.text.index(p.read_text(encoding="utf-8")) for p in modules]
    assert at == sorted(at)
    again = client.get("/static/games.css", headers={"If-None-Match": sheet.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/static/games.css", headers={"If-None-Match": '"other"'}).status_code == 200
