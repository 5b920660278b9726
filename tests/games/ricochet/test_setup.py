"""Ricochet Robots boards: one test per rule of the Board section of ``shared/rules/ricochet.md`` and the data file's
notes (16 sides in four groups, one side per group, the placement turning a side clockwise, walls listed once but
blocking both ways and across the seams, the outer walls, the centre block, 17 targets), facts checked by hand,
every legal board against the naive reference, board ids and square names."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import damier
from damier.core.errors import OptionError, ParseError
from damier.games.ricochet import setup
from tests.games.ricochet import reference

N, E, S, W = setup.N, setup.E, setup.S, setup.W
LEGAL = ["".join(g + s for g, s in zip(order, sides, strict=True))
         for order in itertools.permutations("1234") for sides in itertools.product("ABCD", repeat=4)]


def walls_at(board: setup.Board, name: str) -> str:
    """The letters of the walls around a square, e.g. ``NE``."""
    cell = setup.parse_cell(name)
    return "".join(letter for letter, bit in zip("NESW", setup.BITS, strict=True) if board.walls[cell] & bit)


def target_at(board: setup.Board, name: str) -> str | None:
    target = board.target_at(setup.parse_cell(name))
    return None if target is None else target.name


# ----- the data -----------------------------------------------------------------------------------------
def test_the_shipped_data_is_the_shared_data_file() -> None:
    shipped = json.loads(reference.SHIPPED.read_text("utf-8"))
    assert shipped["sides"] == setup.sides()
    if reference.SHARED.exists():  # next to the repository, when present
        assert json.loads(reference.SHARED.read_text("utf-8")) == shipped


def test_sixteen_sides_in_four_groups_each_with_one_target_of_each_colour_and_the_vortex_in_group_4() -> None:
    sides = setup.sides()
    assert sorted(sides) == sorted(f"{g}{s}" for g in "1234" for s in "ABCD")
    for name, side in sides.items():
        assert side["group"] == int(name[0])
        colours = sorted(colour for _, _, colour, _ in side["targets"])
        assert colours == (["any"] if name[0] == "4" else []) + sorted(setup.COLOURS), name
        assert [7, 7, "NESW"] in side["walls"], name  # the quadrant's share of the centre block


def test_driftingdroids_numbers_the_sides_1a_2a_3a_4a_1b_and_so_on() -> None:
    assert setup.driftingdroids_sides() == [f"{g}{s}" for s in "ABCD" for g in "1234"]


# ----- assembly, checked by hand ------------------------------------------------------------------------
def test_side_1a_as_the_north_west_quadrant_is_the_drawing_itself() -> None:
    board = setup.build("1A2A3A4A")
    assert "E" in walls_at(board, "b1") and "W" in walls_at(board, "c1")  # (1, 0) E
    assert target_at(board, "e2") == "red circle" and walls_at(board, "e2") == "NW"  # (4, 1) NW
    assert "S" in walls_at(board, "e1") and "E" in walls_at(board, "d2")  # the same walls, seen from the other side
    assert target_at(board, "b3") == "green triangle" and walls_at(board, "b3") == "NE"
    assert target_at(board, "g4") == "yellow hexagon" and walls_at(board, "g4") == "ES"
    assert target_at(board, "d7") == "blue square" and walls_at(board, "d7") == "SW"
    assert "S" in walls_at(board, "a6") and "N" in walls_at(board, "a7")  # (0, 5) S


def test_side_1a_as_the_south_east_quadrant_is_turned_twice() -> None:
    board = setup.build("2A3A1A4A")  # (x, y) -> (15 - x, 15 - y); N -> S, E -> W
    assert "W" in walls_at(board, "o16") and "E" in walls_at(board, "n16")  # (1, 0) E
    assert target_at(board, "l15") == "red circle" and walls_at(board, "l15") == "ES"  # (4, 1) NW -> SE
    assert target_at(board, "o14") == "green triangle" and walls_at(board, "o14") == "SW"  # (1, 2) NE -> SW
    assert target_at(board, "j13") == "yellow hexagon" and walls_at(board, "j13") == "NW"
    assert target_at(board, "m10") == "blue square" and walls_at(board, "m10") == "NE"
    assert target_at(board, "e2") != "red circle"


def test_side_1a_as_the_north_east_and_south_west_quadrants_is_turned_once_and_three_times() -> None:
    north_east = setup.build("2A1A3A4A")  # (x, y) -> (15 - y, x); N -> E, E -> S
    assert "S" in walls_at(north_east, "p2") and "N" in walls_at(north_east, "p3")  # (1, 0) E
    assert target_at(north_east, "o5") == "red circle" and walls_at(north_east, "o5") == "NE"
    south_west = setup.build("2A3A4A1A")  # (x, y) -> (y, 15 - x); N -> W, E -> N
    assert "N" in walls_at(south_west, "a15") and "S" in walls_at(south_west, "a14")  # (1, 0) E
    assert target_at(south_west, "b12") == "red circle" and walls_at(south_west, "b12") == "SW"


def test_a_wall_on_a_quadrants_edge_blocks_across_the_seam() -> None:
    board = setup.build("4A1A2A3A")  # 4A NW: (7, 5) SE, the vortex, walled on the seam side
    assert target_at(board, "h6") == "vortex" and walls_at(board, "h6") == "ES"
    assert "W" in walls_at(board, "i6")  # the next quadrant's square
    south_west = setup.build("1A2A3A4A")  # 4A SW: (7, 5) SE -> (5, 8) EN
    assert target_at(south_west, "f9") == "vortex" and walls_at(south_west, "f9") == "NE"
    assert "S" in walls_at(south_west, "f8") and "W" in walls_at(south_west, "g9")


def test_a_robot_stops_at_a_seam_wall_from_either_side() -> None:
    # 4A1A2A3A: red on p6 and green on d6 slide towards the wall between h6 and i6
    state = damier.load("ricochet").state_from_position("4A1A2A3A.5F53FFF0.rc")
    state.play(state.parse_move("RW"))
    state.play(state.parse_move("GE"))
    assert [setup.cell_name(int(c)) for c in state.robots[:2]] == ["i6", "h6"]  # type: ignore[attr-defined]
    assert "RW" not in {state.move_to_str(m) for m in state.legal_moves()}


def test_the_centre_block_is_four_blocked_squares_walled_all_round() -> None:
    board = setup.build("1B2C3D4A")
    assert [setup.cell_name(c) for c in setup.CENTRE] == ["h8", "i8", "h9", "i9"]
    assert all(board.blocked[c] for c in setup.CENTRE) and int(board.blocked.sum()) == 4
    assert "S" in walls_at(board, "h7") and "S" in walls_at(board, "i7")
    assert "E" in walls_at(board, "g8") and "W" in walls_at(board, "j9") and "N" in walls_at(board, "i10")
    assert all(board.solid[c] == N | E | S | W for c in setup.CENTRE)


def test_the_outer_edge_is_walled_and_no_robot_passes_it() -> None:
    board = setup.build("3B4C1D2A")
    for i in range(16):
        assert board.walls[i] & N and board.solid[i] & N
        assert board.walls[i * 16 + 15] & E and board.solid[i * 16 + 15] & E
        assert board.walls[15 * 16 + i] & S and board.solid[15 * 16 + i] & S
        assert board.walls[i * 16] & W and board.solid[i * 16] & W
    inner = [c for c in range(256) if c % 16 not in (0, 15) and c // 16 not in (0, 15)]
    touching_centre = {c + d for c in setup.CENTRE for d in (-16, 1, 16, -1)} | set(setup.CENTRE)
    assert all(board.solid[c] == 0 for c in inner if c not in touching_centre)


def test_a_board_has_17_targets_16_coloured_ones_once_each_and_the_vortex() -> None:
    for board_id in ("1A2A3A4A", "4D3C2B1A", "2B1D4A3C"):
        board = setup.build(board_id)
        names = [t.name for t in board.targets]
        assert len(names) == 17 and len(set(names)) == 17 and names[-1] == "vortex"
        assert {(t.colour, t.shape) for t in board.targets[:16]} == {
            (c, s) for c in setup.COLOURS for s in ("circle", "triangle", "square", "hexagon")}
        assert not any(board.blocked[t.cell] for t in board.targets)


# ----- every legal board --------------------------------------------------------------------------------
def reference_walls(sides: tuple[str, ...]) -> np.ndarray:
    """The reference's walls as bits per cell: the edge, the centre block, and both sides of each listed wall."""
    board = reference.assemble(sides)
    bits = np.zeros(256, dtype=np.uint8)
    for y in range(16):
        for x in range(16):
            for letter, bit in zip("NESW", setup.BITS, strict=True):
                ahead = reference.step((x, y), letter)
                if (not reference.on_board(ahead) or ahead in reference.CENTRE or (x, y) in reference.CENTRE
                        or board.wall((x, y), ahead)):
                    bits[y * 16 + x] |= bit
    return bits


@pytest.mark.parametrize("board_id", ["1A2A3A4A", "4D3C2B1A", "2B1D4A3C", "3C4B1A2D"])
def test_boards_are_the_reference_boards(board_id: str) -> None:
    sides = setup.parse_sides(board_id)
    board = setup.build(board_id)
    assert (board.walls == reference_walls(sides)).all()
    expected = reference.assemble(sides).targets
    assert {(setup.cell_name(t.cell), t.colour, t.shape) for t in board.targets} == {
        (reference.square_name(sq), colour, shape) for sq, (colour, shape) in expected.items()}


def test_every_side_in_every_position_builds_the_reference_board_6144_boards() -> None:
    assert len(LEGAL) == len(set(LEGAL)) == 4 * 3 * 2 * 1 * 4**4 == 6144
    # the reference's walls of each side in each position as bits, then a board is its four parts, the edge and the
    # centre block
    parts = {}
    for side in setup.sides():
        for p, position in enumerate(reference.POSITIONS):
            walls, targets = reference.placed_side(side, position)
            bits = np.zeros(256, dtype=np.uint8)
            for pair in walls:
                a, b = sorted(pair)  # a is west or north of b
                across = a[1] == b[1]
                bits[a[1] * 16 + a[0]] |= E if across else S
                bits[b[1] * 16 + b[0]] |= W if across else N
            parts[side, p] = bits, {(sq[1] * 16 + sq[0], colour, shape) for sq, colour, shape in targets}
    frame = np.zeros(256, dtype=np.uint8)
    for y in range(16):
        for x in range(16):
            for letter, bit in zip("NESW", setup.BITS, strict=True):
                ahead = reference.step((x, y), letter)
                if not reference.on_board(ahead) or ahead in reference.CENTRE or (x, y) in reference.CENTRE:
                    frame[y * 16 + x] |= bit
    used = set()
    for board_id in LEGAL:
        board = setup.build(board_id)
        expected = frame.copy()
        shown: set[tuple[int, str, str]] = set()
        for p, side in enumerate(setup.parse_sides(board_id)):
            expected |= parts[side, p][0]
            shown |= parts[side, p][1]
            used.add((side, p))
        assert (board.walls == expected).all(), board_id
        assert {(t.cell, t.colour, t.shape) for t in board.targets} == shown, board_id
        assert len({(t.colour, t.shape) for t in board.targets}) == 17, board_id  # 16 pairs once each, the vortex
    assert len(used) == 16 * 4  # every side in every position


# ----- board ids ----------------------------------------------------------------------------------------
def test_a_board_id_is_four_sides_nw_ne_se_sw_one_of_each_group_in_any_order() -> None:
    assert setup.parse_sides("1A2B3C4D") == ("1A", "2B", "3C", "4D")
    assert setup.parse_sides(" 1b4c2a3a ") == ("1B", "4C", "2A", "3A")
    assert setup.parse_sides("1B, 4C, 2A, 3A") == ("1B", "4C", "2A", "3A")
    assert setup.build("1b4c2a3a").board_id == "1B4C2A3A"
    assert damier.load("ricochet", board="4d 3c 2b 1a").options["board"] == "4d 3c 2b 1a"


@pytest.mark.parametrize(("text", "words"), [
    ("1A2A3A", "'1A2A3A' is not a board: write four quadrant sides for NW, NE, SE, SW, each a group 1-4 and a "
               "side A-D, e.g. 1A2B3C4D"),
    ("1A2A3A4A1B", "is not a board"),
    ("1E2A3A4A", "'1E2A3A4A' is not a board"),
    ("5A2A3A4A", "is not a board"),
    ("1A1B3A4A", "a board takes one side of each group 1, 2, 3, 4; '1A1B3A4A' has groups 1, 1, 3, 4"),
    ("", "is not a board"),
])
def test_a_bad_board_id_is_a_parse_error_saying_what_is_accepted(text: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        setup.build(text)
    assert words in str(caught.value)


def test_the_board_option_takes_a_board_id_or_random() -> None:
    with pytest.raises(OptionError, match="option 'board': a board takes one side of each group"):
        damier.load("ricochet", board="2A2B3C4D")
    state = damier.load("ricochet", board="1A2A3A4A").new_state(3)
    assert state.puzzle.board.board_id == "1A2A3A4A"  # type: ignore[attr-defined]


def test_random_boards_take_one_side_of_each_group_in_a_random_order_of_quadrants() -> None:
    rng = random.Random(5)
    drawn = [setup.random_board_id(rng) for _ in range(2000)]
    assert all(reference.is_legal_board(setup.parse_sides(b)) for b in drawn)
    for position in range(4):
        assert {b[2 * position] for b in drawn} == set("1234")  # every group lands in every quadrant
        assert {b[2 * position + 1] for b in drawn} == set("ABCD")
    assert len(set(drawn)) > 1500
    game = damier.load("ricochet")
    seen = {game.new_state(seed).puzzle.board.board_id for seed in range(20)}  # type: ignore[attr-defined]
    assert len(seen) == 20 and all(reference.is_legal_board(setup.parse_sides(b)) for b in seen)


# ----- squares ------------------------------------------------------------------------------------------
def test_squares_are_named_a1_in_the_north_west_to_p16_in_the_south_east() -> None:
    assert [setup.cell_name(c) for c in (0, 15, 240, 255, 7 * 16 + 3)] == ["a1", "p1", "a16", "p16", "d8"]
    for cell in range(256):
        x, y = cell % 16, cell // 16
        assert setup.parse_cell(setup.cell_name(cell)) == cell == setup.parse_cell(f"{x},{y}")
        assert setup.cell_name(cell) == reference.square_name((x, y))
    assert setup.parse_cell(" P16 ") == 255


@pytest.mark.parametrize("text", ["q1", "a0", "a17", "16,0", "3", "", "a1b"])
def test_a_bad_square_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError, match=r"is not a square|x and y run from 0 to 15"):
        setup.parse_cell(text)


def test_driftingdroids_25_move_line_solves_on_the_reference_board_too() -> None:
    # 7650+42+E2302B12+C9: sides 4B 3B 2B 1A, red c15, green a4, blue l3, yellow c2, the blue triangle on j13
    board = reference.assemble(("4B", "3B", "2B", "1A"))
    robots = ((2, 14), (0, 3), (11, 2), (2, 1), None, None)
    puzzle = reference.Puzzle(board, robots, (9, 12))
    assert board.targets[(9, 12)] == ("blue", "triangle")
    moves = "gS gE gN gE gS gE bN bW bS bW bS bW bS bE gS gW gS gW gN bW gS gE bS bE bN"  # DriftingDroids' line
    line = [("RGBY".index(m[0].upper()), m[1].upper(), 0) for m in moves.split()]
    assert puzzle.solved(line) and not any(puzzle.solved(line[:k]) for k in range(len(line)))
