"""Ricochet Robots' How to play page (the ``howto`` feature): the texts (keys of the game's catalogue,
messages/<lang>.json), and the diagrams the board view draws from real puzzles, their slides played by the rules
(docs/games/ricochet.md)."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section

_PUZZLE = "4C1A3D2D.CC07953C.ys"

HOWTO = HowTo(
    summary="howto.summary",
    sections=(
        Section(
            title="howto.board.title",
            text=("howto.board.text1",),
            items=(
                Item("howto.board.robots.term", "howto.board.robots.text"),
                Item("howto.board.targets.term", "howto.board.targets.text"),
            ),
            diagrams=(Diagram("howto.board.diagram1", position=_PUZZLE),),
        ),
        Section(
            title="howto.move.title",
            text=("howto.move.text1", "howto.move.text2"),
            diagrams=(
                Diagram("howto.move.diagram1", position=_PUZZLE, example=("YN", "YW", "YS")),
            ),
        ),
        Section(
            title="howto.transparent.title",
            text=("howto.transparent.text1",),
            diagrams=(
                Diagram("howto.transparent.diagram1", position="4C1A3D2D.83B669DD--38.rh",
                        options={"transparent": True}, example=("TE1",)),
            ),
        ),
        Section(
            title="howto.end.title",
            text=("howto.end.text1", "howto.end.text2"),
        ),
    ),
)
