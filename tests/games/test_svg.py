"""The ``svg`` feature of Exploding Atoms and Khet: standalone, valid SVG that draws what the state says (one
element per piece or atom, the last shot's beam), and ``State._repr_svg_`` (notebooks) returns it."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.core.game import State
from damier.games.atoms.rules import AtomsState
from damier.games.atoms.svg import svg as atoms_svg
from damier.games.khet.rules import KhetState
from damier.games.khet.svg import svg as khet_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    """The root of ``picture``, checked to be a standalone SVG document."""
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") and root.get("width") and root.get("height")
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert (width, height) == (float(root.get("width", 0)), float(root.get("height", 0)))
    assert "href" not in picture and "url(" not in picture and "<image" not in picture  # no external references
    return root


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def caption(root: ET.Element) -> str:
    (line,) = with_class(root, "caption")
    return " ".join(t.text or "" for t in line.iter(f"{NS}text"))


def random_line(state: State, rng: random.Random, plies: int) -> State:
    for _ in range(plies):
        if state.is_over():
            break
        state.play(rng.choice(state.legal_moves()))
    return state


# ----- Exploding Atoms ---------------------------------------------------------------------------------------
def check_atoms(state: AtomsState) -> ET.Element:
    root = parse(atoms_svg(state))
    board = state.board_json()
    squares = with_class(root, "square")
    assert len(squares) == board["rows"] * board["cols"]
    by_name = {sq.get("data-square"): sq for sq in squares}
    for row in state.cells():
        for cell in row:
            g = by_name[cell.name]
            owner = cell.owner if cell.count else -1
            assert (g.get("data-count"), g.get("data-owner")) == (str(cell.count), str(owner))
            assert g.get("data-critical") == str(cell.critical).lower()
            atoms = with_class(g, "atom")
            assert len(atoms) == (cell.count if owner >= 0 else 0)
            assert all(a.get("data-owner") == str(owner) for a in atoms)
            assert len(with_class(g, "critical")) == int(cell.critical)
    dots = with_class(root, "atom")
    assert len(dots) == state.atoms()
    for player in range(state.game.num_players):
        assert sum(d.get("data-owner") == str(player) for d in dots) == state.atoms(player)
    return root


def test_atoms_draws_a_dot_per_atom_and_marks_critical_squares() -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    for square in ["A1", "C3", "B2", "B1"]:
        state.play(state.parse_move(square))
    root = check_atoms(state)
    critical = {g.get("data-square") for g in with_class(root, "square") if g.get("data-critical") == "true"}
    assert critical == {"A1", "C3"}  # one atom in a corner: one short of its capacity of 2
    assert len(with_class(root, "atom")) == 4
    assert [g.get("data-square") for g in with_class(root, "square") if with_class(g, "last-move")] == ["B1"]
    assert caption(root).startswith("Red to move · Blue played B1")


def test_atoms_coordinates_follow_the_notation() -> None:
    root = parse(atoms_svg(damier.load("atoms", rows=4, cols=6).new_state()))
    (labels,) = with_class(root, "coordinates")
    assert [t.text for t in labels] == ["A", "B", "C", "D", "E", "F", "1", "2", "3", "4"]
    first = with_class(root, "square")[:2]
    assert [g.get("data-square") for g in first] == ["A1", "B1"]
    assert caption(root) == "Red to move"


def test_atoms_finished_game_caption_and_unstable_squares() -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    random_line(state, random.Random(32), 500)
    assert state.is_over()
    root = check_atoms(state)  # a finished game may leave squares over their capacity: every atom still drawn
    outcome = state.outcome()
    assert outcome is not None
    assert caption(root).startswith(outcome.reason)


def test_atoms_many_players_and_large_counts() -> None:
    game = damier.load("atoms", rows=2, cols=2, players=4)
    state = game.state_from_position("1r,1b/1g,1y r rbgy 4")
    check_atoms(state)
    # a square of a finished game can hold more atoms than the 4-atom layout: a grid of smaller dots
    big = damier.load("atoms", rows=4, cols=4)
    state = big.new_state()
    random_line(state, random.Random(11), 1000)
    check_atoms(state)


def test_atoms_repr_svg_is_the_feature() -> None:
    state = damier.load("atoms").new_state()
    state.play(state.parse_move("D4"))
    assert damier.core.registry.info("atoms").has("svg")
    assert state._repr_svg_() == atoms_svg(state)


# ----- Khet --------------------------------------------------------------------------------------------------
def check_khet(state: KhetState) -> ET.Element:
    root = parse(khet_svg(state))
    drawn = sorted((g.get("data-square"), g.get("data-kind"), g.get("data-colour"), g.get("data-facing"))
                   for g in with_class(root, "piece"))
    expected = sorted((p["square"], p["kind"], str(p["colour"]), p["facing"]) for p in state.pieces())
    assert drawn == expected
    reserved = {g.get("data-square"): int(g.get("data-reserved", -1)) for g in with_class(root, "square")
                if g.get("data-reserved") is not None}
    assert reserved == state.board_json(previews=False)["reserved"]
    assert len(with_class(root, "square")) == 80
    laser = next((e for e in state.events() if e["type"] == "laser"), None)
    beams = with_class(root, "beam")
    if laser is None:
        assert beams == []
    else:
        (beam,) = beams
        assert beam.tag == f"{NS}polyline"
        assert beam.get("data-squares") == " ".join(laser["squares"])
        assert beam.get("data-stop") == laser["stop"]
        points = beam.get("points", "").split()
        assert len(points) >= len(laser["squares"]) + 1  # the Sphinx, then every square crossed
        assert len(with_class(root, "hit")) == int(laser["removed"] is not None)
    return root


def test_khet_start_has_every_piece_and_no_beam() -> None:
    state = damier.load("khet").new_state()
    root = check_khet(state)
    assert len(with_class(root, "piece")) == 26
    assert caption(root) == "Silver to move"
    (labels,) = with_class(root, "coordinates")
    assert [t.text for t in labels] == [*"abcdefghij", *"87654321"]  # rank 8 at the top


def test_khet_draws_the_last_shot() -> None:
    state = damier.load("khet").new_state()
    state.play(state.parse_move("j1-"))  # Silver's Sphinx turns west: its laser removes its own Anubis on f1
    root = check_khet(state)
    (beam,) = with_class(root, "beam")
    assert beam.get("data-squares") == "i1 h1 g1 f1" and beam.get("data-stop") == "removed"
    (removed,) = with_class(root, "removed")
    assert (removed.get("data-square"), removed.get("data-kind")) == ("f1", "anubis")
    assert [g.get("data-square") for g in with_class(root, "square") if with_class(g, "last-move")] == ["j1"]
    assert caption(root) == "Red to move Last move j1-: Silver's laser removes Silver's Anubis on f1"


def test_khet_beam_turns_on_mirrors() -> None:
    state = damier.load("khet").new_state()
    state.play(state.parse_move("c1c2"))  # Silver's opening shot bounces off j4, i4... and leaves at j8
    laser = next(e for e in state.events() if e["type"] == "laser")
    root = check_khet(state)
    (beam,) = with_class(root, "beam")
    xs_ys = [tuple(float(v) for v in p.split(",")) for p in beam.get("points", "").split()]
    corners = sum(1 for a, b, c in zip(xs_ys, xs_ys[1:], xs_ys[2:], strict=False)
                  if (b[0] - a[0]) * (c[1] - b[1]) != (b[1] - a[1]) * (c[0] - b[0]))
    assert corners == len(laser["turns"]) > 0


def test_khet_finished_game() -> None:
    state = damier.load("khet").state_from_position("xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0")
    state.play(state.parse_move("j1-"))  # Silver's Sphinx turns west along rank 1: it hits its own Pharaoh
    assert state.is_over()
    root = check_khet(state)
    outcome = state.outcome()
    assert outcome is not None and caption(root).startswith(outcome.reason)


def test_khet_repr_svg_is_the_feature() -> None:
    state = damier.load("khet").new_state()
    state.play(state.legal_moves()[0])
    assert damier.core.registry.info("khet").has("svg")
    assert state._repr_svg_() == khet_svg(state)


# ----- properties: any short legal line ------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), players=st.integers(2, 4), plies=st.integers(0, 14),
       rng=st.randoms(use_true_random=False))
def test_atoms_svg_parses_and_counts_match(rows: int, cols: int, players: int, plies: int,
                                           rng: random.Random) -> None:
    players = min(players, rows * cols)
    state = damier.load("atoms", rows=rows, cols=cols, players=players).new_state()
    random_line(state, rng, plies)
    assert isinstance(state, AtomsState)
    check_atoms(state)
    assert state._repr_svg_() == atoms_svg(state)


@settings(max_examples=20, deadline=None)
@given(setup=st.sampled_from(["classic", "imhotep", "dynasty"]), plies=st.integers(0, 8),
       rng=st.randoms(use_true_random=False))
def test_khet_svg_parses_and_counts_match(setup: str, plies: int, rng: random.Random) -> None:
    state = damier.load("khet", setup=setup).new_state()
    random_line(state, rng, plies)
    assert isinstance(state, KhetState)
    check_khet(state)
    assert state._repr_svg_() == khet_svg(state)


@pytest.mark.parametrize("name", ["atoms", "khet"])
def test_svg_is_declared_and_loaded_lazily(name: str) -> None:
    info: Any = damier.core.registry.info(name)
    assert info.features["svg"] == f"damier.games.{name}.svg:svg"
