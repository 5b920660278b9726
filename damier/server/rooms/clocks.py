"""Chess clocks of a game room (Fischer time controls): the server holds each seat's remaining time, stored with
every move, so that a restart, even after ``kill -9``, finds them as they were; the running clock is its stored
remaining time less the time since it started (``since``), and each room in memory has one timer for the moment
it falls.

The stored form (``GameRow.clock``): ``{"minutes", "increment", "remaining": [ms per seat], "running": seat or
null, "since": epoch seconds}``: the running seat's clock runs from ``since`` (the moment the previous move, or
the creation, was stored). A move is charged the time since then, refused if that exhausts the clock (the game is
then lost on time), and given the increment."""

from __future__ import annotations

import asyncio
import logging
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from damier.core.game import Game, timeout
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.storage import flag_time

if TYPE_CHECKING:
    from damier.server.rooms.arcade import Arcade
    from damier.server.rooms.game_room import GameRoom

log = logging.getLogger("damier.server")

#: the time controls the new-game form offers (minutes, increment seconds), lichess's usual ones
PRESETS: tuple[tuple[float, int], ...] = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20))
#: bounds of a custom time control: minutes (fractions allowed: 0.05 is 3 seconds) and increment seconds
MIN_MINUTES, MAX_MINUTES = 0.05, 180.0
MAX_INCREMENT = 180
#: a clock under this share of its starting time, but never above LOW_SECONDS, shows the low-time warning
LOW_SHARE, LOW_SECONDS = 0.1, 20.0
#: the most games the sweep settles a round (``turns.sweep`` runs it every few seconds)
SWEEP_LIMIT = 50


@dataclass(frozen=True)
class TimeControl:
    """``minutes`` for each seat, plus ``increment`` seconds after each of its moves (Fischer)."""

    minutes: float
    increment: int

    @property
    def initial_ms(self) -> int:
        return round(self.minutes * 60_000)

    def words(self) -> str:
        """``3+2``, ``0.05+0``."""
        minutes = int(self.minutes) if self.minutes == int(self.minutes) else self.minutes
        return f"{minutes}+{self.increment}"


def turn_based(game: Game) -> bool:
    """Whether clocks make sense for ``game``: at least two seats that move in turns (not a solo puzzle)."""
    return game.num_players >= 2


#: a time control written as text: ``3+2`` (minutes, then increment seconds)
WRITTEN = re.compile(r"(\d{1,3}(?:\.\d{1,3})?)\s*\+\s*(\d{1,3})")


def parse(value: Any, game: Game) -> TimeControl | None:
    """The time control of a new game from the request's ``clock`` (None, ``{"minutes", "increment"}`` or the text
    ``"3+2"``); ``Invalid`` saying what is wrong and what is accepted (tests/server/test_clocks.py).
    """
    if value is None:
        return None
    accepted = (f"send null for no clock, or {{\"minutes\": {MIN_MINUTES} to {MAX_MINUTES:g}, \"increment\": 0 to "
                f"{MAX_INCREMENT} seconds}}, or the same as text \"minutes+increment\" (presets: "
                f"{', '.join(f'{m:g}+{i}' for m, i in PRESETS)})")
    if isinstance(value, str):
        written = WRITTEN.fullmatch(value.strip())
        if written is None:
            raise Invalid(f"clock: {value[:40]!r} is not a time control; {accepted}")
        value = {"minutes": float(written[1]), "increment": int(written[2])}
    if not isinstance(value, dict) or set(value) - {"minutes", "increment"} or "minutes" not in value:
        raise Invalid(f"clock: {repr(value)[:60]} is not a time control; {accepted}")
    minutes, increment = value["minutes"], value.get("increment", 0)
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not math.isfinite(minutes) \
            or not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise Invalid(f"clock: minutes {repr(minutes)[:30]} is out of range; {accepted}")
    if isinstance(increment, bool) or not isinstance(increment, int) or not 0 <= increment <= MAX_INCREMENT:
        raise Invalid(f"clock: increment {repr(increment)[:30]} is not a whole number of seconds from 0 to "
                      f"{MAX_INCREMENT}; {accepted}")
    if not turn_based(game):
        raise Invalid(f"clock: {game.title} is a puzzle played alone; clocks are for games where two or more seats "
                      "move in turns (send no clock)")
    return TimeControl(float(minutes), increment)


def start(control: TimeControl, seats: int, running: int, now: float) -> dict[str, Any]:
    """The stored clocks of a new game: every seat has the whole time; ``running`` (the seat to move) runs from
    ``now``, the creation."""
    return {"minutes": control.minutes, "increment": control.increment, "remaining": [control.initial_ms] * seats,
            "running": running if running >= 0 else None, "since": now}


def remaining(clock: dict[str, Any], seat: int, now: float) -> int:
    """What ``seat`` has left at ``now`` (ms, at least 0): its stored time, less the time since its clock started
    if it is the one running."""
    left = int(clock["remaining"][seat])
    if clock.get("running") == seat:
        left -= round((now - float(clock["since"])) * 1000)
    return max(0, left)


def flag_at(clock: dict[str, Any] | None) -> float | None:
    """When the running clock falls (epoch seconds), None when none runs (what ``games.flag_at`` stores)."""
    return flag_time(clock, "active")


def fallen(room: GameRoom, now: float) -> int | None:
    """The seat whose clock fell in a game that goes on (it is to move and has no time left), or None."""
    clock = room.row.clock
    if clock is None or not room.active:
        return None
    seat = clock.get("running")
    if seat is None or remaining(clock, seat, now) > 0:
        return None
    return int(seat)


def after_moves(clock: dict[str, Any], mover: int, running: int, now: float) -> dict[str, Any]:
    """The clocks after ``mover`` moved at ``now``: charged the time since its clock started, given the increment;
    then ``running`` (the next seat to move, or -1 when the game is over) runs from ``now``."""
    left = list(clock["remaining"])
    left[mover] = remaining(clock, mover, now)
    if running >= 0:
        left[mover] += int(clock["increment"]) * 1000
    return {**clock, "remaining": left, "running": running if running >= 0 else None, "since": now}


def stopped(clock: dict[str, Any], now: float) -> dict[str, Any]:
    """The clocks once the game ends at ``now``: the running one charged to now, and none running."""
    left = [remaining(clock, seat, now) for seat in range(len(clock["remaining"]))]
    return {**clock, "remaining": left, "running": None, "since": now}


def restarted(clock: dict[str, Any], running: int, now: float) -> dict[str, Any]:
    """The clocks after an undo at ``now``: the time spent stays spent, and the seat to move now runs from now."""
    return {**stopped(clock, now), "running": running if running >= 0 else None}


def view(room: GameRoom, now: float) -> dict[str, Any] | None:
    """The clocks as a client shows them: remaining ms per seat at ``now`` (``at``, epoch ms), the running seat,
    the time control, and the low-time threshold; the client counts the running one down from ``at``."""
    clock = room.row.clock
    if clock is None:
        return None
    running = clock.get("running") if room.active else None
    initial = TimeControl(clock["minutes"], clock["increment"]).initial_ms
    return {"minutes": clock["minutes"], "increment": clock["increment"],
            "control": TimeControl(clock["minutes"], clock["increment"]).words(),
            "remaining": [remaining(clock, seat, now) if room.active else int(clock["remaining"][seat])
                          for seat in range(len(clock["remaining"]))],
            "running": running, "at": round(now * 1000),
            "low": round(min(LOW_SECONDS * 1000, initial * LOW_SHARE))}


def deadline(room: GameRoom, seat: int, now: float) -> float | None:
    """The most a computer seat may think now (seconds) so that it never loses on time: a twentieth of its time
    left plus its increment, under what it has left; None without a clock."""
    clock = room.row.clock
    if clock is None:
        return None
    left = remaining(clock, seat, now) / 1000.0
    return max(0.05, min(left / 20.0 + float(clock["increment"]), left * 0.5))


# ----- ending games on time --------------------------------------------------------------------------------

async def settle(arcade: Arcade, room: GameRoom) -> bool:
    """End the game on time if the clock of the seat to move fell (under the room's lock; the watchers are told);
    whether it did now."""
    if fallen(room, arcade.now()) is None:
        return False
    async with room.lock:
        ended = await settle_locked(arcade, room)
    if ended:
        room.broadcast()
    return ended


async def settle_locked(arcade: Arcade, room: GameRoom) -> bool:
    """``settle`` for a caller holding the room's lock (no broadcast)."""
    from damier.server.rooms.moves import finish

    seat = fallen(room, arcade.now())
    if seat is None:
        return False
    await finish(arcade, room, timeout(room.state, seat))
    return True


def arm(arcade: Arcade, room: GameRoom) -> None:
    """Set the room's one timer for the moment its running clock falls (replacing the one it had); none when no
    clock runs. The timer settles the game even when nobody sends anything."""
    disarm(room)
    if not arcade.rooms.holds(room):
        return  # evicted or replaced: whoever loads it next settles it (a timer would keep it in memory)
    falls = flag_at(room.row.clock) if room.active else None
    if falls is None:
        return
    loop = asyncio.get_running_loop()
    delay = max(0.0, falls - arcade.now()) + 0.01
    room.flag_timer = loop.call_later(delay, _fire, arcade, room)


def disarm(room: GameRoom) -> None:
    if room.flag_timer is not None:
        room.flag_timer.cancel()
        room.flag_timer = None


def _fire(arcade: Arcade, room: GameRoom) -> None:
    room.flag_timer = None
    if not arcade.rooms.holds(room) or room.settling is not None:
        return  # evicted or replaced: whoever loads it next settles it (``Arcade.room``, the sweep)
    room.settling = asyncio.create_task(_settle_soon(arcade, room))


async def _settle_soon(arcade: Arcade, room: GameRoom) -> None:
    try:
        if not await settle(arcade, room) and room.active:
            arm(arcade, room)  # not fallen yet (a move came meanwhile, or the timer fired a moment early)
    except Conflict:
        pass  # another server ended it or moved first: the room is read again at the next request
    except Exception:
        log.exception("ending game %s on time failed", room.id)
    finally:
        room.settling = None


async def sweep(arcade: Arcade) -> None:
    """Settle the games whose clock fell but whose room is not in memory (evicted, or another server's that
    stopped): each is loaded, which settles it (``Arcade.room``); at most ``SWEEP_LIMIT`` a round."""
    ids = await asyncio.to_thread(arcade.storage.running_clocks, SWEEP_LIMIT, arcade.now())
    for game_id in ids:
        try:
            await arcade.room(game_id)
        except Conflict:
            continue
        except asyncio.CancelledError:
            raise
        except Exception:  # one game that cannot be loaded must not hold up the others' ends
            log.exception("the clock of game %s cannot be settled", game_id)


async def resume(arcade: Arcade, limit: int) -> int:
    """After a start: load the games whose clock runs (the soonest to fall first, at most ``limit``): each gets
    its timer, or ends on time at once if its clock fell while the server was down; how many (logged). The games
    past ``limit`` are settled by the sweep when their clock falls."""
    ids = await asyncio.to_thread(arcade.storage.running_clocks, limit)
    for game_id in ids:
        try:
            await arcade.room(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock of game %s cannot be resumed", game_id)
    if ids:
        log.info("resumed %d games whose clock runs", len(ids))
    return len(ids)
