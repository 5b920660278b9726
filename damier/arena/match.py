"""One game between computer players: seats, a seeded random opening, chance events, forfeits, the record.

An agent that cannot give a move (``AgentFailure``: an external engine that crashed, timed out or answered an
illegal move) loses the game by forfeit; the result says why. An agent that gives the game up (``AgentResigned``:
an external engine that answered ``bestmove none`` with moves left) resigns it. An external engine that played
by rules it could not be told (``ext(untold=play)``) is named in the result's ``untold``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from damier.agents.spec import make_agent
from damier.ai.base import Agent, AgentFailure, AgentResigned, close_agent, untold_rules
from damier.core.game import CHANCE, Game, Outcome, State, forfeit, resignation
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


@dataclass(frozen=True)
class Resignation:
    """An agent that gave the game up with legal moves left: its seat, its index, what it did (``engine answered
    bestmove none with 12 legal moves left``)."""

    seat: int
    agent: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "agent": self.agent, "reason": self.reason}


@dataclass(frozen=True)
class Untold:
    """Rules in force that an agent played without being told them (an external engine that refused
    ``setoption``, under ``ext(untold=play)``): its index, the seats it held, the rules (option -> value)."""

    agent: int
    seats: tuple[int, ...]
    rules: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "seats": list(self.seats), "rules": dict(self.rules)}


@dataclass
class MatchResult:
    """The outcome of one game, with the index of the agent in each seat.

    After a forfeit or a resignation the record's result says so (termination ``FORFEIT`` or ``RESIGNATION``; its
    moves do not end the game). ``untold`` lists the agents that played without being told some of the game's
    rules (the rules in force are the record's ``options``).
    """

    seats: list[int]
    outcome: Outcome
    plies: int
    record: dict[str, Any]
    seconds: float
    move_seconds: dict[int, float] = field(default_factory=dict)
    forfeit: Forfeit | None = None
    resignation: Resignation | None = None
    untold: list[Untold] = field(default_factory=list)

    @property
    def winner_agent(self) -> int | None:
        """Index (in the agent list) of the winner, or None for a draw."""
        return None if self.outcome.winner is None else self.seats[self.outcome.winner]

    @property
    def loser_agent(self) -> int | None:
        """Index of the agent that ended the game early, by forfeit or resignation (it lost), or None."""
        ended = self.forfeit or self.resignation
        return None if ended is None else ended.agent


def play_match(game: Game, agents: list[Agent], seats: list[int], seed: int, opening_plies: int = 0,
               names: list[str] | None = None, observe: Callable[[State], None] | None = None) -> MatchResult:
    """Play one game: seat ``s`` is played by ``agents[seats[s]]``.

    The first ``opening_plies`` plies are random (seeded), so that repeated games between deterministic
    engines differ. Chance events are drawn with the same seeded generator. ``observe``, when given, is called
    with the state before each ply is played (chance plies and the opening's included), to measure a game as it
    goes without changing it (``benchmarks/jewels.py``).
    """
    rng = random.Random(seed)
    state = game.new_state(seed)
    started_at = now_iso()
    started = time.perf_counter()
    thinking: dict[int, float] = {}
    forfeit: Forfeit | None = None
    resigned: Resignation | None = None
    for agent in agents:
        agent.reset()
    while not state.is_over():
        if observe is not None:
            observe(state)
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
            except AgentResigned as gave_up:
                resigned = Resignation(seat=state.player, agent=index, reason=gave_up.reason)
                break
            finally:
                thinking[index] = thinking.get(index, 0.0) + time.perf_counter() - t
            state.play(move)
    if forfeit is not None:
        outcome = forfeit_outcome(state, seats, forfeit)
    elif resigned is not None:
        outcome = resignation_outcome(state, seats, resigned)
    else:
        final = state.outcome()
        assert final is not None
        outcome = final
    players = [names[i] if names else agents[i].spec for i in seats]
    record = Record.from_state(state, players=players, started_at=started_at, result=outcome).to_json()
    return MatchResult(seats=list(seats), outcome=outcome, plies=len(state.history), record=record,
                       seconds=time.perf_counter() - started, move_seconds=thinking, forfeit=forfeit,
                       resignation=resigned, untold=untold_in(agents, seats))


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


def resignation_outcome(state: State, seats: list[int], gave_up: Resignation) -> Outcome:
    """The result of a game that ``gave_up.agent`` resigned: its seat to move resigns (the one rule of
    ``damier.core.game.resignation``); the arena scores the game as the agent's loss in every seat it holds."""
    return resignation(state, gave_up.seat)


def untold_in(agents: list[Agent], seats: list[int]) -> list[Untold]:
    """The agents of the game just played that were not told some of its rules (``ext(untold=play)``)."""
    found = []
    for index in sorted(set(seats)):
        rules = untold_rules(agents[index])
        if rules:
            found.append(Untold(agent=index, seats=tuple(s for s, a in enumerate(seats) if a == index), rules=rules))
    return found


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
