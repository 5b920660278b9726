"""A game between seats: one live game of the arcade, its seats (people or computers), the authoritative
``State`` rebuilt from the stored moves, and the computer turn or hint running for it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from damier.core.game import Game, State
from damier.server.rooms.game import clocks, views
from damier.server.rooms.room import Room, encode
from damier.server.storage import GameRow


class GameRoom(Room):
    """The room of one game: ``row`` is what the database holds, ``state`` the position it leads to."""

    def __init__(self, row: GameRow, game: Game, state: State) -> None:
        super().__init__(row.id)
        self.row = row
        self.game = game
        self.state = state
        self.thinking: int | None = None  # the computer seat thinking now (its turn is the arcade's)
        #: the arcade's clock (seconds since the epoch) that the view's clocks are read on (``Arcade.room``)
        self.now: Callable[[], float] = time.time
        self.hint_lock = asyncio.Lock()
        #: hints computed for the position: (version, graded level or None) -> answer
        self.hint_cache: dict[tuple[int, int | None], dict[str, Any]] = {}
        #: a finished puzzle's optimal line from its start, once searched in the pool (``turns.solve``), and
        #: whether it is being searched
        self.solution: list[str] | None = None
        self.solving = False
        #: the move list's marks (``State.move_marks``) of the moves in ``_marked``: kept, and extended as moves come
        self._marks: list[str] = []
        self._marked: list[tuple[str, int]] = []
        #: the one timer for the moment the running clock falls (``moves.arm``), and the task ending the game
        #: on time once it fired
        self.flag_timer: asyncio.TimerHandle | None = None
        self.settling: asyncio.Task[None] | None = None
        self._start_position: str | None = None
        #: since when (epoch seconds, on ``now``) each person's seat has had nobody here (no socket playing it, no
        #: request with its token): the seats not named have been here since the room came into memory
        self.absent_since: dict[int, float] = {}
        self._opened = time.time()
        #: when each person last acted with their token over HTTP (a player without a socket is here too)
        self._acted: dict[int, float] = {}

    def job_start(self) -> str | None:
        """The start a worker replays the game from: the stored one, or for a start drawn from a seed its position
        (drawn once, here: the worker need not draw it again)."""
        if self.row.start is not None or not self.game.info.seeded_setup:
            return self.row.start
        return self.start_position()

    def known_start(self, position: str) -> None:
        """The position the game began from, known already (drawn in the worker pool: ``setups``)."""
        self._start_position = position

    def start_position(self) -> str:
        """The position the game began from, as a position string (a seeded deal's too, whose ``row.start`` is
        None), computed once."""
        if self._start_position is None:
            self._start_position = self.game.start_state(self.row.start, self.row.seed).position()
        return self._start_position

    def move_marks(self) -> list[str]:
        """The mark of each stored move ("x": it took something), computed once per move: the marks of the moves
        already marked are kept while those moves stay (an undo or another server's change marks again)."""
        moves = self.row.moves
        kept = len(self._marked) if moves[:len(self._marked)] == self._marked else 0
        if kept != len(moves) or kept != len(self._marks):
            self._marks = self._marks[:kept] + self.state.move_marks(kept)
            self._marked = list(moves)
        return self._marks

    @property
    def client(self) -> str | None:
        """The address group that created the game (stored with it): its computer's jobs take that group's share
        of the computer pool (None: a game stored before it was known takes its own)."""
        return self.row.client

    @property
    def active(self) -> bool:
        return self.row.status == "active"

    @property
    def version(self) -> int:
        """The number of moves played (chance events included): clients send it to refuse stale clicks."""
        return len(self.state.history)

    @property
    def idle(self) -> bool:
        return super().idle and self.thinking is None and not self.hint_lock.locked()

    def human_seats(self) -> list[int]:
        return [s.index for s in self.row.seats if s.kind == "human"]

    def moved_seats(self) -> set[int]:
        """The seats that have made a move (chance events are nobody's)."""
        return {player for _, player in self.row.moves if player >= 0}

    @property
    def abortable(self) -> bool:
        """Whether the game may still be aborted: a game of two players or more goes on, and some seat has not made
        its first move (lichess: before both players have moved). A puzzle is given up instead."""
        return self.active and self.game.num_players > 1 and len(self.moved_seats()) < self.game.num_players

    def hints_allowed(self) -> bool:
        """Whether a person may ask for a hint: when every other seat is a computer's (a puzzle, a game against
        the computer), or in a casual game created with hints on; never in a game between people otherwise."""
        return len(self.human_seats()) <= 1 or self.row.hints_on

    def computer_level(self, seat: int) -> str | None:
        s = self.row.seats[seat]
        return s.level if s.kind == "computer" else None

    def snapshot(self) -> dict[str, Any]:
        return views.view(self)

    # ----- who left ---------------------------------------------------------------------------------------------
    def presence_changed(self) -> None:
        now = self.now()
        here = self.presence()
        for seat in self.human_seats():
            if str(seat) in here:
                self.absent_since.pop(seat, None)
            else:
                self.absent_since.setdefault(seat, now)

    def acted(self, seat: int) -> None:
        """The person of ``seat`` sent a request with its token (a move, an offer...)."""
        self._acted[seat] = self.now()

    def absent(self, now: float) -> dict[int, float]:
        """The people's seats nobody plays now, with how long (seconds) since someone did: no socket plays the
        seat here or on another server, and no request came with its token since."""
        here = self.presence()
        gone = {}
        for seat in self.human_seats():
            if str(seat) in here:
                continue
            since = max(self.absent_since.get(seat, self._opened), self._acted.get(seat, 0.0))
            gone[seat] = max(0.0, now - since)
        return gone

    def presence_message(self) -> str:
        """Who is here (``seats``: online or away, as every room says it), and for a game between people under
        way, the people who left (``left``: seat -> ms since) and the ms after which the others may claim the game
        once every seat has moved (``claim_after``, ``clocks.leave_seconds``; before, a game is aborted)."""
        message: dict[str, Any] = {"type": "presence", "seats": self.presence()}
        if self.active and len(self.human_seats()) > 1:
            message["left"] = {str(seat): round(seconds * 1000) for seat, seconds in self.absent(self.now()).items()}
            message["claim_after"] = round(clocks.leave_seconds(self.row.clock) * 1000)
        return encode(message)

    def release(self) -> None:
        self._stop_timer()
        super().release()

    def close(self) -> None:
        self._stop_timer()
        super().close()

    def _stop_timer(self) -> None:
        """The clock's timer stops with the room: whoever loads the game again settles a clock that fell meanwhile
        (``Arcade.room``, and the sweep for the games nobody asks for)."""
        if self.flag_timer is not None:
            self.flag_timer.cancel()
            self.flag_timer = None

