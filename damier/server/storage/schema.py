"""The database's tables and the migrations that make them: ``MIGRATIONS[i]`` upgrades a database from schema
version ``i`` to ``i + 1`` (each frozen as written then; later ones alter it)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import BigInteger, Column, Connection, Float, ForeignKey, Integer, MetaData, String, Table, Text, text

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


