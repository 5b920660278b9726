"""The lobby's seeks (``seeks``): a player's open offer of a game (a game, its options, a time control, the side
they take), which another player joins in one click. A seek is open while ``alive_until`` is ahead (its creator's
server says so again while the creator's lobby page is open), and joined at most once: the database decides
(``take``), so two servers or two clicks can never both pair it."""

from __future__ import annotations

import json
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from damier.server.storage import Storage
from damier.server.storage.schema import seeks


@dataclass(frozen=True)
class Seek:
    id: str
    game: str
    options: dict[str, Any]
    clock: dict[str, Any] | None
    side: str  # "first", "second" or "random": the seat its creator takes
    owner: str
    client: str
    status: str  # "open", "joined" or "cancelled"
    game_id: str | None
    created_at: str
    alive_until: float


def _seek(row: Any) -> Seek:
    return Seek(row.id, row.game, json.loads(row.options), json.loads(row.clock) if row.clock else None, row.side,
                row.owner, row.client, row.status, row.game_id, row.created_at, float(row.alive_until))


def canonical(obj: Any) -> str:
    """The stored text of options or a clock: the same for the same values (quick pairing matches on it)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


class SeekStore:
    """Seeks, in ``storage``'s database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def add(self, seek: Seek) -> Future[None]:
        def write(conn: Connection) -> None:
            conn.execute(insert(seeks).values(
                id=seek.id, game=seek.game, options=canonical(seek.options),
                clock=canonical(seek.clock) if seek.clock is not None else None, side=seek.side, owner=seek.owner,
                client=seek.client, status=seek.status, game_id=None, created_at=seek.created_at,
                alive_until=seek.alive_until))

        return self.storage.submit(write)

    def get(self, seek_id: str) -> Seek | None:
        with self.storage.engine.connect() as conn:
            row = conn.execute(select(seeks).where(seeks.c.id == seek_id)).first()
        return _seek(row) if row is not None else None

    def open(self, now: float, limit: int) -> list[Seek]:
        """The open seeks, the newest first, at most ``limit``."""
        query = (select(seeks).where(seeks.c.status == "open", seeks.c.alive_until > now)
                 .order_by(seeks.c.created_at.desc(), seeks.c.id).limit(limit))
        with self.storage.engine.connect() as conn:
            return [_seek(row) for row in conn.execute(query)]

    def count_open(self, now: float, owner: str | None = None, client: str | None = None) -> int:
        query = select(seeks.c.id).where(seeks.c.status == "open", seeks.c.alive_until > now)
        if owner is not None:
            query = query.where(seeks.c.owner == owner)
        if client is not None:
            query = query.where(seeks.c.client == client)
        with self.storage.engine.connect() as conn:
            return len(conn.execute(query).all())

    def match(self, game: str, options: dict[str, Any], clock: dict[str, Any] | None, not_owner: str,
              now: float) -> Seek | None:
        """The oldest open seek of another player for the same game, options and time control (quick pairing)."""
        same_clock = seeks.c.clock.is_(None) if clock is None else seeks.c.clock == canonical(clock)
        query = (select(seeks).where(seeks.c.status == "open", seeks.c.alive_until > now, seeks.c.game == game,
                                     seeks.c.options == canonical(options), same_clock, seeks.c.owner != not_owner)
                 .order_by(seeks.c.created_at).limit(1))
        with self.storage.engine.connect() as conn:
            row = conn.execute(query).first()
        return _seek(row) if row is not None else None

    def take(self, seek_id: str, game_id: str, now: float) -> Future[bool]:
        """Pair the seek with the game ``game_id`` if it is still open: True for the one request that did."""

        def write(conn: Connection) -> bool:
            done = conn.execute(update(seeks).where(seeks.c.id == seek_id, seeks.c.status == "open",
                                                    seeks.c.alive_until > now)
                                .values(status="joined", game_id=game_id))
            return bool(done.rowcount == 1)

        return self.storage.submit(write)

    def cancel(self, seek_ids: list[str], owner: str | None = None) -> Future[list[str]]:
        """Close the open seeks of ``seek_ids`` (only ``owner``'s, when given); the ids closed."""

        def write(conn: Connection) -> list[str]:
            query = select(seeks.c.id).where(seeks.c.id.in_(seek_ids), seeks.c.status == "open")
            if owner is not None:
                query = query.where(seeks.c.owner == owner)
            closing = [r[0] for r in conn.execute(query)]
            if closing:
                conn.execute(update(seeks).where(seeks.c.id.in_(closing)).values(status="cancelled"))
            return closing

        return self.storage.submit(write)

    def keep_alive(self, owners: list[str], until: float) -> Future[None]:
        """The open seeks of ``owners`` (whose lobby pages are open here) hold until ``until``."""

        def write(conn: Connection) -> None:
            conn.execute(update(seeks).where(seeks.c.owner.in_(owners), seeks.c.status == "open")
                         .values(alive_until=until))

        return self.storage.submit(write)

    def forget_closed(self, before: float) -> Future[None]:
        """Delete the seeks that closed, or ran out, before ``before`` (the lobby keeps no history)."""
        return self.storage.submit(lambda conn: conn.execute(delete(seeks).where(seeks.c.alive_until < before)))
