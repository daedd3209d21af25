"""The PostgreSQL implementation of :class:`bot.storage.base.Storage` (asyncpg).

Several bot processes (shards) may share one PostgreSQL database. Nothing here relies
on an in-process lock: every write is one transaction on a pooled connection, and
the database serialises what must be serialised.

* Writes to a game bump ``games.version`` with ``UPDATE ... WHERE id = $1 AND
  version = $2 RETURNING``: under READ COMMITTED a second writer waits for the first
  one's row lock, then re-checks the version and finds it gone
  (:class:`StaleGameVersion`). An action is appended in the transaction that bumps the
  version and ``last_seq``, so two processes never write the same seq.
* Deadlines are claimed, and reminders marked, with the same compare-and-set
  (``UPDATE ... WHERE id = $1 AND attempts = $2 RETURNING``): one claimer wins.
* The action log and the campaign log are append-only, enforced by triggers that
  refuse UPDATE, DELETE and TRUNCATE.

The SQL and the records are those of :class:`bot.storage.sqlite.SQLiteStorage`, with
the same exceptions, orders and UTC timestamps (the column lists, and the operations
that are the same on both, are written once in :mod:`bot.storage.sql`);
``tests/storage`` runs one suite on both. JSON columns are JSONB, sent and read as JSON text (as SQLite stores it);
text is ordered byte-wise (``COLLATE "C"``), as SQLite does, whatever the database's
locale.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from typing import Any, NoReturn, Self, TypeAlias, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.recent import Recent
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
    StalePlan,
    Unset,
    utc_now,
)
from bot.storage.memo import (
    Frozen,
    freeze,
    held_ahead,
    in_a_memo,
    memoized_write,
    read_ahead,
    remember_read,
    settings_written,
    thaw,
    writing,
)
from bot.storage.migrate_postgres import migrate
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
    settings_row,
    swap_writes,
)

__all__ = ["DEFAULT_POOL_SIZE", "PostgresStorage", "is_postgres_url"]

DEFAULT_POOL_SIZE = 4
"""Connections a store's pool may hold at most (``TALLYHO_DATABASE_POOL``). More is not
faster where the server shares the bot's CPUs (the usual ``compose.yaml`` on one small
machine): each connection is a server process, and a burst of clicks then ran on as
many of them at once, which took the CPUs from the event loop, the bottleneck.
``bench/latency.py`` with its server on the same 2 CPUs, 300 games open, 92 clicks at
once: p99 115-145 ms with 3 connections, 160 ms with 5, 204-224 ms with 10 and 443 ms
with 40, while the moves a second (a click on every game at once) were the same, 241-268;
with 1,000 games open, 94 clicks at once: 142 ms with 4, 210 ms with 10, 246 moves a
second with either. A server on a machine of its own may want more: each connection has one statement in
flight at a time."""


async def _session_kept(conn: asyncpg.Connection) -> None:
    """What a connection needs before it goes back to the pool: nothing more than
    asyncpg's own clean-up, which rolls back a transaction left open (a cancelled
    caller). asyncpg's default also runs ``RESET ALL``, ``UNLISTEN *``, ``CLOSE ALL``
    and ``pg_advisory_unlock_all()``: a round trip to the server after every statement
    outside a transaction, a third of a move's. The store changes nothing of a session
    that would outlive its transaction: no ``SET``, ``LISTEN`` or cursor, and only
    transaction-scoped advisory locks (``pg_advisory_xact_lock``)."""


_INIT_CLOCK = (
    "INSERT INTO seat_clocks (game_id, seat, time_bank_seconds, updated_at) "
    "VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, seat) DO NOTHING"
)
"""A seat's clock created with a full bank unless it has one (game, seat, bank, now)."""


_COMMIT_MOVE = (
    "SELECT game, opened, closed, live, clocks, ahead FROM tallyho_commit_planned("
    "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
)
"""A move, whole, in one call (``PostgresStorage.commit_move``, migration 0015); no row:
the game was not at the version expected. Planned on the rows a click read ahead,
given their stamp first: written only if they are unchanged, and returned with the
game's live deadlines and seat clocks after it and their new stamp."""
_PLAN_CHANGED = "TH002"
"""The SQLSTATE ``tallyho_commit_planned`` raises when the rows a move was planned on
changed since they were read."""
GAMES_AHEAD = 4_096
"""Games whose read-ahead a store keeps from one click to the next (the least recently
clicked going first): a few rows each."""
_OPENING_FIELDS = dataclasses.fields(DeadlineOpening)
"""The fields of a deadline opened by a move, by name, as the function reads them
(read shallowly: ``dataclasses.asdict`` deep-copies every datetime, about a twentieth
of the loop's work for a move: ``bench/latency.py``'s CPU p50 1.38 -> 1.31 ms)."""
_DEADLINE_CLOSED = "TH001"
"""The SQLSTATE ``tallyho_commit_planned`` raises when a default's deadline is not claimed
(or is done, cancelled, another game's); its message says which."""


_GAME_AHEAD = f"""
SELECT g.guild_id,
    (SELECT s FROM game_settings AS s WHERE s.game_id = g.id) AS game_settings,
    (SELECT s FROM guild_settings AS s WHERE s.guild_id = g.guild_id) AS guild_settings,
    ARRAY(SELECT DISTINCT t.user_id FROM seats AS t
          WHERE t.game_id = g.id AND t.user_id IS NOT NULL) AS players,
    ARRAY(SELECT u FROM user_settings AS u
          WHERE u.user_id IN (SELECT t.user_id FROM seats AS t WHERE t.game_id = g.id))
        AS user_settings,
    ARRAY(SELECT d FROM deadlines AS d WHERE d.game_id = g.id AND {LIVE}
          ORDER BY d.next_at, d.id) AS deadlines,
    ARRAY(SELECT c FROM seat_clocks AS c WHERE c.game_id = g.id) AS clocks,
    tallyho_ahead_stamp(g.id) AS stamp
FROM games AS g WHERE g.id = $1
"""
"""What a click on a game reads, in one statement (``_read_game_ahead``): each row of a
table whole (a composite value), as the single reads select it, and their stamp (the
transactions that wrote them: migration 0015)."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Ahead:
    """What a click read ahead of a game (:data:`_GAME_AHEAD`), decoded, kept for the
    game's next click (``PostgresStorage._ahead``): the move it plans on them commits
    only if their ``stamp`` is still theirs (``tallyho_commit_planned``)."""

    guild_id: int
    game: Frozen | None
    guild: dict[str, Any] | None
    players: tuple[int, ...]
    users: dict[int, dict[str, Any]]
    deadlines: tuple[DeadlineRecord, ...]
    clocks: dict[str, SeatClockRecord]
    stamp: tuple[int, ...]

    @classmethod
    def of(cls, row: Row) -> _Ahead:
        return cls(
            guild_id=row["guild_id"],
            game=freeze(_settings(row, "game_settings", "game_id")),
            guild=_settings(row, "guild_settings", "guild_id"),
            players=tuple(row["players"]),
            users={int(u["user_id"]): settings_row(u, "user_id") for u in row["user_settings"]},
            deadlines=_live(row["deadlines"]),
            clocks=_clocks(row["clocks"]),
            stamp=tuple(row["stamp"]),
        )

    def held(self, game_id: int) -> dict[str, Any] | None:
        """Hand the rows to the click (``bot.storage.memo``) and return the game's
        settings row (the caller's own copy)."""
        remember_read("guild_settings", self.guild_id, self.guild)
        for user_id in self.players:
            remember_read("user_settings", user_id, self.users.get(user_id))
        read_ahead("deadlines", game_id, self.deadlines)
        read_ahead("seat_clocks", game_id, self.clocks)
        read_ahead("ahead", game_id, self)  # what the click's move is planned on
        return thaw(self.game)


def _unwritten(stamp: tuple[int, ...]) -> tuple[int, ...]:
    """The part of a stamp (``tallyho_ahead_stamp``) a move never writes: its settings
    rows and seats (tags 1-4; 5 and 6 are the deadlines and seat clocks)."""
    return tuple(x for x in stamp if x % 8 <= 4)


def _live(rows: Sequence[Row]) -> tuple[DeadlineRecord, ...]:
    """Deadline rows read whole (composite values) as records."""
    return tuple(_deadline(_known(d, DEADLINE_COLUMNS)) for d in rows)


def _clocks(rows: Sequence[Row]) -> dict[str, SeatClockRecord]:
    """Seat clock rows read whole (composite values) as records, by seat."""
    return {c["seat"]: clock_record(_known(c, CLOCK_COLUMNS)) for c in rows}


def _known(row: Any, columns: str) -> dict[str, Any]:
    """A row read whole (a composite value) with only the ``columns`` this version of
    the bot knows: a process still running while a newer one migrated the database
    (a column added) reads the rows as before."""
    return {name: row[name] for name in columns.split(", ")}


def _settings(row: Row, column: str, key: str) -> dict[str, Any] | None:
    """The settings row in ``column`` of a read-ahead row (None: none stored)."""
    return None if row[column] is None else settings_row(row[column], key)


# Natural order for seat names of one letter and a number: A2 before A10 (byte-wise).
_SEAT_ORDER = 'length(seat), seat COLLATE "C"'
# The next wake-up of an open deadline: its next unsent reminder, else its expiry.
_NEXT_AT = (
    "CASE WHEN reminders_sent < cardinality(reminder_ats) "
    "THEN reminder_ats[reminders_sent + 1] ELSE expires_at END"
)
_DEADLOCK_TRIES = 5
"""How often a batch of deadline writes is tried when PostgreSQL breaks a deadlock."""

_CONSTRAINT_KINDS: tuple[tuple[type[asyncpg.PostgresError], str], ...] = (
    (asyncpg.UniqueViolationError, "UNIQUE"),
    (asyncpg.CheckViolationError, "CHECK"),
    (asyncpg.ForeignKeyViolationError, "FOREIGN KEY"),
    (asyncpg.NotNullViolationError, "NOT NULL"),
)
"""The constraint named in a :class:`ConstraintViolation`'s message, as SQLite words it."""

Item = TypeVar("Item", bound=tuple[int, ...])
Result = TypeVar("Result")
Conn: TypeAlias = "asyncpg.Connection[asyncpg.Record]"
Row: TypeAlias = asyncpg.Record


@contextmanager
def _constraints() -> Iterator[None]:
    """Constraint failures as :class:`ConstraintViolation`, not as asyncpg's own."""
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as exc:
        kind = next((k for t, k in _CONSTRAINT_KINDS if isinstance(exc, t)), "")
        raise ConstraintViolation(f"{kind} constraint failed: {exc}".strip()) from exc


def is_postgres_url(location: str) -> bool:
    """True for a ``postgresql://`` or ``postgres://`` connection URL."""
    return location.startswith(("postgresql://", "postgres://"))


def _without_password(url: str) -> str:
    """The URL with its password masked, for logs and reprs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _utc(moment: datetime) -> datetime:
    """An aware datetime in UTC (ValueError for a naive one)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime, got naive {moment!r}")
    return moment.astimezone(UTC)


def _deadline(row: Row) -> DeadlineRecord:
    data = dict(row)
    data["reminder_ats"] = tuple(data["reminder_ats"])
    return DeadlineRecord.model_validate(data)


@functools.lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL's ``$1``, ``$2``...
    (only for the shared reads, none of which has a ``?`` of its own)."""
    parts = sql.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], 1)) + parts[-1]


def _shown(guild_id: int) -> str:
    """The clause leaving out of the global board the players who hid themselves
    (``"global_board": false`` in their settings); nothing for a server's board."""
    if guild_id != GLOBAL:
        return ""
    return (
        "AND NOT EXISTS (SELECT 1 FROM user_settings s WHERE s.user_id = r.user_id "
        "AND s.settings -> 'global_board' = 'false'::jsonb)"
    )


def _assignments(items: Sequence[tuple[str, Any]], first: int) -> tuple[str, list[Any]]:
    """``column = $n`` items (each a template with one ``{}`` for its placeholder),
    numbered from ``$first``, and their parameters."""
    sets = [template.format(f"${first + i}") for i, (template, _) in enumerate(items)]
    return ", ".join(sets), [value for _, value in items]


def _bump_statement(
    table: str,
    columns: str,
    row_id: int,
    now: datetime,
    items: Sequence[tuple[str, Any]],
    next_seq: bool,
    guards: Sequence[tuple[str, int | None]],
) -> tuple[str, list[Any]]:
    """The ``UPDATE`` that bumps a row's version (a game's, a campaign's), its
    ``last_seq`` too if ``next_seq``, with the extra ``items``, only where each
    ``(column, value)`` of ``guards`` with a value holds; it returns ``columns``."""
    extra, params = _assignments(items, 3)
    sets = "version = version + 1, updated_at = $2"
    if next_seq:
        sets += ", last_seq = last_seq + 1"
    if extra:
        sets += ", " + extra
    args: list[Any] = [row_id, now, *params]
    where = "id = $1"
    for column, value in guards:
        if value is not None:
            args.append(value)
            where += f" AND {column} = ${len(args)}"
    return f"UPDATE {table} SET {sets} WHERE {where} RETURNING {columns}", args


class PostgresStorage(SQLStorage):
    """Tally-Ho's storage in a PostgreSQL database, through an asyncpg pool.

    Create it with ``await PostgresStorage.open(url)``, which creates the pool and
    applies migrations; ``await store.close()`` (or ``async with``) when done.
    """

    shared = True
    _seat_order = _SEAT_ORDER
    _deadline_record = staticmethod(_deadline)
    _shown = staticmethod(_shown)

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Clock) -> None:
        """Wrap an open pool on a migrated database; use :meth:`open` instead."""
        self._pool = pool
        self._url = url
        self._clock = clock
        self.held_settings = None  # other processes write: a row is read once per click
        self._ahead: Recent[int, _Ahead] = Recent(GAMES_AHEAD)
        """What the last click of each game read ahead, as its move left it: the next
        click plans on it, and its move commits only if it still holds."""
        self._prefetching: dict[int, object] = {}
        """The games whose rows :meth:`prefetch` is reading, each read's token: a write
        or a keep of the game meanwhile takes it away, and the read is not kept."""

    def _wrote_ahead(self, *game_ids: int) -> None:
        """This process just wrote rows a click on these games reads ahead (their seats,
        deadlines or seat clocks, outside a move): the next click reads them again,
        rather than plan its move on the rows held, have its commit refused
        (``StalePlan``: the stamp moved) and plan it again. A game's start opens its
        first deadlines this way, so its first move would always pay that twice (and
        pays the read, unless the game's change read them again: :meth:`prefetch`)."""
        for game_id in game_ids:
            self._drop_ahead(game_id)

    def _drop_ahead(self, game_id: int | None) -> None:
        """Forget what is kept for the game's next click (None: every game's), and any
        read of it under way (:meth:`prefetch`): rows read before a write are never
        kept after it."""
        if game_id is None:
            self._ahead.clear()
            self._prefetching.clear()
        else:
            self._ahead.pop(game_id)
            self._prefetching.pop(game_id, None)

    def _keep_ahead(self, game_id: int, ahead: _Ahead) -> None:
        """Keep ``ahead`` for the game's next click; a read under way is older."""
        self._prefetching.pop(game_id, None)
        self._ahead.put(game_id, ahead)

    async def prefetch(self, game_id: int) -> None:
        """Read now what the game's next click reads before its move (:data:`_GAME_AHEAD`),
        unless it is kept already, so that click does not wait for the read: once a
        change of the game dropped it (a start opening the first deadlines, a deadline's
        default, a reminder sent, a seat taken), the next click paid a round trip, and
        a move's reply about half a millisecond more (``bench/latency.py``). A hint:
        a write of the game while the read runs (this process's) drops it, and another
        process's write is caught by the next move's stamp (``StalePlan``)."""
        if game_id in self._ahead or game_id in self._prefetching:
            return
        token = object()
        self._prefetching[game_id] = token
        try:
            rows = await self._fetch(_GAME_AHEAD, game_id)
        except asyncpg.OutdatedSchemaCacheError:  # another process migrated meanwhile
            rows = []  # the click reads them, once asyncpg knows the new row types
        finally:
            current = self._prefetching.get(game_id) is token
            if current:
                del self._prefetching[game_id]
        if rows and current:
            self._ahead.put(game_id, _Ahead.of(rows[0]))

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Clock = utc_now,
        pool_size: int = DEFAULT_POOL_SIZE,
        migrations: Traversable | None = None,
    ) -> Self:
        """Connect to the database at ``url`` (``postgresql://user@host/db``) and
        migrate it.

        ``clock`` gives the timestamps (default: the real UTC time). ``migrations``
        replaces the shipped migration folder (tests only).
        """
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            reset=_session_kept,
            # Connections are kept for the process's life, not retired after 50,000
            # queries or 5 idle minutes (asyncpg's defaults): the game cache freezes what
            # the process holds (bot.games.keep_out_of_collections), a connection with
            # it, and a closed asyncio transport is a reference cycle, which a freeze
            # keeps for good (bench/latency.py counted them, 5 objects a connection).
            max_queries=math.inf,
            max_inactive_connection_lifetime=0,
        )
        try:
            async with pool.acquire() as conn:
                await migrate(conn, migrations)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, clock)

    async def close(self) -> None:
        """Close the pool (waits for the connections in use to be released)."""
        await self._pool.close()

    @property
    def url(self) -> str:
        """The connection URL given to :meth:`open`."""
        return self._url

    def __repr__(self) -> str:
        return f"<PostgresStorage {_without_password(self._url)!r}>"

    # -- plumbing -------------------------------------------------------------------

    def _now(self) -> datetime:
        """The clock's time in UTC."""
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the storage clock must return timezone-aware datetimes")
        return now.astimezone(UTC)

    async def _fetch(self, sql: str, *params: Any) -> list[Row]:
        """Run one read statement on a pooled connection and return the rows."""
        async with self._pool.acquire() as conn:
            return list(await conn.fetch(sql, *params))

    async def _select(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """:meth:`_fetch` for a read written with SQLite's ``?`` placeholders (the reads
        both stores share, ``bot.storage.sql``)."""
        return await self._fetch(_numbered(sql), *params)

    @asynccontextmanager
    async def _one_statement(self) -> AsyncIterator[Conn]:
        """A pooled connection for one write statement, which PostgreSQL runs as a
        transaction of its own: one round trip, where ``BEGIN`` and ``COMMIT`` would add
        two (the writes that follow every move). Constraint failures surface as
        :class:`ConstraintViolation`, as in :meth:`_transaction`."""
        writing()
        async with self._pool.acquire() as conn:
            with _constraints():
                yield conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Conn]:
        """A write transaction on a pooled connection: committed on exit, rolled back
        on any exception (a cancellation too: asyncpg rolls back and resets the
        connection before the pool hands it out again).

        Constraint failures surface as :class:`ConstraintViolation`, not as a
        backend-specific exception.
        """
        writing()
        async with self._pool.acquire() as conn:
            with _constraints():
                async with conn.transaction():
                    yield conn

    async def _bump(
        self,
        conn: Conn,
        game_id: int,
        expected_version: int | None,
        now: datetime,
        *,
        items: Sequence[tuple[str, Any]] = (),
        next_seq: bool = False,
    ) -> Row:
        """Bump the game's version (guarded by ``expected_version`` if given).

        ``items`` are extra ``(column = {} template, value)`` assignments. Returns the
        updated game row. Raises :class:`StaleGameVersion` or :class:`GameNotFound`;
        the caller's transaction then rolls back.
        """
        sql, args = _bump_statement(
            "games", GAME_COLUMNS, game_id, now, items, next_seq, [("version", expected_version)]
        )
        return await self._bumped(conn, game_id, expected_version, sql, args)

    async def _bumped(
        self, conn: Conn, game_id: int, expected_version: int | None, sql: str, args: list[Any]
    ) -> Row:
        """Run a statement that bumps the game (:meth:`_bump`'s, alone or with more) and
        return the row it returns; raise as :meth:`_bump` does when it bumps nothing."""
        row = await conn.fetchrow(sql, *args)
        if row is not None:
            return row
        await self._refused(conn, game_id, expected_version)

    @staticmethod
    async def _refused(conn: Conn, game_id: int, expected_version: int | None) -> NoReturn:
        """A write of the game (guarded by ``expected_version`` if given) wrote nothing:
        raise :class:`GameNotFound` or :class:`StaleGameVersion`, whichever holds."""
        version = await conn.fetchval("SELECT version FROM games WHERE id = $1", game_id)
        if version is None:
            raise GameNotFound(game_id)
        assert expected_version is not None  # an unguarded UPDATE of a game cannot miss
        raise StaleGameVersion(game_id, expected_version, int(version))

    async def _game_exists(self, conn: Conn, game_id: int) -> None:
        """Raise :class:`GameNotFound` unless the game exists (inside a transaction)."""
        if await conn.fetchval("SELECT 1 FROM games WHERE id = $1", game_id) is None:
            raise GameNotFound(game_id)

    async def _campaign_exists(self, conn: Conn, campaign_id: int) -> None:
        """Raise :class:`CampaignNotFound` unless the campaign exists (in a transaction)."""
        if await conn.fetchval("SELECT 1 FROM campaigns WHERE id = $1", campaign_id) is None:
            raise CampaignNotFound(campaign_id)

    # -- guild, user and game settings -------------------------------------------------

    async def _read_json(self, table: str, key: str, value: int) -> dict[str, Any] | None:
        """A settings row; in a click, a game's comes with the rows the click goes on to
        read (:meth:`_read_game_ahead`)."""
        if table == "game_settings" and in_a_memo():
            return await self._read_game_ahead(value)
        return await super()._read_json(table, key, value)

    async def _read_game_ahead(self, game_id: int) -> dict[str, Any] | None:
        """The game's settings row, and in the same statement what a move goes on to
        read, held for the click (``bot.storage.memo``): the server's settings and its
        players', the game's live deadlines (:meth:`live_deadlines`, for the move's
        plan) and its seat clocks (:meth:`get_seat_clock`, a new deadline's bank). One
        round trip where there were up to five, each about a tenth of a millisecond.

        None at all when the game's last click in this process left them
        (:attr:`_ahead`): its move wrote them and read them back. Another process may
        have written one since; the move planned on them then commits only if none
        changed (``commit_move`` with ``replan``), and is planned again otherwise."""
        ahead = self._ahead.get(game_id)
        if ahead is None:
            try:
                rows = await self._fetch(_GAME_AHEAD, game_id)
            except asyncpg.OutdatedSchemaCacheError:  # another process migrated meanwhile
                return await super()._read_json("game_settings", "game_id", game_id)
            if not rows:  # no such game: nothing to hold
                return None
            ahead = _Ahead.of(rows[0])
            self._keep_ahead(game_id, ahead)
        return ahead.held(game_id)

    @memoized_write
    async def _put_json(
        self, table: str, key: str, value: int, settings: JSONObject, *, game: int | None = None
    ) -> dict[str, Any]:
        """Insert or replace a settings row; ``game``: check that game exists first."""
        text = canonical_json(settings)
        now = self._now()
        # What the game's next click reads is read again (a server's or a player's
        # settings: any game's), and again after the write: a read that ran meanwhile
        # saw the rows before it.
        dropped = value if table == "game_settings" else None
        self._drop_ahead(dropped)
        async with self._transaction() as conn:
            if game is not None:
                await self._game_exists(conn, game)
            await conn.execute(
                f"INSERT INTO {table} ({key}, settings, updated_at) VALUES ($1, $2, $3) "
                f"ON CONFLICT ({key}) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                value,
                text,
                now,
            )
        self._drop_ahead(dropped)
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
                await self._campaign_exists(conn, campaign_id)
            row = await conn.fetchrow(
                "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id, "
                "host_id, system, ruleset, status, options, seed, version, last_seq, "
                "created_at, updated_at, finished_at, campaign_id, mission) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, 0, $11, $11, $12, $13, $14) "
                f"RETURNING {GAME_COLUMNS}",
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
                finished_at,
                campaign_id,
                mission,
            )
        return game_record(row)

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
        items: list[tuple[str, Any]] = []
        if not isinstance(status, Unset):
            value = GameStatus(status).value
            items.append(("status = {}", value))
            if value in TERMINAL:
                items.append(("finished_at = COALESCE(finished_at, {})", now))
        if not isinstance(options, Unset):
            items.append(("options = {}::jsonb", canonical_json(options)))
        if not isinstance(thread_id, Unset):
            items.append(("thread_id = {}", thread_id))
        if not isinstance(lobby_message_id, Unset):
            items.append(("lobby_message_id = {}", lobby_message_id))
        if not isinstance(result, Unset):
            items.append(("result = {}::jsonb", None if result is None else canonical_json(result)))
        if not isinstance(end_told, Unset):
            items.append(("end_told = {}", int(end_told)))
        if not isinstance(start_told, Unset):
            items.append(("start_told = {}", int(start_told)))
        if not items:
            raise ValueError("update_game() needs at least one field to change")
        async with self._transaction() as conn:
            row = await self._bump(conn, game_id, expected_version, now, items=items)
        return game_record(row)

    async def mark_posted(self, game_id: int, seq: int, *, end: bool = False) -> None:
        """Record that the game's thread was told every action up to ``seq``: raises
        ``posted_seq`` to ``seq``, never lowers it, and leaves the version alone (a
        move racing it never fails on it); with ``end``, its end too (``end_told``).
        The start is told too (``start_told``): a thread is told in order, its start
        first. Raises :class:`GameNotFound`."""
        async with self._one_statement() as conn:
            found = await conn.fetchval(
                "UPDATE games SET posted_seq = GREATEST(posted_seq, $1), "
                "end_told = GREATEST(end_told, $2), start_told = 1 WHERE id = $3 RETURNING id",
                seq,
                int(end),
                game_id,
            )
        if found is None:
            raise GameNotFound(game_id)

    async def games_of_campaign(self, campaign_id: int) -> list[GameRecord]:
        """The campaign's games (its missions), by mission number, then id."""
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE campaign_id = $1 "
            "ORDER BY mission IS NULL, mission, id",
            campaign_id,
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
        sql = f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = $1"
        params: list[Any] = [user_id]
        if statuses is not None:
            values = status_values(statuses)
            if not values:
                return []
            sql += " AND g.status = ANY($2::text[])"
            params.append(values)
        sql += ' ORDER BY s.game_id, length(s.seat), s.seat COLLATE "C"'
        return [seat_record(row) for row in await self._fetch(sql, *params)]

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
        async with self._transaction() as conn:
            row = await self._bump(conn, game_id, expected_version, now)
            await conn.execute(
                f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET side = excluded.side, "
                "user_id = excluded.user_id, display_name = excluded.display_name, "
                "payload = excluded.payload, joined_at = excluded.joined_at",
                game_id,
                seat,
                side,
                user_id,
                display_name,
                text,
                now,
            )
        self._wrote_ahead(game_id)
        return int(row["version"])

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
        async with self._transaction() as conn:
            row = await self._append(conn, game_id, expected_version, None, marker, None, now)
            await conn.execute(
                "UPDATE seats SET user_id = $1, display_name = $2, payload = $3, joined_at = $4 "
                "WHERE game_id = $5 AND seat = $6",
                seat.user_id,
                seat.display_name,
                payload,
                now,
                game_id,
                seat.seat,
            )
            await conn.execute(
                "INSERT INTO game_settings (game_id, settings, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                game_id,
                text,
                now,
            )
        row_settings = {"game_id": game_id, "settings": json.loads(text), "updated_at": now}
        settings_written(self, "game_settings", game_id, row_settings)
        self._wrote_ahead(game_id)
        return int(row["version"])

    async def remove_seat(
        self, game_id: int, seat: str, *, expected_version: int | None = None
    ) -> int:
        """Remove a seat (:class:`SeatNotFound` if absent); bump and return the version."""
        now = self._now()
        async with self._transaction() as conn:
            row = await self._bump(conn, game_id, expected_version, now)
            deleted = await conn.fetchval(
                "DELETE FROM seats WHERE game_id = $1 AND seat = $2 RETURNING seat", game_id, seat
            )
            if deleted is None:
                raise SeatNotFound(game_id, seat)
        self._wrote_ahead(game_id)
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
        state = None if snapshot is None else canonical_json(snapshot)
        now = self._now()
        async with self._transaction() as conn:
            row = await self._append(conn, game_id, expected_version, seat, action, state, now)
        return int(row["version"])

    async def _append(
        self,
        conn: Conn,
        game_id: int,
        expected_version: int,
        seat: str | None,
        action: str,
        state: str | None,
        now: datetime,
    ) -> Row:
        """Inside a transaction: bump the game's version and sequence, append the action
        (and a snapshot, if given); returns the game's row after the bump. The bump and
        the append are one statement (one round trip): the action takes the sequence
        number the bump returns."""
        bump, args = _bump_statement(
            "games", GAME_COLUMNS, game_id, now, (), True, [("version", expected_version)]
        )
        args += [seat, action]
        sql = (
            f"WITH bumped AS ({bump}), appended AS ("
            "INSERT INTO actions (game_id, seq, seat, action, created_at) "
            f"SELECT id, last_seq, ${len(args) - 1}, ${len(args)}, $2 FROM bumped"
            ") SELECT * FROM bumped"
        )
        row = await self._bumped(conn, game_id, expected_version, sql, args)
        seq = int(row["last_seq"])
        if state is not None:
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES ($1, $2, $3, $4)",
                game_id,
                seq,
                state,
                now,
            )
        return row

    async def put_snapshot(self, game_id: int, seq: int, state: JSONObject) -> None:
        """Store (or replace) the state after action ``seq`` (0 = initial state).

        Snapshots are a cache and do not bump the version. ``ValueError`` if ``seq``
        is beyond the log.
        """
        text = canonical_json(state)
        now = self._now()
        async with self._transaction() as conn:
            last_seq = await conn.fetchval("SELECT last_seq FROM games WHERE id = $1", game_id)
            if last_seq is None:
                raise GameNotFound(game_id)
            if not 0 <= seq <= last_seq:
                raise ValueError(
                    f"game {game_id}: no snapshot at seq {seq}, the log has {last_seq} actions"
                )
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (game_id, seq) DO UPDATE SET "
                "state = excluded.state, created_at = excluded.created_at",
                game_id,
                seq,
                text,
                now,
            )

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
        what it shows. One statement (one round trip, several a move): the game's
        existence is its foreign key's to check."""
        now = self._now()
        async with self._one_statement() as conn:
            try:
                await conn.execute(
                    _numbered(SET_MESSAGE), game_id, kind, channel_id, message_id, now, content
                )
            except asyncpg.ForeignKeyViolationError as exc:
                raise GameNotFound(game_id) from exc

    async def swap_messages(
        self,
        game_id: int,
        claim: Mapping[str, MessageRow | None],
        remember: Sequence[MessageRow] = (),
    ) -> list[MessageRecord]:
        """Forget the claimed messages, write their replacements and the new rows: one
        call of the server's ``tallyho_swap_messages`` (migration 0013), one round trip
        where each took one (``Storage.swap_messages``)."""
        if not claim and not remember:
            return []
        writes = swap_writes(claim, remember)
        async with self._one_statement() as conn:
            try:
                rows = await conn.fetch(
                    "SELECT kind, channel_id, message_id, updated_at, content"
                    " FROM tallyho_swap_messages($1, $2, $3, $4, $5, $6, $7, $8)",
                    game_id,
                    self._now(),
                    list(claim),
                    [old for old, _ in writes],
                    [row.kind for _, row in writes],
                    [row.channel_id for _, row in writes],
                    [row.message_id for _, row in writes],
                    [row.content for _, row in writes],
                )
            except asyncpg.ForeignKeyViolationError as exc:
                raise GameNotFound(game_id) from exc
        return [MessageRecord.model_validate({"game_id": game_id, **dict(r)}) for r in rows]

    async def list_messages(
        self, game_id: int, prefix: str | tuple[str, ...] = ""
    ) -> list[MessageRecord]:
        """The game's remembered messages whose kind starts with ``prefix`` (or one of
        several), by kind."""
        prefixes = [prefix] if isinstance(prefix, str) else list(prefix)
        rows = await self._fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE game_id = $1 AND EXISTS "
            "(SELECT 1 FROM unnest($2::text[]) AS p WHERE starts_with(kind, p)) "
            'ORDER BY kind COLLATE "C"',
            game_id,
            prefixes,
        )
        return [MessageRecord.model_validate(dict(r)) for r in rows]

    async def delete_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """Forget the game's message of that kind and return it (None if there was none)."""
        async with self._one_statement() as conn:
            row = await conn.fetchrow(_numbered(DELETE_MESSAGE), game_id, kind)
        return None if row is None else MessageRecord.model_validate(dict(row))

    # -- spectators -------------------------------------------------------------------

    async def _follow(
        self,
        follows: tuple[str, str],
        item_id: int,
        user_id: int,
        exists: Callable[[Conn, int], Awaitable[None]],
    ) -> bool:
        """A follow of a game or a campaign (``follows``: its table and key column, one
        of the constants); ``exists`` raises when there is no such item."""
        table, key = follows
        now = self._now()
        async with self._transaction() as conn:
            await exists(conn, item_id)
            added = await conn.fetchval(
                f"INSERT INTO {table} ({key}, user_id, created_at) VALUES ($1, $2, $3) "
                f"ON CONFLICT ({key}, user_id) DO NOTHING RETURNING user_id",
                item_id,
                user_id,
                now,
            )
        return added is not None

    async def _unfollow(self, follows: tuple[str, str], item_id: int, user_id: int) -> bool:
        table, key = follows
        async with self._transaction() as conn:
            removed = await conn.fetchval(
                f"DELETE FROM {table} WHERE {key} = $1 AND user_id = $2 RETURNING user_id",
                item_id,
                user_id,
            )
        return removed is not None

    # -- seat clocks --------------------------------------------------------------------

    async def get_seat_clock(self, game_id: int, seat: str) -> SeatClockRecord:
        """The seat's counters (all defaults, ``updated_at`` None, if never stored); as
        the click read them ahead (:meth:`_read_game_ahead`) if it wrote nothing since."""
        clocks = held_ahead("seat_clocks", game_id)
        if clocks is None:
            return await super().get_seat_clock(game_id, seat)
        return clocks.get(seat) or SeatClockRecord(game_id=game_id, seat=seat)

    async def init_seat_clock(
        self, game_id: int, seat: str, *, time_bank_seconds: int
    ) -> SeatClockRecord:
        """Create the seat's counters with a full time bank if absent; return them
        (an existing row is left alone, so calling it at every decision is harmless)."""
        if time_bank_seconds < 0:
            raise ValueError(f"a time bank cannot be negative ({time_bank_seconds})")
        now = self._now()
        async with self._transaction() as conn:
            await self._game_exists(conn, game_id)
            created = await self._init_clock(conn, game_id, seat, time_bank_seconds, now)
            row = await conn.fetchrow(
                f"SELECT {CLOCK_COLUMNS} FROM seat_clocks WHERE game_id = $1 AND seat = $2",
                game_id,
                seat,
            )
        if created:
            self._wrote_ahead(game_id)
        return clock_record(row)

    @staticmethod
    async def _init_clock(conn: Conn, game_id: int, seat: str, bank: int, now: datetime) -> bool:
        """Whether the clock was created (``INSERT 0 1``), not found there already."""
        status = await conn.execute(_INIT_CLOCK, game_id, seat, int(bank), now)
        return bool(status.endswith(" 1"))

    async def set_vacation(
        self, game_id: int, seat: str, start: datetime | None, until: datetime | None
    ) -> SeatClockRecord:
        """Set (or with two Nones, end) the seat's vacation; return the counters."""
        if (start is None) != (until is None):
            raise ValueError("a vacation needs both a start and an end (or neither)")
        if start is not None and until is not None and until <= start:
            raise ValueError(f"a vacation must end after it starts ({start} .. {until})")
        begin = None if start is None else _utc(start)
        end = None if until is None else _utc(until)
        now = self._now()
        async with self._transaction() as conn:
            await self._game_exists(conn, game_id)
            row = await conn.fetchrow(
                "INSERT INTO seat_clocks (game_id, seat, vacation_from, vacation_until, "
                "updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, seat) DO UPDATE "
                "SET vacation_from = excluded.vacation_from, "
                "vacation_until = excluded.vacation_until, updated_at = excluded.updated_at "
                f"RETURNING {CLOCK_COLUMNS}",
                game_id,
                seat,
                begin,
                end,
                now,
            )
        self._wrote_ahead(game_id)
        return clock_record(row)

    async def reset_missed(self, game_id: int, seat: str) -> bool:
        """The seat acted: its missed-in-a-row count goes back to 0. True if it was not 0."""
        now = self._now()
        async with self._transaction() as conn:
            reset = await self._reset_missed(conn, game_id, seat, now)
        if reset:
            self._wrote_ahead(game_id)
        return reset

    @staticmethod
    async def _reset_missed(conn: Conn, game_id: int, seat: str, now: datetime) -> bool:
        reset = await conn.fetchval(
            "UPDATE seat_clocks SET missed_in_a_row = 0, updated_at = $1 "
            "WHERE game_id = $2 AND seat = $3 AND missed_in_a_row <> 0 RETURNING seat",
            now,
            game_id,
            seat,
        )
        return reset is not None

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
        async with self._transaction() as conn:
            await self._game_exists(conn, game_id)
            opened = await self._open(conn, game_id, opening, now)
        if opened[1]:
            self._wrote_ahead(game_id)
        return opened

    @staticmethod
    async def _open(
        conn: Conn, game_id: int, d: DeadlineOpening, now: datetime
    ) -> tuple[DeadlineRecord, bool]:
        """Open the deadline (or find the one already open for its decision)."""
        ats = [_utc(t) for t in d.reminder_ats]
        row = await conn.fetchrow(
            "INSERT INTO deadlines (game_id, seat, kind, decision_key, user_id, created_at, "
            "duration_seconds, bank_seconds, due_at, expires_at, reminder_ats, "
            "reminders_sent, next_at, attempts, updated_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12, 0, $13) "
            "ON CONFLICT (game_id, seat, decision_key) DO NOTHING "
            f"RETURNING {DEADLINE_COLUMNS}",
            game_id,
            d.seat,
            d.kind,
            d.decision_key,
            d.user_id,
            _utc(d.created_at),
            int(d.duration_seconds),
            int(d.bank_seconds),
            _utc(d.due_at),
            _utc(d.expires_at),
            ats,
            ats[0] if ats else _utc(d.expires_at),
            now,
        )
        if row is not None:
            return _deadline(row), True
        return await PostgresStorage._stored(conn, game_id, d), False

    @staticmethod
    async def _stored(conn: Conn, game_id: int, d: DeadlineOpening) -> DeadlineRecord:
        """The deadline stored for the decision an opening names."""
        row = await conn.fetchrow(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines "
            "WHERE game_id = $1 AND seat = $2 AND decision_key = $3",
            game_id,
            d.seat,
            d.decision_key,
        )
        return _deadline(row)

    async def get_deadlines(self, deadline_ids: Sequence[int]) -> list[DeadlineRecord]:
        """The deadlines of these ids that exist, in any state, by id: what another
        process may have changed since a scheduler read them."""
        rows = await self._fetch(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE id = ANY($1::bigint[]) ORDER BY id",
            sorted(set(deadline_ids)),
        )
        return [_deadline(row) for row in rows]

    async def live_deadlines(self, game_id: int | None = None) -> list[DeadlineRecord]:
        """Open and claimed deadlines (of one game, or all), by ``next_at``; what a
        start-up reloads. A game's, once per click, as the click read them ahead
        (:meth:`_read_game_ahead`) if it wrote nothing since."""
        ahead = None if game_id is None else held_ahead("deadlines", game_id, take=True)
        if ahead is not None:
            return list(ahead)
        if game_id is None:
            rows = await self._fetch(
                f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE {LIVE} ORDER BY next_at, id"
            )
        else:
            rows = await self._fetch(
                f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id = $1 AND {LIVE} "
                "ORDER BY next_at, id",
                game_id,
            )
        return [_deadline(row) for row in rows]

    async def due_deadlines(self, now: datetime, limit: int | None = None) -> list[DeadlineRecord]:
        """Live deadlines with ``next_at <= now``, by ``next_at``."""
        rows = await self._fetch(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE next_at <= $1 AND {LIVE} "
            "ORDER BY next_at, id LIMIT $2",
            _utc(now),
            None if limit is None else int(limit),
        )
        return [_deadline(row) for row in rows]

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
        ats = [_utc(t) for t in reminder_ats]
        if ats != sorted(ats):
            raise ValueError("reminder times must be in order")
        if expires_at < due_at:
            raise ValueError("a deadline cannot expire before it is due")
        now = self._now()
        async with self._transaction() as conn:
            updated = await conn.fetchval(
                "UPDATE deadlines SET due_at = $1, expires_at = $2, reminder_ats = $3, "
                "reminders_sent = LEAST(reminders_sent, $4), updated_at = $5 "
                f"WHERE id = $6 AND fired_at IS NULL AND {LIVE} RETURNING id",
                _utc(due_at),
                _utc(expires_at),
                ats,
                len(ats),
                now,
                deadline_id,
            )
            if updated is None:
                return None
            row = await conn.fetchrow(
                f"UPDATE deadlines SET next_at = {_NEXT_AT} WHERE id = $1 "
                f"RETURNING {DEADLINE_COLUMNS}",
                deadline_id,
            )
        rescheduled = _deadline(row)
        self._wrote_ahead(rescheduled.game_id)
        return rescheduled

    async def mark_reminders_sent(
        self, marks: Sequence[tuple[int, int, int]], now: datetime
    ) -> list[DeadlineRecord]:
        """For each ``(deadline id, expected sent, new sent)``: record the reminders as
        sent if the deadline is open and still at ``expected sent`` (compare-and-set,
        so two processes or a restart never send one twice). Returns the deadlines
        updated, in the order given."""
        stamp = _utc(now)

        async def mark(conn: Conn, mark: tuple[int, int, int]) -> DeadlineRecord | None:
            deadline_id, expected, new = mark
            if new <= expected:
                raise ValueError(f"deadline {deadline_id}: {new} reminders <= {expected}")
            row = await conn.fetchrow(
                # $1 new count, $2 now, $3 id, $4 expected count
                "UPDATE deadlines SET reminders_sent = $1, updated_at = $2, "
                "next_at = CASE WHEN $1 < cardinality(reminder_ats) "
                "THEN reminder_ats[$1 + 1] ELSE expires_at END "
                "WHERE id = $3 AND reminders_sent = $4 AND $1 <= cardinality(reminder_ats) "
                f"AND fired_at IS NULL AND {LIVE} RETURNING {DEADLINE_COLUMNS}",
                new,
                stamp,
                deadline_id,
                expected,
            )
            return None if row is None else _deadline(row)

        marked = [d for d in await self._each_deadline(marks, mark) if d is not None]
        self._wrote_ahead(*{d.game_id for d in marked})
        return marked

    async def claim_deadlines(
        self, claims: Sequence[tuple[int, int]], now: datetime, retry_at: datetime
    ) -> list[tuple[DeadlineRecord, SeatClockRecord]]:
        """For each ``(deadline id, expected attempts)``: claim the live deadline for
        its default action if its attempts are still ``expected`` (compare-and-set):
        set ``fired_at`` (first claim), count one more attempt, move ``next_at`` to
        ``retry_at``. The first claim also counts a missed deadline for the seat and
        spends the bank the deadline held. Returns the claimed deadlines with the seat's
        counters after the claim.

        The compare-and-set is one ``UPDATE ... RETURNING``: a second process claiming
        the same deadline waits for the first one's row lock, re-reads ``attempts`` and
        claims nothing."""
        stamp, retry = _utc(now), _utc(retry_at)

        async def claim(
            conn: Conn, claim: tuple[int, int]
        ) -> tuple[DeadlineRecord, SeatClockRecord] | None:
            deadline_id, expected = claim
            row = await conn.fetchrow(
                "UPDATE deadlines SET fired_at = COALESCE(fired_at, $1), "
                "attempts = attempts + 1, next_at = $2, updated_at = $1 "
                f"WHERE id = $3 AND attempts = $4 AND {LIVE} RETURNING {DEADLINE_COLUMNS}",
                stamp,
                retry,
                deadline_id,
                expected,
            )
            if row is None:
                return None
            deadline = _deadline(row)
            if deadline.attempts == 1:  # the first claim: the deadline was missed
                clock = await conn.fetchrow(
                    "INSERT INTO seat_clocks (game_id, seat, missed_in_a_row, "
                    "missed_total, updated_at) VALUES ($1, $2, 1, 1, $3) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET "
                    "missed_in_a_row = seat_clocks.missed_in_a_row + 1, "
                    "missed_total = seat_clocks.missed_total + 1, "
                    "time_bank_seconds = GREATEST(0, seat_clocks.time_bank_seconds - $4), "
                    f"updated_at = excluded.updated_at RETURNING {CLOCK_COLUMNS}",
                    deadline.game_id,
                    deadline.seat,
                    stamp,
                    deadline.bank_seconds,
                )
            else:
                clock = await conn.fetchrow(
                    f"SELECT {CLOCK_COLUMNS} FROM seat_clocks WHERE game_id = $1 AND seat = $2",
                    deadline.game_id,
                    deadline.seat,
                )
            if clock is None:
                return deadline, SeatClockRecord(game_id=deadline.game_id, seat=deadline.seat)
            return deadline, clock_record(clock)

        claimed = [c for c in await self._each_deadline(claims, claim) if c is not None]
        self._wrote_ahead(*{d.game_id for d, _ in claimed})
        return claimed

    async def _each_deadline(
        self,
        items: Sequence[Item],
        write: Callable[[Conn, Item], Awaitable[Result]],
    ) -> list[Result]:
        """``write`` each item (its first element a deadline id), :data:`BATCH` a
        transaction, and return the results in the order given.

        Within a transaction the rows are written by deadline id, so two processes lock
        the deadlines they share in the same order. They may still lock seat clocks in
        crossed orders: PostgreSQL then rolls one transaction back as a deadlock's
        victim, and that batch is written again (every write in it is a
        compare-and-set, so nothing is done twice)."""
        results: list[Result] = []
        for start in range(0, len(items), BATCH):
            batch = sorted(enumerate(items[start : start + BATCH]), key=lambda i: i[1][0])
            for attempt in range(1, _DEADLOCK_TRIES + 1):
                try:
                    async with self._transaction() as conn:
                        done = [(index, await write(conn, item)) for index, item in batch]
                    break
                except asyncpg.DeadlockDetectedError:
                    if attempt == _DEADLOCK_TRIES:
                        raise
            results.extend(result for _, result in sorted(done, key=lambda d: d[0]))
        return results

    async def complete_deadlines(self, deadline_ids: Sequence[int], now: datetime) -> int:
        """Mark claimed deadlines done; return how many were still claimed."""
        stamp = _utc(now)
        count = 0
        ids = list(deadline_ids)
        for start in range(0, len(ids), BATCH):
            async with self._transaction() as conn:
                rows = await conn.fetch(
                    "UPDATE deadlines SET done_at = $1, updated_at = $1 "
                    f"WHERE id = ANY($2::bigint[]) AND fired_at IS NOT NULL AND {LIVE} "
                    "RETURNING game_id",
                    stamp,
                    ids[start : start + BATCH],
                )
            count += len(rows)
            self._wrote_ahead(*{int(row["game_id"]) for row in rows})
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
        async with self._transaction() as conn:
            row = await self._settle(
                conn, DeadlineSettlement(deadline_id, acted, bank_used_seconds), _utc(now)
            )
        if row is None:  # (a claimed deadline's seat that acted: its next click plans again)
            return None
        settled = _deadline(row)
        self._wrote_ahead(settled.game_id)
        return settled

    @staticmethod
    async def _settle(conn: Conn, s: DeadlineSettlement, stamp: datetime) -> Row | None:
        """Close the deadline unless it is claimed or closed already (its row, or None);
        a seat that acted has its missed count reset and its bank charged, in the same
        statement (one round trip)."""
        settle = (
            "UPDATE deadlines SET cancelled_at = $1, updated_at = $1 "
            f"WHERE id = $2 AND fired_at IS NULL AND {LIVE} RETURNING {DEADLINE_COLUMNS}"
        )
        if not s.acted:
            return await conn.fetchrow(settle, stamp, s.deadline_id)
        return await conn.fetchrow(
            f"WITH settled AS ({settle}), charged AS ("
            "UPDATE seat_clocks SET missed_in_a_row = 0, "
            "time_bank_seconds = GREATEST(0, time_bank_seconds - $3), updated_at = $1 "
            "WHERE (game_id, seat) = (SELECT game_id, seat FROM deadlines WHERE id = $2)"
            ") SELECT * FROM settled",
            stamp,
            s.deadline_id,
            int(s.bank_used_seconds),
        )

    async def cancel_game_deadlines(self, game_id: int, now: datetime) -> list[int]:
        """Cancel every live deadline of the game (it ended); return their ids."""
        async with self._transaction() as conn:
            cancelled = await self._cancel_live(conn, game_id, _utc(now))
        self._wrote_ahead(game_id)
        return cancelled

    @staticmethod
    async def _cancel_live(conn: Conn, game_id: int, stamp: datetime) -> list[int]:
        rows = await conn.fetch(
            "UPDATE deadlines SET cancelled_at = $1, updated_at = $1 "
            f"WHERE game_id = $2 AND {LIVE} RETURNING id",
            stamp,
            game_id,
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
        even if the bot crashes and retries. Raises :class:`StaleGameVersion` too. The
        deadline's row is locked (``FOR UPDATE``) until the transaction ends, so a
        second process applying it waits and then finds it done.
        """
        now = self._now()
        async with self._transaction() as conn:
            game_id, seat = await self._close_claimed(conn, deadline_id, now)
            state = None if snapshot is None else canonical_json(snapshot)
            row = await self._append(conn, game_id, expected_version, seat, action, state, now)
        self._wrote_ahead(game_id)
        return int(row["version"])

    @staticmethod
    async def _close_claimed(conn: Conn, deadline_id: int, now: datetime) -> tuple[int, str]:
        """Mark a claimed deadline done (its default action is being written), its row
        locked until the transaction ends; its game and seat. :class:`DeadlineClosed`
        if it is not claimed, or done, or cancelled."""
        d = await conn.fetchrow(
            "SELECT game_id, seat, fired_at, done_at, cancelled_at FROM deadlines "
            "WHERE id = $1 FOR UPDATE",
            deadline_id,
        )
        if d is None:
            raise DeadlineClosed(deadline_id, "does not exist")
        if d["done_at"] is not None:
            raise DeadlineClosed(deadline_id, "is already done")
        if d["cancelled_at"] is not None:
            raise DeadlineClosed(deadline_id, "was cancelled")
        if d["fired_at"] is None:
            raise DeadlineClosed(deadline_id, "is not claimed")
        await conn.execute(
            "UPDATE deadlines SET done_at = $1, updated_at = $1 WHERE id = $2",
            now,
            deadline_id,
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
        """One move of a game, whole, in one transaction (see ``Storage.commit_move``):
        one call of the server's ``tallyho_commit_planned`` (migration 0015; its
        statements those of ``tallyho_commit_move``, 0011 to 0014), which are those
        SQLite's transaction runs, in the same order; one round trip where a transaction
        of single statements took five or six. A call is a statement, so it is a
        transaction of its own.

        With ``replan``, in a click that read its game ahead and wrote nothing since,
        the call is given the stamp of the rows read: it writes only if they are
        unchanged (else :class:`StalePlan`), and returns them as the move left them,
        kept for the game's next click (:meth:`_read_game_ahead`). Any other move
        leaves them to be read again."""
        if not entries:
            raise ValueError("commit_move() needs at least one action")
        changes = deadlines or DeadlineChanges()
        for opening in changes.open:
            check_opening(opening)
        used: _Ahead | None = held_ahead("ahead", game_id) if replan else None
        # The move writes what the game's next click reads: kept again only once a
        # move planned on it read back what it left (_read_back).
        self._drop_ahead(game_id)
        now = self._now()
        stamp = _utc(changes.at) if changes.at is not None else now
        openings = json.dumps(  # the function reads each field by its name
            [{f.name: getattr(d, f.name) for f in _OPENING_FIELDS} for d in changes.open],
            default=lambda moment: _utc(moment).isoformat(),
        )
        settle = changes.settle
        args = (
            game_id,
            expected_version,
            deadline_id,
            now,
            stamp,
            [e.seat for e in entries],
            [e.action for e in entries],
            [None if e.snapshot is None else canonical_json(e.snapshot) for e in entries],
            [s.deadline_id for s in settle],
            [s.acted for s in settle],
            [int(s.bank_used_seconds) for s in settle],
            changes.cancel_all,
            list(changes.reset_missed),
            openings,
            None if result is None else canonical_json(result),
        )
        async with self._one_statement() as conn:
            try:
                ahead = None if used is None else list(used.stamp)
                row = await conn.fetchrow(_COMMIT_MOVE, ahead, *args)
            except asyncpg.OutdatedSchemaCacheError:
                # Another process migrated the database (a column added) while this one
                # ran: the move is written, only its rows could not be decoded. They are
                # read again, column by column (asyncpg reloaded its types meanwhile).
                return await self._committed(conn, game_id, changes, stamp)
            except asyncpg.PostgresError as exc:
                if used is not None and exc.sqlstate == _PLAN_CHANGED:
                    raise StalePlan(game_id) from exc
                if deadline_id is not None and exc.sqlstate == _DEADLINE_CLOSED:
                    raise DeadlineClosed(deadline_id, str(exc)) from exc
                raise
            if row is None:
                await self._refused(conn, game_id, expected_version)
        opened = _live(row["opened"])
        game = game_record(_known(row["game"], GAME_COLUMNS))
        if used is not None:
            self._read_back(game_id, used, row)
        else:  # a read that ran meanwhile (prefetch) saw the rows before the move
            self._drop_ahead(game_id)
        return MoveCommitted(game, opened, tuple(row["closed"]))

    def _read_back(self, game_id: int, used: _Ahead, row: Row) -> None:
        """Keep for the game's next click what its move was planned on (``used``, which
        the move found unchanged) with the deadlines and seat clocks the move left (read
        back in its statement), and their stamp. The stamp was taken after the move's
        writes, in a statement of its own: if the rows a move never writes (settings,
        seats) changed since they were checked, the rows kept would not be the rows
        stamped, so nothing is kept and the next click reads them."""
        stamp = tuple(row["ahead"])
        if _unwritten(stamp) != _unwritten(used.stamp):
            self._drop_ahead(game_id)
            return
        live, clocks = _live(row["live"]), _clocks(row["clocks"])
        self._keep_ahead(
            game_id, dataclasses.replace(used, deadlines=live, clocks=clocks, stamp=stamp)
        )

    @staticmethod
    async def _committed(
        conn: Conn, game_id: int, changes: DeadlineChanges, stamp: datetime
    ) -> MoveCommitted:
        """What a move just written wrote, read back: the game, the deadlines it
        opened, those it closed (settled or cancelled at its time)."""
        game = await conn.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        opened = [await PostgresStorage._stored(conn, game_id, d) for d in changes.open]
        ids = [s.deadline_id for s in changes.settle]
        rows = await conn.fetch(
            "SELECT id FROM deadlines WHERE cancelled_at = $1 "
            "AND (id = ANY($2::bigint[]) OR ($3 AND game_id = $4))",
            stamp,
            ids,
            changes.cancel_all,
            game_id,
        )
        cancelled = {int(r["id"]) for r in rows}
        closed = [i for i in ids if i in cancelled]
        closed += sorted(cancelled - set(closed))
        return MoveCommitted(game_record(game), tuple(opened), tuple(closed))

    # -- campaigns ----------------------------------------------------------------------

    async def _bump_campaign(
        self,
        conn: Conn,
        campaign_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        expected_seq: int | None = None,
        items: Sequence[tuple[str, Any]] = (),
        next_seq: bool = False,
    ) -> Row:
        """Bump the campaign's version (guarded by ``expected_version`` and
        ``expected_seq`` if given), and its ``last_seq`` if ``next_seq``.

        Returns the updated campaign row. Raises :class:`StaleCampaignVersion` or
        :class:`CampaignNotFound`; the caller's transaction then rolls back.
        """
        guards = [("version", expected_version), ("last_seq", expected_seq)]
        sql, args = _bump_statement(
            "campaigns", CAMPAIGN_COLUMNS, campaign_id, now, items, next_seq, guards
        )
        row = await conn.fetchrow(sql, *args)
        if row is not None:
            return row
        found = await conn.fetchrow(
            "SELECT version, last_seq FROM campaigns WHERE id = $1", campaign_id
        )
        if found is None:
            raise CampaignNotFound(campaign_id)
        if expected_version is not None and int(found["version"]) != expected_version:
            raise StaleCampaignVersion(campaign_id, expected_version, int(found["version"]))
        assert expected_seq is not None  # an unguarded UPDATE of a campaign cannot miss
        raise StaleCampaignVersion(campaign_id, expected_seq, int(found["last_seq"]), of="seq")

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
            row = await conn.fetchrow(
                "INSERT INTO campaigns (guild_id, channel_id, host_id, system, campaign, "
                "status, setup, seed, version, last_seq, created_at, updated_at, finished_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, $9, $9, $10) "
                f"RETURNING {CAMPAIGN_COLUMNS}",
                guild_id,
                channel_id,
                host_id,
                system,
                campaign,
                status_value,
                canonical_json(setup),
                seed,
                now,
                finished_at,
            )
        return campaign_record(row)

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
        items: list[tuple[str, Any]] = []
        if not isinstance(status, Unset):
            value = CampaignStatus(status).value
            items.append(("status = {}", value))
            if value in CAMPAIGN_TERMINAL and isinstance(finished_at, Unset):
                items.append(("finished_at = COALESCE(finished_at, {})", now))
        if not isinstance(finished_at, Unset):
            items.append(("finished_at = {}", None if finished_at is None else _utc(finished_at)))
        if not isinstance(thread_id, Unset):
            items.append(("thread_id = {}", thread_id))
        if not isinstance(channel_id, Unset):
            items.append(("channel_id = {}", channel_id))
        if not isinstance(result, Unset):
            items.append(("result = {}::jsonb", None if result is None else canonical_json(result)))
        if not isinstance(told_seq, Unset):
            items.append(("told_seq = GREATEST(told_seq, {})", told_seq))  # never back
        if not items:
            raise ValueError("update_campaign() needs at least one field to change")
        async with self._transaction() as conn:
            row = await self._bump_campaign(
                conn, campaign_id, now, expected_version=expected_version, items=items
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
            added = await conn.fetchrow(
                f"INSERT INTO campaign_log ({ENTRY_COLUMNS}) "
                f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {ENTRY_COLUMNS}",
                campaign_id,
                int(row["last_seq"]),
                kind_value,
                side,
                entry,
                game_id,
                user_id,
                now,
            )
        return CampaignEntryRecord.model_validate(dict(added))

    async def put_campaign_member(
        self, campaign_id: int, user_id: int, *, side: str, display_name: str
    ) -> CampaignMemberRecord:
        """Add the user to the campaign, or change their side and name (they keep their
        place in the join order); bump the campaign's version (:class:`CampaignNotFound`)."""
        now = self._now()
        async with self._transaction() as conn:
            await self._bump_campaign(conn, campaign_id, now)
            row = await conn.fetchrow(
                f"INSERT INTO campaign_members ({MEMBER_COLUMNS}) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (campaign_id, user_id) DO UPDATE SET side = excluded.side, "
                f"display_name = excluded.display_name RETURNING {MEMBER_COLUMNS}",
                campaign_id,
                user_id,
                side,
                display_name,
                now,
            )
        return CampaignMemberRecord.model_validate(dict(row))

    async def remove_campaign_member(self, campaign_id: int, user_id: int) -> bool:
        """Remove the user from the campaign (bumping its version); False if they were
        not a member."""
        now = self._now()
        async with self._transaction() as conn:
            deleted = await conn.fetchval(
                "DELETE FROM campaign_members WHERE campaign_id = $1 AND user_id = $2 "
                "RETURNING user_id",
                campaign_id,
                user_id,
            )
            if deleted is not None:
                await self._bump_campaign(conn, campaign_id, now)
        return deleted is not None

    async def replace_campaign_member(
        self, campaign_id: int, leaving: int, coming: int, *, display_name: str
    ) -> CampaignMemberRecord | None:
        """``coming`` takes ``leaving``'s place (side and place in the join order), in
        one transaction, bumping the campaign's version; None (nothing written) if
        ``leaving`` is not a member or ``coming`` is one already.

        The campaign's row is locked first (``FOR UPDATE``), so two replacements in two
        processes run one after the other and the second sees the first's result."""
        now = self._now()
        async with self._transaction() as conn:
            await conn.execute("SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE", campaign_id)
            rows = await conn.fetch(
                f"SELECT {MEMBER_COLUMNS} FROM campaign_members "
                "WHERE campaign_id = $1 AND user_id = ANY($2::bigint[])",
                campaign_id,
                [leaving, coming],
            )
            found = {int(r["user_id"]): r for r in rows}
            if leaving not in found or coming in found:
                return None
            old = found[leaving]
            await self._bump_campaign(conn, campaign_id, now)
            await conn.execute(
                "DELETE FROM campaign_members WHERE campaign_id = $1 AND user_id = $2",
                campaign_id,
                leaving,
            )
            added = await conn.fetchrow(
                f"INSERT INTO campaign_members ({MEMBER_COLUMNS}) VALUES ($1, $2, $3, $4, $5) "
                f"RETURNING {MEMBER_COLUMNS}",
                campaign_id,
                coming,
                old["side"],
                display_name,
                old["joined_at"],
            )
        return CampaignMemberRecord.model_validate(dict(added))

    async def campaigns_of_user(
        self, user_id: int, statuses: Sequence[CampaignStatus] | None = None
    ) -> list[CampaignRecord]:
        """The campaigns the user is a member of, with one of ``statuses`` (or any);
        newest first."""
        columns = ", ".join(f"c.{c.strip()}" for c in CAMPAIGN_COLUMNS.split(","))
        sql = (
            f"SELECT {columns} FROM campaigns c "
            "JOIN campaign_members m ON m.campaign_id = c.id WHERE m.user_id = $1"
        )
        params: list[Any] = [user_id]
        if statuses is not None:
            values = campaign_status_values(statuses)
            if not values:
                return []
            sql += " AND c.status = ANY($2::text[])"
            params.append(values)
        sql += " ORDER BY c.id DESC"
        return [campaign_record(row) for row in await self._fetch(sql, *params)]

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
        async with self._transaction() as conn:
            # Two uploads of one name at once: the second waits here for the first.
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(($1::bigint)::text || '/' || $2, 0))",
                guild_id,
                name,
            )
            latest = await conn.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM content_packs "
                "WHERE guild_id = $1 AND name = $2",
                guild_id,
                name,
            )
            await conn.execute(
                "UPDATE content_packs SET removed_at = $1 "
                "WHERE guild_id = $2 AND name = $3 AND removed_at IS NULL",
                now,
                guild_id,
                name,
            )
            row = await conn.fetchrow(
                "INSERT INTO content_packs (guild_id, name, version, file, digest, document, "
                "uploaded_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                f"RETURNING {PACK_COLUMNS}",
                guild_id,
                name,
                int(latest) + 1,
                file,
                digest,
                document,
                uploaded_by,
                now,
            )
        return ContentPackRecord.model_validate(dict(row))

    async def content_packs_by_id(self, ids: Sequence[int]) -> list[ContentPackRecord]:
        """The pack versions with these ids, live or removed (what a game was created
        with), in the order of ``ids``; an unknown id is left out."""
        if not ids:
            return []
        rows = await self._fetch(
            f"SELECT {PACK_COLUMNS} FROM content_packs WHERE id = ANY($1::bigint[])", list(ids)
        )
        found = {int(row["id"]): ContentPackRecord.model_validate(dict(row)) for row in rows}
        return [found[i] for i in ids if i in found]

    async def remove_content_pack(self, guild_id: int, name: str) -> ContentPackRecord | None:
        """Mark the server's live pack ``name`` removed (its rows stay, for the games
        that used it) and return it; None if the server has no live pack of that name."""
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE content_packs SET removed_at = $1 "
                f"WHERE guild_id = $2 AND name = $3 AND removed_at IS NULL RETURNING {PACK_COLUMNS}",
                self._now(),
                guild_id,
                name,
            )
        return ContentPackRecord.model_validate(dict(row)) if row is not None else None

    # -- ratings ------------------------------------------------------------------------

    async def get_ratings(self, system: str, keys: Sequence[tuple[int, int]]) -> list[RatingRecord]:
        """The stored ratings in ``system`` of these ``(guild_id, user_id)`` (those
        that exist), in no particular order."""
        if not keys:
            return []
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE system = $1 "
            "AND (guild_id, user_id) IN (SELECT * FROM unnest($2::bigint[], $3::bigint[]))",
            system,
            [g for g, _ in keys],
            [u for _, u in keys],
        )
        return [rating_record(row) for row in rows]

    async def rate_game(
        self, expected_version: int, game_id: int, ratings: Sequence[RatingRecord]
    ) -> bool:
        """Take one finished game into the ledger (at its next seq) with the ratings it
        changed, in one transaction, if the ratings are still at ``expected_version``
        (then bumped); False (nothing written) otherwise."""
        now = self._now()
        async with self._transaction() as conn:
            if not await self._bump_ratings(conn, expected_version):
                return False
            await conn.execute(
                "INSERT INTO rated_games (seq, game_id, created_at) "
                "SELECT coalesce(max(seq), 0) + 1, $1, $2 FROM rated_games",
                game_id,
                now,
            )
            await self._put_ratings(conn, ratings, now)
        return True

    async def replace_ratings(self, expected_version: int, ratings: Sequence[RatingRecord]) -> bool:
        """Replace every stored rating by ``ratings`` (a recomputation), in one
        transaction, if the ratings are still at ``expected_version`` (then bumped);
        False (nothing written) otherwise."""
        now = self._now()
        async with self._transaction() as conn:
            if not await self._bump_ratings(conn, expected_version):
                return False
            await conn.execute("DELETE FROM ratings")
            await self._put_ratings(conn, ratings, now)
        return True

    @staticmethod
    async def _bump_ratings(conn: Conn, expected_version: int) -> bool:
        """Bump the ratings' version if it is ``expected_version`` (compare-and-set; the
        row is created by the first write, from version 0). A second writer waits for
        the first one's row lock, then finds the version gone."""
        bumped = await conn.fetchval(
            "INSERT INTO ratings_cursor (id, version) VALUES (1, 1) "
            "ON CONFLICT (id) DO UPDATE SET version = ratings_cursor.version + 1 "
            "WHERE ratings_cursor.version = $1 RETURNING version",
            expected_version,
        )
        return bumped is not None

    @staticmethod
    async def _put_ratings(conn: Conn, ratings: Sequence[RatingRecord], now: datetime) -> None:
        await conn.executemany(
            f"INSERT INTO ratings ({RATING_COLUMNS}, score, updated_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
            "ON CONFLICT (system, guild_id, user_id) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
            "losses = excluded.losses, score = excluded.score, updated_at = excluded.updated_at",
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
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 "
            'ORDER BY system COLLATE "C", guild_id',
            user_id,
        )
        return [rating_record(row) for row in rows]
