"""The ``futures`` evaluation of Jewels and Lasers: careful men (a win taken at once, never a robot step's reach when
they can help it, the most escapes kept) play the futures, and a future's result is the same for both players but
for its sign."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.core.rng import make_rng
from damier.games.jewels.evaluation import ESCAPES, STANDARD, WIN, evaluate, reach, threats
from damier.games.jewels.futures import JEWEL_ESCAPES, careful_move, future_mean
from tests.games.jewels.test_players import unsafe
from tests.games.jewels.test_rules import MEDIUM, random_positions


def careful(state: damier.State, seed: int) -> int:
    g = state.game
    s = state.kernel_array().copy()
    n = g.n
    return int(careful_move(s, g.neighbours, g.params, np.empty(n + 5, dtype=np.int32), np.empty_like(s),
                            np.empty(n, dtype=np.uint8), np.zeros(n, dtype=np.uint8), np.empty(n, dtype=np.int32),
                            make_rng(seed)))


def escapes_after(state: damier.State, move: int) -> int:
    """The careful man's measure of a safe move: his escapes after it, plus the jewel's worth."""
    g = state.game
    mover = state.player
    after = state.copy()
    after.play(move)
    s = after.kernel_array().copy()
    threat = np.empty(g.n, dtype=np.uint8)
    threats(s, g.neighbours, threat)
    took = after.jewels(mover) > state.jewels(mover)
    return min(int(reach(s, g.neighbours, mover, threat)[2]), ESCAPES) + (JEWEL_ESCAPES if took else 0)


def man_states(seed: int) -> list[damier.State]:
    return [state for state in random_positions(seed, MEDIUM)
            if state.player in (0, 1) and not state.placing and not state.is_over()]


@given(seed=st.integers(0, 10_000))
@settings(max_examples=12, deadline=None)
def test_a_careful_man_wins_at_once_else_stays_out_of_one_steps_reach_keeping_the_most_escapes(seed: int) -> None:
    for state in man_states(seed):
        mover = state.player
        moves = state.legal_moves()
        chosen = careful(state, seed)
        assert chosen in moves
        wins = []
        for move in moves:
            after = state.copy()
            after.play(move)
            if after.is_over() and after.outcome().winner == mover:
                wins.append(move)
        if wins:
            assert chosen in wins, state.position()
            continue
        safe = []
        for move in moves:
            after = state.copy()
            after.play(move)
            if not after.is_over() and not unsafe(state, move):
                safe.append(move)
        if not safe:
            continue
        assert chosen in safe, (state.position(), state.move_to_str(chosen))
        assert escapes_after(state, chosen) == max(escapes_after(state, m) for m in safe), state.position()


@given(seed=st.integers(0, 10_000), index=st.integers(0, 60))
@settings(max_examples=10, deadline=None)
def test_the_futures_are_one_set_of_dice_for_both_players_and_for_every_call(seed: int, index: int) -> None:
    states = man_states(seed)
    state = states[index % len(states)]
    g = state.game
    s = state.kernel_array().copy()

    def mean(player: int, count: int, plies: int) -> float:
        counters = np.zeros(2, dtype=np.int64)
        value = float(future_mean(s, g.neighbours, g.params, player, count, plies, seed, counters))
        assert counters[0] == count  # every future played
        return value

    for_a = mean(0, 6, 4)
    assert -WIN <= for_a <= WIN
    assert mean(1, 6, 4) == -for_a  # the same futures, seen from the other side
    assert mean(0, 6, 4) == for_a  # repeatable
    assert np.array_equal(s, state.kernel_array())  # the position is left as it was
    # a future of no plies stops at once: the standard evaluation of the position itself
    assert mean(0, 3, 0) == pytest.approx(float(evaluate(s, g.neighbours, 0, STANDARD)), rel=1e-12, abs=1e-9)


def test_a_stopped_search_begins_no_more_futures() -> None:
    state = man_states(3)[0]
    g = state.game
    counters = np.array([0, 1], dtype=np.int64)
    assert future_mean(state.kernel_array(), g.neighbours, g.params, 0, 50, 4, 1, counters) == 0.0
    assert counters[0] == 0
