"""Computer moves off the event loop: a pool of worker processes, each replaying the game and thinking.

A worker gets only names and notation (game, options, seed, start, moves, agent spec), so the server never
ships a live object across processes, and a restarted server asks again from the stored moves.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

#: A computer move that takes longer than its time budget plus this is abandoned (a random move is played).
GRACE_SECONDS = 20.0


@dataclass(frozen=True)
class Job:
    game: str
    options: dict[str, Any]
    seed: int | None
    start: str | None
    moves: tuple[str, ...]
    spec: str  # the agent (for a hint, the game's hint spec: it sets the time budget)
    agent_seed: int
    hint: bool = False  # the game's declared hint agent (``hint_agent``) rather than ``spec``
    hint_level: int | None = None  # a graded hint of this level from the game's ``hints`` feature instead


def think(job: Job) -> dict[str, Any]:
    """Runs in a worker process: the agent's move in notation, and what it found (or, for a graded hint, what
    the game's ``hints`` feature says at that level)."""
    from damier.ai.spec import hint_agent, make_agent
    from damier.core.registry import load

    game = load(job.game, **job.options)
    state = game.replay(list(job.moves), seed=job.seed, start=job.start)
    if job.hint_level is not None:
        graded: dict[str, Any] = game.info.hook("hints")(state, job.hint_level)
        return graded
    agent = hint_agent(game) if job.hint else make_agent(job.spec, game, seed=job.agent_seed)
    move = agent.choose(state)
    return {"move": state.move_to_str(move), "info": agent.info.to_json()}


def _exit_with_parent(parent: int) -> None:
    """Runs first in every worker: end the worker when the server is gone (killed with SIGKILL, say), which
    the pool itself never notices, so that a crash leaves no process behind."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="damier-parent-watch", daemon=True).start()


def _warm() -> None:
    from damier.core.registry import all_infos, load

    for info in all_infos():
        game = load(info.name)
        state = game.new_state(0)
        if state.legal_moves():
            state.play(state.legal_moves()[0])
        game.random_playouts(state, 1, 0)
        if info.has("search") and state.player >= 0 and state.legal_moves():  # engines compile the slowest
            from damier.ai.alphabeta import fixed_depth_search
            from damier.ai.deepening import Deepening

            Deepening(fixed_depth_search(game)).think(state, max_depth=1)


def budget_seconds(spec: str) -> float:
    """The time an agent spec may take (its ``time=`` parameter, else a generous default)."""
    for part in spec.replace(":", ",").split(","):
        key, _, value = part.partition("=")
        if key.strip() == "time":
            try:
                return float(value)
            except ValueError:
                break
    return 10.0


class ComputerPool:
    """A process pool for agents; ``await pool.move(job)`` never blocks the event loop."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, os.cpu_count() or 1)
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        # "spawn" keeps workers free of the server's threads and event loop
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_exit_with_parent, initargs=(os.getpid(),))

    def warm_up(self) -> None:
        """Start every worker now and load the kernels there, so the first computer move is not slow."""
        for _ in range(self.workers):
            self._executor.submit(_warm)

    async def move(self, job: Job, budget: float) -> dict[str, Any]:
        """The agent's answer; a pool broken by a dead worker is replaced and the job tried once more."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                future = loop.run_in_executor(self._executor, think, job)
                return await asyncio.wait_for(future, timeout=budget + GRACE_SECONDS)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new_executor()
        raise AssertionError("unreachable")

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
