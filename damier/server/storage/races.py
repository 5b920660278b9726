"""Race rooms (``races``, ``race_events``): a race is the list of its events (primary key ``(race_id, seq)``), so
two servers or two requests can never both write the same step of a race."""

from __future__ import annotations

import json
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from damier.server.storage.notifications import notify
from damier.server.storage.schema import race_events, races
from damier.server.storage.writer import Writer


@dataclass
class RaceEvent:
    """One step of a race room (a join, the start, a round, a claim, demonstration moves, a verdict, the end of a
    round or of the race): ``seq`` counts from 1, ``at`` is when it happened (ISO, UTC)."""

    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    at: str


@dataclass
class RaceRow:
    """A race room as stored: the game and its options, the room's settings, and its events in order."""

    id: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    status: str  # lobby, playing, finished
    result: dict[str, Any] | None
    created_at: str
    updated_at: str
    events: list[RaceEvent] = field(default_factory=list)


def _insert_events(conn: Connection, race_id: str, events: list[RaceEvent]) -> None:
    for step in events:
        conn.execute(insert(race_events).values(race_id=race_id, seq=step.seq, kind=step.kind, seat=step.seat,
                                                data=json.dumps(step.data, separators=(",", ":")), at=step.at))


class RaceStore:
    """The race rooms, in the database of ``engine`` written by ``writer``."""

    def __init__(self, engine: Engine, writer: Writer) -> None:
        self.engine = engine
        self.writer = writer

    def create(self, row: RaceRow) -> Future[None]:
        """A new race room with its first events (the host joining)."""

        def write(conn: Connection) -> None:
            conn.execute(insert(races).values(
                id=row.id, game=row.game, options=json.dumps(row.options), settings=json.dumps(row.settings),
                status=row.status, result=json.dumps(row.result) if row.result else None,
                created_at=row.created_at, updated_at=row.updated_at))
            _insert_events(conn, row.id, row.events)

        return self.writer.submit(write)

    def load(self, race_id: str) -> RaceRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(races).where(races.c.id == race_id)).mappings().first()
            if r is None:
                return None
            rows = conn.execute(select(race_events).where(race_events.c.race_id == race_id)
                                .order_by(race_events.c.seq)).mappings()
            return RaceRow(
                id=r["id"], game=r["game"], options=json.loads(r["options"]), settings=json.loads(r["settings"]),
                status=r["status"], result=json.loads(r["result"]) if r["result"] else None,
                created_at=r["created_at"], updated_at=r["updated_at"],
                events=[RaceEvent(e["seq"], e["kind"], e["seat"], json.loads(e["data"]), e["at"]) for e in rows],
            )

    def append_events(self, race_id: str, events: list[RaceEvent], status: str,
                           result: dict[str, Any] | None, now: str) -> Future[None]:
        """Append events (their ``seq`` follow the stored ones: ``ConflictError`` if one exists) and set the race's
        status and result, in one transaction."""

        def write(conn: Connection) -> None:
            _insert_events(conn, race_id, events)
            conn.execute(update(races).where(races.c.id == race_id).values(
                status=status, result=json.dumps(result) if result else None, updated_at=now))
            if events:
                notify(conn, "race", race_id, max(e.seq for e in events))

        return self.writer.submit(write)

    def playing_ids(self, limit: int) -> list[str]:
        """Races under way (their timers run), the most recently changed first, at most ``limit``."""
        query = (select(races.c.id).where(races.c.status == "playing").order_by(races.c.updated_at.desc())
                 .limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

