"""How a game starts and ends outside its rules, as on lichess: clocks that run from each seat's first move, a
first move that is overdue aborting a game between people (longer while someone has not joined), aborting by hand
until every seat has moved, and claiming a game that the other person left."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.server.rooms.game import clocks, moves
from tests.server.test_clocks import TWO_PEOPLE, create, first_moves, move, wait_until


@pytest.fixture
def hands(client: TestClient) -> Iterator[list[float]]:
    """The arcade's clock, moved by hand (``hands[0]`` seconds ahead of the real one)."""
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    offset = [0.0]
    arcade.clock = lambda: time.time() + offset[0]
    yield offset
    arcade.clock = time.time


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    answer: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=headers).json()
    return answer


def hello(socket: Any, token: str) -> None:
    """This socket plays the seat of ``token`` (as the game page says when it opens)."""
    socket.send_json({"type": "hello", "token": token})


def receive_until(socket: Any, check: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = socket.receive_json()
        if check(message):
            return message


# ----- clocks run from each seat's first move -------------------------------------------------------------------

def test_a_host_waiting_for_a_friend_never_loses_on_time(client: TestClient, hands: list[float]) -> None:
    created = create(client, {"minutes": 1, "increment": 0}).json()
    game_id = created["id"]
    hands[0] = 50.0  # far past the host's minute: its clock did not run
    state = view(client, game_id)
    assert state["status"] == "active" and state["result"] is None
    assert state["clock"]["remaining"] == [60_000, 60_000] and state["clock"]["running"] is None
    assert state["clock"]["first_move"] == 0
    # the friend has not joined: the host's first move may wait (JOIN_SECONDS), then the game is aborted
    assert 0 < state["clock"]["abort_in"] <= (clocks.JOIN_SECONDS - 50) * 1000


def test_against_the_computer_the_persons_clock_starts_at_their_first_move(client: TestClient,
                                                                         hands: list[float]) -> None:
    created = create(client, {"minutes": 1, "increment": 2},
                     seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]).json()
    game_id, token = created["id"], created["tokens"]["0"]
    hands[0] = clocks.JOIN_SECONDS + 100  # no first-move deadline against the computer: the game waits
    state = view(client, game_id)
    assert state["status"] == "active" and state["clock"]["abort_in"] is None
    assert state["clock"]["remaining"][0] == 60_000 and state["abortable"] is True
    moved = move(client, game_id, token, "A1").json()
    assert moved["clock"]["remaining"] == [60_000, 60_000]  # a first move is free, and gets no increment
    after = wait_until(lambda: (s := view(client, game_id))["version"] >= 2 and s)
    assert after["clock"]["remaining"][1] == 60_000  # the computer's first move too
    assert after["clock"]["running"] == 0 and after["abortable"] is False  # the person's clock runs now


# ----- an overdue first move aborts a game between people -----------------------------------------------------

def test_an_overdue_first_move_aborts_the_game_once_both_have_joined(client: TestClient, hands: list[float]) -> None:
    created = create(client, {"minutes": 3, "increment": 2}).json()
    game_id, tokens = created["id"], created["tokens"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as red, \
            client.websocket_connect(f"/api/games/{game_id}/ws") as blue:
        hello(red, tokens["0"])
        hello(blue, tokens["1"])
        joined = receive_until(blue, lambda m: m.get("type") == "state"
                               and m["state"]["clock"]["abort_in"] is not None
                               and m["state"]["clock"]["abort_in"] <= clocks.FIRST_MOVE_SECONDS * 1000)
        assert joined["state"]["status"] == "active"
        hands[0] = clocks.FIRST_MOVE_SECONDS - 5  # not yet
        assert view(client, game_id)["status"] == "active"
        hands[0] = clocks.FIRST_MOVE_SECONDS + 1
        state = view(client, game_id)
    assert state["status"] == "finished" and state["result"]["termination"] == "aborted"
    assert state["result"]["winner"] is None and state["result"]["returns"] == [0.0, 0.0]
    assert state["result"]["reason"] == "Red made no first move in time: game aborted"
    assert state["clock"]["remaining"] == [180_000, 180_000]
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["result"]["termination"] == "aborted"


def test_the_second_first_move_counts_from_the_first_or_from_the_late_joiner(client: TestClient,
                                                                          hands: list[float]) -> None:
    created = create(client, {"minutes": 3, "increment": 2}).json()
    game_id, tokens = created["id"], created["tokens"]
    assert move(client, game_id, tokens["0"], "A1").status_code == 200  # Red moves before Blue opened the game
    hands[0] = clocks.FIRST_MOVE_SECONDS * 4  # Blue has not joined: still on time
    assert view(client, game_id)["status"] == "active"
    with client.websocket_connect(f"/api/games/{game_id}/ws") as blue:
        hello(blue, tokens["1"])  # Blue arrives now: 30 s from now
        receive_until(blue, lambda m: m.get("type") == "state"
                      and (m["state"]["clock"]["abort_in"] or 0) <= clocks.FIRST_MOVE_SECONDS * 1000)
        hands[0] += clocks.FIRST_MOVE_SECONDS - 3
        assert view(client, game_id)["status"] == "active"
        hands[0] += 4
        state = view(client, game_id)
    assert state["result"]["termination"] == "aborted"
    assert state["result"]["reason"] == "Blue made no first move in time: game aborted"


def test_a_game_nobody_joins_is_aborted_after_the_join_time(client: TestClient, hands: list[float]) -> None:
    created = create(client, {"minutes": 5, "increment": 3}).json()
    hands[0] = clocks.JOIN_SECONDS + 1
    assert view(client, created["id"])["result"]["termination"] == "aborted"


def test_the_server_aborts_an_overdue_game_with_nobody_asking(client: TestClient, hands: list[float]) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    created = create(client, {"minutes": 5, "increment": 3}).json()
    game_id = created["id"]
    arcade.rooms.forget(arcade.rooms.peek(game_id))  # out of memory: only the sweep can see it
    hands[0] = clocks.JOIN_SECONDS + 1
    client.portal.call(moves.sweep, arcade)
    row = arcade.storage.games.load(game_id)
    assert row.status == "finished" and row.result["termination"] == "aborted"


def test_no_first_move_deadline_without_a_clock(client: TestClient, hands: list[float]) -> None:
    created = client.post("/api/games", json={"game": "atoms", "options": {"rows": 5, "cols": 5},
                                              "seats": TWO_PEOPLE}).json()
    hands[0] = clocks.JOIN_SECONDS * 10
    state = view(client, created["id"])
    assert state["status"] == "active" and state["abortable"] is True


# ----- aborting by hand ---------------------------------------------------------------------------------------

def test_either_player_may_abort_until_both_have_moved(client: TestClient) -> None:
    created = create(client, {"minutes": 3, "increment": 2}).json()
    game_id, tokens = created["id"], created["tokens"]
    assert move(client, game_id, tokens["0"], "A1").status_code == 200
    assert view(client, game_id)["abortable"] is True
    answer = client.post(f"/api/games/{game_id}/abort", headers={"X-Seat-Token": tokens["1"]})
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert state["status"] == "finished" and state["result"]["termination"] == "aborted"
    assert state["result"]["reason"] == "Blue aborted the game" and state["abortable"] is False


def test_abort_after_both_have_moved_is_refused_and_changes_nothing(client: TestClient) -> None:
    created = create(client, {"minutes": 3, "increment": 2}).json()
    game_id, tokens = created["id"], created["tokens"]
    first_moves(client, game_id, tokens)
    before = view(client, game_id)
    refused = client.post(f"/api/games/{game_id}/abort", headers={"X-Seat-Token": tokens["0"]})
    assert refused.status_code == 409
    assert "aborted only until every player has made a first move" in refused.json()["error"]
    assert "resign, or offer a draw" in refused.json()["error"]
    after = view(client, game_id)
    assert after["status"] == "active" and after["version"] == before["version"]
    assert client.post(f"/api/games/{game_id}/abort").status_code == 403  # no seat: nothing either


def test_a_game_against_the_computer_may_be_aborted_before_the_persons_first_move(client: TestClient) -> None:
    created = create(client, None, seats=[{"kind": "computer", "level": "easy"}, {"kind": "human"}])
    game_id, token = created.json()["id"], created.json()["tokens"]["1"]
    wait_until(lambda: view(client, game_id)["version"] >= 1)  # the computer made its first move
    state = client.post(f"/api/games/{game_id}/abort", headers={"X-Seat-Token": token}).json()
    assert state["result"]["termination"] == "aborted" and state["result"]["reason"] == "Blue aborted the game"


# ----- claiming a game the other left --------------------------------------------------------------------------

def test_a_player_may_claim_the_win_or_a_draw_once_the_other_has_left(client: TestClient,
                                                                     hands: list[float]) -> None:
    for claim, winner in (("win", 0), ("draw", None)):
        created = create(client, {"minutes": 5, "increment": 3}).json()
        game_id, tokens = created["id"], created["tokens"]
        with client.websocket_connect(f"/api/games/{game_id}/ws") as red:
            hello(red, tokens["0"])
            with client.websocket_connect(f"/api/games/{game_id}/ws") as blue:
                hello(blue, tokens["1"])
                first_moves(client, game_id, tokens)
                here = receive_until(red, lambda m: m.get("type") == "presence" and "1" in m["seats"])
                assert here["left"] == {}
                early = client.post(f"/api/games/{game_id}/claim", json={"result": claim},
                                    headers={"X-Seat-Token": tokens["0"]})
                assert early.status_code == 409 and "Blue is still here" in early.json()["error"]
            # Blue's page closed: Red hears it, and when the claim becomes possible
            gone = receive_until(red, lambda m: m.get("type") == "presence" and "1" not in m["seats"])
            wait = clocks.leave_seconds({"minutes": 5})
            assert gone["claim_after"] == wait * 1000 and 0 <= gone["left"]["1"] < 2_000
            soon = client.post(f"/api/games/{game_id}/claim", json={"result": claim},
                               headers={"X-Seat-Token": tokens["0"]})
            assert soon.status_code == 409 and f"once they have been gone {wait:.0f} s" in soon.json()["error"]
            assert view(client, game_id)["status"] == "active"
            hands[0] += wait + 1
            state = client.post(f"/api/games/{game_id}/claim", json={"result": claim},
                                headers={"X-Seat-Token": tokens["0"]}).json()
        assert state["status"] == "finished" and state["result"]["termination"] == "abandonment"
        assert state["result"]["winner"] == winner
        expected = "Blue left the game: Red wins" if claim == "win" else "Blue left the game: draw claimed by Red"
        assert state["result"]["reason"] == expected


def test_a_claim_before_both_moved_or_against_the_computer_is_refused(client: TestClient,
                                                                     hands: list[float]) -> None:
    created = create(client, {"minutes": 5, "increment": 3}).json()
    game_id, tokens = created["id"], created["tokens"]
    hands[0] += 100
    early = client.post(f"/api/games/{game_id}/claim", json={"result": "win"}, headers={"X-Seat-Token": tokens["0"]})
    assert early.status_code == 409 and "abort the game instead" in early.json()["error"]
    alone = create(client, None, seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]).json()
    refused = client.post(f"/api/games/{alone['id']}/claim", json={"result": "win"},
                          headers={"X-Seat-Token": alone["tokens"]["0"]})
    assert refused.status_code == 409 and "there is nobody else here" in refused.json()["error"]
    bad = client.post(f"/api/games/{game_id}/claim", json={"result": "everything"},
                      headers={"X-Seat-Token": tokens["0"]})
    assert bad.status_code == 422 and "result" in bad.json()["error"]
    assert view(client, game_id)["status"] == "active"
