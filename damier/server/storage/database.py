"""The arcade's database through SQLAlchemy: opened, upgraded (versioned migrations, ``schema``), locked to one
server on a SQLite file, and refused with the reason when it cannot be used.

SQLite (the default, a file in the user's data directory) runs in WAL mode with ``synchronous=NORMAL``: a
committed move survives the server being killed. Any SQLAlchemy URL works (PostgreSQL for bigger setups).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, delete, event, insert, select, text, update

from damier.server.storage.errors import StorageError, reason
from damier.server.storage.files import default_url, lock_holder, make_private, safe_url, sqlite_path
from damier.server.storage.games import GameStore
from damier.server.storage.leases import LeaseStore
from damier.server.storage.notifications import Notifications
from damier.server.storage.races import RaceStore
from damier.server.storage.schema import MIGRATIONS, SCHEMA_VERSION, metadata, schema_version, settings
from damier.server.storage.writer import Writer

#: the PostgreSQL advisory lock key under which a server reads and upgrades the schema
MIGRATION_LOCK = 0x64616D696572


class Storage:
    """The arcade's database: opened, upgraded and locked here; its aggregates in their stores (``games``,
    ``leases``, ``races``, ``notifications``), whose writes go through one ``writer``. Methods are synchronous;
    the server calls them from worker threads."""

    def __init__(self, url: str | None = None, alone: bool = False) -> None:
        """Open (and upgrade) the database at ``url``; ``alone``: a server's storage, which on a SQLite file first
        takes the file's server lock (``serve_alone``), before SQLite reads or writes it."""
        self.url = url or default_url()
        self.is_sqlite = self.url.startswith("sqlite")
        file = sqlite_path(self.url)
        self._server_lock: int | None = None
        if file is not None:
            make_private(file)
            if alone:
                self.serve_alone()
        try:
            self._open(file)
        except BaseException:
            self._release_lock()
            raise

    def _open(self, file: Path | None) -> None:
        connect_args: dict[str, Any] = {"check_same_thread": False, "timeout": 30} if self.is_sqlite else {}
        try:
            self.engine: Engine = create_engine(self.url, connect_args=connect_args, pool_pre_ping=not self.is_sqlite)
        except Exception as exc:  # a malformed URL or a missing driver
            raise StorageError(f"cannot open database {safe_url(self.url)!r}: {exc}") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self._migration_lock(file):
            self.migrate()
        self._check_writable()
        self.writer = Writer(self.engine)
        #: the stores, one per aggregate, sharing the writer
        self.games = GameStore(self.engine, self.writer)
        self.leases = LeaseStore(self.engine, self.writer)
        self.races = RaceStore(self.engine, self.writer)
        self.notifications = Notifications(self.url, self.engine)

    # ----- schema -------------------------------------------------------------------------------------
    def current_version(self) -> int:
        with self.engine.connect() as conn:
            if not self.engine.dialect.has_table(conn, "schema_version"):
                return 0
            value = conn.execute(select(schema_version.c.version)).scalar()
            return int(value or 0)

    def migrate(self) -> None:
        """Apply every migration above the stored version, each in its own transaction (under the migration
        lock when called by the constructor: servers starting at once on a new database migrate it once)."""
        try:
            version = self.current_version()
        except Exception as exc:
            raise StorageError(f"cannot read database {safe_url(self.url)!r}: {reason(exc)}") from None
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"the database has schema version {version}, newer than this damier's {SCHEMA_VERSION}; "
                "upgrade damier or use another --db"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            try:
                with self.engine.begin() as conn:
                    if target == 1:
                        metadata.create_all(conn, tables=[schema_version])
                    MIGRATIONS[target - 1](conn)
                    conn.execute(delete(schema_version))
                    conn.execute(insert(schema_version).values(version=target))
            except Exception as exc:
                raise StorageError(f"cannot upgrade database {safe_url(self.url)!r} to schema version {target}: "
                                   f"{reason(exc)}") from None

    @contextlib.contextmanager
    def _migration_lock(self, file: Path | None) -> Iterator[None]:
        """One process at a time reads and upgrades the schema: an exclusive ``flock`` on the SQLite file's folder
        (not on the file: closing any descriptor of it would drop SQLite's own ``fcntl`` locks in this process), a
        session advisory lock on PostgreSQL."""
        if file is not None and file.parent.is_dir():
            descriptor = os.open(file.parent, os.O_RDONLY)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX)
                yield
            finally:
                os.close(descriptor)  # releases the flock
        elif self.engine.dialect.name == "postgresql":
            try:
                conn = self.engine.connect()
                conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
            except Exception as exc:
                raise StorageError(f"cannot open database {safe_url(self.url)!r}: {reason(exc)}") from None
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
                conn.close()
        else:
            yield

    def serve_alone(self) -> None:
        """For a server on a SQLite file: hold an exclusive ``flock`` on the database file itself until ``close``,
        so that no other server opens it by any name (a symlink, a hard link, a ``file:`` URI: the kernel locks
        the file, its device and inode); the kernel releases it when the process ends, even killed.
        ``StorageError`` naming the server that holds it. Servers do not share a SQLite file (their rooms would
        not see each other's changes, and a hard link would have its own write-ahead log): PostgreSQL serves
        several. The descriptor stays open while SQLite runs (closing a descriptor of the file would drop
        SQLite's own ``fcntl`` locks in this process), and is closed last."""
        file = sqlite_path(self.url)
        if file is None or self._server_lock is not None:
            return
        descriptor = -1
        for flags in (os.O_RDWR, os.O_RDONLY):  # a read-only file: refused as such later, but locked meanwhile
            with contextlib.suppress(OSError):
                descriptor = os.open(file, flags)
                break
        if descriptor < 0:
            return  # no such file and none can be made (a missing folder): opening the database says so
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            holder = lock_holder(file)
            real = file.resolve()
            named = f"{file}" if real == file else f"{file} (that is {real})"
            raise StorageError(f"another damier server is running on {named}"
                               f"{f' ({holder})' if holder else ''}; a SQLite database serves one server at a time, "
                               "whatever its name (a link to it too): stop the other, or run several on PostgreSQL "
                               "(--db postgresql://...)") from None
        self._server_lock = descriptor

    def _check_writable(self) -> None:
        """Refuse, at start, a database the arcade cannot write (a read-only file, a read-only replica), with the
        reason: a read-only arcade would fail every move."""
        try:
            with self.engine.begin() as conn:
                conn.execute(update(schema_version).values(version=schema_version.c.version))
        except Exception as exc:
            raise StorageError(f"the database {safe_url(self.url)!r} cannot be written ({reason(exc)}): the arcade "
                               "writes every move; give a database it may write with --db") from None

    def legacy_secret(self) -> bytes | None:
        """The token secret an earlier damier kept in the database (``settings``), if it is still there."""
        with self.engine.connect() as conn:
            value = conn.execute(select(settings.c.value).where(settings.c.key == "token_secret")).scalar()
        try:
            return bytes.fromhex(str(value)) if value else None
        except ValueError:
            return None

    def forget_legacy_secret(self) -> None:
        """Delete the token secret an earlier damier kept in the database (once the key file holds it)."""
        self.submit(lambda conn: conn.execute(delete(settings).where(settings.c.key == "token_secret"))).result()

    def submit(self, operation: Callable[[Connection], Any]) -> Future[Any]:
        """Queue a write of a store kept elsewhere (identities, seeks) to the one writer; the future resolves (or
        fails) once it is committed."""
        return self.writer.submit(operation)

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()
        self._release_lock()

    def _release_lock(self) -> None:
        if self._server_lock is not None:
            os.close(self._server_lock)  # releases the server lock
            self._server_lock = None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
