"""The deepest ``go depth`` of each game's engine: what docs/protocol.md says, what ``help`` says, and what the
engine accepts and refuses are all the game's ``EngineInfo.max_depth``."""

from __future__ import annotations

from pathlib import Path

import pytest

from damier.core import registry
from damier.core.registry import GameInfo
from damier.protocol.engine import EngineSession

PROTOCOL_DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
ENGINES = registry.with_feature("engine")


def deepest(info: GameInfo) -> int:
    assert info.engine is not None
    return info.engine.max_depth


def go_depth_row() -> str:
    """The row of the commands' table that describes ``go depth N``."""
    rows = [line for line in PROTOCOL_DOCS.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `go depth N` |")]
    assert len(rows) == 1, rows
    return rows[0]


def test_every_game_with_an_engine_is_tried() -> None:
    assert {info.name for info in ENGINES} >= {"khet", "atoms"}


@pytest.mark.parametrize("info", ENGINES, ids=lambda info: info.name)
def test_the_protocol_docs_give_each_engine_its_deepest_depth(info: GameInfo) -> None:
    assert f"{info.title}: {deepest(info)}" in go_depth_row()


@pytest.mark.parametrize("info", ENGINES, ids=lambda info: info.name)
def test_the_engine_says_searches_and_refuses_its_deepest_depth(info: GameInfo) -> None:
    lines: list[str] = []
    session = EngineSession(registry.load(info.name), lines.append)
    limit = deepest(info)
    session.handle("help")
    assert f"go depth N (1 to {limit})" in lines[0]
    session.handle("position startpos")
    start = len(lines)
    session.handle(f"go depth {limit} movetime 5")  # accepted: the time stops it long before
    session.wait(stop=False)
    answered = lines[start:]
    assert answered[-1].startswith("bestmove ") and not [line for line in answered if "error" in line], answered
    session.handle(f"go depth {limit + 1}")
    assert lines[-1] == (f"info string error: go depth: {limit + 1} is more than the {limit} plies the engine can "
                         f"search (from 1 to {limit})")
    assert not session.searching
