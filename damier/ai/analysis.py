"""An analysis board's engine: the best line and score of a position, reported as the search deepens.

How a game is analysed comes from its registration: a game that declares a ``solver`` (a puzzle) gets the solver's
optimal line; any other game of two or more players the iterative-deepening search of its levels (the kernel's
``search`` feature, else the search through the contract), expectimax where the game has chance
(tests/ai/test_analysis_engine.py shows it at work).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from damier.ai.reading import reading
from damier.core.game import CHANCE, Game, Iteration, State
from damier.core.registry import GameInfo

#: the deepest depth an analysis searches (a decided score or the deadline usually comes first)
MAX_DEPTH = 64
#: a solver's node bound: the work of one analysis of a puzzle (the shown solution of a puzzle room's)
SOLVER_NODES = 2_000_000

Report = Callable[[dict[str, Any]], None]


def kind(info: GameInfo) -> str | None:
    """How a game is analysed: ``"solver"`` (it declares one), ``"search"`` (a game of several players), or
    None (neither: a one-player game without a solver)."""
    if info.has("solver"):
        return "solver"
    if info.players != "1":
        return "search"
    return None


def line_in_notation(state: State, moves: list[int] | tuple[int, ...]) -> tuple[list[str], list[int]]:
    """``moves`` from ``state`` in notation, each written where it is played, and who plays each (``CHANCE`` for a
    chance event: the search's line goes on through the outcome it followed); the line stops at a move not legal
    there, or once the game is over."""
    work = state.copy()
    out: list[str] = []
    movers: list[int] = []
    for move in moves:
        if work.player == CHANCE:
            if move not in (outcome for outcome, _ in work.chance_outcomes()):
                break
        elif work.player < 0 or not work.is_legal(move):
            break
        out.append(work.move_to_str(move))
        movers.append(work.player)
        work.play(move)
    return out, movers


def evaluation_of(game: Game) -> str | None:
    """The evaluation an analysis searches with: the one the game's scores are read from (None: its first)."""
    scale = game.info.scores
    return (scale.evaluation or None) if scale is not None else None


def iteration_report(state: State, found: Iteration) -> dict[str, Any]:
    """A completed depth as the analysis board shows it: ``{"depth", "score", "player", "pv" (notation),
    "movers", "nodes", "seconds"}`` and what a player reads of the score (``damier.ai.reading``)."""
    line, movers = line_in_notation(state, found.pv)
    return {"depth": found.depth, "score": found.score, "player": state.player, "pv": line, "movers": movers,
            "nodes": found.nodes, "seconds": round(found.seconds, 3),
            **reading(state.game, state.player, found.score)}


def analyse(state: State, seconds: float, report: Report, stop: threading.Event | None = None,
            max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """Analyse ``state`` for at most ``seconds`` (a search) or ``SOLVER_NODES`` nodes (a solver), calling
    ``report`` with each completed depth (``iteration_report``), or once with the solver's answer: ``{"depth",
    "score", "pv" (notation), "movers", "nodes", "seconds", "length", "optimal"}`` (no line found: ``"pv"`` empty
    and ``"length"`` -1). ``stop`` set from another thread ends a search at once. Returns ``{"reason"}``: ``depth``,
    ``time``, ``stopped``, ``decided`` (a won or lost score, or a single move), ``solved``."""
    how = kind(state.game.info)
    if how is None:
        raise ValueError(f"{state.game.title} cannot be analysed: it has no solver and no opponent to search")
    if state.player < 0 or not state.legal_moves():
        raise ValueError("there is nothing to analyse: " + ("the game is over" if state.player != CHANCE
                                                            else "a chance event comes next"))
    stop = stop or threading.Event()
    if how == "solver":
        return _solve(state, report)
    from damier.ai.alphabeta import fixed_depth_search
    from damier.ai.deepening import Deepening

    driver = Deepening(fixed_depth_search(state.game))
    def watch() -> None:
        stop.wait()
        driver.stop()

    watcher = threading.Thread(target=watch, daemon=True, name="damier-analysis-stop")
    watcher.start()
    last: list[Iteration] = []

    def heard(found: Iteration) -> None:
        if stop.is_set():  # a stop that came before the search began (``think`` starts unstopped)
            driver.stop()
        last.append(found)
        report(iteration_report(state, found))

    try:
        if stop.is_set():
            return {"reason": "stopped"}
        driver.think(state, max_depth=max_depth, seconds=seconds, evaluation=evaluation_of(state.game),
                     on_iteration=heard)
        stopped = stop.is_set()
    finally:
        stop.set()  # ends the watcher thread
    final = last[-1]  # depth 1 always completes
    if final.depth >= max_depth:
        reason = "depth"
    elif state.game.is_decided_score(final.score) or len(state.legal_moves()) == 1:
        reason = "decided"
    elif stopped:
        reason = "stopped"
    else:
        reason = "time"
    return {"reason": reason}


def _solve(state: State, report: Report) -> dict[str, Any]:
    started = time.perf_counter()
    found = state.game.info.hook("solver")(state, None, SOLVER_NODES)
    line, movers = line_in_notation(state, found.moves)
    report({"depth": found.cost, "score": found.cost, "pv": line, "movers": movers, "nodes": found.nodes,
            "seconds": round(time.perf_counter() - started, 3), "length": found.cost if found.moves else -1,
            "optimal": bool(found.optimal and found.moves)})
    return {"reason": "solved"}
