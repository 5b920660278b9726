"""Khet 2.0 notation: squares, moves, the three setups, and a FEN-like position string.

Moves (the rules file): a step or a swap is ``from to`` (``c1c2``, ``e4e5``); a rotation is the square and
``+`` (clockwise) or ``-`` (anticlockwise) (``c4+``); the Sphinx toggles with the sign of its turn (``j1-``
turns Silver's Sphinx from N to W). ``claim`` claims a repetition draw when the game allows claims.

Position string: the ranks from 8 down to 1 separated by ``/``; in a rank, from file a to j, a number counts
empty squares and a piece is two letters, its kind (``X`` Sphinx, ``P`` Pharaoh, ``A`` Anubis, ``Y`` Pyramid,
``S`` Scarab; upper case Silver, lower case Red) then its facing (``n``, ``e``, ``s``, ``w``; a Scarab is written
``n`` for a ``\\`` mirror and ``e`` for a ``/`` mirror). Then the side to move (``s`` Silver, ``r`` Red) or, once
the game is over, how it ended (``-P`` a Pharaoh was hit, the winner being the side whose Pharaoh is left;
``-R`` drawn by repetition, ``-C`` by a claimed repetition, ``-Q`` by the quiet-ply limit), and the plies played
since a piece was last removed::

    xs3aspsasye2/2ys7/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/7Yn2/2YwAnPnAn3Xn s 0

(the Classic setup: Red's Sphinx ``xs`` on a8, Silver's ``Xn`` on j1).

Positions are also read from, and written as, the strings of the C++ engine Khet2-AI (``KHET2AI``): two fields,
the board (a piece is one letter, ``X`` Sphinx, ``K`` Pharaoh, ``A`` Anubis, ``P`` Pyramid, ``S`` Scarab, upper
case Silver, then a digit 1-4 for its facing N, E, S, W, none for the Pharaoh; a digit 1-9 counts empty squares;
an empty rank is written as nothing) and the side to move (``0`` Silver, ``1`` Red)::

    x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0

(the Classic setup again). ``read_position`` tells the two formats apart by the side to move (``s``/``r``/``-X``
against ``0``/``1``).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, ParseError, StateError
from damier.core.messages import say
from damier.games.khet import COLOURS
from damier.games.khet.kernel import (
    ACTIONS,
    ANUBIS,
    CLAIM,
    END,
    END_PHARAOH,
    HEIGHT,
    MAX_QUIET,
    NEIGHBOURS,
    PHARAOH,
    PYRAMID,
    QUIET,
    RED,
    REMOVED_SQ,
    RESERVED,
    ROTATE_CCW,
    ROTATE_CW,
    SCARAB,
    SILVER,
    SPHINX,
    SPHINX_SQUARE,
    SQUARES,
    STATE_LENGTH,
    TERMINAL,
    TO_MOVE,
    WIDTH,
    WINNER,
    code,
)

FILES = "abcdefghij"
KIND_LETTERS = " XPAYS"  # index = kind
KIND_NAMES = ("", "Sphinx", "Pharaoh", "Anubis", "Pyramid", "Scarab")
FACINGS = "NESW"
#: the letter after ``-`` of a finished game's side field, by ``END`` code: a Pharaoh was hit, repetition,
#: the quiet-ply limit, a claimed repetition
END_LETTERS = "?PRQC"
#: the seats of the messages said with no game at hand (notation, the editor): the game's name and its colours,
#: so that a client names them in its language
SEATS = SimpleNamespace(name="khet", player_names=COLOURS)
#: each colour as a seat parameter of a message
SILVER_SEAT, RED_SEAT = {"seat": SILVER}, {"seat": RED}


def piece_word(kind: int) -> dict[str, Any]:
    """A piece's kind (a kernel number) as a message parameter: its name, said in the reader's language.

    >>> piece_word(PYRAMID)
    {'code': 'khet.piece.pyramid', 'params': {}}
    """
    return {"code": f"khet.piece.{KIND_NAMES[kind].lower()}", "params": {}}


def square_name(sq: int) -> str:
    """``a1`` .. ``j8`` for 0 .. 79.

    >>> square_name(0), square_name(9), square_name(70)
    ('a1', 'j1', 'a8')
    """
    return f"{FILES[sq % WIDTH]}{sq // WIDTH + 1}"


def parse_square(text: str) -> int:
    """The square named ``text`` (``a1`` .. ``j8``, any case).

    >>> parse_square("J1")
    9
    """
    t = text.strip().lower()
    if len(t) in (2, 3) and t[0] in FILES and t[1:].isascii() and t[1:].isdigit() and 1 <= int(t[1:]) <= HEIGHT:
        return (int(t[1:]) - 1) * WIDTH + FILES.index(t[0])
    raise ParseError(say("khet.error.square", text=repr(text)))


def move_to_str(move: int, sphinx_code: int = 0) -> str:
    """The notation of ``move`` (see the module docstring).

    >>> move_to_str(2 * 10 + 0), move_to_str(32 * 10 + 8), move_to_str(9 * 10 + 9)
    ('c1c2', 'c4+', 'j1-')
    """
    if move == CLAIM:
        return "claim"
    sq, action = divmod(move, ACTIONS)
    if action < 8:
        to = int(NEIGHBOURS[sq, action])
        if to < 0:
            raise IllegalMoveError(f"move {move} steps off the board from {square_name(sq)}")
        return square_name(sq) + square_name(to)
    return square_name(sq) + ("+" if action == ROTATE_CW else "-")


_MOVE = re.compile(r"^\s*([a-jA-J][1-8])\s*(?:([a-jA-J][1-8])|([+-]))\s*$")


def parse_move_text(text: str) -> int:
    """The move int written ``text``, checked for form only (``ParseError`` when it is not notation).

    >>> parse_move_text("c1c2"), parse_move_text("c4+"), parse_move_text("claim")
    (20, 328, 800)
    """
    if not isinstance(text, str):
        raise ParseError(say("khet.error.move.type", type=type(text).__name__))
    if text.strip().lower() == "claim":
        return CLAIM
    m = _MOVE.match(text)
    if not m:
        raise ParseError(say("khet.error.move.form", text=repr(text)))
    sq = parse_square(m.group(1))
    if m.group(3):
        return sq * ACTIONS + (ROTATE_CW if m.group(3) == "+" else ROTATE_CCW)
    to = parse_square(m.group(2))
    for d in range(8):
        if NEIGHBOURS[sq, d] == to:
            return sq * ACTIONS + d
    raise ParseError(say("khet.error.move.not_next", text=repr(text), to=square_name(to), square=square_name(sq)))


def piece_letters(c: int) -> str:
    kind, colour, facing = c >> 3, (c >> 2) & 1, c & 3
    letter = KIND_LETTERS[kind]
    return (letter if colour == SILVER else letter.lower()) + FACINGS[facing].lower()


def format_position(s: np.ndarray) -> str:
    ranks = []
    for r in range(HEIGHT - 1, -1, -1):
        out, empty = "", 0
        for f in range(WIDTH):
            c = int(s[r * WIDTH + f])
            if c == 0:
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            out += piece_letters(c)
        if empty:
            out += str(empty)
        ranks.append(out)
    to_move = int(s[TO_MOVE])
    side = "-" + END_LETTERS[int(s[END])] if to_move == TERMINAL else "sr"[to_move]
    return f"{'/'.join(ranks)} {side} {int(s[QUIET])}"


_TOKEN = re.compile(r"(10|[1-9])|([xpaysXPAYS])([nesw])|(.)")


def parse_position(text: str, strict_swap_reserved: bool = True) -> np.ndarray:
    """The position array for ``text``; ``ParseError`` saying what is wrong.

    No piece may stand on a square reserved for the other colour, except, when ``strict_swap_reserved`` is off,
    a Pyramid or an Anubis (a Scarab swap may then put one there).

    A finished game's position (``-P``, ``-R``, ``-C``, ``-Q``) is read as finished, with its result; a
    repetition cannot be checked from one position, so ``-R`` and ``-C`` are taken as written.
    """
    if not isinstance(text, str):
        raise ParseError(say("khet.error.position.type", type=type(text).__name__))
    fields = text.split()
    if len(fields) != 3:
        raise ParseError(say("khet.error.position.fields", count=str(len(fields)), text=repr(text)))
    board, side, quiet = fields
    ranks = board.split("/")
    if len(ranks) != HEIGHT:
        raise ParseError(say("khet.error.position.ranks", height=HEIGHT, count=str(len(ranks))))
    s = np.zeros(STATE_LENGTH, dtype=np.int32)
    for i, rank_text in enumerate(ranks):
        r = HEIGHT - 1 - i
        f = 0
        for m in _TOKEN.finditer(rank_text):
            if m.group(4) is not None:
                raise ParseError(say("khet.error.position.not_a_piece", SEATS, rank=r + 1, char=repr(m.group(4)),
                                     silver=SILVER_SEAT, red=RED_SEAT))
            if m.group(1):
                f += int(m.group(1))
                if f > WIDTH:
                    break
                continue
            if f >= WIDTH:
                f += 1
                break
            letter = m.group(2)
            kind = KIND_LETTERS.index(letter.upper())
            colour = SILVER if letter.isupper() else RED
            facing = FACINGS.index(m.group(3).upper())
            if kind == SCARAB:
                facing &= 1
            s[r * WIDTH + f] = code(kind, colour, facing)
            f += 1
        if f != WIDTH:
            raise ParseError(say("khet.error.position.rank_width", rank=r + 1, text=repr(rank_text), count=str(f),
                                 width=WIDTH))
    ends = {"-" + letter: end for end, letter in enumerate(END_LETTERS) if letter != "?"}
    if side not in ("s", "r", *ends):
        raise ParseError(say("khet.error.position.side", SEATS, silver=SILVER_SEAT, red=RED_SEAT,
                             ends=", ".join(ends), side=repr(side)))
    if not (quiet.isascii() and quiet.isdigit()) or int(quiet) > MAX_QUIET:
        raise ParseError(say("khet.error.position.quiet", max=MAX_QUIET, text=repr(quiet)))
    s[QUIET] = int(quiet)
    s[WINNER] = -1
    s[REMOVED_SQ] = -1
    if side in ends:
        s[TO_MOVE] = TERMINAL
        s[END] = ends[side]
    else:
        s[TO_MOVE] = SILVER if side == "s" else RED
    _check_pieces(s, strict_swap_reserved)
    return s


def _check_pieces(s: np.ndarray, strict_swap_reserved: bool) -> None:
    counts: dict[tuple[int, int], int] = {}
    for sq in range(SQUARES):
        c = int(s[sq])
        if c == 0:
            continue
        kind, colour = c >> 3, (c >> 2) & 1
        counts[(kind, colour)] = counts.get((kind, colour), 0) + 1
        if kind == SPHINX:
            if sq != SPHINX_SQUARE[colour]:
                raise ParseError(say("khet.error.position.sphinx_square", SEATS, seat={"seat": colour},
                                     square=square_name(sq), home=square_name(int(SPHINX_SQUARE[colour]))))
            allowed = (0, 3) if colour == SILVER else (2, 1)
            if c & 3 not in allowed:
                raise ParseError(say("khet.error.position.sphinx_facing", SEATS, seat={"seat": colour},
                                     facing=FACINGS[c & 3], first=FACINGS[allowed[0]], second=FACINGS[allowed[1]]))
        elif RESERVED[sq] == 1 - colour and (strict_swap_reserved or kind not in (PYRAMID, ANUBIS)):
            raise ParseError(say("khet.error.position.reserved", SEATS, square=square_name(sq),
                                 other={"seat": 1 - colour}, seat={"seat": colour}, piece=piece_word(kind)))
    limits = {SPHINX: 1, PHARAOH: 1, ANUBIS: 2, PYRAMID: 7, SCARAB: 2}
    for colour in (SILVER, RED):
        for kind, most in limits.items():
            have = counts.get((kind, colour), 0)
            if kind == PHARAOH and s[END] == END_PHARAOH:
                continue  # checked below: exactly one Pharaoh is left
            if kind in (SPHINX, PHARAOH) and have != 1:
                raise ParseError(say("khet.error.position.exactly_one", SEATS, seat={"seat": colour},
                                     piece=piece_word(kind), count=str(have)))
            if have > most:
                raise ParseError(say("khet.error.position.too_many", SEATS, seat={"seat": colour}, count=str(have),
                                     kind=KIND_NAMES[kind].lower(), most=most))
    if s[END] == END_PHARAOH:
        left = [colour for colour in (SILVER, RED) if counts.get((PHARAOH, colour), 0) == 1]
        if len(left) != 1 or any(counts.get((PHARAOH, colour), 0) > 1 for colour in (SILVER, RED)):
            raise ParseError(say("khet.error.position.pharaoh_won"))
        s[WINNER] = left[0]


# ----- Khet2-AI's position strings ------------------------------------------------------------------------------
#: the position formats read and written: damier's own, and the C++ engine Khet2-AI's
FORMATS = ("damier", "khet2ai")
DAMIER, KHET2AI = FORMATS
#: Khet2-AI's piece letters, index = kind (``K`` is the Pharaoh, ``P`` the Pyramid)
KHET2AI_LETTERS = " XKAPS"
#: the side to move in Khet2-AI's strings, by colour
KHET2AI_SIDES = ("0", "1")
_DAMIER_BOARD = re.compile(r"(?:[xpaysXPAYS][nesw]|10|[1-9]|/)*")
_KHET2AI_BOARD = re.compile(r"(?:[xaspXASP][1-4]|[kK]|[1-9]|/)*")


def position_format(text: str) -> str | None:
    """Which format ``text`` is written in (``"damier"`` or ``"khet2ai"``), or None when it looks like neither.

    The side to move decides (``s``, ``r`` or a finished game's ``-P`` ... against Khet2-AI's ``0`` or ``1``:
    no word is both); without a side to tell, the board does (a board with any piece fits at most one format).

    >>> position_format("xs9/10/10/10/10/10/10/4Pn4Xn s 0"), position_format("x34k4///////4K4X1 0")
    ('damier', 'khet2ai')
    """
    fields = text.split()
    if len(fields) >= 2:
        if fields[1] in KHET2AI_SIDES:
            return KHET2AI
        if fields[1] in ("s", "r") or (len(fields[1]) == 2 and fields[1][0] == "-"):
            return DAMIER
    if fields:
        damier = _DAMIER_BOARD.fullmatch(fields[0]) is not None
        khet2ai = _KHET2AI_BOARD.fullmatch(fields[0]) is not None
        if damier != khet2ai:
            return DAMIER if damier else KHET2AI
    return None


def position_words(words: list[str]) -> int:
    """How many of ``words`` (a protocol ``position`` command's, moves may follow) are the position string: 2 for
    a Khet2-AI string (its side to move, ``0`` or ``1``, is the second word), else damier's 3.

    >>> position_words("x33a3ka3p22/2p37/3P46/p11P31s1s21p21P4/p21P41S2S11p11P3/6p23/7P12/2P4A1KA13X1 0 j1-".split())
    2
    """
    return 2 if len(words) >= 2 and words[1] in KHET2AI_SIDES else 3


def read_position(text: str, strict_swap_reserved: bool = True) -> tuple[np.ndarray, str]:
    """The position array of ``text`` written in either format, and the format (``position_format``).

    ``ParseError`` saying what is wrong, in the format the text is written in; naming both formats when the text
    looks like neither.
    """
    if not isinstance(text, str):
        raise ParseError(say("khet.error.position.type", type=type(text).__name__))
    found = position_format(text)
    if found == KHET2AI:
        return parse_khet2ai(text, strict_swap_reserved), KHET2AI
    if found == DAMIER:
        return parse_position(text, strict_swap_reserved), DAMIER
    raise ParseError(say("khet.error.position.neither", text=repr(text.strip()[:100])))


def parse_khet2ai(text: str, strict_swap_reserved: bool = True) -> np.ndarray:
    """The position array of a Khet2-AI position string; ``ParseError`` saying what is wrong.

    The format has no quiet-ply count (read as 0), no mark for a finished game, and no facing for a Pharaoh
    (read as in the setups: Silver's N, Red's S). A Scarab's digits 3 and 4 are read as 1 and 2 (the same
    mirrors). The pieces are checked as in ``parse_position``.

    >>> format_position(parse_khet2ai("x34k4///////4K4X1 1"))
    'xs4ps4/10/10/10/10/10/10/4Pn4Xn r 0'
    """
    if not isinstance(text, str):
        raise ParseError(say("khet.error.position.type", type=type(text).__name__))
    fields = text.split()
    if len(fields) != 2:
        raise ParseError(say("khet.error.khet2ai.fields", count=str(len(fields)), text=repr(text.strip()[:100])))
    board, side = fields
    ranks = board.split("/")
    if len(ranks) != HEIGHT:
        raise ParseError(say("khet.error.khet2ai.ranks", height=HEIGHT, count=str(len(ranks))))
    s = np.zeros(STATE_LENGTH, dtype=np.int32)
    for i, rank_text in enumerate(ranks):
        r = HEIGHT - 1 - i
        f, at = 0, 0
        while at < len(rank_text) and f <= WIDTH:
            char = rank_text[at]
            at += 1
            if char in "123456789":
                f += int(char)
                continue
            if char.upper() not in KHET2AI_LETTERS.strip():
                raise ParseError(say("khet.error.khet2ai.not_a_piece", SEATS, rank=r + 1, text=repr(rank_text),
                                     char=repr(char), silver=SILVER_SEAT, red=RED_SEAT))
            kind = KHET2AI_LETTERS.index(char.upper())
            colour = SILVER if char.isupper() else RED
            if kind == PHARAOH:
                facing = 0 if colour == SILVER else 2
            else:
                digit = rank_text[at] if at < len(rank_text) else ""
                if digit not in ("1", "2", "3", "4"):
                    where = {"rank": r + 1, "text": repr(rank_text), "piece": piece_word(kind), "char": repr(char)}
                    raise ParseError(say("khet.error.khet2ai.no_facing", got=repr(digit), **where) if digit else
                                     say("khet.error.khet2ai.no_facing_end", **where))
                at += 1
                facing = int(digit) - 1
                if kind == SCARAB:
                    facing &= 1
            if f < WIDTH:
                s[r * WIDTH + f] = code(kind, colour, facing)
            f += 1
        if rank_text and f != WIDTH:  # an empty rank is written as nothing
            where = {"rank": r + 1, "text": repr(rank_text), "width": WIDTH}
            raise ParseError(say("khet.error.khet2ai.rank_too_wide", **where) if f > WIDTH else
                             say("khet.error.khet2ai.rank_width", count=str(f), **where))
    if side not in KHET2AI_SIDES:
        raise ParseError(say("khet.error.khet2ai.side", SEATS, silver=SILVER_SEAT, red=RED_SEAT, side=repr(side)))
    s[TO_MOVE] = KHET2AI_SIDES.index(side)
    s[WINNER] = -1
    s[REMOVED_SQ] = -1
    _check_pieces(s, strict_swap_reserved)
    return s


def format_khet2ai(s: np.ndarray) -> str:
    """The Khet2-AI position string of the position array ``s`` (a game in progress).

    The quiet-ply count and the Pharaoh's facing are not written (the format has neither); a finished game has no
    Khet2-AI string (``StateError``): the format cannot say that the game is over.

    >>> from damier.games.khet.setup import setup_array
    >>> format_khet2ai(setup_array("imhotep"))
    'x33a3ka3s22//3P42p13/p1P32P2s22p2P4/p2P42S2p42p1P3/3P32p23//2S2A1KA13X1 0'
    """
    if int(s[TO_MOVE]) == TERMINAL:
        raise StateError(
            f"the game is over (its position ends '{format_position(s).split()[1]}'); a Khet2-AI position string "
            f"has no way to say so (only a board and a side to move 0 or 1): write it in damier's format"
        )
    ranks = []
    for r in range(HEIGHT - 1, -1, -1):
        out, empty = "", 0
        for f in range(WIDTH):
            c = int(s[r * WIDTH + f])
            if c == 0:
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            kind, colour, facing = c >> 3, (c >> 2) & 1, c & 3
            letter = KHET2AI_LETTERS[kind]
            out += letter if colour == SILVER else letter.lower()
            if kind != PHARAOH:
                out += str(facing + 1)
        if empty < WIDTH and empty:
            out += str(empty)
        ranks.append(out)
    return f"{'/'.join(ranks)} {KHET2AI_SIDES[int(s[TO_MOVE])]}"
