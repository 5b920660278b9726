"""What the web client draws Ricochet Robots with (the ``client`` feature): the robots (colour, letter, name; the
transparent one drawn see-through), the targets' colours and shapes (each told by its shape and a letter, never by
colour alone), how squares are named, the directions and their keys, the difficulty choices, the graded hints, the
race's rules in words and a sample puzzle. The client writes no rule: the walls, the robots, the legal moves with
the square each ends on and each slide's squares come from ``view.board_json`` and ``RicochetState.events``; hints
and solutions from the solver through the server.
"""

from __future__ import annotations

import importlib
from typing import Any

from damier.core.game import Game
from damier.games.ricochet import notation, setup
from damier.games.ricochet.race import RACE

#: each robot's letter (the notation's), its name and how it is said
ROBOTS = tuple(
    {"letter": letter, "name": name, "label": name.capitalize()}
    for letter, name in zip(notation.LETTERS, notation.ROBOT_NAMES, strict=True)
)

#: the target shapes, with the letter drawn in a coloured target besides its colour's
SHAPES = (("circle", "Circle"), ("triangle", "Triangle"), ("square", "Square"), ("hexagon", "Hexagon"),
          ("vortex", "Vortex"))

#: the directions in the notation's order, the arrow key of each and the word for it
DIRECTIONS = (("N", "north", "ArrowUp", "↑"), ("E", "east", "ArrowRight", "→"), ("S", "south", "ArrowDown", "↓"),
              ("W", "west", "ArrowLeft", "←"))

#: what each graded hint tells, as its row in the puzzle panel says it (kinds the solver may give)
HINT_LABELS = {"band": "Length band", "under": "Under N moves", "length": "Exact length", "first": "First move",
               "path": "Whole path", "solution": "Solution"}
#: the levels when the solver does not list them
DEFAULT_HINT_LEVELS = ("band", "length", "first", "path")

#: the new-puzzle form's difficulty presets: the optimal number of moves asked (0: any)
DIFFICULTIES = (("any", "Any", 0), ("easy", "Easy", 3), ("medium", "Medium", 5), ("hard", "Hard", 7),
                ("expert", "Very hard", 9))

#: the home page's picture: the blue triangle on 1A2B3C4D
SAMPLE = "1A2B3C4D.E2302B12.bt"


def hint_levels(game: Game) -> list[dict[str, Any]]:
    """The graded hints the game's ``hints`` feature gives, level by level (none before it has one)."""
    if not game.info.has("hints"):
        return []
    solver = importlib.import_module("damier.games.ricochet.search")
    kinds = tuple(getattr(solver, "HINT_LEVELS", DEFAULT_HINT_LEVELS))
    return [{"level": level, "kind": kind, "label": HINT_LABELS.get(kind, kind.replace("_", " ").capitalize())}
            for level, kind in enumerate(kinds, start=1)]


def race_rules(game: Game) -> dict[str, Any]:
    """The race's rules (``race.RACE``) as data and in words, for the race pages to show."""
    rules = RACE.rules(game)
    if rules.claim == "at_most":
        words = [
            "Everyone searches the same target at once; bid the number of moves you can do it in.",
            "The first bid starts the bidding timer: until it runs out anyone may bid, or lower their bid.",
            "Then the lowest bid demonstrates first (equal bids: the earlier one); reaching the target in at most "
            "the bid takes the target's chip.",
            "A failed demonstration puts the robots back, and the next lowest bid demonstrates"
            + (" (nothing is handed over)." if rules.wrong_claim == "none" else
               "; the one who failed gives one of their chips, if any, to the player with the fewest."),
        ]
    else:
        words = ["Everyone searches the same target at once; the first to claim a number of moves demonstrates it.",
                 "The path must take exactly the number claimed.",
                 "Wrong: nothing is handed over." if rules.wrong_claim == "none" else
                 "Wrong: the claimant gives one of their chips, if any, to the player with the fewest."]
    words.append("Every move counts, whichever robot makes it. The robots stay where the round left them; a new "
                 "target each round.")
    if game.options["transparent"]:
        words.append("The transparent robot may pass walls: each wall passed costs one more move.")
    words.append(f"The first with {rules.chips_to_win} chips wins; when the {rules.chips_total} chips are all won, "
                 f"the most chips wins (ties are possible).")
    return {**rules.to_json(), "words": words}


def describe(game: Game) -> dict[str, Any]:
    """The client's description of Ricochet Robots (``game`` gives the options the race's words follow).

    >>> import damier
    >>> d = describe(damier.load("ricochet"))
    >>> d["module"], [r["letter"] for r in d["robots"]], d["size"], d["centre"]
    ('ricochet', ['R', 'G', 'B', 'Y', 'S', 'T'], 16, ['h8', 'i8', 'h9', 'i9'])
    >>> [s["name"] for s in d["shapes"]], d["race"]["claim"]
    (['circle', 'triangle', 'square', 'hexagon', 'vortex'], 'at_most')
    """
    sample = type(game)().state_from_position(SAMPLE)
    return {
        "module": "ricochet",
        # which event of a move makes which of the page's sounds (static/js/sounds.js)
        "sounds": {"slide": "move", "solved": "win"},
        "seats": list(game.player_names),
        # columns a-p from the west (left), rows 1-16 from the north (top): a1 is the north-west corner
        "squares": {"files": "abcdefghijklmnop", "first_rank": "top"},
        "size": setup.SIZE,
        "centre": [setup.cell_name(c) for c in setup.CENTRE],
        "robots": [dict(r) for r in ROBOTS],
        "colours": [{"name": name, "letter": name[0].upper(), "label": name.capitalize()} for name in setup.COLOURS],
        "shapes": [{"name": name, "label": label} for name, label in SHAPES],
        "directions": [{"letter": letter, "name": name, "key": key, "arrow": arrow}
                       for letter, name, key, arrow in DIRECTIONS],
        "presets": [
            {"id": key, "label": label, "options": {"difficulty": moves},
             "note": f"{moves} moves" if moves else "any length"}
            for key, label, moves in DIFFICULTIES
        ],
        # the option that picks a puzzle's optimal length (the new-puzzle page offers it first)
        "difficulty": "difficulty",
        "hints": hint_levels(game),
        "race": race_rules(game),
        "setups": [],
        "sample": sample.board_json(previews=False),
        "palette": None,
    }
