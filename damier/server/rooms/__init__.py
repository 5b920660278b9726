"""The arcade's rooms, independent of HTTP. A room is a place people watch, whose changes happen under its lock
and are committed before anyone hears of them; a game between seats and a race on one puzzle are its two kinds.

- ``room``: the ``Room`` base (id, lock, watchers, one serialisation per change) and ``Watcher``; ``delta``: the
  changes between two views as RFC 6902 JSON Patch;
- ``errors``: what a room refuses (``NotFound``, ``NotYourSeat``, ``Forbidden``, ``Conflict``, ``Invalid``,
  ``Unavailable``, ``TooMany``);
- ``seats``: seat tokens derived from the server's secret; ``cache``: the bounded rooms in memory; ``presence``:
  who is here across servers;
- ``arcade``: the rooms, storage, keys and computer pool together, and the lookup of a room;
- ``game/``, a game between seats: ``rules`` its rules of play, pure (a command on the room as it is -> the change
  to make: move, takeback, draw, abort, claim, resign, rematch's board); ``clocks`` the clocks' arithmetic, pure;
  ``commands`` the shell (lock, apply, tell, the computer's turn); ``room`` ``GameRoom``; ``moves`` its changes,
  stored then shown, and the clocks' timers; ``creation`` new games, record imports, the position check; ``turns``
  computer turns and hints; ``views`` the view, replay frames and record export; ``puzzles`` solo puzzles and the
  puzzle of the day; ``setups`` starts drawn from seeds in the pool; ``idle`` games left alone;
- ``race/``, people racing on a puzzle game's puzzles: ``rules`` its rules of play, pure (events added to a draft of
  its log: join, start, claim, bid, demonstrate, verdicts, deadlines); ``log`` its events folded into players, chips
  and rounds, pure; ``changes`` the shell (store, then show; puzzles drawn and solved in threads; deadlines
  enforced); ``commands`` create, join, start, claim, demonstrate, give up; ``room`` ``RaceRoom``; ``timers`` the
  deadlines the server enforces; ``views`` the view.

``game`` and ``race`` are independent of each other, and their ``rules`` and the race's ``log`` import no storage,
no arcade and no shell (import-linter's contracts in ``pyproject.toml``).
"""

from damier.server.rooms.arcade import Arcade
from damier.server.rooms.errors import (
           Conflict,
           Forbidden,
           Invalid,
           NotFound,
           NotYourSeat,
           RoomError,
           TooMany,
           Unavailable,
)
from damier.server.rooms.game.room import GameRoom
from damier.server.rooms.race.room import RaceRoom
from damier.server.rooms.room import Room, Watcher, encode

__all__ = ["Arcade", "Conflict", "Forbidden", "GameRoom", "Invalid", "NotFound", "NotYourSeat", "RaceRoom", "Room",
           "RoomError", "TooMany", "Unavailable", "Watcher", "encode"]
