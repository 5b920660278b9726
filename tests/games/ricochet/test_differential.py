"""Ricochet Robots against the naive reference (``reference.py``), by hypothesis: random legal boards (one side per
group, the groups in a random order), robots (with or without silver and the transparent robot), targets, rule
modes, then random lines: the legal moves, where each ends, what it costs and whether it solves must agree at every
step; our puzzle id is the one the reference writes from the documentation, and the JSON form reads back to it;
undo restores every step exactly; a position written mid-puzzle reads back to the same state."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.games.ricochet import notation
from damier.games.ricochet.rules import RicochetState
from tests.games.ricochet import reference

SIDES = [f"{group}{side}" for group in "1234" for side in "ABCD"]
FREE = [(x, y) for y in range(16) for x in range(16) if (x, y) not in reference.CENTRE]


@dataclass
class Case:
    """A drawn puzzle: the reference's and ours, and the seeds of a random line."""

    puzzle: reference.Puzzle
    options: dict[str, Any]
    choices: list[int]

    def state(self) -> RicochetState:
        state = damier.load("ricochet", **self.options).state_from_position(reference.puzzle_id(self.puzzle))
        assert isinstance(state, RicochetState)
        return state


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, ...]:
    groups = draw(st.permutations("1234"))
    return tuple(g + draw(st.sampled_from("ABCD")) for g in groups)


@st.composite
def cases(draw: st.DrawFn, max_line: int = 14) -> Case:
    sides = draw(boards())
    board = reference.assemble(sides)
    silver, transparent = draw(st.booleans()), draw(st.booleans())
    squares = draw(st.lists(st.sampled_from(FREE), min_size=6, max_size=6, unique=True))
    if draw(st.booleans()):  # now and then a robot on a target square, or next to the centre block
        targets = sorted(board.targets)
        squares[draw(st.integers(0, 3))] = draw(st.sampled_from([t for t in targets if t not in squares]))
    robots: tuple[reference.Square | None, ...] = (*squares[:4], squares[4] if silver else None,
                                                   squares[5] if transparent else None)
    target = draw(st.sampled_from(sorted(board.targets)))
    ricochet = draw(st.sampled_from(["off", "if_trivial", "strict"]))
    rebound = draw(st.booleans())
    puzzle = reference.Puzzle(board, robots, target, ricochet, rebound)
    options = {"silver": silver, "transparent": transparent, "ricochet": ricochet, "rebound": rebound}
    choices = draw(st.lists(st.integers(0, 10**6), max_size=max_line))
    return Case(puzzle, options, choices)


def robots_of(state: RicochetState) -> tuple[reference.Square | None, ...]:
    return tuple(None if c < 0 else (int(c) % 16, int(c) // 16) for c in state.robots)


def move_of(text: str) -> reference.Move:
    return reference.LETTERS.index(text[0]), text[1], int(text[2:] or 0)


@settings(max_examples=150, deadline=None)
@given(case=cases())
def test_legal_moves_destinations_costs_and_solved_agree_with_the_reference(case: Case) -> None:
    puzzle, state = case.puzzle, case.state()
    assert state.position() == reference.puzzle_id(puzzle)  # our id, written by the reference from its docs
    assert notation.puzzle_id(notation.parse_puzzle_json(json.dumps(notation.puzzle_json(state.puzzle)))) == \
        state.position()
    line: list[reference.Move] = []
    for choice in [*case.choices, None]:
        expected = puzzle.legal(line)
        assert robots_of(state) == puzzle.walk(line)
        assert state.is_over() == puzzle.over(line) == (not expected and puzzle.over(line))
        assert state.moves_used == puzzle.cost(line)
        legal = {state.move_to_str(m): m for m in state.legal_moves()}
        assert set(legal) == {reference.notation(m) for m in expected}
        for text, move in legal.items():
            after = state.copy()
            after.play(move)
            ref_move = move_of(text)
            assert robots_of(after)[ref_move[0]] == expected[ref_move]
            assert after.moves_used == puzzle.cost([*line, ref_move])
            assert after.is_over() == puzzle.over([*line, ref_move])
            assert puzzle.solved([*line, ref_move]) == state.solved_after(move)
        if choice is None or not legal:
            break
        text = sorted(legal)[choice % len(legal)]
        state.play(state.parse_move(text))
        line.append(move_of(text))


def fingerprint(state: RicochetState) -> tuple[Any, ...]:
    return (state.position(), state.key(), state.legal_moves(), state.is_over(), state.outcome(), state.events(),
            list(state.history), state.render_text(), state.observation().tobytes())


def random_line(state: RicochetState, choices: list[int]) -> None:
    for choice in choices:
        legal = state.legal_moves()
        if not legal:
            return
        state.play(legal[choice % len(legal)])


@settings(max_examples=100, deadline=None)
@given(case=cases())
def test_undo_restores_every_step_exactly(case: Case) -> None:
    state = case.state()
    seen = [fingerprint(state)]
    for choice in case.choices:
        legal = state.legal_moves()
        if not legal:
            break
        state.play(legal[choice % len(legal)])
        seen.append(fingerprint(state))
    while state.history:
        seen.pop()
        state.undo()
        assert fingerprint(state) == seen[-1]


@settings(max_examples=100, deadline=None)
@given(case=cases(), more=st.lists(st.integers(0, 10**6), max_size=6))
def test_a_position_mid_puzzle_reads_back_to_the_same_state_and_the_same_future(case: Case, more: list[int]) -> None:
    state = case.state()
    random_line(state, case.choices)
    again = state.game.state_from_position(state.position())
    assert isinstance(again, RicochetState)
    assert again.position() == state.position()
    assert (robots_of(again), again.moves_used, again.last_dir, again.turned, again.last_move) == (
        robots_of(state), state.moves_used, state.last_dir, state.turned, state.last_move)
    assert again.legal_moves() == state.legal_moves() and again.is_over() == state.is_over()
    for choice in more:  # the rule modes remember the same things: the same moves stay legal, the same lines solve
        legal = state.legal_moves()
        if not legal:
            break
        move = legal[choice % len(legal)]
        state.play(move)
        again.play(move)
        assert again.position() == state.position() and again.legal_moves() == state.legal_moves()
        assert again.is_over() == state.is_over()
