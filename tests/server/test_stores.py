"""Each store of the storage alone (issue 37: storage by aggregate): built on its own engine and writer, without
``Storage`` or the other stores, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine

from damier.server.storage import ConflictError, RaceEvent, RaceRow, SeatRow, Storage
from damier.server.storage.games import GameStore
from damier.server.storage.leases import LeaseStore
from damier.server.storage.notifications import Notifications
from damier.server.storage.races import RaceStore
from damier.server.storage.writer import Writer
from tests.server.postgres import fresh_database
from tests.server.test_storage import game_row, postgres_url  # noqa: F401 (the fixture)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engine, Writer, str]]:
    """A migrated, empty database (made by ``Storage``, then closed), and an engine and a writer of its own."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
        else:
            url = stack.enter_context(fresh_database(request.getfixturevalue("postgres_url"), "stores"))
        Storage(url).close()
        engine = create_engine(url)
        stack.callback(engine.dispose)
        writer = Writer(engine)
        stack.callback(writer.close)
        yield engine, writer, url


def test_the_game_store_alone(database: tuple[Engine, Writer, str]) -> None:
    engine, writer, _ = database
    store = GameStore(engine, writer)
    store.create(game_row("g1")).result()
    store.append_moves("g1", 1, [("A1", 0), ("C3", 1)], "t1", "active", None, revision=0).result()
    again = store.append_moves("g1", 2, [("B2", 1)], "t2", "active", None, revision=1)
    assert isinstance(again.exception(), ConflictError)  # ply 2 is stored
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == [("A1", 0), ("C3", 1)] and loaded.revision == 1
    assert loaded.seats == [SeatRow(0, "human", None), SeatRow(1, "computer", "easy")]
    assert store.active_ids(with_computer=True) == ["g1"]
    store.update("g1", "t3", revision=1, status="finished").result()
    assert store.active_ids() == [] and store.load("nope") is None


def test_the_lease_store_alone(database: tuple[Engine, Writer, str]) -> None:
    engine, writer, _ = database
    GameStore(engine, writer).create(game_row("g1")).result()  # a lease is of a game
    leases = LeaseStore(engine, writer)
    assert leases.claim("g1", "A", 100.0, 50.0).result() is True
    assert leases.claim("g1", "B", 100.0, 60.0).result() is False
    assert leases.expired(101.0, 10) == ["g1"]
    leases.forget_all()
    assert leases.expired(10_000.0, 10) == [] and leases.claim("g1", "B", 100.0, 60.0).result() is True


def test_the_race_store_alone(database: tuple[Engine, Writer, str]) -> None:
    engine, writer, _ = database
    races = RaceStore(engine, writer)
    joined = RaceEvent(1, "join", 0, {"name": "Ann"}, "t0")
    races.create(RaceRow("r1", "ricochet", {}, {"rounds": 3}, "lobby", None, "t0", "t0", [joined])).result()
    started = RaceEvent(2, "start", None, {}, "t1")
    races.append_events("r1", [started], "playing", None, "t1").result()
    twice = races.append_events("r1", [RaceEvent(2, "claim", 0, {"count": 5}, "t2")], "playing", None, "t2")
    assert isinstance(twice.exception(), ConflictError)  # step 2 is written
    loaded = races.load("r1")
    assert loaded is not None and loaded.events == [joined, started] and loaded.status == "playing"
    assert races.playing_ids(10) == ["r1"] and races.load("nope") is None


def test_notifications_alone_on_postgresql(database: tuple[Engine, Writer, str]) -> None:
    engine, writer, url = database
    notifications = Notifications(url, engine)
    heard: list[str] = []
    stop = threading.Event()
    listening = threading.Thread(target=notifications.listen, args=(heard.append, stop), daemon=True)
    listening.start()
    try:
        if not url.startswith("postgresql"):
            listening.join(timeout=5)
            assert not listening.is_alive()  # nothing to listen to on SQLite: it returns at once
            notifications.announce("here")  # and announcing does nothing
            return
        # an announcement is heard at once (said again until the listener has started), a game's change when
        # it commits
        deadline = threading.Event()
        for _ in range(100):
            notifications.announce("here")
            if "here" in heard:
                break
            deadline.wait(0.1)
        assert "here" in heard
        store = GameStore(engine, writer)
        store.create(game_row("changed")).result()
        store.update("changed", "t1", revision=0, status="finished").result()
        for _ in range(100):
            if "game changed 1" in heard:
                break
            deadline.wait(0.1)
        assert "game changed 1" in heard
    finally:
        stop.set()
        listening.join(timeout=5)
