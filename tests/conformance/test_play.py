"""Conformance: playing, undoing, copying, the end of the game, chance nodes and the views, for every game."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

import damier
from damier.core import registry
from tests.conformance.random_play import PLY_CAP, choose, fingerprint, random_line, random_state

SEEDS = range(3)


def test_game_metadata_is_consistent(game: damier.Game) -> None:
    info = registry.info(game.name)
    assert info.has_chance == game.has_chance
    assert game.num_players >= 1
    assert len(game.player_names) == game.num_players
    assert all(isinstance(n, str) and n for n in game.player_names)
    rows, cols = game.board_shape
    assert rows >= 1 and cols >= 1
    assert game.num_moves >= 1
    assert damier.load(game.name, **game.options) == game
    assert eval(repr(game), {"damier": damier}) == game


def test_random_play_from_many_seeds_ends(game: damier.Game) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            assert len(state.history) < PLY_CAP, f"seed {seed}: no end after {PLY_CAP} plies"
            assert state.legal_moves(), f"seed {seed}: {state.position()!r} is not over but has no legal move"
            state.play(choose(state, rng))
        assert state.outcome() is not None


def test_outcome_is_none_exactly_while_the_game_goes_on(game: damier.Game) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            outcome = state.outcome()
            assert (outcome is None) == (not state.is_over())
            if outcome is None:
                assert state.player == damier.CHANCE or 0 <= state.player < game.num_players
                continue
            assert state.player == damier.TERMINAL
            assert state.legal_moves() == []
            assert not state.legal_mask().any()
            assert state.chance_outcomes() == []
            assert len(outcome.returns) == game.num_players
            assert outcome.winner is None or 0 <= outcome.winner < game.num_players
            if outcome.winner is not None:
                assert outcome.returns[outcome.winner] == max(outcome.returns)
            assert isinstance(outcome.reason, str) and outcome.reason
            assert damier.Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome
        assert state.is_over()


def test_chance_outcomes_list_the_legal_moves_with_probabilities_summing_to_1(game: damier.Game) -> None:
    chance_nodes = 0
    for seed in SEEDS:
        for state in random_line(game, seed):
            outcomes = state.chance_outcomes()
            if state.player != damier.CHANCE:
                assert outcomes == []
                continue
            chance_nodes += 1
            moves = [move for move, _ in outcomes]
            assert sorted(moves) == state.legal_moves()
            assert all(p > 0 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9)
    assert (chance_nodes > 0) == game.has_chance


def test_undo_after_play_restores_the_exact_state(game: damier.Game) -> None:
    for seed in SEEDS:
        rng = random.Random(seed + 1000)
        initial = fingerprint(game.new_state(seed))
        for state in random_line(game, seed):
            if state.is_over():
                break
            before = fingerprint(state)
            moves = state.legal_moves()
            for i, move in enumerate(rng.sample(moves, min(4, len(moves)))):
                state.play(move)
                state.undo()
                assert fingerprint(state, with_json=i == 0) == (before if i == 0 else _without_json(before))
        while state.history:
            state.undo()
        assert fingerprint(state) == initial
        with pytest.raises(damier.StateError):
            state.undo()


def _without_json(print_: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in print_.items() if k != "json"}


def test_copies_are_independent(game: damier.Game) -> None:
    for seed in SEEDS:
        rng = random.Random(seed + 2000)
        past = []
        for line in random_line(game, seed, max_plies=60):
            past.append(fingerprint(line))
            copy = line.copy()
            spare = line.copy()
            assert fingerprint(copy) == past[-1]
            _scribble(copy, rng)  # the copy changes: neither the original nor another copy may notice
            assert fingerprint(line) == past[-1]
            assert fingerprint(spare) == past[-1]
            _scribble(line, rng)  # the original changes: its copy may not notice either
            assert fingerprint(spare) == past[-1]
            if len(past) > 1:
                spare.undo()
                assert fingerprint(spare) == past[-2]
            _restore(line, past[-1]["history"])
        for back in reversed(past[:-1]):  # the original's own undo stack survived every copy
            line.undo()
            assert fingerprint(line) == back


def _scribble(state: damier.State, rng: random.Random) -> None:
    """Undo a move and play others: every way a state's arrays or stacks might be shared with a copy."""
    if state.history:
        state.undo()
    for _ in range(3):
        if state.is_over():
            break
        state.play(choose(state, rng))
    if state.history:
        state.undo()
    if not state.is_over():
        state.play(choose(state, rng))


def _restore(state: damier.State, history: list[int]) -> None:
    """Undo ``state`` back to the common prefix with ``history``, then replay the rest of ``history``."""
    common = 0
    while common < min(len(history), len(state.history)) and history[common] == state.history[common]:
        common += 1
    while len(state.history) > common:
        state.undo()
    for move in history[common:]:
        state.play(move)


def test_legal_mask_agrees_with_legal_moves(game: damier.Game) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            moves = state.legal_moves()
            assert all(isinstance(m, int) for m in moves)
            assert moves == sorted(set(moves))
            if state.player == damier.CHANCE:  # outcomes are a space of their own; the mask is for decisions
                assert all(0 <= m < game.num_chance_outcomes for m in moves)
                assert [m for m in range(game.num_chance_outcomes) if state.is_legal(m)] == moves
                continue
            assert all(0 <= m < game.num_moves for m in moves)
            mask = state.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (game.num_moves,)
            assert np.flatnonzero(mask).tolist() == moves
            assert [m for m in range(game.num_moves) if state.is_legal(m)] == moves
            assert not state.is_legal(-1) and not state.is_legal(game.num_moves)


def test_observation_is_an_array_of_stable_shape(game: damier.Game) -> None:
    shapes = set()
    for seed in SEEDS:
        for state in random_line(game, seed):
            obs = state.observation()
            assert isinstance(obs, np.ndarray)
            assert np.issubdtype(obs.dtype, np.number) or obs.dtype == np.bool_
            assert np.isfinite(obs.astype(np.float64)).all()
            shapes.add(obs.shape)
    assert len(shapes) == 1


def test_render_text_is_a_non_empty_string(game: damier.Game) -> None:
    for state in random_line(game, 0):
        text = state.render_text()
        assert isinstance(text, str) and text.strip()
        assert str(state) == text


def test_events_are_dicts_with_a_type(game: damier.Game) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            events = state.events()
            if not state.history:
                assert events == []
                continue
            assert isinstance(events, list) and events
            for event in events:
                assert isinstance(event, dict)
                assert isinstance(event.get("type"), str) and event["type"]
            assert json.loads(json.dumps(events)) == events  # the web client receives them as JSON


def test_play_at_the_end_raises_and_changes_nothing(game: damier.Game) -> None:
    state = random_state(game, 0)
    assert state.is_over()
    before = fingerprint(state)
    for move in range(game.num_moves):
        with pytest.raises(damier.IllegalMoveError):
            state.play(move)
    assert fingerprint(state) == before
