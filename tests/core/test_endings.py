"""Termination codes: core's generic ones, and those a game declares in its registration (issue 37: games stay in
their folders), with the mark a move list puts after the move that ended a game so."""

from __future__ import annotations

import pickle
import random

import pytest

import damier
from damier.core.endings import Termination, declared
from damier.core.errors import RecordError
from damier.core.game import Outcome
from damier.core.options import OptionSet
from damier.core.registry import GameInfo, all_infos, register, unregister


def test_a_games_endings_are_known_by_their_codes_once_it_is_registered() -> None:
    codes = {ending.value for ending in declared()}
    for info in all_infos():
        assert {ending.value for ending in info.endings} <= codes
    khet = damier.load("khet").info.endings
    assert [ending.value for ending in khet] == ["pharaoh_hit"] and khet[0].mark == "#"
    assert Termination.of("pharaoh_hit") is khet[0]
    # a result naming it is read back as that ending, and a code nobody declared is refused with the known ones
    outcome = Outcome(winner=0, returns=(1.0, -1.0), reason="Red's Pharaoh was hit", termination=khet[0])
    assert Outcome.from_json(outcome.to_json()) == outcome
    with pytest.raises(RecordError, match=r"result termination 'comet' is not one of: elimination, .*pharaoh_hit"):
        Outcome.from_json({**outcome.to_json(), "termination": "comet"})


def test_an_ending_crosses_processes_as_the_one_declared() -> None:
    for ending in declared():
        copy = pickle.loads(pickle.dumps(ending))
        assert copy is ending and copy == ending and hash(copy) == hash(ending)
    assert repr(Termination.RESIGNATION) == "<Termination.RESIGNATION: 'resignation'>"


def test_a_game_may_not_declare_a_code_already_declared_otherwise() -> None:
    clash = Termination("resignation", "the other meaning", mark="#")
    info = GameInfo("clashing", "Clashing", "", OptionSet(()), "nowhere:Game", endings=(clash,))
    with pytest.raises(ValueError, match="'resignation' is declared already"):
        register(info)
    unregister("clashing")
    assert Termination.of("resignation") is Termination.RESIGNATION


@pytest.mark.parametrize("game", ["khet", "jewels"])
def test_the_move_that_ends_a_game_by_a_hit_is_marked_as_its_game_declares(game: str) -> None:
    # random games until one ends with one of the game's own endings that has a mark
    marked = {ending for ending in damier.load(game).info.endings if ending.mark}
    assert marked
    rng = random.Random(5)
    for _ in range(200):
        state = damier.load(game).new_state()
        while not state.is_over() and len(state.history) < 400:
            state.play(rng.choice(state.legal_moves()))
        outcome = state.outcome()
        if outcome is not None and outcome.termination in marked:
            assert state.move_marks()[-1].endswith(outcome.termination.mark)
            return
    pytest.fail(f"no random {game} game ended by a hit")
