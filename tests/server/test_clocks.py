"""Chess clocks in the arcade: time controls at creation (and what is refused), no clock running before a seat's
first move, the running clock charged and the increment added, a move after the flag fell refused, a game lost on
time with nobody sending anything, clocks that survive a restart and ``kill -9`` (SQLite and PostgreSQL), a
computer's thinking charged to its clock. How a game starts (first moves, aborts, claims) is in
test_game_start.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from damier.server.rooms.game import clocks, moves
from damier.server.storage import Storage
from tests.server.conftest import GENEROUS, ServerProcess, make_app
from tests.server.postgres import fresh_database
from tests.server.test_storage import postgres_url  # noqa: F401 (the fixture)

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
SMALL = {"rows": 5, "cols": 5}


def create(client: TestClient | httpx.Client, clock: Any, seats: list[dict[str, Any]] | None = None,
           game: str = "atoms", options: dict[str, Any] | None = None) -> httpx.Response:
    return client.post("/api/games", json={"game": game, "options": SMALL if options is None else options,
                                           "seats": seats or TWO_PEOPLE, "clock": clock})


def count_games(client: TestClient) -> int:
    storage: Storage = client.app.state.arcade.storage  # type: ignore[attr-defined]
    return len(storage.games.active_ids())


def move(client: TestClient | httpx.Client, game_id: str, token: str, text: str) -> httpx.Response:
    return client.post(f"/api/games/{game_id}/moves", json={"move": text}, headers={"X-Seat-Token": token})


def wait_until(check: Any, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the condition was not met in time")


# ----- creation ----------------------------------------------------------------------------------------------

def test_a_game_without_a_clock_has_none(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "atoms", "options": SMALL, "seats": TWO_PEOPLE})
    assert response.status_code == 201
    assert response.json()["state"]["clock"] is None


def test_a_time_control_gives_each_seat_the_whole_time_and_none_runs_before_a_first_move(client: TestClient) -> None:
    response = create(client, {"minutes": 3, "increment": 2})
    assert response.status_code == 201, response.text
    clock = response.json()["state"]["clock"]
    assert clock["control"] == "3+2" and clock["increment"] == 2
    assert clock["running"] is None and clock["first_move"] == 0
    assert clock["remaining"] == [180_000, 180_000]
    assert clock["low"] == 18_000  # a tenth of 3 minutes, under 20 s


def first_moves(client: TestClient | httpx.Client, game_id: str, tokens: dict[str, str]) -> None:
    """Red and Blue make their first moves on a 5x5 Atoms board (free: their clocks run from then on)."""
    assert move(client, game_id, tokens["0"], "A1").status_code == 200
    assert move(client, game_id, tokens["1"], "E5").status_code == 200


def test_the_catalog_offers_presets_and_the_bounds_the_server_accepts(client: TestClient) -> None:
    entries = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
    atoms = entries["atoms"]
    for minutes, increment in atoms["clocks"]:
        assert create(client, {"minutes": minutes, "increment": increment}).status_code == 201
    (low, high), (inc_low, inc_high) = atoms["clock_limits"]["minutes"], atoms["clock_limits"]["increment"]
    for minutes, increment, accepted in [(low, inc_low, True), (high, inc_high, True), (low / 2, 0, False),
                                         (high + 1, 0, False), (low, inc_high + 1, False), (low, inc_low - 1, False)]:
        assert (create(client, {"minutes": minutes, "increment": increment}).status_code == 201) == accepted
    solo = [entry for entry in entries.values() if entry["players"] == "1"]
    assert solo and all(entry["clocks"] is None and entry["clock_limits"] is None for entry in solo)


def test_a_time_control_may_be_written_as_text(client: TestClient) -> None:
    response = create(client, "5+3")
    assert response.status_code == 201, response.text
    assert response.json()["state"]["clock"]["control"] == "5+3"


@pytest.mark.parametrize(("clock", "words"), [
    ({"minutes": 0}, "minutes 0 is out of range"),
    ({"minutes": -1, "increment": 0}, "minutes -1 is out of range"),
    ({"minutes": 500, "increment": 0}, "minutes 500 is out of range"),
    ({"minutes": "3"}, "minutes '3' is out of range"),
    ({"minutes": 3, "increment": -2}, "increment -2 is not a whole number"),
    ({"minutes": 3, "increment": 1.5}, "increment 1.5 is not a whole number"),
    ({"minutes": 3, "increment": 2, "delay": 1}, "is not a time control"),
    ({"increment": 2}, "is not a time control"),
    ("3 + two", "is not a time control"),
    (5, "is not a time control"),
    ([3, 2], "is not a time control"),
])
def test_a_bad_time_control_is_refused_and_nothing_is_created(client: TestClient, clock: Any,
                                                               words: str) -> None:
    before = count_games(client)
    response = create(client, clock)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert words in error
    assert "presets: 1+0, 3+2, 5+3, 10+5, 15+10" in error  # what is accepted
    assert count_games(client) == before


def test_a_clock_is_refused_for_a_puzzle_played_alone(client: TestClient) -> None:
    before = count_games(client)
    response = create(client, {"minutes": 5, "increment": 0}, seats=[{"kind": "human"}], game="micro", options={})
    assert response.status_code == 422
    assert "clocks are for games where two or more seats move in turns" in response.json()["error"]
    assert count_games(client) == before


# ----- running -----------------------------------------------------------------------------------------------

def test_the_clock_of_the_side_to_move_runs_and_a_move_adds_the_increment(client: TestClient) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    start = time.time()
    arcade.clock = lambda: start  # the arcade's clock, moved by hand: exact charges
    try:
        created = create(client, {"minutes": 1, "increment": 5}).json()
        game_id, tokens = created["id"], created["tokens"]
        arcade.clock = lambda: start + 7.0
        first_moves(client, game_id, tokens)  # 7 s after the creation: first moves cost nothing
        state = client.get(f"/api/games/{game_id}").json()
        assert state["clock"]["remaining"] == [60_000, 60_000] and state["clock"]["running"] == 0
        arcade.clock = lambda: start + 7.6
        state = client.get(f"/api/games/{game_id}").json()
        assert state["clock"]["running"] == 0
        assert state["clock"]["remaining"] == [60_000 - 600, 60_000]  # Red's clock runs, Blue's does not
        arcade.clock = lambda: start + 9.5
        after = move(client, game_id, tokens["0"], "A2").json()
        assert after["clock"]["remaining"] == [60_000 - 2_500 + 5_000, 60_000]  # charged, then 5 s added
        assert after["clock"]["running"] == 1
        arcade.clock = lambda: start + 10.0
        later = client.get(f"/api/games/{game_id}").json()["clock"]
        assert later["remaining"] == [60_000 - 2_500 + 5_000, 60_000 - 500]  # Red's stopped, Blue's runs
    finally:
        arcade.clock = time.time


def test_a_time_control_is_read_from_its_text_or_its_fields() -> None:
    import damier

    game = damier.load("khet")
    assert clocks.parse("3+2", game) == clocks.TimeControl(3.0, 2)
    assert clocks.parse({"minutes": 0.05}, game) == clocks.TimeControl(0.05, 0)
    assert clocks.parse(None, game) is None
    with pytest.raises(clocks.Invalid, match="is not a time control"):
        clocks.parse("3 minutes", game)


def test_a_move_after_the_flag_fell_is_refused_and_the_game_is_lost_on_time(client: TestClient) -> None:
    created = create(client, {"minutes": 0.05, "increment": 0}).json()  # 3 seconds
    game_id, tokens = created["id"], created["tokens"]
    first_moves(client, game_id, tokens)
    assert move(client, game_id, tokens["0"], "A2").status_code == 200
    client.app.state.arcade.clock = lambda: time.time() + 10  # type: ignore[attr-defined]  # Blue thinks 10 s
    try:
        room = client.app.state.arcade.rooms.peek(game_id)  # type: ignore[attr-defined]
        if room is not None and room.flag_timer is not None:
            room.flag_timer.cancel()  # only the move itself may notice the flag
        refused = move(client, game_id, tokens["1"], "E4")
    finally:
        client.app.state.arcade.clock = time.time  # type: ignore[attr-defined]
    assert refused.status_code == 409
    assert "ran out of time" in refused.json()["error"]
    state = client.get(f"/api/games/{game_id}").json()
    assert state["status"] == "finished"
    assert state["result"]["termination"] == "time"
    assert state["result"]["winner"] == 0
    assert state["result"]["reason"] == "Blue ran out of time: Red wins"
    assert state["clock"]["remaining"][1] == 0 and state["clock"]["running"] is None
    assert len(state["moves"]) == 3  # the late move was not stored


def test_a_game_is_lost_on_time_with_nobody_sending_anything(client: TestClient) -> None:
    created = create(client, {"minutes": 0.05, "increment": 0}).json()
    game_id = created["id"]
    first_moves(client, game_id, created["tokens"])  # Red's 3 seconds run from Blue's first move
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        first = socket.receive_json()
        assert first["state"]["status"] == "active"
        message = socket.receive_json()  # the server's timer ends the game: the watchers hear it
        while message.get("type") != "state":
            message = socket.receive_json()
    assert message["state"]["status"] == "finished"
    assert message["state"]["result"]["termination"] == "time"
    assert message["state"]["result"]["winner"] == 1


def test_an_evicted_room_is_settled_when_it_is_asked_for_again(client: TestClient) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    created = create(client, {"minutes": 0.05, "increment": 0}).json()
    game_id = created["id"]
    first_moves(client, game_id, created["tokens"])
    room = arcade.rooms.peek(game_id)
    arcade.rooms.forget(room)  # out of memory: its timer stops with it
    assert room.flag_timer is None
    client.app.state.arcade.clock = lambda: time.time() + 10  # type: ignore[attr-defined]
    try:
        state = client.get(f"/api/games/{game_id}").json()
    finally:
        client.app.state.arcade.clock = time.time  # type: ignore[attr-defined]
    assert state["status"] == "finished" and state["result"]["termination"] == "time"


def test_the_sweep_settles_a_clock_that_fell_out_of_memory_with_no_request(client: TestClient) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    created = create(client, {"minutes": 0.05, "increment": 0}).json()
    game_id = created["id"]
    first_moves(client, game_id, created["tokens"])
    arcade.rooms.forget(arcade.rooms.peek(game_id))  # evicted: no timer runs for it any more
    arcade.clock = lambda: time.time() + 10
    try:
        client.portal.call(moves.sweep, arcade)  # what the server's 5-second sweep does
    finally:
        arcade.clock = time.time
    row = arcade.storage.games.load(game_id)
    assert row.status == "finished" and row.result["termination"] == "time"
    assert row.clock["running"] is None and row.clock["remaining"][0] == 0 and row.clock["remaining"][1] == 3_000


def test_a_rematch_keeps_the_time_control(client: TestClient) -> None:
    created = create(client, {"minutes": 2, "increment": 1}).json()
    game_id, tokens = created["id"], created["tokens"]
    client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": tokens["0"]})
    again = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": tokens["0"]}).json()
    assert client.get(f"/api/games/{again['id']}").json()["clock"]["control"] == "2+1"
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["time_control"] == {"minutes": 2.0, "increment": 1}


def test_an_undo_against_the_computer_keeps_the_time_spent(client: TestClient) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    created = create(client, {"minutes": 1, "increment": 0},
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]).json()
    game_id, token = created["id"], created["tokens"]["0"]
    move(client, game_id, token, "A1")
    wait_until(lambda: client.get(f"/api/games/{game_id}").json()["version"] >= 2)
    arcade.clock = lambda: time.time() + 2.0  # Red thinks two seconds over its second move
    try:
        move(client, game_id, token, "A2")
        state = wait_until(lambda: (s := client.get(f"/api/games/{game_id}").json())["version"] >= 4 and s)
        spent = 60_000 - state["clock"]["remaining"][0]
        assert spent >= 2_000
        undone = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": token}).json()
    finally:
        arcade.clock = time.time
    assert undone["version"] == 2 and undone["clock"]["running"] == 0  # Red has moved: its clock runs again
    assert undone["clock"]["remaining"][0] <= 60_000 - spent


def test_a_flag_against_a_player_who_cannot_win_is_a_draw(client: TestClient) -> None:
    # Jewels and Lasers, no robot left: Gold has 3 jewels, Silver 0 with 2 left on the board (it cannot win);
    # each moves once (the clocks run from then on), taking nothing
    created = client.post("/api/games", json={
        "game": "jewels", "options": {"size": 6, "jewels": 2, "walls": 2, "robots": 2},
        "start": "A2J2/6/6/6/6/J1W2B a 3-0 AB 0", "seats": TWO_PEOPLE,
        "clock": {"minutes": 0.05, "increment": 0}}).json()
    assert move(client, created["id"], created["tokens"]["0"], "A1-B1").status_code == 200
    assert move(client, created["id"], created["tokens"]["1"], "F6-F5").status_code == 200  # Gold's clock runs
    client.app.state.arcade.clock = lambda: time.time() + 10  # type: ignore[attr-defined]
    try:
        state = client.get(f"/api/games/{created['id']}").json()
    finally:
        client.app.state.arcade.clock = time.time  # type: ignore[attr-defined]
    assert state["result"] == {"winner": None, "returns": [0.0, 0.0], "termination": "time",
                               "reason": "Gold ran out of time, but Silver cannot win: draw",
                               "code": "outcome.time_draw",
                               "params": {"seat": {"seat": 0, "name": "Gold", "game": "jewels"},
                                          "others": {"seats": [1], "names": ["Silver"], "game": "jewels"}}}


def test_a_computer_thinks_within_what_its_clock_affords(client: TestClient) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    asked: list[tuple[str, float]] = []
    real_move = arcade.pool.move

    async def noting(job: Any, budget: float, **kwargs: Any) -> dict[str, Any]:
        asked.append((job.spec, budget))
        answer: dict[str, Any] = await real_move(job, budget, **kwargs)  # the real pool thinks
        return answer

    arcade.pool.move = noting
    try:
        created = create(client, {"minutes": 0.1, "increment": 0}, game="khet", options={},
                         seats=[{"kind": "computer", "level": "hard"}, {"kind": "human"}]).json()
        first = wait_until(lambda: (s := client.get(f"/api/games/{created['id']}").json())["version"] >= 1 and s, 60)
        assert first["clock"]["remaining"][0] == 6_000  # a first move is free: its clock did not run
        assert first["clock"]["running"] is None and first["clock"]["first_move"] == 1
        reply = move(client, created["id"], created["tokens"]["1"], first["legal_moves"][0])
        assert reply.status_code == 200 and reply.json()["clock"]["running"] == 0
        assert reply.json()["clock"]["remaining"][1] == 6_000  # the person's first move was free too
        state = wait_until(lambda: (s := client.get(f"/api/games/{created['id']}").json())["version"] >= 3 and s, 60)
    finally:
        arcade.pool.move = real_move
    # hard thinks 1 s a move; with 6 s on its clock it may take a twentieth: 0.3 s, each move
    assert len(asked) == 2
    for spec, budget in asked:
        kind, _, seconds = spec.partition(":time=")
        assert kind == "alphabeta" and 0.25 < float(seconds) <= 0.3 and budget <= 0.3
    assert state["status"] == "active" and state["clock"]["running"] == 1
    assert 0 < state["clock"]["remaining"][0] < 6_000  # its second move's thinking was charged to its clock


# ----- a real server: restarts, kill -9, the computer's clock, on SQLite and PostgreSQL -------------------------

@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'arcade.sqlite3'}"
        return
    with fresh_database(request.getfixturevalue("postgres_url"), "clocks") as url:
        yield url


@pytest.mark.slow
def test_clocks_survive_a_restart_and_a_sigkill(database: str, tmp_path: Path) -> None:
    server = ServerProcess(database, tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            created = create(http, {"minutes": 1, "increment": 3}).json()
            game_id, tokens = created["id"], created["tokens"]
            first_moves(http, game_id, tokens)
            assert move(http, game_id, tokens["0"], "A2").status_code == 200
            before = http.get(f"/api/games/{game_id}").json()["clock"]
        server.kill()  # Blue's clock keeps running while the server is dead
        time.sleep(1.0)
        server.start()
        with httpx.Client(base_url=server.url, timeout=60) as http:
            after = http.get(f"/api/games/{game_id}").json()["clock"]
            assert after["remaining"][0] == before["remaining"][0]  # Red's stopped clock, as stored
            assert after["running"] == 1
            assert after["remaining"][1] <= before["remaining"][1] - 1000  # the time the server was down counts
            assert move(http, game_id, tokens["1"], "E4").status_code == 200
            # a short game whose clock falls while the server is stopped is settled when it starts again
            short = create(http, {"minutes": 0.05, "increment": 0}).json()
            first_moves(http, short["id"], short["tokens"])
        server.stop()
        time.sleep(3.5)
        server.start()
        with httpx.Client(base_url=server.url, timeout=60) as http:
            state = http.get(f"/api/games/{short['id']}").json()
            assert state["result"]["termination"] == "time"
            assert state["result"]["reason"] == "Red ran out of time: Blue wins"
    finally:
        server.stop()


@pytest.mark.slow
def test_a_clock_that_falls_after_a_restart_ends_the_game_without_any_request(database: str,
                                                                               tmp_path: Path) -> None:
    server = ServerProcess(database, tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            created = create(http, {"minutes": 0.2, "increment": 0}).json()  # 12 seconds
            first_moves(http, created["id"], created["tokens"])
        server.kill()
        server.start()  # the clock's timer is set again at start; nobody asks for the game until it fell
        storage = Storage(database)  # the database read, not the server asked
        try:
            row = wait_until(lambda: (row := storage.games.load(created["id"])) is not None
                             and row.status == "finished" and row, 40)
        finally:
            storage.close()
        assert row.result is not None and row.result["termination"] == "time"
    finally:
        server.stop()


def test_two_servers_both_timing_a_game_end_it_on_time_once(postgres_url: str) -> None:  # noqa: F811
    with fresh_database(postgres_url, "two_clocks") as url, \
            TestClient(make_app(url, workers=1, limits=GENEROUS)) as one, \
            TestClient(make_app(url, workers=1, limits=GENEROUS)) as other:
        created = create(one, {"minutes": 0.05, "increment": 0}).json()
        game_id, tokens = created["id"], created["tokens"]
        first_moves(one, game_id, tokens)
        assert move(other, game_id, tokens["0"], "A2").status_code == 200  # the clock runs for Blue now
        # the first server hears of the move (LISTEN/NOTIFY) and times Blue's clock too
        wait_until(lambda: one.get(f"/api/games/{game_id}").json()["version"] == 3, 10)
        # nobody asks: each server's timer fires; one ends the game, the other's write is refused (and harmless)
        storage: Storage = one.app.state.arcade.storage  # type: ignore[attr-defined]
        ended = wait_until(lambda: (row := storage.games.load(game_id)) is not None and row.status == "finished"
                           and row, 20)
        assert ended.result["reason"] == "Blue ran out of time: Red wins"
        for client in (one, other):
            state = wait_until(lambda c=client: (s := c.get(f"/api/games/{game_id}").json())["status"] == "finished"
                               and s, 20)
            assert state["result"]["termination"] == "time" and len(state["moves"]) == 3
