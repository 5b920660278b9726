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
from typing import TYPE_CHECKING

import numpy as np

from damier.core.errors import IllegalMoveError, ParseError
from damier.core.grid import parse_square, square_name
from damier.core.messages import say
from damier.games.jewels import kernel
from damier.games.jewels.kernel import (
    BOMB,
    COUNT,
    DEAD,
    EMPTY,
    JEWEL,
    LEFT,
    MAN,
    NEXT,
    OVER,
    PENDING,
    PENDING_COUNT,
    PHASE,
    PLACE,
    QUIET,
    ROBOT,
    ROBOTS,
    STAY,
    WALL,
)

if TYPE_CHECKING:
    from damier.games.jewels.rules import JewelsGame, JewelsState

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
        raise ParseError(say("jewels.error.board_rows", count=len(rows), rows=str(len(rows)), size=size))
    board = np.zeros(size * size, dtype=np.int32)
    for r, row in enumerate(rows):
        c = 0
        for token in re.findall(r"[0-9]+|.", row):
            if token.isdigit():
                c += int(token)
                continue
            letter = token.upper()
            if letter not in CODES and letter not in MEN:
                raise ParseError(say("jewels.error.board_square", row=str(r + 1), token=repr(token)))
            if c < size:
                board[r * size + c] = CODES.get(letter, EMPTY)
            c += 1
        if c != size:
            raise ParseError(say("jewels.error.board_width", row=str(r + 1), count=c, squares=str(c), size=size))
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
                    raise ParseError(say("jewels.error.two_men", man=MEN[k]))
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
            raise ParseError(say("jewels.error.placed_once", move=repr(text)))
        return parse_square(word[1:], size, size)
    if placing:
        try:
            return parse_square(word, size, size)
        except ParseError:
            raise ParseError(say("jewels.error.place_first", move=repr(text))) from None
    blast = _BLAST.match(word)
    slide = _SLIDE.match(word)
    if blast or slide:
        match = blast or slide
        assert match is not None
        start = parse_square(match.group(1), size, size)
        end = parse_square(match.group(2), size, size)
        if start != man:
            raise IllegalMoveError(say("jewels.error.wrong_man", move=repr(text), man=square_name(man, size),
                                       start=square_name(start, size)))
        if blast:
            steps = {-size: 0, 1: 1, size: 2, -1: 3}
            d = steps.get(end - start)
            if d is None or (d in (1, 3) and end // size != start // size):
                raise ParseError(say("jewels.error.explosion_next", move=repr(text)))
            return n + d
        return end
    try:
        return parse_square(word, size, size)
    except ParseError:
        raise ParseError(say("jewels.error.not_a_move", move=repr(text))) from None


def parse_outcome(text: str, size: int) -> int:
    """The chance outcome of a robot's step in notation (``rC3-C4``, ``rC3``)."""
    match = _STEP.match(text.strip())
    if not match:
        raise ParseError(say("jewels.error.not_a_step", move=repr(text)))
    sq = parse_square(match.group(1), size, size)
    if match.group(2) is None:
        return sq * 5 + STAY
    to = parse_square(match.group(2), size, size)
    steps = {-size: 0, 1: 1, size: 2, -1: 3}
    d = steps.get(to - sq)
    if d is None or (d in (1, 3) and to // size != sq // size):
        raise ParseError(say("jewels.error.step_next", move=repr(text)))
    return sq * 5 + d


# ----- position strings ------------------------------------------------------------------------------------
def write_position(state: JewelsState) -> str:
    g = state.game
    s, n = state._s, g.n
    board = write_board(s[:n], state.man(0), state.man(1), g.size)
    phase, nxt = int(s[n + PHASE]), "ab"[int(s[n + NEXT])]
    side = {PLACE: "p", kernel.MEN: nxt, ROBOTS: "r" + nxt, OVER: "x" + nxt}[phase]
    bombs = ("A" if s[n + BOMB] else "-") + ("B" if s[n + BOMB + 1] else "-")
    fields = [board, side, f"{int(s[n + COUNT])}-{int(s[n + COUNT + 1])}", bombs, str(int(s[n + QUIET]))]
    if phase == ROBOTS and g.params[kernel.P_ALL]:
        fields.append(write_squares(state.pending(), g.size))
    return " ".join(fields)


def parse_position(game: JewelsGame, text: str) -> np.ndarray:
    """The kernel array of a position string; ``ParseError`` saying what is wrong and what is accepted."""
    if not isinstance(text, str):
        raise ParseError(say("jewels.position.not_string", type=type(text).__name__))
    fields = text.split()
    all_steps = bool(game.params[kernel.P_ALL])
    if len(fields) not in (5, 6):
        raise ParseError(say("jewels.position.fields", count=str(len(fields))))
    board_text, side, counts, bombs, quiet = fields[:5]
    n, size = game.n, game.size
    s = np.zeros(kernel.layout(n), dtype=np.int32)
    s[:n] = parse_board(board_text, size)
    man_a, man_b = men(board_text, size)
    side = side.lower()
    if side not in SIDES:
        raise ParseError(say("jewels.position.side", side=repr(side), sides=", ".join(SIDES)))
    if side == "p" and (man_a >= 0 or man_b >= 0):
        raise ParseError(say("jewels.position.placing_men"))
    if side != "p" and (man_a < 0 or man_b < 0):
        raise ParseError(say("jewels.position.both_men"))
    try:
        a, b = (int(part) for part in counts.split("-"))
        quiet_plies = int(quiet)
    except ValueError:
        raise ParseError(say("jewels.position.counts", jewels=repr(counts), quiet=repr(quiet))) from None
    if min(a, b, quiet_plies) < 0:
        raise ParseError(say("jewels.position.negative"))
    if len(bombs) != 2 or bombs[0] not in "A-" or bombs[1] not in "B-":
        raise ParseError(say("jewels.position.explosions", explosions=repr(bombs)))
    s[n + MAN], s[n + MAN + 1] = man_a, man_b
    s[n + COUNT], s[n + COUNT + 1] = a, b
    s[n + BOMB], s[n + BOMB + 1] = int(bombs[0] == "A"), int(bombs[1] == "B")
    s[n + QUIET] = quiet_plies
    s[n + LEFT] = int((s[:n] == JEWEL).sum())
    s[n + NEXT] = 0 if side == "p" else "ab".index(side[-1])
    s[n + PHASE] = {"p": PLACE, "a": kernel.MEN, "b": kernel.MEN}.get(side, ROBOTS if side[0] == "r" else OVER)
    robots_turn = side[0] == "r"
    if len(fields) == 6:
        if not (all_steps and robots_turn):
            raise ParseError(say("jewels.position.sixth"))
        pending = parse_squares(fields[5], size)
        for sq in pending:
            if s[sq] != ROBOT:
                raise ParseError(say("jewels.position.not_robot", square=square_name(sq, size)))
            s[n + PENDING + sq] = 1
        if not pending:
            raise ParseError(say("jewels.position.no_pending"))
        s[n + PENDING_COUNT] = len(pending)
    elif all_steps and robots_turn:
        raise ParseError(say("jewels.position.pending_needed"))
    _check_consistent(game, s, side)
    return s


def _check_consistent(game: JewelsGame, s: np.ndarray, side: str) -> None:
    """The side must agree with the board: a position the rules would already have ended is written ``x``, and a
    robots' turn has a robot that can step; ``x`` positions get their result."""
    n, size, p = game.n, game.size, game.params
    lit = np.zeros(n, dtype=np.uint8)
    kernel.lit_map(s, game.neighbours, lit, np.empty(n, dtype=np.int32))
    # with robot_steps=all the hits are judged once every robot has stepped: a man may stand lit mid-turn
    mid_turn = side[0] == "r" and bool(p[kernel.P_ALL])
    hit = [s[n + MAN + k] >= 0 and bool(lit[s[n + MAN + k]]) and not mid_turn for k in (0, 1)]
    counts = (int(s[n + COUNT]), int(s[n + COUNT + 1]))
    over = ("hit" if any(hit) else "collected" if s[n + LEFT] == 0 and side != "p"
            else "column" if max(counts) >= game.column
            else "cap" if p[kernel.P_CAP] and s[n + QUIET] >= p[kernel.P_CAP] else "")
    if side[0] != "x":
        if over:
            raise ParseError(say("jewels.position.over", over=over))
        if side[0] == "r" and not mid_turn:
            for sq in range(n):
                if s[sq] == ROBOT and not any(kernel.is_free(s, n, int(t)) for t in game.neighbours[sq] if t >= 0):
                    raise ParseError(say("jewels.position.robot_dead", square=square_name(sq, size)))
            if kernel.step_count(s, game.neighbours) == 0:
                raise ParseError(say("jewels.position.no_step"))
        return
    if not over:
        raise ParseError(say("jewels.position.not_over"))
    if hit[0] and hit[1]:
        result, why = kernel.DRAW, kernel.BOTH_HIT
    elif any(hit):
        result, why = (kernel.B_WINS if hit[0] else kernel.A_WINS), kernel.HIT
    else:
        verdict = kernel.A_WINS if counts[0] > counts[1] else kernel.B_WINS if counts[1] > counts[0] else kernel.DRAW
        if max(counts) >= game.column:
            why = kernel.COLUMN
        elif s[n + LEFT] == 0:
            why = kernel.COLLECTED
        else:
            why = kernel.CAP
        result = verdict
    s[n + kernel.RESULT], s[n + kernel.WHY] = result, why
