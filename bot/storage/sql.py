"""What the two SQL stores share: :class:`bot.storage.sqlite.SQLiteStorage` and
:class:`bot.storage.postgres.PostgresStorage` read and write the same tables with the
same columns, so the column lists and the rows' records are written once here, and so
are the operations that are the same on both databases over each store's own
primitives (:class:`SQLStorage`, their base). What differs (transactions, how a write
reaches the database, placeholders in writes, locking) stays in each store.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

from bot.storage.base import Storage
from bot.storage.memo import memoized_read
from bot.storage.models import (
    OPEN_STATUSES,
    ActionRecord,
    CampaignEntryRecord,
    CampaignMemberRecord,
    CampaignRecord,
    CampaignStatus,
    ContentPackRecord,
    DeadlineRecord,
    GameRecord,
    GameSettingsRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    MessageRecord,
    MessageRow,
    RatedGameRecord,
    RatingRecord,
    SeatClockRecord,
    SeatRecord,
    SnapshotRecord,
    UserSettingsRecord,
    campaign_status_values,
    status_values,
)

__all__ = [
    "BATCH",
    "CAMPAIGN_COLUMNS",
    "CAMPAIGN_FOLLOWS",
    "CAMPAIGN_TERMINAL",
    "CLOCK_COLUMNS",
    "DEADLINE_COLUMNS",
    "ENTRY_COLUMNS",
    "GAME_COLUMNS",
    "GAME_FOLLOWS",
    "LIVE",
    "MEMBER_COLUMNS",
    "PACK_COLUMNS",
    "RATING_COLUMNS",
    "SEAT_COLUMNS",
    "TERMINAL",
    "SQLStorage",
    "swap_writes",
]

TERMINAL = (GameStatus.FINISHED.value, GameStatus.ABORTED.value)
"""The statuses a game ends in."""
CAMPAIGN_TERMINAL = (CampaignStatus.FINISHED.value, CampaignStatus.ABANDONED.value)
"""The statuses a campaign ends in."""

GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, host_id, system, ruleset, "
    "status, options, seed, version, last_seq, posted_seq, end_told, start_told, created_at, "
    "updated_at, finished_at, result, campaign_id, mission"
)
SEAT_COLUMNS = "game_id, seat, side, user_id, display_name, payload, joined_at"
DEADLINE_COLUMNS = (
    "id, game_id, seat, kind, decision_key, user_id, created_at, duration_seconds, "
    "bank_seconds, due_at, expires_at, reminder_ats, reminders_sent, next_at, fired_at, "
    "attempts, done_at, cancelled_at, updated_at"
)
CLOCK_COLUMNS = (
    "game_id, seat, missed_in_a_row, missed_total, time_bank_seconds, vacation_from, "
    "vacation_until, updated_at"
)
LIVE = "done_at IS NULL AND cancelled_at IS NULL"
"""A deadline still open: neither done nor cancelled."""
BATCH = 500
"""Rows per statement, or per transaction, in the deadlines' batched reads and writes
(well under SQLite's default limit of 32,766 parameters)."""

CAMPAIGN_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_id, system, campaign, status, setup, seed, "
    "version, last_seq, told_seq, created_at, updated_at, finished_at, result"
)
ENTRY_COLUMNS = "campaign_id, seq, kind, side, entry, game_id, user_id, created_at"
MEMBER_COLUMNS = "campaign_id, user_id, side, display_name, joined_at"
PACK_COLUMNS = (
    "id, guild_id, name, version, file, digest, document, uploaded_by, created_at, removed_at"
)
RATING_COLUMNS = "system, guild_id, user_id, mu, sigma, games, wins, losses"
MESSAGE_COLUMNS = "game_id, kind, channel_id, message_id, updated_at, content"
SET_MESSAGE = (
    f"INSERT INTO messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
    "message_id = excluded.message_id, updated_at = excluded.updated_at, "
    "content = excluded.content"
)
DELETE_MESSAGE = f"DELETE FROM messages WHERE game_id = ? AND kind = ? RETURNING {MESSAGE_COLUMNS}"
"""Remember a game's message (its columns in order), and forget it, returning its row."""


def swap_writes(
    claim: Mapping[str, MessageRow | None], remember: Sequence[MessageRow]
) -> list[tuple[str | None, MessageRow]]:
    """The rows ``Storage.swap_messages`` writes once it forgot the claimed ones, in
    order, each with the kind it replaces (written only if that one was forgotten) or
    None (written anyway); one row a kind, the last given (``remember`` after
    ``claim``), as writing them one after another would leave it."""
    writes: dict[str, tuple[str | None, MessageRow]] = {}
    for old, row in claim.items():
        if row is not None:
            writes.pop(row.kind, None)
            writes[row.kind] = (old, row)
    for row in remember:
        writes.pop(row.kind, None)
        writes[row.kind] = (None, row)
    return list(writes.values())


GAME_FOLLOWS = ("follows", "game_id")
CAMPAIGN_FOLLOWS = ("campaign_follows", "campaign_id")
"""The spectators' tables and their key columns (the only table names the follow
helpers put in their SQL)."""


def settings_row(row: Any, key: str) -> dict[str, Any]:
    """A row of a ``(key, settings JSON, updated_at)`` table, its settings decoded (the
    other columns left out: a row read whole may hold more)."""
    return {key: row[key], "settings": json.loads(row["settings"]), "updated_at": row["updated_at"]}


def game_record(row: Any) -> GameRecord:
    """A game's row as its record."""
    data = dict(row)
    data["options"] = json.loads(data["options"])
    data["result"] = None if data["result"] is None else json.loads(data["result"])
    return GameRecord.model_validate(data)


def seat_record(row: Any) -> SeatRecord:
    """A seat's row as its record."""
    data = dict(row)
    data["payload"] = json.loads(data["payload"])
    return SeatRecord.model_validate(data)


def clock_record(row: Any) -> SeatClockRecord:
    """A seat clock's row as its record."""
    return SeatClockRecord.model_validate(dict(row))


def campaign_record(row: Any) -> CampaignRecord:
    """A campaign's row as its record."""
    data = dict(row)
    data["setup"] = json.loads(data["setup"])
    data["result"] = None if data["result"] is None else json.loads(data["result"])
    return CampaignRecord.model_validate(data)


def rating_record(row: Any) -> RatingRecord:
    """A rating's row as its record."""
    return RatingRecord.model_validate(dict(row))


def guild_status_clause(guild_id: int | None, statuses: list[str] | None) -> tuple[str, list[Any]]:
    """``WHERE guild_id = ? AND status IN (...)`` for the filters given (both may be
    None), and its parameters; empty when neither is."""
    where: list[str] = []
    params: list[Any] = []
    if guild_id is not None:
        where.append("guild_id = ?")
        params.append(guild_id)
    if statuses is not None:
        where.append(f"status IN ({', '.join('?' * len(statuses))})")
        params.extend(statuses)
    return (f"WHERE {' AND '.join(where)} " if where else ""), params


class SQLStorage(Storage):
    """The operations that read and write the same way on both databases, written
    once over the primitives each store implements: one read statement written with
    SQLite's ``?`` placeholders (:meth:`_select`; PostgreSQL numbers them), a
    settings row written (:meth:`_put_json`), a spectators' table written
    (:meth:`_follow`, :meth:`_unfollow`), the existence checks made inside a write's
    transaction, and what the two databases store differently (a deadline's times,
    the hidden players' clause, the seats' byte-wise order).

    The reads by key, the lists and the boards are here; the writes, with their
    transactions, placeholders and locking, stay in each store."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the primitives ---------------------------------------------------------------

    _seat_order: str
    """The ``ORDER BY`` of seats in their natural order (A2 before A10), byte-wise."""

    @abstractmethod
    async def _select(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """The rows of one read statement written with SQLite's ``?`` placeholders (a
        store sends it its own way), each read by column name."""

    @staticmethod
    @abstractmethod
    def _deadline_record(row: Any) -> DeadlineRecord:
        """A deadline's row as its record (the databases store its times differently)."""

    @staticmethod
    @abstractmethod
    def _shown(guild_id: int) -> str:
        """The clause leaving out of the global board the players who hid themselves
        (``"global_board": false`` in their settings); nothing for a server's board."""

    @abstractmethod
    def _put_json(
        self, table: str, key: str, value: int, settings: JSONObject, *, game: int | None = None
    ) -> Awaitable[dict[str, Any]]:
        """Insert or replace a settings row; ``game``: check that game exists first."""

    @abstractmethod
    async def _follow(
        self, follows: tuple[str, str], item_id: int, user_id: int, exists: Any
    ) -> bool:
        """A follow of a game or a campaign (``follows``: its table and key column);
        ``exists`` (:meth:`_game_exists`, :meth:`_campaign_exists`) raises when there
        is no such item."""

    @abstractmethod
    async def _unfollow(self, follows: tuple[str, str], item_id: int, user_id: int) -> bool:
        """The user's follow of the item removed; False if there was none."""

    @abstractmethod
    def _game_exists(self, conn: Any, game_id: int) -> Awaitable[None] | None:
        """Raise :class:`~bot.storage.base.GameNotFound` unless the game exists
        (inside a write's transaction, on its connection)."""

    @abstractmethod
    def _campaign_exists(self, conn: Any, campaign_id: int) -> Awaitable[None] | None:
        """Raise :class:`~bot.storage.base.CampaignNotFound` unless the campaign
        exists (inside a write's transaction, on its connection)."""

    # -- games -------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None."""
        rows = await self._select(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_record(rows[0]) if rows else None

    async def game_version(self, game_id: int) -> int | None:
        """The game's version, or None (see ``Storage.game_version``)."""
        rows = await self._select("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def get_game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in that thread, or None."""
        rows = await self._select(
            f"SELECT {GAME_COLUMNS} FROM games WHERE thread_id = ?", (thread_id,)
        )
        return game_record(rows[0]) if rows else None

    async def list_games(
        self,
        guild_id: int | None = None,
        statuses: Iterable[GameStatus | str] | None = None,
    ) -> list[GameRecord]:
        """Games of a guild (or of every guild), with one of ``statuses`` (or any);
        oldest first."""
        values = None if statuses is None else status_values(statuses)
        if values == []:
            return []
        clause, params = guild_status_clause(guild_id, values)
        rows = await self._select(f"SELECT {GAME_COLUMNS} FROM games {clause}ORDER BY id", params)
        return [game_record(row) for row in rows]

    async def list_open_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, in every guild; what a restart reloads."""
        return await self.list_games(statuses=OPEN_STATUSES)

    async def list_unposted_games(self) -> list[GameRecord]:
        """Every game whose thread was not told all its actions (``posted_seq <
        last_seq``), its end (``end_told`` false) or its start (``start_told`` false),
        open or ended, oldest first: what a restart posts."""
        rows = await self._select(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE posted_seq < last_seq OR end_told = 0 OR start_told = 0 ORDER BY id"
        )
        return [game_record(row) for row in rows]

    async def get_seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats, ordered by seat name (``A2`` before ``A10``)."""
        rows = await self._select(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY {self._seat_order}",
            (game_id,),
        )
        return [seat_record(row) for row in rows]

    async def load_actions(self, game_id: int, after_seq: int = 0) -> list[ActionRecord]:
        """The game's actions with ``seq > after_seq``, in order."""
        rows = await self._select(
            "SELECT game_id, seq, seat, action, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
        return [ActionRecord.model_validate(dict(row)) for row in rows]

    async def latest_snapshot(self, game_id: int) -> SnapshotRecord | None:
        """The snapshot with the highest seq, or None."""
        rows = await self._select(
            "SELECT game_id, seq, state, created_at FROM snapshots "
            "WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        if not rows:
            return None
        data = dict(rows[0])
        data["state"] = json.loads(data["state"])
        return SnapshotRecord.model_validate(data)

    async def get_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """The game's message of that kind, or None."""
        rows = await self._select(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return MessageRecord.model_validate(dict(rows[0])) if rows else None

    # -- deadlines and seat clocks -----------------------------------------------------

    async def get_deadline(self, deadline_id: int) -> DeadlineRecord | None:
        """The deadline, or None."""
        rows = await self._select(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE id = ?", (deadline_id,)
        )
        return self._deadline_record(rows[0]) if rows else None

    async def live_deadlines_page(self, after_id: int, limit: int) -> list[DeadlineRecord]:
        """Up to ``limit`` live deadlines with ``id > after_id``, by id: a start-up can
        load them page by page instead of holding every row twice at once."""
        rows = await self._select(
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE id > ? AND {LIVE} ORDER BY id LIMIT ?",
            (after_id, int(limit)),
        )
        return [self._deadline_record(row) for row in rows]

    async def get_seat_clock(self, game_id: int, seat: str) -> SeatClockRecord:
        """The seat's counters (all defaults, ``updated_at`` None, if never stored)."""
        rows = await self._select(
            f"SELECT {CLOCK_COLUMNS} FROM seat_clocks WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return clock_record(rows[0]) if rows else SeatClockRecord(game_id=game_id, seat=seat)

    async def list_seat_clocks(self, game_id: int) -> list[SeatClockRecord]:
        """The stored counters of every seat of the game, by seat."""
        rows = await self._select(
            f"SELECT {CLOCK_COLUMNS} FROM seat_clocks WHERE game_id = ? ORDER BY {self._seat_order}",
            (game_id,),
        )
        return [clock_record(row) for row in rows]

    # -- settings ----------------------------------------------------------------------

    @memoized_read
    async def _get_json(self, table: str, key: str, value: int) -> dict[str, Any] | None:
        """The row of a ``(key, settings JSON, updated_at)`` table, JSON decoded, read
        once per click (``bot.storage.memo``)."""
        return await self._read_json(table, key, value)

    async def _read_json(self, table: str, key: str, value: int) -> dict[str, Any] | None:
        """:meth:`_get_json`'s read from the database."""
        rows = await self._select(
            f"SELECT {key}, settings, updated_at FROM {table} WHERE {key} = ?", (value,)
        )
        return settings_row(rows[0], key) if rows else None

    async def get_guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        """The guild's settings, or None if none were ever stored."""
        data = await self._get_json("guild_settings", "guild_id", guild_id)
        return None if data is None else GuildSettingsRecord.model_validate(data)

    async def put_guild_settings(self, guild_id: int, settings: JSONObject) -> GuildSettingsRecord:
        """Store (replace) the guild's settings and return them."""
        data = await self._put_json("guild_settings", "guild_id", guild_id, settings)
        return GuildSettingsRecord.model_validate(data)

    async def get_user_settings(self, user_id: int) -> UserSettingsRecord | None:
        """The player's settings, or None if none were ever stored."""
        data = await self._get_json("user_settings", "user_id", user_id)
        return None if data is None else UserSettingsRecord.model_validate(data)

    async def put_user_settings(self, user_id: int, settings: JSONObject) -> UserSettingsRecord:
        """Store (replace) the player's settings and return them."""
        data = await self._put_json("user_settings", "user_id", user_id, settings)
        return UserSettingsRecord.model_validate(data)

    async def get_game_settings(self, game_id: int) -> GameSettingsRecord | None:
        """The game's play-by-post settings, or None if none were stored."""
        data = await self._get_json("game_settings", "game_id", game_id)
        return None if data is None else GameSettingsRecord.model_validate(data)

    async def put_game_settings(self, game_id: int, settings: JSONObject) -> GameSettingsRecord:
        """Store (replace) the game's settings (:class:`GameNotFound` if no game)."""
        data = await self._put_json("game_settings", "game_id", game_id, settings, game=game_id)
        return GameSettingsRecord.model_validate(data)

    # -- spectators --------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int) -> bool:
        """The user follows the game; False if they already did."""
        return await self._follow(GAME_FOLLOWS, game_id, user_id, self._game_exists)

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """The user stops following the game; False if they did not follow it."""
        return await self._unfollow(GAME_FOLLOWS, game_id, user_id)

    async def followers(self, game_id: int) -> list[int]:
        """The users following the game, in the order they started."""
        return await self._followers(GAME_FOLLOWS, game_id)

    async def follow_campaign(self, campaign_id: int, user_id: int) -> bool:
        """The user follows the campaign; False if they already did
        (:class:`CampaignNotFound` if there is none)."""
        return await self._follow(CAMPAIGN_FOLLOWS, campaign_id, user_id, self._campaign_exists)

    async def unfollow_campaign(self, campaign_id: int, user_id: int) -> bool:
        """The user stops following the campaign; False if they did not follow it."""
        return await self._unfollow(CAMPAIGN_FOLLOWS, campaign_id, user_id)

    async def campaign_followers(self, campaign_id: int) -> list[int]:
        """The users following the campaign, in the order they started."""
        return await self._followers(CAMPAIGN_FOLLOWS, campaign_id)

    async def _followers(self, follows: tuple[str, str], item_id: int) -> list[int]:
        table, key = follows
        rows = await self._select(
            f"SELECT user_id FROM {table} WHERE {key} = ? ORDER BY created_at, user_id",
            (item_id,),
        )
        return [int(row["user_id"]) for row in rows]

    async def followed_games(self, user_id: int) -> list[int]:
        """The games the user follows."""
        rows = await self._select(
            "SELECT game_id FROM follows WHERE user_id = ? ORDER BY game_id", (user_id,)
        )
        return [int(row["game_id"]) for row in rows]

    # -- campaigns ---------------------------------------------------------------------

    async def get_campaign(self, campaign_id: int) -> CampaignRecord | None:
        """The campaign, or None."""
        rows = await self._select(
            f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ?", (campaign_id,)
        )
        return campaign_record(rows[0]) if rows else None

    async def get_campaign_by_thread(self, thread_id: int) -> CampaignRecord | None:
        """The campaign played in that thread (or channel), or None: the live one, else
        the latest (a channel may have been the home of several, one after another)."""
        rows = await self._select(
            f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE thread_id = ?"
            " ORDER BY status IN ('recruiting', 'active') DESC, id DESC LIMIT 1",
            (thread_id,),
        )
        return campaign_record(rows[0]) if rows else None

    async def list_campaigns(
        self,
        guild_id: int | None = None,
        statuses: Sequence[CampaignStatus] | None = None,
    ) -> list[CampaignRecord]:
        """Campaigns of a guild (or of every guild), with one of ``statuses`` (or any);
        newest first."""
        values = None if statuses is None else campaign_status_values(statuses)
        if values == []:
            return []
        clause, params = guild_status_clause(guild_id, values)
        rows = await self._select(
            f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns {clause}ORDER BY id DESC", params
        )
        return [campaign_record(row) for row in rows]

    async def campaign_members(self, campaign_id: int) -> list[CampaignMemberRecord]:
        """The campaign's members, in the order they joined."""
        rows = await self._select(
            f"SELECT {MEMBER_COLUMNS} FROM campaign_members WHERE campaign_id = ? "
            "ORDER BY joined_at, user_id",
            (campaign_id,),
        )
        return [CampaignMemberRecord.model_validate(dict(row)) for row in rows]

    async def load_campaign_log(
        self, campaign_id: int, after_seq: int = 0
    ) -> list[CampaignEntryRecord]:
        """The campaign's log entries with ``seq > after_seq``, in order."""
        rows = await self._select(
            f"SELECT {ENTRY_COLUMNS} FROM campaign_log "
            "WHERE campaign_id = ? AND seq > ? ORDER BY seq",
            (campaign_id, after_seq),
        )
        return [CampaignEntryRecord.model_validate(dict(row)) for row in rows]

    # -- content packs -----------------------------------------------------------------

    async def content_packs(self, guild_id: int) -> list[ContentPackRecord]:
        """The server's live packs (one a name), in the order they were uploaded."""
        rows = await self._select(
            f"SELECT {PACK_COLUMNS} FROM content_packs "
            "WHERE guild_id = ? AND removed_at IS NULL ORDER BY id",
            (guild_id,),
        )
        return [ContentPackRecord.model_validate(dict(row)) for row in rows]

    # -- ratings -----------------------------------------------------------------------

    async def ratings_version(self) -> int:
        """The ratings' version: bumped by every write to the ratings (0 before the
        first). A computation names the version it read when it writes."""
        rows = await self._select("SELECT version FROM ratings_cursor WHERE id = 1")
        return int(rows[0]["version"]) if rows else 0

    async def rating_ledger(self) -> list[RatedGameRecord]:
        """The ratings' ledger, by seq: the order a recomputation replays the games."""
        rows = await self._select("SELECT seq, game_id FROM rated_games ORDER BY seq")
        return [RatedGameRecord.model_validate(dict(row)) for row in rows]

    async def games_to_rate(self, limit: int) -> list[GameRecord]:
        """Up to ``limit`` finished games not yet in the ratings' ledger, in the order
        they finished (``finished_at``, then id): what a catch-up takes in next."""
        rows = await self._select(
            f"SELECT {GAME_COLUMNS} FROM games g WHERE status = ? "
            "AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) "
            "ORDER BY finished_at, id LIMIT ?",
            (GameStatus.FINISHED.value, limit),
        )
        return [game_record(row) for row in rows]

    async def board_size(self, system: str, guild_id: int) -> int:
        """How many players :meth:`leaderboard` lists in that board, every page."""
        rows = await self._select(
            f"SELECT count(*) FROM ratings r WHERE system = ? AND guild_id = ? {self._shown(guild_id)}",
            (system, guild_id),
        )
        return int(rows[0][0])

    async def leaderboard(
        self, system: str, guild_id: int, *, offset: int, limit: int
    ) -> list[RatingRecord]:
        """A page of a board, best first; the global board leaves out the players who
        hid themselves from it."""
        rows = await self._select(
            f"SELECT {RATING_COLUMNS} FROM ratings r WHERE system = ? AND guild_id = ? "
            f"{self._shown(guild_id)} ORDER BY score DESC, user_id LIMIT ? OFFSET ?",
            (system, guild_id, limit, offset),
        )
        return [rating_record(row) for row in rows]

    async def board_position(self, rating: RatingRecord) -> int | None:
        """Where ``rating`` stands on its board (1: first), or None when the board
        leaves its player out."""
        shown = self._shown(rating.guild_id)
        mine = await self._select(
            f"SELECT 1 FROM ratings r WHERE system = ? AND guild_id = ? AND user_id = ? {shown}",
            (rating.system, rating.guild_id, rating.user_id),
        )
        if not mine:
            return None
        rows = await self._select(
            "SELECT count(*) FROM ratings r WHERE system = ? AND guild_id = ? "
            f"AND (score > ? OR (score = ? AND user_id < ?)) {shown}",
            (rating.system, rating.guild_id, rating.score, rating.score, rating.user_id),
        )
        return int(rows[0][0]) + 1
