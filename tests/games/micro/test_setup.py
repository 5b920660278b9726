"""Micro Robots boards: one test per rule of the Board section of ``shared/rules/micro_robots.md`` (tiles, sides,
arrangements, side B, random boards, board ids), checked against the naive reference where it can be."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damier.core.errors import ParseError
from damier.games.micro import kernel, setup
from tests.games.micro import reference
from tests.jit import needs_jit

SHARED_TILES = Path(__file__).resolve().parents[4] / "shared" / "data" / "micro_robots_tiles.json"
B_DATA = Path(setup.__file__).parent / "data" / "side_b.json"
SIDE_B_SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "micro_side_b.py"

orders = st.permutations([1, 2, 3, 4]).map(tuple)
turns = st.tuples(*[st.integers(0, 3)] * 4)


def names(board: np.ndarray) -> reference.Board:
    return [setup.square_text(int(code)) for code in board]


def side_tiles_as_text(side: str) -> dict[int, list[list[str]]]:
    return {t + 1: [[setup.square_text(int(c)) for c in row] for row in tile]
            for t, tile in enumerate(setup.side_tiles(side))}


def arrangement_id(side: str, order: tuple[int, ...], quarter_turns: tuple[int, ...]) -> str:
    return f"{side}-{''.join(map(str, order))}-{''.join(map(str, quarter_turns))}"


# ----- the board ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("side", setup.SIDES)
def test_a_side_is_four_3x3_tiles_showing_every_colour_number_pair_once(side: str) -> None:
    tiles = side_tiles_as_text(side)
    assert sorted(tiles) == [1, 2, 3, 4]
    assert all(len(tile) == 3 and all(len(row) == 3 for row in tile) for tile in tiles.values())
    squares = [sq for tile in tiles.values() for row in tile for sq in row]
    assert len(squares) == 36 and set(squares) == reference.ALL_PAIRS


def test_side_a_is_the_rules_data() -> None:
    assert side_tiles_as_text("A") == reference.SIDE_A
    if SHARED_TILES.exists():  # the shared data next to the repository, when present
        shared = json.loads(SHARED_TILES.read_text("utf-8"))
        assert side_tiles_as_text("A") == {int(k): v for k, v in shared["tiles"].items()}


@settings(max_examples=60, deadline=None)
@given(order=orders, quarter_turns=turns)
def test_an_arrangement_lays_the_tiles_nw_ne_sw_se_each_turned_clockwise(
    order: tuple[int, ...], quarter_turns: tuple[int, ...]
) -> None:
    board = setup.parse_board_id(arrangement_id("A", order, quarter_turns))
    assert names(board) == reference.lay(reference.SIDE_A, order, quarter_turns)
    board_b = setup.parse_board_id(arrangement_id("B", order, quarter_turns))
    assert names(board_b) == reference.lay(side_tiles_as_text("B"), order, quarter_turns)


def test_the_first_arrangement_of_side_a_reads_row_by_row_from_the_top_left() -> None:
    rows = [names(setup.parse_board_id("A-1234-0000"))[6 * r : 6 * r + 6] for r in range(6)]
    assert rows[0] == ["R5", "G6", "R1", "P1", "W4", "P2"]
    assert rows[5] == ["B5", "Y5", "R4", "B3", "Y4", "B1"]
    turned = names(setup.parse_board_id("A-1234-1000"))  # tile 1 a quarter clockwise: W3 G2 R5 on top
    assert turned[:3] == ["W3", "G2", "R5"] and turned[12:15] == ["Y3", "Y1", "R1"]


@pytest.mark.parametrize("side", setup.SIDES)
def test_a_side_has_6144_arrangements_all_different(side: str) -> None:
    everything = setup.all_arrangements(side)
    assert everything.shape == (6144, 36) == (len(list(reference.arrangements())), 36)
    assert len({row.tobytes() for row in everything}) == 6144
    assert all(sorted(row) == list(range(36)) for row in everything)
    index = 1234
    assert (everything[index] == setup.parse_board_id(setup.arrangement_id(side, index))).all()


def test_every_arrangement_of_side_b_is_connected() -> None:
    everything = setup.all_arrangements("B")
    assert all(kernel.is_connected(board) for board in everything)
    rng = random.Random(5)
    for index in rng.sample(range(len(everything)), 40):  # the reference on a sample: it is slow
        assert reference.connected(names(everything[index]))


def test_side_b_data_records_its_seed() -> None:
    data = json.loads(B_DATA.read_text("utf-8"))  # its facts are checked by ``damier micro stats`` (tests/cli)
    assert data["side"] == "B" and isinstance(data["seed"], int)
    assert f"--seed {data['seed']}" in data["note"]


@needs_jit("the generator's local search takes minutes")
def test_side_b_is_made_again_by_its_script_from_its_seed() -> None:
    spec = importlib.util.spec_from_file_location("micro_side_b", SIDE_B_SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = json.loads(B_DATA.read_text("utf-8"))
    codes = script.generate(data["seed"])
    assert [setup.square_text(int(c)) for c in codes] == [
        sq for t in "1234" for row in data["tiles"][t] for sq in row]


@pytest.mark.parametrize("side", setup.SIDES)
def test_arrangement_diameters_agree_with_the_reference(side: str) -> None:
    everything = setup.all_arrangements(side)
    rng = random.Random(11)
    sample = rng.sample(range(len(everything)), 12)
    diameters = np.zeros(len(sample), dtype=np.int64)
    kernel.board_statistics(everything[sample], diameters, np.zeros(40, dtype=np.int64))
    assert [reference.diameter(names(everything[i])) for i in sample] == diameters.tolist()


# ----- random boards --------------------------------------------------------------------------------------
def test_more_than_half_of_plain_shuffles_leave_a_square_unreachable() -> None:
    rng = random.Random(3)
    pairs = sorted(reference.ALL_PAIRS)
    disconnected = 0
    for _ in range(200):
        rng.shuffle(pairs)
        board = list(pairs)
        disconnected += not reference.connected(board)
        assert kernel.is_connected(np.array([setup.square_code(sq) for sq in board], dtype=np.int8)) == (
            reference.connected(board))
    assert 0.45 < disconnected / 200 < 0.65


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**18 - 1))
def test_a_random_board_is_connected_and_reproducible_by_its_seed(seed: int) -> None:
    board = setup.random_board(seed)
    assert sorted(board.tolist()) == list(range(36))
    assert reference.connected(names(board))
    assert (setup.parse_board_id(f"random:{seed}") == board).all()
    assert (setup.random_board(seed) == board).all()


def test_random_boards_of_different_seeds_differ() -> None:
    assert len({setup.random_board(seed).tobytes() for seed in range(50)}) == 50


# ----- board ids ------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(side=st.sampled_from(setup.SIDES), order=orders, quarter_turns=turns)
def test_an_arrangement_id_is_printed_as_it_is_parsed(
    side: str, order: tuple[int, ...], quarter_turns: tuple[int, ...]
) -> None:
    text = arrangement_id(side, order, quarter_turns)
    assert setup.board_id_of(text) == text
    assert setup.board_id_of(f"  {text.lower()} ") == text
    board = setup.parse_board_id(text)
    assert setup.board_id_of(setup.custom_id(board)) == setup.custom_id(board)
    assert (setup.parse_board_id(setup.custom_id(board)) == board).all()


@settings(max_examples=40, deadline=None)
@given(pairs=st.permutations(range(36)))
def test_any_board_has_a_custom_id_that_parses_back(pairs: list[int]) -> None:
    board = np.array(pairs, dtype=np.int8)
    text = setup.custom_id(board)
    assert text.startswith("custom:") and len(text.split(".")) == 6
    assert (setup.parse_board_id(text) == board).all()
    assert (setup.parse_board_id(text.lower()) == board).all()


def test_a_random_board_id_is_its_seed() -> None:
    assert setup.board_id_of("random:42") == "random:42"
    assert setup.board_id_of("RANDOM:0042") == "random:42"
    assert (setup.parse_board_id("random:0042") == setup.parse_board_id("random:42")).all()


@pytest.mark.parametrize(("text", "words"), [
    ("C-1234-0000", "is not a board id: write SIDE-ORDER-TURNS like A-1234-0000"),
    ("A-1235-0000", "is not a board id"),
    ("A-1123-0000", "the tile order must use each of the tiles 1, 2, 3, 4 once"),
    ("A-1234-0004", "is not a board id"),
    ("A-1234", "is not a board id"),
    ("", "is not a board id"),
    ("random:", "a random board id is random:<seed>, a whole number up to 18 digits"),
    ("random:-3", "a random board id is random:<seed>"),
    ("random:\u00b2", "a random board id is random:<seed>"),
    ("random:1234567890123456789", "up to 18 digits"),
    ("custom:R5G6", "a board has 6 rows of 6 squares"),
    ("custom:" + ".".join(["R5G6R1P1W4P2"] * 6), "a board shows every colour-number pair once; this one lacks"),
    ("custom:" + ".".join(["R5G6R1P1W4P"] * 6), "row 1 of the board must have 6 squares"),
    ("custom:" + ".".join(["R5G6R1P1W4Z2"] * 6), "'Z2' is not a square"),
])
def test_a_bad_board_id_is_a_parse_error_saying_what_is_accepted(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        setup.parse_board_id(text)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_board_id_must_be_text() -> None:
    with pytest.raises(ParseError, match="a board id is a string, not int"):
        setup.parse_board_id(7)  # type: ignore[arg-type]
