"""Chess clocks of a game room (Fischer time controls): the server holds each seat's remaining time, stored with
every move, so that a restart, even after ``kill -9``, finds them as they were; the running clock is its stored
remaining time less the time since it started (``since``), and each room in memory has one timer (``moves.arm``)
for the next moment the clocks need the server (a flag falls, or a first move is overdue). This module is the
clocks' arithmetic, pure; ``moves`` holds their timers.

As on lichess, a seat's clock runs only once the seat has made its first move: nobody loses on time before the
game has started (a host waiting for a friend, a player reading the tutorial against the computer). Instead, in a
game between people, a seat to make its first move must make it within ``FIRST_MOVE_SECONDS`` of its turn (counted
from when every person has joined: opened the game, or moved), or within ``JOIN_SECONDS`` while someone has not
joined yet; otherwise the game is aborted (``damier.core.game.aborted``: nobody wins, it does not count).

The stored form (``GameRow.clock``): ``{"minutes", "increment", "remaining": [ms per seat], "running": seat or
null, "since": epoch seconds, "joined": {seat: epoch seconds}, "abort_at": epoch seconds or null}``: the running
seat's clock runs from ``since`` (the moment the previous move, or the creation, was stored); ``joined`` says when
each person first joined, and ``abort_at`` when the game is aborted if the seat to move has not moved by then. A
move is charged the time since its clock started (none for a first move), refused if that exhausts the clock (the
game is then lost on time), and given the increment."""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from damier.core import messages
from damier.core.game import Game, Outcome, aborted, timeout
from damier.server.rooms.errors import Invalid
from damier.server.storage import flag_time
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.room import GameRoom

log = logging.getLogger("damier.server")

#: the time controls the new-game form offers (minutes, increment seconds), lichess's usual ones
PRESETS: tuple[tuple[float, int], ...] = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20))
#: bounds of a custom time control: minutes (fractions allowed: 0.05 is 3 seconds) and increment seconds
MIN_MINUTES, MAX_MINUTES = 0.05, 180.0
MAX_INCREMENT = 180
#: a clock under this share of its starting time, but never above LOW_SECONDS, shows the low-time warning
LOW_SHARE, LOW_SECONDS = 0.1, 20.0
#: seconds a person has for a first move once every person of the game has joined (lichess's 30 s), and before
FIRST_MOVE_SECONDS = 30.0
JOIN_SECONDS = 900.0
#: the bounds of the time a person must have left a game before the others may claim it (``leave_seconds``)
LEAVE_MIN_SECONDS, LEAVE_MAX_SECONDS = 15.0, 60.0


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


def leave_seconds(clock: dict[str, Any] | None) -> float:
    """How long a person must have been gone from a game under way (no page, no request) before the others may
    claim the win or a draw (lichess's "opponent left"): a tenth of the time control's minutes in seconds, within
    15 s to 60 s; 60 s without a clock.

    >>> [leave_seconds(None)] + [leave_seconds({"minutes": minutes}) for minutes in (1, 5, 30)]
    [60.0, 15.0, 30.0, 60.0]
    """
    if clock is None:
        return LEAVE_MAX_SECONDS
    return min(LEAVE_MAX_SECONDS, max(LEAVE_MIN_SECONDS, float(clock["minutes"]) * 60 / 10))


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
    # what is accepted (each message ends with it): the bounds and presets as the request writes them
    accepted: dict[str, Any] = {"min_minutes": f"{MIN_MINUTES}", "max_minutes": f"{MAX_MINUTES:g}",
                                "max_increment": f"{MAX_INCREMENT}",
                                "presets": ", ".join(f"{m:g}+{i}" for m, i in PRESETS)}
    if isinstance(value, str):
        written = WRITTEN.fullmatch(value.strip())
        if written is None:
            raise Invalid(say("error.game.clock_not_a_time_control", value=repr(value[:40]), **accepted))
        value = {"minutes": float(written[1]), "increment": int(written[2])}
    if not isinstance(value, dict) or set(value) - {"minutes", "increment"} or "minutes" not in value:
        raise Invalid(say("error.game.clock_not_a_time_control", value=repr(value)[:60], **accepted))
    minutes, increment = value["minutes"], value.get("increment", 0)
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not math.isfinite(minutes) \
            or not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise Invalid(say("error.game.clock_minutes_range", value=repr(minutes)[:30], **accepted))
    if isinstance(increment, bool) or not isinstance(increment, int) or not 0 <= increment <= MAX_INCREMENT:
        raise Invalid(say("error.game.clock_increment", value=repr(increment)[:30], **accepted))
    if not turn_based(game):
        raise Invalid(say("error.game.clock_solo", game=messages.title_of(game)))
    return TimeControl(float(minutes), increment)


def start(control: TimeControl, seats: int, to_move: int, humans: list[int], now: float) -> dict[str, Any]:
    """The stored clocks of a new game created at ``now``: every seat has the whole time and none runs (a seat's
    clock starts after its first move); ``to_move`` (the first seat to move) has until ``abort_at`` to move in a
    game between people (``humans``: the people's seats)."""
    clock = {"minutes": control.minutes, "increment": control.increment, "remaining": [control.initial_ms] * seats,
             "running": None, "since": now, "joined": {}, "abort_at": None}
    return turn(clock, to_move, set(), humans, now)


def turn(clock: dict[str, Any], to_move: int, moved: set[int], humans: list[int], now: float) -> dict[str, Any]:
    """The clocks when ``to_move`` (-1: nobody, the game is over) comes to move at ``now``, the seats ``moved``
    having made a move: its clock runs if it has moved before; otherwise none runs, and in a game between people
    (``humans``, at least two) a person to make a first move must make it by ``abort_at``."""
    clock = {**clock, "since": now, "running": None, "abort_at": None}
    if to_move >= 0 and to_move in moved:
        clock["running"] = to_move
    elif to_move >= 0 and to_move in humans and len(humans) >= 2:
        clock["abort_at"] = first_move_deadline(clock, humans)
    return clock


def first_move_deadline(clock: dict[str, Any], humans: list[int]) -> float:
    """When the seat to move, whose turn began at ``since``, must have made its first move: ``FIRST_MOVE_SECONDS``
    after its turn began or after the last person joined, whichever is later; ``JOIN_SECONDS`` after its turn
    began while a person has not joined yet."""
    joined = clock.get("joined") or {}
    since = float(clock["since"])
    if any(str(seat) not in joined for seat in humans):
        return since + JOIN_SECONDS
    return max(since, *(float(joined[str(seat)]) for seat in humans)) + FIRST_MOVE_SECONDS


def join(clock: dict[str, Any], seats: list[int], humans: list[int], now: float) -> dict[str, Any] | None:
    """The clocks once the people of ``seats`` joined the game at ``now`` (their page said so, or they moved): the
    moment each first joined is kept, and the first-move deadline follows; None when nothing changes."""
    joined = dict(clock.get("joined") or {})
    new = [seat for seat in seats if str(seat) not in joined]
    if not new:
        return None
    for seat in new:
        joined[str(seat)] = now
    clock = {**clock, "joined": joined}
    if clock.get("abort_at") is not None:
        clock["abort_at"] = first_move_deadline(clock, humans)
    return clock


def remaining(clock: dict[str, Any], seat: int, now: float) -> int:
    """What ``seat`` has left at ``now`` (ms, at least 0): its stored time, less the time since its clock started
    if it is the one running."""
    left = int(clock["remaining"][seat])
    if clock.get("running") == seat:
        left -= round((now - float(clock["since"])) * 1000)
    return max(0, left)


def flag_at(clock: dict[str, Any] | None) -> float | None:
    """When the clocks next need the server (epoch seconds: the running clock falls, or a first move is overdue),
    None when neither can happen (what ``games.flag_at`` stores)."""
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


def overdue(room: GameRoom, now: float) -> int | None:
    """The seat whose first move is overdue in a game that goes on (the game is to be aborted), or None."""
    clock = room.row.clock
    if clock is None or not room.active or clock.get("abort_at") is None or now < float(clock["abort_at"]):
        return None
    seat = room.state.player
    return seat if seat >= 0 and seat not in room.moved_seats() else None


def due(room: GameRoom, now: float) -> bool:
    """Whether the clocks end the game now: a flag fell, or a first move is overdue."""
    return fallen(room, now) is not None or overdue(room, now) is not None


def after_moves(clock: dict[str, Any], mover: int, to_move: int, moved: set[int], humans: list[int],
                now: float) -> dict[str, Any]:
    """The clocks after ``mover`` moved at ``now``: charged the time since its clock started and given the
    increment (a first move, whose clock did not run, costs nothing); then ``to_move`` (the next seat to move, or
    -1 when the game is over) comes to move, ``moved`` being the seats that have moved by then (``turn``)."""
    left = list(clock["remaining"])
    left[mover] = remaining(clock, mover, now)
    if to_move >= 0 and clock.get("running") == mover:
        left[mover] += int(clock["increment"]) * 1000
    joined = clock.get("joined") or {}
    if mover in humans and str(mover) not in joined:
        joined = {**joined, str(mover): now}  # a person who moves has joined
    return turn({**clock, "remaining": left, "joined": joined}, to_move, moved, humans, now)


def stopped(clock: dict[str, Any], now: float) -> dict[str, Any]:
    """The clocks once the game ends at ``now``: the running one charged to now, and none running."""
    left = [remaining(clock, seat, now) for seat in range(len(clock["remaining"]))]
    return {**clock, "remaining": left, "running": None, "since": now, "abort_at": None}


def restarted(clock: dict[str, Any], to_move: int, moved: set[int], humans: list[int], now: float) -> dict[str, Any]:
    """The clocks after an undo at ``now``: the time spent stays spent, and the seat to move now comes to move
    (``turn``: its clock runs from now if it has moved before)."""
    return turn(stopped(clock, now), to_move, moved, humans, now)


def view(room: GameRoom, now: float) -> dict[str, Any] | None:
    """The clocks as a client shows them: remaining ms per seat at ``now`` (``at``, epoch ms), the running seat,
    the time control, and the low-time threshold; the client counts the running one down from ``at``. While the
    seat to move has not made its first move (its clock does not run yet), ``first_move`` is that seat, and in a
    game between people ``abort_in`` the ms it has left before the game is aborted (else null)."""
    clock = room.row.clock
    if clock is None:
        return None
    running = clock.get("running") if room.active else None
    initial = TimeControl(clock["minutes"], clock["increment"]).initial_ms
    to_move = room.state.player
    first = to_move if room.active and to_move >= 0 and to_move not in room.moved_seats() else None
    abort_at = clock.get("abort_at") if first is not None else None
    return {"minutes": clock["minutes"], "increment": clock["increment"],
            "control": TimeControl(clock["minutes"], clock["increment"]).words(),
            "remaining": [remaining(clock, seat, now) if room.active else int(clock["remaining"][seat])
                          for seat in range(len(clock["remaining"]))],
            "running": running, "at": round(now * 1000),
            "low": round(min(LOW_SECONDS * 1000, initial * LOW_SHARE)),
            "first_move": first,
            "abort_in": max(0, round((float(abort_at) - now) * 1000)) if abort_at is not None else None}


def deadline(room: GameRoom, seat: int, now: float) -> float | None:
    """The most a computer seat may think now (seconds) so that it never loses on time: a twentieth of its time
    left plus its increment, under what it has left; None without a clock."""
    clock = room.row.clock
    if clock is None:
        return None
    left = remaining(clock, seat, now) / 1000.0
    return max(0.05, min(left / 20.0 + float(clock["increment"]), left * 0.5))


def verdict(room: GameRoom, now: float) -> Outcome | None:
    """How the clocks end the game now, if they do: lost on time when the clock of the seat to move fell, aborted
    when its first move is overdue; None while neither."""
    seat = fallen(room, now)
    if seat is not None:
        return timeout(room.state, seat)
    seat = overdue(room, now)
    if seat is not None:
        return aborted(room.state, messages.say("outcome.no_first_move", room.game,
                                                seat={"seat": seat}))
    return None
