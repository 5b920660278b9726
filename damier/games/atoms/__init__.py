"""Exploding Atoms (the Chain Reaction family): metadata and options, cheap to import (no kernel).

The rules are in ``rules`` (facade) over ``kernel`` (numba); see ``docs/games/atoms.md``.
"""

from __future__ import annotations

from damier.core.grid import MAX_SIDE
from damier.core.options import Option, OptionSet
from damier.core.registry import EngineInfo, GameInfo, ScoreScale

#: Colour names in seat order (Red moves first, then Blue, then the others in this fixed order).
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Cyan", "White")
#: One letter per colour, used by the position notation and the text board.
LETTERS = "rbgypocw"

#: Board presets players know: (rows, cols).
PRESETS = {"8x8": (8, 8), "9x6": (9, 6), "6x6": (6, 6), "4x4": (4, 4), "10x10": (10, 10)}

OPTIONS = OptionSet(
    (
        Option("rows", int, 8, "rows of the board (8 in the 1992 rules, 9 in the mobile 9x6)", None, 2, MAX_SIDE),
        Option("cols", int, 8, "columns of the board (lettered A, B, C, ...)", None, 2, MAX_SIDE),
        Option("players", int, 2, "number of players: Red, Blue, Green, Yellow, Purple, Orange, Cyan, White",
               None, 2, len(COLOURS)),
    )
)

INFO = GameInfo(
    name="atoms",
    title="Exploding Atoms",
    description=(
        "Chain reactions for 2 to 8 players: add an atom to your square; a full square explodes into its "
        "neighbours and captures them. Eliminate every other colour to win."
    ),
    options=OPTIONS,
    factory="damier.games.atoms.rules:AtomsGame",
    messages="damier.games.atoms",
    players="2 to 8",
    has_draws=False,
    rules_version=1,
    levels={
        "easy": "alphabeta:depth=1",
        "medium": "alphabeta:depth=3",
        "hard": "alphabeta:time=1.0,eval=strong",
    },
    agents={"atoms-classic": "alphabeta:depth=4,eval=classic"},
    hint="hard",
    evaluations=("classic", "strong"),
    # the winning-chance scale measured by benchmarks/score_scale.py --game atoms --games 200 --depth 4 --opening 6
    # --seed 2 (65.5: 21,834 positions of games between equal players); the lead over the strongest rival colour
    scores=ScoreScale(chance=66.0, evaluation="strong"),
    features={
        "search": "damier.games.atoms.search:AtomsSearch",
        "evaluate": "damier.games.atoms.rules:evaluate",
        "playout": "damier.games.atoms.rules:random_playout",
        "playouts": "damier.games.atoms.rules:random_playouts",
        "describe_events": "damier.games.atoms.view:describe_events",
        "client": "damier.games.atoms.client:describe",
        "howto": "damier.games.atoms.howto:HOWTO",
        "svg": "damier.games.atoms.svg:svg",
    },
    engine=EngineInfo(position_fields=4, max_depth=64),
)
