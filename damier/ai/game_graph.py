"""The evaluation of every position of a game: what the analysis board's graph of the game draws.

The positions are searched in the order they were played, by one deepening driver whose tables are kept from one
position to the next (as in a game), with the evaluation the game's scores are read from. Each position where a
player is to move gets an equal share of the time left (at most ``POSITION_SECONDS``; a quick one, decided or with
a single move, leaves its time to the others), and is reported as soon as it is done: its ply, the side to move,
the score and what a player reads of it (``damier.ai.reading``), the depth, the best move and its line. A chance
event's position is reported with its ply and ``player`` alone (the position after the event is searched); the
final position, once the game is over there, reads as its result.

>>> import damier
>>> state = damier.load("atoms", rows=3, cols=3).new_state()
>>> state.play(state.legal_moves()[0])
>>> heard = []
>>> evaluate_game(state.game, state.moves_in_notation(), None, None, 2.0, heard.append)["reason"]
'done'
>>> [point["ply"] for point in heard], heard[0]["player"], heard[1]["player"]
([0, 1], 0, 1)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from damier.ai.analysis import evaluation_of, iteration_report
from damier.ai.reading import outcome_reading
from damier.core.game import CHANCE, TERMINAL, Game, State

#: the most a position is searched
POSITION_SECONDS = 0.5
#: the longest line a point keeps (the graph says the best move and the start of its line)
POINT_LINE = 8

Report = Callable[[dict[str, Any]], None]


def evaluate_game(game: Game, moves: list[str], seed: int | None, start: str | None, seconds: float,
                  report: Report, stop: threading.Event | None = None, first: int = 0, count: int | None = None,
                  position_seconds: float = POSITION_SECONDS) -> dict[str, Any]:
    """Evaluate the positions of the game ``moves`` (notation, chance events included) lead to from ``start`` (or
    the seeded start): ``count`` of them (None: all) from the one after ``first`` moves, in ``seconds`` at most,
    calling ``report`` with each (see the module). ``stop`` set from another thread ends it at once. Returns
    ``{"reason"}``: ``done``, ``time`` (the time ran out first: the later positions were not searched) or
    ``stopped``."""
    from damier.ai.alphabeta import fixed_depth_search
    from damier.ai.deepening import Deepening

    stop = stop or threading.Event()
    deadline = time.perf_counter() + seconds
    last = len(moves) if count is None else min(len(moves), first + count - 1)
    states = _positions(game, moves, seed, start, first, last)
    waiting = sum(1 for _, state in _positions(game, moves, seed, start, first, last) if state.player >= 0)
    driver = Deepening(fixed_depth_search(game))
    evaluation = evaluation_of(game)

    def watch() -> None:
        stop.wait()
        driver.stop()

    watcher = threading.Thread(target=watch, daemon=True, name="damier-graph-stop")
    watcher.start()
    try:
        for ply, state in states:
            if stop.is_set():
                return {"reason": "stopped"}
            if state.player == TERMINAL:
                outcome = state.outcome()
                assert outcome is not None
                report({"ply": ply, "player": TERMINAL, "result": outcome.reason,
                        **outcome_reading(game, outcome)})
            elif state.player == CHANCE:
                report({"ply": ply, "player": CHANCE})  # not searched: the position after the chance event is
            else:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return {"reason": "time"}
                found = driver.think(state, seconds=min(position_seconds, left / max(1, waiting)),
                                     evaluation=evaluation)
                waiting -= 1
                if stop.is_set():
                    return {"reason": "stopped"}
                point = iteration_report(state, found)
                line = point.pop("pv")[:POINT_LINE]
                report({"ply": ply, **point, "best": line[0] if line else None, "pv": line,
                        "movers": point["movers"][:POINT_LINE]})
        return {"reason": "done"}
    finally:
        stop.set()  # ends the watcher thread


def _positions(game: Game, moves: list[str], seed: int | None, start: str | None, first: int,
               last: int) -> Iterator[tuple[int, State]]:
    """The positions after ``first`` to ``last`` of ``moves``, each with its ply (one state, played on)."""
    state = game.replay(list(moves[:first]), seed=seed, start=start)
    for ply in range(first, last + 1):
        yield ply, state
        if ply < len(moves):
            state.play(state.parse_move(moves[ply]))
