"""The arcade's words in each language (``/api/i18n/{lang}``): the web client's shared catalogue and every game's,
merged, English beneath key by key (``damier.core.messages``)."""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import lru_cache

from fastapi import APIRouter, Request, Response

from damier.core import messages, registry

router = APIRouter()


@lru_cache(maxsize=len(messages.LANGUAGES))
def client_words(lang: str) -> tuple[bytes, str, bytes]:
    """The JSON the client loads for ``lang`` (a code of ``LANGUAGES``) and its ETag: the core's and the shared
    keys as they are, each game's under its name (``khet.piece.pyramid``); and the same gzipped (about a quarter: every
    page loads it before it draws)."""
    merged = dict(messages.catalogue(*messages.CORE, lang))  # how games end: the rules' own words
    merged.update(messages.catalogue(*messages.SHARED, lang))
    for info in registry.all_infos():
        if info.messages:
            merged.update((f"{info.name}.{key}", text)
                          for key, text in messages.game_catalogue(info.messages, lang).items())
    body = json.dumps({"lang": lang, "languages": messages.LANGUAGES, "messages": merged},
                      ensure_ascii=False, separators=(",", ":")).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', gzip.compress(body, mtime=0)


@router.get("/api/i18n/{lang}", summary="The web client's words in a language (English for one it does not speak)")
async def words(lang: str, request: Request) -> Response:
    # a language, or a list in the reader's order ("es-MX,es,en": the browser's): the first the arcade speaks;
    # an unknown or malformed one is English
    code = messages.negotiate(lang)
    body, etag, zipped = client_words(code)
    gzipped = takes_gzip(request.headers.get("accept-encoding", ""))
    if gzipped:
        etag = etag[:-1] + '-gzip"'  # another body, another tag
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Content-Language": code, "Vary": "Accept-Encoding"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    if gzipped:
        return Response(zipped, media_type="application/json", headers={**headers, "Content-Encoding": "gzip"})
    return Response(body, media_type="application/json", headers=headers)


def takes_gzip(accepted: str) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip (named without ``q=0``).

    >>> takes_gzip("gzip, deflate, br"), takes_gzip("gzip;q=0, br"), takes_gzip("identity")
    (True, False, False)
    """
    for part in accepted[:200].split(","):
        name, _, rest = part.strip().partition(";")
        if name.strip().lower() == "gzip":
            return rest.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False
