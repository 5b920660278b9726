"""Players without accounts: the anonymous identity cookie (signed, HttpOnly), the games and races it lists with
its own seats' tokens and nobody else's, the one-time link that carries it to another device, bad cookies and
links refused, the limit of games against the computer counting only the games moved lately (and naming them),
and the games left alone for days ended unfinished."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from damier.server.identity import COOKIE, MAX_AGE
from damier.server.limits import Limits
from damier.server.rooms.game import idle
from damier.server.storage.schema import games
from tests.server.conftest import GENEROUS, make_app

TWO_PEOPLE = {"game": "atoms", "options": {"rows": 5, "cols": 5}, "seats": [{"kind": "human"}, {"kind": "human"}]}
VS_COMPUTER = {"game": "atoms", "options": {"rows": 5, "cols": 5},
               "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}


class Browser:
    """One browser on the arcade: the test client with this browser's own cookies (a jar swapped in for each
    request)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.app = client.app
        self.cookies = httpx.Cookies()

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        self.client.cookies = self.cookies
        try:
            return self.client.request(method, url, **kwargs)
        finally:
            self.cookies = httpx.Cookies(self.client.cookies)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)


@pytest.fixture
def browsers(db_url: str) -> Iterator[tuple[Browser, Browser]]:
    """Two browsers (two cookie jars) on one arcade."""
    with TestClient(make_app(db_url, workers=1, limits=GENEROUS)) as client:
        yield Browser(client), Browser(client)


def me(client: Browser) -> dict[str, Any]:
    answer = client.get("/api/me")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_new_game_gives_the_browser_an_identity_that_lists_it_with_its_own_seat(
        browsers: tuple[Browser, Browser]) -> None:
    host, friend = browsers
    assert me(host) == {"games": [], "races": []}  # no identity yet: nothing, and no cookie given
    assert COOKIE not in host.cookies
    created = host.post("/api/games", json=TWO_PEOPLE)
    cookie = created.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    game_id, tokens = created.json()["id"], created.json()["tokens"]
    [listed] = me(host)["games"]
    assert listed["id"] == game_id and listed["seat"] == 0 and listed["token"] == tokens["0"]
    assert listed["your_turn"] is True and listed["abortable"] is True and listed["title"] == "Exploding Atoms"
    # the friend opens the invitation: their browser gets an identity, which lists their seat only
    assert me(friend)["games"] == []
    friend.get(f"/api/games/{game_id}", headers={"X-Seat-Token": tokens["1"]})
    [theirs] = me(friend)["games"]
    assert theirs["seat"] == 1 and theirs["token"] == tokens["1"]
    assert tokens["1"] not in str(me(host))  # an identity never shows another player's token
    # a watcher's look (no token) holds no seat
    friend.cookies.clear()
    friend.get(f"/api/games/{game_id}")
    assert COOKIE not in friend.cookies


def test_the_listing_follows_the_games_as_they_go(browsers: tuple[Browser, Browser]) -> None:
    host, _ = browsers
    created = host.post("/api/games", json=TWO_PEOPLE).json()
    puzzle = host.post("/api/puzzles", json={"game": "micro"}).json()
    race = host.post("/api/races", json={"game": "micro", "name": "Ann"}).json()
    listing = me(host)
    assert {g["id"] for g in listing["games"]} == {created["id"], puzzle["id"]}
    assert [(r["id"], r["seat"], r["token"]) for r in listing["races"]] == [(race["id"], 0, race["token"])]
    host.post(f"/api/games/{created['id']}/abort", headers={"X-Seat-Token": created["tokens"]["0"]})
    assert {g["id"] for g in me(host)["games"]} == {puzzle["id"]}  # games under way only


def test_a_one_time_link_carries_the_identity_to_another_device(browsers: tuple[Browser, Browser]) -> None:
    phone, laptop = browsers
    refused = phone.post("/api/me/links")
    assert refused.status_code == 409 and "no identity yet" in refused.json()["error"]
    created = phone.post("/api/games", json=VS_COMPUTER).json()
    link = phone.post("/api/me/links")
    assert link.status_code == 201 and link.json()["expires_in"] == 600
    code = link.json()["code"]
    taken = laptop.post("/api/me/take", json={"code": code})
    assert taken.status_code == 200 and taken.json() == {"games": 1, "races": 0}
    assert [g["id"] for g in me(laptop)["games"]] == [created["id"]]
    again = laptop.post("/api/me/take", json={"code": code})
    assert again.status_code == 404 and "used already" in again.json()["error"]
    forged = laptop.post("/api/me/take", json={"code": "x" * 24})
    assert forged.status_code == 404 and "not valid" in forged.json()["error"]
    assert laptop.post("/api/me/take", json={}).status_code == 422


def test_an_expired_link_is_refused_with_410(browsers: tuple[Browser, Browser]) -> None:
    phone, laptop = browsers
    phone.post("/api/games", json=TWO_PEOPLE)
    code = phone.post("/api/me/links").json()["code"]
    storage = phone.app.state.arcade.storage  # type: ignore[attr-defined]
    from damier.server.storage.schema import transfers

    storage.submit(lambda conn: conn.execute(update(transfers).values(expires=time.time() - 1))).result()
    expired = laptop.post("/api/me/take", json={"code": code})
    assert expired.status_code == 410 and "expired" in expired.json()["error"]
    assert me(laptop)["games"] == []


@pytest.mark.parametrize("forge", ["changed", "expired", "garbage"])
def test_a_bad_identity_cookie_is_refused_with_401_and_removed(browsers: tuple[Browser, Browser],
                                                              forge: str) -> None:
    host, _ = browsers
    game = host.post("/api/games", json=TWO_PEOPLE).json()
    good = host.cookies[COOKIE]
    if forge == "changed":  # another identity under the same signature
        bad = f"{'f' * 32}{good[32:]}"
        words = "signature does not match"
    elif forge == "expired":
        key = host.app.state.players.cookies  # type: ignore[attr-defined]
        bad = key.cookie(good[:32], time.time() - MAX_AGE - 10)
        words = "it expired"
    else:
        bad = "not-a-cookie"
        words = "not of the form"
    host.cookies.set(COOKIE, bad)
    before = host.app.state.arcade.storage.games.active_ids()  # type: ignore[attr-defined]
    for answer in (host.get("/api/me"), host.post("/api/games", json=TWO_PEOPLE)):
        assert answer.status_code == 401 and words in answer.json()["error"]
        assert f'{COOKIE}=""' in answer.headers["set-cookie"] and "Max-Age=0" in answer.headers["set-cookie"]
    assert host.app.state.arcade.storage.games.active_ids() == before  # type: ignore[attr-defined]
    # a game's own page, with its seat's token, reads and plays all the same, and leaves the cookie to the home
    # page, which says why it goes
    host.cookies.set(COOKIE, bad)
    seat = {"X-Seat-Token": game["tokens"]["0"]}
    read = host.get(f"/api/games/{game['id']}", headers=seat)
    assert read.status_code == 200 and "set-cookie" not in read.headers
    moved = host.post(f"/api/games/{game['id']}/moves", headers=seat,
                      json={"move": read.json()["legal_moves"][0], "version": read.json()["version"]})
    assert moved.status_code == 200 and "set-cookie" not in moved.headers, moved.text
    assert host.get("/api/me").status_code == 401


@pytest.fixture
def fresh_url(tmp_path: Path) -> str:
    """A database of its own (the limits count the games of the test client's address stored there)."""
    return f"sqlite:///{tmp_path / 'arcade.sqlite3'}"


#: with one worker, the arcade's own booking (``admission``) would refuse a second young game against the computer
#: before the client's limit is reached; these tests are of the client's limit
TWO = Limits(new_games=100, computer_games=2, booking=400)
ONE = Limits(new_games=100, computer_games=1, booking=400)


def test_the_limit_of_games_against_the_computer_counts_the_games_moved_lately(fresh_url: str) -> None:
    with TestClient(make_app(fresh_url, workers=1, limits=TWO)) as client:
        held = [client.post("/api/games", json=VS_COMPUTER).json()["id"] for _ in range(2)]
        refused = client.post("/api/games", json=VS_COMPUTER)
        assert refused.status_code == 429
        body = refused.json()
        assert sorted(g["id"] for g in body["games"]) == sorted(held)
        assert all(g["url"] == f"/#/game/{g['id']}" and g["title"] == "Exploding Atoms" for g in body["games"])
        assert all(game_id in body["error"] for game_id in held)
        assert "adjourned" in body["error"]
        # left alone for longer than the adjournment: no longer counted (the limit is read from the database)
        storage = client.app.state.arcade.storage  # type: ignore[attr-defined]
        old = idle.iso_before(idle.ADJOURN_MINUTES * 60 + 5, time.time())
        storage.submit(lambda conn: conn.execute(update(games).where(games.c.id == held[0])
                                                 .values(updated_at=old))).result()
        assert client.post("/api/games", json=VS_COMPUTER).status_code == 201
    # a restart forgets nothing: the games still going on still count
    with TestClient(make_app(fresh_url, workers=1, limits=TWO)) as client:
        assert client.post("/api/games", json=VS_COMPUTER).status_code == 429


def test_a_rematch_against_the_computer_counts_in_the_limit(fresh_url: str) -> None:
    with TestClient(make_app(fresh_url, workers=1, limits=ONE)) as client:
        created = client.post("/api/games", json=VS_COMPUTER).json()
        token = created["tokens"]["0"]
        client.post(f"/api/games/{created['id']}/resign", headers={"X-Seat-Token": token})
        other = client.post("/api/games", json=VS_COMPUTER)
        assert other.status_code == 201
        refused = client.post(f"/api/games/{created['id']}/rematch", headers={"X-Seat-Token": token})
        assert refused.status_code == 429 and refused.json()["games"][0]["id"] == other.json()["id"]


def test_a_game_left_alone_for_days_is_ended_unfinished(client: TestClient) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    created = client.post("/api/games", json=VS_COMPUTER).json()
    fresh = client.post("/api/games", json=VS_COMPUTER).json()
    old = idle.iso_before(idle.IDLE_DAYS * 86400 + 60, time.time())
    arcade.storage.submit(lambda conn: conn.execute(update(games).where(games.c.id == created["id"])
                                                    .values(updated_at=old))).result()
    arcade.rooms.forget(arcade.rooms.peek(created["id"]))
    assert client.portal.call(idle.sweep, arcade) >= 1
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["status"] == "finished" and state["result"]["termination"] == "unfinished"
    assert state["result"]["winner"] is None and "no move for 3 days" in state["result"]["reason"]
    assert client.get(f"/api/games/{fresh['id']}").json()["status"] == "active"
