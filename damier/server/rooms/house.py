"""What every room's shell is given of the server, game or race (``RoomHouse``): the rooms in memory, the seat keys,
the clock, the games' rules ready. ``rooms/game/house.py`` and ``rooms/race/house.py`` add what each kind needs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from damier.server.rooms.cache import RoomCache
    from damier.server.rooms.room import Room
    from damier.server.rooms.seats import SeatKeys


class RoomHouse(Protocol):
    """What a room's shell works with, whatever the room."""

    @property
    def rooms(self) -> RoomCache[Room]: ...

    @property
    def keys(self) -> SeatKeys: ...

    def now(self) -> float:
        """The clock (seconds since the epoch)."""

    async def rules_ready(self, game: str) -> None:
        """Game ``game``'s rules kernels ready in this process."""
