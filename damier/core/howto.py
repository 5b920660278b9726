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
from damier.core.messages import coded

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
    #: the values the texts name (``{quiet}``: the quiet-ply limit's default), the same in every language
    params: Mapping[str, Any] = field(default_factory=dict)


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
        "params": dict(howto.params),
    }


def localize(doc: dict[str, Any], words: Mapping[str, str], lang: str, seats: tuple[str, ...] = ()) -> dict[str, Any]:
    """The page ``doc`` (``page``'s answer) in ``lang``: each text is a key of the game's catalogue ``words`` (its
    messages in ``lang``, English beneath), filled in with the page's ``params``; a text that is no key is shown as
    it is; an example's result is said again in ``lang``, its seats named ``seats``. The boards, moves and events
    are the same in every language.

    >>> doc = {"summary": "howto.summary", "sections": [], "tutorial": [], "params": {"n": 3}}
    >>> localize(doc, {"howto.summary": "{n, plural, one {# coup} other {# coups}}"}, "fr")["summary"]
    '3 coups'
    """
    from damier.core.messages import format_message

    params = doc.get("params") or {}

    def say(text: str) -> str:
        return format_message(words[text], params, lang) if text in words else text

    out = dict(doc, summary=say(doc["summary"]))
    out["sections"] = [
        dict(s, title=say(s["title"]), text=[say(t) for t in s["text"]],
             items=[dict(i, term=say(i["term"]), text=say(i["text"])) for i in s["items"]],
             diagrams=[result_in(dict(d, caption=say(d["caption"])), lang, seats) for d in s["diagrams"]])
        for s in doc["sections"]
    ]
    out["tutorial"] = [dict(t, title=say(t["title"]), text=say(t["text"])) for t in doc["tutorial"]]
    out.pop("params", None)
    return out


def result_in(d: dict[str, Any], lang: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """A diagram with its example's result said in ``lang`` (the rules' catalogue), without its code."""
    from damier.core.messages import say_in

    said = d.pop("result_said", None)
    if said and lang != "en":
        d["result"] = say_in(said["code"], said["params"], lang, seats)
    return d


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
            reason = state.outcome().reason if state.is_over() else None  # type: ignore[union-attr]
            # the outcome's words, and their code and parameters to say them in another language
            out["result"], out["result_said"] = reason, coded(reason) or None
    except DamierError as exc:
        raise HowToError(f"{info.name}: the diagram {d.caption!r} is not a position and moves of the rules: {exc}") \
            from exc
    return out
