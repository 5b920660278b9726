"""The heavy reads' work, as plain functions of names and notation (so they run in another process:
``damier.server.heavy``): a position checked with a line's boards, a board set up in an editor, the analysis
board's position, a page of a replay. Each answers its JSON text, encoded there a part at a time."""

from __future__ import annotations

import json
from typing import Any

from damier.core import messages, registry
from damier.core.errors import DamierError
from damier.server import analysis
from damier.server.rooms.errors import Invalid
from damier.server.rooms.game import creation
from damier.server.rooms.game.views import frames


def encode(value: Any) -> bytes:
    """``value`` as compact JSON, encoded a part at a time (each item of a list, each value of an object, two levels
    deep), so that no one call of the encoder is long.

    >>> encode({"a": [1, {"b": None}], "c": "é"}) == packed({"a": [1, {"b": None}], "c": "é"}).encode()
    True
    """
    return _parts(value, 2).encode()


def _parts(value: Any, depth: int) -> str:
    if depth and isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(key), ensure_ascii=False)}:{_parts(item, depth - 1)}"
                              for key, item in value.items()) + "}"
    if depth and isinstance(value, list):
        return "[" + ",".join(_parts(item, depth - 1) for item in value) + "]"
    return packed(value)


def packed(value: Any) -> str:
    """One call of the encoder: compact JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def position(name: str, options: dict[str, Any], at: str | None, moves: list[str] | None,
             seed: int | None) -> bytes:
    """``creation.check_position``, encoded."""
    return encode(creation.check_position(name, options, at, moves, seed))


def edited(name: str, options: dict[str, Any], board: dict[str, Any]) -> bytes:
    """The position of a board set up in a position editor (the game's declared editor writes it), checked."""
    try:
        game = registry.load(name, **options)
        if not game.info.has("editor"):
            raise Invalid(registry.missing_message(game.name, "editor"))
        text = game.info.hook("editor")(game, board)
    except DamierError as exc:
        raise Invalid(messages.said_of(exc)) from None
    try:
        return encode({**creation.check_position(game.name, dict(game.options), text), "valid": True})
    except Invalid as exc:
        return encode({"game": game.name, "options": dict(game.options), "position": text, "valid": False,
                       "error": exc.message, **messages.coded(exc.message)})


def analysis_board(name: str, options: dict[str, Any], at: str | None, moves: list[str], move: str | None) -> bytes:
    """``analysis.board``, encoded."""
    return encode(analysis.board(name, options, at, moves, move))


def replay_page(page: dict[str, Any], name: str, options: dict[str, Any], start: str | None, seed: int | None,
                moves: list[tuple[str, int]], first: int, count: int) -> bytes:
    """A replay's page (``views.replay_frames``): ``page``, what it says of the game, with its frames."""
    game = registry.load(name, **options)
    return encode({**page, "frames": frames(game, start, seed, moves, first, count)})
