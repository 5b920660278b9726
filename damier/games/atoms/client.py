"""What the web client draws Exploding Atoms with (the ``client`` feature): presets, seat names, square names and
a sample position. The client writes no rule: boards, legal moves and each explosion wave come from the server.
"""

from __future__ import annotations

from typing import Any

from damier.core.game import Game
from damier.games.atoms import COLOURS, PRESETS

#: the new-game form's words for the presets players know
PRESET_NOTES = {"8x8": "1992 rules", "9x6": "mobile"}

#: a middle game for the home page's picture (8 x 8, two players, Red to move)
SAMPLE = (
    "1r,.,.,.,.,.,.,1b/.,2r,.,.,1b,2b,.,./.,3r,1r,.,.,3b,.,./.,.,2r,.,.,1b,.,./.,.,.,.,2b,.,.,./"
    ".,1r,.,.,.,.,2b,./.,.,2r,.,.,.,.,./1b,.,.,.,.,.,.,1r r rb 24"
)


def describe(game: Game) -> dict[str, Any]:
    """The client's description of Exploding Atoms (``game`` gives the options; the sample is 8 x 8).

    >>> import damier
    >>> d = describe(damier.load("atoms"))
    >>> d["module"], d["presets"][1]["options"], d["palette"]
    ('atoms', {'rows': 9, 'cols': 6}, None)
    """
    sample = type(game)(rows=8, cols=8, players=2).state_from_position(SAMPLE)
    return {
        "module": "atoms",
        # which event of a move makes which of the page's sounds (static/js/sounds.js)
        "sounds": {"wave": "explosion", "win": "win"},
        "seats": list(COLOURS),
        # columns lettered from A, rows numbered from 1 at the top (damier.core.grid)
        "squares": {"files": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "first_rank": "top"},
        "presets": [
            {"id": key, "label": f"{rows}×{cols}", "options": {"rows": rows, "cols": cols},
             **({"note": PRESET_NOTES[key]} if key in PRESET_NOTES else {})}
            for key, (rows, cols) in PRESETS.items()
        ],
        "setups": [],
        "sample": sample.board_json(previews=False),
        "palette": None,
    }
