"""The computer players' pool under load (issue 13, findings 1 and 2): a search past its deadline is killed and
its worker replaced; jobs wait in a fair queue (round-robin between games) and one whose deadline passes while
it waits is answered then, not run; the queue is bounded; workers die with the server, also when it is killed
while a search holds a worker."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from damier.server import computer
from damier.server.computer import Busy, ComputerPool
from damier.server.jobs import Job
from tests.server.conftest import ServerProcess

#: a search that never ends by itself: depth 40 on a 10 x 10 board
ENDLESS = Job("atoms", {"rows": 10, "cols": 10}, 1, None, ("a1", "j10"), "alphabeta:depth=40", agent_seed=1)


def quick(number: int) -> Job:
    return Job("atoms", {"rows": 3, "cols": 3}, number, None, (), "random", agent_seed=number)


def test_a_search_past_its_deadline_is_killed_and_its_worker_replaced() -> None:
    async def scenario() -> tuple[str, dict[str, object], int]:
        pool = ComputerPool(1)
        try:
            with pytest.raises(TimeoutError) as caught:
                await pool.move(ENDLESS, 1.0, key="slow game")
            answer = await pool.move(quick(1), 5.0, key="next game")  # a new worker answers
            return str(caught.value), answer, pool.killed
        finally:
            pool.close()

    # the search never ends by itself: only the deadline (1 s and the grace) ends the wait, by killing the worker
    message, answer, killed = asyncio.run(scenario())
    assert "no answer within" in message and killed == 1
    assert isinstance(answer["move"], str)


def test_lines_are_served_in_turn_and_a_job_past_its_deadline_is_not_run() -> None:
    async def scenario() -> tuple[list[str], int, str]:
        pool = ComputerPool(1)
        done: list[str] = []
        try:
            await pool.move(quick(0), 30.0, key="warm")  # the worker started

            async def ask(name: str, key: str) -> None:
                await pool.move(quick(len(done) + 1), 30.0, key=key)
                done.append(name)

            # three jobs of game A are asked before game B's one: B's goes second
            tasks = [asyncio.create_task(ask(f"A{i}", "A")) for i in range(1, 4)]
            await asyncio.sleep(0)
            tasks.append(asyncio.create_task(ask("B1", "B")))
            await asyncio.gather(*tasks)
            # a job waiting behind an endless search is answered at its deadline, not when the worker frees
            slow = asyncio.create_task(pool.move(ENDLESS, 3.0, key="slow"))
            await asyncio.sleep(0.5)
            with pytest.raises(TimeoutError) as caught:
                await pool.move(quick(9), 0.0, key="late")
            assert not slow.done()  # answered before the endless search ended (at its own deadline)
            with pytest.raises(TimeoutError):
                await slow
            return done, pool.dropped, str(caught.value)
        finally:
            pool.close()

    order, dropped, message = asyncio.run(scenario())
    assert order == ["A1", "B1", "A2", "A3"]
    assert dropped == 1 and "its deadline passed while it waited" in message


def test_the_queue_is_bounded_per_line_and_in_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computer, "MAX_WAITING", 5)  # one runs; four of one game and one of another wait

    async def scenario() -> tuple[str, str]:
        pool = ComputerPool(1)
        try:
            running = asyncio.create_task(pool.move(ENDLESS, 2.0, key="x"))
            await asyncio.sleep(0)
            waiting = [asyncio.create_task(pool.move(quick(i), 30.0, key="game")) for i in range(4)]
            await asyncio.sleep(0)
            with pytest.raises(Busy) as per_line:
                await pool.move(quick(5), 30.0, key="game")
            waiting.append(asyncio.create_task(pool.move(quick(6), 30.0, key="other")))
            await asyncio.sleep(0)
            with pytest.raises(Busy) as in_all:
                await pool.move(quick(7), 30.0, key="third")
            await asyncio.gather(running, *waiting, return_exceptions=True)
            return str(per_line.value), str(in_all.value)
        finally:
            pool.close()

    per_line, in_all = asyncio.run(scenario())
    assert "busy" in per_line and "busy" in in_all


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry.name))
    return out


def alive(pids: set[int]) -> set[int]:
    living = set()
    for pid in pids:
        try:
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_the_server_even_mid_search(tmp_path: Path, how: signal.Signals) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "server.log")
    server.start()
    try:
        assert server.process is not None
        created = httpx.post(f"{server.url}/api/games", timeout=30, json={
            "game": "atoms", "options": {"rows": 12, "cols": 12, "players": 4},
            "seats": [{"kind": "computer", "level": "atoms-classic"}] * 4}).json()
        assert "id" in created, created
        deadline = time.monotonic() + 30
        workers: set[int] = set()
        while time.monotonic() < deadline and not workers:
            workers = {p for p in children_of(server.process.pid)
                       if b"multiprocessing" in (Path("/proc") / str(p) / "cmdline").read_bytes()}
            time.sleep(0.2)
        assert workers, "no worker process started"
        time.sleep(1.0)  # a search is under way
        os.kill(server.process.pid, how)
        server.process.wait(timeout=30)
        deadline = time.monotonic() + 5
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(workers), f"workers left running after {how.name}: {alive(workers)}"
    finally:
        server.stop()


def test_one_client_never_takes_every_worker_from_the_others() -> None:
    async def scenario() -> tuple[int, int]:
        pool = ComputerPool(2)
        try:
            await asyncio.gather(pool.move(quick(0), 30.0, key="w0"), pool.move(quick(1), 30.0, key="w1"))
            # one address floods the pool with endless searches from several games: at most one worker is its
            attacker = [asyncio.create_task(pool.move(ENDLESS, 2.0, key=f"game {i}", group="attacker"))
                        for i in range(4)]
            await asyncio.sleep(0.5)
            await pool.move(quick(2), 30.0, key="victim's game", group="victim")
            # a free worker at once, not behind the attacker's searches: they have not ended yet (they end only
            # at their deadline, 2 s each, one after the other)
            still_running = sum(not task.done() for task in attacker)
            outcomes = await asyncio.gather(*attacker, return_exceptions=True)
            return still_running, sum(isinstance(o, TimeoutError) for o in outcomes)
        finally:
            pool.close()

    still_running, timed_out = asyncio.run(scenario())
    assert still_running == 4
    assert timed_out == 4


def test_a_ctrl_c_while_a_worker_starts_does_not_end_it() -> None:
    """Ctrl-C reaches the whole process group; a worker still starting (importing, before its code ignores it)
    must not die of it with a traceback: it starts with SIGINT blocked, and the server stops it itself."""
    worker = computer.Worker()
    try:
        os.kill(worker.process.pid, signal.SIGINT)  # at once: the new interpreter is still starting
        status, value = worker.run(computer.Part("atoms", "rules"), 120)
        assert status == "ok", value
    finally:
        worker.kill()
