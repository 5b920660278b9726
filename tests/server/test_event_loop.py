"""The server's event loop handles a bounded number of ready sockets and new connections per turn, and the gate
starts a bounded number of HTTP requests per turn, in order: a burst is spread over short turns, and every
request and every socket is still served."""

from __future__ import annotations

import asyncio
import collections
import select
import selectors
import socket
from typing import Any

import httpx
import pytest

from damier.server.event_loop import ArcadeLoop, BoundedEpollSelector, loop_factory
from damier.server.gate import Gate

pytestmark = pytest.mark.skipif(not hasattr(select, "epoll"), reason="the bounded selector is epoll's (Linux)")


def test_a_turn_returns_at_most_its_bound_and_every_ready_socket_in_a_few_turns() -> None:
    pairs = [socket.socketpair() for _ in range(100)]
    selector = BoundedEpollSelector(events=8)
    try:
        for index, (ours, theirs) in enumerate(pairs):
            ours.setblocking(False)
            selector.register(ours, selectors.EVENT_READ, index)
            theirs.send(b"x")
        seen: collections.Counter[int] = collections.Counter()
        for _ in range(100 // 8 + 1):
            ready = selector.select(0)
            assert 0 < len(ready) <= 8
            for key, events in ready:
                assert events == selectors.EVENT_READ
                seen[key.data] += 1
        # level-triggered epoll moves a socket it returned behind the others: every socket had its turn, once
        assert sorted(seen) == list(range(100))
        assert max(seen.values()) <= 2
    finally:
        selector.close()
        for ours, theirs in pairs:
            ours.close()
            theirs.close()


def test_a_socket_ready_to_write_and_a_closed_peer_are_reported() -> None:
    ours, theirs = socket.socketpair()
    selector = BoundedEpollSelector(events=4)
    try:
        selector.register(ours, selectors.EVENT_READ | selectors.EVENT_WRITE)
        [(_, events)] = selector.select(0)
        assert events == selectors.EVENT_WRITE  # nothing to read yet
        theirs.close()
        [(_, events)] = selector.select(0)
        assert events & selectors.EVENT_READ  # the peer's end: a read says so
        assert selector.select(0.001) != []
    finally:
        selector.close()
        ours.close()


def test_the_loop_serves_a_burst_of_connections_a_few_accepts_at_a_time() -> None:
    loop = loop_factory()()
    assert isinstance(loop, ArcadeLoop)

    async def burst() -> list[bytes]:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(await reader.readline())
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(echo, "127.0.0.1", 0, backlog=400)
        port = server.sockets[0].getsockname()[1]

        async def client(number: int) -> bytes:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"{number}\n".encode())
            await writer.drain()
            answer = await reader.readline()
            writer.close()
            return answer

        try:
            return await asyncio.gather(*(client(number) for number in range(300)))
        finally:
            server.close()
            await server.wait_closed()

    try:
        answers = loop.run_until_complete(burst())
    finally:
        loop.close()
    assert answers == [f"{number}\n".encode() for number in range(300)]


class Turns:
    """Counts the event loop's turns: a callback that schedules itself once per turn."""

    def __init__(self) -> None:
        self.count = 0
        self.running = True

    def tick(self) -> None:
        self.count += 1
        if self.running:
            asyncio.get_running_loop().call_soon(self.tick)


def test_the_gate_starts_at_most_its_bound_per_turn_first_come_first_served() -> None:
    turns = Turns()
    starts: list[tuple[int, str]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        starts.append((turns.count, scope["path"]))
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": scope["path"].encode()})

    async def burst() -> list[httpx.Response]:
        asyncio.get_running_loop().call_soon(turns.tick)
        transport = httpx.ASGITransport(app=Gate(app, per_turn=5))  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://arcade") as client:
            try:
                return await asyncio.gather(*(client.get(f"/{number}") for number in range(60)))
            finally:
                turns.running = False

    answers = asyncio.run(burst())
    assert [answer.text for answer in answers] == [f"/{number}" for number in range(60)]  # every one served
    per_turn = collections.Counter(turn for turn, _ in starts)
    assert max(per_turn.values()) <= 5
    assert len(per_turn) >= 60 // 5  # spread over turns
    assert [path for _, path in starts] == [f"/{number}" for number in range(60)]  # in the order they came


def test_a_request_that_leaves_while_it_waits_never_starts() -> None:
    started: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        started.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def scenario() -> None:
        gate = Gate(app, per_turn=1)  # type: ignore[arg-type]

        async def call(path: str) -> None:
            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message: dict[str, Any]) -> None:
                pass

            await gate({"type": "http", "path": path}, receive, send)

        first = asyncio.create_task(call("/first"))
        second = asyncio.create_task(call("/second"))
        third = asyncio.create_task(call("/third"))
        await asyncio.sleep(0)  # the first starts; the two others wait for the next turns
        second.cancel()
        await asyncio.gather(first, third)
        with pytest.raises(asyncio.CancelledError):
            await second

    asyncio.run(scenario())
    assert started == ["/first", "/third"]


def test_websockets_wait_at_the_gate_with_requests_and_the_lifespan_passes_at_once() -> None:
    turns = Turns()
    seen: list[tuple[int, str]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append((turns.count, scope["type"]))

    async def scenario() -> None:
        gate = Gate(app, per_turn=2)  # type: ignore[arg-type]

        async def nothing() -> dict[str, Any]:
            return {}

        async def ignore(message: dict[str, Any]) -> None:
            pass

        asyncio.get_running_loop().call_soon(turns.tick)
        try:
            await asyncio.gather(*(gate({"type": "websocket", "path": "/ws"}, nothing, ignore) for _ in range(6)),
                                 *(gate({"type": "http", "path": "/"}, nothing, ignore) for _ in range(2)),
                                 *(gate({"type": "lifespan"}, nothing, ignore) for _ in range(3)))
        finally:
            turns.running = False

    asyncio.run(scenario())
    per_turn = collections.Counter(turn for turn, kind in seen if kind != "lifespan")
    assert max(per_turn.values()) <= 2 and len(per_turn) >= 4  # eight starts, two per turn
    # the lifespan never waited: all three ran in the first turn, while the sockets queued
    assert [turn for turn, kind in seen if kind == "lifespan"] == [seen[0][0]] * 3
    assert [kind for _, kind in seen if kind != "lifespan"] == ["websocket"] * 6 + ["http"] * 2  # in order


def test_creations_wait_behind_the_games_under_way_one_a_turn_at_least() -> None:
    turns = Turns()
    seen: list[tuple[int, str]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append((turns.count, f"{scope['method']} {scope['path']}"))

    async def scenario() -> None:
        gate = Gate(app, per_turn=4)  # type: ignore[arg-type]

        async def nothing() -> dict[str, Any]:
            return {}

        async def ignore(message: dict[str, Any]) -> None:
            pass

        def call(method: str, path: str) -> Any:
            return gate({"type": "http", "method": method, "path": path}, nothing, ignore)

        asyncio.get_running_loop().call_soon(turns.tick)
        try:
            burst = [asyncio.create_task(call("POST", "/api/games")) for _ in range(40)]  # a burst of creations
            await asyncio.sleep(0)
            playing = [asyncio.create_task(call("POST", "/api/games/g1/moves")),  # then a game's move and read
                       asyncio.create_task(call("GET", "/api/games/g1"))]
            await asyncio.gather(*burst, *playing)
        finally:
            turns.running = False

    asyncio.run(scenario())
    order = [what for _, what in seen]
    # the move and the read came after 40 creations, and started in the next turn, ahead of most of them
    assert order.index("POST /api/games/g1/moves") <= 10 and order.index("GET /api/games/g1") <= 10
    assert order[11:].count("POST /api/games") >= 29
    per_turn = collections.Counter(turn for turn, _ in seen)
    assert max(per_turn.values()) <= 4 and len(order) == 42
    # while the others wait, one creation a turn still starts: the creations are never starved
    creations_by_turn = collections.Counter(turn for turn, what in seen if what == "POST /api/games")
    first_turns = sorted(per_turn)[:3]
    assert all(creations_by_turn[turn] >= 1 for turn in first_turns)
