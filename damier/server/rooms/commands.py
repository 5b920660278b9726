"""What a seat does in a game room: move, undo, resign, draw, rematch. Each goes through ``seated``, which finds
the room, checks the token's seat, takes the room's lock and checks the game goes on, once for all of them."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from damier.core.errors import IllegalMoveError, ParseError
from damier.core.game import abandonment, aborted, agreement, resignation
from damier.server.rooms import clocks, creation, turns
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.rooms.game_room import GameRoom
from damier.server.rooms.moves import arm, commit, finish, truncate, update

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
    room.acted(seat)
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
    """A takeback: the position before the asker's last move (on the asker's turn, the other players' replies go
    too). Against the computer it happens at once; between people the token's seat asks, or accepts the
    takeback another asked, and it happens once every person agreed (the asker is first in ``undo_request``).
    ``everything`` (a puzzle's reset) takes back every move, with one human seat only."""
    async with seated(arcade, game_id, token, over="the game is over; there is nothing to undo") as (room, seat):
        humans = room.human_seats()
        asked = list(room.row.undo_request)
        asker = asked[0] if asked else seat
        keep = room.undo_target(asker)
        if everything:
            if len(humans) > 1:
                raise Conflict("taking back every move is for games with one human seat (a puzzle's reset)")
            keep = 0 if room.row.moves else None
        if keep is None:
            raise Conflict("there is no move to undo: you have not moved yet" if asker == seat and not asked
                           else "there is no move to undo")
        agreed = [*asked, seat] if seat not in asked else asked
        if len(humans) > 1 and set(agreed) != set(humans):
            if agreed != asked:
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


async def abort(arcade: Arcade, game_id: str, token: str | None) -> GameRoom:
    """The token's seat calls the game off, which is allowed until every seat has made a first move (as on
    lichess): nobody wins or loses, and the game does not count (``damier.core.game.aborted``)."""
    async with seated(arcade, game_id, token) as (room, seat):
        if not room.abortable:
            raise Conflict("a game can be aborted only until every player has made a first move; every player has "
                           "moved here: resign, or offer a draw")
        await finish(arcade, room, aborted(room.state, f"{room.game.player_names[seat]} aborted the game"))
    return room


async def claim(arcade: Arcade, game_id: str, token: str | None, draw: bool) -> GameRoom:
    """The token's seat claims the win (or, with ``draw``, a draw) of a game under way that every other person
    has left for ``clocks.leave_seconds`` (lichess's "opponent left the game"): each of them loses as one who
    resigns (``damier.core.game.abandonment``)."""
    async with seated(arcade, game_id, token) as (room, seat):
        others = [other for other in room.human_seats() if other != seat]
        if not others:
            raise Conflict("a claim is for a game between people that the others left; there is nobody else here")
        if room.abortable:
            raise Conflict("not every player has made a first move yet: abort the game instead of claiming it")
        wait = clocks.leave_seconds(room.row.clock)
        absent = room.absent(arcade.now())
        names = room.game.player_names
        for other in others:
            if other not in absent:
                raise Conflict(f"{names[other]} is still here; a claim is for a game the others left")
            if absent[other] < wait:
                raise Conflict(f"{names[other]} left {absent[other]:.0f} s ago; you may claim the game once they "
                               f"have been gone {wait:.0f} s")
        await finish(arcade, room, abandonment(room.state, others, seat, draw=draw))
    return room


async def arrive(arcade: Arcade, room: GameRoom, seat: int) -> None:
    """The person of ``seat`` opened the game (its page said so): the first time, the moment is stored with the
    clocks (a first move's deadline counts from when every person has joined), and the watchers are told."""
    if room.row.clock is None or str(seat) in (room.row.clock.get("joined") or {}):
        return
    async with room.lock:
        clock = room.row.clock
        changed = clocks.join(clock, [seat], room.human_seats(), arcade.now()) if clock and room.active else None
        if changed is None:
            return
        await update(arcade, room, clock=changed)
        arm(arcade, room)
    room.broadcast()


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


async def rematch(arcade: Arcade, game_id: str, token: str | None, board: str = "same", owner: str | None = None,
                  client: str | None = None) -> tuple[GameRoom, str]:
    """The same game again with the seats shifted by one (created once, by whichever seat asks first: the others
    join it whatever they ask); the new room and the token of the asker's new seat, with the same time control.
    ``board``: ``same`` begins from the same position (a seeded setup from the same seed; a puzzle's rematch is
    the same puzzle), ``new`` from a new seed (for a game with a seeded setup only). ``owner`` and ``client``: the
    identity and address group asking (``creation.create``: the new game is theirs)."""
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
                                                start, hints_on=room.row.hints_on, clock=control, owner=owner,
                                                client=client)
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
