"""The server's words a player sees: a refusal says ``say(code, **params)``, a message with a code (a key of the
web client's shared catalogue, ``static/i18n/<lang>.json``) and named parameters, so that the client shows it in
the player's language; its text is the English message, which the API's ``error`` keeps for programs
(``damier.core.messages.Said``).

>>> said = say("error.internal")
>>> str(said), said.code, said.params
('internal error; the server logged it', 'error.internal', {})
>>> coded(said), coded("a plain message")
({'code': 'error.internal', 'params': {}}, {})
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from damier.core import messages
from damier.core.messages import Said, coded

__all__ = ["Said", "coded", "say"]


def say(code: str, /, seats: Any = (), **params: Any) -> Said:
    """The message ``code`` of the shared catalogue with ``params`` (numbers, words, notation, seats as
    ``{"seat": i}``, named from ``seats``: the game, see ``messages.seat_refs``), in English; ``KeyError`` for a code
    the catalogue lacks (the suite reads every ``say`` in the sources)."""
    catalogue = messages.catalogue(*messages.SHARED, messages.DEFAULT)
    text = catalogue.get(code)
    if text is None:
        raise KeyError(f"no message {code!r} in the shared catalogue (damier/server/static/i18n/en.json)")
    params = messages.seat_refs(params, seats)
    return Said(messages.format_message(text, params, messages.DEFAULT, words=english()), code, params)


def english() -> dict[str, str]:
    """Every English message a server's message may hold (the rules' and the shared ones), by the client's keys."""
    return _english(tuple(sorted(messages.GAMES.items())))


@lru_cache(maxsize=4)
def _english(games: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """``english`` for the games registered now (read once for each set of games)."""
    return {**messages.rules_words(messages.DEFAULT), **messages.catalogue(*messages.SHARED, messages.DEFAULT)}
