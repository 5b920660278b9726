"""Ricochet Robots' How to play page (the ``howto`` feature): the texts, and the diagrams the board view draws
from real puzzles, their slides played by the rules (docs/games/ricochet.md)."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section

_PUZZLE = "4C1A3D2D.CC07953C.ys"

HOWTO = HowTo(
    summary=(
        "A puzzle for one player, or a bidding race for several. Robots slide across a 16 × 16 board until "
        "something stops them. Bring the robot of the target's colour to the target in as few moves as you can."
    ),
    sections=(
        Section(
            title="The board",
            text=(
                "16 × 16 squares with walls on some edges and a 2 × 2 block in the middle that nothing can enter. "
                "The board is put together from four quarter boards, so there are many different boards.",
            ),
            items=(
                Item("Robots", "Red, green, blue and yellow; optionally a silver robot (no targets of its own) and "
                               "the transparent robot."),
                Item("Targets", "16 coloured targets (a circle, triangle, square and hexagon in each colour) and "
                                "the vortex. The round's target is shown in the middle block."),
            ),
            diagrams=(Diagram("A puzzle: the target is the yellow square on k10.", position=_PUZZLE),),
        ),
        Section(
            title="A move",
            text=(
                "Choose any robot and a direction (up, down, left or right). It slides until a wall, the edge of "
                "the board, the middle block or another robot stops it; it cannot stop half way. Every robot may "
                "be moved, and every move counts.",
                "The puzzle is solved when the target's robot ends a move on the target (for the vortex, any "
                "robot).",
            ),
            diagrams=(
                Diagram("Solved in three moves: the yellow robot slides up to m1, left to k1 (stopped by a wall), "
                        "then down to k10.", position=_PUZZLE, example=("YN", "YW", "YS")),
            ),
        ),
        Section(
            title="The transparent robot",
            text=(
                "An optional robot that may slide through walls, at the cost of one extra move for each wall it "
                "passes. It cannot pass the middle block, the board's edge or other robots, and the only target "
                "it may finish on is the vortex.",
            ),
            diagrams=(
                Diagram("The transparent robot slides right from i4 through a wall to p4: 1 move plus 1 for the "
                        "wall, 2 in all.", position="4C1A3D2D.83B669DD--38.rh", options={"transparent": True},
                        example=("TE1",)),
            ),
        ),
        Section(
            title="How it ends, and the race",
            text=(
                "A puzzle ends when it is solved; you are told whether you used the fewest moves possible, and "
                "graded hints help when you are stuck.",
                "In a race everyone looks at the same target. The first bid (a number of moves) starts a timer; "
                "until it runs out anyone may bid or lower their bid. Then the lowest bidder shows a solution in "
                "at most that many moves and wins the chip; if they fail, the next-lowest tries.",
            ),
        ),
    ),
)
