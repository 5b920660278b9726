"""Jewels and Lasers over the arcade API: the seed's board, the robots' turn played by the server after each man's
move (a chance event, stored as a move of no seat), illegal moves named and refused with nothing changed, and the
agreement to stop, which the player with more jewels wins."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import damier

SMALL = {"size": 6, "jewels": 2, "walls": 2, "robots": 2}
HUMANS = [{"kind": "human"}, {"kind": "human"}]
#: Gold on A3 and Silver on F4; A2 is lit by the robot on B2; jewels on E2 and B5
START = "6/1R2J1/AW4/4WB/1J2R1/6 a 1-0 AB 0"


def create(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"game": "jewels", "options": SMALL, "seats": HUMANS, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(client: TestClient, game_id: str, token: str, text: str) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json={"move": text}, headers={"X-Seat-Token": token})


def test_the_seed_draws_the_board_and_the_placement_comes_first(client: TestClient) -> None:
    created = create(client, seed=42)
    view = created["state"]
    expected = damier.load("jewels", **SMALL).new_state(42)
    assert view["position"] == expected.position() and view["board"]["phase"] == "place"
    assert sorted(view["legal_moves"]) == sorted(expected.move_to_str(m) for m in expected.legal_moves())
    assert all(entry["type"] == "place" for entry in view["board"]["moves"].values())


def test_the_robots_step_after_each_move_and_the_view_carries_both(client: TestClient) -> None:
    created = create(client, start=START)
    game_id, gold = created["id"], created["tokens"]["0"]
    response = move(client, game_id, gold, "A3-A4")
    assert response.status_code == 200, response.text
    view = response.json()
    moves = view["moves"]
    assert moves[0] == {"ply": 1, "move": "A3-A4", "player": 0, "mark": ""}
    assert moves[1]["player"] == damier.CHANCE and moves[1]["move"].startswith("r")
    kinds = [e["type"] for e in view["events"]]
    assert kinds[0] == "slide" and "step" in kinds and kinds[-1] == "lit"
    if view["result"] is None:
        assert view["player"] == 1


def test_an_illegal_move_is_named_and_changes_nothing(client: TestClient) -> None:
    created = create(client, start=START)
    game_id, gold = created["id"], created["tokens"]["0"]
    response = move(client, game_id, gold, "A3-A1")
    assert response.status_code in (400, 409, 422)
    assert "A2 is lit by the robot on B2" in response.json()["error"]
    response = move(client, game_id, gold, "jump")
    assert response.status_code in (400, 422) and "not a move" in response.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["position"] == START


def test_the_agreement_to_stop_is_won_by_the_player_with_more_jewels(client: TestClient) -> None:
    created = create(client, start=START)
    game_id, gold, silver = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    offer = client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers={"X-Seat-Token": silver})
    assert offer.status_code == 200, offer.text
    accept = client.post(f"/api/games/{game_id}/draw", json={"action": "accept"}, headers={"X-Seat-Token": gold})
    assert accept.status_code == 200, accept.text
    result = accept.json()["result"]
    assert result["winner"] == 0 and result["termination"] == "agreement" and "Gold wins 1-0" in result["reason"]


def test_the_catalog_describes_the_client(client: TestClient) -> None:
    entry = next(g for g in client.get("/api/catalog").json() if g["name"] == "jewels")
    assert entry["has_chance"] and entry["client"]["module"] == "jewels"
    assert "jewels-greedy" in entry["agents"]
