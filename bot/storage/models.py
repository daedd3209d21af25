"""Records returned by the storage layer.

Every record is a frozen pydantic model: the store hands out snapshots of rows, never
live objects, so nothing the caller does to a record changes the database. JSON columns
come back as plain ``dict`` values (JSON objects); timestamps come back as aware UTC
datetimes. Discord ids are ``int`` (64-bit).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeAlias

from pydantic import AwareDatetime, BaseModel, ConfigDict

__all__ = [
    "OPEN_STATUSES",
    "ActionRecord",
    "GameRecord",
    "GameStatus",
    "GuildSettingsRecord",
    "JSONObject",
    "MessageRecord",
    "SeatRecord",
    "SnapshotRecord",
]

JSONObject: TypeAlias = dict[str, Any]
"""A JSON object as Python data (str keys; values JSON-serialisable)."""


class GameStatus(StrEnum):
    """Where a game is in its life."""

    LOBBY = "lobby"
    """Created; players are taking seats; no action has been played."""
    ACTIVE = "active"
    """Started; actions are being appended to the log."""
    FINISHED = "finished"
    """Ended by the rules; ``result`` holds the outcome."""
    ABORTED = "aborted"
    """Stopped before its end (host cancelled, lobby expired, ...)."""

    @property
    def is_open(self) -> bool:
        """True for games a restart must reload (lobby and active)."""
        return self in OPEN_STATUSES


OPEN_STATUSES: tuple[GameStatus, ...] = (GameStatus.LOBBY, GameStatus.ACTIVE)
"""Statuses of the games that are still running (reloaded at start-up)."""


class _Record(BaseModel):
    """Base of every record: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class GuildSettingsRecord(_Record):
    """A server's settings."""

    guild_id: int
    """The Discord guild (server) id."""
    settings: JSONObject
    """The settings as a JSON object (deadlines, defaults, content packs...)."""
    updated_at: AwareDatetime
    """When the settings were last written."""


class GameRecord(_Record):
    """One game (dogfight or campaign) as stored: everything but seats and actions."""

    id: int
    """The game id, assigned by the store on creation."""
    guild_id: int
    """The guild the game was started in."""
    channel_id: int
    """The channel the game was started in (parent of its thread)."""
    thread_id: int | None
    """The game's thread, once created."""
    lobby_message_id: int | None
    """The lobby message (join buttons), if any."""
    host_id: int
    """The user who created the game."""
    system: str
    """Engine system id: ``dif``, ``lockedon``, ``eagles``."""
    ruleset: str
    """Ruleset within the system, e.g. ``rotl`` or ``zero`` for ``dif``."""
    status: GameStatus
    """Lobby, active, finished or aborted."""
    options: JSONObject
    """The game's setup: year, ruleset options, seats' aircraft, deadlines, etc."""
    seed: int
    """The seed of the game's RNG (signed 64-bit)."""
    version: int
    """Bumped by every write to the game; writes name the version they expect."""
    last_seq: int
    """The seq of the last action in the log (0 when the log is empty)."""
    created_at: AwareDatetime
    """When the game was created."""
    updated_at: AwareDatetime
    """When the game was last written."""
    finished_at: AwareDatetime | None
    """When the game became finished or aborted."""
    result: JSONObject | None
    """The outcome once finished (winner, VP...), else None."""

    @property
    def is_open(self) -> bool:
        """True while the game is in the lobby or active."""
        return self.status.is_open


class SeatRecord(_Record):
    """A seat of a game (one aircraft / flight / side position)."""

    game_id: int
    """The game."""
    seat: str
    """The seat's name, e.g. ``A1``; unique within the game."""
    side: str
    """The side the seat plays for, e.g. ``A`` / ``B`` or ``allies`` / ``axis``."""
    user_id: int | None
    """The Discord user holding the seat; None for an empty or AI seat."""
    display_name: str
    """Name shown for the seat (player's name at join time, or the AI's)."""
    payload: JSONObject
    """Seat details: aircraft, pilot, wingman choice..."""
    joined_at: AwareDatetime
    """When the seat was (last) taken."""


class ActionRecord(_Record):
    """One entry of a game's append-only action log."""

    game_id: int
    """The game."""
    seq: int
    """Position in the log, from 1, without gaps."""
    seat: str | None
    """The seat that acted; None for system actions (deadline defaults, setup)."""
    action: str
    """The action in canonical text notation."""
    created_at: AwareDatetime
    """When the action was committed."""


class SnapshotRecord(_Record):
    """A cached engine state, to load a game without replaying its whole log."""

    game_id: int
    """The game."""
    seq: int
    """The state is the one after action ``seq`` (0 = the initial state)."""
    state: JSONObject
    """The engine state as JSON."""
    created_at: AwareDatetime
    """When the snapshot was written."""


class MessageRecord(_Record):
    """A Discord message the bot must find again (e.g. the latest-move message)."""

    game_id: int
    """The game."""
    kind: str
    """What the message is for, e.g. ``latest``; one message per (game, kind)."""
    channel_id: int
    """The channel or thread holding the message."""
    message_id: int
    """The message id."""
    updated_at: AwareDatetime
    """When the message was recorded."""
