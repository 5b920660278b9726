"""Micro Robots: one test per rule of ``shared/rules/micro_robots.md`` that the package implements (movement, the
expert waypoint and its options, the dice rolls of a puzzle, difficulty, the outcome, notation, ids, the JSON
puzzle form, the race), through the public API.

The board ``A-1234-0000`` used throughout (side A, tiles 1 to 4 unturned), columns a-f, rows 1-6 from the top::

    R5 G6 R1 P1 W4 P2
    G2 W2 Y1 G5 W5 G3
    W3 G1 Y3 G4 W1 P4
    P3 R6 R2 B2 Y6 P5
    B6 Y2 R3 B4 W6 P6
    B5 Y5 R4 B3 Y4 B1
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import damier
from damier.core.errors import IllegalMoveError, OptionError, ParseError, StateError
from damier.core.game import TERMINAL, Termination
from damier.games.micro import notation, setup
from damier.games.micro.race import RACE
from damier.games.micro.rules import MicroState, puzzle_state
from tests.games.micro import reference
from tests.jit import NO_JIT

BOARD = "A-1234-0000"
ROWS = [["R5", "G6", "R1", "P1", "W4", "P2"], ["G2", "W2", "Y1", "G5", "W5", "G3"],
        ["W3", "G1", "Y3", "G4", "W1", "P4"], ["P3", "R6", "R2", "B2", "Y6", "P5"],
        ["B6", "Y2", "R3", "B4", "W6", "P6"], ["B5", "Y5", "R4", "B3", "Y4", "B1"]]


# ----- helpers ------------------------------------------------------------------------------------------
def at(position: str, **options: Any) -> MicroState:
    state = damier.load("micro", **options).state_from_position(position)
    assert isinstance(state, MicroState)
    return state


def play(state: MicroState, *squares: str) -> MicroState:
    for square in squares:
        state.play(state.parse_move(square))
    return state


def legal(state: MicroState) -> set[str]:
    return {state.move_to_str(m) for m in state.legal_moves()}


def optimum(state: MicroState) -> int | None:
    puzzle = state.puzzle
    board = [setup.square_text(int(c)) for c in puzzle.board]
    return reference.Puzzle(board, puzzle.start, puzzle.target, puzzle.waypoint, state.game.waypoint_pass).shortest()


def test_the_board_of_these_tests() -> None:
    state = at(f"{BOARD}_R5_B1")
    assert [[state.move_to_str(r * 6 + c) for c in range(6)] for r in range(6)] == ROWS


# ----- movement -----------------------------------------------------------------------------------------
def test_the_robot_jumps_along_its_row_or_column_to_a_square_of_its_colour_or_number() -> None:
    assert legal(at(f"{BOARD}_R5_B1")) == {"R1", "B5"}  # R1 by colour (row), B5 by number (column)


def test_the_robot_may_pass_over_squares_and_need_not_stop_at_the_first_match() -> None:
    state = at(f"{BOARD}_G5_B1")
    # left: G2 beyond Y1 and W2; right: W5, and G3 beyond the matching W5; down: G4
    assert legal(state) == {"G2", "W5", "G3", "G4"}
    play(state, "G3")
    assert state.events() == [{"type": "jump", "from": "G5", "to": "G3", "passed": ["W5"]}]


def test_the_robot_jumps_either_way_along_a_column() -> None:
    # up column d: B2, and G4 beyond it; down: B3; left along row 5: B6 beyond Y2 and R3
    assert legal(at(f"{BOARD}_B4_R5")) == {"B2", "G4", "B3", "B6"}


def test_a_square_sharing_neither_colour_nor_number_is_not_a_jump() -> None:
    state = at(f"{BOARD}_R5_B1")
    with pytest.raises(IllegalMoveError, match="G6 is not a jump from R5: the robot jumps along its row or column "
                                               "to a square of the same colour or number; jumps from here: R1, B5"):
        state.parse_move("G6")
    with pytest.raises(IllegalMoveError, match="R4 is not a jump from R5"):  # the colour matches, the line does not
        state.parse_move("R4")


def test_one_jump_is_one_move() -> None:
    state = play(at(f"{BOARD}_R5_B1"), "B5")
    assert state.moves_used == 1 and state.move_to_str(state.robot) == "B5"
    assert state.events()[0]["passed"] == ["G2", "W3", "P3", "B6"]


def test_jumps_are_the_reference_jumps_on_every_square_of_both_sides() -> None:
    for board_id in ("A-1234-0000", "B-4132-1302", "random:7"):
        board = setup.parse_board_id(board_id)
        names = [setup.square_text(int(c)) for c in board]
        for square in range(36):
            target = (square + 1) % 36
            state = at(f"{board_id}_{names[square]}_{names[target]}")
            assert set(state.legal_moves()) == reference.jumps(names, square)


# ----- the target and the waypoint ----------------------------------------------------------------------
def test_reaching_the_target_solves_the_puzzle() -> None:
    state = play(at(f"{BOARD}_R5_B1"), "B5", "B1")
    assert state.is_over() and state.player == TERMINAL and state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the puzzle is solved"):
        state.parse_move("B3")


def test_expert_the_waypoint_must_be_stopped_on_before_the_target() -> None:
    state = play(at(f"{BOARD}_R5_B1_B3"), "B5", "B1")  # over B3 to the target: not solved
    assert not state.is_over() and not state.visited
    assert "waypoint B3 (to visit)" in state.render_text()
    play(state, "B3")
    assert state.visited and [e["type"] for e in state.events()] == ["jump", "waypoint"]
    play(state, "B1")
    outcome = state.outcome()
    assert outcome is not None and outcome.cost == 4 and outcome.optimum == 3  # R5 B5 B3 B1


def test_option_waypoint_pass_passing_over_the_waypoint_counts() -> None:
    state = play(at(f"{BOARD}_R5_B1_B3", waypoint_pass=True), "B5", "B1")
    assert state.is_over()
    assert state.outcome().reason == "solved in 2 moves (optimal)"  # type: ignore[union-attr]
    assert [e["type"] for e in state.events()] == ["jump", "waypoint", "solved"]


def test_option_waypoint_pass_stopping_on_the_waypoint_counts_too() -> None:
    state = play(at(f"{BOARD}_R5_B1_B3", waypoint_pass=True), "B5", "B3")
    assert state.visited and not state.is_over()


def test_passing_over_the_waypoint_in_the_last_jump_counts_with_waypoint_pass() -> None:
    state = play(at(f"{BOARD}_B5_B1_Y4", waypoint_pass=True), "B1")  # B5 -> B1 passes over Y4
    assert state.is_over()


@pytest.mark.parametrize("seed", range(40))
def test_the_waypoint_is_rolled_again_when_it_equals_the_start_or_the_target(seed: int) -> None:
    puzzle = damier.load("micro", expert=True).new_state(seed).puzzle  # type: ignore[attr-defined]
    assert puzzle.waypoint >= 0 and len({puzzle.start, puzzle.target, puzzle.waypoint}) == 3


@pytest.mark.parametrize("text", [f"{BOARD}_R5_B1_R5", f"{BOARD}_R5_B1_B1"])
def test_a_waypoint_on_the_start_or_the_target_is_refused(text: str) -> None:
    with pytest.raises(ParseError, match="the waypoint must differ from the start and the target"):
        notation.parse_puzzle_id(text)


@pytest.mark.parametrize("board", ["A", "B", "random"])
def test_the_target_is_rolled_again_when_it_equals_the_start(board: str) -> None:
    game = damier.load("micro", board=board)
    for seed in range(30):
        state = game.new_state(seed)
        assert isinstance(state, MicroState)
        assert state.puzzle.start != state.puzzle.target and optimum(state) is not None


def test_option_reroll_short_targets_are_more_than_two_moves_away() -> None:
    game = damier.load("micro", reroll_short=True)
    lengths = [optimum(game.new_state(seed)) for seed in range(60)]  # type: ignore[arg-type]
    assert all(length is not None and length > 2 for length in lengths)
    plain = [optimum(damier.load("micro").new_state(seed)) for seed in range(60)]  # type: ignore[arg-type]
    assert any(length is not None and length <= 2 for length in plain)


@pytest.mark.parametrize("board", ["A", "B", "random"])
@pytest.mark.parametrize("difficulty", range(1, 13))
def test_difficulty_gives_puzzles_of_that_optimal_length(board: str, difficulty: int) -> None:
    game = damier.load("micro", board=board, difficulty=difficulty)
    for seed in range(1 if NO_JIT else 3):  # without the JIT, each puzzle's drawing searches for seconds
        state = game.new_state(seed)
        assert isinstance(state, MicroState)
        assert optimum(state) == difficulty
        assert state.board_json()["board_id"].startswith(board)


@pytest.mark.parametrize(("difficulty", "passing"), [(2, False), (7, False), (12, False), (1, True), (9, True)])
def test_difficulty_in_expert_mode_counts_the_waypoint(difficulty: int, passing: bool) -> None:
    game = damier.load("micro", board="B", expert=True, waypoint_pass=passing, difficulty=difficulty)
    for seed in range(3):
        state = game.new_state(seed)
        assert isinstance(state, MicroState)
        assert state.puzzle.waypoint >= 0 and optimum(state) == difficulty


def test_difficulty_on_a_fixed_board_or_from_a_fixed_start() -> None:
    state = damier.load("micro", board=BOARD, difficulty=4).new_state(1)
    assert isinstance(state, MicroState) and state.puzzle.board_id == BOARD and optimum(state) == 4
    game = damier.load("micro", board=BOARD, difficulty=9)
    with pytest.raises(StateError, match=f"no puzzle of 9 moves was found on {BOARD} \\(try another"):
        game.new_state(0)  # A-1234-0000's longest puzzle is shorter


@pytest.mark.parametrize(("options", "words"), [
    ({"difficulty": 2, "reroll_short": True}, "option 'difficulty': 2 contradicts reroll_short"),
    ({"difficulty": 1, "expert": True}, "an expert puzzle takes at least 2 moves when the waypoint must be stopped "
                                        "on (1 needs waypoint_pass)"),
    ({"difficulty": 13}, "option 'difficulty'"),
    ({"board": "C-1234-0000"}, "option 'board': 'C-1234-0000' is not a board id"),
])
def test_options_that_cannot_make_a_puzzle_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError) as caught:
        damier.load("micro", **options)
    assert words in str(caught.value)


def test_a_seed_draws_the_same_puzzle_every_time() -> None:
    for options in ({}, {"board": "random"}, {"expert": True, "difficulty": 6}):
        game = damier.load("micro", **options)
        assert [game.new_state(s).position() for s in range(5)] == [game.new_state(s).position() for s in range(5)]
        assert len({game.new_state(s).position() for s in range(5)}) == 5
    assert damier.load("micro").new_state().position() == damier.load("micro").new_state(0).position()


# ----- the outcome --------------------------------------------------------------------------------------
def test_the_outcome_is_solved_with_the_moves_used_and_the_optimum() -> None:
    state = play(at(f"{BOARD}_R5_B1"), "R1", "R5", "B5", "B1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.SOLVED
    assert (outcome.cost, outcome.optimum, outcome.winner) == (4, 2, 0)
    assert outcome.returns == (0.5,)
    assert outcome.reason == "solved in 4 moves (the optimum is 2)"
    assert state.events()[-1] == {"type": "solved", "moves": 4, "optimum": 2}


def test_the_optimum_is_the_puzzles_even_from_a_later_position() -> None:
    state = play(at(f"{BOARD}_R5_B1 R1 1 -"), "R5", "B5", "B1")
    assert state.outcome().cost == 4 and state.outcome().optimum == 2  # type: ignore[union-attr]


def test_undo_takes_a_jump_back_and_the_waypoint_with_it() -> None:
    state = play(at(f"{BOARD}_R5_B1_B3"), "B5", "B3")
    state.undo()
    assert state.move_to_str(state.robot) == "B5" and not state.visited and state.moves_used == 1
    state.undo()
    with pytest.raises(StateError, match="there is no move to undo"):
        state.undo()


# ----- notation -----------------------------------------------------------------------------------------
def test_a_square_is_written_by_colour_and_number_in_capitals() -> None:
    state = at(f"{BOARD}_R5_B1")
    assert state.move_to_str(state.parse_move("R1")) == "R1"
    assert state.move_to_str(state.parse_move(" B5 ")) == "B5"


def test_a_square_is_also_written_by_coordinates_in_lower_case() -> None:
    state = at(f"{BOARD}_R5_B1")
    assert state.parse_move("c1") == state.parse_move("R1")  # column c from the left, row 1 at the top
    assert state.parse_move("a6") == state.parse_move("B5")  # row 6 at the bottom
    assert notation.coordinates(state.parse_move("a6")) == "a6"
    assert notation.square_index(state.puzzle.board, "f6") == 35 == notation.square_index(state.puzzle.board, "B1")


def test_lower_case_b1_is_a_coordinate_so_colours_are_never_lower_case() -> None:
    board = setup.parse_board_id(BOARD)
    assert notation.square_name(board, notation.square_index(board, "b1")) == "G6"
    for text in ("r5", "g6", "Z9", "C7", "a0", "", "R55"):
        with pytest.raises(ParseError, match="is not a square: write its colour letter and number \\(R5, in "
                                             "capitals\\) or its coordinates \\(c4: column a-f from the left, row "
                                             "1-6 from the top\\)"):
            notation.square_index(board, text)


def test_the_text_board_shows_the_coordinates_the_robot_the_target_and_the_waypoint() -> None:
    lines = at(f"{BOARD}_R5_B1_G1").render_text().splitlines()
    assert lines[0].split() == list("abcdef")
    assert lines[1].split() == ["1", "[R5]", "G6", "R1", "P1", "W4", "P2"]
    assert lines[3].split() == ["3", "W3", "+G1", "Y3", "G4", "W1", "P4"]
    assert lines[6].split() == ["6", "B5", "Y5", "R4", "B3", "Y4", "*B1"]
    assert lines[7] == "Robot on R5, target B1, waypoint G1 (to visit); 0 moves used."


def test_a_puzzle_id_is_the_board_id_start_target_and_waypoint() -> None:
    puzzle = notation.parse_puzzle_id("a-1234-0000_a1_f6_b3")
    assert notation.puzzle_id(puzzle) == f"{BOARD}_R5_B1_G1"
    assert (puzzle.start, puzzle.target, puzzle.waypoint) == (0, 35, 13)
    assert notation.puzzle_id(notation.parse_puzzle_id("random:42_G2_W6")) == "random:42_G2_W6"


@pytest.mark.parametrize(("text", "words"), [
    (f"{BOARD}_R5", "is not a puzzle id: write BOARD_START_TARGET[_WAYPOINT], e.g. A-1234-0000_R5_B1"),
    (f"{BOARD}_R5_B1_G1_G2", "is not a puzzle id"),
    (f"{BOARD}_R5_R5", "the start and the target must differ (both are R5)"),
    (f"{BOARD}_a1_R5", "the start and the target must differ"),
    (f"{BOARD}_R5_Z1", "'Z1' is not a square"),
    (f"{BOARD}_R5_r1", "'r1' is not a square"),
    ("X-1234-0000_R5_B1", "'X-1234-0000' is not a board id"),
    ("random:x_R5_B1", "a random board id is random:<seed>"),
])
def test_a_bad_puzzle_id_is_a_parse_error_saying_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        notation.parse_puzzle_id(text)
    assert words in str(caught.value)


def test_a_position_adds_the_robot_the_moves_used_and_the_waypoint_visited() -> None:
    state = play(at(f"{BOARD}_R5_B1_B3"), "B5", "B3")
    assert state.position() == f"{BOARD}_R5_B1_B3 B3 2 w"
    again = at(state.position())
    assert (again.robot, again.moves_used, again.visited) == (state.robot, 2, True)
    assert at(f"{BOARD}_R5_B1").position() == f"{BOARD}_R5_B1 R5 0 -"


@pytest.mark.parametrize(("text", "words"), [
    (f"{BOARD}_R5_B1 R1 1", "a position is 'PUZZLE ROBOT MOVES-USED VISITED'"),
    (f"{BOARD}_R5_B1 R1 x -", "the moves used must be a whole number, not 'x'"),
    (f"{BOARD}_R5_B1 R1 \u00b2 -", "the moves used must be a whole number"),
    (f"{BOARD}_R5_B1 R1 1 v", "the last field says whether the waypoint was visited: 'w' or '-', not 'v'"),
    (f"{BOARD}_R5_B1 R1 1 w", "the position says the waypoint was visited, but the puzzle has no waypoint"),
    (f"{BOARD}_R5_B1 Q1 1 -", "'Q1' is not a square"),
])
def test_a_bad_position_is_a_parse_error(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        at(text)
    assert words in str(caught.value)


# ----- the JSON puzzle form -----------------------------------------------------------------------------
def test_the_json_puzzle_form_with_the_rows_of_the_board() -> None:
    text = json.dumps({"board": ROWS, "start": "R5", "target": "B1", "waypoint": None, "waypoint_pass": False})
    state = puzzle_state(text, {})
    assert state.position().startswith("custom:R5G6R1P1W4P2.G2W2Y1G5W5G3.")
    assert (state.puzzle.board == setup.parse_board_id(BOARD)).all()
    assert (state.puzzle.start, state.puzzle.target, state.puzzle.waypoint) == (0, 35, -1)


def test_the_json_puzzle_form_with_a_board_id_rows_as_text_and_coordinates() -> None:
    by_id = puzzle_state(json.dumps({"board": BOARD, "start": "a1", "target": "B1", "waypoint": "B3",
                                     "waypoint_pass": True}), {})
    assert by_id.game.waypoint_pass and notation.puzzle_id(by_id.puzzle) == f"{BOARD}_R5_B1_B3"
    as_text = puzzle_state(json.dumps({"board": ["".join(row) for row in ROWS], "start": "R5", "target": "B1"}), {})
    assert (as_text.puzzle.board == by_id.puzzle.board).all() and not as_text.game.waypoint_pass


def test_the_json_form_must_agree_with_the_games_waypoint_rule() -> None:
    text = json.dumps({"board": BOARD, "start": "R5", "target": "B1", "waypoint": "B3", "waypoint_pass": True})
    with pytest.raises(ParseError, match="the puzzle says waypoint_pass=true, the game has waypoint_pass=false"):
        damier.load("micro").state_from_position(text)
    assert damier.load("micro", waypoint_pass=True).state_from_position(text).position() == f"{BOARD}_R5_B1_B3 R5 0 -"


@pytest.mark.parametrize(("obj", "words"), [
    ("{", "the puzzle is not valid JSON (line 1, column 2"),
    ([1, 2], "a JSON puzzle is an object with board, start, target"),
    ({"board": BOARD, "start": "R5", "target": "B1", "colour": "red"}, "a JSON puzzle has no field 'colour'"),
    ({"board": BOARD, "start": "R5"}, "the JSON puzzle needs 'target'"),
    ({"board": BOARD, "start": "R5", "target": "B1", "waypoint_pass": "yes"}, "waypoint_pass must be true or false"),
    ({"board": BOARD, "start": 5, "target": "B1"}, "start must be a square like \"R5\", not 5"),
    ({"board": BOARD, "start": "R5", "target": "R5"}, "the start and the target must differ"),
    ({"board": BOARD, "start": "r5", "target": "B1"}, "'r5' is not a square"),
    ({"board": ROWS[:5], "start": "R5", "target": "B1"}, "a board has 6 rows of 6 squares"),
    ({"board": [ROWS[0]] * 6, "start": "R5", "target": "B1"}, "a board shows every colour-number pair once"),
])
def test_a_bad_json_puzzle_is_a_parse_error(obj: Any, words: str) -> None:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    with pytest.raises(ParseError) as caught:
        notation.parse_puzzle_json(text)
    assert words in str(caught.value)


# ----- views --------------------------------------------------------------------------------------------
def test_the_observation_has_colour_number_robot_target_waypoint_and_visited_planes() -> None:
    state = at(f"{BOARD}_R5_B1_B3")
    planes = state.observation()
    assert planes.shape == (16, 6, 6) and planes.dtype == np.float32
    assert planes[0, 0, 0] == 1 and planes[6 + 4, 0, 0] == 1  # R5: red, number 5
    assert planes[12, 0, 0] == planes[13, 5, 5] == planes[14, 5, 3] == 1 and planes[15].sum() == 0


def test_the_board_json_names_every_square_with_its_colour_number_and_coordinates() -> None:
    data = at(f"{BOARD}_R5_B1").board_json()
    assert data["squares"][5] == {"name": "P2", "colour": "pink", "number": 2, "coordinates": "f1"}
    assert (data["robot"], data["target"], data["waypoint"], data["legal"]) == ("R5", "B1", None, ["R1", "B5"])


# ----- the race -----------------------------------------------------------------------------------------
def test_race_rules_exact_claims_25_chips_5_to_win_a_wrong_claim_hands_a_chip_on() -> None:
    rules = RACE.rules(damier.load("micro"))
    assert (rules.claim, rules.chips_total, rules.chips_to_win, rules.wrong_claim) == ("exact", 25, 5, "transfer")


@pytest.mark.parametrize("options", [{}, {"expert": True}, {"board": "random", "reroll_short": True}])
def test_race_the_old_target_becomes_the_new_start_on_the_same_board(options: dict[str, Any]) -> None:
    game = damier.load("micro", **options)
    state = RACE.first_round(game, 3)
    rng = random.Random(1)
    for _ in range(6):
        after = RACE.next_round(game, state, rng.randrange(10**6))
        assert isinstance(state, MicroState) and isinstance(after, MicroState)
        assert after.puzzle.start == state.puzzle.target and after.puzzle.board_id == state.puzzle.board_id
        assert after.puzzle.target != after.puzzle.start
        assert (after.puzzle.waypoint >= 0) == bool(options.get("expert"))
        assert after.start == notation.puzzle_id(after.puzzle)
        state = after
