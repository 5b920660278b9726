"""The arcade application: its parts made and closed in the lifespan, the middlewares, the routes by resource
(``damier.server.routes``), the API's errors and the static web client.

Errors are JSON ``{"error": message, "status": code}`` (``damier.server.routes.errors``); request bodies are
limited in size and validated. The rooms (``damier.server.rooms``) raise typed errors without statuses;
``routes.common.STATUS`` gives each kind its status.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from damier import __version__
from damier.server import analysis, api_docs, game_graphs, secret
from damier.server.compiler import Compiler
from damier.server.computer import ComputerPool
from damier.server.descriptions import Descriptions
from damier.server.gate import Gate
from damier.server.guards import BodyGuard, SecurityHeaders
from damier.server.heavy import HeavyReads
from damier.server.limits import ClientLimits, Limits
from damier.server.lobby import Lobby
from damier.server.loop_watch import LoopWatch
from damier.server.players import Players
from damier.server.rooms import Arcade, presence
from damier.server.rooms.game import moves, turns
from damier.server.rooms.race import timers as race_timers
from damier.server.routes import analysis as analysis_routes
from damier.server.routes import catalog as catalog_routes
from damier.server.routes import errors, web
from damier.server.routes import games as games_routes
from damier.server.routes import languages as languages_routes
from damier.server.routes import lobby as lobby_routes
from damier.server.routes import players as players_routes
from damier.server.routes import positions as positions_routes
from damier.server.routes import puzzles as puzzles_routes
from damier.server.routes import races as races_routes
from damier.server.routes import records as records_routes
from damier.server.routes import sockets as sockets_routes
from damier.server.storage import Storage

log = logging.getLogger("damier.server")

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 64 * 1024
#: seconds a request body has to arrive whole (a slow upload is answered 408 and its connection closed)
BODY_SECONDS = 10.0
#: the routes by resource, in the order they are matched: the lobby's before the games' (``/api/games/live`` is
#: not a game's id)
ROUTERS = (players_routes.router, lobby_routes.router, catalog_routes.router, games_routes.router,
           positions_routes.router, analysis_routes.router, records_routes.router, puzzles_routes.router,
           races_routes.router, sockets_routes.router, languages_routes.router)


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
            storage.leases.forget_all()  # alone on the file: the leases of an earlier run are this server's to take
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
        resuming_clocks = asyncio.create_task(moves.resume(arcade, arcade.rooms.capacity // 2))
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
            target=storage.notifications.listen, name="damier-listen", daemon=True,
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
    app.state.descriptions = descriptions
    app.state.loop_watch = LoopWatch()
    heavy = app.state.heavy = HeavyReads()
    # a long line is replayed in a thread: a few analysis boards at once (the threads are shared)
    app.state.board_slots = asyncio.Semaphore(analysis.BOARDS_AT_ONCE)
    for router in ROUTERS:
        app.include_router(router)
    app.add_middleware(BodyGuard, limit=MAX_BODY_BYTES, seconds=BODY_SECONDS)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Gate)  # the outermost: a burst of requests starts a few at a time
    errors.install(app)

    web.mount(app, STATIC)  # the web client
    return app
