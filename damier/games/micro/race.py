"""Micro Robots' race (the ``race`` feature): exact-count claims, 25 chips, 5 to win, a wrong claim hands a chip to
the player with the fewest, and the old target becomes the new start."""

from __future__ import annotations

import random
from collections.abc import Sequence

from damier.core.game import Game, State
from damier.core.race import RaceRules
from damier.games.micro.notation import Puzzle, puzzle_id
from damier.games.micro.rules import MicroGame, MicroState


class MicroRace:
    """The rounds of a Micro Robots race on the board the game's options draw."""

    def rules(self, game: Game) -> RaceRules:
        return RaceRules(claim="exact", chips_total=25, chips_to_win=5, wrong_claim="transfer", round_seconds=180)

    def first_round(self, game: Game, seed: int) -> State:
        assert isinstance(game, MicroGame)
        return game.new_state(seed)

    def next_round(self, game: Game, previous: State, seed: int, won: Sequence[State] = ()) -> State:
        """The same board; the old target is the new start; a new target (and waypoint) by the options (the chips
        are not targets: ``won`` changes nothing).

        >>> import damier
        >>> game = damier.load("micro")
        >>> first = RACE.first_round(game, 7)
        >>> second = RACE.next_round(game, first, 8)
        >>> second.puzzle.start == first.puzzle.target, second.puzzle.board_id == first.puzzle.board_id
        (True, True)
        """
        assert isinstance(game, MicroGame) and isinstance(previous, MicroState)
        last: Puzzle = previous.puzzle
        puzzle = game.draw_puzzle(random.Random(seed), start=last.target, board_id=last.board_id)
        return game.state_from_position(puzzle_id(puzzle))  # its start is the puzzle id: records replay it


RACE = MicroRace()
