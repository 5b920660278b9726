"""The arcade's connections are bounded (issue 36), tried on a real `damier serve`: idle and half-sent connections
are closed after a deadline and cannot exhaust the server's open files; caps per address and in all answer a 503
(a WebSocket: a close) rather than a hang; WebSocket pings and messages are rate-limited per socket and per
address; X-Forwarded-For is believed only from the proxies named with --forwarded-allow-ips.

Separate clients are separate loopback addresses (127.0.0.2, 127.0.0.3, ...: Linux routes all of 127/8 to this
machine), as a server sees clients."""

from __future__ import annotations

import contextlib
import json
import re
import resource
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.sync.client import ClientConnection, connect

from damier.cli import app
from damier.server.connections import ConnectionLimits
from tests.server.conftest import ServerProcess, free_port

HUMANS = {"game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]}
PING = Frame(Opcode.PING, b"!").serialize(mask=True)


@contextlib.contextmanager
def arcade(tmp_path: Path, *args: str, open_files: tuple[int, int] | None = None,
           limits: str | None = None) -> Iterator[ServerProcess]:
    server = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "server.log", args=args,
                           open_files=open_files, **({"limits": limits} if limits else {}))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def from_address(server: ServerProcess, address: str) -> socket.socket:
    """A connection to the server from ``address`` (a loopback address)."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(address, 0))


def client(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def watch(stack: contextlib.ExitStack, server: ServerProcess, game: str, address: str,
          headers: dict[str, str] | None = None) -> ClientConnection:
    url = f"ws://127.0.0.1:{server.port}/api/games/{game}/ws"
    return stack.enter_context(connect(url, sock=from_address(server, address), additional_headers=headers,
                                       open_timeout=10))


def next_state(socket: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(socket.recv(timeout=10))
        if message["type"] == "state":
            return dict(message["state"])


def version_or_close(socket: ClientConnection, version: int) -> tuple[int, str] | None:
    """``None`` once the socket receives the game at ``version``, or the code and reason it was closed with."""
    try:
        while next_state(socket)["version"] < version:
            pass
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "the server closed the socket without a close frame"
        return closed.rcvd.code, closed.rcvd.reason
    return None


def new_game(server: ServerProcess) -> dict[str, Any]:
    made = httpx.post(f"{server.url}/api/games", json=HUMANS, timeout=30)
    assert made.status_code == 201, made.text
    return dict(made.json())


def move(server: ServerProcess, game: dict[str, Any], seat: int, square: str) -> None:
    moved = httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": square},
                       headers={"X-Seat-Token": game["tokens"][str(seat)]}, timeout=10)
    assert moved.status_code == 200, moved.text


def still_open(sockets: list[socket.socket], seconds: float) -> list[socket.socket]:
    """The sockets the server has not closed within ``seconds`` (what it sends them is read and dropped)."""
    waiting = set(sockets)
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while waiting and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(65536)
                except ConnectionResetError:
                    data = b""
                if not data:
                    selector.unregister(sock)
                    waiting.discard(sock)
    return [sock for sock in sockets if sock in waiting]


def test_idle_and_half_sent_connections_cannot_exhaust_a_server_with_256_open_files(tmp_path: Path) -> None:
    with arcade(tmp_path, "--connections", "header_seconds=3", open_files=(256, 256)) as server, \
            contextlib.ExitStack() as stack:
        idle = [stack.enter_context(from_address(server, f"127.0.0.{2 + i % 8}")) for i in range(240)]
        half_sent = [stack.enter_context(from_address(server, f"127.0.0.{10 + i % 4}")) for i in range(100)]
        for sock in half_sent:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: arcade\r\nX-Slow: ")
        with client("127.0.0.1") as honest:  # another client: its page and the API answer
            assert honest.get(f"{server.url}/api/health").status_code == 200
            page = honest.get(f"{server.url}/")
            assert page.status_code == 200 and "<html" in page.text
        # every idle or half-sent connection is closed: to make room for a new one, or at its deadline
        assert still_open(idle + half_sent, 30) == []
        lines = server.log.read_text().splitlines()
    assert len(lines) < 10, lines[:20]


def test_a_request_begun_on_a_kept_alive_connection_is_closed_at_the_deadline(tmp_path: Path) -> None:
    with arcade(tmp_path, "--connections", "header_seconds=2") as server, from_address(server, "127.0.0.2") as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: arcade\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: arc")  # the next request, begun and never ended
        assert still_open([sock], 30) == []


def test_the_server_raises_its_open_file_limit_to_the_hard_limit(tmp_path: Path) -> None:
    with arcade(tmp_path, open_files=(256, 4096)) as server:
        assert server.process is not None
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()
    assert [line.split()[3:5] for line in limits.splitlines() if line.startswith("Max open files")] == [
        ["4096", "4096"]]


def test_connections_past_an_addresss_cap_are_answered_503(tmp_path: Path) -> None:
    with arcade(tmp_path, "--connections", "address_connections=4") as server, contextlib.ExitStack() as stack:
        held = [stack.enter_context(from_address(server, "127.0.0.2")) for _ in range(4)]
        with client("127.0.0.2") as crowded:
            refused = crowded.get(f"{server.url}/api/health")
        assert refused.status_code == 503
        assert refused.json()["limit"] == "address_connections"
        assert "your address has 4 connections open" in refused.json()["error"]
        assert int(refused.headers["Retry-After"]) > 0
        with client("127.0.0.3") as other:
            assert other.get(f"{server.url}/api/health").status_code == 200
        for _ in range(50):
            with from_address(server, "127.0.0.2") as refused_again:
                assert refused_again.recv(100).startswith(b"HTTP/1.1 503")
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 10  # the server hears of the closes
        with client("127.0.0.2") as crowded:
            while (status := crowded.get(f"{server.url}/api/health").status_code) == 503:
                assert time.monotonic() < deadline
        assert status == 200
    # the refusals are logged once, then counted in one line (written when the server stopped)
    refusals = [line for line in server.log.read_text().splitlines() if line.startswith("refused a connection")]
    assert len(refusals) == 2, refusals
    assert re.fullmatch(r"refused a connection from 127\.0\.0\.2: your address has 4 connections open, .* "
                        r"\(repeated (\d+) times in the last \d+ s\)", refusals[1])
    assert int(re.findall(r"repeated (\d+) times", refusals[1])[0]) >= 50


def test_a_full_arcade_refuses_sockets_with_a_close_and_requests_with_503(tmp_path: Path) -> None:
    with arcade(tmp_path, "--connections", "connections=16") as server, contextlib.ExitStack() as stack:
        game = new_game(server)
        watchers = [watch(stack, server, game["id"], f"127.0.0.{2 + i}") for i in range(12)]  # 3/4 of 16
        for watcher in watchers:
            next_state(watcher)
        with pytest.raises(ConnectionClosed) as refused_socket:
            next_state(watch(stack, server, game["id"], "127.0.0.20"))
        assert refused_socket.value.rcvd is not None and refused_socket.value.rcvd.code == 1013
        assert "the arcade is full" in refused_socket.value.rcvd.reason
        for i in range(4):  # four requests being answered (waiting for their bodies): sixteen connections busy
            uploading = stack.enter_context(from_address(server, f"127.0.0.{30 + i}"))
            uploading.sendall(b"POST /api/games HTTP/1.1\r\nHost: arcade\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 2\r\nExpect: 100-continue\r\n\r\n")
            assert uploading.recv(100).startswith(b"HTTP/1.1 100")
        with client("127.0.0.40") as late:
            refused = late.get(f"{server.url}/api/health")
        assert refused.status_code == 503 and refused.json()["limit"] == "connections"
        assert "Retry-After" in refused.headers


def test_websockets_past_an_addresss_cap_are_closed_with_1013(tmp_path: Path) -> None:
    with arcade(tmp_path, "--connections", "address_sockets=2") as server, contextlib.ExitStack() as stack:
        game = new_game(server)
        for _ in range(2):
            next_state(watch(stack, server, game["id"], "127.0.0.2"))
        assert version_or_close(watch(stack, server, game["id"], "127.0.0.2"), 0) == (
            1013, "your address has 2 live connections open (a game or a race watched in each), the most at once; "
                  "close some")
        other = watch(stack, server, game["id"], "127.0.0.3")
        move(server, game, 0, "a1")
        assert version_or_close(other, 1) is None


def test_a_ping_flood_closes_the_flooders_socket_while_another_game_goes_on(server: ServerProcess) -> None:
    played, flooded = new_game(server), new_game(server)
    with contextlib.ExitStack() as stack:
        player = watch(stack, server, played["id"], "127.0.0.2")
        flooder = watch(stack, server, flooded["id"], "127.0.0.3")
        next_state(player)
        next_state(flooder)
        flooder.socket.sendall(PING * 5000)
        code, reason = version_or_close(flooder, 1) or (None, "")
        assert (code, reason) == (1008, "more than 1 pings a second on this socket (10 at once)")
        for seat, square in ((0, "a1"), (1, "c3"), (0, "a2")):
            move(server, played, seat, square)
        assert version_or_close(player, 3) is None


def test_pings_from_one_address_are_limited_across_its_sockets(server: ServerProcess) -> None:
    game = new_game(server)
    with contextlib.ExitStack() as stack:
        sockets = [watch(stack, server, game["id"], "127.0.0.4") for _ in range(8)]
        other = watch(stack, server, game["id"], "127.0.0.5")
        for sock in [*sockets, other]:
            next_state(sock)
            sock.socket.sendall(PING * 9)  # fewer than a socket may send at once
        move(server, game, 0, "a1")
        closes = [version_or_close(sock, 1) for sock in sockets]
        assert version_or_close(other, 1) is None
    assert (1008, "more than 4 pings a second from your address (40 at once)") in closes
    assert all(close is None or "from your address" in close[1] for close in closes)


def test_messages_from_one_address_are_limited_across_its_sockets(tmp_path: Path) -> None:
    # 5 messages a second from an address, 15 at once: its four sockets send one each in turn, each answer read,
    # 40 in all (each socket fewer than it may send at once); the bucket would need 5 s to refill the 25 past 15
    with arcade(tmp_path, "--connections", "address_messages=5") as server, contextlib.ExitStack() as stack:
        game = new_game(server)
        sockets = [watch(stack, server, game["id"], "127.0.0.6") for _ in range(4)]
        for sock in sockets:
            next_state(sock)
        pongs, closes = 0, []
        for _ in range(10):
            for sock in sockets:
                sock.send('{"type": "ping"}')
            for sock in list(sockets):
                try:
                    assert json.loads(sock.recv(timeout=30)) == {"type": "pong"}
                    pongs += 1
                except ConnectionClosed as closed:
                    sockets.remove(sock)
                    closes.append((closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (1006, ""))
    assert 15 <= pongs < 40 and set(closes) == {(1008, "more than 5 messages a second from your address (15 at once)")}


@pytest.mark.parametrize("trusted", [False, True])
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(tmp_path: Path, trusted: bool) -> None:
    args = ["--connections", "address_sockets=1"] + (["--forwarded-allow-ips", "127.0.0.1"] if trusted else [])
    with arcade(tmp_path, *args, limits="new_games=2") as server, contextlib.ExitStack() as stack:
        created = [httpx.post(f"{server.url}/api/games", json=HUMANS, headers={"X-Forwarded-For": f"203.0.113.{i}"},
                              timeout=60) for i in range(3)]
        assert [answer.status_code for answer in created] == [201, 201, 201 if trusted else 429]
        game = created[0].json()["id"]
        first = watch(stack, server, game, "127.0.0.1", {"X-Forwarded-For": "203.0.113.1"})
        second = watch(stack, server, game, "127.0.0.1", {"X-Forwarded-For": "203.0.113.2"})
        again = watch(stack, server, game, "127.0.0.1", {"X-Forwarded-For": "198.51.100.9, 203.0.113.1"})
        closes = [version_or_close(sock, 0) for sock in (first, second, again)]
    assert closes[0] is None
    assert [close and close[0] for close in closes[1:]] == ([None, 1013] if trusted else [1013, 1013])


def test_a_connection_that_leaves_its_answers_unread_is_cut(tmp_path: Path) -> None:
    with arcade(tmp_path, "--connections", "stall_seconds=2") as server:
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and it reads nothing
        with reader:
            reader.connect(("127.0.0.1", server.port))
            # more than the system buffers: the server waits to write the rest
            reader.sendall(b"GET /docs/assets/swagger-ui-bundle.js HTTP/1.1\r\nHost: arcade\r\n\r\n" * 5)
            deadline = time.monotonic() + 30
            while server_side(server.port, reader.getsockname()[1]) == ESTABLISHED:
                assert time.monotonic() < deadline, "the server still holds the connection"
                time.sleep(0.1)


#: the state of an established connection in /proc/net/tcp
ESTABLISHED = "01"


def server_side(port: int, client_port: int) -> str | None:
    """The state of the server's side of the loopback connection from ``client_port`` (as /proc/net/tcp has
    it), or None once the kernel has forgotten it."""
    ends = (f"0100007F:{port:04X}", f"0100007F:{client_port:04X}")
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (fields[1], fields[2]) == ends:
            return fields[3]
    return None


@pytest.mark.parametrize(("args", "open_files", "error"), [
    (["--connections", "speed=3"], None, "error: --connections: a bound is NAME=N with N >= 1 and NAME one of "
                                         "header_seconds, stall_seconds, connections, sockets, address_connections, "
                                         "address_sockets, address_pings, address_messages; not 'speed=3'"),
    (["--forwarded-allow-ips", "10.0.0.1,proxy.local"], None,
     "error: --forwarded-allow-ips: 'proxy.local' is neither an address nor a network (e.g. 10.0.0.1, 10.0.0.0/8, "
     "or * for any)"),
    ([], (150, 150), "error: the open-file limit (150) is too low: the server keeps 132 files for itself and needs "
                     "164 at least; raise it (ulimit -n) or use fewer --workers"),
])
def test_bad_bounds_proxies_or_open_file_limits_are_one_line_of_error(
        tmp_path: Path, args: list[str], open_files: tuple[int, int] | None, error: str) -> None:
    def limit() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, open_files)

    database = tmp_path / "arcade.sqlite3"
    result = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--workers", "1", "--port",
                             str(free_port()), "--db", f"sqlite:///{database}", *args],
                            capture_output=True, text=True, timeout=120, preexec_fn=limit)
    assert (result.returncode, result.stderr.strip().splitlines()) == (2, [error])
    assert not database.exists()


def test_the_help_says_the_default_bounds() -> None:
    text = " ".join(CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "300"}).output.split())
    for bound in fields(ConnectionLimits):
        assert f"{bound.name}={bound.default}" in text
