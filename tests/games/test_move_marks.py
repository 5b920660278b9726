"""The marks of a move list (``State.move_marks``): "x" for a move that took something, checked against naive
readings of the boards before and after each move (the board views, not the kernels' arrays), and "#" after the move
that ended the game with a laser hit (read from the outcome's words), over random games, and from any ply on."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier


def khet_took(before: dict[str, Any], after: dict[str, Any], mover: int) -> bool:
    return len(after["pieces"]) < len(before["pieces"])  # a shot removed a piece


def atoms_took(before: dict[str, Any], after: dict[str, Any], mover: int) -> bool:
    cells = zip(before["counts"], before["owners"], after["counts"], after["owners"], strict=True)
    return any(c0 > 0 and o0 != mover and c1 > 0 and o1 == mover for c0, o0, c1, o1 in cells)


def jewels_took(before: dict[str, Any], after: dict[str, Any], mover: int) -> bool:
    def robots(board: dict[str, Any]) -> int:
        return sum(1 for kind in board["pieces"].values() if kind == "robot")

    return sum(after["jewels"]) > sum(before["jewels"]) or robots(after) < robots(before)


def ended_by_a_hit(reason: str) -> bool:
    return "hit by a laser" in reason or "hit by lasers" in reason


GAMES: dict[str, tuple[dict[str, Any], Callable[[dict[str, Any], dict[str, Any], int], bool]]] = {
    "khet": ({}, khet_took),
    "atoms": ({"rows": 4, "cols": 4}, atoms_took),
    "jewels": ({"size": 8, "jewels": 16, "walls": 10, "robots": 6}, jewels_took),
}


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_move_is_marked_exactly_when_it_took_something(name: str, seed: int) -> None:
    options, took = GAMES[name]
    state = damier.load(name, **options).new_state(seed)
    rng = random.Random(seed)
    expected = []
    while not state.is_over() and len(state.history) < 150:
        before, mover = state.board_json(previews=False), state.player
        state.play(state.sample_chance(rng) if state.player == damier.CHANCE else rng.choice(state.legal_moves()))
        expected.append("x" if took(before, state.board_json(previews=False), mover) else "")
    if expected and state.is_over() and ended_by_a_hit(state.outcome().reason):
        expected[-1] += "#"
    assert state.move_marks() == expected
    cut = rng.randrange(len(expected) + 1)
    assert state.move_marks(cut) == expected[cut:]


def random_game(name: str, options: dict[str, Any], seed: int, plies: int) -> damier.State:
    """A game of random moves and chance events, seeded, played to its end or ``plies`` plies."""
    state = damier.load(name, **options).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over() and len(state.history) < plies:
        state.play(state.sample_chance(rng) if state.player == damier.CHANCE else rng.choice(state.legal_moves()))
    return state


def test_some_moves_are_marked_in_every_game() -> None:
    for name, (options, _) in GAMES.items():
        marked = 0
        for seed in range(5):
            marked += random_game(name, options, seed, 150).move_marks().count("x")
        assert marked > 0, name


def test_the_move_that_ends_a_game_with_a_hit_is_marked_and_no_other() -> None:
    for name, (options, _) in GAMES.items():
        hits = 0
        for seed in range(12):
            state = random_game(name, options, seed, 400)
            marks = state.move_marks()
            assert all("#" not in mark for mark in marks[:-1]), name
            hit = state.is_over() and ended_by_a_hit(state.outcome().reason)
            assert ("#" in marks[-1]) == hit, (name, seed, state.outcome())
            hits += hit
        # Exploding Atoms has no laser; the two laser games end so in random play
        assert (hits > 0) == (name != "atoms"), name
