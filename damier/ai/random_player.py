"""The uniformly random player: the baseline every engine must beat, and the opening randomiser."""

from __future__ import annotations

import random

from damier.core.errors import StateError
from damier.core.game import Iteration, State


class RandomAgent:
    """Plays a uniformly random legal move.

    >>> import damier
    >>> state = damier.load("atoms", rows=3, cols=3).new_state()
    >>> RandomAgent(seed=1).choose(state) in state.legal_moves()
    True
    """

    def __init__(self, seed: int | None = None, spec: str = "random") -> None:
        self.spec = spec
        self.seed = seed
        self.rng = random.Random(seed)
        self.info = Iteration()

    def choose(self, state: State) -> int:
        moves = state.legal_moves()
        if not moves:
            raise StateError("there is no legal move to choose from")
        move = self.rng.choice(moves)
        self.info = Iteration(move=move)
        return move

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
