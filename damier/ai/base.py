"""What every computer player offers: choose a move for the player to move, and report how it thought."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from damier.core.errors import StateError
from damier.core.game import CHANCE, State


@dataclass
class SearchInfo:
    """What the last ``choose`` did, for hints, logs and the engine protocol."""

    move: int | None = None
    score: float | None = None
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    pv: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "score": self.score, "depth": self.depth, "nodes": self.nodes,
                "seconds": round(self.seconds, 4), "pv": list(self.pv)}


class Agent(Protocol):
    """A computer player. ``spec`` is the string that builds it again (``mcts:time=1.0``).

    An agent that holds resources (an external engine's process: ``ext:COMMAND``) also has ``close()``, which
    releases them and leaves the agent usable (it starts again when asked for a move). Whoever builds agents
    calls ``close_agent`` on each when done; it does nothing for agents without ``close``.
    """

    spec: str
    info: SearchInfo

    def choose(self, state: State) -> int:
        """A legal move for ``state.player`` (the state is left as it was)."""
        ...

    def reset(self) -> None:
        """Forget everything about the current game (a new game starts)."""
        ...


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome of ``state`` with its probability (the game's own dice, not a player's choice)."""
    if state.player != CHANCE:
        raise StateError("sample_chance needs a state at a chance node")
    outcomes = state.chance_outcomes()
    moves = [m for m, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(moves, weights=weights, k=1)[0]


class AgentFailure(Exception):
    """An agent that cannot give a move: its engine crashed, timed out or answered an illegal move.

    The match records a loss for that agent, with ``reason`` (words that follow the player's name: ``Red's
    engine timed out ...``).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def close_agent(agent: Agent) -> None:
    """Release what ``agent`` holds (an external engine's process); agents that hold nothing have no ``close``."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
