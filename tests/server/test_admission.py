"""Admission, not degradation (issue 36): what a game asks of the computer is measured (a person's game asks
little, a program's all the time), the games of people always find a worker however many programs flood the pool,
a game's computer turn waits for a worker rather than turning into a random move, and new work is refused (503,
Retry-After, words a player understands) once the work admitted fills the workers."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damier.server import admission
from damier.server.admission import Admission, Busy
from damier.server.computer import ComputerPool
from damier.server.jobs import Job
from damier.server.limits import Limits
from tests.server.conftest import make_app


class Hands:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_persons_game_asks_little_and_a_programs_all_the_time() -> None:
    hands = Hands()
    booking = Admission(2, clock=hands)
    for _ in range(12):  # a person: 10 s of thought, then the computer answers in 1 s
        hands.now += 10.0
        booking.started("person")
        booking.running("person")
        hands.now += 1.0
        booking.ended("person")
    for _ in range(120):  # a program answers at once: the computer is asked all the time
        booking.started("program")
        booking.running("program")
        hands.now += 1.0
        booking.ended("program")
    assert booking.demand("person") < 0.15 < admission.GREEDY < booking.demand("program")
    assert not booking.greedy("person") and booking.greedy("program")
    assert booking.demand("never seen") == admission.NEW_DEMAND


def test_waiting_for_a_worker_is_not_asking() -> None:
    """A person's game whose turns wait long for a worker (others flood the pool) still asks what it asked: the
    wait is the arcade's, and must not make the game look like a program's."""
    hands = Hands()
    booking = Admission(2, clock=hands)
    for _ in range(12):  # 10 s of thought, then 20 s waiting for a worker, then 1 s of thinking
        hands.now += 10.0
        booking.started("person")
        hands.now += 20.0
        booking.running("person")
        hands.now += 1.0
        booking.ended("person")
    assert booking.demand("person") < 0.15 and not booking.greedy("person")


def test_a_program_is_known_by_its_quick_replies_from_its_first_move() -> None:
    hands = Hands()
    booking = Admission(2, clock=hands)
    program, person, duel = (booking.admit_game() for _ in range(3))

    def turn(name: str, thought: float, follows: str = "person") -> None:
        hands.now += thought
        booking.started(name, follows)
        booking.running(name)
        hands.now += 1.0
        booking.ended(name)

    turn(program, 0.02)  # it moved 20 ms after the game was made: no person does
    assert booking.greedy(program)
    turn(person, 4.0)
    assert not booking.greedy(person)
    turn(person, 0.01)  # a premove
    assert booking.greedy(person)
    turn(person, 3.0)  # then a move thought: a person again
    assert not booking.greedy(person)
    turn(duel, 0.0, "start")  # a computer against a computer: its first turn follows nothing
    assert not booking.greedy(duel)
    turn(duel, 0.0, "computer")  # then one computer's move follows the other's: nobody thinks between
    assert booking.greedy(duel)


def test_a_programs_first_quick_reply_counts_from_when_its_game_was_made() -> None:
    """Under a burst, making a game may take longer than a reply is quick: the first move replies to the board the
    player was given, not to the admission."""
    hands = Hands()
    booking = Admission(2, clock=hands)
    name = booking.admit_game()
    hands.now += 2.0  # the game took 2 s to be made (stored under a burst of creations)
    booking.rename(name, "g1")
    hands.now += 0.05  # the program's first move, at once
    booking.started("g1")
    assert booking.greedy("g1")
    other = booking.admit_game()
    hands.now += 2.0
    booking.rename(other, "g2")
    hands.now += 3.0  # a person looks at the board first
    booking.started("g2")
    assert not booking.greedy("g2")


def test_a_programs_first_reply_counts_from_when_its_board_was_sent() -> None:
    """Under a burst the response that gives a new game's board may leave long after the game was made: the first
    move replies to the board from when it was sent, also when the computer played first before that."""
    hands = Hands()
    booking = Admission(2, clock=hands)
    booking.rename(booking.admit_game(), "g1")
    hands.now += 1.5  # the response left 1.5 s after the game was made
    booking.shown("g1")
    hands.now += 0.05  # the program's first move, at once
    booking.started("g1")
    assert booking.greedy("g1")
    booking.rename(booking.admit_game(), "g2")
    booking.started("g2", "start")  # its computer plays first
    booking.running("g2")
    hands.now += 0.01
    booking.ended("g2")
    hands.now += 1.5
    booking.shown("g2")  # the board, with the computer's first move, sent 1.5 s later
    hands.now += 0.05
    booking.started("g2")
    assert booking.greedy("g2")
    booking.rename(booking.admit_game(), "g3")
    booking.started("g3", "start")
    booking.shown("g3")  # sent while its computer thinks: nothing to measure from yet
    hands.now += 5.0
    booking.running("g3")
    booking.ended("g3")
    hands.now += 3.0  # a person's reply to the computer's first move
    booking.started("g3")
    assert not booking.greedy("g3")


def test_new_games_are_refused_once_the_games_under_way_fill_the_workers() -> None:
    hands = Hands()
    booking = Admission(2, clock=hands)  # 85 % of two workers: 1.7
    burst = int(2 * admission.UTILISATION / admission.PROBATION_DEMAND)  # each new game books its probation's
    assert burst >= 2
    names = [booking.admit_game() for _ in range(burst)]
    with pytest.raises(Busy, match="the arcade is busy: its computer players are fully booked"):
        booking.admit_game()
    booking.forget(names[0])  # one was not made after all
    booking.rename(booking.admit_game(), "game")
    with pytest.raises(Busy):
        booking.admit_game()
    hands.now += admission.PROBATION_SECONDS  # measured now: they asked nothing yet
    booking.admit_game()
    hands.now += 10 * admission.WINDOW  # the games were left: their demand fades, and they are forgotten
    assert booking.booked() == 0.0


def test_programs_never_book_the_worker_kept_for_people() -> None:
    hands = Hands()
    booking = Admission(2, clock=hands)

    programs = [booking.admit_game() for _ in range(2)]
    hands.now += admission.PROBATION_SECONDS
    for _ in range(60):  # a minute of turns answered at once, both programs on a worker each
        for name in programs:
            booking.started(name, "computer")
            booking.running(name)
        hands.now += 1.0
        for name in programs:
            booking.ended(name)
    assert all(booking.greedy(name) for name in programs)
    assert all(booking.demand(name) > 0.8 for name in programs)
    assert booking.booked() == 1.0  # two programs asking 2 workers book one: the other is kept for people
    people = int((2 * admission.UTILISATION - 1.0) / admission.PROBATION_DEMAND)
    assert people >= 1
    person, *_ = [booking.admit_game() for _ in range(people)]  # so people still get games
    with pytest.raises(Busy):
        booking.admit_game()  # as many as fit beside the programs' worker while they are new
    hands.now += 30.0  # the person thinks 29 s, and the computer answers in 1 s
    booking.started(person)
    booking.running(person)
    hands.now += 1.0
    booking.ended(person)
    assert not booking.greedy(person)
    booking.admit_game()  # the person's game measured, another is admitted


def test_a_one_off_job_is_refused_when_too_much_work_waits() -> None:
    booking = Admission(2)
    booking.admit_job(2 * admission.MAX_WAIT, "ask for the hint")
    with pytest.raises(Busy, match="ask for the hint again in a moment") as refused:
        booking.admit_job(2 * admission.MAX_WAIT + 2, "ask for the hint")
    assert refused.value.retry_after >= 2


def slow(number: int) -> Job:
    return Job("atoms", {"rows": 8, "cols": 8}, number, None, (), "alphabeta:time=1.0", agent_seed=number)


def quick(number: int) -> Job:
    return Job("atoms", {"rows": 3, "cols": 3}, number, None, (), "random", agent_seed=number)


def test_programs_flooding_the_pool_leave_a_worker_to_the_games_of_people() -> None:
    async def scenario() -> list[str]:
        pool = ComputerPool(2)
        hands = Hands()
        pool.admission.clock = hands
        try:
            pool.start()
            for _ in range(2):  # both workers ready, each with the kernels of both boards loaded
                await asyncio.gather(*[pool.move(job, 30.0, key=f"warm {i}", patient=True)
                                       for i, job in enumerate((quick(0), slow(0)))])
            for i in range(4):  # four programs' games, their computer thinking all the time for two minutes
                pool.admission.started(f"program {i}")
                pool.admission.running(f"program {i}")
            hands.now += 120.0
            finished: list[str] = []

            async def turn(job: Job, key: str) -> None:
                answer = await pool.move(job, 30.0, key=key, group=key, patient=True)
                assert answer["move"]  # a searched move, never a random one for want of a worker
                finished.append(key)

            programs = [asyncio.create_task(turn(slow(i), f"program {i}")) for i in range(4)]
            await asyncio.sleep(0.2)  # they are queued, one runs
            await turn(quick(9), "person")
            await asyncio.gather(*programs)
            return finished
        finally:
            pool.close()

    finished = asyncio.run(scenario())
    # the person's turn ran at once on the worker the programs leave free: done before any program's
    assert finished[0] == "person" and sorted(finished[1:]) == [f"program {i}" for i in range(4)]


def test_a_computer_turn_waits_for_a_worker_instead_of_timing_out() -> None:
    async def scenario() -> tuple[int, int]:
        pool = ComputerPool(1)
        try:
            # eight turns of 1 s on one worker, each allowed its 1 s and the grace: waiting in the queue past that
            # (the last ones wait 7 s) must not drop them, nor make their moves random
            answers = await asyncio.gather(*[pool.move(slow(i), 1.0, key=f"game {i}", patient=True)
                                             for i in range(8)])
            return sum(bool(a["move"]) for a in answers), pool.dropped
        finally:
            pool.close()

    assert asyncio.run(scenario()) == (8, 0)  # eight moves searched, none dropped


def test_the_arcade_says_it_is_busy_and_creates_nothing(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", workers=1,
                     limits=Limits(new_games=1000, computer_games=1000, booking=50))  # two young games at once
    vs_computer = {"game": "atoms", "options": {"rows": 3, "cols": 3},
                   "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}
    with TestClient(app) as client:
        answers = [client.post("/api/games", json=vs_computer) for _ in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 503]
        busy = answers[-1]
        assert busy.json()["busy"] is True and int(busy.headers["retry-after"]) > 0
        assert busy.json()["error"].startswith("the arcade is busy")
        assert len(client.app.state.arcade.storage.games.active_ids()) == 2  # type: ignore[attr-defined]
        # games between people need no computer: always admitted
        people = {**vs_computer, "seats": [{"kind": "human"}, {"kind": "human"}]}
        assert client.post("/api/games", json=people).status_code == 201


def test_starts_drawn_at_once_leave_a_worker_to_the_games() -> None:
    """A puzzle's start may search for its whole 30 s (Ricochet Robots, 30 moves: a second or more to find none),
    however quick the last ones were: drawn starts run on all workers but one, and a game's turn finds the other
    at once instead of waiting for a draw to end."""
    hardest = Job("ricochet", {"difficulty": 30}, 0, None, (), "setup", agent_seed=0, setup=True)

    async def scenario() -> list[str]:
        pool = ComputerPool(2)
        ended: list[str] = []

        async def draw(seed: int) -> None:
            with contextlib.suppress(RuntimeError):  # none of 30 moves on that board: the draw ends all the same
                await pool.move(replace(hardest, seed=seed), 30.0, key=f"setup {seed}", expected=0.1)
            ended.append("draw")

        try:
            pool.start()
            await asyncio.gather(*[pool.move(quick(i), 30.0, key=f"warm {i}", patient=True) for i in range(2)])
            draws = [asyncio.ensure_future(draw(seed)) for seed in range(1, 5)]
            await asyncio.sleep(0.1)  # drawing on both workers, if they may
            answer = await pool.move(quick(9), 30.0, key="person", patient=True)
            assert answer["move"]
            ended.append("turn")
            await asyncio.gather(*draws)
            return ended
        finally:
            pool.close()

    assert asyncio.run(scenario()) == ["turn"] + ["draw"] * 4  # the turn did not wait for a draw
