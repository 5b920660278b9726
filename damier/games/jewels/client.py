"""What the web client draws Jewels and Lasers with (the ``client`` feature).

The client writes no rule: the board (pieces, men, lit squares, rays, the counting columns), each legal move with
what it does, and the squares a slide may not reach with the reason come from ``board_json``; each step of a move
and of the robots' turn from ``events``. Here: the seat names, presets, the piece sets, a start to draw on the home
page and the words of the agreement to stop (agreeing ends the game by the jewels, not in a draw).
"""

from __future__ import annotations

from typing import Any

from damier.core.game import Game

#: the seeded start drawn on the home page (a board of the default options)
SAMPLE_SEED = 7

PRESETS = (
    {"id": "original", "label": "Original 14x14", "options": {},
     "note": "16 jewels, 40 walls, 8 robots, as in the original"},
    {"id": "variant2", "label": "Variant 2 (26 jewels)", "options": {"jewels": 26},
     "note": "the original's variant 2: more jewels to collect"},
    {"id": "small", "label": "Small 10x10", "options": {"size": 10, "jewels": 10, "walls": 20, "robots": 6},
     "note": "a shorter game"},
)

#: the piece sets: the plain one, and the original's alternative, more colourful one
PIECE_SETS = (
    {"id": "classic", "label": "Classic pieces"},
    {"id": "colourful", "label": "Colourful pieces"},
)


def describe(game: Game) -> dict[str, Any]:
    """The client's description of Jewels and Lasers: seats, presets, piece sets, a sample start (no previews)
    and the agreement's words.

    >>> import damier
    >>> d = describe(damier.load("jewels"))
    >>> d["module"], d["seats"], [p["id"] for p in d["presets"]]
    ('jewels', ['Gold', 'Silver'], ['original', 'variant2', 'small'])
    >>> d["sample"]["phase"], d["sample"]["rows"], d["sample"]["moves"], d["agreement"]["offer"]
    ('place', 14, {}, 'Offer to stop')
    """
    sample = type(game)().new_state(seed=SAMPLE_SEED)
    return {
        "module": "jewels",
        # which event of a move makes which of the page's sounds (static/js/sounds.js)
        "sounds": {"explosion": "explosion", "hit": "zap", "jewel": "capture", "step": "step", "win": "win"},
        "seats": list(game.player_names),
        # columns A.. from the left, rows 1.. from the top (the board is drawn up to 26 x 26)
        "squares": {"files": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "first_rank": "top"},
        "presets": [dict(p) for p in PRESETS],
        "sample": sample.board_json(previews=False),
        "piece_sets": [dict(p) for p in PIECE_SETS],
        "agreement": {
            "offer": "Offer to stop", "accept": "Accept: stop here", "decline": "Decline", "offered": "Stop offered",
            "declined": "The computer declines to stop: it plays on.",
            "request": "offers to stop here: the player with more jewels wins.",
            "refused": "Your offer to stop was declined.",
            "explain": "If both players agree to stop, the player with more jewels wins (equal: a draw)",
        },
    }
