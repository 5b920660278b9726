"""Games whose start is drawn from a seed (``GameInfo.seeded_setup``, Jewels and Lasers' boards here) over the
arcade API: a new board for each new game, the seed in the view, a seed chosen by the request, the rematch on the
same board or a new one, and the seeds refused with a 422 that says what is accepted."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import damier
from damier.core import registry
from damier.server.rooms.game.creation import MAX_SEED

SMALL = {"size": 8, "jewels": 4, "walls": 6, "robots": 2}
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(client: TestClient, game: str = "jewels", **extra: Any) -> Any:
    body = {"game": game, "seats": HUMANS, **({"options": SMALL} if game == "jewels" else {}), **extra}
    return client.post("/api/games", json=body)


def created(client: TestClient, **extra: Any) -> dict[str, Any]:
    response = create(client, **extra)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def finished(client: TestClient, **extra: Any) -> tuple[str, dict[str, str]]:
    """A game over (Silver resigned): its id and tokens."""
    game = created(client, **extra)
    client.post(f"/api/games/{game['id']}/resign", headers={"X-Seat-Token": game["tokens"]["1"]})
    return game["id"], game["tokens"]


def rematch(client: TestClient, game_id: str, token: str, board: str | None = None) -> Any:
    query = "" if board is None else f"?board={board}"
    return client.post(f"/api/games/{game_id}/rematch{query}", headers={"X-Seat-Token": token})


def test_the_games_that_declare_a_seeded_setup() -> None:
    assert {i.name for i in registry.all_infos() if i.seeded_setup} == {"jewels", "micro", "ricochet"}
    assert registry.info("jewels").to_json()["seeded_setup"] is True
    assert registry.info("khet").to_json()["seeded_setup"] is False


def test_each_new_game_draws_a_new_board_and_its_view_says_the_seed(client: TestClient) -> None:
    games = [created(client)["state"] for _ in range(4)]
    seeds = [view["seed"] for view in games]
    assert all(isinstance(seed, int) and 0 <= seed < 10**9 for seed in seeds)
    assert len(set(seeds)) == len(seeds)
    assert len({view["position"] for view in games}) > 1
    game = damier.load("jewels", **SMALL)
    for view in games:  # the seed shown is the board's
        assert view["position"] == game.new_state(view["seed"]).position()


def test_the_seed_given_draws_its_board_every_time(client: TestClient) -> None:
    first, again = created(client, seed=1234)["state"], created(client, seed=1234)["state"]
    assert first["seed"] == again["seed"] == 1234
    assert first["position"] == again["position"] == damier.load("jewels", **SMALL).new_state(1234).position()
    assert created(client, seed=MAX_SEED)["state"]["seed"] == MAX_SEED


def test_a_seed_out_of_range_is_refused_saying_what_is_accepted(client: TestClient) -> None:
    for seed in (-1, MAX_SEED + 1, 2**70, "board 5", 1.5):
        response = create(client, seed=seed)
        assert response.status_code == 422, seed
        assert "seed" in response.json()["error"], response.text


def test_a_seed_for_a_game_whose_start_no_seed_draws_is_refused(client: TestClient) -> None:
    response = create(client, game="khet", seed=5)
    assert response.status_code == 422
    error = response.json()["error"]
    assert "Khet 2.0 has no seeded setup" in error and "send no seed" in error and "jewels" in error
    # without one, its view has none
    view = create(client, game="khet").json()["state"]
    assert view["seed"] is None


def test_a_game_from_a_start_position_draws_no_seed(client: TestClient) -> None:
    start = damier.load("jewels", **SMALL).new_state(3).position()
    view = created(client, start=start)["state"]
    assert view["seed"] is None and view["position"] == start


def test_a_rematch_keeps_the_board_by_default(client: TestClient) -> None:
    game_id, tokens = finished(client, seed=77)
    answer = rematch(client, game_id, tokens["0"]).json()
    assert answer["seed"] == 77
    view = client.get(f"/api/games/{answer['id']}").json()
    assert view["seed"] == 77 and view["position"] == damier.load("jewels", **SMALL).new_state(77).position()


def test_a_rematch_on_a_new_board_draws_a_new_seed_and_the_other_seat_joins_it(client: TestClient) -> None:
    game_id, tokens = finished(client, seed=77)
    first = rematch(client, game_id, tokens["1"], "new")
    assert first.status_code == 200, first.text
    second = rematch(client, game_id, tokens["0"], "same").json()  # the rematch exists: the asker joins it
    assert second["id"] == first.json()["id"] and second["seed"] == first.json()["seed"] != 77
    view = client.get(f"/api/games/{second['id']}").json()
    assert view["seed"] == second["seed"] and view["options"] == {**view["options"], **SMALL}


def test_a_rematch_board_must_be_same_or_new(client: TestClient) -> None:
    game_id, tokens = finished(client)
    response = rematch(client, game_id, tokens["0"], "other")
    assert response.status_code == 422 and "board" in response.json()["error"]
    assert "'same' or 'new'" in response.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["rematch"] is None  # nothing changed


def test_a_new_board_for_a_game_without_a_seeded_setup_is_refused(client: TestClient) -> None:
    game = create(client, game="khet").json()
    client.post(f"/api/games/{game['id']}/resign", headers={"X-Seat-Token": game["tokens"]["1"]})
    response = rematch(client, game["id"], game["tokens"]["0"], "new")
    assert response.status_code == 422 and "Khet 2.0 has no seeded setup" in response.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["rematch"] is None
    same = rematch(client, game["id"], game["tokens"]["0"])
    assert same.status_code == 200 and same.json()["seed"] is None


def test_the_position_check_draws_the_board_of_a_seed_for_the_new_game_form(client: TestClient) -> None:
    body = {"game": "jewels", "options": SMALL, "seed": 4321}
    answer = client.post("/api/positions", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["position"] == damier.load("jewels", **SMALL).new_state(4321).position()
    refused = client.post("/api/positions", json={"game": "khet", "seed": 1})
    assert refused.status_code == 422 and "no seeded setup" in refused.json()["error"]
    assert client.post("/api/positions", json={**body, "seed": MAX_SEED + 1}).status_code == 422
