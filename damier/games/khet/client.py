"""What the web client draws Khet with (the ``client`` feature), and the position of a board set up in its editor.

The client writes no rule: the setups, the reserved squares, the pieces a side may have and the facings each can
take come from here, legal moves and their shots from ``KhetState.board_json``, and each step of a move from
``KhetState.events``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from damier.core.errors import ParseError
from damier.core.game import Game
from damier.core.messages import say
from damier.games.khet import COLOURS, SETUPS, kernel, notation
from damier.games.khet.kernel import QUIET, ROTATE_CW, SPHINX, SQUARES, STATE_LENGTH, TO_MOVE, WINNER
from damier.games.khet.rules import KhetState
from damier.games.khet.setup import setup_array

#: the kinds as the board names them, by kernel number from 1 (the palette's order)
KINDS = tuple(name.lower() for name in notation.KIND_NAMES[1:])
#: a side needs exactly one of these: clearing the board in the editor keeps them
REQUIRED = ("sphinx", "pharaoh")


def describe(game: Game) -> dict[str, Any]:
    """The client's description of Khet: setups (their positions and boards), reserved squares, square names,
    presets, the editor's palette and a picture for the home page.

    >>> import damier
    >>> d = describe(damier.load("khet"))
    >>> [s["id"] for s in d["setups"]], d["reserved"]["a1"], d["reserved"]["j8"]
    (['classic', 'imhotep', 'dynasty'], 1, 0)
    >>> [(p["kind"], p["limit"], p["facings"]) for p in d["palette"]["pieces"] if p["colour"] == 0][:3]
    [('sphinx', 1, ['N', 'W']), ('pharaoh', 1, ['N', 'E', 'S', 'W']), ('anubis', 2, ['N', 'E', 'S', 'W'])]
    """
    starts: dict[str, KhetState] = {name: _start(game, name) for name in SETUPS}
    sample = starts["classic"].board_json(previews=False)
    sample["sample_beam"] = starts["classic"].laser(0)  # Silver's opening shot, across the board
    return {
        "module": "khet",
        # which event of a move makes which of the page's sounds (static/js/sounds.js)
        "sounds": {"laser": "zap", "win": "win"},
        "seats": list(COLOURS),
        # files a.. left to right as Silver sees the board, ranks 1.. from Silver's side (the bottom)
        "squares": {"files": notation.FILES, "first_rank": "bottom"},
        "reserved": starts["classic"].board_json(previews=False)["reserved"],
        "presets": [{"id": name, "label": name.capitalize(), "options": {"setup": name}} for name in SETUPS],
        "setups": [
            {"id": name, "label": name.capitalize(), "position": state.position(),
             "board": state.board_json(previews=False)}
            for name, state in starts.items()
        ],
        "sample": sample,
        "palette": palette(),
    }


def _start(game: Game, setup: str) -> KhetState:
    state = type(game)(setup=setup).new_state()
    assert isinstance(state, KhetState)
    return state


def palette() -> dict[str, Any]:
    """The position editor's palette: each piece a side may place (at most as many as a setup gives it, the
    counts the position check allows), the facings it can take in clockwise order (the kernel's turns from its
    facing in the Classic setup), the facing it is placed with; and the position's fields besides the pieces."""
    start = setup_array("classic")
    pieces = []
    for colour in (0, 1):
        for kind in KINDS:
            code = kernel.code(KINDS.index(kind) + 1, colour, 0)
            squares = [sq for sq in range(SQUARES) if (int(start[sq]) & ~3) == code]
            facings = _facings(start, squares[0])
            toward = "N" if colour == 0 else "S"  # pieces are placed facing the other side
            pieces.append({"kind": kind, "colour": colour, "label": notation.KIND_NAMES[KINDS.index(kind) + 1],
                           "limit": len(squares), "facings": facings,
                           "facing": toward if toward in facings else facings[0], "required": kind in REQUIRED})
    return {
        "pieces": pieces,
        "fields": [
            {"id": "side", "key": "to_move", "type": "seat", "label": "Side to move"},
            {"id": "quiet", "key": "quiet", "type": "int", "min": 0, "max": kernel.MAX_QUIET,
             "label": "Quiet plies so far",
             "help": "Plies played since a piece was last removed (the quiet-ply limit counts on from here)"},
        ],
        # the position replaces these options (the setup): the editor does not offer them
        "position_options": ["setup"],
    }


def _facings(start: np.ndarray, sq: int) -> list[str]:
    """The facings the piece on ``sq`` can take, in clockwise order: its own and those its turns reach."""
    s = start.copy()
    seen = {int(s[sq]) & 3}
    for _ in range(4):
        c = int(s[sq])
        kernel.move_piece(s, sq * kernel.ACTIONS + (int(kernel.sphinx_rotation(c)) if c >> 3 == SPHINX else ROTATE_CW))
        seen.add(int(s[sq]) & 3)
    return [f for i, f in enumerate(notation.FACINGS) if i in seen]


def position_from_board(game: Game, board: Any) -> str:
    """The position string of a board set up in the editor: ``{"pieces": [{square, kind, colour, facing}],
    "to_move": 0 or 1, "quiet": plies}``. Only its form is checked here (``ParseError``); whether one can play
    from it is the position check's answer.

    >>> import damier
    >>> game = damier.load("khet")
    >>> board = {"pieces": [{"square": "a8", "kind": "sphinx", "colour": 1, "facing": "S"},
    ...                     {"square": "j1", "kind": "sphinx", "colour": 0, "facing": "N"},
    ...                     {"square": "b6", "kind": "pharaoh", "colour": 1, "facing": "S"},
    ...                     {"square": "e1", "kind": "pharaoh", "colour": 0, "facing": "N"}],
    ...          "to_move": 1, "quiet": 3}
    >>> position_from_board(game, board)
    'xs9/10/1ps8/10/10/10/10/4Pn4Xn r 3'
    """
    if not isinstance(board, dict):
        raise ParseError(say("khet.error.editor.board"))
    pieces, to_move, quiet = board.get("pieces"), board.get("to_move", 0), board.get("quiet", 0)
    if not isinstance(pieces, list) or len(pieces) > SQUARES:
        raise ParseError(say("khet.error.editor.pieces", count=SQUARES))
    if to_move not in (0, 1) or isinstance(to_move, bool):
        raise ParseError(say("khet.error.editor.to_move", game, silver=notation.SILVER_SEAT, red=notation.RED_SEAT))
    if not isinstance(quiet, int) or isinstance(quiet, bool) or not 0 <= quiet <= kernel.MAX_QUIET:
        raise ParseError(say("khet.error.editor.quiet", max=kernel.MAX_QUIET))
    s = np.zeros(STATE_LENGTH, dtype=np.int32)
    for piece in pieces:
        if not isinstance(piece, dict):
            raise ParseError(say("khet.error.editor.piece"))
        square, kind, colour, facing = (piece.get(k) for k in ("square", "kind", "colour", "facing"))
        if kind not in KINDS or colour not in (0, 1) or isinstance(colour, bool) or facing not in tuple(
                notation.FACINGS):
            raise ParseError(say("khet.error.editor.not_a_piece", piece=repr(piece), kinds=", ".join(KINDS)))
        sq = notation.parse_square(str(square))
        if s[sq]:
            raise ParseError(say("khet.error.editor.two_pieces", square=notation.square_name(sq)))
        s[sq] = kernel.code(KINDS.index(kind) + 1, colour, notation.FACINGS.index(facing))
    s[TO_MOVE], s[QUIET], s[WINNER] = to_move, quiet, -1
    return notation.format_position(s)
