"""Ricochet Robots notation: moves, puzzle ids, DriftingDroids game ids and the JSON puzzle form.

A move is the robot's letter and a direction: ``RN``, ``GE``, ``BS``, ``YW``, ``SN`` (silver), ``TE``
(transparent); the transparent robot passing walls adds how many: ``TE2`` passes two walls (it costs 3 moves).

Puzzle id (ours, compact and shareable): ``BOARD.ROBOTS.TARGET[.RULES]``: the four sides (``1A2B3C4D``), each robot's
cell as two hex digits in the order red, green, blue, yellow[, silver][, transparent] (``--`` for an absent
silver when the transparent robot is there), the target (``rc`` red circle ... ``yh`` yellow hexagon, ``v`` the
vortex) and the rules when not the defaults (``i``: ricochet if trivial, ``s``: strict ricochet, ``x``: no
rebound): ``1A2B3C4D.E2302B12.bt`` or ``1A2A3A4A.00F0F0FF.v.sx``.

>>> text = "1A2B3C4D.E2302B12.bt.i"
>>> puzzle = parse_puzzle_id(text)
>>> puzzle_id(puzzle) == text, puzzle.target.name, puzzle.ricochet
(True, 'blue triangle', 'if_trivial')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from damier.core.errors import ParseError
from damier.core.messages import nested, say
from damier.games.ricochet import setup
from damier.games.ricochet.setup import Board, Target

#: robot letters in robot order
LETTERS = "RGBYST"
ROBOT_NAMES = ("red", "green", "blue", "yellow", "silver", "transparent")
DIRECTIONS = "NESW"
RICOCHET = ("off", "if_trivial", "strict")
_SHAPE_LETTERS = {"circle": "c", "triangle": "t", "square": "s", "hexagon": "h"}


@dataclass(frozen=True)
class Puzzle:
    """A board, the robots' cells (-1: a robot not in play), a target and the rules."""

    board: Board
    robots: tuple[int, ...]  # red, green, blue, yellow, silver, transparent
    target: Target
    ricochet: str = "off"
    rebound: bool = True

    @property
    def silver(self) -> bool:
        return self.robots[4] >= 0

    @property
    def transparent(self) -> bool:
        return self.robots[5] >= 0


def target_code(target: Target) -> str:
    return "v" if target.shape == "vortex" else target.colour[0] + _SHAPE_LETTERS[target.shape]


def target_word(target: Target) -> Any:
    """The target's name (``red circle``, ``vortex``) as a message's parameter, said in the reader's language."""
    if target.shape == "vortex":
        return nested(say("ricochet.word.vortex"))
    return nested(say("ricochet.word.target", colour=target.colour, shape=target.shape))


def find_target(board: Board, code: str) -> Target:
    """The target written ``code`` (``rc``, ``v``, or ``red circle``, ``vortex``) on ``board``."""
    word = code.strip().lower()
    for target in board.targets:
        if word in (target_code(target), target.name, target.name.replace(" ", "-")):
            return target
    names = ", ".join(f"{target_code(t)} ({t.name})" for t in board.targets)
    said = say("ricochet.error.not_a_target", code=repr(code))  # every board has the same 17 targets
    raise ParseError(said if said.endswith(f"; the targets: {names}") else
                     f"{code!r} is not a target; the targets: {names}")


def check(board: Board, robots: tuple[int, ...], target: Target, ricochet: str, rebound: bool) -> Puzzle:
    """A checked puzzle: robots on distinct cells, none in the centre block; a known rule mode."""
    placed = [cell for cell in robots if cell >= 0]
    for cell in placed:
        if not 0 <= cell < setup.CELLS:
            raise ParseError(f"a robot's cell must be 0..255 (x, y 0..15), not {cell}")
        if board.blocked[cell]:
            raise ParseError(say("ricochet.error.centre_block", square=setup.cell_name(cell)))
    if len(set(placed)) != len(placed):
        raise ParseError(say("ricochet.error.same_square"))
    if ricochet not in RICOCHET:
        raise ParseError(say("ricochet.error.ricochet_mode", value=repr(ricochet)))
    return Puzzle(board, tuple(robots), target, ricochet, rebound)


def puzzle_id(puzzle: Puzzle) -> str:
    robots = list(puzzle.robots[:4])
    if puzzle.silver or puzzle.transparent:
        robots.append(puzzle.robots[4])
    if puzzle.transparent:
        robots.append(puzzle.robots[5])
    cells = "".join("--" if c < 0 else f"{c:02X}" for c in robots)
    rules = ("" if puzzle.ricochet == "off" else puzzle.ricochet[0]) + ("" if puzzle.rebound else "x")
    words = [puzzle.board.board_id, cells, target_code(puzzle.target)] + ([rules] if rules else [])
    return ".".join(words)


def parse_puzzle_id(text: str) -> Puzzle:
    """The puzzle of one of our puzzle ids (see the module's doc) or of a DriftingDroids game id."""
    if not isinstance(text, str):
        raise ParseError(say("ricochet.error.puzzle_id_type", type=type(text).__name__))
    word = text.strip()
    if "+" in word:
        return parse_driftingdroids(word)
    parts = word.split(".")
    if len(parts) not in (3, 4):
        raise ParseError(say("ricochet.error.not_a_puzzle_id", text=repr(text)))
    board = setup.build("".join(setup.parse_sides(parts[0])))
    cells_text = parts[1].upper()
    if len(cells_text) not in (8, 10, 12) or not re.fullmatch(r"([0-9A-F]{2}|--)+", cells_text):
        raise ParseError(say("ricochet.error.robot_cells", value=repr(parts[1])))
    cells = [-1 if cells_text[i:i + 2] == "--" else int(cells_text[i:i + 2], 16) for i in range(0, len(cells_text), 2)]
    if -1 in cells[:4] or (len(cells) == 5 and cells[4] < 0):
        raise ParseError(say("ricochet.error.absent_robot"))
    cells += [-1] * (6 - len(cells))
    rules = parts[3] if len(parts) == 4 else ""
    if not re.fullmatch(r"[is]?x?", rules) or (len(parts) == 4 and not rules):
        raise ParseError(say("ricochet.error.rules_letters", value=repr(rules)))
    ricochet = {"i": "if_trivial", "s": "strict"}.get(rules[:1], "off")
    return check(board, tuple(cells), find_target(board, parts[2]), ricochet, "x" not in rules)


def parse_driftingdroids(text: str) -> Puzzle:
    """A DriftingDroids game id ``QQQQ+NG+ROBOTS+TARGET``: the quadrant sides NW, NE, SE, SW by its numbering
    (the data file's ``driftingdroids_index``), the number of robots (4, or 5 with silver) and the target's robot
    (0 red, 1 green, 2 blue, 3 yellow, F any robot: the vortex), which must be the colour of the target square,
    each robot's cell in hex (``y * 16 + x``), the target's cell in hex. The rules are the defaults (DriftingDroids
    has no ricochet rule), so the puzzle is ``off`` with rebounds.

    >>> puzzle = parse_driftingdroids("7650+42+E2302B12+C9")
    >>> puzzle.board.board_id, puzzle.target.name, setup.cell_name(puzzle.target.cell)
    ('4B3B2B1A', 'blue triangle', 'j13')
    """
    parts = text.strip().upper().split("+")
    if len(parts) != 4 or not re.fullmatch(r"[0-9A-F]{4}", parts[0]) or not re.fullmatch(r"[0-9A-F]{2}", parts[1]):
        raise ParseError(say("ricochet.error.dd_id", text=repr(text)))
    sides = setup.driftingdroids_sides()
    board = setup.build("".join(sides[int(ch, 16)] for ch in parts[0]))
    count = int(parts[1][0], 16)
    if count not in (4, 5) or len(parts[2]) != 2 * count or not re.fullmatch(r"[0-9A-F]+", parts[2] + parts[3]):
        raise ParseError(say("ricochet.error.dd_robots", text=repr(text)))
    cells = [int(parts[2][i:i + 2], 16) for i in range(0, 2 * count, 2)] + [-1] * (6 - count)
    target = board.target_at(int(parts[3], 16))
    if target is None:
        raise ParseError(say("ricochet.error.dd_not_target", text=repr(text), cell=parts[3]))
    said = int(parts[1][1], 16)
    if said not in (0, 1, 2, 3, 15):
        raise ParseError(say("ricochet.error.dd_robot_digit", text=repr(text), digit=parts[1][1]))
    if (ROBOT_NAMES[said] if said < 4 else "any") != target.colour:
        what = nested(say("ricochet.word.robot", robot=ROBOT_NAMES[said])) if said < 4 else nested(
            say("ricochet.word.vortex"))
        raise ParseError(say("ricochet.error.dd_wrong_target", text=repr(text), what=what, cell=parts[3],
                             square=setup.cell_name(target.cell), target=target_word(target)))
    return check(board, tuple(cells), target, "off", True)


def parse_puzzle_json(text: str | dict[str, Any]) -> Puzzle:
    """The JSON form: ``{"quadrants": ["1B", "4C", "2A", "3A"], "robots": {"red": [x, y], ...}, "target":
    {"color": "yellow" | ... | "any", "cell": [x, y]}, "ricochet": "off", "rebound": true}``: the sides NW, NE, SE,
    SW; the four coloured robots (silver and transparent when in play) at x east, y south, 0..15 each; the target's
    colour (``any``, or ``vortex``, for the vortex) and square; ``ricochet`` and ``rebound`` are optional (``off``,
    ``true``), an ``id`` field is ignored."""
    try:
        obj = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError as exc:
        raise ParseError(say("ricochet.error.json_invalid", line=str(exc.lineno), column=str(exc.colno),
                             reason=exc.msg)) from None
    if not isinstance(obj, dict):
        raise ParseError(say("ricochet.error.json_object"))
    unknown = sorted(set(obj) - {"quadrants", "robots", "target", "ricochet", "rebound", "id"})
    if unknown:
        raise ParseError(say("ricochet.error.json_field", field=repr(unknown[0])))
    quadrants = obj.get("quadrants")
    if not isinstance(quadrants, list) or not all(isinstance(q, str) for q in quadrants):
        raise ParseError(say("ricochet.error.json_quadrants"))
    board = setup.build("".join(setup.parse_sides("".join(quadrants))))
    robots_obj = obj.get("robots")
    if not isinstance(robots_obj, dict):
        raise ParseError(say("ricochet.error.json_robots_object"))
    unknown = sorted(set(robots_obj) - set(ROBOT_NAMES))
    if unknown or any(name not in robots_obj for name in ROBOT_NAMES[:4]):
        raise ParseError(say("ricochet.error.json_robots", names=", ".join(robots_obj)) if robots_obj else
                         say("ricochet.error.json_robots_none"))
    cells = [_cell(robots_obj[name], name) if name in robots_obj else -1 for name in ROBOT_NAMES]
    target_obj = obj.get("target")
    if not isinstance(target_obj, dict):
        raise ParseError(say("ricochet.error.json_target_object"))
    cell = _cell(target_obj.get("cell"), "target")
    target = board.target_at(cell)
    colour = target_obj.get("color")
    if target is None:
        raise ParseError(say("ricochet.error.json_not_target", square=setup.cell_name(cell)))
    if colour != target.colour and not (colour == "vortex" and target.shape == "vortex"):
        square = setup.cell_name(cell)
        raise ParseError(say("ricochet.error.json_target_vortex", square=square, colour=repr(colour))
                         if target.shape == "vortex" else
                         say("ricochet.error.json_target", square=square, target=target_word(target),
                             colour=repr(colour)))
    rebound = obj.get("rebound", True)
    if not isinstance(rebound, bool):
        raise ParseError(say("ricochet.error.json_rebound", value=repr(rebound)))
    return check(board, tuple(cells), target, str(obj.get("ricochet", "off")), rebound)


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON form of a puzzle (what ``parse_puzzle_json`` reads back), with its id.

    >>> puzzle_json(parse_puzzle_id("1A2B3C4D.E2302B12.bt.x"))["target"]
    {'color': 'blue', 'cell': [12, 6]}
    """
    robots = {name: [cell % setup.SIZE, cell // setup.SIZE] for name, cell in zip(ROBOT_NAMES, puzzle.robots,
                                                                                    strict=True) if cell >= 0}
    target = puzzle.target
    return {"id": puzzle_id(puzzle), "quadrants": list(puzzle.board.side_ids), "robots": robots,
            "target": {"color": target.colour, "cell": [target.cell % setup.SIZE, target.cell // setup.SIZE]},
            "ricochet": puzzle.ricochet, "rebound": puzzle.rebound}


def _cell(value: Any, what: str) -> int:
    if (not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                                   for v in value)):
        raise ParseError(say("ricochet.error.json_cell", what=what, value=repr(value)))
    x, y = value
    if not (0 <= x < setup.SIZE and 0 <= y < setup.SIZE):
        raise ParseError(say("ricochet.error.json_cell_range", what=what, value=repr(value)))
    return int(y * setup.SIZE + x)
