"""The protocol's ``position`` command reads a position string in any format the game reads: how many words are
the position is the game's answer (``EngineInfo.count_position_words``), so Khet takes Khet2-AI's two-word
strings as well as damier's three-word ones, with moves after either."""

from __future__ import annotations

import damier
from damier.core import registry
from damier.core.registry import EngineInfo
from damier.games.khet.setup import setup_position
from tests.protocol.test_engine import SILVER_WINS_NOW, Session, errors

#: Khet2-AI's standard setup (its ``src/CommsHandler.h``), Silver to move
KHET2AI_STANDARD = "x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0"


def shown_position(lines: list[str]) -> str:
    """The position a ``d`` command printed."""
    return next(line for line in lines if line.startswith("position ")).removeprefix("position ")


def test_a_khet2ai_string_sets_the_position() -> None:
    session = Session()
    assert session.send(f"position {KHET2AI_STANDARD}") == []
    assert shown_position(session.send("d")) == setup_position("classic")


def test_moves_follow_a_khet2ai_string_with_or_without_the_moves_word() -> None:
    expected = damier.load("khet").new_state()
    for text in ("j1-", "a8-"):
        expected.play(expected.parse_move(text))
    for command in (f"position {KHET2AI_STANDARD} j1- a8-", f"position {KHET2AI_STANDARD} moves j1- a8-"):
        session = Session()
        assert session.send(command) == []
        lines = session.send("d")
        assert shown_position(lines) == expected.position()
        assert "moves j1- a8-" in lines


def test_red_to_move_and_a_search_from_a_khet2ai_string() -> None:
    state = damier.load("khet").state_from_position(SILVER_WINS_NOW)
    theirs = state.position(format="khet2ai")
    assert theirs.endswith(" 0")
    lines = Session().search(f"position {theirs}", "go depth 3")
    assert lines[-1] == "bestmove i5j5"
    red = Session()
    red.send(f"position {theirs.removesuffix(' 0')} 1")
    assert shown_position(red.send("d")).split()[1] == "r"


def test_damier_strings_still_take_three_words() -> None:
    session = Session()
    assert session.send(f"position {setup_position('imhotep')} j1-") == []
    lines = session.send("d")
    assert "moves j1-" in lines


def test_a_bad_khet2ai_string_is_an_error_and_the_position_is_kept() -> None:
    session = Session()
    session.send("position dynasty")
    before = shown_position(session.send("d"))
    bad = KHET2AI_STANDARD.replace("X1", "X2")
    said = errors(session.send(f"position {bad} j1-"))
    assert len(said) == 1 and "Silver's Sphinx faces E" in said[0] and "or name a setup" in said[0]
    said = errors(session.send(f"position {KHET2AI_STANDARD} j1- j1-"))
    assert len(said) == 1 and "move 2 (j1-)" in said[0]
    neither = errors(session.send("position hello world"))
    assert len(neither) == 1 and "3 fields in damier's format" in neither[0] and "2 in Khet2-AI's" in neither[0]
    assert shown_position(session.send("d")) == before


def test_the_number_of_position_words_is_the_games_answer() -> None:
    khet = registry.info("khet").engine
    atoms = registry.info("atoms").engine
    assert khet is not None and atoms is not None
    assert khet.count_position_words([*KHET2AI_STANDARD.split(), "j1-"]) == 2
    assert khet.count_position_words([*setup_position("classic").split(), "j1-"]) == 3
    assert atoms.count_position_words(["a", "b", "c", "d", "e"]) == atoms.position_fields == 4
    assert EngineInfo().count_position_words(["x"]) == 1
