"""A throwaway PostgreSQL server started from Debian's binaries, for the tests and the load benchmark (the real
thing, not a mock: ``apt-get install postgresql`` provides it)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, text


def postgres_bin() -> Path:
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / "initdb").exists():
            return folder
    raise RuntimeError("the PostgreSQL test needs Debian's postgresql package (apt-get install postgresql)")


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server of its own in a temporary folder, on a free loopback port, for as long as the block
    runs: its SQLAlchemy URL (user ``damier``, database ``postgres``, no password: trust on loopback)."""
    binaries = postgres_bin()
    folder = Path(tempfile.mkdtemp(prefix="damier-pg-"))
    data = folder / "data"
    as_postgres: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(folder, "postgres", "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    subprocess.run([*as_postgres, str(binaries / "initdb"), "-D", str(data), "-U", "damier", "--auth=trust",
                    "-E", "UTF8"], check=True, capture_output=True)
    subprocess.run([*as_postgres, str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
                    "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", "start"],
                   check=True, capture_output=True)
    try:
        url = f"postgresql+psycopg://damier@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while True:
            try:
                create_engine(url).connect().close()
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        subprocess.run([*as_postgres, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def fresh_database(server_url: str, name: str) -> Iterator[str]:
    """A new, empty database ``name`` on the PostgreSQL server of ``server_url`` for as long as the block runs
    (dropped after, connections and all): its URL."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield server_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
