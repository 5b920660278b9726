"""Micro Robots notation: squares, puzzle ids, positions and the JSON puzzle form.

A square is written by what it shows, a colour letter and a number (``R5``; capitals), or by its coordinates
(``c4``; lower case: columns a..f from the left, rows 1..6 from the top). A jump is written as the square it
reaches. A puzzle id is a board id (``damier.games.micro.setup``), the start, the target and an optional waypoint,
joined by ``_``: ``A-1234-0000_R5_B1`` or ``random:42_G2_W6_P3``. A position adds the robot's square, the moves used
and whether the waypoint was visited (``w``, else ``-``): ``A-1234-0000_R5_B1 R1 1 -``.

>>> puzzle = parse_puzzle_id("a-1234-0000_R5_B1")
>>> puzzle_id(puzzle), square_name(puzzle.board, puzzle.start), square_index(puzzle.board, "a1")
('A-1234-0000_R5_B1', 'R5', 0)
>>> square_name(puzzle.board, square_index(puzzle.board, "b1"))  # lower case: coordinates
'G6'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from damier.core.errors import ParseError
from damier.core.messages import say
from damier.games.micro import setup

_COORDINATE = re.compile(r"^([a-f])([1-6])$")
_SQUARE = re.compile(r"^[RGBYWP][1-6]$")
_COUNT = re.compile(r"^[0-9]{1,6}$")


@dataclass(frozen=True)
class Puzzle:
    """A board, a start, a target and an optional waypoint (squares are board indices 0..35; -1: no waypoint)."""

    board_id: str
    board: np.ndarray = field(compare=False, repr=False)
    start: int
    target: int
    waypoint: int = -1


def square_index(board: np.ndarray, text: str) -> int:
    """The board index of the square written ``text`` (``R5`` or ``c4``); ``ParseError`` saying what is accepted."""
    word = text.strip() if isinstance(text, str) else ""
    match = _COORDINATE.match(word)
    if match:
        return (int(match.group(2)) - 1) * setup.SIZE + "abcdef".index(match.group(1))
    if not _SQUARE.match(word):  # capitals only: lower-case b1 is a coordinate, so r1 must not be a colour
        raise ParseError(say("micro.error.not_a_square", text=repr(text)))
    return int(board.tolist().index(setup.square_code(word)))  # (every square shows a colour and number once)


def square_name(board: np.ndarray, index: int) -> str:
    """``R5``: what the square at board index ``index`` shows."""
    return setup.square_text(int(board[index]))


def coordinates(index: int) -> str:
    """``c4``: the coordinates of board index ``index``."""
    return f"{'abcdef'[index % setup.SIZE]}{index // setup.SIZE + 1}"


def make_puzzle(board_id: str, board: np.ndarray, start: int, target: int, waypoint: int = -1) -> Puzzle:
    """A checked puzzle: the start differs from the target, and a waypoint from both."""
    if start == target:
        raise ParseError(say("micro.error.start_is_target", square=square_name(board, start)))
    if waypoint in (start, target):
        raise ParseError(say("micro.error.waypoint_not_distinct", square=square_name(board, waypoint)))
    return Puzzle(board_id, board, start, target, waypoint)


def parse_puzzle_id(text: str) -> Puzzle:
    """The puzzle of a puzzle id; ``ParseError`` saying what is wrong."""
    if not isinstance(text, str):
        raise ParseError(say("micro.error.puzzle_id_not_string", type=type(text).__name__))
    parts = text.strip().split("_")
    if len(parts) not in (3, 4):
        raise ParseError(say("micro.error.not_a_puzzle_id", text=repr(text)))
    board_id = setup.board_id_of(parts[0])
    board = setup.parse_board_id(board_id)
    squares = [square_index(board, word) for word in parts[1:]]
    return make_puzzle(board_id, board, *squares)


def puzzle_id(puzzle: Puzzle) -> str:
    words = [puzzle.board_id, square_name(puzzle.board, puzzle.start), square_name(puzzle.board, puzzle.target)]
    if puzzle.waypoint >= 0:
        words.append(square_name(puzzle.board, puzzle.waypoint))
    return "_".join(words)


def parse_puzzle_json(text: str | dict[str, Any]) -> tuple[Puzzle, bool]:
    """The puzzle of the JSON form ``{"board": [six rows of six squares, top to bottom], "start": "R5", "target":
    "B1", "waypoint": null, "waypoint_pass": false}`` (``board`` may also be a board id), and its waypoint rule."""
    try:
        obj = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError as exc:
        raise ParseError(say("micro.error.json_invalid", line=str(exc.lineno), column=str(exc.colno),
                             detail=exc.msg)) from None
    if not isinstance(obj, dict):
        raise ParseError(say("micro.error.json_not_object"))
    unknown = sorted(set(obj) - {"board", "start", "target", "waypoint", "waypoint_pass", "id"})
    if unknown:
        raise ParseError(say("micro.error.json_unknown_field", field=repr(unknown[0])))
    for key in ("board", "start", "target"):
        if key not in obj:
            raise ParseError(say("micro.error.json_missing_field", field=repr(key)))
    raw = obj["board"]
    if isinstance(raw, str):
        board_id = setup.board_id_of(raw)
        board = setup.parse_board_id(board_id)
    else:
        board = setup.parse_rows(raw, raw)
        board_id = setup.custom_id(board)
    passing = obj.get("waypoint_pass", False)
    if not isinstance(passing, bool):
        raise ParseError(say("micro.error.json_waypoint_pass", value=repr(passing)))
    for key in ("start", "target", "waypoint"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise ParseError(say("micro.error.json_square", field=key, value=repr(obj[key])))
    waypoint = -1 if obj.get("waypoint") is None else square_index(board, obj["waypoint"])
    return make_puzzle(board_id, board, square_index(board, obj["start"]), square_index(board, obj["target"]),
                       waypoint), passing


def position_text(puzzle: Puzzle, robot: int, used: int, visited: bool) -> str:
    return f"{puzzle_id(puzzle)} {square_name(puzzle.board, robot)} {used} {'w' if visited else '-'}"


def parse_position(text: str) -> tuple[Puzzle, int, int, bool]:
    """(puzzle, robot, moves used, waypoint visited) of a position, or of a bare puzzle id (robot on the start)."""
    if not isinstance(text, str):
        raise ParseError(say("micro.error.position_not_string", type=type(text).__name__))
    fields = text.split()
    if len(fields) == 1:
        puzzle = parse_puzzle_id(fields[0])
        return puzzle, puzzle.start, 0, False
    if len(fields) != 4:
        raise ParseError(say("micro.error.position_fields", text=repr(text), count=str(len(fields))))
    puzzle = parse_puzzle_id(fields[0])
    robot = square_index(puzzle.board, fields[1])
    if not _COUNT.match(fields[2]):
        raise ParseError(say("micro.error.position_used", value=repr(fields[2])))
    if fields[3] not in ("w", "-"):
        raise ParseError(say("micro.error.position_visited", value=repr(fields[3])))
    visited = fields[3] == "w"
    if visited and puzzle.waypoint < 0:
        raise ParseError(say("micro.error.position_no_waypoint"))
    return puzzle, robot, int(fields[2]), visited
