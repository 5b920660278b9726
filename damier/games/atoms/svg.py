"""An SVG picture of an Exploding Atoms position, for notebooks (the ``svg`` feature behind ``State._repr_svg_``).

The board as the web client draws it: columns lettered A.. along the top, rows numbered 1.. down the side (A1 at
the top left, as the notation names squares), each atom a dot in its owner's colour, each square's capacity as a
row of pips, critical squares (one atom from exploding) ringed in their owner's colour, the last move's square
marked, and a caption: who is to move, or how the game ended.

Every element a reader may want to find carries a class and data attributes: ``g.square`` (``data-square``,
``data-count``, ``data-owner``, ``data-capacity``, ``data-critical``) and one ``circle.atom`` per atom
(``data-owner``).

>>> import damier
>>> state = damier.load("atoms", rows=3, cols=3).new_state()
>>> state.play(state.parse_move("A1"))
>>> picture = svg(state)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), picture.count('class="atom"')
(True, 1)
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from damier.core.game import State
from damier.core.svg import caption, document, number, text
from damier.games.atoms.rules import AtomsState
from damier.games.atoms.view import Cell

#: each colour of ``damier.games.atoms.COLOURS`` as the web client paints it (styles.css, light theme)
PALETTE = ("#e5484d", "#3d6fe0", "#2c9f5a", "#e8b412", "#8f4fcb", "#f07b20", "#0fa3bd", "#f6f6f8")
#: the same for lines and tints, where White's near-white would not show on a white square
OUTLINES = (*PALETTE[:7], "#a3a9b8")
BACKGROUND = "#f6f7fb"
FRAME = "#d8dde9"
NEUTRAL_FRAME = "#c3c9d8"
SQUARE = "#fbfcfe"
COORDINATES = "#7d8599"
TEXT = "#1a1e2b"
MUTED = "#5d6578"
PIP = "#b3bacb"
ATOM_EDGE = "#141623"  # drawn at 35 % opacity
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

CELL = 60  # a square and its gap, in SVG units
GAP = 4
SIZE = CELL - GAP
LABEL = 26  # room for the coordinates (top and left)
PAD = 10
CAPTION = 40
ATOM = 8.2  # radius of a dot
ATOM_Y = 25  # the dots' centre inside a square (the pips are below)
#: dot offsets from the centre for 1 to 4 atoms; more are laid out on a grid of smaller dots
LAYOUTS: tuple[tuple[tuple[float, float], ...], ...] = (
    (),
    ((0, 0),),
    ((-8.5, 0), (8.5, 0)),
    ((-8.5, 5), (8.5, 5), (0, -9.5)),
    ((-8.5, -8.5), (8.5, -8.5), (-8.5, 8.5), (8.5, 8.5)),
)
CAPTION_SIZE = 15
CHAR_WIDTH = 0.6  # an upper bound of a character's width, in font sizes (to make room for the caption)


def svg(state: State) -> str:
    """The SVG picture of ``state`` (an Exploding Atoms state): a standalone ``<svg>`` document as text."""
    assert isinstance(state, AtomsState)
    cells = state.cells()
    rows, cols = len(cells), len(cells[0])
    events = state.events()
    caption = _caption(state, events)
    board_width = LABEL + cols * CELL + PAD
    width = max(board_width, math.ceil(2 * PAD + 22 + CHAR_WIDTH * CAPTION_SIZE * len(caption)))
    height = LABEL + rows * CELL + PAD + CAPTION
    left = (width - board_width) / 2 + LABEL  # the board is centred when the caption is the wider
    turn = state.player if state.player >= 0 else _winner(state)
    root = document(width, height, f"damier-board {state.game.name}", f"{state.game.title}, {rows} by {cols}: "
                    f"{caption}", FONT)
    root.set("data-rows", str(rows))
    root.set("data-cols", str(cols))
    ET.SubElement(root, "title").text = f"{state.game.title}: {caption}"
    ET.SubElement(root, "rect", {"width": str(width), "height": str(height), "fill": BACKGROUND})
    ET.SubElement(root, "rect", {
        "class": "frame", "x": number(left - 5), "y": number(LABEL - 5), "width": number(cols * CELL + 6),
        "height": number(rows * CELL + 6), "rx": "14", "fill": FRAME, "stroke-width": "3",
        "stroke": OUTLINES[turn] if turn >= 0 else NEUTRAL_FRAME,
    })
    _coordinates(root, left, rows, cols)
    last = events[0]["square"] if events else None  # the ``place`` event: where the last atom was added
    board = ET.SubElement(root, "g", {"class": "squares"})
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            _square(board, cell, left + c * CELL, LABEL + r * CELL, cell.name == last)
    caption_x = left - 5 if width == board_width else PAD
    _caption_line(root, caption, turn, caption_x, LABEL + rows * CELL + PAD + 24)
    return ET.tostring(root, encoding="unicode")


def _coordinates(root: ET.Element, left: float, rows: int, cols: int) -> None:
    labels = ET.SubElement(root, "g", {"class": "coordinates", "fill": COORDINATES, "font-size": "14",
                                       "font-weight": "600", "text-anchor": "middle"})
    for c in range(cols):
        text(labels, left + c * CELL + CELL / 2 - 2, LABEL - 10, chr(ord("A") + c))
    for r in range(rows):
        text(labels, left - 13, LABEL + r * CELL + CELL / 2 + 3, str(r + 1))


def _square(parent: ET.Element, cell: Cell, x: float, y: float, last: bool) -> None:
    owned = cell.owner >= 0 and cell.count > 0
    colour = OUTLINES[cell.owner] if owned else ""
    g = ET.SubElement(parent, "g", {
        "class": "square", "transform": f"translate({number(x)} {number(y)})", "data-square": cell.name,
        "data-count": str(cell.count), "data-owner": str(cell.owner if owned else -1),
        "data-capacity": str(cell.capacity), "data-critical": str(cell.critical).lower(),
    })
    ET.SubElement(g, "rect", {"width": str(SIZE), "height": str(SIZE), "rx": "9", "fill": SQUARE})
    if owned:
        ET.SubElement(g, "rect", {"width": str(SIZE), "height": str(SIZE), "rx": "9", "fill": colour,
                                  "opacity": "0.13"})
    if cell.critical:  # a glow and a ring in the owner's colour: one more atom explodes it
        ET.SubElement(g, "rect", {"class": "critical", "x": "1.5", "y": "1.5", "width": number(SIZE - 3),
                                  "height": number(SIZE - 3), "rx": "8", "fill": "none", "stroke": colour,
                                  "stroke-width": "3"})
        ET.SubElement(g, "rect", {"x": "5", "y": "5", "width": number(SIZE - 10), "height": number(SIZE - 10),
                                  "rx": "6", "fill": "none", "stroke": colour, "stroke-width": "4", "opacity": "0.18"})
    elif owned and cell.count >= cell.capacity:  # only in a finished game: the explosions stopped at the win
        ET.SubElement(g, "rect", {"class": "unstable", "x": "1.5", "y": "1.5", "width": number(SIZE - 3),
                                  "height": number(SIZE - 3), "rx": "8", "fill": "none", "stroke": colour,
                                  "stroke-width": "2.5", "stroke-dasharray": "5 4"})
    for j in range(cell.capacity):  # the capacity meter: one pip per atom the square holds before exploding
        on = owned and j < cell.count
        ET.SubElement(g, "circle", {"class": "pip", "cx": number(SIZE / 2 + (j - (cell.capacity - 1) / 2) * 7),
                                    "cy": number(SIZE - 7.5), "r": "2.1", "fill": colour if on else PIP,
                                    "opacity": "1" if on else "0.7"})
    if owned:
        atoms = ET.SubElement(g, "g", {"class": "atoms", "transform": f"translate({number(SIZE / 2)} {ATOM_Y})"})
        for dx, dy, radius in _layout(cell.count):
            _atom(atoms, dx, dy, radius, cell.owner)
    if last:
        ET.SubElement(g, "circle", {"class": "last-move", "cx": "8", "cy": "8", "r": "3", "fill": MUTED})


def _layout(count: int) -> list[tuple[float, float, float]]:
    """Where the dots of ``count`` atoms go (offsets from the centre of the dots' area) and their radius."""
    if count < len(LAYOUTS):
        return [(dx, dy, ATOM) for dx, dy in LAYOUTS[count]]
    across = math.ceil(math.sqrt(count))
    down = math.ceil(count / across)
    step = min(42 / across, 36 / down)
    out = []
    for i in range(count):
        r, c = divmod(i, across)
        in_row = min(across, count - r * across)  # the last row may be short: centre it
        out.append(((c - (in_row - 1) / 2) * step, (r - (down - 1) / 2) * step, step * 0.44))
    return out


def _atom(parent: ET.Element, x: float, y: float, radius: float, owner: int) -> None:
    ET.SubElement(parent, "circle", {"class": "atom", "data-owner": str(owner), "cx": number(x), "cy": number(y),
                                     "r": number(radius), "fill": PALETTE[owner], "stroke": ATOM_EDGE,
                                     "stroke-opacity": "0.35", "stroke-width": "1"})
    ET.SubElement(parent, "circle", {"cx": number(x - radius * 0.32), "cy": number(y - radius * 0.36),
                                     "r": number(radius * 0.34), "fill": "#ffffff", "opacity": "0.55"})


def _caption(state: AtomsState, events: list[dict[str, Any]]) -> str:
    """Who is to move (or how the game ended), then what the last move did."""
    outcome = state.outcome()
    names = state.game.player_names
    status = outcome.reason if outcome else f"{names[state.player]} to move"
    if not events:
        return status
    place = events[0]
    waves = [e for e in events if e["type"] == "wave"]
    exploded = sum(len(w["squares"]) for w in waves)
    did = f": {exploded} explosion{'' if exploded == 1 else 's'}" if exploded else ""
    return f"{status} · {names[place['player']]} played {place['square']}{did}"


def _winner(state: AtomsState) -> int:
    outcome = state.outcome()
    return outcome.winner if outcome and outcome.winner is not None else -1


def _caption_line(root: ET.Element, words: str, colour: int, x: float, y: float) -> None:
    swatch = None  # a swatch of the colour to move (or of the winner)
    if colour >= 0:
        swatch = {"fill": PALETTE[colour], "stroke": ATOM_EDGE, "stroke-opacity": "0.35", "stroke-width": "1"}
    caption(root, x, y, words, swatch, TEXT, CAPTION_SIZE)
