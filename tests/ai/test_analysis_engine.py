"""The analysis board's engine (``damier.ai.analysis``) and the time budget of a computer on a clock
(``damier.agents.spec.within``), on real games; every search reports its whole principal variation."""

from __future__ import annotations

import random

import pytest

import damier
from damier.agents.spec import within
from damier.ai.alphabeta import ContractSearch
from damier.ai.analysis import analyse, kind
from damier.ai.deepening import Deepening
from damier.ai.reading import reading
from damier.core.game import CHANCE


def test_a_level_on_a_clock_thinks_within_the_time_it_is_given() -> None:
    assert within("hard", "khet", 0.25) == "alphabeta:time=0.25"  # Khet's hard is alphabeta:time=1.0
    assert within("alphabeta:depth=3,eval=simple", "khet", 2.0) == "alphabeta:depth=3,eval=simple,time=2"
    assert within("alphabeta:time=1.0", "khet", 5.0) == "alphabeta:time=1.0"  # already within
    assert within("random", "khet", 0.1) == "random"  # nothing to lower


def test_an_analysis_reports_each_depth_as_it_completes() -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    reports: list[dict] = []
    last = analyse(state, seconds=5.0, report=reports.append, max_depth=2)
    assert [r["depth"] for r in reports] == [1, 2] and last["reason"] == "depth"
    for report in reports:  # each line plays from the position
        line = state.copy()
        for text in report["pv"]:
            line.play(line.parse_move(text))


SEARCHED = [info.name for info in damier.games() if kind(info) == "search"]


#: small boards where a game has them (the test also runs without the JIT)
SMALL = {"atoms": {"rows": 4, "cols": 4}, "jewels": {"size": 8, "jewels": 6, "walls": 8, "robots": 4}}


def positions(name: str) -> list[damier.State]:
    """The start of ``name`` and a position some moves into a seeded game (chance events drawn by the seed)."""
    game = damier.load(name, **SMALL.get(name, {}))
    start = game.new_state(seed=5)
    later = start.copy()
    rng = random.Random(5)
    while len(later.history) < 9 and not later.is_over():
        if later.player == CHANCE:
            later.play(later.sample_chance(rng))
        else:
            later.play(rng.choice(later.legal_moves()))
    while later.player == CHANCE:
        later.play(later.sample_chance(rng))
    return [start] + ([later] if not later.is_over() else [])


@pytest.mark.parametrize("name", SEARCHED)
def test_every_searched_game_reports_whole_lines(name: str) -> None:
    for state in positions(name):
        reports: list[dict] = []
        analyse(state, seconds=60.0, report=reports.append, max_depth=3)
        deep = [r for r in reports if r["depth"] >= 3]
        assert deep, reports
        for report in deep:
            # a line as deep as the search saw, unless the game ends on it first
            assert len(report["pv"]) > 1 or report.get("ends_in") == 1, (state.position(), report)
            line = state.copy()
            for mover, text in zip(report["movers"], report["pv"], strict=True):
                assert line.player == mover, (text, report)
                line.play(line.parse_move(text))


def test_the_search_through_the_contract_reports_whole_lines() -> None:
    state = damier.load("atoms", rows=4, cols=4).new_state()
    found = Deepening(ContractSearch()).think(state, max_depth=4)
    assert len(found.pv) == 4, found.pv
    for move in found.pv:
        assert state.is_legal(move)
        state.play(move)


@pytest.mark.parametrize("name", SEARCHED)
def test_a_searched_game_declares_how_its_scores_read_and_they_read_sensibly(name: str) -> None:
    game = damier.load(name)
    scale = game.info.scores
    assert scale is not None, f"{name} has a search and no ScoreScale"
    assert not scale.evaluation or scale.evaluation in game.info.evaluations
    even = reading(game, 0, 0.0)
    assert even["chances"] == [0.5, 0.5] and even["ends_in"] is None
    ahead = [reading(game, 1, points)["chances"][1] for points in (0.5 * scale.chance, scale.chance, 3 * scale.chance)]
    assert 0.5 < ahead[0] < ahead[1] < ahead[2] < 1.0, ahead
    assert reading(game, 1, -scale.chance)["chances"][0] == pytest.approx(ahead[1], abs=1e-4)  # seat 0's view
    won = reading(game, 0, game.win_score - 5)
    assert (won["chances"], won["ends_in"]) == ([1.0, 0.0], 5)
    assert reading(game, 1, -(game.win_score - 2))["ends_in"] == -2
    if scale.unit:
        assert reading(game, 0, 2 * scale.points)["value"] == 2.0


def test_with_more_than_two_players_the_chance_is_the_side_to_move_s() -> None:
    game = damier.load("atoms", players=3)
    seen = reading(game, 2, 0.0)
    assert seen["chances"] == [None, None, 0.5]
