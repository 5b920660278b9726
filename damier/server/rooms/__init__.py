"""The arcade's rooms, independent of HTTP. A room is a place people watch, whose changes happen under its lock
and are committed before anyone hears of them; a game between seats is the one kind of room today.

- ``room``: the ``Room`` base (id, lock, watchers, one serialisation per change) and ``Watcher``;
- ``errors``: what a room refuses (``NotFound``, ``NotYourSeat``, ``Conflict``, ``Invalid``, ``Unavailable``);
- ``seats``: seat tokens derived from the server's secret; ``cache``: the bounded rooms in memory;
- ``arcade``: the rooms, storage, keys and computer pool together, and the lookup of a room;
- ``game_room``: ``GameRoom``, one game between seats; ``moves``: its changes, stored then shown;
- ``creation``: new games, record imports, the position check; ``commands``: move, undo, resign, draw,
  rematch; ``turns``: computer turns and hints; ``views``: the view, replay frames and record export.
"""

from damier.server.rooms.arcade import Arcade
from damier.server.rooms.errors import Conflict, Invalid, NotFound, NotYourSeat, RoomError, Unavailable
from damier.server.rooms.game_room import GameRoom
from damier.server.rooms.room import Room, Watcher, encode

__all__ = ["Arcade", "Conflict", "GameRoom", "Invalid", "NotFound", "NotYourSeat", "Room", "RoomError",
           "Unavailable", "Watcher", "encode"]
