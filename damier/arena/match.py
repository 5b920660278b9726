"""One game between computer players: seats, a seeded random opening, chance events, forfeits, the record.

An agent that cannot give a move (``AgentFailure``: an external engine that crashed, timed out or answered an
illegal move) loses the game by forfeit; the result says why.
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass, field
from typing import Any

from damier.ai.base import Agent, AgentFailure, close_agent
from damier.ai.spec import make_agent
from damier.core.game import CHANCE, Game, Outcome, State, forfeit
from damier.core.record import Record, now_iso
from damier.core.registry import load


@dataclass(frozen=True)
class Forfeit:
    """An agent that lost because it could not give a move: its seat, its index, why (``engine timed out ...``)."""

    seat: int
    agent: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "agent": self.agent, "reason": self.reason}


@dataclass
class MatchResult:
    """The outcome of one game, with the index of the agent in each seat.

    After a forfeit the record's result is the forfeit (termination ``FORFEIT``; its moves do not end the game).
    """

    seats: list[int]
    outcome: Outcome
    plies: int
    record: dict[str, Any]
    seconds: float
    move_seconds: dict[int, float] = field(default_factory=dict)
    forfeit: Forfeit | None = None

    @property
    def winner_agent(self) -> int | None:
        """Index (in the agent list) of the winner, or None for a draw."""
        return None if self.outcome.winner is None else self.seats[self.outcome.winner]


def play_match(game: Game, agents: list[Agent], seats: list[int], seed: int, opening_plies: int = 0,
               names: list[str] | None = None) -> MatchResult:
    """Play one game: seat ``s`` is played by ``agents[seats[s]]``.

    The first ``opening_plies`` plies are random (seeded), so that repeated games between deterministic
    engines differ. Chance events are drawn with the same seeded generator.
    """
    rng = random.Random(seed)
    state = game.new_state(seed)
    started_at = now_iso()
    started = time.perf_counter()
    thinking: dict[int, float] = {}
    forfeit: Forfeit | None = None
    for agent in agents:
        agent.reset()
    while not state.is_over():
        if state.player == CHANCE:
            state.play(state.sample_chance(rng))
        elif len(state.history) < opening_plies:
            state.play(rng.choice(state.legal_moves()))
        else:
            index = seats[state.player]
            t = time.perf_counter()
            try:
                move = agents[index].choose(state)
            except AgentFailure as failure:
                forfeit = Forfeit(seat=state.player, agent=index, reason=failure.reason)
                break
            finally:
                thinking[index] = thinking.get(index, 0.0) + time.perf_counter() - t
            state.play(move)
    outcome = state.outcome() if forfeit is None else forfeit_outcome(state, seats, forfeit)
    assert outcome is not None
    players = [names[i] if names else agents[i].spec for i in seats]
    record = Record.from_state(state, players=players, started_at=started_at, result=outcome).to_json()
    return MatchResult(seats=list(seats), outcome=outcome, plies=len(state.history), record=record,
                       seconds=time.perf_counter() - started, move_seconds=thinking, forfeit=forfeit)


def forfeit_outcome(state: State, seats: list[int], lost: Forfeit) -> Outcome:
    """The result of a game that ``lost.agent`` forfeited: it loses in every seat it holds (the one rule of
    ``damier.core.game.forfeit``); when every other seat is one agent's, that agent's first seat is the winner."""
    names = state.game.player_names
    held = [s for s in range(len(seats)) if seats[s] == lost.agent]
    outcome = forfeit(state, held, f"{names[lost.seat]}'s {lost.reason}")
    others = [s for s in range(len(seats)) if seats[s] != lost.agent]
    if outcome.winner is None and others and len({seats[s] for s in others}) == 1:
        outcome = dataclasses.replace(outcome, winner=others[0])
    return outcome


def run_match_task(task: dict[str, Any]) -> MatchResult:
    """Entry point for worker processes: build the game and agents from names and specs, play one game.

    The agents are closed afterwards (an external engine's process ends with its game).
    """
    game = load(task["game"], **task["options"])
    specs: list[str] = task["specs"]
    agents = [make_agent(spec, game, seed=task["seed"] * 31 + i) for i, spec in enumerate(specs)]
    try:
        return play_match(game, agents, task["seats"], task["seed"], task["opening"], names=specs)
    finally:
        for agent in agents:
            close_agent(agent)
