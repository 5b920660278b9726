"""Khet 2.0's How to play page (the ``howto`` feature): the texts, the diagrams the board view draws from real
positions, and the first-game tutorial. The rules behind every sentence are in ``rules`` and docs/games/khet.md.

The texts are keys of Khet's catalogue (``messages/<lang>.json``, the ``howto.`` keys), filled in with ``params``.

The tutorial's steps point at the elements of Khet's board module (``static/js/games/khet/``; their test ids are in
docs/web-client.md): its squares by piece and colour, the selection's targets, the turn buttons in the bar."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section, TutorialStep
from damier.games.khet import OPTIONS

_QUIET = OPTIONS.defaults()["quiet_ply_limit"]

HOWTO = HowTo(
    summary="howto.summary",
    sections=(
        Section(
            title="howto.board.title",
            text=("howto.board.text1",),
            items=(
                Item("howto.board.red_squares.term", "howto.board.red_squares.text"),
                Item("howto.board.silver_squares.term", "howto.board.silver_squares.text"),
            ),
            diagrams=(Diagram("howto.board.diagram1"),),
        ),
        Section(
            title="howto.pieces.title",
            text=("howto.pieces.text1",),
            items=(
                Item("howto.pieces.sphinx.term", "howto.pieces.sphinx.text"),
                Item("howto.pieces.pharaoh.term", "howto.pieces.pharaoh.text"),
                Item("howto.pieces.anubis.term", "howto.pieces.anubis.text"),
                Item("howto.pieces.scarab.term", "howto.pieces.scarab.text"),
                Item("howto.pieces.pyramid.term", "howto.pieces.pyramid.text"),
            ),
        ),
        Section(
            title="howto.turn.title",
            text=("howto.turn.text1",),
            items=(
                Item("howto.turn.move.term", "howto.turn.move.text"),
                Item("howto.turn.turn.term", "howto.turn.turn.text"),
                Item("howto.turn.swap.term", "howto.turn.swap.text"),
                Item("howto.turn.fire.term", "howto.turn.fire.text"),
            ),
            diagrams=(
                Diagram("howto.turn.diagram1", before=("c1c2", "h4i5"), example=("d6d7",)),
            ),
        ),
        Section(
            title="howto.end.title",
            items=(
                Item("howto.end.pharaoh_hit.term", "howto.end.pharaoh_hit.text"),
                Item("howto.end.repetition.term", "howto.end.repetition.text"),
                Item("howto.end.quiet_moves.term", "howto.end.quiet_moves.text"),
            ),
            diagrams=(
                Diagram("howto.end.diagram1",
                        position="xs9/10/10/10/4ps4Ye/10/10/4Pn4Xn s 0", example=("j4+",)),
            ),
        ),
        Section(
            title="howto.tips.title",
            text=("howto.tips.text1", "howto.tips.text2"),
        ),
    ),
    tutorial=(
        TutorialStep("howto.tutorial.select_piece.title", "howto.tutorial.select_piece.text",
                     point='[data-testid^="square-"][data-colour="{you}"][data-legal="true"]'),
        TutorialStep("howto.tutorial.where_it_can_go.title", "howto.tutorial.where_it_can_go.text",
                     point='[data-testid^="square-"][data-target="true"] || '
                           '[data-testid^="square-"][data-colour="{you}"][data-legal="true"]'),
        TutorialStep("howto.tutorial.turn_it.title", "howto.tutorial.turn_it.text",
                     point='.board-turns:not(:empty) || [data-testid="khet-bar"]'),
        TutorialStep("howto.tutorial.your_laser.title", "howto.tutorial.your_laser.text",
                     point='[data-testid^="square-"][data-piece="sphinx"][data-colour="{you}"]'),
        TutorialStep("howto.tutorial.goal.title", "howto.tutorial.goal.text",
                     point='[data-testid^="square-"][data-piece="pharaoh"][data-colour="{opponent}"]'),
    ),
    params={"quiet": _QUIET},
)
