"""Fixtures for the arcade: an app on a temporary SQLite file, and a real `damier serve` process."""

from __future__ import annotations

import functools
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damier.server.app import create_app
from damier.server.limits import Limits

#: the tests of other things than the per-client limits make many games from one address quickly; the limits'
#: own tests (test_limits.py) use the defaults
GENEROUS_TEXT = "new_games=100000,computer_games=100000,hints=100000,heavy_reads=100000,booking=100000"
GENEROUS = Limits.parse(GENEROUS_TEXT)


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'arcade.sqlite3'}"


@pytest.fixture(scope="module")
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_url, workers=1, limits=GENEROUS)) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@functools.cache
def warm_kernels() -> None:
    """Compile every game's kernels once in this process, into numba's cache on disk, before the first server of
    the session starts: its workers then load them, as an installed arcade's do after its first start, instead of
    compiling them while a test waits for a computer's move (from a clean clone that warming took about a minute
    on two cores, as long as a browser test waits)."""
    from damier.server.kernels import warm_kernels as warm

    warm()


#: the suite's servers compile nothing at their start (``--compilers 0``): the session has put every kernel in
#: numba's cache (``warm_kernels``), so a worker loads what its job needs, and a server does not spend seconds of CPU
#: loading every game's kernels beside the other tests (16% of the server tests' CPU). The compiling at the start,
#: the arcade's default, is tried by test_compiler.py, the cold starts and the event loop's test (``compilers=None``).
COMPILERS: int | None = 0


def make_app(db_url: str, **options: Any) -> FastAPI:
    """``create_app`` as the suite's servers run it: ``compilers=COMPILERS`` unless a test asks otherwise."""
    warm_kernels()  # the cache full before a worker loads from it (a clean clone's first test would compile)
    options.setdefault("compilers", COMPILERS)
    return create_app(db_url, **options)


class ServerProcess:
    """`damier serve` in a subprocess, killable with SIGKILL and restartable on the same database: ``limits``, its
    per-client limits; ``args``, more options of `damier serve`; ``env``, more environment variables;
    ``open_files``, its limits of open files (soft, hard); ``compilers``, its ``--compilers`` (None: the arcade's
    default, one per worker)."""

    def __init__(self, db: str, log: Path, limits: str = GENEROUS_TEXT, args: Sequence[str] = (),
                 env: dict[str, str] | None = None, open_files: tuple[int, int] | None = None,
                 compilers: int | None = COMPILERS) -> None:
        self.db = db
        self.port = free_port()
        self.log = log
        self.env = env or {}
        self.limits = limits
        self.args = list(args)  # more options of `damier serve`
        if compilers is not None and "--compilers" not in self.args:
            self.args += ["--compilers", str(compilers)]
        self.open_files = open_files  # the process's limits of open files (soft, hard), if not this one's
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        warm_kernels()
        handle = open(self.log, "ab")  # noqa: SIM115 (kept open for the child's lifetime)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "damier.cli", "serve", "--port", str(self.port), "--db", self.db,
             "--workers", "1", "--limits", self.limits, *self.args],
            stdout=handle, stderr=subprocess.STDOUT, env={**os.environ, **self.env},
            preexec_fn=self._limit_open_files if self.open_files else None,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()}")
            time.sleep(0.2)
        raise RuntimeError(f"the server did not start: {self.log.read_text()}")

    def _limit_open_files(self) -> None:
        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, self.open_files)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "server.log")
    process.start()
    yield process
    process.stop()


#: the fields of a refusal (``{"error": English, "status", "code", "params"}``: routes/errors.py, sockets.error)
REFUSAL = {"error", "status", "code", "params"}


def said_again(payload: dict[str, Any], seats: tuple[str, ...] = ()) -> str:
    """A refusal's English said again from its code and parameters (the shared catalogue's message): what it must
    equal, so that the client, saying it from the code in another language, says the same thing."""
    from damier.core import messages
    from damier.server.words import english

    words = english()  # the rules' and the server's
    return messages.format_message(words[payload["code"]], payload["params"], "en", seats, words)
