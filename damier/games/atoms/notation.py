"""Exploding Atoms notation: a move is its square (``C4``); a position is a FEN-like string.

Position string: the rows from the top separated by ``/``, the squares of a row separated by ``,``, each ``.``
(empty) or a count and a colour letter (``2r``); then the player to move (a colour letter, or ``-`` once the
game is over), the colours that have moved (``-`` for none) and the plies played::

    1r,.,./.,.,./.,.,1b r rb 2
"""

from __future__ import annotations

import re

import numpy as np

from damier.core.errors import ParseError
from damier.core.messages import say
from damier.games.atoms import LETTERS
from damier.games.atoms.kernel import HEADER, PLY, TERMINAL, TO_MOVE, WINNER, elim_at, moved_at, owned_at


def format_position(s: np.ndarray, rows: int, cols: int, p: int) -> str:
    n = rows * cols
    cells = [
        "." if s[n + sq] < 0 else f"{s[sq]}{LETTERS[s[n + sq]]}" for sq in range(n)
    ]
    board = "/".join(",".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))
    to_move = s[2 * n + TO_MOVE]
    side = "-" if to_move == TERMINAL else LETTERS[to_move]
    moved = "".join(LETTERS[q] for q in range(p) if s[moved_at(n, p) + q]) or "-"
    return f"{board} {side} {moved} {s[2 * n + PLY]}"


def parse_position(text: str, rows: int, cols: int, p: int, cap: np.ndarray) -> np.ndarray:
    """The position array for ``text``; ``ParseError`` saying what is wrong."""
    from damier.games.atoms.kernel import state_length

    if not isinstance(text, str):
        raise ParseError(say("atoms.error.position.type", type=type(text).__name__))
    fields = text.split()
    if len(fields) != 4:
        raise ParseError(say("atoms.error.position.fields", count=str(len(fields)), example=_example(rows, cols)))
    board, side, moved_text, ply_text = fields
    letters = LETTERS[:p]
    n = rows * cols
    s = np.zeros(state_length(n, p), dtype=np.int32)
    s[n : 2 * n] = -1
    row_texts = board.split("/")
    if len(row_texts) != rows:
        raise ParseError(say("atoms.error.position.rows", count=str(len(row_texts)), rows=rows))
    for r, row_text in enumerate(row_texts):
        cells = row_text.split(",")
        if len(cells) != cols:
            raise ParseError(say("atoms.error.position.columns", row=r + 1, count=str(len(cells)), cols=cols))
        for c, cell in enumerate(cells):
            sq = r * cols + c
            if cell == ".":
                continue
            count, letter = cell[:-1], cell[-1:].lower()
            if not _COUNT.match(count) or int(count) < 1 or letter not in letters:
                raise ParseError(say("atoms.error.position.square", row=r + 1, col=c + 1, cell=repr(cell),
                                     letters=letters, first=letters[0]))
            s[sq] = int(count)
            s[n + sq] = letters.index(letter)
    for q in range(p):
        s[owned_at(n, p) + q] = int(np.sum(s[n : 2 * n] == q))
    if moved_text != "-":
        for letter in moved_text.lower():
            if letter not in letters:
                raise ParseError(say("atoms.error.position.moved_letter", letter=repr(letter), letters=letters))
            s[moved_at(n, p) + letters.index(letter)] = 1
    if not _PLY.match(ply_text):
        raise ParseError(say("atoms.error.position.ply", text=repr(ply_text)))
    s[2 * n + PLY] = int(ply_text)
    for q in range(p):
        if s[owned_at(n, p) + q] > 0 and not s[moved_at(n, p) + q]:
            raise ParseError(say("atoms.error.position.not_moved", letter=repr(letters[q])))
        if s[moved_at(n, p) + q] and s[owned_at(n, p) + q] == 0:
            s[elim_at(n, p) + q] = 1
    over_full = any(s[n + sq] >= 0 and s[sq] >= cap[sq] for sq in range(n))
    everyone_moved = all(s[moved_at(n, p) + q] for q in range(p))
    if side == "-":
        owners = {int(o) for o in s[n : 2 * n] if o >= 0}
        if len(owners) != 1 or not everyone_moved:
            raise ParseError(say("atoms.error.position.finished"))
        s[2 * n + TO_MOVE] = TERMINAL
        s[2 * n + WINNER] = owners.pop()
        return s
    if side.lower() not in letters:
        raise ParseError(say("atoms.error.position.to_move", letters=letters, side=repr(side)))
    if over_full:
        raise ParseError(say("atoms.error.position.over_full"))
    to_move = letters.index(side.lower())
    if s[elim_at(n, p) + to_move]:
        raise ParseError(say("atoms.error.position.eliminated", side=repr(side)))
    if everyone_moved and all(s[elim_at(n, p) + q] for q in range(p) if q != to_move):
        raise ParseError(say("atoms.error.position.over"))
    if not everyone_moved and int(s[: n][s[n : 2 * n] >= 0].sum()) >= p:
        # in the first round every move adds one atom and nothing explodes: fewer atoms than players
        raise ParseError(say("atoms.error.position.first_round"))
    s[2 * n + TO_MOVE] = to_move
    s[2 * n + WINNER] = -1
    assert s.shape[0] == 2 * n + HEADER + 3 * p
    return s


_COUNT = re.compile(r"^[0-9]{1,4}$")
_PLY = re.compile(r"^[0-9]{1,9}$")


def _example(rows: int, cols: int) -> str:
    return "/".join(",".join("." for _ in range(cols)) for _ in range(rows)) + " r - 0"
