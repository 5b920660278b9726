"""What a seat does in a game room: move, undo, resign, draw, rematch. Each goes through ``seated``, which finds
the room, checks the token's seat, takes the room's lock and checks the game goes on, once for all of them."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from damier.core.errors import IllegalMoveError, ParseError
from damier.core.game import agreement, resignation
from damier.server.rooms import creation, turns
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.rooms.game_room import GameRoom
from damier.server.rooms.moves import commit, finish, truncate, update

if TYPE_CHECKING:
    from damier.server.rooms.arcade import Arcade

OVER = "the game is already over"


@contextlib.asynccontextmanager
async def seated(arcade: Arcade, game_id: str, token: str | None, over: str | None = OVER
                 ) -> AsyncIterator[tuple[GameRoom, int]]:
    """The room and the token's seat, under the room's lock; ``Conflict(over)`` if the game is over (``over``
    None: a command for any game; ``{reason}`` in it is how the game ended). When the command succeeds, the
    watchers are told and a computer whose turn it is starts thinking."""
    room = await arcade.room(game_id)
    seat = arcade.require_seat(room, token)
    async with room.lock:
        if over is not None and not room.active:
            raise Conflict(over.format(reason=(room.row.result or {}).get("reason", room.row.status)))
        yield room, seat
    room.broadcast()
    turns.schedule(arcade, room)


async def move(arcade: Arcade, game_id: str, token: str | None, text: str, version: int | None) -> GameRoom:
    """Play ``text`` (notation) for the token's seat; ``version`` (the moves the client saw) refuses stale clicks."""
    async with seated(arcade, game_id, token, over="the game is over ({reason})") as (room, seat):
        if version is not None and version != room.version:
            raise Conflict(f"the game has moved on (version {room.version}, not {version}); reload it")
        if room.state.player != seat:
            raise Conflict(f"it is not your turn: {room.game.player_names[room.state.player]} is to move")
        try:
            played = room.state.parse_move(text)
        except (ParseError, IllegalMoveError) as exc:
            raise Invalid(str(exc)) from None
        await commit(arcade, room, [(played, seat)])
    return room


async def undo(arcade: Arcade, game_id: str, token: str | None, everything: bool = False) -> GameRoom:
    """Against the computer, take back the seat's last move and the replies; between people, ask: done once
    every human seat asked. ``everything`` (a puzzle's reset) takes back every move, with one human seat only."""
    async with seated(arcade, game_id, token, over="the game is over; there is nothing to undo") as (room, seat):
        keep = room.undo_target()
        if keep is None:
            raise Conflict("there is no move to undo")
        if everything:
            if len(room.human_seats()) > 1:
                raise Conflict("taking back every move is for games with one human seat (a puzzle's reset)")
            keep = 0
        humans = room.human_seats()
        agreed = sorted(set(room.row.undo_request) | {seat})
        if len(humans) > 1 and set(agreed) != set(humans):
            await update(arcade, room, undo_request=agreed)
        else:
            await truncate(arcade, room, keep)
    return room


async def decline_undo(arcade: Arcade, game_id: str, token: str | None) -> GameRoom:
    """Refuse the other players' request to take back a move (``undo`` between people): the request is gone."""
    async with seated(arcade, game_id, token, over="the game is over; there is no takeback to decline") as (room, seat):
        asked = room.row.undo_request
        if not asked:
            raise Conflict("there is no takeback request to decline")
        if seat in asked:
            raise Conflict("you asked for this takeback yourself; another player may decline it")
        await update(arcade, room, undo_request=[])
    return room


async def resign(arcade: Arcade, game_id: str, token: str | None) -> GameRoom:
    """The token's seat resigns (``damier.core.game.resignation``: the one rule for every number of players)."""
    async with seated(arcade, game_id, token) as (room, seat):
        await finish(arcade, room, resignation(room.state, seat))
    return room


async def draw(arcade: Arcade, game_id: str, token: str | None, action: str,
               client: str | None = None) -> tuple[GameRoom, bool]:
    """Offer, accept or decline a draw; an accepted offer ends the game (``damier.core.game.agreement``). An
    offer to computers only is answered at once, by their evaluation: accepted (the game ends) or declined
    (no offer stands). The room, and whether the computers declined."""
    declined = False
    async with seated(arcade, game_id, token) as (room, seat):
        if not room.game.has_draws or room.game.num_players == 1:
            raise Conflict(f"{room.game.title} has no draws")
        offer = room.row.draw_offer
        others = [s.index for s in room.row.seats if s.index != seat]
        if action == "offer" and all(room.computer_level(s) is not None for s in others):
            if await turns.computers_agree(arcade, room, others, client):
                await finish(arcade, room, agreement(room.state))
            else:
                declined = True
                if offer is not None:
                    await update(arcade, room, draw_offer=None)
        elif action == "offer":
            await update(arcade, room, draw_offer=seat)
        elif action == "accept":
            if offer is None or offer == seat:
                raise Conflict("there is no draw offer from another seat to accept")
            await finish(arcade, room, agreement(room.state))
        elif action == "decline":
            await update(arcade, room, draw_offer=None)
        else:
            raise Invalid("action must be 'offer', 'accept' or 'decline'")
    return room, declined


#: what a rematch's board may be: the same as the game's (the default), or a new one drawn from a new seed
REMATCH_BOARDS = ("same", "new")


async def rematch(arcade: Arcade, game_id: str, token: str | None, board: str = "same") -> tuple[GameRoom, str]:
    """The same game again with the seats shifted by one (created once, by whichever seat asks first: the others
    join it whatever they ask); the new room and the token of the asker's new seat, with the same time control.
    ``board``: ``same`` begins from the same position (a seeded setup from the same seed; a puzzle's rematch is
    the same puzzle), ``new`` from a new seed (for a game with a seeded setup only)."""
    shift = 1
    if board not in REMATCH_BOARDS:
        raise Invalid(f"board must be {' or '.join(map(repr, REMATCH_BOARDS))}, not {board!r}")
    async with seated(arcade, game_id, token, over=None) as (room, seat):
        if room.active:
            raise Conflict("a rematch can start once the game is over")
        count = room.game.num_players
        start, seed = rematch_start(room, board)
        if room.row.rematch is None:
            old = room.row.seats
            seat_specs = [{"kind": old[(i - shift) % count].kind, "level": old[(i - shift) % count].level}
                          for i in range(count)]
            clock = room.row.clock
            control = {"minutes": clock["minutes"], "increment": clock["increment"]} if clock else None
            new_room, _ = await creation.create(arcade, room.game.name, dict(room.game.options), seat_specs, seed,
                                                start, hints_on=room.row.hints_on, clock=control)
            await update(arcade, room, rematch=new_room.id)
        new_id = room.row.rematch
    assert new_id is not None
    return await arcade.room(new_id), arcade.keys.token(new_id, (seat + shift) % count)


def rematch_start(room: GameRoom, board: str) -> tuple[str | None, int | None]:
    """The start and the seed of ``room``'s rematch on the ``same`` board or a ``new`` one (``Invalid`` for a new
    board of a game whose start no seed draws)."""
    if board == "new":
        if not room.game.info.seeded_setup:
            raise Invalid(f"{room.game.title} has no seeded setup: its rematch begins where the game began "
                          f"(board 'same')")
        return None, None
    if not room.game.info.seeded_setup:
        return room.row.start, None
    if room.row.start is None and room.row.seed is None:  # stored before seeds were drawn: the start it had
        return room.start_position(), None
    return room.row.start, room.row.seed
