"""Fair hints and offers to the computer (issue "the arcade as players expect it"): hints only where no other
person plays (against the computer, puzzles) or in a casual game created with hints on, refused with 403
otherwise; a draw offered to the computer answered at once by its evaluation."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier

SMALL = {"rows": 3, "cols": 3}
#: Silver has a Pyramid more than Red (b2), nothing else differs: Red stands worse by its evaluation
SILVER_UP = "xs4pn4/10/10/10/10/10/1Yn8/4Pn4Xn s 0"
#: the same with the extra Pyramid Red's: Red stands better
RED_UP = "xs4pn4/10/10/10/10/10/1yn8/4Pn4Xn s 0"
#: two Pharaohs and two Sphinxes: a level position
LEVEL = "xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0"
VS_COMPUTER = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


@pytest.fixture(scope="module", autouse=True)
def warm(client: TestClient) -> None:
    """The worker has compiled the games (a computer has moved once): the answers below come within their
    budgets even on a loaded machine."""
    created = create(client, "atoms", [{"kind": "computer", "level": "easy"}, {"kind": "human"}], SMALL)
    deadline = time.monotonic() + 600
    while not client.get(f"/api/games/{created['id']}").json()["moves"]:
        assert time.monotonic() < deadline, "the computer never moved"
        time.sleep(0.2)


def create(client: TestClient, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
           **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "options": options or {}, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def hint(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token})


def offer(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers={"X-Seat-Token": token})


def test_a_hint_between_people_is_refused_with_403_and_changes_nothing(client: TestClient) -> None:
    created = create(client, "atoms", [{"kind": "human"}, {"kind": "human"}], SMALL)
    assert created["state"]["hints_allowed"] is False and created["state"]["hints_on"] is False
    answer = hint(client, created["id"], created["tokens"]["0"])
    assert answer.status_code == 403
    assert "between people" in answer.json()["error"] and "hints on" in answer.json()["error"]
    after = client.get(f"/api/games/{created['id']}").json()
    assert after["hints"] == 0 and after["version"] == created["state"]["version"]


def test_two_people_and_a_computer_get_no_hint_either(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}, {"kind": "human"}]
    created = create(client, "atoms", seats, {**SMALL, "players": 3})
    assert hint(client, created["id"], created["tokens"]["0"]).status_code == 403


def test_a_casual_game_with_hints_on_gives_hints_and_its_rematch_keeps_them(client: TestClient) -> None:
    created = create(client, "atoms", [{"kind": "human"}, {"kind": "human"}], SMALL, hints=True)
    game_id, red, blue = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert created["state"]["hints_allowed"] is True and created["state"]["hints_on"] is True
    answer = hint(client, game_id, red)
    assert answer.status_code == 200, answer.text
    assert answer.json()["move"] in created["state"]["legal_moves"]
    assert client.get(f"/api/games/{game_id}").json()["hints"] == 1
    client.post(f"/api/games/{game_id}/resign", headers={"X-Seat-Token": blue})
    rematch = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": red}).json()
    assert client.get(f"/api/games/{rematch['id']}").json()["hints_on"] is True


def test_against_the_computer_a_hint_is_given_and_the_view_says_so(client: TestClient) -> None:
    created = create(client, "atoms", VS_COMPUTER, SMALL)
    assert created["state"]["hints_allowed"] is True
    assert hint(client, created["id"], created["tokens"]["0"]).status_code == 200


def test_a_bad_hints_flag_is_422(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "atoms", "options": SMALL, "seats": VS_COMPUTER,
                                               "hints": "please"})
    assert response.status_code == 422 and "hints" in response.text


def test_the_computer_accepts_a_draw_when_it_stands_worse(client: TestClient) -> None:
    state = damier.load("khet").start_state(SILVER_UP, None)
    assert damier.load("khet").evaluate(state, 1) < 0  # the premise: Red stands worse
    created = create(client, "khet", VS_COMPUTER, start=SILVER_UP)
    answer = offer(client, created["id"], created["tokens"]["0"])
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["draw_declined"] is False and view["status"] == "finished"
    assert view["result"]["termination"] == "agreement" and view["result"]["winner"] is None


def test_the_computer_declines_a_draw_in_a_level_or_better_position_and_the_game_goes_on(client: TestClient) -> None:
    for start in (LEVEL, RED_UP):
        created = create(client, "khet", VS_COMPUTER, start=start)
        answer = offer(client, created["id"], created["tokens"]["0"])
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["draw_declined"] is True and view["status"] == "active", start
        assert view["draw_offer"] is None and view["result"] is None
        assert view["version"] == created["state"]["version"]


def test_between_people_an_offer_waits_for_the_other_player(client: TestClient) -> None:
    created = create(client, "khet", [{"kind": "human"}, {"kind": "human"}], start=SILVER_UP)
    view = offer(client, created["id"], created["tokens"]["0"]).json()
    assert view["draw_declined"] is False and view["draw_offer"] == 0 and view["status"] == "active"
