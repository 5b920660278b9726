"""What every kind of room shares: an id, a lock that orders its changes, and the people watching it, who all
receive one serialisation of each change (the whole view, or when it is large, what changed: ``delta``); a game
between seats (``game_room``) and a race on one puzzle (``race_room``) are the two kinds of room."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from damier.server.rooms import delta

#: a view whose message is at least this long (characters of its JSON text) is sent as what changed since the
#: last one (a ``delta`` message) when that is shorter: small views are sent whole, as diffing them saves little
DELTA_THRESHOLD = 2048
#: the watchers of a room sent each change as it happens (the players' sockets always are); those past them (a
#: crowd watching one game) are sent the room's latest view at most every SLOW_SECONDS, SLOW_BATCH at a time with
#: the event loop free between batches, so that a crowd never slows the players of this game or of others
LIVE_WATCHERS = 64
SLOW_SECONDS = 2.0
SLOW_BATCH = 64


def encode(message: dict[str, Any]) -> str:
    """A message as the text a WebSocket carries (compact JSON, as Starlette's ``send_json`` writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def state_message(seq: int, view: str) -> str:
    """The message of a whole view numbered ``seq``, from the view's JSON text (``encode``).

    >>> state_message(3, encode({"a": None}))
    '{"type":"state","seq":3,"state":{"a":null}}'
    """
    return f'{{"type":"state","seq":{seq},"state":{view}}}'


class Watcher:
    """One WebSocket watching a room: messages wait in a small queue that its own task sends from, so a slow
    or stalled client never holds up a move; a client that falls too far behind is disconnected (once: a
    dropped watcher takes nothing more)."""

    QUEUE_SIZE = 32

    def __init__(self, send: Callable[[str], Awaitable[None]], close: Callable[[], Coroutine[Any, Any, None]], *,
                 deltas: bool = False) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue(self.QUEUE_SIZE)
        self._send = send
        self._close = close
        self.dropped = False
        #: the seat this socket said it plays (a ``hello`` with the seat's token), and whether its page is hidden
        self.seat: int | None = None
        self.away = False
        #: whether this client takes deltas (it said so: a client written for whole views only is sent them only)
        self.deltas = deltas
        #: whether this socket holds the room's last broadcast view (``Room.seq``), so that the next change may be
        #: sent to it as a delta; a new watcher is sent the view as it is then, and the next change whole
        self.in_step = False
        self._closing: asyncio.Task[None] | None = None
        self.task = asyncio.create_task(self._pump())

    @property
    def takes_delta(self) -> bool:
        """Whether the room's next change may be sent to this socket as a delta (it takes them, and holds the
        last view broadcast)."""
        return self.deltas and self.in_step

    def offer(self, text: str) -> bool:
        """Queue a message (already serialised); False (and the watcher is dropped) when the client is too far
        behind, or was dropped already."""
        if self.dropped:
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()
            return False
        return True

    def drop(self) -> None:
        """Stop sending and close the socket (the first time only)."""
        if self.dropped:
            return
        self.dropped = True
        self.task.cancel()
        self._closing = asyncio.create_task(self._close())  # best effort; nothing waits for it

    def stop(self) -> None:
        self.task.cancel()

    async def _pump(self) -> None:
        """Send the queued messages in order."""
        with contextlib.suppress(Exception):
            while True:
                await self._send(await self.queue.get())


class Room(abc.ABC):
    """A room: changes happen under ``lock``, are stored before anyone hears of them, and then every watcher
    is sent the same text (the room is serialised once per change, however many watch it).

    Each broadcast view has a number, ``seq`` (1, 2, ... for this room in memory): the message is
    ``{"type": "state", "seq": n, "state": view}``, or, for a large view (``DELTA_THRESHOLD``) to the watchers
    holding view ``n - 1`` that take deltas, ``{"type": "delta", "seq": n, "base": n - 1, "patch": ops}``
    (``delta.diff``), computed once per change. A socket's messages arrive in order and a watcher that falls
    behind is dropped, so a watcher always holds the base of the next delta it is sent."""

    #: how many watchers hear each change as it happens (``LIVE_WATCHERS``; a room may allow more)
    live_watchers = LIVE_WATCHERS

    def __init__(self, room_id: str) -> None:
        self.id = room_id
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        #: the watchers past ``LIVE_WATCHERS`` (a subset of ``watchers``), sent the latest view now and then, and
        #: the task that sends it
        self.slow: set[Watcher] = set()
        self._slow_task: asyncio.Task[None] | None = None
        #: who is here through other servers (``rooms.presence``): by server, its seats and until when (monotonic
        #: seconds) that word holds
        self.elsewhere: dict[str, tuple[dict[str, str], float]] = {}
        #: called when this server's own presence changed (the arcade tells the other servers)
        self.on_presence: Callable[[Room], None] | None = None
        #: the number of the last view broadcast, its JSON text, and that text parsed (once a delta needed it)
        self.seq = 0
        self._sent: str | None = None
        self._sent_value: Any = None

    @abc.abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The room as an anonymous watcher sees it (watchers share one message, so it names no one)."""

    @property
    def idle(self) -> bool:
        """Whether nothing happens in the room now (nobody watches, nothing runs): it may leave memory."""
        return not self.watchers and not self.lock.locked()

    def watch(self, watcher: Watcher) -> None:
        """Add a watcher; it is sent the room at once (numbered with the last broadcast's ``seq``), and who is
        here. The view may differ from the last one broadcast (its clocks and ``now`` do, and a room nobody
        watched is not broadcast): then the watcher's next view is sent whole, not as a delta against a view
        it never had. Telling the others instead would send every watcher a message each time anyone
        connects."""
        text = encode(self.snapshot())
        watcher.in_step = text == self._sent
        watcher.offer(state_message(self.seq, text))
        if len(self.watchers) - len(self.slow) >= self.live_watchers:
            self.slow.add(watcher)
            watcher.in_step = False
        self.watchers.add(watcher)
        if self.presence():
            watcher.offer(self.presence_message())

    def unwatch(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        self.slow.discard(watcher)
        self._promote()
        watcher.stop()
        if watcher.seat is not None:
            self.tell_presence()
            if self.on_presence is not None:
                self.on_presence(self)

    def local_presence(self) -> dict[str, str]:
        """The seats some socket of this server plays, each ``"online"`` (a page in view) or ``"away"`` (every
        page of that seat hidden); a seat nobody plays now is not named (offline)."""
        seen: dict[str, str] = {}
        for watcher in self.watchers:
            if watcher.seat is not None and not watcher.dropped:
                key = str(watcher.seat)
                seen[key] = "online" if not watcher.away or seen.get(key) == "online" else "away"
        return dict(sorted(seen.items()))

    def presence(self) -> dict[str, str]:
        """Who is here, through this server and the others that said so (``elsewhere``): a seat online anywhere
        is online, else away if it is away anywhere; a seat nobody plays is not named (offline)."""
        seen = self.local_presence()
        for seats, _until in self.elsewhere.values():
            for key, word in seats.items():
                if word == "online" or key not in seen:
                    seen[key] = word
        return dict(sorted(seen.items()))

    def hear(self, server: str, seats: dict[str, str], until: float) -> None:
        """Another server said who plays this room through it (until ``until``): watchers are told if that
        changes who is here."""
        before = self.presence()
        if seats:
            self.elsewhere[server] = (seats, until)
        else:
            self.elsewhere.pop(server, None)
        if self.presence() != before:
            self.tell_presence()

    def forget_elsewhere(self, now: float) -> None:
        """Drop what other servers said and did not say again before it ran out (a server stopped)."""
        before = self.presence()
        self.elsewhere = {server: said for server, said in self.elsewhere.items() if said[1] > now}
        if self.presence() != before:
            self.tell_presence()

    def presence_message(self) -> str:
        return encode({"type": "presence", "seats": self.presence()})

    def present(self, watcher: Watcher, seat: int, away: bool) -> None:
        """``watcher`` plays ``seat`` (its token checked), its page hidden or not: every watcher is told when
        that changes who is here, and the other servers when it changes who is here through this one."""
        before, mine = self.presence(), self.local_presence()
        watcher.seat, watcher.away = seat, away
        if watcher in self.slow:  # a player is never slowed: its socket hears every change as it happens
            self.slow.discard(watcher)
        if self.presence() != before:
            self.tell_presence()
        if self.local_presence() != mine and self.on_presence is not None:
            self.on_presence(self)

    def presence_changed(self) -> None:  # noqa: B027 (a hook: most rooms note nothing)
        """Called whenever who is here may have changed, before the watchers are told (a game room notes who
        left, and since when)."""

    def tell_presence(self) -> None:
        self.presence_changed()
        text = self.presence_message()
        for watcher in list(self.watchers):
            if not watcher.offer(text):
                self.watchers.discard(watcher)

    def broadcast(self) -> None:
        """Tell every watcher about a change: one serialisation, shared (and one delta, shared by the watchers
        that take deltas and hold the last view, when the view is large); a watcher too far behind is dropped.
        Nobody watching, nothing is sent, and the next watcher is sent the view whole."""
        if not self.watchers:
            return
        text = encode(self.snapshot())
        self.seq += 1
        whole = state_message(self.seq, text)
        patch, value = None, None
        if self._sent is not None and len(whole) >= DELTA_THRESHOLD and any(w.takes_delta for w in self.watchers):
            value = json.loads(text)  # the view as the watchers read it (a fresh copy, in JSON's own types)
            patch = self._delta(value, len(whole))
        self._sent, self._sent_value = text, value
        for watcher in list(self.watchers):
            if watcher in self.slow:
                continue
            sent = watcher.offer(patch if patch is not None and watcher.takes_delta else whole)
            watcher.in_step = True
            if not sent:  # too far behind: dropped, its socket closed
                self.watchers.discard(watcher)
        if self.slow and (self._slow_task is None or self._slow_task.done()):
            self._slow_task = asyncio.create_task(self._tell_the_crowd())

    async def _tell_the_crowd(self) -> None:
        """``SLOW_SECONDS`` after a change, send the slow watchers the latest view (whole), ``SLOW_BATCH`` at a
        time with the event loop free between batches."""
        await asyncio.sleep(SLOW_SECONDS)
        if self._sent is None:
            return
        whole = state_message(self.seq, self._sent)
        crowd = list(self.slow)
        for start in range(0, len(crowd), SLOW_BATCH):
            for watcher in crowd[start:start + SLOW_BATCH]:
                if watcher in self.slow and not watcher.offer(whole):
                    self.watchers.discard(watcher)
                    self.slow.discard(watcher)
            await asyncio.sleep(0)

    def _promote(self) -> None:
        """A live watcher left: slow ones take the places freed (each sent the next change whole)."""
        while self.slow and len(self.watchers) - len(self.slow) < self.live_watchers:
            self.slow.pop()

    def _delta(self, value: Any, whole: int) -> str | None:
        """The ``delta`` message from the last view broadcast to ``value`` (the view numbered ``seq``), when it
        is shorter than the whole message (``whole`` characters); else None."""
        if self._sent_value is None:
            assert self._sent is not None
            self._sent_value = json.loads(self._sent)
        message = encode({"type": "delta", "seq": self.seq, "base": self.seq - 1,
                          "patch": delta.diff(self._sent_value, value)})
        return message if len(message) < whole else None

    def release(self) -> None:
        """The room leaves memory (evicted, or forgotten because the database knows better): its watchers are
        disconnected (close code 1013: they reconnect, to the room loaded again, so none stays on a room that was
        replaced); subclasses also stop what the room runs on its own (a race's timer), then call this."""
        for watcher in list(self.watchers):
            watcher.drop()
        self.watchers.clear()
        self.slow.clear()
        if self._slow_task is not None:
            self._slow_task.cancel()

    def close(self) -> None:
        """Stop whatever the room runs in the background (the server is stopping): subclasses stop their own
        work, then call this, which stops sending to the watchers."""
        for watcher in self.watchers:
            watcher.stop()
        if self._slow_task is not None:
            self._slow_task.cancel()
