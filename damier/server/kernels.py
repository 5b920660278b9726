"""What the arcade runs of each game's kernels, in two parts, and how to compile each: numba compiles a kernel on
its first use and keeps it in its cache on disk (``cache=True``), so running a part once fills the cache for
every process that runs it afterwards.

- ``rules``: what the server itself runs to create, show and play a game (states, boards with their previews,
  events, notation; a puzzle game's solver, which makes and checks puzzles);
- ``computer``: what a worker runs for a computer job of the game: every computer level and named agent, the
  hint agent and graded hints, an analysis, the agreement to end a game.

Each part runs on a few positions of the game (after one ply, and some plies into a seeded random game), every
search cut to one ply (``shallow``): the kernels compiled are those the arcade's jobs run (the same functions on
the same types), and the searches themselves cost next to nothing. ``damier.server.compiler`` runs the parts in
the background, in the order players ask for them.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from damier.core import registry
from damier.core.errors import DamierError
from damier.core.game import CHANCE, TERMINAL, Game, State

log = logging.getLogger("damier.server")

#: the parts of a game's kernels, in the order they are compiled (the computer's replays the rules)
PARTS = ("rules", "computer")
#: the plies of the seeded random games whose positions each part runs on (0: the start)
PLIES = (1, 12)
#: the seconds an analysis thinks while its kernels compile (what it finds does not matter)
SEARCH_SECONDS = 0.02
#: what each kind of search is cut to while its kernels compile: the same kernels run, on little work
SHALLOW = {"alphabeta": "depth=1", "mcts": "playouts=8"}
#: the node bound of a solver's run on a puzzle game's start
SOLVER_NODES = 20_000


@dataclass(frozen=True)
class Part:
    """A part of a game's kernels (one of ``PARTS``), as a compiling process is asked to compile it."""

    game: str
    part: str


def positions(game: Game, seed: int = 0) -> list[State]:
    """The positions the parts run on: after each of ``PLIES`` plies of a seeded random game (chance events
    drawn by their probabilities), fewer when the game ends before."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    out = []
    for ply in range(max(PLIES) + 1):
        if ply in PLIES:
            out.append(state.copy())
        if state.player == TERMINAL:
            break
        state.play(state.sample_chance(rng) if state.player == CHANCE else rng.choice(state.legal_moves()))
    return out


def compile_rules(name: str) -> None:
    """Run what the server runs of game ``name``'s rules: boards with and without previews, legal moves, a move
    played and taken back, its events, notation both ways, the JSON form; and its solver, for a puzzle game."""
    info = registry.info(name)
    game = registry.load(name)
    for state in positions(game):
        state.board_json(previews=True)
        state.board_json(previews=False)
        state.events()
        state.to_json()
        game.state_from_position(state.position(), state.seed)
        if state.player >= 0 and state.legal_moves():
            move = state.legal_moves()[-1]
            state.parse_move(state.move_to_str(move))
            state.play(move)
            state.events()
            state.board_json(previews=True)
            state.undo()
        if state.is_over():
            state.outcome()
    if info.has("solver"):
        info.hook("solver")(game.new_state(0), None, SOLVER_NODES)


def compile_computer(name: str) -> None:
    """Run every kind of computer job of game ``name`` (``damier.server.jobs.think``) on each position: the
    computer levels and named agents (a game of two or more players), the hint agent, each graded hint, an
    analysis, and the agreement to end the game."""
    from damier.agents.spec import resolve
    from damier.server.jobs import Job, think

    info = registry.info(name)
    game = registry.load(name)
    specs = [*(info.levels or {}), *info.agents] if info.players != "1" else []
    grades = range(1, 5) if info.has("hints") else range(0)
    for number, state in enumerate(positions(game)):
        if state.player < 0 or not state.legal_moves():
            continue
        moves = tuple(state.moves_in_notation())
        jobs = [Job(name, {}, state.seed, None, moves, shallow(resolve(spec, name)), number)
                for spec in [*specs, info.hint]]  # the hint agent's spec, as a hint job runs it
        jobs.extend(Job(name, {}, state.seed, None, moves, "", number, hint_level=grade) for grade in grades)
        jobs.append(Job(name, {}, state.seed, None, moves, "", number, analysis_seconds=SEARCH_SECONDS))
        if info.players != "1":
            jobs.append(Job(name, {}, state.seed, None, moves, "", number, agreement_seat=state.player))
        for each in jobs:
            try:
                think(each)
            except DamierError as exc:  # a job the rules refuse here: compiling goes on with the others
                log.info("compiling %s's kernels: %s refused (%s)", name, each, exc)


def shallow(spec: str) -> str:
    """``spec`` (resolved) cut to the least work that runs the same kernels: one ply of alpha-beta, a few playouts
    of MCTS, whatever its depth or time; other agents unchanged.

    >>> shallow("alphabeta:time=1.0,eval=strong"), shallow("mcts:playouts=3000"), shallow("solver")
    ('alphabeta:eval=strong,depth=1', 'mcts:playouts=8', 'solver')
    """
    kind, _, rest = spec.partition(":")
    cut = SHALLOW.get(kind.strip().lower())
    if cut is None:
        return spec
    bounds = ("time", "depth", "playouts")
    kept = [part.strip() for part in rest.split(",") if part.strip() and part.partition("=")[0].strip() not in bounds]
    return f"{kind}:{','.join([*kept, cut])}"


#: whether this process lowered its priority already (``compile_part``)
_niced: list[int] = []

COMPILE: dict[str, Callable[[str], None]] = {"rules": compile_rules, "computer": compile_computer}


def compile_part(name: str, part: str, nice: int = 0) -> tuple[int, float]:
    """Compile (or load from numba's cache) the part ``part`` of game ``name``'s kernels: how many kernels were
    compiled (0: all loaded from the cache), and the seconds it took. With ``nice``, the process lowers its
    priority by that much once it starts compiling (loading from the cache is quick, and is not slowed)."""
    from numba.core import event

    class Counter(event.Listener):
        """Counts numba's compilations (``numba:compile`` events: a kernel loaded from the cache makes none)."""

        count = 0

        def on_start(self, _event: Any) -> None:
            if nice and not _niced:
                os.nice(nice)
                _niced.append(nice)
            self.count += 1

        def on_end(self, _event: Any) -> None:
            pass

    compiled = Counter()
    started = time.perf_counter()
    with event.install_listener("numba:compile", compiled):
        COMPILE[part](name)
    return compiled.count, time.perf_counter() - started


def _warm_game(name: str) -> None:
    for part in PARTS:
        compile_part(name, part)


def warm_kernels(processes: int = 1) -> None:
    """Compile (or load from numba's cache) every part of every game's kernels, here and now; with ``processes``
    above one, the games shared between that many new processes (each game's parts in one of them, in order:
    numba's cache files are written whole, so two processes that compile a shared kernel both leave it right)."""
    names = [info.name for info in registry.all_infos()]
    if processes <= 1:
        for name in names:
            _warm_game(name)
        return
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_warm_game, names))
