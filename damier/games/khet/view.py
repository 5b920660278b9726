"""Text view of a Khet position: rank 8 at the top, each piece as its two letters of the position string."""

from __future__ import annotations

from typing import Any

import numpy as np

from damier.games.khet import COLOURS
from damier.games.khet.kernel import (
    END,
    END_CLAIM,
    END_QUIET,
    END_REPETITION,
    HEIGHT,
    RESERVED,
    TERMINAL,
    TO_MOVE,
    WIDTH,
    WINNER,
)
from damier.games.khet.notation import FILES, piece_letters

TERMINAL_COLOURS = ("bright_white", "bright_red")
_END_WORDS = {
    END_REPETITION: "Draw by repetition (third occurrence).",
    END_CLAIM: "Draw by repetition, claimed.",
    END_QUIET: "Draw: the quiet-ply limit was reached.",
}


def render_styled(s: np.ndarray, beam: set[int] | None = None) -> list[tuple[str, str | None]]:
    """The board as (text, colour) segments; ``beam`` squares (the last shot) are marked with ``*``."""
    beam = beam or set()
    out: list[tuple[str, str | None]] = [("     " + "".join(f" {f} " for f in FILES) + "\n", None)]
    for r in range(HEIGHT - 1, -1, -1):
        out.append((f"  {r + 1}  ", None))
        for f in range(WIDTH):
            sq = r * WIDTH + f
            c = int(s[sq])
            mark = "*" if sq in beam else " "
            if c:
                out.append((piece_letters(c) + mark, TERMINAL_COLOURS[(c >> 2) & 1]))
            else:
                # reserved squares: brackets, which no piece's letters look like ("s:" read as a Red Scarab)
                empty = ".." if RESERVED[sq] < 0 else ("()" if RESERVED[sq] == 0 else "[]")
                out.append((empty + mark, "dim"))
        out.append((f" {r + 1}\n", None))
    out.append(("     " + "".join(f" {f} " for f in FILES) + "\n", None))
    to_move = int(s[TO_MOVE])
    if to_move == TERMINAL:
        winner = int(s[WINNER])
        text = f"{COLOURS[winner]} wins: the {COLOURS[1 - winner]} Pharaoh was hit." if winner >= 0 else \
            _END_WORDS.get(int(s[END]), "Draw.")
        out.append((text + "\n", None))
    else:
        out.append((f"{COLOURS[to_move]} to move.\n", None))
    out.append(("(kind X Sphinx, P Pharaoh, A Anubis, Y Pyramid, S Scarab; upper case Silver, lower case Red; "
                "then facing n/e/s/w; () [] squares reserved for Silver / Red; * last beam)", None))
    return out


def render(s: np.ndarray, beam: set[int] | None = None) -> str:
    return "".join(text for text, _ in render_styled(s, beam))


def beam_end(laser: dict[str, Any], names: tuple[str, ...]) -> str:
    """How a ``laser`` event's beam ended, in words: ``removes Silver's Anubis on f1``, ``absorbed on a8``,
    ``leaves the board``."""
    if laser["stop"] == "removed":
        hit = laser["removed"]
        return f"removes {names[hit['colour']]}'s {hit['kind'].capitalize()} on {hit['square']}"
    if laser["stop"] == "absorbed":
        return f"absorbed on {laser['at']}"
    return "leaves the board"


def describe_events(state: Any) -> list[str]:
    """What the last move did, for the terminal: ``Silver's laser: j1 -> j4 -> h4 -> h5 -> j5 -> j8: leaves the
    board`` (where it starts, turns and ends), then who won or why it is a draw (the ``describe_events`` feature).

    >>> import damier
    >>> state = damier.load("khet").new_state()
    >>> state.play(state.parse_move("j1-"))
    >>> describe_events(state)
    ["Silver's laser: j1 -> f1: removes Silver's Anubis on f1"]
    """
    names = state.game.player_names
    lines = []
    for event in state.events():
        kind = event["type"]
        if kind == "laser":
            path = [event["from"], *event["turns"]]
            if event["squares"] and event["squares"][-1] != path[-1]:
                path.append(event["squares"][-1])
            lines.append(f"{names[event['player']]}'s laser: {' -> '.join(path)}: {beam_end(event, names)}")
        elif kind == "win":
            lines.append(f"{names[event['player']]} wins")
        elif kind == "draw":
            lines.append(f"Draw: {event['reason']}")
    return lines
