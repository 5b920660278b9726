"""Ricochet Robots' race (the ``race`` feature): bids with a timer from the first bid, the lowest bidder
demonstrates in at most the bid, the robots stay where a successful demonstration left them (option
``race_robots``: reset), 17 target chips (a round draws among those not yet won), the most chips wins."""

from __future__ import annotations

import random
from collections.abc import Sequence

from damier.core.errors import StateError
from damier.core.game import Game, State
from damier.core.messages import say
from damier.core.race import RaceRules
from damier.games.ricochet import notation
from damier.games.ricochet.rules import RicochetGame, RicochetState


class RicochetRace:
    """The rounds of a Ricochet Robots race: a new target each round (a chip not yet won), the robots carried
    forward or reset."""

    def rules(self, game: Game) -> RaceRules:
        return RaceRules(claim="at_most", chips_total=17, chips_to_win=17, wrong_claim="none", round_seconds=600,
                         bid_seconds=60, demo_seconds=60)

    def first_round(self, game: Game, seed: int) -> State:
        assert isinstance(game, RicochetGame)
        return game.new_state(seed)

    def next_round(self, game: Game, previous: State, seed: int, won: Sequence[State] = ()) -> State:
        """The same board; the robots where the round left them (option ``race_robots``: ``reset``, where the
        round started, so each round starts where the first did); a new target among the chips not yet won (of the
        ``difficulty`` when one of them has it from there, else any that takes 2 moves or more).

        >>> import damier
        >>> game = damier.load("ricochet", board="1A2A3A4A")
        >>> first = RACE.first_round(game, 7)
        >>> second = RACE.next_round(game, first, 8, won=[first])
        >>> second.puzzle.board == first.puzzle.board, tuple(second.robots) == tuple(first.robots)
        (True, True)
        >>> second.puzzle.target == first.puzzle.target
        False
        """
        assert isinstance(game, RicochetGame) and isinstance(previous, RicochetState)
        start = previous.puzzle.robots if game.options["race_robots"] == "reset" else previous.robots
        robots = tuple(int(c) for c in start)
        board = previous.puzzle.board
        taken = {state.puzzle.target for state in won if isinstance(state, RicochetState)}
        targets = [t for t in board.targets if t not in taken]
        if not targets:
            raise StateError(say("ricochet.error.all_chips_won"))
        rng = random.Random(seed)
        try:
            puzzle = game.draw_puzzle(rng, robots=robots, board_id=board.board_id, targets=targets)
        except StateError:
            if not game.difficulty:
                raise
            puzzle = game.draw_puzzle(rng, robots=robots, board_id=board.board_id, difficulty=0, targets=targets)
        return game.state_from_position(notation.puzzle_id(puzzle))


RACE = RicochetRace()
