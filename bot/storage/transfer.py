"""Copying a whole database between backends (``python -m bot export`` / ``import``)
and the online backup of a SQLite file (``python -m bot backup``).

:func:`copy_database` copies every row of every table of :data:`TABLES` from one
database (a SQLite path or a ``postgresql://`` URL, as ``TALLYHO_DATABASE`` says) to
another, ids included, so threads, logs, campaigns and their games still match. The
target is migrated first and must be empty (:class:`TargetNotEmpty` otherwise); the
copy is one transaction on the target (all of it or nothing); it only inserts, so the
append-only triggers of ``actions`` and ``campaign_log`` let it through; PostgreSQL's
identity sequences are moved past the copied ids at the end, and the copied tables
are analyzed (the planner's statistics, as after a ``pg_restore``).

Rows travel in a neutral form: JSON columns parsed, timestamps as aware datetimes
(``reminder_ats``: a list of them), everything else as is; each backend reads and
writes its own encoding of them (SQLite: the store's canonical JSON text and ISO 8601
UTC text; PostgreSQL: JSONB, TIMESTAMPTZ, TIMESTAMPTZ[]). A new table must be added
to :data:`TABLES` (``tests/storage/test_transfer.py`` fails until it is).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import aiosqlite
import asyncpg

from bot.storage.migrate_postgres import SCHEMA_TABLE
from bot.storage.models import canonical_json
from bot.storage.postgres import is_postgres_url

__all__ = [
    "IDENTITY_TABLES",
    "TABLES",
    "BackupFailed",
    "CopySummary",
    "TargetNotEmpty",
    "backup_sqlite",
    "copy_database",
    "read_all",
    "table_names",
]

TABLES = (
    "guild_settings",
    "user_settings",
    "campaigns",
    "games",
    "seats",
    "actions",
    "snapshots",
    "messages",
    "deadlines",
    "seat_clocks",
    "game_settings",
    "follows",
    "campaign_log",
    "campaign_members",
    "campaign_follows",
    "content_packs",
    "rated_games",
    "ratings_cursor",
    "ratings",
)
"""Every table of the schema, each after the tables it references (the copy's order)."""

IDENTITY_TABLES = ("campaigns", "games", "deadlines", "content_packs")
"""Tables whose ``id`` the database hands out (a PostgreSQL identity sequence)."""

_ORDER = {
    "guild_settings": "guild_id",
    "user_settings": "user_id",
    "seats": "game_id, seat",
    "actions": "game_id, seq",
    "snapshots": "game_id, seq",
    "messages": "game_id, kind",
    "seat_clocks": "game_id, seat",
    "game_settings": "game_id",
    "follows": "game_id, user_id",
    "campaign_log": "campaign_id, seq",
    "campaign_members": "campaign_id, user_id",
    "campaign_follows": "campaign_id, user_id",
    "rated_games": "seq",
    "ratings": "system, guild_id, user_id",
}
"""Each table's primary key (``id`` when absent): the order rows are read in."""

_JSON = frozenset({"settings", "options", "result", "payload", "state", "setup"})
"""Columns holding a JSON document (SQLite: text; PostgreSQL: JSONB)."""
_TIME_LISTS = frozenset({"reminder_ats"})
"""Columns holding a list of timestamps (SQLite: a JSON array of texts)."""

Row = dict[str, Any]


class TargetNotEmpty(Exception):
    """The copy's target already holds data (the copy never merges)."""


class BackupFailed(Exception):
    """The backup could not be made, or the copy failed ``PRAGMA integrity_check``."""


@dataclass(frozen=True, slots=True)
class CopySummary:
    """How many rows of each table were copied."""

    rows: dict[str, int]

    @property
    def games(self) -> int:
        return self.rows.get("games", 0)

    @property
    def actions(self) -> int:
        return self.rows.get("actions", 0)

    @property
    def campaigns(self) -> int:
        return self.rows.get("campaigns", 0)


def _is_time(column: str) -> bool:
    """A timestamp column: ``..._at``, ``vacation_from``, ``vacation_until``."""
    return column.endswith("_at") or column in ("vacation_from", "vacation_until")


class _Database(Protocol):
    async def tables(self) -> set[str]: ...
    async def read(self, table: str) -> list[Row]: ...
    async def count(self, table: str) -> int: ...
    async def begin(self) -> None: ...
    async def write(self, table: str, rows: Sequence[Row]) -> None: ...
    async def commit(self) -> None: ...
    async def close(self) -> None: ...


class _SQLite:
    """A SQLite file, read and written in the store's encoding."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @classmethod
    async def connect(cls, path: str) -> _SQLite:
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute_fetchall("PRAGMA foreign_keys = ON")
        return cls(conn)

    async def tables(self) -> set[str]:
        rows = await self.conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        return {str(r[0]) for r in rows}

    async def read(self, table: str) -> list[Row]:
        rows = await self.conn.execute_fetchall(
            f"SELECT * FROM {table} ORDER BY {_ORDER.get(table, 'id')}"
        )
        return [{k: self._decode(k, v) for k, v in dict(r).items()} for r in rows]

    @staticmethod
    def _decode(column: str, value: Any) -> Any:
        if value is None:
            return None
        if column in _JSON:
            return json.loads(value)
        if column in _TIME_LISTS:
            return [datetime.fromisoformat(t) for t in json.loads(value)]
        if _is_time(column):
            return datetime.fromisoformat(value)
        return value

    @staticmethod
    def _encode(column: str, value: Any) -> Any:
        if value is None:
            return None
        if column in _JSON:  # the store's canonical text
            return canonical_json(value)
        if column in _TIME_LISTS:
            return json.dumps([_iso(t) for t in value], separators=(",", ":"))
        if _is_time(column):
            return _iso(value)
        return value

    async def count(self, table: str) -> int:
        rows = list(await self.conn.execute_fetchall(f"SELECT count(*) FROM {table}"))
        return int(rows[0][0])

    async def begin(self) -> None:
        await self.conn.execute_fetchall("BEGIN IMMEDIATE")

    async def write(self, table: str, rows: Sequence[Row]) -> None:
        if not rows:
            return
        columns = list(rows[0])
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        await self.conn.executemany(
            sql, [[self._encode(c, row[c]) for c in columns] for row in rows]
        )

    async def commit(self) -> None:
        await self.conn.execute_fetchall("COMMIT")

    async def close(self) -> None:
        await self.conn.close()


class _Postgres:
    """A PostgreSQL database, read and written with its own types."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self._transaction: Any = None

    @classmethod
    async def connect(cls, url: str) -> _Postgres:
        return cls(await asyncpg.connect(url))

    async def tables(self) -> set[str]:
        rows = await self.conn.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return {str(r[0]) for r in rows} - {SCHEMA_TABLE}

    async def read(self, table: str) -> list[Row]:
        rows = await self.conn.fetch(f"SELECT * FROM {table} ORDER BY {_ORDER.get(table, 'id')}")
        return [
            {k: json.loads(v) if k in _JSON and v is not None else v for k, v in r.items()}
            for r in rows
        ]

    async def count(self, table: str) -> int:
        return int(await self.conn.fetchval(f"SELECT count(*) FROM {table}"))

    async def begin(self) -> None:
        self._transaction = self.conn.transaction()
        await self._transaction.start()

    async def write(self, table: str, rows: Sequence[Row]) -> None:
        if not rows:
            return
        columns = list(rows[0])
        places = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({places})"
        await self.conn.executemany(
            sql,
            [
                [
                    json.dumps(row[c]) if c in _JSON and row[c] is not None else row[c]
                    for c in columns
                ]
                for row in rows
            ],
        )
        if table in IDENTITY_TABLES:  # the next id handed out follows the copied ones
            await self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
            )

    async def commit(self) -> None:
        await self._transaction.commit()
        # The planner's statistics of what was just copied, as after a pg_restore: until
        # autovacuum first analyzes a table, PostgreSQL plans on no statistics, and the
        # plan it kept for a click's read of its game's deadlines walked every live
        # deadline (bench/latency.py: 0.22 ms on the server with 300 games open, 0.05
        # once analyzed).
        await self.conn.execute("ANALYZE")

    async def close(self) -> None:
        await self.conn.close()


def _iso(moment: datetime) -> str:
    """The SQLite store's fixed-width ISO 8601 UTC text of an aware datetime."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


async def _migrated(location: str) -> _Database:
    """A raw connection to the database at ``location``, migrated first (by opening
    the store on it, as the bot would)."""
    from bot.storage import open_storage

    store = await open_storage(location)
    await store.close()
    if is_postgres_url(location):
        return await _Postgres.connect(location)
    return await _SQLite.connect(location)


async def table_names(location: str) -> set[str]:
    """The tables of the (migrated) database at ``location``, the schema's own
    bookkeeping aside."""
    db = await _migrated(location)
    try:
        return await db.tables()
    finally:
        await db.close()


async def read_all(location: str) -> dict[str, list[Row]]:
    """Every row of every table of :data:`TABLES` at ``location``, in the neutral form."""
    db = await _migrated(location)
    try:
        return {table: await db.read(table) for table in TABLES}
    finally:
        await db.close()


async def copy_database(source: str, target: str) -> CopySummary:
    """Copy every table of ``source`` into ``target`` (both as ``TALLYHO_DATABASE``
    says), ids included, in one transaction on the target. Raises
    :class:`TargetNotEmpty` if the target holds any row, and ``ValueError`` if the
    two have a table :data:`TABLES` does not name."""
    if source == target:
        raise ValueError("the source and the target are the same database")
    src = await _migrated(source)
    try:
        dst = await _migrated(target)
        try:
            for db, where in ((src, source), (dst, target)):
                unknown = await db.tables() - set(TABLES)
                if unknown:
                    raise ValueError(
                        f"{where} has tables the copy does not know: {sorted(unknown)}"
                    )
            filled = [t for t in TABLES if await dst.count(t)]
            if filled:
                raise TargetNotEmpty(
                    f"the target already holds data (in {', '.join(filled)}): "
                    "copy into a new, empty database"
                )
            copied: dict[str, int] = {}
            await dst.begin()
            for table in TABLES:
                rows = await src.read(table)
                await dst.write(table, rows)
                copied[table] = len(rows)
            await dst.commit()
            return CopySummary(copied)
        finally:
            await dst.close()
    finally:
        await src.close()


def backup_sqlite(source: str, target: str) -> None:
    """Copy the SQLite file ``source`` to ``target`` with SQLite's online backup API,
    safe while the bot writes to it (the copy is one consistent moment of it), then
    check the copy with ``PRAGMA integrity_check``. Raises :class:`BackupFailed`."""
    if is_postgres_url(source):
        raise BackupFailed("backup copies a SQLite file; back PostgreSQL up with pg_dump")
    if not Path(source).is_file():
        raise BackupFailed(f"no SQLite database at {source}")
    if Path(target).exists():
        raise BackupFailed(f"{target} already exists: back up into a new file")
    try:
        src = sqlite3.connect(source, timeout=5.0)
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)
                verdict = [str(r[0]) for r in dst.execute("PRAGMA integrity_check")]
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise BackupFailed(f"the backup failed: {exc}") from exc
    if verdict != ["ok"]:
        raise BackupFailed(f"the backup fails its integrity check: {'; '.join(verdict)}")
