"""Jewels and Lasers' How to play page (the ``howto`` feature): the texts, and the diagrams the board view draws
from real positions, each man's move and robots' step played by the rules (docs/games/jewels.md).

Every text is a key of the game's catalogue (``messages/<lang>.json``), filled in with ``params``."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section
from damier.games.jewels import OPTIONS

_D = OPTIONS.defaults()
#: a small board drawn by the setup (seed 7) for the diagrams
_SMALL = {"size": 7, "jewels": 4, "walls": 6, "robots": 2}
_TINY = {"size": 6, "jewels": 2, "walls": 2, "robots": 2}

HOWTO = HowTo(
    summary="howto.summary",
    sections=(
        Section(
            title="howto.board.title",
            text=("howto.board.text1", "howto.board.text2"),
            items=(
                Item("howto.board.robot.term", "howto.board.robot.text"),
                Item("howto.board.lit_square.term", "howto.board.lit_square.text"),
                Item("howto.board.wall.term", "howto.board.wall.text"),
                Item("howto.board.jewel.term", "howto.board.jewel.text"),
            ),
            diagrams=(Diagram("howto.board.diagram1", options=_SMALL, seed=7, before=("@A1",)),),
        ),
        Section(
            title="howto.turn.title",
            text=("howto.turn.text1",),
            items=(
                Item("howto.turn.slide.term", "howto.turn.slide.text"),
                Item("howto.turn.explosion.term", "howto.turn.explosion.text"),
                Item("howto.turn.pass.term", "howto.turn.pass.text"),
                Item("howto.turn.robots.term", "howto.turn.robots.text"),
            ),
            diagrams=(
                Diagram("howto.turn.diagram1", options=_SMALL, seed=7, before=("@A1",),
                        example=("A1-F1", "rA3-A4")),
                Diagram("howto.turn.diagram2",
                        options=_SMALL, seed=7, before=("@A1", "A1-F1", "rA3-A4"), example=("G7xG6", "rA4-A5")),
            ),
        ),
        Section(
            title="howto.end.title",
            items=(
                Item("howto.end.hit.term", "howto.end.hit.text"),
                Item("howto.end.all_jewels.term", "howto.end.all_jewels.text"),
                Item("howto.end.full_column.term", "howto.end.full_column.text"),
                Item("howto.end.agreement.term", "howto.end.agreement.text"),
            ),
            diagrams=(
                Diagram("howto.end.diagram1", position="6/1R2J1/1W4/4W1/1J2R1/6 p 0-0 AB 0",
                        options=_TINY, before=("@A3",), example=("A3-A6", "rE5-E6")),
            ),
        ),
    ),
    params={"size": _D["size"], "jewels": _D["jewels"], "walls": _D["walls"], "robots": _D["robots"],
            "cap": _D["cap"]},
)
