"""How late the event loop runs: a timer set every ``PERIOD`` seconds notes how late it fires (the loop's lag: work
that held it up); the worst lag of the last minute is in ``/api/health``, so an operator (and the hostile
benchmark) sees at once whether anything blocks the loop."""

from __future__ import annotations

import asyncio
import collections
import time

#: how often the loop's lag is measured (seconds), and over how long the worst is kept
PERIOD = 0.05
WINDOW = 60.0


class LoopWatch:
    """The event loop's lag, measured while ``run`` runs (a task of the loop)."""

    def __init__(self) -> None:
        #: the worst lag of each second measured lately: (the second, its worst lag in seconds)
        self._seconds: collections.deque[tuple[int, float]] = collections.deque()

    async def run(self) -> None:
        """Forever: sleep ``PERIOD`` and note how much later than asked the loop woke up."""
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(PERIOD)
            self.note(loop.time() - asked - PERIOD, time.monotonic())

    def note(self, lag: float, now: float) -> None:
        second = int(now)
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1] = (second, max(self._seconds[-1][1], lag))
        else:
            self._seconds.append((second, lag))
        while self._seconds and self._seconds[0][0] < now - WINDOW:
            self._seconds.popleft()

    def worst(self, now: float | None = None, window: float = WINDOW) -> float:
        """The worst lag of the last ``window`` seconds (at most ``WINDOW``; seconds; 0 before any measure).

        >>> watch = LoopWatch()
        >>> watch.note(0.004, 100.0); watch.note(0.2, 101.5)
        >>> watch.worst(102.0), watch.worst(102.0, window=1.0), watch.worst(103.0, window=1.0)
        (0.2, 0.2, 0.0)
        >>> watch.note(0.01, 170.0); watch.worst(170.0)  # a minute later: the old lags are forgotten
        0.01
        """
        now = time.monotonic() if now is None else now
        since = now - min(window, WINDOW)
        return max((lag for second, lag in self._seconds if second >= int(since)), default=0.0)
