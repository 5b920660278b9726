"""Matches, round-robin tournaments and Elo ratings."""

from __future__ import annotations

import math

import numpy as np
import pytest

import damier
from damier.agents import make_agent
from damier.ai import RandomAgent
from damier.arena import elo, play_match, tournament
from damier.core.game import CHANCE, State

SMALL = {"rows": 3, "cols": 3}
SPECS = ["random", "alphabeta:depth=2"]


def expected_elo_difference(points: float, games: int) -> float:
    """The two-player fit in closed form: the score with one virtual draw added, on the logistic Elo scale."""
    p = (points + 0.5) / (games + 1)
    return 400.0 * math.log10(p / (1.0 - p))


def head_to_head(points_a: float, games: int) -> tuple[np.ndarray, np.ndarray]:
    scores = np.array([[0.0, points_a], [games - points_a, 0.0]])
    played = np.array([[0, games], [games, 0]])
    return scores, played


# ----- Elo ------------------------------------------------------------------------------------------------
def test_symmetric_results_give_equal_ratings() -> None:
    scores = np.array([[0, 6, 4], [4, 0, 6], [6, 4, 0]], dtype=float)  # a cycle: everyone scores 10 of 20
    played = np.full((3, 3), 10) - 10 * np.eye(3, dtype=int)
    ratings = elo.fit(["a", "b", "c"], scores, played)
    for rating in ratings:
        assert rating.elo == pytest.approx(1500.0, abs=1e-6)


def test_seventy_five_percent_is_about_plus_190_elo() -> None:
    ratings = elo.fit(["a", "b"], *head_to_head(75, 100))
    difference = ratings[0].elo - ratings[1].elo
    assert difference == pytest.approx(expected_elo_difference(75, 100), abs=0.01)
    assert 180 < difference < 200


def test_ratings_are_centred_on_the_anchor() -> None:
    ratings = elo.fit(["a", "b"], *head_to_head(30, 40), anchor=1000.0)
    assert (ratings[0].elo + ratings[1].elo) / 2 == pytest.approx(1000.0)
    assert [r.name for r in ratings] == ["a", "b"]


def test_ratings_follow_a_transitive_order() -> None:
    # a beats b 70%, b beats c 70%, a beats c 90%
    scores = np.array([[0, 14, 18], [6, 0, 14], [2, 6, 0]], dtype=float)
    played = np.full((3, 3), 20) - 20 * np.eye(3, dtype=int)
    a, b, c = elo.fit(["a", "b", "c"], scores, played)
    assert a.elo > b.elo > c.elo


def test_intervals_contain_the_estimate_and_shrink_with_more_games() -> None:
    few = elo.fit(["a", "b"], *head_to_head(6, 10))
    many = elo.fit(["a", "b"], *head_to_head(600, 1000))
    for rating in (*few, *many):
        assert rating.low < rating.elo < rating.high
        assert rating.elo - rating.low == pytest.approx(rating.high - rating.elo)
    for small, large in zip(few, many, strict=True):
        assert large.high - large.low < (small.high - small.low) / 5  # ~ 1/sqrt(games)


def test_a_clean_sweep_stays_finite() -> None:
    winner, loser = elo.fit(["a", "b"], *head_to_head(10, 10))
    for rating in (winner, loser):
        assert all(math.isfinite(x) for x in (rating.elo, rating.low, rating.high))
    assert winner.elo - loser.elo == pytest.approx(expected_elo_difference(10, 10), abs=0.01)


# ----- tournaments ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_tournament() -> tournament.TournamentResult:
    return tournament.run("atoms", SPECS, games_per_pair=4, seed=1, opening=2, options=SMALL, workers=1)


def test_each_agent_plays_every_game_of_its_pairs(small_tournament: tournament.TournamentResult) -> None:
    result = small_tournament
    assert len(result.games) == 4
    for standing in result.standings:
        assert standing.wins + standing.draws + standing.losses == standing.games == 4
    wins = {s.name: s.wins for s in result.standings}
    assert sum(wins.values()) == 4  # atoms has no draws
    assert result.pairs == {"random vs alphabeta:depth=2": {
        "wins": wins["random"], "draws": 0, "losses": wins["alphabeta:depth=2"]}}
    for game in result.games:
        assert game["winner"] in SPECS
    assert wins == {name: sum(g["winner"] == name for g in result.games) for name in SPECS}


def test_each_pairs_results_split_by_who_moved_first(small_tournament: tournament.TournamentResult) -> None:
    a, b = SPECS
    split = small_tournament.to_json()["by_first_mover"][f"{a} vs {b}"]
    for order, first in (("first", a), ("second", b)):
        games = [g for g in small_tournament.games if g["seats"][0] == first]
        assert len(games) == 2  # seats alternate
        assert split[order] == {"wins": sum(g["winner"] == a for g in games),
                                "draws": sum(g["winner"] is None for g in games),
                                "losses": sum(g["winner"] == b for g in games)}
    total = small_tournament.pairs[f"{a} vs {b}"]
    assert {k: split["first"][k] + split["second"][k] for k in total} == total


def test_seats_alternate_between_games(small_tournament: tournament.TournamentResult) -> None:
    seats = [game["seats"] for game in small_tournament.games]
    assert seats == [SPECS, SPECS[::-1], SPECS, SPECS[::-1]]
    for game in small_tournament.games:
        assert game["record"]["players"] == game["seats"]


def test_both_seat_orders_of_a_pair_share_the_opening(small_tournament: tournament.TournamentResult) -> None:
    moves = [game["record"]["moves"] for game in small_tournament.games]
    assert moves[0][:2] == moves[1][:2]
    assert moves[2][:2] == moves[3][:2]


def test_same_seed_same_tournament(small_tournament: tournament.TournamentResult) -> None:
    again = tournament.run("atoms", SPECS, games_per_pair=4, seed=1, opening=2, options=SMALL, workers=1)
    assert [g["record"]["moves"] for g in again.games] == [g["record"]["moves"] for g in small_tournament.games]
    assert again.to_json()["standings"] == small_tournament.to_json()["standings"]
    assert again.ratings == small_tournament.ratings
    other = tournament.run("atoms", SPECS, games_per_pair=4, seed=2, opening=2, options=SMALL, workers=1)
    assert [g["record"]["moves"] for g in other.games] != [g["record"]["moves"] for g in small_tournament.games]


def test_tournament_records_replay_to_their_result(small_tournament: tournament.TournamentResult) -> None:
    for game in small_tournament.games:
        state = damier.Record.from_json(game["record"]).replay()
        outcome = state.outcome()
        assert outcome is not None
        assert game["seats"][outcome.winner] == game["winner"]
        assert game["plies"] == len(state.history) == len(game["record"]["moves"])
        assert game["reason"] == outcome.reason


def test_tournament_json_has_standings_and_elo(small_tournament: tournament.TournamentResult) -> None:
    data = small_tournament.to_json()
    assert data["game"] == "atoms" and data["options"] == {"rows": 3, "cols": 3, "players": 2}
    assert [s["agent"] for s in data["standings"]] == SPECS
    assert [r["agent"] for r in data["elo"]] == SPECS
    assert all(r["low"] <= r["elo"] <= r["high"] for r in data["elo"])


def test_tournament_reports_progress_once_per_game() -> None:
    seen: list[int] = []
    tournament.run("atoms", ["random", "random:seed=5", "alphabeta:depth=1"], games_per_pair=2, seed=0,
                   options=SMALL, workers=1, progress=lambda result: seen.append(result.plies))
    assert len(seen) == 6  # 3 pairs x 2 games


def test_tournament_checks_specs_before_playing() -> None:
    seen: list[object] = []
    with pytest.raises(damier.AgentSpecError):
        tournament.run("atoms", ["random", "mcts:budget=1"], games_per_pair=2, options=SMALL, workers=1,
                       progress=seen.append)
    assert seen == []


# ----- matches --------------------------------------------------------------------------------------------
class PlyRecordingAgent(RandomAgent):
    """A random player that remembers at which plies it was asked to move."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed, spec="recorder")
        self.asked_at: list[int] = []

    def choose(self, state: State) -> int:
        self.asked_at.append(len(state.history))
        return super().choose(state)


def test_play_match_plays_a_seeded_random_opening() -> None:
    game = damier.load("atoms", **SMALL)

    def opening(seed: int) -> list[str]:
        agents = [PlyRecordingAgent(0), PlyRecordingAgent(1)]
        result = play_match(game, agents, [0, 1], seed=seed, opening_plies=3)
        asked = agents[0].asked_at + agents[1].asked_at
        assert asked and min(asked) == 3  # nobody moved during the opening
        return result.record["moves"][:3]

    assert opening(5) == opening(5)
    assert len({tuple(opening(seed)) for seed in range(6)}) > 1


def test_play_match_without_opening_asks_the_agents_from_the_start() -> None:
    game = damier.load("atoms", **SMALL)
    agents = [PlyRecordingAgent(0), PlyRecordingAgent(1)]
    result = play_match(game, agents, [1, 0], seed=0, opening_plies=0)
    assert agents[1].asked_at[0] == 0  # agent 1 sits in seat 0 and moves first
    assert agents[0].asked_at[0] == 1
    assert result.plies == len(result.record["moves"])
    assert result.winner_agent == result.seats[result.outcome.winner]
    assert set(result.move_seconds) == {0, 1}


def test_play_match_record_names_the_seats() -> None:
    game = damier.load("atoms", **SMALL)
    agents = [make_agent("random", game, seed=1), make_agent("alphabeta:depth=1", game)]
    result = play_match(game, agents, [1, 0], seed=3, names=["first", "second"])
    assert result.record["players"] == ["second", "first"]
    state = damier.Record.from_json(result.record).replay()
    assert state.outcome() == result.outcome


def test_play_match_shows_the_observer_every_ply_before_it_is_played_and_plays_the_same_game() -> None:
    game = damier.load("jewels")  # a game with chance plies: the robots' turns
    seen: list[tuple[int, int]] = []

    def observe(state: State) -> None:
        seen.append((len(state.history), state.player))

    def agents() -> list[RandomAgent]:
        return [RandomAgent(seed=1), RandomAgent(seed=2)]

    watched = play_match(game, agents(), [0, 1], seed=4, opening_plies=2, observe=observe)
    plain = play_match(game, agents(), [0, 1], seed=4, opening_plies=2)
    assert watched.record["moves"] == plain.record["moves"]
    assert [ply for ply, _ in seen] == list(range(watched.plies))
    replay = game.new_state(4)
    for (_, player), move in zip(seen, watched.record["moves"], strict=True):
        assert player == replay.player
        replay.play(replay.parse_move(move))
    assert any(player == CHANCE for _, player in seen)


@pytest.mark.parametrize(("name", "options"), [("atoms", SMALL), ("jewels", {"size": 8, "walls": 6, "robots": 4})])
def test_a_tournament_plays_the_games_own_opening_unless_told(name: str, options: dict[str, object]) -> None:
    declared = damier.load(name, **options).info.opening
    assert declared == (2 if name == "atoms" else 0)  # a seeded setup (jewels) needs no random plies

    def moves(opening: int | None) -> list[list[object]]:
        result = tournament.run(name, ["random", "random:seed=3"], games_per_pair=2, seed=4, opening=opening,
                                options=options, workers=1)
        return [g["record"]["moves"] for g in result.games]

    assert moves(None) == moves(declared)
    assert moves(None) != moves(declared + 1)
