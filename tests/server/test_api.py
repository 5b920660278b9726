"""The arcade API through FastAPI's test client: seats and tokens, authoritative moves, undo, resignation,
draws, rematch, records, replay, errors as JSON, the WebSocket."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier
from damier.server.storage import Storage

SMALL = {"rows": 3, "cols": 3}


def create(client: TestClient, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "atoms", "options": options or SMALL, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def human_pair(client: TestClient) -> tuple[str, str, str]:
    created = create(client, [{"kind": "human"}, {"kind": "human"}])
    return created["id"], created["tokens"]["0"], created["tokens"]["1"]


def move(client: TestClient, game_id: str, token: str | None, text: str, version: int | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    body: dict[str, Any] = {"move": text}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)


def wait_for(client: TestClient, game_id: str, predicate: Any, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{game_id}").json()
        if predicate(view):
            return view
        time.sleep(0.1)
    raise AssertionError(f"timed out; last view: {view}")


def test_catalog_lists_atoms_with_options_and_levels(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    atoms = next(g for g in catalog if g["name"] == "atoms")
    assert {o["name"] for o in atoms["options"]} == {"rows", "cols", "players"}
    assert {"easy", "medium", "hard"} <= set(atoms["levels"])
    assert atoms["has_draws"] is False


def test_create_returns_one_distinct_token_per_human_seat_and_views_never_show_them(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "human"}])
    tokens = created["tokens"]
    assert set(tokens) == {"0", "1"} and tokens["0"] != tokens["1"] and len(tokens["0"]) >= 32
    game_id = created["id"]
    spectator = client.get(f"/api/games/{game_id}")
    assert spectator.json()["you"] is None
    for token in tokens.values():
        assert token not in spectator.text
    seat1 = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": tokens["1"]}).json()
    assert seat1["you"] == 1
    assert tokens["0"] not in str(seat1) and tokens["1"] not in str(seat1)


def test_a_move_is_validated_by_the_rules_and_stored(client: TestClient, db_url: str) -> None:
    game_id, red, _ = human_pair(client)
    view = move(client, game_id, red, "b2", version=0).json()
    assert view["version"] == 1 and view["player"] == 1
    assert view["moves"] == [{"ply": 1, "move": "B2", "player": 0, "mark": ""}]
    assert view["board"]["counts"][4] == 1 and view["board"]["owners"][4] == 0
    assert view["events"][0] == {"type": "place", "player": 0, "square": "B2",
                                 "changes": {"B2": {"count": 1, "owner": 0}}}
    stored = Storage(db_url).games.load(game_id)
    assert stored is not None and stored.moves == [("B2", 0)]


def test_wrong_or_missing_token_is_rejected_with_403_and_changes_nothing(client: TestClient) -> None:
    game_id, _red, blue = human_pair(client)
    before = client.get(f"/api/games/{game_id}").json()
    for token in (None, "not-a-token", blue):
        response = move(client, game_id, token, "A1")
        assert response.status_code in (403, 409)
        assert "error" in response.json()
    assert move(client, game_id, None, "A1").status_code == 403
    assert move(client, game_id, "x" * 48, "A1").status_code == 403
    after = client.get(f"/api/games/{game_id}").json()
    assert after["version"] == before["version"] == 0
    assert move(client, game_id, blue, "A1").json()["error"].startswith("it is not your turn")


def test_illegal_unparsable_and_stale_moves_are_refused(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    assert move(client, game_id, red, "A1").status_code == 200
    taken = move(client, game_id, blue, "A1")
    assert taken.status_code == 422 and "belongs to Red" in taken.json()["error"]
    assert move(client, game_id, blue, "Z9").status_code == 422
    stale = move(client, game_id, blue, "C3", version=0)
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["version"] == 1


def test_computer_seat_replies_and_shows_it_is_thinking(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    game_id, red = created["id"], created["tokens"]["0"]
    assert created["state"]["seats"][1]["kind"] == "computer"
    view = move(client, game_id, red, "A1").json()
    assert view["player"] == 1
    assert view["seats"][1]["thinking"] is True
    done = wait_for(client, game_id, lambda v: v["version"] == 2)
    assert done["player"] == 0 and done["seats"][1]["thinking"] is False
    assert done["moves"][1]["player"] == 1


def test_computer_plays_first_when_it_has_the_first_seat(client: TestClient) -> None:
    created = create(client, [{"kind": "computer", "level": "easy"}, {"kind": "human"}])
    view = wait_for(client, created["id"], lambda v: v["version"] == 1)
    assert view["player"] == 1 and set(created["tokens"]) == {"1"}


def test_undo_against_the_computer_takes_back_the_reply_too(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    game_id, red = created["id"], created["tokens"]["0"]
    move(client, game_id, red, "A1")
    wait_for(client, game_id, lambda v: v["version"] == 2)
    response = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red})
    view = response.json()
    assert view["version"] == 0 and view["player"] == 0 and view["moves"] == []
    assert client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red}).status_code == 409


def test_undo_between_humans_needs_every_human_seat(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    move(client, game_id, red, "A1")
    first = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red}).json()
    assert first["version"] == 1 and first["undo_request"] == [0]
    second = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": blue}).json()
    assert second["version"] == 0 and second["undo_request"] == []


def test_a_takeback_asked_on_the_askers_turn_takes_back_the_askers_move_and_the_reply(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    move(client, game_id, red, "A1")
    move(client, game_id, blue, "C3")  # Red's turn: Red asks to take back A1 (Blue's reply goes with it)
    asked = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red}).json()
    assert asked["undo_request"] == [0] and asked["version"] == 2 and asked["undo_keep"] == 0
    granted = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": blue}).json()
    assert granted["version"] == 0 and granted["player"] == 0 and granted["moves"] == []
    assert granted["undo_request"] == [] and granted["undo_keep"] is None


def test_a_takeback_asked_after_ones_own_move_takes_back_that_move_only(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    for token, square in ((red, "A1"), (blue, "C3"), (red, "B2")):
        move(client, game_id, token, square)
    asked = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red}).json()
    assert asked["undo_keep"] == 2
    granted = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": blue}).json()
    assert [m["move"] for m in granted["moves"]] == ["A1", "C3"] and granted["player"] == 0


def test_with_three_people_a_takeback_goes_back_before_the_askers_move_once_all_accept(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "atoms", "options": {"rows": 5, "cols": 5, "players": 3},
                                              "seats": [{"kind": "human"}] * 3}).json()
    game_id, tokens = created["id"], created["tokens"]
    for seat, square in (("0", "A1"), ("1", "C3"), ("2", "E5"), ("0", "A2")):
        assert move(client, game_id, tokens[seat], square).status_code == 200
    asked = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": tokens["1"]}).json()
    assert asked["undo_request"] == [1] and asked["undo_keep"] == 1  # before Blue's C3
    half = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": tokens["2"]}).json()
    assert half["undo_request"] == [1, 2] and half["version"] == 4
    done = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": tokens["0"]}).json()
    assert [m["move"] for m in done["moves"]] == ["A1"] and done["player"] == 1


def test_a_takeback_with_no_move_of_the_asker_is_refused_and_changes_nothing(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    move(client, game_id, red, "A1")
    refused = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": blue})
    assert refused.status_code == 409 and refused.json()["error"] == "there is no move to undo: you have not moved yet"
    view = client.get(f"/api/games/{game_id}").json()
    assert view["undo_request"] == [] and view["version"] == 1


def test_a_takeback_request_declined_is_gone_and_the_moves_stay(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    decline = f"/api/games/{game_id}/undo/decline"
    nothing = client.post(decline, headers={"X-Seat-Token": blue})
    assert nothing.status_code == 409 and nothing.json()["error"] == "there is no takeback request to decline"
    move(client, game_id, red, "A1")
    client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red})
    own = client.post(decline, headers={"X-Seat-Token": red})
    assert own.status_code == 409 and "you asked for this takeback yourself" in own.json()["error"]
    assert client.post(decline).status_code == 403
    view = client.post(decline, headers={"X-Seat-Token": blue}).json()
    assert view["undo_request"] == [] and view["version"] == 1 and [m["move"] for m in view["moves"]] == ["A1"]


def test_resignation_ends_the_game_for_the_opponent(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    view = client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": red}).json()
    assert view["status"] == "finished" and view["result"]["winner"] == 1 and view["player"] == damier.TERMINAL
    assert view["legal_moves"] == []
    assert move(client, game_id, red, "A1").status_code == 409
    assert client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": blue}).status_code == 409


def test_atoms_has_no_draws(client: TestClient) -> None:
    game_id, red, _ = human_pair(client)
    response = client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers={"X-Seat-Token": red})
    assert response.status_code == 409 and "no draws" in response.json()["error"]


def test_rematch_swaps_seats_and_each_old_seat_claims_its_new_one(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    assert client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": red}).status_code == 409
    client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": blue})
    first = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": red}).json()
    second = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": blue}).json()
    assert first["id"] == second["id"] != game_id
    new = first["id"]
    assert client.get(f"/api/games/{new}", headers={"X-Seat-Token": first["token"]}).json()["you"] == 1
    assert client.get(f"/api/games/{new}", headers={"X-Seat-Token": second["token"]}).json()["you"] == 0
    assert client.get(f"/api/games/{game_id}").json()["rematch"] == new


def test_record_export_replays_and_import_gives_replay_frames(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    for token, square in ((red, "A1"), (blue, "C3"), (red, "A1")):
        assert move(client, game_id, token, square).status_code == 200
    record = client.get(f"/api/games/{game_id}/record").json()
    state = damier.Record.from_json(record).replay()
    assert state.position() == client.get(f"/api/games/{game_id}").json()["position"]
    imported = client.post("/api/records", json=record)
    assert imported.status_code == 201
    replay = client.get(f"/api/games/{imported.json()['id']}/replay").json()
    assert [f["ply"] for f in replay["frames"]] == [0, 1, 2, 3]
    assert [f["move"] for f in replay["frames"][1:]] == ["A1", "C3", "A1"]
    assert any(e["type"] == "wave" for e in replay["frames"][3]["events"])
    view = client.get(f"/api/games/{imported.json()['id']}").json()
    assert view["status"] == "replay" and view["legal_moves"] == []


def test_an_imported_record_keeps_who_played_each_seat(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    game_id, red = created["id"], created["tokens"]["0"]
    client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": red})
    record = client.get(f"/api/games/{game_id}/record").json()
    imported = client.post("/api/records", json=record).json()
    seats = client.get(f"/api/games/{imported['id']}").json()["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [("human", None), ("computer", "easy")]
    arena = {**record, "players": ["alphabeta:depth=3", "Blue (you)"]}  # as the arena and the terminal write
    imported = client.post("/api/records", json=arena).json()
    seats = client.get(f"/api/games/{imported['id']}").json()["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [("computer", "alphabeta:depth=3"), ("human", None)]


def test_a_replay_comes_in_pages_that_together_are_every_position(client: TestClient) -> None:
    options = {"rows": 5, "cols": 5}
    game = damier.load("atoms", **options)
    state = game.new_state(3)
    import random

    rng = random.Random(3)
    while not state.is_over() and len(state.history) < 60:
        state.play(rng.choice(state.legal_moves()))
    record = damier.Record.from_state(state).to_json()
    game_id = client.post("/api/records", json=record).json()["id"]
    expected = game.new_state(3)
    boards = [expected.board_json(previews=False)]
    for move in state.history:
        expected.play(move)
        boards.append(expected.board_json(previews=False))
    frames: list[dict[str, Any]] = []
    while True:
        page = client.get(f"/api/games/{game_id}/replay?from={len(frames)}&count=7").json()
        assert page["total"] == len(boards) and page["from"] == len(frames)
        if not page["frames"]:
            break
        assert len(page["frames"]) <= 7
        frames += page["frames"]
    assert [f["board"] for f in frames] == boards and [f["ply"] for f in frames] == list(range(len(boards)))
    again = client.get(f"/api/games/{game_id}/replay?from=7&count=7")
    assert again.json()["frames"] == frames[7:14]  # the kept page is the same
    first = client.get(f"/api/games/{game_id}/replay").json()
    assert len(first["frames"]) == min(100, len(boards))
    too_many = client.get(f"/api/games/{game_id}/replay?count=501")
    assert too_many.status_code == 422 and "count" in too_many.json()["error"]


def test_a_record_of_too_many_moves_is_refused(client: TestClient) -> None:
    from damier.server.rooms.game.creation import MAX_RECORD_PLIES

    record = damier.Record.from_state(damier.load("atoms", **SMALL).new_state()).to_json()
    record["moves"] = ["a1", "c3"] * (MAX_RECORD_PLIES // 2 + 1)
    answer = client.post("/api/records", json=record)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"].endswith(f"the record has {MAX_RECORD_PLIES + 2} moves; the arcade imports at most "
                                           f"{MAX_RECORD_PLIES}")


def test_bad_records_are_refused_with_a_clear_message(client: TestClient) -> None:
    assert client.post("/api/records", content=b"{not json", headers={"content-type": "application/json"}
                       ).status_code == 422
    bad = client.post("/api/records", json={"format": "damier.record", "version": 1, "game": "atoms",
                                            "options": {}, "players": [], "moves": ["A1", "A1"]})
    assert bad.status_code == 422 and "move 2" in bad.json()["error"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "nope", "options": {}, "seats": [{"kind": "human"}]}, "unknown game"),
        ({"game": "atoms", "options": {"rows": 1}, "seats": [{"kind": "human"}] * 2}, "rows"),
        ({"game": "atoms", "options": {"colour": 1}, "seats": [{"kind": "human"}] * 2}, "no option"),
        ({"game": "atoms", "options": {}, "seats": [{"kind": "human"}]}, "2 seats"),
        ({"game": "atoms", "options": {}, "seats": [{"kind": "human"}, {"kind": "computer", "level": "god"}]},
         "unknown computer level"),
        ({"game": "atoms", "options": {}, "seats": [{"kind": "robot"}] * 2}, "seats"),
        ({"game": "atoms"}, "seats"),
    ],
)
def test_bad_new_game_requests_get_json_errors(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    payload = response.json()
    assert fragment in payload["error"] and payload["status"] == 422
    assert "Traceback" not in response.text


def test_unknown_game_id_is_404_json(client: TestClient) -> None:
    response = client.get("/api/games/doesnotexist")
    assert response.status_code == 404 and "error" in response.json()
    assert client.get("/api/nothing-here").json()["status"] == 404


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    huge = {"game": "atoms", "options": {}, "seats": [{"kind": "human"}] * 2, "pad": "x" * 100_000}
    response = client.post("/api/games", json=huge)
    assert response.status_code == 413 and "error" in response.json()


def test_websocket_pushes_every_change_to_watchers(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
        first = watcher.receive_json()
        assert first["type"] == "state" and first["state"]["version"] == 0
        move(client, game_id, red, "A1")
        pushed = watcher.receive_json()
        assert pushed["state"]["version"] == 1 and pushed["state"]["you"] is None
        watcher.send_json({"type": "move", "move": "C3", "version": 1, "token": blue})
        assert watcher.receive_json()["state"]["moves"][-1] == {"ply": 2, "move": "C3", "player": 1, "mark": ""}
        watcher.send_json({"type": "move", "move": "A2", "version": 2, "token": blue})
        error = watcher.receive_json()
        assert error["type"] == "error" and error["status"] == 409
        watcher.send_text("nonsense")
        assert watcher.receive_json()["status"] == 422


def test_hint_suggests_a_legal_move_for_the_player_to_move(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "atoms", "options": SMALL, "hints": True,
                                              "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game_id, red, blue = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    hint = client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": red})
    assert hint.status_code == 200
    legal = client.get(f"/api/games/{game_id}").json()["legal_moves"]
    assert hint.json()["move"] in legal
    assert client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": blue}).status_code == 409


def test_non_ascii_or_huge_tokens_are_refused_with_403(client: TestClient) -> None:
    game_id, _red, _blue = human_pair(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()
        socket.send_json({"type": "move", "move": "A1", "version": 0, "token": "é" * 40})
        assert socket.receive_json() == {"type": "error", "status": 403, "error": pytest.approx(
            "a valid seat token is required for this (send it in the X-Seat-Token header)"),
            "code": "error.room.missing_token", "params": {}}
    assert move(client, game_id, "x" * 2000, "A1").status_code == 403


def test_binary_and_deeply_nested_websocket_messages_get_json_errors(client: TestClient) -> None:
    game_id, red, _blue = human_pair(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()
        socket.send_bytes(b"\x00\x01")
        assert socket.receive_json()["status"] == 422
        socket.send_text("[" * 3000)  # under the size limit, deeper than the JSON parser goes
        assert socket.receive_json()["status"] == 422
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
        socket.send_json({"type": "move", "move": "A1", "version": 0, "token": red})  # still usable
        assert socket.receive_json()["state"]["version"] == 1


def test_unknown_games_leave_nothing_behind(client: TestClient) -> None:
    for n in range(20):
        assert client.get(f"/api/games/nosuch{n}").status_code == 404
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    assert arcade.rooms.loads_in_progress == 0


def test_huge_record_seeds_are_refused_not_crashed_on(client: TestClient) -> None:
    record = {"format": "damier.record", "version": 1, "game": "atoms", "options": {}, "players": [],
              "moves": ["A1"], "seed": 2**70}
    response = client.post("/api/records", json=record)
    assert response.status_code == 422 and "seed" in response.json()["error"]


def test_a_position_check_with_a_line_answers_the_board_after_each_move(client: TestClient) -> None:
    game = damier.load("atoms", **SMALL)
    line = ["a1", "c3", "a1", "c3"]
    answer = client.post("/api/positions", json={"game": "atoms", "options": SMALL, "moves": line})
    assert answer.status_code == 200, answer.text
    state = game.new_state()
    expected = []
    for text in line:
        state.play(state.parse_move(text))
        expected.append(state.board_json(previews=False))
    assert answer.json()["boards"] == expected and len(expected) == 4
    assert answer.json()["board"] == game.new_state().board_json(previews=False)
    plain = client.post("/api/positions", json={"game": "atoms", "options": SMALL}).json()
    assert "boards" not in plain


@pytest.mark.parametrize(("moves", "fragment"), [
    (["a1", "a1"], "move 2 of the line ('a1') cannot be played there"),
    (["zz"], "move 1 of the line ('zz') cannot be played there"),
    (["a1"] * 201, "at most 200"),
    (["a1" * 30], "at most 40 characters"),
])
def test_a_line_with_a_bad_move_is_refused_with_the_move_named(client: TestClient, moves: list[str],
                                                                fragment: str) -> None:
    answer = client.post("/api/positions", json={"game": "atoms", "options": SMALL, "moves": moves})
    assert answer.status_code == 422 and fragment in answer.text, answer.text


def test_presence_tells_every_watcher_which_seats_are_here(client: TestClient) -> None:
    game_id, red, blue = human_pair(client)

    def next_presence(socket: Any) -> dict[str, str]:
        while True:
            message = socket.receive_json()
            if message["type"] == "presence":
                return dict(message["seats"])

    def next_error(socket: Any) -> int:
        while True:
            message = socket.receive_json()
            if message["type"] == "error":
                return int(message["status"])

    with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
        assert watcher.receive_json()["type"] == "state"
        with client.websocket_connect(f"/api/games/{game_id}/ws") as red_socket:
            red_socket.receive_json()
            red_socket.send_json({"type": "hello", "token": red})
            assert next_presence(watcher) == {"0": "online"}
            with client.websocket_connect(f"/api/games/{game_id}/ws") as blue_socket:
                assert blue_socket.receive_json()["type"] == "state"
                assert next_presence(blue_socket) == {"0": "online"}  # told who is here as it arrives
                blue_socket.send_json({"type": "hello", "token": blue, "away": True})
                assert next_presence(watcher) == {"0": "online", "1": "away"}
                blue_socket.send_json({"type": "hello", "token": "f" * 48})
                assert next_error(blue_socket) == 403
                blue_socket.send_json({"type": "hello", "token": blue, "away": "yes"})
                assert next_error(blue_socket) == 422
                blue_socket.send_json({"type": "hello", "token": blue, "away": False})
                assert next_presence(watcher) == {"0": "online", "1": "online"}
            assert next_presence(watcher) == {"0": "online"}  # blue's page closed
        assert next_presence(watcher) == {}


def test_the_view_names_the_seats_out_of_the_game_as_the_rules_say(client: TestClient) -> None:
    game = create(client, [{"kind": "human"}] * 3, {"players": 3, "rows": 3, "cols": 3})
    line = ["C1", "B1", "B2", "A1", "A3", "B3", "C2", "C3", "A2", "A1", "A3"]
    outs = []
    for ply, text in enumerate(line):
        view = client.get(f"/api/games/{game['id']}").json()
        answer = move(client, game["id"], game["tokens"][str(view["player"])], text, ply)
        assert answer.status_code == 200, answer.text
        outs.append(answer.json()["out"])
    # Green is out once it has moved and lost its last atom, and only then, as the rules say at each ply
    state = damier.load("atoms", players=3, rows=3, cols=3).new_state()
    expected = []
    for text in line:
        state.play(state.parse_move(text))
        expected.append(state.eliminated())
    assert outs == expected and outs[-1] == [2] and outs[0] == []
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "active"
