"""The analysis board's engine (``damier.ai.analysis``) and the time budget of a computer on a clock
(``damier.ai.spec.within``), on real games."""

from __future__ import annotations

import damier
from damier.ai.analysis import analyse
from damier.ai.spec import within


def test_a_level_on_a_clock_thinks_within_the_time_it_is_given() -> None:
    assert within("hard", "khet", 0.25) == "alphabeta:time=0.25"  # Khet's hard is alphabeta:time=1.0
    assert within("alphabeta:depth=3,eval=simple", "khet", 2.0) == "alphabeta:depth=3,eval=simple,time=2"
    assert within("alphabeta:time=1.0", "khet", 5.0) == "alphabeta:time=1.0"  # already within
    assert within("random", "khet", 0.1) == "random"  # nothing to lower


def test_an_analysis_reports_each_depth_as_it_completes() -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    reports: list[dict] = []
    last = analyse(state, seconds=5.0, report=reports.append, max_depth=2)
    assert [r["depth"] for r in reports] == [1, 2] and last["reason"] == "depth"
    for report in reports:  # each line plays from the position
        line = state.copy()
        for text in report["pv"]:
            line.play(line.parse_move(text))
