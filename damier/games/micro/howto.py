"""Micro Robots' How to play page (the ``howto`` feature): the texts (keys of the game's catalogue,
messages/<lang>.json), and the diagrams the board view draws from real puzzles, their jumps played by the rules
(docs/games/micro_robots.md)."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section

HOWTO = HowTo(
    summary="howto.summary",
    sections=(
        Section(
            title="howto.board.title",
            text=("howto.board.text1",),
            items=(
                Item("howto.board.robot.term", "howto.board.robot.text"),
                Item("howto.board.target.term", "howto.board.target.text"),
                Item("howto.board.waypoint.term", "howto.board.waypoint.text"),
            ),
            diagrams=(Diagram("howto.board.diagram1", position="A-1423-0203_Y2_P6 Y2 0 -"),),
        ),
        Section(
            title="howto.move.title",
            text=("howto.move.text1",),
            diagrams=(
                Diagram("howto.move.diagram1", position="A-1423-0203_Y2_P6 Y2 0 -", example=("Y6", "W6", "P6")),
            ),
        ),
        Section(
            title="howto.end.title",
            text=("howto.end.text1",),
            diagrams=(Diagram("howto.end.diagram1", options={"expert": True}, seed=4),),
        ),
        Section(
            title="howto.race.title",
            text=("howto.race.text1",),
        ),
    ),
)
