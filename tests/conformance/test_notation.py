"""Conformance: move and position notation round-trip, and bad input raises the documented typed errors."""

from __future__ import annotations

import pytest

import damier
from damier.core.game import Game
from tests.conformance.random_play import fingerprint, random_line

SEEDS = range(3)


def test_errors_are_value_errors() -> None:
    for error in (
        damier.ParseError,
        damier.IllegalMoveError,
        damier.StateError,
        damier.RecordError,
        damier.OptionError,
        damier.UnknownGameError,
    ):
        assert issubclass(error, damier.DamierError)
        assert issubclass(error, ValueError)
    assert not issubclass(damier.ParseError, damier.IllegalMoveError)
    assert not issubclass(damier.IllegalMoveError, damier.ParseError)


def test_every_legal_move_round_trips_through_notation(game: damier.Game) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            texts = set()
            for move in state.legal_moves():
                text = state.move_to_str(move)
                assert isinstance(text, str) and text
                assert state.parse_move(text) == move
                texts.add(text)
            assert len(texts) == len(state.legal_moves())


def test_well_formed_illegal_moves_raise_illegal_move_error(game: damier.Game) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            legal = set(state.legal_moves())
            for move in range(game.num_moves):
                if move in legal:
                    continue
                try:
                    text = state.move_to_str(move)
                except damier.DamierError:
                    continue  # not a well-formed move of this game
                with pytest.raises(damier.IllegalMoveError):
                    state.parse_move(text)


GARBAGE = ["", "   ", "zz!?", "#", "\x00", "\n", "é", 123, None, 1.5, b"A1", ["A1"]]


def test_parse_move_of_garbage_raises_parse_error(game: damier.Game) -> None:
    for state in random_line(game, 0, max_plies=5):
        before = fingerprint(state)
        for text in GARBAGE:
            with pytest.raises(damier.ParseError):
                state.parse_move(text)  # type: ignore[arg-type]
        # well formed in some games, off the board or unknown in others: never anything but our errors
        for text in ("A99", "Z1", "a0", "zz"):
            with pytest.raises((damier.ParseError, damier.IllegalMoveError)):
                state.parse_move(text)
        assert fingerprint(state) == before


BAD_MOVES = [-1, -(2**31), 1.5, 0.0, "0", None, True, False, (0,)]


def test_play_of_an_illegal_move_raises_and_changes_nothing(game: damier.Game) -> None:
    for state in random_line(game, 1):
        if len(state.history) % 7:
            continue
        before = fingerprint(state)
        illegal = [m for m in range(game.num_moves) if m not in before["legal_moves"]]
        for move in [*BAD_MOVES, game.num_moves, game.num_moves + 1000, *illegal[:3]]:
            with pytest.raises(damier.IllegalMoveError):
                state.play(move)  # type: ignore[arg-type]
            assert fingerprint(state) == before


def test_play_of_a_huge_int_raises_illegal_move_error(game: damier.Game) -> None:
    state = game.new_state(0)
    before = fingerprint(state)
    for move in (2**63, 2**70, -(2**63) - 1):
        with pytest.raises(damier.IllegalMoveError):
            state.play(move)
        assert not state.is_legal(move)
    assert fingerprint(state) == before


def test_undo_on_a_fresh_state_raises_state_error(game: damier.Game) -> None:
    state = game.new_state(0)
    with pytest.raises(damier.StateError):
        state.undo()
    state.play(state.legal_moves()[0])
    state.undo()
    with pytest.raises(damier.StateError):
        state.undo()
    assert fingerprint(state) == fingerprint(game.new_state(0))


def test_unknown_game_name_raises_unknown_game_error() -> None:
    for name in ("nope", "", "atoms2"):
        with pytest.raises(damier.UnknownGameError):
            damier.load(name)


def test_unknown_or_bad_option_raises_option_error(game: damier.Game) -> None:
    with pytest.raises(damier.OptionError, match="no_such_option"):
        damier.load(game.name, no_such_option=1)
    for option in damier.load(game.name).option_set.options:
        bad: list[object] = [object(), [1]]
        if option.type is int:
            bad += ["not a number", 1.5, True]
            bad += [option.minimum - 1] if option.minimum is not None else []
            bad += [option.maximum + 1] if option.maximum is not None else []
        if option.choices is not None:
            bad.append("no such choice")
        for value in bad:
            with pytest.raises(damier.OptionError, match=option.name):
                damier.load(game.name, **{option.name: value})


def test_position_round_trips_through_state_from_position(game: damier.Game) -> None:
    if type(game).state_from_position is Game.state_from_position:
        pytest.skip(f"{game.name} has no position notation")
    for seed in SEEDS:
        for state in random_line(game, seed):
            restored = game.state_from_position(state.position())
            assert restored.position() == state.position()
            assert restored.player == state.player
            assert restored.legal_moves() == state.legal_moves()
            assert restored.outcome() == state.outcome()
            assert restored.key() == state.key()


def test_bad_position_raises_parse_error(game: damier.Game) -> None:
    if type(game).state_from_position is Game.state_from_position:
        pytest.skip(f"{game.name} has no position notation")
    position = game.new_state(0).position()
    for text in ("", "   ", "garbage", position + " extra", position[: len(position) // 2], "\x00"):
        with pytest.raises(damier.ParseError):
            game.state_from_position(text)
