"""Tally-Ho's storage: games, seats, the append-only action log, settings, campaigns.

The bot depends on the :class:`Storage` interface and the records of
:mod:`bot.storage.models`; :class:`SQLiteStorage` is the embedded implementation
and :class:`PostgresStorage` the shared one (several processes or shards over one
database); :func:`open_storage` picks one from the ``TALLYHO_DATABASE`` setting.
:class:`GameLocks` serialises one process's writes to a game; the version check in the
database (:class:`StaleGameVersion`) protects it across processes. Migrations live in
:mod:`bot.storage.migrate` and :mod:`bot.storage.migrate_postgres` (not re-exported
here, so the function ``migrate`` does not shadow its module).
"""

from __future__ import annotations

from bot.storage.base import (
    UNSET,
    CampaignNotFound,
    Clock,
    ConstraintViolation,
    GameNotFound,
    SeatNotFound,
    StaleCampaignVersion,
    StaleGameVersion,
    StalePlan,
    Storage,
    StorageError,
    Unset,
    utc_now,
)
from bot.storage.locks import GameLocks
from bot.storage.migrate import MigrationError
from bot.storage.models import (
    OPEN_CAMPAIGN_STATUSES,
    OPEN_STATUSES,
    ActionRecord,
    CampaignEntryKind,
    CampaignEntryRecord,
    CampaignMemberRecord,
    CampaignRecord,
    CampaignStatus,
    ContentPackRecord,
    GameRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    MessageRecord,
    MessageRow,
    SeatRecord,
    SnapshotRecord,
)
from bot.storage.postgres import DEFAULT_POOL_SIZE, PostgresStorage, is_postgres_url
from bot.storage.sqlite import SQLiteStorage

__all__ = [
    "DEFAULT_POOL_SIZE",
    "OPEN_CAMPAIGN_STATUSES",
    "OPEN_STATUSES",
    "UNSET",
    "ActionRecord",
    "CampaignEntryKind",
    "CampaignEntryRecord",
    "CampaignMemberRecord",
    "CampaignNotFound",
    "CampaignRecord",
    "CampaignStatus",
    "Clock",
    "ConstraintViolation",
    "ContentPackRecord",
    "GameLocks",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GuildSettingsRecord",
    "JSONObject",
    "MessageRecord",
    "MessageRow",
    "MigrationError",
    "PostgresStorage",
    "SQLiteStorage",
    "SeatNotFound",
    "SeatRecord",
    "SnapshotRecord",
    "StaleCampaignVersion",
    "StaleGameVersion",
    "StalePlan",
    "Storage",
    "StorageError",
    "Unset",
    "open_storage",
    "utc_now",
]


async def open_storage(
    location: str, *, clock: Clock = utc_now, pool_size: int = DEFAULT_POOL_SIZE
) -> Storage:
    """Open (and migrate) the store named by ``location``, the ``TALLYHO_DATABASE``
    setting: a ``postgresql://`` (or ``postgres://``) URL opens a
    :class:`PostgresStorage` with at most ``pool_size`` connections
    (``TALLYHO_DATABASE_POOL``), anything else is the path of a SQLite file
    (``:memory:`` for a throw-away one)."""
    if is_postgres_url(location):
        return await PostgresStorage.open(location, clock=clock, pool_size=pool_size)
    return await SQLiteStorage.open(location, clock=clock)
