"""Ricochet Robots: one test per rule of ``shared/rules/ricochet.md`` that the package implements (robots and
targets, movement, the rule modes and what "turned" means, rebounds, the transparent robot, the silver robot,
puzzle generation, the outcome and the move limit), then notation, ids, DriftingDroids ids, the JSON form,
positions, bad input, views and the race, through the public API.

The board ``1A2A3A4A`` used throughout (targets: red circle e2, green triangle b3, yellow hexagon g4, blue square d7,
red triangle i11, red square n2, red hexagon f14, green circle n12, green square e11, green hexagon o6, blue circle
b10, blue triangle j3, blue hexagon k14, yellow circle l7, yellow triangle d15, yellow square o10, the vortex f9)::

        a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p
       +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
     1 |.  . |.  .  .  .  .  .  .  .  .  . |.  .  .  . |
       +  +  +  +  +--+  +  +  +  +  +  +  +  +--+  +  +
     2 |.  .  .  . |.  .  .  .  .  .  .  .  . |.  .  . |
       +  +--+  +  +  +  +  +  +  +  +  +  +  +  +  +  +
     3 |.  . |.  .  .  .  .  .  .  . |.  .  .  .  .  . |
       +  +  +  +  +  +  +  +  +  +--+  +  +  +  +  +  +
     4 |.  .  .  .  .  .  . |.  .  .  .  .  .  .  .  . |
       +  +  +  +  +  +  +--+  +  +  +  +  +  +  +  +--+
     5 |.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
       +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
     6 |.  .  .  .  .  .  .  .  .  .  .  .  .  . |.  . |
       +--+  +  +  +  +  +  +  +  +  +  +--+  +  +--+  +
     7 |.  .  . |.  .  .  .  .  .  .  .  . |.  .  .  . |
       +  +  +  +--+  +  +  +--+--+  +  +  +  +  +  +  +
     8 |.  .  .  .  .  .  . |# |# |.  .  .  .  .  .  . |
       +  +  +  +  +  +--+  +--+--+  +  +  +  +  +  +  +
     9 |.  .  .  .  .  * |. |# |# |.  .  .  .  .  .  . |
       +  +  +  +  +  +  +  +--+--+  +  +  +  +  +  +  +
    10 |.  . |.  .  .  .  .  .  .  .  .  .  .  .  . |. |
       +  +--+  +  +  +  +  +  +--+  +  +  +  +  +--+  +
    11 |.  .  .  . |.  .  .  .  . |.  .  .  .  .  .  . |
       +  +  +  +  +--+  +  +  +  +  +  +  +  +  +  +--+
    12 |.  .  .  .  .  .  .  .  .  .  .  .  . |.  .  . |
       +--+  +  +  +  +  +  +  +  +  +  +  +  +--+  +  +
    13 |.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . |
       +  +  +  +  +  +--+  +  +  +  +--+  +  +  +  +  +
    14 |.  .  .  .  .  . |.  .  .  . |.  .  .  .  .  . |
       +  +  +  +--+  +  +  +  +  +  +  +  +  +  +  +  +
    15 |.  .  . |.  .  .  .  .  .  .  .  .  .  .  .  . |
       +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +  +
    16 |.  .  .  .  .  .  . |.  .  .  .  . |.  .  .  . |
       +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import damier
from damier.core import registry
from damier.core.errors import IllegalMoveError, OptionError, ParseError, StateError
from damier.core.game import TERMINAL, Termination
from damier.games.ricochet import notation, setup, view
from damier.games.ricochet.race import RACE
from damier.games.ricochet.rules import MOVE_LIMIT, RicochetGame, RicochetState, puzzle_state
from tests.games.ricochet import reference

BOARD = "1A2A3A4A"
#: the rule modes and robot options, as the puzzle id writes them
RULES = {"": {}, "i": {"ricochet": "if_trivial"}, "s": {"ricochet": "strict"}, "x": {"rebound": False},
         "sx": {"ricochet": "strict", "rebound": False}}


# ----- helpers ------------------------------------------------------------------------------------------
def puzzle(*robots: str, target: str, rules: str = "", board: str = BOARD) -> str:
    """A puzzle id with the robots on named squares (red, green, blue, yellow[, silver][, transparent]; ``-`` for
    an absent silver)."""
    cells = "".join("--" if name == "-" else f"{setup.parse_cell(name):02X}" for name in robots)
    return ".".join([board, cells, target] + ([rules] if rules else []))


def at(position: str, **options: Any) -> RicochetState:
    state = puzzle_state(position, options)
    assert isinstance(state, RicochetState)
    return state


def play(state: RicochetState, *moves: str) -> RicochetState:
    for move in moves:
        state.play(state.parse_move(move))
    return state


def squares(state: RicochetState) -> list[str]:
    return [setup.cell_name(int(c)) if c >= 0 else "-" for c in state.robots]


def legal(state: RicochetState) -> set[str]:
    return {state.move_to_str(m) for m in state.legal_moves()}


def ends(state: RicochetState) -> dict[str, tuple[str, int]]:
    """Each legal move: where its robot ends and the moves used after it."""
    out = {}
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        robot = "RGBYST".index(state.move_to_str(move)[0])
        out[state.move_to_str(move)] = (squares(after)[robot], after.moves_used)
    return out


def test_four_robots_red_green_blue_yellow_and_optional_silver_and_transparent() -> None:
    assert squares(at(puzzle("e10", "p16", "a16", "p9", target="rc"))) == ["e10", "p16", "a16", "p9", "-", "-"]
    assert squares(at(puzzle("e10", "p16", "a16", "p9", "a1", target="rc")))[4] == "a1"
    assert squares(at(puzzle("e10", "p16", "a16", "p9", "-", "a1", target="rc")))[4:] == ["-", "a1"]
    for options, count in (({}, 4), ({"silver": True}, 5), ({"transparent": True}, 5),
                           ({"silver": True, "transparent": True}, 6)):
        state = damier.load("ricochet", **options).new_state(1)
        assert isinstance(state, RicochetState)
        assert sum(c >= 0 for c in state.robots) == count
        assert (state.robots[4] >= 0, state.robots[5] >= 0) == (options.get("silver", False),
                                                                 options.get("transparent", False))


def test_a_coloured_target_is_reached_by_the_robot_of_its_colour() -> None:
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc")), "RN")  # e10 up to the red circle e2
    assert state.is_over() and squares(state)[0] == "e2"
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.SOLVED and outcome.cost == 1


def test_another_robot_on_a_coloured_target_does_not_solve_it() -> None:
    state = play(at(puzzle("p16", "e10", "a16", "p9", target="rc")), "GN")  # green on the red circle
    assert squares(state)[1] == "e2" and not state.is_over()


def test_the_vortex_is_reached_by_any_robot() -> None:
    for robot, letter in enumerate("RGBY"):
        robots = ["p16", "a16", "p1", "a1"]
        robots[robot] = "a9"  # a9 east: f9, the vortex, walled on its east side
        assert play(at(puzzle(*robots, target="v")), letter + "E").is_over()


def test_the_silver_robot_has_no_target_of_its_own_but_may_end_on_the_vortex() -> None:
    assert not play(at(puzzle("p16", "a16", "p1", "a1", "e10", target="rc")), "SN").is_over()  # on e2, not red
    assert play(at(puzzle("p16", "a16", "p1", "a1", "a9", target="v")), "SE").is_over()


# ----- movement -----------------------------------------------------------------------------------------
def test_a_robot_slides_until_a_wall() -> None:
    state = at(puzzle("p1", "a1", "a16", "p16", target="rc"))
    assert ends(state)["RW"] == ("m1", 1)  # stopped by the wall between l1 and m1
    assert ends(state)["GE"] == ("b1", 1)  # the wall between b1 and c1
    assert ends(state)["YN"] == ("p12", 1)  # the wall between p11 and p12


def test_a_robot_ends_on_a_target_square_only_where_a_wall_or_a_robot_stops_it() -> None:
    state = at(puzzle("a4", "p16", "a16", "p1", target="rc"))
    assert ends(state)["RE"] == ("g4", 1)  # the yellow hexagon, walled on its east side
    state = at(puzzle("i5", "p16", "a16", "p1", target="rc"))
    assert ends(state)["RN"] == ("i1", 1)  # column i has no wall: up to the edge


def test_a_robot_stops_before_another_robot() -> None:
    state = at(puzzle("p1", "a1", "a16", "p16", target="rc"))
    assert ends(state)["BE"] == ("g16", 1)
    state = at(puzzle("p1", "a1", "a16", "e16", target="rc"))
    assert ends(state)["BE"] == ("d16", 1) and "YW" in legal(state)


def test_a_robot_stops_at_the_edge_of_the_board() -> None:
    state = at(puzzle("p1", "a1", "a16", "p16", target="rc"))
    assert ends(state)["BN"] == ("a13", 1)
    assert not {"RN", "RE", "GN", "GW", "BS", "BW", "YS", "YE"} & legal(state)


def test_no_robot_enters_the_centre_block() -> None:
    state = at(puzzle("h1", "a1", "i10", "p9", target="rc"))
    assert ends(state)["RS"] == ("h7", 1) and ends(state)["YW"] == ("j9", 1)
    assert "BN" not in legal(state)  # i10 is just south of the block


def test_a_move_that_does_not_change_the_robots_square_is_not_a_move() -> None:
    state = at(puzzle("m2", "p16", "a16", "p9", target="rc"))
    assert "RE" not in legal(state)  # m2 is walled on its east side
    with pytest.raises(IllegalMoveError, match="RE moves nothing here \\(a wall, a robot or the rules stop it\\); "
                                               "legal moves: RN, RS, RW, GN, GW"):
        state.parse_move("RE")


def test_every_robot_may_be_moved_and_every_move_counts() -> None:
    state = play(at(puzzle("e10", "p16", "e6", "p9", target="rc")), "RN", "BE", "RN")  # blue out of the way
    assert squares(state)[:3] == ["e2", "p16", "n6"] and state.is_over()
    assert state.outcome().cost == 3  # type: ignore[union-attr]


# ----- the rule modes -----------------------------------------------------------------------------------
def test_ricochet_off_a_straight_move_onto_the_target_solves() -> None:
    assert play(at(puzzle("e10", "p16", "a16", "p9", target="rc")), "RN").is_over()


def test_ricochet_if_trivial_a_robot_that_reaches_its_target_in_one_straight_move_must_turn() -> None:
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="i")), "RN")
    assert squares(state)[0] == "e2" and not state.is_over()
    play(state, "RE", "RW")  # north then east: a turn; back west onto the target
    assert state.is_over() and state.outcome().cost == 3  # type: ignore[union-attr]


def test_ricochet_if_trivial_a_robot_already_on_its_target_must_turn() -> None:
    state = at(puzzle("e2", "p16", "a16", "p9", target="rc", rules="i"))
    assert not state.is_over()
    assert not play(state, "RS", "RN").is_over()  # down and back up: no turn
    assert play(state, "RE", "RW").is_over()  # up then east: the turn


def test_ricochet_if_trivial_a_robot_that_needs_more_than_one_move_need_not_turn() -> None:
    state = play(at(puzzle("e10", "p16", "e6", "p9", target="rc", rules="i")), "RN", "BE", "RN")
    assert state.is_over()  # blue stood in the way at the start: red could not reach e2 in one move


def test_ricochet_if_trivial_for_the_vortex_counts_each_robot_on_its_own() -> None:
    # yellow on c9 reaches the vortex f9 in one straight move; red on a9 cannot (yellow is in its way)
    state = play(at(puzzle("a9", "a16", "p1", "c9", target="v", rules="i")), "YE")
    assert squares(state)[3] == "f9" and not state.is_over()
    state = play(at(puzzle("a9", "a16", "p1", "c9", target="v", rules="i")), "YN", "RE")
    assert squares(state)[0] == "f9" and state.is_over()  # red was not trivial: no turn needed
    state = play(at(puzzle("a9", "a16", "p1", "c9", target="v", rules="s")), "YN", "RE")
    assert not state.is_over()  # strict: it would be


def test_ricochet_strict_every_solution_turns_the_robot_that_finishes() -> None:
    state = play(at(puzzle("e10", "p16", "e6", "p9", target="rc", rules="s")), "RN", "BE", "RN")
    assert squares(state)[0] == "e2" and not state.is_over()  # north, north: no turn
    assert play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="s")), "RN", "RE", "RW").is_over()


def test_turned_means_two_of_the_robots_own_moves_in_a_row_at_a_right_angle() -> None:
    # a reversal is not a turn
    assert not play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="s")), "RN", "RS", "RN").is_over()
    # other robots' moves between the robot's own moves do not matter
    assert play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="s")), "RN", "GN", "RE", "YW",
                "RW").is_over()
    # a robot that turned earlier stays turned: it may then finish with a straight move
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="s")), "RE", "RN")
    assert state.turned[0] and not state.is_over()


def test_the_position_shows_each_robots_last_direction_and_capitals_once_it_turned() -> None:
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="s")), "RN", "GN")
    assert state.position().split()[3] == "nn----"
    play(state, "RE")
    assert state.position().split()[3] == "En----"


# ----- rebounds -----------------------------------------------------------------------------------------
def test_rebound_by_default_a_robot_may_move_straight_back() -> None:
    state = play(at(puzzle("p1", "a1", "a16", "p16", target="rc")), "RW")
    assert "RE" in legal(state)


def test_no_rebound_a_robot_may_not_move_straight_back_at_once() -> None:
    state = play(at(puzzle("p1", "a1", "a16", "p16", target="rc", rules="x")), "RW")
    assert "RE" not in legal(state) and "RS" in legal(state)
    with pytest.raises(IllegalMoveError, match="RE moves nothing here"):
        state.parse_move("RE")
    play(state, "GE")  # another robot moved: red may go back
    assert "RE" in legal(state)


def test_no_rebound_applies_to_the_transparent_robot_whatever_walls_it_passed() -> None:
    state = play(at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v", rules="x")), "TW1")
    assert not any(move.startswith("TE") for move in legal(state))


# ----- the transparent robot ----------------------------------------------------------------------------
def test_the_transparent_robot_may_stop_at_a_wall_or_pass_it_at_one_more_move_each() -> None:
    state = at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v"))
    transparent = {move: end for move, end in ends(state).items() if move[0] == "T"}
    assert transparent == {"TW": ("m1", 1), "TW1": ("c1", 2), "TW2": ("a1", 3),  # two walls on row 1
                           "TS": ("p4", 1), "TS1": ("p8", 2)}  # then blue on p9 stops it


def test_the_transparent_robot_never_passes_a_robot() -> None:
    state = at(puzzle("a16", "n1", "p9", "a9", "-", "p1", target="v"))
    assert {move: end for move, end in ends(state).items() if move.startswith("TW")} == {"TW": ("o1", 1)}


def test_the_transparent_robot_never_passes_the_centre_block_or_the_edge() -> None:
    state = at(puzzle("a16", "p16", "p9", "a10", "-", "h1", target="v"))
    assert {move: end for move, end in ends(state).items() if move[0] == "T"} == {
        "TS": ("h7", 1), "TE": ("l1", 1), "TE1": ("p1", 2), "TW": ("c1", 1), "TW1": ("a1", 2)}
    state = at(puzzle("a16", "p16", "p9", "a10", "-", "a9", target="rc"))
    assert ends(state)["TE1"] == ("g9", 2) and "TE2" not in legal(state)  # g9's east wall is the centre's


def test_the_transparent_robot_never_ends_on_a_coloured_target_but_passes_over_it() -> None:
    state = at(puzzle("a16", "p16", "p9", "a10", "-", "a4", target="v"))
    assert "TE" not in legal(state)  # its stop would be g4, the yellow hexagon
    assert ends(state)["TE1"] == ("p4", 2)


def test_the_transparent_robot_may_end_on_the_vortex_and_solve_it() -> None:
    state = play(at(puzzle("a16", "p16", "p9", "a10", "-", "a9", target="v")), "TE")
    assert squares(state)[5] == "f9" and state.is_over() and state.outcome().cost == 1  # type: ignore[union-attr]


def test_a_transparent_move_costs_one_plus_the_walls_passed() -> None:
    state = play(at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v")), "TW2", "TS")
    assert state.moves_used == 4 and len(state.history) == 2
    assert state.events()[0] == {"type": "slide", "robot": "transparent", "from": "a1", "to": "a6",
                                 "cells": ["a2", "a3", "a4", "a5", "a6"], "walls_passed": 0}


def test_the_transparent_robot_is_an_obstacle_to_the_others() -> None:
    state = at(puzzle("a16", "p16", "p9", "a10", "-", "e16", target="v"))
    assert ends(state)["RE"] == ("d16", 1)


# ----- puzzle generation --------------------------------------------------------------------------------
CONFIGS = [{}, {"silver": True}, {"transparent": True}, {"ricochet": "if_trivial"}, {"ricochet": "strict"},
           {"rebound": False, "board": "4D3C2B1A"}, {"silver": True, "transparent": True, "ricochet": "strict"}]


def reference_puzzle(state: RicochetState) -> reference.Puzzle:
    """The reference's reading of our puzzle's id."""
    p = state.puzzle
    cells = [None if c < 0 else (c % 16, c // 16) for c in p.robots]
    board = reference.assemble(p.board.side_ids)
    return reference.Puzzle(board, tuple(cells), (p.target.cell % 16, p.target.cell // 16), p.ricochet, p.rebound)


@pytest.mark.parametrize("options", CONFIGS)
def test_a_seed_draws_the_same_puzzle_every_time(options: dict[str, Any]) -> None:
    game = damier.load("ricochet", **options)
    first = [game.new_state(seed).position() for seed in range(8)]
    assert first == [game.new_state(seed).position() for seed in range(8)]
    assert len(set(first)) == 8
    assert game.new_state().position() == game.new_state(0).position()


@pytest.mark.parametrize("options", CONFIGS)
def test_a_drawn_puzzle_is_never_solved_in_0_or_1_moves(options: dict[str, Any]) -> None:
    game = damier.load("ricochet", **options)
    for seed in range(25):
        state = game.new_state(seed)
        assert isinstance(state, RicochetState)
        ref = reference_puzzle(state)
        assert not ref.solved([])  # the target's robot does not already stand on it
        assert not any(ref.solved([move]) for move in ref.legal([]))
        assert not state.is_over() and state.moves_used == 0


@pytest.mark.parametrize("options", CONFIGS)
def test_a_drawn_puzzles_robots_stand_on_distinct_free_squares_that_are_not_targets(options: dict[str, Any]) -> None:
    game = damier.load("ricochet", **options)
    for seed in range(25):
        state = game.new_state(seed)
        assert isinstance(state, RicochetState)
        board = state.puzzle.board
        cells = [int(c) for c in state.robots if c >= 0]
        assert len(cells) == len(set(cells)) == 4 + int(state.game.silver) + int(state.game.transparent)
        assert not any(board.blocked[c] or board.target_at(c) for c in cells)
        assert reference.is_legal_board(board.side_ids)
        assert state.start == notation.puzzle_id(state.puzzle) == state.position()


def test_difficulty_1_is_refused_since_no_drawn_puzzle_takes_one_move() -> None:
    with pytest.raises(OptionError, match="option 'difficulty': 1 is never drawn"):
        damier.load("ricochet", difficulty=1)


def test_targets_are_drawn_among_all_17() -> None:
    game = damier.load("ricochet", board=BOARD)
    drawn = {game.new_state(seed).puzzle.target.name for seed in range(200)}  # type: ignore[attr-defined]
    assert len(drawn) == 17


@pytest.mark.parametrize("difficulty", [2, 5, 8])
def test_difficulty_draws_puzzles_of_that_optimal_number_of_moves(difficulty: int) -> None:
    game = damier.load("ricochet", difficulty=difficulty)
    solve = registry.info("ricochet").hook("solver")
    for seed in range(3):
        state = game.new_state(seed)
        found = solve(state, None, None)
        assert found.found and found.cost == difficulty
        line = [state.move_to_str(m) for m in found.moves]
        ref = reference_puzzle(state)  # type: ignore[arg-type]
        ref_line = [(reference.LETTERS.index(m[0]), m[1], int(m[2:] or 0)) for m in line]
        assert ref.solved(ref_line) and ref.cost(ref_line) == difficulty
        assert not any(ref.solved([m]) for m in ref.legal([]))


# ----- the outcome --------------------------------------------------------------------------------------
def test_the_outcome_of_a_solved_puzzle_counts_the_moves_used() -> None:
    state = play(at(puzzle("e10", "p16", "e6", "p9", target="rc")), "RN", "BE", "RN")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.SOLVED
    assert (outcome.winner, outcome.cost) == (0, 3)
    assert outcome.optimum == 2 and outcome.reason == "solved in 3 moves (the optimum is 2)"
    assert outcome.returns == (2 / 3,)
    assert state.legal_moves() == [] and state.player == TERMINAL
    with pytest.raises(IllegalMoveError, match="the puzzle is solved \\(solved in 3 moves"):
        state.parse_move("RS")


def test_the_optimum_is_the_puzzles_from_its_start_even_from_a_later_position() -> None:
    state = play(at(puzzle("e10", "p16", "e6", "p9", target="rc")), "RN")
    later = at(state.position())
    play(later, "BE", "RN")
    assert later.outcome().optimum == 2 and later.outcome().cost == 3  # type: ignore[union-attr]


def test_a_puzzle_not_solved_when_100_moves_are_used_ends_there_unsolved() -> None:
    assert MOVE_LIMIT == reference.MOVE_LIMIT == 100
    state = play(at(puzzle("p1", "a1", "a16", "p16", target="rc")), "RW")
    fields = state.position().split()
    fields[2] = "99"
    state = at(" ".join(fields))
    assert not state.is_over() and not state.solved_after(state.parse_move("RE"))
    play(state, "RE")
    outcome = state.outcome()
    assert state.is_over() and state.legal_moves() == [] and outcome is not None
    assert outcome.termination is Termination.MOVE_LIMIT
    assert (outcome.winner, outcome.returns, outcome.cost) == (None, (0.0,), 100)
    assert outcome.reason == "not solved in 100 moves (the limit)"
    assert [e["type"] for e in state.events()] == ["slide"]
    assert state.render_text().endswith("Over: not solved in 100 moves (the limit).")
    state.undo()
    assert not state.is_over()


def test_a_move_that_solves_at_the_limit_solves() -> None:
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc")), "RS")  # red down to e11
    fields = state.position().split()
    fields[2] = "99"
    state = play(at(" ".join(fields)), "RN")
    assert state.moves_used == 100 and state.outcome().termination is Termination.SOLVED  # type: ignore[union-attr]


def test_undo_takes_a_move_back_with_its_cost_and_memory() -> None:
    state = play(at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v", rules="s")), "TW2", "TS")
    state.undo()
    assert squares(state)[5] == "a1" and state.moves_used == 3 and state.position().split()[3] == "-----w"
    state.undo()
    assert state.position() == puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v", rules="s")
    with pytest.raises(StateError, match="there is no move to undo"):
        state.undo()


# ----- notation -----------------------------------------------------------------------------------------
def test_a_move_is_the_robots_letter_and_a_direction_and_the_walls_the_transparent_robot_passes() -> None:
    state = at(puzzle("a16", "p16", "p9", "a9", "a10", "p1", target="v"))
    assert legal(state) >= {"RN", "GN", "BW", "YE", "SE", "TW", "TW2"}
    for text in legal(state):
        assert state.move_to_str(state.parse_move(text)) == text
        assert state.move_to_str(state.parse_move(f" {text.lower()} ")) == text
    assert state.parse_move("TW0") == state.parse_move("TW")


@pytest.mark.parametrize(("text", "words"), [
    ("XN", "'XN' is not a move: write a robot (R, G, B, Y, S silver, T transparent) and a direction (N, E, S, W), "
           "e.g. RN; the transparent robot adds the walls it passes: TE2"),
    ("R", "is not a move"),
    ("RQ", "is not a move"),
    ("RN2", "is not a move"),
    ("TWx", "is not a move"),
    ("TW16", "'TW16': the transparent robot passes at most 15 walls"),
    ("", "is not a move"),
])
def test_a_malformed_move_is_a_parse_error(text: str, words: str) -> None:
    state = at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v"))
    before = state.position()
    with pytest.raises(ParseError) as caught:
        state.parse_move(text)
    assert words in str(caught.value) and state.position() == before


@pytest.mark.parametrize(("text", "words"), [
    ("SN", "there is no silver robot in this puzzle"),
    ("RS", "RS moves nothing here"),
    ("TW3", "TW3 moves nothing here"),
    ("TE", "TE moves nothing here"),
])
def test_an_illegal_move_is_an_illegal_move_error_and_changes_nothing(text: str, words: str) -> None:
    state = at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v"))
    before = state.position()
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move(text)
    assert words in str(caught.value)
    with pytest.raises(IllegalMoveError):
        state.play(9999)
    assert state.position() == before and state.history == []


def test_a_puzzle_id_is_the_board_the_robots_in_hex_the_target_and_the_rules() -> None:
    text = "1A2B3C4D.E2302B12.bt"
    parsed = notation.parse_puzzle_id(text)
    assert parsed.board.board_id == "1A2B3C4D" and parsed.target.name == "blue triangle"
    assert [setup.cell_name(c) for c in parsed.robots[:4]] == ["c15", "a4", "l3", "c2"]  # 0xE2 = y 14, x 2
    assert (parsed.silver, parsed.transparent, parsed.ricochet, parsed.rebound) == (False, False, "off", True)
    assert notation.puzzle_id(parsed) == text
    full = notation.parse_puzzle_id("4d3c2b1a.e2302b12--44.v.ix")  # lower case reads; the transparent on e5
    assert notation.puzzle_id(full) == "4D3C2B1A.E2302B12--44.v.ix"
    assert (full.silver, full.transparent, full.ricochet, full.rebound) == (False, True, "if_trivial", False)
    assert notation.find_target(full.board, "red circle") == notation.find_target(full.board, "rc")


@pytest.mark.parametrize("rules", ["", "i", "s", "x", "ix", "sx"])
@pytest.mark.parametrize("robots", ["E2302B12", "E2302B1244", "E2302B12--44", "E2302B124455"])
def test_puzzle_ids_round_trip(rules: str, robots: str) -> None:
    text = ".".join(["3B1C4A2D", robots, "yh"] + ([rules] if rules else []))
    assert notation.puzzle_id(notation.parse_puzzle_id(text)) == text
    state = at(text)
    assert state.position() == text and notation.puzzle_id(notation.parse_puzzle_id(state.position())) == text


@pytest.mark.parametrize(("text", "words"), [
    ("1A2B3C4D.E2302B12", "is not a puzzle id: write BOARD.ROBOTS.TARGET[.RULES], e.g. 1A2B3C4D.E2302B12.bt, or a "
                          "DriftingDroids id such as 7650+42+E2302B12+C9"),
    ("1A2B3C4D.E2302B12.bt.s.x", "is not a puzzle id"),
    ("1A2B3C4E.E2302B12.bt", "'1A2B3C4E' is not a board"),
    ("1A1B3C4D.E2302B12.bt", "a board takes one side of each group 1, 2, 3, 4"),
    ("1A2B3C4D.E2302B1.bt", "the robots are 4, 5 or 6 cells of two hex digits each"),
    ("1A2B3C4D.E2302BZZ.bt", "the robots are 4, 5 or 6 cells"),
    ("1A2B3C4D.E230--12.bt", "only the silver robot may be absent (--), and only before a transparent robot"),
    ("1A2B3C4D.E2302B12--.bt", "only the silver robot may be absent"),
    ("1A2B3C4D.E2E22B12.bt", "two robots cannot stand on the same square"),
    ("1A2B3C4D.E230772B.bt", "a robot cannot stand in the centre block (h8)"),
    ("1A2B3C4D.E2302B12.bz", "'bz' is not a target; the targets: rc (red circle)"),
    ("1A2B3C4D.E2302B12.bt.q", "the rules are i (ricochet if trivial) or s (strict ricochet), then x (no rebound)"),
    ("1A2B3C4D.E2302B12.bt.", "the rules are i"),
    ("1A2B3C4D.E2302B12.bt.xs", "the rules are i"),
])
def test_a_bad_puzzle_id_is_a_parse_error_saying_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        notation.parse_puzzle_id(text)
    assert words in str(caught.value)


def test_a_puzzle_id_must_agree_with_the_games_options() -> None:
    with pytest.raises(ParseError, match="the puzzle has ricochet='strict', the game ricochet='off'; load the game "
                                         "with the puzzle's rules"):
        damier.load("ricochet").state_from_position("1A2B3C4D.E2302B12.bt.s")
    with pytest.raises(ParseError, match="the puzzle has silver=True, the game silver=False"):
        damier.load("ricochet").state_from_position("1A2B3C4D.E2302B1244.bt")
    assert damier.load("ricochet", ricochet="strict").state_from_position("1A2B3C4D.E2302B12.bt.s").position() == \
        "1A2B3C4D.E2302B12.bt.s"


def test_the_puzzle_reader_takes_the_rules_from_the_puzzle() -> None:
    state = puzzle_state(" 1A2B3C4D.E2302B12--44.v.sx ", {"board": "random"})
    assert {k: state.game.options[k] for k in ("silver", "transparent", "ricochet", "rebound")} == {
        "silver": False, "transparent": True, "ricochet": "strict", "rebound": False}
    with pytest.raises(ParseError, match="the puzzle is empty"):
        puzzle_state("  ", {})
    with pytest.raises(OptionError, match="difficulty"):
        puzzle_state("1A2B3C4D.E2302B12.bt", {"difficulty": 99})


# ----- DriftingDroids game ids --------------------------------------------------------------------------
def test_a_driftingdroids_id_states_the_quadrants_the_robots_the_target_robot_and_the_target() -> None:
    # DriftingDroids' 25-move puzzle (fotos/hardest_ricochet_robots_problem_25moves.txt in its repository):
    # board layout "4B 3B / 1A 2B", the active robot is blue, the target is its triangle
    parsed = notation.parse_puzzle_id("7650+42+E2302B12+C9")
    assert parsed.board.board_id == "4B3B2B1A"  # 7 6 5 0 in its numbering: NW, NE, SE, SW
    assert [setup.cell_name(c) for c in parsed.robots[:4]] == ["c15", "a4", "l3", "c2"]  # l3: blue, furthest east
    assert parsed.robots[4:] == (-1, -1)
    assert (parsed.target.name, setup.cell_name(parsed.target.cell)) == ("blue triangle", "j13")  # 0xC9: y 12, x 9
    assert notation.puzzle_id(parsed) == "4B3B2B1A.E2302B12.bt"


def test_driftingdroids_25_move_line_solves_its_puzzle_at_the_last_move() -> None:
    state = at("7650+42+E2302B12+C9")
    line = "gS gE gN gE gS gE bN bW bS bW bS bW bS bE gS gW gS gW gN bW gS gE bS bE bN".upper().split()
    for move in line:
        assert not state.is_over()
        play(state, move)
    # over at move 25, far below the move limit: solved (its outcome would ask the solver for the optimum, a
    # search of millions of positions: test_solver.py checks it is 25)
    assert state.is_over() and state.moves_used == 25 < MOVE_LIMIT


def test_driftingdroids_24_move_line_solves_its_puzzle_at_the_last_move() -> None:
    # fotos/hard_ricochet_robots_problem_24moves.txt: board "1A 4B / 2B 3B", blue to the blue triangle on 0x93
    state = at("0765+42+2E21BD0F+93")
    assert state.puzzle.board.board_id == "1A4B3B2B" and state.puzzle.target.name == "blue triangle"
    words = {"red": "R", "green": "G", "blue": "B", "yellow": "Y", "up": "N", "right": "E", "down": "S", "left": "W"}
    line = ["red right", "red down", "red left", "red down", "red right", "yellow down", "yellow left",
            "green down", "blue down", "blue left", "blue up", "blue right", "blue down", "blue left", "blue down",
            "yellow down", "red left", "blue up", "green up", "green left", "green down", "blue left", "blue down",
            "blue right"]
    for move in line:
        assert not state.is_over()
        robot, direction = move.split()
        play(state, words[robot] + words[direction])
    assert state.is_over() and state.moves_used == 24 < MOVE_LIMIT  # solved (see the 25-move puzzle)


def test_a_driftingdroids_id_with_five_robots_has_silver_and_f_names_the_vortex() -> None:
    parsed = notation.parse_puzzle_id("7650+52+E2302B1244+C9")
    assert setup.cell_name(parsed.robots[4]) == "e5" and parsed.silver
    vortex = next(t for t in notation.parse_puzzle_id("7650+42+E2302B12+C9").board.targets if t.shape == "vortex")
    parsed = notation.parse_puzzle_id(f"7650+4F+E2302B12+{vortex.cell:02X}")
    assert parsed.target.name == "vortex"
    assert at(f"7650+4f+e2302b12+{vortex.cell:02x}").puzzle.target == vortex


@pytest.mark.parametrize(("text", "words"), [
    ("7650+40+E2302B12+C9", "says the target is for the red robot, but cell C9 (j13) holds the blue triangle"),
    ("7650+4F+E2302B12+C9", "says the target is for the vortex, but cell C9 (j13) holds the blue triangle"),
    ("7650+44+E2302B12+C9", "the target robot digit is 0 red, 1 green, 2 blue, 3 yellow or F (any robot, the "
                            "vortex), not 4"),
    ("7650+42+E2302B12+00", "cell 00 is not a target square of this board"),
    ("7650+32+E2302B+C9", "DriftingDroids ids here have 4 or 5 robots"),
    ("7650+42+E2302B+C9", "DriftingDroids ids here have 4 or 5 robots"),
    ("7650+42+E2302B12", "is not a DriftingDroids game id (QQQQ+NG+ROBOTS+TARGET, e.g. 7650+42+E2302B12+C9)"),
    ("765+42+E2302B12+C9", "is not a DriftingDroids game id"),
    ("7750+42+E2302B12+C9", "a board takes one side of each group"),
    ("7650+42+E2E22B12+C9", "two robots cannot stand on the same square"),
    ("7650+42+E2772B12+C9", "the centre block"),
])
def test_a_bad_driftingdroids_id_is_a_parse_error(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        notation.parse_puzzle_id(text)
    assert words in str(caught.value)


# ----- the JSON form ------------------------------------------------------------------------------------
ISSUE_JSON = {"quadrants": ["4B", "3B", "2B", "1A"],
              "robots": {"red": [2, 14], "green": [0, 3], "blue": [11, 2], "yellow": [2, 1]},
              "target": {"color": "blue", "cell": [9, 12]}, "ricochet": "off"}


def test_the_json_form_is_the_same_puzzle_as_its_ids() -> None:
    parsed = notation.parse_puzzle_json(json.dumps(ISSUE_JSON))
    assert notation.puzzle_id(parsed) == "4B3B2B1A.E2302B12.bt" == notation.puzzle_id(
        notation.parse_puzzle_id("7650+42+E2302B12+C9"))
    assert at(json.dumps(ISSUE_JSON)).position() == "4B3B2B1A.E2302B12.bt"
    assert damier.load("ricochet").state_from_position(json.dumps(ISSUE_JSON)).start == "4B3B2B1A.E2302B12.bt"


@pytest.mark.parametrize("text", ["1A2B3C4D.E2302B12.bt", "4D3C2B1A.E2302B12--44.v.ix", "3B1C4A2D.E2302B124455.gs.s"])
def test_the_json_form_round_trips(text: str) -> None:
    obj = json.loads(json.dumps(notation.puzzle_json(notation.parse_puzzle_id(text))))
    assert obj["id"] == text
    assert notation.puzzle_id(notation.parse_puzzle_json(obj)) == text
    assert notation.puzzle_id(notation.parse_puzzle_json(json.dumps(obj))) == text


def test_the_json_form_with_silver_the_transparent_robot_the_vortex_and_the_rules() -> None:
    vortex = next(t for t in setup.build("4B3B2B1A").targets if t.shape == "vortex")
    obj = {**ISSUE_JSON, "robots": {**ISSUE_JSON["robots"], "silver": [4, 4], "transparent": [5, 5]},  # type: ignore
           "target": {"color": "vortex", "cell": [vortex.cell % 16, vortex.cell // 16]}, "ricochet": "strict",
           "rebound": False}
    state = at(json.dumps(obj))
    assert state.position() == "4B3B2B1A.E2302B124455.v.sx"
    assert state.game.options["silver"] and state.game.options["transparent"]
    obj["target"] = {"color": "any", "cell": [vortex.cell % 16, vortex.cell // 16]}
    assert at(json.dumps(obj)).position() == "4B3B2B1A.E2302B124455.v.sx"


def bad(**changes: Any) -> dict[str, Any]:
    return {**ISSUE_JSON, **changes}


@pytest.mark.parametrize(("obj", "words"), [
    ("{", "the puzzle is not valid JSON (line 1, column 2"),
    ('{"quadrants": ["4B", "3B", "2B", "1A"], "robots": {"red": [2, 14]}', "the puzzle is not valid JSON"),
    ([1, 2], "a JSON puzzle is an object with quadrants, robots, target and optionally ricochet, rebound"),
    (bad(colour="blue"), "a JSON puzzle has no field 'colour'; its fields: quadrants, robots, target, ricochet, "
                         "rebound"),
    (bad(quadrants="4B3B2B1A"), "quadrants must be a list of four sides, NW, NE, SE, SW"),
    (bad(quadrants=["4B", "3B", "2B", "1E"]), "is not a board"),
    (bad(quadrants=["4B", "3B", "2B", "2A"]), "a board takes one side of each group 1, 2, 3, 4"),
    (bad(quadrants=["4B", "3B", "2B"]), "is not a board"),
    (bad(robots=[[2, 14]]), "robots must be an object"),
    (bad(robots={"red": [2, 14], "green": [0, 3], "blue": [11, 2]}), "robots must be red, green, blue, yellow (and "
                                                                     "optionally silver, transparent)"),
    (bad(robots={"red": [2, 14], "green": [0, 3], "blue": [11, 2], "yellow": [2, 1], "purple": [3, 3]}),
     "robots must be red, green, blue, yellow"),
    (bad(robots={"red": [2, 14], "green": [0, 3], "blue": [11, 2], "yellow": [16, 1]}),
     "yellow: x and y run from 0 to 15, not [16, 1]"),
    (bad(robots={"red": "c15", "green": [0, 3], "blue": [11, 2], "yellow": [2, 1]}),
     "red must be a cell [x, y] (0-15 each), not 'c15'"),
    (bad(robots={"red": [2, 14], "green": [2, 14], "blue": [11, 2], "yellow": [2, 1]}),
     "two robots cannot stand on the same square"),
    (bad(robots={"red": [7, 8], "green": [0, 3], "blue": [11, 2], "yellow": [2, 1]}),
     "a robot cannot stand in the centre block (h9)"),
    (bad(target="j13"), "target must be an object"),
    (bad(target={"color": "blue", "cell": [9, 11]}), "the target cell j12 is not a target square of this board"),
    (bad(target={"color": "red", "cell": [9, 12]}), "the target at j13 is the blue triangle, not 'red'"),
    (bad(target={"color": "blue"}), "target must be a cell [x, y]"),
    (bad(ricochet="sometimes"), "ricochet must be one of off, if_trivial, strict, not 'sometimes'"),
    (bad(rebound="yes"), "rebound must be true or false, not 'yes'"),
])
def test_a_bad_json_puzzle_is_a_parse_error(obj: Any, words: str) -> None:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    with pytest.raises(ParseError) as caught:
        notation.parse_puzzle_json(text)
    assert words in str(caught.value)
    with pytest.raises(ParseError):
        puzzle_state(text, {})


# ----- positions ----------------------------------------------------------------------------------------
def test_a_position_is_the_puzzle_id_then_the_robots_the_moves_used_the_memory_and_the_last_move() -> None:
    start = puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v", rules="s")
    state = at(start)
    assert state.position() == start  # before the first move: the puzzle id alone
    play(state, "TW2", "RN")
    assert state.position() == f"{start} C0FF8F80--00 4 n----w RN"  # red a16 -> a13 (walled north); T on a1
    again = at(state.position())
    assert (squares(again), again.moves_used, again.last_dir, again.turned, again.last_move) == (
        squares(state), 4, state.last_dir, state.turned, state.last_move)
    assert again.start == state.position() and again.history == []


@pytest.mark.parametrize(("tail", "words"), [
    ("C0FF8F80--00 4 n----w", "a position is PUZZLE ROBOTS COST MEMORY LAST"),
    ("C0FF8F80--00 4 n----w RN x", "a position is PUZZLE ROBOTS COST MEMORY LAST"),
    ("D08F8F80--0 4 n----w RN", "a position's robots are six cells in hex (-- for none), its cost a number, its "
                                "memory six of - n e s w (capitals once turned)"),
    ("C0FF8F80--00 x n----w RN", "its cost a number"),
    ("C0FF8F80--00 \u00b2 n----w RN", "its cost a number"),
    ("C0FF8F80--00 4 q----w RN", "memory six of"),
    ("D08F8F800000 4 n----w RN", "the position's robots are not the puzzle's robots"),
    ("C0FF8F80--00 4 n---nw RN", "a robot not in the puzzle has no memory: write - for it"),
    ("D08F8F77--00 4 n----w RN", "a robot cannot stand in the centre block"),
    ("D0D08F80--00 4 n----w RN", "two robots cannot stand on the same square"),
    ("C0FF8F80--00 4 n----w RX", "'RX' is not a move"),
    ("C0FF8F80--00 4 n----w TW16", "'TW16' is not a move"),
    ("C0FF8F80--00 4 n----w GN", "the last move GN does not fit the memory n----w"),
    ("C0FF8F80--00 4 n----w RS", "the last move RS does not fit the memory"),
    ("C0FF8F80--00 0 n----w RN", "a position with no move used has no memory and no last move"),
    ("C0FF8F80--00 4 n----w -", "a position with no move used has no memory and no last move"),
    ("C0FF8F80--00 0 ------ -", "with no move used the robots stand where the puzzle puts them"),
])
def test_a_bad_position_is_a_parse_error(tail: str, words: str) -> None:
    start = puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v", rules="s")
    with pytest.raises(ParseError) as caught:
        at(f"{start} {tail}")
    assert words in str(caught.value)


def test_an_empty_position_is_a_parse_error() -> None:
    for text in ("", "   "):
        with pytest.raises(ParseError, match="the position is empty"):
            damier.load("ricochet").state_from_position(text)


def test_the_key_tells_apart_positions_with_different_memories() -> None:
    # the same robots, the same last move: red last moved north, or east (strict: its next move north turns or not)
    base = play(at(puzzle("e10", "p16", "a16", "p9", target="v", rules="s")), "RN", "GN")
    fields = base.position().split()
    assert fields[3] == "nn----"
    fields[3] = "en----"
    other = at(" ".join(fields))
    assert squares(other) == squares(base) and other.last_move == base.last_move and other.key() != base.key()
    assert at(base.position()).key() == base.key()


# ----- views --------------------------------------------------------------------------------------------
def test_the_text_board_shows_walls_robots_the_target_and_the_centre_block() -> None:
    lines = at(puzzle("e10", "p16", "a16", "p9", target="rc")).render_text().splitlines()
    assert lines[0].split() == list("abcdefghijklmnop")
    assert lines[1] == "   +" + "--+" * 16
    assert lines[2] == " 1 |.  . |.  .  .  .  .  .  .  .  .  . |.  .  .  . |"
    assert lines[4].startswith(" 2 |.  .  .  . |*  .")  # the target, walled west
    assert lines[16].startswith(" 8 |.  .  .  .  .  .  . |# |# |")
    assert lines[20].startswith("10 |.  . |.  .  R  .")
    assert lines[-1] == "Target: the red circle on e2; 0 moves used."
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc", rules="i")), "RN")
    assert state.render_text().splitlines()[-1] == "Target: the red circle on e2; 1 move used."
    play(state, "RE", "RW")
    assert state.render_text().splitlines()[-1].startswith("Solved: solved in 3 moves")


def test_events_say_which_robot_slid_where_over_which_squares_then_solved() -> None:
    state = play(at(puzzle("e10", "p16", "a16", "p9", target="rc")), "RN")
    assert state.events()[0] == {"type": "slide", "robot": "red", "from": "e10", "to": "e2",
                                 "cells": ["e9", "e8", "e7", "e6", "e5", "e4", "e3", "e2"], "walls_passed": 0}
    assert state.events()[1]["type"] == "solved" and state.events()[1]["moves"] == 1
    assert view.describe_events(state)[0] == "red robot e10 -> e2"
    assert at(puzzle("e10", "p16", "a16", "p9", target="rc")).events() == []
    moved = play(at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v")), "TW2")
    assert view.describe_events(moved) == ["transparent robot p1 -> a1, through 2 wall(s)"]


def test_the_board_json_has_what_the_web_view_draws() -> None:
    state = at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v"))
    data = state.board_json()
    assert data["kind"] == "ricochet" and data["position"] == state.position() == data["puzzle"]
    assert data["board_id"] == BOARD and len(data["walls"]) == 256 and data["walls"][0] == "NW"
    assert data["walls"][1] == "NE" and data["blocked"] == ["h8", "i8", "h9", "i9"]
    assert len(data["targets"]) == 17 and {"cell": "e2", "colour": "red", "shape": "circle"} in data["targets"]
    assert data["robots"] == {"red": "a16", "green": "p16", "blue": "p9", "yellow": "a9", "transparent": "p1"}
    assert data["target"] == {"cell": "f9", "colour": "any", "shape": "vortex"}
    assert {"move": "TW2", "to": "a1"} in data["legal"] and data["used"] == 0
    assert [m["move"] for m in data["legal"]] == [state.move_to_str(m) for m in state.legal_moves()]
    json.dumps(data)


def test_the_observation_has_walls_robots_the_target_and_the_centre() -> None:
    state = at(puzzle("a16", "p16", "p9", "a9", "-", "p1", target="v"))
    planes = state.observation()
    assert planes.shape == (12, 16, 16) and planes.dtype == np.float32
    assert planes[0, 0, :].all() and planes[3, :, 0].all()  # the north edge, the west edge
    assert planes[4, 15, 0] == 1 and planes[9, 0, 15] == 1 and planes[8].sum() == 0  # red a16, transparent p1
    assert planes[10, 8, 5] == 1 and planes[11].sum() == 4 and planes[11, 7, 7] == 1


# ----- the race -----------------------------------------------------------------------------------------
def test_race_rules_bids_of_at_most_a_timer_of_60_s_after_the_first_bid_17_chips() -> None:
    rules = RACE.rules(damier.load("ricochet"))
    assert (rules.claim, rules.bid_seconds, rules.demo_seconds) == ("at_most", 60, 60)
    assert (rules.chips_total, rules.chips_to_win, rules.wrong_claim) == (17, 17, "none")


@pytest.mark.parametrize("options", [{}, {"silver": True, "transparent": True}, {"board": BOARD, "ricochet": "strict"}])
def test_race_the_next_round_keeps_the_board_and_the_robots_where_the_demonstration_left_them(
    options: dict[str, Any],
) -> None:
    game = damier.load("ricochet", **options)
    first = RACE.first_round(game, 3)
    assert isinstance(first, RicochetState) and first.position() == game.new_state(3).position()
    rng = random.Random(1)
    state = first
    for _ in range(5):
        demo = state.copy()
        for _ in range(rng.randrange(0, 4)):  # a demonstration (or none)
            demo.play(rng.choice(demo.legal_moves()))
        after = RACE.next_round(game, demo, rng.randrange(10**6))
        assert isinstance(after, RicochetState)
        assert after.puzzle.board == state.puzzle.board and list(after.robots) == list(demo.robots)
        assert after.moves_used == 0 and after.start == notation.puzzle_id(after.puzzle) == after.position()
        ref = reference_puzzle(after)
        assert not ref.solved([]) and not any(ref.solved([m]) for m in ref.legal([]))
        state = after


@pytest.mark.parametrize("race_robots", ["carried", "reset"])
def test_race_each_round_draws_a_target_whose_chip_is_not_won_and_the_robots_carry_or_reset(
    race_robots: str,
) -> None:
    game = damier.load("ricochet", race_robots=race_robots)
    first = RACE.first_round(game, 11)
    assert isinstance(first, RicochetState)
    rng = random.Random(2)
    won: list[RicochetState] = [first]
    state = first
    for _ in range(12):
        demo = state.copy()
        for _ in range(rng.randrange(1, 4)):
            demo.play(rng.choice(demo.legal_moves()))
        after = RACE.next_round(game, demo, rng.randrange(10**6), won)
        assert isinstance(after, RicochetState)
        assert after.puzzle.target not in {w.puzzle.target for w in won}
        expected = first.puzzle.robots if race_robots == "reset" else tuple(int(c) for c in demo.robots)
        assert tuple(int(c) for c in after.robots) == tuple(expected)
        if rng.random() < 0.7:  # a round somebody scored: its chip is out; else its target may come again
            won.append(after)
        state = after
    every = [*won]
    board = first.puzzle.board
    for target in board.targets:
        if target not in {w.puzzle.target for w in every}:
            every.append(RicochetState(game, notation.check(board, first.puzzle.robots, target, "off", True),
                                       None, None))
    with pytest.raises(StateError, match="every target chip has been won"):
        RACE.next_round(game, first, 1, every)


def test_race_with_a_difficulty_no_target_has_the_next_round_takes_any_target() -> None:
    first = RACE.first_round(damier.load("ricochet", board=BOARD), 0)
    game = damier.load("ricochet", board=BOARD, difficulty=30)  # no target takes 30 moves from there
    after = RACE.next_round(game, first, 5)
    assert isinstance(after, RicochetState) and list(after.robots) == list(first.robots)  # type: ignore[attr-defined]
    ref = reference_puzzle(after)
    assert not ref.solved([]) and not any(ref.solved([m]) for m in ref.legal([]))


def test_a_puzzle_drawn_for_given_robots_keeps_them_and_an_impossible_difficulty_is_a_state_error() -> None:
    game = damier.load("ricochet", board=BOARD)
    assert isinstance(game, RicochetGame)
    robots = tuple(t.cell for t in setup.build(BOARD).targets if t.colour in setup.COLOURS)[:4]
    # each coloured robot on a target: still most targets make puzzles, so ask for an impossible difficulty
    with pytest.raises(StateError, match="no puzzle of 30 moves was found on 1A2A3A4A"):
        game.draw_puzzle(random.Random(0), robots=(*robots, -1, -1), difficulty=30)
    puzzle_ = game.draw_puzzle(random.Random(0), robots=(*robots, -1, -1))
    assert list(puzzle_.robots[:4]) == list(robots)


# ----- the move generator against a naive one, written from the rules above ----------------------------------
STEPS = (-16, 1, 16, -1)  # N E S W
BITS = (1, 2, 4, 8)


def naive_moves(state: Any) -> dict[int, int]:
    """Every move (robot * 4 + direction, the transparent robot's with the walls passed) and the cell it ends on,
    walking the board square by square: a robot slides until a wall or a robot ahead and must move; the
    transparent robot may stop wherever another would, or pass a wall (not a solid one) at one more move, never
    passing a robot nor ending on a coloured target; without rebounds the last robot may not go straight back."""
    from damier.games.ricochet.rules import TRANSPARENT, move_of, parts_of

    board = state.puzzle.board
    robots = [int(c) for c in state.robots]
    occupied = {c for c in robots if c >= 0}
    coloured = {t.cell for t in board.targets if t.shape != "vortex"}
    back = None
    if not state.puzzle.rebound and state.history:
        r, d, _ = parts_of(state.history[-1])
        back = (r, (d + 2) % 4)
    out: dict[int, int] = {}
    for r, start in enumerate(robots):
        if start < 0:
            continue
        for d in range(4):
            if (r, d) == back:
                continue
            cell, passed = start, 0
            while True:
                wall = bool(board.walls[cell] & BITS[d])
                solid = bool(board.solid[cell] & BITS[d])
                ahead = not solid and cell + STEPS[d] in occupied  # a robot next, even behind a wall
                if r != TRANSPARENT:
                    if wall or ahead:
                        if cell != start:
                            out[move_of(r, d)] = cell
                        break
                elif wall or ahead:
                    if cell != start and cell not in coloured:
                        out[move_of(r, d, passed)] = cell
                    if ahead or solid:
                        break
                    passed += 1
                cell += STEPS[d]
    return out


@pytest.mark.parametrize("options", [{}, {"silver": True, "transparent": True}, {"transparent": True,
                                                                               "rebound": False}])
def test_the_moves_are_those_of_a_naive_generator(options: dict[str, Any]) -> None:
    rng = random.Random(11)
    game = damier.load("ricochet", **options)
    positions = 0
    for seed in range(12):
        state = game.new_state(seed)
        for _ in range(25):
            if state.is_over():
                break
            expected = naive_moves(state)
            assert sorted(state.legal_moves()) == sorted(expected)
            for move, cell in expected.items():
                after = state.copy()
                after.play(move)
                moved = [r for r in range(len(after.robots)) if after.robots[r] != state.robots[r]]
                assert len(moved) == 1 and after.robots[moved[0]] == cell
                assert state.is_legal(move)
            assert not any(state.is_legal(m) for m in range(game.num_moves) if m not in expected)
            state.play(rng.choice(sorted(expected)))
            positions += 1
    assert positions > 100
