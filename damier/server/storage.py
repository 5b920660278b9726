"""Persistent storage of the arcade through SQLAlchemy: games, seats and moves, race rooms and their events, with
versioned migrations.

SQLite (the default, a file in the user's data directory) runs in WAL mode with ``synchronous=NORMAL``: a
committed move survives the server being killed. Any SQLAlchemy URL works (PostgreSQL for bigger setups).
Writes go through one writer thread that commits whatever is queued in a single transaction (group
commit): under load many games share one commit, and each caller's future resolves only once its write is
committed. ``moves`` has the primary key ``(game_id, ply)``, so a ply of a game can never be written twice; a
race room is the list of its events (``race_events``, primary key ``(race_id, seq)``), so two servers or two
requests can never both write the same step of a race.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import queue
import stat
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

log = logging.getLogger("damier.server")
#: the PostgreSQL channel on which servers hear of each other's changes (``notify``, ``Storage.listen``)
CHANNEL = "damier_changes"
#: the PostgreSQL advisory lock key under which a server reads and upgrades the schema
MIGRATION_LOCK = 0x64616D696572
metadata = MetaData()

schema_version = Table("schema_version", metadata, Column("version", Integer, nullable=False))
settings = Table(
    "settings", metadata, Column("key", String(64), primary_key=True), Column("value", Text, nullable=False)
)
games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("start", Text, nullable=True),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("draw_offer", Integer, nullable=True),
    Column("undo_request", Text, nullable=False, default="[]"),
    Column("rematch", String(32), nullable=True),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("finished_at", String(40), nullable=True),
    Column("hints", Integer, nullable=False, default=0),
    Column("revision", Integer, nullable=False, default=0),
    Column("hints_on", Integer, nullable=False, default=0),
    Column("clock", Text, nullable=True),
    Column("flag_at", Float, nullable=True),
    Column("owner", String(64), nullable=True),
    Column("client", String(64), nullable=True),
)
seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(80), nullable=True),
)
moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", String(64), nullable=False),
    Column("player", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
)
races = Table(
    "races",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
)
turn_leases = Table(
    "turn_leases",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("owner", String(40), nullable=False),
    Column("expires", Float, nullable=False),
)
race_events = Table(
    "race_events",
    metadata,
    Column("race_id", String(32), ForeignKey("races.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("data", Text, nullable=False),
    Column("at", String(40), nullable=False),
)


identity_seats = Table(
    "identity_seats",
    metadata,
    Column("identity", String(64), primary_key=True),
    Column("kind", String(8), primary_key=True),
    Column("room_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("at", String(40), nullable=False),
)
transfers = Table(
    "transfers",
    metadata,
    Column("code", String(64), primary_key=True),
    Column("identity", String(64), nullable=False),
    Column("expires", Float, nullable=False),
)
seeks = Table(
    "seeks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("clock", Text, nullable=True),
    Column("side", String(8), nullable=False),
    Column("owner", String(64), nullable=False),
    Column("client", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("game_id", String(32), nullable=True),
    Column("created_at", String(40), nullable=False),
    Column("alive_until", Float, nullable=False),
)


def _migration_1(conn: Connection) -> None:
    """The first schema: settings, games, seats, moves (written out here, frozen: later migrations alter it)."""
    frozen = MetaData()
    Table("settings", frozen, Column("key", String(64), primary_key=True), Column("value", Text, nullable=False))
    Table("games", frozen, Column("id", String(32), primary_key=True), Column("game", String(40), nullable=False),
          Column("options", Text, nullable=False), Column("seed", BigInteger, nullable=True),
          Column("start", Text, nullable=True), Column("status", String(16), nullable=False),
          Column("result", Text, nullable=True), Column("draw_offer", Integer, nullable=True),
          Column("undo_request", Text, nullable=False), Column("rematch", String(32), nullable=True),
          Column("created_at", String(40), nullable=False), Column("updated_at", String(40), nullable=False))
    Table("seats", frozen, Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
          Column("idx", Integer, primary_key=True), Column("kind", String(16), nullable=False),
          Column("level", String(80), nullable=True))
    Table("moves", frozen, Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
          Column("ply", Integer, primary_key=True), Column("move", String(64), nullable=False),
          Column("player", Integer, nullable=False), Column("created_at", String(40), nullable=False))
    frozen.create_all(conn)


def _migration_2(conn: Connection) -> None:
    """Puzzles and race rooms: when a game finished and how many hints it was given; the race rooms and their
    events (frozen here too)."""
    conn.execute(text("ALTER TABLE games ADD COLUMN finished_at VARCHAR(40)"))
    conn.execute(text("ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0"))
    frozen = MetaData()
    Table("races", frozen, Column("id", String(32), primary_key=True), Column("game", String(40), nullable=False),
          Column("options", Text, nullable=False), Column("settings", Text, nullable=False),
          Column("status", String(16), nullable=False), Column("result", Text, nullable=True),
          Column("created_at", String(40), nullable=False), Column("updated_at", String(40), nullable=False))
    Table("race_events", frozen, Column("race_id", String(32), ForeignKey("races.id"), primary_key=True),
          Column("seq", Integer, primary_key=True), Column("kind", String(16), nullable=False),
          Column("seat", Integer, nullable=True), Column("data", Text, nullable=False),
          Column("at", String(40), nullable=False))
    frozen.create_all(conn)


def _migration_3(conn: Connection) -> None:
    """Several servers: every change of a game counts in its ``revision`` (a write says which revision it
    changes, and one made on a copy that is not the latest is refused); a computer turn is leased to the one
    server that thinks it, until a time (``turn_leases``; frozen here too)."""
    conn.execute(text("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"))
    frozen = MetaData()
    Table("games", frozen, Column("id", String(32), primary_key=True))
    Table("turn_leases", frozen, Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
          Column("owner", String(40), nullable=False), Column("expires", Float, nullable=False))
    frozen.tables["turn_leases"].create(conn)


def _migration_4(conn: Connection) -> None:
    """Casual games: a game between people created with hints on (every player agreed to it by joining)."""
    conn.execute(text("ALTER TABLE games ADD COLUMN hints_on INTEGER NOT NULL DEFAULT 0"))


def _migration_5(conn: Connection) -> None:
    """Clocks: a game's time control and its players' remaining time (``clock``, JSON), and when the running clock
    falls (``flag_at``, epoch seconds; null when no clock runs), which the servers look games up by."""
    conn.execute(text("ALTER TABLE games ADD COLUMN clock TEXT"))
    conn.execute(text("ALTER TABLE games ADD COLUMN flag_at FLOAT"))
    conn.execute(text("CREATE INDEX ix_games_flag_at ON games (flag_at)"))


def _migration_6(conn: Connection) -> None:
    """Players and the lobby: who created a game (``owner``, an anonymous identity, and ``client``, the address
    group it came from: its computer's share of the pool and its creator's limits follow it through restarts); the
    seats each identity holds (``identity_seats``), the one-time links that carry an identity to another device
    (``transfers``, by the hash of their code), and the lobby's open seeks (``seeks``; frozen here too)."""
    conn.execute(text("ALTER TABLE games ADD COLUMN owner VARCHAR(64)"))
    conn.execute(text("ALTER TABLE games ADD COLUMN client VARCHAR(64)"))
    conn.execute(text("CREATE INDEX ix_games_status_updated ON games (status, updated_at)"))
    conn.execute(text("CREATE INDEX ix_games_client ON games (client)"))
    conn.execute(text("CREATE INDEX ix_games_owner ON games (owner)"))
    frozen = MetaData()
    Table("identity_seats", frozen, Column("identity", String(64), primary_key=True),
          Column("kind", String(8), primary_key=True), Column("room_id", String(32), primary_key=True),
          Column("seat", Integer, primary_key=True), Column("at", String(40), nullable=False))
    Table("transfers", frozen, Column("code", String(64), primary_key=True),
          Column("identity", String(64), nullable=False), Column("expires", Float, nullable=False))
    Table("seeks", frozen, Column("id", String(32), primary_key=True), Column("game", String(40), nullable=False),
          Column("options", Text, nullable=False), Column("clock", Text, nullable=True),
          Column("side", String(8), nullable=False), Column("owner", String(64), nullable=False),
          Column("client", String(64), nullable=False), Column("status", String(16), nullable=False),
          Column("game_id", String(32), nullable=True), Column("created_at", String(40), nullable=False),
          Column("alive_until", Float, nullable=False))
    frozen.create_all(conn)
    conn.execute(text("CREATE INDEX ix_seeks_status ON seeks (status, alive_until)"))


#: Migrations in order; ``MIGRATIONS[i]`` upgrades a database from version ``i`` to ``i + 1``.
MIGRATIONS: list[Callable[[Connection], None]] = [_migration_1, _migration_2, _migration_3, _migration_4,
                                                  _migration_5, _migration_6]
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(RuntimeError):
    """The database cannot be used (a newer schema, an unreachable URL)."""


class ConflictError(RuntimeError):
    """Another writer appended the same ply first, or changed the game since the revision a write was for."""


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


def safe_url(url: str) -> str:
    """The URL with any password hidden, for messages and logs."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<database URL>"


def data_folder() -> Path:
    """damier's folder in the user data folder, made private (0700) if it is new."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("damier", appauthor=False))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def default_url() -> str:
    return f"sqlite:///{data_folder() / 'damier.sqlite3'}"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, in any form (a path, or a ``file:`` URI), None for another database or an
    in-memory one.

    >>> sqlite_path("sqlite:////tmp/a.db"), sqlite_path("sqlite:///file:/tmp/a%20b.db?mode=ro&uri=true")
    (PosixPath('/tmp/a.db'), PosixPath('/tmp/a b.db'))
    >>> sqlite_path("sqlite://"), sqlite_path("sqlite:///file::memory:?uri=true"), sqlite_path("postgresql://h/d")
    (None, None, None)
    """
    if not url.startswith("sqlite"):
        return None
    try:
        from sqlalchemy.engine import make_url

        database = make_url(url).database
    except Exception:
        return None
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        from urllib.parse import parse_qs, unquote, urlsplit

        parts = urlsplit(database)
        path = unquote(parts.path)
        if not path or path == ":memory:" or "memory" in parse_qs(parts.query).get("mode", []):
            return None
        return Path(path)
    return Path(database)


def lock_holder(file: Path) -> str | None:
    """Who holds the ``flock`` on ``file`` (by its device and inode, whatever its name), read from the kernel's
    ``/proc/locks``: ``pid N: <its command line>``; None where that cannot be told."""
    try:
        info = file.stat()
        wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
        for line in Path("/proc/locks").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
                pid = fields[4]
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                return f"pid {pid}: {command.strip()[:200]}"
    except (OSError, ValueError, IndexError):
        return None
    return None


def make_private(path: Path) -> None:
    """Create the SQLite file ``path`` readable by its owner only (0600), or take the group's and others' rights
    from one an earlier damier made (0644), with its WAL files: seat tokens are not in it, but games are."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        return  # a missing folder or no rights: opening the database says so
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            info = file.stat()
            mode = stat.S_IMODE(info.st_mode)
            if mode & 0o077 and info.st_uid == os.getuid():
                file.chmod(mode & 0o700)
                log.warning("%s was readable by others (mode %04o): now %04o", file, mode, mode & 0o700)
        except OSError:
            continue


class Storage:
    """The arcade's database. Methods are synchronous; the server calls them from worker threads."""

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
        self._queue: queue.SimpleQueue[tuple[Callable[[Connection], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="damier-db-writer", daemon=True)
        self._writer.start()

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
            raise StorageError(f"cannot read database {safe_url(self.url)!r}: {_reason(exc)}") from None
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
                                   f"{_reason(exc)}") from None

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
                raise StorageError(f"cannot open database {safe_url(self.url)!r}: {_reason(exc)}") from None
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
            raise StorageError(f"the database {safe_url(self.url)!r} cannot be written ({_reason(exc)}): the arcade "
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

    # ----- the writer thread --------------------------------------------------------------------------
    def submit(self, operation: Callable[[Connection], Any]) -> Future[Any]:
        """Queue a write; the future resolves (or fails) once it is committed."""
        future: Future[Any] = Future()
        self._queue.put((operation, future))
        return future

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if not item[1].set_running_or_notify_cancel():
                continue  # the caller gave up before the write started: skip it
            batch = [item]
            while len(batch) < 256:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)  # stop after this batch
                    break
                if more[1].set_running_or_notify_cancel():
                    batch.append(more)
            try:
                self._commit_batch(batch)
            except Exception as exc:  # never let the writer die: fail what is left of the batch
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)

    def _commit_batch(self, batch: list[tuple[Callable[[Connection], Any], Future[Any]]]) -> None:
        try:
            with self.engine.begin() as conn:
                results = [operation(conn) for operation, _ in batch]
        except Exception:
            if len(batch) == 1:
                operation, future = batch[0]
                self._run_alone(operation, future)
                return
            for operation, future in batch:  # one write failed: give each its own transaction and verdict
                self._run_alone(operation, future)
            return
        for (_, future), result in zip(batch, results, strict=True):
            future.set_result(result)

    def _run_alone(self, operation: Callable[[Connection], Any], future: Future[Any]) -> None:
        try:
            with self.engine.begin() as conn:
                result = operation(conn)
        except IntegrityError as exc:
            future.set_exception(ConflictError(str(exc.orig)))
        except Exception as exc:
            future.set_exception(exc)
        else:
            future.set_result(result)

    # ----- games --------------------------------------------------------------------------------------
    def create_game(self, row: GameRow) -> Future[None]:
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

        return self.submit(write)

    def load_game(self, game_id: str) -> GameRow | None:
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

    def active_game_ids(self, with_computer: bool = False) -> list[str]:
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

    def live_games(self, since: str, limit: int) -> list[str]:
        """Games going on between two seats or more, with a move, changed since ``since`` (ISO), the most recently
        changed first."""
        several = select(seats.c.game_id).where(seats.c.idx == 1)
        moved = select(moves.c.game_id).where(moves.c.ply == 1)
        query = (select(games.c.id).where(games.c.status == "active", games.c.updated_at >= since,
                                          games.c.id.in_(moved), games.c.id.in_(several))
                 .order_by(games.c.updated_at.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def idle_games(self, before: str, limit: int) -> list[str]:
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
            conn.execute(delete(turn_leases).where(turn_leases.c.game_id == game_id))
            if lease is not None:
                conn.execute(insert(turn_leases).values(game_id=game_id, owner=lease[0], expires=lease[1]))

        return self.submit(write)

    def claim_turn(self, game_id: str, owner: str, until: float, now: float) -> Future[bool]:
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

        return self.submit(write)

    def forget_turns(self) -> None:
        """End every computer-turn lease (a server alone on its database, starting: whoever held them is gone)."""
        self.submit(lambda conn: conn.execute(delete(turn_leases))).result()

    def expired_turns(self, now: float, limit: int) -> list[str]:
        """Games whose computer turn was leased to a server that did not play it in time (it died, say): another
        may take it (``claim_turn``)."""
        query = (select(turn_leases.c.game_id).where(turn_leases.c.expires < now).order_by(turn_leases.c.expires)
                 .limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

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
            conn.execute(delete(turn_leases).where(turn_leases.c.game_id == game_id))

        return self.submit(write)

    def update_game(self, game_id: str, now: str, *, revision: int, **values: Any) -> Future[None]:
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
                conn.execute(delete(turn_leases).where(turn_leases.c.game_id == game_id))

        return self.submit(write)

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

        return self.submit(write)

    # ----- race rooms ---------------------------------------------------------------------------------
    def create_race(self, row: RaceRow) -> Future[None]:
        """A new race room with its first events (the host joining)."""

        def write(conn: Connection) -> None:
            conn.execute(insert(races).values(
                id=row.id, game=row.game, options=json.dumps(row.options), settings=json.dumps(row.settings),
                status=row.status, result=json.dumps(row.result) if row.result else None,
                created_at=row.created_at, updated_at=row.updated_at))
            _insert_events(conn, row.id, row.events)

        return self.submit(write)

    def load_race(self, race_id: str) -> RaceRow | None:
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

    def append_race_events(self, race_id: str, events: list[RaceEvent], status: str,
                           result: dict[str, Any] | None, now: str) -> Future[None]:
        """Append events (their ``seq`` follow the stored ones: ``ConflictError`` if one exists) and set the race's
        status and result, in one transaction."""

        def write(conn: Connection) -> None:
            _insert_events(conn, race_id, events)
            conn.execute(update(races).where(races.c.id == race_id).values(
                status=status, result=json.dumps(result) if result else None, updated_at=now))
            if events:
                notify(conn, "race", race_id, max(e.seq for e in events))

        return self.submit(write)

    def playing_race_ids(self, limit: int) -> list[str]:
        """Races under way (their timers run), the most recently changed first, at most ``limit``."""
        query = (select(races.c.id).where(races.c.status == "playing").order_by(races.c.updated_at.desc())
                 .limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

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
                    log.warning("listening for other servers' changes failed (%s); trying again", _reason(exc))
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

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        self._queue.put(None)
        self._writer.join(timeout=30)
        self.engine.dispose()
        self._release_lock()

    def _release_lock(self) -> None:
        if self._server_lock is not None:
            os.close(self._server_lock)  # releases the server lock
            self._server_lock = None


def _dump(obj: dict[str, Any] | None) -> str | None:
    return json.dumps(obj, separators=(",", ":")) if obj is not None else None


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


def _insert_events(conn: Connection, race_id: str, events: list[RaceEvent]) -> None:
    for step in events:
        conn.execute(insert(race_events).values(race_id=race_id, seq=step.seq, kind=step.kind, seat=step.seat,
                                                data=json.dumps(step.data, separators=(",", ":")), at=step.at))


def _next_revision(conn: Connection, game_id: str, revision: int, **values: Any) -> None:
    """Set ``values`` on the game if it is at ``revision``, making it ``revision + 1``; ``ConflictError`` (the
    transaction is rolled back) if it is not. Other servers hear of it (``notify``)."""
    changed = conn.execute(update(games).where(games.c.id == game_id, games.c.revision == revision).values(
        revision=revision + 1, **values)).rowcount
    if changed != 1:
        raise ConflictError(f"game {game_id} is no longer at revision {revision}: it was changed elsewhere")
    notify(conn, "game", game_id, revision + 1)


def notify(conn: Connection, kind: str, room_id: str, mark: int) -> None:
    """On PostgreSQL, tell every server listening (``Storage.listen``) that room ``room_id`` (a ``game`` or a
    ``race``) reached ``mark`` (a game's revision, a race's last event); sent when the transaction commits."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": f"{kind} {room_id} {mark}"})


def _reason(exc: BaseException) -> str:
    """A database error's own message (the driver's), without SQLAlchemy's statement and links."""
    original = getattr(exc, "orig", None)
    return str(original if original is not None else exc).strip().splitlines()[0]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
