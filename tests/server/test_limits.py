"""What one client address may ask (issue 13, finding 4): new games a minute, games with a computer seat at once,
hints at once; past a limit 429 with Retry-After, and nothing done."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.server.limits import ClientLimits, Limits
from damier.server.rooms.errors import TooMany
from tests.server.conftest import make_app

HUMANS = {"game": "atoms", "options": {"rows": 3, "cols": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]}
VS_COMPUTER = {"game": "atoms", "options": {"rows": 3, "cols": 3},
               "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}


@pytest.fixture
def limited(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    # one worker: the arcade's own booking (``admission``, which the busy tests cover) would refuse a second young
    # game against the computer before a client's limits are reached; these tests are of the client's limits
    limits = replace(getattr(request, "param", None) or Limits(), booking=400)
    with TestClient(make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1, limits=limits)) as client:
        yield client


def test_the_allowance_is_the_limit_at_once_then_refilled_at_the_limit_a_minute() -> None:
    now = [1000.0]
    limits = ClientLimits(Limits(new_games=30), clock=lambda: now[0])
    for _ in range(30):
        limits.new_game("1.2.3.4")
    with pytest.raises(TooMany) as refused:
        limits.new_game("1.2.3.4")
    assert refused.value.retry_after == 2  # one game back in 2 s at 30 a minute
    limits.new_game("5.6.7.8")  # another address has its own allowance
    now[0] += 1.5
    with pytest.raises(TooMany):
        limits.new_game("1.2.3.4")
    now[0] += 0.6
    limits.new_game("1.2.3.4")  # 2.1 s: one game back, and only one
    with pytest.raises(TooMany):
        limits.new_game("1.2.3.4")
    now[0] += 3600
    for _ in range(30):  # an hour later the whole allowance, no more
        limits.new_game("1.2.3.4")
    with pytest.raises(TooMany):
        limits.new_game("1.2.3.4")


def test_new_games_past_the_limit_a_minute_get_429_with_retry_after(limited: TestClient) -> None:
    limit = Limits().new_games
    created = 0
    while (refused := limited.post("/api/games", json=HUMANS)).status_code == 201 and created <= 3 * limit:
        created += 1
    # the allowance: the limit at once (its refill is counted above, with a clock of the test's own)
    assert limit <= created < 3 * limit, created
    assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 3
    assert refused.json()["error"] == "more than 30 new games a minute from your address; wait a moment"
    # puzzles, races and imported records come from the same allowance
    assert limited.post("/api/puzzles", json={"game": "micro"}).status_code == 429
    assert limited.post("/api/races", json={"game": "micro", "name": "Ann"}).status_code == 429


def test_games_with_a_computer_seat_are_limited_while_they_go_on(limited: TestClient) -> None:
    games = []
    for _ in range(Limits().computer_games):
        created = limited.post("/api/games", json=VS_COMPUTER)
        assert created.status_code == 201, created.text
        games.append(created.json())
    refused = limited.post("/api/games", json=VS_COMPUTER)
    assert refused.status_code == 429 and refused.headers["retry-after"] == "30"
    assert "4 games with a computer seat going on" in refused.json()["error"]
    assert limited.post("/api/games", json=HUMANS).status_code == 201  # games between people are not counted
    first = games[0]
    resigned = limited.post(f"/api/games/{first['id']}/resign", headers={"X-Seat-Token": first["tokens"]["0"]})
    assert resigned.status_code == 200, resigned.text
    assert limited.post("/api/games", json=VS_COMPUTER).status_code == 201  # one ended: one more may start


def test_games_with_a_computer_seat_asked_at_once_cannot_all_pass_the_limit(limited: TestClient) -> None:
    answers: list[int] = []

    def ask() -> None:
        answers.append(limited.post("/api/games", json=VS_COMPUTER).status_code)

    threads = [threading.Thread(target=ask) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert answers.count(201) == Limits().computer_games and answers.count(429) == 12 - Limits().computer_games


@pytest.mark.parametrize("limited", [Limits(hints=1)], indirect=True)
@pytest.mark.alone  # the first hint must still run a second later and end within its time: a search of its own
def test_hints_past_the_limit_at_once_get_429(limited: TestClient) -> None:
    hard = []
    for _ in range(2):  # the hardest known puzzle: its whole-line hint searches for seconds
        created = limited.post("/api/puzzles", json={"game": "ricochet", "puzzle": "7650+42+E2302B12+C9"})
        assert created.status_code == 201, created.text
        hard.append(created.json())
    answers: dict[int, Any] = {}

    def ask(k: int) -> None:
        answers[k] = limited.post(f"/api/games/{hard[k]['id']}/hint?level=4",
                                  headers={"X-Seat-Token": hard[k]["token"]})

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    time.sleep(1.0)  # the first hint is being computed
    ask(1)
    first.join(timeout=120)
    assert answers[0].status_code == 200, answers[0].text
    assert answers[1].status_code == 429 and answers[1].headers["retry-after"] == "2"
    assert "1 hints are being computed for your address already" in answers[1].json()["error"]
    ask(1)  # the first is done: the second may be asked now
    assert answers[1].status_code == 200, answers[1].text


def test_limits_are_read_from_their_text_and_a_bad_one_is_refused() -> None:
    assert Limits.parse("") == Limits()
    assert Limits.parse("new_games=5, hints=3") == Limits(new_games=5, computer_games=4, hints=3)
    for bad in ("games=3", "hints=0", "hints=x", "hints"):
        with pytest.raises(ValueError, match="a limit is NAME=N with N >= 1 and NAME one of new_games, "
                                             "computer_games, hints"):
            Limits.parse(bad)
    done = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--limits", "hints=0"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.strip().startswith("error: --limits: a limit is NAME=N"), done.stderr


@pytest.mark.parametrize("limited", [Limits(heavy_reads=5)], indirect=True)
def test_heavy_reads_past_the_limit_a_minute_get_429(limited: TestClient) -> None:
    check = {"game": "atoms", "options": {"rows": 3, "cols": 3}}
    started, answered = time.monotonic(), 0
    while (refused := limited.post("/api/positions", json=check)).status_code == 200 and answered < 20:
        answered += 1
    # 5 at once, and one more for every 12 s the reads took (5 a minute): on a slow machine they may take that long
    assert 5 <= answered <= 5 + (time.monotonic() - started) / 12, answered
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "heavy reads a minute from your address" in refused.json()["error"]
    # the analysis board and the puzzle of the day come from the same allowance
    assert limited.post("/api/analysis/board", json=check).status_code == 429
    assert limited.get("/api/puzzles/micro/daily").status_code == 429


def test_a_short_request_cannot_buy_a_huge_answer(limited: TestClient) -> None:
    # 200 moves on the largest Atoms board with eight colours: each board is large; their sum is refused
    import damier

    game = damier.load("atoms", rows=26, cols=26, players=8)
    state = game.new_state()
    line = []
    for _ in range(200):
        move = state.legal_moves()[len(line) % len(state.legal_moves())]
        line.append(state.move_to_str(move))
        state.play(move)
    refused = limited.post("/api/positions", json={"game": "atoms", "options": {"rows": 26, "cols": 26, "players": 8},
                                                   "moves": line})
    assert refused.status_code == 422, refused.text
    assert "the boards of this line pass 256 KB at move" in refused.json()["error"]
    assert len(refused.content) < 1024
