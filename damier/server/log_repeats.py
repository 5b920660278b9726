"""A log that a flood cannot fill: a message logged again and again (the same logger, level and text before its
arguments) is written the first time, then counted, and its count is written once in one line, "... (repeated N
times in the last S s)", when ``WINDOW_SECONDS`` have passed since the first (at the next message logged, or
when the server stops). A server under attack logs each kind of trouble twice a minute, not a million times.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: seconds a message is counted rather than written, from its first time
WINDOW_SECONDS = 60.0
#: kinds of messages counted at once, at most (past it the oldest count is written early)
MAX_KINDS = 1000
#: the loggers that can flood a server: the event loop's (a failed accept, once per waiting connection), uvicorn's
#: (each bad request), the arcade's
LOGGERS = ("asyncio", "uvicorn", "uvicorn.error", "uvicorn.access", "damier", "damier.server")

Key = tuple[str, int, str]


@dataclass
class _Count:
    first: logging.LogRecord
    started: float
    repeats: int = 0


class RepeatFilter(logging.Filter):
    """Let the first of a repeated message through, count the others for ``window`` seconds, then write their
    count in one line. One filter may serve several loggers (``install``); it is safe from any thread."""

    def __init__(self, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window = window
        self.clock = clock
        self._counts: dict[Key, _Count] = {}  # in the order they started: the first to end first
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "damier_repeats"):  # a count this filter writes
            return True
        now = self.clock()
        key = (record.name, record.levelno, str(record.msg))
        with self._lock:
            ended = self._take_ended(now)
            count = self._counts.get(key)
            if count is None:
                self._counts[key] = _Count(record, now)
                if len(self._counts) > MAX_KINDS:
                    ended.append(self._counts.pop(next(iter(self._counts))))
            else:
                count.repeats += 1
        self._write(ended, now)
        return count is None

    def flush(self) -> None:
        """Write every count now (when the server stops)."""
        now = self.clock()
        with self._lock:
            ended = list(self._counts.values())
            self._counts.clear()
        self._write(ended, now)

    def _take_ended(self, now: float) -> list[_Count]:
        ended = []
        while self._counts:
            key, count = next(iter(self._counts.items()))
            if now - count.started < self.window:
                break
            ended.append(self._counts.pop(key))
        return ended

    @staticmethod
    def _write(counts: list[_Count], now: float) -> None:
        for count in counts:
            if not count.repeats:
                continue
            first = count.first
            text = first.getMessage().splitlines()[0] if first.getMessage() else str(first.msg)
            line = logging.makeLogRecord({
                "name": first.name, "levelno": first.levelno, "levelname": first.levelname,
                "msg": "%s (repeated %s in the last %d s)",
                "args": (text, "once" if count.repeats == 1 else f"{count.repeats} times",
                         max(1, math.ceil(now - count.started))), "damier_repeats": count.repeats})
            logging.getLogger(first.name).handle(line)


def install(names: Iterable[str] = LOGGERS, window: float = WINDOW_SECONDS) -> RepeatFilter:
    """One ``RepeatFilter`` on each of the loggers ``names`` (a logger's filter sees the messages logged on it,
    not those of its children); flush it when the server stops."""
    repeats = RepeatFilter(window)
    for name in names:
        logging.getLogger(name).addFilter(repeats)
    return repeats
