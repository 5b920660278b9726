"""The analysis board: any position of a game to try moves on, and the engine's analysis of it in the worker pool.

An analysis is anonymous and position-based: ``POST /api/analysis`` starts one (the game's search, deepening, or
its solver: ``damier.ai.analysis``), ``GET /api/analysis/{id}`` reads the depths completed so far, and
``POST /api/analysis/{id}/stop`` ends it. Each is bounded: a time budget (``ANALYSIS_SECONDS``; the pool kills
the worker ``GRACE_SECONDS`` later), the hint limit per client address (counted while it runs), stopped when
nobody has read it for ``ABANDON_SECONDS`` (the page left), and at most ``MAX_ANALYSES`` kept in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from damier.ai import analysis as engine
from damier.ai.reading import outcome_reading
from damier.core import messages
from damier.core.errors import DamierError
from damier.core.game import CHANCE, TERMINAL, Game, State
from damier.server.computer import Busy, ComputerPool
from damier.server.engine_work import EngineWork, error_words, watch
from damier.server.jobs import Job
from damier.server.limits import ClientLimits
from damier.server.rooms.errors import Invalid, NotFound, Unavailable
from damier.server.rooms.game.creation import load_game, play_line
from damier.server.words import say

log = logging.getLogger("damier.server")

#: the time an analysis searches (a solver is bounded by its nodes instead); its hard deadline is 5 s later
ANALYSIS_SECONDS = 12.0
#: an analysis nobody has read for this long is stopped: its page is gone
ABANDON_SECONDS = 6.0
#: analyses kept in memory (the oldest leave first; one still running is stopped)
MAX_ANALYSES = 512
#: the longest line of moves a board request plays from its position (a game's moves up to a ply: a record's most)
MAX_BOARD_MOVES = 5000
#: board requests set up at once by a server (each in a thread); more are answered 503
BOARDS_AT_ONCE = 4


def state_of(game: Game, position: str | None) -> State:
    """The state at ``position`` (None: the usual start); ``Invalid`` saying why it is not a position."""
    try:
        return game.start_state(position, None)
    except DamierError as exc:
        raise Invalid(say("error.analysis.bad_position",
                          game=messages.title_of(game), problem=messages.cause_of(exc))) from None


def board(name: str, options: dict[str, Any], position: str | None, moves: list[str],
          move: str | None) -> dict[str, Any]:
    """What the analysis board draws: the position reached from ``position`` by ``moves`` (a game's moves, with
    its chance events) and then ``move`` (one tried on the board; the chance events after it are drawn at random),
    its legal moves in notation and its board with the previews the player to move gets (once the game is over
    there, its result and each seat's result as a chance, as the evaluation bar shows it)."""
    game = load_game(name, options)
    state = state_of(game, position)
    for _ in play_line(state, moves):
        pass
    events: list[dict[str, Any]] = []
    if move is not None:
        if state.player == TERMINAL:
            raise Invalid(say("error.analysis.over_no_move", reason=state.outcome_reason()))
        try:
            state.play(state.parse_move(move))
        except DamierError as exc:
            raise Invalid(say("error.analysis.move_not_here",
                              move=repr(move), problem=messages.cause_of(exc))) from None
        events = list(state.events())
        rng = random.Random(secrets.randbits(64))
        while state.player == CHANCE:  # chance events drawn at random, as in a game
            state.play(state.sample_chance(rng))
    outcome = state.outcome()
    return {"game": game.name, "options": dict(game.options), "position": state.position(),
            "player": state.player, "legal_moves": [state.move_to_str(m) for m in state.legal_moves()]
            if state.player >= 0 else [], "board": state.board_json(previews=state.player >= 0),
            "events": events, "move": move, "result": outcome.to_json() if outcome else None,
            "chances": outcome_reading(game, outcome)["chances"] if outcome else None,
            "kind": engine.kind(game.info)}


@dataclass(kw_only=True)
class Analysis(EngineWork):
    id: str
    game: str
    options: dict[str, Any]
    position: str
    kind: str
    seconds: float
    iterations: list[dict[str, Any]] = field(default_factory=list)

    def heard(self, report: dict[str, Any]) -> None:
        if self.status == "running" and len(self.iterations) < engine.MAX_DEPTH:
            self.iterations.append(report)

    def view(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "options": self.options, "position": self.position,
                "kind": self.kind, "seconds": self.seconds, "status": self.status, "reason": self.reason,
                "error": self.error, **error_words(self.error), "iterations": list(self.iterations)}


class Analyses:
    """The analyses of this server process, by id."""

    def __init__(self, pool: ComputerPool, limits: ClientLimits, seconds: float = ANALYSIS_SECONDS) -> None:
        self.pool = pool
        self.limits = limits
        self.seconds = seconds
        self._analyses: OrderedDict[str, Analysis] = OrderedDict()

    async def start(self, name: str, options: dict[str, Any], position: str, client: str) -> Analysis:
        """Start analysing ``position``: ``Invalid`` for a bad game, options or position, or one with nothing to
        analyse; ``TooMany`` past the client's limit; ``Unavailable`` when the pool is full."""
        game, state = await asyncio.to_thread(self._checked, name, options, position)
        how = engine.kind(game.info)
        assert how is not None  # _checked refused it
        release = self.limits.start_analysis(client)  # the client's own limit first (429), then the arcade's (503)
        try:
            self.pool.admission.admit_job(self.pool.queued_seconds(long=True), "analyse", long=True)
        except BaseException:
            release()
            raise
        entry = Analysis(id=secrets.token_urlsafe(12), game=game.name, options=dict(game.options),
                         position=state.position(), kind=how, seconds=self.seconds, release=release)
        job = Job(game.name, dict(game.options), None, entry.position, (), "analysis", agent_seed=0,
                  analysis_seconds=self.seconds)
        loop = asyncio.get_running_loop()

        def progress(report: dict[str, Any]) -> None:  # in a thread of the pool
            loop.call_soon_threadsafe(entry.heard, report)

        try:
            answer = asyncio.ensure_future(self.pool.move(
                job, self.seconds, key=f"analysis {client}", group=client, stop=entry.stop,
                progress=progress))
            await asyncio.sleep(0)  # the job is queued (or refused) in the pool's first step
            if answer.done() and isinstance(answer.exception(), Busy):
                raise Unavailable(say("error.busy.computers_analyse"))
        except BaseException:
            release()
            raise
        self._remember(entry)
        entry.task = asyncio.ensure_future(self._watch(entry, answer))
        return entry

    @staticmethod
    def _checked(name: str, options: dict[str, Any], position: str) -> tuple[Game, State]:
        game = load_game(name, options)
        if engine.kind(game.info) is None:
            raise Invalid(say("error.analysis.cannot_analyse", game=messages.title_of(game)))
        state = state_of(game, position)
        if state.player == TERMINAL:
            raise Invalid(say("error.analysis.over_nothing", reason=state.outcome_reason()))
        if state.player == CHANCE:
            raise Invalid(say("error.analysis.chance_next"))
        return game, state

    async def _watch(self, entry: Analysis, answer: asyncio.Future[dict[str, Any]]) -> None:
        """Wait for the pool's answer; stop the analysis when nobody reads it any more."""
        await watch(entry, answer, self.seconds, lambda: ABANDON_SECONDS, f"analysis {entry.id} of {entry.game}",
                    say("error.busy.computers_analyse"), say("error.analysis.failed"))

    def read(self, analysis_id: str) -> Analysis:
        entry = self._analyses.get(analysis_id)
        if entry is None:
            raise NotFound(say("error.analysis.not_found", analysis=repr(analysis_id)))
        entry.read = time.monotonic()
        return entry

    def stop(self, analysis_id: str) -> Analysis:
        entry = self.read(analysis_id)
        entry.end("stopped", "stopped")
        return entry

    def _remember(self, entry: Analysis) -> None:
        """Keep ``entry``; past ``MAX_ANALYSES`` the oldest ended one leaves (the oldest running one only when all
        run: the per-client limit keeps that from anyone's reach but many clients')."""
        self._analyses[entry.id] = entry
        while len(self._analyses) > MAX_ANALYSES:
            ended = next((key for key, each in self._analyses.items() if each.status != "running"), None)
            old = self._analyses.pop(ended) if ended is not None else self._analyses.popitem(last=False)[1]
            old.end("stopped", "forgotten")

    def close(self) -> None:
        for entry in self._analyses.values():
            entry.end("stopped", "stopped")
            entry.free()
            if entry.task is not None:
                entry.task.cancel()
        with contextlib.suppress(Exception):
            self._analyses.clear()
