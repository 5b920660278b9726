"""Solo puzzles through the API, on Micro Robots: a one-player game room with a person's one seat; puzzles by
difficulty, by puzzle id, or of the day (the same all day, another the next); graded hints 1 to 4; the time
taken; undo, giving up (a resignation), no draws; a solved puzzle's result with its cost and optimum."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from fastapi.testclient import TestClient

from damier.server.rooms.game import puzzles
from tests.server.test_clocks import wait_until

GAME = "micro"


def headers(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def new_puzzle(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/puzzles", json={"game": GAME, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def hint(client: TestClient, created: dict[str, Any], level: int | None) -> Any:
    query = "" if level is None else f"?level={level}"
    return client.post(f"/api/games/{created['id']}/hint{query}", headers=headers(created["token"]))


def test_the_puzzle_of_the_day_is_the_same_all_day_and_another_the_next(client: TestClient) -> None:
    today = client.get(f"/api/puzzles/{GAME}/daily")
    assert today.status_code == 200
    puzzle = today.json()
    assert puzzle["date"] == puzzles.today().isoformat() and puzzle["board"]["kind"] == GAME
    assert client.get(f"/api/puzzles/{GAME}/daily").json() == puzzle
    assert client.get(f"/api/puzzles/{GAME}/daily?date={puzzle['date']}").json() == puzzle
    yesterday = (puzzles.today() - timedelta(days=1)).isoformat()
    other = client.get(f"/api/puzzles/{GAME}/daily?date={yesterday}").json()
    assert other["date"] == yesterday and (other["seed"], other["position"]) != (puzzle["seed"], puzzle["position"])
    # played: a game room on the same puzzle
    created = new_puzzle(client, daily=True)
    assert created["state"]["position"] == puzzle["position"] and created["state"]["seats"][0]["kind"] == "human"
    assert new_puzzle(client, daily=yesterday)["state"]["position"] == other["position"]


def test_bad_daily_requests_are_clear(client: TestClient) -> None:
    tomorrow = (date.today() + timedelta(days=2)).isoformat()
    assert client.get(f"/api/puzzles/{GAME}/daily?date={tomorrow}").status_code == 422
    assert client.get(f"/api/puzzles/{GAME}/daily?date=someday").status_code == 422
    assert client.get("/api/puzzles/atoms/daily").status_code == 404  # not a puzzle
    assert client.get("/api/puzzles/nope/daily").status_code == 404
    refused = client.post("/api/puzzles", json={"game": GAME, "daily": True, "options": {"expert": True}})
    assert refused.status_code == 422 and "its own options" in refused.json()["error"]


def test_puzzles_by_difficulty_by_id_and_a_new_one_each_time(client: TestClient) -> None:
    hard = new_puzzle(client, options={"difficulty": 5})
    assert hint(client, hard, 2).json()["length"] == 5
    by_id = new_puzzle(client, puzzle="A-1234-0000_R5_B1")
    assert by_id["state"]["board"]["puzzle"] == "A-1234-0000_R5_B1" and by_id["state"]["legal_moves"] == ["R1", "B5"]
    positions = {new_puzzle(client)["state"]["position"] for _ in range(3)}
    assert len(positions) > 1  # no seed: a random puzzle
    assert new_puzzle(client, seed=7)["state"]["position"] == new_puzzle(client, seed=7)["state"]["position"]
    for body, fragment in [({"puzzle": "nonsense"}, "bad puzzle"), ({"game": "atoms"}, "not a puzzle"),
                           ({"options": {"difficulty": 99}}, "difficulty")]:
        response = client.post("/api/puzzles", json={"game": GAME, **body})
        assert response.status_code == 422 and fragment in response.json()["error"], response.text


def test_graded_hints_one_to_four_and_a_solved_puzzle_has_its_cost_and_optimum(client: TestClient) -> None:
    created = new_puzzle(client, options={"difficulty": 3})
    answers = [hint(client, created, level).json() for level in (1, 2, 3, 4)]
    assert [a["kind"] for a in answers] == ["band", "length", "first", "path"]
    assert answers[0]["low"] <= 3 <= answers[0]["high"] and answers[1]["length"] == 3
    line = answers[3]["moves"]
    assert len(line) == 3 and answers[2]["move"] == line[0]
    assert hint(client, created, 5).status_code == 422
    assert hint(client, created, None).json()["move"] == line[0]  # no level: the hint agent's move
    assert client.get(f"/api/games/{created['id']}").json()["hints"] == 5
    state = created["state"]
    assert state["finished_at"] is None and state["seconds"] is None and state["now"]
    for move in line:
        state = client.post(f"/api/games/{created['id']}/moves", json={"move": move},
                            headers=headers(created["token"])).json()
    result = state["result"]
    assert result["termination"] == "solved" and result["cost"] == 3 and result["optimum"] == 3
    assert state["status"] == "finished" and state["finished_at"] is not None and state["seconds"] >= 0
    assert hint(client, created, 1).status_code == 409  # solved: nothing to hint


def test_a_puzzle_room_has_one_human_seat_undo_no_draws_and_giving_up_is_a_resignation(client: TestClient) -> None:
    refused = client.post("/api/games", json={"game": GAME, "seats": [{"kind": "computer", "level": "hard"}]})
    assert refused.status_code == 422 and "puzzle" in refused.json()["error"]
    created = new_puzzle(client, options={"difficulty": 4})
    game_id, token = created["id"], created["token"]
    first = created["state"]["legal_moves"][0]
    played = client.post(f"/api/games/{game_id}/moves", json={"move": first}, headers=headers(token)).json()
    assert played["version"] == 1 and played["can_undo"] is True
    undone = client.post(f"/api/games/{game_id}/undo", headers=headers(token)).json()
    assert undone["version"] == 0 and undone["position"] == created["state"]["position"]
    draw = client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=headers(token))
    assert draw.status_code == 409
    gave_up = client.post(f"/api/games/{game_id}/resign", headers=headers(token)).json()
    assert gave_up["status"] == "finished" and gave_up["result"]["termination"] == "resignation"
    assert gave_up["seconds"] is not None
    again = client.post(f"/api/games/{game_id}/rematch", headers=headers(token)).json()
    replay = client.get(f"/api/games/{again['id']}", headers=headers(again["token"])).json()
    assert replay["position"] == created["state"]["position"] and replay["you"] == 0  # the same puzzle again


def test_the_puzzle_of_the_day_uses_the_options_the_game_declares_for_it(client: TestClient) -> None:
    import damier

    declared = damier.load(GAME).info.daily
    assert declared  # Micro Robots: no one- or two-move puzzle of the day
    for back in range(8):
        day = (puzzles.today() - timedelta(days=back)).isoformat()  # the server's day is UTC
        puzzle = client.get(f"/api/puzzles/{GAME}/daily?date={day}").json()
        assert {k: puzzle["options"][k] for k in declared} == dict(declared)
        state = damier.load(GAME, **puzzle["options"]).state_from_position(puzzle["position"])
        assert damier.load(GAME).info.hook("solver")(state, None, None).cost >= 3


def test_reset_takes_every_move_back_and_a_finished_puzzle_shows_an_optimal_line(client: TestClient) -> None:
    import damier

    created = new_puzzle(client, puzzle="A-1234-0000_R5_B1")
    game_id, token = created["id"], created["token"]
    assert created["state"]["solution"] is None  # not while the puzzle is played
    for move in ("R1", "R5", "R1"):  # a detour
        client.post(f"/api/games/{game_id}/moves", json={"move": move}, headers=headers(token))
    reset = client.post(f"/api/games/{game_id}/undo?all=true", headers=headers(token)).json()
    assert reset["moves"] == [] and reset["position"] == created["state"]["position"]
    again = client.post(f"/api/games/{game_id}/undo?all=true", headers=headers(token))
    assert again.status_code == 409  # nothing left to take back; nothing changed
    for move in ("R1", "R5", "B5", "B1"):  # solved, one move over the optimum
        view = client.post(f"/api/games/{game_id}/moves", json={"move": move}, headers=headers(token)).json()
    assert view["result"]["cost"] == 4 and view["result"]["optimum"] == 2
    # the solution is searched in the worker pool once the puzzle is over, then shown
    line = wait_until(lambda: client.get(f"/api/games/{game_id}").json()["solution"])
    state = damier.load(GAME).state_from_position("A-1234-0000_R5_B1")
    for move in line:
        state.play(state.parse_move(move))
    assert state.outcome() is not None and state.outcome().cost == 2  # type: ignore[union-attr]


def test_taking_every_move_back_is_for_games_with_one_human_seat(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "atoms", "options": {"rows": 3, "cols": 3},
                                           "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    first = made["tokens"]["0"]
    client.post(f"/api/games/{made['id']}/moves", json={"move": "A1"}, headers=headers(first))
    refused = client.post(f"/api/games/{made['id']}/undo?all=true", headers=headers(first))
    assert refused.status_code == 409 and "one human seat" in refused.json()["error"]
