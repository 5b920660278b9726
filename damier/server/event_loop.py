"""The event loop of ``damier serve``: asyncio's own, but one turn of it handles at most ``EVENTS_PER_TURN`` I/O
events (connections readable or writable). A burst of thousands of requests at once (a client from many
addresses) would otherwise be read, parsed and started in one turn, holding back every timer (the clocks, the
deadlines) and every other connection for as long as that takes: a second for two thousand requests. With the bound,
the sockets left over stay ready and the kernel hands them out in the next turns, in turn (epoll moves a socket it
returned to the back of its ready list), and the timers run between; each turn stays a few milliseconds long."""

from __future__ import annotations

import asyncio
import math
import select
import selectors
from collections.abc import Callable
from typing import Any

#: the most I/O events one turn of the event loop handles, and the most new connections it accepts (under a burst of
#: 2,100 creations from 525 addresses, 64 events a turn left the loop's lag at 55 to 113 ms, 16 at 19 to 27 ms:
#: docs/server.md, "Measured under attack")
EVENTS_PER_TURN = 16
ACCEPTS_PER_TURN = 16


class BoundedEpollSelector(selectors.EpollSelector):
    """An epoll selector whose ``select`` returns at most ``events`` ready file objects."""

    def __init__(self, events: int = EVENTS_PER_TURN) -> None:
        super().__init__()
        self.events = events

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None:
            wait = -1.0
        elif timeout <= 0:
            wait = 0.0
        else:  # epoll counts milliseconds: at least the time asked
            wait = math.ceil(timeout * 1000) / 1000
        try:
            ready = self._selector.poll(wait, self.events)  # type: ignore[attr-defined]
        except InterruptedError:
            return []
        found = []
        for fd, mask in ready:
            key = self.get_map().get(fd)
            if key is None:
                continue
            events = 0
            if mask & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR | select.EPOLLRDHUP):
                events |= selectors.EVENT_READ
            if mask & (select.EPOLLOUT | select.EPOLLHUP | select.EPOLLERR):
                events |= selectors.EVENT_WRITE
            found.append((key, events & key.events))
        return found


class ArcadeLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop, which accepts at most ``ACCEPTS_PER_TURN`` new connections at a time (asyncio
    accepts as many as the listening socket's backlog at once, and starts each: a burst of them held a turn for
    tens of milliseconds)."""

    def _start_serving(self, protocol_factory: Any, sock: Any, sslcontext: Any = None, server: Any = None,
                       backlog: int = 100, *args: Any, **kwargs: Any) -> None:
        super()._start_serving(protocol_factory, sock, sslcontext, server,  # type: ignore[misc]
                               min(backlog, ACCEPTS_PER_TURN), *args, **kwargs)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the server's event loop: ``ArcadeLoop`` on a bounded epoll selector (on Linux; elsewhere
    asyncio's default loop)."""
    if not hasattr(select, "epoll"):
        return asyncio.SelectorEventLoop
    return lambda: ArcadeLoop(BoundedEpollSelector())
