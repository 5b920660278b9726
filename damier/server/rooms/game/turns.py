"""Computer turns and hints: the game is sent to the worker pool (by names and notation), under the agent's
time budget plus a grace period. A game's computer turn waits for a worker as long as it takes (the game was
admitted with it: ``damier.server.admission``) and thinks its whole budget; it plays a random legal move only when
its own search failed (its worker died, or overran its time once started), logged.

A computer turn in a game whose kernels are still compiling (a fresh install: ``damier.server.compiler``) waits for
them first, its game put at the front of the compiling, and thinks its whole budget from then on; with a clock, it
waits at most half of its time left (``KERNEL_WAIT_SHARE``) and then thinks within what its clock allows."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from damier.agents.spec import resolve, within
from damier.server.computer import GRACE_SECONDS, Busy, budget_seconds
from damier.server.jobs import Job
from damier.server.rooms.errors import Conflict, Forbidden, Unavailable
from damier.server.rooms.game import clocks, idle, moves
from damier.server.rooms.game.moves import LEASE_MARGIN, commit, settle_locked
from damier.server.rooms.game.room import GameRoom
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse

log = logging.getLogger("damier.server")
#: how often expired computer-turn leases are looked for (seconds)
SWEEP_SECONDS = 5.0
#: the share of its clock's time left a computer may spend waiting for its game's kernels to be compiled
KERNEL_WAIT_SHARE = 0.5


def job(room: GameRoom, spec: str, *, hint: bool = False, level: int | None = None,
        agreement_seat: int | None = None) -> Job:
    """What a worker needs to think about the room's position: names and notation only (a start drawn from a seed
    given as its position: the worker need not draw it again)."""
    return Job(room.game.name, dict(room.game.options), room.row.seed, room.job_start(),
               tuple(m for m, _ in room.row.moves), spec, agent_seed=room.version, hint=hint, hint_level=level,
               agreement_seat=agreement_seat)


async def answer_of(house: GameHouse, room: GameRoom, task: Job, budget: float, key: str, client: str | None,
                    asking: str, busy: str, retry: str,
                    after: Callable[[], Awaitable[object]] | None = None) -> dict[str, Any]:
    """The pool's answer to ``task`` (then ``after``, if given), or ``Unavailable``: ``busy`` when the computer
    players are, or ``retry`` when it failed (logged as ``asking``). Admitted only while the workers have room for
    it (``admission``: 503 when the arcade is busy)."""
    house.pool.admission.admit_job(house.pool.queued_seconds(), asking)
    try:
        answer = await house.pool.move(task, budget, key=key, group=client)
        if after is not None:
            await after()
    except asyncio.CancelledError:
        raise
    except Busy:
        raise Unavailable(busy) from None
    except Exception:
        log.exception("%s failed in game %s", asking, room.id)
        raise Unavailable(retry) from None
    return answer


#: the time a computer takes to answer a draw offer (its static evaluation: the budget covers replaying the game)
AGREEMENT_SECONDS = 2.0


async def computers_agree(house: GameHouse, room: GameRoom, seats: list[int], client: str | None) -> bool:
    """Whether every computer seat of ``seats`` accepts to end the game by agreement now, each by its
    evaluation (``damier.ai.agreement``), asked in the worker pool; ``Unavailable`` when no answer came."""
    for seat in seats:
        answer = await answer_of(house, room, job(room, "", agreement_seat=seat), AGREEMENT_SECONDS,
                                 f"agree {room.id}", client, "offer", say("error.game.computers_busy_offer"),
                                 say("error.game.agreement_failed"))
        if not answer.get("agrees"):
            return False
    return True


@dataclass
class Turn:
    """A computer turn in progress: the game's version and seat it thinks for. It belongs to the arcade, not to
    a room object: the room may leave memory while the computer thinks, and the answer is played in the room as
    it is then (loaded again if need be)."""

    version: int
    seat: int
    task: asyncio.Task[None] | None = None


def schedule(house: GameHouse, room: GameRoom) -> None:
    """Let the computer think if it is a computer seat's turn and it is not thinking already (a room loaded
    again while its computer thinks shows that it does); a puzzle just over has its solution searched."""
    if not room.active:
        solve(house, room)
        return
    if room.state.player < 0:
        return
    level = room.computer_level(room.state.player)
    if level is None:
        return
    turn = house.turns.get(room.id)
    if turn is not None and turn.task is not None and not turn.task.done():
        if turn.version == room.version and turn.seat == room.state.player:
            room.thinking = turn.seat
            return
        turn.task.cancel()  # a turn for a position that is gone
    spec = resolve(level, room.game.name)
    budget = budget_seconds(spec)
    allowed = clocks.deadline(room, room.state.player, house.now())
    if allowed is not None and allowed < budget:  # its clock runs: it thinks within what it can afford
        spec, budget = within(spec, room.game.name, allowed), allowed
    turn = Turn(room.version, room.state.player)
    house.turns[room.id] = turn
    room.thinking = turn.seat
    turn.task = asyncio.create_task(_computer_turn(house, room.id, turn, job(room, spec), budget,
                                                   room.client or room.id, follows(room)))


def follows(room: GameRoom) -> str:
    """What a computer's turn follows: a "person"'s move, a "computer"'s (chance events skipped), or the "start"."""
    for _, player in reversed(room.row.moves):
        if player >= 0:
            return "person" if room.row.seats[player].kind == "human" else "computer"
    return "start"


#: a finished puzzle's shown solution is searched within this many nodes (a bound on the work it costs)
SOLUTION_NODES = 2_000_000


def solve(house: GameHouse, room: GameRoom) -> None:
    """Search a finished puzzle's optimal line from its start in the worker pool (once; the watchers are sent it
    when it is found): the solver may search for a while, never on the event loop."""
    info = room.game.info
    if room.game.num_players != 1 or not info.has("solver") or room.solution is not None or room.solving \
            or room.row.status != "finished":
        return
    room.solving = True

    async def search() -> None:
        task = Job(room.game.name, dict(room.game.options), room.row.seed, room.job_start(), (), "solution",
                   agent_seed=0, solution_nodes=SOLUTION_NODES)
        try:
            answer = await house.pool.move(task, SOLUTION_SECONDS, key=f"solution {room.id}", expected=1.0)
            room.solution = list(answer["line"])
            room.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the solution is shown when it can be: a later look at the room asks again
            log.warning("the solution of puzzle %s was not found (%r)", room.id, exc)
        finally:
            room.solving = False

    task = asyncio.create_task(search())
    house.tasks.add(task)
    task.add_done_callback(house.tasks.discard)


#: the time a finished puzzle's solution may be searched for (the solver's node bound ends it long before)
SOLUTION_SECONDS = 20.0


def stop(house: GameHouse, room: GameRoom) -> None:
    """Forget a computer move in progress (its answer would be for a position that is gone)."""
    turn = house.turns.pop(room.id, None)
    if turn is not None and turn.task is not None and not turn.task.done():
        turn.task.cancel()
    room.thinking = None


def lease_until(budget: float) -> float:
    """Until when (epoch seconds) a computer turn of this budget is leased: past its hard deadline, with a margin."""
    return time.time() + budget + GRACE_SECONDS + LEASE_MARGIN


async def _computer_turn(house: GameHouse, game_id: str, turn: Turn, task_job: Job, budget: float,
                         group: str, after: str) -> None:
    claimed = False
    try:
        room = house.rooms.get(game_id)
        if isinstance(room, GameRoom):
            room.broadcast()  # the seat shows it is thinking
        thinking = await kernels_ready(house, game_id, turn.seat, task_job, budget)  # before its lease runs
        if thinking is not None:
            task_job, budget = thinking
        # one server thinks each turn: the one holding its lease (another's answer comes through the database)
        claimed = await asyncio.wrap_future(house.storage.leases.claim(game_id, house.server_id,
                                                                     lease_until(budget), time.time()))
        if not claimed:
            return
        text: str | None = None
        if thinking is None:
            log.warning("computer seat %s of %s: its game's kernels were not compiled within its clock; playing a "
                        "random move", turn.seat, game_id)
        else:
            try:
                answer = await computer_move(house, task_job, budget, game_id, group, after)
                text = answer["move"]
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # out of time, or a worker that died: the game must not stall
                log.warning("computer seat %s of %s failed (%r); playing a random move", turn.seat, game_id, exc)
        room = await house.room(game_id)  # the room as it is now (it may have left memory meanwhile)
        async with room.lock:
            if not room.active or room.version != turn.version or room.state.player != turn.seat:
                return  # an undo or a resignation came first
            if await settle_locked(house, room):
                return  # its clock fell meanwhile (a queue, a restart): lost on time
            if text is None:
                text = room.state.move_to_str(random.choice(room.state.legal_moves()))
            await commit(house, room, [(room.state.parse_move(text), turn.seat)])
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("computer move failed in game %s", game_id)
        return
    finally:
        if house.turns.get(game_id) is turn:
            del house.turns[game_id]
            current = house.rooms.get(game_id)
            if isinstance(current, GameRoom) and claimed:
                current.thinking = None
    current = house.rooms.get(game_id)
    if isinstance(current, GameRoom):
        current.broadcast()
        schedule(house, current)


async def kernels_ready(house: GameHouse, game_id: str, seat: int, task_job: Job,
                        budget: float) -> tuple[Job, float] | None:
    """Wait until the computer kernels of ``task_job``'s game are compiled (the game goes to the front of the
    compiling); the job and budget to think with from then (with a clock, within what the clock allows then), or
    None when they were not ready within ``KERNEL_WAIT_SHARE`` of the time left on the seat's clock."""
    kernels = house.pool.kernels
    if kernels is None or kernels.is_ready(task_job.game):
        return task_job, budget
    room = await house.room(game_id)
    clock = room.row.clock
    bound = None if clock is None else clocks.remaining(clock, seat, house.now()) / 1000.0 * KERNEL_WAIT_SHARE
    if not await kernels.ready(task_job.game, timeout=bound):
        return None
    room = await house.room(game_id)
    allowed = clocks.deadline(room, seat, house.now())
    if allowed is None or allowed >= budget:
        return task_job, budget
    return replace(task_job, spec=within(task_job.spec, task_job.game, allowed)), allowed


async def computer_move(house: GameHouse, task_job: Job, budget: float, game_id: str, group: str,
                        after: str = "person") -> dict[str, Any]:
    """The computer's answer to ``task_job``, its line the game's in the pool's fair queue (its share of the
    workers ``group``'s: the address that made the game). The game was admitted with its computer (``admission``):
    its turn waits for a worker as long as it takes and thinks its whole budget from its start, so flooding the
    pool never turns its move into a random one; a greedy game (a program answering at once) leaves a worker to
    the games of people (``after``: what the turn follows, ``follows``)."""
    return await house.pool.move(task_job, budget, key=game_id, group=group, patient=True, follows=after)


async def sweep(house: GameHouse) -> None:
    """Forever, every ``SWEEP_SECONDS``: take over the computer turns whose lease ran out (the server thinking
    them died, say): their rooms are loaded, which lets the computer think here; end on time the games whose
    clock fell while their room was not in memory (``moves.sweep``); and end the games left alone for days
    (``idle.sweep``)."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            ids = await asyncio.to_thread(house.storage.leases.expired, time.time(), 50)
            for game_id in ids:
                room = await house.room(game_id)
                schedule(house, room)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("taking over the computer turns of stopped servers failed")
        try:
            await moves.sweep(house)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("ending the games whose clock fell out of memory failed")
        try:
            await idle.sweep(house)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("ending the games left alone failed")


async def resume(house: GameHouse) -> int:
    """After a start: load every active game whose turn is a computer's, and let it think again; how many."""
    # games between people wait until someone opens them; only computer turns need to start now
    ids = await asyncio.to_thread(house.storage.games.active_ids, True)
    resumed = 0
    for game_id in ids:
        try:
            room = await house.room(game_id)
        except Exception:
            log.exception("game %s cannot be resumed", game_id)
            continue
        if room.state.player >= 0 and room.computer_level(room.state.player):
            schedule(house, room)
            resumed += 1
    return resumed


async def hint(house: GameHouse, game_id: str, token: str | None, level: int | None = None,
               client: str | None = None) -> dict[str, Any]:
    """The suggestion of the game's hint agent (``GameInfo.hint``) for the seat of ``token``, to move now; with
    ``level``, a graded hint from the game's ``hints`` feature when it declares one (level 1, the vaguest, to 4,
    the whole line). Computed in the worker pool, under the hint agent's time budget, once per position and
    level, one at a time per game; each hint computed counts in the game's ``hints``."""
    room = await house.room(game_id)
    seat = house.require_seat(room, token)
    if not room.hints_allowed():
        raise Forbidden(say("error.game.hints_off"))
    if not room.active or room.state.player != seat:
        raise Conflict(say("error.game.hint_not_your_move"))
    graded = level if level is not None and room.game.info.has("hints") else None
    async with room.hint_lock:
        key = (room.version, graded)
        if key in room.hint_cache:
            return room.hint_cache[key]
        spec = resolve(room.game.info.hint, room.game.name)
        answer = await answer_of(house, room, job(room, spec, hint=True, level=graded), budget_seconds(spec),
                                 f"hint {room.id}", client, "ask for the hint", say("error.game.computers_busy_hint"),
                                 say("error.game.hint_failed"),
                                 after=lambda: asyncio.wrap_future(house.storage.games.count_hint(room.id)))
        room.row.hints += 1
        room.hint_cache = {k: v for k, v in room.hint_cache.items() if k[0] == key[0]}
        room.hint_cache[key] = answer
        return answer
