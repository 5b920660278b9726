"""Micro Robots: a one-player puzzle on a 6 x 6 board of colours and numbers; metadata and options, cheap to import.

The rules are in ``rules`` (facade) over ``kernel`` (numba); boards in ``boards``, the exact solver in ``solver``;
see ``docs/games/micro.md``.
"""

from __future__ import annotations

from damier.core.options import Option, OptionSet
from damier.core.registry import GameInfo

OPTIONS = OptionSet(
    (
        Option("board", str, "A",
               "A or B (an arrangement of that tile side, drawn by the seed), random (a random connected board), "
               "or a board id such as A-1234-0000 or random:42"),
        Option("expert", bool, False, "expert mode: a waypoint to stop on before the target"),
        Option("waypoint_pass", bool, False, "expert mode: passing over the waypoint counts too"),
        Option("difficulty", int, 0, "the puzzle's optimal number of moves (0: any)", None, 0, 12),
        Option("reroll_short", bool, False, "house rule: re-roll targets only 1 or 2 moves away"),
    )
)

INFO = GameInfo(
    name="micro",
    title="Micro Robots",
    description=(
        "A puzzle for 1 (or a race for many): the robot jumps along its row or column to a square of the same "
        "colour or number. Reach the target in the fewest moves."
    ),
    options=OPTIONS,
    factory="damier.games.micro.rules:MicroGame",
    messages="damier.games.micro",
    players="1",
    seeded_setup=True,  # each seed draws a puzzle
    has_draws=False,
    rules_version=1,
    hint="solver",
    daily={"reroll_short": True},  # the puzzle of the day is never one or two moves
    features={
        "solver": "damier.games.micro.search:solve",
        "puzzle": "damier.games.micro.rules:puzzle_state",
        "analyse": "damier.games.micro.search:analyse",
        "hints": "damier.games.micro.search:hint",
        "describe_events": "damier.games.micro.view:describe_events",
        "commands": "damier.games.micro.commands:app",
        "race": "damier.games.micro.race:RACE",
        "client": "damier.games.micro.client:describe",
        "howto": "damier.games.micro.howto:HOWTO",
    },
)
