"""The evaluation of every position of a game (the analysis board's graph), computed in the worker pool.

``POST /api/games/{id}/evaluations`` starts the evaluation of the game as it is (its moves now: its version), or
joins the one already computing or computed: everyone who asks about the same game at the same version shares one
computation, kept in memory (``MAX_GRAPHS``, the oldest ended first). ``GET /api/games/{id}/evaluations?version=N``
reads the positions evaluated so far, as the worker reports them (``damier.ai.game_graph``). A new version of a
game (a move more) keeps what the earlier one evaluated for the moves they share, and evaluates the rest.

Bounded like an analysis: at most ``MAX_GRAPH_PLIES`` positions, ``GRAPH_SECONDS`` of search in all (an equal
share a position, at most ``POSITION_SECONDS``), asked of the pool in parts of about ``PART_SECONDS`` (each a job
with its own hard deadline, ``WAIT_SECONDS`` more for its wait in the queue; between two parts the pool serves the
asker's other work, such as the analysis of the position on the board), counted in the starting client's analyses
and hints (``ClientLimits.start_analysis``) while it runs, stopped once nobody has read it for ``ABANDON_SECONDS``,
and refused for a game between people still going on (unless its hints are on), where it would be a hint.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from damier.ai import analysis as engine
from damier.ai.game_graph import POSITION_SECONDS
from damier.core import messages
from damier.server import analysis
from damier.server.computer import Busy, ComputerPool
from damier.server.engine_work import EngineWork, error_words, watch
from damier.server.jobs import Job
from damier.server.limits import ClientLimits
from damier.server.rooms.errors import Forbidden, Invalid, NotFound, Unavailable
from damier.server.rooms.game.room import GameRoom
from damier.server.words import say

#: the time the positions of one game are searched in all
GRAPH_SECONDS = 40.0
#: the search time of one part of a graph (a job of the pool: its hard deadline is ``GRACE_SECONDS`` later)
PART_SECONDS = 2.0
#: what a part may take beyond its searches: the worker replays the game to its first position
REPLAY_SECONDS = 1.0
#: how long a part may wait for a worker before the pool drops it (the asker's analysis of the position on the board
#: takes a worker for ``ANALYSIS_SECONDS``)
WAIT_SECONDS = 30.0
#: the positions a graph covers at most: the start and the first moves of a longer game
MAX_GRAPH_PLIES = 1000
#: graphs kept in memory (the oldest ended leave first; one still running only when all run)
MAX_GRAPHS = 64


@dataclass(kw_only=True)
class Graph(EngineWork):
    game_id: str
    version: int
    moves: tuple[str, ...]  # the game's moves at that version (the graph covers the first MAX_GRAPH_PLIES)
    seconds: float
    points: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def plies(self) -> int:
        """The moves whose positions the graph covers (its positions are those after 0 to ``plies`` moves)."""
        return min(len(self.moves), MAX_GRAPH_PLIES)

    def heard(self, point: dict[str, Any]) -> None:
        ply = point.get("ply")
        if self.status == "running" and isinstance(ply, int) and 0 <= ply <= self.plies:
            self.points[ply] = point

    def view(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "version": self.version, "plies": self.plies, "seconds": self.seconds,
                "status": self.status, "reason": self.reason, "error": self.error, **error_words(self.error),
                "points": [self.points[ply] for ply in sorted(self.points)]}


class Graphs:
    """The graphs of this server process, by game and moves."""

    def __init__(self, pool: ComputerPool, limits: ClientLimits, seconds: float = GRAPH_SECONDS) -> None:
        self.pool = pool
        self.limits = limits
        self.seconds = seconds
        #: the most one position is searched
        self.position_seconds = POSITION_SECONDS
        self._graphs: OrderedDict[tuple[str, tuple[str, ...]], Graph] = OrderedDict()

    async def start(self, room: GameRoom, client: str) -> tuple[Graph, bool]:
        """The graph of ``room`` at its version, and whether this call started it (False: it was computing or
        computed already; one that stopped before its end goes on from there). ``Invalid`` for a game without a
        search, ``Forbidden`` for a game between people going on, ``TooMany`` past the client's limit,
        ``Unavailable`` when the pool is full."""
        if engine.kind(room.game.info) != "search":
            raise Invalid(say("error.analysis.no_search", game=messages.title_of(room.game)))
        if room.active and not room.hints_allowed():
            raise Forbidden(say("error.analysis.game_going_on"))
        moves = tuple(move for move, _ in room.row.moves)
        key = (room.id, moves)
        known = self._graphs.get(key)
        if known is not None and (known.status == "running" or known.status == known.reason == "done"):
            self._graphs.move_to_end(key)
            return self._seen(known), False
        self.pool.admission.admit_job(self.pool.queued_seconds(), "ask for the graph")
        release = self.limits.start_analysis(client)
        graph = Graph(game_id=room.id, version=len(moves), moves=moves, seconds=self.seconds, release=release)
        graph.points = self._shared(room.id, moves, graph.plies)
        # an equal share of the time for every position left (at most ``position_seconds``), asked for in parts of
        # about ``PART_SECONDS``: between two parts the pool serves the client's other work (its analysis)
        share = min(self.position_seconds, self.seconds / max(1, graph.plies + 1 - len(graph.points)))
        count = max(1, int(PART_SECONDS / share))
        base = Job(room.game.name, dict(room.game.options), room.row.seed, room.job_start(), moves[:graph.plies],
                   "analysis", agent_seed=0, graph_count=count, graph_position_seconds=share)
        budget = count * share + REPLAY_SECONDS
        loop = asyncio.get_running_loop()

        def progress(point: dict[str, Any]) -> None:  # in a thread of the pool
            loop.call_soon_threadsafe(graph.heard, point)

        def part() -> asyncio.Future[dict[str, Any]] | None:
            """The next part of the graph (None: every position is in)."""
            first = len(graph.points)  # the points are contiguous from the start
            if first > graph.plies:
                return None
            job = replace(base, graph_from=first, graph_seconds=budget - REPLAY_SECONDS)
            return asyncio.ensure_future(self.pool.move(job, budget + WAIT_SECONDS, key=f"graph {room.id}",
                                                        group=client, stop=graph.stop, progress=progress))

        answer = part()
        try:
            if answer is None:  # every position known already (a stopped graph that had them all)
                answer = loop.create_future()
                answer.set_result({"reason": "done"})
            await asyncio.sleep(0)  # the job is queued (or refused) in the pool's first step
            if answer.done() and isinstance(answer.exception(), Busy):
                raise Unavailable(say("error.busy.computers_evaluation"))
        except BaseException:
            release()
            raise
        self._remember(key, graph)
        graph.task = asyncio.ensure_future(watch(
            graph, answer, budget + WAIT_SECONDS, lambda: analysis.ABANDON_SECONDS, f"the graph of game {room.id}",
            say("error.busy.computers_evaluation"), say("error.analysis.evaluation_failed"),
            next_part=lambda _result: part()))
        return graph, True

    def _shared(self, game_id: str, moves: tuple[str, ...], plies: int) -> dict[int, dict[str, Any]]:
        """The points another graph of the same game evaluated for positions this one shares (reached by the same
        moves): every one from the start up to the first it lacks."""
        best: dict[int, dict[str, Any]] = {}
        for (other_id, other_moves), other in self._graphs.items():
            if other_id != game_id:
                continue
            common = 0
            for mine, theirs in zip(moves, other_moves, strict=False):
                if mine != theirs:
                    break
                common += 1
            points: dict[int, dict[str, Any]] = {}
            for ply in range(min(common, plies) + 1):
                if ply not in other.points:
                    break
                points[ply] = other.points[ply]
            if len(points) > len(best):
                best = points
        return dict(best)

    @staticmethod
    def _seen(graph: Graph) -> Graph:
        graph.read = time.monotonic()
        return graph

    def read(self, game_id: str, version: int) -> Graph:
        """The latest graph of ``game_id`` at ``version`` (marked as read); ``NotFound`` when there is none."""
        for (other_id, _), graph in reversed(self._graphs.items()):
            if other_id == game_id and graph.version == version:
                return self._seen(graph)
        raise NotFound(say("error.analysis.no_evaluation", game_id=repr(game_id), version=str(version)))

    def _remember(self, key: tuple[str, tuple[str, ...]], graph: Graph) -> None:
        """Keep ``graph``; past ``MAX_GRAPHS`` the oldest ended one leaves (the oldest running one only when all
        run)."""
        old_one = self._graphs.pop(key, None)
        if old_one is not None:
            old_one.end("stopped", "stopped")
        self._graphs[key] = graph
        while len(self._graphs) > MAX_GRAPHS:
            ended = next((k for k, each in self._graphs.items() if each.status != "running"), None)
            old = self._graphs.pop(ended) if ended is not None else self._graphs.popitem(last=False)[1]
            old.end("stopped", "forgotten")

    def close(self) -> None:
        for graph in self._graphs.values():
            graph.end("stopped", "stopped")
            graph.free()
            if graph.task is not None:
                graph.task.cancel()
        with contextlib.suppress(Exception):
            self._graphs.clear()
