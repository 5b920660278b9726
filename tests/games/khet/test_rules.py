"""Khet 2.0: one test per rule of ``shared/rules/khet.md``, through the public API, plus property tests against
the naive reference of ``reference.py`` (written from the rules file alone)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.games.khet.rules import KhetState
from tests.games.khet import reference
from tests.games.khet.reference import board_of

SETUPS = ("classic", "imhotep", "dynasty")
CLASSIC = "xs3aspsasye2/2ys7/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/7Yn2/2YwAnPnAn3Xn s 0"


# ----- helpers ------------------------------------------------------------------------------------------
def load(**options: Any) -> damier.Game:
    return damier.load("khet", **options)


def new(setup: str = "classic", **options: Any) -> KhetState:
    state = load(setup=setup, **options).new_state()
    assert isinstance(state, KhetState)
    return state


def at(pieces: dict[str, str | None], side: str = "s", quiet: int = 0, **options: Any) -> KhetState:
    """The position of ``reference.board_of`` (Sphinxes j1 N / a8 S, Pharaohs e1 / f8 unless given)."""
    state = load(**options).state_from_position(board_of(pieces, side, quiet))
    assert isinstance(state, KhetState)
    return state


def play(state: KhetState, *moves: str) -> KhetState:
    for move in moves:
        state.play(state.parse_move(move))
    return state


def piece(state: KhetState, square: str) -> dict[str, Any] | None:
    return next((p for p in state.pieces() if p["square"] == square), None)


def legal(state: KhetState) -> set[str]:
    return {state.move_to_str(m) for m in state.legal_moves()}


def direction_leaving(beam: dict[str, Any], square: str) -> str:
    return str(beam["directions"][beam["squares"].index(square)])


def event(state: KhetState, kind: str) -> dict[str, Any]:
    """The event ``kind`` of the last move, without the board changes it carries (checked in test_state)."""
    found = next(e for e in state.events() if e["type"] == kind)
    return {key: value for key, value in found.items() if key != "changes"}


# ----- board, pieces, setups ----------------------------------------------------------------------------
def test_board_is_10_by_8_silver_against_red_silver_first() -> None:
    game = load()
    assert game.board_shape == (8, 10)
    assert game.num_players == 2
    assert game.player_names == ("Silver", "Red")
    assert game.new_state().player == 0


@pytest.mark.parametrize("setup", SETUPS)
def test_each_side_has_sphinx_pharaoh_two_anubis_seven_pyramids_two_scarabs(setup: str) -> None:
    for colour in (0, 1):
        kinds = [p["kind"] for p in new(setup).pieces() if p["colour"] == colour]
        assert sorted(kinds) == sorted(["sphinx", "pharaoh", "anubis", "anubis", "scarab", "scarab"] + ["pyramid"] * 7)


@pytest.mark.parametrize(
    ("setup", "position"),
    [
        ("classic", CLASSIC),
        ("imhotep", "xs3aspsasse2/10/3Yw2yn3/ynYs2Yese2yeYw/yeYw2Seyw2ynYs/3Ys2ye3/10/2SeAnPnAn3Xn s 0"),
        ("dynasty", "xs3ysasye3/5ps4/yn3ysasse3/ye1sn1Yw1Ye3/3yw1ye1Sn1Yw/3SeAnYn3Ys/4Pn5/3YwAnYn3Xn s 0"),
    ],
)
def test_setups_are_those_of_the_rules_file(setup: str, position: str) -> None:
    # checked by hand, square by square, against the rules file's lists
    assert new(setup).position() == position
    assert load().state_from_position(setup).position() == position


@pytest.mark.parametrize("setup", SETUPS)
def test_setups_are_180_degree_symmetric_with_the_sphinxes_facing_n_and_s(setup: str) -> None:
    board = reference.parse(new(setup).position())
    assert board.pieces["j1"].facing == "N" and board.pieces["a8"].facing == "S"
    for square, p in board.pieces.items():
        f, r = reference.FILES.index(square[0]), int(square[1])
        twin = board.pieces[f"{reference.FILES[9 - f]}{9 - r}"]
        assert (twin.kind, twin.colour) == (p.kind, 1 - p.colour)
        if p.kind == "scarab":
            assert twin.mirror == p.mirror  # a half turn keeps a mirror's diagonal
        else:
            assert twin.facing == reference.OPPOSITE[p.facing]


#: the opening shots: the squares where the beam turns, the direction it leaves each in, where it leaves the board
OPENING_SHOTS = {
    ("classic", 0): ([("j4", "W"), ("h4", "N"), ("h5", "E"), ("j5", "N")], "j8"),  # the rules file's
    ("classic", 1): ([("a5", "E"), ("c5", "S"), ("c4", "W"), ("a4", "S")], "a1"),  # the rules file's
    ("imhotep", 0): ([("j4", "W"), ("i4", "N"), ("i5", "E"), ("j5", "N")], "j8"),
    ("imhotep", 1): ([("a5", "E"), ("b5", "S"), ("b4", "W"), ("a4", "S")], "a1"),
    ("dynasty", 0): ([("j3", "W"), ("f3", "N"), ("f4", "E"), ("h4", "S")], "h1"),
    ("dynasty", 1): ([("a6", "E"), ("e6", "S"), ("e5", "W"), ("c5", "N")], "c8"),
}


@pytest.mark.parametrize(("setup", "colour"), list(OPENING_SHOTS))
def test_opening_shots_are_harmless(setup: str, colour: int) -> None:
    turns, last = OPENING_SHOTS[(setup, colour)]
    beam = new(setup).laser(colour)
    assert beam["from"] == ("j1" if colour == 0 else "a8")
    assert beam["turns"] == [square for square, _ in turns]
    assert [direction_leaving(beam, square) for square, _ in turns] == [d for _, d in turns]
    assert beam["squares"][-1] == last
    assert (beam["stop"], beam["at"], beam["removed"]) == ("left", None, None)
    assert beam == {**beam, **_asdict(reference.trace(reference.parse(new(setup).position()), colour))}


def _asdict(beam: reference.Beam) -> dict[str, Any]:
    return {"squares": beam.squares, "directions": beam.directions, "stop": beam.stop, "at": beam.at}


def test_classic_opening_paths_square_by_square() -> None:
    state = new()
    assert state.laser(0)["squares"] == ["j2", "j3", "j4", "i4", "h4", "h5", "i5", "j5", "j6", "j7", "j8"]
    assert state.laser(1)["squares"] == ["a7", "a6", "a5", "b5", "c5", "c4", "b4", "a4", "a3", "a2", "a1"]


@pytest.mark.parametrize(("setup", "count"), [("classic", 77), ("imhotep", 73), ("dynasty", 70)])
def test_legal_moves_at_the_start(setup: str, count: int) -> None:
    state = new(setup)
    assert len(state.legal_moves()) == count
    assert sorted(legal(state)) == reference.moves(reference.parse(state.position()))


# ----- the laser: reflection table, Anubis, Scarab, Sphinx, Pharaoh -------------------------------------
#: positions where Silver's beam reaches e4 travelling N, E, S or W (Silver's Pharaoh on d3 out of the way)
ARRIVING: dict[str, dict[str, str | None]] = {
    "N": {"j1": "Xw", "e1": "Sn"},  # west along rank 1, the "\" on e1 turns it north
    "E": {"j1": "Xw", "e1": None, "c1": "Sn", "c4": "Se"},  # west on rank 1, north up the c-file, east on rank 4
    "S": {"j1": "Xn", "e1": None, "j6": "Sn", "e6": "Se"},  # north up the j-file, west on rank 6, south on e
    "W": {"j1": "Xn", "e1": None, "j4": "Sn"},  # north up the j-file, west along rank 4
}
for scaffold in ARRIVING.values():
    scaffold["d3"] = "Pn"

#: the rules file's reflection table: beam travelling -> result for a Pyramid facing N, E, S, W
REFLECTION = {
    "N": ("removed", "E", "W", "removed"),
    "E": ("removed", "removed", "S", "N"),
    "S": ("E", "removed", "removed", "W"),
    "W": ("N", "S", "removed", "removed"),
}


def arriving(travelling: str, target: str, side: str = "s", **options: Any) -> KhetState:
    return at({**ARRIVING[travelling], "e4": target}, side, **options)


@pytest.mark.parametrize("travelling", "NESW")
def test_scaffolds_bring_the_beam_to_e4_in_each_direction(travelling: str) -> None:
    beam = arriving(travelling, "sn").laser(0)  # a Scarab on e4 never stops it
    i = beam["squares"].index("e4")
    assert beam["directions"][i - 1] == travelling


@pytest.mark.parametrize("letter", ["Y", "y"])
@pytest.mark.parametrize("facing", "NESW")
@pytest.mark.parametrize("travelling", "NESW")
def test_pyramid_reflection_table(travelling: str, facing: str, letter: str) -> None:
    expected = REFLECTION[travelling]["NESW".index(facing)]
    beam = arriving(travelling, letter + facing.lower()).laser(0)
    if expected == "removed":
        assert (beam["stop"], beam["at"], beam["squares"][-1]) == ("removed", "e4", "e4")
        assert beam["removed"] == {"square": "e4", "kind": "pyramid", "colour": int(letter.islower()),
                                   "facing": facing}
    else:
        assert direction_leaving(beam, "e4") == expected
        assert "e4" in beam["turns"]
        assert beam["stop"] == "left"


@pytest.mark.parametrize(("facing", "mirror"), [("N", "NE"), ("E", "SE"), ("S", "SW"), ("W", "NW")])
def test_pyramid_facing_names_the_side_its_mirror_faces(facing: str, mirror: str) -> None:
    # A mirror facing NE turns a beam coming from the north (travelling S) east, and one from the east north
    vertical, horizontal = {"N": "S", "S": "N"}[mirror[0]], {"E": "W", "W": "E"}[mirror[1]]
    assert direction_leaving(arriving(vertical, "y" + facing.lower()).laser(0), "e4") == mirror[1]
    assert direction_leaving(arriving(horizontal, "y" + facing.lower()).laser(0), "e4") == mirror[0]


def test_pyramid_hit_on_its_back_is_removed_by_the_shot() -> None:
    state = play(arriving("W", "yw"), "d3d2")
    assert piece(state, "e4") is None
    assert event(state, "remove") == {"type": "remove", "square": "e4", "kind": "pyramid", "colour": 1,
                                      "facing": "W"}
    assert not state.is_over()


def test_own_pieces_are_removed_too() -> None:
    state = play(arriving("W", "Yw"), "d3d2")
    assert piece(state, "e4") is None
    assert event(state, "remove")["colour"] == 0


@pytest.mark.parametrize("letter", ["A", "a"])
@pytest.mark.parametrize("facing", "NESW")
@pytest.mark.parametrize("travelling", "NESW")
def test_anubis_front_absorbs_side_and_back_remove(travelling: str, facing: str, letter: str) -> None:
    state = arriving(travelling, letter + facing.lower())
    beam = state.laser(0)
    front = facing == reference.OPPOSITE[travelling]  # its front looks back along the beam
    assert (beam["stop"], beam["at"], beam["squares"][-1]) == ("absorbed" if front else "removed", "e4", "e4")
    play(state, "d3d2")
    assert (piece(state, "e4") is not None) == front


@pytest.mark.parametrize("letter", ["Sn", "Ss", "sn", "ss"])
@pytest.mark.parametrize("travelling", "NESW")
def test_scarab_facing_n_or_s_is_a_backslash_mirror(travelling: str, letter: str) -> None:
    pieces = {**ARRIVING[travelling], "e4": letter}
    if sum(1 for v in pieces.values() if v and v[0] == "S") > 2:
        pieces["e4"] = letter.lower()
    beam = at(pieces).laser(0)
    assert direction_leaving(beam, "e4") == {"N": "W", "E": "S", "S": "E", "W": "N"}[travelling]
    assert beam["stop"] == "left"


@pytest.mark.parametrize("letter", ["se", "sw"])
@pytest.mark.parametrize("travelling", "NESW")
def test_scarab_facing_e_or_w_is_a_slash_mirror(travelling: str, letter: str) -> None:
    beam = arriving(travelling, letter).laser(0)
    assert direction_leaving(beam, "e4") == {"N": "E", "E": "N", "S": "W", "W": "S"}[travelling]
    assert beam["stop"] == "left"


@pytest.mark.parametrize("letter", ["sn", "se"])
@pytest.mark.parametrize("travelling", "NESW")
def test_scarab_can_never_be_removed(travelling: str, letter: str) -> None:
    state = play(arriving(travelling, letter), "d3d2")
    assert piece(state, "e4") is not None
    assert not [e for e in state.events() if e["type"] == "remove"]


def test_sphinx_absorbs_a_beam_and_cannot_be_removed() -> None:
    # Silver's beam up the j-file, turned west along rank 8 into Red's Sphinx
    state = at({"j8": "Sn", "f8": None, "f7": "ps"})
    beam = state.laser(0)
    assert (beam["squares"][-1], beam["stop"], beam["at"], beam["removed"]) == ("a8", "absorbed", "a8", None)
    play(state, "e1e2")
    assert piece(state, "a8") == {"square": "a8", "kind": "sphinx", "colour": 1, "facing": "S"}


def test_sphinx_hit_from_below_absorbs_too() -> None:
    # Silver's beam west along rank 1, turned north up the a-file by a Red Scarab on a1
    state = at({"j1": "Xw", "a1": "sn", "e1": None, "e3": "Pn"})
    beam = state.laser(0)
    assert beam["squares"][-1] == "a8"
    assert beam["directions"][-1] == "N"
    assert beam["stop"] == "absorbed"


def test_beam_coming_back_to_its_own_sphinx_is_absorbed() -> None:
    # north up the j-file, west on rank 3, south down the c-file, east along rank 1 back into j1
    state = at({"j3": "Sn", "c3": "se", "c1": "Sn", "e1": None, "e5": "Pn"})
    beam = state.laser(0)
    assert beam["squares"][-1] == "j1"
    assert (beam["stop"], beam["at"], beam["removed"]) == ("absorbed", "j1", None)
    assert beam["turns"] == ["j3", "c3", "c1"]


@pytest.mark.parametrize("travelling", "NESW")
def test_pharaoh_is_removed_from_any_side_and_the_game_ends(travelling: str) -> None:
    state = at({**ARRIVING[travelling], "e4": "ps", "f8": None})
    assert state.laser(0)["removed"] == {"square": "e4", "kind": "pharaoh", "colour": 1, "facing": "S"}
    play(state, "d3d2")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.returns == (1.0, -1.0)
    assert "Silver wins" in outcome.reason
    assert state.legal_moves() == []
    assert [e["type"] for e in state.events()] == ["step", "laser", "remove", "win"]
    assert state.events()[-1] == {"type": "win", "player": 0}
    assert state.position().endswith(" -P 0")


def test_no_move_after_the_end() -> None:
    state = play(at({**ARRIVING["W"], "e4": "ps", "f8": None}), "d3d2")
    with pytest.raises(damier.IllegalMoveError, match="game is over"):
        state.parse_move("d2d3")
    with pytest.raises(damier.IllegalMoveError, match="game is over"):
        state.play(0)


@pytest.mark.parametrize(
    ("pieces", "side", "move", "winner"),
    [
        # Silver's Pyramid on j3 turned the beam away; moving it lets the beam up the j-file into Silver's Pharaoh
        ({"j3": "Ys", "e1": None, "j6": "Pn"}, "s", "j3i2", 1),
        # the same half-turned for Red
        ({"a6": "yn", "f8": None, "a3": "ps"}, "r", "a6b7", 0),
    ],
)
def test_pharaoh_hit_by_its_own_laser_loses(pieces: dict[str, str | None], side: str, move: str, winner: int) -> None:
    state = at(pieces, side)
    assert state.laser(1 - winner)["stop"] == "left"
    play(state, move)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == winner
    assert event(state, "remove")["kind"] == "pharaoh"
    assert event(state, "remove")["colour"] == 1 - winner
    assert event(state, "laser")["player"] == 1 - winner


def test_at_most_one_piece_removed_per_shot() -> None:
    # west along rank 4: an Anubis hit on its side on f4, then a Pyramid's back on e4 behind it
    state = play(at({**ARRIVING["W"], "f4": "an", "e4": "yw"}), "d3d2")
    removed = [e for e in state.events() if e["type"] == "remove"]
    assert removed == [{"type": "remove", "square": "f4", "kind": "anubis", "colour": 1, "facing": "N",
                        "changes": {"f4": None}}]
    assert event(state, "laser")["squares"][-1] == "f4"
    assert piece(state, "e4") is not None
    assert state.laser(0)["at"] == "e4"  # the next Silver shot would take it


def test_laser_fires_after_every_move() -> None:
    state = new()
    for move in state.legal_moves():
        state.play(move)
        lasers = [e for e in state.events() if e["type"] == "laser"]
        assert len(lasers) == 1
        assert (lasers[0]["player"], lasers[0]["from"]) == (0, "j1")
        state.undo()


def test_rotating_own_sphinx_can_shoot_own_piece() -> None:
    state = play(new(), "j1-")  # the beam runs west along rank 1 into the side of Silver's Anubis on f1
    assert event(state, "laser")["squares"] == ["i1", "h1", "g1", "f1"]
    assert event(state, "remove") == {"type": "remove", "square": "f1", "kind": "anubis", "colour": 0,
                                      "facing": "N"}


# ----- reserved squares ---------------------------------------------------------------------------------
RESERVED_FOR_RED = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "i1", "i8"]
RESERVED_FOR_SILVER = ["j2", "j3", "j4", "j5", "j6", "j7", "j8", "b1", "b8"]
#: Pharaohs out of the way of every reserved square's neighbours
CENTRE_PHARAOHS: dict[str, str | None] = {"e1": None, "f8": None, "e4": "Pn", "f5": "ps"}


def _open_neighbour(square: str) -> str:
    for df, dr in reference.EIGHT:
        n = reference.neighbour(square, df, dr)
        if n and reference.reserved_for(n) is None and n not in ("e4", "f5"):
            return n
    raise AssertionError(square)


@pytest.mark.parametrize("kind", ["P", "A", "Y", "S"])
@pytest.mark.parametrize(
    ("square", "owner"), [(sq, 1) for sq in RESERVED_FOR_RED] + [(sq, 0) for sq in RESERVED_FOR_SILVER]
)
def test_no_piece_may_enter_a_square_reserved_for_the_other_colour(square: str, owner: int, kind: str) -> None:
    start = _open_neighbour(square)
    intruder = 1 - owner
    for colour, allowed in ((intruder, False), (owner, True)):
        letters = (kind if colour == 0 else kind.lower()) + "n"
        pieces = dict(CENTRE_PHARAOHS)
        if kind == "P":
            pieces["e4" if colour == 0 else "f5"] = None
        pieces[start] = letters
        state = at(pieces, "sr"[colour])
        assert (start + square in legal(state)) == allowed
        if not allowed:
            with pytest.raises(damier.IllegalMoveError, match=f"{square} is reserved for {('Silver', 'Red')[owner]}"):
                state.parse_move(start + square)


def test_reserved_squares_are_the_a_and_j_files_and_b1_b8_i1_i8() -> None:
    squares = load().new_state().board_json()["reserved"]
    assert {sq for sq, colour in squares.items() if colour == 1} == set(RESERVED_FOR_RED) | {"a8"}
    assert {sq for sq, colour in squares.items() if colour == 0} == set(RESERVED_FOR_SILVER) | {"j1"}


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize(
    ("pieces", "side", "move", "square"),
    [
        ({"b4": "Sn", "a4": "yn"}, "s", "b4a4", "a4"),  # a Silver Scarab may not swap into the a-file
        ({"h1": "Sn", "i1": "yn"}, "s", "h1i1", "i1"),
        ({"i5": "sn", "j5": "Yn"}, "r", "i5j5", "j5"),  # nor a Red one into the j-file
        ({"c8": "sn", "b8": "An"}, "r", "c8b8", "b8"),
    ],
)
def test_scarab_may_not_swap_into_a_square_reserved_for_the_other_colour(
    pieces: dict[str, str | None], side: str, move: str, square: str, strict: bool
) -> None:
    state = at({**CENTRE_PHARAOHS, **pieces}, side, strict_swap_reserved=strict)
    assert move not in legal(state)
    with pytest.raises(damier.IllegalMoveError, match=f"{square} is reserved"):
        state.parse_move(move)


# ----- a turn: steps, swaps, rotations ------------------------------------------------------------------
def test_a_piece_steps_one_square_in_any_of_the_8_directions() -> None:
    state = at({"d5": "Yn"})
    targets = {"d6", "e6", "e5", "e4", "d4", "c4", "c5", "c6"}
    assert {m[2:] for m in legal(state) if m.startswith("d5") and m[2:] not in "+-"} == targets
    for target in targets:
        play(state, "d5" + target)
        assert piece(state, target) == {"square": target, "kind": "pyramid", "colour": 0, "facing": "N"}
        assert piece(state, "d5") is None
        assert event(state, "step") == {"type": "step", "player": 0, "from": "d5", "to": target,
                                         "move": "d5" + target}
        state.undo()


def test_only_own_pieces_move() -> None:
    state = at({"d5": "yn"})
    assert not any(m.startswith("d5") for m in legal(state))
    with pytest.raises(damier.IllegalMoveError, match="the Pyramid on d5 is Red's; Silver is to move"):
        state.parse_move("d5d6")


@pytest.mark.parametrize("kind", ["P", "A", "Y"])
def test_only_a_scarab_moves_onto_an_occupied_square(kind: str) -> None:
    state = at({"d5": kind + "n", "d6": "yn", "e5": "Yn", **({"e1": None} if kind == "P" else {})})
    assert not {"d5d6", "d5e5"} & legal(state)
    with pytest.raises(damier.IllegalMoveError, match="d6 is occupied; only a Scarab swaps"):
        state.parse_move("d5d6")


@pytest.mark.parametrize("target", ["yw", "Yw", "aw", "Aw"])
def test_scarab_swaps_with_a_pyramid_or_anubis_of_either_colour_and_neither_rotates(target: str) -> None:
    state = at({"d5": "Se", "d6": target})
    play(state, "d5d6")
    moved = piece(state, "d5")
    assert moved is not None
    assert (moved["kind"], moved["colour"], moved["facing"]) == (
        "pyramid" if target[0] in "Yy" else "anubis", int(target[0].islower()), "W")
    assert piece(state, "d6") == {"square": "d6", "kind": "scarab", "colour": 0, "facing": "E"}
    assert event(state, "swap") == {"type": "swap", "player": 0, "from": "d5", "to": "d6", "move": "d5d6"}


@pytest.mark.parametrize(
    ("pieces", "side", "move", "reason"),
    [
        ({"e2": "Sn"}, "s", "e2e1", "not with a Pharaoh"),  # own Pharaoh
        ({"f7": "Sn"}, "s", "f7f8", "not with a Pharaoh"),  # enemy Pharaoh
        ({"d5": "Sn", "d6": "Se"}, "s", "d5d6", "not with a Scarab"),  # own Scarab
        ({"d5": "Sn", "d6": "sn"}, "s", "d5d6", "not with a Scarab"),  # enemy Scarab
        ({"i2": "Sn"}, "s", "i2j1", "never moves|not with a Sphinx"),  # own Sphinx
        ({"b7": "sn"}, "r", "b7a8", "never moves|not with a Sphinx"),  # own Sphinx, for Red
    ],
)
def test_scarab_never_swaps_with_a_pharaoh_scarab_or_sphinx(
    pieces: dict[str, str | None], side: str, move: str, reason: str
) -> None:
    state = at(pieces, side)
    assert move not in legal(state)
    with pytest.raises(damier.IllegalMoveError, match=reason):
        state.parse_move(move)


@pytest.mark.parametrize(
    ("pieces", "side", "move"),
    [
        ({"b1": "Sn", "c2": "yn"}, "s", "b1c2"),  # Red's Pyramid would land on b1, reserved for Silver
        ({"b8": "Sn", "c7": "as"}, "s", "b8c7"),
        ({"j1": "Xw", "j5": "Sn", "i5": "yn"}, "s", "j5i5"),  # onto j5 (Silver's beam kept off the j-file)
        ({"i8": "sn", "h7": "An"}, "r", "i8h7"),  # Silver's Anubis onto i8, reserved for Red
        ({"a3": "sn", "b3": "Yn"}, "r", "a3b3"),
    ],
)
def test_strict_swap_reserved_forbids_putting_the_swapped_piece_on_its_opponents_square(
    pieces: dict[str, str | None], side: str, move: str
) -> None:
    strict = at({**CENTRE_PHARAOHS, **pieces}, side)
    assert move not in legal(strict)
    with pytest.raises(damier.IllegalMoveError, match="strict_swap_reserved"):
        strict.parse_move(move)
    lax = at({**CENTRE_PHARAOHS, **pieces}, side, strict_swap_reserved=False)
    assert move in legal(lax)
    play(lax, move)
    swapped = piece(lax, move[:2])
    assert swapped is not None and swapped["kind"] in ("pyramid", "anubis")
    # the position, with a piece on a square of its opponent, still round-trips (a swap put it there)
    assert lax.game.state_from_position(lax.position()).position() == lax.position()


def test_strict_swap_allows_swapping_own_piece_onto_own_reserved_square() -> None:
    state = at({**CENTRE_PHARAOHS, "b1": "Sn", "c2": "Yn"})
    assert "b1c2" in legal(state)


@pytest.mark.parametrize("kind", ["Y", "A"])
@pytest.mark.parametrize("facing", "NESW")
def test_pyramid_and_anubis_rotate_both_ways(kind: str, facing: str) -> None:
    for sign, turned in (("+", reference.CLOCKWISE[facing]), ("-", reference.ANTICLOCKWISE[facing])):
        state = play(at({"d5": kind + facing.lower()}), "d5" + sign)
        p = piece(state, "d5")
        assert p is not None and p["facing"] == turned
        assert event(state, "rotate") == {"type": "rotate", "player": 0, "square": "d5", "clockwise": sign == "+",
                                          "facing": turned, "move": "d5" + sign}


def test_scarab_has_one_rotation_written_plus_and_minus_means_the_same() -> None:
    state = at({"d5": "Sn"})
    assert [m for m in legal(state) if m.startswith("d5") and m[2] in "+-"] == ["d5+"]
    assert state.parse_move("d5+") == state.parse_move("d5-")
    play(state, "d5-")
    assert piece(state, "d5") == {"square": "d5", "kind": "scarab", "colour": 0, "facing": "E"}  # now "/"
    assert state.moves_in_notation() == ["d5+"]


def test_scarab_rotation_toggles_its_mirror() -> None:
    state = play(at({"d5": "Sn"}), "d5+", "f8f7", "d5+")
    assert piece(state, "d5") == {"square": "d5", "kind": "scarab", "colour": 0, "facing": "N"}


@pytest.mark.parametrize(
    ("facing", "side", "move", "turned", "wrong"),
    [("Xn", "s", "j1-", "W", "j1+"), ("Xw", "s", "j1+", "N", "j1-"), ("xs", "r", "a8-", "E", "a8+"),
     ("xe", "r", "a8+", "S", "a8-")],
)
def test_sphinx_toggles_between_its_two_directions(facing: str, side: str, move: str, turned: str, wrong: str) -> None:
    square = move[:2]
    state = at({square: facing}, side)
    assert [m for m in legal(state) if m.startswith(square)] == [move]
    with pytest.raises(damier.IllegalMoveError, match=f"only turns.*{move}"):
        state.parse_move(wrong)
    play(state, move)
    assert piece(state, square) == {"square": square, "kind": "sphinx", "colour": "sr".index(side), "facing": turned}
    assert event(state, "laser")["facing"] == turned


@pytest.mark.parametrize(("square", "side"), [("j1", "s"), ("a8", "r")])
def test_sphinx_never_moves(square: str, side: str) -> None:
    state = at({}, side)
    for df, dr in reference.EIGHT:
        to = reference.neighbour(square, df, dr)
        if to is None:
            continue
        with pytest.raises(damier.IllegalMoveError, match="never moves"):
            state.parse_move(square + to)


def test_pharaoh_rotation_off_by_default() -> None:
    state = new()
    assert not {"e1+", "e1-"} & legal(state)
    with pytest.raises(damier.IllegalMoveError, match="pharaoh_rotation is off"):
        state.parse_move("e1+")


def test_pharaoh_rotation_option() -> None:
    state = new(pharaoh_rotation=True)
    assert len(state.legal_moves()) == 79
    play(state, "e1+")
    assert piece(state, "e1") == {"square": "e1", "kind": "pharaoh", "colour": 0, "facing": "E"}
    play(state, "f8-")
    assert piece(state, "f8") == {"square": "f8", "kind": "pharaoh", "colour": 1, "facing": "E"}


# ----- end of the game: repetition, quiet plies ---------------------------------------------------------
SHUFFLE = ("c1c2", "h8h7", "c2c1", "h7h8")


def test_third_occurrence_is_a_draw_with_automatic_repetition() -> None:
    state = play(new(), *SHUFFLE)
    assert state.repetitions() == 2 and not state.is_over()
    play(state, *SHUFFLE[:3])
    assert not state.is_over()
    play(state, SHUFFLE[3])
    assert state.repetitions() == 3
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and "repetition" in outcome.reason
    assert state.events()[-1] == {"type": "draw", "reason": outcome.reason}
    assert state.position() == CLASSIC.replace(" s 0", " -R 8")
    with pytest.raises(damier.IllegalMoveError, match="automatic"):
        new().parse_move("claim")


def test_repetition_counts_the_side_to_move() -> None:
    # Silver walks c1 round a triangle (c2, b1, c1) while Red shuffles h8-h7-h8: the pieces of the start come back
    # after 5 plies, but with Red to move, which is another position
    state = play(new(), "c1c2", "h8h7", "c2b1", "h7h8", "b1c1")
    assert state.position() == CLASSIC.replace(" s 0", " r 5")
    assert state.repetitions() == 1
    assert state.key() != new().key()


def test_positions_compare_scarabs_by_mirror() -> None:
    # each Scarab turned clockwise twice: facing E -> S -> W physically, the same "/" mirror again
    state = play(new(), "e4+", "f5+", "e4+", "f5+")
    assert state.position() == CLASSIC.replace(" s 0", " s 4")
    assert state.repetitions() == 2
    play(state, "e4-", "f5-", "e4-", "f5-")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and "repetition" in outcome.reason
    west = load().state_from_position(CLASSIC.replace("SeSn", "SwSs"))
    assert west.position() == CLASSIC
    assert west.key() == new().key()


def test_claim_becomes_legal_exactly_at_the_third_occurrence() -> None:
    state = new(repetition="claim")
    for ply, move in enumerate(SHUFFLE * 2, start=1):
        assert 800 not in state.legal_moves()
        with pytest.raises(damier.IllegalMoveError, match=r"occurred [12] time"):
            state.parse_move("claim")
        play(state, move)
        assert not state.is_over(), ply
    assert state.repetitions() == 3
    assert state.can_claim_draw()
    assert state.legal_moves()[-1] == state.parse_move("claim")
    assert state.move_to_str(state.parse_move("claim")) == "claim"


def test_claim_ends_the_game_drawn() -> None:
    state = play(new(repetition="claim"), *SHUFFLE, *SHUFFLE, "claim")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.returns == (0.0, 0.0)
    assert "claimed" in outcome.reason
    assert state.events() == [{"type": "claim", "player": 0}, {"type": "draw", "reason": outcome.reason}]
    assert state.position().endswith(" -C 8")
    assert "claimed" in state.render_text()


def test_claim_lapses_when_the_position_changes() -> None:
    state = play(new(repetition="claim"), *SHUFFLE, *SHUFFLE, "d1d2")
    assert not state.can_claim_draw()
    assert 800 not in state.legal_moves()
    with pytest.raises(damier.IllegalMoveError, match="occurred 1 time"):
        state.parse_move("claim")
    state.undo()
    assert state.can_claim_draw()


@pytest.mark.parametrize(("option", "limit"), [({}, 100), ({"quiet_ply_limit": 10}, 10)])
def test_quiet_ply_limit_draws(option: dict[str, int], limit: int) -> None:
    state = load(**option).state_from_position(CLASSIC.replace(" s 0", f" s {limit - 2}"))
    assert isinstance(state, KhetState)
    play(state, "c1c2")
    assert state.quiet_plies == limit - 1 and not state.is_over()
    play(state, "h8h7")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and f"{limit} plies" in outcome.reason
    assert state.position().endswith(f" -Q {limit}")


def test_quiet_plies_count_from_the_start() -> None:
    state = play(new(quiet_ply_limit=4), "c1c2", "h8h7", "d1d2")
    assert state.quiet_plies == 3 and not state.is_over()
    play(state, "g8g7")
    assert state.is_over()


def test_quiet_ply_limit_zero_is_off() -> None:
    state = load(quiet_ply_limit=0).state_from_position(CLASSIC.replace(" s 0", " s 5000"))
    assert isinstance(state, KhetState)
    play(state, "c1c2")
    assert state.quiet_plies == 5001 and not state.is_over()


def test_a_removal_resets_the_quiet_count() -> None:
    state = load().state_from_position(CLASSIC.replace(" s 0", " s 99"))
    assert isinstance(state, KhetState)
    play(state, "j1-")  # shoots Silver's own Anubis on f1
    assert state.quiet_plies == 0 and not state.is_over()


def test_a_position_already_past_the_quiet_limit_is_refused() -> None:
    with pytest.raises(damier.ParseError, match="quiet_ply_limit=100"):
        load().state_from_position(CLASSIC.replace(" s 0", " s 100"))


# ----- options ------------------------------------------------------------------------------------------
def test_options_and_defaults() -> None:
    info = next(g for g in damier.games() if g.name == "khet")
    assert info.options.defaults() == {"setup": "classic", "pharaoh_rotation": False, "strict_swap_reserved": True,
                        "repetition": "automatic", "quiet_ply_limit": 100}


@pytest.mark.parametrize(
    "options", [{"setup": "tutankhamun"}, {"repetition": "never"}, {"quiet_ply_limit": -1}, {"lasers": 2}]
)
def test_bad_options_rejected(options: dict[str, Any]) -> None:
    with pytest.raises(damier.OptionError, match=next(iter(options))):
        load(**options)


# ----- properties against the reference -----------------------------------------------------------------
RULES = [
    {},
    {"pharaoh_rotation": True},
    {"strict_swap_reserved": False},
    {"repetition": "claim", "quiet_ply_limit": 30},
]


def agree(state: KhetState, ref: reference.Game) -> None:
    assert state.position() == ref.board.position()
    moves = sorted(m for m in legal(state) if m != "claim")
    assert moves == reference.moves(ref.board, ref.rules)
    assert ("claim" in legal(state)) == (ref.rules.repetition == "claim" and ref.board.to_move is not None
                                         and ref.repetitions() >= 3)
    for colour in (0, 1):
        assert state.laser(colour) == {**state.laser(colour), **_asdict(reference.trace(ref.board, colour))}


def reverse(move: str) -> list[str]:
    """The moves that may take ``move`` back, best first (a Scarab's one rotation takes itself back)."""
    if move[2:] in ("+", "-"):
        return [move[:2] + ("-" if move[2] == "+" else "+"), move]
    return [move[2:] + move[:2]]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SETUPS), st.sampled_from(RULES), st.randoms(use_true_random=False))
def test_random_games_agree_with_the_reference(setup: str, rules: dict[str, Any], rng: random.Random) -> None:
    state = new(setup, **rules)
    ref = reference.Game(reference.parse(state.position()), reference.Rules(**rules))
    played: list[str] = []
    # often taking back one's own last move, so that positions repeat and quiet plies pile up
    while not state.is_over() and len(played) < 120:
        agree(state, ref)
        moves = sorted(legal(state))
        back = [m for m in reverse(played[-2]) if m in moves] if len(played) >= 2 else []
        if "claim" in moves and rng.random() < 0.5:
            move = "claim"
        elif back and rng.random() < 0.5:
            move = back[0]
        else:
            move = rng.choice(moves)
        played.append(move)
        beam = ref.play(move)
        play(state, move)
        if beam is not None:
            laser = event(state, "laser")
            assert laser == {**laser, **_asdict(beam)}
    agree(state, ref)
    outcome = state.outcome()
    if outcome is not None:
        assert outcome.winner == ref.winner()


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(RULES))
def test_random_placements_agree_with_the_reference(rng: random.Random, rules: dict[str, Any]) -> None:
    board = reference.random_placement(rng)
    board.quiet = min(board.quiet, rules.get("quiet_ply_limit", 100) - 1)
    state = load(**rules).state_from_position(board.position())
    assert isinstance(state, KhetState)
    ref = reference.Game(board, reference.Rules(**rules))
    agree(state, ref)
    for _ in range(3):  # and a few plies from there
        if state.is_over():
            break
        move = rng.choice(sorted(legal(state)))
        ref.play(move)
        play(state, move)
        agree(state, ref)
