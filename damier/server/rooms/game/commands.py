"""What a seat does in a game room: move, undo, resign, draw, abort, claim, rematch: the shell around the rules of
play (``rules``, pure). Each goes through ``seated``, which finds the room, checks the token's seat and takes the
room's lock; the rules decide the change, ``apply`` stores it and then shows it, and after the lock the watchers
are told and a computer whose turn it is starts thinking."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from damier.server.rooms.game import clocks, creation, rules, turns
from damier.server.rooms.game.moves import arm, commit, finish, truncate, update
from damier.server.rooms.game.room import GameRoom

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse


@contextlib.asynccontextmanager
async def seated(house: GameHouse, game_id: str, token: str | None) -> AsyncIterator[tuple[GameRoom, int]]:
    """The room and the token's seat, under the room's lock. When the command succeeds, the watchers are told and
    a computer whose turn it is starts thinking."""
    room = await house.room(game_id)
    seat = house.require_seat(room, token)
    room.acted(seat)
    async with room.lock:
        yield room, seat
    room.broadcast()
    turns.schedule(house, room)


async def apply(house: GameHouse, room: GameRoom, change: rules.Change) -> None:
    """Make ``change`` (the rules' decision): store it, then show it in the room (``moves``)."""
    if change.play:
        await commit(house, room, list(change.play))
    elif change.keep is not None:
        await truncate(house, room, change.keep)
    elif change.outcome is not None:
        await finish(house, room, change.outcome)
    elif change.fields:
        await update(house, room, **change.fields)


async def move(house: GameHouse, game_id: str, token: str | None, text: str, version: int | None) -> GameRoom:
    """Play ``text`` (notation) for the token's seat (``rules.move``)."""
    async with seated(house, game_id, token) as (room, seat):
        await apply(house, room, rules.move(room, seat, text, version))
    return room


async def undo(house: GameHouse, game_id: str, token: str | None, everything: bool = False) -> GameRoom:
    """Ask for, accept or make a takeback (``rules.undo``)."""
    async with seated(house, game_id, token) as (room, seat):
        await apply(house, room, rules.undo(room, seat, everything))
    return room


async def decline_undo(house: GameHouse, game_id: str, token: str | None) -> GameRoom:
    """Refuse the other players' request to take back a move (``rules.decline_undo``)."""
    async with seated(house, game_id, token) as (room, seat):
        await apply(house, room, rules.decline_undo(room, seat))
    return room


async def abort(house: GameHouse, game_id: str, token: str | None) -> GameRoom:
    """The token's seat calls the game off (``rules.abort``)."""
    async with seated(house, game_id, token) as (room, seat):
        await apply(house, room, rules.abort(room, seat))
    return room


async def claim(house: GameHouse, game_id: str, token: str | None, draw: bool) -> GameRoom:
    """The token's seat claims the win (or a draw) of a game the others left (``rules.claim``)."""
    async with seated(house, game_id, token) as (room, seat):
        await apply(house, room, rules.claim(room, seat, draw, room.absent(house.now())))
    return room


async def arrive(house: GameHouse, room: GameRoom, seat: int) -> None:
    """The person of ``seat`` opened the game (its page said so): the first time, the moment is stored with the
    clocks (a first move's deadline counts from when every person has joined), and the watchers are told."""
    if room.row.clock is None or str(seat) in (room.row.clock.get("joined") or {}):
        return
    async with room.lock:
        clock = room.row.clock
        changed = clocks.join(clock, [seat], room.human_seats(), house.now()) if clock and room.active else None
        if changed is None:
            return
        await update(house, room, clock=changed)
        arm(house, room)
    room.broadcast()


async def resign(house: GameHouse, game_id: str, token: str | None) -> GameRoom:
    """The token's seat resigns (``rules.resign``)."""
    async with seated(house, game_id, token) as (room, seat):
        await apply(house, room, rules.resign(room, seat))
    return room


async def draw(house: GameHouse, game_id: str, token: str | None, action: str,
               client: str | None = None) -> tuple[GameRoom, bool]:
    """Offer, accept or decline a draw (``rules.draw``); an offer to computers only is answered at once by their
    evaluation, asked here. The room, and whether the computers declined."""
    async with seated(house, game_id, token) as (room, seat):
        agree = None
        if rules.asks_computers(room, seat, action):
            rules.draws_allowed(room)
            agree = await turns.computers_agree(house, room, rules.other_seats(room, seat), client)
        await apply(house, room, rules.draw(room, seat, action, agree))
    return room, agree is False


async def rematch(house: GameHouse, game_id: str, token: str | None, board: str = "same", owner: str | None = None,
                  client: str | None = None) -> tuple[GameRoom, str]:
    """The same game again with the seats shifted by one (created once, by whichever seat asks first: the others
    join it whatever they ask); the new room and the token of the asker's new seat, with the same time control.
    ``board``: ``same`` begins from the same position (a seeded setup from the same seed; a puzzle's rematch is
    the same puzzle), ``new`` from a new seed (for a game with a seeded setup only). ``owner`` and ``client``: the
    identity and address group asking (``creation.create``: the new game is theirs)."""
    shift = 1
    rules.board_word(board)
    async with seated(house, game_id, token) as (room, seat):
        count = room.game.num_players
        start, seed = rules.rematch_board(room, board)
        if room.row.rematch is None:
            clock = room.row.clock
            control = {"minutes": clock["minutes"], "increment": clock["increment"]} if clock else None
            new_room, _ = await creation.create(house, room.game.name, dict(room.game.options),
                                                rules.rematch_seats(room, shift), seed, start,
                                                hints_on=room.row.hints_on, clock=control, owner=owner, client=client)
            await update(house, room, rematch=new_room.id)
        new_id = room.row.rematch
    assert new_id is not None
    return await house.room(new_id), house.keys.token(new_id, (seat + shift) % count)
