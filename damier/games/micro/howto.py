"""Micro Robots' How to play page (the ``howto`` feature): the texts, and the diagrams the board view draws from
real puzzles, their jumps played by the rules (docs/games/micro_robots.md)."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section

HOWTO = HowTo(
    summary=(
        "A puzzle for one player, or a race for several. A robot stands on a board of 36 coloured, numbered "
        "squares; it jumps along its row or column to a square of the same colour or the same number. Bring it "
        "to the target in as few jumps as you can."
    ),
    sections=(
        Section(
            title="The board",
            text=(
                "6 × 6 squares, made of four tiles of 3 × 3. Each square shows one of six colours (red, green, "
                "blue, yellow, white, pink) and a number from 1 to 6; every colour and number pair appears exactly "
                "once. A square is named by its colour letter and number: R5 is the red 5. Each colour also has "
                "its own pattern, so you can tell them apart without colour.",
            ),
            items=(
                Item("Robot", "Your piece. It starts on the start square (marked with a flag)."),
                Item("Target", "The ringed square the robot must reach."),
                Item("Waypoint", "Expert mode only: a diamond the robot must stop on before it reaches the "
                                 "target."),
            ),
            diagrams=(Diagram("A puzzle: the robot stands on Y2 and must reach P6.",
                              position="A-1423-0203_Y2_P6 Y2 0 -"),),
        ),
        Section(
            title="A move",
            text=(
                "The robot jumps in a straight line, up, down, left or right, to any square of its row or column "
                "that has the same colour or the same number as the square it stands on. It may jump over squares "
                "that do not match, and it does not have to stop at the first one that does. Every jump is one "
                "move.",
            ),
            diagrams=(
                Diagram("Solved in three jumps: Y2 to Y6 (the same colour, yellow), Y6 to W6 (the same number, 6), "
                        "then W6 to P6 (6 again).", position="A-1423-0203_Y2_P6 Y2 0 -",
                        example=("Y6", "W6", "P6")),
            ),
        ),
        Section(
            title="How a puzzle ends",
            text=(
                "The puzzle is solved when the robot lands on the target (in expert mode, after it has stopped on "
                "the waypoint). You are told whether you used the fewest moves possible. Stuck? Ask for a hint: "
                "the length band, then the exact length, the first move and the whole path.",
            ),
            diagrams=(Diagram("Expert mode: the robot on G2 must stop on the waypoint P3 before it reaches W4.",
                              options={"expert": True}, seed=4),),
        ),
        Section(
            title="The race",
            text=(
                "Everyone looks at the same puzzle. The first to claim a number of moves shows a path of exactly "
                "that many jumps (squares may be visited again). Right: they win the round's chip. Wrong: they "
                "give one of their chips, if they have any, to the player with the fewest. The target then "
                "becomes the next start. The first player with 5 chips wins.",
            ),
        ),
    ),
)
