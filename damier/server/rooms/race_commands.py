"""What people do in a race room: create it (the host takes seat 0), join, start, claim, demonstrate, give up.
Each command takes the room's lock, first enforces what ran out (``race_changes.expire``), checks it is allowed
now (else ``Conflict``, ``NotYourSeat`` or ``Invalid``, and nothing changes), commits its events, tells the
watchers and sets the room's timer."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import unicodedata
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from damier.core import registry
from damier.core.errors import DamierError, IllegalMoveError, ParseError
from damier.server.rooms import race_timers
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.rooms.race_changes import Change, commit, expire, next_round, play_moves, start_demonstration
from damier.server.rooms.race_log import MAX_BIDS, MAX_CLAIM, Settings, iso
from damier.server.rooms.race_room import RaceRoom, race_of
from damier.server.storage import RaceRow

if TYPE_CHECKING:
    from damier.server.rooms.arcade import Arcade

#: a player's name: 1 to this many characters
MAX_NAME = 24


def clean_name(name: Any) -> str:
    """A player's name, trimmed: ``Invalid`` when empty, too long, or made of control characters."""
    if not isinstance(name, str):
        raise Invalid("a name is text")
    text = " ".join(name.split())
    if not 1 <= len(text) <= MAX_NAME:
        raise Invalid(f"a name has 1 to {MAX_NAME} characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in text):
        raise Invalid("a name cannot hold control characters")
    return text


async def create(arcade: Arcade, name: str, options: dict[str, Any], settings: dict[str, Any],
                 host: str) -> tuple[RaceRoom, str]:
    """A new race room of puzzle game ``name`` (one that declares a race) with the game's ``options`` and the
    room's ``settings``; the host (named ``host``) takes seat 0. The room and the host's token."""
    host_name = clean_name(host)
    await arcade.rules_ready(name)  # its puzzles are made by its rules and solver
    try:
        info = registry.info(name)
        if not info.has("race"):
            raise Invalid(registry.missing_message(info.name, "race"))
        game = registry.load(info.name, **options)
        race = race_of(game)
        rules = race.rules(game)
    except DamierError as exc:
        raise Invalid(str(exc)) from None
    chosen = Settings.read(settings, rules)
    now = iso(arcade.now())
    row = RaceRow(id=secrets.token_urlsafe(9), game=game.name, options=dict(game.options),
                  settings=chosen.to_json(), status="lobby", result=None, created_at=now, updated_at=now)
    room = RaceRoom(row, game, race, rules, chosen, arcade.now)
    change = Change(room)
    change.add("join", 0, {"name": host_name})
    row.events = list(change.events)
    await asyncio.wrap_future(arcade.storage.races.create(row))
    room.log = change.log
    arcade.rooms.add(room)
    return room, arcade.keys.token(room.id, 0)


@contextlib.asynccontextmanager
async def changing(arcade: Arcade, race_id: str) -> AsyncIterator[RaceRoom]:
    """The race under its lock, what ran out enforced first; then, if anything changed (also when the command is
    refused, if a deadline was enforced on the way), the watchers are told; and the timer is set."""
    room = await arcade.race(race_id)
    changed = False
    try:
        async with room.lock:
            version = room.log.version
            try:
                await expire(arcade, room)
                yield room
            finally:
                changed = room.log.version != version
    finally:
        if changed:
            room.broadcast()
        if arcade.rooms.holds(room):  # (a room the database knew better of was dropped: no timer for it)
            race_timers.schedule(arcade, room)


@contextlib.asynccontextmanager
async def seated(arcade: Arcade, race_id: str, token: str | None) -> AsyncIterator[tuple[RaceRoom, int]]:
    """Like ``changing``, with the token's seat (``NotYourSeat`` for a token of no player of this race)."""
    room = await arcade.race(race_id)
    seat = arcade.keys.require(room.id, room.seats(), token)
    async with changing(arcade, race_id) as room:
        yield room, seat


async def look(arcade: Arcade, race_id: str) -> RaceRoom:
    """The race as it is now (what ran out enforced)."""
    room = await arcade.race(race_id)
    due = room.log.deadline()
    if due is not None and due[1] <= room.clock():
        async with changing(arcade, race_id) as room:
            pass
    return room


def _playing(room: RaceRoom, round_number: int | None) -> None:
    log = room.log
    if log.status == "lobby":
        raise Conflict("the race has not started yet")
    if log.status == "finished":
        raise Conflict("the race is over")
    now = log.current
    assert now is not None
    if round_number is not None and round_number != now.number:
        raise Conflict(f"round {round_number} is over: this is round {now.number}")


async def join(arcade: Arcade, race_id: str, name: str) -> tuple[RaceRoom, int, str]:
    """A new player (in the lobby or during the race, while seats are left): the room, the seat and its token."""
    player = clean_name(name)
    async with changing(arcade, race_id) as room:
        log = room.log
        if log.status == "finished":
            raise Conflict("the race is over")
        if len(log.players) >= room.settings.max_players:
            raise Conflict(f"the race is full ({room.settings.max_players} players)")
        if any(p.name.casefold() == player.casefold() for p in log.players):
            raise Conflict(f"{player!r} is taken in this race; choose another name")
        change = Change(room)
        seat = len(log.players)
        change.add("join", seat, {"name": player})
        await commit(arcade, change)
    return room, seat, arcade.keys.token(room.id, seat)


async def start(arcade: Arcade, race_id: str, token: str | None) -> RaceRoom:
    """The host starts the race: the first round's puzzle is shown to everyone."""
    async with seated(arcade, race_id, token) as (room, seat):
        if seat != 0:
            raise Conflict("only the host (seat 0) starts the race")
        if room.log.status != "lobby":
            raise Conflict("the race has started already" if room.log.status == "playing" else "the race is over")
        if len(room.log.players) < 2:
            raise Conflict("a race needs at least 2 players; send the link to someone")
        change = Change(room)
        change.add("start", seat, {})
        await next_round(arcade, change)
        await commit(arcade, change)
    return room


async def claim(arcade: Arcade, race_id: str, token: str | None, count: int, round_number: int | None) -> RaceRoom:
    """Claim the round's puzzle in ``count`` moves (``exact``: the claimant demonstrates at once; ``at_most``: a bid,
    lowered later if one likes, until the bid deadline). ``round_number`` refuses a claim meant for a round that
    is over."""
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CLAIM:
        raise Invalid(f"a claim is a number of moves from 1 to {MAX_CLAIM}")
    async with seated(arcade, race_id, token) as (room, seat):
        _playing(room, round_number)
        log = room.log
        phase = log.phase()
        now = log.current
        assert now is not None
        if phase == "demonstrating":
            demo = now.demonstration
            assert demo is not None
            raise Conflict(f"{log.name(demo.seat)} is demonstrating a claim of {demo.count}; wait for the next round")
        change = Change(room)
        if room.rules.claim == "exact":
            change.add("claim", seat, {"count": count})
            start_demonstration(change, seat, count)
        else:
            mine = [c for c in now.claims if c.seat == seat]
            if mine and count >= mine[-1].count:
                raise Conflict(f"your bid is {mine[-1].count}; a new bid must be lower")
            if len(mine) >= MAX_BIDS:
                raise Conflict(f"you have bid {MAX_BIDS} times this round; your bid stays {mine[-1].count}")
            data: dict[str, Any] = {"count": count}
            if not now.claims:
                data["bid_deadline"] = round(change.now + room.settings.bid_seconds, 3)
            change.add("claim", seat, data)
        await commit(arcade, change)
    return room


async def demonstrate(arcade: Arcade, race_id: str, token: str | None, moves: list[str],
                      round_number: int | None) -> RaceRoom:
    """The demonstrator's next moves (one, or the whole line): each is checked with the game's rules; an illegal
    one is judged wrong at once; the claim is judged once the puzzle is solved or the claimed moves are spent.
    Text that is not a move of the game at all (a typo) is refused and changes nothing."""
    if not moves:
        raise Invalid("send at least one move")
    async with seated(arcade, race_id, token) as (room, seat):
        _playing(room, round_number)
        log = room.log
        now = log.current
        assert now is not None
        demo = now.demonstration
        if demo is None or demo.seat != seat:
            if demo is None:
                raise Conflict("nobody is demonstrating: claim first")
            raise Conflict(f"{log.name(demo.seat)} is demonstrating, not you")
        left = demo.count - len(demo.moves)
        if len(moves) > left:
            raise Invalid(f"you claimed {demo.count} moves and {left} remain; {len(moves)} were sent")
        assert demo.state is not None
        probe = demo.state.copy()
        legal: list[str] = []
        illegal = None
        for text in moves:
            try:
                move = probe.parse_move(text)
            except IllegalMoveError as exc:
                illegal = f"{text} is not a legal move: {exc}"
                break
            except (ParseError, DamierError) as exc:
                raise Invalid(f"{text[:64]!r} is not a move of {room.game.title}: {exc}") from None
            legal.append(probe.move_to_str(move))
            probe.play(move)
        change = Change(room)
        await play_moves(arcade, change, seat, legal, illegal)
        await commit(arcade, change)
    return room


async def give_up(arcade: Arcade, race_id: str, token: str | None) -> RaceRoom:
    """The demonstrator gives up: the claim is wrong."""
    async with seated(arcade, race_id, token) as (room, seat):
        _playing(room, None)
        now = room.log.current
        assert now is not None
        demo = now.demonstration
        if demo is None or demo.seat != seat:
            raise Conflict("only the player demonstrating a claim can give it up")
        change = Change(room)
        await play_moves(arcade, change, seat, [], "gave up")
        await commit(arcade, change)
    return room
