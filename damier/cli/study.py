"""``damier engine`` (the text engine protocol), ``damier perft`` (leaf counts) and ``damier serve`` (the arcade).

Each works for every game that declares what it needs (an engine; perft works for every game, through the
kernel's perft when the game declares one).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Annotated, Any

import typer
from rich.text import Text

from damier.cli.common import JsonArg, OptArg, app, console, errors, fail, load_game
from damier.core import registry
from damier.core.errors import DamierError
from damier.core.options import parse_option_pairs


@app.command()
def engine(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="A game with an engine (see `damier games`).")],
    opt: OptArg = None,
) -> None:
    """Run the text engine protocol on stdin/stdout: newgame, position, go depth|movetime|infinite, stop,
    setoption, isready, d, quit (see docs/protocol.md)."""
    from damier.protocol.engine import serve

    try:
        registry.require(game_name, "engine")
        game = load_game(game_name, opt)
    except DamierError as exc:
        raise fail(str(exc)) from None
    try:
        serve(game, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        raise typer.Exit(code=130) from None
    finally:
        try:
            sys.stdout.flush()
        except OSError:  # the client went away: nothing more to say, and no complaint at exit either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@app.command()
def perft(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name (see `damier games`).")],
    depth: Annotated[int, typer.Option("--depth", "-d", min=1, max=20, help="Plies to count.")],
    setup: Annotated[str | None, typer.Option(help="Start from this setup (the game's setup option).")] = None,
    position: Annotated[str | None, typer.Option(help="Start from this position string.")] = None,
    divide: Annotated[bool, typer.Option("--divide", help="Also count the leaves below each first move.")] = False,
    bulk: Annotated[bool, typer.Option(
        "--bulk", help="Count the last ply's moves without playing them (same count; fewer rules run).")
    ] = False,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Count the leaf positions exactly DEPTH plies ahead (a rules check and a move generator benchmark).

    Every game has it; a game whose kernel counts faster declares its own perft, used here."""
    from damier.core import perft as counting

    try:
        info = registry.info(game_name)
        if setup is not None and position is not None:
            raise fail("give --setup or --position, not both")
        options = parse_option_pairs(opt or [])
        if setup is not None:
            if "setup" not in info.options.defaults():
                accepted = ", ".join(info.options.defaults()) or "none"
                raise fail(f"--setup: {info.name} has no setup option (its options: {accepted})")
            if options.get("setup", setup) != setup:
                raise fail(f"--setup {setup} and --opt setup={options['setup']} disagree; give the setup once")
            options["setup"] = setup
        game = registry.load(info.name, **options)
        state = game.start_state(position)
        counting.count(state, 1, bulk)  # compile (or load the cache) before timing
        with errors.status(f"perft {depth}...") if not as_json and errors.is_terminal else contextlib.nullcontext():
            started = time.perf_counter()
            counts = counting.count(state, depth, bulk)
            seconds = time.perf_counter() - started
    except DamierError as exc:
        raise fail(str(exc)) from None
    nodes = sum(counts.values())
    nps = nodes / seconds if seconds > 0 else 0.0
    if as_json:
        report: dict[str, Any] = {"nodes": nodes, "seconds": round(seconds, 6), "nps": round(nps)}
        if divide:
            report["divide"] = counts
        print(json.dumps(report))
        return
    if divide:
        for move, count in counts.items():
            console.print(Text(f"{move}: {count}"))
    start = "the given position" if position is not None else game.options.get("setup", "the start")
    how = "bulk: the last ply counted, not played" if bulk else "every leaf played"
    console.print(Text(f"perft {depth} from {start}: {nodes:,} nodes in {seconds:.3f} s, {nps:,.0f} nodes/s "
                       f"({how})"), soft_wrap=True)


# ----- serve -------------------------------------------------------------------------------------------
@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to bind (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[str | None, typer.Option(help="SQLAlchemy URL (default: SQLite in your data folder).")] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="Processes for computer moves (default: cores).")] = None,
) -> None:
    """Start the browser arcade: play every game against the computer or online, watch, replay."""
    import uvicorn

    from damier.server.app import MAX_WS_MESSAGE, create_app
    from damier.server.storage import Storage, StorageError, default_url, safe_url

    url = db or default_url()
    try:
        Storage(url).close()  # open and migrate now, so a bad --db fails with one clear line
    except StorageError as exc:
        raise fail(str(exc)) from None
    console.print(Text(f"damier arcade on http://{host}:{port}/  (database: {safe_url(url)})"))
    uvicorn.run(create_app(url, workers), host=host, port=port, log_level="warning", ws_max_size=MAX_WS_MESSAGE)


@app.command()
def solve(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="A puzzle game with a solver (see `damier games`).")],
    puzzle: Annotated[str, typer.Option("--puzzle", "-p", help="The puzzle: its id, a position, or its JSON form.")],
    exact: Annotated[int | None, typer.Option("--exact", min=0, max=64,
                                              help="Also find a line of exactly K moves.")] = None,
    all_paths: Annotated[bool, typer.Option("--all", help="Also list every optimal line.")] = False,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Solve a puzzle optimally: the fewest moves and one optimal line (with the game's analysis: how many optimal
    lines, a line of exactly K moves, all of them)."""
    try:
        info = registry.require(game_name, "solver")
        options = parse_option_pairs(opt or [])
        if info.has("puzzle"):
            state = info.hook("puzzle")(puzzle, options)
        else:
            state = registry.load(info.name, **options).state_from_position(puzzle)
        if (exact is not None or all_paths) and not info.has("analyse"):
            raise fail(registry.missing_message(info.name, "analyse") + " (--exact and --all need one)")
        started = time.perf_counter()
        if info.has("analyse"):
            report = info.hook("analyse")(state, exact=exact, all_paths=all_paths)
        else:
            solution = info.hook("solver")(state, None, None)
            report = {"length": solution.cost if solution.found else None,
                      "moves": [state.move_to_str(m) for m in solution.moves] if solution.found else None,
                      "nodes": solution.nodes}
        report.setdefault("seconds", round(time.perf_counter() - started, 6))
    except DamierError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps(report))
        return
    if report["length"] is None:
        console.print("No solution: the target cannot be reached.")
    else:
        count = ""
        if "count" in report:
            count = f" ({report['count']:,} optimal line{'s' if report['count'] != 1 else ''})"
        console.print(Text(f"{plural(report['length'], 'move')}{count}: {' '.join(report['moves'])}"),
                      soft_wrap=True)
    if "exact" in report:
        line = report["exact"]["moves"]
        k = report["exact"]["k"]
        console.print(Text(f"exactly {plural(k, 'move')}: {' '.join(line)}" if line is not None else
                           f"no line of exactly {plural(k, 'move')}"), soft_wrap=True)
    for number, line in enumerate(report.get("all", []), start=1):
        console.print(Text(f"  {number}. {' '.join(line)}"), soft_wrap=True)


def plural(count: int, noun: str) -> str:
    """``1 move``, ``3 moves``.

    >>> plural(1, "move"), plural(0, "move")
    ('1 move', '0 moves')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"
