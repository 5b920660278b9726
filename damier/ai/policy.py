"""A game's simple players: a policy the game declares (``policies``), a function (state, rng) -> move.

Baselines that know a game's goal but do not search (Jewels and Lasers' greedy collector) are policies: the agent
``policy:name=NAME`` plays the game's policy ``NAME``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from damier.core.errors import AgentSpecError, StateError
from damier.core.game import Game, Iteration, State

Policy = Callable[[State, random.Random], int]


def policies(game: Game) -> dict[str, Policy]:
    """The policies ``game`` declares (empty when it declares none)."""
    if not game.info.has("policies"):
        return {}
    declared: dict[str, Policy] = game.info.hook("policies")
    return declared


class PolicyAgent:
    """Plays the move the game's policy ``name`` chooses, drawing its ties from its own seeded generator."""

    def __init__(self, game: Game, name: str, seed: int | None = None, spec: str = "policy") -> None:
        known = policies(game)
        if name not in known:
            offered = ", ".join(sorted(known)) or "none"
            raise AgentSpecError(f"agent {spec!r}: {game.name} has no policy {name!r} (it has: {offered})")
        self.spec = spec
        self.seed = seed
        self.policy = known[name]
        self.rng = random.Random(seed)
        self.info = Iteration()

    def choose(self, state: State) -> int:
        if not state.legal_moves():
            raise StateError("there is no legal move to choose from")
        move = self.policy(state, self.rng)
        self.info = Iteration(move=move)
        return move

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
