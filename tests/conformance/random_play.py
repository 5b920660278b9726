"""Helpers of the conformance suite: seeded random play through the contract, and a state's full fingerprint."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import damier

#: No game of the suite's configurations may last longer than this under random play.
PLY_CAP = 10_000


def choose(state: damier.State, rng: random.Random) -> int:
    """A random legal move; at a chance node, an outcome drawn with its probability."""
    if state.player == damier.CHANCE:
        moves, weights = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(moves, weights=weights)[0])
    return rng.choice(state.legal_moves())


def random_line(game: damier.Game, seed: int, max_plies: int = PLY_CAP) -> Iterator[damier.State]:
    """Yield one state object at the start and again after each random move, until the end or ``max_plies``.

    The same object is yielded each time: a test that changes it must put it back before the next step.
    """
    rng = random.Random(seed)
    state = game.new_state(seed)
    yield state
    while not state.is_over() and len(state.history) < max_plies:
        state.play(choose(state, rng))
        yield state


def fingerprint(state: damier.State, with_json: bool = True) -> dict[str, Any]:
    """Everything observable about a state, for comparing two states (``to_json`` replays, so it is optional)."""
    out: dict[str, Any] = {
        "position": state.position(),
        "key": state.key(),
        "player": state.player,
        "legal_moves": state.legal_moves(),
        "history": list(state.history),
        "outcome": state.outcome(),
        "events": state.events(),
        "observation": state.observation().tolist(),
        "render": state.render_text(),
    }
    if with_json:
        out["json"] = state.to_json()
    return out


def random_state(game: damier.Game, seed: int, max_plies: int = PLY_CAP) -> damier.State:
    """The state after random play from ``seed`` to the end (or to ``max_plies``)."""
    for state in random_line(game, seed, max_plies):
        last = state
    return last
