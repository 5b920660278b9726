"""Text view of an Exploding Atoms position, and the per-square data a board view draws."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from damier.games.atoms import COLOURS, LETTERS
from damier.games.atoms.kernel import TERMINAL, TO_MOVE, WINNER


@dataclass(frozen=True)
class Cell:
    """One square as a view draws it."""

    name: str
    count: int
    owner: int  # -1 when empty
    capacity: int

    @property
    def critical(self) -> bool:
        """One atom short of exploding."""
        return self.owner >= 0 and self.count == self.capacity - 1


def cell_text(cell: Cell) -> str:
    """``.`` for an empty square; else the count and colour letter, the letter upper-case when critical."""
    if cell.owner < 0:
        return "."
    letter = LETTERS[cell.owner]
    return f"{cell.count}{letter.upper() if cell.critical else letter}"


#: terminal colour of each player, in seat order
TERMINAL_COLOURS = ("red", "blue", "green", "yellow", "magenta", "dark_orange", "cyan", "white")


def render(cells: list[list[Cell]], s: np.ndarray, n: int, p: int) -> str:
    return "".join(text for text, _ in render_styled(cells, s, n, p))


def render_styled(cells: list[list[Cell]], s: np.ndarray, n: int, p: int) -> list[tuple[str, str | None]]:
    """The text board as (text, colour) segments: each owned square in its player's colour, critical bold."""
    cols = len(cells[0])
    width = max(3, max(len(cell_text(c)) for row in cells for c in row) + 1)
    header = "    " + "".join(chr(ord("A") + c).rjust(width) for c in range(cols))
    out: list[tuple[str, str | None]] = [(header + "\n", None)]
    for r, row in enumerate(cells):
        out.append((f"{r + 1:>3} ", None))
        for c in row:
            style = None
            if c.owner >= 0:
                style = TERMINAL_COLOURS[c.owner] + (" bold" if c.critical else "")
            out.append((cell_text(c).rjust(width), style))
        out.append(("\n", None))
    to_move = s[2 * n + TO_MOVE]
    if to_move == TERMINAL:
        out.append((f"{COLOURS[s[2 * n + WINNER]]} wins.\n", None))
    else:
        out.append((f"{COLOURS[to_move]} to move.\n", None))
    out.append(("(count + colour letter; upper case = critical, one atom from exploding)", None))
    return out


def describe_events(state: Any) -> list[str]:
    """What the last move did, for the terminal: its explosions and eliminations (``describe_events``).

    >>> import damier
    >>> state = damier.load("atoms", rows=2, cols=2).new_state()
    >>> for square in ("A1", "B2", "A1"):  # the corner A1 holds one atom: the second explodes
    ...     state.play(state.parse_move(square))
    >>> describe_events(state)
    ['1 explosion(s) in 1 wave(s)']
    """
    lines = []
    waves = [e for e in state.events() if e["type"] == "wave"]
    if waves:
        exploded = sum(len(w["squares"]) for w in waves)
        lines.append(f"{exploded} explosion(s) in {len(waves)} wave(s)")
    for event in state.events():
        if event["type"] == "eliminate":
            lines.append(f"{state.game.player_names[event['player']]} is eliminated")
    return lines
