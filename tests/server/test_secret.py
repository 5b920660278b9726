"""The token secret lives outside the database, in a private key file (or ``DAMIER_SECRET``); the SQLite database
and its folder are private; a secret an earlier damier kept in the database moves out, its tokens still valid."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from damier.server import secret
from damier.server.app import open_secret
from damier.server.storage import Storage
from tests.server.conftest import make_app


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def stored_secret(url: str) -> list[str]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = [str(v) for v in conn.execute(text("SELECT value FROM settings WHERE key = 'token_secret'")).scalars()]
    engine.dispose()
    return rows


def test_a_new_arcade_keeps_its_secret_in_a_private_key_file_not_in_its_private_database(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    url = f"sqlite:///{folder / 'arcade.sqlite3'}"
    storage = Storage(url)
    first = open_secret(storage)
    storage.close()
    key = folder / "arcade.sqlite3.key"
    assert mode(folder / "arcade.sqlite3") == 0o600 and mode(key) == 0o600
    assert bytes.fromhex(key.read_text()) == first and len(first) == 32
    assert stored_secret(url) == []
    again = Storage(url)
    assert open_secret(again) == first  # the same tokens stay valid after a restart
    again.close()


def test_a_secret_an_earlier_damier_kept_in_the_database_moves_to_the_key_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    Storage(url).close()
    old = "ab" * 32
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO settings (key, value) VALUES ('token_secret', :v)"), {"v": old})
    engine.dispose()
    (tmp_path / "old.sqlite3").chmod(0o644)  # as an earlier damier left it
    storage = Storage(url)
    assert mode(tmp_path / "old.sqlite3") == 0o600
    assert open_secret(storage) == bytes.fromhex(old)
    storage.close()
    assert stored_secret(url) == [] and (tmp_path / "old.sqlite3.key").read_text().strip() == old


def test_seat_tokens_of_an_earlier_damier_stay_valid(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'arcade.sqlite3'}"
    with TestClient(make_app(url, workers=1)) as client:
        created = client.post("/api/games", json={"game": "atoms", "options": {"rows": 3, "cols": 3},
                                                   "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    key = tmp_path / "arcade.sqlite3.key"
    engine = create_engine(url)
    with engine.begin() as conn:  # the database as an earlier damier kept it: the secret inside, no key file
        conn.execute(text("INSERT INTO settings (key, value) VALUES ('token_secret', :v)"),
                     {"v": key.read_text().strip()})
    engine.dispose()
    key.unlink()
    with TestClient(make_app(url, workers=1)) as client:
        moved = client.post(f"/api/games/{created['id']}/moves", json={"move": "a1"},
                            headers={"X-Seat-Token": created["tokens"]["0"]})
        assert moved.status_code == 200, moved.text
    assert key.exists() and stored_secret(url) == []


def test_the_environment_variable_wins_and_a_bad_one_is_refused_clearly(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    assert secret.load(url, environ={secret.ENV: "0f" * 40}) == bytes.fromhex("0f" * 40)
    assert not (tmp_path / "a.sqlite3.key").exists()
    for bad in ("0f" * 10, "xyz" * 30):
        with pytest.raises(secret.SecretError, match=f"the environment variable {secret.ENV}: the token secret is 64 "
                                                     "or more hex digits"):
            secret.load(url, environ={secret.ENV: bad})


def test_a_key_file_others_may_read_or_a_bad_one_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "shared.key"
    key.write_text("12" * 32)
    key.chmod(0o644)
    with pytest.raises(secret.SecretError, match=r"may be read by others \(mode 0644\): chmod 600"):
        secret.load("sqlite://", key, environ={})
    key.chmod(0o600)
    assert secret.load("sqlite://", key, environ={}) == bytes.fromhex("12" * 32)
    key.write_text("not hex")
    with pytest.raises(secret.SecretError, match="64 or more hex digits"):
        secret.load("sqlite://", key, environ={})


def test_a_new_key_file_is_made_in_a_private_folder(tmp_path: Path) -> None:
    key = tmp_path / "keys" / "deep" / "arcade.key"
    made = secret.load("postgresql://nowhere/db", key, environ={})
    assert mode(key) == 0o600 and mode(key.parent) == 0o700 and len(made) == 32


def test_serve_with_a_key_file_others_may_read_fails_with_one_clear_line(tmp_path: Path) -> None:
    key = tmp_path / "open.key"
    key.write_text("34" * 32)
    key.chmod(0o640)
    env = {k: v for k, v in os.environ.items() if k != secret.ENV}
    done = subprocess.run([sys.executable, "-m", "damier.cli", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                           "--secret-file", str(key)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [f"error: the key file {key} may be read by others (mode 0640): "
                                                f"chmod 600 {key}"]
