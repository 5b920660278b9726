"""What the web client draws Micro Robots with (the ``client`` feature): the colours and the pattern that tells each
apart without colour, how squares are named, the tiles' seams, the difficulty choices, the graded hints, the race's
rules in words and a sample puzzle. The client writes no rule: the board, the legal jumps and each jump's squares
come from ``view.board_json`` and ``MicroState.events``, hints and paths from the solver through the server.
"""

from __future__ import annotations

from typing import Any

from damier.core.game import Game
from damier.games.micro import setup
from damier.games.micro.race import RACE
from damier.games.micro.search import HINT_LEVELS

#: each colour's pattern (so no colour is told by its colour alone) and how it is said
PATTERNS = {
    "red": ("stripes", "diagonal stripes"),
    "green": ("dots", "dots"),
    "blue": ("waves", "waves"),
    "yellow": ("grid", "cross-hatch"),
    "white": ("plain", "plain"),
    "pink": ("rings", "rings"),
}

#: what each graded hint tells (``solver.HINT_LEVELS``), as its button says it
HINT_LABELS = {"band": "Length band", "length": "Exact length", "first": "First move", "path": "Whole path"}

#: the new-game form's difficulty presets: the optimal length asked (0: any)
DIFFICULTIES = (("any", "Any", 0), ("easy", "Easy", 2), ("medium", "Medium", 4), ("hard", "Hard", 6),
                ("expert", "Very hard", 8))

#: the home page's picture: an expert puzzle on side A's first arrangement
SAMPLE = "A-1234-0000_R5_B1_G3"


def race_rules(game: Game) -> dict[str, Any]:
    """The race's rules (``race.RACE``) as data and in words, for the race page to show."""
    rules = RACE.rules(game)
    words = [
        "Everyone searches the same puzzle at once; the first to claim a number of moves demonstrates it.",
        "The path must take exactly the number claimed (squares may be revisited)."
        if rules.claim == "exact" else "The path may take fewer moves than claimed, never more.",
        "Correct: the claimant takes a chip from the supply.",
        "Wrong: the claimant gives one of their chips, if any, to the player with the fewest (ties: the first after "
        "the claimant in seating order)." if rules.wrong_claim == "transfer" else "Wrong: nothing is handed over.",
        "The old target is the next round's start.",
        f"The first with {rules.chips_to_win} chips wins; when the {rules.chips_total} chips are all handed out, "
        f"the most chips wins (ties are possible).",
    ]
    if game.options["expert"]:
        stop = "pass over or stop on" if game.options["waypoint_pass"] else "stop on"
        words.insert(2, f"Expert mode: the path must {stop} the waypoint before it reaches the target.")
    return {**rules.to_json(), "words": words}


def describe(game: Game) -> dict[str, Any]:
    """The client's description of Micro Robots (``game`` gives the options the race's words follow).

    >>> import damier
    >>> d = describe(damier.load("micro"))
    >>> d["module"], [c["letter"] for c in d["colours"]], d["tile"]
    ('micro', ['R', 'G', 'B', 'Y', 'W', 'P'], 3)
    >>> [h["kind"] for h in d["hints"]], d["race"]["chips_to_win"]
    (['band', 'length', 'first', 'path'], 5)
    """
    sample_game = type(game)(expert=True)
    sample = sample_game.state_from_position(SAMPLE)
    return {
        "module": "micro",
        # which event of a move makes which of the page's sounds (static/js/sounds.js)
        "sounds": {"jump": "move", "solved": "win"},
        "seats": list(game.player_names),
        # the squares are named by what they show (R5); coordinates: columns a-f from the left, rows 1-6 from the top
        "squares": {"files": "abcdef", "first_rank": "top", "names": "colour-number"},
        "colours": [
            {"letter": letter, "name": name, "label": name.capitalize(), "pattern": PATTERNS[name][0],
             "pattern_label": PATTERNS[name][1]}
            for letter, name in zip(setup.COLOURS, setup.COLOUR_NAMES, strict=True)
        ],
        "numbers": list(range(1, setup.SIZE + 1)),
        "size": setup.SIZE,
        "tile": setup.SIZE // 2,
        "presets": [
            {"id": key, "label": label, "options": {"difficulty": moves},
             "note": f"{moves} moves" if moves else "any length"}
            for key, label, moves in DIFFICULTIES
        ],
        # the option that picks a puzzle's optimal length (the new-game page offers it first)
        "difficulty": "difficulty",
        "hints": [{"level": level, "kind": kind, "label": HINT_LABELS[kind]}
                  for level, kind in enumerate(HINT_LEVELS, start=1)],
        "race": race_rules(game),
        "setups": [],
        "sample": sample.board_json(previews=False),
        "palette": None,
    }
