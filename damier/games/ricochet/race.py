"""Ricochet Robots' race (the ``race`` feature): bids with a timer from the first bid, the lowest bidder
demonstrates in at most the bid, the robots stay where a successful demonstration left them (option: reset),
17 target chips, the most chips wins."""

from __future__ import annotations

import random

from damier.core.errors import StateError
from damier.core.game import Game, State
from damier.core.race import RaceRules
from damier.games.ricochet import notation
from damier.games.ricochet.rules import RicochetGame, RicochetState


class RicochetRace:
    """The rounds of a Ricochet Robots race: a new target each round, the robots carried forward."""

    def rules(self, game: Game) -> RaceRules:
        return RaceRules(claim="at_most", chips_total=17, chips_to_win=17, wrong_claim="none", round_seconds=600,
                         bid_seconds=60, demo_seconds=60)

    def first_round(self, game: Game, seed: int) -> State:
        assert isinstance(game, RicochetGame)
        return game.new_state(seed)

    def next_round(self, game: Game, previous: State, seed: int) -> State:
        """The same board, the robots where the round left them, a new target (of the ``difficulty`` when one of the
        board's targets has it from there, else any that takes 2 moves or more).

        >>> import damier
        >>> game = damier.load("ricochet", board="1A2A3A4A")
        >>> first = RACE.first_round(game, 7)
        >>> second = RACE.next_round(game, first, 8)
        >>> second.puzzle.board == first.puzzle.board, tuple(second.robots) == tuple(first.robots)
        (True, True)
        """
        assert isinstance(game, RicochetGame) and isinstance(previous, RicochetState)
        robots = tuple(int(c) for c in previous.robots)
        board_id = previous.puzzle.board.board_id
        try:
            puzzle = game.draw_puzzle(random.Random(seed), robots=robots, board_id=board_id)
        except StateError:
            if not game.difficulty:
                raise
            puzzle = game.draw_puzzle(random.Random(seed), robots=robots, board_id=board_id, difficulty=0)
        return game.state_from_position(notation.puzzle_id(puzzle))


RACE = RicochetRace()
