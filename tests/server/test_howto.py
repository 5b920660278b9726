"""GET /api/catalog/{game}/howto: every registered game's How to play page, its diagrams drawn from the boards of
its rules (made without compiling a kernel, the same as with them), and a clear 404 for a game that is not there or
has no page."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import damier
from damier.core import howto, messages, registry


def test_every_game_has_a_how_to_play_page(client: TestClient) -> None:
    names = [entry["name"] for entry in client.get("/api/catalog").json()]
    assert names == [info.name for info in registry.all_infos()]
    for name in names:
        entry = next(e for e in client.get("/api/catalog").json() if e["name"] == name)
        assert "howto" in entry["features"]  # the home card and the game page link to the page from this
        reply = client.get(f"/api/catalog/{name}/howto")
        assert reply.status_code == 200, reply.text
        page = reply.json()
        assert page["game"] == name and page["title"] == entry["title"] and page["summary"]
        assert all(s["title"] and (s["text"] or s["items"] or s["diagrams"]) for s in page["sections"])
        diagrams = [d for s in page["sections"] for d in s["diagrams"]]
        assert diagrams, f"{name} has no diagram"
        examples = [d for d in diagrams if d["animated"]]
        assert examples, f"{name} has no animated example"
        kind = damier.load(name).new_state().board_json(previews=False)["kind"]
        for d in diagrams:
            assert d["board"]["kind"] == kind  # drawn by the game's own board view
            assert d["caption"]
        for d in examples:
            assert d["moves"] and d["events"] and d["after"]["kind"] == kind
            assert d["after"] != d["board"]


def test_the_page_is_the_game_s_declaration_played_by_its_rules(client: TestClient) -> None:
    for info in registry.with_feature("howto"):
        page = client.get(f"/api/catalog/{info.name}/howto").json()
        declared = [d for s in info.hook("howto").sections for d in s.diagrams]
        served = [d for s in page["sections"] for d in s["diagrams"]]
        howto_of = info.hook("howto")
        words = messages.game_catalogue(info.messages, "en")
        assert [messages.format_message(words.get(d.caption, d.caption), howto_of.params) for d in declared] == [
            d["caption"] for d in served]
        for d, out in zip(declared, served, strict=True):
            state = damier.load(info.name, **d.options).start_state(d.position or None, d.seed)
            for move in d.before:
                state.play(state.parse_move(move))
            assert out["board"] == state.board_json(previews=False)
            events = []
            for move in d.example:
                state.play(state.parse_move(move))
                events += state.events()
            if d.example:
                assert out["events"] == events and out["after"] == state.board_json(previews=False)


def test_the_pages_made_without_compiling_are_those_the_kernels_make(client: TestClient) -> None:
    """The server's pages come from a process run without JIT (damier.server.descriptions): each is the page
    ``howto.page`` makes here, with the compiled kernels, to the last number."""
    for info in registry.with_feature("howto"):
        made_here = json.loads(json.dumps(howto.page(info)))
        english = howto.localize(made_here, messages.game_catalogue(info.messages, "en"), "en")
        assert client.get(f"/api/catalog/{info.name}/howto").json() == english


def test_the_khet_page_carries_its_first_game_tutorial(client: TestClient) -> None:
    steps = client.get("/api/catalog/khet/howto").json()["tutorial"]
    assert [s["title"] for s in steps] == ["Select a piece", "Where it can go", "Turn it", "Your laser", "The goal"]
    assert all(s["text"] for s in steps)


def test_an_unknown_game_is_a_clear_404(client: TestClient) -> None:
    reply = client.get("/api/catalog/nosuchgame/howto")
    assert reply.status_code == 404
    body = reply.json()
    assert body["status"] == 404 and "unknown game 'nosuchgame'" in body["error"] and "khet" in body["error"]


@pytest.fixture
def bare_game() -> Iterator[str]:
    """A registered game that declares no How to play page (Atoms without the feature, under another name)."""
    atoms = registry.info("atoms")
    features = {k: v for k, v in atoms.features.items() if k != "howto"}
    registry.register(dataclasses.replace(atoms, name="bare-atoms", features=features))
    try:
        yield "bare-atoms"
    finally:
        registry.unregister("bare-atoms")


def test_a_game_without_a_page_is_a_clear_404(client: TestClient, bare_game: str) -> None:
    reply = client.get(f"/api/catalog/{bare_game}/howto")
    assert reply.status_code == 404
    assert reply.json()["error"].startswith("bare-atoms has no How to play page; games with one: atoms, jewels")
