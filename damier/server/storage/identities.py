"""The seats each anonymous identity holds (``identity_seats``), and the one-time links that carry an identity to
another device (``transfers``, kept by the SHA-256 of their code, so the database never holds a usable link)."""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import IntegrityError

from damier.server.storage import Storage
from damier.server.storage.schema import games, identity_seats, races, transfers

#: the most games and races a listing of an identity's holds (the most recently changed first)
LISTED = 50
#: the links an identity may have waiting at once (making another drops the oldest)
LINKS = 5


@dataclass(frozen=True)
class HeldSeat:
    """A seat an identity holds in a game or race still under way."""

    kind: str  # "game" or "race"
    room_id: str
    seat: int
    game: str
    options: dict[str, Any]
    status: str
    updated_at: str


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


class IdentityStore:
    """Identities' seats and transfer links, in ``storage``'s database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def bind(self, identity: str, kind: str, room_id: str, seat: int, now: str) -> Future[None]:
        """``identity`` holds ``seat`` of the game or race ``room_id`` (kept once)."""

        def write(conn: Connection) -> None:
            try:
                with conn.begin_nested():
                    conn.execute(insert(identity_seats).values(identity=identity, kind=kind, room_id=room_id,
                                                               seat=seat, at=now))
            except IntegrityError:
                pass  # held already

        return self.storage.submit(write)

    def held(self, identity: str) -> list[HeldSeat]:
        """The seats ``identity`` holds in games and races under way, the most recently changed first."""
        game_rows = (select(identity_seats.c.room_id, identity_seats.c.seat, games.c.game, games.c.options,
                            games.c.status, games.c.updated_at)
                     .join(games, games.c.id == identity_seats.c.room_id)
                     .where(identity_seats.c.identity == identity, identity_seats.c.kind == "game",
                            games.c.status == "active")
                     .order_by(games.c.updated_at.desc()).limit(LISTED))
        race_rows = (select(identity_seats.c.room_id, identity_seats.c.seat, races.c.game, races.c.options,
                            races.c.status, races.c.updated_at)
                     .join(races, races.c.id == identity_seats.c.room_id)
                     .where(identity_seats.c.identity == identity, identity_seats.c.kind == "race",
                            races.c.status.in_(("lobby", "playing")))
                     .order_by(races.c.updated_at.desc()).limit(LISTED))
        out = []
        with self.storage.engine.connect() as conn:
            for kind, query in (("game", game_rows), ("race", race_rows)):
                for room_id, seat, game, options, status, updated in conn.execute(query):
                    out.append(HeldSeat(kind, room_id, int(seat), game, json.loads(options), status, updated))
        return sorted(out, key=lambda held: held.updated_at, reverse=True)[:LISTED]

    def add_link(self, identity: str, code: str, expires: float) -> Future[None]:
        """A one-time link for ``identity`` (its code, by hash) until ``expires``; beyond ``LINKS`` waiting, the
        oldest go."""

        def write(conn: Connection) -> None:
            conn.execute(insert(transfers).values(code=code_hash(code), identity=identity, expires=expires))
            kept = select(transfers.c.code).where(transfers.c.identity == identity) \
                .order_by(transfers.c.expires.desc()).limit(LINKS)
            conn.execute(delete(transfers).where(transfers.c.identity == identity,
                                                 transfers.c.code.not_in(kept.scalar_subquery())))

        return self.storage.submit(write)

    def take_link(self, code: str, now: float) -> Future[tuple[str | None, bool]]:
        """Use a link once: (the identity, whether it was still good); (None, False) for a code never made or
        used already. A used or expired link is gone."""

        def write(conn: Connection) -> tuple[str | None, bool]:
            key = code_hash(code)
            row = conn.execute(select(transfers.c.identity, transfers.c.expires)
                               .where(transfers.c.code == key)).first()
            if row is None:
                return None, False
            conn.execute(delete(transfers).where(transfers.c.code == key))
            return str(row[0]), float(row[1]) > now

        return self.storage.submit(write)

    def forget_expired_links(self, now: float) -> Future[None]:
        return self.storage.submit(lambda conn: conn.execute(delete(transfers).where(transfers.c.expires < now)))
