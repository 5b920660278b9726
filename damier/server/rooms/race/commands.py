"""What people do in a race room: create it (the host takes seat 0), join, start, claim, demonstrate, give up.
Each command takes the room's lock, first enforces what ran out (``changes.expire``), asks the rules (``rules``,
pure) whether it is allowed now (else ``Conflict``, ``NotYourSeat`` or ``Invalid``, and nothing changes) and which
events it makes, commits them, tells the watchers and sets the room's timer."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import unicodedata
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from damier.core import messages, registry
from damier.core.errors import DamierError
from damier.server.rooms.errors import Invalid
from damier.server.rooms.race import rules as race_rules
from damier.server.rooms.race import timers as race_timers
from damier.server.rooms.race.changes import close_round, commit, draft_of, expire, next_round, stored_events
from damier.server.rooms.race.log import Settings, iso
from damier.server.rooms.race.room import RaceRoom, race_of
from damier.server.storage import RaceRow
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.race.house import RaceHouse

#: a player's name: 1 to this many characters
MAX_NAME = 24


def clean_name(name: Any) -> str:
    """A player's name, trimmed: ``Invalid`` when empty, too long, or made of control characters."""
    if not isinstance(name, str):
        raise Invalid(say("error.race.name_not_text"))
    text = " ".join(name.split())
    if not 1 <= len(text) <= MAX_NAME:
        raise Invalid(say("error.race.name_length", max=MAX_NAME))
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise Invalid(say("error.race.name_control"))
    return text


async def create(house: RaceHouse, name: str, options: dict[str, Any], settings: dict[str, Any],
                 host: str) -> tuple[RaceRoom, str]:
    """A new race room of puzzle game ``name`` (one that declares a race) with the game's ``options`` and the
    room's ``settings``; the host (named ``host``) takes seat 0. The room and the host's token."""
    host_name = clean_name(host)
    await house.rules_ready(name)  # its puzzles are made by its rules and solver
    try:
        info = registry.info(name)
        if not info.has("race"):
            raise Invalid(registry.missing_message(info.name, "race"))
        game = registry.load(info.name, **options)
        race = race_of(game)
        rules = race.rules(game)
    except DamierError as exc:
        raise Invalid(messages.said_of(exc)) from None
    chosen = Settings.read(settings, rules)
    now = iso(house.now())
    row = RaceRow(id=secrets.token_urlsafe(9), game=game.name, options=dict(game.options),
                  settings=chosen.to_json(), status="lobby", result=None, created_at=now, updated_at=now)
    room = RaceRoom(row, game, race, rules, chosen, house.now)
    draft = draft_of(room)
    race_rules.join(draft, host_name)
    row.events = stored_events(draft)
    await asyncio.wrap_future(house.storage.races.create(row))
    room.log = draft.log
    house.rooms.add(room)
    return room, house.keys.token(room.id, 0)


@contextlib.asynccontextmanager
async def changing(house: RaceHouse, race_id: str) -> AsyncIterator[RaceRoom]:
    """The race under its lock, what ran out enforced first; then, if anything changed (also when the command is
    refused, if a deadline was enforced on the way), the watchers are told; and the timer is set."""
    room = await house.race(race_id)
    changed = False
    try:
        async with room.lock:
            version = room.log.version
            try:
                await expire(house, room)
                yield room
            finally:
                changed = room.log.version != version
    finally:
        if changed:
            room.broadcast()
        if house.rooms.holds(room):  # (a room the database knew better of was dropped: no timer for it)
            race_timers.schedule(house, room)


@contextlib.asynccontextmanager
async def seated(house: RaceHouse, race_id: str, token: str | None) -> AsyncIterator[tuple[RaceRoom, int]]:
    """Like ``changing``, with the token's seat (``NotYourSeat`` for a token of no player of this race)."""
    room = await house.race(race_id)
    seat = house.keys.require(room.id, room.seats(), token)
    async with changing(house, race_id) as room:
        yield room, seat


async def look(house: RaceHouse, race_id: str) -> RaceRoom:
    """The race as it is now (what ran out enforced)."""
    room = await house.race(race_id)
    due = room.log.deadline()
    if due is not None and due[1] <= room.clock():
        async with changing(house, race_id) as room:
            pass
    return room


async def join(house: RaceHouse, race_id: str, name: str) -> tuple[RaceRoom, int, str]:
    """A new player (in the lobby or during the race, while seats are left): the room, the seat and its token."""
    player = clean_name(name)
    async with changing(house, race_id) as room:
        draft = draft_of(room)
        seat = race_rules.join(draft, player)
        await commit(house, room, draft)
    return room, seat, house.keys.token(room.id, seat)


async def start(house: RaceHouse, race_id: str, token: str | None) -> RaceRoom:
    """The host starts the race: the first round's puzzle is shown to everyone."""
    async with seated(house, race_id, token) as (room, seat):
        draft = draft_of(room)
        race_rules.start(draft, seat)
        await next_round(house, room, draft)
        await commit(house, room, draft)
    return room


async def claim(house: RaceHouse, race_id: str, token: str | None, count: int, round_number: int | None) -> RaceRoom:
    """Claim the round's puzzle in ``count`` moves (``rules.claim``: a claim or a bid). ``round_number`` refuses a
    claim meant for a round that is over."""
    race_rules.claim_count(count)
    async with seated(house, race_id, token) as (room, seat):
        draft = draft_of(room)
        race_rules.claim(draft, seat, count, round_number)
        await commit(house, room, draft)
    return room


async def demonstrate(house: RaceHouse, race_id: str, token: str | None, moves: list[str],
                      round_number: int | None) -> RaceRoom:
    """The demonstrator's next moves (one, or the whole line): each is checked with the game's rules; an illegal
    one is judged wrong at once; the claim is judged once the puzzle is solved or the claimed moves are spent
    (``rules.read_moves``, ``rules.play_moves``). Text that is not a move of the game at all (a typo) is refused
    and changes nothing."""
    race_rules.moves_sent(moves)
    async with seated(house, race_id, token) as (room, seat):
        legal, illegal = race_rules.read_moves(room.log, room.game, seat, moves, round_number)
        draft = draft_of(room)
        await close_round(house, room, draft, race_rules.play_moves(draft, seat, legal, illegal))
        await commit(house, room, draft)
    return room


async def give_up(house: RaceHouse, race_id: str, token: str | None) -> RaceRoom:
    """The demonstrator gives up: the claim is wrong."""
    async with seated(house, race_id, token) as (room, seat):
        race_rules.demonstrator(room.log, seat, None, giving_up=True)
        draft = draft_of(room)
        await close_round(house, room, draft, race_rules.play_moves(draft, seat, [], say("verdict.gave_up")))
        await commit(house, room, draft)
    return room
