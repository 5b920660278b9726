"""The room layer: its typed errors get their statuses in one place, early endings follow the core's one rule
(and records of them replay), the room base sends one serialisation per change, the cache stays bounded."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import jsonpatch
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import damier
from damier.core.game import resignation
from damier.core.record import now_iso
from damier.server.rooms import GameRoom, Room, Watcher, errors
from damier.server.rooms.cache import RoomCache
from damier.server.rooms.game import views
from damier.server.rooms.room import DELTA_THRESHOLD
from damier.server.routes.common import STATUS, status_of
from damier.server.storage import GameRow, SeatRow
from tests.server.conftest import REFUSAL, said_again

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(client: TestClient, game: str, seats: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def post(client: TestClient, path: str, token: str | None = None, body: Any = None) -> Any:
    return client.post(path, json=body, headers={"X-Seat-Token": token} if token else {})


def test_every_kind_of_room_error_has_its_status() -> None:
    kinds = [k for k in vars(errors).values()
             if isinstance(k, type) and issubclass(k, errors.RoomError) and k is not errors.RoomError]
    assert set(kinds) == set(STATUS)
    expected = {errors.NotFound: 404, errors.NotYourSeat: 403, errors.Forbidden: 403, errors.Conflict: 409,
                errors.Invalid: 422,
                errors.Unavailable: 503, errors.TooMany: 429}
    assert {kind: status_of(kind("why")) for kind in kinds} == expected


def test_room_errors_reach_clients_as_the_same_json_with_their_status(client: TestClient) -> None:
    created = create(client, "atoms", HUMANS, {"rows": 3, "cols": 3})
    game_id, red, blue = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    answers = {
        404: client.get("/api/games/nosuchgame"),
        403: post(client, f"/api/games/{game_id}/moves", None, {"move": "A1"}),
        409: post(client, f"/api/games/{game_id}/moves", blue, {"move": "A1"}),
        422: post(client, f"/api/games/{game_id}/moves", red, {"move": "Z9"}),
    }
    for status, response in answers.items():
        assert response.status_code == status
        payload = response.json()
        assert payload["status"] == status and payload["error"]
        # the server's words and the rules' (the 422: the move's own error) alike
        assert set(payload) == REFUSAL and said_again(payload) == payload["error"]


def test_a_hint_that_cannot_be_computed_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    created = create(client, "atoms", seats, {"rows": 3, "cols": 3})

    async def broken(*_args: Any, **_kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("no worker")

    monkeypatch.setattr(client.app.state.arcade.pool, "move", broken)  # type: ignore[attr-defined]
    response = post(client, f"/api/games/{created['id']}/hint", created["tokens"]["0"])
    assert response.status_code == 503
    assert response.json() == {"error": "no hint could be computed right now; try again", "status": 503,
                               "code": "error.game.hint_failed", "params": {}}


def test_a_resigned_games_record_says_resignation_and_replays(client: TestClient) -> None:
    created = create(client, "atoms", HUMANS, {"rows": 3, "cols": 3})
    game_id, red, blue = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert post(client, f"/api/games/{game_id}/moves", red, {"move": "A1"}).status_code == 200
    view = post(client, f"/api/games/{game_id}/resign", blue).json()
    assert view["result"] == {"winner": 0, "returns": [1.0, -1.0], "reason": "Blue resigned: Red wins",
                              "termination": "resignation", "code": "outcome.wins",
                              "params": {"what": {"code": "outcome.resigned",
                                                  "params": {"losers": {"seats": [1], "names": ["Blue"],
                                                                        "game": "atoms"}, "count": 1}},
                                         "winner": {"seat": 0, "name": "Red", "game": "atoms"}}}
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["result"]["termination"] == "resignation" and record["moves"] == ["A1"]
    state = damier.Record.from_json(record).replay()
    assert state.position() == view["position"] and not state.is_over()
    imported = client.post("/api/records", json=record)
    assert imported.status_code == 201
    assert client.get(f"/api/games/{imported.json()['id']}").json()["result"] == view["result"]


def test_a_three_player_resignation_follows_the_core_rule(client: TestClient) -> None:
    options = {"rows": 4, "cols": 4, "players": 3}
    created = create(client, "atoms", [{"kind": "human"}] * 3, options)
    view = post(client, f"/api/games/{created['id']}/resign", created["tokens"]["1"]).json()
    expected = resignation(damier.load("atoms", **options).new_state(), 1)
    assert view["status"] == "finished" and view["result"] == expected.to_json()
    assert view["result"]["returns"] == [0.5, -1.0, 0.5] and view["result"]["winner"] is None


def test_an_agreed_draw_is_an_agreement_and_its_record_replays(client: TestClient) -> None:
    created = create(client, "khet", HUMANS, {})
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert post(client, f"/api/games/{game_id}/draw", silver, {"action": "offer"}).json()["draw_offer"] == 0
    view = post(client, f"/api/games/{game_id}/draw", red, {"action": "accept"}).json()
    assert view["result"] == {"winner": None, "returns": [0.0, 0.0], "reason": "draw agreed",
                              "termination": "agreement", "code": "outcome.draw_agreed", "params": {}}
    record = client.get(f"/api/games/{game_id}/record").json()
    assert damier.Record.from_json(record).replay().position() == view["position"]


def test_a_result_stored_before_termination_codes_still_gives_a_record_that_replays() -> None:
    game = damier.load("atoms", rows=3, cols=3)
    state = game.replay(["A1"])
    now = now_iso()
    row = GameRow(id="old", game="atoms", options=dict(game.options), seed=None, start=None, status="finished",
                  result={"winner": 0, "returns": [1.0, -1.0], "reason": "Blue resigned: Red wins"},
                  draw_offer=None, undo_request=[], rematch=None, created_at=now, updated_at=now,
                  seats=[SeatRow(0, "human", None), SeatRow(1, "human", None)], moves=[("A1", 0)])
    record = views.record(GameRoom(row, game, state))
    assert record["result"]["termination"] == "resignation"
    assert damier.Record.from_json(record).replay().position() == state.position()


class Counter(Room):
    """A room that counts how often it is serialised."""

    def __init__(self, room_id: str) -> None:
        super().__init__(room_id)
        self.snapshots = 0

    def snapshot(self) -> dict[str, Any]:
        self.snapshots += 1
        return {"id": self.id, "change": self.snapshots}


def test_a_room_is_serialised_once_per_change_for_every_watcher() -> None:
    async def scenario() -> tuple[int, list[list[str]]]:
        room = Counter("r")
        received: list[list[str]] = [[], [], []]

        async def closed() -> None:
            pass

        def sender(inbox: list[str]) -> Callable[[str], Awaitable[None]]:
            async def send(text: str) -> None:
                inbox.append(text)

            return send

        for inbox in received:
            room.watch(Watcher(sender(inbox), closed))  # each newcomer is sent the room as it is
        before = room.snapshots
        room.broadcast()
        room.broadcast()
        await asyncio.sleep(0.05)
        room.close()
        return room.snapshots - before, received

    changes, received = asyncio.run(scenario())
    assert changes == 2
    assert [len(inbox) for inbox in received] == [3, 3, 3]  # the room on arrival, then each change
    for ply in (-2, -1):
        assert received[0][ply] is received[1][ply] is received[2][ply]  # one text, shared
    assert json.loads(received[0][-1]) == {"type": "state", "seq": 2, "state": {"id": "r", "change": 5}}


class Big(Room):
    """A room with a large view (past ``DELTA_THRESHOLD``), of which a change touches one item."""

    def __init__(self, room_id: str) -> None:
        super().__init__(room_id)
        self.items: list[str | None] = [f"item {i}" for i in range(DELTA_THRESHOLD // 8)]

    def snapshot(self) -> dict[str, Any]:
        return {"id": self.id, "items": list(self.items)}


def test_a_large_view_is_diffed_once_per_change_for_every_watcher_holding_the_last_one() -> None:
    async def scenario() -> list[list[str]]:
        room = Big("r")
        received: list[list[str]] = [[], [], [], []]

        async def closed() -> None:
            pass

        def watch(inbox: list[str], deltas: bool = True) -> None:
            async def send(text: str) -> None:
                inbox.append(text)

            room.watch(Watcher(send, closed, deltas=deltas))

        watch(received[0])
        watch(received[3], deltas=False)  # a client that did not ask for deltas: every view whole
        room.items[0] = "changed"
        room.broadcast()  # the first watcher never had a broadcast view: sent whole
        watch(received[1])  # sent the view as broadcast: the next change may be a delta for it
        room.items.append("new")
        room.broadcast()
        watch(received[2])
        room.items[1] = None
        room.broadcast()
        await asyncio.sleep(0.05)
        room.close()
        return received

    received = asyncio.run(scenario())
    messages = [[json.loads(text) for text in inbox] for inbox in received]
    assert [[m["type"] for m in inbox] for inbox in messages] == [
        ["state", "state", "delta", "delta"], ["state", "delta", "delta"], ["state", "delta"], ["state"] * 4]
    assert [[m["seq"] for m in inbox] for inbox in messages] == [[0, 1, 2, 3], [1, 2, 3], [2, 3], [0, 1, 2, 3]]
    assert received[0][-1] is received[1][-1] is received[2][-1]  # one delta, shared
    assert messages[2][-1] == {"type": "delta", "seq": 3, "base": 2,
                               "patch": [{"op": "replace", "path": "/items/1", "value": None}]}
    for inbox in messages:
        view = inbox[0]["state"]
        for message in inbox[1:]:
            view = message["state"] if message["type"] == "state" else jsonpatch.apply_patch(view, message["patch"])
        assert view == {"id": "r", "items": ["changed", None, *[f"item {i}" for i in range(2, DELTA_THRESHOLD // 8)],
                                             "new"]}


def test_the_cache_evicts_idle_rooms_first_and_keeps_busy_ones() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        cache: RoomCache[Counter] = RoomCache(capacity=2)
        busy = Counter("busy")

        async def nothing() -> None:
            pass

        async def swallow(_text: str) -> None:
            pass

        busy.watch(Watcher(swallow, nothing))
        for room in (busy, Counter("a"), Counter("b"), Counter("c")):
            cache.add(room)
        kept = [room.id for room in cache]
        busy.close()
        return kept, [key for key in ("busy", "a", "b", "c") if cache.get(key) is None]

    kept, gone = asyncio.run(scenario())
    assert kept == ["busy", "c"] and gone == ["a", "b"]


# ----- rooms in memory are bounded whatever they do (issue 13, finding 3) --------------------------------------
@pytest.fixture
def small_cache(tmp_path: Any) -> Any:
    from tests.server.conftest import GENEROUS, make_app

    with TestClient(make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1, limits=GENEROUS)) as client:
        client.app.state.arcade.rooms.capacity = 2  # type: ignore[attr-defined]
        yield client


def test_rooms_stay_within_the_cap_even_when_watched_or_thinking(small_cache: TestClient) -> None:
    arcade = small_cache.app.state.arcade  # type: ignore[attr-defined]
    computers = [{"kind": "computer", "level": "hard"}] * 2
    watched = create(small_cache, "atoms", HUMANS, {"rows": 3, "cols": 3})
    with small_cache.websocket_connect(f"/api/games/{watched['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        for _ in range(4):
            create(small_cache, "atoms", computers, {"rows": 8, "cols": 8})
            assert len(arcade.rooms) <= 2
        # the watched room left memory: its watcher is told to reconnect rather than left on a dead room
        codes: list[int] = []

        def read() -> None:
            try:
                while True:
                    socket.receive_json()
            except WebSocketDisconnect as closed:
                codes.append(closed.code)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout=30)
        assert codes == [1013], "the watcher of a room that left memory was not disconnected"


def test_a_watcher_reconnected_after_its_room_left_memory_sees_the_moves(small_cache: TestClient) -> None:
    game = create(small_cache, "atoms", HUMANS, {"rows": 3, "cols": 3})
    for _ in range(3):
        create(small_cache, "atoms", HUMANS, {"rows": 3, "cols": 3})  # the game's room leaves memory
    with small_cache.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["state"]["version"] == 0
        moved = post(small_cache, f"/api/games/{game['id']}/moves", game["tokens"]["0"], {"move": "a1"})
        assert moved.status_code == 200
        assert socket.receive_json()["state"]["version"] == 1


def test_a_computer_game_goes_on_when_its_room_leaves_memory_while_it_thinks(small_cache: TestClient) -> None:
    import time

    game = create(small_cache, "atoms", [{"kind": "computer", "level": "easy"}] * 2, {"rows": 3, "cols": 3})
    deadline = time.monotonic() + 120
    view: dict[str, Any] = {}
    while time.monotonic() < deadline:
        create(small_cache, "atoms", HUMANS, {"rows": 3, "cols": 3})  # push it out of memory, again and again
        view = small_cache.get(f"/api/games/{game['id']}").json()
        if view["status"] != "active":
            break
        time.sleep(0.05)
    assert view["status"] == "finished", view
    record = small_cache.get(f"/api/games/{game['id']}/record").json()
    # every move was played once, each by the seat to move: the replay of the record is the game
    assert damier.Record.from_json(record).replay().is_over()


def test_what_another_server_said_of_who_is_here_merges_and_runs_out() -> None:
    from damier.server.rooms.room import Room

    class Bare(Room):
        def snapshot(self) -> dict[str, Any]:
            return {}

    room = Bare("g1")
    room.hear("a", {"0": "away", "1": "online"}, until=100.0)
    room.hear("b", {"0": "online"}, until=200.0)
    assert room.presence() == {"0": "online", "1": "online"}  # online anywhere is online
    room.forget_elsewhere(150.0)  # server a did not say it again in time
    assert room.presence() == {"0": "online"}
    room.hear("b", {}, until=300.0)  # nobody plays through b any more
    assert room.presence() == {} and room.local_presence() == {}
