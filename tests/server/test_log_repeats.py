"""A repeated log message is written once, then counted, and its count written in one line
(``damier.server.log_repeats``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from damier.server.log_repeats import RepeatFilter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.getMessage()}")


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, Lines, Clock, RepeatFilter]]:
    logger = logging.getLogger("tests.log_repeats")
    lines, clock = Lines(), Clock()
    repeats = RepeatFilter(60.0, clock)
    logger.addHandler(lines)
    logger.addFilter(repeats)
    logger.propagate = False
    yield logger, lines, clock, repeats
    logger.removeHandler(lines)
    logger.removeFilter(repeats)


def test_a_repeated_message_is_written_once_then_its_count(logged: tuple[logging.Logger, Lines, Clock,
                                                                          RepeatFilter]) -> None:
    logger, lines, clock, _ = logged
    for port in range(5000):
        logger.error("refused a connection from %s", f"192.0.2.1:{port}")
        clock.now += 0.01
    assert lines.lines == ["ERROR refused a connection from 192.0.2.1:0"]
    clock.now += 20  # a minute after the first
    logger.warning("something else")
    assert lines.lines[1:] == ["ERROR refused a connection from 192.0.2.1:0 (repeated 4999 times in the last 70 s)",
                               "WARNING something else"]
    logger.error("refused a connection from %s", "192.0.2.1:9")  # a new minute: written again
    assert lines.lines[-1] == "ERROR refused a connection from 192.0.2.1:9"


def test_messages_of_other_kinds_or_levels_are_not_repeats(logged: tuple[logging.Logger, Lines, Clock,
                                                                           RepeatFilter]) -> None:
    logger, lines, _, _ = logged
    logger.error("one %s", 1)
    logger.warning("one %s", 2)
    logger.error("two %s", 3)
    assert lines.lines == ["ERROR one 1", "WARNING one 2", "ERROR two 3"]


def test_a_count_is_written_when_the_server_stops(logged: tuple[logging.Logger, Lines, Clock,
                                                                 RepeatFilter]) -> None:
    logger, lines, clock, repeats = logged
    for _ in range(3):
        logger.error("too many open files")
    logger.error("once")
    clock.now += 5
    repeats.flush()
    assert lines.lines == ["ERROR too many open files", "ERROR once",
                           "ERROR too many open files (repeated 2 times in the last 5 s)"]
    repeats.flush()
    assert len(lines.lines) == 3


def test_only_the_first_line_of_a_long_message_is_counted(logged: tuple[logging.Logger, Lines, Clock,
                                                                         RepeatFilter]) -> None:
    logger, lines, _, repeats = logged
    for _ in range(2):
        logger.error("socket.accept() out of system resource\nsocket: <socket fd=6>")
    repeats.flush()
    assert lines.lines[-1] == "ERROR socket.accept() out of system resource (repeated once in the last 1 s)"
