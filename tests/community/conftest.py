"""Fixtures of the community tests: the storage suite's databases (each test taking
``database`` runs on SQLite and on a real PostgreSQL server, ``postgres_server`` of the
suite's conftest)."""

from __future__ import annotations

from tests.storage.conftest import database

__all__ = ["database"]
