"""What a race room's shell is given of the server: the narrow interface (``RaceHouse``) through which its modules
(commands, changes, timers) reach the races' store, the rooms in memory, the seat keys and the clock. The server's
``Arcade`` is one; these modules never see the rest of it (the game rooms, the computer pool, the other stores),
and mypy checks they use nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from damier.server.rooms.house import RoomHouse

if TYPE_CHECKING:
    from damier.server.rooms.race.room import RaceRoom
    from damier.server.storage.races import RaceStore


class RaceStorage(Protocol):
    """The store a race room writes."""

    @property
    def races(self) -> RaceStore: ...


class RaceHouse(RoomHouse, Protocol):
    """What a race room's shell works with: what every room's does, and these."""

    @property
    def storage(self) -> RaceStorage: ...

    async def race(self, race_id: str) -> RaceRoom:
        """The race room ``race_id``, loaded when it is not in memory (``NotFound``)."""
