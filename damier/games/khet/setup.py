"""Khet's setups: the starting positions of the rules file (Classic, Imhotep, Dynasty), as position arrays and
position strings."""

from __future__ import annotations

import numpy as np

from damier.games.khet.kernel import RED, REMOVED_SQ, SCARAB, SILVER, STATE_LENGTH, WINNER, code
from damier.games.khet.notation import FACINGS, KIND_NAMES, format_position, parse_square

#: the setups of the rules file: (colour, kind, square, facing) per piece, Silver's then Red's
SETUP_TEXT = {
    "classic": (
        "Sphinx j1 N; Pharaoh e1; Anubis d1 N, f1 N; Pyramid c1 W, h2 N, c4 W, c5 S, d6 W, j4 S, j5 W; "
        "Scarab e4 E, f4 N",
        "Sphinx a8 S; Pharaoh f8; Anubis g8 S, e8 S; Pyramid h8 E, c7 S, h5 E, h4 N, g3 E, a5 N, a4 E; "
        "Scarab f5 W, e5 S",
    ),
    "imhotep": (
        "Sphinx j1 N; Pharaoh e1; Anubis d1 N, f1 N; Scarab c1 W, e4 W; Pyramid b4 W, b5 S, d3 S, d6 W, e5 E, "
        "j4 S, j5 W",
        "Sphinx a8 S; Pharaoh f8; Anubis g8 S, e8 S; Scarab h8 E, f5 E; Pyramid i5 E, i4 N, g6 N, g3 E, f4 W, "
        "a5 N, a4 E",
    ),
    "dynasty": (
        "Sphinx j1 N; Pharaoh e2; Anubis e1 N, e3 N; Scarab d3 E, h4 N; Pyramid d1 W, f1 N, f3 N, e5 W, g5 E, "
        "j3 S, j4 W",
        "Sphinx a8 S; Pharaoh f7; Anubis f8 S, f6 S; Scarab g6 W, c5 S; Pyramid g8 E, e8 S, e6 S, f4 E, d4 W, "
        "a6 N, a5 E",
    ),
}



def _place(s: np.ndarray, colour: int, text: str) -> None:
    for group in text.split(";"):
        kind_name, _, rest = group.strip().partition(" ")
        kind = KIND_NAMES.index(kind_name)
        for item in rest.split(","):
            parts = item.split()
            facing = FACINGS.index(parts[1]) if len(parts) > 1 else (0 if colour == SILVER else 2)
            if kind == SCARAB:
                facing &= 1
            s[parse_square(parts[0])] = code(kind, colour, facing)


def setup_array(name: str) -> np.ndarray:
    """The position array of a setup (``classic``, ``imhotep``, ``dynasty``), Silver to move."""
    s = np.zeros(STATE_LENGTH, dtype=np.int32)
    silver, red = SETUP_TEXT[name]
    _place(s, SILVER, silver)
    _place(s, RED, red)
    s[WINNER] = -1
    s[REMOVED_SQ] = -1
    return s


def setup_position(name: str) -> str:
    """The position string of a setup.

    >>> setup_position("classic")
    'xs3aspsasye2/2ys7/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/7Yn2/2YwAnPnAn3Xn s 0'
    """
    return format_position(setup_array(name))
