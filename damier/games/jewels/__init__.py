"""Jewels and Lasers: two men collect jewels among random robots that radiate lasers; metadata and options,
cheap to import (no kernel).

The rules are in ``rules`` (facade) over ``kernel`` (numba); the seeded setup in ``setup``, notation and position
strings in ``notation``; see ``docs/games/jewels.md``.
"""

from __future__ import annotations

from damier.core.endings import Termination
from damier.core.options import Option, OptionSet
from damier.core.registry import GameInfo, ScoreScale

#: the players in seat order: Player 1 places and moves first
COLOURS = ("Gold", "Silver")
#: a man was hit by a laser (both at once: a draw); a move list marks the move "#", as chess's mate
LASER_HIT = Termination("laser_hit", "a player's man was hit by a laser (both hit at once is a draw)", mark="#")
#: every jewel was collected, and the scores decide
COLLECTED = Termination("collected", "every jewel was collected, and the scores decide")

OPTIONS = OptionSet(
    (
        Option("size", int, 14, "rows and columns of the square board (14 in the original)", None, 6, 26),
        Option("jewels", int, 16, "jewels on the board, an even number (16 in the original; 26 in its variant 2)",
               None, 2, 200),
        Option("walls", int, 40, "walls on the board, an even number", None, 0, 300),
        Option("robots", int, 8, "robots on the board, an even number", None, 0, 100),
        Option("robot_steps", str, "one",
               "the robots' turn: one (one random step of one random robot, as in the original) or all (every "
               "living robot steps once, in random order)", ("one", "all")),
        Option("cap", int, 200, "the game ends as if agreed after this many men's plies with no jewel taken "
               "(0: never)", None, 0, 100_000),
        Option("edge_explosion", bool, False,
               "the board's edge counts as something behind a wall, so a man may blow up a wall on the edge"),
    )
)

INFO = GameInfo(
    name="jewels",
    title="Jewels and Lasers",
    description=(
        "Two men collect jewels on a board of walls and stupid robots that radiate lasers and step at random. "
        "Slide along unlit squares, blow up one wall per game, and never stand in a ray."
    ),
    options=OPTIONS,
    factory="damier.games.jewels.rules:JewelsGame",
    messages="damier.games.jewels",
    players="2",
    has_chance=True,
    seeded_setup=True,  # each seed draws a board (setup.generate)
    has_draws=True,
    rules_version=1,
    levels={
        "easy": "alphabeta:depth=1",
        "medium": "alphabeta:depth=2",
        "hard": "alphabeta:depth=1,eval=futures",
    },
    agents={"jewels-greedy": "policy:name=greedy"},
    hint="hard",
    # every game of the arena is a new board (its seed) with new dice: random plies would only place and move a
    # man at random, and the placement is the first decision of the game
    opening=0,
    evaluations=("standard", "material", "futures"),
    # the winning-chance scale measured by benchmarks/score_scale.py --game jewels --games 300 --depth 3 --opening 0
    # --seed 2 (566.3: 73,690 positions)
    scores=ScoreScale(chance=570.0),
    endings=(LASER_HIT, COLLECTED),
    features={
        "search": "damier.games.jewels.search:JewelsSearch",
        "evaluate": "damier.games.jewels.rules:evaluate",
        "playout": "damier.games.jewels.rules:random_playout",
        "playouts": "damier.games.jewels.rules:random_playouts",
        "policies": "damier.games.jewels.greedy:POLICIES",
        "describe_events": "damier.games.jewels.view:describe_events",
        "client": "damier.games.jewels.client:describe",
        "howto": "damier.games.jewels.howto:HOWTO",
    },
)
