"""A fast first start (issue 35), measured: `damier serve` from an empty numba cache (a fresh install: its
``NUMBA_CACHE_DIR`` an empty folder) beside the same server restarted on the cache it filled, in one run.

    python benchmarks/cold_start.py [--workers 2] [--level hard] [--base PATH]

For each start: the seconds until the server answers; the home page with every card (``/`` and
``/api/catalog``, which carries every card's picture) and every How to play page, each timed from its request;
then, one after the other, a new game of each game with computer levels, the computer (``--level``) moving first:
the seconds its creation took (it waits for the game's rules to compile), and from the creation to the computer's
first move, beside its budget: the seconds it waited for its game's kernels to compile (read from
``/api/health``), the rest (its thinking, after them), and whether it searched (the server logs each random move
played instead). Last, the seconds compiling every kernel took. Goals: the home
page and every How to play page under 2 s; the first answer within its budget + 1 s once its kernels are ready.

With ``--base PATH`` (another checkout: the code before the fix), the same for it, in the same run; a server
without the compiler's report shows no waits.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from damier.agents.spec import resolve  # noqa: E402
from damier.core import registry  # noqa: E402
from damier.server.computer import budget_seconds  # noqa: E402

#: the longest a computer's first move may take on a loaded machine before the run gives up on it
ANSWER_SECONDS = 900.0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`damier serve` of ``checkout`` with its numba cache in ``cache``, on a new database in ``folder``."""

    def __init__(self, checkout: Path, cache: Path, folder: Path, workers: int, name: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"{name}.log"
        env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=str(cache))
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "damier.cli", "serve", "--port", str(self.port), "--workers", str(workers),
             "--db", f"sqlite:///{folder / f'{name}.sqlite3'}", "--limits",
             "new_games=1000,computer_games=1000,hints=1000"],
            stdout=open(self.log, "ab"), stderr=subprocess.STDOUT, env=env, cwd=checkout,  # noqa: SIM115
            start_new_session=True)
        self.client = httpx.Client(base_url=self.url, timeout=ANSWER_SECONDS)

    def answering(self) -> float:
        """The seconds from the start until the health check answers."""
        deadline = time.monotonic() + 120
        while True:
            try:
                self.client.get("/api/health", timeout=1).raise_for_status()
                return time.monotonic() - self.started
            except httpx.HTTPError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"the server did not start: {self.log.read_text()[-2000:]}") from None
                time.sleep(0.05)

    def kernels(self) -> dict[str, Any] | None:
        status: dict[str, Any] | None = self.client.get("/api/health").json().get("kernels")
        return status

    def timed(self, path: str) -> float:
        started = time.monotonic()
        self.client.get(path).raise_for_status()
        return time.monotonic() - started

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.client.close()


def first_answer(server: Server, game: str, level: str) -> dict[str, Any]:
    """A new game of ``game`` whose first seat is the computer at ``level``: the seconds to its first move, the
    seconds it waited for its game's kernels (None: the server does not say), and whether it searched."""
    started = time.monotonic()
    created = server.client.post("/api/games", json={
        "game": game, "options": {}, "seats": [{"kind": "computer", "level": level}, {"kind": "human"}]})
    created.raise_for_status()
    made = time.monotonic() - started
    game_id = created.json()["id"]
    ready_at: float | None = None
    while True:
        kernels = server.kernels()
        now = time.monotonic()
        if ready_at is None and kernels is not None and f"{game} computer" not in kernels["pending"]:
            ready_at = now
        if server.client.get(f"/api/games/{game_id}").json()["moves"]:
            break
        if now - started > ANSWER_SECONDS:
            raise SystemExit(f"no first move in {game} within {ANSWER_SECONDS:.0f} s")
        time.sleep(0.05)
    answered = time.monotonic()
    searched = game_id not in "".join(line for line in server.log.read_text().splitlines() if "random move" in line)
    waited = None if ready_at is None else max(0.0, ready_at - started)
    return {"game": game, "created": made, "seconds": answered - started, "waited": waited,
            "budget": budget_seconds(resolve(level, game)), "searched": searched}


def run(checkout: Path, cache: Path, folder: Path, workers: int, level: str, name: str) -> dict[str, Any]:
    """One start of the server of ``checkout`` on ``cache``, measured."""
    server = Server(checkout, cache, folder, workers, name)
    try:
        out: dict[str, Any] = {"start": server.answering()}
        out["home"] = server.timed("/") + server.timed("/api/catalog")
        games = server.client.get("/api/catalog").json()
        out["howto"] = {g["name"]: server.timed(f"/api/catalog/{g['name']}/howto") for g in games
                        if "howto" in g["features"]}
        out["answers"] = [first_answer(server, g["name"], level) for g in games if g["players"] != "1"]
        deadline = time.monotonic() + ANSWER_SECONDS
        while (kernels := server.kernels()) is not None and not kernels["ready"] and time.monotonic() < deadline:
            time.sleep(0.5)
        out["compiled"] = None if kernels is None else (kernels["seconds"], kernels["compiled"])
        return out
    finally:
        server.stop()


def show(label: str, result: dict[str, Any]) -> None:
    howto = result["howto"]
    worst = max(howto, key=howto.get) if howto else "-"
    print(f"{label}: answers after {result['start']:.1f} s; home page {result['home']:.2f} s; How to play pages: "
          f"at worst {howto.get(worst, 0):.2f} s ({worst}), {' '.join(f'{k} {v:.2f}' for k, v in howto.items())}")
    for answer in result["answers"]:
        waited = answer["waited"]
        thought = answer["seconds"] - (waited or 0.0)
        print(f"  {answer['game']:<8} created in {answer['created']:4.1f} s, first computer move "
              f"{answer['seconds']:6.1f} s = "
              + (f"{waited:5.1f} s waiting for its kernels + " if waited is not None else "")
              + f"{thought:4.1f} s (budget {answer['budget']:.1f} s, goal under {answer['budget'] + 1:.1f} s): "
              + ("searched" if answer["searched"] else "RANDOM"))
    if result["compiled"] is not None:
        seconds, kernels = result["compiled"]
        print(f"  every kernel ready after {seconds:.0f} s ({kernels} compiled)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--level", default="hard", help="the computer's level in every game")
    parser.add_argument("--base", type=Path, help="another checkout to measure beside this one")
    args = parser.parse_args()
    checkouts = [("this", HERE)] + ([("base", args.base.resolve())] if args.base else [])
    print(f"{len(registry.all_infos())} games; {args.workers} workers; computer level {args.level}; "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, checkout in checkouts:
            cache, folder = Path(tmp) / f"{label}-cache", Path(tmp) / label
            cache.mkdir()
            folder.mkdir()
            show(f"{label}, empty cache", run(checkout, cache, folder, args.workers, args.level, "cold"))
            show(f"{label}, full cache ", run(checkout, cache, folder, args.workers, args.level, "warm"))


if __name__ == "__main__":
    main()
