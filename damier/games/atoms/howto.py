"""Exploding Atoms' How to play page (the ``howto`` feature): the texts, and the diagrams the board view draws from
real positions played by the rules (docs/games/atoms.md).

Every text is a key of the game's catalogue (``messages/<lang>.json``), filled in with ``params``."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section
from damier.games.atoms import COLOURS, OPTIONS

_DEFAULTS = OPTIONS.defaults()
_SMALL = {"rows": 4, "cols": 4}

HOWTO = HowTo(
    summary="howto.summary",
    sections=(
        Section(
            title="howto.board.title",
            text=("howto.board.text1",),
            items=(
                Item("howto.board.capacity.term", "howto.board.capacity.text"),
                Item("howto.board.critical.term", "howto.board.critical.text"),
            ),
            diagrams=(Diagram("howto.board.diagram1", options=_SMALL),),
        ),
        Section(
            title="howto.turn.title",
            text=("howto.turn.text1", "howto.turn.text2"),
            diagrams=(
                Diagram("howto.turn.diagram1",
                        position="1r,2r,.,./.,3b,1b,./.,.,2b,./.,.,.,1r r rb 10", options=_SMALL,
                        example=("A1",)),
            ),
        ),
        Section(
            title="howto.end.title",
            items=(
                Item("howto.end.eliminated.term", "howto.end.eliminated.text"),
                Item("howto.end.winner.term", "howto.end.winner.text"),
            ),
            diagrams=(
                Diagram("howto.end.diagram1",
                        position="1r,2r,.,./.,3b,.,./.,.,.,./.,.,.,. r rb 6", options=_SMALL, example=("A1",)),
            ),
        ),
        Section(
            title="howto.tips.title",
            text=("howto.tips.text1",),
        ),
    ),
    params={"max_players": len(COLOURS), "rows": _DEFAULTS["rows"], "cols": _DEFAULTS["cols"]},
)
