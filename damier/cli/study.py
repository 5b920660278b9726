"""``damier engine`` (the text engine protocol), ``damier perft`` (leaf counts) and ``damier serve`` (the arcade).

Each works for every game that declares what it needs (an engine; perft works for every game, through the
kernel's perft when the game declares one).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from damier.cli.common import JsonArg, OptArg, app, console, errors, fail, load_game
from damier.core import registry
from damier.core.errors import DamierError
from damier.core.options import parse_option_pairs

if TYPE_CHECKING:
    from rich.status import Status


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
    secret_file: Annotated[str | None, typer.Option(
        help="The seat tokens' key file, made with mode 0600 if missing (default: beside a SQLite database, "
             "<database>.key; else secret.key in your data folder). The environment variable DAMIER_SECRET "
             "(64+ hex digits) overrides it: several servers on one database must share one secret.")] = None,
    limits: Annotated[str, typer.Option(
        help="What one client address may ask: new games a minute, games with a computer seat at once, hints and "
             "analyses at once (past them: 429), e.g. new_games=30,computer_games=4,hints=2.")] = "",
    compilers: Annotated[int | None, typer.Option(
        min=0, help="Processes that compile the games' kernels in the background at the start, once, into numba's "
                    "cache (default: one per worker; 0: none, each worker compiles what it needs).")] = None,
    connections: Annotated[str, typer.Option(
        help="Bounds on connections (see docs/server.md), any of: header_seconds=10 (a request's headers must "
             "be whole this long after the connection or the last answer, else it is closed), stall_seconds=30 "
             "(an answer left unread this long: the connection is cut), connections=4096 and sockets=3072 (at "
             "once in all; fewer if the open-file limit allows fewer), address_connections=64 and "
             "address_sockets=32 (at once per client address; past a cap: 503, or a WebSocket closed with "
             "1013), address_pings=4 and address_messages=60 (WebSocket pings and messages a second from one "
             "client address's sockets, ten and three times as many at once; past it the socket is closed with "
             "1008).")] = "",
    forwarded_allow_ips: Annotated[str, typer.Option(
        help="Reverse proxies whose X-Forwarded-For header is believed: addresses or networks, comma-separated "
             "(e.g. 127.0.0.1 for a proxy on this machine), or * for any peer. Behind a proxy, give its address, "
             "so that the per-client limits count the client it forwards. Default: none (the header is "
             "ignored; each client is the address of its connection).")] = "",
) -> None:
    """Start the browser arcade: play every game against the computer or online, watch, replay.

    From an empty numba cache (a fresh install) the games' kernels compile in the background for a minute or two,
    with a progress line here; pages answer at once meanwhile, and a computer asked to move waits for its game's
    kernels."""
    from damier.server import log_repeats, sockets
    from damier.server.app import create_app, open_secret
    from damier.server.connections import (
        Capacity,
        ConnectionLimits,
        ConnectionTable,
        Proxies,
        raise_open_file_limit,
        workers_default,
    )
    from damier.server.limits import Limits
    from damier.server.protocols import ArcadeConfig, ArcadeServer
    from damier.server.storage import Storage, StorageError, default_url, safe_url

    try:
        client_limits = Limits.parse(limits)
    except ValueError as exc:
        raise fail(f"--limits: {exc}") from None
    try:
        bounds = ConnectionLimits.parse(connections)
    except ValueError as exc:
        raise fail(f"--connections: {exc}") from None
    try:
        proxies = Proxies(forwarded_allow_ips)
    except ValueError as exc:
        raise fail(f"--forwarded-allow-ips: {exc}") from None
    try:  # as many open files as the system allows this process, less a reserve for its own
        capacity = Capacity.of(raise_open_file_limit(), workers_default(workers), bounds)
    except ValueError as exc:
        raise fail(str(exc)) from None
    listening = listen(host, port)  # first: a port in use is one clear error, and no database is made
    url = db or default_url()
    try:  # open and migrate now, and read the secret, so a bad --db or key fails with one clear line
        storage = Storage(url, alone=True)
        try:
            open_secret(storage, secret_file)
        finally:
            storage.close()
    except StorageError as exc:
        raise fail(str(exc)) from None
    console.print(Text(f"damier arcade on http://{host}:{port}/  (database: {safe_url(url)})"))
    if capacity.connections < bounds.connections:
        console.print(Text(f"at most {capacity.connections} connections at once: the open-file limit is "
                           f"{capacity.open_files} (raise it for more: ulimit -n)"))
    table = ConnectionTable(capacity, bounds, proxies)
    progress = CompilingLine()
    config = ArcadeConfig(create_app(url, workers, secret_file, client_limits, compilers=compilers,
                                     compiling=progress), table, log_level="warning",
                          ws_max_size=sockets.MAX_WS_MESSAGE)
    repeats = log_repeats.install()  # after uvicorn's configuration, which sets its loggers up
    try:
        ArcadeServer(config, repeats).run(sockets=[listening])
    except KeyboardInterrupt:  # uvicorn stopped cleanly on Ctrl-C, then raises it again: say so, exit 130
        progress.stop()
        console.print("damier arcade stopped")
        raise typer.Exit(code=130) from None
    progress.stop()
    console.print("damier arcade stopped")


class CompilingLine:
    """The terminal's word on compiling the games' kernels (``damier.server.compiler``'s reports): in a terminal,
    one line updated in place while it runs; in a log file, one line once something is being compiled; in both, a
    line when it is done. Nothing once every kernel just loaded from numba's cache."""

    def __init__(self) -> None:
        self.status: Status | None = None
        self.said = False

    def __call__(self, report: dict[str, Any]) -> None:
        if report["ready"]:
            self.stop()
            if report["compiled"]:
                console.print(Text(f"the games' kernels are compiled ({report['seconds']:.0f} s)"))
            return
        under_way = f" ({', '.join(report['compiling'])})" if report["compiling"] else ""
        line = Text(f"compiling the games' kernels: {report['done']} of {report['total']}{under_way}")
        if console.is_terminal:
            if self.status is None:
                self.status = console.status(line)
                self.status.start()
            else:
                self.status.update(line)
        elif report["compiled"] and not self.said:
            console.print(Text("compiling the games' kernels in the background, once (a minute or two)"))
            self.said = True

    def stop(self) -> None:
        if self.status is not None:
            self.status.stop()
            self.status = None


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for the arcade (uvicorn listens on it), or one line saying why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise fail(f"--host {host!r} is not an address of this machine ({exc.strerror})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise fail(f"port {port} on {host} is in use (another server?); choose another with --port") from None
        raise fail(f"cannot listen on {host}:{port} ({exc.strerror})") from None
    sock.set_inheritable(True)
    return sock


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def solve(
    ctx: typer.Context,
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="A puzzle game with a solver (see `damier games`).")],
    puzzle: Annotated[str | None, typer.Option("--puzzle", "-p", help="The puzzle: its id, a position, or its JSON "
                                                                      "form.")] = None,
    batch: Annotated[str | None, typer.Option(
        "--batch", metavar="FILE", help="Solve every puzzle of FILE (- for stdin): one JSON puzzle per line, its "
                                        "'id' field echoed; one JSON answer per line.")] = None,
    exact: Annotated[int | None, typer.Option("--exact", min=0, max=64,
                                              help="Also find a line of exactly K moves.")] = None,
    all_paths: Annotated[bool, typer.Option("--all", help="Also list every optimal line.")] = False,
    opt: OptArg = None,
    as_json: JsonArg = False,
) -> None:
    """Solve a puzzle optimally: the fewest moves and one optimal line (with the game's analysis: how many optimal
    lines, a line of exactly K moves, all of them).

    Game options: --opt KEY=VALUE, or --KEY VALUE for any option of the game.
    For instance Ricochet Robots' --ricochet strict is --opt ricochet=strict.
    A puzzle whose id or JSON form carries its rules sets them.

    --batch FILE: one puzzle per line, in the JSON form or a JSON string (a puzzle id).
    An 'id' field is taken off the puzzle and echoed in its answer.
    Each answer is one line of JSON; {"id": ..., "error": ...} for a puzzle that cannot be read or solved.
    The exit code is 1 when a line failed."""
    try:
        info = registry.require(game_name, "solver")
        options = parse_option_pairs(opt or [])
        options.update(_option_flags(ctx.args, info.options.defaults(), info.name))
        if (puzzle is None) == (batch is None):
            raise fail("give --puzzle or --batch (one of them)")
        if (exact is not None or all_paths) and not info.has("analyse"):
            raise fail(registry.missing_message(info.name, "analyse") + " (--exact and --all need one)")
        if batch is not None:
            failed = _solve_batch(info, batch, options, exact, all_paths)
            if failed:
                raise typer.Exit(code=1)
            return
        assert puzzle is not None
        report = _answer(info, puzzle, options, exact, all_paths)
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


def _option_flags(args: list[str], known: dict[str, Any], game: str) -> dict[str, str]:
    """Game options given as ``--NAME VALUE`` or ``--NAME=VALUE`` (the words Typer did not know).

    >>> _option_flags(["--size", "9", "--depth=6"], {"size": 8, "depth": 3}, "this game")
    {'size': '9', 'depth': '6'}
    """
    out: dict[str, str] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        name, sep, value = word[2:].partition("=") if word.startswith("--") else ("", "", "")
        name = name.replace("-", "_")
        if name not in known:
            accepted = ", ".join(f"--{n}" for n in known) or "none"
            raise fail(f"{word!r} is not an option of this command nor of {game} (its options: {accepted})")
        if not sep:
            if not words or words[0].startswith("--"):
                raise fail(f"--{name} needs a value (e.g. --{name} {known[name]})")
            value = words.pop(0)
        out[name] = value
    return out


def _answer(info: registry.GameInfo, text: str, options: dict[str, Any], exact: int | None,
            all_paths: bool) -> dict[str, Any]:
    """The solver's report on one puzzle (the game's analysis when it has one)."""
    if info.has("puzzle"):
        state = info.hook("puzzle")(text, options)
    else:
        state = registry.load(info.name, **options).state_from_position(text)
    started = time.perf_counter()
    if info.has("analyse"):
        report: dict[str, Any] = info.hook("analyse")(state, exact=exact, all_paths=all_paths)
    else:
        solution = info.hook("solver")(state, None, None)
        report = {"length": solution.cost if solution.found else None,
                  "moves": [state.move_to_str(m) for m in solution.moves] if solution.found else None,
                  "nodes": solution.nodes}
    report.setdefault("seconds", round(time.perf_counter() - started, 6))
    return report


def _solve_batch(info: registry.GameInfo, path: str, options: dict[str, Any], exact: int | None,
                 all_paths: bool) -> int:
    """Answer every line of ``path`` (``-``: stdin) on stdout, one JSON line each; how many lines failed."""
    try:
        source = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise fail(f"--batch: cannot read {path}: {exc.strerror}") from None
    failed = 0
    with source if path != "-" else contextlib.nullcontext(source):
        for number, line in enumerate(source, start=1):
            if not line.strip():
                continue
            answer: dict[str, Any] = {}
            try:
                obj = json.loads(line)
                if isinstance(obj, dict) and "id" in obj:
                    answer["id"] = obj.pop("id")
                if isinstance(obj, dict):
                    text = json.dumps(obj)
                elif isinstance(obj, str):
                    text = obj  # a puzzle id, as a JSON string
                else:
                    raise DamierError(f"line {number} is neither a JSON puzzle (an object) nor an id (a string)")
                answer.update(_answer(info, text, options, exact, all_paths))
            except json.JSONDecodeError as exc:
                answer.update(line=number, error=f"line {number} is not JSON ({exc.msg}, column {exc.colno})")
                failed += 1
            except DamierError as exc:
                answer.update(line=number, error=str(exc))
                failed += 1
            print(json.dumps(answer), flush=True)
    return failed


def plural(count: int, noun: str) -> str:
    """``1 move``, ``3 moves``.

    >>> plural(1, "move"), plural(0, "move")
    ('1 move', '0 moves')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"
