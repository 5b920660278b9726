"""The games' kernels compiled in the background (``damier.server.compiler``): a game asked for goes first, its
rules before its computer, and what asks for a part waits for it; a computer whose game's kernels are not ready
within half the time left on its clock moves at once rather than lose on time (the server logs why). The compiling
of an empty cache itself is tried in test_cold_start.py; here the cache is full (``warm_kernels``)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.core import registry
from damier.server.compiler import Compiler
from damier.server.kernels import PARTS, Part
from tests.server.conftest import warm_kernels


def test_a_game_asked_for_goes_first_and_every_part_is_compiled_once() -> None:
    warm_kernels()
    reports: list[dict[str, Any]] = []

    async def run() -> tuple[list[Part], bool, bool]:
        compiler = Compiler(1, reports.append)
        compiler.start()
        compiler.ask("micro")
        ready = await compiler.ready("micro", "computer", timeout=300)
        rules_first = compiler.is_ready("micro", "rules")
        while not compiler.done:
            await asyncio.sleep(0.05)
        compiler.close()
        return list(compiler.finished), ready, rules_first

    order, ready, rules_first = asyncio.run(run())
    assert ready and rules_first
    assert order[0] == Part("micro", "rules")  # compiled here, in the server
    assert next(p for p in order if p.part != "rules") == Part("micro", "computer")  # the first in the processes
    assert sorted(order, key=repr) == sorted((Part(i.name, p) for i in registry.all_infos() for p in PARTS), key=repr)
    last = reports[-1]
    assert last["ready"] and last["done"] == last["total"] == len(order) and last["pending"] == []
    assert last["compiled"] == 0  # the cache had them all: every part only loaded
    assert any(not r["ready"] and r["compiling"] for r in reports)  # said while it ran


def test_without_compiling_processes_every_part_counts_as_ready() -> None:
    async def run() -> dict[str, Any]:
        compiler = Compiler(0)
        compiler.start()
        assert await compiler.ready("khet", timeout=0)
        return compiler.status()

    status = asyncio.run(run())
    assert status["ready"] and status["pending"] == [] and status["done"] == status["total"] > 0


def test_a_computer_whose_kernels_are_not_ready_within_its_clock_moves_at_once(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    arcade = client.app.state.arcade  # type: ignore[attr-defined]
    created = client.post("/api/games", json={"game": "atoms", "options": {"rows": 5, "cols": 5},
                                              "seats": [{"kind": "human"}, {"kind": "computer", "level": "hard"}],
                                              "clock": {"minutes": 0.05, "increment": 0}})  # 3 s each
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"]["0"]
    compiling, arcade.pool.kernels = arcade.pool.kernels, Compiler(1)  # a compiling that never ends
    try:
        with caplog.at_level(logging.WARNING, logger="damier.server"):
            assert client.post(f"/api/games/{game_id}/moves", json={"move": "A1"},
                               headers={"X-Seat-Token": token}).status_code == 200
            for _ in range(400):  # its wait is half its 3 s; the test waits up to 20 s
                view = client.get(f"/api/games/{game_id}").json()
                if len(view["moves"]) >= 2 or view["status"] != "active":
                    break
                time.sleep(0.05)
    finally:
        arcade.pool.kernels = compiling
    assert len(view["moves"]) == 2, view  # it moved, in time: the game goes on
    assert view["status"] == "active"
    assert "its game's kernels were not compiled within its clock" in caplog.text
