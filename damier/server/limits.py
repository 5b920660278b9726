"""What one client (one address group: an IPv4 address, an IPv6 /64) may ask of the arcade: new games a minute,
games with a computer seat going on at once (moved in the last ``ADJOURN_MINUTES``: the games are looked up in the
database, where each game keeps the address and the identity that created it), hints and analyses being computed
at once. Past a limit the answer is 429 with ``Retry-After``, and nothing is done.

The address is the connection's (behind a reverse proxy, name the proxy with ``damier serve --forwarded-allow-ips``
so that it is the client's, not the proxy's). The rates and the work in flight are counted in memory, for this
server process.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, fields, replace
from typing import TypeVar

from damier.server.rooms.errors import TooMany
from damier.server.rooms.game.idle import ADJOURN_MINUTES
from damier.server.words import say

V = TypeVar("V")

#: addresses remembered at most (the least recently seen are forgotten first)
MAX_CLIENTS = 10_000


@dataclass(frozen=True)
class Limits:
    """Per client address: ``new_games`` created a minute (games, puzzles, races, rematches, imported records;
    as many at once), ``computer_games`` going on at once with a computer seat, ``hints`` computing at once,
    ``heavy_reads`` a minute (position checks, the analysis board's positions, replay pages, the puzzle of the day:
    answers that cost the server more than they cost the asker; as many at once)."""

    new_games: int = 30
    computer_games: int = 4
    hints: int = 2
    heavy_reads: int = 120
    #: not a client's: the percent of the computer workers that the games under way may ask together before a new
    #: game against the computer is refused (``damier.server.admission``)
    booking: int = 85

    @classmethod
    def parse(cls, text: str) -> Limits:
        """``"new_games=30,computer_games=4,hints=2"`` (any of them; the others keep their defaults).

        >>> Limits.parse("hints=1")
        Limits(new_games=30, computer_games=4, hints=1, heavy_reads=120, booking=85)
        """
        names = [f.name for f in fields(cls)]
        limits = cls()
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, _, value = part.partition("=")
            if name.strip() not in names or not value.strip().isdigit() or int(value) < 1:
                raise ValueError(f"a limit is NAME=N with N >= 1 and NAME one of {', '.join(names)}; not {part!r}")
            limits = replace(limits, **{name.strip(): int(value)})
        return limits


class ClientLimits:
    """The limits applied: a token bucket of new games per address, the computer games and hints in flight."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self._clock = clock  # the buckets' time (seconds); a test may pass its own
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when counted
        self._reads: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._hints: dict[str, int] = {}
        self._creating: dict[str, int] = {}
        self._creation_locks: dict[str, asyncio.Lock] = {}

    def new_game(self, address: str) -> None:
        """Count a new game of ``address``; ``TooMany`` (nothing counted) past ``new_games`` a minute."""
        self._take(self._buckets, address, self.limits.new_games,
                   say("error.limit.new_games", count=self.limits.new_games))

    def heavy_read(self, address: str) -> None:
        """Count a heavy read of ``address``; ``TooMany`` (nothing done) past ``heavy_reads`` a minute."""
        self._take(self._reads, address, self.limits.heavy_reads,
                   say("error.limit.heavy_reads", count=self.limits.heavy_reads))

    def _take(self, buckets: OrderedDict[str, tuple[float, float]], address: str, per_minute: int,
              words: str) -> None:
        """Take one from ``address``'s token bucket of ``per_minute`` (as many at once); ``TooMany`` saying
        ``words`` when it is empty."""
        rate = per_minute / 60.0
        now = self._clock()
        tokens, at = buckets.pop(address, (float(per_minute), now))
        tokens = min(float(per_minute), tokens + (now - at) * rate)
        if tokens < 1.0:
            self._remember(buckets, address, (tokens, now))
            raise TooMany(words, math.ceil((1.0 - tokens) / rate))
        self._remember(buckets, address, (tokens - 1.0, now))

    def check_computer_games(self, address: str, holding: list[dict[str, str]]) -> None:
        """``TooMany`` naming the games that hold the limit when ``address`` (or the identity asking) already has
        ``holding`` games with a computer seat going on (moved in the last ``ADJOURN_MINUTES``; an older one is
        adjourned and does not count) at its limit; call it inside ``creating_computer_game``, with the games
        stored then."""
        if len(holding) >= self.limits.computer_games:
            titles = ", ".join(f"{game['title']} {game['id']}" for game in holding)
            raise TooMany(say("error.limit.computer_games", count=len(holding), games=titles,
                              minutes=ADJOURN_MINUTES), 30, games=holding)

    @contextlib.asynccontextmanager
    async def creating_computer_game(self, address: str) -> AsyncIterator[None]:
        """The block in which a game with a computer seat is checked and created for ``address``: one at a time
        for an address, so that each check reads the games stored by the creations before it (requests at once
        cannot all pass the check); ``TooMany`` at once when ``computer_games`` creations wait or run already."""
        if self._creating.get(address, 0) >= self.limits.computer_games:
            raise TooMany(say("error.limit.computer_games_creating", count=self.limits.computer_games), 30)
        with _counted(self._creating, address):
            lock = self._creation_locks.setdefault(address, asyncio.Lock())
            try:
                async with lock:
                    yield
            finally:
                if self._creating.get(address, 0) <= 1:  # no other creation waits for this lock
                    self._creation_locks.pop(address, None)

    @contextlib.contextmanager
    def hint(self, address: str) -> Iterator[None]:
        """Count a hint computing for ``address`` while the block runs; ``TooMany`` past ``hints`` at once."""
        busy = self._hints.get(address, 0)
        if busy >= self.limits.hints:
            raise TooMany(say("error.limit.hints", count=busy), 2)
        with _counted(self._hints, address):
            yield

    def start_analysis(self, address: str) -> Callable[[], None]:
        """Count an analysis running for ``address`` with its hints (the same limit: both are the engine thinking
        for that address); ``TooMany`` past ``hints`` at once. Returns the call that ends it (once)."""
        busy = self._hints.get(address, 0)
        if busy >= self.limits.hints:
            raise TooMany(say("error.limit.analyses", count=busy), 2)
        self._hints[address] = busy + 1
        ended = False

        def end() -> None:
            nonlocal ended
            if not ended:
                ended = True
                self._hints[address] -= 1
                if not self._hints[address]:
                    del self._hints[address]

        return end

    @staticmethod
    def _remember(table: OrderedDict[str, V], key: str, value: V) -> None:
        table[key] = value
        while len(table) > MAX_CLIENTS:
            table.popitem(last=False)


@contextlib.contextmanager
def _counted(counts: dict[str, int], address: str) -> Iterator[None]:
    """One more for ``address`` in ``counts`` while the block runs (an address at 0 is forgotten)."""
    counts[address] = counts.get(address, 0) + 1
    try:
        yield
    finally:
        counts[address] -= 1
        if not counts[address]:
            del counts[address]
