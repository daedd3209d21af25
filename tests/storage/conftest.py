"""Fixtures of the storage suite: every test taking ``database`` (or a ``store`` opened
on it) runs on SQLite and on a real PostgreSQL server (see backends.py for how the
server is found, started and stopped)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.storage.backends import BACKENDS, INSTALL_HINT, Database, PostgresServer, postgres_bindir


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The PostgreSQL server of this test process (started on first use)."""
    bindir = postgres_bindir()
    if bindir is None:
        pytest.fail(INSTALL_HINT, pytrace=False)
    server = PostgresServer(bindir)
    try:
        server.start()
        server.create_database()
    except Exception as exc:
        server.stop()
        pytest.fail(f"could not start a PostgreSQL server: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A fresh database of each backend in turn."""
    if request.param == "sqlite":
        return Database("sqlite", str(tmp_path / "tally-ho.sqlite3"))
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return Database("postgresql", server.new_database())
