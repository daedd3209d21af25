"""Numbered SQL migrations for the SQLite store.

Migrations are the files ``NNNN_description.sql`` of ``bot/storage/migrations/``
(shipped as package data and read with :mod:`importlib.resources`, so this works from
a wheel or a zip). Each file starts with a header comment saying what it does. They are
applied in order, each in its own ``BEGIN IMMEDIATE`` transaction together with the
bump of the schema version, which is kept in the database as ``PRAGMA user_version``:
a migration is applied completely or not at all, and two processes starting at once
cannot both apply it (the second one re-reads the version under the write lock).

Each migration has a PostgreSQL twin of the same number and name in
``migrations/postgres/`` (a folder, so :func:`discover` passes over it here), applied
by :mod:`bot.storage.migrate_postgres`.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import aiosqlite

__all__ = [
    "Migration",
    "MigrationError",
    "default_migrations",
    "discover",
    "migrate",
    "schema_version",
    "split_statements",
]

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[A-Za-z0-9_]+)\.sql$")


class MigrationError(Exception):
    """The migrations are inconsistent, or one of them failed (and was rolled back)."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file."""

    version: int
    """The number in the file name; the schema version once applied."""
    name: str
    """The file name."""
    sql: str
    """The SQL script."""


def default_migrations() -> Traversable:
    """The migrations shipped with the bot (``bot/storage/migrations/``)."""
    return resources.files("bot.storage").joinpath("migrations")


def discover(source: Traversable | None = None) -> list[Migration]:
    """The migrations in ``source`` (default: the shipped ones), in order.

    ``source`` is any :class:`~importlib.resources.abc.Traversable`, e.g. a
    :class:`pathlib.Path`. Files not ending in ``.sql`` are ignored. Raises
    :class:`MigrationError` if a ``.sql`` file is misnamed or the numbers do not run
    1, 2, 3... without gaps or duplicates.
    """
    folder = default_migrations() if source is None else source
    found: list[Migration] = []
    for entry in folder.iterdir():
        if not entry.is_file() or not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_description.sql")
        found.append(
            Migration(int(match["version"]), entry.name, entry.read_text(encoding="utf-8"))
        )
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration {migration.name!r} should be number {expected:04d}: "
                "migrations are numbered from 0001 without gaps or duplicates"
            )
    return found


def split_statements(script: str) -> list[str]:
    """Split an SQL script into statements (trigger bodies and comments understood).

    ``executescript`` is not used because Python's sqlite3 may commit before it runs;
    executing statement by statement keeps the whole migration in our transaction.
    """
    statements: list[str] = []
    buffer: list[str] = []
    for char in script:
        buffer.append(char)
        if char == ";":
            text = "".join(buffer)
            if sqlite3.complete_statement(text):
                if not _only_comments(text[:-1]):
                    statements.append(text.strip())
                buffer.clear()
    rest = "".join(buffer)
    if not _only_comments(rest):
        statements.append(rest.strip())  # a last statement without ';' (or a broken one)
    return statements


def _only_comments(text: str) -> bool:
    """True if ``text`` is nothing but ``--`` and ``/* */`` comments and blanks."""
    without = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    without = re.sub(r"--[^\n]*", "", without)
    return not without.strip()


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The schema version of the database (0 for a fresh one)."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0]) if rows else 0


async def migrate(conn: aiosqlite.Connection, source: Traversable | None = None) -> list[int]:
    """Apply the migrations the database lacks; return the versions applied.

    ``source`` is a folder of migration files (default: the shipped ones); tests pass
    their own. Each migration runs in one transaction with the version bump; if it
    fails, it is rolled back completely and :class:`MigrationError` is raised, leaving
    the database at the previous version. Raises :class:`MigrationError` too if the
    database is newer than the newest migration (an older bot on a newer database).
    """
    if conn.in_transaction:
        raise MigrationError("migrate() needs a connection outside any transaction")
    migrations = discover(source)
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
            log.info("applied migration %s", migration.name)
        current = migration.version
    return applied


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> bool:
    """Apply one migration in one transaction; False if another process already did."""
    await conn.execute_fetchall("BEGIN IMMEDIATE")
    try:
        # Re-read under the write lock: another process may have migrated meanwhile.
        current = await schema_version(conn)
        if current >= migration.version:
            await conn.execute_fetchall("ROLLBACK")
            return False
        if current != migration.version - 1:
            raise MigrationError(f"cannot apply {migration.name!r} on schema version {current}")
        for statement in split_statements(migration.sql):
            try:
                await conn.execute_fetchall(statement)
            except sqlite3.Error as exc:
                raise MigrationError(
                    f"migration {migration.name!r} failed and was rolled back: {exc}\n"
                    f"in statement:\n{statement}"
                ) from exc
        # user_version is written inside the same transaction, so it rolls back with it.
        await conn.execute_fetchall(f"PRAGMA user_version = {int(migration.version)}")
        await conn.execute_fetchall("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute_fetchall("ROLLBACK")
        raise
    return True
