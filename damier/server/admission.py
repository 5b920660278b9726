"""Admission, not degradation: the arcade knows its computer capacity (its workers, each busy or not) and admits new
computer work (a game against the computer, a hint, an analysis, a puzzle drawn) only while the work it admitted
fits; beyond that the answer is 503 with ``Retry-After`` and words a player understands ("the arcade is busy"), so
that the work already admitted always gets its budget.

What a game asks of the computer is measured, not guessed: each game's **demand** is the share of the time its
computer thinks, a weighted mean over its last ``WINDOW`` seconds (over its whole life while it is younger, from a
prior worth ``PRIOR_SECONDS`` of ``NEW_DEMAND``: a game is known after its first turns), its clock stopped while a
job of it only waits for a worker (the wait is the arcade's doing, not the game's). A person thinking between moves
asks little (a 1 s answer after 10 s of thought: 0.09); a program that answers at once asks all the time (close to
1), however long it waits.

A game is **greedy** when it asks more than ``GREEDY`` (a program, not a person), or when its replies come quicker
than ``QUICK_REPLY`` (a program answers at once, from its first move; no person does, but with a premove): the pool
runs greedy jobs on all its workers but one, after the others, so the games of people always find a worker within a
moment, however many programs flood the pool (``damier.server.computer``); a greedy game is still served, with what
is left, and its turns still think their whole budget.

**Booking.** The games admitted together may ask at most ``utilisation`` of the workers: the greedy games count
for the workers they may use (all but one) at most, so that they never book the worker kept for people; a game
younger than ``PROBATION_SECONDS`` counts at least ``PROBATION_DEMAND`` (a burst of new games cannot all pass
before any is measured). A new game with a computer seat is refused beyond that. One-off jobs (a hint, an analysis,
a puzzle drawn) are admitted while the wait a new job would have, the work queued and running shared by the
workers, is under ``MAX_WAIT`` seconds.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from damier.server.words import say

#: seconds over which a game's demand is averaged (the time constant of the weighted mean), and the weight of the
#: prior of a game not measured yet (seconds of ``NEW_DEMAND``)
WINDOW = 30.0
PRIOR_SECONDS = 2.0
#: the share of the workers the games admitted together may ask (the rest absorbs their bursts; ``damier serve
#: --limits booking=85``, in percent)
UTILISATION = 0.85
#: the demand of a game not measured yet: a person's game asks about a tenth (1 s answers to 10 s of thought); a
#: program's shows within its first turns
NEW_DEMAND = 0.1
#: a game this young (seconds since it was admitted) books at least this much of a worker
PROBATION_SECONDS = 10.0
PROBATION_DEMAND = 0.25
#: a game asking more than this is greedy: its jobs leave one worker to the others
GREEDY = 0.6
#: a reply this quick (seconds from the computer's answer to the person's next move) is a program's; the weight of
#: each reply in a game's share of quick ones, and the share from which the game is greedy (a program's first quick
#: reply makes it greedy; a person's premove, answered by a slower move, does not keep it so)
QUICK_REPLY = 0.5
QUICK_WEIGHT = 0.5
QUICK_SHARE = 0.5
#: the longest a one-off job (a hint, a puzzle drawn) may expect to wait for a worker to be admitted, and a long
#: one (an analysis, which reports as it deepens)
MAX_WAIT = 2.0
MAX_LONG_WAIT = 15.0
#: a game whose demand has decayed below this, no job of it waiting or running, is forgotten (it was left:
#: adjourned; it is measured again from the prior if it comes back)
NEGLIGIBLE = 0.01
#: games measured at most (the least recently seen are forgotten first)
TRACKED = 20_000
#: seconds a refused client is told to wait before asking again
RETRY_AFTER = 20
#: what a player does to ask for a one-off job again (``admit_job``'s ``asking``), by the word its refusal says it
#: with in every language (``error.busy.work_waiting``; another is said as it is)
ASKING = {"ask for the hint": "hint", "analyse": "analyse", "draw a new one": "draw", "ask for the graph": "graph",
          "offer": "offer"}


class Busy(Exception):
    """The arcade cannot admit this work now: the computer players are fully booked (503, ``retry_after``)."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


@dataclass
class Demand:
    """A game's demand: the weighted mean of whether its computer thinks, as of ``at``, and the seconds measured
    (``age``: its clock stopped while it only waits); when it was admitted (None: a game loaded again, not new); its
    jobs waiting for a worker and running now; when its computer last answered (None: never, or a turn is under
    way); and the weighted share of its replies that came quicker than ``QUICK_REPLY``."""

    share: float
    at: float
    age: float = 0.0
    admitted: float | None = None
    waiting: int = 0
    running: int = 0
    answered: float | None = None
    quick: float = 0.0


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
        demand.at = now
        if demand.waiting and not demand.running:
            return  # it only waits for a worker: its clock stops
        demand.age += elapsed
        # over its whole life while it is young (the prior fading), over the last WINDOW seconds then
        decay = math.exp(-elapsed / min(WINDOW, PRIOR_SECONDS + demand.age))
        target = 1.0 if demand.running else 0.0
        demand.share = demand.share * decay + target * (1.0 - decay)

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

    def started(self, key: str, follows: str = "person") -> None:
        """A turn of game ``key`` waits for a worker from now. It ``follows`` a "person"'s move (their reply time,
        from the computer's last answer, counts), a "computer"'s (nobody thought between: a quick reply), or the
        "start" of the game (nothing to measure)."""
        now = self.clock()
        demand = self._demand(key, now)
        if follows == "computer" or (follows == "person" and demand.answered is not None):
            quick = follows == "computer" or now - (demand.answered or now) < QUICK_REPLY
            demand.quick = demand.quick * (1.0 - QUICK_WEIGHT) + QUICK_WEIGHT * quick
        demand.answered = None
        demand.waiting += 1

    def running(self, key: str) -> None:
        """A turn of game ``key`` that waited got a worker: its computer thinks from now."""
        demand = self._demand(key, self.clock())
        if demand.waiting:
            demand.waiting -= 1
            demand.running += 1

    def ended(self, key: str) -> None:
        """A turn of game ``key`` ended (answered, failed, or given up)."""
        now = self.clock()
        demand = self._demand(key, now)
        if demand.running:
            demand.running -= 1
        elif demand.waiting:
            demand.waiting -= 1
        demand.answered = now

    def demand(self, key: str) -> float:
        """The share of the time game ``key``'s computer thought lately (``NEW_DEMAND`` when not measured)."""
        demand = self._games.get(key)
        if demand is None:
            return NEW_DEMAND
        self._advance(demand, self.clock())
        return demand.share

    def greedy(self, key: str) -> bool:
        """Whether game ``key`` asks the computer more than a person does (``GREEDY``), or replies as quick as a
        program (``QUICK_REPLY``)."""
        demand = self._games.get(key)
        if demand is None:
            return False
        self._advance(demand, self.clock())
        return _greedy(demand)

    def booked(self) -> float:
        """The workers the games under way ask for together: a young game's at least ``PROBATION_DEMAND``, the
        greedy ones' at most all the workers but one. The games left are forgotten on the way."""
        now = self.clock()
        people = greedy = 0.0
        for key, demand in list(self._games.items()):
            self._advance(demand, now)
            young = demand.admitted is not None and now - demand.admitted < PROBATION_SECONDS
            if demand.share < NEGLIGIBLE and not (young or demand.waiting or demand.running):
                del self._games[key]
                continue
            if _greedy(demand):
                greedy += min(1.0, demand.share)
            else:
                people += max(min(1.0, demand.share), PROBATION_DEMAND if young else 0.0)
        return people + min(greedy, max(1, self.workers - 1))

    # ----- verdicts ---------------------------------------------------------------------------------------------
    def admit_game(self) -> str:
        """Admit a new game with a computer seat, or ``Busy`` when the games under way ask for what the workers
        have (``utilisation``). The game counts at once, ``PROBATION_DEMAND`` at least under the name returned
        until ``rename`` gives it its own (games asked for at once cannot all pass)."""
        self.check_game()
        self._count += 1
        name = f"new game {self._count}"
        now = self.clock()
        demand = self._demand(name, now)
        demand.admitted = now
        demand.answered = now  # a person's first move is a reply too: to the new board
        return name

    def check_game(self) -> None:
        """``Busy`` when a new game with a computer seat would not be admitted now (``admit_game``): a quick look,
        before anything else is done for it."""
        booked = self.booked()
        if booked + PROBATION_DEMAND > self.workers * self.utilisation:
            raise Busy(say("error.busy.booked", booked=f"{booked:.1f}", workers=self.workers))

    def rename(self, name: str, key: str) -> None:
        """The game admitted as ``name`` is game ``key`` now: made, its board given to its player, whose first move
        replies to it from now (making a game may take a while under a burst of them)."""
        demand = self._games.pop(name, None)
        if demand is not None:
            demand.answered = self.clock()
            self._games[key] = demand

    def shown(self, key: str) -> None:
        """New game ``key``'s board was sent to its player now (its response written): their first move replies
        to it from now (a burst may hold the response well after the game was made, ``rename``), and so does the
        reply to a first computer move made before it was sent."""
        demand = self._games.get(key)
        if demand is not None and demand.answered is not None:  # None: a turn of its computer is under way
            demand.answered = self.clock()

    def forget(self, name: str) -> None:
        """A game admitted as ``name`` was not made after all."""
        self._games.pop(name, None)

    def admit_job(self, queued_seconds: float, asking: str, long: bool = False) -> None:
        """Admit a one-off job (``asking``, what the player does: "ask for the hint", "analyse", "draw a new one")
        when the work ahead of it, ``queued_seconds``, leaves it waiting under ``MAX_WAIT``; else ``Busy``. A
        ``long`` job (an analysis) has all the workers but one (``computer.LONG_SECONDS``)."""
        wait = queued_seconds / max(1, self.workers - 1 if long else self.workers)
        if wait > (MAX_LONG_WAIT if long else MAX_WAIT):
            raise Busy(say("error.busy.work_waiting", seconds=str(round(wait)), action=ASKING.get(asking, ""),
                           asking=asking), max(2, math.ceil(wait)))


def _greedy(demand: Demand) -> bool:
    """A program's game: its replies quick, or asking more of the computer than a person does."""
    return demand.quick >= QUICK_SHARE or demand.share > GREEDY
