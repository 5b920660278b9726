"""What a puzzle game declares for the race rooms (the ``race`` feature): the rules of its race and its rounds.

In a race room any number of people see the same puzzle each round and race to claim it; the server judges the
demonstrations through the game's own rules. The room is generic: the scoring rules are ``RaceRules`` data and
the rounds come from the game's ``Race`` (the next puzzle may depend on the last one: Micro Robots' old target
becomes the new start).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from damier.core.game import Game, State


@dataclass(frozen=True)
class RaceRules:
    """The scoring rules of a race, as data the room applies."""

    #: ``exact``: a claim is a number of moves and the demonstration must take exactly that many (Micro Robots);
    #: ``at_most``: a bid, demonstrated in at most that many, lowest bids first (Ricochet Robots)
    claim: str = "exact"
    #: chips in the supply, and how many win the race (the most chips wins when the supply runs out)
    chips_total: int = 25
    chips_to_win: int = 5
    #: after a wrong claim the claimant gives one of its chips, if any, to the player with the fewest (``transfer``),
    #: or nothing happens (``none``); ties go to the first such player in seating order after the claimant
    wrong_claim: str = "transfer"
    #: seconds a round lasts before it is given up (nobody scores; the next round starts)
    round_seconds: int = 180
    #: with ``at_most`` claims: seconds from the first bid to the demonstrations
    bid_seconds: int = 60
    #: seconds a claimant has to demonstrate
    demo_seconds: int = 60

    def __post_init__(self) -> None:
        if self.claim not in ("exact", "at_most"):
            raise ValueError(f"claim must be 'exact' or 'at_most', not {self.claim!r}")
        if self.wrong_claim not in ("transfer", "none"):
            raise ValueError(f"wrong_claim must be 'transfer' or 'none', not {self.wrong_claim!r}")
        if not 1 <= self.chips_to_win <= self.chips_total:
            raise ValueError("chips_to_win must be from 1 to chips_total")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Race(Protocol):
    """A puzzle game's race: its rules and its rounds."""

    def rules(self, game: Game) -> RaceRules:
        """The race's scoring rules under ``game``'s options."""
        ...

    def first_round(self, game: Game, seed: int) -> State:
        """The first round's puzzle."""
        ...

    def next_round(self, game: Game, previous: State, seed: int, won: Sequence[State] = ()) -> State:
        """The puzzle after a round: ``previous`` is where the round left it (its first state with the successful
        demonstration's moves played, or its first state when nobody scored); ``won`` are the first states of the
        rounds whose chip was won so far, oldest first (a game whose chips are its targets draws among the
        others)."""
        ...
