"""A game's routes: create one, read it, and its players' actions (moves, takebacks, resignation, abort, claims,
draws, hints, a rematch). The rooms (``damier.server.rooms.game.commands``) decide; these speak HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, BackgroundTasks, Query, Request, Response
from pydantic import BaseModel, Field

from damier.core import registry
from damier.server.identity import IdentityError
from damier.server.rooms.game import commands, creation, idle, turns, views
from damier.server.routes.common import (
    MAX_POSITION,
    OptionValue,
    SeatToken,
    address,
    arcade_of,
    limits_of,
    players_of,
    seat_view,
)

router = APIRouter()


class SeatSpec(BaseModel):
    kind: Literal["human", "computer"]
    level: str | None = Field(default=None, max_length=40)


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    #: the seed of a game with a seeded setup (``GameInfo.seeded_setup``: a board, a puzzle); None: a new one
    seed: int | None = Field(default=None, ge=0, le=creation.MAX_SEED,
                             description=creation.SEED_WORDS)
    #: a position in the game's notation to start from (``state.position()``); None: the game's usual start
    start: str | None = Field(default=None, min_length=1, max_length=MAX_POSITION)
    #: a casual game between people with hints on (its players agree to it by joining); games against the
    #: computer and puzzles have hints anyway
    hints: bool = False
    #: a time control, ``{"minutes": 3, "increment": 2}`` (minutes may be a fraction, 0.05 to 180; increment
    #: whole seconds, 0 to 180); None: no clock. Checked by ``rooms.clocks.parse`` (422 saying what is accepted)
    clock: Any = Field(
        default=None, examples=[{"minutes": 3, "increment": 2}, "5+3"],
        description="a time control: minutes each (0.05 to 180) plus increment seconds a move (0 to 180), as "
                    "{\"minutes\", \"increment\"} or \"3+2\"; null: no clock")


class MoveBody(BaseModel):
    move: str = Field(min_length=1, max_length=64)
    version: int | None = Field(default=None, ge=0)


class DrawBody(BaseModel):
    action: Literal["offer", "accept", "decline"]


class ClaimGame(BaseModel):
    #: what the player claims of a game the others left: the win, or a draw
    result: Literal["win", "draw"]


@router.post("/api/games", status_code=201, summary="Create a game; returns one secret token per human seat")
async def create_game(body: CreateGame, request: Request, response: Response,
                      after: BackgroundTasks) -> dict[str, Any]:
    arcade = arcade_of(request)
    client = address(request)
    owner = players_of(request).ensure(request, response)
    computer = any(s.kind == "computer" for s in body.seats)
    async with admitting(request, client, owner, computer) as admitted:
        limits_of(request).new_game(client)
        room, tokens = await creation.create(arcade, body.game, dict(body.options),
                                             [s.model_dump() for s in body.seats], body.seed, body.start,
                                             hints_on=body.hints, clock=body.clock, owner=owner, client=client)
        admitted(room.id)
    first_human = min(tokens) if tokens else None
    if first_human is not None:
        await players_of(request).hold(owner, "game", room.id, first_human)
    if computer:  # the first move replies to the board from when it was sent (a burst may delay the answer)
        after.add_task(arcade.pool.admission.shown, room.id)
    return {"id": room.id, "tokens": {str(k): v for k, v in tokens.items()},
            "state": views.view(room, first_human)}


@contextlib.asynccontextmanager
async def admitting(request: Request, client: str, owner: str | None,
                    computer: bool) -> AsyncIterator[Callable[[str], None]]:
    """A new game with a computer seat (``computer``) is admitted while the arcade's computer players have room
    for it (``admission``: 503 beyond) and ``client`` (or ``owner``) has fewer than its limit going on: moved in
    the last ``idle.ADJOURN_MINUTES`` (older ones are adjourned); the refusal names and links the games that
    hold the limit. Counted while the block runs (creations at once); the block calls what it yields with the
    new game's id."""
    if not computer:
        yield lambda _game_id: None
        return
    arcade = arcade_of(request)
    client_limits = limits_of(request)
    booking = arcade.pool.admission
    booking.check_game()  # a full arcade refuses at once, without asking the database
    async with client_limits.creating_computer_game(client):
        since = idle.iso_before(idle.ADJOURN_MINUTES * 60, time.time())
        held = await asyncio.to_thread(arcade.storage.games.computer_games_of, client, owner, since)
        client_limits.check_computer_games(client, [
            {"id": game_id, "game": name, "title": registry.info(name).title, "url": f"/#/game/{game_id}"}
            for game_id, name in held])
        name = booking.admit_game()
        made = False

        def admitted(game_id: str) -> None:
            nonlocal made
            made = True
            booking.rename(name, game_id)

        try:
            yield admitted
        finally:
            if not made:
                booking.forget(name)


@router.get("/api/games/{game_id}", summary="The game as its players and watchers see it")
async def read_game(game_id: str, request: Request, response: Response,
                    x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    room = await arcade.room(game_id)
    seat = arcade.seat_of(room, x_seat_token)
    if seat is not None and room.active:  # a player opening the game (an invitation): it is theirs to list
        with contextlib.suppress(IdentityError):  # a bad cookie reads all the same (the home page says why)
            await players_of(request).hold(players_of(request).ensure(request, response), "game", room.id, seat)
    return views.view(room, seat, spectator=seat is None)


@router.post("/api/games/{game_id}/moves", summary="Play a move (notation) for the seat of the token")
async def play_move(game_id: str, body: MoveBody, request: Request,
                    x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    room = await commands.move(arcade, game_id, x_seat_token, body.move, body.version)
    seat = arcade.seat_of(room, x_seat_token)
    if seat is not None:
        with contextlib.suppress(IdentityError):  # a bad cookie plays all the same (the home page says why)
            await players_of(request).hold(players_of(request).identify(request), "game", room.id, seat)
    return views.view(room, seat, spectator=seat is None)


@router.post("/api/games/{game_id}/undo", summary="Take back your last move, and the replies after it (between "
                                                  "people: ask, or accept the takeback another asked); all=true "
                                                  "takes back every move (a puzzle's reset, one human seat)")
async def undo(game_id: str, request: Request, x_seat_token: SeatToken = None,
               everything: Annotated[bool, Query(alias="all")] = False) -> dict[str, Any]:
    arcade = arcade_of(request)
    return seat_view(arcade, await commands.undo(arcade, game_id, x_seat_token, everything), x_seat_token)


@router.post("/api/games/{game_id}/undo/decline", summary="Decline the other players' request to take back a move")
async def decline_undo(game_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    return seat_view(arcade, await commands.decline_undo(arcade, game_id, x_seat_token), x_seat_token)


@router.post("/api/games/{game_id}/resign", summary="Resign")
async def resign(game_id: str, request: Request,
                 x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    return seat_view(arcade, await commands.resign(arcade, game_id, x_seat_token), x_seat_token)


@router.post("/api/games/{game_id}/abort",
             summary="Abort the game: allowed until every seat has made a first move; nobody wins, it does not count")
async def abort(game_id: str, request: Request, x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    return seat_view(arcade, await commands.abort(arcade, game_id, x_seat_token), x_seat_token)


@router.post("/api/games/{game_id}/claim",
             summary="Claim the win or a draw of a game under way that every other person left (gone for the "
                     "presence message's claim_after)")
async def claim_game(game_id: str, body: ClaimGame, request: Request,
                     x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    room = await commands.claim(arcade, game_id, x_seat_token, body.result == "draw")
    return seat_view(arcade, room, x_seat_token)


@router.post("/api/games/{game_id}/draw",
             summary="Offer, accept or decline a draw (games with draws); computers answer an offer at once")
async def draw(game_id: str, body: DrawBody, request: Request,
               x_seat_token: SeatToken = None) -> dict[str, Any]:
    arcade = arcade_of(request)
    room, declined = await commands.draw(arcade, game_id, x_seat_token, body.action, address(request))
    answer = seat_view(arcade, room, x_seat_token)
    answer["draw_declined"] = declined  # the computers answered the offer: no
    return answer


@router.post("/api/games/{game_id}/hint",
             summary="A hint for your move: the hint agent's move, or a graded hint (level 1 to 4) of a puzzle")
async def hint(game_id: str, request: Request, x_seat_token: SeatToken = None,
               level: Annotated[int | None, Query(ge=1, le=4)] = None) -> dict[str, Any]:
    client = address(request)
    with limits_of(request).hint(client):
        return await turns.hint(arcade_of(request), game_id, x_seat_token, level, client)


@router.post("/api/games/{game_id}/rematch", summary="The same game again, seats swapped")
async def rematch(game_id: str, request: Request, response: Response, x_seat_token: SeatToken = None,
                  board: Annotated[Literal["same", "new"], Query(
                      description="same: the game's board again (the default); new: a new board drawn from a "
                                  "new seed (games with a seeded setup)")] = "same") -> dict[str, Any]:
    client = address(request)
    owner = players_of(request).ensure(request, response)
    arcade = arcade_of(request)
    old = await arcade.room(game_id)
    fresh = old.row.rematch is None  # the first to ask creates it: counted in that address's limits
    computer = fresh and any(seat.kind == "computer" for seat in old.row.seats)
    async with admitting(request, client, owner, computer) as admitted:
        if fresh:
            limits_of(request).new_game(client)
        room, token = await commands.rematch(arcade, game_id, x_seat_token, board, owner=owner, client=client)
        admitted(room.id)
    seat = arcade.seat_of(room, token)
    if seat is not None:
        await players_of(request).hold(owner, "game", room.id, seat)
    return {"id": room.id, "token": token, "seed": room.row.seed if room.game.info.seeded_setup else None}
