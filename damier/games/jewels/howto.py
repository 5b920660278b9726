"""Jewels and Lasers' How to play page (the ``howto`` feature): the texts, and the diagrams the board view draws
from real positions, each man's move and robots' step played by the rules (docs/games/jewels.md)."""

from __future__ import annotations

from damier.core.howto import Diagram, HowTo, Item, Section
from damier.games.jewels import COLOURS, OPTIONS

_D = OPTIONS.defaults()
#: a small board drawn by the setup (seed 7) for the diagrams
_SMALL = {"size": 7, "jewels": 4, "walls": 6, "robots": 2}
_TINY = {"size": 6, "jewels": 2, "walls": 2, "robots": 2}
_GOLD, _SILVER = COLOURS

HOWTO = HowTo(
    summary=(
        f"A game for two players, {_GOLD} and {_SILVER}, each with one man on a board of walls, jewels and "
        "not very clever robots. The robots step at random and shine lasers along their rows and columns. Collect "
        "more jewels than the other player, and never stand in a laser."
    ),
    sections=(
        Section(
            title="The board",
            text=(
                f"The board has {_D['size']} × {_D['size']} squares with {_D['jewels']} jewels, {_D['walls']} walls "
                f"and {_D['robots']} robots, placed at random but the same seen from both sides (turn the board "
                "half round and it looks the same).",
                f"First {_GOLD} puts their man on an empty square that no laser lights and whose mirror square "
                f"(half a turn round the centre) is empty and unlit too; {_SILVER}'s man goes on the mirror square. "
                "Then the game begins.",
            ),
            items=(
                Item("Robot", "Shines a laser in all four directions. A laser stops before the first wall, jewel "
                              "or robot; men do not stop it. A robot that is boxed in on all four sides dies: it "
                              "stops moving and shining but still blocks."),
                Item("Lit square", "A square a laser reaches. A man may never stand on it or cross it."),
                Item("Wall", "Blocks men, robots and lasers; it can be blown up once per game (below)."),
                Item("Jewel", "Slide onto it to collect it. Your jewels fill your column at the right border."),
            ),
            diagrams=(Diagram(f"A small board: {_GOLD}'s man has been placed on A1, {_SILVER}'s on the mirror "
                              "square G7. The lit squares are marked.",
                              options=_SMALL, seed=7, before=("@A1",)),),
        ),
        Section(
            title="A turn",
            text=(
                f"{_GOLD} moves, then the robots, then {_SILVER}, then the robots, and so on. On your turn your "
                "man does one of these:",
            ),
            items=(
                Item("Slide", "At least one square in a straight line (up, down, left or right), as far as you "
                              "like, over empty squares; every square passed and the last must be unlit (after the "
                              "move). The slide may end on a jewel, which you collect; it cannot pass a jewel, a "
                              "wall, a robot or the other man."),
                Item("Explosion", "Once per game: your man steps onto a wall next to him, if the square behind "
                                  "that wall (the same way) is not empty. The wall is destroyed, and so are the walls "
                                  "and robots on the other squares next to the man. Jewels and men are never "
                                  "destroyed. The man must not end on a lit square."),
                Item("Pass", "Only when your man has no legal move."),
                Item("The robots", "After each man's move, one robot at random takes one step to a free square "
                                   "next to it."),
            ),
            diagrams=(
                Diagram(f"{_GOLD} slides from A1 to F1 and collects the jewel; then a robot steps from A3 to A4 and "
                        "the lasers move with it.", options=_SMALL, seed=7, before=("@A1",),
                        example=("A1-F1", "rA3-A4")),
                Diagram(f"{_SILVER} blows up the wall on G6: the robot on G5, next to the man, is destroyed too.",
                        options=_SMALL, seed=7, before=("@A1", "A1-F1", "rA3-A4"), example=("G7xG6", "rA4-A5")),
            ),
        ),
        Section(
            title="How the game ends",
            items=(
                Item("Hit", "A man standing on a lit square after any move is hit, and his player loses (both at "
                            "once: a draw)."),
                Item("All jewels taken", "The player with more jewels wins; equal: a draw."),
                Item("A full column", f"When a player's column is full ({_D['size']} jewels on the usual board), "
                                      "the player with more jewels wins."),
                Item("Agreement", "The players may agree to stop: the player with more jewels wins; equal: a draw. "
                                  f"After {_D['cap']} moves with no jewel collected, the game stops the same way."),
            ),
            diagrams=(
                Diagram(f"{_GOLD}'s man slides to A6; then the robot on E5 steps to E6, into his row: {_GOLD} is "
                        f"hit and {_SILVER} wins.", position="6/1R2J1/1W4/4W1/1J2R1/6 p 0-0 AB 0",
                        options=_TINY, before=("@A3",), example=("A3-A6", "rE5-E6")),
            ),
        ),
    ),
)
