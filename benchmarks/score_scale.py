"""How many search points make a winning chance: the logistic scale a game declares in ``ScoreScale.chance``.

    python benchmarks/score_scale.py --game khet [--games 60] [--depth 2 | --depth 1,2] [--opening 6] [--seed 1]
        [--opt rows=6 ...] [--json]

Plays ``--games`` games between alpha-beta players of ``--depth`` plies (a list: the seats' depths, turned round
a seat each game, so that unequal players make decided games) that search with the evaluation the
game's analyses use (its declared ``ScoreScale.evaluation``), each game after ``--opening`` random plies (and on
its own seeded setup), and keeps every score a player's search gave its position (from the side to move's view)
with that player's result (a win 1, a draw 1/2, a loss 0). The scale ``c`` of ``1 / (1 + exp(-score / c))`` that
fits them best (the most likely: the least log loss) is printed beside the game's declared one, with both log
losses against always saying 1/2 and a calibration table: for the scores the declared scale reads as each band of
chances, what share of them the mover went on to win. Decided scores (a forced win or loss) are left out: they
read as a certain result anyway.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import Any

import numpy as np

import damier
from damier.ai.alphabeta import AlphaBetaAgent
from damier.ai.analysis import evaluation_of
from damier.core.game import CHANCE, Game


def samples(game: Game, games: int, depths: list[int], opening: int,
            seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(scores, results, draws): each searched position's score for its mover, the mover's result of the game, and
    how many of the games were drawn."""
    scores: list[float] = []
    results: list[float] = []
    draws = 0
    evaluation = evaluation_of(game)
    for number in range(games):
        rng = random.Random(seed * 100_003 + number)
        state = game.new_state(seed=seed * 100_003 + number)
        agents = [AlphaBetaAgent(depth=depths[(seat + number) % len(depths)], evaluation=evaluation)
                  for seat in range(game.num_players)]
        seen: list[tuple[float, int]] = []
        while not state.is_over():
            if state.player == CHANCE:
                state.play(state.sample_chance(rng))
            elif len(state.history) < opening:
                state.play(rng.choice(state.legal_moves()))
            else:
                agent = agents[state.player]
                move = agent.choose(state)
                if agent.info.depth > 0 and not game.is_decided_score(agent.info.score):
                    seen.append((float(agent.info.score), state.player))
                state.play(move)
        outcome = state.outcome()
        assert outcome is not None
        draws += outcome.winner is None
        for score, mover in seen:
            scores.append(score)
            results.append((outcome.returns[mover] + 1.0) / 2.0)
    return np.array(scores), np.array(results), draws


def log_loss(scores: np.ndarray, results: np.ndarray, scale: float) -> float:
    """The mean log loss of the chances ``scale`` reads the scores as, against the results."""
    chance = 1.0 / (1.0 + np.exp(-np.clip(scores / scale, -700.0, 700.0)))
    chance = np.clip(chance, 1e-9, 1.0 - 1e-9)
    return float(-np.mean(results * np.log(chance) + (1.0 - results) * np.log(1.0 - chance)))


def fit(scores: np.ndarray, results: np.ndarray) -> float:
    """The scale of least log loss (a golden-section search over its logarithm: the loss has one minimum)."""
    widest = max(1.0, float(np.max(np.abs(scores))))
    lo, hi = math.log(1e-3 * widest), math.log(1e3 * widest)
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(200):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if log_loss(scores, results, math.exp(a)) < log_loss(scores, results, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2.0)


def calibration(scores: np.ndarray, results: np.ndarray, scale: float) -> list[dict[str, Any]]:
    """Per band of the chance ``scale`` reads (0-10 %, ..., 90-100 %): the positions and the share won."""
    chance = 1.0 / (1.0 + np.exp(-np.clip(scores / scale, -700.0, 700.0)))
    rows = []
    for band in range(10):
        inside = (chance >= band / 10) & (chance < (band + 1) / 10 if band < 9 else chance <= 1.0)
        if inside.any():
            rows.append({"band": f"{band * 10}-{band * 10 + 10} %", "positions": int(inside.sum()),
                         "read": round(float(chance[inside].mean()), 3),
                         "won": round(float(results[inside].mean()), 3)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--depth", default="2", help="plies a player searches; a comma list: each seat's")
    parser.add_argument("--opening", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opt", action="append", default=[], help="a game option, NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for text in args.opt:
        name, _, value = text.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    game = damier.load(args.game, **options)
    depths = [int(d) for d in args.depth.split(",")]
    scores, results, draws = samples(game, args.games, depths, args.opening, args.seed)
    fitted = fit(scores, results)
    declared = game.info.scores.chance if game.info.scores is not None else None
    report = {
        "game": game.name, "options": dict(game.options), "games": args.games, "depth": args.depth,
        "draws": draws, "positions": len(scores), "fitted_scale": round(fitted, 1), "declared_scale": declared,
        "log_loss": {"fitted": round(log_loss(scores, results, fitted), 4),
                     "declared": round(log_loss(scores, results, declared), 4) if declared else None,
                     "always_half": round(math.log(2.0), 4)},
        "calibration": calibration(scores, results, declared or fitted),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{game.title} {dict(game.options)}: {args.games} games at depth {args.depth} ({draws} drawn), "
          f"{len(scores)} positions")
    print(f"  fitted scale {fitted:.1f}  (declared {declared})")
    print(f"  log loss: fitted {report['log_loss']['fitted']}, declared {report['log_loss']['declared']}, "
          f"always 1/2 {report['log_loss']['always_half']}")
    print(f"  calibration by the {'declared' if declared else 'fitted'} scale:")
    for row in report["calibration"]:
        print(f"    {row['band']:>9}  {row['positions']:6d} positions  read {row['read']:.3f}  won {row['won']:.3f}")


if __name__ == "__main__":
    main()
