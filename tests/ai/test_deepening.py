"""The one iterative-deepening driver: a depth stopped early, and the shared alarm thread."""

from __future__ import annotations

import threading
import time

import pytest

import damier
from damier.ai.deepening import ALARMS, LATENESS_KEPT, NEXT_DEPTH_SHARE, Deepening
from damier.core.game import Iteration, State


class Scripted:
    """A fixed-depth search that answers from a script: depth d completes unless d is ``stopped_at``, where it
    answers ``partial_move`` as a search stopped early does."""

    def __init__(self, moves: dict[int, int], stopped_at: int, partial_move: int | None, partial: bool) -> None:
        self.moves, self.stopped_at, self.partial_move = moves, stopped_at, partial_move
        self.partial_moves = partial
        self.depths: list[int] = []

    def new_game(self) -> None:
        pass

    def new_search(self, state: State) -> None:
        pass

    def stop(self) -> None:
        pass

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        self.depths.append(depth)
        if depth == self.stopped_at:
            return Iteration(depth=depth, move=self.partial_move, nodes=1, completed=False)
        return Iteration(depth=depth, score=depth, move=self.moves[depth], pv=[self.moves[depth]], nodes=1)


def test_a_stopped_depth_gives_its_better_root_move_only_when_its_search_vouches_for_it() -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    a, b, c = state.legal_moves()[:3]
    vouching = Scripted({1: a, 2: b}, stopped_at=3, partial_move=c, partial=True)
    found = Deepening(vouching).think(state, max_depth=5)
    assert (found.move, found.depth, found.score, vouching.depths) == (c, 2, 2, [1, 2, 3])
    silent = Scripted({1: a, 2: b}, stopped_at=3, partial_move=c, partial=False)
    assert Deepening(silent).think(state, max_depth=5).move == b
    nothing = Scripted({1: a, 2: b}, stopped_at=3, partial_move=None, partial=True)
    assert Deepening(nothing).think(state, max_depth=5).move == b


class Slow(Scripted):
    """A scripted search whose depth 1 takes ``seconds`` (more than ``NEXT_DEPTH_SHARE`` of the move's time)."""

    def __init__(self, seconds: float, partial: bool, moves: dict[int, int]) -> None:
        super().__init__(moves, stopped_at=0, partial_move=None, partial=partial)
        self.seconds = seconds

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        if depth == 1:
            time.sleep(self.seconds)
        return super().search(state, depth, node_limit, evaluation)


def test_a_search_that_keeps_a_stopped_depths_move_deepens_until_its_alarm() -> None:
    # depth 1 takes half of the 2 s: past NEXT_DEPTH_SHARE, a search that would lose a stopped depth starts no
    # other; one that keeps a stopped depth's better move uses the time left (the alarm is a second away)
    state = damier.load("atoms", rows=3, cols=3).new_state()
    a, b = state.legal_moves()[:2]
    assert NEXT_DEPTH_SHARE < 0.5
    keeping = Slow(1.0, True, {1: a, 2: b})
    assert Deepening(keeping).think(state, max_depth=2, seconds=2.0).move == b and keeping.depths == [1, 2]
    losing = Slow(1.0, False, {1: a, 2: b})
    assert Deepening(losing).think(state, max_depth=2, seconds=2.0).move == a and losing.depths == [1]


class Late(Scripted):
    """A scripted search whose depth 2 runs until stopped and answers ``late`` seconds after the stop."""

    def __init__(self, late: float, moves: dict[int, int]) -> None:
        super().__init__(moves, stopped_at=2, partial_move=None, partial=False)
        self.late = late
        self.stopped = threading.Event()
        self.started = 0.0
        self.stops: list[float] = []  # when each stop came, in seconds from the start of its search

    def new_search(self, state: State) -> None:
        self.stopped.clear()
        self.started = time.perf_counter()

    def stop(self) -> None:
        self.stops.append(time.perf_counter() - self.started)
        self.stopped.set()

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        if depth == 2:
            self.stopped.wait()
            time.sleep(self.late)
        return super().search(state, depth, node_limit, evaluation)


def test_a_search_that_answers_late_is_stopped_earlier_next_time(monkeypatch: pytest.MonkeyPatch) -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    a, b = state.legal_moves()[:2]
    monkeypatch.setattr(Deepening, "recent_lateness", 0.0)  # (what other tests' searches measured, forgotten)
    late = Late(0.8, {1: a, 2: b})
    driver = Deepening(late)
    alarms: list[float] = []  # when each search asked its alarm to ring (the real alarms ring them)
    real_set = ALARMS.set
    monkeypatch.setattr(ALARMS, "set", lambda seconds, call: alarms.append(seconds) or real_set(seconds, call))
    assert driver.lateness == 0.0
    assert driver.think(state, max_depth=3, seconds=1.0).move == a
    assert alarms == [1.0] and len(late.stops) == 1
    lateness = driver.lateness
    assert lateness >= 0.8  # the answer came at least 0.8 s after the alarm: the next one is set that much earlier
    assert Deepening(Late(0.0, {1: a, 2: b})).lateness == lateness  # and a new driver's first one too
    driver.think(state, max_depth=3, seconds=1.0)
    # the second alarm is set earlier by the lateness measured, never more than half the time earlier
    assert alarms[1] == max(1.0 - lateness, 0.5) and alarms[1] <= 0.8
    assert len(late.stops) == 2 and late.stops[1] >= alarms[1]  # and it is what stopped the search


def test_an_alarm_that_rings_late_counts_in_the_lateness_which_falls_slowly_once_answers_are_in_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    a, b = state.legal_moves()[:2]
    monkeypatch.setattr(Deepening, "recent_lateness", 0.0)
    late = Late(0.0, {1: a, 2: b})  # answers at once when stopped
    driver = Deepening(late)
    real_set = ALARMS.set
    delay = [0.5]  # the alarm's thread wakes this late (as it may when the machine is busy)
    monkeypatch.setattr(ALARMS, "set", lambda seconds, call: real_set(seconds + delay[0], call))
    driver.think(state, max_depth=3, seconds=0.5)
    assert driver.lateness >= 0.5  # from when the alarm was due, not from when it rang
    first = driver.lateness
    delay[0] = 0.0
    driver.think(state, max_depth=3, seconds=0.5)  # due 0.5 - lateness (at least 0.25 s), answered at once
    assert LATENESS_KEPT * first <= driver.lateness < first  # kept for a while: the delay may come back


def test_alarms_ring_in_time_order_and_a_cancelled_one_never_rings() -> None:
    rang: list[str] = []
    done = threading.Event()
    ALARMS.set(0.06, lambda: (rang.append("late"), done.set()))
    cancelled = ALARMS.set(0.03, lambda: rang.append("cancelled"))
    ALARMS.set(0.01, lambda: rang.append("early"))
    ALARMS.cancel(cancelled)
    assert done.wait(5)
    assert rang == ["early", "late"]
