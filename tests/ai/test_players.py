"""The generic players over the game contract: random, MCTS, alpha-beta (kernel and Python), and agent specs.

Exploding Atoms on small boards is the game under test; the positions below are checked by brute force in
the tests themselves, so a wrong position fails loudly instead of testing nothing.
"""

from __future__ import annotations

import random
import time

import pytest

import damier
from damier.agents import LEVELS, make_agent
from damier.agents.spec import resolve
from damier.ai import AlphaBetaAgent, MCTSAgent, RandomAgent
from damier.ai.deepening import Deepening
from damier.core.game import State
from damier.games.atoms import INFO as ATOMS_INFO
from damier.games.atoms.search import AtomsSearch

#: Red to move; A1 (critical corner) explodes into B1, Blue's only square: the only immediate win.
WIN_IN_ONE = "1r,1b,./.,.,./.,.,. r rb 2"
#: Red to move with no immediate win; after every Red move but C2, Blue wins at once.
ONE_SAFE_MOVE = "1r,1r,1r/2b,2r,./.,2b,1r r rb 10"


def small_game(rows: int = 3, cols: int = 3, players: int = 2) -> damier.Game:
    return damier.load("atoms", rows=rows, cols=cols, players=players)


def immediate_wins(state: State) -> list[int]:
    """The moves that end the game at once (a win for the mover: atoms has no draws)."""
    wins = []
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        if after.is_over():
            wins.append(move)
    return wins


def losing_moves(state: State) -> list[int]:
    """The moves after which the next player has an immediate win."""
    return [m for m in state.legal_moves() if immediate_wins(_after(state, m))]


def _after(state: State, move: int) -> State:
    after = state.copy()
    after.play(move)
    return after


def random_positions(game: damier.Game, count: int, seed: int, max_plies: int = 10) -> list[State]:
    """Positions reached by random play, still going and with a real choice to make."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_state()
        for _ in range(rng.randrange(2, max_plies + 1)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_over() and len(state.legal_moves()) > 1:
            positions.append(state)
    return positions


def play_out(state: State, choosers: list) -> None:
    """Play ``state`` to the end, seat ``i`` choosing with ``choosers[i]``; every choice must be legal."""
    while not state.is_over():
        before = (state.position(), list(state.history))
        move = choosers[state.player].choose(state)
        assert (state.position(), state.history) == before, "choose() must leave the state as it was"
        assert move in state.legal_moves()
        state.play(move)


# ----- random ---------------------------------------------------------------------------------------------
def test_random_agent_plays_only_legal_moves_to_the_end() -> None:
    for seed in range(5):
        state = small_game(3, 4, players=3).new_state()
        agent = RandomAgent(seed=seed)
        play_out(state, [agent, agent, agent])
        assert state.outcome() is not None


def test_random_agent_is_reproducible_with_a_seed() -> None:
    def game_moves(seed: int) -> list[int]:
        state = small_game(4, 4).new_state()
        agents = [RandomAgent(seed=seed), RandomAgent(seed=seed + 1)]
        play_out(state, agents)
        return list(state.history)

    assert game_moves(11) == game_moves(11)
    assert game_moves(11) != game_moves(12)


def test_random_agent_reset_replays_the_same_choices() -> None:
    state = small_game().new_state()
    agent = RandomAgent(seed=4)
    first = [agent.choose(state) for _ in range(20)]
    agent.reset()
    assert [agent.choose(state) for _ in range(20)] == first
    assert len(set(first)) > 1  # the choices are random, not a constant


def test_random_agent_refuses_a_finished_game() -> None:
    state = small_game().state_from_position(WIN_IN_ONE)
    state.play(state.parse_move("A1"))
    with pytest.raises(damier.StateError):
        RandomAgent(seed=0).choose(state)


def test_make_agent_seeds_random_unless_the_spec_sets_a_seed() -> None:
    game = small_game(4, 4)
    state = game.new_state()

    def choices(agent: damier.ai.Agent) -> list[int]:
        return [agent.choose(state) for _ in range(10)]

    assert choices(make_agent("random", game, seed=3)) == choices(RandomAgent(seed=3))
    assert choices(make_agent("random:seed=9", game, seed=3)) == choices(RandomAgent(seed=9))
    assert choices(RandomAgent(seed=9)) != choices(RandomAgent(seed=3))


# ----- MCTS -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("playouts", [1, 7, 64])
def test_mcts_runs_exactly_the_requested_number_of_playouts(playouts: int) -> None:
    state = small_game().new_state()
    agent = MCTSAgent(playouts=playouts, seed=0)
    assert agent.choose(state) in state.legal_moves()
    assert agent.info.nodes == playouts


def test_mcts_plays_only_legal_moves_to_the_end() -> None:
    state = small_game(3, 4, players=3).new_state()
    play_out(state, [MCTSAgent(playouts=40, seed=1), RandomAgent(seed=2), MCTSAgent(playouts=40, seed=3)])
    assert state.outcome() is not None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcts_finds_the_immediately_winning_move(seed: int) -> None:
    state = small_game().state_from_position(WIN_IN_ONE)
    assert immediate_wins(state) == [state.parse_move("A1")]
    agent = MCTSAgent(playouts=300, seed=seed)
    assert state.move_to_str(agent.choose(state)) == "A1"
    assert agent.info.score == 1.0  # every visit of a won child returns a win


def test_mcts_is_reproducible_with_a_seed() -> None:
    state = small_game(4, 4).new_state()
    first, second = MCTSAgent(playouts=100, seed=5), MCTSAgent(playouts=100, seed=5)
    assert first.choose(state) == second.choose(state)
    assert first.info.score == second.info.score


def test_mcts_reuses_its_tree_across_moves() -> None:
    state = small_game(3, 4).new_state()
    agent = MCTSAgent(playouts=200, seed=1)
    state.play(agent.choose(state))
    state.play(RandomAgent(seed=1).choose(state))
    move = agent.choose(state)
    assert move in state.legal_moves()
    assert agent.info.nodes == 200
    # the root is the reused subtree: it had visits before this search added its 200
    assert agent.root_visits > 200

    fresh = MCTSAgent(playouts=200, seed=1, reuse=False)
    fresh.choose(state)
    assert fresh.root_visits == 200


def test_mcts_tree_reuse_survives_undo_and_a_different_line() -> None:
    state = small_game(3, 4).new_state()
    agent = MCTSAgent(playouts=100, seed=2)
    state.play(agent.choose(state))
    state.play(state.legal_moves()[0])
    agent.choose(state)
    state.undo()
    state.undo()
    state.play(state.legal_moves()[-1])  # a line the tree may not have explored first
    state.play(state.legal_moves()[0])
    assert agent.choose(state) in state.legal_moves()
    other_game = small_game(3, 3).new_state()  # another game entirely: a fresh tree
    assert agent.choose(other_game) in other_game.legal_moves()


def test_mcts_with_a_time_limit_returns_a_legal_move() -> None:
    state = small_game(4, 4).new_state()
    agent = make_agent("mcts:time=0.05", small_game(4, 4), seed=0)
    assert agent.choose(state) in state.legal_moves()
    assert agent.info.nodes >= 1


def test_mcts_refuses_a_finished_game() -> None:
    state = small_game().state_from_position(WIN_IN_ONE)
    state.play(state.parse_move("A1"))
    with pytest.raises(damier.StateError):
        MCTSAgent(playouts=10, seed=0).choose(state)


# ----- alpha-beta -----------------------------------------------------------------------------------------
def paranoid_minimax(state: State, depth: int, root: int) -> float | None:
    """Plain paranoid minimax with the game's default evaluation; None once a decided position is reached."""
    if state.is_over():
        return None
    if depth == 0:
        return state.game.evaluate(state, root)
    values = []
    for move in state.legal_moves():
        value = paranoid_minimax(_after(state, move), depth - 1, root)
        if value is None:
            return None  # a decided line: its score scale is compared elsewhere
        values.append(value)
    return max(values) if state.player == root else min(values)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_kernel_and_python_alphabeta_agree_on_the_score(players: int, depth: int) -> None:
    """The kernel's exact search (no quiescence, no reductions) is the plain minimax of ``depth`` plies."""
    game = small_game(3, 4, players=players)
    compared = 0
    for state in random_positions(game, count=8, seed=100 * players + depth):
        kernel = Deepening(AtomsSearch(game, selective=False)).think(state, max_depth=depth)
        python = make_agent(f"alphabeta:depth={depth},kernel=false", game)
        python_move = python.choose(state)
        assert kernel.move in state.legal_moves() and python_move in state.legal_moves()
        reference = paranoid_minimax(state, depth, state.player)
        if reference is None or game.is_decided_score(kernel.score):
            continue
        compared += 1
        assert kernel.score == python.info.score == reference, state.position()
        assert kernel.depth == python.info.depth == depth
    assert compared >= 4, "too few undecided positions to compare"


def capturing_explosions(state: State) -> list[int]:
    """The mover's critical squares next to another player's square (the moves the quiescence search tries)."""
    cells = [cell for row in state.cells() for cell in row]  # type: ignore[attr-defined]
    cols = state.game.board_shape[1]
    me = state.player
    found = []
    for index, cell in enumerate(cells):
        if cell.owner != me or cell.count != cell.capacity - 1:
            continue
        row, col = divmod(index, cols)
        around = [(row + dr, col + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        if any(0 <= r < len(cells) // cols and 0 <= c < cols and cells[r * cols + c].owner not in (-1, me)
               for r, c in around):
            found.append(index)
    return found


def quiescent_minimax(state: State, depth: int, root: int, explosions: int = 2) -> float | None:
    """Paranoid minimax to ``depth``, then at each leaf the side to move either stands on the evaluation or
    starts one of its capturing explosions, ``explosions`` plies deep; None once a decided position is reached."""
    if state.is_over():
        return None
    if depth > 0:
        values = []
        for move in state.legal_moves():
            value = quiescent_minimax(_after(state, move), depth - 1, root, explosions)
            if value is None:
                return None
            values.append(value)
        return max(values) if state.player == root else min(values)
    standing = state.game.evaluate(state, root)
    if explosions == 0 or state.game.is_decided_score(standing):
        return None if state.game.is_decided_score(standing) else standing
    values = [standing]
    for move in capturing_explosions(state):
        value = quiescent_minimax(_after(state, move), 0, root, explosions - 1)
        if value is None:
            return None
        values.append(value)
    return max(values) if state.player == root else min(values)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("depth", [1, 2])
def test_the_selective_kernel_search_is_minimax_with_a_quiescence_search(players: int, depth: int) -> None:
    """Below the depth of the late-move reductions, the levels' search is exactly a minimax whose leaves try
    the capturing explosions (the naive reference above); the positions must offer such explosions."""
    game = small_game(4, 4, players=players)
    compared = exploding = 0
    for state in random_positions(game, count=40, seed=7 * players + depth, max_plies=16):
        found = Deepening(AtomsSearch(game)).think(state, max_depth=depth)
        reference = quiescent_minimax(state, depth, state.player)
        if reference is None or game.is_decided_score(found.score):
            continue
        compared += 1
        exploding += paranoid_minimax(state, depth, state.player) != reference
        assert found.score == reference, state.position()
    assert compared >= 10 and exploding >= 3, (compared, exploding)


def test_forced_win_score_is_on_the_same_scale_in_both_searches() -> None:
    """A forced win must be reported alike by ``alphabeta:depth=D`` with and without the kernel."""
    game = small_game()
    state = game.state_from_position(WIN_IN_ONE)
    kernel = make_agent("alphabeta:depth=2", game)
    python = make_agent("alphabeta:depth=2,kernel=false", game)
    assert kernel.choose(state) == python.choose(state) == state.parse_move("A1")
    assert kernel.info.score == python.info.score


@pytest.mark.parametrize("kernel", ["true", "false"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alphabeta_plays_the_win_in_one(kernel: str, depth: int) -> None:
    game = small_game()
    state = game.state_from_position(WIN_IN_ONE)
    agent = make_agent(f"alphabeta:depth={depth},kernel={kernel}", game)
    assert state.move_to_str(agent.choose(state)) == "A1"
    assert agent.info.score is not None and agent.info.score > 0
    assert game.is_decided_score(agent.info.score)


@pytest.mark.parametrize("kernel", ["true", "false"])
@pytest.mark.parametrize("depth", [2, 3])
def test_alphabeta_avoids_an_immediate_loss(kernel: str, depth: int) -> None:
    game = small_game()
    state = game.state_from_position(ONE_SAFE_MOVE)
    assert immediate_wins(state) == []
    losing = losing_moves(state)
    safe = [m for m in state.legal_moves() if m not in losing]
    assert [state.move_to_str(m) for m in safe] == ["C2"] and len(losing) >= 5
    agent = make_agent(f"alphabeta:depth={depth},kernel={kernel}", game)
    assert state.move_to_str(agent.choose(state)) == "C2"


@pytest.mark.parametrize("spec", ["alphabeta:time=0.05", "alphabeta:time=0.05,kernel=false"])
def test_alphabeta_time_limit_returns_a_legal_move(spec: str) -> None:
    game = small_game(4, 4)
    state = game.new_state()
    state.play(state.parse_move("B2"))
    agent = make_agent(spec, game)
    assert agent.choose(state) in state.legal_moves()
    assert agent.info.depth >= 1


def test_alphabeta_reports_the_depth_it_searched() -> None:
    game = small_game(3, 4)
    state = game.new_state()
    agent = make_agent("alphabeta:depth=3", game)
    agent.choose(state)
    assert agent.info.depth == 3
    assert agent.info.nodes > 0
    assert agent.info.pv and agent.info.pv[0] == agent.info.move


def test_alphabeta_plays_a_lone_legal_move_without_searching() -> None:
    state = small_game(2, 2).state_from_position("1r,1b/1b,1b r rb 4")
    assert state.legal_moves() == [0]
    agent = AlphaBetaAgent(depth=3)
    assert agent.choose(state) == 0
    assert agent.info.depth == 0


def test_alphabeta_leaves_the_state_as_it_was_and_plays_legally() -> None:
    state = small_game(3, 4, players=3).new_state()
    play_out(state, [AlphaBetaAgent(depth=2), AlphaBetaAgent(depth=2, use_kernel=False), RandomAgent(seed=0)])
    assert state.outcome() is not None


def test_alphabeta_refuses_a_finished_game() -> None:
    state = small_game().state_from_position(WIN_IN_ONE)
    state.play(state.parse_move("A1"))
    with pytest.raises(damier.StateError):
        AlphaBetaAgent(depth=2).choose(state)


# ----- agent specs ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_levels_resolve_to_the_specs_the_game_declares(level: str) -> None:
    assert resolve(level, "atoms") == ATOMS_INFO.levels[level]
    assert resolve(f"  {level} ", "atoms") == ATOMS_INFO.levels[level]


def test_named_agent_resolves_to_its_spec() -> None:
    assert resolve("atoms-classic", "atoms") == ATOMS_INFO.agents["atoms-classic"] == "alphabeta:depth=4,eval=classic"
    assert resolve("mcts:playouts=5", "atoms") == "mcts:playouts=5"


def test_levels_build_the_declared_agents() -> None:
    game = small_game()
    easy, medium, hard = (make_agent(level, game) for level in LEVELS)
    assert isinstance(easy, AlphaBetaAgent) and easy.depth == 1
    assert isinstance(medium, AlphaBetaAgent) and medium.depth == 3
    assert isinstance(hard, AlphaBetaAgent) and hard.time_limit == 1.0 and hard.evaluation == "strong"
    assert hard.spec == "hard"  # the agent keeps the name it was asked by
    classic = make_agent("atoms-classic", game)
    assert isinstance(classic, AlphaBetaAgent) and classic.depth == 4 and classic.evaluation == "classic"


def test_spec_parameters_reach_the_agent() -> None:
    game = small_game()
    mcts = make_agent("MCTS: playouts=12, c=0.5, seed=3, reuse=no", game)
    assert isinstance(mcts, MCTSAgent)
    assert (mcts.playouts, mcts.exploration, mcts.seed, mcts.reuse) == (12, 0.5, 3, False)
    ab = make_agent("alphabeta:depth=2,eval=strong,kernel=false", game)
    assert isinstance(ab, AlphaBetaAgent)
    assert (ab.depth, ab.evaluation, ab.use_kernel) == (2, "strong", False)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("nosuch", ["unknown agent 'nosuch'", "random", "mcts", "alphabeta", "hard", "atoms-classic"]),
        ("mcts:budget=3", ["'budget=3' is not a parameter of mcts", "time, playouts, c, seed, reuse"]),
        ("mcts:playouts=many", ["playouts='many' is not an integer"]),
        ("mcts:time=soon", ["time='soon' is not a number"]),
        ("mcts:reuse=maybe", ["reuse='maybe' is not true or false"]),
        ("alphabeta:depth=0", ["depth=0 is out of range", "1 to 64"]),
        ("alphabeta:depth=65", ["depth=65 is out of range"]),
        ("mcts:time=0", ["time=0 is out of range", ">= 0.001"]),
        ("mcts:playouts=0", ["playouts=0 is out of range"]),
        ("alphabeta:eval=nope", ["atoms has no evaluation 'nope'", "classic, strong"]),
        ("", ["non-empty string"]),
    ],
)
def test_bad_specs_raise_a_helpful_agent_spec_error(spec: str, words: list[str]) -> None:
    with pytest.raises(damier.AgentSpecError) as caught:
        make_agent(spec, small_game())
    assert isinstance(caught.value, ValueError)
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize("spec", ["mcts:time=nan", "mcts:time=inf", "alphabeta:time=nan", "alphabeta:time=inf"])
def test_non_finite_time_limits_are_rejected(spec: str) -> None:
    # accepted today: mcts:time=nan searches forever, alphabeta:time=inf/nan raise OverflowError/ValueError
    with pytest.raises(damier.AgentSpecError, match="time"):
        make_agent(spec, small_game())


def test_a_parameter_without_a_value_is_not_called_unknown() -> None:
    with pytest.raises(damier.AgentSpecError) as caught:
        make_agent("mcts:playouts", small_game())
    message = str(caught.value)
    assert "playouts" in message
    assert "is not a parameter" not in message, message  # it is one; it lacks '=value'


def test_a_timed_alpha_beta_is_ready_when_made_and_its_move_s_time_counts_from_when_it_is_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = damier.load("atoms", rows=3, cols=3)
    assert make_agent("alphabeta:depth=2", game).searcher is None  # untimed: its search is built when first needed
    agent = make_agent("alphabeta:time=0.5", game)
    assert agent.searcher is not None  # timed: built now, not in its first move's time
    asked: list[float] = []
    real_think = Deepening.think
    monkeypatch.setattr(Deepening, "think", lambda self, state, **kw: asked.append(kw["seconds"])
                        or real_think(self, state, **kw))
    state = game.new_state()
    real_moves = type(state).legal_moves

    def slow_moves(self: State) -> list[int]:  # the move's own work before its search takes 0.2 s
        time.sleep(0.2)
        return real_moves(self)

    monkeypatch.setattr(type(state), "legal_moves", slow_moves)
    move = agent.choose(state)
    assert state.is_legal(move) and len(asked) == 1 and asked[0] <= 0.5 - 0.2
