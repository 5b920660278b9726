"""Admission, not degradation: the arcade knows its computer capacity (its workers, each busy or not) and admits new
computer work (a game against the computer, a hint, an analysis, a puzzle drawn) only while the work it admitted
fits; beyond that the answer is 503 with ``Retry-After`` and words a player understands ("the arcade is busy"), so
that the work already admitted always gets its budget.

What a game asks of the computer is measured, not guessed: each game's **demand** is the share of the time it has a
computer job waiting or running (an exponentially weighted mean over ``WINDOW`` seconds). A person thinking between
moves asks little (a 1 s answer after 10 s of thought: 0.09); a program that answers at once asks all the time
(close to 1), whatever it gets. The games admitted together may ask at most ``UTILISATION`` of the workers (a game
just created counts ``NEW_DEMAND`` until it is measured), and a new game is refused beyond that.

A game that asks more than ``GREEDY`` (a program, not a person) is **greedy**: the pool runs greedy jobs on all its
workers but one, so the games of people always find a worker within a moment, however many programs flood the pool
(``damier.server.computer``); a greedy game is still served, with what is left. One-off jobs (a hint, an analysis, a
puzzle drawn) are admitted while the wait a new job would have, the work queued and running shared by the workers,
is under ``MAX_WAIT`` seconds.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

#: seconds over which a game's demand is averaged (the time constant of the weighted mean)
WINDOW = 30.0
#: the share of the workers the games admitted together may ask (the rest absorbs their bursts; ``damier serve
#: --limits booking=85``, in percent)
UTILISATION = 0.85
#: the demand of a game not measured yet: a person's game asks about a tenth (1 s answers to 10 s of thought); a
#: program's shows within its first turns
NEW_DEMAND = 0.1
#: a game asking more than this is greedy: its jobs leave one worker to the others
GREEDY = 0.5
#: the longest a one-off job (a hint, a puzzle drawn) may expect to wait for a worker to be admitted, and a long
#: one (an analysis, which reports as it deepens)
MAX_WAIT = 2.0
MAX_LONG_WAIT = 15.0
#: a game whose demand has decayed below this is no longer counted (it was left: adjourned)
NEGLIGIBLE = 0.01
#: games measured at most (the least recently seen are forgotten first)
TRACKED = 20_000
#: seconds a refused client is told to wait before asking again
RETRY_AFTER = 20


class Busy(Exception):
    """The arcade cannot admit this work now: the computer players are fully booked (503, ``retry_after``)."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


@dataclass
class Demand:
    """A game's demand: the weighted mean of whether a job of it waits or runs, as of ``at``."""

    share: float
    at: float
    pending: int = 0  # its jobs waiting or running now


class Admission:
    """The computer capacity of ``workers`` processes, the demand of each game, and the verdicts."""

    def __init__(self, workers: int, utilisation: float = UTILISATION,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self.utilisation = utilisation
        self.clock = clock
        self._games: OrderedDict[str, Demand] = OrderedDict()
        self._count = 0

    # ----- measuring --------------------------------------------------------------------------------------------
    def _advance(self, demand: Demand, now: float) -> None:
        elapsed = max(0.0, now - demand.at)
        decay = math.exp(-elapsed / WINDOW)
        target = 1.0 if demand.pending else 0.0
        demand.share = demand.share * decay + target * (1.0 - decay)
        demand.at = now

    def _demand(self, key: str, now: float) -> Demand:
        demand = self._games.get(key)
        if demand is None:
            demand = self._games[key] = Demand(NEW_DEMAND, now)
            while len(self._games) > TRACKED:
                self._games.popitem(last=False)
        else:
            self._advance(demand, now)
            self._games.move_to_end(key)
        return demand

    def started(self, key: str) -> None:
        """A job of game ``key`` is waiting or running from now."""
        self._demand(key, self.clock()).pending += 1

    def ended(self, key: str) -> None:
        """A job of game ``key`` ended (answered, failed, or given up)."""
        demand = self._demand(key, self.clock())
        demand.pending = max(0, demand.pending - 1)

    def demand(self, key: str) -> float:
        """The share of the time game ``key`` has asked the computer lately (``NEW_DEMAND`` when not measured)."""
        demand = self._games.get(key)
        if demand is None:
            return NEW_DEMAND
        self._advance(demand, self.clock())
        return demand.share

    def greedy(self, key: str) -> bool:
        """Whether game ``key`` asks the computer more than a person does (``GREEDY``)."""
        return self.demand(key) > GREEDY

    def booked(self) -> float:
        """The workers the games under way ask for together."""
        now = self.clock()
        total = 0.0
        for demand in self._games.values():
            self._advance(demand, now)
            if demand.share >= NEGLIGIBLE or demand.pending:
                total += min(1.0, demand.share)
        return total

    # ----- verdicts ---------------------------------------------------------------------------------------------
    def admit_game(self) -> str:
        """Admit a new game with a computer seat, or ``Busy`` when the games under way ask for what the workers
        have (``utilisation``). The game counts at once, ``NEW_DEMAND`` under the name returned until ``rename``
        gives it its own (games asked for at once cannot all pass)."""
        booked = self.booked()
        if booked + NEW_DEMAND > self.workers * self.utilisation:
            raise Busy(f"the arcade is busy: its computer players are fully booked by the games under way (they ask "
                       f"{booked:.1f} of its {self.workers} workers); try again in a minute, or play a friend")
        self._count += 1
        name = f"new game {self._count}"
        self._demand(name, self.clock())
        return name

    def rename(self, name: str, key: str) -> None:
        """The game admitted as ``name`` is game ``key`` now."""
        demand = self._games.pop(name, None)
        if demand is not None:
            self._games[key] = demand

    def forget(self, name: str) -> None:
        """A game admitted as ``name`` was not made after all."""
        self._games.pop(name, None)

    def admit_job(self, queued_seconds: float, asking: str, long: bool = False) -> None:
        """Admit a one-off job (``asking``, what the player does: "ask for the hint", "analyse", "draw a new one")
        when the work ahead of it, ``queued_seconds``, leaves it waiting under ``MAX_WAIT``; else ``Busy``. A
        ``long`` job (an analysis) has all the workers but one (``computer.LONG_SECONDS``)."""
        wait = queued_seconds / max(1, self.workers - 1 if long else self.workers)
        if wait > (MAX_LONG_WAIT if long else MAX_WAIT):
            raise Busy(f"the arcade is busy: its computer players have {wait:.0f} s of work waiting; {asking} again "
                       "in a moment", max(2, math.ceil(wait)))
