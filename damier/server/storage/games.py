"""Games (``games``, ``seats``, ``moves``): a game as stored (``GameRow``), its creation, its moves appended and taken
back, its changes. Every change of a game counts in its ``revision``: a write names the revision it changes and is
refused (``ConflictError``) when another server changed the game first."""

from __future__ import annotations

import json
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update

from damier.server.storage import leases
from damier.server.storage.errors import ConflictError
from damier.server.storage.notifications import notify
from damier.server.storage.schema import games, moves, seats
from damier.server.storage.writer import Writer


@dataclass
class SeatRow:
    index: int
    kind: str  # "human" or "computer"
    level: str | None


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: int | None
    start: str | None
    status: str
    result: dict[str, Any] | None
    draw_offer: int | None
    undo_request: list[int]
    rematch: str | None
    created_at: str
    updated_at: str
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[tuple[str, int]] = field(default_factory=list)  # (notation, player) by ply
    finished_at: str | None = None  # when the game ended (a puzzle's time is created_at to finished_at)
    hints: int = 0  # hints given to its players
    revision: int = 0  # changes stored so far (each write names the revision it changes)
    hints_on: bool = False  # a casual game between people with hints (its players agreed to it at creation)
    #: the time control and the clocks (``rooms.clocks``: minutes, increment, remaining ms per seat, since when
    #: the running one runs), None for a game without clocks
    clock: dict[str, Any] | None = None
    #: the anonymous identity that created the game, and the address group it came from (None: not known)
    owner: str | None = None
    client: str | None = None


def flag_time(clock: dict[str, Any] | None, status: str) -> float | None:
    """When the clocks of ``clock`` (``rooms.clocks``' stored form) next need the server, in epoch seconds: the
    running clock falls (its start plus what it had left), or the first move of the seat to move is overdue
    (``abort_at``), whichever comes first; None when neither can happen (no time control, a game over)."""
    if clock is None or status != "active":
        return None
    moments = []
    if clock.get("running") is not None:
        moments.append(float(clock["since"]) + float(clock["remaining"][clock["running"]]) / 1000.0)
    if clock.get("abort_at") is not None:
        moments.append(float(clock["abort_at"]))
    return min(moments) if moments else None


def _dump(obj: dict[str, Any] | None) -> str | None:
    return json.dumps(obj, separators=(",", ":")) if obj is not None else None


def _next_revision(conn: Connection, game_id: str, revision: int, **values: Any) -> None:
    """Set ``values`` on the game if it is at ``revision``, making it ``revision + 1``; ``ConflictError`` (the
    transaction is rolled back) if it is not. Other servers hear of it (``notify``)."""
    changed = conn.execute(update(games).where(games.c.id == game_id, games.c.revision == revision).values(
        revision=revision + 1, **values)).rowcount
    if changed != 1:
        raise ConflictError(f"game {game_id} is no longer at revision {revision}: it was changed elsewhere")
    notify(conn, "game", game_id, revision + 1)


class GameStore:
    """The games, in the database of ``engine`` written by ``writer``."""

    def __init__(self, engine: Engine, writer: Writer) -> None:
        self.engine = engine
        self.writer = writer

    def create(self, row: GameRow) -> Future[None]:
        def write(conn: Connection) -> None:
            conn.execute(insert(games).values(
                id=row.id, game=row.game, options=json.dumps(row.options), seed=row.seed, start=row.start,
                status=row.status, result=json.dumps(row.result) if row.result else None, draw_offer=None,
                undo_request="[]", rematch=None, created_at=row.created_at, updated_at=row.updated_at,
                finished_at=row.finished_at, hints=row.hints, hints_on=int(row.hints_on),
                clock=_dump(row.clock), flag_at=flag_time(row.clock, row.status), owner=row.owner, client=row.client,
            ))
            conn.execute(insert(seats), [{"game_id": row.id, "idx": seat.index, "kind": seat.kind,
                                          "level": seat.level} for seat in row.seats])
            if row.moves:  # one statement for them all (an imported record's thousands of moves)
                conn.execute(insert(moves), [{"game_id": row.id, "ply": ply, "move": move, "player": player,
                                              "created_at": row.created_at}
                                             for ply, (move, player) in enumerate(row.moves, start=1)])

        return self.writer.submit(write)

    def load(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            g = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if g is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.idx)).mappings()
            move_rows = conn.execute(select(moves.c.move, moves.c.player).where(moves.c.game_id == game_id)
                                     .order_by(moves.c.ply)).all()
            return GameRow(
                id=g["id"], game=g["game"], options=json.loads(g["options"]), seed=g["seed"], start=g["start"],
                status=g["status"], result=json.loads(g["result"]) if g["result"] else None,
                draw_offer=g["draw_offer"], undo_request=json.loads(g["undo_request"]), rematch=g["rematch"],
                created_at=g["created_at"], updated_at=g["updated_at"],
                seats=[SeatRow(s["idx"], s["kind"], s["level"]) for s in seat_rows],
                moves=[(m, p) for m, p in move_rows], finished_at=g["finished_at"], hints=int(g["hints"] or 0),
                revision=int(g["revision"]), hints_on=bool(g["hints_on"]),
                clock=json.loads(g["clock"]) if g["clock"] else None, owner=g["owner"], client=g["client"],
            )

    def active_ids(self, with_computer: bool = False) -> list[str]:
        """Games still being played (only those with a computer seat, with ``with_computer``)."""
        query = select(games.c.id).where(games.c.status == "active")
        if with_computer:
            has_computer = select(seats.c.game_id).where(seats.c.kind == "computer")
            query = query.where(games.c.id.in_(has_computer))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def computer_games_of(self, client: str, owner: str | None, since: str, limit: int = 20) -> list[tuple[str, str]]:
        """The games with a computer seat going on that the address group ``client`` or the identity ``owner``
        created, moved (changed) since ``since`` (ISO), the most recent first: (id, game name) pairs."""
        has_computer = select(seats.c.game_id).where(seats.c.kind == "computer")
        whose = games.c.client == client if owner is None else (games.c.client == client) | (games.c.owner == owner)
        query = (select(games.c.id, games.c.game)
                 .where(games.c.status == "active", games.c.updated_at >= since, whose,
                        games.c.id.in_(has_computer))
                 .order_by(games.c.updated_at.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [(r[0], r[1]) for r in conn.execute(query)]

    def live(self, since: str, limit: int) -> list[str]:
        """Games going on between two seats or more, with a move, changed since ``since`` (ISO), the most recently
        changed first."""
        several = select(seats.c.game_id).where(seats.c.idx == 1)
        moved = select(moves.c.game_id).where(moves.c.ply == 1)
        query = (select(games.c.id).where(games.c.status == "active", games.c.updated_at >= since,
                                          games.c.id.in_(moved), games.c.id.in_(several))
                 .order_by(games.c.updated_at.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def idle(self, before: str, limit: int) -> list[str]:
        """Games going on whose last change is older than ``before`` (ISO): left unfinished, to be ended."""
        query = (select(games.c.id).where(games.c.status == "active", games.c.updated_at < before)
                 .order_by(games.c.updated_at).limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def append_moves(self, game_id: str, first_ply: int, new_moves: list[tuple[str, int]], now: str,
                     status: str, result: dict[str, Any] | None, *, revision: int,
                     lease: tuple[str, float] | None = None, clock: dict[str, Any] | None = None) -> Future[None]:
        """Append moves from ``first_ply`` and update the game's status, as revision ``revision + 1``
        (``ConflictError`` if a ply exists or the game is not at ``revision``). ``lease`` (owner, until when):
        the computer turn that comes next is leased to that server; without it the game's lease ends. ``clock``:
        the game's clocks after the moves (a game with a time control)."""
        clocks = {"clock": _dump(clock), "flag_at": flag_time(clock, status)} if clock is not None else {}

        def write(conn: Connection) -> None:
            if new_moves:
                conn.execute(insert(moves), [{"game_id": game_id, "ply": first_ply + offset, "move": move,
                                              "player": player, "created_at": now}
                                             for offset, (move, player) in enumerate(new_moves)])
            _next_revision(conn, game_id, revision, status=status, result=json.dumps(result) if result else None,
                           updated_at=now, draw_offer=None, undo_request="[]",
                           finished_at=now if status == "finished" else None, **clocks)
            leases.end(conn, game_id)
            if lease is not None:
                leases.grant(conn, game_id, *lease)

        return self.writer.submit(write)

    def truncate_moves(self, game_id: str, keep: int, now: str, *, revision: int,
                       clock: dict[str, Any] | None = None) -> Future[None]:
        """Delete every move after ply ``keep`` (an undo), as revision ``revision + 1`` (``ConflictError`` if the
        game is not at ``revision``: an undo decided on a copy that missed moves would delete them unseen);
        ``clock``: the game's clocks after it."""
        clocks = {"clock": _dump(clock), "flag_at": flag_time(clock, "active")} if clock is not None else {}

        def write(conn: Connection) -> None:
            _next_revision(conn, game_id, revision, status="active", result=None, updated_at=now,
                           undo_request="[]", draw_offer=None, finished_at=None, **clocks)
            conn.execute(delete(moves).where(moves.c.game_id == game_id, moves.c.ply > keep))
            leases.end(conn, game_id)

        return self.writer.submit(write)

    def update(self, game_id: str, now: str, *, revision: int, **values: Any) -> Future[None]:
        """Update game fields (status, result, draw_offer, undo_request, rematch) as revision ``revision + 1``
        (``ConflictError`` if the game is not at ``revision``); a game whose status becomes ``finished`` gets
        ``finished_at``."""
        encoded = {k: (json.dumps(v) if k in ("result", "undo_request", "clock") and v is not None else v)
                   for k, v in values.items()}
        if values.get("status") == "finished":
            encoded["finished_at"] = now
            encoded["flag_at"] = None
        if "clock" in values:
            encoded["flag_at"] = flag_time(values["clock"], values.get("status", "active"))

        def write(conn: Connection) -> None:
            _next_revision(conn, game_id, revision, updated_at=now, **encoded)
            if values.get("status") == "finished":
                leases.end(conn, game_id)

        return self.writer.submit(write)

    def running_clocks(self, limit: int, before: float | None = None) -> list[str]:
        """Games whose clock runs (the soonest to fall first), at most ``limit``; with ``before`` (epoch seconds),
        only those whose clock fell before then (to be settled)."""
        query = select(games.c.id).where(games.c.status == "active", games.c.flag_at.is_not(None))
        if before is not None:
            query = query.where(games.c.flag_at < before)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query.order_by(games.c.flag_at).limit(limit))]

    def count_hint(self, game_id: str) -> Future[None]:
        """One more hint given in the game."""

        def write(conn: Connection) -> None:
            conn.execute(update(games).where(games.c.id == game_id).values(hints=games.c.hints + 1))

        return self.writer.submit(write)

