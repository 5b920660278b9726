"""The API's errors: every refusal is JSON ``{"error": message, "status": code}`` (and what more its kind says:
the games holding a limit, ``busy``), with ``Retry-After`` where coming back later helps."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InternalError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from damier.server import admission
from damier.server.identity import IdentityError
from damier.server.players import Players
from damier.server.rooms import RoomError, TooMany
from damier.server.routes.common import status_of
from damier.server.words import coded, say

log = logging.getLogger("damier.server")


async def room_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RoomError)
    status = status_of(exc)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooMany) else None
    details = exc.details if isinstance(exc, TooMany) else {}
    return JSONResponse({"error": exc.message, "status": status, **coded(exc.message), **details}, status,
                        headers=headers)


async def arcade_busy(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, admission.Busy)
    return JSONResponse({"error": exc.message, "status": 503, "busy": True, **coded(exc.message)}, 503,
                        headers={"Retry-After": str(exc.retry_after)})


async def identity_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, IdentityError)
    response = JSONResponse({"error": exc.message, "status": exc.status, **coded(exc.message)}, exc.status)
    if exc.status == 401:  # a cookie that cannot be taken goes: the next game gives a new identity
        Players.forget_cookie(response)
    return response


async def http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if isinstance(exc.__cause__, RecursionError):  # FastAPI could not parse the body: say why
        return await too_deep(_request, exc)
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    return JSONResponse({"error": detail, "status": exc.status_code, **coded(detail)}, exc.status_code)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
        for e in exc.errors()[:5]
    )
    message = say("error.request.invalid", problems=problems)
    return JSONResponse({"error": message, "status": 422, **coded(message)}, 422)


async def too_deep(_request: Request, _exc: Exception) -> JSONResponse:
    """A JSON body nested deeper than Python's reader goes."""
    message = say("error.request.too_deep")
    return JSONResponse({"error": message, "status": 400, **coded(message)}, 400)


async def database_unavailable(_request: Request, exc: Exception) -> JSONResponse:
    """A database that cannot be reached or written (gone, locked, read-only, full): 503 with its reason."""
    assert isinstance(exc, OperationalError | InternalError)
    reason = str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]
    log.error("the database refused a request: %s", reason)
    message = say("error.server.database", reason=reason)
    return JSONResponse({"error": message, "status": 503, **coded(message)}, 503, headers={"Retry-After": "30"})


async def unexpected_error(_request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error", exc_info=exc)
    message = say("error.internal")
    return JSONResponse({"error": message, "status": 500, **coded(message)}, 500)


def install(app: FastAPI) -> None:
    """Answer each kind of error as the API does."""
    app.add_exception_handler(RoomError, room_error)
    app.add_exception_handler(admission.Busy, arcade_busy)
    app.add_exception_handler(IdentityError, identity_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(RecursionError, too_deep)
    app.add_exception_handler(OperationalError, database_unavailable)
    app.add_exception_handler(InternalError, database_unavailable)
    app.add_exception_handler(Exception, unexpected_error)
