"""Storage: versioned migrations, group commit, conflicts, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import wait
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from damier.server.storage import SCHEMA_VERSION, ConflictError, GameRow, SeatRow, Storage, StorageError
from tests.server.postgres import throwaway_postgres


def game_row(game_id: str) -> GameRow:
    return GameRow(id=game_id, game="atoms", options={"rows": 3, "cols": 3, "players": 2}, seed=None, start=None,
                   status="active", result=None, draw_offer=None, undo_request=[], rematch=None,
                   created_at="2026-01-01T00:00:00+00:00", updated_at="2026-01-01T00:00:00+00:00",
                   seats=[SeatRow(0, "human", None), SeatRow(1, "computer", "easy")])


def exercise(storage: Storage) -> None:
    """The write and read paths every backend must get right."""
    storage.games.create(game_row("g1")).result()
    humans = game_row("g2")
    humans.seats = [SeatRow(0, "human", None), SeatRow(1, "human", None)]
    storage.games.create(humans).result()
    assert sorted(storage.games.active_ids()) == ["g1", "g2"]
    assert storage.games.active_ids(with_computer=True) == ["g1"]
    storage.games.append_moves("g1", 1, [("A1", 0)], "t1", "active", None, revision=0).result()
    futures = [storage.games.append_moves("g1", 2, [("C3", 1)], "t2", "active", None, revision=1) for _ in range(5)]
    wait(futures)
    outcomes = [f.exception() for f in futures]
    assert outcomes.count(None) == 1, outcomes  # one write of ply 2 wins, whatever the batching
    assert all(isinstance(e, ConflictError) for e in outcomes if e is not None)
    loaded = storage.games.load("g1")
    assert loaded is not None and loaded.moves == [("A1", 0), ("C3", 1)]
    assert [s.kind for s in loaded.seats] == ["human", "computer"] and loaded.seats[1].level == "easy"
    assert loaded.revision == 2
    # a write on a copy that missed a change (another server's) is refused, and changes nothing
    stale = storage.games.truncate_moves("g1", 0, "t3", revision=1)
    assert isinstance(stale.exception(), ConflictError)
    stale = storage.games.update("g1", "t3", revision=0, status="finished")
    assert isinstance(stale.exception(), ConflictError)
    loaded = storage.games.load("g1")
    assert loaded is not None and loaded.moves == [("A1", 0), ("C3", 1)] and loaded.status == "active"
    storage.games.truncate_moves("g1", 1, "t3", revision=2).result()
    storage.games.update("g1", "t4", revision=3, status="finished",
                        result={"winner": 0, "returns": [1, -1], "reason": "r"}).result()
    loaded = storage.games.load("g1")
    assert loaded is not None and loaded.moves == [("A1", 0)] and loaded.result == {
        "winner": 0, "returns": [1, -1], "reason": "r"} and loaded.revision == 4
    assert storage.games.active_ids() == ["g2"] and storage.games.active_ids(with_computer=True) == []
    assert storage.games.load("nope") is None
    # computer turns are leased to one server at a time, until a time
    assert storage.leases.claim("g2", "A", 100.0, 50.0).result() is True
    assert storage.leases.claim("g2", "B", 100.0, 60.0).result() is False  # A holds it
    assert storage.leases.claim("g2", "A", 110.0, 60.0).result() is True  # A again: extended
    assert storage.leases.expired(105.0, 10) == [] and storage.leases.expired(111.0, 10) == ["g2"]
    assert storage.leases.claim("g2", "B", 200.0, 111.0).result() is True  # A's ran out: B takes it
    assert storage.leases.claim("g2", "A", 300.0, 150.0).result() is False  # B holds it now
    # a move stored with the next turn's lease gives it; a game that ends ends its lease
    storage.games.append_moves("g2", 1, [("A1", 0)], "t5", "active", None, revision=0, lease=("C", 500.0)).result()
    assert storage.leases.claim("g2", "A", 600.0, 400.0).result() is False
    assert storage.leases.expired(501.0, 10) == ["g2"]
    storage.games.update("g2", "t6", revision=1, status="finished").result()
    assert storage.leases.expired(10_000.0, 10) == []


def test_sqlite_storage_round_trip_and_conflicts(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    try:
        exercise(storage)
    finally:
        storage.close()


def test_a_new_database_is_migrated_to_the_current_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    storage = Storage(url)
    assert storage.current_version() == SCHEMA_VERSION
    storage.close()
    again = Storage(url)  # opening again migrates nothing
    assert again.current_version() == SCHEMA_VERSION
    again.close()


def test_a_database_from_a_newer_damier_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'future.sqlite3'}"
    Storage(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = :v"), {"v": SCHEMA_VERSION + 1})
    engine.dispose()
    with pytest.raises(StorageError, match="newer than this damier"):
        Storage(url)


def test_an_unusable_url_is_a_clear_storage_error() -> None:
    with pytest.raises(StorageError, match="cannot"):
        Storage("nosuchdialect://x")


# ----- PostgreSQL: a throwaway server started from Debian's binaries (tests/server/postgres.py) -------------
@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_postgres() as url:
        yield url


def test_postgresql_storage_round_trip_and_conflicts(postgres_url: str) -> None:
    storage = Storage(postgres_url)
    try:
        assert storage.current_version() == SCHEMA_VERSION
        exercise(storage)
    finally:
        storage.close()


@pytest.mark.parametrize("alias", ["same", "symlink", "hard link", "file URI", "relative"])
def test_one_server_per_sqlite_file_whatever_its_name(tmp_path: Path, alias: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "arcade.sqlite3"
    first = Storage(f"sqlite:///{database}", alone=True)
    try:
        if alias == "symlink":
            other = tmp_path / "elsewhere.sqlite3"
            other.symlink_to(database)
            url = f"sqlite:///{other}"
        elif alias == "hard link":
            other = tmp_path / "hard.sqlite3"
            os.link(database, other)
            url = f"sqlite:///{other}"
        elif alias == "file URI":
            url = f"sqlite:///file:{database}?uri=true"
        elif alias == "relative":
            monkeypatch.chdir(tmp_path)
            url = "sqlite:///arcade.sqlite3"
        else:
            url = f"sqlite:///{database}"
        with pytest.raises(StorageError, match=rf"another damier server is running on .* \(pid {os.getpid()}: "):
            Storage(url, alone=True)
        # refused before SQLite opened it: nothing was written through the other name (no write-ahead log of its own)
        assert not (tmp_path / "hard.sqlite3-wal").exists() and not (tmp_path / "elsewhere.sqlite3-wal").exists()
    finally:
        first.close()
    again = Storage(f"sqlite:///{database}", alone=True)  # the lock went with the first
    again.close()
