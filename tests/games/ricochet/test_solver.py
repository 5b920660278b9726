"""The Ricochet Robots solver against a naive uniform-cost search written here over ``RicochetState`` itself (the
rules' own moves, keys and costs): every rule mode, the silver and transparent robots, coloured targets and the
vortex, from puzzle starts and from positions part way through a line (a robot's turn and the last move carried).
Then the hardest known puzzles, the lines' replay, the limits, the analysis, the hints, the puzzle feature, bad
input.
"""

from __future__ import annotations

import heapq
import itertools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import damier
from damier.core.errors import OptionError, ParseError, StateError
from damier.core.game import TERMINAL
from damier.games.ricochet import kernel, notation, search, search_kernel
from damier.games.ricochet.rules import MOVE_LIMIT, ROBOTS, RicochetGame, RicochetState, parts_of
from tests.cli.test_cli import invoke
from tests.jit import NO_JIT
from tests.jit import needs_jit as jit_needed

needs_jit = jit_needed("a search of millions of positions")

#: the hardest known 4-robot puzzles (DriftingDroids game ids) and their optimal lengths
HARD = {"7650+42+E2302B12+C9": 25, "0765+42+2E21BD0F+93": 24}

#: option sets of the differential tests: every ricochet mode with and without rebounds, the silver robot, the
#: transparent robot (weighted moves), and all six robots under the strict rule without rebounds (two-word keys)
CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"rebound": False},
    {"ricochet": "if_trivial"},
    {"ricochet": "if_trivial", "rebound": False, "silver": True},
    {"ricochet": "strict"},
    {"ricochet": "strict", "rebound": False},
    {"silver": True},
    {"transparent": True},
    {"transparent": True, "rebound": False, "ricochet": "if_trivial"},
    {"silver": True, "transparent": True, "ricochet": "strict", "rebound": False},
)


# ----- the naive reference -------------------------------------------------------------------------------
def memory(state: RicochetState) -> tuple[Any, ...]:
    """What the rules remember of a position: the robots, each robot's turn and the axis of its last move, the last
    move. (``state.key()`` leaves out the axis: a robot back on its start after a move east and west keys like one
    that never moved.)"""
    axes = tuple(-1 if d < 0 else d % 2 for d in state.last_dir)
    return tuple(state.robots.tolist()), tuple(state.turned), axes, state.last_move


def naive_cost(state: RicochetState, limit: int) -> int | None:
    """The least cost that solves ``state`` (moves, plus walls the transparent robot passes), by uniform-cost
    search over copies of the state keyed by what the rules remember; None when it is more than ``limit``."""
    if state.player == TERMINAL:
        return 0
    base = state.cost
    best: dict[tuple[Any, ...], int] = {memory(state): 0}
    heap: list[tuple[int, int, int, RicochetState]] = [(0, 1, 0, state.copy())]
    tick = itertools.count(1)
    while heap:
        cost, kind, _, node = heapq.heappop(heap)
        if kind == 0:
            return cost  # a solved position comes off the heap first among those of its cost
        if cost > best.get(memory(node), cost):
            continue
        for move in node.legal_moves():
            node.play(move)  # each child looked at in place, copied only when it is kept
            c = node.cost - base
            if c <= limit:
                if node.player == TERMINAL:
                    heapq.heappush(heap, (c, 0, next(tick), node.copy()))
                elif c < limit and c < best.get(key := memory(node), limit):  # at the limit: no move is left
                    best[key] = c
                    heapq.heappush(heap, (c, 1, next(tick), node.copy()))
            node.undo()
    return None


def naive_lines(state: RicochetState, cost: int) -> list[tuple[int, ...]]:
    """Every line of exactly ``cost`` that solves ``state`` at its last move (depth first over the rules)."""
    out: list[tuple[int, ...]] = []

    def extend(node: RicochetState, line: tuple[int, ...]) -> None:
        spent = node.cost - state.cost
        if node.player == TERMINAL:
            if spent == cost:
                out.append(line)
            return
        for move in node.legal_moves():
            child = node.copy()
            child.play(move)
            if child.cost - state.cost <= cost:
                extend(child, (*line, move))

    extend(state, ())
    return out


# ----- positions to try ----------------------------------------------------------------------------------
def near_goal(options: dict[str, Any], seed: int, left: int, wander: int, vortex: bool) -> RicochetState:
    """A seeded puzzle (its target made the vortex when asked), played along the solver's own line until about
    ``left`` is left, then ``wander`` random moves: positions part way with turns and last moves to carry."""
    game = damier.load("ricochet", **options)
    state = game.new_state(seed)
    assert isinstance(state, RicochetState)
    if vortex:
        words = notation.puzzle_id(state.puzzle).split(".")
        words[2] = "v"
        state = game.state_from_position(".".join(words))
    assert isinstance(state, RicochetState)
    line = search.solve(state)
    for move in line.moves[: max(0, line.cost - left)]:
        state.play(move)
    rng = random.Random(seed)
    for _ in range(wander):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
        if state.player == TERMINAL:
            state.undo()
            break
    return state


def check_against_naive(state: RicochetState, limit: int) -> int | None:
    found = search.solve(state, max_cost=limit)
    expected = naive_cost(state, limit)
    assert (found.cost if found.found else None) == expected, state.position()
    if found.found:
        replay = state.copy()
        for move in found.moves:
            replay.play(move)
        assert replay.player == TERMINAL and replay.cost - state.cost == found.cost
    return expected


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_optimal_cost_matches_a_naive_search(options: dict[str, Any]) -> None:
    seeds = range(2) if NO_JIT else range(4)
    costs = []
    for seed, wander, vortex in itertools.product(seeds, (0, 2), (False, True)):
        costs.append(check_against_naive(near_goal(options, seed, 4, wander, vortex), 4))
    assert any(c is not None and c >= 2 for c in costs)  # the comparison saw real lines, not only "none"


@needs_jit
@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_optimal_cost_matches_a_naive_search_further_from_the_goal(options: dict[str, Any]) -> None:
    for seed, wander, vortex in itertools.product(range(10, 13), (0, 3), (False, True)):
        check_against_naive(near_goal(options, seed, 5, wander, vortex), 5)


def test_the_table_slide_is_a_walk_square_by_square() -> None:
    stops = np.empty(1024, dtype=np.int64)
    rng = random.Random(5)
    for _ in range(20):
        state = damier.load("ricochet", silver=True).new_state(rng.randrange(1000))
        assert isinstance(state, RicochetState)
        kernel.stop_table(state.puzzle.board.walls, stops)
        cells = state.robots[:5].copy()
        walls = state.puzzle.board.walls
        for r in range(5):
            for d in range(4):
                cell = int(cells[r])  # the naive slide: square by square until a wall or a robot ahead
                while not walls[cell] & (1, 2, 4, 8)[d] and cell + (-16, 1, 16, -1)[d] not in set(cells.tolist()):
                    cell += (-16, 1, 16, -1)[d]
                assert kernel.slide(stops, cells, 5, r, d) == cell


def test_the_bound_never_exceeds_the_cost() -> None:
    for seed in range(8 if NO_JIT else 30):
        state = damier.load("ricochet", ricochet="strict").new_state(seed)
        prob = search.problem(state)
        assert prob.lower_bound() <= search.solve(state).cost


def raised_bound(state: RicochetState) -> int:
    """The search's bound: the smallest robot bound, plus one when no robot of that bound can finish alone."""
    prob = search.problem(state)
    raw = prob.lower_bound()
    for o in range(prob.movable):
        table = prob.tbound if o == prob.tslot else prob.bound
        if prob.finisher[o] and table[prob.cells[o] * 4 + prob.axes[o]] == raw and (
                o == prob.tslot or search_kernel.alone(prob.stops, prob.bound, prob.cells, prob.cells.shape[0], o,
                                                       int(prob.axes[o]), raw, prob.target)):
            return raw
    return raw + 1


@pytest.mark.parametrize("options", [{}, {"ricochet": "strict"}, {"transparent": True}, {"silver": True}])
def test_the_raised_bound_never_exceeds_the_cost_left(options: dict[str, Any]) -> None:
    for seed in range(4 if NO_JIT else 15):
        state = near_goal(options, seed, 99, 0, seed % 3 == 0)
        found = search.solve(state)
        spent = 0
        for move in found.moves:
            assert raised_bound(state) <= found.cost - spent, state.position()
            before = state.cost
            state.play(move)
            spent += state.cost - before


def test_the_search_finds_the_same_costs_with_or_without_the_raised_bound() -> None:
    for seed in range(5 if NO_JIT else 40):
        prob = search.problem(damier.load("ricochet", ricochet="if_trivial").new_state(seed))
        raised, _ = prob.search(search.MAX_COST, None)
        plain, _ = prob.search(search.MAX_COST, None, boost=False)
        assert raised[1] == plain[1] and raised[2] <= plain[2] * 2


# ----- the hardest known puzzles -------------------------------------------------------------------------
@needs_jit
@pytest.mark.parametrize("puzzle", list(HARD))
def test_the_hardest_known_puzzles(puzzle: str) -> None:
    state = search.puzzle_state(puzzle, {})
    found = search.solve(state)
    assert found.found and found.optimal and found.cost == HARD[puzzle] == len(found.moves)
    replay = state.copy()
    for move in found.moves:
        replay.play(move)
    assert replay.is_over()
    assert not search.solve(state, max_cost=HARD[puzzle] - 1).found


# ----- lines, limits -------------------------------------------------------------------------------------
def test_a_transparent_line_costs_the_walls_it_passes() -> None:
    costs = set()
    for seed in (1, 5, 7, 9, 13, 21) if NO_JIT else range(40):
        state = damier.load("ricochet", transparent=True).new_state(seed)
        found = search.solve(state)
        passed = sum(parts_of(m)[2] for m in found.moves)
        assert found.cost == len(found.moves) + passed
        costs.add(passed > 0)
    assert costs == {False, True}  # some optimal lines pass walls, some do not


def test_a_solved_position_needs_nothing() -> None:
    state = near_goal({}, 3, 1, 0, False)
    found = search.solve(state)
    state.play(found.moves[0])
    assert state.is_over()
    assert search.solve(state) == search.solve(state, max_cost=0) and search.solve(state).cost == 0


def test_max_cost_bounds_the_search() -> None:
    state = damier.load("ricochet").new_state(11)
    found = search.solve(state)
    assert search.solve(state, max_cost=found.cost).cost == found.cost
    short = search.solve(state, max_cost=found.cost - 1)
    assert not short.found and short.optimal and short.moves == ()


def test_node_limit_is_honoured() -> None:
    state = damier.load("ricochet").new_state(11)
    found = search.solve(state)
    assert found.nodes > 10
    limited = search.solve(state, node_limit=5)
    assert not limited.found and not limited.optimal and limited.nodes <= 6
    assert search.solve(state, node_limit=found.nodes).cost == found.cost


def test_no_line_goes_past_the_move_limit() -> None:
    state = damier.load("ricochet").new_state(11)
    assert isinstance(state, RicochetState)
    found = search.solve(state)
    for cost, expected in ((MOVE_LIMIT - found.cost, found.cost), (MOVE_LIMIT - found.cost + 1, None)):
        late = state.copy()
        late.cost = cost  # as if that much were used already: a line must solve before the limit ends the puzzle
        answer = search.solve(late)
        assert (answer.cost if answer.found else None) == expected and answer.optimal
    over = state.copy()
    over.cost = MOVE_LIMIT
    assert over.is_over() and not search.solve(over).found
    with pytest.raises(StateError, match="not solved within"):
        search.hint(over, 1)


def test_under_the_strict_rule_a_robot_on_its_target_must_still_turn() -> None:
    # the red robot stands on its target but has not turned: it leaves and comes back, turning
    state = search.puzzle_state("1A2A3A4A.94FFF08F.rc.s", {})
    assert search.solve(state).cost == 3


# ----- analysis ------------------------------------------------------------------------------------------
def test_every_optimal_line_and_the_fewest_robots() -> None:
    for seed, options in ((1, {}), (2, {"ricochet": "strict"}), (4, {"transparent": True, "rebound": False})):
        state = near_goal(options, seed, 3, 0, seed == 2)
        cost = search.solve(state).cost
        answer = search.analyse(state, all_paths=True)
        lines = naive_lines(state, cost)
        assert answer["length"] == cost and answer["count"] == len(lines)
        assert sorted(answer["all"]) == sorted([state.move_to_str(m) for m in line] for line in lines)
        assert answer["fewest_robots"] == min(len({parts_of(m)[0] for m in line}) for line in lines)
        assert answer["rules"]["ricochet"] == state.puzzle.ricochet


def test_fewest_robots_by_search_matches_the_listing() -> None:
    state = damier.load("ricochet").new_state(8)
    answer = search.analyse(state, all_paths=True)
    assert search.fewest_robots(state, answer["length"], ROBOTS) == answer["fewest_robots"]


def test_analyse_answers_and_refuses_exact() -> None:
    state = damier.load("ricochet").new_state(6)
    answer = search.analyse(state)
    assert set(answer) >= {"length", "moves", "nodes", "seconds", "rules"}
    assert answer["length"] == len(answer["moves"]) == search.solve(state).cost
    with pytest.raises(StateError, match="--exact"):
        search.analyse(state, exact=3)


# ----- hints ---------------------------------------------------------------------------------------------
def test_hints_grow_from_a_band_to_the_solution() -> None:
    state = damier.load("ricochet").new_state(9)
    cost = search.solve(state).cost
    band, under, length, line = (search.hint(state, level) for level in (1, 2, 3, 4))
    assert [h["kind"] for h in (band, under, length, line)] == list(search.HINT_LEVELS)
    assert band["low"] <= cost <= band["high"] and under["under"] > cost and length["length"] == cost
    assert len(line["moves"]) == cost and line["text"] == " ".join(line["moves"])
    for bad in (0, 5, True, "1"):
        with pytest.raises(StateError):
            search.hint(state, bad)  # type: ignore[arg-type]
    solved = state.copy()
    for move in search.solve(state).moves:
        solved.play(move)
    with pytest.raises(StateError, match="solved"):
        search.hint(solved, 1)


# ----- the puzzle feature --------------------------------------------------------------------------------
def test_the_puzzle_sets_the_options() -> None:
    state = search.puzzle_state("1A2B3C4D.E2302B12FF.bt.sx", {})
    game = state.game
    assert isinstance(game, RicochetGame)
    assert (game.ricochet, game.rebound, game.silver, game.transparent) == ("strict", False, True, False)
    json_form = ('{"quadrants": ["1A", "2A", "3A", "4A"], "robots": {"red": [4, 9], "green": [15, 15], '
                 '"blue": [0, 15], "yellow": [15, 8], "transparent": [3, 3]}, "target": {"color": "red", '
                 '"cell": [4, 1]}, "rebound": false}')
    game = search.puzzle_state(json_form, {}).game
    assert isinstance(game, RicochetGame) and game.transparent and not game.silver and not game.rebound


def test_options_given_win_for_the_rules_and_must_agree_on_the_robots() -> None:
    state = search.puzzle_state("7650+42+E2302B12+C9", {"ricochet": "if_trivial", "rebound": "false"})
    assert (state.puzzle.ricochet, state.puzzle.rebound) == ("if_trivial", False)
    with pytest.raises(OptionError, match="silver"):
        search.puzzle_state("7650+42+E2302B12+C9", {"silver": True})
    with pytest.raises(OptionError):
        search.puzzle_state("7650+42+E2302B12+C9", {"ricochet": "sometimes"})


def test_the_puzzle_carries_a_position_part_way() -> None:
    state = search.puzzle_state("1A2A3A4A.94FFF08F.rc A4FFF08F---- 1 s----- RS", {})
    assert state.moves_used == 1 and search.solve(state).cost == 1


@pytest.mark.parametrize("text", ["", "   ", "1A2A3A4A.94FF.rc", "7650+42+E2302B12", "{\"quadrants\": 3}", "{oops"])
def test_bad_puzzles_are_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        search.puzzle_state(text, {})


def test_bad_limits_and_states_are_refused() -> None:
    state = damier.load("ricochet").new_state(1)
    for kwargs in ({"max_cost": -1}, {"node_limit": -5}, {"max_cost": 2.5}, {"node_limit": True}):
        with pytest.raises(StateError):
            search.solve(state, **kwargs)
    with pytest.raises(StateError, match="Ricochet Robots state"):
        search.solve(damier.load("micro").new_state(1))


def test_the_game_declares_the_features() -> None:
    info = damier.load("ricochet").info
    for feature in ("solver", "analyse", "hints", "puzzle"):
        assert info.has(feature)
    assert info.hook("solver") is search.solve


# ----- damier solve --------------------------------------------------------------------------------------
def test_solve_batch_answers_each_line_with_its_id(tmp_path: Path) -> None:
    strict = dict(json_obj(), id="s", ricochet="strict")
    lines = [json.dumps(dict(json_obj(), id="a")), "", json.dumps(strict), '"1A2A3A4A.94FFF08F.rc"',
             '{"id": "bad", "quadrants": ["1A"]}', "not json"]
    path = tmp_path / "puzzles.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = invoke("solve", "ricochet", "--batch", str(path))
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 1 and len(answers) == 5
    assert answers[0]["id"] == "a" and answers[0]["length"] == 1 and answers[0]["rules"]["ricochet"] == "off"
    assert answers[1]["id"] == "s" and answers[1]["length"] == 3 and answers[1]["rules"]["ricochet"] == "strict"
    assert "id" not in answers[2] and answers[2]["moves"] == ["RN"]
    assert answers[3]["id"] == "bad" and "is not a board" in answers[3]["error"]
    assert answers[4] == {"line": 6, "error": "line 6 is not JSON (Expecting value, column 1)"}


def test_solve_takes_game_options_as_flags() -> None:
    flagged = invoke("solve", "ricochet", "--puzzle", "1A2A3A4A.94FFF08F.rc", "--ricochet", "strict", "--json")
    opted = invoke("solve", "ricochet", "--puzzle", "1A2A3A4A.94FFF08F.rc", "--opt", "ricochet=strict", "--json")
    assert json.loads(flagged.stdout)["length"] == json.loads(opted.stdout)["length"] == 3
    bad = invoke("solve", "ricochet", "--puzzle", "1A2A3A4A.94FFF08F.rc", "--ricochet")
    assert bad.exit_code == 2 and "--ricochet needs a value" in bad.stderr
    unknown = invoke("solve", "ricochet", "--puzzle", "1A2A3A4A.94FFF08F.rc", "--colour", "red")
    assert unknown.exit_code == 2 and "'--colour' is not an option" in unknown.stderr


def json_obj() -> dict[str, Any]:
    """The JSON form of 1A2A3A4A.94FFF08F.rc: red on e10 below its circle on e2 (one move, RN)."""
    return {"quadrants": ["1A", "2A", "3A", "4A"], "robots": {"red": [4, 9], "green": [15, 15], "blue": [0, 15],
                                                               "yellow": [15, 8]},
            "target": {"color": "red", "cell": [4, 1]}}
