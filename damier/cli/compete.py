"""``damier arena`` (round robins with Elo) and ``damier bench`` (kernel playouts against the JIT disabled)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Annotated, Any

import typer
from rich.text import Text

from damier.cli.common import JsonArg, OptArg, app, console, errors, fail, load_game
from damier.core.errors import DamierError


@app.command()
def arena(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    agents: Annotated[list[str], typer.Option(
        "--agents", "-a", help="Agent specs: --agents hard random ... (an external engine: 'ext:COMMAND').")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per pair of agents.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the random openings.")] = 0,
    opening: Annotated[int | None, typer.Option(
        min=0, help="Random plies at the start of each game (default: the game's own, 2 for most).")] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: one per core).")] = None,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Round robin between agents: seats alternated, seeded random openings, W/D/L and Elo."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from damier.agents.spec import make_agent
    from damier.arena import tournament

    if len(agents) < 2:
        raise fail("--agents needs at least two agent specs, e.g. --agents hard random")
    try:
        game = load_game(game_name, opt)
        for spec in agents:  # every spec is checked before the progress bar appears
            make_agent(spec, game)
        total = games * len(agents) * (len(agents) - 1) // 2
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=errors, disable=as_json and not errors.is_terminal) as progress:
            task = progress.add_task(f"{game.name} arena", total=total)
            result = tournament.run(game.name, agents, games, seed=seed, opening=opening,
                                    options=dict(game.options), workers=workers,
                                    progress=lambda _: progress.advance(task))
    except DamierError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
        return
    from rich.table import Table  # here: the commands that do not print a table start sooner

    table = Table(title=f"{game.title} arena: {total} games")
    for column in ("agent", "games", "W", "D", "L", "score", "Elo", "95% interval"):
        table.add_column(column)
    ratings = {r.name: r for r in result.ratings}
    for s in sorted(result.standings, key=lambda s: -ratings[s.name].elo):
        r = ratings[s.name]
        table.add_row(Text(s.name), str(s.games), str(s.wins), str(s.draws), str(s.losses), f"{s.score:.1%}",
                      f"{r.elo:.0f}", f"{r.low:.0f} .. {r.high:.0f}")
    console.print(table)
    for pair, wdl in result.pairs.items():
        first, second = (result.by_first_mover[pair][order] for order in ("first", "second"))
        console.print(Text(f"  {pair}: {wdl['wins']} W, {wdl['draws']} D, {wdl['losses']} L (moving first "
                           f"{wdl_text(first)}, second {wdl_text(second)})"), soft_wrap=True)
    endings = ", ".join(f"{count} {termination}" for termination, count in result.terminations().items())
    console.print(Text(f"  games ended by: {endings}"), soft_wrap=True)
    for number, played in enumerate(result.games, start=1):
        if played["forfeit"]:
            console.print(Text(f"  game {number} forfeited by {played['forfeit']['agent']}: {played['reason']}"),
                          soft_wrap=True)
        if played["resignation"]:
            resigned = played["resignation"]
            console.print(Text(f"  game {number} resigned by {resigned['agent']} ({resigned['reason']}): "
                               f"{played['reason']}"), soft_wrap=True)
    played_by = {s.name: s.games for s in result.standings}
    for entry in result.untold():
        console.print(Text(f"  {entry['agent']} was not told {rules_text(entry['rules'])} in {entry['games']} of "
                           f"its {played_by[entry['agent']]} games: it refused setoption and played by its own "
                           f"rules (rules in force: {rules_text(result.options)})"), soft_wrap=True)


def wdl_text(wdl: dict[str, int]) -> str:
    """``97-1-2``: wins, draws and losses."""
    return f"{wdl['wins']}-{wdl['draws']}-{wdl['losses']}"


def rules_text(rules: dict[str, Any]) -> str:
    """``strict_swap_reserved=false, quiet_ply_limit=100``: options as ``setoption`` writes their values."""
    from damier.protocol.searchers import option_text

    return ", ".join(f"{name}={option_text(value)}" for name, value in rules.items())


# ----- bench -------------------------------------------------------------------------------------------
@app.command()
def bench(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    seconds: Annotated[float, typer.Option(min=0.1, help="Seconds to measure each way.")] = 3.0,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Complete random playouts per second through the kernel, and with the JIT disabled, side by side."""
    try:
        game = load_game(game_name, opt)
    except DamierError as exc:
        raise fail(str(exc)) from None
    jit = measure_playouts(game, seconds)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    command = [sys.executable, "-m", "damier", "_bench-once", game.name, "--seconds", str(seconds)]
    for key, value in game.options.items():
        command += ["--opt", f"{key}={value}"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise fail(f"the no-JIT measurement failed: {done.stderr.strip().splitlines()[-1:]}")
    nojit = float(done.stdout.strip())
    report = {"game": game.name, "options": dict(game.options), "playouts_per_s": round(jit, 1),
              "nojit_playouts_per_s": round(nojit, 2), "ratio": round(jit / nojit, 1) if nojit else None}
    if as_json:
        print(json.dumps(report))
        return
    console.print(f"{game.title} {dict(game.options)}: complete random games per second, one core")
    console.print(f"  numba kernel : {jit:12,.1f}")
    console.print(f"  JIT disabled : {nojit:12,.2f}")
    console.print(f"  ratio        : {report['ratio']}x")


def measure_playouts(game: Any, seconds: float) -> float:
    """Random games per second from the start position, measured for about ``seconds``."""
    state = game.new_state(0)
    game.random_playouts(state, 1, 0)  # compile (or load the cache) before timing
    count, batch, seed = 0, 1, 1
    started = time.perf_counter()
    while True:
        game.random_playouts(state, batch, seed)
        count += batch
        seed += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return count / elapsed
        batch = max(1, min(batch * 2, int(count / elapsed * (seconds - elapsed)) + 1))


@app.command("_bench-once", hidden=True)
def bench_once(game_name: str, seconds: float = 3.0, opt: OptArg = None) -> None:
    """Print the playouts per second of this process (used by ``bench`` with the JIT disabled)."""
    print(measure_playouts(load_game(game_name, opt), seconds))
