"""The analysis board's routes: positions to try moves on, and the engine's analysis of a position (the search's
depths as they complete, a puzzle's optimal solution), bounded by a deadline, the per-client limit and a stop."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier
from damier.ai.analysis import SOLVER_NODES, kind
from damier.core import registry
from damier.core.game import Termination
from damier.server import analysis
from damier.server.limits import Limits
from tests.server.conftest import GENEROUS, make_app

SEARCHED = [info.name for info in registry.all_infos() if kind(info) == "search"]
SOLVED = [info.name for info in registry.all_infos() if kind(info) == "solver"]
#: polls of an analysis before a test gives up on it ending (each 0.1 s apart: far more than its hard deadline)
POLLS = 600


def warmed(client: TestClient) -> TestClient:
    """``client`` once its worker has loaded the kernels (the pool warms up first: an analysis asked meanwhile
    waits, and passes its deadline while the kernels compile)."""
    for _ in range(40):
        position = start_position(client, SEARCHED[0])["position"]
        started = client.post("/api/analysis", json={"game": SEARCHED[0], "position": position}).json()
        if finished(client, started["id"])["reason"] != "deadline":
            return client
    raise AssertionError("the worker never warmed up")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "arcade.sqlite3"
    with TestClient(make_app(f"sqlite:///{db}", workers=1, limits=GENEROUS, analysis_seconds=2.0)) as test_client:
        yield warmed(test_client)


def start_position(client: TestClient, game: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = client.post("/api/analysis/board", json={"game": game, "options": options or {}})
    assert answer.status_code == 200, answer.text
    return answer.json()


def finished(client: TestClient, analysis_id: str) -> dict[str, Any]:
    for _ in range(POLLS):
        view = client.get(f"/api/analysis/{analysis_id}").json()
        if view["status"] != "running":
            return view
        time.sleep(0.1)
    raise AssertionError(f"analysis {analysis_id} never ended: {view}")


def test_the_catalog_says_how_each_game_is_analysed(client: TestClient) -> None:
    catalog = {entry["name"]: entry["analysis"] for entry in client.get("/api/catalog").json()}
    assert catalog == {info.name: kind(info) for info in registry.all_infos()}
    assert SEARCHED and SOLVED


@pytest.mark.parametrize("name", SEARCHED)
def test_a_search_reports_deeper_iterations_with_legal_lines(client: TestClient, name: str) -> None:
    board = start_position(client, name)
    started = client.post("/api/analysis", json={"game": name, "position": board["position"]})
    assert started.status_code == 201, started.text
    assert started.json()["kind"] == "search"
    view = finished(client, started.json()["id"])
    assert view["status"] == "done", view
    depths = [it["depth"] for it in view["iterations"]]
    assert len(depths) >= 2 and depths == sorted(set(depths)), depths
    game = damier.load(name, **board["options"])
    for iteration in view["iterations"]:
        assert iteration["pv"], iteration
        state = game.state_from_position(board["position"])
        for move in iteration["pv"]:
            state.play(state.parse_move(move))  # raises when the line is not legal


@pytest.mark.parametrize("name", SOLVED)
def test_a_puzzle_is_analysed_by_its_solver_with_the_optimal_length(client: TestClient, name: str) -> None:
    board = start_position(client, name)
    started = client.post("/api/analysis", json={"game": name, "options": board["options"],
                                                  "position": board["position"]})
    assert started.status_code == 201, started.text
    view = finished(client, started.json()["id"])
    assert view["kind"] == "solver" and view["status"] == "done", view
    [answer] = view["iterations"]
    game = damier.load(name, **board["options"])
    state = game.state_from_position(board["position"])
    direct = game.info.hook("solver")(state.copy(), None, SOLVER_NODES)
    assert answer["length"] == direct.cost == len(answer["pv"]) and answer["optimal"]
    for move in answer["pv"]:
        state.play(state.parse_move(move))
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == Termination.SOLVED


def test_a_move_tried_on_the_board_gives_the_next_position_and_its_legal_moves(client: TestClient) -> None:
    for name in SEARCHED:
        board = start_position(client, name)
        move = board["legal_moves"][0]
        after = client.post("/api/analysis/board", json={"game": name, "position": board["position"], "move": move})
        assert after.status_code == 200, after.text
        state = damier.load(name).state_from_position(board["position"])
        state.play(state.parse_move(move))
        if state.player >= 0:  # without chance, the position is the rules' own
            assert after.json()["position"] == state.position()
        reached = damier.load(name).state_from_position(after.json()["position"])
        assert after.json()["legal_moves"] == [reached.move_to_str(m) for m in reached.legal_moves()]
        assert after.json()["move"] == move and after.json()["player"] >= 0


def test_a_line_of_moves_leads_to_the_position_a_game_reached(client: TestClient) -> None:
    name = SEARCHED[0]
    state = damier.load(name).new_state(seed=3)
    for number in range(4):
        legal = state.legal_moves()
        state.play(legal[number * 7 % len(legal)])
    answer = client.post("/api/analysis/board", json={"game": name, "moves": state.moves_in_notation()})
    assert answer.status_code == 200 and answer.json()["position"] == state.position()


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "nogame", "position": "x"}, 422, "known games"),
    ({"game": SEARCHED[0], "options": {"colour": 7}, "position": "x"}, 422, "colour"),
    ({"game": SEARCHED[0], "position": "not a position"}, 422, "bad position"),
    ({"game": SEARCHED[0]}, 422, "position"),
    ({"game": SEARCHED[0], "position": "x" * 3000}, 422, "position"),
])
def test_bad_analysis_requests_get_4xx_saying_what_is_wrong(client: TestClient, body: dict[str, Any], status: int,
                                                           words: str) -> None:
    answer = client.post("/api/analysis", json=body)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"].lower(), answer.json()


def test_bad_board_requests_and_unknown_analyses(client: TestClient) -> None:
    name = SEARCHED[0]
    position = start_position(client, name)["position"]
    bad_move = client.post("/api/analysis/board", json={"game": name, "position": position, "move": "zz99"})
    assert bad_move.status_code == 422 and "cannot be played here" in bad_move.json()["error"]
    bad_line = client.post("/api/analysis/board", json={"game": name, "position": position, "moves": ["zz99"]})
    assert bad_line.status_code == 422 and "move 1 of the line" in bad_line.json()["error"]
    assert client.get("/api/analysis/nosuchanalysis").status_code == 404
    assert client.post("/api/analysis/nosuchanalysis/stop").status_code == 404


def test_an_analysis_stops_at_its_deadline(client: TestClient) -> None:
    # the app's analyses search 2 s: the opening of a game with many moves is not decided that fast
    name = max(SEARCHED, key=lambda n: len(start_position(client, n)["legal_moves"]))
    started = client.post("/api/analysis", json={"game": name, "position": start_position(client, name)["position"]})
    view = finished(client, started.json()["id"])
    assert view["status"] == "done" and view["reason"] == "time", view
    assert view["iterations"] and view["iterations"][-1]["depth"] < 64


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    app = make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1, limits=Limits(hints=1),
                     analysis_seconds=600.0)
    with TestClient(app) as test_client:
        yield test_client  # not warmed: the limit is counted whatever the worker does


def reported(client: TestClient, analysis_id: str) -> None:
    """Wait until the analysis has a depth: it runs in the worker."""
    for _ in range(POLLS):
        if client.get(f"/api/analysis/{analysis_id}").json()["iterations"]:
            return
        time.sleep(0.1)
    raise AssertionError(f"analysis {analysis_id} never reported a depth")


def test_analyses_past_the_hint_limit_get_429_until_one_is_stopped(limited: TestClient) -> None:
    name = max(SEARCHED, key=lambda n: len(start_position(limited, n)["legal_moves"]))
    body = {"game": name, "position": start_position(limited, name)["position"]}
    first = limited.post("/api/analysis", json=body)
    assert first.status_code == 201, first.text
    reported(limited, first.json()["id"])  # searching for 600 s in the only worker
    refused = limited.post("/api/analysis", json=body)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1, refused.text
    assert "analyses or hints" in refused.json()["error"]
    stopped = limited.post(f"/api/analysis/{first.json()['id']}/stop")
    assert stopped.json()["status"] == "stopped"
    # the place comes back once the worker is done: a search stops at once (far within the first's 600 s)
    for _ in range(POLLS):
        second = limited.post("/api/analysis", json=body)
        if second.status_code != 429:
            break
        time.sleep(0.1)
    assert second.status_code == 201, second.text
    # the stopped search let the only worker go at once: the next one runs long before the first's 600 s
    reported(limited, second.json()["id"])
    limited.post(f"/api/analysis/{second.json()['id']}/stop")


def test_an_analysis_nobody_reads_any_more_is_stopped(limited: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "ABANDON_SECONDS", 0.5)
    name = max(SEARCHED, key=lambda n: len(start_position(limited, n)["legal_moves"]))
    body = {"game": name, "position": start_position(limited, name)["position"]}
    first = limited.post("/api/analysis", json=body)
    assert first.status_code == 201, first.text
    # its page is gone: nobody reads it, so it is stopped and the address may analyse again (limit 1)
    for _ in range(POLLS):
        again = limited.post("/api/analysis", json=body)
        if again.status_code == 201:
            break
        assert again.status_code == 429
        time.sleep(0.1)
    else:
        raise AssertionError("the abandoned analysis kept its place")
    view = limited.get(f"/api/analysis/{first.json()['id']}").json()
    assert (view["status"], view["reason"]) == ("stopped", "abandoned")
    limited.post(f"/api/analysis/{again.json()['id']}/stop")


def test_board_requests_past_the_server_s_bound_are_told_to_come_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from damier.server import analysis

    monkeypatch.setattr(analysis, "BOARDS_AT_ONCE", 0)  # every place taken
    with TestClient(make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1, limits=GENEROUS)) as client:
        answer = client.post("/api/analysis/board", json={"game": "atoms", "options": {"rows": 3, "cols": 3}})
    assert answer.status_code == 503
    assert "the analysis board is busy" in answer.json()["error"]


def test_a_game_s_view_names_the_position_it_began_from_and_its_line_replays_from_there(client: TestClient) -> None:
    for info in registry.all_infos():  # seeded: a random deal (Jewels and Lasers' setup, a puzzle) is the seed's
        players = 1 if info.players == "1" else 2
        seed = {"seed": 11} if info.seeded_setup else {}
        created = client.post("/api/games", json={"game": info.name, **seed,
                                                   "seats": [{"kind": "human"}] * players}).json()
        assert "state" in created, created
        view = created["state"]
        move = view["legal_moves"][0]
        after = client.post(f"/api/games/{created['id']}/moves", json={"move": move},
                            headers={"X-Seat-Token": created["tokens"][str(view["player"])]}).json()
        # what the analysis board replays for an earlier move of the game is the game's own position
        board = client.post("/api/analysis/board", json={"game": info.name, "options": view["options"],
                                                         "position": view["start_position"], "moves": [move]})
        assert board.status_code == 200, board.text
        line = [m["move"] for m in after["moves"]]  # the move, and any chance events stored with it
        if len(line) == 1:
            assert board.json()["position"] == after["position"], info.name
        replay = client.get(f"/api/games/{created['id']}/replay").json()
        assert replay["start_position"] == view["start_position"]
        assert damier.load(info.name, **view["options"]).state_from_position(view["start_position"]).position() \
            == view["start_position"]
