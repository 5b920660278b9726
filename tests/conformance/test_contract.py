"""Conformance: the declaration and the contract's newer parts, for every game.

How games end (termination codes; resignation, agreement and forfeit by one rule), the chance outcome space,
rules versions, ``repr`` as a constructor, the declared features (each one loads and answers as documented),
the one deepening driver over each kernel search, perft through the contract against the kernel's, and puzzles
(one player, a solver, the outcome against the optimum).
"""

from __future__ import annotations

import random
import threading

import pytest

import damier
from damier.agents.spec import hint_agent, make_agent
from damier.ai.alphabeta import fixed_depth_search
from damier.ai.deepening import Deepening
from damier.core import perft
from damier.core.howto import HowTo
from damier.core.howto import page as howto_page
from damier.core.registry import FEATURES
from tests.conformance.random_play import random_line, random_state


def test_every_ending_has_a_termination_code(game: damier.Game) -> None:
    for seed in range(3):
        outcome = random_state(game, seed).outcome()
        assert outcome is not None
        assert outcome.termination not in (damier.Termination.UNKNOWN,)
        assert not outcome.is_early  # the rules ended it
        assert len(outcome.returns) == game.num_players
        assert damier.Outcome.from_json(outcome.to_json()) == outcome


def test_early_endings_follow_one_rule(game: damier.Game) -> None:
    state = game.new_state(0)
    n = game.num_players
    for seat in range(n):
        resigned = damier.resignation(state, seat)
        assert resigned.termination == damier.Termination.RESIGNATION and resigned.is_early
        assert resigned.returns[seat] == -1.0
        assert sum(resigned.returns) == pytest.approx(0.0 if n > 1 else -1.0)  # zero sum among several players
        assert resigned.winner == (1 - seat if n == 2 else None)
        assert game.player_names[seat] in resigned.reason
    agreed = damier.agreement(state)
    assert agreed.returns == (0.0,) * n and agreed.winner is None
    lost = damier.forfeit(state, [0], "the engine crashed")
    assert lost.termination == damier.Termination.FORFEIT and lost.reason.startswith("the engine crashed; ")
    assert lost.returns == damier.resignation(state, 0).returns
    with pytest.raises(damier.StateError):
        damier.resignation(state, n)


def test_a_flag_that_falls_loses_like_a_resignation_while_the_others_can_win(game: damier.Game) -> None:
    if game.num_players == 1:
        return  # a puzzle played alone has no clock
    state = game.new_state(0)
    assert all(state.can_win(seat) for seat in range(game.num_players))  # at the start anyone may still win
    for seat in range(game.num_players):
        lost = damier.timeout(state, seat)
        assert lost.termination == damier.Termination.TIME and lost.is_early
        assert lost.returns == damier.resignation(state, seat).returns
        assert lost.reason.startswith(f"{game.player_names[seat]} ran out of time")


def test_a_record_keeps_an_early_ending(game: damier.Game) -> None:
    for state in random_line(game, 1, max_plies=3):
        if state.is_over():
            return
        if state.player < 0:
            continue
        outcome = damier.resignation(state, state.player)
        obj = damier.Record.from_state(state, result=outcome).to_json()
        assert obj["result"]["termination"] == "resignation"
        record = damier.Record.from_json(obj)
        assert record.result == outcome
        assert record.replay().position() == state.position()


def test_chance_outcomes_live_in_their_own_space(game: damier.Game) -> None:
    if not game.has_chance:
        assert game.num_chance_outcomes == 0
        return
    rng = random.Random(0)
    seen = 0
    for state in random_line(game, 0, max_plies=200):
        if state.player != damier.CHANCE:
            continue
        outcomes = dict(state.chance_outcomes())
        assert all(0 <= move < game.num_chance_outcomes for move in outcomes)
        assert sum(outcomes.values()) == pytest.approx(1.0)
        assert state.sample_chance(rng) in outcomes
        seen += 1
    assert seen > 0
    mover = next(s for s in random_line(game, 0, max_plies=200) if s.player >= 0)
    with pytest.raises(damier.StateError, match="chance node"):
        mover.sample_chance(rng)


def test_states_and_records_carry_the_rules_version(game: damier.Game) -> None:
    state = random_state(game, 2, max_plies=6)
    obj = state.to_json()
    assert obj["rules_version"] == game.rules_version == game.info.rules_version
    assert game.state_from_json(obj).position() == state.position()
    with pytest.raises(damier.RecordError, match=f"rules version {game.rules_version + 1}"):
        game.state_from_json({**obj, "rules_version": game.rules_version + 1})
    record = damier.Record.from_state(state).to_json()
    assert record["rules_version"] == game.rules_version
    with pytest.raises(damier.RecordError, match="rules version"):
        damier.Record.from_json({**record, "rules_version": game.rules_version + 1}).replay()
    legacy = {key: value for key, value in obj.items() if key != "rules_version"}  # written before versions
    assert game.state_from_json(legacy).position() == state.position()


def test_repr_is_a_constructor_expression(game: damier.Game) -> None:
    for state in random_line(game, 3, max_plies=8):
        again = eval(repr(state), {"damier": damier})
        assert again.position() == state.position() and again.player == state.player


def test_declared_features_load_and_no_other_is_declared(game: damier.Game) -> None:
    info = game.info
    assert set(info.features) <= set(FEATURES)
    for feature in info.features:
        hook = info.hook(feature)
        if feature == "race":  # an object with the rounds and the rules
            assert all(callable(getattr(hook, name)) for name in ("rules", "first_round", "next_round"))
            first = hook.first_round(game, 1)
            assert first.game == game and first.legal_moves()
            assert hook.next_round(game, first, 2).legal_moves() and hook.rules(game).chips_to_win >= 1
        elif feature == "policies":  # named simple players, each playing a legal move
            assert hook and all(callable(policy) for policy in hook.values())
            state = game.new_state(1)
            while state.player == damier.CHANCE:
                state.play(state.sample_chance(random.Random(1)))
            for policy in hook.values():
                assert state.is_legal(policy(state, random.Random(2)))
        elif feature == "howto":  # a How to play page, every diagram played by the rules
            assert isinstance(hook, HowTo)
            assert howto_page(info)["sections"]
        else:
            assert callable(hook), feature
    for feature in set(FEATURES) - set(info.features):
        with pytest.raises(damier.FeatureError, match=f"{game.name} has no"):
            info.hook(feature)
    assert bool(info.evaluations) == info.has("evaluate")
    if info.engine is not None:
        assert info.has("search")
    if info.has("describe_events"):
        state = game.new_state(0)
        for step in random_line(game, 0, max_plies=4):
            lines = info.hook("describe_events")(step)
            assert isinstance(lines, list) and all(isinstance(line, str) and line for line in lines)
        assert info.hook("describe_events")(state) == []
    if info.has("svg"):
        assert game.new_state(0)._repr_svg_().startswith("<svg")
    else:
        assert game.new_state(0)._repr_svg_() is None


def test_levels_agents_and_the_hint_agent_build(game: damier.Game) -> None:
    for spec in [*game.info.levels, *game.info.agents]:
        assert make_agent(spec, game).spec == spec
    state = next(s for s in random_line(game, 0, max_plies=20) if s.player >= 0 or s.is_over())
    if not state.is_over():
        assert state.is_legal(hint_agent(game).choose(state))


def test_the_deepening_driver_over_the_declared_search(game: damier.Game) -> None:
    state = next((s for s in random_line(game, 4, max_plies=6) if s.player >= 0), None)
    if state is None or game.num_players < 2:
        return
    searcher = fixed_depth_search(game)
    seen: list[damier.Iteration] = []
    found = Deepening(searcher).think(state, max_depth=3, on_iteration=seen.append)
    assert [it.depth for it in seen] == list(range(1, len(seen) + 1)) and seen
    assert found.depth == seen[-1].depth and found.move == seen[-1].move and state.is_legal(found.move)
    assert found.nodes >= sum(1 for _ in seen)
    # stop from another thread ends an unbounded search with its last completed depth
    driver = Deepening(searcher)
    started = threading.Event()
    results: list[damier.Iteration] = []
    thread = threading.Thread(target=lambda: results.append(driver.think(state, on_iteration=lambda _: started.set())))
    thread.start()
    assert started.wait(timeout=120)
    driver.stop()
    thread.join(timeout=120)
    assert not thread.is_alive() and results[0].depth >= 1 and state.is_legal(results[0].move)


def test_perft_through_the_contract_agrees_with_the_kernel(game: damier.Game) -> None:
    state = random_state(game, 5, max_plies=4)
    if state.is_over():
        return
    by_contract = perft.count(state, 2, use_kernel=False)
    assert perft.count(state, 2) == by_contract
    assert perft.count(state, 2, bulk=True) == by_contract


def test_puzzles_compare_the_moves_used_with_the_optimum(game: damier.Game) -> None:
    if game.num_players != 1:
        return
    assert game.info.has("solver") and game.info.hint == "solver"
    state = game.new_state(0)
    solution = game.info.hook("solver")(state, None, None)
    assert solution.optimal and solution.found and solution.nodes > 0
    work = state.copy()
    for move in solution.moves:
        work.play(move)
    outcome = work.outcome()
    assert outcome is not None and outcome.termination == damier.Termination.SOLVED
    assert outcome.cost == outcome.optimum == solution.cost and outcome.returns == (1.0,)
    # the solver agent plays the same line, one move at a time
    agent = make_agent("solver", game)
    played = state.copy()
    while not played.is_over():
        played.play(agent.choose(played))
    assert played.history == list(solution.moves)
    # a longer way scores less than 1
    longer = state.copy()
    detour = next((m for m in longer.legal_moves() if m != solution.moves[0]), None)
    if detour is not None:
        longer.play(detour)
        for move in game.info.hook("solver")(longer, None, None).moves:
            longer.play(move)
        finished = longer.outcome()
        if finished is not None and finished.cost is not None and finished.cost > solution.cost:
            assert finished.returns[0] < 1.0 and "optimum" in finished.reason
    # bounds: too few nodes or too small a cost find nothing
    if solution.cost > 1:
        assert not game.info.hook("solver")(state, solution.cost - 1, None).found
