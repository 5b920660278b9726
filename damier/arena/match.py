"""One game between computer players: seats, a seeded random opening, chance events, and the record."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from damier.ai.base import Agent, sample_chance
from damier.ai.spec import make_agent
from damier.core.game import CHANCE, Game, Outcome
from damier.core.record import Record, now_iso
from damier.core.registry import load


@dataclass
class MatchResult:
    """The outcome of one game, with the index of the agent in each seat."""

    seats: list[int]
    outcome: Outcome
    plies: int
    record: dict[str, Any]
    seconds: float
    move_seconds: dict[int, float] = field(default_factory=dict)

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
    for agent in agents:
        agent.reset()
    while not state.is_over():
        if state.player == CHANCE:
            state.play(sample_chance(state, rng))
        elif len(state.history) < opening_plies:
            state.play(rng.choice(state.legal_moves()))
        else:
            index = seats[state.player]
            t = time.perf_counter()
            move = agents[index].choose(state)
            thinking[index] = thinking.get(index, 0.0) + time.perf_counter() - t
            state.play(move)
    outcome = state.outcome()
    assert outcome is not None
    players = [names[i] if names else agents[i].spec for i in seats]
    record = Record.from_state(state, players=players, started_at=started_at).to_json()
    return MatchResult(seats=list(seats), outcome=outcome, plies=len(state.history), record=record,
                       seconds=time.perf_counter() - started, move_seconds=thinking)


def run_match_task(task: dict[str, Any]) -> MatchResult:
    """Entry point for worker processes: build the game and agents from names and specs, play one game."""
    game = load(task["game"], **task["options"])
    specs: list[str] = task["specs"]
    agents = [make_agent(spec, game, seed=task["seed"] * 31 + i) for i, spec in enumerate(specs)]
    return play_match(game, agents, task["seats"], task["seed"], task["opening"], names=specs)
