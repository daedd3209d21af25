"""Fixtures of the community tests: the storage suite's databases (each test taking
``database`` runs on SQLite and on a real PostgreSQL server)."""

from __future__ import annotations

from tests.storage.conftest import database, postgres_server

__all__ = ["database", "postgres_server"]
