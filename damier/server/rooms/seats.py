"""Seat tokens: the secret that lets one person act for one seat of a room. A token is an HMAC-SHA256 of the
room and seat under the server's secret, so no token is ever stored and tokens survive restarts."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable

from damier.server.rooms.errors import NotYourSeat
from damier.server.words import say


class SeatKeys:
    """Tokens of every room's seats, derived from one secret (kept by the storage, never sent)."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def token(self, room_id: str, seat: int) -> str:
        """The secret of seat ``seat`` of room ``room_id``."""
        digest = hmac.new(self._secret, f"{room_id}:{seat}".encode(), hashlib.sha256).digest()
        return digest[:24].hex()

    def seat_of(self, room_id: str, seats: Iterable[int], token: str | None) -> int | None:
        """The seat among ``seats`` whose token is ``token`` (compared in constant time), or None."""
        if not token or not isinstance(token, str) or not token.isascii():
            return None
        for seat in seats:
            if hmac.compare_digest(self.token(room_id, seat).encode(), token.encode()):
                return seat
        return None

    def require(self, room_id: str, seats: Iterable[int], token: str | None) -> int:
        """Like ``seat_of``, but ``NotYourSeat`` when the token is of no seat."""
        seat = self.seat_of(room_id, seats, token)
        if seat is None:
            raise NotYourSeat(say("error.room.missing_token"))
        return seat

    def chance(self, room_id: str, ply: int) -> random.Random:
        """The generator of the chance event at ``ply`` (0-based) of a room: drawn from the secret, so nobody
        outside can predict it, and the same after a restart."""
        return random.Random(self.token(room_id, -1 - ply))
