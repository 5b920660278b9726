"""Jewels and Lasers notation: moves, robots' steps and position strings, each with its parser.

Squares are named like the other games' (column letter from A, row number from 1 at the top). Moves:

- ``@E5``: Player 1 places the men (the first man on E5, the second on its mirror square);
- ``E5-E9``: a slide (``E9`` alone is accepted too);
- ``E5xE4``: an explosion, the man on E5 blowing up the wall on E4 and moving there;
- ``pass``: a man with no legal move;
- ``rC3-C4``: the robot on C3 steps to C4 (a chance outcome), ``rC3`` a robot that has to stay (``robot_steps =
  all``).

A position string has five fields, a sixth while ``robot_steps = all`` robots are stepping:

1. the board, rows from the top separated by ``/``, each square a letter (``W`` wall, ``J`` jewel, ``R`` robot,
   ``D`` dead robot, ``A`` Player 1's man, ``B`` Player 2's man) or a count of empty squares;
2. who moves: ``p`` (Player 1 places the men), ``a`` or ``b`` (that man), ``ra`` or ``rb`` (the robots, then that
   man), or ``xa`` / ``xb`` (the game is over; that man would have been next);
3. the jewels each player has taken, ``3-2``;
4. the explosions still unused, ``AB``, ``A-``, ``-B`` or ``--``;
5. the men's plies since a jewel was taken;
6. the robots still to step this turn, ``C3,H7``.

>>> board = parse_board("W1J/3/1R1", 3)
>>> board.tolist()
[1, 0, 2, 0, 0, 0, 0, 3, 0]
>>> write_board(board, -1, -1, 3)
'W1J/3/1R1'
"""

from __future__ import annotations

import re

import numpy as np

from damier.core.errors import IllegalMoveError, ParseError
from damier.core.grid import parse_square, square_name
from damier.games.jewels.kernel import DEAD, EMPTY, JEWEL, ROBOT, STAY, WALL

LETTERS = {WALL: "W", JEWEL: "J", ROBOT: "R", DEAD: "D"}
CODES = {letter: code for code, letter in LETTERS.items()}
MEN = "AB"
SIDES = ("p", "a", "b", "ra", "rb", "xa", "xb")
_SLIDE = re.compile(r"^([A-Za-z][0-9]{1,2})\s*-\s*([A-Za-z][0-9]{1,2})$")
_BLAST = re.compile(r"^([A-Za-z][0-9]{1,2})\s*[xX]\s*([A-Za-z][0-9]{1,2})$")
_STEP = re.compile(r"^[rR]\s*([A-Za-z][0-9]{1,2})(?:\s*-\s*([A-Za-z][0-9]{1,2}))?$")


def write_board(board: np.ndarray, man_a: int, man_b: int, size: int) -> str:
    """The board field: runs of empty squares as counts, pieces and men as letters."""
    rows = []
    for r in range(size):
        text, run = "", 0
        for c in range(size):
            sq = r * size + c
            letter = "A" if sq == man_a else "B" if sq == man_b else LETTERS.get(int(board[sq]), "")
            if letter:
                text += (str(run) if run else "") + letter
                run = 0
            else:
                run += 1
        rows.append(text + (str(run) if run else ""))
    return "/".join(rows)


def parse_board(text: str, size: int) -> np.ndarray:
    """The board codes of a board field (men read as empty squares: ``men`` finds them)."""
    rows = text.split("/")
    if len(rows) != size:
        raise ParseError(f"the board has {len(rows)} rows separated by '/'; a {size}x{size} board needs {size}")
    board = np.zeros(size * size, dtype=np.int32)
    for r, row in enumerate(rows):
        c = 0
        for token in re.findall(r"[0-9]+|.", row):
            if token.isdigit():
                c += int(token)
                continue
            letter = token.upper()
            if letter not in CODES and letter not in MEN:
                raise ParseError(f"row {r + 1} of the board: {token!r} is not a square; write W (wall), J (jewel), "
                                 "R (robot), D (dead robot), A or B (the men) or a count of empty squares")
            if c < size:
                board[r * size + c] = CODES.get(letter, EMPTY)
            c += 1
        if c != size:
            raise ParseError(f"row {r + 1} of the board has {c} squares; the board is {size} squares wide")
    return board


def men(text: str, size: int) -> tuple[int, int]:
    """The squares of the men A and B in a board field (-1 where absent); ``ParseError`` for two of one."""
    found = [-1, -1]
    for r, row in enumerate(text.split("/")):
        c = 0
        for token in re.findall(r"[0-9]+|.", row):
            if token.isdigit():
                c += int(token)
                continue
            k = MEN.find(token.upper())
            if k >= 0:
                if found[k] >= 0:
                    raise ParseError(f"the board has two men {MEN[k]}; each player has one")
                found[k] = r * size + c
            c += 1
    return found[0], found[1]


def write_squares(squares: list[int], size: int) -> str:
    return ",".join(square_name(sq, size) for sq in squares) or "-"


def parse_squares(text: str, size: int) -> list[int]:
    if text == "-":
        return []
    return [parse_square(part, size, size) for part in text.split(",")]


def move_to_str(move: int, man: int, size: int, placing: bool) -> str:
    """The notation of a man's move (``man`` is the square of the man to move, ``placing`` the placement step)."""
    n = size * size
    if move == n + 4:
        return "pass"
    if move >= n:
        d = move - n
        wall = man + (-size, 1, size, -1)[d]
        return f"{square_name(man, size)}x{square_name(wall, size)}"
    if placing:
        return "@" + square_name(move, size)
    return f"{square_name(man, size)}-{square_name(move, size)}"


def outcome_to_str(outcome: int, size: int) -> str:
    """The notation of a robot's step (a chance outcome)."""
    sq, d = divmod(outcome, 5)
    if d == STAY:
        return "r" + square_name(sq, size)
    to = sq + (-size, 1, size, -1)[d]
    return f"r{square_name(sq, size)}-{square_name(to, size)}"


def parse_man_move(text: str, man: int, size: int, placing: bool) -> int:
    """The move number of a man's move in notation (``ParseError`` when it is not notation, or names another
    man's square); legality is the caller's."""
    n = size * size
    word = text.strip()
    if word.lower() == "pass":
        return n + 4
    if word.startswith("@"):
        if not placing:
            raise ParseError(f"{text!r}: the men are placed once, at the start; now a man slides (E5-E9), explodes "
                             "(E5xE4) or passes")
        return parse_square(word[1:], size, size)
    if placing:
        try:
            return parse_square(word, size, size)
        except ParseError:
            raise ParseError(f"{text!r}: Player 1 places the men first; write @ and a square, like @E5") from None
    blast = _BLAST.match(word)
    slide = _SLIDE.match(word)
    if blast or slide:
        match = blast or slide
        assert match is not None
        start = parse_square(match.group(1), size, size)
        end = parse_square(match.group(2), size, size)
        if start != man:
            raise IllegalMoveError(f"{text!r}: the man to move stands on {square_name(man, size)}, "
                                   f"not {square_name(start, size)}")
        if blast:
            steps = {-size: 0, 1: 1, size: 2, -1: 3}
            d = steps.get(end - start)
            if d is None or (d in (1, 3) and end // size != start // size):
                raise ParseError(f"{text!r}: an explosion blows up a wall next to the man (E5xE4)")
            return n + d
        return end
    try:
        return parse_square(word, size, size)
    except ParseError:
        raise ParseError(f"{text!r} is not a move: write a slide (E5-E9, or E9), an explosion (E5xE4) or pass")\
            from None


def parse_outcome(text: str, size: int) -> int:
    """The chance outcome of a robot's step in notation (``rC3-C4``, ``rC3``)."""
    match = _STEP.match(text.strip())
    if not match:
        raise ParseError(f"{text!r} is not a robot's step: write r, the robot's square and where it goes (rC3-C4), "
                         "or rC3 for a robot that stays")
    sq = parse_square(match.group(1), size, size)
    if match.group(2) is None:
        return sq * 5 + STAY
    to = parse_square(match.group(2), size, size)
    steps = {-size: 0, 1: 1, size: 2, -1: 3}
    d = steps.get(to - sq)
    if d is None or (d in (1, 3) and to // size != sq // size):
        raise ParseError(f"{text!r}: a robot steps to a square next to it")
    return sq * 5 + d
