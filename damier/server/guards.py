"""What every HTTP request and answer of the arcade goes through, before any route: the request body is small,
JSON, and arrives in time; every answer carries the security headers.

``BodyGuard``: a body over ``limit`` bytes is refused with 413 (whatever Content-Length claims), a body to
``/api/`` that is not ``application/json`` with 415 (a page of another site can send ``text/plain`` without asking;
it cannot send JSON), a body that has not arrived ``seconds`` after the request with 408 (a slow upload cannot
hold a connection). The whole body is read first, so no route works on half of one. (JSON nested too deeply to
read is a 400 from the application's error handler: the body is parsed once, by the route.)

``SecurityHeaders``: a Content-Security-Policy (scripts, styles and connections from this server only, no inline
script, no framing), ``nosniff``, a referrer policy. The API docs page (``/docs``, Swagger UI served by the arcade)
may also use inline styles, which Swagger UI sets.
"""

from __future__ import annotations

import asyncio
import time

from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from damier.server.words import coded, say

#: the arcade's pages: everything from this server; style attributes are set by the board drawings through the
#: CSSOM, which the policy does not restrict
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
#: the API docs page: Swagger UI, from this server too, writes style attributes and <style> elements
DOCS_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
               "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
DOCS_PATHS = ("/docs",)
HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class BodyGuard:
    """Refuse request bodies over ``limit`` bytes (413), not JSON on ``/api/`` (415), or not all arrived within
    ``seconds`` (408), each with a JSON error; hand the route the whole body."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await refuse(413, say("error.request.too_large", limit=str(self.limit)), scope, receive, send)
            return
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        has_body = (declared is not None and declared not in (b"", b"0")) or b"transfer-encoding" in headers
        if scope["path"].startswith("/api/") and has_body and kind != b"application/json":
            refusal = (say("error.request.not_json", kind=kind.decode("latin-1")) if kind
                       else say("error.request.not_json_untyped"))
            await refuse(415, refusal, scope, receive, send)
            return
        chunks = []  # read the whole (small) body first, so an oversized or late one is refused before any work
        size = 0
        deadline = time.monotonic() + self.seconds
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                await refuse(408, say("error.request.too_slow", seconds=self.seconds), scope, receive, send)
                return
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await refuse(413, say("error.request.too_large", limit=str(self.limit)), scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def refuse(status: int, message: str, scope: Scope, receive: Receive, send: Send) -> None:
    """A JSON error, and the connection closed (the rest of the body is not read)."""
    answer = JSONResponse({"error": message, "status": status, **coded(message)}, status,
                          headers={"Connection": "close"})
    await answer(scope, receive, send)


class SecurityHeaders:
    """Add the Content-Security-Policy and the other security headers to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"].startswith(DOCS_PATHS)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = DOCS_POLICY if docs else POLICY
                for name, value in HEADERS:
                    headers[name.decode()] = value.decode()
            await send(message)

        await self.app(scope, receive, with_headers)
