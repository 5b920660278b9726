"""The Atoms kernel search keeps its tables from one move to the next: that must never change an exact result.

The exact search (``selective=False``) returns the minimax value of its depth whatever its tables hold, as long
as every entry is a true bound for the position, root player and evaluation it is keyed by. One searcher that
follows a game must agree with a fresh searcher on every position it searches: on one player's turns deep and
shallow in turn (so that entries stored several plies below one root are met just below a later one: a won or
lost score must be stored as a distance from its node, not from the root), and on the other players' turns too,
with either evaluation (an entry for one root player or evaluation must never answer for another).
"""

from __future__ import annotations

import random

import pytest

import damier
from damier.ai.deepening import Deepening
from damier.games.atoms import INFO
from damier.games.atoms.search import AtomsSearch
from tests.jit import NO_JIT


@pytest.mark.parametrize("players", [2, 3])
def test_tables_kept_between_moves_change_no_exact_score(players: int) -> None:
    # without the JIT (where the kernels' Python is what is tried) a quarter of the games
    part = 4 if NO_JIT else 1
    games = (60 if players == 2 else 30) // part
    compared = decided = 0
    for seed in range(games):
        rng = random.Random(seed)
        game = damier.load("atoms", rows=3, cols=rng.choice([3, 4]), players=players)
        kept = Deepening(AtomsSearch(game, selective=False))
        state = game.new_state()
        turn = 0
        while not state.is_over():
            if state.player == 0:
                depth, evaluation = (5 if turn % 2 == 0 else 3), INFO.evaluations[0]
                turn += 1
            else:
                depth, evaluation = rng.randint(1, 2), rng.choice(INFO.evaluations)
            found = kept.think(state, max_depth=depth, evaluation=evaluation)
            fresh = Deepening(AtomsSearch(game, selective=False)).think(state, max_depth=depth,
                                                                         evaluation=evaluation)
            # (a decided score may come a depth earlier from the kept table: the driver then stops there)
            assert found.score == fresh.score, (state.position(), depth, evaluation)
            compared += 1
            decided += game.is_decided_score(fresh.score)
            state.play(rng.choice(state.legal_moves()))
    assert compared >= 100 // part and decided >= 20 // part, (compared, decided)


def test_a_node_limit_stops_the_search_and_an_unfinished_depth_says_so() -> None:
    game = damier.load("atoms", rows=5, cols=5)
    state = game.replay(["A1", "E5", "B2", "D4"])
    searcher = AtomsSearch(game)
    searcher.new_search(state)
    whole = searcher.search(state, 4, None, None)
    assert whole.completed and whole.move in state.legal_moves()
    cut = AtomsSearch(game)
    cut.new_search(state)
    stopped = cut.search(state, 4, 10, None)
    assert not stopped.completed and stopped.nodes <= whole.nodes
