"""The lobby: open seeks seen by every lobby page, joined in one click (the game made between the two players, each
told their seat), refused when it is one's own or taken already, quick pairing, a seek closed when its creator's
lobby page closes, bad seeks refused, and across two servers on PostgreSQL a seek that leaves both lobbies at once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.server import lobby as lobby_module
from tests.server.conftest import GENEROUS, make_app
from tests.server.postgres import fresh_database
from tests.server.test_clocks import wait_until
from tests.server.test_players import Browser
from tests.server.test_storage import postgres_url  # noqa: F401 (the fixture)

KHET_3_2 = {"game": "khet", "clock": "3+2"}


@pytest.fixture
def arcade(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1, limits=GENEROUS)) as client:
        yield client


def seeks(client: TestClient | Browser) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = client.get("/api/seeks").json()["seeks"]
    return answer


def next_list(socket: Any) -> list[dict[str, Any]]:
    """The next list of seeks a lobby page is sent."""
    while True:
        message = socket.receive_json()
        if message.get("type") == "state":
            answer: list[dict[str, Any]] = message["state"]["seeks"]
            return answer


def test_a_seek_is_seen_in_the_lobby_and_joined_in_one_click(arcade: TestClient) -> None:
    host, guest = Browser(arcade), Browser(arcade)
    arcade.cookies = host.cookies
    host.post("/api/me/links")  # no identity yet: nothing happens
    with arcade.websocket_connect("/api/lobby/ws") as watching:
        assert next_list(watching) == []
        offered = host.post("/api/seeks", json={**KHET_3_2, "side": "first"})
        assert offered.status_code == 201, offered.text
        seek = offered.json()["seek"]
        assert seek["control"] == "3+2" and seek["side"] == "first" and seek["title"] == "Khet 2.0"
        assert [s["id"] for s in next_list(watching)] == [seek["id"]]
        own = host.post(f"/api/seeks/{seek['id']}/join")
        assert own.status_code == 409 and "your own seek" in own.json()["error"]
        joined = guest.post(f"/api/seeks/{seek['id']}/join")
        assert joined.status_code == 201, joined.text
        game = joined.json()["game"]
        assert game["seat"] == 1  # the creator took the first seat
        assert next_list(watching) == []  # gone from every lobby page
    view = guest.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": game["token"]}).json()
    assert view["you"] == 1 and view["clock"]["control"] == "3+2" and [s["kind"] for s in view["seats"]] == [
        "human", "human"]
    assert [g["seat"] for g in host.get("/api/me").json()["games"]] == [0]  # the creator holds seat 0
    again = guest.post(f"/api/seeks/{seek['id']}/join")
    assert again.status_code == 409 and "gone" in again.json()["error"]


def test_the_creators_lobby_page_is_told_its_seat_when_the_seek_is_joined(arcade: TestClient) -> None:
    host, guest = Browser(arcade), Browser(arcade)
    host.post("/api/games", json={"game": "atoms", "seats": [{"kind": "human"}, {"kind": "human"}]})  # an identity
    arcade.cookies = host.cookies  # the socket is the host's page
    with arcade.websocket_connect("/api/lobby/ws") as page:
        next_list(page)
        seek = host.post("/api/seeks", json={"game": "atoms", "clock": None}).json()["seek"]
        game = guest.post(f"/api/seeks/{seek['id']}/join").json()["game"]
        while (message := page.receive_json()).get("type") != "paired":
            pass
    assert message["game"] == game["id"] and message["seat"] == 1 - game["seat"] and message["seek"] == seek["id"]
    view = host.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": message["token"]}).json()
    assert view["you"] == message["seat"]


def test_quick_pairing_joins_a_matching_seek_or_opens_one(arcade: TestClient) -> None:
    first, second, third = Browser(arcade), Browser(arcade), Browser(arcade)
    opened = first.post("/api/seeks", json={**KHET_3_2, "quick": True})
    assert opened.status_code == 201 and "seek" in opened.json()
    other_clock = second.post("/api/seeks", json={"game": "khet", "clock": "5+3", "quick": True})
    assert other_clock.status_code == 201  # a different time control opens its own
    matched = third.post("/api/seeks", json={"game": "khet", "clock": {"minutes": 3, "increment": 2}, "quick": True})
    assert matched.status_code == 200 and matched.json()["game"]["seat"] in (0, 1)
    wait_until(lambda: [s["control"] for s in seeks(arcade)] == ["5+3"], 10)  # the lobby's list follows


def test_a_seek_closes_when_its_creators_lobby_page_closes(arcade: TestClient, monkeypatch: Any) -> None:
    monkeypatch.setattr(lobby_module, "GRACE", 0.05)
    host = Browser(arcade)
    host.post("/api/games", json={"game": "atoms", "seats": [{"kind": "human"}, {"kind": "human"}]})
    arcade.cookies = host.cookies
    with arcade.websocket_connect("/api/lobby/ws") as page:
        next_list(page)
        host.post("/api/seeks", json=KHET_3_2)
        assert len(next_list(page)) == 1
    wait_until(lambda: seeks(arcade) == [], 10)


def test_a_seek_offered_just_after_leaving_the_lobby_waits_for_the_creators_next_page(arcade: TestClient,
                                                                                        monkeypatch: Any) -> None:
    # the home page left for the new-game form, whose "Offer in the lobby" opens a seek and goes back home: the
    # seek stays, even when the home page's socket comes after the grace of the page that left (a slow device)
    monkeypatch.setattr(lobby_module, "GRACE", 0.3)
    host = Browser(arcade)
    host.post("/api/games", json={"game": "atoms", "seats": [{"kind": "human"}, {"kind": "human"}]})
    arcade.cookies = host.cookies
    with arcade.websocket_connect("/api/lobby/ws") as page:
        next_list(page)
    seek = host.post("/api/seeks", json=KHET_3_2).json()["seek"]  # within the grace of the page that closed
    time.sleep(0.6)  # the grace is over before the next page opens
    with arcade.websocket_connect("/api/lobby/ws") as page:
        assert [s["id"] for s in next_list(page)] == [seek["id"]]
    wait_until(lambda: seeks(arcade) == [], 10)  # and the creator's pages all closed: it closes


def test_a_creators_lobby_page_learns_a_seek_is_theirs_when_it_was_offered_elsewhere(arcade: TestClient) -> None:
    # the new-game form (or another tab) offers it while, or just before, the creator's lobby page is open here:
    # the page is told it is theirs (to cancel, not to join)
    host = Browser(arcade)
    host.post("/api/games", json={"game": "atoms", "seats": [{"kind": "human"}, {"kind": "human"}]})
    arcade.cookies = host.cookies
    with arcade.websocket_connect("/api/lobby/ws") as page:
        while (message := page.receive_json()).get("type") != "you":
            pass
        assert message == {"type": "you", "identified": True, "seeks": []}
        seek = host.post("/api/seeks", json=KHET_3_2).json()["seek"]
        assert [s["id"] for s in next_list(page)] == [seek["id"]]
        page.send_json({"type": "ping"})  # whatever comes before the answer to it was sent with the list
        told = []
        while (message := page.receive_json()).get("type") != "pong":
            told.append(message)
        assert told == [{"type": "you", "identified": True, "seeks": [seek["id"]]}]


def test_a_seek_nobody_keeps_runs_out(arcade: TestClient) -> None:
    host = Browser(arcade)
    seek = host.post("/api/seeks", json=KHET_3_2).json()["seek"]  # no lobby page keeps it
    store = arcade.app.state.lobby.store  # type: ignore[attr-defined]
    assert [s.id for s in store.open(time.time(), 10)] == [seek["id"]]
    assert store.open(time.time() + lobby_module.HOLD + 1, 10) == []


def test_the_creator_cancels_a_seek_and_nobody_else_may(arcade: TestClient) -> None:
    host, other = Browser(arcade), Browser(arcade)
    seek = host.post("/api/seeks", json=KHET_3_2).json()["seek"]
    refused = other.request("DELETE", f"/api/seeks/{seek['id']}")
    assert refused.status_code == 404 and "no open seek of yours" in refused.json()["error"]
    assert host.request("DELETE", f"/api/seeks/{seek['id']}").status_code == 200
    wait_until(lambda: seeks(arcade) == [], 10)


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "micro"}, "the lobby pairs two people"),
    ({"game": "atoms", "options": {"players": 3}}, "has 3 seats"),
    ({"game": "khet", "clock": "3 + two"}, "is not a time control"),
    ({"game": "khet", "options": {"setup": "nowhere"}}, "setup"),
    ({"game": "chess"}, "chess"),
    ({"game": "khet", "side": "middle"}, "side"),
])
def test_a_bad_seek_is_refused_and_nothing_is_offered(arcade: TestClient, body: dict[str, Any], words: str) -> None:
    refused = arcade.post("/api/seeks", json=body)
    assert refused.status_code == 422 and words in refused.json()["error"], refused.text
    assert seeks(arcade) == []


def test_a_player_may_not_flood_the_lobby(arcade: TestClient) -> None:
    host = Browser(arcade)
    for _ in range(lobby_module.PER_PLAYER):
        assert host.post("/api/seeks", json=KHET_3_2).status_code == 201
    refused = host.post("/api/seeks", json=KHET_3_2)
    assert refused.status_code == 429 and "the most at once" in refused.json()["error"]


def test_a_seek_joined_on_one_server_leaves_both_lobbies(postgres_url: str) -> None:  # noqa: F811
    with fresh_database(postgres_url, "lobby") as url, \
            TestClient(make_app(url, workers=1, limits=GENEROUS)) as one, \
            TestClient(make_app(url, workers=1, limits=GENEROUS)) as other:
        host, guest = Browser(one), Browser(other)
        with other.websocket_connect("/api/lobby/ws") as watching:
            next_list(watching)
            seek = host.post("/api/seeks", json=KHET_3_2).json()["seek"]
            assert [s["id"] for s in next_list(watching)] == [seek["id"]]  # heard from the other server
            joined = guest.post(f"/api/seeks/{seek['id']}/join")
            assert joined.status_code == 201
            assert next_list(watching) == []
        wait_until(lambda: seeks(one) == [], 10)
        late = Browser(one).post(f"/api/seeks/{seek['id']}/join")
        assert late.status_code == 409
