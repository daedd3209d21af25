"""Tally-Ho's storage: games, seats, the append-only action log, settings, campaigns.

The bot depends on the :class:`Storage` interface and the records of
:mod:`bot.storage.models`; :class:`SQLiteStorage` is the embedded implementation
(a PostgreSQL one can be added behind the same interface). :class:`GameLocks`
serialises one process's writes to a game; the version check in the database
(:class:`StaleGameVersion`) protects it across processes. Migrations live in
:mod:`bot.storage.migrate` (not re-exported here, so the function ``migrate`` does not
shadow its module).
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
    GameRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    MessageRecord,
    SeatRecord,
    SnapshotRecord,
)
from bot.storage.sqlite import SQLiteStorage

__all__ = [
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
    "GameLocks",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GuildSettingsRecord",
    "JSONObject",
    "MessageRecord",
    "MigrationError",
    "SQLiteStorage",
    "SeatNotFound",
    "SeatRecord",
    "SnapshotRecord",
    "StaleCampaignVersion",
    "StaleGameVersion",
    "Storage",
    "StorageError",
    "Unset",
    "utc_now",
]
