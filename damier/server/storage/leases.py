"""Turn leases (``turn_leases``): the computer turn of a game is leased to the one server that thinks it, until a
time; another server may take a lease that ran out (its server died, say)."""

from __future__ import annotations

from concurrent.futures import Future

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from damier.server.storage.schema import turn_leases
from damier.server.storage.writer import Writer


def end(conn: Connection, game_id: str) -> None:
    """End the game's lease, if any (in a write of the game's)."""
    conn.execute(delete(turn_leases).where(turn_leases.c.game_id == game_id))


def grant(conn: Connection, game_id: str, owner: str, until: float) -> None:
    """Lease the game's next computer turn to ``owner`` until ``until`` (epoch seconds; its lease ended first)."""
    conn.execute(insert(turn_leases).values(game_id=game_id, owner=owner, expires=until))


class LeaseStore:
    """The turn leases, in the database of ``engine`` written by ``writer``."""

    def __init__(self, engine: Engine, writer: Writer) -> None:
        self.engine = engine
        self.writer = writer

    def claim(self, game_id: str, owner: str, until: float, now: float) -> Future[bool]:
        """Lease the game's computer turn to ``owner`` until ``until`` (epoch seconds) if nobody else holds it
        past ``now``: True if ``owner`` holds it then (one server thinks each turn)."""

        def write(conn: Connection) -> bool:
            taken = conn.execute(update(turn_leases).where(
                turn_leases.c.game_id == game_id,
                (turn_leases.c.expires < now) | (turn_leases.c.owner == owner)).values(owner=owner, expires=until))
            if taken.rowcount == 1:
                return True
            try:
                with conn.begin_nested():
                    conn.execute(insert(turn_leases).values(game_id=game_id, owner=owner, expires=until))
            except IntegrityError:
                return False  # another server holds it
            return True

        return self.writer.submit(write)

    def forget_all(self) -> None:
        """End every computer-turn lease (a server alone on its database, starting: whoever held them is gone)."""
        self.writer.submit(lambda conn: conn.execute(delete(turn_leases))).result()

    def expired(self, now: float, limit: int) -> list[str]:
        """Games whose computer turn was leased to a server that did not play it in time (it died, say): another
        may take it (``claim``)."""
        query = (select(turn_leases.c.game_id).where(turn_leases.c.expires < now).order_by(turn_leases.c.expires)
                 .limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

