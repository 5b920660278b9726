"""Monte Carlo tree search (UCT) for any number of players and for games with chance events.

Each node keeps the sum of returns of every player, so selection maximises the return of whoever moves at
the node (max-n style). Chance nodes are sampled with the game's probabilities. Playouts run inside the
game's kernel when the game offers one (``Game.random_playout``). The tree is kept between moves: when the
game continues from the same line, the search starts from the matching subtree.
"""

from __future__ import annotations

import math
import random
import time

from damier.core.errors import StateError
from damier.core.game import CHANCE, TERMINAL, Iteration, State


class Node:
    __slots__ = ("children", "player", "totals", "untried", "visits")

    def __init__(self, state: State, rng: random.Random) -> None:
        self.player = state.player
        self.visits = 0
        self.totals = [0.0] * state.game.num_players
        self.children: dict[int, Node] = {}
        if self.player in (CHANCE, TERMINAL):
            self.untried: list[int] = []
        else:
            self.untried = state.legal_moves()
            rng.shuffle(self.untried)


class MCTSAgent:
    """UCT with a time or playout budget.

    >>> import damier
    >>> state = damier.load("atoms", rows=3, cols=3).new_state()
    >>> agent = MCTSAgent(playouts=200, seed=1)
    >>> agent.choose(state) in state.legal_moves()
    True
    >>> agent.info.nodes
    200
    """

    def __init__(
        self,
        time_limit: float | None = None,
        playouts: int | None = None,
        exploration: float = 1.0,
        seed: int | None = None,
        reuse: bool = True,
        spec: str = "mcts",
    ) -> None:
        if time_limit is None and playouts is None:
            time_limit = 1.0
        self.time_limit = time_limit
        self.playouts = playouts
        self.exploration = exploration
        self.seed = seed
        self.reuse = reuse
        self.spec = spec
        self.rng = random.Random(seed)
        self.info = Iteration()
        self._root: Node | None = None
        self._root_history: list[int] = []
        self._root_key: tuple[object, ...] = ()

    @property
    def root_visits(self) -> int:
        """The visits of the tree's root after the last ``choose``: this search's playouts plus those of the
        subtree it reused from earlier searches (0 before the first move)."""
        return 0 if self._root is None else self._root.visits

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        self._root = None
        self._root_history = []

    # ----- tree reuse -----------------------------------------------------------------------------------
    def _find_root(self, state: State) -> Node:
        key = (state.game, state.seed, state.start)
        old = self._root
        if self.reuse and old is not None and key == self._root_key:
            known = self._root_history
            if state.history[: len(known)] == known:
                node: Node | None = old
                for move in state.history[len(known) :]:
                    node = node.children.get(move) if node is not None else None
                if node is not None and node.player == state.player:
                    return node
        return Node(state, self.rng)

    # ----- search ---------------------------------------------------------------------------------------
    def choose(self, state: State) -> int:
        if state.player < 0:
            raise StateError("MCTS chooses moves for a player; this state is a chance node or over")
        started = time.perf_counter()
        root = self._find_root(state)
        deadline = None if self.time_limit is None else started + self.time_limit
        iterations = 0
        work = state.copy()
        while True:
            if self.playouts is not None and iterations >= self.playouts:
                break
            if deadline is not None and iterations % 16 == 0 and time.perf_counter() >= deadline and iterations:
                break
            self._iterate(root, work)
            iterations += 1
        move = max(root.children.items(), key=lambda item: item[1].visits)[0]
        child = root.children[move]
        me = state.player
        self.info = Iteration(
            move=move,
            score=child.totals[me] / child.visits if child.visits else 0.0,
            depth=self._depth(child),
            nodes=iterations,
            seconds=time.perf_counter() - started,
            pv=[move],
        )
        self._root, self._root_history, self._root_key = root, list(state.history), (
            state.game, state.seed, state.start)
        return move

    def _depth(self, node: Node) -> int:
        depth = 1
        while node.children:
            node = max(node.children.values(), key=lambda n: n.visits)
            depth += 1
        return depth

    def _iterate(self, root: Node, state: State) -> None:
        node = root
        path = [root]
        played = 0
        while True:
            if node.player == TERMINAL:
                break
            if node.player == CHANCE:
                move = state.sample_chance(self.rng)
                state._apply(move)
                played += 1
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = Node(state, self.rng)
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.untried:
                move = node.untried.pop()
                state._apply(move)
                played += 1
                child = node.children[move] = Node(state, self.rng)
                path.append(child)
                break
            node = self._select(node)
            state._apply(self._last_move)
            played += 1
            path.append(node)
        returns = self._evaluate(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, value in enumerate(returns):
                totals[i] += value
        for _ in range(played):
            state.undo()

    def _select(self, node: Node) -> Node:
        log_n = math.log(node.visits)
        c = self.exploration
        me = node.player
        best_value = -math.inf
        best_move = -1
        best_child = None
        for move, child in node.children.items():
            value = child.totals[me] / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best_value, best_move, best_child = value, move, child
        assert best_child is not None
        self._last_move = best_move
        return best_child

    def _evaluate(self, state: State) -> tuple[float, ...]:
        outcome = state.outcome()
        if outcome is not None:
            return outcome.returns
        return state.game.random_playout(state, self.rng.getrandbits(63))
