"""The arcade's HTTP and WebSocket API (FastAPI) and the static web client.

Errors are JSON ``{"error": message, "status": code}``; request bodies are limited in size and validated. The
rooms (``damier.server.rooms``) raise typed errors without statuses; ``STATUS`` gives each kind its status.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy.exc import InternalError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from damier import __version__
from damier.ai.analysis import kind as analysis_kind
from damier.core import registry
from damier.core.errors import DamierError
from damier.server import admission, analysis, api_docs, game_graphs, rendering, secret, sockets
from damier.server.compiler import Compiler
from damier.server.computer import ComputerPool
from damier.server.descriptions import Descriptions
from damier.server.gate import Gate
from damier.server.guards import BodyGuard, SecurityHeaders
from damier.server.heavy import HeavyReads
from damier.server.identity import IdentityError, address_group
from damier.server.limits import ClientLimits, Limits
from damier.server.lobby import Lobby
from damier.server.loop_watch import LoopWatch
from damier.server.players import Players
from damier.server.rooms import (
    Arcade,
    Conflict,
    Forbidden,
    GameRoom,
    Invalid,
    NotFound,
    NotYourSeat,
    RaceRoom,
    RoomError,
    TooMany,
    Unavailable,
    Watcher,
    clocks,
    commands,
    creation,
    idle,
    presence,
    puzzles,
    race_commands,
    race_timers,
    race_views,
    setups,
    turns,
    views,
)
from damier.server.rooms.race_log import MAX_CLAIM
from damier.server.routes import lobby as lobby_routes
from damier.server.routes import players as players_routes
from damier.server.storage import Storage

log = logging.getLogger("damier.server")

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 64 * 1024
#: the error of a JSON body nested deeper than Python's reader goes
TOO_DEEP = "the JSON body is nested too deeply"
#: seconds a request body has to arrive whole (a slow upload is answered 408 and its connection closed)
BODY_SECONDS = 10.0
MAX_POSITION = 2000
#: the longest line of moves a position check plays (a solution or a hint's line), and a move's longest text
MAX_LINE = 200
MAX_MOVE_TEXT = 40

OptionValue = int | bool | str
#: the secret of a seat, sent by its player in the X-Seat-Token header (a long or foreign one is simply not valid)
SeatToken = Annotated[str | None, Header(max_length=4096)]


#: the HTTP status of each kind of room error (and of the WebSocket's error messages)
STATUS: dict[type[RoomError], int] = {NotFound: 404, NotYourSeat: 403, Forbidden: 403, Conflict: 409, Invalid: 422,
                                      Unavailable: 503, TooMany: 429}


def status_of(error: RoomError) -> int:
    """The status of a room error: that of its kind (or of the nearest kind it derives from)."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 500


def seat_view(arcade: Arcade, room: GameRoom, token: str | None) -> dict[str, Any]:
    """The game's view, with ``you`` set to the seat of ``token`` (or None for a watcher, who gets no move
    previews)."""
    seat = arcade.seat_of(room, token)
    return views.view(room, seat, spectator=seat is None)


def race_view(arcade: Arcade, room: RaceRoom, token: str | None) -> dict[str, Any]:
    """The race's view, with ``you`` set to the seat of ``token`` (None for a watcher)."""
    return race_views.view(room, arcade.keys.seat_of(room.id, room.seats(), token))


class SeatSpec(BaseModel):
    kind: Literal["human", "computer"]
    level: str | None = Field(default=None, max_length=40)


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    #: the seed of a game with a seeded setup (``GameInfo.seeded_setup``: a board, a puzzle); None: a new one
    seed: int | None = Field(default=None, ge=0, le=creation.MAX_SEED,
                             description=creation.SEED_WORDS)
    #: a position in the game's notation to start from (``state.position()``); None: the game's usual start
    start: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    #: a casual game between people with hints on (its players agree to it by joining); games against the
    #: computer and puzzles have hints anyway
    hints: bool = False
    #: a time control, ``{"minutes": 3, "increment": 2}`` (minutes may be a fraction, 0.05 to 180; increment
    #: whole seconds, 0 to 180); None: no clock. Checked by ``rooms.clocks.parse`` (422 saying what is accepted)
    clock: Any = Field(
        default=None, examples=[{"minutes": 3, "increment": 2}, "5+3"],
        description="a time control: minutes each (0.05 to 180) plus increment seconds a move (0 to 180), as "
                    "{\"minutes\", \"increment\"} or \"3+2\"; null: no clock")


class PositionBody(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the position to check; None: the usual start of the game with these options
    position: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    #: a line of moves from the position (a hint's or a solution's): the answer adds the board after each
    moves: list[Annotated[str, Field(min_length=1, max_length=MAX_MOVE_TEXT)]] | None = Field(
        default=None, max_length=MAX_LINE)
    #: with no position, the seed the usual start is drawn from (a game with a seeded setup); None: the game's own
    seed: int | None = Field(default=None, ge=0, le=creation.MAX_SEED, description=creation.SEED_WORDS)


class AnalysisBoard(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the position (None: the usual start with these options)
    position: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    #: moves played from it first (a game's moves up to the ply shown, chance events included)
    moves: list[Annotated[str, Field(min_length=1, max_length=MAX_MOVE_TEXT)]] = Field(
        default_factory=list, max_length=analysis.MAX_BOARD_MOVES)
    #: then a move tried on the analysis board (the chance events after it are drawn at random)
    move: str | None = Field(default=None, min_length=1, max_length=MAX_MOVE_TEXT)


class AnalysisBody(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    position: str = Field(min_length=1, max_length=MAX_POSITION)


class EditedBoard(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the board a position editor set up, as the game's board view draws it (the pieces, the side to move...)
    board: dict[str, Any]


class MoveBody(BaseModel):
    move: str = Field(min_length=1, max_length=64)
    version: int | None = Field(default=None, ge=0)


class DrawBody(BaseModel):
    action: Literal["offer", "accept", "decline"]


class ClaimGame(BaseModel):
    #: what the player claims of a game the others left: the win, or a draw
    result: Literal["win", "draw"]


class CreatePuzzle(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: a puzzle id, position or JSON form the game reads; None: one drawn by the options and the seed
    puzzle: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    seed: int | None = Field(default=None, ge=0, le=creation.MAX_SEED, description=creation.SEED_WORDS)
    #: the puzzle of the day: True for today's (UTC), or a date YYYY-MM-DD up to today
    daily: bool | str = False


class CreateRace(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the room's settings (round_seconds, demo_seconds, max_players, chips_total, chips_to_win, ...)
    settings: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    #: the host's name (seat 0)
    name: str = Field(min_length=1, max_length=64)


class JoinRace(BaseModel):
    name: str = Field(min_length=1, max_length=64)


class ClaimBody(BaseModel):
    count: int = Field(ge=1, le=MAX_CLAIM)
    #: the round the claim is for (refused with 409 once that round is over)
    round: int | None = Field(default=None, ge=1)


class DemonstrateBody(BaseModel):
    moves: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(min_length=1, max_length=MAX_CLAIM)
    round: int | None = Field(default=None, ge=1)


def address(request: Request) -> str:
    """The client's address group (``identity.address_group``: an IPv6 client by its /64), which the limits count
    by."""
    return address_group(request.client.host if request.client is not None else "unknown")


def players_of(connection: Request | WebSocket) -> Players:
    players: Players = connection.app.state.players
    return players


def open_secret(storage: Storage, secret_file: str | None = None) -> bytes:
    """The token secret for ``storage``'s arcade; one an earlier damier kept in the database moves to the key file
    (its tokens stay valid) and leaves the database."""
    legacy = storage.legacy_secret()
    key = secret.load(storage.url, secret_file, legacy)
    if legacy is not None:
        if legacy != key:
            log.warning("the token secret comes from %s now: seat tokens handed out before are no longer valid",
                        secret.ENV)
        storage.forget_legacy_secret()
    return key


async def start_in_turn(descriptions: Descriptions, pool: ComputerPool, kernels: Compiler,
                        heavy: HeavyReads) -> None:
    """Once the catalog's descriptions are made (or failed: the next request tries again), start the computer's
    workers, compiling the games' kernels and the heavy reads' process: on two cores, starting them all at once
    made the first home page wait for a core. Once the games' rules are loaded here, what the server holds from
    its start (numba's kernels and their types among it) is kept out of the collector's passes."""
    with contextlib.suppress(Exception):
        await descriptions.get()
    pool.start()
    kernels.start()
    heavy.start()
    await kernels.rules_loaded()
    gc.freeze()


def create_app(db_url: str | None = None, workers: int | None = None,
               secret_file: str | None = None, limits: Limits | None = None,
               analysis_seconds: float = analysis.ANALYSIS_SECONDS, compilers: int | None = None,
               compiling: Callable[[dict[str, Any]], None] | None = None,
               graph_seconds: float = game_graphs.GRAPH_SECONDS) -> FastAPI:
    """The arcade application: ``db_url`` is any SQLAlchemy URL (default: SQLite in the user data folder); the
    seat tokens' secret comes from ``DAMIER_SECRET`` or the key file (``damier.server.secret``); ``limits``
    are what one client address may ask (``damier.server.limits``); ``analysis_seconds`` the time an analysis
    searches, ``graph_seconds`` the time the evaluation of every position of a game takes at most; ``compilers``
    the processes that compile the games' kernels at the start (default: one per worker; 0: none, each worker
    compiles what it needs), and ``compiling`` hears how far they are (``damier.server.compiler``)."""
    client_limits = ClientLimits(limits)
    descriptions = Descriptions()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_url, alone=True)
        if storage.is_sqlite:
            storage.forget_turns()  # alone on the file: the leases of an earlier run are this server's to take
        key = open_secret(storage, secret_file)
        pool = ComputerPool(workers)
        pool.admission.utilisation = client_limits.limits.booking / 100  # the workers' share games may book
        kernels = pool.kernels = Compiler(pool.workers if compilers is None else compilers, compiling, pool.prepare)
        # the home page is the first thing asked for: its descriptions first, then the workers and the compiling
        descriptions.start()
        starting = asyncio.create_task(start_in_turn(descriptions, pool, kernels, app.state.heavy))
        arcade = Arcade(storage, pool, key)
        app.state.arcade = arcade
        players = app.state.players = Players(storage, key)
        lobby = app.state.lobby = Lobby(arcade, players)
        await lobby.reload()
        app.state.analyses = analysis.Analyses(pool, client_limits, analysis_seconds)
        app.state.graphs = game_graphs.Graphs(pool, client_limits, graph_seconds)
        resumed = await turns.resume(arcade)
        if resumed:
            log.info("resumed %d computer turns", resumed)
        # the games whose clock runs get their timers back (or end on time) while the server already serves
        resuming_clocks = asyncio.create_task(clocks.resume(arcade, arcade.rooms.capacity // 2))
        races = await race_timers.resume(arcade)
        if races:
            log.info("resumed %d races under way", races)
        # other servers on the same PostgreSQL database: hear of their changes
        loop = asyncio.get_running_loop()
        stop_listening = threading.Event()

        def heard(payload: str) -> None:  # on the event loop: the lobby's words to the lobby, the rooms' to the arcade
            kind, _, rest = payload.partition(" ")
            if kind == "lobby":
                lobby.heard(rest)
            elif payload == "lost":
                arcade.heard(payload)
                lobby.changed(tell_others=False)
            else:
                arcade.heard(payload)

        listener = threading.Thread(
            target=storage.listen, name="damier-listen", daemon=True,
            args=(lambda payload: loop.call_soon_threadsafe(heard, payload), stop_listening))
        listener.start()
        sweeper = asyncio.create_task(turns.sweep(arcade))
        beating = asyncio.create_task(presence.beat(arcade))
        lobby_beat = asyncio.create_task(lobby.beat())
        watching = asyncio.create_task(app.state.loop_watch.run())
        # what the server holds from its start lives as long as it does: kept out of the collector's full passes,
        # which would otherwise walk it all, stopping every thread and the event loop for tens of milliseconds
        gc.freeze()
        try:
            yield
        finally:
            starting.cancel()
            sweeper.cancel()
            beating.cancel()
            lobby_beat.cancel()
            watching.cancel()
            heavy.close()
            lobby.close()
            resuming_clocks.cancel()
            stop_listening.set()
            await asyncio.to_thread(listener.join, 5)
            await arcade.close()
            app.state.analyses.close()
            app.state.graphs.close()
            kernels.close()
            descriptions.close()
            pool.close()
            storage.close()

    app = FastAPI(title="damier arcade", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Play damier's games in the browser, against the computer or online.")
    api_docs.mount(app)
    app.state.client_limits = client_limits
    app.state.loop_watch = LoopWatch()
    heavy = app.state.heavy = HeavyReads()
    app.include_router(players_routes.router)
    app.include_router(lobby_routes.router)  # before the games' routes: /api/games/live is not a game's id
    app.add_middleware(BodyGuard, limit=MAX_BODY_BYTES, seconds=BODY_SECONDS)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Gate)  # the outermost: a burst of requests starts a few at a time

    def arcade_of(request: Request) -> Arcade:
        arcade: Arcade = request.app.state.arcade
        return arcade

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, exc: RoomError) -> JSONResponse:
        status = status_of(exc)
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooMany) else None
        details = exc.details if isinstance(exc, TooMany) else {}
        return JSONResponse({"error": exc.message, "status": status, **details}, status, headers=headers)

    @app.exception_handler(admission.Busy)
    async def arcade_busy(_request: Request, exc: admission.Busy) -> JSONResponse:
        return JSONResponse({"error": exc.message, "status": 503, "busy": True}, 503,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(IdentityError)
    async def identity_error(_request: Request, exc: IdentityError) -> JSONResponse:
        response = JSONResponse({"error": exc.message, "status": exc.status}, exc.status)
        if exc.status == 401:  # a cookie that cannot be taken goes: the next game gives a new identity
            Players.forget_cookie(response)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, RecursionError):  # FastAPI could not parse the body: say why
            return JSONResponse({"error": TOO_DEEP, "status": 400}, 400)
        return JSONResponse({"error": str(exc.detail), "status": exc.status_code}, exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
            for e in exc.errors()[:5]
        )
        return JSONResponse({"error": f"invalid request: {problems}", "status": 422}, 422)

    @app.exception_handler(RecursionError)
    async def too_deep(_request: Request, exc: RecursionError) -> JSONResponse:
        return JSONResponse({"error": TOO_DEEP, "status": 400}, 400)

    async def database_unavailable(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, OperationalError | InternalError)
        reason = str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]
        log.error("the database refused a request: %s", reason)
        return JSONResponse({"error": f"the database is unavailable ({reason}); nothing was changed, try again later",
                             "status": 503}, 503, headers={"Retry-After": "30"})

    # a database that cannot be reached or written (gone, locked, read-only, full): 503 with its reason
    app.add_exception_handler(OperationalError, database_unavailable)
    app.add_exception_handler(InternalError, database_unavailable)

    @app.exception_handler(Exception)
    async def unexpected_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"error": "internal error; the server logged it", "status": 500}, 500)

    # ----- catalogue and games ------------------------------------------------------------------------
    @app.get("/api/catalog", summary="The games: options, computer levels, and what the web client draws them with")
    async def catalog() -> list[dict[str, Any]]:
        # a game's client description (setups, palette, sample boards) is the same for every request: made once,
        # without compiling a kernel (damier.server.descriptions), and kept
        out = []
        for info in registry.all_infos():
            entry = info.to_json()
            entry["levels"] = list(info.levels or ["easy", "medium", "hard"]) + list(info.agents)
            entry["has_draws"] = info.has_draws
            # the time controls the new-game form offers (minutes, increment), none for a puzzle played alone
            entry["clocks"] = [list(p) for p in clocks.PRESETS] if info.players != "1" else None
            # and the bounds of a custom one (the form checks them before the server does)
            entry["clock_limits"] = {"minutes": [clocks.MIN_MINUTES, clocks.MAX_MINUTES],
                                     "increment": [0, clocks.MAX_INCREMENT]} if info.players != "1" else None
            entry["analysis"] = analysis_kind(info)  # "search", "solver" or None: what the analysis board shows
            # the board module, setups, presets, palette...; None: the client draws a plain grid
            entry["client"] = await descriptions.client(info)
            out.append(entry)
        return out

    @app.get("/api/catalog/{game}/howto",
             summary="A game's How to play page: its texts, diagrams and animated examples played by its rules")
    async def howto(game: str) -> dict[str, Any]:
        # the same for every request: made once, without compiling a kernel (damier.server.descriptions)
        try:
            info = registry.info(game[:40])
        except DamierError as exc:
            raise NotFound(str(exc)) from None
        if not info.has("howto"):
            raise NotFound(registry.missing_message(info.name, "howto"))
        return await descriptions.howto(info)

    @app.post("/api/games", status_code=201, summary="Create a game; returns one secret token per human seat")
    async def create_game(body: CreateGame, request: Request, response: Response) -> dict[str, Any]:
        arcade = arcade_of(request)
        client = address(request)
        owner = players_of(request).ensure(request, response)
        computer = any(s.kind == "computer" for s in body.seats)
        async with admitting(request, client, owner, computer) as admitted:
            client_limits.new_game(client)
            room, tokens = await creation.create(arcade, body.game, dict(body.options),
                                                 [s.model_dump() for s in body.seats], body.seed, body.start,
                                                 hints_on=body.hints, clock=body.clock, owner=owner, client=client)
            admitted(room.id)
        first_human = min(tokens) if tokens else None
        if first_human is not None:
            await players_of(request).hold(owner, "game", room.id, first_human)
        return {"id": room.id, "tokens": {str(k): v for k, v in tokens.items()},
                "state": views.view(room, first_human)}

    @contextlib.asynccontextmanager
    async def admitting(request: Request, client: str, owner: str | None,
                        computer: bool) -> AsyncIterator[Callable[[str], None]]:
        """A new game with a computer seat (``computer``) is admitted while the arcade's computer players have room
        for it (``admission``: 503 beyond) and ``client`` (or ``owner``) has fewer than its limit going on: moved in
        the last ``idle.ADJOURN_MINUTES`` (older ones are adjourned); the refusal names and links the games that
        hold the limit. Counted while the block runs (creations at once); the block calls what it yields with the
        new game's id."""
        if not computer:
            yield lambda _game_id: None
            return
        booking = arcade_of(request).pool.admission
        booking.check_game()  # a full arcade refuses at once, without asking the database
        async with client_limits.creating_computer_game(client):
            since = idle.iso_before(idle.ADJOURN_MINUTES * 60, time.time())
            held = await asyncio.to_thread(arcade_of(request).storage.computer_games_of, client, owner, since)
            client_limits.check_computer_games(client, [
                {"id": game_id, "game": name, "title": registry.info(name).title, "url": f"/#/game/{game_id}"}
                for game_id, name in held])
            name = booking.admit_game()
            made = False

            def admitted(game_id: str) -> None:
                nonlocal made
                made = True
                booking.rename(name, game_id)

            try:
                yield admitted
            finally:
                if not made:
                    booking.forget(name)

    @app.post("/api/positions", summary="Check a position (a position editor asks before starting a game)")
    async def position(body: PositionBody, request: Request) -> Response:
        client_limits.heavy_read(address(request))
        checked = body.position
        if checked is None:  # a usual start drawn from a seed (an example one without): drawn in the pool
            game = creation.load_game(body.game, dict(body.options))
            checked = await setups.usual_start(arcade_of(request), game, 0 if body.seed is None else body.seed)
        return await heavy.answer(rendering.position, body.game, dict(body.options), checked, body.moves,
                                  body.seed)

    @app.post("/api/positions/board", summary="The position of a board set up in a position editor, checked")
    async def position_of_board(body: EditedBoard, request: Request) -> Response:
        client_limits.heavy_read(address(request))
        # the game's declared editor writes the position; the position check judges it
        return await heavy.answer(rendering.edited, body.game, dict(body.options), body.board)

    # ----- the analysis board -------------------------------------------------------------------------
    board_slots = asyncio.Semaphore(analysis.BOARDS_AT_ONCE)

    def analyses_of(request: Request) -> analysis.Analyses:
        analyses: analysis.Analyses = request.app.state.analyses
        return analyses

    @app.post("/api/analysis/board", summary="A position to try moves on: its board and legal moves, after a line "
              "and a tried move")
    async def analysis_board(body: AnalysisBoard, request: Request) -> Response:
        client_limits.heavy_read(address(request))
        # a long line is replayed in a thread: a few at once, the others told to come back (the threads are shared)
        if board_slots.locked():
            raise Unavailable(f"the analysis board is busy ({analysis.BOARDS_AT_ONCE} positions being set up); "
                              "try again in a moment")
        async with board_slots:
            return await heavy.answer(rendering.analysis_board, body.game, dict(body.options), body.position,
                                      list(body.moves), body.move)

    @app.post("/api/analysis", status_code=201, summary="Analyse a position: the engine's lines as it deepens, or "
              "a puzzle's optimal solution")
    async def start_analysis(body: AnalysisBody, request: Request) -> dict[str, Any]:
        started = await analyses_of(request).start(body.game, dict(body.options), body.position, address(request))
        return started.view()

    @app.get("/api/analysis/{analysis_id}", summary="An analysis: the depths completed so far")
    async def read_analysis(analysis_id: Annotated[str, PathParam(max_length=40)], request: Request) -> dict[str, Any]:
        return analyses_of(request).read(analysis_id).view()

    @app.post("/api/analysis/{analysis_id}/stop", summary="Stop an analysis (the page left, or analyses another "
              "position)")
    async def stop_analysis(analysis_id: Annotated[str, PathParam(max_length=40)], request: Request) -> dict[str, Any]:
        return analyses_of(request).stop(analysis_id).view()

    @app.post("/api/games/{game_id}/evaluations", summary="Evaluate every position of the game (the analysis "
              "board's graph), or join the evaluation already asked for: 201 when this asks for it")
    async def start_graph(game_id: str, request: Request, response: Response) -> dict[str, Any]:
        graphs: game_graphs.Graphs = request.app.state.graphs
        graph, started = await graphs.start(await arcade_of(request).room(game_id), address(request))
        response.status_code = 201 if started else 200
        return graph.view()

    @app.get("/api/games/{game_id}/evaluations", summary="The positions of the game evaluated so far, at a version")
    async def read_graph(game_id: str, request: Request,
                         version: Annotated[int, Query(ge=0, le=10**6)]) -> dict[str, Any]:
        graphs: game_graphs.Graphs = request.app.state.graphs
        return graphs.read(game_id, version).view()

    @app.get("/api/games/{game_id}", summary="The game as its players and watchers see it")
    async def read_game(game_id: str, request: Request, response: Response,
                        x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        room = await arcade.room(game_id)
        seat = arcade.seat_of(room, x_seat_token)
        if seat is not None and room.active:  # a player opening the game (an invitation): it is theirs to list
            with contextlib.suppress(IdentityError):  # a bad cookie reads all the same (the home page says why)
                await players_of(request).hold(players_of(request).ensure(request, response), "game", room.id, seat)
        return views.view(room, seat, spectator=seat is None)

    @app.post("/api/games/{game_id}/moves", summary="Play a move (notation) for the seat of the token")
    async def play_move(game_id: str, body: MoveBody, request: Request,
                        x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        room = await commands.move(arcade, game_id, x_seat_token, body.move, body.version)
        seat = arcade.seat_of(room, x_seat_token)
        if seat is not None:
            with contextlib.suppress(IdentityError):  # a bad cookie plays all the same (the home page says why)
                await players_of(request).hold(players_of(request).identify(request), "game", room.id, seat)
        return views.view(room, seat, spectator=seat is None)

    @app.post("/api/games/{game_id}/undo", summary="Take back your last move, and the replies after it (between "
                                                   "people: ask, or accept the takeback another asked); all=true "
                                                   "takes back every move (a puzzle's reset, one human seat)")
    async def undo(game_id: str, request: Request, x_seat_token: SeatToken = None,
                   everything: Annotated[bool, Query(alias="all")] = False) -> dict[str, Any]:
        arcade = arcade_of(request)
        return seat_view(arcade, await commands.undo(arcade, game_id, x_seat_token, everything), x_seat_token)

    @app.post("/api/games/{game_id}/undo/decline", summary="Decline the other players' request to take back a move")
    async def decline_undo(game_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        return seat_view(arcade, await commands.decline_undo(arcade, game_id, x_seat_token), x_seat_token)

    @app.post("/api/games/{game_id}/resign", summary="Resign")
    async def resign(game_id: str, request: Request,
                     x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        return seat_view(arcade, await commands.resign(arcade, game_id, x_seat_token), x_seat_token)

    @app.post("/api/games/{game_id}/abort",
              summary="Abort the game: allowed until every seat has made a first move; nobody wins, it does not count")
    async def abort(game_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        return seat_view(arcade, await commands.abort(arcade, game_id, x_seat_token), x_seat_token)

    @app.post("/api/games/{game_id}/claim",
              summary="Claim the win or a draw of a game under way that every other person left (gone for the "
                      "presence message's claim_after)")
    async def claim_game(game_id: str, body: ClaimGame, request: Request,
                         x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        room = await commands.claim(arcade, game_id, x_seat_token, body.result == "draw")
        return seat_view(arcade, room, x_seat_token)

    @app.post("/api/games/{game_id}/draw",
              summary="Offer, accept or decline a draw (games with draws); computers answer an offer at once")
    async def draw(game_id: str, body: DrawBody, request: Request,
                   x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        room, declined = await commands.draw(arcade, game_id, x_seat_token, body.action, address(request))
        answer = seat_view(arcade, room, x_seat_token)
        answer["draw_declined"] = declined  # the computers answered the offer: no
        return answer

    @app.post("/api/games/{game_id}/hint",
              summary="A hint for your move: the hint agent's move, or a graded hint (level 1 to 4) of a puzzle")
    async def hint(game_id: str, request: Request, x_seat_token: SeatToken = None,
                   level: Annotated[int | None, Query(ge=1, le=4)] = None) -> dict[str, Any]:
        client = address(request)
        with client_limits.hint(client):
            return await turns.hint(arcade_of(request), game_id, x_seat_token, level, client)

    @app.post("/api/games/{game_id}/rematch", summary="The same game again, seats swapped")
    async def rematch(game_id: str, request: Request, response: Response, x_seat_token: SeatToken = None,
                      board: Annotated[Literal["same", "new"], Query(
                          description="same: the game's board again (the default); new: a new board drawn from a "
                                      "new seed (games with a seeded setup)")] = "same") -> dict[str, Any]:
        client = address(request)
        owner = players_of(request).ensure(request, response)
        arcade = arcade_of(request)
        old = await arcade.room(game_id)
        fresh = old.row.rematch is None  # the first to ask creates it: counted in that address's limits
        computer = fresh and any(seat.kind == "computer" for seat in old.row.seats)
        async with admitting(request, client, owner, computer) as admitted:
            if fresh:
                client_limits.new_game(client)
            room, token = await commands.rematch(arcade, game_id, x_seat_token, board, owner=owner, client=client)
            admitted(room.id)
        seat = arcade.seat_of(room, token)
        if seat is not None:
            await players_of(request).hold(owner, "game", room.id, seat)
        return {"id": room.id, "token": token, "seed": room.row.seed if room.game.info.seeded_setup else None}

    @app.get("/api/games/{game_id}/record", summary="The game record (JSON)")
    async def record(game_id: str, request: Request) -> JSONResponse:
        arcade = arcade_of(request)
        room = await arcade.room(game_id)
        return JSONResponse(views.record(room), headers={
            "Content-Disposition": f'attachment; filename="damier-{room.game.name}-{room.id}.json"'})

    @app.get("/api/games/{game_id}/replay",
             summary="A page of the game's positions, for the replay viewer (frames from, how many, the total)")
    async def replay(game_id: str, request: Request,
                     first: Annotated[int, Query(alias="from", ge=0, le=10**6)] = 0,
                     count: Annotated[int, Query(ge=1, le=views.MAX_REPLAY_PAGE)] = views.REPLAY_PAGE) -> Response:
        client_limits.heavy_read(address(request))
        arcade = arcade_of(request)
        room = await arcade.room(game_id)
        version = room.version

        async def make() -> bytes:  # long games take a while: in a heavy process, once per page and version
            page = views.replay_page(room, first)
            return await heavy.run(rendering.replay_page, page, room.game.name, dict(room.game.options),
                                   room.job_start(), room.row.seed, list(room.row.moves), page["from"], count)

        body = await arcade.answers.get(("replay", room.id, version, first, count), make)
        return Response(body, media_type="application/json")

    @app.post("/api/records", status_code=201, summary="Import a record for replay")
    async def import_record(request: Request) -> dict[str, Any]:
        try:
            obj = await request.json()
        except ValueError:
            raise Invalid("the body must be a JSON game record") from None
        except RecursionError:
            raise StarletteHTTPException(400, TOO_DEEP) from None
        client_limits.new_game(address(request))
        room = await creation.import_record(arcade_of(request), obj)
        return {"id": room.id}

    # ----- solo puzzles -------------------------------------------------------------------------------------
    @app.post("/api/puzzles", status_code=201,
              summary="A solo puzzle: drawn by the options (difficulty), read from a puzzle id, or the daily one")
    async def create_puzzle(body: CreatePuzzle, request: Request, response: Response) -> dict[str, Any]:
        day = None
        if body.daily is not False:
            day = puzzles.day_of(None if body.daily is True else str(body.daily)[:40])
        owner = players_of(request).ensure(request, response)
        client_limits.new_game(address(request))
        room, token = await puzzles.create(arcade_of(request), body.game, dict(body.options), body.puzzle,
                                           body.seed, day)
        await players_of(request).hold(owner, "game", room.id, 0)
        return {"id": room.id, "token": token, "state": views.view(room, 0)}

    @app.get("/api/puzzles/{game}/daily", summary="The puzzle of the day (UTC), the same for everyone")
    async def daily_puzzle(game: str, request: Request,
                           date: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
        client_limits.heavy_read(address(request))
        day = puzzles.day_of(date)
        return await puzzles.daily(arcade_of(request), game[:40], day)

    # ----- race rooms ---------------------------------------------------------------------------------------
    @app.post("/api/races", status_code=201, summary="Create a race room on a puzzle game; you are its host")
    async def create_race(body: CreateRace, request: Request, response: Response) -> dict[str, Any]:
        arcade = arcade_of(request)
        owner = players_of(request).ensure(request, response)
        client_limits.new_game(address(request))
        room, token = await race_commands.create(arcade, body.game, dict(body.options), dict(body.settings),
                                                 body.name)
        await players_of(request).hold(owner, "race", room.id, 0)
        return {"id": room.id, "seat": 0, "token": token, "state": race_views.view(room, 0)}

    @app.post("/api/races/{race_id}/join", status_code=201, summary="Join a race with a name; returns your token")
    async def join_race(race_id: str, body: JoinRace, request: Request, response: Response) -> dict[str, Any]:
        owner = players_of(request).ensure(request, response)
        room, seat, token = await race_commands.join(arcade_of(request), race_id, body.name)
        await players_of(request).hold(owner, "race", room.id, seat)
        return {"id": room.id, "seat": seat, "token": token, "state": race_views.view(room, seat)}

    @app.get("/api/races/{race_id}", summary="The race as its players and watchers see it")
    async def read_race(race_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        return race_view(arcade, await race_commands.look(arcade, race_id), x_seat_token)

    @app.post("/api/races/{race_id}/start", summary="The host starts the race")
    async def start_race(race_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        return race_view(arcade, await race_commands.start(arcade, race_id, x_seat_token), x_seat_token)

    @app.post("/api/races/{race_id}/claim", summary="Claim the round's puzzle in a number of moves")
    async def claim(race_id: str, body: ClaimBody, request: Request,
                    x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        room = await race_commands.claim(arcade, race_id, x_seat_token, body.count, body.round)
        return race_view(arcade, room, x_seat_token)

    @app.post("/api/races/{race_id}/demonstrate", summary="Demonstrate your claim: one move or the whole line")
    async def demonstrate(race_id: str, body: DemonstrateBody, request: Request,
                          x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        room = await race_commands.demonstrate(arcade, race_id, x_seat_token, list(body.moves), body.round)
        return race_view(arcade, room, x_seat_token)

    @app.post("/api/races/{race_id}/giveup", summary="Give up your demonstration (the claim is wrong)")
    async def give_up(race_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
        arcade = arcade_of(request)
        return race_view(arcade, await race_commands.give_up(arcade, race_id, x_seat_token), x_seat_token)

    @app.get("/api/health", include_in_schema=False)
    async def health(request: Request, window: Annotated[float, Query(gt=0, le=60)] = 60) -> dict[str, Any]:
        # and how far compiling the games' kernels is (the home page says so while it runs)
        kernels = arcade_of(request).pool.kernels
        # the event loop's worst lag of the last minute (or ``window`` seconds; ms): anything that held it up
        lag = round(1000 * request.app.state.loop_watch.worst(window=window), 1)
        return {"status": "ok", "version": __version__, "kernels": kernels.status() if kernels else None,
                "loop_lag_ms": lag}

    # ----- the WebSockets -------------------------------------------------------------------------------
    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        arcade: Arcade = websocket.app.state.arcade
        try:
            await arcade.room(game_id)
        except NotFound as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        await sockets.watch(websocket, lambda: arcade.room(game_id),
                     lambda text, watcher: _socket_message(arcade, game_id, text, watcher, websocket))

    @app.websocket("/api/races/{race_id}/ws")
    @app.websocket("/ws/races/{race_id}")
    async def race_socket(websocket: WebSocket, race_id: str) -> None:
        arcade: Arcade = websocket.app.state.arcade
        try:
            await race_commands.look(arcade, race_id)
        except NotFound as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        await sockets.watch(websocket, lambda: race_commands.look(arcade, race_id),
                     lambda text, _watcher: _race_message(arcade, race_id, text))

    # ----- the web client ---------------------------------------------------------------------------------
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(STATIC / "index.html")

    return app


RACE_MESSAGES = ("start", "claim", "move", "demonstrate", "giveup", "ping")


async def _race_message(arcade: Arcade, race_id: str, text: str) -> dict[str, Any] | None:
    """Handle a race socket's ``start``, ``claim`` (``count``, ``round``?), ``move`` (``move``), ``demonstrate``
    (``moves``), ``giveup`` (each with ``token``) or ``ping``; the reply, if any (a change's success is the
    state every watcher receives)."""
    read = sockets.read_message(text)
    if isinstance(read, dict):
        return read
    kind, message = read
    if kind == "ping":
        return {"type": "pong"}
    if kind not in RACE_MESSAGES:
        return sockets.error(422, f"unknown message type {kind[:40]!r}; accepted: {', '.join(RACE_MESSAGES)}")
    token, round_number = message.get("token"), message.get("round")
    if not isinstance(token, str) or not (round_number is None or type(round_number) is int):
        return sockets.error(422, f"a {kind} message has 'token' (and may have 'round', a number)")
    try:
        if kind == "start":
            await race_commands.start(arcade, race_id, token)
        elif kind == "claim":
            count = message.get("count")
            if type(count) is not int:
                return sockets.error(422, "a claim message has 'count', a number of moves")
            await race_commands.claim(arcade, race_id, token, count, round_number)
        elif kind == "giveup":
            await race_commands.give_up(arcade, race_id, token)
        else:
            moves = [message.get("move")] if kind == "move" else message.get("moves")
            if not isinstance(moves, list) or not 1 <= len(moves) <= MAX_CLAIM or \
                    not all(isinstance(m, str) and 1 <= len(m) <= 64 for m in moves):
                return sockets.error(422, "a move message has 'move' (notation); a demonstrate message has 'moves' "
                                   f"(1 to {MAX_CLAIM} moves in notation)")
            await race_commands.demonstrate(arcade, race_id, token, moves, round_number)
    except RoomError as exc:
        return sockets.error(status_of(exc), exc.message)
    except Exception:
        log.exception("a %s over the WebSocket failed in race %s", kind, race_id)
        return sockets.error(500, "internal error; the server logged it")
    return None


async def _socket_message(arcade: Arcade, game_id: str, text: str, watcher: Watcher,
                          websocket: WebSocket) -> dict[str, Any] | None:
    """Handle ``{"type": "move", "move", "version", "token"}``, ``{"type": "hello", "token", "away"?}`` (this
    socket plays the token's seat; ``away``: its page is hidden) or ``{"type": "ping"}``; the reply, if any (a
    move's success is the state every watcher receives, a hello's the ``presence`` message)."""
    read = sockets.read_message(text)
    if isinstance(read, dict):
        return read
    kind, message = read
    if kind == "ping":
        return {"type": "pong"}
    if kind == "hello":
        token, away = message.get("token"), message.get("away", False)
        if not isinstance(token, str) or not isinstance(away, bool):
            return sockets.error(422, "a hello message has 'token' (a seat's) and 'away' (true or false)")
        try:
            room = await arcade.room(game_id)
            if watcher not in room.watchers:
                return sockets.error(409, "this socket watches a copy of the game that was replaced; reconnect")
            seat = arcade.require_seat(room, token)
            room.present(watcher, seat, away)
            await commands.arrive(arcade, room, seat)
            with contextlib.suppress(IdentityError):  # a socket with a bad cookie plays all the same
                await players_of(websocket).hold(players_of(websocket).identify(websocket), "game", room.id, seat)
        except RoomError as exc:
            return sockets.error(status_of(exc), exc.message)
        return None
    if kind != "move":
        return sockets.error(422, f"unknown message type {kind[:40]!r}; accepted: move, hello, ping")
    move, version, token = message.get("move"), message.get("version"), message.get("token")
    if not isinstance(move, str) or not (version is None or isinstance(version, int)) or not isinstance(token, str):
        return sockets.error(422, "a move message has 'move' (notation), 'token' and 'version'")
    try:
        await commands.move(arcade, game_id, token, move[:64], version)
    except RoomError as exc:
        return sockets.error(status_of(exc), exc.message)
    except Exception:
        log.exception("move over the WebSocket failed in game %s", game_id)
        return sockets.error(500, "internal error; the server logged it")
    return None

