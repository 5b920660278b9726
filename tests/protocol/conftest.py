"""Engines for the protocol tests: damier's own (a real ``damier engine khet`` process) and tiny fake engines
written as Python scripts under ``tmp_path``, each misbehaving in one way."""

from __future__ import annotations

import shlex
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

#: damier's engine as a command line, run by this interpreter
ENGINE = [sys.executable, "-m", "damier.cli", "engine", "khet"]

FAKE_ENGINE = textwrap.dedent('''
    """A fake engine: speaks just enough of the protocol, then misbehaves as ``MODE`` says."""
    import os, subprocess, sys, time

    mode, pid_file = sys.argv[1], sys.argv[2]
    with open(pid_file, "w") as handle:
        handle.write(str(os.getpid()))
    if mode == "mute":  # never says anything
        time.sleep(600)
    if mode == "exit-at-once":
        print("cannot open my opening book", file=sys.stderr, flush=True)
        sys.exit(5)
    if mode in ("spawn", "spawn-exit"):  # starts a helper process, then hangs like "hang" (or plays, and exits
        # on quit without it)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        with open(pid_file + ".child", "w") as handle:
            handle.write(str(child.pid))
        mode = "hang" if mode == "spawn" else "legal"
    answers = {"illegal": "bestmove x9", "wrong-side": "bestmove a8-", "none": "bestmove none", "empty": "bestmove",
               "claim": "bestmove claim"}
    for line in sys.stdin:
        with open(pid_file + ".log", "a") as log:  # what the engine was told
            log.write(line)
        words = line.split()
        if not words:
            continue
        if mode == "khet2ai" and words[0] not in ("newgame", "position", "go", "stop", "quit"):
            # Khet2-AI's answer to a command it does not know (it has no isready, no setoption)
            print("info string Unrecognised message type: " + line.strip(), flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "setoption" and mode == "no-options":
            print("info string error: unknown command 'setoption'", flush=True)
        elif words[0] == "position" and mode == "complain":
            print("info string error: I only know the standard setup", flush=True)
        elif words[0] == "go":
            if mode == "crash":
                print("Traceback (most recent call last):", file=sys.stderr, flush=True)
                print("ZeroDivisionError: boom", file=sys.stderr, flush=True)
                sys.exit(3)
            if mode in ("hang", "spawn"):
                continue
            print("info time 1 depth 1 score 0 nodes 1 nps 1000 pv j1-", flush=True)
            print(answers.get(mode, "bestmove j1-"), flush=True)
        elif words[0] == "quit":
            break
''')


@pytest.fixture()
def fake_engine(tmp_path: Path) -> Callable[[str], tuple[str, Path]]:
    """``fake_engine(mode)``: (the command line of a fake engine behaving as ``mode``, its pid file)."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def make(mode: str) -> tuple[str, Path]:
        pid_file = tmp_path / f"{mode}.pid"
        return shlex.join([sys.executable, str(script), mode, str(pid_file)]), pid_file

    return make
