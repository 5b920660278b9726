"""The arcade's token secret (seat tokens are HMACs of it): never in the database, which anyone who can read a
backup or a world-readable file would see.

Where it comes from, first found wins:

1. the environment variable ``DAMIER_SECRET`` (64 or more hex digits), for deployments: several servers on one
   PostgreSQL must share it;
2. a key file, ``--secret-file`` (default: beside a SQLite database, ``<database>.key``; else ``secret.key`` in the
   user data folder), created on first use with mode 0600 in a folder it creates with mode 0700. A key file that
   others may read (group or world bits) is refused, as ssh refuses such a key.

A database from an earlier damier kept the secret in its ``settings`` table: it moves into the key file on first
start (the seat tokens handed out stay valid) and leaves the database.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from damier.server.storage import StorageError, data_folder, sqlite_path

ENV = "DAMIER_SECRET"
MIN_HEX = 64


class SecretError(StorageError):
    """The token secret cannot be read or made: the message says what to do."""


def default_file(url: str) -> Path:
    """The key file of the database ``url``: beside a SQLite file, else in the user data folder."""
    path = sqlite_path(url)
    if path is not None:
        return path.with_name(path.name + ".key")
    return data_folder() / "secret.key"


def _parse(text: str, where: str) -> bytes:
    value = text.strip()
    try:
        secret = bytes.fromhex(value)
    except ValueError:
        secret = b""
    if len(value) < MIN_HEX or not secret:
        raise SecretError(f"{where}: the token secret is {MIN_HEX} or more hex digits (python -c \"import secrets; "
                          f"print(secrets.token_hex(32))\" makes one)")
    return secret


def _read(path: Path) -> bytes:
    info = path.stat()
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise SecretError(f"the key file {path} may be read by others (mode {stat.S_IMODE(info.st_mode):04o}): "
                          f"chmod 600 {path}")
    return _parse(path.read_text(encoding="ascii", errors="replace"), f"the key file {path}")


def _create(path: Path, secret: bytes) -> None:
    """Write a new key file at once and whole (a server starting at the same instant reads the one that won)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(secret.hex() + "\n")
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):  # another server made the file first: its secret is the one
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def load(url: str, secret_file: str | os.PathLike[str] | None = None, legacy: bytes | None = None,
         environ: dict[str, str] | None = None) -> bytes:
    """The token secret of the arcade on database ``url`` (see the module): ``legacy`` is the secret an earlier
    damier kept in that database, which a new key file takes over."""
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return _parse(env[ENV], f"the environment variable {ENV}")
    path = Path(secret_file) if secret_file is not None else default_file(url)
    try:
        if not path.exists():
            _create(path, legacy if legacy else secrets.token_bytes(32))
        return _read(path)
    except OSError as exc:
        raise SecretError(f"cannot read or create the key file {path}: {exc.strerror or exc}; give another with "
                          f"--secret-file, or set {ENV}") from None
