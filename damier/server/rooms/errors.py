"""What the room layer refuses, by kind and without HTTP: the API (``damier.server.app``) gives each kind its
status in one place, so the rooms know nothing of the transport that carries their answers."""

from __future__ import annotations


class RoomError(Exception):
    """A request a room refuses; ``message`` says why, in words a player can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(RoomError):
    """No such room (or not one the server keeps)."""


class NotYourSeat(RoomError):
    """The request needs a seat, and no valid token of one was sent."""


class Forbidden(RoomError):
    """The seat may not do this in this game (a hint in a game between people that was not created with hints)."""


class Conflict(RoomError):
    """The room is not in a state that allows this now (not your turn, the game is over, a stale version)."""


class Invalid(RoomError):
    """The request itself is wrong (an illegal move, a bad option, start position or record)."""


class Unavailable(RoomError):
    """The server cannot answer this right now (a hint that could not be computed); try again."""


class TooMany(RoomError):
    """A client asked more than its limit (``damier.server.limits``); ``retry_after`` seconds until it may ask
    again."""

    def __init__(self, message: str, retry_after: int = 1, **details: object) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)
        #: what else the answer says (the games that hold a limit, say), beside ``error`` and ``status``
        self.details = details
