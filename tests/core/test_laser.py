"""The core laser kernel against a naive walk written here: rows and columns, a dict of pieces, a set of the
(square, direction) pairs already met to see a loop; compared on random boards and random deflection tables."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from damier.core import laser
from damier.core.grid import orthogonal_neighbours

#: (row, column) steps of the directions 0-3: north (up a row), east, south, west, as in ``orthogonal_neighbours``
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def naive_walk(rows: int, cols: int, pieces: dict[tuple[int, int], int], start: tuple[int, int], direction: int,
               table: list[list[int]]) -> tuple[list[tuple[tuple[int, int], int]], str, tuple[int, int] | None]:
    """(the squares entered with the direction the beam leaves each in, how it stopped, where)."""
    (r, c), d = start, direction
    path: list[tuple[tuple[int, int], int]] = []
    met: set[tuple[tuple[int, int], int]] = set()
    while True:
        r, c = r + STEPS[d][0], c + STEPS[d][1]
        if not (0 <= r < rows and 0 <= c < cols):
            return path, "left", None
        if (r, c) in pieces:
            out = table[pieces[r, c]][d]
            if out == laser.ABSORB:
                return [*path, ((r, c), d)], "absorbed", (r, c)
            if out == laser.REMOVE:
                return [*path, ((r, c), d)], "hit", (r, c)
            d = out
        if ((r, c), d) in met:
            return path, "looped", None
        met.add(((r, c), d))
        path.append(((r, c), d))


STOPS = {"left": laser.LEFT_BOARD, "absorbed": laser.ABSORBED, "hit": laser.HIT, "looped": laser.LOOPED}


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, int, list[int], int, int, list[list[int]]]:
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    codes = draw(st.integers(1, 5))  # piece codes 1..codes; 0 is an empty square
    table = [[0, 1, 2, 3]] + [draw(st.lists(st.sampled_from([laser.ABSORB, laser.REMOVE, 0, 1, 2, 3]),
                                            min_size=4, max_size=4)) for _ in range(codes)]
    board = draw(st.lists(st.integers(0, codes) | st.just(0), min_size=rows * cols, max_size=rows * cols))
    return rows, cols, board, draw(st.integers(0, rows * cols - 1)), draw(st.integers(0, 3)), table


@settings(max_examples=300, deadline=None)
@given(boards())
def test_walk_is_the_naive_walk(case: tuple[int, int, list[int], int, int, list[list[int]]]) -> None:
    rows, cols, cells, start, direction, rules = case
    board = np.array(cells, dtype=np.int32)
    table = np.array(rules, dtype=np.int32)
    neighbours = orthogonal_neighbours(rows, cols)
    pieces = {divmod(i, cols): code for i, code in enumerate(cells) if code}
    expected, stop, at = naive_walk(rows, cols, pieces, divmod(start, cols), direction, rules)
    path = np.full(laser.max_path(rows * cols), -1, dtype=np.int32)
    n, how, square = laser.walk(board, start, direction, table, neighbours, path)
    got = [(divmod(int(p) >> 2, cols), int(p) & 3) for p in path[:n]]
    assert how == STOPS[stop]
    if stop == "looped":  # the kernel only sees a loop once it has gone round: the naive walk is its beginning
        assert n == laser.max_path(rows * cols) and square == -1
        assert got[: len(expected)] == expected
        return
    assert got == expected
    assert square == (-1 if at is None else at[0] * cols + at[1])
    assert laser.walk(board, start, direction, table, neighbours, None) == (n, how, square)
    assert laser.target(board, start, direction, table, neighbours) == (square if how == laser.HIT else -1)
    lit = np.full(rows * cols, 7, dtype=np.uint8)
    assert laser.light(board, start, direction, table, neighbours, lit) == (n, how, square)
    assert set(np.flatnonzero(lit).tolist()) == {sq[0] * cols + sq[1] for sq, _ in expected}
    assert set(lit.tolist()) <= {0, 1}


def test_a_beam_leaves_the_board_at_once_from_an_edge() -> None:
    table = np.array([[0, 1, 2, 3]], dtype=np.int32)
    path = np.zeros(laser.max_path(4), dtype=np.int32)
    assert laser.walk(np.zeros(4, dtype=np.int32), 0, 0, table, orthogonal_neighbours(2, 2), path) == (0, 0, -1)


def test_a_beam_between_two_mirrors_loops() -> None:
    # a 1 x 3 row: mirrors on both ends send the beam back and forth (E <-> W) forever
    table = np.array([[0, 1, 2, 3], [0, 3, 2, 1]], dtype=np.int32)
    board = np.array([1, 0, 1], dtype=np.int32)
    n, how, at = laser.walk(board, 1, 1, table, orthogonal_neighbours(1, 3), None)
    assert (how, at) == (laser.LOOPED, -1) and n == laser.max_path(3)
