"""Khet over the arcade API: games from a start position (good and bad), the position check of the editor,
moves with their laser events and previews, and repetition draws claimed over HTTP (what the web client draws with:
test_client_catalog)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier
from damier.games.khet.rules import waiting_side
from damier.games.khet.setup import setup_position

#: Silver's first shot removes the Red Pyramid on e6 (j1 up to j6, then west); Red's Pharaoh waits on b6
DUEL = "xs9/10/1ps2yw4Ys/10/10/10/10/4Pn4Xn s 0"
#: two Pharaohs and two Sphinxes, nothing in the way of either laser: moves can repeat
SHUFFLE = "xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0"
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(client: TestClient, start: str | None = None, seats: list[dict[str, Any]] | None = None,
           options: dict[str, Any] | None = None) -> Any:
    body: dict[str, Any] = {"game": "khet", "options": options or {}, "seats": seats or HUMANS}
    if start is not None:
        body["start"] = start
    return client.post("/api/games", json=body)


def move(client: TestClient, game_id: str, token: str, text: str) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json={"move": text}, headers={"X-Seat-Token": token})


def test_a_game_starts_from_the_start_position_given(client: TestClient) -> None:
    created = create(client, DUEL)
    assert created.status_code == 201, created.text
    view = created.json()["state"]
    assert view["position"] == DUEL and view["player"] == 0
    assert view["board"]["kind"] == "khet"
    assert {p["square"] for p in view["board"]["pieces"]} == {"a8", "b6", "e6", "j6", "e1", "j1"}
    assert sorted(view["legal_moves"]) == sorted(view["board"]["previews"])
    replay = client.get(f"/api/games/{created.json()['id']}/replay").json()
    assert replay["frames"][0]["board"]["position"] == DUEL
    record = client.get(f"/api/games/{created.json()['id']}/record").json()
    assert record["start"] == DUEL


def test_a_setup_name_is_a_start_position_too(client: TestClient) -> None:
    created = create(client, "imhotep")
    assert created.status_code == 201, created.text
    assert created.json()["state"]["position"] == setup_position("imhotep")


@pytest.mark.parametrize(
    ("start", "fragment"),
    [
        ("nonsense", "3 fields"),
        ("xs9/10/10/10/10/10/10/4Pn4Xn s 0", "Red needs exactly one Pharaoh"),
        ("xs9/10/1pn2yw4Ys/10/10/10/10/Yn3Pn4Xn s 0", "a1 is reserved for Red"),
        ("xs4pn4/10/10/10/10/10/10/4Pn4Xn -P 0", "exactly one Pharaoh"),
        ("xs9/10/10/10/10/10/10/4Pn4Xn -P 0", "already over"),
        ("xs4pn4/10/10/10/10/10/10/4Pn4Xn s 150", "quiet"),
    ],
)
def test_bad_start_positions_are_refused_with_the_reason(client: TestClient, start: str, fragment: str) -> None:
    response = create(client, start)
    assert response.status_code == 422, response.text
    payload = response.json()
    assert payload["status"] == 422 and "bad start position" in payload["error"] and fragment in payload["error"]


@pytest.mark.parametrize("start", [5, "", "x" * 3000])
def test_malformed_start_fields_are_refused(client: TestClient, start: Any) -> None:
    response = client.post("/api/games", json={"game": "khet", "seats": HUMANS, "start": start})
    assert response.status_code == 422 and response.json()["error"].startswith("invalid request: start")


def test_moves_over_http_carry_the_laser_and_the_removed_piece(client: TestClient) -> None:
    created = create(client, DUEL).json()
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    preview = created["state"]["board"]["previews"]["e1e2"]
    refused = move(client, game_id, silver, "b6b5")
    assert refused.status_code == 422 and "Red's" in refused.json()["error"]
    view = move(client, game_id, silver, "e1e2").json()
    laser = next(e for e in view["events"] if e["type"] == "laser")
    assert laser["squares"] == preview["squares"] and laser["at"] == "e6"  # the preview was the shot
    assert {"type": "remove", "square": "e6", "kind": "pyramid", "colour": 1, "facing": "W",
            "changes": {"e6": None}} in view["events"]
    assert "e6" not in {p["square"] for p in view["board"]["pieces"]}
    assert view["player"] == 1 and view["board"]["quiet"] == 0
    # Red does not get out of the way: Silver's next shot goes along rank 6 to the Red Pharaoh
    assert move(client, game_id, red, "a8-").status_code == 200
    view = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": silver}).json()
    win = view["board"]["previews"]["e2e1"]
    assert win["removed"] == {"square": "b6", "kind": "pharaoh", "colour": 1, "facing": "S"}
    view = move(client, game_id, silver, "e2e1").json()
    assert view["status"] == "finished" and view["result"]["winner"] == 0
    assert {"type": "win", "player": 0} in view["events"]
    assert move(client, game_id, red, "b6b5").status_code == 409


def test_replay_frames_carry_no_previews(client: TestClient) -> None:
    """A replay is public and nobody moves in it: its frames leave out the laser previews (most of a board)."""
    created = create(client, options={"setup": "classic"}).json()
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert len(created["state"]["board"]["previews"]) == len(created["state"]["legal_moves"]) > 50
    view = created["state"]
    for token in (silver, red, silver):
        harmless = sorted(m for m, beam in view["board"]["previews"].items() if beam["removed"] is None)
        view = move(client, game_id, token, harmless[0]).json()
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert [f["ply"] for f in replay["frames"]] == [0, 1, 2, 3]
    for frame in replay["frames"]:
        assert frame["board"]["previews"] == {}
        assert len(json.dumps(frame)) < 4000, frame["ply"]  # with the previews, about 23 KB each
    assert replay["frames"][1]["events"][1]["type"] == "laser"  # the shots played are still there
    assert replay["start"] is None


def test_only_a_person_about_to_move_gets_the_previews(client: TestClient) -> None:
    created = create(client, DUEL).json()
    game_id, silver = created["id"], created["tokens"]["0"]
    assert created["state"]["start"] == DUEL
    seated = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": silver}).json()
    assert sorted(seated["board"]["previews"]) == sorted(seated["legal_moves"])
    # a spectator's view has none (a bad token is no seat either)
    for headers in ({}, {"X-Seat-Token": "0" * 48}):
        watched = client.get(f"/api/games/{game_id}", headers=headers).json()
        assert watched["you"] is None and watched["board"]["previews"] == {}
        assert watched["board"]["pieces"] == seated["board"]["pieces"] and watched["start"] == DUEL
    # the WebSocket is anonymous: it carries them while a person is to move (the players draw from it)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        assert sorted(ws.receive_json()["state"]["board"]["previews"]) == sorted(seated["legal_moves"])
    # nobody at all while the computer is to move
    versus = create(client, SHUFFLE.replace(" s ", " r "),
                    seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]).json()
    assert versus["state"]["player"] == 1 and versus["state"]["board"]["previews"] == {}


def test_the_person_who_waits_is_offered_premoves_from_the_rules(client: TestClient) -> None:
    created = create(client, DUEL).json()
    game_id, silver = created["id"], created["tokens"]["0"]
    seated = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": silver}).json()
    # Silver to move: Red waits and may choose among Red's moves in this position, as the rules list them
    ahead = waiting_side(damier.load("khet").state_from_position(DUEL))
    premove = seated["premove"]
    assert premove["player"] == 1 and premove["board"]["to_move"] == 1
    assert sorted(premove["legal_moves"]) == sorted(ahead.move_to_str(m) for m in ahead.legal_moves())
    assert premove["board"]["moves"]["b6b7"] == {"type": "step", "from": "b6", "to": "b7"}
    assert not set(premove["legal_moves"]) & set(seated["legal_moves"])
    assert client.get(f"/api/games/{game_id}").json()["premove"] is None  # a spectator chooses nothing
    # against the computer: while it thinks, the person may choose a premove; while the person is to move, nothing
    versus = create(client, SHUFFLE.replace(" s ", " r "),
                    seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]).json()
    assert versus["state"]["player"] == 1 and versus["state"]["premove"]["player"] == 0
    mine = create(client, SHUFFLE, seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]).json()
    assert mine["state"]["player"] == 0 and mine["state"]["premove"] is None


def test_a_claimed_repetition_draw_over_http(client: TestClient) -> None:
    created = create(client, SHUFFLE, options={"repetition": "claim"}).json()
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert move(client, game_id, silver, "claim").status_code == 422
    for text, token in [("e1e2", silver), ("f8f7", red), ("e2e1", silver), ("f7f8", red)] * 2:
        assert move(client, game_id, token, text).status_code == 200
    view = client.get(f"/api/games/{game_id}").json()
    assert view["board"]["can_claim"] and view["board"]["repetitions"] == 3 and "claim" in view["legal_moves"]
    view = move(client, game_id, silver, "claim").json()
    assert view["status"] == "finished" and view["result"]["winner"] is None
    assert "claimed" in view["result"]["reason"]


def test_rematch_keeps_the_start_position(client: TestClient) -> None:
    created = create(client, SHUFFLE).json()
    game_id, silver = created["id"], created["tokens"]["0"]
    client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": silver})
    rematch = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": silver}).json()
    assert client.get(f"/api/games/{rematch['id']}").json()["position"] == SHUFFLE


def test_the_computer_plays_from_a_start_position_with_red_to_move(client: TestClient) -> None:
    start = SHUFFLE.replace(" s ", " r ")
    created = create(client, start, seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for _ in range(600):
        view = client.get(f"/api/games/{game_id}").json()
        if view["version"] == 1:
            break
        time.sleep(0.1)
    assert view["version"] == 1 and view["moves"][0]["player"] == 1 and view["player"] == 0


def test_the_position_check_answers_the_board_or_the_reason(client: TestClient) -> None:
    usual = client.post("/api/positions", json={"game": "khet", "options": {"setup": "dynasty"}})
    assert usual.status_code == 200
    assert usual.json()["position"] == setup_position("dynasty") and usual.json()["player"] == 0
    given = client.post("/api/positions", json={"game": "khet", "position": DUEL}).json()
    assert given["position"] == DUEL and given["legal_moves"] == 13
    assert given["board"]["previews"] == {}  # the editor draws no shots: they are not computed
    assert {p["square"] for p in given["board"]["pieces"]} == {"a8", "b6", "e6", "j6", "e1", "j1"}
    bad = client.post("/api/positions", json={"game": "khet", "position": DUEL.replace("4Ys", "4ys")})
    assert bad.status_code == 422 and "j6 is reserved for Silver" in bad.json()["error"]
    wrong_game = client.post("/api/positions", json={"game": "nope"})
    assert wrong_game.status_code == 422 and "unknown game" in wrong_game.json()["error"]
    atoms = client.post("/api/positions", json={"game": "atoms", "options": {"rows": 2, "cols": 2},
                                                "position": "1r,./.,1b r rb 2"})
    assert atoms.status_code == 200 and atoms.json()["board"]["kind"] == "atoms"


def test_a_move_that_shot_a_piece_is_marked_in_the_move_list(client: TestClient) -> None:
    created = create(client, DUEL).json()
    game_id, silver, red = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    previews = created["state"]["board"]["previews"]  # where each move's shot ends: what it removes, if anything
    shot = next(m for m, beam in previews.items() if beam["removed"] is not None)
    quiet = next(m for m, beam in previews.items() if beam["removed"] is None)
    view = move(client, game_id, silver, shot).json()
    assert [m["mark"] for m in view["moves"]] == ["x"]
    client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": silver})
    view = client.post(f"/api/games/{game_id}/undo", headers={"X-Seat-Token": red}).json()
    assert view["moves"] == []
    view = move(client, game_id, silver, quiet).json()
    assert [m["mark"] for m in view["moves"]] == [""]  # marked again after the undo, not kept from before
