"""A computer job and how a worker runs it: only names and notation (game, options, seed, start, moves, agent
spec), so the server never ships a live object across processes; ``think`` replays the game and thinks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


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
    agreement_seat: int | None = None  # instead of a move: whether this computer seat agrees to end the game
    analysis_seconds: float | None = None  # instead of a move: analyse the position (``start``), reporting each depth
    #: instead of a move: evaluate ``graph_count`` positions of the game (None: to its end) from the one after
    #: ``graph_from`` moves, in this many seconds (each at most ``graph_position_seconds``), reporting each
    #: (``damier.ai.game_graph``)
    graph_seconds: float | None = None
    graph_from: int = 0
    graph_count: int | None = None
    graph_position_seconds: float = 0.5
    #: instead of a move: the position the game's usual start draws from ``seed`` (a puzzle of a difficulty, a
    #: seeded board: ``rooms.setups``)
    setup: bool = False
    #: instead of a move: a finished puzzle's optimal line from its start, searched within this many nodes
    solution_nodes: int = 0


Report = Callable[[dict[str, Any]], None]


def think(job: Job, report: Report | None = None, stop: threading.Event | None = None) -> dict[str, Any]:
    """Runs in a worker process: the agent's move in notation, and what it found (or, for a graded hint, what
    the game's ``hints`` feature says at that level; for an analysis, ``report`` hears each depth and ``stop``
    ends it early; for a game's graph, ``report`` hears each position evaluated)."""
    from damier.agents.spec import hint_agent, make_agent
    from damier.core.registry import load

    game = load(job.game, **job.options)
    if job.graph_seconds is not None:
        from damier.ai.game_graph import evaluate_game

        return evaluate_game(game, list(job.moves), job.seed, job.start, job.graph_seconds,
                             report or (lambda _: None), stop, first=job.graph_from, count=job.graph_count,
                             position_seconds=job.graph_position_seconds)
    if job.setup:
        return {"position": game.start_state(job.start, job.seed).position()}
    if job.solution_nodes:
        start = game.start_state(job.start, job.seed)
        found = game.info.hook("solver")(start, None, job.solution_nodes)
        line = []
        for move in found.moves:  # each move written in the position it is played in
            line.append(start.move_to_str(move))
            start.play(move)
        return {"line": line}
    state = game.replay(list(job.moves), seed=job.seed, start=job.start)
    if job.analysis_seconds is not None:
        from damier.ai.analysis import analyse

        return analyse(state, job.analysis_seconds, report or (lambda _: None), stop)
    if job.agreement_seat is not None:
        from damier.ai.agreement import agrees_to_stop

        return {"agrees": agrees_to_stop(state, job.agreement_seat)}
    if job.hint_level is not None:
        graded: dict[str, Any] = game.info.hook("hints")(state, job.hint_level)
        return graded
    agent = hint_agent(game) if job.hint else make_agent(job.spec, game, seed=job.agent_seed)
    move = agent.choose(state)
    return {"move": state.move_to_str(move), "info": agent.info.to_json()}
