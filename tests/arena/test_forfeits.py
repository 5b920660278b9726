"""Forfeits: an agent that raises ``AgentFailure`` loses the game, and the match and the tournament say why."""

from __future__ import annotations

import damier
from damier.ai import RandomAgent
from damier.ai.base import AgentFailure
from damier.arena import play_match
from damier.arena.tournament import summarise
from damier.core.game import State, Termination

SMALL = {"rows": 3, "cols": 3}


class FailingAgent(RandomAgent):
    """Plays ``moves`` random moves, then fails as an external engine would."""

    def __init__(self, moves: int, reason: str = "engine timed out: no bestmove 2 s after go movetime 1000") -> None:
        super().__init__(seed=0, spec="failing")
        self.moves = moves
        self.reason = reason

    def choose(self, state: State) -> int:
        if self.moves == 0:
            raise AgentFailure(self.reason)
        self.moves -= 1
        return super().choose(state)


def test_an_agent_that_fails_loses_the_game() -> None:
    game = damier.load("atoms", **SMALL)
    result = play_match(game, [RandomAgent(seed=1), FailingAgent(moves=1)], [0, 1], seed=0)
    assert result.forfeit is not None
    assert (result.forfeit.seat, result.forfeit.agent) == (1, 1)
    assert result.forfeit.reason == "engine timed out: no bestmove 2 s after go movetime 1000"
    assert result.outcome.winner == 0 and result.winner_agent == 0
    assert result.outcome.returns == (1.0, -1.0)
    assert result.outcome.reason == ("Blue's engine timed out: no bestmove 2 s after go movetime 1000; "
                                     "Blue loses by forfeit: Red wins")
    assert result.outcome.termination == Termination.FORFEIT
    assert result.plies == 3  # Red, Blue, Red; then Blue could not move
    assert 1 in result.move_seconds  # the time spent failing is counted
    state = damier.Record.from_json(result.record).replay()  # the moves before the forfeit replay
    assert not state.is_over()
    assert damier.Outcome.from_json(result.record["result"]) == result.outcome  # the record says how it ended


def test_the_forfeiting_agent_loses_in_every_seat_it_holds() -> None:
    game = damier.load("atoms", players=4, **SMALL)
    result = play_match(game, [RandomAgent(seed=1), FailingAgent(moves=0)], [0, 1, 0, 1], seed=0)
    assert result.forfeit is not None and result.forfeit.seat == 1
    assert result.outcome.returns == (1.0, -1.0, 1.0, -1.0)
    assert result.outcome.winner == 0 and result.winner_agent == 0


def test_a_forfeit_among_several_agents_names_no_winner_but_scores_a_loss() -> None:
    game = damier.load("atoms", players=3, **SMALL)
    agents = [RandomAgent(seed=1), RandomAgent(seed=2), FailingAgent(moves=0, reason="engine crashed (exit code 1)")]
    result = play_match(game, agents, [0, 1, 2], seed=0)
    assert result.outcome.winner is None
    assert result.outcome.reason == "Green's engine crashed (exit code 1); Green loses by forfeit; the game ends"
    assert result.outcome.returns == (0.5, 0.5, -1.0)  # the one rule: the others share the loser's point
    summary = summarise("atoms", dict(game.options), ["a", "b", "failing"], [result])
    assert {s.name: (s.wins, s.draws, s.losses) for s in summary.standings} == {
        "a": (0, 1, 0), "b": (0, 1, 0), "failing": (0, 0, 1)}
    [game_json] = summary.to_json()["games"]
    assert game_json["forfeit"] == {"seat": 2, "agent": "failing", "reason": "engine crashed (exit code 1)"}
    assert game_json["winner"] is None
    ratings = {r.name: r.elo for r in summary.ratings}
    assert ratings["a"] == ratings["b"] > ratings["failing"]


def test_games_without_forfeits_say_so() -> None:
    game = damier.load("atoms", **SMALL)
    result = play_match(game, [RandomAgent(seed=1), RandomAgent(seed=2)], [0, 1], seed=0)
    assert result.forfeit is None
    [game_json] = summarise("atoms", dict(game.options), ["a", "b"], [result]).to_json()["games"]
    assert game_json["forfeit"] is None
