"""The Micro Robots rules as numba kernels: the jumps of a board, and the searches over them.

A board is 36 square codes (``colour * 6 + number - 1``), row-major from the top-left. The robot jumps along its
row or column, either way, to any square that shares its colour or its number, passing over the others: one jump
is one move. Jumps are symmetric (if a square can reach another in one jump, the other can reach it back).

The searches run on the puzzle graph: a node is ``square * 2 + flag``, where the flag says the waypoint has been
visited (without a waypoint the flag is 1 from the start). A jump to ``t`` sets the flag when ``t`` is the
waypoint, or, when passing over counts, when the waypoint lies on the jump's line. The puzzle is solved on the
node ``target * 2 + 1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIZE = 6
SQUARES = 36
NODES = 2 * SQUARES
#: at most 5 other squares in the row and 5 in the column
MAX_JUMPS = 10
#: the farthest distance any puzzle of any board can have (the graph has 72 nodes)
UNREACHABLE = 1 << 20
# row and column steps of the four directions N, E, S, W
_DR = np.array([-1, 0, 1, 0], dtype=np.int64)
_DC = np.array([0, 1, 0, -1], dtype=np.int64)


@njit(cache=True)
def jumps(board: np.ndarray, out: np.ndarray, count: np.ndarray) -> None:
    """``out[s, :count[s]]``: the squares the robot on square ``s`` can jump to, nearest first by direction."""
    for s in range(SQUARES):
        r0, c0 = s // SIZE, s % SIZE
        colour, number = board[s] // SIZE, board[s] % SIZE
        k = 0
        for d in range(4):
            r, c = r0 + _DR[d], c0 + _DC[d]
            while 0 <= r < SIZE and 0 <= c < SIZE:
                t = r * SIZE + c
                if board[t] // SIZE == colour or board[t] % SIZE == number:
                    out[s, k] = t
                    k += 1
                r += _DR[d]
                c += _DC[d]
        count[s] = k


@njit(cache=True)
def on_line(a: int, b: int, w: int) -> bool:
    """Whether square ``w`` lies on the jump from ``a`` to ``b`` (its end included, its start not)."""
    ra, ca, rb, cb, rw, cw = a // SIZE, a % SIZE, b // SIZE, b % SIZE, w // SIZE, w % SIZE
    if w == a:
        return False
    if ra == rb == rw:
        return min(ca, cb) <= cw <= max(ca, cb)
    if ca == cb == cw:
        return min(ra, rb) <= rw <= max(ra, rb)
    return False


@njit(cache=True)
def puzzle_graph(board: np.ndarray, waypoint: int, passing: bool, out: np.ndarray, count: np.ndarray) -> None:
    """The puzzle graph's edges: ``out[node, :count[node]]`` (nodes ``square * 2 + flag``)."""
    targets = np.empty((SQUARES, MAX_JUMPS), dtype=np.int64)
    degree = np.empty(SQUARES, dtype=np.int64)
    jumps(board, targets, degree)
    for s in range(SQUARES):
        for flag in range(2):
            node = s * 2 + flag
            count[node] = degree[s]
            for i in range(degree[s]):
                t = targets[s, i]
                seen = flag
                if waypoint >= 0 and flag == 0 and (t == waypoint or (passing and on_line(s, t, waypoint))):
                    seen = 1
                out[node, i] = t * 2 + seen


@njit(cache=True)
def distances(out: np.ndarray, count: np.ndarray, source: int, dist: np.ndarray, ways: np.ndarray) -> int:
    """Breadth-first search from node ``source``: each node's distance (``UNREACHABLE`` if none) and how many
    shortest paths reach it; returns how many nodes it reached."""
    n = dist.shape[0]
    for i in range(n):
        dist[i] = UNREACHABLE
        ways[i] = 0
    queue = np.empty(n, dtype=np.int64)
    queue[0] = source
    dist[source] = 0
    ways[source] = 1
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for i in range(count[u]):
            v = out[u, i]
            if dist[v] == UNREACHABLE:
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1
            if dist[v] == dist[u] + 1:
                ways[v] += ways[u]
    return tail


@njit(cache=True)
def reverse(out: np.ndarray, count: np.ndarray, back: np.ndarray, back_count: np.ndarray) -> None:
    """The reversed edges of a puzzle graph into ``back`` (``2 * MAX_JUMPS`` wide: a node is entered from up to
    ten squares, each with the waypoint visited or not), sources in increasing order."""
    for v in range(back_count.shape[0]):
        back_count[v] = 0
    for u in range(count.shape[0]):
        for i in range(count[u]):
            v = out[u, i]
            back[v, back_count[v]] = u
            back_count[v] += 1


@njit(cache=True, inline="always")
def _has_edge(out: np.ndarray, count: np.ndarray, u: int, v: int) -> bool:
    for i in range(count[u]):
        if out[u, i] == v:
            return True
    return False


@njit(cache=True)
def shortest_line(out: np.ndarray, count: np.ndarray, dist: np.ndarray, goal: int, path: np.ndarray) -> None:
    """One shortest path to ``goal`` into ``path[:dist[goal]]`` (the nodes reached), walking back from the goal
    through the lowest-numbered node one move nearer the source each time (``dist`` from ``distances``)."""
    node = goal
    for step in range(dist[goal], 0, -1):
        path[step - 1] = node
        for u in range(count.shape[0]):
            if dist[u] == step - 1 and _has_edge(out, count, u, node):
                node = u
                break


@njit(cache=True)
def exact_path(out: np.ndarray, count: np.ndarray, source: int, goal: int, k: int, path: np.ndarray) -> bool:
    """A path of exactly ``k`` moves from ``source`` to ``goal`` (nodes may repeat) into ``path[:k]`` (the nodes
    reached); False when there is none. The path reaches ``goal`` only at its end: the puzzle is over there, so no
    jump leaves it."""
    n = count.shape[0]
    reach = np.zeros((k + 1, n), dtype=np.bool_)
    reach[0, source] = True
    for step in range(1, k + 1):
        for u in range(n):
            if reach[step - 1, u] and u != goal:
                for i in range(count[u]):
                    reach[step, out[u, i]] = True
    if not reach[k, goal]:
        return False
    node = goal
    for step in range(k, 0, -1):
        path[step - 1] = node
        for u in range(n):
            if reach[step - 1, u] and u != goal and _has_edge(out, count, u, node):
                node = u
                break
    return True


@njit(cache=True)
def is_connected(board: np.ndarray) -> bool:
    """Whether every square can reach every other (jumps are symmetric: one search from square 0 is enough)."""
    targets = np.empty((SQUARES, MAX_JUMPS), dtype=np.int64)
    degree = np.empty(SQUARES, dtype=np.int64)
    jumps(board, targets, degree)
    dist = np.empty(SQUARES, dtype=np.int64)
    ways = np.empty(SQUARES, dtype=np.int64)
    return distances(targets, degree, 0, dist, ways) == SQUARES


@njit(cache=True)
def board_statistics(boards: np.ndarray, diameters: np.ndarray, lengths: np.ndarray) -> None:
    """For each board: its diameter (the longest optimal puzzle, -1 if not connected) into ``diameters``; and
    over every board and every ordered start/target pair, how many puzzles have each optimal length into
    ``lengths`` (index 0 counts unreachable pairs)."""
    targets = np.empty((SQUARES, MAX_JUMPS), dtype=np.int64)
    degree = np.empty(SQUARES, dtype=np.int64)
    dist = np.empty(SQUARES, dtype=np.int64)
    ways = np.empty(SQUARES, dtype=np.int64)
    for b in range(boards.shape[0]):
        jumps(boards[b], targets, degree)
        longest = 0
        connected = True
        for source in range(SQUARES):
            distances(targets, degree, source, dist, ways)
            for t in range(SQUARES):
                if t != source:
                    if dist[t] == UNREACHABLE:
                        lengths[0] += 1
                        connected = False
                    else:
                        lengths[dist[t]] += 1
                        longest = max(longest, dist[t])
        diameters[b] = longest if connected else -1
