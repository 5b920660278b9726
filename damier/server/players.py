"""The arcade's players, who have no account: each browser is an anonymous identity (``identity``: a signed,
HttpOnly cookie) that holds the seats it used (``storage.identities``), so any tab of that browser lists its games
and races under way, and a one-time link carries it to another device."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import Response

from damier.core.record import now_iso
from damier.server.identity import COOKIE, MAX_AGE, Identities, IdentityError
from damier.server.storage import Storage
from damier.server.storage.identities import IdentityStore
from damier.server.words import say

#: how long a link carrying an identity to another device holds (seconds)
LINK_SECONDS = 600
#: seats known to be held already, remembered so that repeated requests write nothing (the least recent forgotten)
REMEMBERED = 100_000


class Players:
    """Identities: reading and issuing their cookies, the seats they hold, and their links."""

    def __init__(self, storage: Storage, secret: bytes) -> None:
        self.cookies = Identities(secret)
        self.store = IdentityStore(storage)
        self._held: OrderedDict[tuple[str, str, str, int], None] = OrderedDict()

    def identify(self, connection: HTTPConnection) -> str | None:
        """The identity of a request or socket (None without the cookie); ``IdentityError`` for a cookie that is
        not valid (forged, expired)."""
        value = connection.cookies.get(COOKIE)
        if value is None:
            return None
        return self.cookies.read(value, time.time())

    def ensure(self, connection: HTTPConnection, response: Response) -> str:
        """The identity of a request, given one now (its cookie set on ``response``) when it has none."""
        identity = self.identify(connection)
        if identity is None:
            identity = self.cookies.new_id()
            self.set_cookie(connection, response, identity)
        return identity

    def set_cookie(self, connection: HTTPConnection, response: Response, identity: str) -> None:
        response.set_cookie(COOKIE, self.cookies.cookie(identity, time.time()), max_age=MAX_AGE, path="/",
                            httponly=True, samesite="lax", secure=connection.url.scheme == "https")

    @staticmethod
    def forget_cookie(response: Response) -> None:
        response.delete_cookie(COOKIE, path="/")

    async def hold(self, identity: str | None, kind: str, room_id: str, seat: int) -> None:
        """``identity`` holds ``seat`` of a game or race (stored the first time; nothing without an identity)."""
        if identity is None:
            return
        key = (identity, kind, room_id, seat)
        if key in self._held:
            self._held.move_to_end(key)
            return
        await asyncio.wrap_future(self.store.bind(identity, kind, room_id, seat, now_iso()))
        self._held[key] = None
        while len(self._held) > REMEMBERED:
            self._held.popitem(last=False)

    async def link(self, identity: str) -> dict[str, Any]:
        """A one-time link's code for ``identity``, good for ``LINK_SECONDS``."""
        code = secrets.token_urlsafe(18)
        expires = time.time() + LINK_SECONDS
        await asyncio.wrap_future(self.store.add_link(identity, code, expires))
        return {"code": code, "expires_in": LINK_SECONDS}

    async def take(self, code: str) -> str:
        """The identity a link carries, used now (``IdentityError`` 404 for one never made or used already, 410
        for one that expired)."""
        if not isinstance(code, str) or not 8 <= len(code) <= 64:
            raise IdentityError(say("error.identity.link_not_ours"), 404)
        identity, good = await asyncio.wrap_future(self.store.take_link(code, time.time()))
        if identity is None:
            raise IdentityError(say("error.identity.link_not_valid"), 404)
        if not good:
            raise IdentityError(say("error.identity.link_expired", minutes=LINK_SECONDS // 60), 410)
        return identity
