"""A fast first start (issue 35): a real `damier serve` on an empty numba cache (``NUMBA_CACHE_DIR`` pointed at an
empty folder, as after a fresh install). The catalog and the How to play pages compile no kernel, and a computer
asked to move while the kernels compile waits for its game's kernels and plays the move its search finds, not a
random one."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import damier
from damier.agents.spec import make_agent, resolve
from damier.core import registry
from tests.server.conftest import ServerProcess

pytestmark = [pytest.mark.slow, pytest.mark.alone]


@pytest.fixture
def empty_cache(tmp_path: Path) -> Path:
    folder = tmp_path / "numba-cache"
    folder.mkdir()
    return folder


@contextlib.contextmanager
def cold_server(tmp_path: Path, cache: Path, *args: str) -> Iterator[ServerProcess]:
    """`damier serve` with its numba cache in ``cache`` (and the options ``args``)."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", tmp_path / "server.log",
                           env={"NUMBA_CACHE_DIR": str(cache)}, args=args, compilers=None)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def compiled(cache: Path) -> list[str]:
    """The kernels numba compiled into ``cache`` (its index and data files)."""
    return sorted(p.name for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc"))


def test_the_catalog_and_every_how_to_play_page_compile_no_kernel(tmp_path: Path, empty_cache: Path) -> None:
    # no compiling in the background either (--compilers 0): whatever lands in the cache came from the pages
    with cold_server(tmp_path, empty_cache, "--compilers", "0") as server:
        catalog = httpx.get(f"{server.url}/api/catalog", timeout=60)
        assert catalog.status_code == 200
        entries = catalog.json()
        for entry in entries:
            info = registry.info(entry["name"])
            assert (entry["client"] is not None) == info.has("client")
            if info.has("client"):
                assert entry["client"]["sample"]  # the card's picture, played by the game's rules
        pages = [e["name"] for e in entries if "howto" in e["features"]]
        assert len(pages) >= 5
        for name in pages:
            page = httpx.get(f"{server.url}/api/catalog/{name}/howto", timeout=60)
            assert page.status_code == 200
            assert any(d["board"] for s in page.json()["sections"] for d in s["diagrams"])
        assert compiled(empty_cache) == []
        assert httpx.get(f"{server.url}/api/health", timeout=10).json()["kernels"]["ready"]  # nothing to wait for


def test_a_computer_asked_to_move_while_the_kernels_compile_plays_its_searched_move(tmp_path: Path,
                                                                                   empty_cache: Path) -> None:
    with cold_server(tmp_path, empty_cache) as server:
        # Khet's Silver, a computer at the medium level (a fixed-depth search: its move is known), moves first
        created = httpx.post(f"{server.url}/api/games", timeout=120, json={
            "game": "khet", "options": {}, "seats": [{"kind": "computer", "level": "medium"}, {"kind": "human"}]})
        assert created.status_code == 201, created.text
        kernels = httpx.get(f"{server.url}/api/health", timeout=10).json()["kernels"]
        assert not kernels["ready"] and kernels["done"] < kernels["total"]  # asked while they compile
        game_id = created.json()["id"]
        deadline = time.monotonic() + 600  # compiling Khet's kernels on a loaded machine: a minute or more
        while not (view := httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json())["moves"]:
            assert time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.5)
        game = damier.load("khet")
        start = game.new_state()
        searched = make_agent(resolve("medium", "khet"), game, seed=0).choose(start)
        assert view["moves"][0]["move"] == start.move_to_str(searched)
        assert "random move" not in server.log.read_text()
