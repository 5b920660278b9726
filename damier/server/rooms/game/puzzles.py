"""Solo puzzles: a puzzle game (one player) played in a game room with one human seat. A new puzzle by the game's
options (a ``difficulty`` option, when the game has one, picks its length), by a puzzle id or JSON (the game's
``puzzle`` feature, else its position notation), or the puzzle of the day: the same for everyone on a UTC date,
drawn from a seed made of the game's name and the date."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from damier.core import messages, registry
from damier.core.errors import DamierError
from damier.core.game import Game, State
from damier.server.rooms.errors import Invalid, NotFound
from damier.server.rooms.game import creation, setups
from damier.server.rooms.game.room import GameRoom
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse


def today() -> date:
    """The UTC date now (the puzzle of the day changes at midnight UTC)."""
    return datetime.now(UTC).date()


def daily_seed(name: str, day: date) -> int:
    """The seed of game ``name``'s puzzle of ``day``: the same on every server, a different one every day.

    >>> first, again = daily_seed("any", date(2026, 12, 1)), daily_seed("any", date(2026, 12, 1))
    >>> first == again != daily_seed("any", date(2026, 12, 2))
    True
    """
    digest = hashlib.sha256(f"damier daily puzzle:{name}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def puzzle_game(name: str, options: dict[str, Any] | None = None) -> Game:
    """Game ``name`` with ``options``, if it is a puzzle (one player); ``Invalid`` otherwise."""
    game = creation.load_game(name, options or {})
    if game.num_players != 1:
        raise Invalid(say("error.game.not_a_puzzle", game=messages.title_of(game), players=game.num_players))
    return game


def daily_options(name: str) -> dict[str, Any]:
    """The options game ``name`` declares for its puzzle of the day (none for an unknown game: loading it says
    what is wrong)."""
    try:
        return dict(registry.info(name).daily)
    except DamierError:
        return {}


def day_of(text: str | None) -> date:
    """A date from ``YYYY-MM-DD`` (None: today, UTC); ``Invalid`` for a bad one or one after today."""
    if text is None:
        return today()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise Invalid(say("error.game.bad_date", text=repr(text[:20]))) from None
    if day > today():
        raise Invalid(say("error.game.puzzle_not_out", date=day.isoformat()))
    return day


async def daily(house: GameHouse, name: str, day: date) -> dict[str, Any]:
    """The puzzle of the day of game ``name`` (with the options its declaration gives the daily puzzle): what a
    client shows before playing it (drawn in the worker pool once, ``setups``)."""
    try:
        game = puzzle_game(name, daily_options(name))
    except Invalid as exc:
        raise NotFound(say("error.game.no_daily_puzzle", reason=str(exc.message))) from None
    seed = daily_seed(game.name, day)
    drawn = await setups.usual_start(house, game, seed)
    state = await asyncio.to_thread(_first, game, drawn, seed)
    return {"game": game.name, "title": game.title, "date": day.isoformat(), "seed": seed,
            "options": dict(game.options), "start": state.start if drawn is None else None,
            "position": state.position(), "board": state.board_json(previews=False)}


def _first(game: Game, start: str | None, seed: int | None) -> State:
    try:
        return game.start_state(start, seed)
    except DamierError as exc:
        raise Invalid(say("error.game.no_puzzle_with_options",
                          game=messages.title_of(game), reason=messages.cause_of(exc))) from None


async def create(house: GameHouse, name: str, options: dict[str, Any], puzzle: str | None, seed: int | None,
                 day: date | None) -> tuple[GameRoom, str]:
    """A solo puzzle room and the token of its one seat: the puzzle of ``day`` (the options the game declares for
    it), the puzzle ``puzzle`` (an id or JSON the game reads), or one drawn by ``options`` and ``seed`` (None:
    random)."""
    game = puzzle_game(name, daily_options(name) if day is not None else options)
    start = None
    if day is not None:
        if options or puzzle is not None or seed is not None:
            raise Invalid(say("error.game.daily_own_options"))
        seed = daily_seed(game.name, day)
    elif puzzle is not None:
        info = registry.info(game.name)
        if info.has("puzzle"):
            try:
                state: State = await asyncio.to_thread(info.hook("puzzle"), puzzle, options)
            except DamierError as exc:
                raise Invalid(say("error.game.bad_puzzle",
                                  game=messages.title_of(game), reason=messages.cause_of(exc))) from None
            game, start = state.game, state.start
            if start is None:  # a puzzle read without a position of its own: its position is where it starts
                start = state.position()
        else:
            start = puzzle
    room, tokens = await creation.create(house, game.name, dict(game.options), [{"kind": "human"}], seed, start)
    return room, tokens[0]
