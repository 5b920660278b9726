"""Khet 2.0 (laser chess): metadata and options, cheap to import (no kernel).

The rules are in ``rules`` (facade) over ``kernel`` (numba); see ``docs/games/khet.md``.
"""

from __future__ import annotations

from damier.core.endings import Termination
from damier.core.options import Option, OptionSet
from damier.core.registry import EngineInfo, GameInfo, ScoreScale

#: Colour names in seat order (Silver moves first).
COLOURS = ("Silver", "Red")
SETUPS = ("classic", "imhotep", "dynasty")
#: a Pharaoh was hit by a laser: the game's end (a move list marks the move "#", as chess's mate)
PHARAOH_HIT = Termination("pharaoh_hit", "a Pharaoh was hit by a laser", mark="#")

OPTIONS = OptionSet(
    (
        Option("setup", str, "classic", "starting position: classic, imhotep or dynasty", SETUPS),
        Option("pharaoh_rotation", bool, False, "allow rotating the Pharaoh (a rotation that changes nothing)"),
        Option("strict_swap_reserved", bool, True,
               "a Scarab swap may not put the swapped piece on a square reserved for its opponent"),
        Option("repetition", str, "automatic",
               "third occurrence of a position: automatic draw, or the player to move may claim it",
               ("automatic", "claim")),
        Option("quiet_ply_limit", int, 100, "draw after this many plies with no piece removed (0 = off)", None,
               0, 10_000),
    )
)

INFO = GameInfo(
    name="khet",
    title="Khet 2.0",
    description=(
        "Laser chess for 2: move, swap or rotate a piece, then your laser fires and bounces off the mirrors. "
        "Hit the other Pharaoh to win."
    ),
    options=OPTIONS,
    factory="damier.games.khet.rules:KhetGame",
    messages="damier.games.khet",
    rules_version=1,
    levels={
        "easy": "alphabeta:depth=1,eval=simple",
        "medium": "alphabeta:depth=3",
        "hard": "alphabeta:time=1.0",
    },
    agents={},
    hint="hard",
    evaluations=("strong", "simple"),
    # scores read in Pyramids; the winning-chance scale measured by benchmarks/score_scale.py --game khet --games 300
    # --depth 4 --opening 10 --seed 2 (6,887: a Pyramid ahead wins little more often between the engines)
    scores=ScoreScale(chance=6900.0, unit="Pyramids", points=1000.0),
    endings=(PHARAOH_HIT,),
    features={
        "search": "damier.games.khet.search:Engine",
        "evaluate": "damier.games.khet.rules:evaluate",
        "playout": "damier.games.khet.rules:random_playout",
        "playouts": "damier.games.khet.rules:random_playouts",
        "perft": "damier.games.khet.rules:perft",
        "describe_events": "damier.games.khet.view:describe_events",
        "client": "damier.games.khet.client:describe",
        "howto": "damier.games.khet.howto:HOWTO",
        "editor": "damier.games.khet.client:position_from_board",
        "svg": "damier.games.khet.svg:svg",
        "premoves": "damier.games.khet.rules:waiting_side",
    },
    engine=EngineInfo(
        setups={"standard": "classic", "classic": "classic", "imhotep": "imhotep", "dynasty": "dynasty"},
        position_fields=3,
        position_words="damier.games.khet.notation:position_words",  # 2 for a Khet2-AI string
        max_depth=80,  # the engine's stack holds 96 plies, quiescence included
        position_options=("setup",),
    ),
)
