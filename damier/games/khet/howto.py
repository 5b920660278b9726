"""Khet 2.0's How to play page (the ``howto`` feature): the texts, the diagrams the board view draws from real
positions, and the first-game tutorial. The rules behind every sentence are in ``rules`` and docs/games/khet.md.

The tutorial's steps point at the elements of Khet's board module (``static/js/games/khet/``; their test ids are in
docs/web-client.md): its squares by piece and colour, the selection's targets, the turn buttons in the bar."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section, TutorialStep
from damier.games.khet import OPTIONS

_QUIET = OPTIONS.defaults()["quiet_ply_limit"]

HOWTO = HowTo(
    summary=(
        "Laser chess for two players, Silver and Red, on a board of 10 × 8 squares. Each side has a laser and "
        "pieces with mirrors. On your turn you move or turn one piece, then your laser fires and bounces off the "
        "mirrors. Hit the other side's Pharaoh with a laser to win."
    ),
    sections=(
        Section(
            title="The board",
            text=(
                "Silver plays from the bottom (rank 1) and moves first; Red plays from the top (rank 8). There are "
                "three starting setups: Classic (the usual one), Imhotep and Dynasty.",
            ),
            items=(
                Item("Red's squares", "The whole a-file, and i1 and i8, are reserved for Red: no Silver piece may "
                                      "ever move there."),
                Item("Silver's squares", "The whole j-file, and b1 and b8, are reserved for Silver: no Red piece "
                                         "may ever move there."),
            ),
            diagrams=(Diagram("The Classic setup. The tinted squares are reserved for one colour."),),
        ),
        Section(
            title="The pieces",
            text=("Each side has 1 Sphinx, 1 Pharaoh, 2 Anubis, 2 Scarabs and 7 Pyramids.",),
            items=(
                Item("Sphinx (the laser)", "Fires your laser after each of your turns. It stays in its corner "
                                           "(Silver j1, Red a8), can only turn between its two directions, and can "
                                           "never be removed."),
                Item("Pharaoh", "Your king. It has no mirror: a laser that hits it from any side removes it, and "
                                "its owner loses the game, even if they fired the shot."),
                Item("Anubis", "A shield: a beam that hits its front is stopped and it survives; hit on a side or "
                               "its back, it is removed."),
                Item("Scarab", "A two-sided mirror: it always bounces the beam and can never be removed. It may "
                               "also swap places with a next-door Pyramid or Anubis of either colour."),
                Item("Pyramid", "One mirror on a diagonal: a beam that hits its two mirrored sides bounces off; a "
                                "beam that hits one of its two other sides removes it."),
            ),
        ),
        Section(
            title="A turn",
            text=(
                "On your turn you do exactly one of these things, then your laser fires (always; you cannot pass):",
            ),
            items=(
                Item("Move", "One of your pieces (not the Sphinx) one square in any of the 8 directions, onto an "
                             "empty square that is not reserved for the other colour."),
                Item("Turn", "One of your pieces a quarter turn, clockwise or anticlockwise, on its square. Your "
                             "Sphinx turns between its two directions."),
                Item("Swap", "A Scarab moves onto a next-door square that holds a Pyramid or an Anubis (of either "
                             "colour), and that piece goes to the Scarab's square; neither turns. A swap may not put "
                             "a piece on a square reserved for the other colour."),
                Item("Fire", "The beam leaves your Sphinx, turns at every mirror it meets and stops at the first "
                             "side with no mirror, or leaves the board. The piece it stops on is removed (at most "
                             "one piece a shot), unless it is an Anubis hit on its front, a Sphinx or a Scarab."),
            ),
            diagrams=(
                Diagram("Red has stepped its Pyramid from h4 to i5, which opens rank 4. Silver moves d6 to d7 and "
                        "fires: the beam turns at j4, then at the Scarabs on f4 and f5, and hits the back of the Red "
                        "Pyramid on h5, which is removed.", before=("c1c2", "h4i5"), example=("d6d7",)),
            ),
        ),
        Section(
            title="How the game ends",
            items=(
                Item("Pharaoh hit", "When a beam hits a Pharaoh, the game ends at once and that Pharaoh's owner "
                                    "loses."),
                Item("Repetition", "When the same position (with the same side to move) occurs for the third time, "
                                   "the game is a draw."),
                Item("Quiet moves", f"After {_QUIET} moves in a row (counting both sides' moves) with no "
                                    "piece removed, the game is a draw."),
            ),
            diagrams=(
                Diagram("Silver turns its Pyramid on j4 clockwise: the beam now turns west along rank 4 and hits "
                        "the Red Pharaoh. Silver wins.",
                        position="xs9/10/10/10/4ps4Ye/10/10/4Pn4Xn s 0", example=("j4+",)),
            ),
        ),
        Section(
            title="Tips",
            text=(
                "Before you play, point at a move: the board draws where your laser will go, and warns you when "
                "it would hit one of your own pieces or your own Pharaoh.",
                "Keep mirrors between the enemy laser and your Pharaoh; an Anubis facing the beam makes a good "
                "guard.",
            ),
        ),
    ),
    tutorial=(
        TutorialStep("Select a piece", "Your pieces are marked. Click one (or move to it with the arrow keys and "
                                       "press Enter) to select it.",
                     point='[data-testid^="square-"][data-colour="{you}"][data-legal="true"]'),
        TutorialStep("Where it can go", "The ringed squares are where the selected piece can move (or swap). "
                                        "Click one to play it.",
                     point='[data-testid^="square-"][data-target="true"] || '
                           '[data-testid^="square-"][data-colour="{you}"][data-legal="true"]'),
        TutorialStep("Turn it", "Or turn the selected piece a quarter turn with these buttons (keys [ and ]).",
                     point='.board-turns:not(:empty) || [data-testid="khet-bar"]'),
        TutorialStep("Your laser", "After your move this Sphinx fires. Point at a move first: the board draws "
                                   "where the beam will go and warns you before you hit your own pieces.",
                     point='[data-testid^="square-"][data-piece="sphinx"][data-colour="{you}"]'),
        TutorialStep("The goal", "Hit this Pharaoh with your laser to win, and keep your own out of the enemy's "
                                 "beam.",
                     point='[data-testid^="square-"][data-piece="pharaoh"][data-colour="{opponent}"]'),
    ),
)
