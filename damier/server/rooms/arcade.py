"""The arcade: every live room (games between seats and race rooms, in one bounded cache), the storage, the seat
keys, the computer pool and the clock, which the other room modules work with; a room is looked up here, and
loaded from the database when it is not in memory."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable

from damier.core import registry
from damier.server.computer import ComputerPool
from damier.server.rooms import presence
from damier.server.rooms.cache import CAPACITY, AnswerCache, RoomCache
from damier.server.rooms.errors import Conflict, NotFound
from damier.server.rooms.game import clocks, moves, setups, turns
from damier.server.rooms.game.room import GameRoom
from damier.server.rooms.race import timers as race_timers
from damier.server.rooms.race.room import RaceRoom, build
from damier.server.rooms.room import Room
from damier.server.rooms.seats import SeatKeys
from damier.server.storage import GameRow, Storage
from damier.server.words import say


class Arcade:
    """The server's rooms and what they need."""

    def __init__(self, storage: Storage, pool: ComputerPool, secret: bytes, capacity: int = CAPACITY) -> None:
        self.storage = storage
        self.pool = pool
        self.keys = SeatKeys(secret)
        self.rooms: RoomCache[Room] = RoomCache(capacity)
        #: answers kept ready (replay pages, by room, version and page)
        self.answers = AnswerCache()
        self._refreshing: set[asyncio.Task[None]] = set()
        #: tasks telling the other servers who is here (``presence``), and the rooms with a word in flight (True:
        #: to be said again after it)
        self.tasks: set[asyncio.Task[None]] = set()
        self.saying: dict[str, bool] = {}
        #: this server, as computer-turn leases name it
        self.server_id = secrets.token_hex(8)
        #: the computer turns in progress, by game id (a room may leave memory while its computer thinks)
        self.turns: dict[str, turns.Turn] = {}
        #: seconds since the epoch: race deadlines are counted on it (tests move it forward)
        self.clock: Callable[[], float] = time.time

    async def room(self, game_id: str) -> GameRoom:
        """The room of game ``game_id`` (``NotFound`` if there is none); a computer whose turn it is in a room
        loaded now starts thinking, and its clock's timer is set. A game whose running clock fell ends on time
        first (however it was missed: a room evicted, a server down), so every request sees it settled."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise NotFound(say("error.room.no_such_game"))
        room, loaded = await self.rooms.load(game_id, self._load)
        if not isinstance(room, GameRoom):
            raise NotFound(say("error.room.no_game", id=repr(game_id)))
        if clocks.due(room, self.now()):
            # another server may have ended it or moved first (Conflict): what the database holds is read again
            with contextlib.suppress(Conflict):
                await moves.settle(self, room)
        if loaded:
            moves.arm(self, room)
            turns.schedule(self, room)
        if room.on_presence is None:
            presence.attach(self, room)
        room.now = self.now
        return room

    async def race(self, race_id: str) -> RaceRoom:
        """The race room ``race_id`` (``NotFound`` if there is none); a room loaded now sets its timer."""
        if not isinstance(race_id, str) or not 1 <= len(race_id) <= 32:
            raise NotFound(say("error.room.no_such_race"))
        room, loaded = await self.rooms.load(race_id, self._load_race)
        if not isinstance(room, RaceRoom):
            raise NotFound(say("error.room.no_race", id=repr(race_id)))
        if loaded:
            race_timers.schedule(self, room)
        return room

    async def rules_ready(self, game: str) -> None:
        """Game ``game``'s rules kernels compiled, or loaded from numba's cache, off the event loop (once per game;
        ``Compiler.here``), before this process plays them."""
        if self.pool.kernels is not None:
            self.pool.kernels.ask(game)  # its computer next
            await self.pool.kernels.here(game, "rules")

    async def _load(self, game_id: str) -> Room | None:
        row = await asyncio.to_thread(self.storage.games.load, game_id)
        if row is None:
            return None
        await self.rules_ready(row.game)
        return await build_game(self, row)

    async def _load_race(self, race_id: str) -> Room | None:
        row = await asyncio.to_thread(self.storage.races.load, race_id)
        if row is None:
            return None
        await self.rules_ready(row.game)
        return await asyncio.to_thread(build, row, self.now)

    def now(self) -> float:
        """The arcade's clock now (seconds since the epoch)."""
        return self.clock()

    def seat_of(self, room: GameRoom, token: str | None) -> int | None:
        """The human seat of ``room`` whose token is ``token``, or None (a watcher)."""
        return self.keys.seat_of(room.id, room.human_seats(), token)

    def require_seat(self, room: GameRoom, token: str | None) -> int:
        """Like ``seat_of``, but ``NotYourSeat`` for a token of no seat."""
        return self.keys.require(room.id, room.human_seats(), token)

    def heard(self, payload: str) -> None:
        """Another server (or this one) stored a change (``Notifications.listen``, on the event loop): a game room in
        memory that is behind is brought up to date in place, and its watchers sent it; a race room behind leaves
        memory (its watchers reconnect to it loaded again). ``lost``: every room may be behind."""
        if payload == "lost":
            for each in list(self.rooms):
                self._catch_up(each, None)
            return
        kind, _, rest = payload.partition(" ")
        if kind == "presence":
            presence.heard(self, rest)
            return
        room_id, _, mark = rest.partition(" ")
        room = self.rooms.peek(room_id)
        expected = GameRoom if kind == "game" else RaceRoom
        if isinstance(room, expected) and mark.isdigit():
            self._catch_up(room, int(mark))

    def _catch_up(self, room: Room, mark: int | None) -> None:
        task = asyncio.create_task(self._refresh(room, mark))
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def _refresh(self, room: Room, mark: int | None) -> None:
        """Once the room's own change in progress is done: a game behind ``mark`` is read again and made what the
        database holds; a race behind it leaves memory."""
        async with room.lock:
            if isinstance(room, RaceRoom):
                if mark is None or not room.row.events or room.row.events[-1].seq < mark:
                    self.rooms.forget(room)
                return
            if not isinstance(room, GameRoom) or (mark is not None and room.row.revision >= mark):
                return
            if not self.rooms.holds(room):
                return
            row = await asyncio.to_thread(self.storage.games.load, room.id)
            if row is None or row.revision <= room.row.revision:
                return
            fresh = await build_game(self, row)
            room.row, room.state = fresh.row, fresh.state
            room.hint_cache, room.solution = {}, None
        moves.arm(self, room)
        turns.schedule(self, room)
        room.broadcast()

    def stop_turn(self, room: GameRoom) -> None:
        """Forget the computer move in progress in ``room`` (an undo, the end of the game)."""
        turns.stop(self, room)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for turn in list(self.turns.values()):
            if turn.task is not None:
                turn.task.cancel()
        self.turns.clear()
        for room in self.rooms:
            room.close()
            if isinstance(room, GameRoom) and room.settling is not None:
                room.settling.cancel()


def _build(row: GameRow, drawn: str | None = None) -> GameRoom:
    """A stored game's room: its moves replayed from its start (``drawn``: the position its usual start drew from
    its seed, drawn already: ``setups``)."""
    game = registry.load(row.game, **row.options)
    state = game.replay([m for m, _ in row.moves], seed=row.seed, start=row.start if drawn is None else drawn)
    room = GameRoom(row, game, state)
    if drawn is not None:
        room.known_start(drawn)
    return room


async def build_game(arcade: Arcade, row: GameRow) -> GameRoom:
    """``_build`` off the event loop, its usual start drawn in the worker pool first when a seed draws it."""
    drawn = None
    if row.start is None and row.seed is not None:
        drawn = await setups.usual_start(arcade, registry.load(row.game, **row.options), row.seed)
    return await asyncio.to_thread(_build, row, drawn)
