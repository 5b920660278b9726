"""What the arcade offers: the games (``/api/catalog``), each game's How to play page, and the server's health."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from damier import __version__
from damier.ai.analysis import kind as analysis_kind
from damier.core import howto as howto_page
from damier.core import messages, registry
from damier.core.errors import DamierError
from damier.server.declared import localize_entry
from damier.server.descriptions import Descriptions
from damier.server.rooms import NotFound
from damier.server.rooms.game import clocks
from damier.server.routes.common import arcade_of

router = APIRouter()


def descriptions_of(request: Request) -> Descriptions:
    descriptions: Descriptions = request.app.state.descriptions
    return descriptions


@router.get("/api/catalog", summary="The games: options, computer levels, and what the web client draws them with")
async def catalog(request: Request,
                  lang: Annotated[str | None, Query(description="en, es or fr; English for any other")] = None,
                  ) -> list[dict[str, Any]]:
    # a game's client description (setups, palette, sample boards) is the same for every request: made once,
    # without compiling a kernel (damier.server.descriptions), and kept
    out = []
    for info in registry.all_infos():
        entry = info.to_json()
        entry["levels"] = list(info.levels or ["easy", "medium", "hard"]) + list(info.agents)
        entry["has_draws"] = info.has_draws
        # the time controls the new-game form offers (minutes, increment), none for a puzzle played alone
        entry["clocks"] = [list(p) for p in clocks.PRESETS] if info.players != "1" else None
        # and the bounds of a custom one (the form checks them before the server does)
        entry["clock_limits"] = {"minutes": [clocks.MIN_MINUTES, clocks.MAX_MINUTES],
                                 "increment": [0, clocks.MAX_INCREMENT]} if info.players != "1" else None
        entry["analysis"] = analysis_kind(info)  # "search", "solver" or None: what the analysis board shows
        # the board module, setups, presets, palette...; None: the client draws a plain grid
        entry["client"] = await descriptions_of(request).client(info)
        out.append(entry)
    # the words each game declares (title, options' help, the client's labels), in the language asked
    code = language_of(request, lang)
    if code == messages.DEFAULT:
        return out
    return [localize_entry(entry, messages.game_catalogue(info.messages, code)) if info.messages else entry
            for info, entry in zip(registry.all_infos(), out, strict=True)]


def language_of(request: Request, lang: str | None) -> str:
    """The language to answer in: ``lang`` if given, else the request's ``Accept-Language``; English for one the
    arcade does not speak."""
    return messages.negotiate(lang[:200] if lang else request.headers.get("accept-language"))


@router.get("/api/catalog/{game}/howto",
            summary="A game's How to play page: its texts, diagrams and animated examples played by its rules")
async def howto(game: str, request: Request,
                lang: Annotated[str | None, Query(description="en, es or fr; English for any other")] = None,
                ) -> dict[str, Any]:
    # the same for every request: made once, without compiling a kernel (damier.server.descriptions)
    try:
        info = registry.info(game[:40])
    except DamierError as exc:
        raise NotFound(str(exc)) from None
    if not info.has("howto"):
        raise NotFound(registry.missing_message(info.name, "howto"))
    code = language_of(request, lang)
    doc = await descriptions_of(request).howto(info)
    words = messages.game_catalogue(info.messages, code) if info.messages else {}
    client = await descriptions_of(request).client(info) or {}
    seats = tuple(words.get(f"client.seats.{i}", name) for i, name in enumerate(client.get("seats") or ()))
    return howto_page.localize(doc, words, code, seats)


@router.get("/api/health", include_in_schema=False)
async def health(request: Request, window: Annotated[float, Query(gt=0, le=60)] = 60) -> dict[str, Any]:
    # and how far compiling the games' kernels is (the home page says so while it runs)
    kernels = arcade_of(request).pool.kernels
    # the event loop's worst lag of the last minute (or ``window`` seconds; ms): anything that held it up
    lag = round(1000 * request.app.state.loop_watch.worst(window=window), 1)
    return {"status": "ok", "version": __version__, "kernels": kernels.status() if kernels else None,
            "loop_lag_ms": lag}
