"""Khet perft: the rules file's reference counts for Classic, our own for Imhotep and Dynasty, and the kernel's
counts checked against the facade and the naive reference (``reference.py``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from damier.games.khet import kernel, notation
from damier.games.khet.rules import KhetState
from tests.games.khet import reference
from tests.games.khet.test_rules import at, new
from tests.jit import NO_JIT


def perft(state: KhetState, depth: int, bulk: bool = True) -> tuple[int, dict[str, int]]:
    """(leaves, leaves below each first move) of the kernel's perft from ``state``, with the game's options."""
    game = state.game
    s = notation.parse_position(state.position(), game.strict_swap)
    divide = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
    total = int(kernel.perft(s, depth, bulk, game.pharaoh_rotation, game.strict_swap, game.quiet_limit, divide))
    moves = state.legal_moves()  # increasing, the order of the kernel's divide
    return total, {state.move_to_str(m): int(divide[i]) for i, m in enumerate(moves)}


@pytest.mark.parametrize(("depth", "leaves"), [(1, 77), (2, 5_920), (3, 451_859)])
def test_perft_classic(depth: int, leaves: int) -> None:
    total, divide = perft(new(), depth)
    assert total == leaves
    assert sum(divide.values()) == leaves


def test_perft_classic_divide_at_depth_3() -> None:
    _, divide = perft(new(), 3)
    assert len(divide) == 77
    expected = {"c1c2": 6_150, "j1-": 5_537, "c4+": 5_456, "c5c6": 5_141, "d6+": 5_914}
    assert {move: divide[move] for move in expected} == expected


#: our own figures (the rules file gives none for these setups), computed once with this kernel and checked at
#: depth 1 and 2 by the naive reference below; depth 4 is in docs/games/khet.md
OUR_COUNTS = {
    "imhotep": (73, 5_343, 387_073),
    "dynasty": (70, 4_854, 334_850),
}


@pytest.mark.parametrize("setup", list(OUR_COUNTS))
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_imhotep_and_dynasty(setup: str, depth: int) -> None:
    assert perft(new(setup), depth)[0] == OUR_COUNTS[setup][depth - 1]


def reference_perft(board: reference.Board, depth: int, rules: reference.Rules) -> int:
    moves = reference.moves(board, rules)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game = reference.Game(board, rules)
        game.play(move)
        total += reference_perft(game.board, depth - 1, rules)
    return total


@pytest.mark.parametrize("setup", ["classic", "imhotep", "dynasty"])
def test_perft_2_agrees_with_the_reference(setup: str) -> None:
    state = new(setup)
    assert perft(state, 2)[0] == reference_perft(reference.parse(state.position()), 2, reference.Rules())


def test_perft_divide_1_is_the_facade_s_moves() -> None:
    state = new()
    total, divide = perft(state, 1)
    assert total == len(state.legal_moves())
    assert set(divide.values()) == {1}


def test_perft_2_counts_the_facade_s_moves() -> None:
    state = new("dynasty")
    _, divide = perft(state, 2)
    for move in state.legal_moves():
        text = state.move_to_str(move)
        state.play(move)
        assert divide[text] == len(state.legal_moves())
        state.undo()


@pytest.mark.parametrize("depth", [1, 2])
def test_perft_bulk_counting_gives_the_same_count(depth: int) -> None:
    for setup in ("classic", "imhotep"):
        assert perft(new(setup), depth, bulk=False) == perft(new(setup), depth, bulk=True)


def test_perft_with_pharaoh_rotation() -> None:
    state = new(pharaoh_rotation=True)
    total, divide = perft(state, 2)
    assert divide["e1+"] == divide["e1-"] == 79
    assert total == reference_perft(reference.parse(state.position()), 2, reference.Rules(pharaoh_rotation=True))


def test_perft_stops_below_a_removed_pharaoh() -> None:
    # Silver's Pyramid on j3 shields Silver's Pharaoh on j6 from its own beam: moving it away loses at once
    state = at({"j3": "Ys", "e1": None, "j6": "Pn"})
    total, divide = perft(state, 2)
    assert divide["j3i2"] == 0  # the game is over: no Red moves below
    assert divide["j3i3"] == 0
    assert total == sum(divide.values())


def naive_perft(s: np.ndarray, depth: int, options: tuple[bool, bool, int]) -> int:
    """Perft over the public kernels, every move played on a copy with its laser fired in full (``kernel.apply``)
    and the last ply counted: the kernel's perft decides most shots from the beam of the position before."""
    pharaoh_rotation, strict_swap, quiet_limit = options
    out = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
    k = kernel.generate(s, out, pharaoh_rotation, strict_swap)
    if depth == 1:
        return k
    total = 0
    for move in out[:k].tolist():
        child = s.copy()
        kernel.apply(child, move, quiet_limit)
        if child[kernel.TO_MOVE] >= 0:
            total += naive_perft(child, depth - 1, options)
    return total


@pytest.mark.parametrize("seed", range(12))
def test_perft_3_agrees_with_every_shot_fired_in_full(seed: int) -> None:
    # random placements and random games: beams that cross the board, hit pieces and Pharaohs, with each rule
    rng = random.Random(seed)
    options = (seed % 2 == 1, seed % 3 != 0, rng.choice((0, 3, 100)))
    found = 0
    while found < (1 if NO_JIT else 4):  # without the JIT, perft 3 takes a second or two a position
        if rng.random() < 0.5:
            state = new(rng.choice(("classic", "imhotep", "dynasty")), pharaoh_rotation=options[0])
            for _ in range(rng.randint(0, 60)):
                if state.is_over():
                    break
                state.play(rng.choice(state.legal_moves()))
            text = state.position()
        else:
            text = reference.random_placement(rng).position()
        s = notation.parse_position(text, options[1])
        if s[kernel.TO_MOVE] < 0:
            continue
        found += 1
        divide = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
        assert kernel.perft(s, 3, True, *options, divide) == naive_perft(s, 3, options), text
