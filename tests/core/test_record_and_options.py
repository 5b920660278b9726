"""Game records (JSON round trip, atomic files, replay checks), game options, square names and load errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import damier
from damier.core.grid import MAX_SIDE, parse_square, square_name
from damier.core.options import Option, OptionSet, parse_option_pairs
from damier.core.record import Record

ROWS = Option("rows", int, 8, "rows", None, 2, 26)
SETUP = Option("setup", str, "classic", "the setup", ("classic", "imhotep"))
FLAG = Option("flag", bool, False, "a switch")
NAME = Option("name", str, "x", "a free name")
OPTIONS = OptionSet((ROWS, SETUP, FLAG, NAME))


def finished_state(seed: int = 0) -> damier.State:
    """A complete 3x3 game of uniformly random moves."""
    import random

    rng = random.Random(seed)
    state = damier.load("atoms", rows=3, cols=3).new_state(seed)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return state


def unfinished_state() -> damier.State:
    state = damier.load("atoms", rows=3, cols=4).new_state(7)
    for square in ["A1", "C3", "B2"]:
        state.play(state.parse_move(square))
    return state


# ----- records --------------------------------------------------------------------------------------------
def test_record_round_trips_through_json() -> None:
    record = Record.from_state(finished_state(), players=["alice", "bob"])
    text = json.dumps(record.to_json())
    again = Record.from_json(json.loads(text))
    assert again == record
    assert again.to_json() == record.to_json()
    assert again.result is not None and again.finished_at is not None


def test_record_of_an_unfinished_game_has_no_result() -> None:
    record = Record.from_state(unfinished_state())
    assert record.result is None and record.finished_at is None
    assert record.moves == ["A1", "C3", "B2"]
    assert record.players == ["Red", "Blue"]  # the game's seat names by default
    assert Record.from_json(record.to_json()) == record


def test_record_replays_to_the_same_state() -> None:
    state = finished_state(3)
    replayed = Record.from_json(Record.from_state(state).to_json()).replay()
    assert replayed.position() == state.position()
    assert replayed.history == state.history
    assert replayed.outcome() == state.outcome()


def test_record_from_a_start_position_replays() -> None:
    game = damier.load("atoms", rows=3, cols=3)
    start = "1r,.,./.,.,./.,.,1b r rb 2"
    state = game.state_from_position(start)
    state.play(state.parse_move("B2"))
    record = Record.from_state(state)
    assert record.start == start
    assert Record.from_json(record.to_json()).replay().position() == state.position()


def test_replay_rejects_a_result_that_contradicts_the_moves() -> None:
    state = finished_state(1)
    data = Record.from_state(state).to_json()
    outcome = state.outcome()
    assert outcome is not None
    data["result"]["winner"] = 1 - outcome.winner
    with pytest.raises(damier.RecordError, match="moves lead to"):
        Record.from_json(data).replay()


def test_replay_rejects_a_result_for_an_unfinished_game() -> None:
    data = Record.from_state(unfinished_state()).to_json()
    data["result"] = {"winner": 0, "returns": [1.0, -1.0], "reason": "Red wins"}
    with pytest.raises(damier.RecordError, match="in progress"):
        Record.from_json(data).replay()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"moves": ["A1", "A1", "A1"]}, "move 2 ('A1') does not replay"),
        ({"moves": ["A1", "Z9"]}, "move 2 ('Z9') does not replay"),
        ({"game": "chess"}, "cannot be loaded"),
        ({"options": {"rows": 1, "cols": 3}}, "cannot be loaded"),
        ({"start": "nonsense"}, "bad start position"),
    ],
)
def test_replay_rejects_bad_records(change: dict[str, Any], words: str) -> None:
    data = Record.from_state(unfinished_state()).to_json()
    data.update(change)
    with pytest.raises(damier.RecordError) as caught:
        Record.from_json(data).replay()
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ([1, 2], "must be a JSON object, not list"),
        ({"format": "other"}, "not a damier record"),
        ({"format": "damier.record", "version": 99}, "unsupported record version 99"),
        ({"format": "damier.record", "version": 1, "options": {}, "moves": [], "players": []}, "'game'"),
        ({"format": "damier.record", "version": 1, "game": "atoms", "options": [], "moves": [], "players": []},
         "'options'"),
        ({"format": "damier.record", "version": 1, "game": "atoms", "options": {}, "moves": [1], "players": []},
         "strings"),
        ({"format": "damier.record", "version": 1, "game": "atoms", "options": {}, "moves": [], "players": [],
          "seed": True}, "'seed'"),
        ({"format": "damier.record", "version": 1, "game": "atoms", "options": {}, "moves": [], "players": [],
          "result": {"winner": "red"}}, "result"),
    ],
)
def test_from_json_says_what_is_wrong(obj: Any, words: str) -> None:
    with pytest.raises(damier.RecordError) as caught:
        Record.from_json(obj)
    assert words in str(caught.value)


def test_save_writes_the_record_atomically(tmp_path: Path) -> None:
    record = Record.from_state(finished_state())
    path = tmp_path / "games" / "deep" / "game.json"
    record.save(path)
    assert Record.load(path) == record
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.json"]  # no temporary file left


def test_save_replaces_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    Record.from_state(unfinished_state()).save(path)
    finished = Record.from_state(finished_state())
    finished.save(path)
    assert Record.load(path) == finished
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_failed_save_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    good = Record.from_state(unfinished_state())
    good.save(path)
    before = path.read_bytes()
    broken = Record(game="atoms", options={"rows": object()}, moves=["A1"])  # not JSON serialisable
    with pytest.raises(TypeError):
        broken.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "no such file"),
        ("{not json", "is not valid JSON (line 1"),
        ('{"format": "damier.state"}', "not a damier record"),
    ],
)
def test_load_reports_missing_and_malformed_files(tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(damier.RecordError) as caught:
        Record.load(path)
    assert words in str(caught.value)


def test_load_reports_a_directory_or_binary_file(tmp_path: Path) -> None:
    with pytest.raises(damier.RecordError, match="cannot read"):
        Record.load(tmp_path)
    binary = tmp_path / "x.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(damier.RecordError, match="cannot read"):
        Record.load(binary)


# ----- options --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("Yes", True), (" on ", True), ("1", True), ("false", False), ("NO", False), ("off", False),
     ("0", False), (True, True), (False, False)],
)
def test_bool_options_parse_words(text: Any, value: bool) -> None:
    assert FLAG.coerce(text) is value


@pytest.mark.parametrize("text", ["maybe", "", "2", 1, None])
def test_bool_options_reject_other_values(text: Any) -> None:
    with pytest.raises(damier.OptionError, match=r"option 'flag'.*expected true or false"):
        FLAG.coerce(text)


@given(st.integers(min_value=2, max_value=26))
def test_int_options_accept_their_range_as_ints_and_strings(n: int) -> None:
    assert ROWS.coerce(n) == n
    assert ROWS.coerce(f" {n} ") == n


@pytest.mark.parametrize("value", [1, 27, "0", "-3", "100"])
def test_int_options_reject_values_out_of_range(value: Any) -> None:
    with pytest.raises(damier.OptionError, match=r"option 'rows': .* is out of range; expected an integer from 2 to"):
        ROWS.coerce(value)


@pytest.mark.parametrize("value", ["abc", "5.0", "", True, 5.0, None])
def test_int_options_reject_non_integers(value: Any) -> None:
    with pytest.raises(damier.OptionError, match=r"option 'rows': .* is not accepted; expected an integer"):
        ROWS.coerce(value)


def test_choice_options_accept_only_their_choices() -> None:
    assert SETUP.coerce(" imhotep ") == "imhotep"
    with pytest.raises(damier.OptionError) as caught:
        SETUP.coerce("dynasty")
    assert "option 'setup': 'dynasty' is not accepted; expected one of 'classic', 'imhotep'" in str(caught.value)
    with pytest.raises(damier.OptionError):
        SETUP.coerce(3)


def test_str_options_accept_any_text() -> None:
    assert NAME.coerce("  hello ") == "hello"
    with pytest.raises(damier.OptionError, match="expected a str"):
        NAME.coerce(42)


def test_validate_completes_with_defaults() -> None:
    assert OPTIONS.validate({"rows": "5", "flag": "yes"}, "demo") == {
        "rows": 5, "setup": "classic", "flag": True, "name": "x"}
    assert OPTIONS.validate({}, "demo") == OPTIONS.defaults()


def test_validate_names_the_known_options_for_an_unknown_one() -> None:
    with pytest.raises(damier.OptionError) as caught:
        OPTIONS.validate({"colour": "red"}, "demo")
    assert str(caught.value) == "demo has no option 'colour'; its options are: rows, setup, flag, name"
    with pytest.raises(damier.OptionError, match=r"its options are: \(none\)"):
        OptionSet().validate({"x": 1}, "bare")


def test_option_json_describes_the_accepted_values() -> None:
    assert ROWS.to_json() == {"name": "rows", "type": "int", "default": 8, "min": 2, "max": 26, "help": "rows"}
    assert SETUP.to_json()["choices"] == ["classic", "imhotep"]
    assert FLAG.accepted() == "true or false"


def test_parse_option_pairs_reads_key_value_pairs() -> None:
    assert parse_option_pairs(["rows=9", " cols = 6 ", "name=a=b", "empty="]) == {
        "rows": "9", "cols": "6", "name": "a=b", "empty": ""}
    assert parse_option_pairs([]) == {}


@pytest.mark.parametrize("pair", ["rows", "=3", " =3", ""])
def test_parse_option_pairs_rejects_malformed_pairs(pair: str) -> None:
    with pytest.raises(damier.OptionError) as caught:
        parse_option_pairs(["cols=3", pair])
    assert f"option {pair!r} is not of the form key=value" in str(caught.value)


# ----- square names ---------------------------------------------------------------------------------------
def test_square_names_run_from_the_top_left() -> None:
    assert [square_name(i, 3) for i in range(9)] == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    assert square_name(26 * 26 - 1, 26) == "Z26"


@given(st.integers(1, MAX_SIDE), st.integers(1, MAX_SIDE), st.data())
def test_square_names_round_trip(rows: int, cols: int, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, rows * cols - 1))
    name = square_name(index, cols)
    assert parse_square(name, rows, cols) == index
    assert parse_square(f" {name.lower()} ", rows, cols) == index


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("D1", "square 'D1' is off the 3x3 board; squares run from A1 to C3"),
        ("A4", "off the 3x3 board"),
        ("A0", "off the 3x3 board"),
        ("AA1", "'AA1' is not a square: write a column letter and a row number, like A1 or C3"),
        ("1A", "is not a square"),
        ("A100", "is not a square"),
        ("", "is not a square"),
        (None, "None is not a square"),
    ],
)
def test_parse_square_errors_say_what_is_accepted(text: Any, words: str) -> None:
    with pytest.raises(damier.ParseError) as caught:
        parse_square(text, 3, 3)
    assert words in str(caught.value)


# ----- load -----------------------------------------------------------------------------------------------
def test_load_an_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(damier.UnknownGameError) as caught:
        damier.load("chess")
    assert isinstance(caught.value, ValueError)
    known = ", ".join(g.name for g in damier.games())
    assert "khet" in known
    assert str(caught.value) == f"unknown game 'chess'; known games: {known}"


def test_load_accepts_any_case_and_spacing_of_a_name() -> None:
    assert damier.load(" Atoms ", rows=4) == damier.load("atoms", rows=4)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rows": 1}, "option 'rows': 1 is out of range; expected an integer from 2 to 26"),
        ({"cols": 27}, "option 'cols': 27 is out of range"),
        ({"players": 9}, "option 'players': 9 is out of range; expected an integer from 2 to 8"),
        ({"rows": "x"}, "option 'rows': 'x' is not accepted"),
        ({"colour": "red"}, "atoms has no option 'colour'; its options are: rows, cols, players"),
    ],
)
def test_load_rejects_bad_options_with_option_error(options: dict[str, Any], words: str) -> None:
    with pytest.raises(damier.OptionError) as caught:
        damier.load("atoms", **options)
    assert words in str(caught.value)


def test_load_parses_option_strings() -> None:
    game = damier.load("atoms", **parse_option_pairs(["rows=3", "cols=4", "players=3"]))
    assert game.options == {"rows": 3, "cols": 4, "players": 3}
    assert game.num_players == 3 and game.board_shape == (3, 4)
