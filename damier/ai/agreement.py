"""How a computer answers an offer to end the game by agreement (a draw offer; in a game that keeps a score,
the agreement to stop that the score decides): it agrees when stopping gives it more than it expects from
playing on, by the game's evaluation."""

from __future__ import annotations

from damier.core.game import CHANCE, State

#: random games played to judge a position in a game that declares no evaluation
PLAYOUTS = 200


def expected_return(state: State, seat: int) -> float:
    """What ``seat`` expects from playing on, on the scale of returns (-1 a loss, 0 level, +1 a win): the sign
    of the game's default evaluation, or without one the share of random games it wins, scaled."""
    game = state.game
    if game.evaluations and state.player != CHANCE:
        score = game.evaluate(state, seat)
        return float((score > 0) - (score < 0))
    wins = game.random_playouts(state, PLAYOUTS, seed=len(state.history))
    share = wins[seat] / PLAYOUTS
    return 2.0 * share - 1.0


def agrees_to_stop(state: State, seat: int) -> bool:
    """Whether the computer in ``seat`` accepts to end the game here: its return when the game ends by agreement
    (``State.agreement_outcome``) is a win, or more than it expects from playing on. It declines a draw in a
    level position and accepts one when it stands worse; where the score decides, it stops when it leads."""
    if state.is_over():
        return False
    stop = state.agreement_outcome().returns[seat]
    return stop >= 1.0 or stop > expected_return(state, seat)
