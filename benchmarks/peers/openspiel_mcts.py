"""damier's MCTS against OpenSpiel's Python MCTS bot, on the same damier game seen as an OpenSpiel game.

    python benchmarks/peers/openspiel_mcts.py [--game atoms] [--opt rows=5 --opt cols=5] [--positions 4]
        [--plies 6] [--rate-time 2.0] [--repeats 3] [--time 0.2 1.0] [--games 20] [--opening 2] [--uct-c 2.0] [--seed 0]
        [--json]

OpenSpiel is not a dependency of damier: run the script with a Python that has ``open_spiel`` (PyPI) and
damier's dependencies, for instance a virtual environment outside the repository:

    python3 -m venv /tmp/ospenv --system-site-packages && /tmp/ospenv/bin/pip install open_spiel
    /tmp/ospenv/bin/python benchmarks/peers/openspiel_mcts.py --game atoms --opt rows=5 --opt cols=5

(the script puts this checkout first on ``sys.path``, so the damier measured is this tree's, whatever else is
installed; the venv's ``--system-site-packages`` lends it damier's dependencies, numba and numpy).

What it does:

1. registers the damier game with OpenSpiel (``pyspiel.register_game``) as ``damier_<name>``: a Python
   ``pyspiel.Game`` whose states wrap a damier ``State`` and go through damier's public contract only
   (``player``, ``legal_moves``, ``_apply`` of a move known legal, ``copy``, ``outcome``, ``chance_outcomes``),
   and checks it with ``pyspiel`` on a few random games (legal actions and returns agree with damier's);
2. simulations per second, on the start position and ``--positions - 1`` seeded mid-game positions (each reached
   by ``--plies`` uniformly random plies from the start): OpenSpiel's ``MCTSBot`` (UCT, ``uct_c``, with
   ``RandomRolloutEvaluator(n_rollouts=1)``: one random game per simulation, played through the wrapper) and
   damier's ``MCTSAgent`` (UCT, one random playout per simulation, in the game's kernel when it has one), each
   given ``--repeats`` searches of ``--rate-time`` seconds on the same position, in turn (the median counts);
   a simulation is one descent, one evaluation and its backup in both (OpenSpiel's root ``explore_count``,
   damier's ``info.nodes``);
3. for each ``--time``, a match at that many seconds a move for both (wall clock; ``--odds K`` gives OpenSpiel's
   bot K times that), ``--games`` games with the seats alternated, each pair of games starting from the same
   seeded random opening of ``--opening`` plies; wins, draws and losses of damier's MCTS with a Wilson 95%
   interval on its score (a draw counts half).

OpenSpiel's ``MCTSBot`` takes a number of simulations, not a time: ``TimedMCTSBot`` below stops its search when
the time is up (checked before each simulation, after at least one), and otherwise is OpenSpiel's bot as it is
(its MCTS-Solver backups on, ``solve=True``, its default).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # damier from this checkout, run from anywhere

import damier
from damier.ai.mcts import MCTSAgent
from damier.core.game import CHANCE, TERMINAL, Game, State

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.algorithms import mcts as os_mcts  # type: ignore[import-not-found]
except ImportError as exc:  # depends on the Python running the script
    raise SystemExit(
        f"this script needs OpenSpiel ({exc}); install it outside the repository, e.g.\n"
        "  python3 -m venv /tmp/ospenv --system-site-packages && /tmp/ospenv/bin/pip install open_spiel\n"
        "  /tmp/ospenv/bin/python benchmarks/peers/openspiel_mcts.py"
    ) from None

# ----- the damier game as an OpenSpiel game -------------------------------------------------------------------


def _parameter(value: Any) -> Any:
    """An OpenSpiel game parameter's default from a damier option's value (ints, floats, bools and strings)."""
    if isinstance(value, bool | int | float | str):
        return value
    return str(value)


def register(name: str) -> str:
    """Register damier's game ``name`` with OpenSpiel as ``damier_<name>`` (its options are the parameters, with
    damier's defaults); the OpenSpiel short name. Load it with ``pyspiel.load_game(short_name, {option: value})``.
    """
    short_name = f"damier_{name}"
    if short_name in pyspiel.registered_names():
        return short_name
    default = damier.load(name)
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"damier {default.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if default.has_chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=1,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={key: _parameter(value) for key, value in default.options.items()},
    )

    # OpenSpiel calls the class with the parameters. A class, as OpenSpiel's own Python games register: a
    # closure registered instead aborted the interpreter at exit ("Fatal Python error: PyThreadState_Get ...
    # finalizing", open_spiel 2.0.2)
    creator = type(f"DamierGame_{name}", (DamierGame,), {"damier_name": name, "game_type": game_type})
    pyspiel.register_game(game_type, creator)
    return short_name


class DamierGame(pyspiel.Game):  # type: ignore[misc]
    """A damier ``Game`` seen by OpenSpiel: the moves are damier's move ints (``num_moves``), the chance outcomes
    damier's (``num_chance_outcomes``), the returns damier's ``Outcome.returns``."""

    damier_name: str = ""
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = damier.load(self.damier_name, **params)
        players = game.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_moves,
            max_chance_outcomes=game.num_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            # a winner gets 1 in a damier game, or the losers' shares after a resignation or a forfeit
            max_utility=float(max(1, players - 1)),
            utility_sum=None,
            # damier games end by their own rules (a ply cap, repetition, a quiet-ply limit), not by a length
            # OpenSpiel is told; this bound is only what GameInfo asks for
            max_game_length=int(getattr(game, "max_plies", 0) or 100_000),
        )
        super().__init__(self.game_type, info, params)
        self.damier_game = game

    def new_initial_state(self, state: State | None = None) -> DamierState:
        return DamierState(self, self.damier_game.new_state() if state is None else state.copy())


class DamierState(pyspiel.State):  # type: ignore[misc]
    """One damier ``State`` (``self.inner``), played through the contract."""

    def __init__(self, game: DamierGame, inner: State) -> None:
        super().__init__(game)
        self._game = game
        self.inner = inner

    def current_player(self) -> int:
        player = self.inner.player
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def is_terminal(self) -> bool:
        return bool(self.inner.player == TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.inner.chance_outcomes()
        if self.inner.player == CHANCE and not outcomes:
            raise NotImplementedError("this damier game samples its chance events without listing them")
        return outcomes

    def _apply_action(self, action: int) -> None:
        self.inner._apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.move_to_str(int(action))

    def returns(self) -> list[float]:
        outcome = self.inner.outcome()
        if outcome is None:
            return [0.0] * self._game.damier_game.num_players
        return list(outcome.returns)

    def __deepcopy__(self, memo: dict[int, Any]) -> DamierState:
        """OpenSpiel's ``clone`` of a Python state (its deep copy): damier's ``copy``."""
        return DamierState(self._game, self.inner.copy())

    def __str__(self) -> str:
        return self.inner.position()


def check_wrapper(os_game: DamierGame, games: int, seed: int) -> int:
    """Play ``games`` random games through the wrapper beside damier's state; the plies checked."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        ours = os_game.damier_game.new_state()
        theirs = os_game.new_initial_state()
        while not ours.is_over():
            assert theirs.current_player() == ours.player or ours.player == CHANCE
            if ours.player == CHANCE:
                assert theirs.is_chance_node()
                move = ours.sample_chance(rng)
            else:
                assert theirs.legal_actions() == ours.legal_moves()
                move = rng.choice(ours.legal_moves())
            clone = theirs.clone()
            theirs.apply_action(move)
            if ours.player == CHANCE:
                ours._apply(move)
            else:
                ours.play(move)
            assert clone.history() != theirs.history() and len(clone.history()) == len(theirs.history()) - 1
            plies += 1
        outcome = ours.outcome()
        assert theirs.is_terminal() and outcome is not None and tuple(theirs.returns()) == outcome.returns
    return plies


# ----- the bots -----------------------------------------------------------------------------------------------


class _TimeUp(Exception):
    pass


class TimedMCTSBot(os_mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's ``MCTSBot`` with a time budget: before each simulation (its tree policy), once the root has one
    simulation, the search stops when ``time_limit`` seconds have passed, and the bot answers from the root as
    it stands (the unfinished simulation has not touched the tree)."""

    def __init__(self, game: Any, time_limit: float, uct_c: float, seed: int) -> None:
        rs = np.random.RandomState(seed)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        super().__init__(game, uct_c=uct_c, max_simulations=10**9, evaluator=evaluator, random_state=rs)
        self.time_limit = time_limit
        self._deadline = 0.0
        self._root: Any = None
        self.last_sims = 0
        self.last_seconds = 0.0

    def mcts_search(self, state: Any) -> Any:
        started = time.perf_counter()
        self._deadline = started + self.time_limit
        self._root = None
        try:
            root = super().mcts_search(state)
        except _TimeUp:
            root = self._root
        self.last_seconds = time.perf_counter() - started
        self.last_sims = root.explore_count
        return root

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self._root = root
        if root.explore_count and time.perf_counter() >= self._deadline:
            raise _TimeUp
        return super()._apply_tree_policy(root, state)


# ----- positions, rates, matches ------------------------------------------------------------------------------


def positions(game: Game, count: int, plies: int, seed: int) -> list[tuple[str, State]]:
    """The start and ``count - 1`` positions reached by ``plies`` seeded random plies (games that ended before are
    drawn again with the next seed)."""
    found: list[tuple[str, State]] = [("start", game.new_state())]
    attempt = 0
    while len(found) < count:
        rng = random.Random(seed * 1000 + attempt)
        state = game.new_state()
        for _ in range(plies):
            if state.is_over():
                break
            state._apply(state.sample_chance(rng) if state.player == CHANCE else rng.choice(state.legal_moves()))
        attempt += 1
        if state.player >= 0:
            found.append((f"random {plies} plies (seed {seed * 1000 + attempt - 1})", state))
    return found


def rates(os_game: DamierGame, state: State, seconds: float, uct_c: float, seed: int, repeats: int) -> dict[str, Any]:
    """Simulations per second of both searches on ``state``: ``repeats`` rounds of ``seconds`` each, damier's and
    OpenSpiel's in turn (damier's tree not reused); the median round of each, and their ratio. On a shared
    machine a round can lose a share of its core, so the medians are the figures."""
    ours_rates: list[float] = []
    theirs_rates: list[float] = []
    sims = {"damier": 0, "openspiel": 0}
    for round_ in range(repeats):
        ours = MCTSAgent(time_limit=seconds, seed=seed + round_, reuse=False)
        ours.choose(state)
        ours_rates.append(ours.info.nodes / ours.info.seconds)
        sims["damier"] += ours.info.nodes
        theirs = TimedMCTSBot(os_game, seconds, uct_c, seed + round_)
        theirs.step(os_game.new_initial_state(state))
        theirs_rates.append(theirs.last_sims / theirs.last_seconds)
        sims["openspiel"] += theirs.last_sims
    damier_rate = statistics.median(ours_rates)
    openspiel_rate = statistics.median(theirs_rates)
    return {"damier_sims_per_s": round(damier_rate, 1), "openspiel_sims_per_s": round(openspiel_rate, 1),
            "ratio": round(damier_rate / openspiel_rate, 1),
            "damier_rounds": [round(r) for r in ours_rates], "openspiel_rounds": [round(r) for r in theirs_rates],
            "damier_sims": sims["damier"], "openspiel_sims": sims["openspiel"]}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for ``z = 1.96``)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(os_game: DamierGame, opening: list[int], damier_seat: int, seconds: float, uct_c: float,
              seed: int, odds: float = 1.0) -> dict[str, Any]:
    """One game from ``opening``: damier's MCTS in ``damier_seat`` (``seconds`` a move), OpenSpiel's bot in the
    other seat(s) (``seconds * odds`` a move)."""
    game = os_game.damier_game
    state = game.new_state(seed)
    for move in opening:
        state._apply(move)
    ours = MCTSAgent(time_limit=seconds, seed=seed)
    theirs = TimedMCTSBot(os_game, seconds * odds, uct_c, seed + 1)
    chance_rng = random.Random(seed + 2)
    sims = {"damier": [], "openspiel": []}  # type: dict[str, list[float]]
    while not state.is_over():
        if state.player == CHANCE:
            state._apply(state.sample_chance(chance_rng))
        elif state.player == damier_seat:
            state.play(ours.choose(state))
            sims["damier"].append(ours.info.nodes / max(ours.info.seconds, 1e-9))
        else:
            state.play(theirs.step(os_game.new_initial_state(state)))
            sims["openspiel"].append(theirs.last_sims / max(theirs.last_seconds, 1e-9))
    outcome = state.outcome()
    assert outcome is not None
    mine = outcome.returns[damier_seat]
    best = max(outcome.returns)
    result = "win" if mine == best and outcome.returns.count(best) == 1 else "draw" if mine == best else "loss"
    return {"damier_seat": damier_seat, "result": result, "plies": len(state.history), "reason": outcome.reason,
            "damier_sims_per_s": round(sum(sims["damier"]) / max(1, len(sims["damier"])), 1),
            "openspiel_sims_per_s": round(sum(sims["openspiel"]) / max(1, len(sims["openspiel"])), 1)}


def match(os_game: DamierGame, seconds: float, games: int, opening_plies: int, uct_c: float, seed: int,
          log: Any, odds: float = 1.0) -> dict[str, Any]:
    game = os_game.damier_game
    results = []
    opening: list[int] = []
    for index in range(games):
        if index % 2 == 0:
            rng = random.Random(seed * 7919 + index)
            scratch = game.new_state(seed)
            opening = []
            for _ in range(opening_plies):
                if scratch.is_over():
                    break
                move = scratch.sample_chance(rng) if scratch.player == CHANCE else rng.choice(scratch.legal_moves())
                scratch._apply(move)
                opening.append(move)
        seat = index % game.num_players
        record = play_game(os_game, opening, seat, seconds, uct_c, seed * 1000 + index, odds)
        results.append(record)
        print(f"  {seconds} s/move game {index + 1}/{games}: damier in seat {seat} {record['result']} "
              f"({record['plies']} plies; {record['reason']})", file=log, flush=True)
    wins = sum(r["result"] == "win" for r in results)
    draws = sum(r["result"] == "draw" for r in results)
    losses = sum(r["result"] == "loss" for r in results)
    low, high = wilson(wins + draws / 2, games)
    return {"time": seconds, "openspiel_time": seconds * odds, "games": games, "wins": wins, "draws": draws,
            "losses": losses,
            "score": round((wins + draws / 2) / games, 3) if games else None,
            "wilson95": [round(low, 3), round(high, 3)],
            "mean_plies": round(sum(r["plies"] for r in results) / max(1, games), 1),
            "damier_sims_per_s": round(sum(r["damier_sims_per_s"] for r in results) / max(1, games), 1),
            "openspiel_sims_per_s": round(sum(r["openspiel_sims_per_s"] for r in results) / max(1, games), 1),
            "results": results}


def _option(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    if not value:
        raise argparse.ArgumentTypeError(f"--opt takes NAME=VALUE, not {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--game", default="atoms")
    parser.add_argument("--opt", type=_option, action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable); atoms defaults to rows=5 cols=5 here")
    parser.add_argument("--positions", type=int, default=4, help="the start and N-1 random mid-game positions")
    parser.add_argument("--plies", type=int, default=6, help="random plies to each mid-game position")
    parser.add_argument("--rate-time", type=float, default=2.0, help="seconds of one search, per position and engine")
    parser.add_argument("--repeats", type=int, default=3, help="searches per position and engine (the median counts)")
    parser.add_argument("--time", type=float, nargs="*", default=[0.2], help="seconds a move in the matches")
    parser.add_argument("--games", type=int, default=20, help="games per match (0: no match)")
    parser.add_argument("--opening", type=int, default=2, help="random plies shared by each pair of games")
    parser.add_argument("--odds", type=float, default=1.0,
                        help="OpenSpiel's time a move is --time times this (1: equal time)")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant (its examples' 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    options = dict(args.opt)
    if args.game == "atoms" and not args.opt:
        options = {"rows": 5, "cols": 5}
    log = sys.stderr if args.json else sys.stdout
    short_name = register(args.game)
    os_game = pyspiel.load_game(short_name, options)
    game = os_game.damier_game
    checked = check_wrapper(os_game, 5, args.seed)
    print(f"{game!r} as OpenSpiel's {short_name}{options}: {checked} plies of 5 random games agree with damier's",
          file=log, flush=True)

    # warm-up: numba compiles damier's kernel (or loads it from its cache), both searches run once
    warm = game.new_state()
    MCTSAgent(playouts=50, seed=0).choose(warm)
    TimedMCTSBot(os_game, 0.05, args.uct_c, 0).step(os_game.new_initial_state(warm))

    rate_rows = []
    for label, state in positions(game, args.positions, args.plies, args.seed):
        row = {"position": label, "fen": state.position(), "legal_moves": len(state.legal_moves()),
               **rates(os_game, state, args.rate_time, args.uct_c, args.seed, args.repeats)}
        rate_rows.append(row)
        print(f"{label}: {row['legal_moves']} legal moves; damier {row['damier_sims_per_s']:.0f} sims/s, "
              f"OpenSpiel {row['openspiel_sims_per_s']:.0f} sims/s: {row['ratio']}x", file=log, flush=True)

    matches = []
    for seconds in args.time if args.games else []:
        theirs = "" if args.odds == 1 else f" (OpenSpiel {seconds * args.odds:g} s)"
        print(f"match at {seconds} s a move{theirs}, {args.games} games:", file=log, flush=True)
        result = match(os_game, seconds, args.games, args.opening, args.uct_c, args.seed, log, args.odds)
        matches.append(result)
        print(f"  damier W {result['wins']} D {result['draws']} L {result['losses']}, score {result['score']} "
              f"(Wilson 95% {result['wilson95'][0]}-{result['wilson95'][1]}); mean sims/s in play: damier "
              f"{result['damier_sims_per_s']:.0f}, OpenSpiel {result['openspiel_sims_per_s']:.0f}",
              file=log, flush=True)

    if args.json:
        report = {"game": args.game, "options": options, "openspiel_name": short_name,
                  "python": platform.python_version(), "open_spiel": _version(),
                  "uct_c": args.uct_c, "seed": args.seed, "rate_time": args.rate_time, "repeats": args.repeats,
                  "rates": rate_rows, "matches": matches}
        print(json.dumps(report, indent=2))
    return 0


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:
        return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
