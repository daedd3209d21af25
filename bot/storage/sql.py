"""What the two SQL stores share: :class:`bot.storage.sqlite.SQLiteStorage` and
:class:`bot.storage.postgres.PostgresStorage` read and write the same tables with the
same columns, so the column lists are written once here, and so are the operations
that are the same on both databases over each store's own primitives
(:class:`SQLStorage`). What differs (placeholders, transactions, row types, how a
write reaches the database) stays in each store.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Awaitable, Sequence
from types import TracebackType
from typing import Any, Self

from bot.storage.base import Storage
from bot.storage.models import (
    OPEN_STATUSES,
    CampaignStatus,
    GameRecord,
    GameSettingsRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    RatedGameRecord,
    UserSettingsRecord,
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

GAME_FOLLOWS = ("follows", "game_id")
CAMPAIGN_FOLLOWS = ("campaign_follows", "campaign_id")
"""The spectators' tables and their key columns (the only table names the follow
helpers put in their SQL)."""


class SQLStorage(Storage):
    """The operations that read and write the same way on both databases, written
    over the primitives each store implements: one read statement (:meth:`_fetch`), a
    settings row (:meth:`_get_json`, :meth:`_put_json`), a spectators' table
    (:meth:`_follow`, :meth:`_unfollow`, :meth:`_followers`) and the existence checks
    made inside a write's transaction."""

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

    @abstractmethod
    async def _fetch(self, sql: str) -> Sequence[Any]:
        """The rows of one read statement (each store also takes its parameters)."""

    @abstractmethod
    def _get_json(self, table: str, key: str, value: int) -> Awaitable[dict[str, Any] | None]:
        """The row of a ``(key, settings JSON, updated_at)`` table, JSON decoded
        (memoized: ``bot.storage.memo``)."""

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
    async def _followers(self, follows: tuple[str, str], item_id: int) -> list[int]:
        """The users following the item, in the order they started."""

    @abstractmethod
    def _game_exists(self, conn: Any, game_id: int) -> Awaitable[None] | None:
        """Raise :class:`~bot.storage.base.GameNotFound` unless the game exists
        (inside a write's transaction, on its connection)."""

    @abstractmethod
    def _campaign_exists(self, conn: Any, campaign_id: int) -> Awaitable[None] | None:
        """Raise :class:`~bot.storage.base.CampaignNotFound` unless the campaign
        exists (inside a write's transaction, on its connection)."""

    async def list_open_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, in every guild; what a restart reloads."""
        return await self.list_games(statuses=OPEN_STATUSES)

    # -- settings ---------------------------------------------------------------------

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

    # -- spectators -------------------------------------------------------------------

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

    # -- ratings ----------------------------------------------------------------------

    async def ratings_version(self) -> int:
        """The ratings' version: bumped by every write to the ratings (0 before the
        first). A computation names the version it read when it writes."""
        rows = await self._fetch("SELECT version FROM ratings_cursor WHERE id = 1")
        return int(rows[0]["version"]) if rows else 0

    async def rating_ledger(self) -> list[RatedGameRecord]:
        """The ratings' ledger, by seq: the order a recomputation replays the games."""
        rows = await self._fetch("SELECT seq, game_id FROM rated_games ORDER BY seq")
        return [RatedGameRecord.model_validate(dict(row)) for row in rows]
