"""``damier engine khet`` as a real process, talked to through pipes the way a GUI or another program does."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

import damier
from damier.protocol.external import EngineProcess
from tests.protocol.conftest import ENGINE


class Client:
    """The other end of the pipes: send commands, read answers with a deadline."""

    def __init__(self, engine: EngineProcess) -> None:
        self.engine = engine

    def send(self, *commands: str) -> None:
        for command in commands:
            self.engine.send(command)

    def until(self, prefix: str, timeout: float = 60.0) -> list[str]:
        """The lines read up to the first that starts with ``prefix`` (included)."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            lines.append(self.engine.read(deadline))
            if lines[-1].startswith(prefix):
                return lines


@pytest.fixture()
def client() -> Iterator[Client]:
    engine = EngineProcess(ENGINE)
    try:
        yield Client(engine)
    finally:
        engine.kill()


def test_a_session_through_pipes(client: Client) -> None:
    client.send("isready")
    assert client.until("readyok") == ["readyok"]
    client.send("newgame", "position standard j1-", "go depth 2")
    lines = client.until("bestmove")
    assert [(line.split()[:2], line.split()[3:5]) for line in lines[:-1]] == [
        (["info", "time"], ["depth", "1"]), (["info", "time"], ["depth", "2"])]
    state = damier.load("khet").new_state()
    state.play(state.parse_move("j1-"))
    assert state.is_legal(state.parse_move(lines[-1].split()[1]))
    client.send("go infinite")
    assert client.until("info time")[-1].startswith("info time")
    client.send("isready")
    assert client.until("readyok")[-1] == "readyok"  # answered while searching
    client.send("stop")
    assert client.until("bestmove")[-1].startswith("bestmove ")
    client.send("go movetime 50")
    assert client.until("bestmove")[-1].startswith("bestmove ")
    client.send("quit")
    assert client.engine.process.wait(timeout=30) == 0


def test_bad_input_is_answered_and_the_engine_carries_on(client: Client) -> None:
    client.send("hello", "position standard q9", "go depth many", "isready")
    lines = client.until("readyok")
    assert lines == [
        "info string error: unknown command 'hello'; commands: newgame, position, go, stop, setoption, isready, d, "
        "help, quit",
        lines[1],
        "info string error: go depth: 'many' is not a whole number of plies >= 1",
        "readyok",
    ]
    assert lines[1].startswith("info string error: position: move 1 (q9): 'q9' is not a Khet move")
    client.send("quit")
    assert client.engine.process.wait(timeout=30) == 0
    assert not any("Traceback" in line for line in client.engine.stderr_tail)


def test_the_end_of_input_ends_the_engine_after_its_answer() -> None:
    done = subprocess.run(ENGINE, input="position standard\ngo depth 2\n", capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("bestmove ")
    assert done.stderr == ""


def test_a_game_without_an_engine_is_refused_in_one_line() -> None:
    """Through the ``damier`` entry point (``damier.cli:main``), with the test dice game (it has no engine)."""
    program = ("import sys; from damier.core import registry; from tests.conformance.dice_game import INFO; "
               "registry.register(INFO); from damier.cli import main; sys.argv[0] = 'damier'; "
               "sys.argv[1:] = ['engine', 'test-dice']; main()")
    done = subprocess.run([sys.executable, "-c", program], input="isready\n", capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    engines = ", ".join(i.name for i in damier.games() if i.engine is not None)
    assert done.stderr.strip() == f"error: test-dice has no engine; games with one: {engines}"
