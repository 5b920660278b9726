"""The ``damier`` command: a thin layer over the API (games, play, arena, bench, record).

Human text by default, ``--json`` for machines. Bad input prints one line saying what is wrong and what
is accepted, and exits with code 2; no traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from damier.core import registry
from damier.core.errors import DamierError
from damier.core.options import parse_option_pairs

app = typer.Typer(
    help="damier: play, solve and study grid games of lasers, robots and explosions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
record_app = typer.Typer(help="Game records: show a record file.", no_args_is_help=True)
app.add_typer(record_app, name="record")

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

OptArg = Annotated[list[str] | None, typer.Option("--opt", "-o", help="Game option key=value (repeatable).")]
JsonArg = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def fail(message: str) -> typer.Exit:
    print_error(message)
    return typer.Exit(code=2)


def print_error(message: str) -> None:
    """One line on stderr: user text is never read as markup and never wrapped."""
    errors.print(Text.assemble(("error:", "bold red"), " ", message), soft_wrap=True)


def load_game(name: str, opts: list[str] | None) -> Any:
    from damier.core.registry import load

    return load(name, **parse_option_pairs(opts or []))


# ----- games -------------------------------------------------------------------------------------------
@app.command()
def games(as_json: JsonArg = False) -> None:
    """List the games with their options, defaults and accepted values."""
    infos = registry.all_infos()
    if as_json:
        print(json.dumps([info.to_json() for info in infos], indent=2))
        return
    for info in infos:
        console.print(f"[bold]{info.name}[/]  {info.title}  ({info.players} players)")
        console.print(f"  {info.description}")
        for option in info.options.options:
            console.print(f"  --opt {option.name}=...  default {option.default!r}; {option.accepted()}. {option.help}")
        levels = ", ".join(info.levels) or "easy, medium, hard"
        named = ", ".join(info.agents)
        console.print(f"  computer levels: {levels}" + (f"; named agents: {named}" if named else ""))


# ----- play --------------------------------------------------------------------------------------------
def split_specs(text: str) -> list[str]:
    """Split ``human,hard,mcts:time=1.0,c=0.5`` into seats; a ``key=value`` piece continues the spec before it,
    and so does any piece inside the parentheses of ``ext(time=0.5,margin=2):COMMAND``.

    >>> split_specs("human,mcts:time=1.0,c=0.5,hard")
    ['human', 'mcts:time=1.0,c=0.5', 'hard']
    >>> split_specs("ext(time=0.5,margin=2):./engine --fast,human")
    ['ext(time=0.5,margin=2):./engine --fast', 'human']
    """
    seats: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        unclosed = bool(seats) and seats[-1].count("(") > seats[-1].count(")")
        if seats and (unclosed or ("=" in piece and ":" not in piece)):
            seats[-1] += "," + piece
        elif piece:
            seats.append(piece)
    return seats


def play_help(state: Any) -> str:
    """The command summary of ``play``, with a move of this game as the example."""
    moves = state.legal_moves()
    example = f" (e.g. {state.move_to_str(moves[len(moves) // 2])})" if moves else ""
    return f"Commands: a move in notation{example} | moves | undo | hint | save FILE | resign | help"


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name (see `damier games`).")],
    opt: OptArg = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help="One seat per player, comma separated: human or an agent spec (random, easy, "
        "medium, hard, mcts:time=1.0, ext:COMMAND, ...). Default: human against hard.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance events and computer players.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record to this file when the game ends.")] = None,
) -> None:
    """Play in the terminal: any mix of human and computer seats (ext:COMMAND seats an external engine)."""
    from damier.ai.base import close_agent
    from damier.ai.spec import make_agent

    try:
        game = load_game(game_name, opt)
        seats = split_specs(players) if players else ["human"] + ["hard"] * (game.num_players - 1)
        if len(seats) != game.num_players:
            raise fail(f"--players lists {len(seats)} seats; {game.name} with these options has "
                       f"{game.num_players} players ({', '.join(game.player_names)})")
        agents = {i: make_agent(spec, game, seed=None if seed is None else seed + i)
                  for i, spec in enumerate(seats) if spec.lower() != "human"}
    except DamierError as exc:
        raise fail(str(exc)) from None
    try:
        play_game(game, seats, agents, seed, save)
    finally:
        for agent in agents.values():
            close_agent(agent)


def play_game(game: Any, seats: list[str], agents: dict[int, Any], seed: int | None, save: Path | None) -> None:
    """The terminal game of ``play`` (seat ``i`` is ``agents[i]``, or a person when it has no agent)."""
    from damier.ai.base import AgentFailure
    from damier.ai.spec import make_agent
    from damier.core.record import Record, now_iso

    state = game.new_state(seed)
    started = now_iso()
    names = [f"{game.player_names[i]} ({seats[i]})" for i in range(game.num_players)]
    console.print(f"[bold]{game.title}[/]: " + " vs ".join(names) + f". {play_help(state)}")
    show_board(state)
    rng_seed = seed
    import random

    chance_rng = random.Random(rng_seed)
    while not state.is_over():
        from damier.core.game import CHANCE

        if state.player == CHANCE:
            move = state.sample_chance(chance_rng)
            console.print(f"Chance: {state.move_to_str(move)}")
            state.play(move)
            show_board(state)
            continue
        me = state.player
        if me in agents:
            try:
                with console.status(f"{names[me]} is thinking..."):
                    move = agents[me].choose(state)
            except AgentFailure as failure:
                console.print(Text(f"Game over: {game.player_names[me]}'s {failure.reason}; "
                                   f"{game.player_names[me]} loses by forfeit.", style="bold"), soft_wrap=True)
                if save:
                    save_record(Record.from_state(state, players=names, started_at=started), save)
                return
            console.print(f"{names[me]} plays [bold]{state.move_to_str(move)}[/]")
            state.play(move)
            describe_events(state)
            show_board(state)
            continue
        try:
            line = console.input(f"{names[me]} to move> ").strip()
        except EOFError:
            console.print("\nInput closed: the game is left unfinished.")
            return
        if not line:
            continue
        command, _, argument = line.partition(" ")
        command = command.lower()
        if command in ("help", "?"):
            console.print(play_help(state))
        elif command == "moves":
            console.print("Legal moves: " + " ".join(state.move_to_str(m) for m in state.legal_moves()))
        elif command == "undo":
            undo_to_human(state, agents)
            show_board(state)
        elif command == "hint":
            hint_agent = make_agent("hard", game)
            with console.status("Thinking of a hint..."):
                move = hint_agent.choose(state)
            console.print(f"Hint: {state.move_to_str(move)}")
        elif command == "save":
            if not argument:
                console.print("save needs a file name: save game.json")
                continue
            Record.from_state(state, players=names, started_at=started).save(argument)
            console.print(Text(f"Saved to {argument}"))
        elif command in ("resign", "quit"):
            console.print(f"{names[me]} resigns; the game is over.")
            if save:
                save_record(Record.from_state(state, players=names, started_at=started), save)
            return
        else:
            try:
                move = state.parse_move(line)
            except DamierError as exc:
                console.print(Text(f"{exc}. Type 'moves' for the legal moves, 'help' for commands.", style="red"),
                              soft_wrap=True)
                continue
            state.play(move)
            describe_events(state)
            show_board(state)
    outcome = state.outcome()
    assert outcome is not None
    console.print(f"[bold]Game over:[/] {outcome.reason}.")
    if save:
        save_record(Record.from_state(state, players=names, started_at=started), save)


def save_record(record: Any, path: Path) -> None:
    try:
        record.save(path)
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc}") from None
    console.print(Text(f"Record saved to {path}"))


def show_board(state: Any) -> None:
    text = Text()
    for segment, style in state.render_styled():
        text.append(segment, style=style)
    console.print(text)


def describe_events(state: Any) -> None:
    """A short line for what the last move did (explosions, eliminations; a laser shot and its result)."""
    if state.game.name == "khet":
        describe_laser_events(state)
        return
    waves = [e for e in state.events() if e["type"] == "wave"]
    if waves:
        exploded = sum(len(w["squares"]) for w in waves)
        console.print(f"  {exploded} explosion(s) in {len(waves)} wave(s)")
    for event in state.events():
        if event["type"] == "eliminate":
            console.print(f"  {state.game.player_names[event['player']]} is eliminated")


def describe_laser_events(state: Any) -> None:
    """``Silver's laser: j1 -> j4 -> h4 -> h5 -> j5 -> j8: leaves the board`` (where it starts, turns and ends),
    then who won or why it is a draw."""
    names = state.game.player_names
    for event in state.events():
        kind = event["type"]
        if kind == "laser":
            path = [event["from"], *event["turns"]]
            if event["squares"] and event["squares"][-1] != path[-1]:
                path.append(event["squares"][-1])
            if event["stop"] == "removed":
                hit = event["removed"]
                end = f"removes {names[hit['colour']]}'s {hit['kind'].capitalize()} on {hit['square']}"
            elif event["stop"] == "absorbed":
                end = f"absorbed on {event['at']}"
            else:
                end = "leaves the board"
            console.print(Text(f"  {names[event['player']]}'s laser: {' -> '.join(path)}: {end}"), soft_wrap=True)
        elif kind == "win":
            console.print(Text(f"  {names[event['player']]} wins"))
        elif kind == "draw":
            console.print(Text(f"  Draw: {event['reason']}"), soft_wrap=True)


def undo_to_human(state: Any, agents: dict[int, Any]) -> None:
    """Take back the last human move and every computer move after it."""
    if not state.history:
        console.print("Nothing to undo.")
        return
    while state.history:
        state.undo()
        if state.player >= 0 and state.player not in agents:
            break


# ----- arena -------------------------------------------------------------------------------------------
@app.command()
def arena(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    agents: Annotated[list[str], typer.Option(
        "--agents", "-a", help="Agent specs: --agents hard random ... (an external engine: 'ext:COMMAND').")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per pair of agents.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the random openings.")] = 0,
    opening: Annotated[int, typer.Option(min=0, help="Random plies at the start of each game.")] = 2,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: one per core).")] = None,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Round robin between agents: seats alternated, seeded random openings, W/D/L and Elo."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from damier.ai.spec import make_agent
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
        console.print(Text(f"  {pair}: {wdl['wins']} W, {wdl['draws']} D, {wdl['losses']} L"), soft_wrap=True)
    for number, played in enumerate(result.games, start=1):
        if played["forfeit"]:
            console.print(Text(f"  game {number} forfeited by {played['forfeit']['agent']}: {played['reason']}"),
                          soft_wrap=True)


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
    command = [sys.executable, "-m", "damier.cli", "_bench-once", game.name, "--seconds", str(seconds)]
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


# ----- engine ------------------------------------------------------------------------------------------
@app.command()
def engine(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="A game with an engine (khet).")],
    opt: OptArg = None,
) -> None:
    """Run the text engine protocol on stdin/stdout: newgame, position, go depth|movetime|infinite, stop,
    setoption, isready, d, quit (see docs/protocol.md)."""
    from damier.protocol.engine import serve
    from damier.protocol.searchers import protocol_game

    try:
        protocol_game(registry.info(game_name).name)
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


# ----- perft -------------------------------------------------------------------------------------------
@app.command()
def perft(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="A game with a perft kernel (khet).")],
    depth: Annotated[int, typer.Option("--depth", "-d", min=1, max=20, help="Plies to count.")],
    setup: Annotated[str | None, typer.Option(help="Start from this setup (classic, imhotep, dynasty).")] = None,
    position: Annotated[str | None, typer.Option(help="Start from this position string.")] = None,
    divide: Annotated[bool, typer.Option("--divide", help="Also count the leaves below each first move.")] = False,
    bulk: Annotated[bool, typer.Option(
        "--bulk", help="Count the last ply's moves without playing them (same count; its shots are not fired).")
    ] = False,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Count the leaf positions exactly DEPTH plies ahead (a rules check and a move generator benchmark)."""
    try:
        name = registry.info(game_name).name
        if name != "khet":
            raise fail(f"perft counts the moves of khet; {name} has no perft kernel")
        if setup is not None and position is not None:
            raise fail("give --setup or --position, not both")
        options = parse_option_pairs(opt or [])
        if setup is not None:
            if options.get("setup", setup) != setup:
                raise fail(f"--setup {setup} and --opt setup={options['setup']} disagree; give the setup once")
            options["setup"] = setup
        game = registry.load(name, **options)
        state = game.new_state() if position is None else game.state_from_position(position)
    except DamierError as exc:
        raise fail(str(exc)) from None
    nodes, seconds, counts = khet_perft(game, state.position(), depth, bulk, status=not as_json)
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
    start = game.options["setup"] if position is None else "the given position"
    how = "bulk: the last ply counted, not played" if bulk else "every leaf played"
    console.print(Text(f"perft {depth} from {start}: {nodes:,} nodes in {seconds:.3f} s, {nps:,.0f} nodes/s "
                       f"({how})"), soft_wrap=True)


def khet_perft(game: Any, position: str, depth: int, bulk: bool, status: bool) -> tuple[int, float, dict[str, int]]:
    """(leaves, seconds, leaves below each first move) of Khet's perft kernel, compiled before it is timed."""
    import numpy as np

    from damier.games.khet import kernel, notation

    s = notation.parse_position(position, game.strict_swap)
    rules = (game.pharaoh_rotation, game.strict_swap, game.quiet_limit)
    moves = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
    count = kernel.generate(s, moves, game.pharaoh_rotation, game.strict_swap)
    divide = np.zeros(kernel.MAX_MOVES, dtype=np.int64)
    kernel.perft(s, 1, bulk, *rules, divide)  # compile (or load the cache) before timing
    with errors.status(f"perft {depth}...") if status and errors.is_terminal else contextlib.nullcontext():
        started = time.perf_counter()
        nodes = int(kernel.perft(s, depth, bulk, *rules, divide))
        seconds = time.perf_counter() - started
    return nodes, seconds, {notation.move_to_str(int(moves[i])): int(divide[i]) for i in range(count)}


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


# ----- record ------------------------------------------------------------------------------------------
@record_app.command("show")
def record_show(
    file: Annotated[Path, typer.Argument(help="A record file written by damier.")],
    as_json: JsonArg = False,
) -> None:
    """Show a record: game, players, result and moves, replayed to its final board."""
    from damier.core.record import Record

    try:
        record = Record.load(file)
        state = record.replay()
    except DamierError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps({"record": record.to_json(), "final_position": state.position()}, indent=2))
        return
    console.print(Text(f"{state.game.title} {record.options}", style="bold"))
    console.print(Text("Players: " + " vs ".join(record.players)))
    console.print(Text(f"Started {record.started_at}"
                       + (f", finished {record.finished_at}" if record.finished_at else "")))
    moves = record.moves
    console.print(Text(f"Moves ({len(moves)}): " + " ".join(f"{i + 1}.{m}" for i, m in enumerate(moves))))
    show_board(state)
    outcome = state.outcome()
    console.print(Text(f"Result: {outcome.reason}" if outcome else "Result: unfinished"))


@app.callback(invoke_without_command=True)
def main_options(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        from damier import __version__

        print(f"damier {__version__}")
        raise typer.Exit()


def expand_multi_value_options(argv: list[str], options: tuple[str, ...] = ("--agents", "-a")) -> list[str]:
    """Let ``--agents a b c`` mean ``--agents a --agents b --agents c`` (click options take one value).

    >>> expand_multi_value_options(["arena", "atoms", "--agents", "hard", "random", "--games", "4"])
    ['arena', 'atoms', '--agents', 'hard', '--agents', 'random', '--games', '4']
    """
    out: list[str] = []
    current: str | None = None
    for arg in argv:
        if arg in options:
            current = arg
            out.append(arg)
            continue
        if current is not None and not arg.startswith("-") and out[-1] != current:
            out += [current, arg]
            continue
        if arg.startswith("-"):
            current = None
        out.append(arg)
    return out


def main() -> None:
    try:
        app(args=expand_multi_value_options(sys.argv[1:]), prog_name="damier")
    except DamierError as exc:
        print_error(str(exc))
        sys.exit(2)


if __name__ == "__main__":
    main()
