"""Ricochet Robots with Micro Robots' transparent robot: a one-player puzzle on a 16 x 16 board of walls (or a
bidding race for many); metadata and options, cheap to import.

The rules are in ``rules`` (facade) over ``kernel`` (numba); boards in ``boards``, notation and ids in
``notation``; see ``docs/games/ricochet.md``.
"""

from __future__ import annotations

from damier.core.options import Option, OptionSet
from damier.core.registry import GameInfo

OPTIONS = OptionSet(
    (
        Option("board", str, "random",
               "random (one side per group, drawn by the seed) or four quadrant sides NW, NE, SE, SW, e.g. 1A2B3C4D"),
        Option("ricochet", str, "off",
               "off; if_trivial (the active robot must ricochet when it could reach the target in 0 or 1 straight "
               "moves); strict (every solution turns the active robot)", ("off", "if_trivial", "strict")),
        Option("rebound", bool, True, "a robot may move straight back the way it came"),
        Option("silver", bool, False, "a fifth robot, silver, with no targets of its own"),
        Option("transparent", bool, False, "Micro Robots' transparent robot: passes walls at one move each"),
        Option("difficulty", int, 0, "the puzzle's optimal number of moves (0: any)", None, 0, 30),
        Option("race_robots", str, "carried",
               "in a race, where each round's robots start: carried (where the last round left them, as in the "
               "printed rules) or reset (back where the race's first round placed them)", ("carried", "reset")),
    )
)

INFO = GameInfo(
    name="ricochet",
    title="Ricochet Robots",
    description=(
        "A puzzle for 1 (or a bidding race for many): robots slide until they hit a wall or a robot. Bring the "
        "target's robot to its square in the fewest moves."
    ),
    options=OPTIONS,
    factory="damier.games.ricochet.rules:RicochetGame",
    messages="damier.games.ricochet",
    players="1",
    seeded_setup=True,  # each seed draws a puzzle
    has_draws=False,
    rules_version=1,
    hint="solver",
    features={
        "describe_events": "damier.games.ricochet.view:describe_events",
        "race": "damier.games.ricochet.race:RACE",
        "solver": "damier.games.ricochet.search:solve",
        "analyse": "damier.games.ricochet.search:analyse",
        "hints": "damier.games.ricochet.search:hint",
        "puzzle": "damier.games.ricochet.search:puzzle_state",
        "client": "damier.games.ricochet.client:describe",
        "howto": "damier.games.ricochet.howto:HOWTO",
    },
)
