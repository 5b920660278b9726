"""The usual starts drawn from a seed (a puzzle of a given difficulty, a seeded board: ``GameInfo.seeded_setup``):
drawing one may search for seconds (a Ricochet Robots puzzle of 20 moves), so it is worker-pool work, like a
computer's move: admitted while the workers have room (``damier.server.admission``), bounded by ``SETUP_SECONDS``,
and never on the event loop. Each is drawn once: the position is kept (``KEPT``, the least recently used leaving
first) by game, options and seed, for the rooms loaded again, the jobs sent to the workers, the puzzle of the day
and the new-game form's preview."""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from damier.core import messages
from damier.core.game import Game
from damier.server.computer import Busy
from damier.server.jobs import Job
from damier.server.rooms.errors import Invalid, Unavailable
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse

#: the longest a start may take to draw (seconds), the time one is expected to take before any was measured (the
#: queue's estimates count what each game and options took lately), and how many drawn starts are kept
SETUP_SECONDS = 30.0
EXPECTED_SECONDS = 0.3
KEPT = 4096

_kept: OrderedDict[tuple[str, str, int], str] = OrderedDict()
#: how long drawing a start took lately (a weighted mean, seconds), by game and options
_took: dict[tuple[str, str], float] = {}


def _key(game: Game, seed: int) -> tuple[str, str, int]:
    return game.name, json.dumps(dict(game.options), sort_keys=True), seed


def known(game: Game, seed: int | None) -> str | None:
    """The position of ``game``'s usual start drawn from ``seed``, when it was drawn already (None otherwise)."""
    if seed is None:
        return None
    key = _key(game, seed)
    position = _kept.get(key)
    if position is not None:
        _kept.move_to_end(key)
    return position


def keep(game: Game, seed: int, position: str) -> None:
    _kept[_key(game, seed)] = position
    while len(_kept) > KEPT:
        _kept.popitem(last=False)


async def usual_start(house: GameHouse, game: Game, seed: int | None) -> str | None:
    """The position of ``game``'s usual start drawn from ``seed`` (None for a game whose usual start no seed
    draws: it is quick to make), drawn in the worker pool the first time. ``Invalid`` when the rules draw none
    (no puzzle of that difficulty on that board); ``Unavailable`` when the arcade is busy or it took too long."""
    if seed is None or not game.info.seeded_setup:
        return None
    position = known(game, seed)
    if position is not None:
        return position
    pool = house.pool
    pool.admission.admit_job(pool.queued_seconds(), "draw a new one")
    job = Job(game.name, dict(game.options), seed, None, (), "setup", agent_seed=0, setup=True)
    kind = (game.name, json.dumps(dict(game.options), sort_keys=True))
    began = time.monotonic()
    try:
        answer = await pool.move(job, SETUP_SECONDS, key=f"setup {game.name} {seed}",
                                 expected=_took.get(kind, EXPECTED_SECONDS))
    except Busy:
        raise Unavailable(say("error.game.setup_busy")) from None
    except TimeoutError:  # it searched past its time, or its worker died
        raise Unavailable(say("error.game.setup_cut_off",
                              game=messages.title_of(game), seconds=round(SETUP_SECONDS))) from None
    except RuntimeError as exc:  # "the computer's job failed: OptionError: why"
        why = str(exc).split(": ", 2)[-1]
        raise Invalid(say("error.game.no_game_with_options", game=messages.title_of(game), reason=why)) from None
    took = time.monotonic() - began
    _took[kind] = took if kind not in _took else 0.8 * _took[kind] + 0.2 * took
    while len(_took) > KEPT:
        _took.pop(next(iter(_took)))
    position = str(answer["position"])
    keep(game, seed, position)
    return position
