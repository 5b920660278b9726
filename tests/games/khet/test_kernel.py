"""Khet kernel pieces that the facade tests reach only indirectly: the deflection table against the rules
file's table, the verdict of every move against the generator, undo against apply, and the one repetition count
against the naive reference's."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damier.core import laser
from damier.games.khet import kernel, notation
from damier.games.khet.setup import setup_array, setup_position
from tests.games.khet import reference

KINDS = {kernel.SPHINX: "sphinx", kernel.PHARAOH: "pharaoh", kernel.ANUBIS: "anubis", kernel.PYRAMID: "pyramid",
         kernel.SCARAB: "scarab"}


def rules_file_says(kind: str, facing: str, travelling: str) -> int:
    """The rules file's answer (through the reference's literal tables) as a deflection-table entry."""
    if kind == "pyramid":
        turned = reference.PYRAMID[travelling]["NESW".index(facing)]
        return laser.REMOVE if turned is None else "NESW".index(turned)
    if kind == "scarab":
        return "NESW".index(reference.SCARAB["\\" if facing in "NS" else "/"][travelling])
    if kind == "anubis":
        return laser.ABSORB if travelling == reference.OPPOSITE[facing] else laser.REMOVE
    return laser.REMOVE if kind == "pharaoh" else laser.ABSORB


@pytest.mark.parametrize("kind", list(KINDS))
def test_deflection_table_is_the_rules_file_s_table(kind: int) -> None:
    for colour in (0, 1):
        for facing in range(4):
            for d in range(4):
                c = kernel.code(kind, colour, facing)
                expected = rules_file_says(KINDS[kind], "NESW"[facing], "NESW"[d])
                assert kernel.DEFLECTION[c, d] == expected == kernel.deflect(d, c)


def test_an_empty_square_lets_the_beam_through() -> None:
    assert kernel.DEFLECTION[0].tolist() == [0, 1, 2, 3]


def kernel_state(board: reference.Board) -> np.ndarray:
    return notation.parse_position(board.position(), False)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_verdict_is_legal_exactly_for_the_generated_moves(rng: random.Random, rotation: bool, strict: bool) -> None:
    s = kernel_state(reference.random_placement(rng))
    out = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
    generated = set(out[: kernel.generate(s, out, rotation, strict)].tolist())
    for move in range(kernel.CLAIM):
        verdict = kernel.verdict(s, move, rotation, strict)
        assert (verdict == kernel.LEGAL) == (move in generated), (notation.move_to_str(move), verdict)
        assert kernel.is_legal(s, move, rotation, strict) == (move in generated)


def test_verdicts_once_the_game_is_over_and_out_of_range() -> None:
    s = setup_array("classic")
    assert kernel.verdict(s, kernel.CLAIM, False, True) == kernel.WHY_NOT_A_MOVE
    assert kernel.verdict(s, -1, False, True) == kernel.WHY_NOT_A_MOVE
    s[kernel.TO_MOVE] = kernel.TERMINAL
    assert kernel.verdict(s, 92, False, True) == kernel.WHY_GAME_OVER


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 100))
def test_undo_takes_back_every_move(rng: random.Random, quiet_limit: int) -> None:
    s = kernel_state(reference.random_placement(rng))
    out = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
    before = s.copy()
    tail = s[kernel.SQUARES :].copy()
    for move in out[: kernel.generate(s, out, True, True)]:
        kernel.apply(s, int(move), quiet_limit)
        kernel.undo(s, int(move), tail)
        assert s.tolist() == before.tolist(), notation.move_to_str(int(move))


def test_perft_leaves_its_position_unchanged() -> None:
    s = setup_array("dynasty")
    before = s.copy()
    assert kernel.perft(s, 2, False, False, True, 100, np.zeros(kernel.MAX_MOVES, dtype=np.int64)) == 4_854
    assert s.tolist() == before.tolist()


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_one_repetition_count_is_the_reference_s(rng: random.Random) -> None:
    """Turn two Pyramids away from the beams back and forth, among a few random moves: ``record_position``
    counts what the reference counts, and ends the game at the third occurrence with ``automatic``."""
    start = setup_position("classic")
    shuffle = [notation.parse_move_text(m) for m in ("h2+", "c7+", "h2-", "c7-")]
    s = notation.parse_position(start, True)
    game = reference.Game(reference.parse(start), reference.Rules(repetition="claim", quiet_ply_limit=0))
    hashes = np.zeros(200, dtype=np.uint64)
    hashes[0] = kernel.position_hash(s)
    out = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
    for count in range(1, 120):
        k = kernel.generate(s, out, False, True)
        if k == 0:
            break
        move = shuffle[(count - 1) % 4]
        if rng.random() < 0.1 or move not in out[:k]:
            move = int(out[rng.randrange(k)])
        kernel.apply(s, move, 0)
        game.play(notation.move_to_str(move))
        automatic = s.copy()
        seen = kernel.record_position(s, hashes, count, False)
        assert seen == game.repetitions()
        assert kernel.record_position(automatic, hashes, count, True) == seen
        if seen >= 3 and s[kernel.TO_MOVE] >= 0:
            assert automatic[kernel.END] == kernel.END_REPETITION and automatic[kernel.TO_MOVE] == kernel.TERMINAL
        else:
            assert automatic.tolist() == s.tolist()
