"""The exact Micro Robots solver: shortest length, how many shortest paths, all of them, a path of exactly k moves,
waypoints, and graded hints. Every answer is searched on the puzzle graph of ``kernel`` (72 nodes).

>>> import damier
>>> state = damier.load("micro").state_from_position("A-1234-0000_R5_B1")
>>> answer = analyse(state, exact=5)
>>> answer["length"], answer["count"], answer["moves"], answer["exact"]
(2, 1, ['B5', 'B1'], {'k': 5, 'moves': ['R1', 'R2', 'B2', 'B3', 'B1']})
"""

from __future__ import annotations

from typing import Any

import numpy as np

from damier.core.errors import StateError
from damier.core.game import Solution, State
from damier.core.messages import coded, say
from damier.games.micro import kernel
from damier.games.micro.setup import square_text

#: ``analyse(..., all_paths=True)`` lists at most this many paths (``count`` is always exact)
MAX_LISTED = 10_000
#: the longest exact-k question answered
MAX_EXACT = 64


class Graph:
    """The puzzle graph of one board, waypoint and waypoint rule (edges as the kernel writes them)."""

    def __init__(self, board: np.ndarray, waypoint: int, passing: bool) -> None:
        self.board = board
        self.out = np.zeros((kernel.NODES, kernel.MAX_JUMPS), dtype=np.int64)
        self.count = np.zeros(kernel.NODES, dtype=np.int64)
        kernel.puzzle_graph(board, waypoint, passing, self.out, self.count)

    def from_node(self, source: int) -> tuple[np.ndarray, np.ndarray]:
        """(distance, number of shortest paths) of every node from ``source``."""
        dist = np.empty(kernel.NODES, dtype=np.int64)
        ways = np.empty(kernel.NODES, dtype=np.int64)
        kernel.distances(self.out, self.count, source, dist, ways)
        return dist, ways

    def reversed(self) -> Graph:
        """The graph with every edge turned round (a node has up to twice as many edges in as out)."""
        back = Graph.__new__(Graph)
        back.board = self.board
        back.out = np.zeros((kernel.NODES, 2 * kernel.MAX_JUMPS), dtype=np.int64)
        back.count = np.zeros(kernel.NODES, dtype=np.int64)
        kernel.reverse(self.out, self.count, back.out, back.count)
        return back


def _graph(state: State) -> tuple[Graph, int, int]:
    """The puzzle graph of ``state``, its node now and the goal node."""
    puzzle = state.puzzle  # type: ignore[attr-defined]
    graph = Graph(puzzle.board, puzzle.waypoint, state.game.waypoint_pass)  # type: ignore[attr-defined]
    return graph, state.node, puzzle.target * 2 + 1  # type: ignore[attr-defined]


def _one_path(graph: Graph, dist: np.ndarray, goal: int) -> list[int]:
    """The nodes of one shortest path to ``goal`` (the lowest-numbered found walking back), start excluded."""
    path = np.empty(int(dist[goal]), dtype=np.int64)
    kernel.shortest_line(graph.out, graph.count, dist, goal, path)
    return [int(node) for node in path]


def solve(state: State, max_cost: int | None = None, node_limit: int | None = None) -> Solution:
    """An optimal line from ``state`` (the ``solver`` feature): the squares jumped to; nothing found when the
    target cannot be reached or the optimum is longer than ``max_cost`` (the search is exact and always ends)."""
    graph, source, goal = _graph(state)
    dist, _ = graph.from_node(source)
    nodes = int((dist < kernel.UNREACHABLE).sum())
    length = int(dist[goal])
    if length >= kernel.UNREACHABLE or (max_cost is not None and length > max_cost):
        return Solution((), -1, True, nodes)
    return Solution(tuple(node // 2 for node in _one_path(graph, dist, goal)), length, True, nodes)


def path_of_length(state: State, k: int) -> list[int] | None:
    """The squares of a path of exactly ``k`` moves to the target (squares may be revisited, but the puzzle ends on
    the target: a path reaches it with the waypoint visited only at its last move), or None."""
    if not isinstance(k, int) or not 0 <= k <= MAX_EXACT:
        raise StateError(say("micro.error.exact_range", limit=str(MAX_EXACT), value=repr(k)))
    graph, source, goal = _graph(state)
    if k == 0:
        return [] if source == goal else None
    path = np.empty(k, dtype=np.int64)
    if not kernel.exact_path(graph.out, graph.count, source, goal, k, path):
        return None
    return [int(node) // 2 for node in path]


def all_shortest(state: State, limit: int = MAX_LISTED) -> list[list[int]]:
    """Every shortest path (as squares), at most ``limit`` of them, in a fixed order."""
    graph, source, goal = _graph(state)
    dist, _ = graph.from_node(source)
    if dist[goal] >= kernel.UNREACHABLE:
        return []
    to_goal, _ = graph.reversed().from_node(goal)
    length = int(dist[goal])
    paths: list[list[int]] = []

    def extend(node: int, line: list[int]) -> None:
        if len(paths) >= limit:
            return
        if node == goal and len(line) == length:
            paths.append([n // 2 for n in line])
            return
        for v in sorted(int(v) for v in graph.out[node, : graph.count[node]]):
            if dist[v] == dist[node] + 1 and to_goal[v] == length - dist[v]:
                extend(v, [*line, v])

    extend(source, [])
    return paths


def analyse(state: State, exact: int | None = None, all_paths: bool = False) -> dict[str, Any]:
    """What ``damier solve`` prints: ``{"length", "count", "moves"}`` (moves in notation; length and moves null
    when the target cannot be reached), with ``"exact": {"k", "moves"}`` when asked (``moves`` null when no path
    of exactly k moves exists) and ``"all"`` (every shortest path) with ``all_paths``."""
    graph, source, goal = _graph(state)
    dist, ways = graph.from_node(source)
    board = state.puzzle.board  # type: ignore[attr-defined]

    def names(squares: list[int] | None) -> list[str] | None:
        return None if squares is None else [square_text(int(board[s])) for s in squares]

    reachable = dist[goal] < kernel.UNREACHABLE
    answer: dict[str, Any] = {
        "length": int(dist[goal]) if reachable else None,
        "count": int(ways[goal]),
        "moves": names([n // 2 for n in _one_path(graph, dist, goal)]) if reachable else None,
    }
    if exact is not None:
        answer["exact"] = {"k": exact, "moves": names(path_of_length(state, exact))}
    if all_paths:
        answer["all"] = [names(p) for p in all_shortest(state)]
    return answer


#: graded hints, from the vaguest
HINT_LEVELS = ("band", "length", "first", "path")


def hint(state: State, level: int) -> dict[str, Any]:
    """A hint of ``level`` 1 to 4: the length's band (``2 to 3 moves``), the exact length, the first move, the
    whole path. Each answers ``{"level", "kind", "text", ...}``; from a solved position, there is no hint."""
    if not isinstance(level, int) or not 1 <= level <= len(HINT_LEVELS):
        raise StateError(say("micro.error.hint_level", value=repr(level)))
    if state.is_over():
        raise StateError(say("micro.error.hint_solved"))
    solution = solve(state)
    if not solution.found:
        text = say("micro.hint.unreachable")
        return {"level": level, "kind": "none", "text": text, **coded(text)}
    board = state.puzzle.board  # type: ignore[attr-defined]
    moves = [square_text(int(board[s])) for s in solution.moves]
    length = solution.cost
    kind = HINT_LEVELS[level - 1]
    if kind == "band":
        low = max(1, length - (length + 1) % 2)
        text = say("micro.hint.band", low=low, high=low + 1) if low > 1 else say("micro.hint.band_short")
        return {"level": level, "kind": kind, "text": text, **coded(text), "low": low if low > 1 else 1,
                "high": low + 1 if low > 1 else 2}
    if kind == "length":
        text = say("micro.hint.length", length=length)
        return {"level": level, "kind": kind, "text": text, **coded(text), "length": length}
    if kind == "first":
        text = say("micro.hint.first", move=moves[0])
        return {"level": level, "kind": kind, "text": text, **coded(text), "move": moves[0]}
    return {"level": level, "kind": kind, "text": " ".join(moves), "moves": moves}
