"""Persistent storage of the arcade: the schema and its migrations (``schema``), the database opened and locked
(``database``), one writer thread that commits in groups (``writer``), and a store per aggregate: ``games`` (with
their seats and moves), ``leases`` (computer turns), ``races`` (race rooms and their events), ``notifications``
(servers hearing of each other's changes on PostgreSQL), ``identities`` and ``seeks`` (players and the lobby).
"""

from damier.server.storage.database import Storage
from damier.server.storage.errors import ConflictError, StorageError
from damier.server.storage.files import data_folder, default_url, safe_url, sqlite_path
from damier.server.storage.games import GameRow, SeatRow, flag_time
from damier.server.storage.races import RaceEvent, RaceRow
from damier.server.storage.schema import SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION", "ConflictError", "GameRow", "RaceEvent", "RaceRow", "SeatRow", "Storage", "StorageError",
           "data_folder", "default_url", "flag_time", "safe_url", "sqlite_path"]
