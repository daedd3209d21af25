"""Records returned by the storage layer.

Every record is a frozen pydantic model: the store hands out snapshots of rows, never
live objects, so nothing the caller does to a record changes the database. JSON columns
come back as plain ``dict`` values (JSON objects); timestamps come back as aware UTC
datetimes. Discord ids are ``int`` (64-bit).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias

from pydantic import AwareDatetime, BaseModel, ConfigDict

__all__ = [
    "GLOBAL",
    "OPEN_CAMPAIGN_STATUSES",
    "OPEN_STATUSES",
    "ActionRecord",
    "CampaignEntryKind",
    "CampaignEntryRecord",
    "CampaignMemberRecord",
    "CampaignRecord",
    "CampaignStatus",
    "ContentPackRecord",
    "DeadlineChanges",
    "DeadlineOpening",
    "DeadlineRecord",
    "DeadlineSettlement",
    "GameRecord",
    "GameSettingsRecord",
    "GameStatus",
    "GuildSettingsRecord",
    "JSONObject",
    "LogEntry",
    "MessageRecord",
    "MessageRow",
    "MoveCommitted",
    "RatedGameRecord",
    "RatingRecord",
    "SeatClockRecord",
    "SeatRecord",
    "SnapshotRecord",
    "UserSettingsRecord",
    "campaign_status_values",
    "canonical_json",
    "check_opening",
    "status_values",
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


class CampaignStatus(StrEnum):
    """Where a campaign is in its life."""

    RECRUITING = "recruiting"
    """Created; players are joining its sides; no mission has been played."""
    ACTIVE = "active"
    """Started: missions are being played and decisions taken between them."""
    FINISHED = "finished"
    """Ended by the campaign sheet's rules; ``result`` holds the outcome."""
    ABANDONED = "abandoned"
    """Stopped before its end (host cancelled, players gone, ...)."""

    @property
    def is_open(self) -> bool:
        """True for campaigns still running (recruiting and active)."""
        return self in OPEN_CAMPAIGN_STATUSES


OPEN_CAMPAIGN_STATUSES: tuple[CampaignStatus, ...] = (
    CampaignStatus.RECRUITING,
    CampaignStatus.ACTIVE,
)
"""Statuses of the campaigns that are still running."""


def canonical_json(value: JSONObject) -> str:
    """Canonical JSON text of a JSON object (stable, so equal data is equal text), as
    every store writes its JSON columns."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object (dict), got {type(value).__name__}")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def status_values(statuses: Iterable[GameStatus | str]) -> list[str]:
    """Validate game statuses (ValueError on an unknown one) and return their values."""
    return [GameStatus(s).value for s in statuses]


def campaign_status_values(statuses: Iterable[CampaignStatus | str]) -> list[str]:
    """Validate campaign statuses (ValueError on an unknown one); return their values."""
    return [CampaignStatus(s).value for s in statuses]


class CampaignEntryKind(StrEnum):
    """What an entry of a campaign's log records."""

    DECISION = "decision"
    """A choice taken between missions; ``entry`` is its canonical text."""
    OUTCOME = "outcome"
    """A mission's outcome as the campaign absorbs it; ``entry`` is JSON text."""
    ABORTED = "aborted"
    """A mission stopped without an outcome; ``entry`` is the reason."""


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
    posted_seq: int = 0
    """The seq of the last action the game's thread was told (Discord accepted the
    post): the actions after it are still to be posted (``cogs.outbox``)."""
    end_told: bool = True
    """False while the thread was not told of an end that came without an action (a
    resignation, a forfeit, an abort of a started game)."""
    start_told: bool = True
    """False from a game's start until its thread was told the start (the first
    prompts, picture and seed commitment): a start adds no action either."""
    created_at: AwareDatetime
    """When the game was created."""
    updated_at: AwareDatetime
    """When the game was last written."""
    finished_at: AwareDatetime | None
    """When the game became finished or aborted."""
    result: JSONObject | None
    """The outcome once finished (winner, VP...), else None."""
    campaign_id: int | None = None
    """The campaign this game is a mission of; None for a stand-alone game."""
    mission: int | None = None
    """The mission's number within its campaign (from 1); None outside a campaign."""

    @property
    def is_open(self) -> bool:
        """True while the game is in the lobby or active."""
        return self.status.is_open


class CampaignRecord(_Record):
    """One campaign (a series of linked games, its missions) as stored: everything but
    its members and its log."""

    id: int
    """The campaign id, assigned by the store on creation."""
    guild_id: int
    """The guild the campaign was started in."""
    channel_id: int
    """The channel the campaign was started in (parent of its thread)."""
    thread_id: int | None
    """The campaign's thread, once created."""
    host_id: int
    """The user who created the campaign."""
    system: str
    """Engine system id, e.g. ``lockedon``."""
    campaign: str
    """The campaign sheet's id within the system, e.g. ``yom-kippur-1973``."""
    status: CampaignStatus
    """Recruiting, active, finished or abandoned."""
    setup: JSONObject
    """The campaign's set-up: the options chosen at creation (scale, ...)."""
    seed: int
    """The campaign's seed (signed 64-bit); missions' seeds derive from it."""
    version: int
    """Bumped by every write to the campaign, its members or its log; writes may name
    the version they expect."""
    last_seq: int
    """The seq of the last entry of the log (0 when the log is empty)."""
    told_seq: int = 0
    """The seq of the last entry whose happenings the campaign's thread was sent."""
    created_at: AwareDatetime
    """When the campaign was created."""
    updated_at: AwareDatetime
    """When the campaign was last written."""
    finished_at: AwareDatetime | None
    """When the campaign became finished or abandoned."""
    result: JSONObject | None
    """The outcome once finished, else None."""

    @property
    def is_open(self) -> bool:
        """True while the campaign is recruiting or active."""
        return self.status.is_open


class CampaignEntryRecord(_Record):
    """One entry of a campaign's append-only log."""

    campaign_id: int
    """The campaign."""
    seq: int
    """Position in the log, from 1, without gaps."""
    kind: CampaignEntryKind
    """Decision, outcome or aborted."""
    side: str | None
    """The side the entry concerns (the side that decided), if one."""
    entry: str
    """A decision's canonical text, an outcome's JSON text, or an abort's reason."""
    game_id: int | None
    """The mission game the entry concerns, if one."""
    user_id: int | None
    """Who decided; None for the bot (deadlines, computer players)."""
    created_at: AwareDatetime
    """When the entry was committed."""


class CampaignMemberRecord(_Record):
    """A player of a campaign and the side they play."""

    campaign_id: int
    """The campaign."""
    user_id: int
    """The Discord user."""
    side: str
    """The side they play for."""
    display_name: str
    """Name shown for them (their name when they joined or last changed side)."""
    joined_at: AwareDatetime
    """When they joined (kept when their side or name changes)."""


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
    content: str | None = None
    """What the message shows, as the bot last sent it, to close it without fetching it
    first (None: not recorded, e.g. a row written before migration 0010)."""


@dataclass(frozen=True)
class MessageRow:
    """A message to remember (``Storage.swap_messages``): a row of ``messages`` but its
    game and time, which the store fills in."""

    kind: str
    """What the message is for (one message per game and kind)."""
    channel_id: int
    """The channel (a DM, a thread) holding the message."""
    message_id: int
    """The message id."""
    content: str | None = None
    """What the message shows, as the bot sends it."""


class UserSettingsRecord(_Record):
    """A player's own settings (the same in every server)."""

    user_id: int
    """The Discord user id."""
    settings: JSONObject
    """The settings as a JSON object, e.g. ``{"dm": true, "auto_pass": false,
    "tz": "Europe/Paris", "quiet_hours": {"start": "22:00", "end": "07:00"}}``."""
    updated_at: AwareDatetime
    """When the settings were last written."""


class GameSettingsRecord(_Record):
    """A game's play-by-post settings, fixed at creation (deadline overrides, mode...)."""

    game_id: int
    """The game."""
    settings: JSONObject
    """The settings as a JSON object, e.g. ``{"deadlines": {"turn_hours": 48},
    "mode": "fast"}``; keys absent here fall back to the server's."""
    updated_at: AwareDatetime
    """When the settings were last written."""


class ContentPackRecord(_Record):
    """One uploaded version of a server's content pack (``bot.packs``): never changed
    but for ``removed_at``, so a game that used it replays after the pack changes."""

    id: int
    """Assigned by the store: what a game's options name (``packs``)."""
    guild_id: int
    """The server the pack was uploaded to."""
    name: str
    """The pack's name (its document's ``pack:``), unique among a server's live packs."""
    version: int
    """1 for a name's first upload, then one more for each upload of that name."""
    file: str
    """The uploaded file's name (messages name it)."""
    digest: str
    """The SHA-256 of the document's bytes."""
    document: str
    """The YAML document as uploaded."""
    uploaded_by: int
    """The admin who uploaded it."""
    created_at: AwareDatetime
    """When it was uploaded."""
    removed_at: AwareDatetime | None
    """When it was removed or replaced by a newer version; None while it is live."""


class SeatClockRecord(_Record):
    """A seat's standing with the clock: missed deadlines, time bank, vacation."""

    game_id: int
    """The game."""
    seat: str
    """The seat."""
    missed_in_a_row: int = 0
    """Deadlines missed since the seat last acted (abandonment counts these)."""
    missed_total: int = 0
    """Deadlines missed over the whole game."""
    time_bank_seconds: int = 0
    """What is left of the seat's time bank."""
    vacation_from: AwareDatetime | None = None
    """Start of the seat's vacation (its deadlines pause), if any."""
    vacation_until: AwareDatetime | None = None
    """End of the seat's vacation, if any: the game waits on the seat until then."""
    updated_at: AwareDatetime | None = None
    """When the row was last written (None: never stored, these are the defaults)."""


class DeadlineRecord(_Record):
    """The deadline of one pending decision of one seat.

    Open while ``fired_at``, ``done_at`` and ``cancelled_at`` are None; *claimed* once
    ``fired_at`` is set (the default action is being applied) until ``done_at``;
    ``cancelled_at`` when the decision was taken (or vanished) in time.
    """

    id: int
    """Assigned by the store."""
    game_id: int
    """The game."""
    seat: str
    """The seat that must decide."""
    kind: str
    """What it must decide (the engine's ``Pending.kind``: ``play``, ``respond``...)."""
    decision_key: str
    """Identifies the decision within the seat, e.g. ``12:play`` (the game version at
    which it became pending): (game, seat, key) is unique."""
    user_id: int | None
    """The player holding the seat when the decision became pending."""
    created_at: AwareDatetime
    """When the decision became pending."""
    duration_seconds: int
    """The active time the player was given (quiet hours and vacation do not count)."""
    bank_seconds: int
    """The seat's time bank when the deadline was planned."""
    due_at: AwareDatetime
    """When the active time runs out (the time bank runs from here)."""
    expires_at: AwareDatetime
    """When the default action applies (``due_at`` plus the bank, in active time)."""
    reminder_ats: tuple[AwareDatetime, ...]
    """When each reminder falls, in order; at most one reminder is sent for each."""
    reminders_sent: int
    """How many reminders have been sent (or skipped as superseded)."""
    next_at: AwareDatetime
    """The next wake-up: the next unsent reminder, else ``expires_at``."""
    fired_at: AwareDatetime | None
    """When the deadline was claimed for its default action."""
    attempts: int
    """How many times the default action was attempted (more than 1 after a crash or
    an error in the callback)."""
    done_at: AwareDatetime | None
    """When the default action was applied (or found unnecessary)."""
    cancelled_at: AwareDatetime | None
    """When the decision was taken or vanished before expiry."""
    updated_at: AwareDatetime
    """When the row was last written."""

    @property
    def is_live(self) -> bool:
        """Open or claimed: the scheduler still has something to do with it."""
        return self.done_at is None and self.cancelled_at is None

    @property
    def is_claimed(self) -> bool:
        """Its default action is being applied (claimed, not done)."""
        return self.fired_at is not None and self.done_at is None and self.cancelled_at is None


# -- one move, one transaction (Storage.commit_move) ---------------------------------------


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action to append: who took it, its notation, and the state after it to keep
    as a snapshot (None: no snapshot at this seq)."""

    seat: str | None
    action: str
    snapshot: JSONObject | None = None


@dataclass(frozen=True, slots=True)
class DeadlineSettlement:
    """A live deadline whose decision was taken (``acted``: by its seat) or vanished:
    cancelled if still open; if ``acted``, the seat's missed-in-a-row count goes back
    to 0 and ``bank_used_seconds`` leave its time bank."""

    deadline_id: int
    acted: bool
    bank_used_seconds: int = 0


@dataclass(frozen=True, slots=True)
class DeadlineOpening:
    """The deadline of a new pending decision (the arguments of
    ``Storage.open_deadline``), and the time bank the seat's clock starts with if it
    has none yet (``seat_bank_seconds``: the seat's first decision; None: the seat's
    clock exists, as the planner read it, and no write makes sure of it)."""

    seat: str
    kind: str
    decision_key: str
    user_id: int | None
    created_at: datetime
    duration_seconds: int
    bank_seconds: int
    due_at: datetime
    expires_at: datetime
    reminder_ats: tuple[datetime, ...]
    seat_bank_seconds: int | None


def check_opening(d: DeadlineOpening) -> None:
    """``ValueError`` unless the deadline is well formed: reminders in order, expiry
    not before the due time, a bank that is not negative (checked before writing)."""
    if list(d.reminder_ats) != sorted(d.reminder_ats):
        raise ValueError("reminder times must be in order")
    if d.expires_at < d.due_at:
        raise ValueError("a deadline cannot expire before it is due")
    if d.seat_bank_seconds is not None and d.seat_bank_seconds < 0:
        raise ValueError(f"a time bank cannot be negative ({d.seat_bank_seconds})")


@dataclass(frozen=True, slots=True)
class DeadlineChanges:
    """What a change of a game does to its deadlines, written with the change: the
    deadlines settled, the ones opened, the seats whose missed count goes back to 0
    (they acted with no deadline open), or, when the game ended, every live one
    cancelled (``cancel_all``)."""

    settle: tuple[DeadlineSettlement, ...] = ()
    open: tuple[DeadlineOpening, ...] = ()
    reset_missed: tuple[str, ...] = ()
    cancel_all: bool = False
    at: datetime | None = None
    """When the change happened (the settlements' and cancellations' time); None if
    there is nothing to settle or cancel."""

    def __bool__(self) -> bool:
        return bool(self.settle or self.open or self.reset_missed or self.cancel_all)


@dataclass(frozen=True, slots=True)
class MoveCommitted:
    """What ``Storage.commit_move`` wrote: the game after it, the deadlines it opened
    (as stored: an existing one is returned as it was), and the ids of the deadlines
    it settled or cancelled."""

    game: GameRecord
    opened: tuple[DeadlineRecord, ...] = ()
    closed: tuple[int, ...] = ()


GLOBAL = 0
"""The ``guild_id`` of a global rating (no Discord id is 0)."""


class RatingRecord(_Record):
    """A player's current rating in one system, on one server or globally: an
    OpenSkill ``(mu, sigma)`` and the rated games behind it (``bot.ratings``)."""

    system: str
    """The game system's id."""
    guild_id: int
    """The server, or :data:`GLOBAL`."""
    user_id: int
    """The player."""
    mu: float
    """The rating's mean."""
    sigma: float
    """Its uncertainty (positive)."""
    games: int
    """Rated games played (at least one: a player has no row before their first)."""
    wins: int
    """Of which won."""
    losses: int
    """Of which lost (the rest were draws)."""

    @property
    def score(self) -> float:
        """The board's order: ``mu - 3 sigma`` (the rating nearly surely below the
        player's skill: OpenSkill's ordinal)."""
        return self.mu - 3 * self.sigma


class RatedGameRecord(_Record):
    """One step of the ratings' ledger: a finished game, as the ratings took it in."""

    seq: int
    """Its place in the ledger, from 1, without gaps: the order ratings replay."""
    game_id: int
    """The game (whether it changed any rating is decided from the game itself:
    practice and unrated games change none)."""
