"""A real `damier serve` process: SIGKILL in the middle of games loses nothing, games resume exactly and a
thinking computer thinks again; concurrent moves in one game cannot corrupt or fork it; a watcher that stops
reading is dropped while the game goes on. Slow (a server process each): ``pytest -m "not slow"`` skips them."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from damier.server.storage import Storage
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow


def post(server: ServerProcess, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
    headers = {"X-Seat-Token": token} if token else {}
    return httpx.post(server.url + path, json=body, headers=headers, timeout=60)


def view(server: ServerProcess, game_id: str) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/api/games/{game_id}", timeout=60)
    response.raise_for_status()
    result: dict[str, Any] = response.json()
    return result


def wait_for_version(server: ServerProcess, game_id: str, version: int, seconds: float = 90) -> dict[str, Any]:
    """Poll the game until it has ``version`` moves (a computer answered); the last view."""
    deadline = time.monotonic() + seconds
    state = view(server, game_id)
    while state["version"] < version and time.monotonic() < deadline:
        time.sleep(0.1)
        state = view(server, game_id)
    return state


def new_game(server: ServerProcess, seats: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    response = post(server, "/api/games", {"game": "atoms", "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_sigkill_loses_nothing_and_a_thinking_computer_thinks_again(server: ServerProcess) -> None:
    # two humans, a few moves in
    humans = new_game(server, [{"kind": "human"}, {"kind": "human"}], {"rows": 5, "cols": 5})
    tokens = humans["tokens"]
    for ply, square in enumerate(["A1", "E5", "B2", "D4", "A1"]):
        assert post(server, f"/api/games/{humans['id']}/moves", {"move": square}, tokens[str(ply % 2)]).is_success
    # against the hard computer (1 s a move on 8x8), killed while it thinks
    versus = new_game(server, [{"kind": "human"}, {"kind": "computer", "level": "hard"}], {})
    assert post(server, f"/api/games/{versus['id']}/moves", {"move": "D4"}, versus["tokens"]["0"]).is_success
    assert view(server, versus["id"])["seats"][1]["thinking"] is True
    before_humans = view(server, humans["id"])
    server.kill()

    stored = Storage(server.db).games.load(humans["id"])
    assert stored is not None and [m for m, _ in stored.moves] == ["A1", "E5", "B2", "D4", "A1"]

    server.start()
    after_humans = view(server, humans["id"])
    for key in ("position", "moves", "legal_moves", "player", "version", "board"):
        assert after_humans[key] == before_humans[key]
    # the computer seat was thinking when the server died: it thinks again and moves
    state = wait_for_version(server, versus["id"], 2)
    assert state["version"] == 2 and state["player"] == 0 and state["moves"][1]["player"] == 1
    # and the game goes on with the same tokens
    square = state["legal_moves"][0]
    assert post(server, f"/api/games/{versus['id']}/moves", {"move": square}, versus["tokens"]["0"]).is_success


def test_concurrent_moves_in_one_game_cannot_fork_it(server: ServerProcess) -> None:
    created = new_game(server, [{"kind": "human"}, {"kind": "human"}], {"rows": 4, "cols": 4})
    game_id, red = created["id"], created["tokens"]["0"]
    squares = ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2"] * 3

    async def race() -> list[int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            responses = await asyncio.gather(*(
                client.post(f"/api/games/{game_id}/moves", json={"move": square},
                            headers={"X-Seat-Token": red})
                for square in squares
            ))
        return [r.status_code for r in responses]

    codes = asyncio.run(race())
    assert codes.count(200) == 1, codes
    assert set(codes) <= {200, 409}
    final = view(server, game_id)
    assert final["version"] == 1 and len(final["moves"]) == 1
    stored = Storage(server.db).games.load(game_id)
    assert stored is not None and len(stored.moves) == 1
    assert stored.moves[0][0] == final["moves"][0]["move"]


def read_frames(sock: socket.socket) -> tuple[list[str], int | None]:
    """Read a WebSocket stream from its HTTP upgrade to its close frame: the text messages, and the close code
    (None if the stream ended without one)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    data = data.split(b"\r\n\r\n", 1)[1]
    texts: list[str] = []
    while True:
        while len(data) < 2 or len(data) < _frame_size(data):
            chunk = sock.recv(65536)
            if not chunk:
                return texts, None
            data += chunk
        size = _frame_size(data)
        opcode, payload = data[0] & 0x0F, data[size - _payload_length(data):size]
        data = data[size:]
        if opcode == 0x1:
            texts.append(payload.decode())
        elif opcode == 0x8:
            return texts, int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None


def _payload_length(data: bytes) -> int:
    length = data[1] & 0x7F
    if length == 126:
        return int.from_bytes(data[2:4], "big") if len(data) >= 4 else 1 << 62
    if length == 127:
        return int.from_bytes(data[2:10], "big") if len(data) >= 10 else 1 << 62
    return length


def _frame_size(data: bytes) -> int:
    """The size of the server frame (unmasked) at the start of ``data`` (huge while its header is incomplete)."""
    header = {126: 4, 127: 10}.get(data[1] & 0x7F, 2)
    return header + _payload_length(data)


def test_a_watcher_that_stops_reading_is_dropped_and_the_game_goes_on(server: ServerProcess) -> None:
    created = new_game(server, [{"kind": "human"}, {"kind": "human"}], {"rows": 26, "cols": 26})
    game_id, tokens = created["id"], created["tokens"]
    # a raw WebSocket client with a tiny receive buffer that reads nothing while the game is played
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.settimeout(60)  # a safety net for a broken server, not a measure
    stalled.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    stalled.sendall((f"GET /api/games/{game_id}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    plies = 300
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            # two changes a ply (a move, then its player asks to take it back), each state ~10 KB on 26x26: 6 MB,
            # more than the kernel and the server buffer for one socket (4 MB at most by Linux's defaults)
            for ply in range(plies):
                state = client.get(f"/api/games/{game_id}").json()
                square = state["legal_moves"][0 if ply % 2 == 0 else -1]  # the players keep to opposite corners
                headers = {"X-Seat-Token": tokens[str(ply % 2)]}
                response = client.post(f"/api/games/{game_id}/moves", json={"move": square}, headers=headers)
                assert response.status_code == 200, response.text
                asked = client.post(f"/api/games/{game_id}/undo", headers=headers)
                assert asked.status_code == 200 and asked.json()["undo_request"] == [ply % 2], asked.text
        assert view(server, game_id)["version"] == plies
        # the stalled watcher was dropped on the way (close code 1013: reconnect), having had only some states
        texts, code = read_frames(stalled)
    finally:
        stalled.close()
    assert code == 1013
    states = [json.loads(text)["state"] for text in texts]
    assert len(states) < 1 + 2 * plies
    assert [s["version"] for s in states] == sorted(s["version"] for s in states)


def test_a_dead_computer_worker_is_replaced(server: ServerProcess) -> None:
    assert server.process is not None
    warm = new_game(server, [{"kind": "computer", "level": "easy"}, {"kind": "human"}], {"rows": 3, "cols": 3})
    assert wait_for_version(server, warm["id"], 1)["version"] == 1
    children = subprocess.run(["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True).stdout.split()
    workers = [int(pid) for pid in children
               if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")]
    assert workers, children
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    created = new_game(server, [{"kind": "human"}, {"kind": "computer", "level": "easy"}], {"rows": 3, "cols": 3})
    assert post(server, f"/api/games/{created['id']}/moves", {"move": "A1"}, created["tokens"]["0"]).is_success
    state = wait_for_version(server, created["id"], 2)
    assert state["version"] == 2 and state["player"] == 0


def test_a_killed_server_leaves_no_worker_behind(server: ServerProcess) -> None:
    assert server.process is not None
    created = new_game(server, [{"kind": "computer", "level": "easy"}, {"kind": "human"}], {"rows": 3, "cols": 3})
    assert wait_for_version(server, created["id"], 1)["version"] == 1
    children = subprocess.run(["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True).stdout.split()
    assert children
    server.kill()
    deadline = time.monotonic() + 20
    alive = children
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in children if Path(f"/proc/{pid}").exists()
                 and "(zombie)" not in Path(f"/proc/{pid}/status").read_text() and
                 "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()]
    assert not alive, f"processes left after the server was killed: {alive}"
    server.start()
