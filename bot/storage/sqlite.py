"""The SQLite implementation of :class:`bot.storage.base.Storage` (aiosqlite).

Connection settings, chosen for a play-by-post bot where an action must survive
anything once the player has seen the bot accept it:

* ``journal_mode=WAL`` (file databases): readers never block the writer, and a
  commit is one append to the WAL.
* ``synchronous=FULL``: the WAL is fsynced at every commit. With ``NORMAL`` a commit
  survives a crash of the bot but may be lost on a power cut or OS crash, after the
  player was told "done"; one fsync per move is cheap at play-by-post rates.
* ``foreign_keys=ON``, and ``busy_timeout`` so that writers from other connections
  (a second process, a maintenance script) wait for the write lock instead of failing.
* Autocommit mode (``isolation_level=None``): the store opens its own transactions
  with ``BEGIN IMMEDIATE``, which takes the write lock up front so two writers queue
  on the busy timeout rather than fail half-way with ``SQLITE_BUSY``.

All statements of one store go through one aiosqlite connection (its own thread, so
the event loop never blocks); an :class:`asyncio.Lock` keeps the coroutines sharing it
from interleaving statements inside each other's transactions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC
from importlib.resources.abc import Traversable
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.storage.base import (
    UNSET,
    Clock,
    ConstraintViolation,
    GameNotFound,
    SeatNotFound,
    StaleGameVersion,
    Storage,
    Unset,
    utc_now,
)
from bot.storage.migrate import migrate
from bot.storage.models import (
    OPEN_STATUSES,
    ActionRecord,
    GameRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    MessageRecord,
    SeatRecord,
    SnapshotRecord,
)

__all__ = ["DEFAULT_BUSY_TIMEOUT_MS", "SQLiteStorage"]

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5_000
"""How long a writer waits for another connection's write lock before giving up."""

_TERMINAL = (GameStatus.FINISHED.value, GameStatus.ABORTED.value)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, host_id, system, ruleset, "
    "status, options, seed, version, last_seq, created_at, updated_at, finished_at, result"
)
_SEAT_COLUMNS = "game_id, seat, side, user_id, display_name, payload, joined_at"
# Natural order for seat names of one letter and a number: A2 before A10.
_SEAT_ORDER = "length(seat), seat"

Params = Sequence[Any]


def _dumps(value: JSONObject) -> str:
    """Canonical JSON text of a JSON object (stable, so equal data is equal text)."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object (dict), got {type(value).__name__}")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _statuses(statuses: Iterable[GameStatus | str]) -> list[str]:
    """Validate statuses (ValueError on an unknown one) and return their values."""
    return [GameStatus(s).value for s in statuses]


def _game(row: sqlite3.Row) -> GameRecord:
    data = dict(row)
    data["options"] = json.loads(data["options"])
    data["result"] = None if data["result"] is None else json.loads(data["result"])
    return GameRecord.model_validate(data)


def _seat(row: sqlite3.Row) -> SeatRecord:
    data = dict(row)
    data["payload"] = json.loads(data["payload"])
    return SeatRecord.model_validate(data)


class SQLiteStorage(Storage):
    """Tally-Ho's storage in one SQLite database file (or ``:memory:`` for tests).

    Create it with ``await SQLiteStorage.open(path)``, which configures the connection
    and applies migrations; ``await store.close()`` (or ``async with``) when done.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str, clock: Clock) -> None:
        """Wrap an open, configured, migrated connection; use :meth:`open` instead."""
        self._conn = conn
        self._path = path
        self._clock = clock
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrations: Traversable | None = None,
    ) -> Self:
        """Open (creating if needed) the database at ``path`` and migrate it.

        ``path`` is a file path or ``":memory:"``. ``clock`` gives the timestamps
        (default: the real UTC time). ``migrations`` replaces the shipped migration
        folder (tests only).
        """
        location = os.fspath(path)
        conn = await aiosqlite.connect(
            location, isolation_level=None, timeout=busy_timeout_ms / 1000
        )
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute_fetchall(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute_fetchall("PRAGMA foreign_keys = ON")
            if location not in ("", ":memory:"):
                rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
                mode = str(rows[0][0]).lower() if rows else "?"
                if mode != "wal":
                    log.warning("could not enable WAL on %s (journal_mode=%s)", location, mode)
            await conn.execute_fetchall("PRAGMA synchronous = FULL")
            await migrate(conn, migrations)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, location, clock)

    async def close(self) -> None:
        """Close the connection (waits for statements in flight)."""
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def path(self) -> str:
        """The database location given to :meth:`open`."""
        return self._path

    def __repr__(self) -> str:
        return f"<SQLiteStorage {self._path!r}>"

    # -- plumbing -------------------------------------------------------------------

    def _now(self) -> str:
        """The clock's time as an ISO 8601 UTC string (fixed width, so it sorts)."""
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the storage clock must return timezone-aware datetimes")
        return now.astimezone(UTC).isoformat(timespec="microseconds")

    async def _fetch(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Run one read statement (its own implicit transaction) and return the rows."""
        async with self._lock:
            return list(await self._conn.execute_fetchall(sql, params))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed on exit, rolled back on any exception.

        Constraint failures surface as :class:`ConstraintViolation`, not as a
        backend-specific exception.
        """
        async with self._lock:
            conn = self._conn
            await conn.execute_fetchall("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute_fetchall("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    await conn.execute_fetchall("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise ConstraintViolation(str(exc)) from exc
                raise

    @staticmethod
    async def _rows(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await conn.execute_fetchall(sql, params))

    async def _bump(
        self,
        conn: aiosqlite.Connection,
        game_id: int,
        expected_version: int | None,
        now: str,
        *,
        assignments: str = "",
        params: Params = (),
        next_seq: bool = False,
    ) -> sqlite3.Row:
        """Bump the game's version (guarded by ``expected_version`` if given).

        ``assignments`` are extra ``column = ?`` items with their ``params``. Returns
        the updated game row. Raises :class:`StaleGameVersion` or
        :class:`GameNotFound`; the caller's transaction then rolls back.
        """
        sets = "version = version + 1, updated_at = ?"
        if next_seq:
            sets += ", last_seq = last_seq + 1"
        if assignments:
            sets += ", " + assignments
        where = "id = ?"
        args: list[Any] = [now, *params, game_id]
        if expected_version is not None:
            where += " AND version = ?"
            args.append(expected_version)
        rows = await self._rows(
            conn, f"UPDATE games SET {sets} WHERE {where} RETURNING {_GAME_COLUMNS}", args
        )
        if rows:
            return rows[0]
        found = await self._rows(conn, "SELECT version FROM games WHERE id = ?", (game_id,))
        if not found:
            raise GameNotFound(game_id)
        assert expected_version is not None  # an unguarded UPDATE of a game cannot miss
        raise StaleGameVersion(game_id, expected_version, int(found[0]["version"]))

    # -- guild settings -------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        """The guild's settings, or None if none were ever stored."""
        rows = await self._fetch(
            "SELECT guild_id, settings, updated_at FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return None
        data = dict(rows[0])
        data["settings"] = json.loads(data["settings"])
        return GuildSettingsRecord.model_validate(data)

    async def put_guild_settings(self, guild_id: int, settings: JSONObject) -> GuildSettingsRecord:
        """Store (replace) the guild's settings and return them."""
        text = _dumps(settings)
        now = self._now()
        async with self._transaction() as conn:
            await conn.execute_fetchall(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, text, now),
            )
        return GuildSettingsRecord.model_validate(
            {"guild_id": guild_id, "settings": json.loads(text), "updated_at": now}
        )

    # -- games ----------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        system: str,
        ruleset: str,
        seed: int,
        options: JSONObject | None = None,
        status: GameStatus = GameStatus.LOBBY,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
    ) -> GameRecord:
        """Create a game at version 0 with an empty log and return it (with its id)."""
        status_value = GameStatus(status).value
        now = self._now()
        finished_at = now if status_value in _TERMINAL else None
        async with self._transaction() as conn:
            rows = await self._rows(
                conn,
                "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id, "
                "host_id, system, ruleset, status, options, seed, version, last_seq, "
                "created_at, updated_at, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?) "
                f"RETURNING {_GAME_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    lobby_message_id,
                    host_id,
                    system,
                    ruleset,
                    status_value,
                    _dumps(options or {}),
                    seed,
                    now,
                    now,
                    finished_at,
                ),
            )
        return _game(rows[0])

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None."""
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def get_game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in that thread, or None."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE thread_id = ?", (thread_id,)
        )
        return _game(rows[0]) if rows else None

    async def list_games(
        self,
        guild_id: int | None = None,
        statuses: Iterable[GameStatus | str] | None = None,
    ) -> list[GameRecord]:
        """Games of a guild (or of every guild), with one of ``statuses`` (or any);
        oldest first."""
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if statuses is not None:
            values = _statuses(statuses)
            if not values:
                return []
            where.append(f"status IN ({', '.join('?' * len(values))})")
            params.extend(values)
        clause = f"WHERE {' AND '.join(where)} " if where else ""
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games {clause}ORDER BY id", params)
        return [_game(row) for row in rows]

    async def list_open_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, in every guild; what a restart reloads."""
        return await self.list_games(statuses=OPEN_STATUSES)

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        status: GameStatus | str | Unset = UNSET,
        options: JSONObject | Unset = UNSET,
        thread_id: int | Unset | None = UNSET,
        lobby_message_id: int | Unset | None = UNSET,
        result: JSONObject | Unset | None = UNSET,
    ) -> GameRecord:
        """Change the given fields if the game is at ``expected_version``; bump it.

        Moving to finished or aborted also sets ``finished_at`` (once). Returns the
        updated game. Raises :class:`StaleGameVersion` (nothing written) or
        :class:`GameNotFound`; ``ValueError`` if no field is given.
        """
        now = self._now()
        sets: list[str] = []
        params: list[Any] = []
        if not isinstance(status, Unset):
            value = GameStatus(status).value
            sets.append("status = ?")
            params.append(value)
            if value in _TERMINAL:
                sets.append("finished_at = COALESCE(finished_at, ?)")
                params.append(now)
        if not isinstance(options, Unset):
            sets.append("options = ?")
            params.append(_dumps(options))
        if not isinstance(thread_id, Unset):
            sets.append("thread_id = ?")
            params.append(thread_id)
        if not isinstance(lobby_message_id, Unset):
            sets.append("lobby_message_id = ?")
            params.append(lobby_message_id)
        if not isinstance(result, Unset):
            sets.append("result = ?")
            params.append(None if result is None else _dumps(result))
        if not sets:
            raise ValueError("update_game() needs at least one field to change")
        async with self._transaction() as conn:
            row = await self._bump(
                conn, game_id, expected_version, now, assignments=", ".join(sets), params=params
            )
        return _game(row)

    # -- seats ----------------------------------------------------------------------

    async def get_seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats, ordered by seat name (``A2`` before ``A10``)."""
        rows = await self._fetch(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY {_SEAT_ORDER}",
            (game_id,),
        )
        return [_seat(row) for row in rows]

    async def seats_of_user(
        self,
        user_id: int,
        statuses: Iterable[GameStatus | str] | None = None,
    ) -> list[SeatRecord]:
        """Every seat the user holds, in games with one of ``statuses`` (or any);
        ordered by game, then seat."""
        columns = ", ".join(f"s.{c.strip()}" for c in _SEAT_COLUMNS.split(","))
        sql = f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ?"
        params: list[Any] = [user_id]
        if statuses is not None:
            values = _statuses(statuses)
            if not values:
                return []
            sql += f" AND g.status IN ({', '.join('?' * len(values))})"
            params.extend(values)
        sql += " ORDER BY s.game_id, length(s.seat), s.seat"
        return [_seat(row) for row in await self._fetch(sql, params)]

    async def put_seat(
        self,
        game_id: int,
        seat: str,
        side: str,
        user_id: int | None,
        display_name: str,
        payload: JSONObject | None = None,
        *,
        expected_version: int | None = None,
    ) -> int:
        """Create or replace a seat; bump the game's version and return the new one.

        With ``expected_version`` the write is guarded like ``update_game``.
        """
        text = _dumps(payload or {})
        now = self._now()
        async with self._transaction() as conn:
            row = await self._bump(conn, game_id, expected_version, now)
            await conn.execute_fetchall(
                f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET side = excluded.side, "
                "user_id = excluded.user_id, display_name = excluded.display_name, "
                "payload = excluded.payload, joined_at = excluded.joined_at",
                (game_id, seat, side, user_id, display_name, text, now),
            )
        return int(row["version"])

    async def remove_seat(
        self, game_id: int, seat: str, *, expected_version: int | None = None
    ) -> int:
        """Remove a seat (:class:`SeatNotFound` if absent); bump and return the version."""
        now = self._now()
        async with self._transaction() as conn:
            row = await self._bump(conn, game_id, expected_version, now)
            deleted = await self._rows(
                conn,
                "DELETE FROM seats WHERE game_id = ? AND seat = ? RETURNING seat",
                (game_id, seat),
            )
            if not deleted:
                raise SeatNotFound(game_id, seat)
        return int(row["version"])

    # -- the action log -------------------------------------------------------------

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        seat: str | None,
        action: str,
        *,
        snapshot: JSONObject | None = None,
    ) -> int:
        """Append one action to the game's log and return the game's new version.

        In one transaction, if the game is at ``expected_version``: bump the version,
        insert the action at ``seq = last_seq + 1``, and store ``snapshot`` (the state
        after the action) if given. Committed before returning. Raises
        :class:`StaleGameVersion` (nothing written) or :class:`GameNotFound`.
        """
        state = None if snapshot is None else _dumps(snapshot)
        now = self._now()
        async with self._transaction() as conn:
            row = await self._bump(conn, game_id, expected_version, now, next_seq=True)
            seq = int(row["last_seq"])
            await conn.execute_fetchall(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, seat, action, now),
            )
            if state is not None:
                await conn.execute_fetchall(
                    "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, seq, state, now),
                )
        return int(row["version"])

    async def load_actions(self, game_id: int, after_seq: int = 0) -> list[ActionRecord]:
        """The game's actions with ``seq > after_seq``, in order."""
        rows = await self._fetch(
            "SELECT game_id, seq, seat, action, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
        return [ActionRecord.model_validate(dict(row)) for row in rows]

    async def put_snapshot(self, game_id: int, seq: int, state: JSONObject) -> None:
        """Store (or replace) the state after action ``seq`` (0 = initial state).

        Snapshots are a cache and do not bump the version. ``ValueError`` if ``seq``
        is beyond the log.
        """
        text = _dumps(state)
        now = self._now()
        async with self._transaction() as conn:
            found = await self._rows(conn, "SELECT last_seq FROM games WHERE id = ?", (game_id,))
            if not found:
                raise GameNotFound(game_id)
            last_seq = int(found[0]["last_seq"])
            if not 0 <= seq <= last_seq:
                raise ValueError(
                    f"game {game_id}: no snapshot at seq {seq}, the log has {last_seq} actions"
                )
            await conn.execute_fetchall(
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seq) DO UPDATE SET "
                "state = excluded.state, created_at = excluded.created_at",
                (game_id, seq, text, now),
            )

    async def latest_snapshot(self, game_id: int) -> SnapshotRecord | None:
        """The snapshot with the highest seq, or None."""
        rows = await self._fetch(
            "SELECT game_id, seq, state, created_at FROM snapshots "
            "WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        if not rows:
            return None
        data = dict(rows[0])
        data["state"] = json.loads(data["state"])
        return SnapshotRecord.model_validate(data)

    # -- messages -------------------------------------------------------------------

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the game's message of that kind (replacing the previous one)."""
        now = self._now()
        async with self._transaction() as conn:
            found = await self._rows(conn, "SELECT 1 FROM games WHERE id = ?", (game_id,))
            if not found:
                raise GameNotFound(game_id)
            await conn.execute_fetchall(
                "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "updated_at = excluded.updated_at",
                (game_id, kind, channel_id, message_id, now),
            )

    async def get_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """The game's message of that kind, or None."""
        rows = await self._fetch(
            "SELECT game_id, kind, channel_id, message_id, updated_at FROM messages "
            "WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return MessageRecord.model_validate(dict(rows[0])) if rows else None
