"""Round-robin tournaments between agent specs, on a local process pool, with W/D/L and Elo."""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from damier.agents.spec import make_agent
from damier.arena import elo
from damier.arena.match import MatchResult, run_match_task
from damier.core.registry import load


@dataclass
class Standing:
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass
class TournamentResult:
    game: str
    options: dict[str, Any]
    agents: list[str]
    standings: list[Standing]
    ratings: list[elo.Rating]
    pairs: dict[str, dict[str, int]]  # "a vs b" -> {"wins": .., "draws": .., "losses": ..} from a's side
    games: list[dict[str, Any]] = field(default_factory=list)
    # "a vs b" -> {"first": W/D/L, "second": W/D/L}: a's results in the games a moved first (held seat 0) and not
    by_first_mover: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)

    def terminations(self) -> dict[str, int]:
        """How many games ended each way (``pharaoh_hit``, ``move_limit``, ``resignation``, ``forfeit`` ...),
        most frequent first."""
        counts = Counter(str(game["termination"]) for game in self.games)
        return dict(counts.most_common())

    def untold(self) -> list[dict[str, Any]]:
        """Per agent that played without being told some rules in force (``ext(untold=play)``): the agent, the
        rules (option -> value) and in how many games."""
        found: dict[str, dict[str, Any]] = {}
        for game in self.games:
            for entry in game["untold"]:
                seen = found.setdefault(entry["agent"], {"agent": entry["agent"], "rules": {}, "games": 0})
                seen["rules"].update(entry["rules"])
                seen["games"] += 1
        return list(found.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "standings": [
                {"agent": s.name, "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
                 "score": round(s.score, 4)}
                for s in self.standings
            ],
            "elo": [{"agent": r.name, "elo": round(r.elo, 1), "low": round(r.low, 1), "high": round(r.high, 1)}
                    for r in self.ratings],
            "pairs": self.pairs,
            "by_first_mover": self.by_first_mover,
            "terminations": self.terminations(),
            "untold": self.untold(),
            "games": self.games,
        }


def schedule(game_name: str, options: dict[str, Any], specs: list[str], games_per_pair: int, seed: int,
             opening: int, num_players: int) -> list[dict[str, Any]]:
    """Every game of the round robin: each pair meets ``games_per_pair`` times, seats alternating."""
    tasks = []
    for pair_index, (a, b) in enumerate(itertools.combinations(range(len(specs)), 2)):
        for k in range(games_per_pair):
            pair = (a, b) if k % 2 == 0 else (b, a)
            seats = [pair[s % 2] for s in range(num_players)]
            tasks.append({
                "game": game_name, "options": options, "specs": specs, "seats": seats,
                # the same opening for both seat orders of a pair of games: a fairer comparison
                "seed": seed * 1_000_003 + pair_index * 10_007 + k // 2,
                "opening": opening,
            })
    return tasks


def run(game_name: str, specs: list[str], games_per_pair: int, seed: int = 0, opening: int | None = None,
        options: dict[str, Any] | None = None, workers: int | None = None,
        progress: Callable[[MatchResult], None] | None = None) -> TournamentResult:
    """Play the round robin and rate the agents. Specs are validated before any game starts. ``opening``: the
    random plies at the start of each game (``None``: the game's own, ``GameInfo.opening``)."""
    game = load(game_name, **(options or {}))
    for spec in specs:
        make_agent(spec, game)  # raises AgentSpecError now rather than in a worker
    if opening is None:
        opening = game.info.opening
    tasks = schedule(game.name, dict(game.options), specs, games_per_pair, seed, opening, game.num_players)
    workers = workers or max(1, min(os.cpu_count() or 1, len(tasks)))
    results: list[MatchResult] = []
    if workers == 1:
        for task in tasks:
            result = run_match_task(task)
            results.append(result)
            if progress:
                progress(result)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures: list[Future[MatchResult]] = [pool.submit(run_match_task, task) for task in tasks]
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if progress:
                    progress(result)
    return summarise(game.name, dict(game.options), specs, results)


def _wdl() -> dict[str, int]:
    """A pair's wins, draws and losses, none yet."""
    return {"wins": 0, "draws": 0, "losses": 0}


def summarise(game: str, options: dict[str, Any], specs: list[str], results: list[MatchResult]) -> TournamentResult:
    k = len(specs)
    standings = [Standing(name) for name in specs]
    scores = np.zeros((k, k))
    played = np.zeros((k, k))
    pairs: dict[str, dict[str, int]] = {}
    by_first_mover: dict[str, dict[str, dict[str, int]]] = {}
    for result in results:
        involved = sorted(set(result.seats))
        for a, b in itertools.permutations(involved, 2):
            played[a, b] += 1
            scores[a, b] += _points(result, a, b)
        for a in involved:
            _count(standings[a], _points(result, a, None))
        if len(involved) == 2:
            a, b = involved
            name = f"{specs[a]} vs {specs[b]}"
            entry = pairs.setdefault(name, _wdl())
            points = _points(result, a, b)
            kind = "wins" if points == 1.0 else "losses" if points == 0.0 else "draws"
            entry[kind] += 1
            seat = by_first_mover.setdefault(name, {"first": _wdl(), "second": _wdl()})
            seat["first" if result.seats[0] == a else "second"][kind] += 1
    ratings = elo.fit(specs, scores, played)
    games = [_game_json(r, specs) for r in results]
    return TournamentResult(game, options, specs, standings, ratings, pairs, games, by_first_mover)


def _points(result: MatchResult, a: int, b: int | None) -> float:
    """What agent ``a`` scored in ``result``: against agent ``b``, or (``b`` None) in the game as a whole.

    A forfeit or a resignation is a loss for the agent that ended the game and a win for the others against it,
    whoever the game names as its winner.
    """
    loser = result.loser_agent
    if loser is not None:
        if a == loser:
            return 0.0
        if b == loser or result.winner_agent == a:
            return 1.0
        return 0.5
    winner = result.winner_agent
    return 0.5 if winner is None else 1.0 if winner == a else 0.0


def _count(standing: Standing, points: float) -> None:
    if points == 1.0:
        standing.wins += 1
    elif points == 0.0:
        standing.losses += 1
    else:
        standing.draws += 1


def _game_json(result: MatchResult, specs: list[str]) -> dict[str, Any]:
    """One game of the report, agents named by their specs: ``forfeit`` and ``resignation`` are ``{"seat", "agent",
    "reason"}`` or null, ``untold`` lists ``{"agent", "seats", "rules"}``."""
    early = {}
    for key, ended in (("forfeit", result.forfeit), ("resignation", result.resignation)):
        early[key] = None if ended is None else {**ended.to_json(), "agent": specs[ended.agent]}
    return {"seats": [specs[i] for i in result.seats],
            "winner": None if result.winner_agent is None else specs[result.winner_agent],
            "reason": result.outcome.reason, "termination": result.outcome.termination.value, "plies": result.plies,
            **early, "untold": [{**u.to_json(), "agent": specs[u.agent]} for u in result.untold],
            "record": result.record}
