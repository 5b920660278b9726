"""damier's Exploding Atoms alpha-beta against the minimax of notshridhar/chain-reaction-ai, game by game.

    python benchmarks/peers/atoms_minimax.py --peer PEER_DIR [--board 9x6] [--depth 2 | --time T] [--games 50]
        [--seed 0] [--opening 2] [--damier "alphabeta:time={time}"] [--randomness 1] [--interpreter pypy3] [--json]

PEER_DIR is a checkout of github.com/notshridhar/chain-reaction-ai outside this repository; on 9x6 its C backend
must have been built there (``python3 setup.py build_ext --inplace``, the extension of its ``setup.py``). This
script only imports the peer from that folder (``sys.path``) and prints a sha256 of its sources and its commit.

The peer's board is a list of ``rows * cols`` ints, row-major from the top-left square (damier's A1): ``+k`` for k
atoms of player 0 (damier's Red, who moves first), ``-k`` for player 1 (Blue), 0 for empty. ``shape`` is (rows,
cols), so the peer's 9x6 is damier's ``rows=9, cols=6``. Its C backend hard-codes that board (54 squares); on any
other board (8x8) the peer searches with its Python backend, the same search and evaluation in Python.
``--interpreter pypy3`` runs that Python backend under PyPy (Debian's ``pypy3``) in a subprocess
(``atoms_minimax_worker.py``, which imports only the standard library and the peer): about 5 times faster than
CPython on 8x8, the same moves.

Its search, ``load_scores(board, player, depth)`` (the ``best_move`` wrapper picks the top score; ``--randomness
N`` lets it pick among its N best, as its game does with 3): "depth" d searches 2d plies, the mover's move and the
reply d times (depth 2 = 4 plies), with alpha-beta and the "classic" critical-squares evaluation at the leaves.

Two modes:

- ``--depth D`` (default 2): the peer at its fixed depth D; damier, at each of its moves, gets the running mean
  of the peer's times so far in the match (a calibration search of the peer on the first opening starts it).
- ``--time T``: T seconds a move for both. The peer is wrapped in iterative deepening here: depth 1, 2, ... while
  time remains, each in a worker process that is killed when T runs out; the move is that of the last completed
  depth (depth 1 always completes, as damier's).

Seats alternate; each pair of games starts from the same seeded random opening of ``--opening`` plies. After every
ply the peer's engine (its ``ChainReactionGame``) and damier's state must agree (the move legal in both, the same
board, the same player to move, the same end and winner); otherwise the script prints ``!!! DISAGREEMENT`` with
both positions and exits 1. Reported: damier's wins, draws and losses, its score with a Wilson 95% interval, each
side's mean seconds and depth per move (damier's depth in plies, the peer's in its units and in plies), plies per
game.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import multiprocessing
import multiprocessing.connection
import platform
import random
import select
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # damier from this checkout, run from anywhere

import damier
from damier.agents.spec import make_agent
from damier.ai.alphabeta import AlphaBetaAgent
from damier.games.atoms.rules import AtomsState

#: the one board the peer's C backend knows (its NTABLE and loops are written for 9 rows of 6)
C_SHAPE = (9, 6)
#: deepest peer depth the iterative deepening tries (2 plies each)
PEER_MAX_DEPTH = 16


# ----- the peer ---------------------------------------------------------------------------------------------
def peer_identity(folder: Path) -> tuple[str, str]:
    """A short sha256 of the peer's Python and C sources (which code was measured) and its git commit."""
    files = sorted(p for p in folder.rglob("*") if p.suffix in {".py", ".c", ".h"} and ".git" not in p.parts
                   and "build" not in p.parts)
    if not (folder / "chain_reaction" / "wrappers" / "minimax.py").is_file():
        raise SystemExit(f"{folder} is not a checkout of notshridhar/chain-reaction-ai (no chain_reaction/wrappers)")
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    try:
        commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return digest.hexdigest()[:16], commit


def load_peer(folder: Path, shape: tuple[int, int], backend: str) -> tuple[Any, Any]:
    """The peer's engine and minimax wrapper modules, initialised for ``shape`` and ``backend``."""
    sys.path.insert(0, str(folder.resolve()))
    engine = importlib.import_module("chain_reaction.wrappers.engine")
    minimax = importlib.import_module("chain_reaction.wrappers.minimax")
    if not str(Path(str(engine.__file__)).resolve()).startswith(str(folder.resolve())):
        raise SystemExit(f"chain_reaction was imported from {engine.__file__}, not from {folder}")
    engine.init(shape)
    try:
        minimax.init(backend)
    except ImportError as error:
        raise SystemExit(f"the peer's C backend is not built in {folder} ({error}): run "
                         f"'python3 setup.py build_ext --inplace' there") from error
    return engine, minimax


def _worker(conn: multiprocessing.connection.Connection, parent: multiprocessing.connection.Connection,
            minimax: Any) -> None:
    """The peer's search in its own process: ("seed", s) seeds its ``random``; ("search", board, player, depth,
    randomness) answers (move, seconds). It ends when the match's process does (the pipe's end)."""
    parent.close()  # so that the match's end closes the pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupted match stops in its own process
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    conn.send("ready")
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] == "seed":
            random.seed(message[1])
            conn.send("ok")
        elif message[0] == "search":
            _, board, player, depth, randomness = message
            started = time.perf_counter()
            move = minimax.best_move(board, player, depth, randomness)
            conn.send((int(move), time.perf_counter() - started))
        else:
            return


class _Forked:
    """The peer's worker forked from this process (it inherits the initialised peer), behind a pipe: ``send``,
    ``recv``, ``poll``; ``kill`` at once, or ``end`` after a ``quit``."""

    def __init__(self, minimax: Any) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, self._conn, minimax), daemon=True)
        self.process.start()
        child.close()
        self.send, self.recv, self.poll = self._conn.send, self._conn.recv, self._conn.poll

    def kill(self) -> None:
        self.process.kill()
        self.process.join()
        self._conn.close()

    def end(self, timeout: float) -> None:
        self.process.join(timeout)
        if self.process.is_alive():
            self.kill()


class _Interpreter:
    """The peer's worker under another Python (``--interpreter``): ``atoms_minimax_worker.py`` in a subprocess,
    one JSON line each way, with the calls ``_Forked`` offers."""

    def __init__(self, interpreter: str, folder: Path, shape: tuple[int, int]) -> None:
        worker = Path(__file__).with_name("atoms_minimax_worker.py")
        self.process = subprocess.Popen([interpreter, str(worker), str(folder.resolve()), *map(str, shape)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in, self._out = self.process.stdin, self.process.stdout

    def send(self, message: Any) -> None:
        self._in.write(json.dumps(message).encode() + b"\n")

    def recv(self) -> Any:
        line = self._out.readline()
        if not line:
            raise EOFError("the peer's worker ended")
        return json.loads(line)

    def poll(self, timeout: float) -> bool:
        return bool(select.select([self._out], [], [], max(0.0, timeout))[0])

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._in.close()
        self._out.close()

    def end(self, timeout: float) -> None:
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


class PeerPlayer:
    """The peer's minimax, in a worker process that can be killed when its time runs out: a fork of this process,
    or with ``interpreter`` a subprocess of another Python (the peer's Python backend under PyPy, say)."""

    def __init__(self, minimax: Any, randomness: int, interpreter: str | None = None, folder: Path | None = None,
                 shape: tuple[int, int] = C_SHAPE) -> None:
        self.minimax = minimax
        self.randomness = randomness
        self.restarts = 0
        self.interpreter = interpreter
        self.folder = folder
        self.shape = shape
        #: the worker's Python (version and implementation), as it said when it started
        self.python = f"{platform.python_version()} {sys.implementation.name}"
        self._start()

    def _start(self) -> None:
        if self.interpreter is None:
            self._conn: _Forked | _Interpreter = _Forked(self.minimax)
        else:
            assert self.folder is not None
            self._conn = _Interpreter(self.interpreter, self.folder, self.shape)
        ready = self._conn.recv()
        if isinstance(ready, list) and ready[:1] == ["ready"]:  # another Python says which
            self.python = f"{ready[1]} {ready[2]}"
        elif ready != "ready":
            raise RuntimeError(f"the peer's worker did not start (it said {ready!r})")

    def _restart(self) -> None:
        self._conn.kill()
        self.restarts += 1
        self._start()

    def seed(self, seed: int) -> None:
        self._conn.send(("seed", seed))
        self._conn.recv()

    def fixed_depth(self, board: list[int], player: int, depth: int) -> tuple[int, float]:
        """The peer's move at ``depth`` and its seconds (timed in the worker: the peer's search alone)."""
        self._conn.send(("search", board, player, depth, self.randomness))
        move, seconds = self._conn.recv()
        return move, seconds

    def deepening(self, board: list[int], player: int, budget: float) -> tuple[int, int, float]:
        """Depth 1, 2, ... while ``budget`` seconds remain; the last completed depth's move, that depth, and the
        seconds used (wall clock, the pipe included)."""
        started = time.perf_counter()
        move, reached = -1, 0
        for depth in range(1, PEER_MAX_DEPTH + 1):
            remaining = budget - (time.perf_counter() - started)
            if depth > 1 and remaining <= 0:
                break
            self._conn.send(("search", board, player, depth, self.randomness))
            if depth > 1 and not self._conn.poll(remaining):
                spent = time.perf_counter() - started
                self._restart()  # off the clock: the abandoned depth is lost
                return move, reached, spent
            move, _ = self._conn.recv()
            reached = depth
        return move, reached, time.perf_counter() - started

    def close(self) -> None:
        self._conn.send(("quit",))
        self._conn.end(timeout=5)


# ----- positions both ways ----------------------------------------------------------------------------------
def to_peer_board(state: AtomsState) -> list[int]:
    """damier's position as the peer's board: +count for Red (peer player 0), -count for Blue (player 1)."""
    board = state.board_json()
    return [0 if owner < 0 else count * (1 if owner == 0 else -1)
            for count, owner in zip(board["counts"], board["owners"], strict=True)]


def peer_position(board: list[int], player: int, over: bool, plies: int, cols: int) -> str:
    """The peer's board in damier's position notation (``damier.games.atoms.notation``)."""
    cells = ["." if v == 0 else f"{abs(v)}{'r' if v > 0 else 'b'}" for v in board]
    rows = "/".join(",".join(cells[r:r + cols]) for r in range(0, len(cells), cols))
    moved = "rb" if plies >= 2 else "r" if plies == 1 else "-"
    return f"{rows} {'-' if over else 'rb'[player]} {moved} {plies}"


def disagree(what: str, state: AtomsState, peer_game: Any, cols: int) -> None:
    """Print both positions loudly and exit 1."""
    ply = len(state.history)
    print(f"!!! DISAGREEMENT after ply {ply} ({' '.join(map(state.move_to_str, state.history))}): {what}\n"
          f"    damier: {state.position()} (over: {state.is_over()})\n"
          f"    peer:   {peer_position(peer_game.board, peer_game.player, peer_game.game_over, ply, cols)} "
          f"(game_over: {peer_game.game_over}, winner: {peer_game.winner})", file=sys.stderr)
    sys.exit(1)


def play_both(state: AtomsState, peer_game: Any, move: int, cols: int) -> None:
    """Play ``move`` in both engines and check that they agree afterwards."""
    if not state.is_legal(move):
        disagree(f"{move} ({state.move_to_str(move)}) is illegal in damier", state, peer_game, cols)
    if not peer_game.make_move(move):
        disagree(f"{state.move_to_str(move)} is refused by the peer's engine", state, peer_game, cols)
    state.play(move)
    outcome = state.outcome()
    if peer_game.game_over != state.is_over():
        disagree("one says the game is over, the other not", state, peer_game, cols)
    if outcome is not None:
        if outcome.winner != peer_game.winner:
            disagree(f"winner {outcome.winner} in damier, {peer_game.winner} in the peer", state, peer_game, cols)
        return  # a winning chain is cut at different steps (damier: a wave; the peer: an atom); only the end counts
    if to_peer_board(state) != list(peer_game.board) or state.player != peer_game.player:
        disagree("the boards differ", state, peer_game, cols)


# ----- the match --------------------------------------------------------------------------------------------
@dataclass
class Side:
    seconds: list[float] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    allotted: list[float] = field(default_factory=list)  # damier's time limit at each move


@dataclass
class Settings:
    rows: int
    cols: int
    depth: int | None  # the peer's fixed depth (mode a), or None with ``time``
    time: float | None  # both sides' seconds a move (mode b)
    damier_spec: str
    opening: int
    seed: int


def opening_moves(settings: Settings, pair: int) -> list[int]:
    """The pair's seeded random opening: uniform legal moves, the same for both games of the pair."""
    rng = random.Random(settings.seed * 1_000_003 + pair)
    state = damier.load("atoms", rows=settings.rows, cols=settings.cols).new_state()
    assert isinstance(state, AtomsState)
    for _ in range(settings.opening):
        state.play(rng.choice(state.legal_moves()))
    return list(state.history)


def damier_agent(settings: Settings, seconds: float) -> AlphaBetaAgent:
    game = damier.load("atoms", rows=settings.rows, cols=settings.cols)
    agent = make_agent(settings.damier_spec.format(time=seconds), game)
    if not isinstance(agent, AlphaBetaAgent):
        raise SystemExit(f"--damier {settings.damier_spec!r} is not an alpha-beta agent")
    return agent


def play_game(settings: Settings, peer: PeerPlayer, engine: Any, index: int, damier_side: Side,
              peer_side: Side, peer_mean: list[float]) -> dict[str, Any]:
    """One game; damier is Red in even games. ``peer_mean`` is [total seconds, moves] of the peer so far."""
    game = damier.load("atoms", rows=settings.rows, cols=settings.cols)
    state = game.new_state()
    assert isinstance(state, AtomsState)
    peer_game = engine.ChainReactionGame()
    damier_seat = index % 2
    agent = damier_agent(settings, settings.time or 0.1)
    agent.reset()
    peer.seed(settings.seed * 1_000_003 + index)
    for move in opening_moves(settings, index // 2):
        play_both(state, peer_game, move, settings.cols)
    while not state.is_over():
        if state.player == damier_seat:
            agent.time_limit = settings.time if settings.time is not None else peer_mean[0] / peer_mean[1]
            damier_side.allotted.append(agent.time_limit)
            started = time.perf_counter()
            move = agent.choose(state)
            damier_side.seconds.append(time.perf_counter() - started)
            damier_side.depths.append(agent.info.depth)
        elif settings.depth is not None:
            move, seconds = peer.fixed_depth(list(peer_game.board), peer_game.player, settings.depth)
            peer_side.seconds.append(seconds)
            peer_side.depths.append(settings.depth)
            peer_mean[0] += seconds
            peer_mean[1] += 1
        else:
            assert settings.time is not None
            move, reached, seconds = peer.deepening(list(peer_game.board), peer_game.player, settings.time)
            peer_side.seconds.append(seconds)
            peer_side.depths.append(reached)
        play_both(state, peer_game, move, settings.cols)
    outcome = state.outcome()
    assert outcome is not None
    return {"game": index, "damier": "Red" if damier_seat == 0 else "Blue", "winner": outcome.winner,
            "damier_won": outcome.winner == damier_seat, "plies": len(state.history),
            "moves": " ".join(map(state.move_to_str, state.history))}


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval of a proportion ``score`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def side_figures(side: Side) -> dict[str, float]:
    return {"moves": len(side.seconds), "mean_s": round(statistics.fmean(side.seconds), 4) if side.seconds else 0.0,
            "max_s": round(max(side.seconds, default=0.0), 3),
            "mean_depth": round(statistics.fmean(side.depths), 2) if side.depths else 0.0,
            **({"mean_allotted_s": round(statistics.fmean(side.allotted), 4),
                "over_allotted": sum(s > a for s, a in zip(side.seconds, side.allotted, strict=True)),
                "max_over_s": round(max(s - a for s, a in zip(side.seconds, side.allotted, strict=True)), 4)}
               if side.allotted else {})}


def summarise(games: list[dict[str, Any]], damier_side: Side, peer_side: Side) -> dict[str, Any]:
    wins = sum(g["damier_won"] for g in games)
    n = len(games)
    score = wins / n if n else 0.0
    low, high = wilson(score, n)
    plies = [g["plies"] for g in games]
    peer = side_figures(peer_side)
    peer["mean_depth_plies"] = round(2 * peer["mean_depth"], 2)
    return {"games": n, "wins": wins, "draws": 0, "losses": n - wins, "score": round(score, 3),
            "score_ci95": [round(low, 3), round(high, 3)],
            "wins_as_red": sum(g["damier_won"] for g in games if g["damier"] == "Red"),
            "wins_as_blue": sum(g["damier_won"] for g in games if g["damier"] == "Blue"),
            "damier": side_figures(damier_side), "peer": peer,
            "plies": {"mean": round(statistics.fmean(plies), 1), "min": min(plies), "max": max(plies)} if plies
            else {}}


def warm_up(settings: Settings) -> None:
    """Compile (or load from numba's cache) damier's kernels before the first timed move."""
    game = damier.load("atoms", rows=settings.rows, cols=settings.cols)
    state = game.new_state()
    for move in (0, game.num_moves - 1, 0):
        state.play(move)
    AlphaBetaAgent(depth=3).choose(state)


def calibrate(settings: Settings, peer: PeerPlayer, engine: Any) -> float:
    """The peer's seconds at its depth on the first pair's opening position (mode a's first damier time)."""
    assert settings.depth is not None
    peer_game = engine.ChainReactionGame()
    for move in opening_moves(settings, 0):
        peer_game.make_move(move)
    _, seconds = peer.fixed_depth(list(peer_game.board), peer_game.player, settings.depth)
    return seconds


def run(settings: Settings, games: int, peer: PeerPlayer, engine: Any) -> dict[str, Any]:
    """The match; each game's result and the figures so far go to stderr as it ends. An interrupt (Ctrl-C,
    ``kill -INT`` or ``kill -TERM``) ends the match with the games finished so far (the game in progress is dropped)."""
    warm_up(settings)
    damier_side, peer_side = Side(), Side()
    peer_mean = [calibrate(settings, peer, engine), 1] if settings.depth is not None else [0.0, 0]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    for index in range(games):
        kept = (len(damier_side.seconds), len(damier_side.allotted), len(peer_side.seconds))
        try:
            result = play_game(settings, peer, engine, index, damier_side, peer_side, peer_mean)
        except KeyboardInterrupt:
            del damier_side.seconds[kept[0]:], damier_side.depths[kept[0]:], damier_side.allotted[kept[1]:]
            del peer_side.seconds[kept[2]:], peer_side.depths[kept[2]:]
            print(f"interrupted during game {index + 1}: the {index} games finished are reported", file=sys.stderr)
            return {"summary": summarise(results, damier_side, peer_side), "games": results, "interrupted": True,
                    "seconds": round(time.perf_counter() - started, 1)}
        results.append(result)
        so_far = summarise(results, damier_side, peer_side)
        d, p = so_far["damier"], so_far["peer"]
        print(f"game {index + 1}/{games}: damier ({result['damier']}) {'won' if result['damier_won'] else 'lost'}"
              f" in {result['plies']} plies; damier {so_far['wins']}/{so_far['games']} "
              f"(CI {so_far['score_ci95']}), s/move {d['mean_s']} vs {p['mean_s']}, depth {d['mean_depth']} vs "
              f"{p['mean_depth_plies']} plies [{time.perf_counter() - started:.0f} s]", file=sys.stderr, flush=True)
    return {"summary": summarise(results, damier_side, peer_side), "games": results, "interrupted": False,
            "seconds": round(time.perf_counter() - started, 1)}


def show(report: dict[str, Any]) -> None:
    s, m = report["summary"], report["match"]
    mode = (f"the peer at depth {m['peer_depth']} ({2 * m['peer_depth']} plies), damier at the peer's running mean"
            if m["peer_depth"] is not None else f"{m['time']} s a move for both (the peer deepening)")
    print(f"peer: notshridhar/chain-reaction-ai {report['peer_commit'][:12]}, sources sha256 {report['peer_sha256']}, "
          f"{m['backend']} backend (Python {report['peer_python']}); board {m['rows']}x{m['cols']}; {mode}; "
          f"damier {m['damier_spec']!r}")
    if report["interrupted"]:
        print("interrupted: the games finished before the interrupt")
    print(f"{s['games']} games (seed {m['seed']}, opening {m['opening']} plies), {report['seconds']} s: damier "
          f"{s['wins']} W / {s['draws']} D / {s['losses']} L, score {s['score']} (95% CI {s['score_ci95'][0]}-"
          f"{s['score_ci95'][1]}); as Red {s['wins_as_red']}, as Blue {s['wins_as_blue']}")
    d, p = s["damier"], s["peer"]
    allotted = (f" of {d['mean_allotted_s']} allotted; {d['over_allotted']} moves over their allotment, at most "
                f"by {d['max_over_s']} s" if "mean_allotted_s" in d else "")
    print(f"damier: {d['mean_s']} s a move{allotted} (max {d['max_s']}), depth {d['mean_depth']} plies, "
          f"{d['moves']} moves")
    print(f"peer:   {p['mean_s']} s a move (max {p['max_s']}), depth {p['mean_depth']} "
          f"({p['mean_depth_plies']} plies), {p['moves']} moves; worker restarts {report['peer_restarts']}")
    if s["plies"]:
        print(f"plies a game: mean {s['plies']['mean']}, min {s['plies']['min']}, max {s['plies']['max']}")


def parse_board(text: str) -> tuple[int, int]:
    rows, _, cols = text.lower().partition("x")
    return int(rows), int(cols)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main() -> None:
    # a match run in the background (nohup, &) starts with SIGINT ignored: both signals end it with its figures
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", type=Path, required=True, help="chain-reaction-ai's folder (C backend built).")
    parser.add_argument("--board", default="9x6", help="ROWSxCOLS as the peer's shape (default 9x6; 8x8).")
    parser.add_argument("--backend", choices=("auto", "c", "python"), default="auto",
                        help="The peer's backend: auto is C on 9x6, Python elsewhere.")
    parser.add_argument("--interpreter", help="Run the peer's Python backend under this Python (pypy3, say) in a "
                        "subprocess (atoms_minimax_worker.py); default: a fork of this process.")
    parser.add_argument("--depth", type=int, default=2, help="The peer's fixed depth, 2 plies each (default 2).")
    parser.add_argument("--time", type=float, help="Seconds a move for both (the peer deepening); replaces --depth.")
    parser.add_argument("--damier", default="alphabeta:time={time}", help="damier's agent spec; {time} is filled.")
    parser.add_argument("--randomness", type=int, default=1, help="The peer's best_move randn (1: its top score).")
    parser.add_argument("--games", type=int, default=50, help="Games (default 50; seats alternate).")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the openings (default 0).")
    parser.add_argument("--opening", type=int, default=2, help="Random plies opening each pair (default 2).")
    parser.add_argument("--json", action="store_true", help="Print JSON only.")
    args = parser.parse_args()
    shape = parse_board(args.board)
    backend = ("c" if shape == C_SHAPE else "python") if args.backend == "auto" else args.backend
    if backend == "c" and shape != C_SHAPE:
        raise SystemExit(f"the peer's C backend plays only {C_SHAPE[0]}x{C_SHAPE[1]}")
    if args.interpreter and backend != "python":
        raise SystemExit("--interpreter runs the peer's Python backend: give --backend python (or a board other "
                         f"than {C_SHAPE[0]}x{C_SHAPE[1]})")
    sha, commit = peer_identity(args.peer)
    engine, minimax = load_peer(args.peer, shape, backend)
    settings = Settings(rows=shape[0], cols=shape[1], depth=None if args.time else args.depth, time=args.time,
                        damier_spec=args.damier, opening=args.opening, seed=args.seed)
    peer = PeerPlayer(minimax, args.randomness, args.interpreter, args.peer, shape)
    try:
        report = run(settings, args.games, peer, engine)
    finally:
        peer.close()
    report = {"peer_commit": commit, "peer_sha256": sha, "peer_restarts": peer.restarts,
              "machine": f"{platform.machine()}, {multiprocessing.cpu_count()} cores, "
                         f"Python {platform.python_version()}",
              "peer_python": peer.python,
              "match": {"rows": shape[0], "cols": shape[1], "backend": backend, "peer_depth": settings.depth,
                        "time": settings.time, "damier_spec": args.damier, "randomness": args.randomness,
                        "seed": args.seed, "opening": args.opening}, **report}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        show(report)


if __name__ == "__main__":
    main()
