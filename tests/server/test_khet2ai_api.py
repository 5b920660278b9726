"""Khet2-AI position strings over the arcade API: the position check the editor's text box uses (POST
/api/positions) and game creation with a start position both read them through ``state_from_position``, and
answer in damier's format (what the editor's box shows once the server has read the pasted string)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from damier.games.khet.setup import setup_position
from tests.server.test_khet_api import DUEL, HUMANS, create, move

#: DUEL (Silver's first shot removes the Red Pyramid on e6) as a Khet2-AI string: no quiet-ply count
DUEL_KHET2AI = "x39//1k2p44P3/////4K4X1 0"
#: Khet2-AI's own Dynasty setup (its src/CommsHandler.h)
DYNASTY_KHET2AI = "x33p3a3p23/5k4/p13p3a3s23/p21s11P41P23/3p41p21S11P4/3S2A1P13P3/4K5/3P4A1P13X1 0"


def test_the_position_check_reads_a_khet2ai_string(client: TestClient) -> None:
    answer = client.post("/api/positions", json={"game": "khet", "position": DUEL_KHET2AI})
    assert answer.status_code == 200, answer.text
    given = answer.json()
    assert given["position"] == DUEL and given["player"] == 0 and given["legal_moves"] == 13
    assert {p["square"] for p in given["board"]["pieces"]} == {"a8", "b6", "e6", "j6", "e1", "j1"}
    dynasty = client.post("/api/positions", json={"game": "khet", "position": f"  {DYNASTY_KHET2AI}\n"}).json()
    assert dynasty["position"] == setup_position("dynasty")
    red = client.post("/api/positions", json={"game": "khet", "position": DYNASTY_KHET2AI[:-1] + "1"}).json()
    assert red["player"] == 1 and red["position"] == setup_position("dynasty")[:-3] + "r 0"


def test_the_position_check_explains_a_bad_khet2ai_string(client: TestClient) -> None:
    bad = client.post("/api/positions", json={"game": "khet", "position": DUEL_KHET2AI.replace("4P3", "4p3")})
    assert bad.status_code == 422 and "j6 is reserved for Silver" in bad.json()["error"]
    neither = client.post("/api/positions", json={"game": "khet", "position": "hello world"})
    assert neither.status_code == 422
    assert "3 fields in damier's format" in neither.json()["error"] and "2 in Khet2-AI's" in neither.json()["error"]


def test_a_game_starts_from_a_khet2ai_string(client: TestClient) -> None:
    created = create(client, DUEL_KHET2AI)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    view = created.json()["state"]
    assert view["position"] == DUEL and view["player"] == 0
    played = move(client, game_id, created.json()["tokens"]["0"], "e1d1")
    assert played.status_code == 200, played.text
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["start"] == DUEL  # records carry damier's string
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert replay["frames"][0]["board"]["position"] == DUEL


def test_a_finished_or_bad_khet2ai_start_is_refused(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "khet", "seats": HUMANS, "start": "x39///////9X1 0"})
    assert response.status_code == 422 and "bad start position" in response.json()["error"]
    assert "needs exactly one Pharaoh" in response.json()["error"]
