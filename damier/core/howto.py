"""A game's "How to play" page as data (the ``howto`` feature), and the page the web client draws from it.

A game declares its texts, its diagrams (a position in its own notation, and moves played by its rules) and, if it
wants one, a first-game tutorial; ``page`` turns the declaration into JSON: every diagram's board comes from a real
state (``board_json``) and every example's animation from ``state.events()``, so no rule is written twice.

>>> from damier.core import registry
>>> doc = page(registry.info("atoms"))
>>> doc["game"], len(doc["sections"]) > 2
('atoms', True)
>>> [d["animated"] for s in doc["sections"] for d in s["diagrams"]].count(True) >= 1
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from damier.core.errors import DamierError

if TYPE_CHECKING:
    from damier.core.registry import GameInfo


@dataclass(frozen=True)
class Diagram:
    """A board drawn by the game's board view: the position ``position`` (the game's notation; empty: the usual
    start of ``options`` and ``seed``), after the moves ``before``; with ``example``, those moves (a move and the
    chance events after it) are animated from there, with a replay button."""

    caption: str
    position: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    before: tuple[str, ...] = ()
    example: tuple[str, ...] = ()


@dataclass(frozen=True)
class Item:
    """A term and what it means (a piece and what it does, a special square)."""

    term: str
    text: str


@dataclass(frozen=True)
class Section:
    """A part of the page: a title, paragraphs, a list of terms, diagrams."""

    title: str
    text: tuple[str, ...] = ()
    items: tuple[Item, ...] = ()
    diagrams: tuple[Diagram, ...] = ()


@dataclass(frozen=True)
class TutorialStep:
    """A step of the first-game tutorial: what to do, and what on the game page's board to point at (a CSS
    selector inside the board; ``{you}`` and ``{opponent}`` stand for the seats of the player and of the other;
    empty: the whole board)."""

    title: str
    text: str
    point: str = ""


@dataclass(frozen=True)
class HowTo:
    """A game's How to play page: a summary, sections in reading order, and an optional first-game tutorial."""

    summary: str
    sections: tuple[Section, ...]
    tutorial: tuple[TutorialStep, ...] = ()


class HowToError(DamierError):
    """A declared diagram that the rules do not accept (a bad position or an illegal move)."""


def page(info: GameInfo) -> dict[str, Any]:
    """The How to play page of the game ``info`` (its ``howto`` feature) as JSON, each diagram played by the
    rules: ``{game, title, summary, sections: [{title, text, items, diagrams}], tutorial}``. Plays kernels: call it
    off the event loop. ``HowToError`` for a diagram the rules refuse."""
    howto: HowTo = info.hook("howto")
    return {
        "game": info.name,
        "title": info.title,
        "summary": howto.summary,
        "sections": [
            {"title": s.title, "text": list(s.text),
             "items": [{"term": i.term, "text": i.text} for i in s.items],
             "diagrams": [diagram(info, d) for d in s.diagrams]}
            for s in howto.sections
        ],
        "tutorial": [{"title": t.title, "text": t.text, "point": t.point} for t in howto.tutorial],
    }


def diagram(info: GameInfo, d: Diagram) -> dict[str, Any]:
    """One diagram: ``board`` (what is drawn first), and for an example its ``moves``, their ``events`` and the
    board ``after`` them; for a picture after moves, the last move's ``events`` (drawn faintly by some views)."""
    from damier.core import registry

    try:
        game = registry.load(info.name, **d.options)
        state = game.start_state(d.position or None, d.seed)
        for text in d.before:
            state.play(state.parse_move(text))
        out: dict[str, Any] = {"caption": d.caption, "options": dict(game.options),
                               "position": state.position(), "board": state.board_json(previews=False),
                               "animated": bool(d.example), "moves": list(d.example),
                               "events": state.events() if d.before else []}
        if d.example:
            events: list[dict[str, Any]] = []
            for text in d.example:
                state.play(state.parse_move(text))
                events.extend(state.events())
            out["events"], out["after"] = events, state.board_json(previews=False)
            out["result"] = state.outcome().reason if state.is_over() else None  # type: ignore[union-attr]
    except DamierError as exc:
        raise HowToError(f"{info.name}: the diagram {d.caption!r} is not a position and moves of the rules: {exc}") \
            from exc
    return out
