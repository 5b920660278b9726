"""Jewels and Lasers: how often each man is in a ray's reach, measured on the arena's own games.

    python benchmarks/jewels.py [--agents hard jewels-greedy] [--games 100] [--seed 7] [--opening 2] [--workers 2]

Plays the games ``damier arena jewels --agents A B --games N --seed S`` plays (the same schedule, seeds, random
opening and dice, so its results are the arena's) and prints, besides A's wins, draws and losses and how the games
ended:

- each man's **hazard**: at every robots' turn, the exact chance that the robot step lights him (the share of the
  robots' steps that do), summed and given per 1,000 robots' turns. Games are decided by which man is hit first, and
  the hazard is that race without the draw of the dice (a hit is one chance in a few hundred), so it tells two builds
  apart in far fewer games than the wins do;
- A's hazard split by whose move came before the robots' turn: after A's own move it is not 0 only where A had no
  safe move left (a pocket of rays closed round him); after the other man's, it is the second robot step since A
  moved;
- the jewels each took per game (they decide the games that end at the no-jewel cap).

The hazards are counted for ``robot_steps = one`` (the default), where a robots' turn is one uniform step.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import random
from typing import Any

from damier.ai.spec import make_agent
from damier.arena.tournament import schedule
from damier.core.game import CHANCE
from damier.core.registry import load
from damier.games.jewels import kernel


def play(task: dict[str, Any]) -> dict[str, Any]:
    """One arena game (as ``damier.arena.match.play_match`` plays it), with the hazards counted."""
    game = load("jewels")
    agents = [make_agent(spec, game, seed=task["seed"] * 31 + i) for i, spec in enumerate(task["specs"])]
    for agent in agents:
        agent.reset()
    rng = random.Random(task["seed"])
    state = game.new_state(task["seed"])
    seats = task["seats"]
    first = seats.index(0)  # the seat of the first agent
    n, nb = game.n, game.neighbours
    hazard = [0.0, 0.0]
    split = [0.0, 0.0]  # the first agent's: after its own move, after the other's
    turns = 0
    last = -1
    while not state.is_over():
        if state.player == CHANCE:
            s = state.kernel_array()
            steps = kernel.step_count(s, nb)
            if steps:
                for seat in (0, 1):
                    h = kernel.lit_by_one_step(s, nb, int(s[n + kernel.MAN + seat])) / steps
                    hazard[seat] += h
                    if seat == first:
                        split[0 if last == first else 1] += h
            turns += 1
            state.play(state.sample_chance(rng))
        elif len(state.history) < task["opening"]:
            state.play(rng.choice(state.legal_moves()))
        else:
            last = state.player
            state.play(agents[seats[state.player]].choose(state))
    outcome = state.outcome()
    result = "D" if outcome.winner is None else "W" if outcome.winner == first else "L"
    reason = str(outcome.reason)
    end = "no-jewel cap" if "no jewel" in reason else "hit" if "hit" in reason else "jewels"
    return {"result": result, "end": end, "turns": turns, "hazard": (hazard[first], hazard[1 - first]),
            "split": split, "jewels": (state.jewels(first), state.jewels(1 - first))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", nargs=2, default=["hard", "jewels-greedy"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--opening", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tasks = schedule("jewels", {}, args.agents, args.games, args.seed, args.opening, 2)
    with multiprocessing.Pool(args.workers) as pool:
        games = pool.map(play, tasks, chunksize=1)
    a, b = args.agents
    count = collections.Counter(g["result"] for g in games)
    turns = sum(g["turns"] for g in games)
    per = 1000.0 / turns
    print(f"{a} vs {b}, {len(games)} games: {count['W']} won, {count['D']} drawn, {count['L']} lost "
          f"({100.0 * (count['W'] + count['D'] / 2) / len(games):.1f} %)")
    ends = collections.Counter((g["end"], g["result"]) for g in games)
    print("ends (for " + a + "): " + ", ".join(f"{end} {result} {k}" for (end, result), k in sorted(ends.items())))
    mine, theirs = (per * sum(g["hazard"][i] for g in games) for i in (0, 1))
    own, other = (per * sum(g["split"][i] for g in games) for i in (0, 1))
    print(f"hazard per 1,000 robots' turns ({turns} turns): {a} {mine:.2f}, {b} {theirs:.2f}; "
          f"{a}'s after its own move {own:.2f}, after the other's {other:.2f}")
    print(f"jewels per game: {a} {sum(g['jewels'][0] for g in games) / len(games):.2f}, "
          f"{b} {sum(g['jewels'][1] for g in games) / len(games):.2f}")


if __name__ == "__main__":
    main()
