"""The Khet engine: it finds wins, defends its Pharaoh, stops on request, and its evaluation is colour-blind."""

from __future__ import annotations

import random
import threading
import time

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.agents import make_agent
from damier.ai.deepening import Deepening
from damier.core.game import Iteration, State
from damier.games.khet import kernel
from damier.games.khet.evaluation import EVALUATIONS, WIN, evaluate
from damier.games.khet.search import DECIDED, Engine
from tests.jit import NO_JIT

GAME = damier.load("khet")

#: Silver to move wins at once with j5+ (the Pyramid's mirror then sends the beam west along rank 5)
WIN_IN_ONE = "xs9/10/10/4ps4Ye/10/10/10/4Pn4Xn s 0"
#: Red's Sphinx faces east along rank 8, where Silver's Pharaoh stands: Silver must block or step away
PHARAOH_IN_DANGER = "xe4Pn4/10/10/10/10/10/4ps5/9Xn s 0"


def mirrored(s: np.ndarray) -> np.ndarray:
    """The position turned 180 degrees with the colours swapped (the setups are symmetric this way)."""
    out = s.copy()
    for sq in range(kernel.SQUARES):
        c = int(s[79 - sq])
        if c:
            kind, colour, facing = c >> 3, (c >> 2) & 1, c & 3
            facing = facing if kind == kernel.SCARAB else (facing + 2) & 3
            c = kernel.code(kind, 1 - colour, facing)
        out[sq] = c
    out[kernel.TO_MOVE] = 1 - s[kernel.TO_MOVE]
    return out


def think(state: State, **limits: object) -> Iteration:
    """The one deepening driver over a fresh Khet engine."""
    return Deepening(Engine(tt_bits=12)).think(state, **limits)  # type: ignore[arg-type]


def test_finds_the_win_in_one() -> None:
    state = GAME.state_from_position(WIN_IN_ONE)
    result = think(state, max_depth=3)
    assert state.move_to_str(result.move) == "j5+"
    assert result.score == WIN - 1
    state.play(result.move)
    assert state.outcome() is not None and state.outcome().winner == 0


def test_every_level_takes_the_win_in_one() -> None:
    for level in ("easy", "medium", "hard"):
        state = GAME.state_from_position(WIN_IN_ONE)
        agent = make_agent(level if level != "hard" else "alphabeta:time=0.3", GAME, seed=1)
        assert state.move_to_str(agent.choose(state)) == "j5+", level


def test_defends_its_pharaoh() -> None:
    state = GAME.state_from_position(PHARAOH_IN_DANGER)
    result = think(state, max_depth=3)
    assert result.score > -DECIDED
    state.play(result.move)
    # no Red reply wins: Red's laser cannot reach the Pharaoh after any Red move
    for reply in state.legal_moves():
        state.play(reply)
        assert state.outcome() is None or state.outcome().winner != 1, state.move_to_str(reply)
        state.undo()


def test_stop_ends_an_infinite_search() -> None:
    driver = Deepening(Engine(tt_bits=16))
    state = GAME.new_state()
    results = []
    started = threading.Event()
    thread = threading.Thread(target=lambda: results.append(driver.think(state, on_iteration=lambda _: started.set())))
    thread.start()
    assert started.wait(timeout=60)
    time.sleep(0.2)
    driver.stop()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert results[0].depth >= 1 and state.is_legal(results[0].move)


def test_iterations_are_reported_in_order_with_a_legal_pv() -> None:
    state = GAME.new_state()
    seen = []
    Deepening(Engine(tt_bits=16)).think(state, max_depth=4, on_iteration=seen.append)
    assert [it.depth for it in seen] == [1, 2, 3, 4]
    for it in seen:
        scratch = state.copy()
        assert it.pv and it.pv[0] == it.move
        for move in it.pv:
            scratch.play(move)  # raises if the principal variation is not a legal line


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(("classic", "imhotep", "dynasty")), st.integers(0, 60), st.integers(0, 2**32))
def test_evaluation_is_the_same_for_the_mirrored_position(setup: str, plies: int, seed: int) -> None:
    state = damier.load("khet", setup=setup).new_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state.play(rng.choice(state.legal_moves()))
    if state.is_over():
        return
    s = state.kernel_array()
    for index in range(len(EVALUATIONS)):
        assert evaluate(s, index) == evaluate(mirrored(s), index)


def test_mirrored_start_has_mirrored_perft() -> None:
    s = GAME.new_state().kernel_array()
    divide = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
    assert kernel.perft(mirrored(s), 3, False, False, True, 100, divide) == 451_859


def test_levels_resolve_to_the_kernel_engine() -> None:
    for level in ("easy", "medium", "hard"):
        agent = make_agent(level, GAME)
        state = GAME.new_state()
        assert state.is_legal(agent.choose(state))
        assert isinstance(agent.searcher, Engine), level  # type: ignore[attr-defined]
        assert agent.info.nodes > 0 and agent.info.depth >= 1


def test_quiescence_sees_a_sphinx_turn() -> None:
    # Red to move, its Pharaoh on e1 along Silver's rank 1: Silver's j1- would remove it, so Red must act
    state = GAME.state_from_position("xs9/10/10/10/10/10/7Pn2/4ps4Xn r 0")
    result = think(state, max_depth=1)
    assert result.score > -DECIDED
    state.play(result.move)
    state.play(state.parse_move("j1-"))
    assert state.outcome() is None or state.outcome().winner != 0


def test_claims_a_repetition_when_behind() -> None:
    game = damier.load("khet", repetition="claim")
    # Silver is two Pyramids down and shuffles; at the third occurrence it claims the draw
    state = game.state_from_position("xs4ps4/2ysysys5/10/10/10/10/2Yn7/4Pn4Xn s 0")
    for move in ("c2c3", "f8g8", "c3c2", "g8f8") * 2:
        state.play(state.parse_move(move))
    assert state.can_claim_draw()
    result = think(state, max_depth=2)
    assert state.move_to_str(result.move) == "claim"
    state.play(result.move)
    assert state.outcome() is not None and state.outcome().winner is None


def test_aspiration_windows_keep_the_full_window_score() -> None:
    # deepening searches depth 5 in a window around depth 4's score; a fresh engine searches depth 5 with the
    # full window: the scores agree, in quiet and in sharp positions
    # (without the JIT, where the kernels' Python is what is tried, depth 4 in a window around depth 3's)
    depth = 4 if NO_JIT else 5
    for position in ("classic", WIN_IN_ONE, PHARAOH_IN_DANGER):
        state = GAME.state_from_position(position)
        deepened = Deepening(Engine(tt_bits=16)).think(state, max_depth=depth)
        fresh = Engine(tt_bits=16)
        fresh.new_search(state)
        direct = fresh.search(state, depth, None, None)
        assert deepened.depth in (depth, 1) and direct.completed
        if deepened.depth == depth:
            assert deepened.score == direct.score, position


def test_a_node_limit_ends_the_deepening_with_a_completed_depth() -> None:
    state = GAME.new_state()
    unbounded = Deepening(Engine(tt_bits=16)).think(state, max_depth=4)
    bounded = Deepening(Engine(tt_bits=16)).think(state, max_depth=8, node_limit=unbounded.nodes)
    assert 4 <= bounded.depth < 8 and state.is_legal(bounded.move)
    assert bounded.nodes <= 2 * unbounded.nodes
