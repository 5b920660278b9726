"""What a game room's shell is given of the server: the narrow interface (``GameHouse``) through which its modules
(commands, moves, turns, creation, puzzles, setups, idle) reach storage, the rooms in memory, the seat keys, the
computer pool and the clock. The server's ``Arcade`` is one; these modules never see the rest of it (the race
rooms, the other stores, presence across servers), and mypy checks they use nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from damier.server.rooms.house import RoomHouse

if TYPE_CHECKING:
    import asyncio

    from damier.server.computer import ComputerPool
    from damier.server.rooms.game.room import GameRoom
    from damier.server.rooms.game.turns import Turn
    from damier.server.storage.games import GameStore
    from damier.server.storage.leases import LeaseStore


class GameStorage(Protocol):
    """The stores a game room writes: its games, and the leases of computer turns between servers."""

    @property
    def games(self) -> GameStore: ...

    @property
    def leases(self) -> LeaseStore: ...


class GameHouse(RoomHouse, Protocol):
    """What a game room's shell works with: what every room's does, and these."""

    @property
    def storage(self) -> GameStorage: ...

    @property
    def pool(self) -> ComputerPool: ...

    @property
    def server_id(self) -> str:
        """This server, as computer-turn leases name it."""

    @property
    def turns(self) -> dict[str, Turn]:
        """The computer turns in progress, by game id."""

    @property
    def tasks(self) -> set[asyncio.Task[None]]:
        """Background tasks the server cancels when it stops."""

    async def room(self, game_id: str) -> GameRoom:
        """The room of game ``game_id``, loaded when it is not in memory (``NotFound``)."""

    def require_seat(self, room: GameRoom, token: str | None) -> int:
        """The human seat of ``room`` whose token is ``token`` (``NotYourSeat``)."""

    def stop_turn(self, room: GameRoom) -> None:
        """Forget the computer move in progress in ``room``."""
