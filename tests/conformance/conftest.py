"""Parametrizes the conformance suite over every registered game, plus the extra configurations below.

A new game is covered as soon as it is registered; add its interesting option sets to ``EXTRA_CONFIGS``.
The test-only games (``dice_game.py``: chance nodes; ``slide_game.py``: a one-player puzzle with a solver) are
registered for the duration of this package's tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import damier
from damier.core import registry
from tests.conformance.dice_game import INFO as DICE_INFO
from tests.conformance.slide_game import INFO as SLIDE_INFO

#: the test-only games: a dice race (chance nodes) and a sliding puzzle (one player, a solver)
TEST_GAMES = (DICE_INFO, SLIDE_INFO)

#: Option sets tested besides each game's defaults, by game name.
EXTRA_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "atoms": [
        {"rows": 3, "cols": 4},
        {"players": 3},
        {"players": 4, "rows": 4, "cols": 4},
        {"rows": 2, "cols": 2},
    ],
    "khet": [
        {"setup": "imhotep"},
        {"setup": "dynasty", "pharaoh_rotation": True},
        {"repetition": "claim", "quiet_ply_limit": 12},
        {"strict_swap_reserved": False, "quiet_ply_limit": 0},
    ],
    "micro": [
        {"board": "B", "expert": True},
        {"board": "random", "expert": True, "waypoint_pass": True},
        {"difficulty": 9},
        {"reroll_short": True},
    ],
    "ricochet": [
        {"board": "1A2A3A4A", "silver": True},
        {"transparent": True},
        {"ricochet": "strict", "rebound": False},
        {"board": "4D3C2B1A", "ricochet": "if_trivial", "silver": True, "transparent": True},
    ],
    "jewels": [
        {"jewels": 26},
        {"robot_steps": "all", "size": 10, "jewels": 8, "walls": 16, "robots": 6},
        {"size": 8, "jewels": 4, "walls": 10, "robots": 4, "cap": 12, "edge_explosion": True},
    ],
    "test-dice": [{"target": 30}],
    "test-slide": [{"size": 7, "layout": 3}],
}


def game_configs() -> list[tuple[str, dict[str, Any]]]:
    names = [info.name for info in damier.games()]
    names += [info.name for info in TEST_GAMES if info.name not in names]
    return [(name, options) for name in names for options in [{}, *EXTRA_CONFIGS.get(name, [])]]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + ("[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]" if options else "")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "config" in metafunc.fixturenames:
        configs = game_configs()
        metafunc.parametrize("config", configs, ids=[config_id(c) for c in configs])


@pytest.fixture(scope="package", autouse=True)
def registered_test_games() -> Iterator[None]:
    """Register the test-only games while this package runs, and leave the registry as it was."""
    already = {info.name for info in damier.games()}
    for info in TEST_GAMES:
        registry.register(info)
    yield
    for info in TEST_GAMES:
        if info.name not in already:
            registry.unregister(info.name)


@pytest.fixture
def game(config: tuple[str, dict[str, Any]]) -> damier.Game:
    name, options = config
    return damier.load(name, **options)
