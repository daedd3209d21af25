"""The storage interface of Tally-Ho: what the bot may ask of its database.

The rest of the bot talks to storage only through :class:`Storage`, which speaks in
records (:mod:`bot.storage.models`) and never in SQL. SQL lives in the implementations:
:class:`bot.storage.sqlite.SQLiteStorage` is the embedded default. The interface is
written so that a PostgreSQL implementation (asyncpg, several bot processes or shards
over one database) can be added behind the same Protocol and pass the same test suite:

* ids, seeds and Discord snowflakes are 64-bit ``int`` (``BIGINT``);
* JSON columns are ``dict`` values (``JSONB``), timestamps aware UTC datetimes
  (``TIMESTAMPTZ``);
* every method is one unit of work: transactions never leak to the caller, so each
  backend picks its own (``BEGIN IMMEDIATE`` in SQLite, a pooled connection's
  transaction in PostgreSQL);
* concurrency between processes is handled by the database itself with a version
  check on the game row (optimistic concurrency, see :class:`StaleGameVersion`), not
  by in-process locks; :class:`bot.storage.locks.GameLocks` only avoids useless
  conflicts between coroutines of one process.

Every write to a game (``update_game``, ``append_action``, and seat changes) bumps
``GameRecord.version``. ``append_action`` and ``update_game`` require the version the
caller read; the write happens only if the game is still at that version. When a write
method returns, its data is committed and durable, so the bot may then answer the
player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from enum import Enum
from typing import Final, Protocol, TypeAlias

from bot.storage.models import (
    ActionRecord,
    GameRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    MessageRecord,
    SeatRecord,
    SnapshotRecord,
)

__all__ = [
    "UNSET",
    "Clock",
    "ConstraintViolation",
    "GameNotFound",
    "SeatNotFound",
    "StaleGameVersion",
    "Storage",
    "StorageError",
    "Unset",
    "utc_now",
]

Clock: TypeAlias = Callable[[], datetime]
"""Returns the current time as an aware datetime (injected so tests are deterministic)."""


def utc_now() -> datetime:
    """The default :data:`Clock`: the current time in UTC."""
    return datetime.now(UTC)


class Unset(Enum):
    """Type of :data:`UNSET`, the "leave this field alone" marker of ``update_game``."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset.UNSET
"""Default of the optional fields of ``update_game``: the field is not changed."""


class StorageError(Exception):
    """Base of the errors raised by the storage layer."""


class GameNotFound(StorageError, LookupError):
    """The game id names no game."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class SeatNotFound(StorageError, LookupError):
    """The game has no seat by that name."""

    def __init__(self, game_id: int, seat: str) -> None:
        super().__init__(f"game {game_id} has no seat {seat!r}")
        self.game_id = game_id
        self.seat = seat


class ConstraintViolation(StorageError, ValueError):
    """A write broke a constraint of the schema (e.g. a thread already holding a game);
    nothing was written."""


class StaleGameVersion(StorageError):
    """A write named a game version that is no longer current; nothing was written.

    Someone else (another click, another process) wrote to the game since the caller
    read it. The caller reloads the game and decides again.
    """

    def __init__(self, game_id: int, expected: int, actual: int | None = None) -> None:
        found = "" if actual is None else f", found {actual}"
        super().__init__(f"game {game_id} is no longer at version {expected}{found}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class Storage(Protocol):
    """What the bot needs from a database. Implementations: ``SQLiteStorage``.

    Opening is implementation-specific (a classmethod ``open`` on each implementation,
    which also applies migrations); everything else is here.
    """

    async def close(self) -> None:
        """Release the connection(s). The store cannot be used afterwards."""
        ...

    # -- guild settings -------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        """The guild's settings, or None if none were ever stored."""
        ...

    async def put_guild_settings(self, guild_id: int, settings: JSONObject) -> GuildSettingsRecord:
        """Store (replace) the guild's settings and return them."""
        ...

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
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None."""
        ...

    async def get_game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in that thread, or None."""
        ...

    async def list_games(
        self,
        guild_id: int | None = None,
        statuses: Iterable[GameStatus | str] | None = None,
    ) -> list[GameRecord]:
        """Games of a guild (or of every guild), with one of ``statuses`` (or any);
        oldest first."""
        ...

    async def list_open_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, in every guild; what a restart reloads."""
        ...

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
        ...

    # -- seats ----------------------------------------------------------------------

    async def get_seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats, ordered by seat name (``A2`` before ``A10``)."""
        ...

    async def seats_of_user(
        self,
        user_id: int,
        statuses: Iterable[GameStatus | str] | None = None,
    ) -> list[SeatRecord]:
        """Every seat the user holds, in games with one of ``statuses`` (or any)."""
        ...

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
        ...

    async def remove_seat(
        self, game_id: int, seat: str, *, expected_version: int | None = None
    ) -> int:
        """Remove a seat (:class:`SeatNotFound` if absent); bump and return the version."""
        ...

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
        ...

    async def load_actions(self, game_id: int, after_seq: int = 0) -> list[ActionRecord]:
        """The game's actions with ``seq > after_seq``, in order."""
        ...

    async def put_snapshot(self, game_id: int, seq: int, state: JSONObject) -> None:
        """Store (or replace) the state after action ``seq`` (0 = initial state).

        Snapshots are a cache and do not bump the version. ``ValueError`` if ``seq``
        is beyond the log.
        """
        ...

    async def latest_snapshot(self, game_id: int) -> SnapshotRecord | None:
        """The snapshot with the highest seq, or None."""
        ...

    # -- messages -------------------------------------------------------------------

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the game's message of that kind (replacing the previous one)."""
        ...

    async def get_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """The game's message of that kind, or None."""
        ...
