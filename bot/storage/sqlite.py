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

Where a write runs depends on the disk (:mod:`bot.storage.sqlite_disk`, measured when
the store opens):

* **On a disk** whose fsync takes a fraction of a millisecond, the writes run on
  aiosqlite's thread, so the event loop goes on meanwhile, and **commit in groups**
  (:meth:`SQLiteStorage._write`): the writes queued while a group runs go together in
  the next one, each in a savepoint of its own, so a burst of moves pays one fsync per
  group rather than one per move.
* **On a memory file system** (or a disk whose fsync takes microseconds) and for an
  in-memory database, a write runs on the event loop's thread, ``BEGIN`` to
  ``COMMIT`` in one go: it takes tens of microseconds, less than the trip to a thread
  and back. The connection's busy timeout is zero there: when another connection (a
  maintenance script) holds the write lock, the write waits for it on aiosqlite's
  thread instead, up to the store's busy timeout. SQLite's automatic checkpoint is off,
  and :class:`~bot.storage.sqlite_disk.Checkpointer` runs one on a thread of its own.

Either way a write's transaction runs whole with no await inside it, and a cancelled
caller cannot leave it half done. Reads run on the loop too
(:meth:`SQLiteStorage._fetch`): where the writes run there, on the writing connection
itself, between transactions, since SQLite empties a connection's page cache whenever
another connection committed since its last read, and a click's first read would pay
for it every time; where they run on aiosqlite's thread, on a reading connection of
their own, which never waits for the writer. The few writes that read between their
statements go through aiosqlite's thread statement by statement
(:meth:`SQLiteStorage._transaction`); an :class:`asyncio.Lock` keeps every
transaction out of the others.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from typing import Any, Self, TypeVar

import aiosqlite

from bot.storage.base import (
    UNSET,
    CampaignNotFound,
    Clock,
    ConstraintViolation,
    DeadlineClosed,
    GameNotFound,
    SeatNotFound,
    StaleCampaignVersion,
    StaleGameVersion,
    Unset,
    utc_now,
)
from bot.storage.memo import (
    Held,
    HeldRows,
    memoized_write,
    settings_written,
)
from bot.storage.migrate import migrate
from bot.storage.models import (
    GLOBAL,
    CampaignEntryKind,
    CampaignEntryRecord,
    CampaignMemberRecord,
    CampaignRecord,
    CampaignStatus,
    ContentPackRecord,
    DeadlineChanges,
    DeadlineOpening,
    DeadlineRecord,
    DeadlineSettlement,
    GameRecord,
    GameStatus,
    JSONObject,
    LogEntry,
    MessageRecord,
    MessageRow,
    MoveCommitted,
    RatingRecord,
    SeatClockRecord,
    SeatRecord,
    campaign_status_values,
    canonical_json,
    check_opening,
    status_values,
)
from bot.storage.sql import (
    BATCH,
    CAMPAIGN_COLUMNS,
    CAMPAIGN_TERMINAL,
    CLOCK_COLUMNS,
    DEADLINE_COLUMNS,
    DELETE_MESSAGE,
    ENTRY_COLUMNS,
    GAME_COLUMNS,
    LIVE,
    MEMBER_COLUMNS,
    MESSAGE_COLUMNS,
    PACK_COLUMNS,
    RATING_COLUMNS,
    SEAT_COLUMNS,
    SET_MESSAGE,
    TERMINAL,
    SQLStorage,
    campaign_record,
    clock_record,
    game_record,
    rating_record,
    seat_record,
    swap_writes,
)
from bot.storage.sqlite_disk import INLINE_SECONDS, Checkpointer, durable_write_seconds

__all__ = ["DEFAULT_BUSY_TIMEOUT_MS", "SQLiteStorage"]

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5_000
"""How long a writer waits for another connection's write lock before giving up."""

# Natural order for seat names of one letter and a number: A2 before A10.
_SEAT_ORDER = "length(seat), seat"

Params = Sequence[Any]


# The next wake-up of an open deadline: its next unsent reminder, else its expiry.
_NEXT_AT = (
    "CASE WHEN reminders_sent < json_array_length(reminder_ats) "
    "THEN json_extract(reminder_ats, '$[' || reminders_sent || ']') ELSE expires_at END"
)


def _iso(moment: datetime) -> str:
    """An aware datetime as the store's fixed-width ISO 8601 UTC text (sorts as time)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime, got naive {moment!r}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


_DEADLINE_TIMES = (
    "created_at",
    "due_at",
    "expires_at",
    "next_at",
    "fired_at",
    "done_at",
    "cancelled_at",
    "updated_at",
)


def _message(game_id: int, row: MessageRow, written_at: str) -> MessageRecord:
    """The record of a message row as written at ``written_at`` (as a read returns it)."""
    return MessageRecord.model_validate(
        {
            "game_id": game_id,
            "kind": row.kind,
            "channel_id": row.channel_id,
            "message_id": row.message_id,
            "updated_at": written_at,
            "content": row.content,
        }
    )


def _deadline(row: sqlite3.Row) -> DeadlineRecord:
    # Timestamps are parsed here rather than by pydantic: fromisoformat shares the UTC
    # singleton, pydantic would attach a tzinfo object to each (a scheduler holds 10,000s).
    data = dict(row)
    for name in _DEADLINE_TIMES:
        if data[name] is not None:
            data[name] = datetime.fromisoformat(data[name])
    data["reminder_ats"] = tuple(
        datetime.fromisoformat(t) for t in json.loads(data["reminder_ats"])
    )
    return DeadlineRecord.model_validate(data)


def _shown(guild_id: int) -> str:
    """The clause leaving out of the global board the players who hid themselves
    (``"global_board": false`` in their settings); nothing for a server's board."""
    if guild_id != GLOBAL:
        return ""
    return (
        "AND NOT EXISTS (SELECT 1 FROM user_settings s WHERE s.user_id = r.user_id "
        "AND json_extract(s.settings, '$.global_board') = 0)"
    )


T = TypeVar("T")


def _reader(location: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """The file's reading connection (read only; used on the event loop's thread)."""
    reader = sqlite3.connect(
        location, isolation_level=None, timeout=busy_timeout_ms / 1000, check_same_thread=False
    )
    reader.row_factory = sqlite3.Row
    reader.execute("PRAGMA query_only = ON")
    return reader


def _q(db: sqlite3.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    """One statement on the database's thread, its rows."""
    return db.execute(sql, params).fetchall()


@dataclass(eq=False)
class _Write:
    """A write waiting for its group (:meth:`SQLiteStorage._write`). Its result is a
    concurrent future, settled on the database's thread: a write still pending when
    its caller is cancelled is dropped (``cancel`` succeeds), one already running is
    not (``set_running_or_notify_cancel``)."""

    work: Callable[[sqlite3.Connection], Any]
    result: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


def _in_group(db: sqlite3.Connection, group: Sequence[_Write]) -> None:
    """On the database's thread: each write of ``group`` its caller did not cancel, in a
    savepoint of its own, all between one BEGIN IMMEDIATE and one COMMIT
    (:meth:`SQLiteStorage._write`). A work that raises is rolled back to its savepoint,
    alone; the COMMIT's one fsync makes every other durable, and only then is each
    caller told. If the group itself fails (the commit), every write fails with it."""
    running = [w for w in group if w.result.set_running_or_notify_cancel()]
    if not running:
        return
    outcomes: list[tuple[bool, Any]] = []
    try:
        db.execute("BEGIN IMMEDIATE")
        for write in running:
            db.execute("SAVEPOINT work")
            try:
                outcomes.append((True, write.work(db)))
            except Exception as exc:
                db.execute("ROLLBACK TO work")
                outcomes.append((False, exc))
            db.execute("RELEASE work")
        db.execute("COMMIT")
    except BaseException as exc:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        outcomes = [(False, exc)] * len(running)
    for write, (ok, value) in zip(running, outcomes, strict=True):
        if ok:
            write.result.set_result(value)
        elif isinstance(value, sqlite3.IntegrityError):
            error = ConstraintViolation(str(value))
            error.__cause__ = value
            write.result.set_exception(error)
        else:
            write.result.set_exception(value)


class _Busy(Exception):
    """Another connection holds the database's write lock."""


def _in_transaction(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(db)`` between ``BEGIN IMMEDIATE`` and ``COMMIT``, rolled back whole if
    it raises (a constraint failure as :class:`ConstraintViolation`). The ``BEGIN``
    raises :class:`_Busy` when another connection holds the write lock and the
    connection's busy timeout is zero."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode == sqlite3.SQLITE_BUSY:
            raise _Busy from exc
        raise
    try:
        result = work(db)
        db.execute("COMMIT")
    except BaseException as exc:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.IntegrityError):
            raise ConstraintViolation(str(exc)) from exc
        raise
    return result


def _waiting(
    db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T], busy_timeout_ms: int
) -> T:
    """:func:`_in_transaction` on aiosqlite's thread, waiting up to the busy timeout for
    another connection's write lock (``_Busy`` then means it did not come)."""
    db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    try:
        return _in_transaction(db, work)
    finally:
        db.execute("PRAGMA busy_timeout = 0")


async def _ran(statement: Awaitable[T]) -> T:
    """Await ``statement`` (run on aiosqlite's thread) until it ran, through any
    cancellation, which goes on after: the loop's own statements on the same
    connection must not start while it may still run."""
    task = asyncio.ensure_future(statement)
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait([task])
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return task.result()


GAMES_HELD = 4_096
"""Games (or campaigns) whose messages or followers a store holds at most, the least
recently used going first: a few rows each."""


class HeldMessages(Held[int, dict[str, MessageRecord]]):
    """The remembered messages (rows of ``messages``) of the games recently read, by
    game, then by kind (:class:`~bot.storage.memo.Held`): a move lists its game's DMs
    and prompts with no statement (two reads a move, issue 16)."""

    def written(self, game_id: int, rows: Mapping[str, MessageRecord | None] | None) -> None:
        """A write of the game's messages ended: ``rows`` by kind (None: the kind
        forgotten), or None: unknown, forget the game."""
        held = self._held.get(game_id)
        if held is None or rows is None:
            self.forget(game_id)
            return
        self.writes += 1
        for kind, record in rows.items():
            if record is None:
                held.pop(kind, None)
            else:
                held[kind] = record


class SQLiteStorage(SQLStorage):
    """Tally-Ho's storage in one SQLite database file (or ``:memory:`` for tests).

    Create it with ``await SQLiteStorage.open(path)``, which configures the connection
    and applies migrations; ``await store.close()`` (or ``async with``) when done.
    """

    shared = False
    _seat_order = _SEAT_ORDER
    _deadline_record = staticmethod(_deadline)
    _shown = staticmethod(_shown)

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: str,
        clock: Clock,
        reader: sqlite3.Connection | None = None,
        *,
        inline: bool = False,
        checkpointer: Checkpointer | None = None,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    ) -> None:
        """Wrap an open, configured, migrated connection (and the file's reading
        connection, if any); use :meth:`open` instead. ``inline``: writes run on the
        event loop's thread (the connection's busy timeout is then zero)."""
        self._conn = conn
        self._db: sqlite3.Connection = conn._conn
        """The same connection, used on the event loop's thread."""
        self._reader = reader
        self._inline = inline
        self._checkpointer = checkpointer
        self._busy_timeout_ms = busy_timeout_ms
        self._path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._writes: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None
        self.held_settings = HeldRows()
        """The settings rows read or written, held across clicks: this process makes
        every write (``shared`` is false), so they are the database's (``bot.storage.memo``)."""
        self.held_messages = HeldMessages(GAMES_HELD)
        """The games' remembered messages, held across clicks, for the same reason."""
        self.held_followers: Held[tuple[str, int], tuple[int, ...]] = Held(GAMES_HELD)
        """The followers of the games and campaigns, by table and id, likewise: a move
        tells its game's followers (a read a move)."""

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrations: Traversable | None = None,
        inline: bool | None = None,
    ) -> Self:
        """Open (creating if needed) the database at ``path`` and migrate it.

        ``path`` is a file path or ``":memory:"``. ``clock`` gives the timestamps
        (default: the real UTC time). ``migrations`` replaces the shipped migration
        folder (tests only). ``inline``: whether writes run on the event loop's thread
        (default: for an in-memory database, and a file whose disk makes a durable
        write in under :data:`~bot.storage.sqlite_disk.INLINE_SECONDS`).
        """
        location = os.fspath(path)
        conn = await aiosqlite.connect(
            location,
            isolation_level=None,
            timeout=busy_timeout_ms / 1000,
            check_same_thread=False,  # written on the event loop's thread too
        )
        memory = location in ("", ":memory:")
        checkpointer = None
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute_fetchall(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute_fetchall("PRAGMA foreign_keys = ON")
            wal = False
            if not memory:
                rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
                mode = str(rows[0][0]).lower() if rows else "?"
                wal = mode == "wal"
                if not wal:
                    log.warning("could not enable WAL on %s (journal_mode=%s)", location, mode)
            await conn.execute_fetchall("PRAGMA synchronous = FULL")
            await migrate(conn, migrations)
            if inline is None:
                folder = os.path.dirname(os.path.abspath(location))
                inline = memory or durable_write_seconds(folder) < INLINE_SECONDS
            if inline:
                await conn.execute_fetchall("PRAGMA busy_timeout = 0")  # see _write
                if wal:
                    await conn.execute_fetchall("PRAGMA wal_autocheckpoint = 0")
                    # The log's file shrinks when a writer restarts it after a whole
                    # checkpoint, so that its size is what it holds: the Checkpointer's
                    # measure (SQLite otherwise reuses the file at its largest).
                    await conn.execute_fetchall("PRAGMA journal_size_limit = 0")
                    checkpointer = Checkpointer(location)
            # a reading connection only where writes leave the loop (see _fetch)
            reader = None if memory or inline else _reader(location, busy_timeout_ms)
        except BaseException:
            await conn.close()
            raise
        log.info(
            "SQLite %s: writes on the %s",
            location,
            "event loop's thread" if inline else "database's thread, in groups",
        )
        return cls(
            conn,
            location,
            clock,
            reader,
            inline=inline,
            checkpointer=checkpointer,
            busy_timeout_ms=busy_timeout_ms,
        )

    def trace(self, callback: Callable[[str], None] | None) -> None:
        """Call ``callback`` with the text of every statement the store's connections run
        (its parameters bound in), on whichever thread runs it; None stops. For
        measuring: ``bench/latency.py --statements`` counts a move's statements."""
        self._db.set_trace_callback(callback)
        if self._reader is not None:
            self._reader.set_trace_callback(callback)

    async def close(self) -> None:
        """Close the connections (waits for statements in flight)."""
        async with self._lock:
            await self._conn.close()
            if self._reader is not None:
                self._reader.close()
            if self._checkpointer is not None:
                await self._checkpointer.close()

    async def prefetch(self, game_id: int) -> None:
        """Nothing to read ahead: this process is the file's only writer, so it holds
        the settings rows it read (``held_settings``), and a read of the others is a
        local statement, not a round trip to a server."""

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
        """Run one read statement (its own implicit transaction) and return the rows.

        Reads run at once on the event loop's thread: a read by key takes tens of
        microseconds, less than a trip to another thread and back. Where the writes run
        on aiosqlite's thread, a file's reads use the reading connection, which with WAL
        sees every committed write and never waits for the writer. Where they run on
        the loop (and for an in-memory database), reads use the writing connection
        between transactions: its page cache holds what it wrote, whereas a second
        connection drops its whole cache at its first read after each commit (a read
        by key on ``/dev/shm``, p50: 40 µs on a second connection after a commit, 26 µs
        on the connection that wrote). Such a read waits while a :meth:`_transaction`
        runs (a few rare writes; none on the move path)."""
        if self._reader is not None:
            return self._reader.execute(sql, params).fetchall()
        async with self._lock:
            return self._db.execute(sql, params).fetchall()

    _select = _fetch  # the shared reads are written with SQLite's placeholders

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction whose statements go one by one through aiosqlite's thread
        (the writes that read between them): committed on exit, rolled back on any
        exception (and durable: ``synchronous=FULL``).

        Constraint failures surface as :class:`ConstraintViolation`, not as a
        backend-specific exception.
        """
        async with self._lock:
            conn = self._conn
            try:
                if self._inline:  # the loop's busy timeout is zero
                    await conn.execute_fetchall(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
                await conn.execute_fetchall("BEGIN IMMEDIATE")
                yield conn
                await conn.execute_fetchall("COMMIT")
            except BaseException as exc:
                # Always queue a rollback, never ask ``in_transaction`` first: a
                # cancelled await does not stop its statement on aiosqlite's thread
                # (a BEGIN may still be about to run), and the rollback queued behind
                # it undoes whatever it did. After a COMMIT that ran, or a BEGIN that
                # failed, "no transaction is active" is harmless, and it must not
                # replace the original exception (a cancellation above all).
                with suppress(sqlite3.Error):
                    await conn.execute_fetchall("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise ConstraintViolation(str(exc)) from exc
                raise
            finally:
                if self._reader is None:
                    # The loop's own statements on this connection (inline writes, the
                    # reads where there is no reading connection) must not run beside
                    # these: wait until all of them ran, cancelled or not. (Grouped
                    # writes queue behind them on the same thread.)
                    await _ran(self._conn._execute(self._after_transaction))
        if self._checkpointer is not None:
            self._checkpointer.wrote()

    def _after_transaction(self) -> None:
        """On aiosqlite's thread, after a :meth:`_transaction`: the loop's busy timeout
        back (zero) when writes run there."""
        if self._inline:
            self._db.execute("PRAGMA busy_timeout = 0")

    @staticmethod
    async def _rows(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await conn.execute_fetchall(sql, params))

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(db)`` in a write transaction, run whole with no await inside it,
        durable (``synchronous=FULL``) before the caller is answered: the move path's
        writes. On the event loop's thread or in groups on the database's thread
        (see the module's text): :meth:`_write_inline`, :meth:`_write_grouped`.
        Constraint failures surface as :class:`ConstraintViolation`."""
        if self._inline:
            return await self._write_inline(work)
        return await self._write_grouped(work)

    async def _write_inline(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``BEGIN`` to ``COMMIT`` on the event loop's thread. A caller cancelled while
        it waits for the lock (a :meth:`_transaction` holds it) writes nothing. When
        another connection holds the write lock, the write waits for it on aiosqlite's
        thread (the loop goes on), up to the busy timeout (then sqlite3's "database
        is locked")."""
        async with self._lock:
            try:
                result = _in_transaction(self._db, work)
            except _Busy:
                try:
                    result = await _ran(
                        self._conn._execute(_waiting, self._db, work, self._busy_timeout_ms)
                    )
                except _Busy as busy:
                    raise busy.__cause__ or busy from None
        if self._checkpointer is not None:
            self._checkpointer.wrote()
        return result

    async def _write_grouped(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(db)`` in a write transaction, run whole on the database's thread: one
        trip there and back, however many statements.

        Group commit: the writes queued while a group runs go together in the next
        one, each in its own savepoint (:func:`_in_group`), so a burst of moves pays one
        fsync per group rather than one per move; each caller is answered once its
        group committed (durable, as ``synchronous=FULL`` means) and sees its own error
        only. A cancelled caller cannot leave its write half done: one not started yet
        is dropped, one running commits or rolls back with its group, and the
        cancellation goes on once it did. Constraint failures surface as
        :class:`ConstraintViolation`."""
        write = _Write(work)
        self._writes.append(write)
        idle = self._writer is None or self._writer.done()
        try:
            if idle and not self._lock.locked():
                await self._write_group()  # nothing else writes: no hop through a task
                if write.result.done():  # it ran in that group: no wait for its future
                    return write.result.result()
            elif idle:
                self._writer = asyncio.create_task(self._write_groups(), name="sqlite-group-commit")
            return await asyncio.wrap_future(write.result)
        except asyncio.CancelledError:
            while not write.result.done():  # running: it ends all the same
                with suppress(asyncio.CancelledError):
                    await asyncio.wait([asyncio.wrap_future(write.result)])
            raise

        finally:
            if self._writes and (self._writer is None or self._writer.done()):
                # writes queued behind this caller's own group: a task sends them
                self._writer = asyncio.create_task(self._write_groups(), name="sqlite-group-commit")

    async def _write_group(self) -> None:
        """Send the queued writes to the database's thread as one group (the write
        lock keeps :meth:`_transaction` out meanwhile)."""
        async with self._lock:
            group, self._writes = self._writes, []
            if group:
                await self._conn._execute(_in_group, self._conn._conn, group)

    async def _write_groups(self) -> None:
        """Send the queued writes, a group at a time, until none is left."""
        while self._writes:
            await self._write_group()

    @staticmethod
    def _bump(
        db: sqlite3.Connection,
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
        rows = _q(db, f"UPDATE games SET {sets} WHERE {where} RETURNING {GAME_COLUMNS}", args)
        if rows:
            return rows[0]
        found = _q(db, "SELECT version FROM games WHERE id = ?", (game_id,))
        if not found:
            raise GameNotFound(game_id)
        assert expected_version is not None  # an unguarded UPDATE of a game cannot miss
        raise StaleGameVersion(game_id, expected_version, int(found[0]["version"]))

    # -- guild settings -------------------------------------------------------------

    @memoized_write
    async def _put_json(
        self, table: str, key: str, value: int, settings: JSONObject, *, game: int | None = None
    ) -> dict[str, Any]:
        """Insert or replace a settings row; ``game``: check that game exists first."""
        text = canonical_json(settings)
        now = self._now()

        def work(db: sqlite3.Connection) -> None:
            if game is not None:
                self._game_exists(db, game)
            db.execute(
                f"INSERT INTO {table} ({key}, settings, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (value, text, now),
            )

        await self._write(work)
        return {key: value, "settings": json.loads(text), "updated_at": now}

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
        campaign_id: int | None = None,
        mission: int | None = None,
    ) -> GameRecord:
        """Create a game at version 0 with an empty log and return it (with its id).

        With ``campaign_id`` the game is mission number ``mission`` of that campaign
        (:class:`CampaignNotFound` if there is none; ``ValueError`` for a mission
        number without a campaign).
        """
        if mission is not None and campaign_id is None:
            raise ValueError(f"mission {mission} needs a campaign")
        status_value = GameStatus(status).value
        now = self._now()
        finished_at = now if status_value in TERMINAL else None
        async with self._transaction() as conn:
            if campaign_id is not None:
                await conn._execute(self._campaign_exists, conn._conn, campaign_id)
            rows = await self._rows(
                conn,
                "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id, "
                "host_id, system, ruleset, status, options, seed, version, last_seq, "
                "created_at, updated_at, finished_at, campaign_id, mission) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?) "
                f"RETURNING {GAME_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    lobby_message_id,
                    host_id,
                    system,
                    ruleset,
                    status_value,
                    canonical_json(options or {}),
                    seed,
                    now,
                    now,
                    finished_at,
                    campaign_id,
                    mission,
                ),
            )
        return game_record(rows[0])

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
        end_told: bool | Unset = UNSET,
        start_told: bool | Unset = UNSET,
    ) -> GameRecord:
        """Change the given fields if the game is at ``expected_version``; bump it.

        Moving to finished or aborted also sets ``finished_at`` (once). ``end_told``
        False: the game ends without an action, its thread not told yet (see
        :meth:`mark_posted`); ``start_told`` False: the game starts, its thread not
        told yet. Returns the updated game. Raises
        :class:`StaleGameVersion` (nothing written) or :class:`GameNotFound`;
        ``ValueError`` if no field is given.
        """
        now = self._now()
        sets: list[str] = []
        params: list[Any] = []
        if not isinstance(status, Unset):
            value = GameStatus(status).value
            sets.append("status = ?")
            params.append(value)
            if value in TERMINAL:
                sets.append("finished_at = COALESCE(finished_at, ?)")
                params.append(now)
        if not isinstance(options, Unset):
            sets.append("options = ?")
            params.append(canonical_json(options))
        if not isinstance(thread_id, Unset):
            sets.append("thread_id = ?")
            params.append(thread_id)
        if not isinstance(lobby_message_id, Unset):
            sets.append("lobby_message_id = ?")
            params.append(lobby_message_id)
        if not isinstance(result, Unset):
            sets.append("result = ?")
            params.append(None if result is None else canonical_json(result))
        if not isinstance(end_told, Unset):
            sets.append("end_told = ?")
            params.append(int(end_told))
        if not isinstance(start_told, Unset):
            sets.append("start_told = ?")
            params.append(int(start_told))
        if not sets:
            raise ValueError("update_game() needs at least one field to change")
        row = await self._write(
            lambda db: self._bump(
                db, game_id, expected_version, now, assignments=", ".join(sets), params=params
            )
        )
        return game_record(row)

    async def mark_posted(self, game_id: int, seq: int, *, end: bool = False) -> None:
        """Record that the game's thread was told every action up to ``seq``: raises
        ``posted_seq`` to ``seq``, never lowers it, and leaves the version alone (a
        move racing it never fails on it); with ``end``, its end too (``end_told``).
        The start is told too (``start_told``): a thread is told in order, its start
        first. Raises :class:`GameNotFound`."""

        def work(db: sqlite3.Connection) -> None:
            found = _q(
                db,
                "UPDATE games SET posted_seq = MAX(posted_seq, ?), end_told = MAX(end_told, ?), "
                "start_told = 1 WHERE id = ? RETURNING id",
                (seq, int(end), game_id),
            )
            if not found:
                raise GameNotFound(game_id)

        await self._write(work)

    async def games_of_campaign(self, campaign_id: int) -> list[GameRecord]:
        """The campaign's games (its missions), by mission number, then id."""
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE campaign_id = ? "
            # NULLs last, as PostgreSQL sorts them, so both backends agree.
            "ORDER BY mission IS NULL, mission, id",
            (campaign_id,),
        )
        return [game_record(row) for row in rows]

    # -- seats ----------------------------------------------------------------------

    async def seats_of_user(
        self,
        user_id: int,
        statuses: Iterable[GameStatus | str] | None = None,
    ) -> list[SeatRecord]:
        """Every seat the user holds, in games with one of ``statuses`` (or any);
        ordered by game, then seat."""
        columns = ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))
        sql = f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ?"
        params: list[Any] = [user_id]
        if statuses is not None:
            values = status_values(statuses)
            if not values:
                return []
            sql += f" AND g.status IN ({', '.join('?' * len(values))})"
            params.extend(values)
        sql += " ORDER BY s.game_id, length(s.seat), s.seat"
        return [seat_record(row) for row in await self._fetch(sql, params)]

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
        text = canonical_json(payload or {})
        now = self._now()

        def work(db: sqlite3.Connection) -> int:
            row = self._bump(db, game_id, expected_version, now)
            db.execute(
                f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET side = excluded.side, "
                "user_id = excluded.user_id, display_name = excluded.display_name, "
                "payload = excluded.payload, joined_at = excluded.joined_at",
                (game_id, seat, side, user_id, display_name, text, now),
            )
            return int(row["version"])

        return await self._write(work)

    async def hand_over_seat(
        self,
        game_id: int,
        expected_version: int,
        seat: SeatRecord,
        settings: JSONObject,
        marker: str,
    ) -> int:
        """A seat handed over, whole, in one transaction (see ``Storage.hand_over_seat``)."""
        payload = canonical_json(seat.payload)
        text = canonical_json(settings)
        now = self._now()

        def work(db: sqlite3.Connection) -> int:
            row = self._append(db, game_id, expected_version, None, marker, None, now)
            db.execute(
                "UPDATE seats SET user_id = ?, display_name = ?, payload = ?, joined_at = ? "
                "WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.display_name, payload, now, game_id, seat.seat),
            )
            db.execute(
                "INSERT INTO game_settings (game_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (game_id, text, now),
            )
            return int(row["version"])

        try:
            version = await self._write(work)
        except BaseException:
            settings_written(self, "game_settings", game_id, None)
            raise
        row_settings = {"game_id": game_id, "settings": json.loads(text), "updated_at": now}
        settings_written(self, "game_settings", game_id, row_settings)
        return version

    async def remove_seat(
        self, game_id: int, seat: str, *, expected_version: int | None = None
    ) -> int:
        """Remove a seat (:class:`SeatNotFound` if absent); bump and return the version."""
        now = self._now()

        def work(db: sqlite3.Connection) -> int:
            row = self._bump(db, game_id, expected_version, now)
            deleted = _q(
                db,
                "DELETE FROM seats WHERE game_id = ? AND seat = ? RETURNING seat",
                (game_id, seat),
            )
            if not deleted:
                raise SeatNotFound(game_id, seat)
            return int(row["version"])

        return await self._write(work)

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
        state = None if snapshot is None else canonical_json(snapshot)
        now = self._now()
        row = await self._write(
            lambda db: self._append(db, game_id, expected_version, seat, action, state, now)
        )
        return int(row["version"])

    def _append(
        self,
        db: sqlite3.Connection,
        game_id: int,
        expected_version: int,
        seat: str | None,
        action: str,
        state: str | None,
        now: str,
    ) -> sqlite3.Row:
        """Inside a transaction: bump the game's version and sequence, append the action
        (and a snapshot, if given); returns the game's row after the bump."""
        row = self._bump(db, game_id, expected_version, now, next_seq=True)
        seq = int(row["last_seq"])
        db.execute(
            "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, seat, action, now),
        )
        if state is not None:
            db.execute(
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?)",
                (game_id, seq, state, now),
            )
        return row

    async def put_snapshot(self, game_id: int, seq: int, state: JSONObject) -> None:
        """Store (or replace) the state after action ``seq`` (0 = initial state).

        Snapshots are a cache and do not bump the version. ``ValueError`` if ``seq``
        is beyond the log.
        """
        text = canonical_json(state)
        now = self._now()

        def work(db: sqlite3.Connection) -> None:  # one write, as a move's (_write)
            found = _q(db, "SELECT last_seq FROM games WHERE id = ?", (game_id,))
            if not found:
                raise GameNotFound(game_id)
            last_seq = int(found[0]["last_seq"])
            if not 0 <= seq <= last_seq:
                raise ValueError(
                    f"game {game_id}: no snapshot at seq {seq}, the log has {last_seq} actions"
                )
            _q(
                db,
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seq) DO UPDATE SET "
                "state = excluded.state, created_at = excluded.created_at",
                (game_id, seq, text, now),
            )

        await self._write(work)

    # -- messages -------------------------------------------------------------------

    async def set_message(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        content: str | None = None,
    ) -> None:
        """Remember the game's message of that kind (replacing the previous one), with
        what it shows (the game's existence is its foreign key's to check)."""
        now = self._now()
        row = MessageRow(kind, channel_id, message_id, content)

        def work(db: sqlite3.Connection) -> None:
            try:
                db.execute(SET_MESSAGE, (game_id, kind, channel_id, message_id, now, content))
            except sqlite3.IntegrityError as exc:
                if exc.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
                    raise GameNotFound(game_id) from exc
                raise

        await self._messages_written(game_id, work, lambda _: {kind: _message(game_id, row, now)})

    async def swap_messages(
        self,
        game_id: int,
        claim: Mapping[str, MessageRow | None],
        remember: Sequence[MessageRow] = (),
    ) -> list[MessageRecord]:
        """Forget the claimed messages, write their replacements and the new rows, in
        one transaction (``Storage.swap_messages``)."""
        if not claim and not remember:
            return []
        now = self._now()
        Swapped = tuple[list[MessageRecord], list[MessageRow]]

        def work(db: sqlite3.Connection) -> Swapped:
            claimed: list[MessageRecord] = []
            for kind in claim:
                rows = _q(db, DELETE_MESSAGE, (game_id, kind))
                claimed += [MessageRecord.model_validate(dict(row)) for row in rows]
            forgotten = {record.kind for record in claimed}
            writes = swap_writes(claim, remember)
            written = [row for old, row in writes if old is None or old in forgotten]
            try:
                for row in written:
                    values = (row.kind, row.channel_id, row.message_id, now, row.content)
                    db.execute(SET_MESSAGE, (game_id, *values))
            except sqlite3.IntegrityError as exc:
                if exc.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
                    raise GameNotFound(game_id) from exc
                raise
            return sorted(claimed, key=lambda record: record.kind), written

        def rows(done: Swapped) -> dict[str, MessageRecord | None]:
            claimed, written = done
            changes: dict[str, MessageRecord | None] = {r.kind: None for r in claimed}
            return changes | {row.kind: _message(game_id, row, now) for row in written}

        claimed, _ = await self._messages_written(game_id, work, rows)
        return claimed

    async def list_messages(
        self, game_id: int, prefix: str | tuple[str, ...] = ""
    ) -> list[MessageRecord]:
        """The game's remembered messages whose kind starts with ``prefix`` (or one of
        several), by kind: all the game's rows read once, then held
        (:class:`HeldMessages`)."""
        prefixes = (prefix,) if isinstance(prefix, str) else prefix
        if not prefixes:
            return []
        held = self.held_messages.get(game_id)
        if held is None:
            writes = self.held_messages.writes
            rows = await self._fetch(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE game_id = ?", (game_id,)
            )
            held = {row["kind"]: MessageRecord.model_validate(dict(row)) for row in rows}
            self.held_messages.keep(game_id, held, writes)
        return [held[kind] for kind in sorted(held) if kind.startswith(prefixes)]

    async def delete_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """Forget the game's message of that kind and return it (None if there was none)."""

        def work(db: sqlite3.Connection) -> MessageRecord | None:
            rows = _q(db, DELETE_MESSAGE, (game_id, kind))
            return MessageRecord.model_validate(dict(rows[0])) if rows else None

        return await self._messages_written(game_id, work, lambda _: {kind: None})

    async def _messages_written(
        self,
        game_id: int,
        work: Callable[[sqlite3.Connection], T],
        rows: Callable[[T], Mapping[str, MessageRecord | None]],
    ) -> T:
        """Run a write of the game's messages (:meth:`_write`), then bring the rows
        held for the game up to date (``rows``: what it wrote, by kind), or forget
        them if it failed (:class:`HeldMessages`)."""
        try:
            done = await self._write(work)
        except BaseException:
            self.held_messages.written(game_id, None)
            raise
        self.held_messages.written(game_id, rows(done))
        return done

    # -- play-by-post settings --------------------------------------------------------

    @staticmethod
    def _game_exists(db: sqlite3.Connection, game_id: int) -> None:
        """Raise :class:`GameNotFound` unless the game exists (inside a transaction)."""
        if not _q(db, "SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise GameNotFound(game_id)

    # -- spectators -------------------------------------------------------------------

    async def _follow(
        self,
        follows: tuple[str, str],
        item_id: int,
        user_id: int,
        exists: Callable[[sqlite3.Connection, int], None],
    ) -> bool:
        """A follow of a game or a campaign (``follows``: its table and key column, one
        of the constants); ``exists`` raises when there is no such item."""
        table, key = follows
        now = self._now()

        def work(db: sqlite3.Connection) -> bool:
            exists(db, item_id)
            return bool(
                _q(
                    db,
                    f"INSERT INTO {table} ({key}, user_id, created_at) VALUES (?, ?, ?) "
                    f"ON CONFLICT ({key}, user_id) DO NOTHING RETURNING user_id",
                    (item_id, user_id, now),
                )
            )

        try:
            return await self._write(work)
        finally:
            self.held_followers.forget((table, item_id))

    async def _unfollow(self, follows: tuple[str, str], item_id: int, user_id: int) -> bool:
        table, key = follows
        try:
            async with self._transaction() as conn:
                rows = await self._rows(
                    conn,
                    f"DELETE FROM {table} WHERE {key} = ? AND user_id = ? RETURNING user_id",
                    (item_id, user_id),
                )
        finally:
            self.held_followers.forget((table, item_id))
        return bool(rows)

    async def _followers(self, follows: tuple[str, str], item_id: int) -> list[int]:
        """The followers, read once, then held (:class:`~bot.storage.memo.Held`)."""
        key = (follows[0], item_id)
        held = self.held_followers.get(key)
        if held is None:
            writes = self.held_followers.writes
            held = tuple(await super()._followers(follows, item_id))
            self.held_followers.keep(key, held, writes)
        return list(held)

    # -- seat clocks --------------------------------------------------------------------

    async def init_seat_clock(
        self, game_id: int, seat: str, *, time_bank_seconds: int
    ) -> SeatClockRecord:
        """Create the seat's counters with a full time bank if absent; return them
        (an existing row is left alone, so calling it at every decision is harmless)."""
        if time_bank_seconds < 0:
            raise ValueError(f"a time bank cannot be negative ({time_bank_seconds})")
        now = self._now()

        def work(db: sqlite3.Connection) -> list[sqlite3.Row]:
            self._game_exists(db, game_id)
            self._init_clock(db, game_id, seat, time_bank_seconds, now)
            return _q(
                db,
                f"SELECT {CLOCK_COLUMNS} FROM seat_clocks WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )

        return clock_record((await self._write(work))[0])

    @staticmethod
    def _init_clock(db: sqlite3.Connection, game_id: int, seat: str, bank: int, now: str) -> None:
        db.execute(
            "INSERT INTO seat_clocks (game_id, seat, time_bank_seconds, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, seat) DO NOTHING",
            (game_id, seat, int(bank), now),
        )

    async def set_vacation(
        self, game_id: int, seat: str, start: datetime | None, until: datetime | None
    ) -> SeatClockRecord:
        """Set (or with two Nones, end) the seat's vacation; return the counters."""
        if (start is None) != (until is None):
            raise ValueError("a vacation needs both a start and an end (or neither)")
        if start is not None and until is not None and until <= start:
            raise ValueError(f"a vacation must end after it starts ({start} .. {until})")
        begin = None if start is None else _iso(start)
        end = None if until is None else _iso(until)
        now = self._now()

        def work(db: sqlite3.Connection) -> list[sqlite3.Row]:
            self._game_exists(db, game_id)
            return _q(
                db,
                "INSERT INTO seat_clocks (game_id, seat, vacation_from, vacation_until, "
                "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                "vacation_from = excluded.vacation_from, "
                "vacation_until = excluded.vacation_until, updated_at = excluded.updated_at "
                f"RETURNING {CLOCK_COLUMNS}",
                (game_id, seat, begin, end, now),
            )

        return clock_record((await self._write(work))[0])

    async def reset_missed(self, game_id: int, seat: str) -> bool:
        """The seat acted: its missed-in-a-row count goes back to 0. True if it was not 0."""
        now = self._now()
        return await self._write(lambda db: self._reset_missed(db, game_id, seat, now))

    @staticmethod
    def _reset_missed(db: sqlite3.Connection, game_id: int, seat: str, now: str) -> bool:
        rows = _q(
            db,
            "UPDATE seat_clocks SET missed_in_a_row = 0, updated_at = ? "
            "WHERE game_id = ? AND seat = ? AND missed_in_a_row != 0 RETURNING seat",
            (now, game_id, seat),
        )
        return bool(rows)

    # -- deadlines ----------------------------------------------------------------------

    async def open_deadline(
        self,
        *,
        game_id: int,
        seat: str,
        kind: str,
        decision_key: str,
        user_id: int | None,
        created_at: datetime,
        duration_seconds: int,
        bank_seconds: int,
        due_at: datetime,
        expires_at: datetime,
        reminder_ats: Sequence[datetime],
    ) -> tuple[DeadlineRecord, bool]:
        """Store the deadline of a new pending decision; return it and whether it is new.

        (game, seat, decision key) is unique: if that decision already has a deadline
        (in any state), nothing is written and the stored one is returned, so opening
        again after a restart never resets its reminders.
        """
        opening = DeadlineOpening(
            seat=seat,
            kind=kind,
            decision_key=decision_key,
            user_id=user_id,
            created_at=created_at,
            duration_seconds=duration_seconds,
            bank_seconds=bank_seconds,
            due_at=due_at,
            expires_at=expires_at,
            reminder_ats=tuple(reminder_ats),
            seat_bank_seconds=0,
        )
        check_opening(opening)
        now = self._now()

        def work(db: sqlite3.Connection) -> tuple[DeadlineRecord, bool]:
            self._game_exists(db, game_id)
            return self._open(db, game_id, opening, now)

        return await self._write(work)

    @staticmethod
    def _open(
        db: sqlite3.Connection, game_id: int, d: DeadlineOpening, now: str
    ) -> tuple[DeadlineRecord, bool]:
        ats = [_iso(t) for t in d.reminder_ats]
        params = (
            game_id,
            d.seat,
            d.kind,
            d.decision_key,
            d.user_id,
            _iso(d.created_at),
            int(d.duration_seconds),
            int(d.bank_seconds),
            _iso(d.due_at),
            _iso(d.expires_at),
            json.dumps(ats, separators=(",", ":")),
            ats[0] if ats else _iso(d.expires_at),
            now,
        )
        rows = _q(
            db,
            "INSERT INTO deadlines (game_id, seat, kind, decision_key, user_id, created_at, "
            "duration_seconds, bank_seconds, due_at, expires_at, reminder_ats, "
            "reminders_sent, next_at, attempts, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?) "
            "ON CONFLICT (game_id, seat, decision_key) DO NOTHING "
            f"RETURNING {DEADLINE_COLUMNS}",
            params,
        )
        if rows:
            return _deadline(rows[0]), True
        rows = _q(
            db,
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines "
            "WHERE game_id = ? AND seat = ? AND decision_key = ?",
            (game_id, d.seat, d.decision_key),
        )
        return _deadline(rows[0]), False

    async def get_deadlines(self, deadline_ids: Sequence[int]) -> list[DeadlineRecord]:
        """The deadlines of these ids that exist, in any state, by id: what another
        process may have changed since a scheduler read them."""
        ids = sorted(set(deadline_ids))
        found: list[DeadlineRecord] = []
        for start in range(0, len(ids), BATCH):
            chunk = ids[start : start + BATCH]
            marks = ", ".join("?" * len(chunk))
            rows = await self._fetch(
                f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE id IN ({marks}) ORDER BY id",
                chunk,
            )
            found.extend(_deadline(row) for row in rows)
        return found

    async def live_deadlines(self, game_id: int | None = None) -> list[DeadlineRecord]:
        """Open and claimed deadlines (of one game, or all), by ``next_at``; what a
        start-up reloads."""
        where: str = LIVE
        params: tuple[Any, ...] = ()
        if game_id is not None:
            where, params = f"game_id = ? AND {LIVE}", (game_id,)
        rows = await self._fetch(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE {where} ORDER BY next_at, id",
            params,
        )
        return [_deadline(row) for row in rows]

    async def due_deadlines(self, now: datetime, limit: int | None = None) -> list[DeadlineRecord]:
        """Live deadlines with ``next_at <= now``, by ``next_at``."""
        sql = (
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE next_at <= ? AND {LIVE} "
            "ORDER BY next_at, id"
        )
        params: list[Any] = [_iso(now)]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [_deadline(row) for row in await self._fetch(sql, params)]

    async def reschedule_deadline(
        self,
        deadline_id: int,
        *,
        due_at: datetime,
        expires_at: datetime,
        reminder_ats: Sequence[datetime],
    ) -> DeadlineRecord | None:
        """New times for an open (unclaimed) deadline, e.g. after a vacation; the count
        of reminders sent is kept (capped by the new number). None if not open."""
        ats = [_iso(t) for t in reminder_ats]
        if ats != sorted(ats):
            raise ValueError("reminder times must be in order")
        if expires_at < due_at:
            raise ValueError("a deadline cannot expire before it is due")
        now = self._now()
        async with self._transaction() as conn:
            updated = await self._rows(
                conn,
                "UPDATE deadlines SET due_at = ?, expires_at = ?, reminder_ats = ?, "
                "reminders_sent = min(reminders_sent, ?), updated_at = ? "
                f"WHERE id = ? AND fired_at IS NULL AND {LIVE} RETURNING id",
                (
                    _iso(due_at),
                    _iso(expires_at),
                    json.dumps(ats, separators=(",", ":")),
                    len(ats),
                    now,
                    deadline_id,
                ),
            )
            if not updated:
                return None
            rows = await self._rows(
                conn,
                f"UPDATE deadlines SET next_at = {_NEXT_AT} WHERE id = ? "
                f"RETURNING {DEADLINE_COLUMNS}",
                (deadline_id,),
            )
        return _deadline(rows[0])

    async def mark_reminders_sent(
        self, marks: Sequence[tuple[int, int, int]], now: datetime
    ) -> list[DeadlineRecord]:
        """For each ``(deadline id, expected sent, new sent)``: record the reminders as
        sent if the deadline is open and still at ``expected sent`` (compare-and-set,
        so two processes or a restart never send one twice). Returns the deadlines
        updated, in the order given."""
        stamp = _iso(now)
        done: list[DeadlineRecord] = []
        for start in range(0, len(marks), BATCH):
            async with self._transaction() as conn:
                for deadline_id, expected, new in marks[start : start + BATCH]:
                    if new <= expected:
                        raise ValueError(f"deadline {deadline_id}: {new} reminders <= {expected}")
                    rows = await self._rows(
                        conn,
                        # ?1 new count, ?2 now, ?3 id, ?4 expected count
                        "UPDATE deadlines SET reminders_sent = ?1, updated_at = ?2, "
                        "next_at = CASE WHEN ?1 < json_array_length(reminder_ats) "
                        "THEN json_extract(reminder_ats, '$[' || ?1 || ']') "
                        "ELSE expires_at END "
                        "WHERE id = ?3 AND reminders_sent = ?4 "
                        "AND ?1 <= json_array_length(reminder_ats) "
                        f"AND fired_at IS NULL AND {LIVE} RETURNING {DEADLINE_COLUMNS}",
                        (new, stamp, deadline_id, expected),
                    )
                    done.extend(_deadline(row) for row in rows)
        return done

    async def claim_deadlines(
        self, claims: Sequence[tuple[int, int]], now: datetime, retry_at: datetime
    ) -> list[tuple[DeadlineRecord, SeatClockRecord]]:
        """For each ``(deadline id, expected attempts)``: claim the live deadline for
        its default action if its attempts are still ``expected`` (compare-and-set):
        set ``fired_at`` (first claim), count one more attempt, move ``next_at`` to
        ``retry_at``. The first claim also counts a missed deadline for the seat and
        spends the bank the deadline held. Returns the claimed deadlines with the seat's
        counters after the claim."""
        stamp, retry = _iso(now), _iso(retry_at)
        claimed: list[tuple[DeadlineRecord, SeatClockRecord]] = []
        for start in range(0, len(claims), BATCH):
            async with self._transaction() as conn:
                for deadline_id, expected in claims[start : start + BATCH]:
                    rows = await self._rows(
                        conn,
                        "UPDATE deadlines SET fired_at = coalesce(fired_at, ?), "
                        "attempts = attempts + 1, next_at = ?, updated_at = ? "
                        f"WHERE id = ? AND attempts = ? AND {LIVE} "
                        f"RETURNING {DEADLINE_COLUMNS}",
                        (stamp, retry, stamp, deadline_id, expected),
                    )
                    if not rows:
                        continue
                    deadline = _deadline(rows[0])
                    if deadline.attempts == 1:  # the first claim: the deadline was missed
                        clock = await self._rows(
                            conn,
                            "INSERT INTO seat_clocks (game_id, seat, missed_in_a_row, "
                            "missed_total, updated_at) VALUES (?, ?, 1, 1, ?) "
                            "ON CONFLICT (game_id, seat) DO UPDATE SET "
                            "missed_in_a_row = missed_in_a_row + 1, "
                            "missed_total = missed_total + 1, "
                            "time_bank_seconds = max(0, time_bank_seconds - ?), "
                            f"updated_at = excluded.updated_at RETURNING {CLOCK_COLUMNS}",
                            (deadline.game_id, deadline.seat, stamp, deadline.bank_seconds),
                        )
                    else:
                        clock = await self._rows(
                            conn,
                            f"SELECT {CLOCK_COLUMNS} FROM seat_clocks "
                            "WHERE game_id = ? AND seat = ?",
                            (deadline.game_id, deadline.seat),
                        )
                    record = (
                        clock_record(clock[0])
                        if clock
                        else SeatClockRecord(game_id=deadline.game_id, seat=deadline.seat)
                    )
                    claimed.append((deadline, record))
        return claimed

    async def complete_deadlines(self, deadline_ids: Sequence[int], now: datetime) -> int:
        """Mark claimed deadlines done; return how many were still claimed."""
        stamp = _iso(now)
        count = 0
        ids = list(deadline_ids)
        for start in range(0, len(ids), BATCH):
            chunk = ids[start : start + BATCH]
            async with self._transaction() as conn:
                rows = await self._rows(
                    conn,
                    "UPDATE deadlines SET done_at = ?, updated_at = ? "
                    f"WHERE id IN ({', '.join('?' * len(chunk))}) "
                    f"AND fired_at IS NOT NULL AND {LIVE} RETURNING id",
                    (stamp, stamp, *chunk),
                )
                count += len(rows)
        return count

    async def settle_deadline(
        self,
        deadline_id: int,
        now: datetime,
        *,
        acted: bool,
        bank_used_seconds: int = 0,
    ) -> DeadlineRecord | None:
        """Close a deadline whose decision was taken (``acted``) or vanished.

        Cancels it if still open (not claimed). If ``acted``, the seat's missed-in-a-row
        count goes back to 0 and ``bank_used_seconds`` leave its time bank, whether or
        not the deadline was still open. Returns the deadline if it was cancelled.
        """
        if bank_used_seconds < 0:
            raise ValueError(f"cannot use a negative bank ({bank_used_seconds})")
        settlement = DeadlineSettlement(deadline_id, acted, bank_used_seconds)
        stamp = _iso(now)
        rows = await self._write(lambda db: self._settle(db, settlement, stamp))
        return _deadline(rows[0]) if rows else None

    @staticmethod
    def _settle(
        db: sqlite3.Connection, s: DeadlineSettlement, stamp: str, game_id: int | None = None
    ) -> list[sqlite3.Row]:
        """Settle one deadline (``game_id``: only if it is that game's, as a move
        settles its own game's: ``tallyho_commit_move`` says the same)."""
        mine, params = ("", ()) if game_id is None else (" AND game_id = ?", (game_id,))
        rows = _q(
            db,
            "UPDATE deadlines SET cancelled_at = ?, updated_at = ? "
            f"WHERE id = ?{mine} AND fired_at IS NULL AND {LIVE} RETURNING {DEADLINE_COLUMNS}",
            (stamp, stamp, s.deadline_id, *params),
        )
        if s.acted:
            db.execute(
                "UPDATE seat_clocks SET missed_in_a_row = 0, "
                "time_bank_seconds = max(0, time_bank_seconds - ?), updated_at = ? "
                "WHERE (game_id, seat) = "
                f"(SELECT game_id, seat FROM deadlines WHERE id = ?{mine})",
                (int(s.bank_used_seconds), stamp, s.deadline_id, *params),
            )
        return rows

    async def cancel_game_deadlines(self, game_id: int, now: datetime) -> list[int]:
        """Cancel every live deadline of the game (it ended); return their ids."""
        stamp = _iso(now)
        return await self._write(lambda db: self._cancel_live(db, game_id, stamp))

    @staticmethod
    def _cancel_live(db: sqlite3.Connection, game_id: int, stamp: str) -> list[int]:
        rows = _q(
            db,
            "UPDATE deadlines SET cancelled_at = ?, updated_at = ? "
            f"WHERE game_id = ? AND {LIVE} RETURNING id",
            (stamp, stamp, game_id),
        )
        return sorted(int(row["id"]) for row in rows)

    async def append_deadline_action(
        self,
        deadline_id: int,
        expected_version: int,
        action: str,
        *,
        snapshot: JSONObject | None = None,
    ) -> int:
        """Apply a deadline's default action: like ``append_action`` for the deadline's
        seat, and mark the deadline done, in one transaction.

        Raises :class:`DeadlineClosed` unless the deadline is claimed (then nothing is
        written): together with the claim this applies a default action at most once
        even if the bot crashes and retries. Raises :class:`StaleGameVersion` too.
        """
        now = self._now()
        state = None if snapshot is None else canonical_json(snapshot)

        def work(db: sqlite3.Connection) -> int:
            game_id, seat = self._close_claimed(db, deadline_id, now)
            row = self._append(db, game_id, expected_version, seat, action, state, now)
            return int(row["version"])

        return await self._write(work)

    @staticmethod
    def _close_claimed(db: sqlite3.Connection, deadline_id: int, now: str) -> tuple[int, str]:
        """Mark a claimed deadline done (its default action is being written); its game
        and seat. :class:`DeadlineClosed` if it is not claimed, or done, or cancelled."""
        found = _q(
            db,
            "SELECT game_id, seat, fired_at, done_at, cancelled_at FROM deadlines WHERE id = ?",
            (deadline_id,),
        )
        if not found:
            raise DeadlineClosed(deadline_id, "does not exist")
        d = found[0]
        if d["done_at"] is not None:
            raise DeadlineClosed(deadline_id, "is already done")
        if d["cancelled_at"] is not None:
            raise DeadlineClosed(deadline_id, "was cancelled")
        if d["fired_at"] is None:
            raise DeadlineClosed(deadline_id, "is not claimed")
        db.execute(
            "UPDATE deadlines SET done_at = ?, updated_at = ? WHERE id = ?",
            (now, now, deadline_id),
        )
        return int(d["game_id"]), str(d["seat"])

    async def commit_move(
        self,
        game_id: int,
        expected_version: int,
        entries: Sequence[LogEntry],
        *,
        deadline_id: int | None = None,
        deadlines: DeadlineChanges | None = None,
        result: JSONObject | None = None,
        replan: bool = False,
    ) -> MoveCommitted:
        """One move of a game, whole, in one transaction (see ``Storage.commit_move``).
        ``replan`` changes nothing: no other process writes what the move was planned
        on."""
        if not entries:
            raise ValueError("commit_move() needs at least one action")
        changes = deadlines or DeadlineChanges()
        for opening in changes.open:
            check_opening(opening)
        now = self._now()
        stamp = _iso(changes.at) if changes.at is not None else now

        def work(db: sqlite3.Connection) -> MoveCommitted:
            version = expected_version
            if deadline_id is not None:
                owner, _ = self._close_claimed(db, deadline_id, now)
                if owner != game_id:
                    raise DeadlineClosed(deadline_id, f"is not a deadline of game {game_id}")
            for entry in entries:
                state = None if entry.snapshot is None else canonical_json(entry.snapshot)
                row = self._append(db, game_id, version, entry.seat, entry.action, state, now)
                version = int(row["version"])
            closed = [x.deadline_id for x in changes.settle if self._settle(db, x, stamp, game_id)]
            if changes.cancel_all:
                closed.extend(self._cancel_live(db, game_id, stamp))
            for seat in changes.reset_missed:
                self._reset_missed(db, game_id, seat, now)
            opened = []
            for opening in changes.open:
                if opening.seat_bank_seconds is not None:  # the seat's first decision
                    self._init_clock(db, game_id, opening.seat, opening.seat_bank_seconds, now)
                opened.append(self._open(db, game_id, opening, now)[0])
            if result is not None:
                row = self._bump(
                    db,
                    game_id,
                    version,
                    now,
                    assignments="status = ?, finished_at = COALESCE(finished_at, ?), result = ?",
                    params=(GameStatus.FINISHED.value, now, canonical_json(result)),
                )
            return MoveCommitted(game_record(row), tuple(opened), tuple(closed))

        return await self._write(work)

    # -- campaigns ----------------------------------------------------------------------

    @staticmethod
    def _campaign_exists(db: sqlite3.Connection, campaign_id: int) -> None:
        """Raise :class:`CampaignNotFound` unless the campaign exists (in a transaction)."""
        if not _q(db, "SELECT 1 FROM campaigns WHERE id = ?", (campaign_id,)):
            raise CampaignNotFound(campaign_id)

    async def _bump_campaign(
        self,
        conn: aiosqlite.Connection,
        campaign_id: int,
        now: str,
        *,
        expected_version: int | None = None,
        expected_seq: int | None = None,
        assignments: str = "",
        params: Params = (),
        next_seq: bool = False,
    ) -> sqlite3.Row:
        """Bump the campaign's version (guarded by ``expected_version`` and
        ``expected_seq`` if given), and its ``last_seq`` if ``next_seq``.

        Returns the updated campaign row. Raises :class:`StaleCampaignVersion` or
        :class:`CampaignNotFound`; the caller's transaction then rolls back.
        """
        sets = "version = version + 1, updated_at = ?"
        if next_seq:
            sets += ", last_seq = last_seq + 1"
        if assignments:
            sets += ", " + assignments
        where = "id = ?"
        args: list[Any] = [now, *params, campaign_id]
        if expected_version is not None:
            where += " AND version = ?"
            args.append(expected_version)
        if expected_seq is not None:
            where += " AND last_seq = ?"
            args.append(expected_seq)
        rows = await self._rows(
            conn,
            f"UPDATE campaigns SET {sets} WHERE {where} RETURNING {CAMPAIGN_COLUMNS}",
            args,
        )
        if rows:
            return rows[0]
        found = await self._rows(
            conn, "SELECT version, last_seq FROM campaigns WHERE id = ?", (campaign_id,)
        )
        if not found:
            raise CampaignNotFound(campaign_id)
        if expected_version is not None and int(found[0]["version"]) != expected_version:
            raise StaleCampaignVersion(campaign_id, expected_version, int(found[0]["version"]))
        assert expected_seq is not None  # an unguarded UPDATE of a campaign cannot miss
        raise StaleCampaignVersion(campaign_id, expected_seq, int(found[0]["last_seq"]), of="seq")

    async def create_campaign(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        system: str,
        campaign: str,
        setup: JSONObject,
        seed: int,
        status: CampaignStatus = CampaignStatus.RECRUITING,
    ) -> CampaignRecord:
        """Create a campaign at version 0 with an empty log and return it (with its id)."""
        status_value = CampaignStatus(status).value
        now = self._now()
        finished_at = now if status_value in CAMPAIGN_TERMINAL else None
        async with self._transaction() as conn:
            rows = await self._rows(
                conn,
                "INSERT INTO campaigns (guild_id, channel_id, host_id, system, campaign, "
                "status, setup, seed, version, last_seq, created_at, updated_at, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?) "
                f"RETURNING {CAMPAIGN_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    system,
                    campaign,
                    status_value,
                    canonical_json(setup),
                    seed,
                    now,
                    now,
                    finished_at,
                ),
            )
        return campaign_record(rows[0])

    async def update_campaign(
        self,
        campaign_id: int,
        *,
        expected_version: int | None = None,
        status: CampaignStatus | str | Unset = UNSET,
        thread_id: int | Unset | None = UNSET,
        channel_id: int | Unset = UNSET,
        result: JSONObject | Unset | None = UNSET,
        finished_at: datetime | Unset | None = UNSET,
        told_seq: int | Unset = UNSET,
    ) -> CampaignRecord:
        """Change the given fields (if the campaign is at ``expected_version``, when
        given); bump the version.

        Moving to finished or abandoned also sets ``finished_at`` (once) unless it is
        given. Returns the updated campaign. Raises :class:`StaleCampaignVersion`
        (nothing written) or :class:`CampaignNotFound`; ``ValueError`` if no field is
        given.
        """
        now = self._now()
        sets: list[str] = []
        params: list[Any] = []
        if not isinstance(status, Unset):
            value = CampaignStatus(status).value
            sets.append("status = ?")
            params.append(value)
            if value in CAMPAIGN_TERMINAL and isinstance(finished_at, Unset):
                sets.append("finished_at = COALESCE(finished_at, ?)")
                params.append(now)
        if not isinstance(finished_at, Unset):
            sets.append("finished_at = ?")
            params.append(None if finished_at is None else _iso(finished_at))
        if not isinstance(thread_id, Unset):
            sets.append("thread_id = ?")
            params.append(thread_id)
        if not isinstance(channel_id, Unset):
            sets.append("channel_id = ?")
            params.append(channel_id)
        if not isinstance(result, Unset):
            sets.append("result = ?")
            params.append(None if result is None else canonical_json(result))
        if not isinstance(told_seq, Unset):
            sets.append("told_seq = MAX(told_seq, ?)")  # never back
            params.append(told_seq)
        if not sets:
            raise ValueError("update_campaign() needs at least one field to change")
        async with self._transaction() as conn:
            row = await self._bump_campaign(
                conn,
                campaign_id,
                now,
                expected_version=expected_version,
                assignments=", ".join(sets),
                params=params,
            )
        return campaign_record(row)

    async def append_campaign_entry(
        self,
        campaign_id: int,
        *,
        kind: CampaignEntryKind | str,
        entry: str,
        side: str | None = None,
        game_id: int | None = None,
        user_id: int | None = None,
        expected_seq: int | None = None,
    ) -> CampaignEntryRecord:
        """Append one entry to the campaign's log and return it.

        In one transaction: insert the entry at ``seq = last_seq + 1`` and bump the
        campaign's ``last_seq`` and version. With ``expected_seq``, only if the log
        still ends at that seq, so two processes cannot both append the decision or
        outcome of one step. An outcome's ``entry`` must be JSON text; ``game_id``
        must name a game of this campaign (:class:`ConstraintViolation`). Raises
        :class:`StaleCampaignVersion` (``of="seq"``, nothing written) or
        :class:`CampaignNotFound`.
        """
        kind_value = CampaignEntryKind(kind).value
        now = self._now()
        async with self._transaction() as conn:
            row = await self._bump_campaign(
                conn, campaign_id, now, expected_seq=expected_seq, next_seq=True
            )
            rows = await self._rows(
                conn,
                f"INSERT INTO campaign_log ({ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                f"RETURNING {ENTRY_COLUMNS}",
                (campaign_id, int(row["last_seq"]), kind_value, side, entry, game_id, user_id, now),
            )
        return CampaignEntryRecord.model_validate(dict(rows[0]))

    async def put_campaign_member(
        self, campaign_id: int, user_id: int, *, side: str, display_name: str
    ) -> CampaignMemberRecord:
        """Add the user to the campaign, or change their side and name (they keep their
        place in the join order); bump the campaign's version (:class:`CampaignNotFound`)."""
        now = self._now()
        async with self._transaction() as conn:
            await self._bump_campaign(conn, campaign_id, now)
            rows = await self._rows(
                conn,
                f"INSERT INTO campaign_members ({MEMBER_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (campaign_id, user_id) DO UPDATE SET side = excluded.side, "
                f"display_name = excluded.display_name RETURNING {MEMBER_COLUMNS}",
                (campaign_id, user_id, side, display_name, now),
            )
        return CampaignMemberRecord.model_validate(dict(rows[0]))

    async def remove_campaign_member(self, campaign_id: int, user_id: int) -> bool:
        """Remove the user from the campaign (bumping its version); False if they were
        not a member."""
        now = self._now()
        async with self._transaction() as conn:
            deleted = await self._rows(
                conn,
                "DELETE FROM campaign_members WHERE campaign_id = ? AND user_id = ? "
                "RETURNING user_id",
                (campaign_id, user_id),
            )
            if deleted:
                await self._bump_campaign(conn, campaign_id, now)
        return bool(deleted)

    async def replace_campaign_member(
        self, campaign_id: int, leaving: int, coming: int, *, display_name: str
    ) -> CampaignMemberRecord | None:
        """``coming`` takes ``leaving``'s place (side and place in the join order), in
        one transaction, bumping the campaign's version; None (nothing written) if
        ``leaving`` is not a member or ``coming`` is one already."""
        now = self._now()
        async with self._transaction() as conn:
            rows = await self._rows(
                conn,
                f"SELECT {MEMBER_COLUMNS} FROM campaign_members "
                "WHERE campaign_id = ? AND user_id IN (?, ?)",
                (campaign_id, leaving, coming),
            )
            found = {int(r["user_id"]): r for r in rows}
            if leaving not in found or coming in found:
                return None
            old = found[leaving]
            await self._bump_campaign(conn, campaign_id, now)
            await self._rows(
                conn,
                "DELETE FROM campaign_members WHERE campaign_id = ? AND user_id = ? "
                "RETURNING user_id",
                (campaign_id, leaving),
            )
            added = await self._rows(
                conn,
                f"INSERT INTO campaign_members ({MEMBER_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                f"RETURNING {MEMBER_COLUMNS}",
                (campaign_id, coming, old["side"], display_name, old["joined_at"]),
            )
        return CampaignMemberRecord.model_validate(dict(added[0]))

    async def campaigns_of_user(
        self, user_id: int, statuses: Sequence[CampaignStatus] | None = None
    ) -> list[CampaignRecord]:
        """The campaigns the user is a member of, with one of ``statuses`` (or any);
        newest first."""
        columns = ", ".join(f"c.{c.strip()}" for c in CAMPAIGN_COLUMNS.split(","))
        sql = (
            f"SELECT {columns} FROM campaigns c "
            "JOIN campaign_members m ON m.campaign_id = c.id WHERE m.user_id = ?"
        )
        params: list[Any] = [user_id]
        if statuses is not None:
            values = campaign_status_values(statuses)
            if not values:
                return []
            sql += f" AND c.status IN ({', '.join('?' * len(values))})"
            params.extend(values)
        sql += " ORDER BY c.id DESC"
        return [campaign_record(row) for row in await self._fetch(sql, params)]

    # -- content packs ------------------------------------------------------------------

    async def add_content_pack(
        self,
        guild_id: int,
        *,
        name: str,
        file: str,
        digest: str,
        document: str,
        uploaded_by: int,
    ) -> ContentPackRecord:
        """Store a new version of the server's pack ``name`` (version 1, or one more
        than its latest) and mark the live version of that name removed, in one
        transaction."""
        now = self._now()

        def work(db: sqlite3.Connection) -> sqlite3.Row:
            (latest,) = _q(
                db,
                "SELECT COALESCE(MAX(version), 0) FROM content_packs "
                "WHERE guild_id = ? AND name = ?",
                (guild_id, name),
            )
            db.execute(
                "UPDATE content_packs SET removed_at = ? "
                "WHERE guild_id = ? AND name = ? AND removed_at IS NULL",
                (now, guild_id, name),
            )
            (row,) = _q(
                db,
                "INSERT INTO content_packs (guild_id, name, version, file, digest, document, "
                f"uploaded_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING {PACK_COLUMNS}",
                (guild_id, name, latest[0] + 1, file, digest, document, uploaded_by, now),
            )
            return row

        return ContentPackRecord.model_validate(dict(await self._write(work)))

    async def content_packs_by_id(self, ids: Sequence[int]) -> list[ContentPackRecord]:
        """The pack versions with these ids, live or removed (what a game was created
        with), in the order of ``ids``; an unknown id is left out."""
        if not ids:
            return []
        rows = await self._fetch(
            f"SELECT {PACK_COLUMNS} FROM content_packs WHERE id IN ({', '.join('?' * len(ids))})",
            list(ids),
        )
        found = {int(row["id"]): ContentPackRecord.model_validate(dict(row)) for row in rows}
        return [found[i] for i in ids if i in found]

    async def remove_content_pack(self, guild_id: int, name: str) -> ContentPackRecord | None:
        """Mark the server's live pack ``name`` removed (its rows stay, for the games
        that used it) and return it; None if the server has no live pack of that name."""
        now = self._now()

        def work(db: sqlite3.Connection) -> list[sqlite3.Row]:
            return _q(
                db,
                "UPDATE content_packs SET removed_at = ? "
                f"WHERE guild_id = ? AND name = ? AND removed_at IS NULL RETURNING {PACK_COLUMNS}",
                (now, guild_id, name),
            )

        rows = await self._write(work)
        return ContentPackRecord.model_validate(dict(rows[0])) if rows else None

    # -- ratings ------------------------------------------------------------------------

    async def get_ratings(self, system: str, keys: Sequence[tuple[int, int]]) -> list[RatingRecord]:
        """The stored ratings in ``system`` of these ``(guild_id, user_id)`` (those
        that exist), in no particular order."""
        found: list[RatingRecord] = []
        for guild_id, user_id in keys:
            rows = await self._fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings "
                "WHERE system = ? AND guild_id = ? AND user_id = ?",
                (system, guild_id, user_id),
            )
            found.extend(rating_record(row) for row in rows)
        return found

    async def rate_game(
        self, expected_version: int, game_id: int, ratings: Sequence[RatingRecord]
    ) -> bool:
        """Take one finished game into the ledger (at its next seq) with the ratings it
        changed, in one transaction, if the ratings are still at ``expected_version``
        (then bumped); False (nothing written) otherwise."""
        now = self._now()

        def work(db: sqlite3.Connection) -> bool:
            if not self._bump_ratings(db, expected_version):
                return False
            _q(
                db,
                "INSERT INTO rated_games (seq, game_id, created_at) "
                "SELECT coalesce(max(seq), 0) + 1, ?, ? FROM rated_games",
                (game_id, now),
            )
            self._put_ratings(db, ratings, now)
            return True

        return await self._write(work)

    async def replace_ratings(self, expected_version: int, ratings: Sequence[RatingRecord]) -> bool:
        """Replace every stored rating by ``ratings`` (a recomputation), in one
        transaction, if the ratings are still at ``expected_version`` (then bumped);
        False (nothing written) otherwise."""
        now = self._now()

        def work(db: sqlite3.Connection) -> bool:
            if not self._bump_ratings(db, expected_version):
                return False
            _q(db, "DELETE FROM ratings")
            self._put_ratings(db, ratings, now)
            return True

        return await self._write(work)

    @staticmethod
    def _bump_ratings(db: sqlite3.Connection, expected_version: int) -> bool:
        """Bump the ratings' version if it is ``expected_version`` (compare-and-set; the
        row is created by the first write, from version 0)."""
        return bool(
            _q(
                db,
                "INSERT INTO ratings_cursor (id, version) VALUES (1, 1) "
                "ON CONFLICT (id) DO UPDATE SET version = version + 1 "
                "WHERE ratings_cursor.version = ? RETURNING version",
                (expected_version,),
            )
        )

    @staticmethod
    def _put_ratings(db: sqlite3.Connection, ratings: Sequence[RatingRecord], now: str) -> None:
        db.executemany(
            f"INSERT OR REPLACE INTO ratings ({RATING_COLUMNS}, score, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    *(r.system, r.guild_id, r.user_id, r.mu, r.sigma),
                    *(r.games, r.wins, r.losses, r.score, now),
                )
                for r in ratings
            ],
        )

    async def ratings_of_user(self, user_id: int) -> list[RatingRecord]:
        """The player's ratings, by system, then scope (:data:`GLOBAL` first)."""
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? ORDER BY system, guild_id",
            (user_id,),
        )
        return [rating_record(row) for row in rows]
