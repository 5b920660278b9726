"""Conformance: saved states (``to_json`` / ``state_from_json``) and game records, and how corrupt ones fail."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import damier
from damier.core.game import Game
from tests.conformance.random_play import choose, fingerprint, random_line, random_state

SEEDS = range(2)


def _as_json(obj: Any) -> Any:
    """What a file or a socket gives back: proves the object is plain JSON."""
    return json.loads(json.dumps(obj))


def test_state_from_json_round_trips_at_every_step(game: damier.Game) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            obj = _as_json(state.to_json())
            for restored in (game.state_from_json(obj), damier.state_from_json(obj)):
                assert restored.game == game
                assert restored.seed == state.seed
                assert fingerprint(restored) == fingerprint(state)
                if state.history:  # the restored state knows its history: undo works on it
                    restored.undo()
                    previous = state.copy()
                    previous.undo()
                    assert fingerprint(restored) == fingerprint(previous)


def test_state_from_json_round_trips_from_a_start_position(game: damier.Game) -> None:
    if type(game).state_from_position is Game.state_from_position:
        pytest.skip(f"{game.name} has no position notation")
    for state in random_line(game, 0):
        if len(state.history) >= 6 or state.is_over():
            break
    start = game.state_from_position(state.position(), seed=7)
    rng = random.Random(7)
    for _ in range(6):
        if start.is_over():
            break
        start.play(choose(start, rng))
    obj = _as_json(start.to_json())
    assert obj["start"] == state.position()
    restored = game.state_from_json(obj)
    assert fingerprint(restored) == fingerprint(start)
    replayed = damier.Record.from_state(start).replay()
    assert replayed.position() == start.position()
    assert replayed.history == start.history


def _mid_game(game: damier.Game, plies: int = 4) -> damier.State:
    return random_state(game, 3, max_plies=plies)


def _illegal_text(game: damier.Game, state: damier.State) -> str | None:
    """The notation of a move that is well formed but illegal in ``state``, if there is one."""
    for move in range(game.num_moves):
        if not state.is_legal(move):
            try:
                return state.move_to_str(move)
            except damier.DamierError:
                continue
    return None


def _corruptions(game: damier.Game, state: damier.State) -> dict[str, Callable[[dict[str, Any]], Any]]:
    other = state.copy()
    other.undo()
    assert other.position() != state.position()

    def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
        return lambda obj: {**obj, key: value}

    def drop_key(key: str) -> Callable[[dict[str, Any]], Any]:
        return lambda obj: {k: v for k, v in obj.items() if k != key}

    def set_move(index: int, text: str) -> Callable[[dict[str, Any]], Any]:
        return lambda obj: {**obj, "moves": [text if i == index else m for i, m in enumerate(obj["moves"])]}

    cases: dict[str, Callable[[dict[str, Any]], Any]] = {
        "a list": lambda obj: [obj],
        "a string": lambda obj: json.dumps(obj),
        "null": lambda obj: None,
        "wrong format": set_key("format", "damier.record"),
        "no format": drop_key("format"),
        "wrong version": set_key("version", 2),
        "version as text": set_key("version", "1"),
        "no version": drop_key("version"),
        "no moves": drop_key("moves"),
        "moves not a list": set_key("moves", "moves"),
        "a move not a string": set_move(0, 0),  # type: ignore[arg-type]
        "a garbage move": set_move(0, "#?!"),
        "seed not an int": set_key("seed", "seven"),
        "start not a string": set_key("start", 12),
        "position tampered": set_key("position", other.position()),
        "position garbage": set_key("position", "garbage"),
        "options not an object": set_key("options", "rows=3"),
    }
    replay = game.new_state(state.seed)
    for index, move in enumerate(state.history):
        illegal = _illegal_text(game, replay)
        if illegal is not None:
            cases["a move changed to an illegal one"] = set_move(index, illegal)
            break
        replay.play(move)
    assert "a move changed to an illegal one" in cases
    return cases


def test_state_from_json_rejects_corrupted_objects(game: damier.Game) -> None:
    state = _mid_game(game)
    obj = _as_json(state.to_json())
    for name, corrupt in _corruptions(game, state).items():
        bad = corrupt(copy.deepcopy(obj))
        with pytest.raises(damier.RecordError):
            game.state_from_json(bad)
            pytest.fail(f"game.state_from_json accepted {name}")
        with pytest.raises(damier.RecordError):
            damier.state_from_json(bad)
            pytest.fail(f"damier.state_from_json accepted {name}")
    with pytest.raises(damier.RecordError):
        game.state_from_json({**obj, "game": "nope"})
    with pytest.raises(damier.RecordError):
        damier.state_from_json({**obj, "game": "nope"})


def test_state_from_json_rejects_unknown_or_bad_options(game: damier.Game) -> None:
    obj = _as_json(_mid_game(game).to_json())
    bad_options = [{**obj["options"], "no_such_option": 1}]
    bad_options += [{**obj["options"], name: [1]} for name in obj["options"]]
    for options in bad_options:
        with pytest.raises(damier.RecordError):
            damier.state_from_json({**obj, "options": options})
        with pytest.raises(damier.RecordError):
            game.state_from_json({**obj, "options": options})


def test_record_round_trips_through_a_file(game: damier.Game, tmp_path: Path) -> None:
    for seed in SEEDS:
        for state in random_line(game, seed):
            if len(state.history) in (0, 5) or state.is_over():
                record = damier.Record.from_state(state, players=[f"P{q}" for q in range(game.num_players)])
                path = tmp_path / f"{seed}-{len(state.history)}.json"
                record.save(path)
                loaded = damier.Record.load(path)
                assert loaded.to_json() == record.to_json()
                assert (loaded.result is None) == (not state.is_over())
                replayed = loaded.replay()
                assert replayed.position() == state.position()
                assert replayed.history == state.history
                assert replayed.outcome() == state.outcome()
                assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp files


def test_corrupt_record_file_raises_record_error(game: damier.Game, tmp_path: Path) -> None:
    state = random_state(game, 0)
    good = damier.Record.from_state(state).to_json()
    text = json.dumps(good)
    files: dict[str, str | bytes] = {
        "not json": "this is not json {",
        "empty": "",
        "truncated": text[: len(text) // 2],
        "a list": json.dumps([good]),
        "wrong format": json.dumps({**good, "format": "damier.state"}),
        "wrong version": json.dumps({**good, "version": 99}),
        "moves not a list": json.dumps({**good, "moves": "A1 B2"}),
        "no game": json.dumps({k: v for k, v in good.items() if k != "game"}),
        "bad result": json.dumps({**good, "result": {"winner": "me"}}),
        "not utf-8": b"\xff\xfe\x00{",
    }
    for name, content in files.items():
        path = tmp_path / f"{name}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        with pytest.raises(damier.RecordError):
            damier.Record.load(path)
            pytest.fail(f"Record.load accepted a file that is {name}")
    with pytest.raises(damier.RecordError):
        damier.Record.load(tmp_path / "missing.json")


def test_record_that_does_not_replay_raises_record_error(game: damier.Game, tmp_path: Path) -> None:
    state = random_state(game, 0)
    good = damier.Record.from_state(state).to_json()
    assert state.outcome() is not None
    final = state.outcome()
    loser = next((q for q in range(game.num_players) if q != final.winner), None)
    wrong = ({"winner": loser, "returns": [0.0], "reason": "made up"} if loser is not None else  # a puzzle:
             {**final.to_json(), "cost": (final.cost or 0) + 1})  # the wrong number of moves
    records = {
        "an extra move after the end": {**good, "moves": [*good["moves"], good["moves"][0]]},
        "a garbage move": {**good, "moves": ["#?!", *good["moves"][1:]]},
        "the wrong result": {**good, "result": wrong},
        "an unknown game": {**good, "game": "nope"},
        "an unknown option": {**good, "options": {**good["options"], "no_such_option": 1}},
    }
    for name, obj in records.items():
        path = tmp_path / "record.json"
        path.write_text(json.dumps(obj), encoding="utf-8")
        with pytest.raises(damier.RecordError):
            damier.Record.load(path).replay()
            pytest.fail(f"a record with {name} replayed")
