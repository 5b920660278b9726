"""Khet notation: squares, moves and positions round-trip; bad text raises ``ParseError``, a well-formed move the
rules forbid raises ``IllegalMoveError``, each with a message naming the reason."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.games.khet.notation import parse_square, square_name
from damier.games.khet.rules import KhetState
from tests.games.khet import reference
from tests.games.khet.reference import board_of
from tests.games.khet.test_rules import CLASSIC, SETUPS, at, legal, load, new, play


def random_game(setup: str, rng: random.Random, plies: int, **options: object) -> KhetState:
    """Random play from ``setup`` for up to ``plies`` plies (possibly to the end of the game)."""
    state = new(setup, **options)
    for _ in range(plies):
        if state.is_over():
            break
        state.play(rng.choice(state.legal_moves()))
    return state


# ----- squares and moves --------------------------------------------------------------------------------
def test_squares_a1_to_j8_round_trip() -> None:
    assert [square_name(sq) for sq in (0, 9, 70, 79)] == ["a1", "j1", "a8", "j8"]
    for sq in range(80):
        assert parse_square(square_name(sq)) == sq
        assert parse_square(square_name(sq).upper()) == sq


@pytest.mark.parametrize("text", ["k1", "a0", "a9", "j10", "", "1a", "aa"])
def test_bad_square_raises_parse_error(text: str) -> None:
    with pytest.raises(damier.ParseError, match="squares are a1 to j8"):
        parse_square(text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SETUPS), st.randoms(use_true_random=False), st.integers(0, 60))
def test_every_legal_move_round_trips_through_notation(setup: str, rng: random.Random, plies: int) -> None:
    state = random_game(setup, rng, plies)
    for move in state.legal_moves():
        text = state.move_to_str(move)
        assert state.parse_move(text) == move
        assert state.parse_move(text.upper()) == move
        assert state.parse_move(f"  {text} ") == move


def test_move_notation_examples() -> None:
    state = new()
    assert [state.move_to_str(state.parse_move(t)) for t in ("c1c2", "c4+", "c4-", "j1-", "e4d4")] == [
        "c1c2", "c4+", "c4-", "j1-", "e4d4"]
    assert state.parse_move("c1c2") == 2 * 10 + 0  # square * 10 + action (0..7 N, NE, ... NW; 8 +, 9 -)
    assert state.parse_move("c4+") == 32 * 10 + 8
    assert state.parse_move("c4-") == 32 * 10 + 9


def test_scarab_minus_is_its_plus() -> None:
    state = new()
    assert state.parse_move("e4-") == state.parse_move("e4+")
    assert state.move_to_str(state.parse_move("e4-")) == "e4+"
    with pytest.raises(damier.IllegalMoveError, match="one rotation, written e4\\+"):
        state.move_to_str(state.parse_move("e4+") + 1)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("k1", "not a Khet move"),
        ("c4", "not a Khet move"),
        ("c1-c2", "not a Khet move"),
        ("c4*", "not a Khet move"),
        ("", "not a Khet move"),
        ("pass", "not a Khet move"),
        ("c1c3", "c3 is not next to c1; pieces move one square"),
        ("c1c1", "c1 is not next to c1"),
        ("a1j8", "j8 is not next to a1"),
    ],
)
def test_text_that_is_not_a_move_raises_parse_error(text: str, reason: str) -> None:
    with pytest.raises(damier.ParseError, match=reason):
        new().parse_move(text)


def test_a_move_must_be_a_string() -> None:
    with pytest.raises(damier.ParseError, match="must be a string"):
        new().parse_move(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("state_pieces", "side", "text", "reason"),
    [
        ({}, "s", "d5d6", "d5 is empty"),
        ({"d5": "yn"}, "s", "d5d6", "the Pyramid on d5 is Red's; Silver is to move"),
        ({"d5": "Yn"}, "r", "d5d6", "the Pyramid on d5 is Silver's; Red is to move"),
        ({}, "s", "i2i1", "i2 is empty"),
        ({"i2": "Yn"}, "s", "i2i1", "i1 is reserved for Red"),
        ({"b2": "yn"}, "r", "b2b1", "b1 is reserved for Silver"),
        ({"d5": "Yn", "d6": "yn"}, "s", "d5d6", "d6 is occupied; only a Scarab swaps"),
        ({"d5": "Sn", "d6": "sn"}, "s", "d5d6", "swaps only with a Pyramid or an Anubis, not with a Scarab"),
        ({"e2": "Sn"}, "s", "e2e1", "not with a Pharaoh"),
        ({}, "s", "j1j2", "the Sphinx on j1 never moves; it only turns between its two directions: j1- now"),
        ({}, "s", "j1+", "the Sphinx on j1 faces N; it only turns between its two directions: j1- now"),
        ({"j1": "Xw"}, "s", "j1-", "faces W; .*j1\\+ now"),
        ({}, "r", "a8+", "the Sphinx on a8 faces S; .*a8- now"),
        ({"a8": "xe"}, "r", "a8-", "faces E; .*a8\\+ now"),
        ({}, "s", "e1+", "the Pharaoh on e1 does not turn \\(pharaoh_rotation is off"),
        ({"b1": "Sn", "c2": "yn"}, "s", "b1c2", "would put the Red Pyramid on b1, reserved for Silver"),
    ],
)
def test_illegal_moves_raise_illegal_move_error_naming_the_reason(
    state_pieces: dict[str, str | None], side: str, text: str, reason: str
) -> None:
    state = at(state_pieces, side)
    with pytest.raises(damier.IllegalMoveError, match=f"^{re.escape(text)}: .*{reason}"):
        state.parse_move(text)


def test_parse_error_and_illegal_move_error_are_different_value_errors() -> None:
    assert issubclass(damier.ParseError, ValueError) and issubclass(damier.IllegalMoveError, ValueError)
    assert not issubclass(damier.ParseError, damier.IllegalMoveError)
    assert not issubclass(damier.IllegalMoveError, damier.ParseError)


def test_illegal_move_int_raises_illegal_move_error() -> None:
    state = new()
    for move in (-1, 801, 9 * 10 + 0, 4 * 10 + 8):  # out of range, the Sphinx stepping, the Pharaoh turning
        with pytest.raises(damier.IllegalMoveError):
            state.play(move)


# ----- positions ----------------------------------------------------------------------------------------
def test_setup_names_are_positions() -> None:
    for setup in SETUPS:
        assert load().state_from_position(setup.upper()).position() == new(setup).position()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SETUPS), st.randoms(use_true_random=False), st.integers(0, 150))
def test_positions_of_random_games_round_trip(setup: str, rng: random.Random, plies: int) -> None:
    state = random_game(setup, rng, plies, quiet_ply_limit=40)  # finished games round-trip too
    restored = state.game.state_from_position(state.position())
    assert restored.position() == state.position()
    assert restored.key() == state.key()
    assert restored.legal_moves() == state.legal_moves()
    assert restored.outcome() == state.outcome()
    assert restored.pieces() == state.pieces()  # type: ignore[attr-defined]


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_random_placements_round_trip(rng: random.Random, strict: bool) -> None:
    board = reference.random_placement(rng)
    if not strict:  # a lax swap may leave a Pyramid or an Anubis on its opponent's reserved square
        for square, p in list(board.pieces.items()):
            free = [sq for sq in reference.all_squares()
                    if reference.reserved_for(sq) == 1 - p.colour and sq not in board.pieces]
            if p.kind in ("pyramid", "anubis") and free and rng.random() < 0.3:
                board.pieces[rng.choice(free)] = board.pieces.pop(square)
    text = board.position()
    state = load(strict_swap_reserved=strict).state_from_position(text)
    assert isinstance(state, KhetState)
    assert state.position() == text
    assert {(p["square"], p["kind"], p["colour"], p["facing"]) for p in state.pieces()} == {
        (sq, p.kind, p.colour, ("N" if p.mirror == "\\" else "E") if p.kind == "scarab" else p.facing)
        for sq, p in board.pieces.items()
    }
    assert state.player == board.to_move
    assert state.quiet_plies == board.quiet


@pytest.mark.parametrize("side", ["-P", "-R", "-Q", "-C"])
def test_finished_positions_round_trip(side: str) -> None:
    count = 100 if side == "-Q" else 7  # a draw by the quiet-ply limit needs the count to have reached it
    text = CLASSIC.replace("PnAn", "1An" if side == "-P" else "PnAn").replace(" s 0", f" {side} {count}")
    state = load().state_from_position(text)
    assert state.position() == text
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == (1 if side == "-P" else None)


def test_a_quiet_draw_below_the_limit_is_refused() -> None:
    with pytest.raises(damier.ParseError, match="needs a count of at least quiet_ply_limit=100"):
        load().state_from_position(CLASSIC.replace(" s 0", " -Q 7"))
    with pytest.raises(damier.ParseError, match="the limit on"):
        load(quiet_ply_limit=0).state_from_position(CLASSIC.replace(" s 0", " -Q 100"))


@pytest.mark.parametrize("count", ["²", "2147483648", "-1", "1e3"])
def test_quiet_counts_outside_the_range_are_refused(count: str) -> None:
    with pytest.raises(damier.ParseError, match="whole number from 0 to 1,000,000"):
        load().state_from_position(CLASSIC.replace(" s 0", f" s {count}"))


def replace_rank(rank: int, text: str) -> str:
    ranks = CLASSIC.split()[0].split("/")
    ranks[8 - rank] = text
    return "/".join(ranks) + " s 0"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (CLASSIC.split()[0], "3 fields \\(board, side to move, quiet plies\\), got 1"),
        (CLASSIC + " 5", "3 fields"),
        (CLASSIC.replace(" s ", " x "), "side to move must be 's' \\(Silver\\) or 'r' \\(Red\\)"),
        (CLASSIC.replace(" s 0", " s -1"), "quiet-ply count must be a whole number from 0 to 1,000,000, not '-1'"),
        (CLASSIC.replace(" s 0", " s many"), "quiet-ply count must be a whole number"),
        (CLASSIC.replace("/7Yn2/", "/7Yn2/10/"), "needs 8 ranks separated by '/', got 9"),
        (CLASSIC.replace("/7Yn2/", "/"), "got 7"),
        (replace_rank(2, "7Yn3"), "rank 2 \\('7Yn3'\\) covers 11 squares, not 10"),
        (replace_rank(2, "7Yn1"), "rank 2 \\('7Yn1'\\) covers 9 squares"),
        (replace_rank(2, "7Yn2Yn"), "covers 11 squares"),
        (replace_rank(2, "7Zn2"), "rank 2: 'Z' is not a piece; a piece is a kind letter"),
        (replace_rank(2, "7Yx2"), "rank 2: 'Y' is not a piece"),
        (replace_rank(2, "7Y2"), "is not a piece"),
        (replace_rank(2, "0Yn9"), "'0' is not a piece"),
        (CLASSIC.replace("Xn", "Xe"), "Silver's Sphinx faces E; it may face N or W"),
        (CLASSIC.replace("xs", "xw"), "Red's Sphinx faces W; it may face S or E"),
        (CLASSIC.replace("xs3", "1xs2"), "Red's Sphinx is on b8; it never leaves a8"),
        (CLASSIC.replace("3Xn", "4"), "Silver needs exactly one Sphinx, the position has 0"),
        (CLASSIC.replace("AnPnAn", "An1An"), "Silver needs exactly one Pharaoh, the position has 0"),
        (replace_rank(2, "7Yn1Pn"), "Silver needs exactly one Pharaoh, the position has 2"),
        (replace_rank(2, "7Yn1Yn"), "Silver has 8 Pyramids; at most 7 are allowed"),
        (replace_rank(2, "An6Yn2"), "a2 is reserved for Red; a Silver Anubis cannot stand there"),
        (replace_rank(2, "7Yn1yn"), "j2 is reserved for Silver; a Red Pyramid cannot stand there"),
        (replace_rank(1, "1snYwAnPnAn3Xn"), "b1 is reserved for Silver; a Red Scarab cannot stand there"),
        (replace_rank(2, "Sn6Yn2"), "a2 is reserved for Red"),
        (CLASSIC.replace(" s 0", " -P 0"), "'-P'\\) has exactly one Pharaoh left"),
        (CLASSIC.replace(" s 0", " - 0"), "side to move must be"),
    ],
)
def test_bad_positions_raise_parse_error_saying_why(text: str, reason: str) -> None:
    with pytest.raises(damier.ParseError, match=reason):
        load().state_from_position(text)


def test_a_position_must_be_a_string() -> None:
    with pytest.raises(damier.ParseError, match="must be a string"):
        load().state_from_position(None)  # type: ignore[arg-type]


def test_strict_swap_reserved_off_still_refuses_pieces_no_swap_could_place() -> None:
    lax = load(strict_swap_reserved=False)
    assert lax.state_from_position(board_of({"a2": "Yn"})).position() == board_of({"a2": "Yn"})
    assert lax.state_from_position(board_of({"j2": "as"})).position() == board_of({"j2": "as"})
    for pieces in ({"a2": "Sn"}, {"a2": "Pn", "e1": None}, {"j2": "sn"}):
        with pytest.raises(damier.ParseError, match="is reserved for"):
            lax.state_from_position(board_of(pieces))


def test_scarabs_are_written_by_mirror() -> None:
    state = load().state_from_position(board_of({"d5": "Sw", "d6": "ss"}))
    assert state.position() == board_of({"d5": "Se", "d6": "sn"})


def test_position_after_moves() -> None:
    state = play(new(), "c1c2", "h8h7")
    assert state.position() == "xs3aspsas3/2ys4ye2/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/2Yw4Yn2/3AnPnAn3Xn s 2"
    assert legal(state) == legal(load().state_from_position(state.position()))  # type: ignore[arg-type]
