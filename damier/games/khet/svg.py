"""An SVG picture of a Khet position, for notebooks (the ``svg`` feature behind ``State._repr_svg_``).

The 10 x 8 board as the web client draws it, Silver's side at the bottom (rank 8 at the top, files a-j left to
right, as the text view), the squares reserved for one colour tinted with it (an eye for Silver's, an ankh for
Red's), each piece in its side's colour and turned to its facing: the Sphinx's lens points where its laser fires,
the Anubis's shield is its front, a Pyramid is a right triangle whose long side is its mirror, a Scarab a
diagonal two-sided mirror. The last move's squares are tinted, its laser shot drawn as a red polyline from the
Sphinx to where the beam stopped (a cross on the piece it removed), and a caption says who is to move (or how the
game ended) and what the last shot did.

Everything is drawn from what the state exposes (``pieces()``, ``board_json()``, ``events()``); no rule is
computed here. Elements carry classes and data attributes: one ``g.piece`` per piece (``data-square``,
``data-kind``, ``data-colour``, ``data-facing``), ``polyline.beam`` for the last shot (``data-squares``,
``data-stop``).

>>> import damier
>>> state = damier.load("khet").new_state()
>>> state.play(state.parse_move("j1-"))
>>> picture = svg(state)
>>> picture.count('class="piece"'), picture.count('class="beam"')
(25, 1)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from damier.core.game import State
from damier.core.svg import caption, document, number, text
from damier.games.khet.rules import KhetState
from damier.games.khet.view import beam_end

FILES = "abcdefghij"
COLS, ROWS = 10, 8
CELL = 60  # a square and its gap, in SVG units
GAP = 3
SIZE = CELL - GAP
LEFT, TOP, RIGHT = 30, 14, 14  # margins around the board (ranks on the left, files below)
FILES_BAND = 28
CAPTION = 54
WIDTH = LEFT + COLS * CELL + RIGHT
BOARD_BOTTOM = TOP + ROWS * CELL
HEIGHT = BOARD_BOTTOM + FILES_BAND + CAPTION
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

# the web client's light theme (static/js/games/khet/style.css)
BACKGROUND = "#f6f7fb"
BOARD = "#cdbf9f"
LIGHT, DARK = "#efe6d2", "#e6dbc2"
COORDINATES = "#7d8599"
TEXT, MUTED = "#1a1e2b", "#5d6578"
SIDES = ("#8e97aa", "#d4343d")  # Silver, Red as seat colours (frame, tints, swatches)
BODIES = ("#dfe3ea", "#d9434b")
EDGES = ("#4b5468", "#6e1a20")
MARKS = ("#4b5468", "#c99a1e")
RESERVED_OPACITY = ("0.32", "0.2")
GOLD = "#c99a1e"
MIRROR, MIRROR_EDGE = "#f4fbff", "#37506e"
LASER, LASER_GLOW = "#ff1f2d", "#ff2832"  # the glow is drawn at 35 % opacity
LAST = "#ffd84d"  # the last move's squares

ANGLES = {"N": 0, "E": 90, "S": 180, "W": 270}
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def svg(state: State) -> str:
    """The SVG picture of ``state`` (a Khet state): a standalone ``<svg>`` document as text."""
    assert isinstance(state, KhetState)
    board = state.board_json(previews=False)
    pieces = state.pieces()
    events = state.events()
    names = state.game.player_names
    status = _status(state, names)
    shot = _last_shot(events, names)
    turn = state.player if state.player >= 0 else _winner(state)
    root = document(WIDTH, HEIGHT, f"damier-board {state.game.name}",
                    f"{state.game.title}: {status}" + (f"; {shot}" if shot else ""), FONT)
    ET.SubElement(root, "title").text = f"{state.game.title}: {status}"
    ET.SubElement(root, "rect", {"width": str(WIDTH), "height": str(HEIGHT), "fill": BACKGROUND})
    ET.SubElement(root, "rect", {
        "class": "frame", "x": str(LEFT - 5), "y": str(TOP - 5), "width": str(COLS * CELL + 7),
        "height": str(ROWS * CELL + 7), "rx": "12", "fill": BOARD, "stroke-width": "3",
        "stroke": SIDES[turn] if turn >= 0 else BOARD,
    })
    _coordinates(root)
    occupied = {piece["square"] for piece in pieces}
    _squares(root, board["reserved"], occupied, _last_squares(events))
    beam = next((e for e in events if e["type"] == "laser"), None)
    points = _beam_points(beam) if beam else ""
    if points:  # the glow under the pieces, the beam itself over them (its turns show on the mirrors)
        ET.SubElement(root, "polyline", {"class": "beam-glow", "points": points, "fill": "none",
                                         "stroke": LASER_GLOW, "stroke-opacity": "0.35", "stroke-width": "10",
                                         "stroke-linecap": "round",
                                         "stroke-linejoin": "round"})
    layer = ET.SubElement(root, "g", {"class": "pieces"})
    for piece in pieces:
        _piece(layer, piece, "piece")
    if beam and points:
        removed = beam["removed"]
        if removed:
            ghost = _piece(root, removed, "removed")
            ghost.set("opacity", "0.35")
        ET.SubElement(root, "polyline", {
            "class": "beam", "points": points, "fill": "none", "stroke": LASER, "stroke-width": "3.5",
            "stroke-linecap": "round", "stroke-linejoin": "round", "data-player": str(beam["player"]),
            "data-squares": " ".join(beam["squares"]), "data-stop": beam["stop"],
        })
        if removed:
            _hit_mark(root, removed["square"])
    _caption(root, status, shot, turn)
    return ET.tostring(root, encoding="unicode")


# ----- geometry -----------------------------------------------------------------------------------------------
def _centre(square: str) -> tuple[float, float]:
    """The centre of ``square`` (``e4``) in SVG units: rank 8 at the top, file a on the left."""
    return LEFT + FILES.index(square[0]) * CELL + SIZE / 2, TOP + (ROWS - int(square[1:])) * CELL + SIZE / 2


def _beam_points(beam: Mapping[str, Any]) -> str:
    """The beam as polyline points: from the Sphinx's lens through the centre of every square it crossed, out
    over the edge when it left the board, short of the centre when a piece absorbed it."""
    x, y = _centre(beam["from"])
    dx, dy = STEPS[beam["facing"]]
    points = [(x + dx * SIZE * 0.42, y + dy * SIZE * 0.42)]
    points += [_centre(square) for square in beam["squares"]]
    if beam["squares"]:
        x, y = points[-1]
        if beam["stop"] == "left":
            dx, dy = STEPS[beam["directions"][-1]]
            points[-1:] = [(x, y), (x + dx * CELL / 2, y + dy * CELL / 2)]
        elif beam["stop"] == "absorbed":
            px, py = points[-2]
            dx, dy = _sign(x - px), _sign(y - py)
            points[-1] = (x - dx * CELL * 0.3, y - dy * CELL * 0.3)
    return " ".join(f"{number(x)},{number(y)}" for x, y in points)


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


# ----- the board --------------------------------------------------------------------------------------------
def _coordinates(root: ET.Element) -> None:
    labels = ET.SubElement(root, "g", {"class": "coordinates", "fill": COORDINATES, "font-size": "14",
                                       "font-weight": "600", "text-anchor": "middle"})
    for f, letter in enumerate(FILES):
        text(labels, LEFT + f * CELL + SIZE / 2, BOARD_BOTTOM + 19, letter)
    for r in range(ROWS):
        text(labels, LEFT - 17, TOP + r * CELL + SIZE / 2 + 5, str(ROWS - r))


def _squares(root: ET.Element, reserved: Mapping[str, int], occupied: set[str], last: set[str]) -> None:
    layer = ET.SubElement(root, "g", {"class": "squares"})
    for r in range(ROWS, 0, -1):
        for f, letter in enumerate(FILES):
            square = f"{letter}{r}"
            x, y = _centre(square)
            g = ET.SubElement(layer, "g", {"class": "square", "data-square": square,
                                           "transform": f"translate({number(x - SIZE / 2)} {number(y - SIZE / 2)})"})
            shape = {"width": str(SIZE), "height": str(SIZE), "rx": "6"}
            ET.SubElement(g, "rect", {**shape, "fill": LIGHT if (f + r) % 2 else DARK})
            colour = reserved.get(square)
            if colour is not None:
                g.set("data-reserved", str(colour))
                ET.SubElement(g, "rect", {**shape, "class": "reserved", "fill": SIDES[colour],
                                          "opacity": RESERVED_OPACITY[colour]})
                if square not in occupied:
                    _reserved_mark(g, colour)
            if square in last:
                ET.SubElement(g, "rect", {"class": "last-move", "x": "2", "y": "2", "width": str(SIZE - 4),
                                          "height": str(SIZE - 4), "rx": "5", "fill": LAST, "opacity": "0.42"})


def _reserved_mark(g: ET.Element, colour: int) -> None:
    """A faint eye on Silver's squares, an ankh on Red's (as on the real board)."""
    mark = ET.SubElement(g, "g", {"transform": f"translate({number(SIZE / 2)} {number(SIZE / 2)})", "fill": "none",
                                  "stroke": EDGES[0] if colour == 0 else SIDES[1], "stroke-width": "2.2",
                                  "stroke-linecap": "round", "opacity": "0.5"})
    if colour == 1:
        ET.SubElement(mark, "ellipse", {"cx": "0", "cy": "-9", "rx": "5.5", "ry": "7"})
        ET.SubElement(mark, "path", {"d": "M0 -2 L0 16 M-10 2 L10 2"})
    else:
        ET.SubElement(mark, "path", {"d": "M-13 0 Q0 -11 13 0 Q0 11 -13 0 Z"})
        ET.SubElement(mark, "circle", {"cx": "0", "cy": "0", "r": "3.5", "fill": EDGES[0]})
        ET.SubElement(mark, "path", {"d": "M-4 6 L-7 15 M4 7 Q9 13 5 16"})


# ----- pieces -----------------------------------------------------------------------------------------------
def _piece(parent: ET.Element, piece: Mapping[str, Any], cls: str) -> ET.Element:
    """A piece as ``<g class=cls>`` centred on its square, its drawing (made facing N) turned to its facing."""
    kind, colour, facing = piece["kind"], int(piece["colour"]), piece["facing"]
    x, y = _centre(piece["square"])
    g = ET.SubElement(parent, "g", {
        "class": cls, "transform": f"translate({number(x)} {number(y)})", "data-square": piece["square"],
        "data-kind": kind, "data-colour": str(colour), "data-facing": facing,
    })
    turned = ET.SubElement(g, "g", {"transform": f"rotate({0 if kind == 'pharaoh' else ANGLES[facing]})"})
    body = {"fill": BODIES[colour], "stroke": EDGES[colour], "stroke-width": "2", "stroke-linejoin": "round"}
    mark = {"fill": MARKS[colour]}
    trim = {"stroke": MIRROR_EDGE, "stroke-width": "1.3", "stroke-linejoin": "round"}
    if kind == "pyramid":  # the right angle at the SW corner; the long side, facing NE, is the mirror
        ET.SubElement(turned, "path", {"d": "M-21 -18 L18 21 L-21 21 Z", **body})
        ET.SubElement(turned, "path", {"d": "M-20 -20 L20 20", "stroke": MIRROR_EDGE, "stroke-width": "7",
                                       "stroke-linecap": "round"})
        ET.SubElement(turned, "path", {"d": "M-20 -20 L20 20", "stroke": MIRROR, "stroke-width": "4.2",
                                       "stroke-linecap": "round"})
        ET.SubElement(turned, "circle", {"cx": "-10.5", "cy": "10.5", "r": "3.2", **mark})
    elif kind == "scarab":  # a two-sided mirror along the NW-SE diagonal (a Scarab facing E is turned to NE-SW)
        ET.SubElement(turned, "ellipse", {"cx": "0", "cy": "0", "rx": "18", "ry": "12", "transform": "rotate(-45)",
                                          **body})
        ET.SubElement(turned, "rect", {"x": "-28", "y": "-4.5", "width": "56", "height": "9", "rx": "3",
                                       "transform": "rotate(45)", "fill": MIRROR, "stroke": MIRROR_EDGE,
                                       "stroke-width": "1.6"})
        ET.SubElement(turned, "circle", {"cx": "-9", "cy": "9", "r": "2.6", **mark})
        ET.SubElement(turned, "circle", {"cx": "9", "cy": "-9", "r": "2.6", **mark})
    elif kind == "anubis":  # the shield is its front
        ET.SubElement(turned, "rect", {"x": "-15", "y": "-9", "width": "30", "height": "29", "rx": "7", **body})
        ET.SubElement(turned, "path", {"d": "M-10 12 L-6 3 L-2 12 Z M2 12 L6 3 L10 12 Z", **mark})
        ET.SubElement(turned, "path", {"d": "M-21 -9 Q0 -27 21 -9 L17 -5 Q0 -19 -17 -5 Z", "fill": GOLD, **trim})
    elif kind == "pharaoh":
        ET.SubElement(turned, "circle", {"cx": "0", "cy": "0", "r": "20", **body})
        ET.SubElement(turned, "circle", {"cx": "0", "cy": "0", "r": "15", "fill": "none", "stroke": GOLD,
                                         "stroke-width": "2.5"})
        ET.SubElement(turned, "path", {"d": "M-10 7 L-10 -5 L-5 1 L0 -9 L5 1 L10 -5 L10 7 Z", "fill": GOLD,
                                       **trim})
    else:  # the Sphinx: its lens points where the laser leaves
        ET.SubElement(turned, "rect", {"x": "-17", "y": "-13", "width": "34", "height": "31", "rx": "6", **body})
        ET.SubElement(turned, "path", {"d": "M-9 -13 L0 -25 L9 -13 Z", "fill": LASER, **trim})
        ET.SubElement(turned, "circle", {"cx": "0", "cy": "-3", "r": "5", "fill": LASER, **trim})
    return g


def _hit_mark(root: ET.Element, square: str) -> None:
    x, y = _centre(square)
    g = ET.SubElement(root, "g", {"class": "hit", "data-square": square,
                                  "transform": f"translate({number(x)} {number(y)})", "fill": "none",
                                  "stroke": LASER, "stroke-linecap": "round"})
    ET.SubElement(g, "circle", {"r": "24", "stroke-width": "3"})
    ET.SubElement(g, "path", {"d": "M-9 -9 L9 9 M9 -9 L-9 9", "stroke-width": "4"})


# ----- words ------------------------------------------------------------------------------------------------
def _status(state: State, names: tuple[str, ...]) -> str:
    outcome = state.outcome()
    return outcome.reason if outcome else f"{names[state.player]} to move"


def _winner(state: State) -> int:
    outcome = state.outcome()
    return outcome.winner if outcome and outcome.winner is not None else -1


def _last_squares(events: list[dict[str, Any]]) -> set[str]:
    """The squares the last move touched: from and to of a step or a swap, the square of a rotation."""
    out: set[str] = set()
    for event in events:
        if event["type"] in ("step", "swap"):
            out |= {event["from"], event["to"]}
        elif event["type"] == "rotate":
            out.add(event["square"])
    return out


def _last_shot(events: list[dict[str, Any]], names: tuple[str, ...]) -> str:
    """``Last move j1-: Silver's laser removes Silver's Anubis on f1`` (empty before the first move)."""
    move = next((e["move"] for e in events if "move" in e), None)
    beam = next((e for e in events if e["type"] == "laser"), None)
    if move is None or beam is None:
        return "Last move: a draw claimed" if any(e["type"] == "claim" for e in events) else ""
    return f"Last move {move}: {names[beam['player']]}'s laser {beam_end(beam, names)}"


def _caption(root: ET.Element, status: str, shot: str, colour: int) -> None:
    y = BOARD_BOTTOM + FILES_BAND + 20
    x = LEFT - 5
    swatch = None  # a swatch of the side to move (or of the winner)
    if colour >= 0:
        swatch = {"fill": SIDES[colour], "stroke": EDGES[colour], "stroke-width": "1.2"}
    line = caption(root, x, y, status, swatch, TEXT, 15)
    if shot:
        more = text(line, x + 22, y + 22, shot)
        more.set("fill", MUTED)
        more.set("font-size", "13.5")



