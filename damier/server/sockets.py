"""The arcade's WebSockets: a socket watching a room (sent the room's view at once and after each change), the
messages it may send (rate-limited), and their errors."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from damier.server.rooms import Room, RoomError, Watcher, encode
from damier.server.words import coded

#: messages a WebSocket may send a second (and at once): a client past it is disconnected (code 1008)
WS_RATE = 20.0
WS_BURST = 60.0
MAX_WS_MESSAGE = 4096


def error(status: int, message: str) -> dict[str, Any]:
    """A socket's error: its English, and the code and parameters the client says it with (``words.say``)."""
    return {"type": "error", "status": status, "error": message, **coded(message)}


async def watch(websocket: WebSocket, load: Callable[[], Awaitable[Room]],
                handle: Callable[[str, Watcher], Awaitable[dict[str, Any] | None]],
                opened: Callable[[Watcher], None] | None = None,
                closed: Callable[[Watcher], None] | None = None) -> None:
    """Accept the socket and make it a watcher of the room ``load`` gives once it is accepted (the room in
    memory then: nothing awaited between the two, so never one that was replaced); it is sent the room at once
    and after every change (a large view's change as a delta when its address asks for them: ``?deltas=1``);
    each message it sends is handled by ``handle``, whose reply (if any) goes to this socket only (``handle`` is
    given the message and this socket's watcher). ``opened`` and ``closed`` hear of the watcher as it starts
    watching and once it stopped."""
    await websocket.accept()
    try:
        room = await load()
    except RoomError as exc:
        with contextlib.suppress(Exception):
            await websocket.close(code=4404, reason=exc.message[:120])
        return

    async def close() -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code=1013, reason="too far behind; reconnect")

    watcher = Watcher(websocket.send_text, close, deltas=websocket.query_params.get("deltas") == "1")
    room.watch(watcher)
    if opened is not None:
        opened(watcher)
    budget = MessageBudget(WS_RATE, WS_BURST)
    try:
        while not watcher.dropped:  # a dropped watcher (too far behind) is not read any more
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not budget.take():
                with contextlib.suppress(Exception):
                    await websocket.close(code=1008, reason=f"more than {WS_RATE} messages a second; reconnect")
                break
            text = message.get("text")
            if text is None:
                watcher.offer(encode(error(422, "messages are JSON text")))
                continue
            reply = await handle(text, watcher)
            if reply is not None:
                watcher.offer(encode(reply))
    except WebSocketDisconnect:
        pass
    finally:
        room.unwatch(watcher)
        if closed is not None:
            closed(watcher)


class MessageBudget:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def read_message(text: str) -> tuple[str, dict[str, Any]] | dict[str, Any]:
    """A socket message's type and body, or the error to answer."""
    if len(text) > MAX_WS_MESSAGE:
        return error(413, f"messages are limited to {MAX_WS_MESSAGE} bytes")
    try:
        message = json.loads(text)
        kind = message["type"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return error(422, "messages are JSON objects with a 'type'")
    if not isinstance(kind, str) or not isinstance(message, dict):
        return error(422, "messages are JSON objects with a 'type'")
    return kind, message
