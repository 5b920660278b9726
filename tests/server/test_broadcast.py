"""What a room's watchers are sent (issue 13, finding 6): every view whole and numbered while it is small; when it
is large, to the sockets that ask for deltas (``?deltas=1``), what changed since the last one (a ``delta``),
computed once per change, which turns the view a watcher holds into exactly the view the room broadcast."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
import pytest
from fastapi.testclient import TestClient

from damier.server.rooms.room import DELTA_THRESHOLD, Room

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(client: TestClient, game: str, options: dict[str, Any]) -> tuple[str, dict[str, str]]:
    created = client.post("/api/games", json={"game": game, "options": options, "seats": HUMANS})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["tokens"]


def play_first_legal_move(client: TestClient, game_id: str, tokens: dict[str, str]) -> None:
    view = client.get(f"/api/games/{game_id}").json()
    body = {"move": view["legal_moves"][0], "version": view["version"]}
    seat = {"X-Seat-Token": tokens[str(view["player"])]}
    answer = client.post(f"/api/games/{game_id}/moves", json=body, headers=seat)
    assert answer.status_code == 200, answer.text


def next_view_message(socket: Any) -> tuple[dict[str, Any], str]:
    """The next ``state`` or ``delta`` message (presence messages skipped), and its text."""
    while True:
        text = socket.receive_text()
        message = json.loads(text)
        if message["type"] in ("state", "delta"):
            return message, text


def untimed(message: dict[str, Any]) -> dict[str, Any]:
    """A ``state`` message without the server's time of its view."""
    return {**message, "state": {**message["state"], "now": None}}


def test_a_large_view_is_sent_as_deltas_that_rebuild_the_view_broadcast(client: TestClient) -> None:
    game_id, tokens = create(client, "khet", {})
    room = client.app.state.arcade.rooms  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/games/{game_id}/ws?deltas=1") as socket, client.websocket_connect(
            f"/api/games/{game_id}/ws") as plain:  # a client that did not ask for deltas
        first, _ = next_view_message(socket)
        # each new watcher's view is made as he comes, its time (``now``) his own: seen across a second's edge once
        assert first["type"] == "state" and untimed(next_view_message(plain)[0]) == untimed(first)
        play_first_legal_move(client, game_id, tokens)
        # the view a new watcher was sent is not the one the room broadcast last (its time differs): whole again
        held, text = next_view_message(socket)
        assert held["type"] == "state" and held["seq"] == first["seq"] + 1 and len(text) >= DELTA_THRESHOLD
        view = held["state"]
        for ply in range(4):
            play_first_legal_move(client, game_id, tokens)
            message, text = next_view_message(socket)
            assert message["type"] == "delta", ply
            assert message["base"] == held["seq"] + ply and message["seq"] == message["base"] + 1
            view = jsonpatch.apply_patch(view, message["patch"])
            whole = room.peek(game_id)._sent  # the view the room broadcast, as its JSON text
            assert view == json.loads(whole)
            assert len(text) < 0.75 * len(whole)
        for _ in range(5):
            assert next_view_message(plain)[0]["type"] == "state"
        with client.websocket_connect(f"/api/games/{game_id}/ws?deltas=1") as fresh:
            now, _ = next_view_message(fresh)
        assert now["type"] == "state" and now["seq"] == message["seq"]
        assert {**now["state"], "now": None} == {**view, "now": None}


def test_a_small_view_is_always_sent_whole(client: TestClient) -> None:
    game_id, tokens = create(client, "atoms", {"rows": 3, "cols": 3})
    with client.websocket_connect(f"/api/games/{game_id}/ws?deltas=1") as socket:
        texts = [next_view_message(socket)[1]]
        for _ in range(3):
            play_first_legal_move(client, game_id, tokens)
            texts.append(next_view_message(socket)[1])
    messages = [json.loads(text) for text in texts]
    assert [m["type"] for m in messages] == ["state"] * 4 and [m["seq"] for m in messages] == [0, 1, 2, 3]
    assert max(map(len, texts)) < DELTA_THRESHOLD


def test_a_crowd_past_the_live_watchers_hears_the_latest_view_later_and_players_never_wait(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from damier.server.rooms import room as room_module

    monkeypatch.setattr(Room, "live_watchers", 2)
    monkeypatch.setattr(room_module, "SLOW_SECONDS", 0.3)
    created = client.post("/api/games", json={"game": "atoms", "options": {"rows": 3, "cols": 3},
                                              "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game_id, tokens = created["id"], created["tokens"]
    path = f"/api/games/{game_id}/ws"
    with client.websocket_connect(path) as first, client.websocket_connect(path) as second, \
            client.websocket_connect(path) as crowd, client.websocket_connect(path) as player:
        for socket in (first, second, crowd, player):
            assert socket.receive_json()["type"] == "state"
        room = client.app.state.arcade.rooms.peek(game_id)  # type: ignore[attr-defined]
        assert len(room.slow) == 2  # past the two live watchers
        player.send_json({"type": "hello", "token": tokens["1"]})  # a player is never slowed
        while player.receive_json().get("type") != "presence":
            pass
        assert len(room.slow) == 1
        client.post(f"/api/games/{game_id}/moves", json={"move": "A1"}, headers={"X-Seat-Token": tokens["0"]})
        client.post(f"/api/games/{game_id}/moves", json={"move": "C3"}, headers={"X-Seat-Token": tokens["1"]})
        seen: dict[str, list[int]] = {name: [] for name in ("first", "player")}
        for name, socket in (("first", first), ("player", player)):
            while len(seen[name]) < 2:
                message = socket.receive_json()
                if message["type"] in ("state", "delta"):
                    seen[name].append(message["seq"])
        # the crowd hears once, the latest view, whole
        message = crowd.receive_json()
        while message["type"] != "state":
            message = crowd.receive_json()
        assert message["state"]["version"] == 2 and message["seq"] == max(seen["first"])
