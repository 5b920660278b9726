"""uvicorn's HTTP/1.1 and WebSocket protocols with the arcade's bounds on connections (``connections``): each
connection is admitted or refused when it is made, must send a request's headers within a deadline (from the
connection, and from the end of each answer), and is cut when it leaves an answer unread too long; a WebSocket is
admitted within the sockets' caps, and its pings and messages are rate-limited, per socket and per address group.

`damier serve` runs uvicorn with ``ArcadeConfig``, which names these protocols and holds the table of connections
they share, and ``ArcadeServer``, which writes the counts of repeated log messages when it stops.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame
from websockets.http11 import Request

from damier.server.connections import (
    BACKLOG,
    PING_BURST,
    PING_RATE,
    Connection,
    ConnectionTable,
    GroupBudgets,
    Refusal,
)
from damier.server.event_loop import loop_factory
from damier.server.identity import address_group
from damier.server.log_repeats import RepeatFilter
from damier.server.sockets import MessageBudget

log = logging.getLogger("damier.server")

#: the close code of a socket refused for the sockets' caps ("try again later"), and of one closed for flooding
TRY_AGAIN, POLICY = 1013, 1008


class ArcadeConfig(uvicorn.Config):
    """uvicorn's configuration with the arcade's protocols, its bounds derived from ``table`` (the accept
    backlog, uvicorn's own concurrency limit as a backstop), the trusted proxies' headers read only from
    ``table.proxies``, and the table the protocols share."""

    def __init__(self, app: Any, table: ConnectionTable, **options: Any) -> None:
        super().__init__(app, http=ArcadeHttp, ws=ArcadeSocket, backlog=BACKLOG,
                         limit_concurrency=table.capacity.concurrency, proxy_headers=bool(table.proxies),
                         forwarded_allow_ips=table.proxies.spec or None, **options)
        self.table = table

    def get_loop_factory(self) -> Callable[[], asyncio.AbstractEventLoop] | None:
        return loop_factory()  # a turn of the loop handles a bounded number of connections' events


class ArcadeServer(uvicorn.Server):
    """uvicorn's server, which writes the counts of repeated log messages once it has stopped (on SIGTERM too,
    which uvicorn raises again once it stopped, ending the process before ``run`` returns)."""

    def __init__(self, config: ArcadeConfig, repeats: RepeatFilter) -> None:
        super().__init__(config)
        self.repeats = repeats

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().shutdown(sockets)
        finally:
            self.repeats.flush()


def table_of(config: uvicorn.Config) -> ConnectionTable:
    if not isinstance(config, ArcadeConfig):
        raise TypeError("the arcade's protocols run with an ArcadeConfig (it holds their table of connections)")
    return config.table


class ArcadeHttp(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, bounded: refused with a 503 past the caps, closed when a request's headers
    are late or an answer stays unread."""

    def __init__(self, config: uvicorn.Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.table = table_of(config)
        self.connection: Connection | None = None  # None: refused
        self.headers_due: asyncio.TimerHandle | None = None
        self.stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = get_remote_addr(transport)
        admitted = self.table.open(transport, peer[0] if peer else "", transport.close)
        if isinstance(admitted, Refusal):
            refuse(transport, admitted, peer)
            return
        self.connection = admitted
        super().connection_made(transport)
        self.await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.connection is None:
            return
        self.headers_whole()
        cancel(self.stalled)
        self.stalled = None
        self.table.close(self.connection)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers are whole: it is being answered
            self.headers_whole()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self.headers_whole()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():  # before uvicorn reads a pipelined request, which ends the wait
            self.await_headers()
        super().on_response_complete()

    def await_headers(self) -> None:
        """Wait ``header_seconds`` for the next request's headers; this connection may be closed meanwhile to
        make room for a new one."""
        assert self.connection is not None
        self.headers_whole()
        self.headers_due = self.loop.call_later(self.table.limits.header_seconds, self.transport.close)
        self.table.waiting(self.connection)

    def headers_whole(self) -> None:
        cancel(self.headers_due)
        self.headers_due = None
        if self.connection is not None:
            self.table.busy(self.connection)

    def pause_writing(self) -> None:
        if self.connection is not None:
            self.stalled = stall(self.loop, self.transport, self.table.limits.stall_seconds, self.stalled)
            super().pause_writing()

    def resume_writing(self) -> None:
        cancel(self.stalled)
        self.stalled = None
        if self.connection is not None:
            super().resume_writing()


class ArcadeSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, bounded: a socket past the caps is closed at once (1013), one that sends
    more pings or messages than its budget or its address group's is closed with 1008, one that leaves the
    server's messages unread is cut."""

    def __init__(self, config: uvicorn.Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.table = table_of(config)
        self.connection: Connection | None = None
        self.group = ""
        self.pings = MessageBudget(PING_RATE, PING_BURST)
        self.stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.connection = self.table.of(transport)  # the HTTP connection it upgrades, counted once

    def connection_lost(self, exc: Exception | None) -> None:
        cancel(self.stalled)
        self.stalled = None
        super().connection_lost(exc)
        if self.connection is not None:
            self.table.close(self.connection)

    def handle_connect(self, event: Request) -> None:
        assert self.connection is not None
        peer = self.client[0] if self.client else ""
        self.group = address_group(self.table.proxies.client(peer, event.headers.get_all("X-Forwarded-For")))
        refusal = self.table.open_socket(self.connection, self.group)
        if refusal is None:
            super().handle_connect(event)
            return
        log.warning("refused a WebSocket of %s: %s", self.group, refusal.message)
        response = self.conn.accept(event)
        self.conn.send_response(response)
        if response.status_code == 101:  # a socket the page's script can read the reason of
            self.conn.send_close(TRY_AGAIN, refusal.reason)
        self.handshake_initiated = self.handshake_complete = self.close_sent = True
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.close()

    def handle_ping(self) -> None:
        if self.within(self.pings, self.table.pings, "pings"):
            super().handle_ping()

    def handle_pong(self, event: Frame) -> None:
        if self.within(self.pings, self.table.pings, "pings"):
            super().handle_pong(event)

    def handle_text(self, event: Frame) -> None:
        if self.within(None, self.table.messages, "messages"):
            super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        if self.within(None, self.table.messages, "messages"):
            super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        if self.within(None, self.table.messages, "messages"):
            super().handle_cont(event)

    def within(self, own: MessageBudget | None, group: GroupBudgets, what: str) -> bool:
        """Whether one more frame of ``what`` fits this socket's budget (``own``) and its address group's; past
        either the socket is closed with 1008, saying which."""
        if self.close_sent or self.transport.is_closing():
            return False
        if own is not None and not own.take():
            reason = f"more than {own.rate:g} {what} a second on this socket ({own.burst:g} at once)"
        elif not group.take(self.group):
            reason = f"more than {group.rate:g} {what} a second from your address ({group.burst:g} at once)"
        else:
            return True
        log.warning("closed a WebSocket of %s: %s", self.group, reason)
        self.conn.fail(POLICY, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()
        return False

    def pause_writing(self) -> None:
        self.stalled = stall(self.loop, self.transport, self.table.limits.stall_seconds, self.stalled)
        super().pause_writing()

    def resume_writing(self) -> None:
        cancel(self.stalled)
        self.stalled = None
        super().resume_writing()


def refuse(transport: asyncio.Transport, refusal: Refusal, peer: tuple[str, int] | None) -> None:
    """Answer a refused connection with its 503 and close it (the answer is written before the request is read:
    a client reads it as the answer to its request)."""
    log.warning("refused a connection from %s: %s", peer[0] if peer else "?", refusal.message)
    transport.write(refusal.http())
    transport.close()


def stall(loop: asyncio.AbstractEventLoop, transport: asyncio.Transport, seconds: float,
          armed: asyncio.TimerHandle | None) -> asyncio.TimerHandle:
    """A timer that cuts ``transport`` (its unsent data dropped) once it has not drained for ``seconds``."""
    cancel(armed)
    return loop.call_later(seconds, transport.abort)


def cancel(timer: asyncio.TimerHandle | None) -> None:
    """Cancel ``timer`` if there is one."""
    if timer is not None:
        timer.cancel()
