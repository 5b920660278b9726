"""The Micro Robots solver and state against the naive reference (``reference.py``), on random boards, puzzles,
waypoints and both waypoint rules: legal moves, the shortest length, how many shortest lines and which, lines of
exactly k moves, graded hints; and property tests of the state (undo, notation, positions) and of the solver."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.core.errors import StateError
from damier.core.game import Termination
from damier.games.micro import notation, search, setup
from damier.games.micro.rules import MicroState
from tests.games.micro import reference

#: enumerating every sequence of moves is checked only up to this length (the branching is about 5)
ENUMERATED = 5


@dataclass
class Case:
    """A puzzle as the package sees it (a state) and as the reference does."""

    state: MicroState
    ref: reference.Puzzle

    def names(self, squares: list[int]) -> list[str]:
        return [self.ref.board[s] for s in squares]

    def squares(self, names: list[str]) -> list[int]:
        return [self.ref.board.index(n) for n in names]

    @property
    def place(self) -> reference.Place:
        return self.state.robot, self.state.visited


@st.composite
def board_ids(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["A", "B", "random", "custom"]))
    if kind in ("A", "B"):
        order = draw(st.permutations([1, 2, 3, 4]))
        turns = draw(st.lists(st.integers(0, 3), min_size=4, max_size=4))
        return f"{kind}-{''.join(map(str, order))}-{''.join(map(str, turns))}"
    if kind == "random":
        return f"random:{draw(st.integers(0, 10**9))}"
    # any shuffle of the 36 pairs: most are not connected, so some targets cannot be reached
    return setup.custom_id(np.array(draw(st.permutations(range(36))), dtype=np.int8))


@st.composite
def cases(draw: st.DrawFn, waypoint: bool | None = None, walk: bool = True) -> Case:
    """A puzzle (a waypoint when ``waypoint`` says so, or either), and a few random jumps into it."""
    board_id = draw(board_ids())
    start, target = draw(st.lists(st.integers(0, 35), min_size=2, max_size=2, unique=True))
    with_waypoint = draw(st.booleans()) if waypoint is None else waypoint
    w = draw(st.integers(0, 35).filter(lambda s: s not in (start, target))) if with_waypoint else -1
    passing = draw(st.booleans())
    words = [board_id, notation.coordinates(start), notation.coordinates(target)]
    if w >= 0:
        words.append(notation.coordinates(w))
    state = damier.load("micro", waypoint_pass=passing).state_from_position("_".join(words))
    assert isinstance(state, MicroState)
    board = [setup.square_text(int(c)) for c in setup.parse_board_id(board_id)]
    case = Case(state, reference.Puzzle(board, start, target, w, passing))
    if walk:
        rng = random.Random(draw(st.integers(0, 2**32)))
        for _ in range(draw(st.integers(0, 4))):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
            if state.is_over():
                state.undo()
                break
    return case


# ----- differential tests against the reference ---------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(case=cases())
def test_legal_moves_are_the_references(case: Case) -> None:
    state = case.state
    before = case.place
    assert set(state.legal_moves()) == case.ref.moves(before)
    for move in state.legal_moves():
        state.play(move)
        assert case.place == case.ref.step(before, move)  # the square, and the waypoint visited or not
        assert state.is_over() == case.ref.solved(case.place)
        state.undo()


@settings(max_examples=150, deadline=None)
@given(case=cases())
def test_shortest_length_and_number_of_shortest_lines_are_the_references(case: Case) -> None:
    answer = search.analyse(case.state)
    length = case.ref.shortest(case.place)
    assert answer["length"] == length
    if length is None:
        assert answer["count"] == 0 and answer["moves"] is None
        return
    assert answer["count"] == case.ref.count(length, case.place)
    assert case.ref.replay(case.squares(answer["moves"]), case.place) and len(answer["moves"]) == length
    if length <= ENUMERATED:
        assert answer["count"] == len(case.ref.sequences(length, case.place))


@settings(max_examples=100, deadline=None)
@given(case=cases())
def test_all_shortest_lines_are_the_references(case: Case) -> None:
    length = case.ref.shortest(case.place)
    listed = search.analyse(case.state, all_paths=True)["all"]
    if length is None:
        assert listed == []
        return
    found = {tuple(case.squares(line)) for line in listed}
    assert len(found) == len(listed)  # no line twice
    if length <= ENUMERATED:
        assert found == set(case.ref.sequences(length, case.place))
    else:
        assert all(case.ref.replay(list(line), case.place) and len(line) == length for line in found)
        assert len(found) == min(case.ref.count(length, case.place), search.MAX_LISTED)


@settings(max_examples=150, deadline=None)
@given(case=cases(), k=st.integers(0, 14))
def test_a_line_of_exactly_k_moves_exists_as_the_reference_says_and_replays(case: Case, k: int) -> None:
    line = search.path_of_length(case.state, k)
    assert (line is not None) == case.ref.exact_possible(k, case.place)
    if line is None:
        return
    assert len(line) == k and case.ref.replay(line, case.place)
    state = case.state.copy()
    for move in line:
        state.play(move)  # the state accepts every jump: the line never ends the puzzle early
    assert state.is_over() and state.outcome().cost == state.moves_used  # type: ignore[union-attr]
    answer = search.analyse(case.state, exact=k)["exact"]
    assert answer == {"k": k, "moves": case.names(line)}


@settings(max_examples=40, deadline=None)
@given(case=cases())
def test_the_lengths_of_exact_lines_up_to_20_are_the_references(case: Case) -> None:
    possible = [k for k in range(1, 21) if search.path_of_length(case.state, k) is not None]
    assert possible == case.ref.exact_lengths(20, case.place)


@settings(max_examples=30, deadline=None)
@given(case=cases(walk=False), k=st.integers(1, 4))
def test_exact_k_agrees_with_enumerating_every_sequence(case: Case, k: int) -> None:
    assert (search.path_of_length(case.state, k) is not None) == bool(case.ref.sequences(k))


@settings(max_examples=120, deadline=None)
@given(case=cases())
def test_graded_hints_say_the_band_the_length_the_first_move_and_the_line(case: Case) -> None:
    length = case.ref.shortest(case.place)
    hints = [search.hint(case.state, level) for level in (1, 2, 3, 4)]
    if length is None:
        assert all(h["kind"] == "none" for h in hints)
        return
    band, exact, first, whole = hints
    assert band["kind"] == "band" and band["low"] <= length <= band["high"] and band["high"] == band["low"] + 1
    assert exact["length"] == length
    after = case.ref.step(case.place, case.squares([first["move"]])[0])
    assert case.ref.shortest(after) == length - 1  # the first move starts an optimal line
    assert len(whole["moves"]) == length and case.ref.replay(case.squares(whole["moves"]), case.place)
    assert whole["text"] == " ".join(whole["moves"])


def test_the_band_hint_pairs_lengths_1_2_then_3_4_then_5_6() -> None:
    texts = {}
    for puzzle in ("A-1234-0000_R5_R1", "A-1234-0000_R5_B1", "A-1234-0000_R5_Y6", "A-1234-0000_R5_G4"):
        state = damier.load("micro").state_from_position(puzzle)
        texts[search.hint(state, 2)["length"]] = search.hint(state, 1)["text"]
    assert texts[1] == texts[2] == "1 or 2 moves"
    assert {texts.get(3, "3 to 4 moves"), texts.get(4, "3 to 4 moves")} == {"3 to 4 moves"}


def test_no_hint_on_a_solved_puzzle_or_at_a_bad_level() -> None:
    state = damier.load("micro").state_from_position("A-1234-0000_R5_B1")
    with pytest.raises(StateError, match="a hint level is 1"):
        search.hint(state, 5)
    for square in ("B5", "B1"):
        state.play(state.parse_move(square))
    with pytest.raises(StateError, match="the puzzle is solved: there is nothing to hint"):
        search.hint(state, 1)


def test_an_exact_number_of_moves_out_of_range_is_refused() -> None:
    state = damier.load("micro").state_from_position("A-1234-0000_R5_B1")
    with pytest.raises(StateError, match="an exact number of moves is a whole number from 0 to 64, not 65"):
        search.path_of_length(state, 65)


# ----- property tests -----------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(case=cases())
def test_undo_restores_the_position(case: Case) -> None:
    state = case.state
    before = (state.position(), state.legal_moves(), state.key(), state.observation().tobytes(), state.player)
    for move in state.legal_moves():
        state.play(move)
        state.undo()
        assert (state.position(), state.legal_moves(), state.key(), state.observation().tobytes(),
                state.player) == before


@settings(max_examples=80, deadline=None)
@given(case=cases())
def test_moves_squares_positions_and_puzzle_ids_round_trip(case: Case) -> None:
    state = case.state
    for move in state.legal_moves():
        assert state.parse_move(state.move_to_str(move)) == move
        assert state.parse_move(notation.coordinates(move)) == move
    again = state.game.state_from_position(state.position())
    assert isinstance(again, MicroState)
    assert (again.position(), again.legal_moves(), again.robot, again.visited, again.moves_used) == (
        state.position(), state.legal_moves(), state.robot, state.visited, state.moves_used)
    puzzle = notation.parse_puzzle_id(notation.puzzle_id(state.puzzle))
    assert notation.puzzle_id(puzzle) == notation.puzzle_id(state.puzzle) and puzzle == state.puzzle
    assert (puzzle.board == state.puzzle.board).all()
    saved = state.to_json()
    assert state.game.state_from_json(saved).position() == state.position()


@settings(max_examples=100, deadline=None)
@given(case=cases())
def test_a_solution_replays_to_solved_at_the_optimum(case: Case) -> None:
    state = case.state
    solution = search.solve(state)
    if not solution.found:
        assert case.ref.shortest(case.place) is None
        return
    assert solution.optimal and solution.cost == len(solution.moves)
    used = state.moves_used
    for move in solution.moves:
        state.play(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.SOLVED
    assert outcome.cost == used + solution.cost
    if used == 0:
        assert outcome.cost == outcome.optimum and outcome.returns == (1.0,)


@settings(max_examples=60, deadline=None)
@given(case=cases(waypoint=True))
def test_the_count_of_shortest_lines_is_the_number_listed(case: Case) -> None:
    answer = search.analyse(case.state, all_paths=True)
    if answer["count"] <= search.MAX_LISTED:
        assert answer["count"] == len(answer["all"])
    if answer["length"] is not None:
        assert answer["moves"] in answer["all"]


def test_a_max_cost_below_the_optimum_finds_nothing() -> None:
    state = damier.load("micro").state_from_position("A-1234-0000_R5_B1")
    assert isinstance(state, MicroState) and not search.solve(state, max_cost=1).found
    board = state.puzzle.board
    assert search.solve(state, max_cost=2).moves == tuple(notation.square_index(board, s) for s in ("B5", "B1"))
