"""Race rooms through the API and the WebSocket, on Micro Robots: joining with a name and a token, the host starts,
claims and demonstrations judged by the server, chips (a correct claim scores, a wrong one hands a chip to the
player with the fewest, ties to the first in seating order after the claimant), the old target as the new start,
the ends of a race (enough chips, the supply out, idle rounds), refusals that change nothing, deadlines enforced
by the server (on a test clock), bids lowest first (an ``at_most`` race of a test puzzle), storage on SQLite and
PostgreSQL, and a race that survives a killed server (slow)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import damier
from damier.core import registry
from damier.core.game import Game, State
from damier.core.race import RaceRules
from damier.server.rooms.race import timers as race_timers
from damier.server.rooms.race.log import RaceLog, Settings
from damier.server.storage import ConflictError, RaceEvent, RaceRow, Storage
from tests.conformance.slide_game import INFO as SLIDE_INFO
from tests.conformance.slide_game import SlideGame
from tests.server.conftest import REFUSAL, ServerProcess, said_again
from tests.server.test_storage import postgres_url  # noqa: F401 (the fixture)

GAME = "micro"


# ----- helpers ----------------------------------------------------------------------------------------------
def headers(token: str | None) -> dict[str, str]:
    return {"X-Seat-Token": token} if token else {}


def create(client: TestClient, names: list[str], settings: dict[str, Any] | None = None,
           game: str = GAME, options: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """A race with players ``names`` (the first is the host): its id and the tokens by seat."""
    response = client.post("/api/races", json={"game": game, "options": options or {}, "settings": settings or {},
                                                "name": names[0]})
    assert response.status_code == 201, response.text
    race_id, tokens = response.json()["id"], [response.json()["token"]]
    for seat, name in enumerate(names[1:], start=1):
        joined = client.post(f"/api/races/{race_id}/join", json={"name": name})
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == seat
        tokens.append(joined.json()["token"])
    return race_id, tokens


def started(client: TestClient, names: list[str], settings: dict[str, Any] | None = None,
            **kwargs: Any) -> tuple[str, list[str], dict[str, Any]]:
    race_id, tokens = create(client, names, settings, **kwargs)
    response = client.post(f"/api/races/{race_id}/start", headers=headers(tokens[0]))
    assert response.status_code == 200, response.text
    return race_id, tokens, response.json()


def view(client: TestClient, race_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/races/{race_id}", headers=headers(token))
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def played(state: State, text: str) -> State:
    """A copy of ``state`` with the move ``text`` played."""
    after = state.copy()
    after.play(after.parse_move(text))
    return after


def first_state(game_name: str, position: str, options: dict[str, Any] | None = None) -> State:
    return damier.load(game_name, **(options or {})).state_from_position(position)


def shortest(position: str, game_name: str = GAME) -> list[str]:
    """An optimal line of the round's puzzle, by the game's solver."""
    state = first_state(game_name, position)
    solution = registry.info(game_name).hook("solver")(state, None, None)
    line = []
    for move in solution.moves:
        line.append(state.move_to_str(move))
        state.play(move)
    return line


def claim(client: TestClient, race_id: str, token: str, count: int, round_number: int | None = None) -> Any:
    body: dict[str, Any] = {"count": count}
    if round_number is not None:
        body["round"] = round_number
    return client.post(f"/api/races/{race_id}/claim", json=body, headers=headers(token))


def demonstrate(client: TestClient, race_id: str, token: str, moves: list[str]) -> Any:
    return client.post(f"/api/races/{race_id}/demonstrate", json={"moves": moves}, headers=headers(token))


def win_round(client: TestClient, race_id: str, token: str) -> dict[str, Any]:
    """The token's player claims the round's shortest line and shows it."""
    state = view(client, race_id)
    line = shortest(state["round"]["position"])
    assert claim(client, race_id, token, len(line), state["round"]["number"]).status_code == 200
    response = demonstrate(client, race_id, token, line)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def chips(state: dict[str, Any]) -> list[int]:
    return [p["chips"] for p in state["players"]]


def until(socket: WebSocketTestSession, predicate: Any, limit: int = 50) -> dict[str, Any]:
    """The first state the socket receives that ``predicate`` accepts (errors fail the test)."""
    for _ in range(limit):
        message = socket.receive_json()
        assert message["type"] == "state", message
        if predicate(message["state"]):
            state: dict[str, Any] = message["state"]
            return state
    raise AssertionError("no such state")


class Clock:
    """A clock the test moves forward (the race deadlines count on it)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(client: TestClient) -> Iterator[Clock]:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    fake = Clock()
    arcade.clock = fake
    yield fake
    arcade.clock = time.time
    client.portal.call(race_timers.wake, arcade)  # type: ignore[union-attr]


# ----- joining and starting ---------------------------------------------------------------------------------
def test_a_race_is_joined_by_name_with_a_secret_token_and_started_by_the_host(client: TestClient) -> None:
    race_id, tokens = create(client, ["Ann"], {"max_players": 3})
    lobby = view(client, race_id)
    assert lobby["status"] == "lobby" and lobby["round"] is None and lobby["can_join"] is True
    assert client.post(f"/api/races/{race_id}/start", headers=headers(tokens[0])).status_code == 409  # alone
    bob = client.post(f"/api/races/{race_id}/join", json={"name": "  Bob  "}).json()
    assert bob["seat"] == 1 and bob["state"]["you"] == 1 and bob["token"] not in str(bob["state"])
    assert client.post(f"/api/races/{race_id}/join", json={"name": "bob"}).status_code == 409  # a taken name
    assert client.post(f"/api/races/{race_id}/join", json={"name": "\x07"}).status_code == 422
    assert client.post(f"/api/races/{race_id}/join", json={"name": "Cy"}).status_code == 201
    full = client.post(f"/api/races/{race_id}/join", json={"name": "Dee"})
    assert full.status_code == 409 and "full" in full.json()["error"]
    assert view(client, race_id, bob["token"])["you"] == 1 and view(client, race_id)["you"] is None
    assert client.post(f"/api/races/{race_id}/start", headers=headers(bob["token"])).status_code == 409
    assert client.post(f"/api/races/{race_id}/start").status_code == 403
    state = client.post(f"/api/races/{race_id}/start", headers=headers(tokens[0])).json()
    assert state["status"] == "playing" and state["phase"] == "searching" and state["supply"] == 25
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"] and chips(state) == [0, 0, 0]
    round_one = state["round"]
    assert round_one["number"] == 1 and round_one["board"]["kind"] == GAME and round_one["claims"] == []
    assert state["deadline"] == {"kind": "round", "at": round_one["deadline"]}
    assert client.post(f"/api/races/{race_id}/start", headers=headers(tokens[0])).status_code == 409


@pytest.mark.parametrize(("body", "fragment"), [
    ({"game": "atoms", "name": "Ann"}, "no race rooms"),
    ({"game": "nope", "name": "Ann"}, "unknown game"),
    ({"game": GAME, "name": "Ann", "options": {"expert": "maybe"}}, "expert"),
    ({"game": GAME, "name": "Ann", "settings": {"round_seconds": 1}}, "round_seconds"),
    ({"game": GAME, "name": "Ann", "settings": {"chips_total": 3, "chips_to_win": 4}}, "chips_to_win"),
    ({"game": GAME, "name": "Ann", "settings": {"lives": 3}}, "unknown race setting"),
    ({"game": GAME, "name": ""}, "name"),
])
def test_bad_races_are_refused_with_clear_json(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    response = client.post("/api/races", json=body)
    assert response.status_code == 422 and fragment in response.json()["error"], response.text


def test_unknown_races_are_404_and_a_game_id_is_not_a_race(client: TestClient) -> None:
    assert client.get("/api/races/nope").status_code == 404
    game = client.post("/api/games", json={"game": "atoms", "options": {"rows": 3, "cols": 3},
                                           "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    assert client.get(f"/api/races/{game['id']}").status_code == 404
    race_id, _ = create(client, ["Ann"])
    assert client.get(f"/api/games/{race_id}").status_code == 404


# ----- a whole race -----------------------------------------------------------------------------------------
def test_a_race_through_the_api_and_the_websocket(client: TestClient) -> None:
    race_id, (ann, bob, cy), state = started(client, ["Ann", "Bob", "Cy"])
    with client.websocket_connect(f"/api/races/{race_id}/ws") as socket:
        assert socket.receive_json()["state"]["version"] == state["version"]
        # a correct claim takes the round's chip; the old target is the new start
        first = state["round"]
        line = shortest(first["position"])
        assert claim(client, race_id, bob, len(line), 1).json()["phase"] == "demonstrating"
        watched = until(socket, lambda s: s["phase"] == "demonstrating")
        assert watched["round"]["demonstration"]["seat"] == 1 and watched["round"]["demonstration"]["moves"] == []
        assert watched["you"] is None
        for done, move in enumerate(line[:-1], start=1):  # move by move, each seen by the watchers
            demonstrate(client, race_id, bob, [move])
            seen = until(socket, lambda s, done=done: len(s["round"]["demonstration"]["moves"]) == done)
            assert seen["round"]["board"]["robot"] == move and seen["round"]["events"][0]["to"] == move
        state = demonstrate(client, race_id, bob, line[-1:]).json()
        assert chips(state) == [0, 1, 0] and state["supply"] == 24
        over = state["rounds"][0]
        assert over["result"]["outcome"] == "scored" and over["result"]["optimum"] == len(line)
        assert over["demonstrations"][0]["verdict"]["correct"] is True
        assert over["demonstrations"][0]["moves"] == line
        second = state["round"]
        assert second["number"] == 2 and second["board"]["start"] == first["board"]["target"]
        assert until(socket, lambda s: s["round"]["number"] == 2)["version"] == state["version"]

        # a wrong claim: solved in fewer moves than claimed; Bob's chip goes to the fewest, Ann and Cy tie at 0,
        # and Cy comes first in seating order after Bob; the round's chip goes back to the supply
        line = shortest(second["position"])
        claim(client, race_id, bob, len(line) + 1)
        state = demonstrate(client, race_id, bob, line).json()
        verdict = state["rounds"][1]["demonstrations"][0]["verdict"]
        assert verdict["correct"] is False and "not in the" in verdict["reason"]
        assert verdict["transfer"] == {"from": 1, "to": 2}
        assert chips(state) == [0, 0, 1] and state["supply"] == 24
        assert state["rounds"][1]["result"]["outcome"] == "missed"
        assert state["round"]["board"]["start"] == second["board"]["target"]

        # Cy claims and gives up: Ann and Bob tie at 0, and after Cy (the last seat) comes Ann
        claim(client, race_id, cy, 2)
        state = client.post(f"/api/races/{race_id}/giveup", headers=headers(cy)).json()
        assert state["rounds"][2]["demonstrations"][0]["verdict"]["reason"] == "gave up"
        assert chips(state) == [1, 0, 0] and state["supply"] == 24

        # Ann wins four rounds through the WebSocket: the race ends at 5 chips
        until(socket, lambda s: s["version"] == state["version"])
        for _ in range(4):
            number = state["round"]["number"]
            line = shortest(state["round"]["position"])
            socket.send_json({"type": "claim", "count": len(line), "round": number, "token": ann})
            until(socket, lambda s: s["phase"] == "demonstrating")
            socket.send_json({"type": "demonstrate", "moves": line, "token": ann})
            state = until(socket, lambda s, n=number: s["status"] == "finished" or s["round"]["number"] > n)
        assert state["status"] == "finished" and chips(state) == [5, 0, 0] and state["supply"] == 20
        assert state["result"]["ending"] == "chips" and state["result"]["winners"] == [0]
        assert state["result"]["names"] == ["Ann"] and state["round"] is None and state["deadline"] is None
        socket.send_json({"type": "claim", "count": 3, "token": bob})
        refused = socket.receive_json()
        assert refused == {"type": "error", "status": 409, "error": "the race is over", "code": "error.race.over",
                           "params": {}}
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
    assert claim(client, race_id, bob, 3).status_code == 409
    assert client.post(f"/api/races/{race_id}/join", json={"name": "Late"}).status_code == 409


def test_when_the_supply_runs_out_the_most_chips_win_and_ties_are_possible(client: TestClient) -> None:
    race_id, (ann, bob), _ = started(client, ["Ann", "Bob"], {"chips_total": 2, "chips_to_win": 2})
    assert chips(win_round(client, race_id, ann)) == [1, 0]
    state = win_round(client, race_id, bob)
    assert state["status"] == "finished" and state["supply"] == 0 and chips(state) == [1, 1]
    assert state["result"]["ending"] == "supply" and state["result"]["winners"] == [0, 1]
    assert "tie" in state["result"]["reason"]


# ----- refusals ---------------------------------------------------------------------------------------------
def test_claims_and_moves_out_of_turn_are_refused_and_change_nothing(client: TestClient) -> None:
    race_id, (ann, bob) = create(client, ["Ann", "Bob"])
    assert claim(client, race_id, ann, 3).status_code == 409  # not started
    client.post(f"/api/races/{race_id}/start", headers=headers(ann))
    before = view(client, race_id)
    line = shortest(before["round"]["position"])
    for response, status in [
        (claim(client, race_id, "", 3), 403),  # no seat
        (claim(client, race_id, "f" * 48, 3), 403),  # a token of no player
        (claim(client, race_id, ann, 0), 422),
        (claim(client, race_id, ann, 100), 422),
        (claim(client, race_id, ann, 3, round_number=7), 409),  # a round that is not this one
        (demonstrate(client, race_id, ann, line[:1]), 409),  # nobody claimed
        (client.post(f"/api/races/{race_id}/giveup", headers=headers(ann)), 409),
    ]:
        assert response.status_code == status, response.text
        assert set(response.json()) == REFUSAL and said_again(response.json()) == response.json()["error"]
    after = view(client, race_id)
    assert after == {**before, "now": after["now"]}

    claim(client, race_id, bob, len(line) + 2)
    during = view(client, race_id)
    for response, status in [
        (claim(client, race_id, ann, 1), 409),  # during Bob's demonstration
        (claim(client, race_id, bob, 1), 409),
        (demonstrate(client, race_id, ann, line[:1]), 409),  # not Ann's demonstration
        (demonstrate(client, race_id, bob, ["ZZ9"]), 422),  # not a move of the game at all
        (demonstrate(client, race_id, bob, line[:1] * (len(line) + 3)), 422),  # more moves than claimed
        (client.post(f"/api/races/{race_id}/demonstrate", json={"moves": []}, headers=headers(bob)), 422),
    ]:
        assert response.status_code == status, response.text
    assert "Bob is demonstrating" in claim(client, race_id, ann, 1).json()["error"]
    after = view(client, race_id)
    assert after["version"] == during["version"] and after["round"] == during["round"]


def test_an_illegal_demonstration_move_is_judged_wrong(client: TestClient) -> None:
    race_id, (ann, _bob), state = started(client, ["Ann", "Bob"])
    board = state["round"]["board"]
    illegal = next(s["name"] for s in board["squares"] if s["name"] not in board["legal"] + [board["robot"]])
    claim(client, race_id, ann, 4)
    state = demonstrate(client, race_id, ann, [illegal]).json()
    demo = state["rounds"][0]["demonstrations"][0]
    assert demo["verdict"]["correct"] is False and "not a legal move" in demo["verdict"]["reason"]
    assert demo["moves"] == [] and demo["verdict"]["transfer"] is None  # Ann had no chip to give
    assert state["rounds"][0]["result"]["outcome"] == "missed" and state["round"]["number"] == 2


# ----- deadlines ----------------------------------------------------------------------------------------------
def test_the_server_enforces_the_round_and_demonstration_deadlines(client: TestClient, clock: Clock) -> None:
    race_id, (ann, bob), state = started(client, ["Ann", "Bob"], {"round_seconds": 30, "demo_seconds": 20})
    clock.advance(29)
    assert view(client, race_id)["round"]["number"] == 1  # not yet
    clock.advance(2)
    state = view(client, race_id)  # nobody asked anything: the server ended the round all the same
    assert state["rounds"][0]["result"]["outcome"] == "timeout" and state["round"]["number"] == 2
    assert state["idle_rounds"] == 1 and chips(state) == [0, 0] and state["supply"] == 25
    # a claim resets the idle count; a demonstration out of time is wrong
    win_round(client, race_id, bob)
    claim(client, race_id, bob, 5)
    assert view(client, race_id)["deadline"]["kind"] == "demonstration"
    clock.advance(21)
    refused = claim(client, race_id, ann, 2, round_number=3)  # round 3 is over by the time the claim is read
    assert refused.status_code == 409 and "round 3 is over" in refused.json()["error"]
    state = view(client, race_id)
    verdict = state["rounds"][2]["demonstrations"][0]["verdict"]
    assert verdict["reason"] == "the demonstration's time ran out" and verdict["transfer"] == {"from": 1, "to": 0}
    assert chips(state) == [1, 0] and state["idle_rounds"] == 0
    # three rounds in a row with no claim end the race: the most chips win
    for _ in range(3):
        clock.advance(31)
        state = view(client, race_id)
    assert state["status"] == "finished" and state["result"]["ending"] == "idle"
    assert state["result"]["winners"] == [0] and len(state["rounds"]) == 6


def test_the_timer_ends_a_round_without_any_request(client: TestClient, clock: Clock) -> None:
    race_id, _tokens, state = started(client, ["Ann", "Bob"], {"round_seconds": 30})
    with client.websocket_connect(f"/ws/races/{race_id}") as socket:
        assert socket.receive_json()["state"]["round"]["number"] == 1
        clock.advance(31)
        client.portal.call(race_timers.wake, client.app.state.arcade)  # type: ignore[union-attr,attr-defined]
        state = until(socket, lambda s: s["round"] is not None and s["round"]["number"] == 2)
        assert state["rounds"][0]["result"]["outcome"] == "timeout"


# ----- bids: an at_most race on a test puzzle -----------------------------------------------------------------
class BidRace:
    """A test race of bids (``at_most``): a fresh sliding puzzle each round; it keeps the positions of the won
    rounds each next round was drawn with."""

    def __init__(self) -> None:
        self.won: list[list[str]] = []

    def rules(self, game: Game) -> RaceRules:
        return RaceRules(claim="at_most", chips_total=3, chips_to_win=2, wrong_claim="none", round_seconds=60,
                         bid_seconds=10)

    def first_round(self, game: Game, seed: int) -> State:
        return game.new_state(seed)

    def next_round(self, game: Game, previous: State, seed: int, won: Sequence[State] = ()) -> State:
        self.won.append([state.position() for state in won])
        return game.new_state(seed)


BID_RACE = BidRace()
BID_INFO = replace(SLIDE_INFO, name="test-bids", factory="tests.server.test_race:BidGame",
                   features={**SLIDE_INFO.features, "race": "tests.server.test_race:BID_RACE"})


class BidGame(SlideGame):
    info = BID_INFO


@pytest.fixture
def bid_game() -> Iterator[str]:
    registry.register(BID_INFO)
    yield BID_INFO.name
    registry.unregister(BID_INFO.name)


def test_bids_are_demonstrated_lowest_first_after_the_bid_deadline(client: TestClient, clock: Clock,
                                                                   bid_game: str) -> None:
    race_id, (ann, bob, cy), state = started(client, ["Ann", "Bob", "Cy"], game=bid_game)
    line = shortest(state["round"]["position"], bid_game)
    assert claim(client, race_id, ann, len(line) + 3).json()["phase"] == "bidding"
    assert view(client, race_id)["deadline"]["kind"] == "bids"
    claim(client, race_id, bob, len(line) - 1)  # too low: Bob cannot make it
    claim(client, race_id, cy, len(line) + 1)
    assert claim(client, race_id, ann, len(line) + 3).status_code == 409  # a new bid must be lower
    claim(client, race_id, ann, len(line) + 1)  # Ann ties Cy, later: Cy comes first
    clock.advance(11)
    state = view(client, race_id)
    assert state["phase"] == "demonstrating" and state["round"]["demonstration"]["seat"] == 1
    state = client.post(f"/api/races/{race_id}/giveup", headers=headers(bob)).json()
    assert state["round"]["demonstration"]["seat"] == 2 and chips(state) == [0, 0, 0]  # wrong_claim "none"
    state = demonstrate(client, race_id, cy, line).json()  # fewer moves than the bid: right for at_most
    assert chips(state) == [0, 0, 1] and state["rounds"][0]["result"]["outcome"] == "scored"
    assert [d["seat"] for d in state["rounds"][0]["demonstrations"]] == [1, 2]
    # the next round was drawn knowing the won round (a game whose chips are targets draws among the others)
    race = damier.load(bid_game).info.hook("race")  # the object the server uses (this module may be imported twice)
    assert race.won[-1] == [state["rounds"][0]["position"]]


def test_a_stored_round_keeps_its_puzzle_even_if_the_game_would_draw_another() -> None:
    game = damier.load(GAME)
    race = registry.info(GAME).hook("race")
    log = RaceLog(game, race.rules(game), Settings.read({}, race.rules(game)))
    stored = race.first_round(game, 2)
    log.apply("round", None, {"number": 1, "start": None, "seed": 1, "position": stored.position(),
                              "deadline": 100.0}, 0.0)
    assert log.rounds[0].first is not None and log.rounds[0].first.position() == stored.position()


# ----- storage ------------------------------------------------------------------------------------------------
def exercise_races(storage: Storage) -> None:
    row = RaceRow(id="r1", game=GAME, options={}, settings={"round_seconds": 60}, status="lobby", result=None,
                  created_at="2026-01-01T00:00:00+00:00", updated_at="2026-01-01T00:00:00+00:00",
                  events=[RaceEvent(1, "join", 0, {"name": "Ann"}, "2026-01-01T00:00:00.000+00:00")])
    storage.races.create(row).result()
    second = RaceEvent(2, "join", 1, {"name": "Bob"}, "2026-01-01T00:00:01.000+00:00")
    storage.races.append_events("r1", [second], "lobby", None, "t1").result()
    with pytest.raises(ConflictError):  # a step of a race is written once
        storage.races.append_events("r1", [second], "lobby", None, "t2").result()
    storage.races.append_events("r1", [RaceEvent(3, "start", 0, {}, "2026-01-01T00:00:02.000+00:00")], "playing",
                               None, "t3").result()
    loaded = storage.races.load("r1")
    assert loaded is not None and loaded.status == "playing" and loaded.settings == {"round_seconds": 60}
    assert [(e.seq, e.kind, e.seat, e.data) for e in loaded.events] == [
        (1, "join", 0, {"name": "Ann"}), (2, "join", 1, {"name": "Bob"}), (3, "start", 0, {})]
    assert storage.races.playing_ids(10) == ["r1"] and storage.races.load("nope") is None
    storage.races.append_events("r1", [], "finished", {"winners": [0]}, "t4").result()
    assert storage.races.playing_ids(10) == [] and storage.races.load("r1").result == {"winners": [0]}  # type: ignore[union-attr]


def test_races_are_stored_as_their_events_on_sqlite(tmp_path: Any) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'races.sqlite3'}")
    try:
        exercise_races(storage)
    finally:
        storage.close()


def test_races_are_stored_as_their_events_on_postgresql(postgres_url: str) -> None:  # noqa: F811
    storage = Storage(postgres_url)
    try:
        exercise_races(storage)
    finally:
        storage.close()


# ----- a killed server ------------------------------------------------------------------------------------------
def post(server: ServerProcess, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
    return httpx.post(server.url + path, json=body, headers=headers(token), timeout=60)


@pytest.mark.slow
def test_a_race_survives_a_killed_server_and_its_timers_resume(server: ServerProcess) -> None:
    # 12 s to demonstrate: the server is killed within the first, and restarted before or after the time runs out
    created = post(server, "/api/races", {"game": GAME, "name": "Ann", "settings": {"demo_seconds": 12}}).json()
    race_id, ann = created["id"], created["token"]
    bob = post(server, f"/api/races/{race_id}/join", {"name": "Bob"}).json()["token"]
    state = post(server, f"/api/races/{race_id}/start", token=ann).json()
    line = shortest(state["round"]["position"])
    # the demonstration's first move, one that does not solve the puzzle (a round's puzzle may take one move)
    start = first_state(GAME, state["round"]["position"])
    opening = next(text for text in [*line[:1], *(start.move_to_str(m) for m in start.legal_moves())]
                   if not played(start, text).is_over())
    # a claim one move longer than the shortest line: after the one move demonstrated, moves remain (a claim of one
    # move, for a puzzle of one move, would be judged at once, before the server is killed)
    assert post(server, f"/api/races/{race_id}/claim", {"count": len(line) + 1}, bob).is_success
    assert post(server, f"/api/races/{race_id}/demonstrate", {"moves": [opening]}, bob).is_success
    before = httpx.get(f"{server.url}/api/races/{race_id}", timeout=60).json()
    assert before["phase"] == "demonstrating"
    server.kill()

    storage = Storage(server.db)
    try:
        stored = storage.races.load(race_id)
        assert stored is not None and [e.kind for e in stored.events][-3:] == ["claim", "demo", "move"]
        server.start()
        after = httpx.get(f"{server.url}/api/races/{race_id}", timeout=60).json()
        if after["phase"] == "demonstrating":  # (the restart took less than the demonstration's 12 seconds)
            for key in ("players", "supply", "version", "deadline", "round", "settings", "status"):
                assert after[key] == before[key], key
        # nobody asks anything now: the server's own timer judges the demonstration when its time runs out
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            stored = storage.races.load(race_id)
            assert stored is not None
            if any(e.kind == "verdict" for e in stored.events):
                break
            time.sleep(0.5)
    finally:
        storage.close()
    verdict = next(e for e in stored.events if e.kind == "verdict")
    assert verdict.data["correct"] is False and verdict.data["reason"] == "the demonstration's time ran out"
    assert [e.kind for e in stored.events][-2:] == ["close", "round"]
    state = httpx.get(f"{server.url}/api/races/{race_id}", timeout=60).json()
    assert state["round"]["number"] == 2 and state["rounds"][0]["demonstrations"][0]["moves"] == [opening]
    # and the race goes on with the same tokens
    assert post(server, f"/api/races/{race_id}/claim", {"count": 3, "round": 2}, ann).is_success
