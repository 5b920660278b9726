"""What every route module shares: the arcade's parts a request reaches (``request.app.state``), the client's
address, the seat token header, the bounds of bodies, and each room error's HTTP status."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Header, Request, WebSocket

from damier.server.heavy import HeavyReads
from damier.server.identity import address_group
from damier.server.limits import ClientLimits
from damier.server.players import Players
from damier.server.rooms import (
    Arcade,
    Conflict,
    Forbidden,
    GameRoom,
    Invalid,
    NotFound,
    NotYourSeat,
    RaceRoom,
    RoomError,
    TooMany,
    Unavailable,
)
from damier.server.rooms.game import views
from damier.server.rooms.race import views as race_views

#: the longest position a body may carry (a start, a position to check or analyse, a puzzle)
MAX_POSITION = 2000
#: the longest line of moves a position check plays (a solution or a hint's line), and a move's longest text
MAX_LINE = 200
MAX_MOVE_TEXT = 40

OptionValue = int | bool | str
#: the secret of a seat, sent by its player in the X-Seat-Token header (a long or foreign one is simply not valid)
SeatToken = Annotated[str | None, Header(max_length=4096)]

#: the HTTP status of each kind of room error (and of the WebSocket's error messages)
STATUS: dict[type[RoomError], int] = {NotFound: 404, NotYourSeat: 403, Forbidden: 403, Conflict: 409, Invalid: 422,
                                      Unavailable: 503, TooMany: 429}


def status_of(error: RoomError) -> int:
    """The status of a room error: that of its kind (or of the nearest kind it derives from)."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 500


def arcade_of(connection: Request | WebSocket) -> Arcade:
    arcade: Arcade = connection.app.state.arcade
    return arcade


def players_of(connection: Request | WebSocket) -> Players:
    players: Players = connection.app.state.players
    return players


def limits_of(request: Request) -> ClientLimits:
    """What one client address may ask (``damier.server.limits``)."""
    limits: ClientLimits = request.app.state.client_limits
    return limits


def heavy_of(request: Request) -> HeavyReads:
    """The heavy reads' process (``damier.server.heavy``)."""
    heavy: HeavyReads = request.app.state.heavy
    return heavy


def address(request: Request) -> str:
    """The client's address group (``identity.address_group``: an IPv6 client by its /64), which the limits count
    by."""
    return address_group(request.client.host if request.client is not None else "unknown")


def seat_view(arcade: Arcade, room: GameRoom, token: str | None) -> dict[str, Any]:
    """The game's view, with ``you`` set to the seat of ``token`` (or None for a watcher, who gets no move
    previews)."""
    seat = arcade.seat_of(room, token)
    return views.view(room, seat, spectator=seat is None)


def race_view(arcade: Arcade, room: RaceRoom, token: str | None) -> dict[str, Any]:
    """The race's view, with ``you`` set to the seat of ``token`` (None for a watcher)."""
    return race_views.view(room, arcade.keys.seat_of(room.id, room.seats(), token))
