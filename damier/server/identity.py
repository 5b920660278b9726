"""Anonymous identities: who a browser is, with no account. A browser that creates or joins a game is given an
identity, a random id in a signed, HttpOnly cookie (``damier_id``); the seats it plays are kept under it
(``storage.identities``), so that any tab of that browser lists its games, and a one-time link carries it to
another device. The cookie is ``<id>.<issued>.<signature>``: an HMAC-SHA256 under a key derived from the server's
secret, so it cannot be forged and every server of one arcade reads it; it holds for ``MAX_AGE`` seconds from its
issue. An identity never reveals anyone else's seat: it lists only the seats its own browser used.

Also here: ``address_group``, the unit a client's shares are counted in (an IPv4 address, an IPv6 /64)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets

from damier.server.words import say

#: the cookie's name, and how long it holds from its issue (400 days: the longest a browser keeps a cookie)
COOKIE = "damier_id"
MAX_AGE = 400 * 24 * 3600
#: what an identity looks like: 32 hexadecimal digits
SHAPE = re.compile(r"[0-9a-f]{32}")


class IdentityError(Exception):
    """An identity cookie or link that cannot be taken (forged, expired, used); ``status`` the HTTP status."""

    def __init__(self, message: str, status: int = 401) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class Identities:
    """Identity cookies signed with a key derived from the server's secret."""

    def __init__(self, secret: bytes) -> None:
        self._key = hmac.new(secret, b"damier identity cookie", hashlib.sha256).digest()

    @staticmethod
    def new_id() -> str:
        """A new identity: 128 random bits."""
        return secrets.token_hex(16)

    def cookie(self, identity: str, issued: float) -> str:
        """The cookie's value for ``identity``, issued at ``issued`` (epoch seconds).

        >>> keys = Identities(b"secret")
        >>> keys.read(keys.cookie("0" * 32, 1000.0), 2000.0)
        '00000000000000000000000000000000'
        """
        body = f"{identity}.{int(issued)}"
        return f"{body}.{self._sign(body)}"

    def read(self, value: str, now: float) -> str:
        """The identity of a cookie's value; ``IdentityError`` saying what is wrong with it (nothing is taken).

        >>> keys = Identities(b"secret")
        >>> try:
        ...     keys.read(keys.cookie("0" * 32, 1000.0)[:-1] + "x", 2000.0)
        ... except IdentityError as exc:
        ...     print(exc.message[:79])
        your identity cookie (damier_id) is not valid: its signature does not match (it
        """
        parts = value.split(".") if isinstance(value, str) and len(value) <= 200 else []
        if len(parts) != 3 or not SHAPE.fullmatch(parts[0]) or not parts[1].isdigit():
            raise IdentityError(say("error.identity.cookie_shape", cookie=COOKIE))
        body = f"{parts[0]}.{parts[1]}"
        if not hmac.compare_digest(self._sign(body), parts[2]):
            raise IdentityError(say("error.identity.cookie_signature", cookie=COOKIE))
        if now - int(parts[1]) > MAX_AGE:
            raise IdentityError(say("error.identity.cookie_expired", cookie=COOKIE, days=MAX_AGE // 86400))
        return parts[0]

    def _sign(self, body: str) -> str:
        return hmac.new(self._key, body.encode(), hashlib.sha256).hexdigest()[:32]


def address_group(address: str) -> str:
    """The unit a client's shares are counted in: an IPv4 address as it is, an IPv6 address by its /64 (one client
    commonly holds a whole /64); anything else as given, cut to 64 characters.

    >>> address_group("192.0.2.7"), address_group("2001:db8:1:2:3:4:5:6"), address_group("testclient")
    ('192.0.2.7', '2001:db8:1:2::/64', 'testclient')
    >>> address_group("::ffff:192.0.2.7")
    '192.0.2.7'
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)
