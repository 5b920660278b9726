"""`damier serve` in a terminal: a port in use is one line of error before anything is made, and Ctrl-C (SIGINT
to the whole process group, as a terminal sends it) stops the arcade with one line and no traceback from its
workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.conftest import GENEROUS_TEXT, ServerProcess, free_port


def serve(*args: str) -> list[str]:
    return [sys.executable, "-m", "damier.cli", "serve", "--workers", "1", "--limits", GENEROUS_TEXT, *args]


def test_a_port_in_use_is_one_line_and_no_database_is_made(server: ServerProcess, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    result = subprocess.run(serve("--port", str(server.port), "--db", f"sqlite:///{other}"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: port {server.port} on 127.0.0.1 is in use (another server?); choose another with --port"]
    assert "arcade on" not in result.stdout
    assert not other.exists()


def test_ctrl_c_stops_the_arcade_and_its_workers_with_one_line(tmp_path: Path) -> None:
    port = free_port()
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        process = subprocess.Popen(serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 'a.sqlite3'}"),
                                   stdout=stdout, stderr=stderr, start_new_session=True)
    group = process.pid
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.2)
        created = httpx.post(f"{url}/api/games", json={  # the worker thinks while Ctrl-C comes
            "game": "atoms", "options": {}, "seats": [{"kind": "computer", "level": "hard"}, {"kind": "human"}]})
        assert created.status_code == 201, created.text
        time.sleep(1.0)
        os.killpg(group, signal.SIGINT)
        assert process.wait(timeout=30) == 130  # the shell's code for a program stopped by Ctrl-C
        deadline = time.monotonic() + 15
        while True:  # every process of the group (the workers) is gone
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, "a worker outlived the server"
            time.sleep(0.2)
    finally:
        if process.poll() is None:
            os.killpg(group, signal.SIGKILL)
    assert err.read_text() == ""
    assert out.read_text().strip().splitlines()[-1] == "damier arcade stopped"
