"""The API's answers to bad requests stay byte for byte what they were: a set of bad requests to every route,
replayed against the app and compared with the answers recorded from the app before the server was restructured
(issue 37: routes by resource, storage by aggregate). A change of an answer is a change of behaviour: if it is
meant, record the answers again (``python -m tests.server.test_bad_requests``) and say so in the commit.

A request may name ``{game}``, ``{race}``, ``{token}`` or ``{race_token}``: a game and a race made for the run, and
their seat tokens; the ids in the answers are written back as those names before comparing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import GENEROUS, make_app

RECORDED = Path(__file__).parent / "data" / "bad_requests.json"
#: the API's OpenAPI document as the app made it then (its keys sorted): the routes, their parameters and models
SCHEMA = Path(__file__).parent / "data" / "openapi.json"
LONG = "x" * 5000


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _requests() -> list[dict[str, Any]]:
    """(method, path, json body or raw text, headers) of each bad request."""
    out: list[dict[str, Any]] = []

    def add(method: str, path: str, body: Any = None, raw: str | None = None,
            headers: dict[str, str] | None = None) -> None:
        out.append({"method": method, "path": path, "json": body, "raw": raw, "headers": headers or {}})

    # unknown things, wrong methods, unknown routes
    add("GET", "/api/nothing")
    add("DELETE", "/api/catalog")
    add("GET", "/api/catalog/nogame/howto")
    add("GET", f"/api/catalog/{LONG}/howto")
    add("GET", "/api/games/nosuchgame")
    add("GET", "/api/races/nosuchrace")
    add("GET", "/api/analysis/nosuch")
    add("GET", f"/api/analysis/{'y' * 60}")
    add("POST", "/api/analysis/nosuch/stop")
    # creating games
    add("POST", "/api/games", raw="not json", headers={"content-type": "application/json"})
    add("POST", "/api/games", raw=deep(5000), headers={"content-type": "application/json"})
    add("POST", "/api/games", {})
    add("POST", "/api/games", {"game": "nogame", "seats": [{"kind": "human"}]})
    add("POST", "/api/games", {"game": "atoms", "seats": []})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "robot"}]})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 9})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}, {"kind": "computer", "level": "best"}]})
    add("POST", "/api/games", {"game": "atoms", "options": {"rows": 99}, "seats": [{"kind": "human"}] * 2})
    add("POST", "/api/games", {"game": "atoms", "options": {"nothing": 1}, "seats": [{"kind": "human"}] * 2})
    add("POST", "/api/games", {"game": "atoms", "options": {"rows": [1]}, "seats": [{"kind": "human"}] * 2})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 2, "seed": -1})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 2, "start": ""})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 2, "start": "garbage"})
    add("POST", "/api/games", {"game": "khet", "seats": [{"kind": "human"}] * 2, "start": "x" * 2001})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 2, "clock": "fast"})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 2, "clock": {"minutes": 999}})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 2, "hints": "maybe"})
    add("POST", "/api/games", {"game": "atoms", "seats": [{"kind": "human"}] * 3})
    add("POST", "/api/games", raw="{" + '"a": 1, ' * 20000 + '"b": 2}', headers={"content-type": "application/json"})
    # a game's actions
    add("POST", "/api/games/{game}/moves", {"move": "zz"}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/moves", {"move": "a1"}, headers={"x-seat-token": "wrong"})
    add("POST", "/api/games/{game}/moves", {"move": "a1"})
    add("POST", "/api/games/{game}/moves", {"move": ""}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/moves", {"move": "a1", "version": -1}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/moves", {"move": "a1", "version": 99}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/moves", {"move": "a1"}, headers={"x-seat-token": LONG})
    add("POST", "/api/games/nosuchgame/moves", {"move": "a1"}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/undo", headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/undo?all=perhaps", headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/undo/decline", headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/resign")
    add("POST", "/api/games/{game}/abort", headers={"x-seat-token": "wrong"})
    add("POST", "/api/games/{game}/claim", {"result": "loss"}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/claim", {"result": "win"}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/draw", {"action": "maybe"}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/draw", {"action": "accept"}, headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/hint", headers={"x-seat-token": "wrong"})
    add("POST", "/api/games/{game}/rematch?board=other", headers={"x-seat-token": "{token}"})
    add("POST", "/api/games/{game}/rematch", headers={"x-seat-token": "{token}"})
    add("GET", "/api/games/{game}/replay?from=-1")
    add("GET", "/api/games/{game}/replay?count=0")
    add("GET", "/api/games/{game}/replay?count=100000")
    add("GET", "/api/games/nosuchgame/record")
    add("GET", "/api/games/{game}/evaluations")
    add("GET", "/api/games/{game}/evaluations?version=-3")
    add("GET", "/api/games/{game}/evaluations?version=0")
    add("POST", "/api/games/nosuchgame/evaluations")
    # records
    add("POST", "/api/records", raw="nope", headers={"content-type": "application/json"})
    add("POST", "/api/records", raw=deep(5000), headers={"content-type": "application/json"})
    add("POST", "/api/records", [1, 2, 3])
    add("POST", "/api/records", {"game": "atoms"})
    add("POST", "/api/records", {"game": "nogame", "moves": []})
    add("POST", "/api/records", {"game": "atoms", "options": {}, "moves": ["zz"]})
    # positions and analysis
    add("POST", "/api/positions", {"game": "nogame"})
    add("POST", "/api/positions", {"game": "atoms", "position": "garbage"})
    add("POST", "/api/positions", {"game": "atoms", "moves": ["zz"]})
    add("POST", "/api/positions", {"game": "atoms", "moves": ["a1"] * 201})
    add("POST", "/api/positions", {"game": "atoms", "seed": "one"})
    add("POST", "/api/positions/board", {"game": "atoms", "board": {}})
    add("POST", "/api/positions/board", {"game": "atoms"})
    add("POST", "/api/positions/board", {"game": "nogame", "board": {"cells": []}})
    add("POST", "/api/analysis/board", {"game": "atoms", "move": "zz"})
    add("POST", "/api/analysis/board", {"game": "atoms", "moves": ["zz"]})
    add("POST", "/api/analysis/board", {"game": "nogame"})
    add("POST", "/api/analysis", {"game": "atoms"})
    add("POST", "/api/analysis", {"game": "atoms", "position": "garbage"})
    add("POST", "/api/analysis", {"game": "nogame", "position": "x"})
    # puzzles
    add("POST", "/api/puzzles", {"game": "atoms"})
    add("POST", "/api/puzzles", {"game": "nogame"})
    add("POST", "/api/puzzles", {"game": "ricochet", "puzzle": "garbage"})
    add("POST", "/api/puzzles", {"game": "ricochet", "daily": "2020-13-45"})
    add("POST", "/api/puzzles", {"game": "ricochet", "daily": "2999-01-01"})
    add("POST", "/api/puzzles", {"game": "ricochet", "options": {"difficulty": "impossible"}})
    add("GET", "/api/puzzles/atoms/daily")
    add("GET", "/api/puzzles/ricochet/daily?date=yesterday")
    add("GET", "/api/puzzles/ricochet/daily?date=20200101000")
    # races
    add("POST", "/api/races", {"game": "ricochet"})
    add("POST", "/api/races", {"game": "ricochet", "name": ""})
    add("POST", "/api/races", {"game": "atoms", "name": "A"})
    add("POST", "/api/races", {"game": "ricochet", "name": "A", "settings": {"round_seconds": -5}})
    add("POST", "/api/races", {"game": "ricochet", "name": "A", "settings": {"nothing": 1}})
    add("POST", "/api/races/{race}/join", {"name": "x" * 65})
    add("POST", "/api/races/nosuchrace/join", {"name": "B"})
    add("POST", "/api/races/{race}/start", headers={"x-seat-token": "wrong"})
    add("POST", "/api/races/{race}/claim", {"count": 0}, headers={"x-seat-token": "{race_token}"})
    add("POST", "/api/races/{race}/claim", {"count": 3}, headers={"x-seat-token": "{race_token}"})
    add("POST", "/api/races/{race}/demonstrate", {"moves": []}, headers={"x-seat-token": "{race_token}"})
    add("POST", "/api/races/{race}/demonstrate", {"moves": ["zz"]}, headers={"x-seat-token": "{race_token}"})
    add("POST", "/api/races/{race}/giveup", headers={"x-seat-token": "{race_token}"})
    # the lobby and this browser
    add("POST", "/api/seeks", {"game": "nogame"})
    add("POST", "/api/seeks", {"game": "atoms", "clock": "never"})
    add("DELETE", "/api/seeks/nosuchseek")
    add("POST", "/api/seeks/nosuchseek/join")
    add("GET", "/api/me", headers={"cookie": "damier_id=forged.value"})
    add("POST", "/api/me/links", headers={"cookie": "damier_id=forged.value"})
    add("POST", "/api/me/take", {"code": ""})
    add("POST", "/api/me/take", {"code": "nosuchcode"})
    # the health check
    add("GET", "/api/health?window=0")
    add("GET", "/api/health?window=61")
    return out


REQUESTS = _requests()


@pytest.fixture(scope="module")
def arcade(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    db = f"sqlite:///{tmp_path_factory.mktemp('bad') / 'arcade.sqlite3'}"
    with TestClient(make_app(db, workers=1, limits=GENEROUS, compilers=0)) as client:
        yield client, made(client)


def made(client: TestClient) -> dict[str, str]:
    """The game and the race the requests name, made for the run: their names and values."""
    game = client.post("/api/games", json={"game": "atoms", "options": {"rows": 3, "cols": 3},
                                           "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    race = client.post("/api/races", json={"game": "ricochet", "name": "Host"}).json()
    return {"{game}": game["id"], "{token}": game["tokens"]["0"], "{race}": race["id"],
            "{race_token}": race["token"]}


def _fill(text: str, names: dict[str, str]) -> str:
    for name, value in names.items():
        text = text.replace(name, value)
    return text


def _unfill(text: str, names: dict[str, str]) -> str:
    for name, value in names.items():
        text = text.replace(value, name)
    return text


def answer(client: TestClient, names: dict[str, str], request: dict[str, Any]) -> dict[str, Any]:
    headers = {key: _fill(value, names) for key, value in request["headers"].items()}
    content = request["raw"] if request["raw"] is not None else \
        None if request["json"] is None else _fill(json.dumps(request["json"]), names)
    if request["json"] is not None:
        headers.setdefault("content-type", "application/json")
    client.cookies.clear()
    response = client.request(request["method"], _fill(request["path"], names), content=content, headers=headers)
    return {"status": response.status_code, "body": _unfill(response.text, names),
            "retry_after": response.headers.get("retry-after")}


def key_of(request: dict[str, Any]) -> str:
    body = request["raw"] if request["raw"] is not None else json.dumps(request["json"])
    return f"{request['method']} {request['path']} {body[:120]} {json.dumps(request['headers'])[:120]}"


def test_every_bad_request_is_answered_as_recorded(arcade: tuple[TestClient, dict[str, str]]) -> None:
    client, names = arcade
    recorded = json.loads(RECORDED.read_text())
    assert [entry["request"] for entry in recorded] == [key_of(r) for r in REQUESTS], \
        "the set of bad requests changed: record the answers again"
    for entry, request in zip(recorded, REQUESTS, strict=True):
        got = answer(client, names, request)
        assert got == entry["answer"], entry["request"]
    # and every one was a refusal, none a success (a bad request changes nothing)
    assert all(entry["answer"]["status"] >= 400 for entry in recorded)


def schema_text(client: TestClient) -> str:
    return json.dumps(client.app.openapi(), sort_keys=True, indent=1) + "\n"  # type: ignore[attr-defined]


def test_the_api_schema_is_as_recorded(arcade: tuple[TestClient, dict[str, str]]) -> None:
    client, _names = arcade
    made = json.loads(schema_text(client))
    recorded = json.loads(SCHEMA.read_text())
    assert sorted(made["paths"]) == sorted(recorded["paths"])
    for path, operations in recorded["paths"].items():
        assert made["paths"][path] == operations, path
    assert made == recorded


def record(path: Path = RECORDED) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder, \
            TestClient(make_app(f"sqlite:///{folder}/arcade.sqlite3", workers=1, limits=GENEROUS,
                                  compilers=0)) as client:
        names = made(client)
        entries = [{"request": key_of(r), "answer": answer(client, names, r)} for r in REQUESTS]
        SCHEMA.write_text(schema_text(client))
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(entries, indent=1) + "\n")
    print(f"recorded {len(entries)} answers in {path}")


if __name__ == "__main__":
    record()
