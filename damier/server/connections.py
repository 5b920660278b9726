"""How many connections the arcade holds, and from whom: the bounds `damier serve` keeps on its TCP connections and
WebSockets, counted per client (an address group: an IPv4 address, an IPv6 /64) and in all, out of the open files
the process may have.

A connection is admitted when it is made, or refused at once with a short 503 (a WebSocket: closed with 1013); a
connection that waits for a request's headers (new, half-sent or idle between requests) may be closed to make
room for a new one when the arcade is full; the others (a request being answered, a WebSocket) never are. The
protocols that apply these bounds to uvicorn's connections are in ``damier.server.protocols``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import resource
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace

from uvicorn.middleware.proxy_headers import _TrustedHosts

from damier.server.identity import address_group
from damier.server.sockets import WS_BURST, WS_RATE, MessageBudget
from damier.server.words import coded, say

#: seconds from a connection (or from the end of its last answer) until the next request's headers are whole: a
#: browser sends them in one packet, a phone on a poor network within a second or two; 10 s, as the request body's
#: own deadline (``guards.BODY_SECONDS``), is ample (Apache allows 20 s, nginx 60 s)
HEADER_SECONDS = 10
#: seconds a client may leave an answer unread (the connection's send buffer full) before it is cut
STALL_SECONDS = 30
#: connections held at once in all, at most (each costs memory and an open file or two); the open-file limit
#: may allow fewer
CONNECTIONS = 4096
#: WebSockets held at once in all, at most: three quarters of the connections, so that pages still load
SOCKETS = 3072
#: connections of one address group at once: a browser opens up to 6 per server and one socket per open game;
#: 64 leaves room for a household or an office behind one address with a dozen tabs
ADDRESS_CONNECTIONS = 64
#: WebSockets of one address group at once (a socket per game or race being watched, and the home page's)
ADDRESS_SOCKETS = 32
#: WebSocket protocol pings (and pongs) a socket may send a second, and at once: a browser sends none, other
#: clients one every 20 s or so
PING_RATE, PING_BURST = 1.0, 10.0
#: pings a second (and at once) from all the sockets of one address group
ADDRESS_PING_RATE, ADDRESS_PING_BURST = 4.0, 40.0
#: WebSocket messages a second (and at once) from all the sockets of one address group; each socket has its own
#: budget too (``sockets.WS_RATE``, ``WS_BURST``), and the group as much as three sockets' worth
ADDRESS_MESSAGE_RATE, ADDRESS_MESSAGE_BURST = 3 * WS_RATE, 3 * WS_BURST
#: seconds a refused client is asked to wait (Retry-After)
RETRY_SECONDS = 10

#: open files the server keeps for itself, beside its connections: the database (its files, or a pool of
#: PostgreSQL connections and its listener), the log, the event loop (measured: 20 in all with two workers on
#: SQLite, workers included)
OWN_FILES = 64
#: and per computer worker (its pipes and process handle)
FILES_PER_WORKER = 4
#: connections the kernel queues for the server to accept, and as many it may accept at once before the arcade
#: sees any of them (asyncio accepts up to this many in a row): kept free too
BACKLOG = 64
#: open files a connection may hold: its socket, and the file of a static page being sent on it
FILES_PER_CONNECTION = 2
#: the fewest connections the arcade starts with; a lower open-file limit is refused at start
MIN_CONNECTIONS = 16
#: the open files counted for an unlimited limit (Linux allows a process 2^20 at most by default)
UNLIMITED_FILES = 1 << 20
#: address groups whose ping and message budgets are remembered (the least recently seen are forgotten)
MAX_GROUPS = 10_000


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds ``damier serve --connections`` may change (the defaults are the constants above); the totals
    are lowered further to what the open-file limit allows (``Capacity``)."""

    header_seconds: int = HEADER_SECONDS
    stall_seconds: int = STALL_SECONDS
    connections: int = CONNECTIONS
    sockets: int = SOCKETS
    address_connections: int = ADDRESS_CONNECTIONS
    address_sockets: int = ADDRESS_SOCKETS
    #: WebSocket protocol pings a second from one address group's sockets (ten times as many at once)
    address_pings: int = round(ADDRESS_PING_RATE)
    #: WebSocket messages a second from one address group's sockets (three times as many at once)
    address_messages: int = round(ADDRESS_MESSAGE_RATE)

    @classmethod
    def parse(cls, text: str) -> ConnectionLimits:
        """``"header_seconds=10,address_connections=64"`` (any of them; the others keep their defaults).

        >>> ConnectionLimits.parse("address_sockets=4").address_sockets
        4
        """
        names = [f.name for f in fields(cls)]
        limits = cls()
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, _, value = (s.strip() for s in part.partition("="))
            if name not in names or not value.isdigit() or int(value) < 1:
                raise ValueError(f"a bound is NAME=N with N >= 1 and NAME one of {', '.join(names)}; not {part!r}")
            limits = replace(limits, **{name: int(value)})
        return limits


def raise_open_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (a shell's usual 1,024 is far below what
    the system allows a server); the soft limit in force after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = UNLIMITED_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):  # a system that caps a process lower (macOS): keep the soft
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return UNLIMITED_FILES if soft == resource.RLIM_INFINITY else soft


@dataclass(frozen=True)
class Capacity:
    """The connections a server may hold out of ``open_files``, less the ``reserve`` it keeps for its own files
    and for connections being accepted, so that it can always open its database and answer (a 503 at worst)."""

    open_files: int
    reserve: int
    connections: int
    sockets: int

    @classmethod
    def of(cls, open_files: int, workers: int, limits: ConnectionLimits) -> Capacity:
        """The capacity under ``open_files`` with ``workers`` computer workers; ``ValueError`` saying what to
        raise when the limit leaves fewer than ``MIN_CONNECTIONS``.

        >>> Capacity.of(256, 1, ConnectionLimits())
        Capacity(open_files=256, reserve=132, connections=62, sockets=46)
        """
        reserve = OWN_FILES + FILES_PER_WORKER * workers + BACKLOG
        usable = (open_files - reserve) // FILES_PER_CONNECTION
        if usable < MIN_CONNECTIONS:
            raise ValueError(f"the open-file limit ({open_files}) is too low: the server keeps {reserve} files for "
                             f"itself and needs {reserve + MIN_CONNECTIONS * FILES_PER_CONNECTION} at least; raise "
                             "it (ulimit -n) or use fewer --workers")
        connections = min(limits.connections, usable)
        return cls(open_files, reserve, connections, min(limits.sockets, connections * 3 // 4))

    @property
    def concurrency(self) -> int:
        """uvicorn's own limit (``limit_concurrency``: its protocols and requests at once, past which it answers
        503): a backstop, the open files less the reserve, far past the arcade's bounds (the connections closed to
        make room for new ones stay uvicorn's until the event loop closes them: a few bursts of accepts)."""
        return self.open_files - self.reserve


@dataclass(frozen=True)
class Refusal:
    """A connection or a WebSocket the arcade does not take: ``limit`` names the bound, ``message`` says it in
    words a person can act on."""

    limit: str
    message: str
    retry_after: int = RETRY_SECONDS

    def http(self) -> bytes:
        """The whole answer to a refused HTTP connection: a 503 JSON error with Retry-After, then the close."""
        body = json.dumps({"error": self.message, "status": 503, "limit": self.limit, **coded(self.message)}).encode()
        head = (f"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                f"content-length: {len(body)}\r\nretry-after: {self.retry_after}\r\nconnection: close\r\n\r\n")
        return head.encode() + body

    @property
    def reason(self) -> str:
        """The reason of a refused WebSocket's close frame (at most 123 bytes)."""
        return self.message.encode()[:123].decode(errors="ignore")


class Proxies:
    """The reverse proxies whose ``X-Forwarded-For`` is believed (``damier serve --forwarded-allow-ips``):
    addresses, networks, or ``*`` for any peer; none by default, when every client is the connection's peer.
    Behind a trusted proxy the client is the one it forwards, read as uvicorn reads it (the application sees the
    same address)."""

    def __init__(self, spec: str = "") -> None:
        items = [item.strip() for item in spec.split(",") if item.strip()]
        if "*" in items:
            items = ["*"]
        for item in items:
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    raise ValueError(f"{item!r} is neither an address nor a network (e.g. 10.0.0.1, 10.0.0.0/8, "
                                     "or * for any)") from None
        #: the proxies as uvicorn's ``forwarded_allow_ips`` takes them ("" for none)
        self.spec = ",".join(items)
        self._trusted = _TrustedHosts(items) if items else None

    def __bool__(self) -> bool:
        return self._trusted is not None

    def __contains__(self, peer: str) -> bool:
        return self._trusted is not None and peer in self._trusted

    def client(self, peer: str, forwarded_for: Sequence[str]) -> str:
        """The client's address: ``peer``, or when it is a trusted proxy the client it forwards (the last
        address of ``X-Forwarded-For`` that is not itself a trusted proxy).

        >>> behind = ["198.51.100.7, 10.0.0.9"]
        >>> Proxies("10.0.0.0/8").client("10.0.0.5", behind), Proxies().client("10.0.0.5", behind)
        ('198.51.100.7', '10.0.0.5')
        """
        if self._trusted is None or not forwarded_for or peer not in self._trusted:
            return peer
        host, _ = self._trusted.get_trusted_client_address(", ".join(forwarded_for))
        return host or peer


class Connection:
    """A TCP connection the arcade holds: its address ``group`` (``None`` from a trusted proxy, whose connections
    carry many clients), the group of its WebSocket once it is one, and ``end``, which closes it."""

    __slots__ = ("end", "group", "socket_group", "transport")

    def __init__(self, transport: object, group: str | None, end: Callable[[], None]) -> None:
        self.transport = transport
        self.group = group
        self.socket_group: str | None = None
        self.end = end


class ConnectionTable:
    """The connections of one server, counted per address group and in all, and the ones waiting for a
    request's headers, oldest first (the ones closed to make room when the arcade is full). Also the ping and
    message budgets of each address group's WebSockets. Used from the event loop only."""

    def __init__(self, capacity: Capacity, limits: ConnectionLimits | None = None,
                 proxies: Proxies | None = None) -> None:
        self.capacity = capacity
        self.limits = limits or ConnectionLimits()
        self.proxies = proxies or Proxies()
        self._open: dict[object, Connection] = {}
        self._per_group: Counter[str] = Counter()
        self._sockets: Counter[str] = Counter()
        self._waiting: dict[Connection, None] = {}  # in the order they started waiting
        pings = self.limits.address_pings
        self.pings = GroupBudgets(pings, pings * ADDRESS_PING_BURST / ADDRESS_PING_RATE)
        rate = self.limits.address_messages
        self.messages = GroupBudgets(rate, rate * ADDRESS_MESSAGE_BURST / ADDRESS_MESSAGE_RATE)

    def __len__(self) -> int:
        return len(self._open)

    @property
    def sockets(self) -> int:
        return self._sockets.total()

    def open(self, transport: object, peer: str, end: Callable[[], None]) -> Connection | Refusal:
        """Admit a new connection from ``peer`` (closing the connection that has waited longest for a request,
        when the arcade is full), or say why not."""
        group = None if peer in self.proxies else address_group(peer)
        if group is not None and self._per_group[group] >= self.limits.address_connections:
            return Refusal("address_connections", say("error.limit.address_connections",
                                                      count=self._per_group[group]))
        if len(self._open) >= self.capacity.connections and not self._make_room():
            return Refusal("connections", say("error.server.full_connections", count=str(len(self._open))))
        connection = Connection(transport, group, end)
        self._open[transport] = connection
        if group is not None:
            self._per_group[group] += 1
        return connection

    def of(self, transport: object) -> Connection:
        """The connection of ``transport`` (a WebSocket takes over the connection its upgrade request came on)."""
        return self._open[transport]

    def waiting(self, connection: Connection) -> None:
        """``connection`` waits for a request's headers from now on."""
        self._waiting.pop(connection, None)
        self._waiting[connection] = None

    def busy(self, connection: Connection) -> None:
        """``connection`` has a request (or is a WebSocket): it is not closed to make room."""
        self._waiting.pop(connection, None)

    def open_socket(self, connection: Connection, group: str) -> Refusal | None:
        """Make ``connection`` a WebSocket of the client ``group`` (for a trusted proxy's connection, the client it
        forwards), or say why not."""
        if self._sockets[group] >= self.limits.address_sockets:
            return Refusal("address_sockets", say("error.limit.address_sockets", count=self._sockets[group]))
        if self.sockets >= self.capacity.sockets:
            return Refusal("sockets", say("error.server.full_sockets", count=str(self.sockets)))
        self.busy(connection)
        if connection.transport in self._open:
            connection.socket_group = group
            self._sockets[group] += 1
        return None

    def close(self, connection: Connection) -> None:
        """Forget ``connection`` (closed, or closed to make room; again is nothing)."""
        if self._open.get(connection.transport) is not connection:
            return
        del self._open[connection.transport]
        self._waiting.pop(connection, None)
        _decrement(self._per_group, connection.group)
        _decrement(self._sockets, connection.socket_group)

    def _make_room(self) -> bool:
        """Close the connection that has waited longest for a request's headers; ``False`` when none waits."""
        oldest = next(iter(self._waiting), None)
        if oldest is None:
            return False
        self.close(oldest)
        oldest.end()
        return True


class GroupBudgets:
    """A token bucket per address group (``rate`` a second, ``burst`` at once); the least recently used are
    forgotten past ``MAX_GROUPS``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._budgets: OrderedDict[str, MessageBudget] = OrderedDict()

    def take(self, group: str) -> bool:
        budget = self._budgets.pop(group, None) or MessageBudget(self.rate, self.burst)
        self._budgets[group] = budget
        if len(self._budgets) > MAX_GROUPS:
            self._budgets.popitem(last=False)
        return budget.take()


def workers_default(workers: int | None) -> int:
    """The computer workers a server starts (``--workers``, else one per core), for its reserve of files."""
    return workers or max(1, os.cpu_count() or 1)


def _decrement(counts: Counter[str], key: str | None) -> None:
    if key is not None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]
