"""Khet2-AI's position strings: read by ``state_from_position`` beside damier's own, written by
``state.position(format="khet2ai")``, round-tripping both ways; checked against facts read from Khet2-AI's source
(https://github.com/AlexKent3141/Khet2-AI: ``src/CommsHandler.h``, ``src/core/Board.cpp``, ``src/tests``)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.games.khet import notation
from damier.games.khet.notation import position_format, position_words
from damier.games.khet.rules import KhetState
from damier.games.khet.setup import setup_position
from tests.games.khet.test_rules import SETUPS, load, new

#: the setups as Khet2-AI writes them (``src/CommsHandler.h``: ``Standard``, ``Imhotep``, ``Dynasty``, each with
#: ``0``, Silver to move); its ``standard`` is our ``classic``
KHET2AI_SETUPS = {
    "classic": "x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0",
    "imhotep": "x33a3ka3s22//3P42p13/p1P32P2s22p2P4/p2P42S2p42p1P3/3P32p23//2S2A1KA13X1 0",
    "dynasty": "x33p3a3p23/5k4/p13p3a3s23/p21s11P41P23/3p41p21S11P4/3S2A1P13P3/4K5/3P4A1P13X1 0",
}
#: ``src/tests/MoveGenTests.cpp``, "Move generation many captures" (the side is added by the test: 0 or 1)
CAPTURES = "x32p2a3ka33/p11p33P43/2P37/7p21P1/4s2S11p11P4/4P11p11S11/3A11P12P31/p12A2K1s12X1"
#: two Pharaohs and two Sphinxes, in both formats (Khet2-AI writes an empty rank as nothing)
BARE = "xs4ps4/10/10/10/10/10/10/4Pn4Xn r 0"
BARE_KHET2AI = "x34k4///////4K4X1 1"


def khet2ai(ranks: dict[int, str], side: str = "0") -> str:
    """A Khet2-AI string with the two Sphinxes and Pharaohs of ``BARE`` on ranks 8 and 1 (unless ``ranks`` gives
    them), ``ranks`` the other ranks by number (empty when not given)."""
    rows = {8: "x34k4", 1: "4K4X1", **ranks}
    return "/".join(rows.get(rank, "") for rank in range(8, 0, -1)) + f" {side}"


def random_game(setup: str, rng: random.Random, plies: int, **options: object) -> KhetState:
    """Random play from ``setup`` for up to ``plies`` plies, stopping before the game ends."""
    state = new(setup, **options)
    for _ in range(plies):
        after = state.copy()
        after.play(rng.choice(state.legal_moves()))
        if after.is_over():
            break
        state = after
    return state


# ----- Khet2-AI's own strings -----------------------------------------------------------------------------
@pytest.mark.parametrize("setup", SETUPS)
def test_khet2ai_setup_strings_are_our_setups(setup: str) -> None:
    theirs = KHET2AI_SETUPS[setup]
    assert load().state_from_position(theirs).position() == setup_position(setup)
    assert new(setup).position(format="khet2ai") == theirs


@pytest.mark.parametrize(("board", "silver", "red"), [
    (KHET2AI_SETUPS["classic"].split()[0], 77, 77),
    (KHET2AI_SETUPS["dynasty"].split()[0], 70, 70),
    (KHET2AI_SETUPS["imhotep"].split()[0], 73, 73),
    (CAPTURES, 79, 71),
])
def test_khet2ai_move_generation_counts_hold_on_our_reading(board: str, silver: int, red: int) -> None:
    # src/tests/MoveGenTests.cpp: RunForPlayer(position, Silver / Red, expected number of moves); the same counts
    # under either reading of a Scarab swap onto a reserved square (Khet2-AI checks only the Scarab's own square)
    for strict in (True, False):
        game = load(strict_swap_reserved=strict)
        assert len(game.state_from_position(f"{board} 0").legal_moves()) == silver
        assert len(game.state_from_position(f"{board} 1").legal_moves()) == red


def test_the_many_captures_position_read_square_by_square() -> None:
    state = load().state_from_position(f"{CAPTURES} 1")
    assert state.player == 1 and state.quiet_plies == 0
    pieces = {p["square"]: (p["kind"], p["colour"], p["facing"]) for p in state.pieces()}
    # rank 1, 'p12A2K1s12X1': a Red Pyramid 1 (N), 2 empty, a Silver Anubis 2 (E), the Silver Pharaoh (no digit),
    # 1 empty, a Red Scarab 1 ('\\', written N), 2 empty, the Silver Sphinx 1 (N)
    assert {sq: pieces[sq] for sq in pieces if sq.endswith("1")} == {
        "a1": ("pyramid", 1, "N"), "d1": ("anubis", 0, "E"), "e1": ("pharaoh", 0, "N"), "g1": ("scarab", 1, "N"),
        "j1": ("sphinx", 0, "N")}
    # rank 8, 'x32p2a3ka33': the Red Sphinx 3 (S), 2 empty, a Red Pyramid 2 (E), a Red Anubis 3 (S), the Red
    # Pharaoh (read facing S, as in our setups), a Red Anubis 3 (S), 3 empty
    assert {sq: pieces[sq] for sq in pieces if sq.endswith("8")} == {
        "a8": ("sphinx", 1, "S"), "d8": ("pyramid", 1, "E"), "e8": ("anubis", 1, "S"), "f8": ("pharaoh", 1, "S"),
        "g8": ("anubis", 1, "S")}
    # rank 4, '4s2S11p11P4': a Red Scarab 2 ('/', E) on e4, a Silver Scarab 1 ('\\', N) on f4, a Red Pyramid 1 (N)
    # on h4, a Silver Pyramid 4 (W) on j4
    assert {sq: pieces[sq] for sq in pieces if sq.endswith("4")} == {
        "e4": ("scarab", 1, "E"), "f4": ("scarab", 0, "N"), "h4": ("pyramid", 1, "N"), "j4": ("pyramid", 0, "W")}


def test_the_orientation_grid_of_khet2ai_notes_matches_the_digits() -> None:
    # notation.txt prints the standard board's orientations as digits (0 for an empty square or the Pharaoh), rank 8
    # first; its ranks 8 to 2 are the digits we write (its rank 1 row, '0004101001', is one file out of step with
    # its own pieces row '..PAKA...X', so it is left out)
    notes = ["3000303200", "0030000000", "0004000000", "1030120204", "2040210103", "0000002000", "0000000100"]
    state = new("classic")
    grid = {p["square"]: "0" if p["kind"] == "pharaoh" else str("NESW".index(p["facing"]) + 1) for p in state.pieces()}
    for i, row in enumerate(notes):
        rank = 8 - i
        assert "".join(grid.get(f"{file}{rank}", "0") for file in "abcdefghij") == row


def test_digits_are_clockwise_from_north_for_every_kind() -> None:
    # Board::ParseLine: orientation = digit - 1, Orientation { Up, Right, Down, Left }; Rotate adds +1 for a
    # clockwise turn (Globals.h: Rotations = { 1 /* Clockwise */, -1 })
    for digit, facing in zip("1234", "NESW", strict=True):
        state = load().state_from_position(khet2ai({3: f"1P{digit}A{digit}7"}))
        pieces = {p["square"]: p["facing"] for p in state.pieces()}
        assert pieces["b3"] == facing and pieces["c3"] == facing
        state.play(state.parse_move("b3+"))
        assert state.position(format="khet2ai").split("/")[5] == f"1P{int(digit) % 4 + 1}A{digit}7"


def test_a_scarab_has_two_mirrors_and_four_digits() -> None:
    # Khet2-AI keeps four facings for a Scarab; its reflection table (Globals.h) treats 1 and 3, 2 and 4 alike
    state = load().state_from_position(khet2ai({3: "1S31s46"}))
    assert {p["square"]: p["facing"] for p in state.pieces() if p["kind"] == "scarab"} == {"b3": "N", "d3": "E"}
    assert state.position(format="khet2ai") == khet2ai({3: "1S11s26"})


def test_the_side_to_move_and_an_empty_rank() -> None:
    state = load().state_from_position(BARE_KHET2AI)
    assert state.position() == BARE and state.player == 1
    assert state.position(format="khet2ai") == BARE_KHET2AI
    assert load().state_from_position(BARE).position(format="khet2ai") == BARE_KHET2AI


# ----- round trips ------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SETUPS), st.randoms(use_true_random=False), st.integers(0, 120), st.booleans())
def test_random_positions_round_trip_through_both_formats(setup: str, rng: random.Random, plies: int,
                                                          strict: bool) -> None:
    game = load(strict_swap_reserved=strict)
    state = random_game(setup, rng, plies, strict_swap_reserved=strict)
    ours = state.position()
    theirs = state.position(format="khet2ai")
    assert position_format(ours) == "damier" and position_format(theirs) == "khet2ai"
    from_theirs = game.state_from_position(theirs)
    # what Khet2-AI's string cannot carry: the quiet-ply count (read as 0)
    assert from_theirs.position() == re.sub(r" \d+$", " 0", ours)
    assert from_theirs.position(format="khet2ai") == theirs
    assert game.state_from_position(ours).position(format="khet2ai") == theirs
    assert from_theirs.player == state.player
    assert sorted(from_theirs.legal_moves()) == sorted(state.legal_moves())
    assert from_theirs.key() == state.key()


@pytest.mark.parametrize("setup", SETUPS)
def test_the_start_of_a_state_read_from_khet2ai_is_in_our_format(setup: str) -> None:
    state = load().state_from_position(KHET2AI_SETUPS[setup])
    assert state.start == setup_position(setup)
    state.play(state.parse_move("j1-"))
    record = state.to_json()
    replayed = load().state_from_json(record)
    assert replayed.position() == state.position()


# ----- formats and errors -----------------------------------------------------------------------------------
def test_formats_are_told_apart_by_the_side_to_move_or_the_board() -> None:
    assert position_format(KHET2AI_SETUPS["classic"]) == "khet2ai"
    assert position_format(setup_position("classic")) == "damier"
    assert position_format("xs4pn4/10/10/10/10/10/10/4Pn4Xn -P 0") == "damier"
    assert position_format(KHET2AI_SETUPS["classic"].split()[0]) == "khet2ai"  # no side: the board tells
    assert position_format(setup_position("classic").split()[0]) == "damier"
    assert position_format("nonsense") is None
    assert position_words([*KHET2AI_SETUPS["classic"].split(), "j1-", "a8-"]) == 2
    assert position_words([*setup_position("classic").split(), "j1-"]) == 3


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("nonsense", "either format"),
        (BARE_KHET2AI + " 12", "a Khet2-AI position string has 2 fields"),
        ("x34k4//////4K4X1 0", "has 8 ranks"),
        (khet2ai({}, "2"), "0 (Silver) or 1 (Red), not '2'"),
        (khet2ai({1: "4KX1"}), "rank 1 ('4KX1') covers 6 squares, not 10"),
        (khet2ai({1: "4K5X1"}), "covers more than 10 squares"),
        (khet2ai({1: "4K4X"}), "needs its facing digit 1-4"),
        (khet2ai({1: "4K4X5"}), "needs its facing digit 1-4"),
        (khet2ai({1: "4K04X1"}), "'0' is not a piece or a count"),
        (khet2ai({1: "4K4Y1"}), "'Y' is not a piece or a count"),
        (khet2ai({1: "4K4X2"}), "Silver's Sphinx faces E; it may face N or W"),
        (khet2ai({1: "9X1"}), "Silver needs exactly one Pharaoh"),
        (khet2ai({1: "P13K4X1"}), "a1 is reserved for Red"),
        (khet2ai({7: "1P1P1P1P1P1P1P1P11"}), "Silver has 8 Pyramids"),
        (khet2ai({1: "4K14X1"}), "covers more than 10 squares"),  # the Pharaoh takes no digit: K1 is K, 1 empty
    ],
)
def test_bad_khet2ai_strings_raise_parse_error(text: str, fragment: str) -> None:
    with pytest.raises(damier.ParseError, match=re.escape(fragment)):
        load().state_from_position(text)


def test_a_string_in_neither_format_names_both() -> None:
    with pytest.raises(damier.ParseError) as raised:
        load().state_from_position("hello world")
    message = str(raised.value)
    assert "a Khet position has 3 fields in damier's format" in message and "or 2 in Khet2-AI's" in message


def test_unknown_format_and_a_finished_game_are_clear_errors() -> None:
    state = new()
    with pytest.raises(damier.DamierError, match="unknown position format 'fen'; formats: damier, khet2ai"):
        state.position(format="fen")
    state.play(state.parse_move("j1-"))
    finished = load().state_from_position("xs9/10/10/10/10/10/10/4Pn4Xn -P 0")
    with pytest.raises(damier.StateError, match="the game is over"):
        finished.position(format="khet2ai")
    assert notation.FORMATS == ("damier", "khet2ai")
