"""The ``solver`` agent: plays the first move of the game's exact solver (puzzles declare a ``solver``).

A solver answers ``Solution(moves, cost, optimal, nodes)`` for a whole line; the agent plays its first move and
keeps the rest, so the next ``choose`` from the position that line reaches costs nothing.
"""

from __future__ import annotations

from damier.core.errors import StateError
from damier.core.game import Iteration, Solution, State


class SolverAgent:
    """Play the optimal line of the game's declared solver, one move at a time.

    ``node_limit`` bounds each solve (``StateError`` when nothing was found within it); ``max_cost`` bounds the
    lines the solver looks at.
    """

    def __init__(self, node_limit: int | None = None, max_cost: int | None = None, spec: str = "solver") -> None:
        self.node_limit = node_limit
        self.max_cost = max_cost
        self.spec = spec
        self.info = Iteration()
        self._line: list[int] = []
        self._after: list[int] = []  # the history the kept line continues

    def reset(self) -> None:
        self._line = []
        self._after = []

    def solve(self, state: State) -> Solution:
        """The solver's answer for ``state`` (the game must declare a ``solver``)."""
        solution: Solution = state.game.info.hook("solver")(state, self.max_cost, self.node_limit)
        return solution

    def choose(self, state: State) -> int:
        if state.player < 0:
            raise StateError("the solver chooses moves for a player; this state is a chance node or over")
        if self._line and state.history == self._after and state.is_legal(self._line[0]):
            move = self._line.pop(0)
        else:
            solution = self.solve(state)
            if not solution.found:
                raise StateError(f"the solver found no solution within its limits ({solution.nodes} nodes searched)")
            if not solution.moves:
                raise StateError("the puzzle is already solved: there is no move to play")
            self.info = Iteration(move=solution.moves[0], score=solution.cost, depth=solution.cost,
                                  nodes=solution.nodes, pv=list(solution.moves))
            move, self._line = solution.moves[0], list(solution.moves[1:])
        self._after = [*state.history, move]
        return move
