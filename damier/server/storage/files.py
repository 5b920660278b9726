"""Where the database is and who may read it: URLs shown without their password, the default SQLite file in the
user's data folder, a SQLite URL's file, the process holding a file's lock, private files."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("damier.server")


def safe_url(url: str) -> str:
    """The URL with any password hidden, for messages and logs."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<database URL>"


def data_folder() -> Path:
    """damier's folder in the user data folder, made private (0700) if it is new."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("damier", appauthor=False))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def default_url() -> str:
    return f"sqlite:///{data_folder() / 'damier.sqlite3'}"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, in any form (a path, or a ``file:`` URI), None for another database or an
    in-memory one.

    >>> sqlite_path("sqlite:////tmp/a.db"), sqlite_path("sqlite:///file:/tmp/a%20b.db?mode=ro&uri=true")
    (PosixPath('/tmp/a.db'), PosixPath('/tmp/a b.db'))
    >>> sqlite_path("sqlite://"), sqlite_path("sqlite:///file::memory:?uri=true"), sqlite_path("postgresql://h/d")
    (None, None, None)
    """
    if not url.startswith("sqlite"):
        return None
    try:
        from sqlalchemy.engine import make_url

        database = make_url(url).database
    except Exception:
        return None
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        from urllib.parse import parse_qs, unquote, urlsplit

        parts = urlsplit(database)
        path = unquote(parts.path)
        if not path or path == ":memory:" or "memory" in parse_qs(parts.query).get("mode", []):
            return None
        return Path(path)
    return Path(database)


def lock_holder(file: Path) -> str | None:
    """Who holds the ``flock`` on ``file`` (by its device and inode, whatever its name), read from the kernel's
    ``/proc/locks``: ``pid N: <its command line>``; None where that cannot be told."""
    try:
        info = file.stat()
        wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
        for line in Path("/proc/locks").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
                pid = fields[4]
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                return f"pid {pid}: {command.strip()[:200]}"
    except (OSError, ValueError, IndexError):
        return None
    return None


def make_private(path: Path) -> None:
    """Create the SQLite file ``path`` readable by its owner only (0600), or take the group's and others' rights
    from one an earlier damier made (0644), with its WAL files: seat tokens are not in it, but games are."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        return  # a missing folder or no rights: opening the database says so
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            info = file.stat()
            mode = stat.S_IMODE(info.st_mode)
            if mode & 0o077 and info.st_uid == os.getuid():
                file.chmod(mode & 0o700)
                log.warning("%s was readable by others (mode %04o): now %04o", file, mode, mode & 0o700)
        except OSError:
            continue


