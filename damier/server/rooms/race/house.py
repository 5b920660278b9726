"""What a race room's shell is given of the server: the narrow interface (``RaceHouse``) through which its modules
(commands, changes, timers) reach the races' store, the rooms in memory, the seat keys and the clock. The server's
``Arcade`` is one; these modules never see the rest of it (the game rooms, the computer pool, the other stores),
and mypy checks they use nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from damier.server.rooms.cache import RoomCache
    from damier.server.rooms.race.room import RaceRoom
    from damier.server.rooms.room import Room
    from damier.server.rooms.seats import SeatKeys
    from damier.server.storage.races import RaceStore


class RaceStorage(Protocol):
    """The store a race room writes."""

    @property
    def races(self) -> RaceStore: ...


class RaceHouse(Protocol):
    """What a race room's shell works with."""

    @property
    def storage(self) -> RaceStorage: ...

    @property
    def rooms(self) -> RoomCache[Room]: ...

    @property
    def keys(self) -> SeatKeys: ...

    def now(self) -> float:
        """The clock (seconds since the epoch)."""

    async def race(self, race_id: str) -> RaceRoom:
        """The race room ``race_id``, loaded when it is not in memory (``NotFound``)."""

    async def rules_ready(self, game: str) -> None:
        """Game ``game``'s rules kernels ready in this process."""
