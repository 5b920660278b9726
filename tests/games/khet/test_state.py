"""Khet state facade: undo, copies, events and laser previews (the UI's preview is the engine's shot), JSON,
the board data of the web view, the observation tensor and the text view."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.games.khet.rules import KhetState
from tests.games.khet import reference
from tests.games.khet.test_rules import CLASSIC, RULES, SETUPS, SHUFFLE, at, legal, load, new, play


def snapshot(state: KhetState) -> dict[str, Any]:
    return {
        "position": state.position(),
        "key": state.key(),
        "player": state.player,
        "legal": state.legal_moves(),
        "history": list(state.history),
        "repetitions": state.repetitions(),
        "quiet": state.quiet_plies,
        "ply": state.ply,
        "outcome": state.outcome(),
        "events": state.events(),
        "lasers": [state.laser(0), state.laser(1)],
        "observation": state.observation().tolist(),
    }


def random_moves(state: KhetState, rng: random.Random, plies: int) -> KhetState:
    for _ in range(plies):
        if state.is_over():
            break
        state.play(rng.choice(state.legal_moves()))
    return state


# ----- undo and copy ------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SETUPS), st.sampled_from(RULES), st.randoms(use_true_random=False))
def test_undo_restores_the_state_exactly(setup: str, rules: dict[str, Any], rng: random.Random) -> None:
    state = new(setup, **rules)
    seen = [snapshot(state)]
    while not state.is_over() and len(state.history) < 80:
        moves = state.legal_moves()
        move = moves[-1] if moves[-1] == 800 else rng.choice(moves)
        state.play(move)
        seen.append(snapshot(state))
        if rng.random() < 0.3:  # undo at once and play it again
            state.undo()
            assert snapshot(state) == seen[-2]
            state.play(move)
            assert snapshot(state) == seen[-1]
    while state.history:
        state.undo()
        seen.pop()
        assert snapshot(state) == seen[-1]


def test_undo_with_nothing_played() -> None:
    with pytest.raises(damier.StateError, match="no move to undo"):
        new().undo()


def test_undo_takes_back_a_win_a_draw_and_a_claim() -> None:
    won = play(at({"j3": "Ys", "e1": None, "j6": "Pn"}), "j3i2")
    won.undo()
    assert not won.is_over() and won.position() == reference.board_of({"j3": "Ys", "e1": None, "j6": "Pn"})
    claimed = play(new(repetition="claim"), *SHUFFLE, *SHUFFLE, "claim")
    claimed.undo()
    assert claimed.can_claim_draw() and not claimed.is_over()
    drawn = play(new(), *SHUFFLE, *SHUFFLE)
    drawn.undo()
    assert not drawn.is_over() and drawn.repetitions() == 2


def test_copy_is_independent() -> None:
    state = play(new(), "c1c2", "h8h7")
    other = state.copy()
    assert isinstance(other, KhetState)
    play(other, "c2c1")
    state.undo()
    assert other.position() != state.position()
    other.undo()
    other.undo()
    assert other.position() == state.position()
    assert other.repetitions() == state.repetitions()


# ----- events and previews ------------------------------------------------------------------------------
def board_after_the_piece_moved(state: KhetState, move: str) -> KhetState:
    """The position after ``move``'s piece part, before any shot, with the mover still to move (built from the
    position string by the reference, not by the engine)."""
    moved = reference.move_piece(reference.parse(state.position()), move)
    after = state.game.state_from_position(moved.position())
    assert isinstance(after, KhetState)
    return after


def check_events(state: KhetState, move: str) -> None:
    mover = state.player
    previews = state.previews()
    moved = board_after_the_piece_moved(state, move)
    expected = moved.laser(mover)
    before = reference.parse(state.position())
    pieces = {p["square"]: p for p in state.pieces()}
    play(state, move)
    # each board-changing step says what it changed: the board before the shot, then after the removal
    for e in state.events():
        pieces.update(e.get("changes", {}))
        if e["type"] in ("step", "swap", "rotate"):
            assert {sq: p for sq, p in pieces.items() if p} == {p["square"]: p for p in moved.pieces()}
    assert {sq: p for sq, p in pieces.items() if p} == {p["square"]: p for p in state.pieces()}
    events = [{key: value for key, value in e.items() if key != "changes"} for e in state.events()]
    laser = next(e for e in events if e["type"] == "laser")
    assert laser == {"type": "laser", **expected}
    assert laser == {"type": "laser", **previews[move]}  # the preview is exactly the shot
    kinds = [e["type"] for e in events]
    first = "rotate" if move[2] in "+-" else ("swap" if move[2:] in before.pieces else "step")
    assert kinds[:2] == [first, "laser"]
    removed = [e for e in events if e["type"] == "remove"]
    assert (removed[0] if removed else None) == (None if laser["removed"] is None else {"type": "remove",
                                                                                        **laser["removed"]})
    if removed:
        assert removed[0]["square"] == laser["at"] == laser["squares"][-1]
        assert reference.parse(state.position()).pieces.get(laser["at"]) is None
    end = [e for e in events if e["type"] in ("win", "draw")]
    assert len(end) == int(state.is_over())
    assert kinds == [first, "laser"] + (["remove"] if removed else []) + [e["type"] for e in end]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SETUPS), st.randoms(use_true_random=False), st.integers(0, 40))
def test_laser_event_is_the_shot_of_the_moved_board_and_its_preview(
    setup: str, rng: random.Random, plies: int
) -> None:
    state = random_moves(new(setup), rng, plies)
    if state.is_over():
        state.undo()
    moves = sorted(m for m in legal(state) if m != "claim")
    assert set(state.previews()) == set(moves)
    for move in rng.sample(moves, min(8, len(moves))):
        check_events(state, move)
        state.undo()


def test_events_are_empty_before_the_first_move() -> None:
    assert new().events() == []


def test_previews_warn_of_shooting_own_pieces() -> None:
    previews = new().previews()
    assert previews["j1-"]["removed"] == {"square": "f1", "kind": "anubis", "colour": 0, "facing": "N"}
    harmless = [m for m, beam in previews.items() if beam["removed"] is None]
    assert len(harmless) > 60


def test_laser_of_a_finished_game_needs_a_colour() -> None:
    state = play(at({"j3": "Ys", "e1": None, "j6": "Pn"}), "j3i2")
    with pytest.raises(damier.StateError, match="give the colour"):
        state.laser()
    assert state.laser(1)["stop"] == "left"
    assert state.previews() == {}


# ----- JSON ---------------------------------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SETUPS), st.sampled_from(RULES), st.randoms(use_true_random=False), st.integers(0, 60))
def test_to_json_round_trips_mid_game(setup: str, rules: dict[str, Any], rng: random.Random, plies: int) -> None:
    game = load(setup=setup, **rules)
    state = random_moves(new(setup, **rules), rng, plies)
    obj = json.loads(json.dumps(state.to_json()))
    restored = game.state_from_json(obj)
    assert isinstance(restored, KhetState)
    assert snapshot(restored) == snapshot(state)
    if state.history:
        state.undo()
        restored.undo()
        assert snapshot(restored) == snapshot(state)


def test_to_json_round_trips_from_a_position_and_after_a_claim() -> None:
    game = load(repetition="claim")
    start = CLASSIC.replace(" s 0", " s 12")
    state = game.state_from_position(start)
    assert isinstance(state, KhetState)
    play(state, *SHUFFLE, *SHUFFLE, "claim")
    obj = json.loads(json.dumps(state.to_json()))
    assert obj["start"] == start
    assert obj["moves"] == [*SHUFFLE, *SHUFFLE, "claim"]
    restored = game.state_from_json(obj)
    assert isinstance(restored, KhetState)
    assert snapshot(restored) == snapshot(state)


# ----- views --------------------------------------------------------------------------------------------
def test_board_json_gives_the_web_view_what_it_draws() -> None:
    state = play(new(quiet_ply_limit=50), "c1c2")
    data = state.board_json()
    assert data["kind"] == "khet" and (data["rows"], data["cols"]) == (8, 10)
    assert data["position"] == state.position()
    assert data["to_move"] == 1
    assert data["pieces"] == state.pieces()
    assert data["sphinx"] == {"0": "j1", "1": "a8"}
    assert data["reserved"]["a4"] == 1 and data["reserved"]["j4"] == 0 and "e4" not in data["reserved"]
    assert set(data["previews"]) == legal(state)
    assert (data["repetitions"], data["can_claim"], data["quiet"], data["quiet_limit"]) == (1, False, 1, 50)
    json.dumps(data)


def test_observation_planes() -> None:
    state = new()
    planes = state.observation()
    assert planes.shape == (17, 8, 10) and planes.dtype == np.float32
    # row 0 = rank 1, column 0 = file a; planes 0-4 the mover's pieces, 5-9 the opponent's
    assert planes[0, 0, 9] == 1  # Silver's Sphinx on j1
    assert planes[1, 0, 4] == 1  # Silver's Pharaoh on e1
    assert planes[5, 7, 0] == 1  # Red's Sphinx on a8
    assert planes[:10].sum() == 26
    assert planes[10:14].sum() == 26  # one facing per piece
    assert planes[10, 0, 9] == 1  # j1 faces N
    assert planes[14].sum() == 10 and planes[14, 1, 9] == 1  # squares reserved for the mover (Silver)
    assert planes[15].sum() == 10 and planes[15, 0, 0] == 1
    assert planes[16].all()
    play(state, "c1c2")
    red = state.observation()
    assert red[0, 7, 0] == 1 and red[5, 0, 9] == 1  # now Red's pieces come first
    assert red[14, 0, 0] == 1 and not red[16].any()


def test_render_text_shows_the_board_and_the_last_beam() -> None:
    state = new()
    lines = state.render_text().splitlines()
    assert lines[0].split() == list("abcdefghij")
    assert lines[1].split()[:2] == ["8", "xs"]
    assert "Silver to move." in state.render_text()
    play(state, "j1-")
    text = state.render_text()
    assert "*" in text and "Red to move." in text


def test_render_text_after_a_claim() -> None:
    state = play(new(repetition="claim"), *SHUFFLE, *SHUFFLE, "claim")
    assert "Draw by repetition, claimed." in state.render_text()
    assert "*" not in state.render_text().split("(kind")[0]


def test_repr_names_the_position() -> None:
    assert CLASSIC in repr(new())
