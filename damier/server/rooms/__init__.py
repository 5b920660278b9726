"""The arcade's rooms, independent of HTTP. A room is a place people watch, whose changes happen under its lock
and are committed before anyone hears of them; a game between seats and a race on one puzzle are its two kinds.

- ``room``: the ``Room`` base (id, lock, watchers, one serialisation per change) and ``Watcher``;
- ``errors``: what a room refuses (``NotFound``, ``NotYourSeat``, ``Forbidden``, ``Conflict``, ``Invalid``,
  ``Unavailable``);
- ``seats``: seat tokens derived from the server's secret; ``cache``: the bounded rooms in memory;
- ``arcade``: the rooms, storage, keys and computer pool together, and the lookup of a room;
- ``game_room``: ``GameRoom``, one game between seats; ``moves``: its changes, stored then shown;
- ``creation``: new games, record imports, the position check; ``commands``: move, undo, resign, draw,
  rematch; ``turns``: computer turns and hints; ``clocks``: time controls, the clocks stored with each move,
  the timer that ends a game on time; ``views``: the view, replay frames and record export;
  ``puzzles``: solo puzzles (a one-player game room), the puzzle of the day;
- ``race_room``: ``RaceRoom``, people racing on a puzzle game's puzzles; ``race_log``: its events folded into
  players, chips and rounds; ``race_changes``: its changes, stored then shown, and what follows a verdict or a
  deadline; ``race_commands``: create, join, start, claim, demonstrate, give up; ``race_timers``: the deadlines
  the server enforces; ``race_views``: the view.
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
from damier.server.rooms.game_room import GameRoom
from damier.server.rooms.race_room import RaceRoom
from damier.server.rooms.room import Room, Watcher, encode

__all__ = ["Arcade", "Conflict", "Forbidden", "GameRoom", "Invalid", "NotFound", "NotYourSeat", "RaceRoom", "Room",
           "RoomError", "TooMany", "Unavailable", "Watcher", "encode"]
