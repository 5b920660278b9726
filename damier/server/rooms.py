"""The arcade's game logic, independent of HTTP: rooms (one live game each), seats, tokens, moves, undo,
resignation, draws, rematches, computer moves and broadcasting to watchers.

A ``Room`` holds the authoritative ``State`` of one game in memory, rebuilt from the database when first
needed. Every change happens under the room's lock and is committed before anyone is told about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from damier.ai.spec import resolve
from damier.core import registry
from damier.core.errors import DamierError, IllegalMoveError, ParseError, RecordError
from damier.core.game import CHANCE, TERMINAL, Game, State
from damier.core.record import Record, now_iso
from damier.server.computer import ComputerPool, Job, budget_seconds
from damier.server.storage import ConflictError, GameRow, SeatRow, Storage

log = logging.getLogger("damier.server")

HINT_LEVEL = "hard"
MAX_ROOMS_IN_MEMORY = 2000


class ArcadeError(Exception):
    """An error the API reports as JSON with an HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Watcher:
    """One WebSocket watching a room: messages wait in a small queue that its own task sends from, so a slow
    or stalled client never holds up a move; a client that falls too far behind is disconnected."""

    QUEUE_SIZE = 32

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]], close: Callable[[], Coroutine[Any, Any, None]]
                 ) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(self.QUEUE_SIZE)
        self._send = send
        self._close = close
        self.task = asyncio.create_task(self._pump())

    def offer(self, message: dict[str, Any]) -> bool:
        """Queue a message; False (and the watcher is dropped) when the client is too far behind."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.drop()
            return False
        return True

    def drop(self) -> None:
        self.task.cancel()
        asyncio.create_task(self._close())  # noqa: RUF006 (closing is best effort; nothing waits for it)

    def stop(self) -> None:
        self.task.cancel()

    async def _pump(self) -> None:
        """Send the queued messages in order."""
        with contextlib.suppress(Exception):
            while True:
                await self._send(await self.queue.get())


@dataclass
class Room:
    row: GameRow
    game: Game
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Watcher] = field(default_factory=set)
    thinking: int | None = None  # the computer seat thinking now
    task: asyncio.Task[None] | None = None
    hint_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hint_cache: tuple[int, dict[str, Any]] | None = None  # (version, answer)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def active(self) -> bool:
        return self.row.status == "active"

    def human_seats(self) -> list[int]:
        return [s.index for s in self.row.seats if s.kind == "human"]

    def computer_level(self, seat: int) -> str | None:
        s = self.row.seats[seat]
        return s.level if s.kind == "computer" else None


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


class Arcade:
    """Every live room, the storage and the computer pool."""

    def __init__(self, storage: Storage, pool: ComputerPool) -> None:
        self.storage = storage
        self.pool = pool
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}

    # ----- tokens -------------------------------------------------------------------------------------
    def token(self, game_id: str, seat: int) -> str:
        """The secret of a seat: an HMAC of the server's secret, so no token is ever stored."""
        digest = hmac.new(self.storage.secret, f"{game_id}:{seat}".encode(), hashlib.sha256).digest()
        return digest[:24].hex()

    def seat_of(self, room: Room, token: str | None) -> int | None:
        if not token or not isinstance(token, str) or not token.isascii():
            return None
        for seat in room.human_seats():
            if hmac.compare_digest(self.token(room.id, seat).encode(), token.encode()):
                return seat
        return None

    def require_seat(self, room: Room, token: str | None) -> int:
        seat = self.seat_of(room, token)
        if seat is None:
            raise ArcadeError(403, "a valid seat token is required for this (send it in the X-Seat-Token header)")
        return seat

    # ----- rooms --------------------------------------------------------------------------------------
    async def room(self, game_id: str) -> Room:
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise ArcadeError(404, "no such game")
        room = self.rooms.get(game_id)
        if room is not None:
            self.rooms.move_to_end(game_id)
            return room
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(game_id)
                if room is None:
                    row = await asyncio.to_thread(self.storage.load_game, game_id)
                    if row is None:
                        raise ArcadeError(404, f"no game {game_id!r}")
                    room = await asyncio.to_thread(self._build, row)
                    self.rooms[game_id] = room
                    self._evict()
                    self.schedule_computer(room)
        finally:
            self._loading.pop(game_id, None)
        return room

    def _build(self, row: GameRow) -> Room:
        game = registry.load(row.game, **row.options)
        state = game.replay([m for m, _ in row.moves], seed=row.seed, start=row.start)
        return Room(row=row, game=game, state=state)

    def _evict(self) -> None:
        while len(self.rooms) > MAX_ROOMS_IN_MEMORY:
            for key, room in self.rooms.items():
                if not room.subscribers and room.thinking is None and not room.lock.locked():
                    del self.rooms[key]
                    break
            else:
                return

    # ----- creating games -----------------------------------------------------------------------------
    async def create(self, name: str, options: dict[str, Any], seat_specs: list[dict[str, Any]],
                     seed: int | None, start: str | None = None) -> tuple[Room, dict[int, str]]:
        """A new game; ``start`` is a position in the game's notation to begin from (None: its usual start)."""
        try:
            game = registry.load(name, **options)
        except DamierError as exc:
            raise ArcadeError(422, str(exc)) from None
        state = start_state(game, start, seed)
        if len(seat_specs) != game.num_players:
            raise ArcadeError(422, f"{game.name} with these options has {game.num_players} seats, "
                                   f"not {len(seat_specs)}")
        info = registry.info(game.name)
        allowed_levels = [*(info.levels or {"easy": "", "medium": "", "hard": ""}), *info.agents]
        seats = []
        for index, spec in enumerate(seat_specs):
            kind = spec.get("kind")
            if kind == "human":
                seats.append(SeatRow(index, "human", None))
            elif kind == "computer":
                level = spec.get("level") or "hard"
                if level not in allowed_levels:
                    raise ArcadeError(422, f"seat {index}: unknown computer level {level!r}; "
                                           f"accepted: {', '.join(allowed_levels)}")
                seats.append(SeatRow(index, "computer", level))
            else:
                raise ArcadeError(422, f"seat {index}: kind must be 'human' or 'computer', not {kind!r}")
        now = now_iso()
        row = GameRow(id=new_game_id(), game=game.name, options=dict(game.options), seed=seed, start=state.start,
                      status="active", result=None, draw_offer=None, undo_request=[], rematch=None,
                      created_at=now, updated_at=now, seats=seats)
        room = Room(row=row, game=game, state=state)
        row.moves = self._chance_moves(room, room.state)
        await asyncio.wrap_future(self.storage.create_game(row))
        self.rooms[row.id] = room
        self._evict()
        self.schedule_computer(room)
        return room, {seat: self.token(row.id, seat) for seat in room.human_seats()}

    async def import_record(self, obj: Any) -> Room:
        try:
            record = Record.from_json(obj)
            if record.seed is not None and not 0 <= record.seed < 2**63:
                raise RecordError(f"seed {record.seed} is out of range (0 to 2**63 - 1)")
            state = await asyncio.to_thread(record.replay)
        except RecordError as exc:
            raise ArcadeError(422, str(exc)) from None
        now = now_iso()
        outcome = state.outcome()
        players = await asyncio.to_thread(_players_by_ply, state)
        row = GameRow(id=new_game_id(), game=state.game.name, options=dict(state.game.options), seed=record.seed,
                      start=record.start, status="replay", result=outcome.to_json() if outcome else
                      (record.result.to_json() if record.result else None),
                      draw_offer=None, undo_request=[], rematch=None, created_at=now, updated_at=now,
                      seats=[SeatRow(i, "human", None) for i in range(state.game.num_players)],
                      moves=list(zip(state.moves_in_notation(), players, strict=True)))
        await asyncio.wrap_future(self.storage.create_game(row))
        room = Room(row=row, game=state.game, state=state)
        self.rooms[row.id] = room
        return room

    # ----- the view -----------------------------------------------------------------------------------
    def view(self, room: Room, you: int | None = None, *, spectator: bool = False) -> dict[str, Any]:
        """The game as a client draws it; ``you`` is the seat of the asker (None: unknown). The board carries
        what only a player about to move needs (Khet's laser previews) only while a person is to move, and not
        for a ``spectator`` (an asker known to hold no seat): the WebSocket's watchers are anonymous, so what
        they receive has them whenever a person is to move."""
        state = room.state
        row = room.row
        active = room.active
        player = state.player if active else TERMINAL
        result = row.result
        previews = not spectator and player >= 0 and row.seats[player].kind == "human"
        return {
            "id": row.id,
            "game": room.game.name,
            "title": room.game.title,
            "options": dict(room.game.options),
            "status": row.status,
            "seats": self.seats(room),
            "start": row.start,
            "you": you,
            "player": player,
            "version": len(state.history),
            "legal_moves": [state.move_to_str(m) for m in state.legal_moves()] if active and player >= 0 else [],
            "moves": [{"ply": i + 1, "move": m, "player": p} for i, (m, p) in enumerate(row.moves)],
            "events": state.events(),
            "board": state.board_json(previews=previews),
            "position": state.position(),
            "result": result,
            "has_draws": room.game.has_draws,
            "draw_offer": row.draw_offer,
            "undo_request": list(row.undo_request),
            "can_undo": active and bool(state.history) and self._undo_target(room) is not None,
            "rematch": row.rematch,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
        }

    def seats(self, room: Room) -> list[dict[str, Any]]:
        names = room.game.player_names
        return [{"index": s.index, "name": names[s.index], "kind": s.kind, "level": s.level,
                 "thinking": room.thinking == s.index} for s in room.row.seats]

    # ----- watchers -----------------------------------------------------------------------------------
    async def broadcast(self, room: Room) -> None:
        if not room.subscribers:
            return
        message = {"type": "state", "state": self.view(room)}
        for watcher in list(room.subscribers):
            if not watcher.offer(message):  # too far behind: dropped, its socket closed
                room.subscribers.discard(watcher)

    # ----- moves --------------------------------------------------------------------------------------
    async def move(self, game_id: str, token: str | None, text: str, version: int | None) -> Room:
        room = await self.room(game_id)
        seat = self.require_seat(room, token)
        async with room.lock:
            self._check_turn(room, seat, version)
            state = room.state
            try:
                move = state.parse_move(text)
            except (ParseError, IllegalMoveError) as exc:
                raise ArcadeError(422, str(exc)) from None
            await self._commit(room, [(move, seat)])
        await self.broadcast(room)
        self.schedule_computer(room)
        return room

    def _check_turn(self, room: Room, seat: int, version: int | None) -> None:
        if not room.active:
            raise ArcadeError(409, f"the game is over ({(room.row.result or {}).get('reason', room.row.status)})")
        if version is not None and version != len(room.state.history):
            raise ArcadeError(409, f"the game has moved on (version {len(room.state.history)}, not {version}); "
                                   "reload it")
        if room.state.player != seat:
            raise ArcadeError(409, f"it is not your turn: {room.game.player_names[room.state.player]} is to move")

    def _chance_moves(self, room: Room, state: State) -> list[tuple[str, int]]:
        """Play the chance events due now on ``state``, drawn from the server's secret, the game and the ply
        (so they cannot be predicted from outside, and a restart draws the same)."""
        out = []
        while state.player == CHANCE:
            rng = random.Random(self.token(room.id, -1 - len(state.history)))
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]
            out.append((state.move_to_str(move), CHANCE))
            state.play(move)
        return out

    async def _commit(self, room: Room, played: list[tuple[int, int]]) -> None:
        """Play ``played`` (move, seat) pairs and the chance events after them on a copy, store them, and only
        then make the copy the room's state: nobody sees a move that is not committed."""
        state = room.state.copy()
        first_ply = len(state.history) + 1
        new_moves: list[tuple[str, int]] = []
        for move, seat in played:
            new_moves.append((state.move_to_str(move), seat))
            state.play(move)
        new_moves += self._chance_moves(room, state)
        outcome = state.outcome()
        status = "finished" if outcome else "active"
        result = outcome.to_json() if outcome else None
        now = now_iso()
        try:
            await asyncio.wrap_future(self.storage.append_moves(room.id, first_ply, new_moves, now, status, result))
        except ConflictError:
            self._forget(room)  # the database knows better: the next request reloads the game from it
            raise ArcadeError(409, "another move was stored first; reload the game") from None
        room.state = state
        room.row.moves.extend(new_moves)
        room.row.status, room.row.result = status, result
        room.row.draw_offer, room.row.undo_request = None, []
        room.row.updated_at = now

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    # ----- computer seats -----------------------------------------------------------------------------
    def schedule_computer(self, room: Room) -> None:
        if not room.active or room.state.player < 0 or room.thinking is not None:
            return
        level = room.computer_level(room.state.player)
        if level is None:
            return
        room.thinking = room.state.player
        room.task = asyncio.create_task(self._computer_turn(room, room.state.player, level))

    async def _computer_turn(self, room: Room, seat: int, level: str) -> None:
        version = len(room.state.history)
        spec = resolve(level, room.game.name)
        job = Job(room.game.name, dict(room.game.options), room.row.seed, room.row.start,
                  tuple(m for m, _ in room.row.moves), spec, agent_seed=version)
        try:
            await self.broadcast(room)
            try:
                answer = await self.pool.move(job, budget_seconds(spec))
                text = answer["move"]
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # out of time, or a worker that died: the game must not stall
                log.warning("computer seat %s of %s failed (%r); playing a random move", seat, room.id, exc)
                text = room.state.move_to_str(random.choice(room.state.legal_moves()))
            async with room.lock:
                if not room.active or len(room.state.history) != version or room.state.player != seat:
                    return  # an undo or a resignation came first
                await self._commit(room, [(room.state.parse_move(text), seat)])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer move failed in game %s", room.id)
            return
        finally:
            if room.task is asyncio.current_task():
                room.thinking = None
        await self.broadcast(room)
        self.schedule_computer(room)

    async def resume(self) -> int:
        """After a start: load every active game whose turn is a computer's, and let it think again."""
        # games between people wait until someone opens them; only computer turns need to start now
        ids = await asyncio.to_thread(self.storage.active_game_ids, True)
        resumed = 0
        for game_id in ids:
            try:
                room = await self.room(game_id)
            except Exception:
                log.exception("game %s cannot be resumed", game_id)
                continue
            if room.state.player >= 0 and room.computer_level(room.state.player):
                self.schedule_computer(room)
                resumed += 1
        return resumed

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        room = await self.room(game_id)
        seat = self.require_seat(room, token)
        if not room.active or room.state.player != seat:
            raise ArcadeError(409, "a hint is for the player to move, in a game that goes on")
        async with room.hint_lock:  # one hint at a time per game, and one per position
            version = len(room.state.history)
            if room.hint_cache is not None and room.hint_cache[0] == version:
                return room.hint_cache[1]
            spec = resolve(HINT_LEVEL, room.game.name)
            job = Job(room.game.name, dict(room.game.options), room.row.seed, room.row.start,
                      tuple(m for m, _ in room.row.moves), spec, agent_seed=version)
            try:
                answer = await self.pool.move(job, budget_seconds(spec))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hint failed in game %s", room.id)
                raise ArcadeError(503, "no hint could be computed right now; try again") from None
            room.hint_cache = (version, answer)
            return answer

    # ----- undo, resignation, draws, rematch ----------------------------------------------------------
    def _undo_target(self, room: Room) -> int | None:
        """How many plies to keep after an undo: back to before the last human move (and replies after it)."""
        humans = set(room.human_seats())
        players = [p for _, p in room.row.moves]
        for ply in range(len(players) - 1, -1, -1):
            if players[ply] in humans:
                return ply
        return None

    async def undo(self, game_id: str, token: str | None) -> Room:
        room = await self.room(game_id)
        seat = self.require_seat(room, token)
        async with room.lock:
            if not room.active:
                raise ArcadeError(409, "the game is over; there is nothing to undo")
            keep = self._undo_target(room)
            if keep is None:
                raise ArcadeError(409, "there is no move to undo")
            humans = room.human_seats()
            if len(humans) > 1:
                agreed = sorted(set(room.row.undo_request) | {seat})
                if set(agreed) != set(humans):
                    now = now_iso()
                    await asyncio.wrap_future(self.storage.update_game(room.id, now, undo_request=agreed))
                    room.row.undo_request, room.row.updated_at = agreed, now
                    await self.broadcast(room)
                    return room
            now = now_iso()
            await asyncio.wrap_future(self.storage.truncate_moves(room.id, keep, now))
            while len(room.state.history) > keep:
                room.state.undo()
            del room.row.moves[keep:]
            room.row.undo_request, room.row.draw_offer, room.row.updated_at = [], None, now
            self._stop_thinking(room)
        await self.broadcast(room)
        self.schedule_computer(room)
        return room

    def _stop_thinking(self, room: Room) -> None:
        """Forget a computer move in progress (its answer would be for a position that is gone)."""
        if room.task is not None and not room.task.done():
            room.task.cancel()
        room.task = None
        room.thinking = None

    async def resign(self, game_id: str, token: str | None) -> Room:
        room = await self.room(game_id)
        seat = self.require_seat(room, token)
        async with room.lock:
            if not room.active:
                raise ArcadeError(409, "the game is already over")
            names = room.game.player_names
            count = room.game.num_players
            if count == 2:
                winner: int | None = 1 - seat
                returns = [1.0 if q == winner else -1.0 for q in range(count)]
                reason = f"{names[seat]} resigned: {names[1 - seat]} wins"
            else:
                winner = None
                returns = [-1.0 if q == seat else 0.0 for q in range(count)]
                reason = f"{names[seat]} resigned; the game ends"
            await self._finish(room, {"winner": winner, "returns": returns, "reason": reason})
            self._stop_thinking(room)
        await self.broadcast(room)
        return room

    async def _finish(self, room: Room, result: dict[str, Any]) -> None:
        now = now_iso()
        await asyncio.wrap_future(self.storage.update_game(room.id, now, status="finished", result=result,
                                                           draw_offer=None, undo_request=[]))
        room.row.status, room.row.result, room.row.updated_at = "finished", result, now
        room.row.draw_offer, room.row.undo_request = None, []

    async def draw(self, game_id: str, token: str | None, action: str) -> Room:
        room = await self.room(game_id)
        seat = self.require_seat(room, token)
        if not room.game.has_draws:
            raise ArcadeError(409, f"{room.game.title} has no draws")
        async with room.lock:
            if not room.active:
                raise ArcadeError(409, "the game is already over")
            offer = room.row.draw_offer
            if action == "offer":
                await asyncio.wrap_future(self.storage.update_game(room.id, now_iso(), draw_offer=seat))
                room.row.draw_offer = seat
            elif action == "accept":
                if offer is None or offer == seat:
                    raise ArcadeError(409, "there is no draw offer from another seat to accept")
                count = room.game.num_players
                await self._finish(room, {"winner": None, "returns": [0.0] * count, "reason": "draw agreed"})
            elif action == "decline":
                await asyncio.wrap_future(self.storage.update_game(room.id, now_iso(), draw_offer=None))
                room.row.draw_offer = None
            else:
                raise ArcadeError(422, "action must be 'offer', 'accept' or 'decline'")
        await self.broadcast(room)
        return room

    async def rematch(self, game_id: str, token: str | None) -> tuple[Room, str]:
        room = await self.room(game_id)
        seat = self.require_seat(room, token)
        if room.active:
            raise ArcadeError(409, "a rematch can start once the game is over")
        shift = 1
        count = room.game.num_players
        async with room.lock:
            if room.row.rematch is None:
                seat_specs = [{"kind": room.row.seats[(i - shift) % count].kind,
                               "level": room.row.seats[(i - shift) % count].level} for i in range(count)]
                new_room, _ = await self.create(room.game.name, dict(room.game.options), seat_specs, None,
                                                room.row.start)
                await asyncio.wrap_future(self.storage.update_game(room.id, now_iso(), rematch=new_room.id))
                room.row.rematch = new_room.id
            new_id = room.row.rematch
        await self.broadcast(room)
        new_room = await self.room(new_id)
        return new_room, self.token(new_id, (seat + shift) % count)

    def record(self, room: Room) -> dict[str, Any]:
        obj = Record.from_state(room.state, players=[
            f"{room.game.player_names[s.index]} ({s.level or 'human'})" for s in room.row.seats],
            started_at=room.row.created_at).to_json()
        if room.row.result is not None:
            obj["result"] = room.row.result
        return obj

    async def replay(self, game_id: str) -> dict[str, Any]:
        """Every position of the game, computed off the event loop (long games take a while)."""
        room = await self.room(game_id)
        return await asyncio.to_thread(self.replay_frames, room)

    def replay_frames(self, room: Room) -> dict[str, Any]:
        state = room.game.new_state(room.row.seed) if room.row.start is None else room.game.state_from_position(
            room.row.start, room.row.seed)
        # no laser previews (or the like): nobody moves in a replay, and they would be most of every frame
        frames: list[dict[str, Any]] = [
            {"ply": 0, "move": None, "player": None, "board": state.board_json(previews=False), "events": []}
        ]
        for ply, (text, player) in enumerate(list(room.row.moves), start=1):
            state.play(state.parse_move(text))
            frames.append({"ply": ply, "move": text, "player": player, "board": state.board_json(previews=False),
                           "events": state.events()})
        return {"id": room.id, "game": room.game.name, "title": room.game.title, "options": dict(room.game.options),
                "start": room.row.start, "seats": self.seats(room), "frames": frames, "result": room.row.result}

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()


def start_state(game: Game, start: str | None, seed: int | None) -> State:
    """The first state of a new game: the game's own start, or the position ``start`` (422 when it is not a
    position of this game one can play from)."""
    if start is None:
        return game.new_state(seed)
    try:
        state = game.state_from_position(start, seed)
    except DamierError as exc:
        raise ArcadeError(422, f"bad start position for {game.title}: {exc}") from None
    if state.player == TERMINAL:
        raise ArcadeError(422, f"bad start position for {game.title}: the game is already over there "
                               f"({state.outcome_reason()})")
    return state


def check_position(name: str, options: dict[str, Any], position: str | None) -> dict[str, Any]:
    """A position of game ``name`` (None: the usual start with these options) as the board view draws it,
    for a position editor; ``ArcadeError`` 422 with the reason when it is not one."""
    try:
        game = registry.load(name, **options)
    except DamierError as exc:
        raise ArcadeError(422, str(exc)) from None
    state = start_state(game, position, None)
    return {"game": game.name, "options": dict(game.options), "position": state.position(),
            "player": state.player, "legal_moves": len(state.legal_moves()),
            "board": state.board_json(previews=False)}


def _players_by_ply(state: State) -> list[int]:
    """The player who made each move of ``state``'s history (CHANCE for chance events)."""
    replay = state.game.new_state(state.seed) if state.start is None else state.game.state_from_position(
        state.start, state.seed)
    players = []
    for move in state.history:
        players.append(replay.player)
        replay.play(move)
    return players
