"""The gate every HTTP request and WebSocket passes before the application: at most ``PER_TURN`` of them start per
turn of the event loop, the others wait their turn, first come first served.

A burst of two thousand requests at once (a client from hundreds of addresses) costs the loop about a second of
work in all, which nothing can avoid; started all at once, each of its turns would run hundreds of requests' first
steps, and every timer (the clocks, the deadlines, a watcher's update) would wait behind them for a fifth of a
second. Let in a few at a time, the burst is spread over short turns, and the timers run between them. A request
that waits for something slow once started (a computer's hint, a heavy read) holds no place: only the starts are
spaced. A WebSocket's start is its accept and first snapshot (a game's whole view, a race's): a thousand watchers
opened at once are the same burst, so they pass the same gate; once open, a socket holds no place. The lifespan
passes at once.

New work waits behind the games under way: a request that creates something (a POST to a collection,
``/api/games``, ``/api/puzzles``...) starts after every other request waiting, though one a turn at least; every
other request (a move, a read, a socket) goes first. A burst of two thousand new games from hundreds of addresses
then delays their own answers, not the moves of the games already admitted, which the arcade keeps first (its
admission refuses the new work it cannot serve)."""

from __future__ import annotations

import asyncio
import collections

from starlette.types import ASGIApp, Receive, Scope, Send

#: the most HTTP requests and WebSockets that start in one turn of the event loop
PER_TURN = 16
#: the scopes that wait at the gate (not the lifespan, which starts and stops the server)
GATED = frozenset({"http", "websocket"})


def is_new(scope: Scope) -> bool:
    """Whether a request creates something: a POST to a collection of the API (``/api/games``)."""
    path = scope.get("path", "")
    return scope["type"] == "http" and scope.get("method") == "POST" and path.startswith("/api/") and \
        path.count("/") == 2


class Gate:
    """Start at most ``per_turn`` HTTP requests and WebSockets per turn of the event loop; the others wait in
    order, the requests that create something after the others (``is_new``), one of them a turn at least."""

    def __init__(self, app: ASGIApp, per_turn: int = PER_TURN) -> None:
        self.app = app
        self.per_turn = per_turn
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._new: collections.deque[asyncio.Future[None]] = collections.deque()  # creations waiting
        self._started = 0  # the requests started in this turn
        self._turning = False  # ``_turn`` is scheduled for the next turn

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in GATED:
            if self._waiting or self._new or self._started >= self.per_turn:
                turn = asyncio.get_running_loop().create_future()
                (self._new if is_new(scope) else self._waiting).append(turn)
                self._schedule()
                await turn  # cancelled (the client left): it never starts
            else:
                self._started += 1
                self._schedule()
        await self.app(scope, receive, send)

    def _schedule(self) -> None:
        if not self._turning:
            self._turning = True
            asyncio.get_running_loop().call_soon(self._turn)

    def _turn(self) -> None:
        """Once per turn of the loop while requests start or wait: a new turn's places, given in order, the
        creations' after the others' but one of them at least."""
        self._turning = False
        self._started = 0
        self._start_one(self._new)
        while self._started < self.per_turn and (self._waiting or self._new):
            self._start_one(self._waiting if self._waiting else self._new)
        if self._waiting or self._new or self._started:
            self._schedule()

    def _start_one(self, queue: collections.deque[asyncio.Future[None]]) -> None:
        """Start the first request of ``queue`` still waiting (one whose client left is passed over)."""
        while queue:
            turn = queue.popleft()
            if not turn.done():
                turn.set_result(None)
                self._started += 1
                return
