"""What a player reads of a search score: winning chances, the game's own unit, a win or a loss some moves away.

A search scores a position in points of the game's evaluation, from the side to move's view. How many points make
what a player understands is the game's own knowledge, declared in its registration (``GameInfo.scores``, a
``ScoreScale``): the logistic scale of a winning chance and, for a game with a material-like unit (Khet's
Pyramids), that unit's worth. A game that declares none is read in raw points, with no chances.

>>> import damier
>>> game = damier.load("khet")
>>> seen = reading(game, 0, 1000.0)  # Silver to move, a Pyramid ahead
>>> seen["value"], round(seen["chances"][0] + seen["chances"][1], 6), seen["chances"][0] > 0.5
(1.0, 1.0, True)
>>> reading(game, 1, game.win_score - 3)["ends_in"]  # Red to move wins 3 moves from here
3
"""

from __future__ import annotations

import math
from typing import Any

from damier.core.game import Game, Outcome

#: the longest distance to a decided end a score can mean (a search reaches 64 plies, and a bit of quiescence)
MAX_ENDS_IN = 128


def chance(game: Game, score: float) -> float | None:
    """The winning chance ``score`` (search points, the side to move's view) means, 0 to 1; None when the game
    declares no scale."""
    ends = ends_in(game, score)
    if ends is not None:
        return 1.0 if ends > 0 else 0.0
    scale = game.info.scores
    if scale is None:
        return None
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, score / scale.chance))))


def ends_in(game: Game, score: float) -> int | None:
    """The moves (everyone's, chance events included) to a forced end that ``score`` means: positive when the side
    to move wins, negative when it loses; None for a score that is not decided (a win found ``n`` moves ahead
    scores ``game.win_score - n``)."""
    if not game.is_decided_score(score):
        return None
    distance = game.win_score - abs(score)
    if not 0 <= distance <= MAX_ENDS_IN:
        return None  # nearly decided (a chance node mostly won), not a line to a forced end
    moves = max(1, round(distance))
    return moves if score > 0 else -moves


def reading(game: Game, player: int, score: float) -> dict[str, Any]:
    """What a player reads of ``score``, a search score from ``player``'s view (the side to move):
    ``chances``, each seat's winning chance (two players: both; more: the side to move's against its strongest
    rival, the others None; every one None when the game declares no scale); ``value``, the score in the game's
    unit (None without one); ``ends_in`` (see ``ends_in``)."""
    mine = chance(game, score)
    seats = game.num_players
    chances: list[float | None] = [None] * seats
    if mine is not None and 0 <= player < seats:
        chances[player] = round(mine, 4)
        if seats == 2:
            chances[1 - player] = round(1.0 - mine, 4)
    scale = game.info.scores
    value = round(score / scale.points, 2) if scale is not None and scale.unit else None
    return {"chances": chances, "value": value, "ends_in": ends_in(game, score)}


def outcome_reading(game: Game, outcome: Outcome) -> dict[str, Any]:
    """What a player reads of a finished position: each seat's result as a chance (a win 1, a loss 0, a draw's
    share between), no value and no distance."""
    return {"chances": [round((r + 1.0) / 2.0, 4) for r in outcome.returns], "value": None, "ends_in": 0}
