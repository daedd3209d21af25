"""Numbered SQL migrations for the PostgreSQL store.

The PostgreSQL dialect of every migration lives in ``bot/storage/migrations/postgres/``
under the same number and name as its SQLite twin (``tests/storage/test_postgres.py``
checks that both dialects have the same versions, tables and columns). Files are found
and ordered by :func:`bot.storage.migrate.discover`. Each migration runs in its own
transaction together with the bump of the schema version, kept in the one-row table
``tallyho_schema``; a transaction-scoped advisory lock makes two processes starting at
once apply each migration once (the second one re-reads the version under the lock).
"""

from __future__ import annotations

import logging
from importlib import resources
from importlib.resources.abc import Traversable

import asyncpg

from bot.storage.migrate import Migration, MigrationError, discover

__all__ = ["SCHEMA_TABLE", "migrate", "postgres_migrations", "schema_version"]

log = logging.getLogger(__name__)

SCHEMA_TABLE = "tallyho_schema"
"""The table holding the schema version (SQLite keeps it in ``PRAGMA user_version``)."""

_LOCK_KEY = 0x7A11_7940
"""The advisory lock taken by every migration transaction (any constant of our own)."""


def postgres_migrations() -> Traversable:
    """The PostgreSQL migrations shipped with the bot (``migrations/postgres/``)."""
    return resources.files("bot.storage").joinpath("migrations").joinpath("postgres")


async def schema_version(conn: asyncpg.Connection) -> int:
    """The schema version of the database (0 for a fresh one)."""
    exists = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", SCHEMA_TABLE)
    if not exists:
        return 0
    version = await conn.fetchval(f"SELECT max(version) FROM {SCHEMA_TABLE}")
    return 0 if version is None else int(version)


async def migrate(conn: asyncpg.Connection, source: Traversable | None = None) -> list[int]:
    """Apply the migrations the database lacks; return the versions applied.

    ``source`` is a folder of migration files (default: the shipped PostgreSQL ones).
    Each migration runs in one transaction with the version bump; if it fails, it is
    rolled back completely and :class:`MigrationError` is raised, leaving the database
    at the previous version. Raises :class:`MigrationError` too if the database is newer
    than the newest migration (an older bot on a newer database).
    """
    if conn.is_in_transaction():
        raise MigrationError("migrate() needs a connection outside any transaction")
    migrations = discover(postgres_migrations() if source is None else source)
    latest = migrations[-1].version if migrations else 0
    current = await schema_version(conn)
    if current > latest:
        raise MigrationError(
            f"the database is at schema version {current}, newer than this bot's "
            f"latest migration {latest}: upgrade the bot"
        )
    applied: list[int] = []
    for migration in migrations:
        if migration.version <= current:
            continue
        if await _apply(conn, migration):
            applied.append(migration.version)
            log.info("applied migration %s (PostgreSQL)", migration.name)
        current = migration.version
    return applied


async def _apply(conn: asyncpg.Connection, migration: Migration) -> bool:
    """Apply one migration in one transaction; False if another process already did."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL)")
        # Re-read under the lock: another process may have migrated meanwhile.
        current = await schema_version(conn)
        if current >= migration.version:
            return False
        if current != migration.version - 1:
            raise MigrationError(f"cannot apply {migration.name!r} on schema version {current}")
        try:
            # Without arguments asyncpg sends the script as one simple query: several
            # statements, dollar-quoted function bodies included, in our transaction.
            await conn.execute(migration.sql)
        except asyncpg.PostgresError as exc:
            raise MigrationError(
                f"migration {migration.name!r} failed and was rolled back: {exc}"
            ) from exc
        await conn.execute(f"DELETE FROM {SCHEMA_TABLE}")
        await conn.execute(f"INSERT INTO {SCHEMA_TABLE} (version) VALUES ($1)", migration.version)
    return True
