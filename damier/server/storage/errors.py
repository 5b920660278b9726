"""The storage's errors: a database that cannot be used, a write that lost a race with another writer."""

from __future__ import annotations


class StorageError(RuntimeError):
    """The database cannot be used (a newer schema, an unreachable URL)."""


class ConflictError(RuntimeError):
    """Another writer appended the same ply first, or changed the game since the revision a write was for."""


def reason(exc: BaseException) -> str:
    """A database error's own message (the driver's), without SQLAlchemy's statement and links."""
    original = getattr(exc, "orig", None)
    return str(original if original is not None else exc).strip().splitlines()[0]


