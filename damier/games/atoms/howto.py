"""Exploding Atoms' How to play page (the ``howto`` feature): the texts, and the diagrams the board view draws from
real positions played by the rules (docs/games/atoms.md)."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section
from damier.games.atoms import COLOURS, OPTIONS

_DEFAULTS = OPTIONS.defaults()
_SIZE = f"{_DEFAULTS['rows']} × {_DEFAULTS['cols']}"
_SMALL = {"rows": 4, "cols": 4}

HOWTO = HowTo(
    summary=(
        f"A chain-reaction game for 2 to {len(COLOURS)} players on a grid ({_SIZE} unless you choose another "
        "size). Take turns adding atoms to squares; a full square explodes into its neighbours and takes them "
        "over. Be the last colour with atoms on the board."
    ),
    sections=(
        Section(
            title="The board",
            text=(
                f"Columns are lettered A, B, C… from the left and rows numbered 1, 2, 3… from the top, so A1 is the "
                f"top-left corner. {COLOURS[0]} moves first, then {COLOURS[1]}, then any other colours in order.",
            ),
            items=(
                Item("Capacity", "A square holds as many atoms as it has neighbours (up, down, left, right): 2 in "
                                 "a corner, 3 on an edge, 4 inside. The board shows each square's capacity."),
                Item("Critical", "A square one atom short of its capacity is critical: one more atom and it "
                                 "explodes."),
            ),
            diagrams=(Diagram("An empty 4 × 4 board: corners hold 2, edges 3, the middle squares 4.",
                              options=_SMALL),),
        ),
        Section(
            title="A turn",
            text=(
                "Put one atom on an empty square or on a square that already holds your atoms. You cannot play on "
                "another colour's square.",
                "When a square reaches its capacity it explodes: it loses that many atoms and each neighbour gains "
                "one and becomes your colour, whatever colour it was. A neighbour that fills up explodes in turn: "
                "a chain reaction.",
            ),
            diagrams=(
                Diagram("Red adds an atom to A1. A1 explodes into B1 and A2, B1 fills up and explodes, and Blue's "
                        "three atoms on B2 become Red's four: B2 explodes too and takes C2 over.",
                        position="1r,2r,.,./.,3b,1b,./.,.,2b,./.,.,.,1r r rb 10", options=_SMALL,
                        example=("A1",)),
            ),
        ),
        Section(
            title="How the game ends",
            items=(
                Item("Eliminated", "A player who has moved at least once and has no atoms left is out, and is "
                                   "skipped from then on. Nobody is out before their first move."),
                Item("The winner", "The game ends as soon as every other player is out (or has moved and has no "
                                   "atoms left): the player who made that move wins, even in the middle of a chain "
                                   "reaction. There are no draws."),
            ),
            diagrams=(
                Diagram("Red's chain reaches Blue's only square: Blue has no atoms left and Red wins.",
                        position="1r,2r,.,./.,3b,.,./.,.,.,./.,.,.,. r rb 6", options=_SMALL, example=("A1",)),
            ),
        ),
        Section(
            title="Tips",
            text=(
                "Corners and edges explode sooner than the middle. Do not put atoms next to an enemy critical "
                "square unless yours would explode first; and line up your own critical squares so that one atom "
                "sets them all off.",
            ),
        ),
    ),
)
