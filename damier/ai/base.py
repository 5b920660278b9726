"""What every computer player offers: choose a move for the player to move, and report how it thought."""

from __future__ import annotations

from typing import Any, Protocol

from damier.core.game import Iteration, State


class Agent(Protocol):
    """A computer player. ``spec`` is the string that builds it again (``mcts:time=1.0``).

    An agent that holds resources (an external engine's process: ``ext:COMMAND``) also has ``close()``, which
    releases them and leaves the agent usable (it starts again when asked for a move). Whoever builds agents
    calls ``close_agent`` on each when done; it does nothing for agents without ``close``.
    """

    spec: str
    #: how the last ``choose`` thought (move, score, depth, nodes, seconds, principal variation)
    info: Iteration

    def choose(self, state: State) -> int:
        """A legal move for ``state.player`` (the state is left as it was)."""
        ...

    def reset(self) -> None:
        """Forget everything about the current game (a new game starts)."""
        ...


class AgentFailure(Exception):
    """An agent that cannot give a move: its engine crashed, timed out or answered an illegal move.

    The match records a loss for that agent, with ``reason`` (words that follow the player's name: ``Red's
    engine timed out ...``).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AgentResigned(Exception):
    """An agent that gives the game up while it has legal moves: an external engine that answered ``bestmove
    none`` (Khet2-AI does when every move loses to a forced mate).

    Not a failure: the match ends by resignation (``damier.core.game.resignation``, termination
    ``RESIGNATION``); ``reason`` says what the agent did (``engine answered bestmove none ...``).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def untold_rules(agent: Agent) -> dict[str, Any]:
    """The game's rules that ``agent`` plays the current game without having been told (an external engine
    that refused ``setoption`` under ``ext(untold=play)``: option name -> the value in force); empty for others."""
    untold = getattr(agent, "untold", None)
    return dict(untold) if isinstance(untold, dict) else {}


def close_agent(agent: Agent) -> None:
    """Release what ``agent`` holds (an external engine's process); agents that hold nothing have no ``close``."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
