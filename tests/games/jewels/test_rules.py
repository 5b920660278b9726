"""One test per rule of ``../shared/rules/jewels.md``, and differential tests against ``reference.Naive``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.core.errors import IllegalMoveError, OptionError, ParseError
from damier.core.game import Termination, agreement, timeout
from damier.games.jewels import COLLECTED, LASER_HIT
from tests.games.jewels.reference import Naive

SMALL = {"size": 6, "jewels": 2, "walls": 2, "robots": 2}
MEDIUM = {"size": 8, "jewels": 6, "walls": 10, "robots": 4}


def small(**options: object) -> damier.Game:
    return damier.load("jewels", **{**SMALL, **options})


def position(text: str, **options: object) -> damier.State:
    return small(**options).state_from_position(text)


def moves_of(state: damier.State) -> set[str]:
    return {state.move_to_str(m) for m in state.legal_moves()}


def random_positions(seed: int, options: dict[str, object], plies: int = 60) -> list[damier.State]:
    """Every state of one random game (both men and the robots playing at random)."""
    game = damier.load("jewels", **options)
    rng = random.Random(seed)
    state = game.new_state(seed)
    out = []
    while not state.is_over() and len(state.history) < plies:
        out.append(state.copy())
        move = state.sample_chance(rng) if state.player == damier.CHANCE else rng.choice(state.legal_moves())
        state.play(move)
    out.append(state)
    return out


# ----- setup ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"jewels": 26}, MEDIUM])
def test_setup_is_point_symmetric_with_the_counts_asked(options: dict[str, int]) -> None:
    game = damier.load("jewels", **options)
    for seed in range(5):
        board = Naive.parse(game.new_state(seed).position())
        flat = [piece for row in board.grid for piece in row]
        assert flat == flat[::-1]  # a half turn about the centre maps the board onto itself
        for letter, option in (("J", "jewels"), ("W", "walls"), ("R", "robots")):
            assert flat.count(letter) == game.options[option]
        assert board.size == game.options["size"]


def test_the_same_seed_gives_the_same_board_and_the_position_shares_it() -> None:
    game = damier.load("jewels")
    a, b, c = game.new_state(42), game.new_state(42), game.new_state(43)
    assert a.position() == b.position() != c.position()
    shared = game.state_from_position(a.position())
    assert shared.position() == a.position() and moves_of(shared) == moves_of(a)


def test_odd_counts_and_overfull_boards_are_refused() -> None:
    with pytest.raises(OptionError, match="mirror pairs"):
        damier.load("jewels", jewels=15)
    with pytest.raises(OptionError, match="do not fit"):
        damier.load("jewels", size=6, jewels=20, walls=20, robots=0)


# ----- placement --------------------------------------------------------------------------------------------
@given(st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_placement_squares_are_empty_unlit_with_an_empty_unlit_mirror(seed: int) -> None:
    state = damier.load("jewels", **MEDIUM).new_state(seed)
    assert state.player == 0 and state.placing
    assert moves_of(state) == Naive.parse(state.position()).man_moves()
    move = random.Random(seed).choice(state.legal_moves())
    state.play(move)
    n = 64
    assert state.man(0) == move and state.man(1) == n - 1 - move  # Player 2's man goes on the mirror square
    assert state.player == 0 and not state.placing  # then Player 1 makes the first move


def test_a_bad_placement_names_the_rule() -> None:
    state = position("6/1W4/2R3/6/6/6 p 0-0 AB 0")
    before = state.position()
    with pytest.raises(IllegalMoveError, match="lit by the robot on C3"):
        state.parse_move("@A3")
    with pytest.raises(IllegalMoveError, match="holds a wall"):
        state.parse_move("@B2")
    with pytest.raises(IllegalMoveError, match="mirror square B2 holds a wall"):
        state.parse_move("@E5")
    assert state.position() == before


# ----- lasers -------------------------------------------------------------------------------------------------
@given(st.integers(0, 10_000), st.sampled_from([{}, MEDIUM, {"robot_steps": "all", **MEDIUM}]))
@settings(max_examples=20, deadline=None)
def test_lit_squares_match_the_naive_rays(seed: int, options: dict[str, object]) -> None:
    for state in random_positions(seed, options)[::5]:
        naive = Naive.parse(state.position())
        lit = state.lit()
        size = naive.size
        assert {(sq // size, sq % size) for sq in np.flatnonzero(lit)} == naive.lit()


def test_rays_pass_men_and_stop_before_pieces_and_dead_robots_do_not_shine() -> None:
    state = position("R1A1W1/6/J5/6/D5/5B xa 0-0 AB 0")  # over: Gold's man stands in the ray
    lit = {damier.core.grid.square_name(int(sq), 6) for sq in np.flatnonzero(state.lit())}
    # A1's robot: east through B1, past the man on C1, to D1 before the wall; south to A2 before the jewel
    assert lit == {"B1", "C1", "D1", "A2"}
    assert state.outcome().winner == 1


# ----- the men's moves --------------------------------------------------------------------------------------
def test_a_slide_stops_before_rays_pieces_and_the_other_man() -> None:
    state = position("A4J/6/2R3/6/6/5B a 0-0 AB 0")
    # south: A2, then A3 is lit by the robot on C3; east: B1, then C1 is lit
    assert moves_of(state) == {"A1-A2", "A1-B1"}
    with pytest.raises(IllegalMoveError, match="A3 is lit by the robot on C3; a man may not enter or cross"):
        state.parse_move("A1-A4")
    with pytest.raises(IllegalMoveError, match="straight line"):
        state.parse_move("A1-B2")
    blocked = position("A2B1J/6/6/6/6/J5 a 0-0 AB 0")
    with pytest.raises(IllegalMoveError, match="other man stands on D1"):
        blocked.parse_move("A1-F1")


def test_a_slide_ends_on_a_jewel_which_it_takes() -> None:
    state = position("A2J2/6/6/6/6/J1W2B a 0-0 AB 4")
    assert "A1-D1" in moves_of(state) and "A1-E1" not in moves_of(state)  # the jewel cannot be passed
    state.play(state.parse_move("A1-D1"))
    assert state.jewels(0) == 1 and state.position().split()[0].split("/")[0] == "3A2"
    assert state.quiet_plies == 0


def test_a_jewel_whose_taking_opens_a_ray_onto_the_path_cannot_be_taken() -> None:
    # the robot on E1 shines west onto the jewel on D1: taking it would light D1 (and C1, B1 behind it)
    state = position("A2JR1/6/6/6/6/5B a 0-0 AB 0")
    assert "A1-D1" not in moves_of(state) and "A1-C1" in moves_of(state)
    with pytest.raises(IllegalMoveError, match="opens the ray of the robot on E1"):
        state.parse_move("A1-D1")


def test_the_other_man_lit_by_a_move_is_hit_and_loses() -> None:
    # Gold blows up C3; C4's wall goes with it and the robot on A4 now shines along row 4 onto Silver on E4
    state = position("6/6/1AWJ2/R1W1B1/6/6 a 0-0 AB 0")
    state.play(state.parse_move("B3xC3"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == LASER_HIT
    assert "Silver's man was hit by a laser on E4" in outcome.reason
    assert Naive.parse(state.position()).grid[2][3] == "J"  # the jewel behind the wall is never destroyed


def test_the_explosion_rules() -> None:
    # Gold on B2: a wall on C2 with a robot behind it on D2; a wall on B3 with nothing behind (B4 empty)
    state = position("6/1AWR2/1W4/6/J5/5B a 0-0 AB 0")
    assert "B2xC2" in moves_of(state)
    with pytest.raises(IllegalMoveError, match="behind the wall on B3 is B4, which is empty"):
        state.parse_move("B2xB3")
    state.play(state.parse_move("B2xC2"))
    board = Naive.parse(state.position())
    assert board.men[0] == (1, 2)  # the man stands on the wall's square
    assert board.grid[1][2] == "." and board.grid[1][3] == "."  # the wall and the robot behind it destroyed
    assert not state.explosive(0)
    # once per man per game
    again = position("6/1AWR2/1W4/6/J5/5B a 0-0 -B 0")
    with pytest.raises(IllegalMoveError, match="used his explosion"):
        again.parse_move("B2xC2")


def test_an_explosion_spares_jewels_and_men_and_needs_an_unlit_end() -> None:
    state = position("2J3/1AWB2/2J3/6/6/6 a 0-0 AB 0")  # Silver's man behind the wall: something is behind it
    state.play(state.parse_move("B2xC2"))
    board = Naive.parse(state.position())
    assert board.grid[0][2] == "J" and board.grid[2][2] == "J" and board.men[1] == (1, 3)
    # C3's wall goes with C2's, and the robot on C5 would then shine up column C onto the man on C2
    lit_end = position("6/1AWJ2/2W3/6/2R3/5B a 0-0 AB 0")
    with pytest.raises(IllegalMoveError, match="C2 would be lit"):
        lit_end.parse_move("B2xC2")


@pytest.mark.parametrize("edge", [False, True])
def test_a_wall_on_the_edge_explodes_only_with_the_edge_option(edge: bool) -> None:
    corner = position("B4J/6/6/6/6/4AW a 0-0 AB 0", edge_explosion=edge)
    assert ("E6xF6" in moves_of(corner)) == edge


def test_a_man_with_no_move_passes() -> None:
    state = position("AW4/WW4/J5/6/6/5B a 0-0 -B 0")
    assert moves_of(state) == {"pass"}
    state.play(state.parse_move("pass"))
    assert state.player == 1


@given(st.integers(0, 10_000), st.sampled_from([MEDIUM, {}, {**MEDIUM, "edge_explosion": True}]))
@settings(max_examples=25, deadline=None)
def test_men_moves_match_the_naive_rules(seed: int, options: dict[str, object]) -> None:
    edge = bool(options.get("edge_explosion", False))
    for state in random_positions(seed, options):
        if state.player in (0, 1):
            assert moves_of(state) == Naive.parse(state.position(), edge).man_moves(), state.position()


# ----- the robots' turn ---------------------------------------------------------------------------------------
def test_turns_alternate_men_and_robots() -> None:
    state = position("A4J/6/2R3/6/6/5B a 0-0 AB 0")
    state.play(state.parse_move("A1-A2"))
    assert state.player == damier.CHANCE
    state.play(state.parse_move("rC3-C4"))
    assert state.player == 1


@given(st.integers(0, 10_000))
@settings(max_examples=20, deadline=None)
def test_one_uniform_step_among_the_legal_steps(seed: int) -> None:
    for state in random_positions(seed, MEDIUM):
        if state.player != damier.CHANCE:
            continue
        outcomes = state.chance_outcomes()
        assert {state.move_to_str(m) for m, _ in outcomes} == Naive.parse(state.position()).robot_steps()
        assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)


def test_a_robot_that_cannot_step_dies_and_stays_an_obstacle() -> None:
    # the robot on A5 is boxed in by walls: as the robots' turn begins after Gold's move, it dies
    state = position("A5/5J/3R2/W5/RW4/W4B a 0-0 AB 0")
    state.play(state.parse_move("A1-B1"))
    assert state.position().split()[0].split("/")[4] == "DW4"
    assert [e["type"] for e in state.events()][:2] == ["slide", "death"]
    assert all(not move_text.startswith("rA5") for move_text in moves_of(state))


def test_all_robots_step_once_in_random_order() -> None:
    game = damier.load("jewels", **{**MEDIUM, "robot_steps": "all"})
    state = game.new_state(3)
    rng = random.Random(3)
    state.play(state.legal_moves()[0])
    state.play(rng.choice(state.legal_moves()))
    living = state.position().split()[0].count("R")
    steps = 0
    while state.player == damier.CHANCE:
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.play(state.sample_chance(rng))
        steps += 1
    assert steps == living or state.is_over()


# ----- hits and the end -----------------------------------------------------------------------------------------
def test_a_robot_step_that_lights_a_man_hits_him() -> None:
    state = position("A4J/6/6/6/1R4/5B a 0-0 AB 0")
    state.play(state.parse_move("A1-A3"))
    state.play(state.parse_move("rB5-B6"))  # shines east along row 6: Silver's man on F6 is hit
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == LASER_HIT


def test_both_men_hit_at_once_is_a_draw() -> None:
    # robot_steps=all: C2 steps into row 1 (Gold on A1), E5 into column F (Silver on F6); hits are judged at the
    # end of the robots' turn
    state = position("A4J/2R3/6/6/4R1/5B ra 0-0 AB 0 C2,E5", robot_steps="all")
    state.play(state.parse_move("rC2-C1"))
    assert not state.is_over()
    state.play(state.parse_move("rE5-F5"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and "both men" in outcome.reason


def test_all_jewels_collected_the_more_wins() -> None:
    state = position("A1J3/6/6/6/6/5B a 3-2 AB 0")
    state.play(state.parse_move("A1-C1"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == COLLECTED
    drawn = position("A1J3/6/6/6/6/5B a 2-3 AB 0")
    drawn.play(drawn.parse_move("A1-C1"))
    assert drawn.outcome().winner is None and "a draw, 3-3" in drawn.outcome().reason


def test_a_full_counting_column_wins() -> None:
    state = position("A1J2J/6/6/6/6/5B a 5-0 AB 0")  # the column is as tall as the board: 6
    state.play(state.parse_move("A1-C1"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == Termination.GOAL


def test_agreement_gives_the_game_to_the_player_with_more_jewels() -> None:
    state = position("A1J2J/6/6/6/6/5B a 1-3 AB 0")
    outcome = agreement(state)
    assert outcome.winner == 1 and outcome.termination == Termination.AGREEMENT and "Silver wins 3-1" in outcome.reason


def test_the_ply_cap_ends_the_game_as_if_agreed() -> None:
    state = position("A1J2J/6/6/6/6/5B a 2-1 AB 3", cap=4)
    state.play(state.parse_move("A1-B1"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.termination == Termination.MOVE_LIMIT


# ----- notation and positions ------------------------------------------------------------------------------------
@given(st.integers(0, 10_000), st.sampled_from([MEDIUM, {**MEDIUM, "robot_steps": "all"}]))
@settings(max_examples=15, deadline=None)
def test_notation_and_positions_round_trip(seed: int, options: dict[str, object]) -> None:
    game = damier.load("jewels", **options)
    for state in random_positions(seed, options):
        again = game.state_from_position(state.position())
        assert again.position() == state.position() and again.player == state.player
        assert again.legal_moves() == state.legal_moves()
        for move in state.legal_moves():
            assert state.parse_move(state.move_to_str(move)) == move
        if state.is_over():
            assert again.outcome() == state.outcome()


@pytest.mark.parametrize("text, words", [
    ("6/6/6/6/6/6 q 0-0 AB 0", "side 'q'"),
    ("6/6/6 p 0-0 AB 0", "needs 6"),
    ("7/6/6/6/6/6 p 0-0 AB 0", "7 squares"),
    ("A5/6/6/6/6/5B a x-0 AB 0", "3-2"),
    ("A5/6/6/6/6/5B a 0-0 AX 0", "AB, A-"),
    ("A5/6/6/6/6/6 a 0-0 AB 0", "both men"),
    ("A4R/6/6/6/6/5B a 0-0 AB 0", "game is over"),
    ("6/6/6/6/6/5B xa 0-0 AB 0", "both men"),
    ("A5/6/6/6/6/5Q a 0-0 AB 0", "not a square"),
])
def test_bad_positions_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        small().state_from_position(text)


def test_bad_moves_say_what_is_accepted_and_change_nothing() -> None:
    state = position("A4J/6/2R3/6/6/5B a 0-0 AB 0")
    before = state.position()
    with pytest.raises(ParseError, match="not a move"):
        state.parse_move("jump")
    with pytest.raises(IllegalMoveError, match="stands on A1"):
        state.parse_move("B1-B2")
    with pytest.raises(IllegalMoveError, match="no wall there"):
        state.parse_move("A1xA2")
    assert state.position() == before


# ----- who can still win (the arcade's clocks: a flag against a player who cannot win is a draw) ------------------
def test_with_no_living_robot_a_player_short_of_jewels_cannot_win() -> None:
    # Gold 3, Silver 0, two jewels left, no robot: Silver takes both at best, 2 < 3
    state = position("A2J2/6/6/6/6/J1W2B a 3-0 AB 0")
    assert state.can_win(0) and not state.can_win(1)
    drawn = timeout(state, 0)
    assert drawn.winner is None and drawn.returns == (0.0, 0.0) and drawn.termination == Termination.TIME
    assert drawn.reason == "Gold ran out of time, but Silver cannot win: draw"
    assert timeout(state, 1).winner == 0  # Gold can win: Silver's flag loses


def test_a_player_who_can_still_catch_up_or_be_saved_by_a_laser_can_win() -> None:
    assert position("A2J2/6/6/6/6/J1W2B a 1-0 AB 0").can_win(1)  # 0 + 2 jewels left > 1
    assert not position("A2J2/6/6/6/6/J1W2B a 2-0 AB 0").can_win(1)  # 2 at best: a draw, not a win
    assert position("A2JR1/6/6/6/6/J1W2B a 3-0 AB 0").can_win(1)  # a living robot may still hit Gold's man
