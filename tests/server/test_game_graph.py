"""The evaluation of every position of a game (the analysis board's graph): one computation per game and version,
shared by everyone who asks, reported as it goes, bounded, counted in the asker's limit, refused where it would be a
hint; bad requests get a clear 4xx and change nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier
from damier.ai.analysis import kind
from damier.core import registry
from damier.core.game import CHANCE
from damier.server import analysis
from damier.server.limits import Limits
from tests.server.conftest import GENEROUS, make_app

SEARCHED = [info.name for info in registry.all_infos() if kind(info) == "search"]
SOLVED = [info.name for info in registry.all_infos() if kind(info) == "solver"]
#: small boards where the game has them (a graph of a short game is quick)
SMALL: dict[str, dict[str, Any]] = {"atoms": {"rows": 4, "cols": 4}}
POLLS = 600  # readings 0.1 s apart: far more than a graph's deadline


def create(client: TestClient, name: str, moves: int, *, hints: bool = False, seed: int = 7) -> dict[str, Any]:
    """A game of ``name`` between two people (``hints`` on or not), with ``moves`` moves played (a middle legal
    move each time; fewer when the game ends first); its id, tokens and view."""
    seeded = {"seed": seed} if registry.info(name).seeded_setup else {}  # a seed only for a board drawn from one
    created = client.post("/api/games", json={"game": name, "options": SMALL.get(name, {}), **seeded,
                                              "hints": hints, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert created.status_code == 201, created.text
    game = created.json()
    for _ in range(moves):
        legal = game["state"]["legal_moves"]
        if not legal:
            break
        game = play(client, game, legal[len(legal) // 2])
    return game


def play(client: TestClient, game: dict[str, Any], move: str) -> dict[str, Any]:
    view = game["state"]
    answer = client.post(f"/api/games/{game['id']}/moves", json={"move": move},
                         headers={"X-Seat-Token": game["tokens"][str(view["player"])]})
    assert answer.status_code == 200, answer.text
    return {**game, "state": answer.json()}


def resign(client: TestClient, game: dict[str, Any]) -> None:
    """End the game (the first seat resigns), unless its rules ended it already."""
    if game["state"]["status"] == "active":
        answer = client.post(f"/api/games/{game['id']}/resign", headers={"X-Seat-Token": game["tokens"]["0"]})
        assert answer.status_code == 200, answer.text


def finished(client: TestClient, game_id: str, version: int) -> dict[str, Any]:
    """The graph once it has ended; every reading on the way holds the positions from the start on, in order."""
    for _ in range(POLLS):
        view = client.get(f"/api/games/{game_id}/evaluations", params={"version": version}).json()
        assert [p["ply"] for p in view["points"]] == list(range(len(view["points"]))), view
        if view["status"] != "running":
            return view
        time.sleep(0.1)
    raise AssertionError(f"the graph of {game_id} never ended: {view}")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "arcade.sqlite3"
    with TestClient(make_app(f"sqlite:///{db}", workers=1, limits=GENEROUS, graph_seconds=20.0)) as test_client:
        yield test_client


@pytest.mark.parametrize("name", SEARCHED)
def test_every_position_of_a_finished_game_is_evaluated_in_a_player_s_units(client: TestClient, name: str) -> None:
    game = create(client, name, 5)
    resign(client, game)
    view = client.get(f"/api/games/{game['id']}").json()
    asked = client.post(f"/api/games/{game['id']}/evaluations")
    assert asked.status_code == 201, asked.text
    assert asked.json()["version"] == view["version"] == len(view["moves"])
    graph = finished(client, game["id"], view["version"])
    assert (graph["status"], graph["reason"]) == ("done", "done"), graph
    assert [p["ply"] for p in graph["points"]] == list(range(len(view["moves"]) + 1))
    state = damier.load(name, **view["options"]).state_from_position(view["start_position"])
    for point, move in zip(graph["points"], [*(m["move"] for m in view["moves"]), None], strict=True):
        assert point["player"] == state.player, point
        if state.player >= 0:
            mover_chance = point["chances"][state.player]
            assert 0.0 <= mover_chance <= 1.0 and point["chances"][1 - state.player] == pytest.approx(
                1.0 - mover_chance, abs=2e-4), point
            assert point["depth"] >= 1 and point["best"] == point["pv"][0]
            line = state.copy()
            for mover, text in zip(point["movers"], point["pv"], strict=True):  # the line plays from there
                assert line.player == mover
                line.play(line.parse_move(text))
        if move is not None:
            state.play(state.parse_move(move))


def test_everyone_asking_shares_one_computation_and_a_new_move_keeps_the_positions_before(
        client: TestClient) -> None:
    name = SEARCHED[0]
    game = create(client, name, 3, hints=True)  # a casual game with hints on: evaluated while it goes on
    first = client.post(f"/api/games/{game['id']}/evaluations")
    again = client.post(f"/api/games/{game['id']}/evaluations")
    assert (first.status_code, again.status_code) == (201, 200), (first.text, again.text)
    before = finished(client, game["id"], 3)
    assert client.post(f"/api/games/{game['id']}/evaluations").status_code == 200  # computed: the same answer
    legal = game["state"]["legal_moves"]
    game = play(client, game, legal[len(legal) // 2])
    later = client.post(f"/api/games/{game['id']}/evaluations")
    assert later.status_code == 201 and later.json()["version"] == 4
    after = finished(client, game["id"], 4)
    assert after["points"][:4] == before["points"][:4]  # the same evaluations, not searched again
    assert [p["ply"] for p in after["points"]] == [0, 1, 2, 3, 4]
    assert finished(client, game["id"], 3) == before  # the earlier version is still there to read


@pytest.mark.parametrize("name", SOLVED)
def test_a_puzzle_has_no_graph(client: TestClient, name: str) -> None:
    created = client.post("/api/puzzles", json={"game": name, "seed": 3})
    assert created.status_code == 201, created.text
    answer = client.post(f"/api/games/{created.json()['id']}/evaluations")
    assert answer.status_code == 422 and "no search" in answer.json()["error"], answer.text


def test_bad_graph_requests_get_4xx_saying_what_is_wrong_and_start_nothing(client: TestClient) -> None:
    live = create(client, SEARCHED[0], 2)  # between people, no hints, going on: a graph would be a hint
    refused = client.post(f"/api/games/{live['id']}/evaluations")
    assert refused.status_code == 403 and "once it is over" in refused.json()["error"], refused.text
    nothing = client.get(f"/api/games/{live['id']}/evaluations", params={"version": 2})
    assert nothing.status_code == 404 and "never" in nothing.json()["error"]
    assert client.post("/api/games/nosuchgame/evaluations").status_code == 404
    for version in ("-1", "x", str(10**7)):
        bad = client.get(f"/api/games/{live['id']}/evaluations", params={"version": version})
        assert bad.status_code == 422 and "version" in bad.json()["error"], bad.text
    missing = client.get(f"/api/games/{live['id']}/evaluations")
    assert missing.status_code == 422 and "version" in missing.json()["error"]


def test_a_chance_event_s_position_is_named_not_searched(client: TestClient) -> None:
    chancy = [n for n in SEARCHED if registry.info(n).has_chance]
    if not chancy:
        pytest.skip("no game with chance and a search")
    game = create(client, chancy[0], 6)
    resign(client, game)
    view = client.get(f"/api/games/{game['id']}").json()
    assert client.post(f"/api/games/{game['id']}/evaluations").status_code == 201
    graph = finished(client, game["id"], view["version"])
    players = [p["player"] for p in graph["points"]]
    assert CHANCE in players, (graph["status"], graph["reason"], graph["error"])
    for point in graph["points"]:
        assert ("chances" in point) == (point["player"] != CHANCE), point  # the end reads as its result


# (the tests of the module's app come first: closing another app's pool kills every worker of the process)
@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    app = make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1,
                     limits=Limits(hints=1, new_games=1000, computer_games=1000), graph_seconds=600.0)
    with TestClient(app) as test_client:
        test_client.app.state.graphs.position_seconds = 600.0  # type: ignore[attr-defined]  (each graph runs long)
        yield test_client


def test_a_graph_counts_in_the_askers_limit_and_joining_it_is_free(limited: TestClient) -> None:
    name = SEARCHED[0]
    game = create(limited, name, 4)
    resign(limited, game)
    first = limited.post(f"/api/games/{game['id']}/evaluations")
    assert first.status_code == 201, first.text
    # the address's only place is taken by the graph (600 s a position): no analysis, but the graph may be read
    position = limited.get(f"/api/games/{game['id']}").json()["start_position"]
    refused = limited.post("/api/analysis", json={"game": name, "options": SMALL.get(name, {}), "position": position})
    assert refused.status_code == 429 and "analyses or hints" in refused.json()["error"], refused.text
    assert limited.post(f"/api/games/{game['id']}/evaluations").status_code == 200
    other = create(limited, name, 2)
    resign(limited, other)
    too_many = limited.post(f"/api/games/{other['id']}/evaluations")
    assert too_many.status_code == 429 and int(too_many.headers["retry-after"]) >= 1
    assert limited.get(f"/api/games/{other['id']}/evaluations", params={"version": 2}).status_code == 404


def test_a_graph_nobody_reads_any_more_is_stopped(limited: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "ABANDON_SECONDS", 0.5)
    game = create(limited, SEARCHED[0], 4)
    resign(limited, game)
    assert limited.post(f"/api/games/{game['id']}/evaluations").status_code == 201
    for _ in range(POLLS):  # its page is gone: it is stopped, and the address's place comes back
        time.sleep(0.1)
        other = create(limited, SEARCHED[0], 2)
        resign(limited, other)
        again = limited.post(f"/api/games/{other['id']}/evaluations")
        if again.status_code == 201:
            break
        assert again.status_code == 429
    else:
        raise AssertionError("the abandoned graph kept its place")
    view = limited.get(f"/api/games/{game['id']}/evaluations", params={"version": 4}).json()
    assert (view["status"], view["reason"]) == ("stopped", "abandoned")
    for _ in range(POLLS):  # once the other one is stopped too, the first is asked again: it goes on from there
        time.sleep(0.1)
        resumed = limited.post(f"/api/games/{game['id']}/evaluations")
        if resumed.status_code == 201:
            break
        assert resumed.status_code == 429
    assert resumed.json()["status"] == "running" and resumed.json()["points"] == view["points"]
