"""The rooms kept in memory (game rooms and race rooms alike): a bounded cache, most recently used last, from which
rooms are evicted, idle ones first, whatever they are doing past the bound (a room is rebuilt from the database when
it is asked for again); each room is loaded once however many ask."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from typing import Generic, TypeVar

from damier.server.rooms.room import Room

R = TypeVar("R", bound=Room)

#: rooms kept in memory at most (idle ones beyond it leave first, the least recently used first)
CAPACITY = 2000


class RoomCache(Generic[R]):
    """Rooms by id, at most ``capacity`` of them when enough are idle."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._rooms: OrderedDict[str, R] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}

    def __len__(self) -> int:
        return len(self._rooms)

    def __iter__(self) -> Iterator[R]:
        return iter(list(self._rooms.values()))

    @property
    def loads_in_progress(self) -> int:
        """Rooms being loaded now (none once every request has its answer)."""
        return len(self._loading)

    def holds(self, room: R) -> bool:
        """Whether ``room`` is the one kept for its id (it was neither evicted nor forgotten)."""
        return self._rooms.get(room.id) is room

    def peek(self, room_id: str) -> R | None:
        """The room if it is in memory (its place in the order unchanged)."""
        return self._rooms.get(room_id)

    def get(self, room_id: str) -> R | None:
        """The room if it is in memory (it becomes the most recently used)."""
        room = self._rooms.get(room_id)
        if room is not None:
            self._rooms.move_to_end(room_id)
        return room

    async def load(self, room_id: str, loader: Callable[[str], Awaitable[R | None]]) -> tuple[R | None, bool]:
        """The room, from memory or else from ``loader`` (called once at a time per id); whether it was loaded
        now. ``(None, False)`` when the loader knows no such room."""
        room = self.get(room_id)
        if room is not None:
            return room, False
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        try:
            async with lock:
                room = self.get(room_id)
                if room is not None:
                    return room, False
                room = await loader(room_id)
                if room is None:
                    return None, False
                self.add(room)
                return room, True
        finally:
            self._loading.pop(room_id, None)

    def add(self, room: R) -> None:
        self._rooms[room.id] = room
        self._evict()

    def forget(self, room: R) -> None:
        """Drop ``room`` (the database knows better: the next request loads it again)."""
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
            room.release()

    def _evict(self) -> None:
        """Keep at most ``capacity`` rooms whatever they are doing: the least recently used idle room leaves
        first, else one that is not changing now, else the least recently used; never the room just used. A room
        that leaves disconnects its watchers (they reconnect to the room loaded again) and its computer turn goes
        on without it (``turns``)."""
        while len(self._rooms) > self.capacity:
            older = list(self._rooms.values())[:-1]
            victim = (next((r for r in older if r.idle), None) or next((r for r in older if not r.lock.locked()), None)
                      or (older[0] if older else None))
            if victim is None:
                return
            del self._rooms[victim.id]
            victim.release()


#: bytes of answers the arcade keeps ready (replay pages)
ANSWER_BYTES = 32 * 1024 * 1024


class AnswerCache:
    """Encoded answers by key (a replay page of a room at a version), at most ``limit`` bytes in all, the least
    recently used leaving first; one computation per key however many ask at once."""

    def __init__(self, limit: int = ANSWER_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._answers: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._making: dict[tuple[object, ...], asyncio.Lock] = {}

    async def get(self, key: tuple[object, ...], make: Callable[[], Awaitable[bytes]]) -> bytes:
        answer = self._take(key)
        if answer is not None:
            return answer
        lock = self._making.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                answer = self._take(key)
                if answer is None:
                    answer = await make()
                    self._put(key, answer)
                return answer
        finally:
            if not lock.locked() and self._making.get(key) is lock:
                del self._making[key]

    def _take(self, key: tuple[object, ...]) -> bytes | None:
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        return answer

    def _put(self, key: tuple[object, ...], answer: bytes) -> None:
        if len(answer) > self.limit:
            return
        self._answers[key] = answer
        self.size += len(answer)
        while self.size > self.limit:
            _, old = self._answers.popitem(last=False)
            self.size -= len(old)
