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
from damier.games.jewels.evaluation import ESCAPES, JEWEL_VALUE, STANDARD, WIN, evaluate, slides
from damier.games.jewels.futures import (
    CAP_JEWEL,
    FINAL_FUTURES,
    FINALISTS,
    FIRST_FUTURES,
    FUTURE_COUNT,
    FUTURE_JEWEL,
    FUTURE_PLIES,
    JEWEL_ESCAPES,
    careful_move,
    future_mean,
    jewel_worth,
)
from damier.games.jewels.kernel import MAN, lit_by_one_step
from damier.games.jewels.search import futures_root, safe_moves
from tests.games.jewels.test_players import rewritten, unsafe
from tests.games.jewels.test_rules import MEDIUM, random_positions
from tests.jit import needs_jit as jit_needed

needs_jit = jit_needed("thousands of futures a position")


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
    # the squares a single robot step lights, step by step (not the kernel's threat map)
    threat = np.array([lit_by_one_step(s.copy(), g.neighbours, sq) > 0 for sq in range(g.n)], dtype=np.uint8)
    took = after.jewels(mover) > state.jewels(mover)
    return min(int(slides(s, g.neighbours, mover, threat)[2]), ESCAPES) + (JEWEL_ESCAPES if took else 0)


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
    # a future of no plies stops at once: the standard evaluation of the position itself, a jewel worth FUTURE_JEWEL
    leaf = float(evaluate(s, g.neighbours, 0, STANDARD, FUTURE_JEWEL))
    assert mean(0, 3, 0) == pytest.approx(leaf, rel=1e-12, abs=1e-9)


def test_where_a_future_stops_a_jewel_is_worth_less_than_in_the_standard_evaluation() -> None:
    # games are decided by hits: the futures weigh the jewels taken FUTURE_JEWEL each, the standard evaluation
    # JEWEL_VALUE, and nothing else differs
    assert 0 < FUTURE_JEWEL < JEWEL_VALUE
    checked = 0
    for seed in range(40):
        for state in man_states(seed):
            lead = state.jewels(0) - state.jewels(1)
            if lead == 0:
                continue
            g = state.game
            s = state.kernel_array().copy()
            standard = float(evaluate(s, g.neighbours, 0, STANDARD))
            stopped = float(future_mean(s, g.neighbours, g.params, 0, 1, 0, seed, np.zeros(2, dtype=np.int64)))
            assert stopped == pytest.approx(standard - (JEWEL_VALUE - FUTURE_JEWEL) * lead, rel=1e-12, abs=1e-9)
            checked += 1
        if checked >= 20:
            break
    assert checked >= 20  # positions where one man leads by jewels


def test_as_the_no_jewel_cap_nears_a_jewel_is_worth_more_to_a_player_not_ahead() -> None:
    # the cap ends the game as if agreed, the lead deciding: a jewel taken turns a draw into a win
    state = man_states(0)[-1]
    g = state.game
    cap = g.options["cap"]

    def worth(taken: str, quiet: int, player: int) -> float:
        return float(jewel_worth(rewritten(state, taken, quiet).kernel_array(), g.params, player))

    assert FUTURE_JEWEL < CAP_JEWEL < WIN
    for player in (0, 1):
        level = "1-1"
        behind = "0-1" if player == 0 else "1-0"
        ahead = "1-0" if player == 0 else "0-1"
        # far from the cap, or ahead, the futures' usual worth
        assert worth(level, 0, player) == worth(level, cap // 4 - 1, player) == FUTURE_JEWEL
        assert worth(ahead, cap - 1, player) == FUTURE_JEWEL
        # from a quarter of the cap on, level or behind, it rises with every quiet ply towards CAP_JEWEL
        rising = [worth(level, quiet, player) for quiet in range(cap // 4, cap)]
        assert rising == sorted(rising) and len(set(rising)) == len(rising)
        assert rising[0] == pytest.approx(FUTURE_JEWEL) and CAP_JEWEL - 20 < rising[-1] <= CAP_JEWEL
        assert worth(behind, cap - 1, player) == rising[-1]
    # with no cap, never
    uncapped = damier.load("jewels", **MEDIUM, cap=0)
    s = uncapped.state_from_position(rewritten(state, "1-1", 150).position()).kernel_array()
    assert jewel_worth(s, uncapped.params, 0) == FUTURE_JEWEL


def test_a_stopped_search_begins_no_more_futures() -> None:
    state = man_states(3)[0]
    g = state.game
    counters = np.array([0, 1], dtype=np.int64)
    assert future_mean(state.kernel_array(), g.neighbours, g.params, 0, 50, 4, 1, counters) == 0.0
    assert counters[0] == 0


def futures_root_naively(state: damier.State, allowed: list[int], seed: int) -> tuple[int, float]:
    """The root's successive halving, move by move through the contract: every move's first ``FIRST_FUTURES``
    futures, then the ``FINALISTS`` best valued by their first ``total`` futures; the best of those. A placement
    is valued by the placed man's own hits alone (selfish futures)."""
    g = state.game
    root = 0 if state.placing else state.player
    first: list[float] = []
    ended: list[bool] = []
    for move in allowed:
        after = state.copy()
        after.play(move)
        ended.append(after.is_over())
        if after.is_over():
            winner = after.outcome().winner
            first.append(0.0 if winner is None else WIN - 1 if winner == root else -WIN + 1)
        else:
            first.append(float(future_mean(after.kernel_array(), g.neighbours, g.params, root, FIRST_FUTURES,
                                           FUTURE_PLIES, seed, np.zeros(2, dtype=np.int64), state.placing,
                                           jewel_worth(state.kernel_array(), g.params, root))))
    order = sorted(range(len(allowed)), key=lambda i: -first[i])  # a stable sort: ties keep the listed order
    finalists = order[:FINALISTS]
    total = min(FINAL_FUTURES, FIRST_FUTURES + (FUTURE_COUNT - FIRST_FUTURES) * len(allowed) // len(finalists))
    final = {}
    for i in finalists:
        after = state.copy()
        after.play(allowed[i])
        final[i] = first[i] if ended[i] else float(future_mean(
            after.kernel_array(), g.neighbours, g.params, root, total, FUTURE_PLIES, seed, np.zeros(2, dtype=np.int64),
            state.placing, jewel_worth(state.kernel_array(), g.params, root)))
    best = finalists[0]
    for i in finalists[1:]:
        if final[i] > final[best]:
            best = i
    return allowed[best], final[best]


@needs_jit
@given(seed=st.integers(0, 10_000))
@settings(max_examples=6, deadline=None)
def test_the_root_spends_more_futures_on_its_best_moves_and_plays_the_best_of_them(seed: int) -> None:
    states = random_positions(seed, MEDIUM)
    chosen = [states[0]] + [s for s in states[1::5] if s.player in (0, 1) and not s.is_over()]
    assert chosen[0].placing  # the placement, tens of squares, and the men's moves
    for state in chosen:
        g = state.game
        allowed = safe_moves(state)
        move, value = futures_root(state.kernel_array(), g.neighbours, g.params, np.array(allowed, dtype=np.int32),
                                   np.zeros(2, dtype=np.int64), seed)
        expected_move, expected_value = futures_root_naively(state, allowed, seed)
        assert (int(move), float(value)) == (expected_move, pytest.approx(expected_value, abs=1e-9)), \
            state.position()


def test_a_stopped_root_plays_a_move_it_valued_or_its_first() -> None:
    state = man_states(3)[0]
    g = state.game
    allowed = np.array(state.legal_moves(), dtype=np.int32)
    counters = np.array([0, 1], dtype=np.int64)
    move, _ = futures_root(state.kernel_array(), g.neighbours, g.params, allowed, counters, 1)
    assert move == allowed[0] and counters[0] == 0


def exposed_robot_turns(seed: int) -> list[damier.State]:
    """The robots' turns of a random game where a robot step can light a man."""
    out = []
    for state in random_positions(seed, MEDIUM):
        if state.player == damier.CHANCE:
            s = state.kernel_array().copy()
            g = state.game
            if any(lit_by_one_step(s, g.neighbours, int(s[g.n + MAN + who])) for who in (0, 1)):
                out.append(state)
    return out


def exact_robot_turn_mean(state: damier.State, player: int, selfish: bool) -> float:
    """A future of no plies from the robots' turn ``state``, its exact mean for ``player`` outcome by outcome
    through the contract: one robot step, then the end or the standard evaluation. An end is worth its result
    (``WIN``, ``-WIN``, 0 for a draw); ``selfish``, -WIN where the player's man is hit (alone or with the other)
    and 0 where only the other's is (the game is over: nothing more can hit him)."""
    g = state.game
    exact = 0.0
    for outcome, chance in state.chance_outcomes():
        after = state.copy()
        after.play(outcome)
        if after.is_over():
            winner = after.outcome().winner
            if selfish:
                value = 0.0 if winner == player else -WIN
            else:
                value = 0.0 if winner is None else WIN if winner == player else -WIN
        else:
            value = float(evaluate(after.kernel_array(), g.neighbours, player, STANDARD, FUTURE_JEWEL))
        exact += chance * value
    return exact


@needs_jit
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_futures_weigh_a_hit_by_its_exact_chance_and_keep_their_mean(seed: int) -> None:
    # a future of no plies from the robots' turn, against its exact mean, by 4,096 futures
    states = exposed_robot_turns(seed)
    assert states
    for state in states[:4]:
        g = state.game
        s = state.kernel_array().copy()
        for player in (0, 1):
            exact = exact_robot_turn_mean(state, player, selfish=False)
            mean = float(future_mean(s, g.neighbours, g.params, player, 4096, 0, seed, np.zeros(2, dtype=np.int64)))
            # a hit drawn or not, the futures count its chance: what is left is the evaluations' spread
            assert mean == pytest.approx(exact, abs=40.0), (state.position(), player)
            # so a few futures are near it too (were the hits drawn, each would move 64 futures' mean by 62)
            few = float(future_mean(s, g.neighbours, g.params, player, 64, 0, seed, np.zeros(2, dtype=np.int64)))
            assert few == pytest.approx(exact, abs=250.0), (state.position(), player)


@needs_jit
@pytest.mark.parametrize("seed", [1, 2])
def test_selfish_futures_weigh_only_the_players_own_hit(seed: int) -> None:
    # as above, the other man's hits counting nothing
    states = exposed_robot_turns(seed)
    assert states
    for state in states[:4]:
        g = state.game
        s = state.kernel_array().copy()
        for player in (0, 1):
            exact = exact_robot_turn_mean(state, player, selfish=True)
            mean = float(future_mean(s, g.neighbours, g.params, player, 4096, 0, seed, np.zeros(2, dtype=np.int64),
                                     True))
            assert mean == pytest.approx(exact, abs=40.0), (state.position(), player)
