"""Fixtures of the storage suite: every test taking ``database`` (or a ``store`` opened
on it) runs on SQLite and on a real PostgreSQL server (``postgres_server``, in the
suite's conftest; see backends.py for how the server is found, started and stopped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.storage.backends import BACKENDS, Database, PostgresServer


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A fresh database of each backend in turn."""
    if request.param.startswith("sqlite"):
        return Database(request.param, str(tmp_path / "tally-ho.sqlite3"))
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return Database("postgresql", server.new_database())
