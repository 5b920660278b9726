"""What the web client draws with comes from the server: each game's client description in the catalog (setups,
presets, palette, sample boards), the board after each step of a move in its events (Atoms: after each
explosion wave; Khet: after the piece moved and after the removal), the structured legal moves of a Khet board,
and the position of a board set up in the editor."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import damier
from damier.core import registry
from damier.games.khet.rules import KhetState


def catalog_entry(client: TestClient, name: str) -> Any:
    return next(g for g in client.get("/api/catalog").json() if g["name"] == name)


def test_every_game_with_a_client_description_has_it_in_the_catalog(client: TestClient) -> None:
    for entry in client.get("/api/catalog").json():
        info = registry.info(entry["name"])
        if info.has("client"):
            assert entry["client"] == info.hook("client")(damier.load(info.name))
            assert entry["client"]["module"] == entry["name"]  # the folder of its board module
        else:
            assert entry["client"] is None  # drawn as a plain grid


def test_the_catalog_carries_the_khet_setups_palette_and_reserved_squares(client: TestClient) -> None:
    described = catalog_entry(client, "khet")["client"]
    game = damier.load("khet")
    assert [s["id"] for s in described["setups"]] == ["classic", "imhotep", "dynasty"]
    for setup in described["setups"]:
        start = damier.load("khet", setup=setup["id"]).new_state()
        assert setup["position"] == start.position()
        assert setup["board"] == start.board_json(previews=False)
    assert [p["options"] for p in described["presets"]] == [{"setup": s} for s in ("classic", "imhotep", "dynasty")]
    assert described["reserved"] == game.new_state().board_json()["reserved"]
    start = game.new_state()
    assert isinstance(start, KhetState)
    assert described["sample"]["sample_beam"] == start.laser(0)
    assert described["seats"] == list(game.player_names)
    pieces = {(p["colour"], p["kind"]): p for p in described["palette"]["pieces"]}
    assert {kind: p["limit"] for (colour, kind), p in pieces.items() if colour == 0} == {
        "sphinx": 1, "pharaoh": 1, "anubis": 2, "pyramid": 7, "scarab": 2}
    assert pieces[(0, "sphinx")]["facings"] == ["N", "W"] and pieces[(1, "sphinx")]["facings"] == ["E", "S"]
    assert pieces[(1, "scarab")]["facings"] == ["N", "E"] and pieces[(1, "pyramid")]["facing"] == "S"
    assert {kind for (_, kind), p in pieces.items() if p["required"]} == {"sphinx", "pharaoh"}
    assert described["palette"]["position_options"] == ["setup"]
    assert [f["id"] for f in described["palette"]["fields"]] == ["side", "quiet"]


def test_the_catalog_carries_the_atoms_presets_and_sample(client: TestClient) -> None:
    described = catalog_entry(client, "atoms")["client"]
    assert [p["id"] for p in described["presets"]] == ["8x8", "9x6", "6x6", "4x4", "10x10"]
    assert described["presets"][1] == {"id": "9x6", "label": "9×6", "options": {"rows": 9, "cols": 6}, "note": "mobile"}
    assert described["sample"]["kind"] == "atoms" and sum(described["sample"]["counts"]) > 10
    assert described["palette"] is None and described["setups"] == []


def board_after(board: dict[str, Any], changes: dict[str, Any], cols: int) -> dict[str, Any]:
    """An Atoms board (counts, owners) with a step's ``changes`` applied."""
    counts, owners = list(board["counts"]), list(board["owners"])
    for square, now in changes.items():
        index = (int(square[1:]) - 1) * cols + ord(square[0]) - ord("A")
        counts[index], owners[index] = now["count"], now["owner"]
    return {"counts": counts, "owners": owners}


@pytest.mark.parametrize(("rows", "cols", "players"), [(3, 3, 2), (4, 5, 3), (8, 8, 2)])
def test_atoms_events_carry_the_board_after_each_wave(rows: int, cols: int, players: int) -> None:
    """Applying each step's changes in order reaches, after the last wave, the position the kernel reached; no
    square changes between waves unless it exploded or received an atom."""
    game = damier.load("atoms", rows=rows, cols=cols, players=players)
    chains = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_over():
            board = state.board_json()
            state.play(rng.choice(state.legal_moves()))
            events = state.events()
            assert events[0]["type"] == "place"
            for event in events:
                if event["type"] not in ("place", "wave"):
                    assert "changes" not in event
                    continue
                if event["type"] == "wave":
                    assert len(event["targets"]) == len(event["squares"])
                    touched = set(event["squares"]).union(*event["targets"])
                    assert set(event["changes"]) == touched
                board = board_after(board, event["changes"], cols)
            after = state.board_json()
            assert board == {"counts": after["counts"], "owners": after["owners"]}
            chains += sum(1 for e in events if e["type"] == "wave") > 1
    assert chains > 5  # chains of several waves were seen


def test_khet_events_carry_the_board_before_the_shot_and_after_the_removal() -> None:
    state = damier.load("khet").new_state()
    state.play(state.parse_move("j1-"))  # Silver's Sphinx turns west and shoots its own Anubis on f1
    rotate, laser, remove = state.events()
    assert rotate["changes"] == {"j1": {"square": "j1", "kind": "sphinx", "colour": 0, "facing": "W"}}
    assert "changes" not in laser
    assert remove["changes"] == {"f1": None}
    state.play(state.parse_move("a4a3"))
    step = state.events()[0]
    assert step["changes"] == {"a4": None, "a3": {"square": "a3", "kind": "pyramid", "colour": 1, "facing": "E"}}


def test_a_khet_board_describes_its_legal_moves_only_with_the_previews() -> None:
    state = damier.load("khet").new_state()
    board = state.board_json()
    assert sorted(board["moves"]) == sorted(board["previews"]) == sorted(
        state.move_to_str(m) for m in state.legal_moves())
    assert board["moves"]["c1c2"] == {"type": "step", "from": "c1", "to": "c2"}
    assert board["moves"]["j1-"] == {"type": "rotate", "square": "j1", "turn": "ccw", "facing": "W"}
    assert board["moves"]["e4+"]["type"] == "rotate"
    assert state.board_json(previews=False)["moves"] == {}


DUEL = "xs9/10/1ps2yw4Ys/10/10/10/10/4Pn4Xn s 0"


def duel_board() -> dict[str, Any]:
    board = damier.load("khet").state_from_position(DUEL).board_json(previews=False)
    return {"pieces": board["pieces"], "to_move": 0, "quiet": 0}


def test_the_editor_gets_the_position_of_its_board_checked(client: TestClient) -> None:
    answer = client.post("/api/positions/board", json={"game": "khet", "board": duel_board()})
    assert answer.status_code == 200, answer.text
    assert answer.json()["valid"] and answer.json()["position"] == DUEL and answer.json()["legal_moves"] == 13
    # a position one cannot play from is written, and the check says why
    board = duel_board()
    board["quiet"] = 100
    refused = client.post("/api/positions/board", json={"game": "khet", "board": board}).json()
    assert not refused["valid"] and refused["position"] == DUEL.replace(" s 0", " s 100")
    assert "100 quiet plies" in refused["error"]
    # more pieces than the palette's limit: refused by the check
    board = duel_board()
    board["pieces"] += [{"square": f"{f}3", "kind": "pyramid", "colour": 0, "facing": "N"} for f in "bcdefghi"]
    refused = client.post("/api/positions/board", json={"game": "khet", "board": board}).json()
    assert not refused["valid"] and "at most 7" in refused["error"]


@pytest.mark.parametrize(("body", "fragment"), [
    ({"game": "khet", "board": {"pieces": [{"square": "z9", "kind": "pyramid", "colour": 0, "facing": "N"}]}},
     "not a square"),
    ({"game": "khet", "board": {"pieces": [{"square": "c3", "kind": "dragon", "colour": 0, "facing": "N"}]}},
     "not a piece"),
    ({"game": "khet", "board": {"pieces": [], "to_move": 2}}, "to_move"),
    ({"game": "atoms", "board": {}}, "atoms has no position editor; games with one: khet"),
    ({"game": "nope", "board": {}}, "unknown game"),
])
def test_a_board_that_is_not_one_is_refused(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    answer = client.post("/api/positions/board", json=body)
    assert answer.status_code == 422 and fragment in answer.json()["error"]
