"""Servers hear of each other's changes: on PostgreSQL a committed change of a room is said on a channel
(``notify``, in the change's transaction) and every server listens (``Notifications.listen``); a server may also
say something outside any change (``announce``: who is here). Nothing on another database."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import Connection, Engine, text

from damier.server.storage.errors import reason

log = logging.getLogger("damier.server")
#: the PostgreSQL channel on which servers hear of each other's changes (``notify``, ``Notifications.listen``)
CHANNEL = "damier_changes"


def notify(conn: Connection, kind: str, room_id: str, mark: int) -> None:
    """On PostgreSQL, tell every server listening (``Notifications.listen``) that room ``room_id`` (a ``game`` or a
    ``race``) reached ``mark`` (a game's revision, a race's last event); sent when the transaction commits."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": f"{kind} {room_id} {mark}"})


class Notifications:
    """Listening and announcing on the database at ``url`` (through ``engine``)."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.engine = engine
        self.is_sqlite = url.startswith("sqlite")

    def listen(self, heard: Callable[[str], None], stop: threading.Event) -> None:
        """On PostgreSQL, call ``heard(payload)`` for every change another server (or this one) stores, until
        ``stop`` is set (run it in a thread: it blocks). ``heard("lost")`` after the connection was lost and made
        again (changes may have been missed meanwhile). Nothing on another database."""
        if not self.url.startswith("postgresql"):
            return
        import psycopg
        from sqlalchemy.engine import make_url

        dsn = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        lost = False
        while not stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if lost:
                        heard("lost")
                    while not stop.is_set():
                        for message in conn.notifies(timeout=1.0):
                            heard(message.payload)
            except psycopg.Error as exc:
                if not lost:
                    log.warning("listening for other servers' changes failed (%s); trying again", reason(exc))
                lost = True
                stop.wait(1.0)

    def announce(self, payload: str) -> None:
        """On PostgreSQL, send ``payload`` to every server listening (``listen``) at once, outside any change (who
        is here: ``rooms.presence``); nothing on another database."""
        if self.is_sqlite or not self.url.startswith("postgresql"):
            return
        with self.engine.connect() as conn:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})
            conn.commit()

