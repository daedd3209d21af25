"""The storage interface of Tally-Ho: what the bot may ask of its database.

The rest of the bot talks to storage only through :class:`Storage`, which speaks in
records (:mod:`bot.storage.models`) and never in SQL. SQL lives in the implementations:
:class:`bot.storage.sqlite.SQLiteStorage` is the embedded default and
:class:`bot.storage.postgres.PostgresStorage` (asyncpg, several bot processes or
shards over one database) the shared one; both pass the same test suite
(``tests/storage``):

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

Campaigns (series of linked games, their missions) follow the same pattern: every
write to a campaign, its members or its log bumps ``CampaignRecord.version``;
``update_campaign`` may name the version it expects, and ``append_campaign_entry`` the
seq the log must end at (see :class:`StaleCampaignVersion`). A mission is an ordinary
game whose record names its campaign.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Final, Protocol, TypeAlias

from bot.storage.models import (
    ActionRecord,
    CampaignEntryKind,
    CampaignEntryRecord,
    CampaignMemberRecord,
    CampaignRecord,
    CampaignStatus,
    ContentPackRecord,
    DeadlineChanges,
    DeadlineRecord,
    GameRecord,
    GameSettingsRecord,
    GameStatus,
    GuildSettingsRecord,
    JSONObject,
    LogEntry,
    MessageRecord,
    MessageRow,
    MoveCommitted,
    RatedGameRecord,
    RatingRecord,
    SeatClockRecord,
    SeatRecord,
    SnapshotRecord,
    UserSettingsRecord,
)

__all__ = [
    "UNSET",
    "CampaignNotFound",
    "Clock",
    "ConstraintViolation",
    "DeadlineClosed",
    "GameNotFound",
    "SeatNotFound",
    "StaleCampaignVersion",
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


class CampaignNotFound(StorageError, LookupError):
    """The campaign id names no campaign."""

    def __init__(self, campaign_id: int) -> None:
        super().__init__(f"no campaign with id {campaign_id}")
        self.campaign_id = campaign_id


class SeatNotFound(StorageError, LookupError):
    """The game has no seat by that name."""

    def __init__(self, game_id: int, seat: str) -> None:
        super().__init__(f"game {game_id} has no seat {seat!r}")
        self.game_id = game_id
        self.seat = seat


class ConstraintViolation(StorageError, ValueError):
    """A write broke a constraint of the schema (e.g. a thread already holding a game);
    nothing was written."""


class DeadlineClosed(StorageError):
    """A deadline's default action was written for a deadline that is not claimed, or
    already done or cancelled; nothing was written."""

    def __init__(self, deadline_id: int, why: str = "is not claimed") -> None:
        super().__init__(f"deadline {deadline_id} {why}")
        self.deadline_id = deadline_id


class StalePlan(StorageError):
    """The rows a move was planned on (the game's settings, its players', its live
    deadlines and seat clocks) changed since the caller read them: another process, or
    another write of this one, wrote one of them. Nothing was written. The caller reads
    them again and plans the move again (``Storage.commit_move`` with ``replan``)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"the rows game {game_id}'s move was planned on changed")
        self.game_id = game_id


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


class StaleCampaignVersion(StorageError):
    """A write named a campaign version (or log position) that is no longer current;
    nothing was written.

    ``of`` says which: ``"version"`` (``update_campaign``'s ``expected_version``) or
    ``"seq"`` (``append_campaign_entry``'s ``expected_seq``: someone else already
    appended the entry for that step). The caller reloads the campaign and decides
    again.
    """

    def __init__(
        self, campaign_id: int, expected: int, actual: int | None = None, *, of: str = "version"
    ) -> None:
        found = "" if actual is None else f", found {actual}"
        if of == "seq":
            what = f"campaign {campaign_id}'s log no longer ends at seq {expected}"
        else:
            what = f"campaign {campaign_id} is no longer at {of} {expected}"
        super().__init__(what + found)
        self.campaign_id = campaign_id
        self.expected = expected
        self.actual = actual
        self.of = of


class Storage(Protocol):
    """What the bot needs from a database. Implementations: ``SQLiteStorage``,
    ``PostgresStorage``.

    Opening is implementation-specific (a classmethod ``open`` on each implementation,
    which also applies migrations); everything else is here.
    """

    shared: bool
    """Whether other bot processes may write to the database meanwhile (PostgreSQL);
    a SQLite file serves one process (``bot.config``), which then knows every write."""

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
        campaign_id: int | None = None,
        mission: int | None = None,
    ) -> GameRecord:
        """Create a game at version 0 with an empty log and return it (with its id).

        With ``campaign_id`` the game is mission number ``mission`` of that campaign
        (:class:`CampaignNotFound` if there is none; ``ValueError`` for a mission
        number without a campaign).
        """
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None."""
        ...

    async def game_version(self, game_id: int) -> int | None:
        """The game's version, or None if there is no such game: what a copy of the
        game held in memory is checked against, without reading the whole record."""
        ...

    async def prefetch(self, game_id: int) -> None:
        """Read now, unless the store holds them, the rows the game's next click reads
        before its move (its settings and its players', its live deadlines and seat
        clocks), so that click does not wait for them: called once a change of the game
        was answered. A hint, never needed for correctness: a store that reads them
        cheaply when asked does nothing."""
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

    async def list_unposted_games(self) -> list[GameRecord]:
        """Every game whose thread was not told all its actions (``posted_seq <
        last_seq``), its end (``end_told`` false) or its start (``start_told`` false),
        open or ended, oldest first: what a restart posts."""
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
        ...

    async def mark_posted(self, game_id: int, seq: int, *, end: bool = False) -> None:
        """Record that the game's thread was told every action up to ``seq``: raises
        ``posted_seq`` to ``seq``, never lowers it, and leaves the version alone (a
        move racing it never fails on it); with ``end``, its end too (``end_told``).
        The start is told too (``start_told``): a thread is told in order, its start
        first. Raises :class:`GameNotFound`."""
        ...

    async def games_of_campaign(self, campaign_id: int) -> list[GameRecord]:
        """The campaign's games (its missions), by mission number, then id."""
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

    async def hand_over_seat(
        self,
        game_id: int,
        expected_version: int,
        seat: SeatRecord,
        settings: JSONObject,
        marker: str,
    ) -> int:
        """A started game's seat handed to a new holder, whole, in one transaction: if
        the game is at ``expected_version``, replace the seat (``seat``: its new
        holder; its ``joined_at`` becomes the time of the write), store the game's ``settings`` (its computer seats, offers...) and
        append ``marker``, a system row (``bot.actionlog.handover_text``), to the log;
        return the game's new version. Raises :class:`StaleGameVersion` (nothing
        written) or :class:`GameNotFound`."""
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
        """One move of a game, whole, in one transaction: what a click (or a deadline's
        default) commits before anyone is answered.

        If the game is at ``expected_version``: append ``entries`` at the next seqs
        (one version bump each, their snapshots kept), then, when ``deadline_id`` is
        given, mark that deadline done (it must be claimed and not done or cancelled,
        else :class:`DeadlineClosed` and nothing is written: a default action is
        applied once), then write ``deadlines`` (settle, the game's own deadlines only,
        create the seat's clock with its bank if absent and open, reset missed counts,
        or cancel every live one),
        and with a ``result`` finish the game (status finished, the result kept).
        Raises :class:`StaleGameVersion` or :class:`GameNotFound` (nothing written).

        ``replan``: the caller can plan the move again. A store that holds what a click
        read ahead of its game from one click to the next (PostgreSQL) then commits only
        if the rows the move was planned on are as it read them, and raises
        :class:`StalePlan` otherwise (nothing written). Without it, or in a store that
        holds nothing another process writes (SQLite), the move is written as planned.
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

    async def set_message(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        content: str | None = None,
    ) -> None:
        """Remember the game's message of that kind (replacing the previous one), with
        what it shows (``content``, to edit it later without fetching it first)."""
        ...

    async def get_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """The game's message of that kind, or None."""
        ...

    async def list_messages(
        self, game_id: int, prefix: str | tuple[str, ...] = ""
    ) -> list[MessageRecord]:
        """The game's remembered messages whose kind starts with ``prefix`` (or with one
        of several, as ``str.startswith``), by kind."""
        ...

    async def delete_message(self, game_id: int, kind: str) -> MessageRecord | None:
        """Forget the game's message of that kind and return it; None if there was none,
        e.g. another process forgot it first: whoever gets the row handles the message,
        once."""
        ...

    async def swap_messages(
        self,
        game_id: int,
        claim: Mapping[str, MessageRow | None],
        remember: Sequence[MessageRow] = (),
    ) -> list[MessageRecord]:
        """In one write: forget the game's messages of the kinds in ``claim`` and return
        those this call forgot, by kind (one another process forgot first is not
        returned: whoever gets a row handles its message, once, as with
        :meth:`delete_message`); write in the place of each one forgotten the row
        ``claim`` gives for it (None: nothing), then remember ``remember``'s rows
        (replacing any of their kinds). A game's stale DMs are taken, those brought up
        to date remembered again and its new DMs remembered in one write after a move
        (``cogs.publisher.tell``), where three took one each.
        :class:`GameNotFound` if a row is written for no game."""
        ...

    # -- play-by-post settings --------------------------------------------------------

    async def get_user_settings(self, user_id: int) -> UserSettingsRecord | None:
        """The player's settings, or None if none were ever stored."""
        ...

    async def put_user_settings(self, user_id: int, settings: JSONObject) -> UserSettingsRecord:
        """Store (replace) the player's settings and return them."""
        ...

    async def get_game_settings(self, game_id: int) -> GameSettingsRecord | None:
        """The game's play-by-post settings, or None if none were stored."""
        ...

    async def put_game_settings(self, game_id: int, settings: JSONObject) -> GameSettingsRecord:
        """Store (replace) the game's settings (:class:`GameNotFound` if no game)."""
        ...

    # -- spectators -------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int) -> bool:
        """The user follows the game; False if they already did."""
        ...

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """The user stops following the game; False if they did not follow it."""
        ...

    async def followers(self, game_id: int) -> list[int]:
        """The users following the game, in the order they started."""
        ...

    async def followed_games(self, user_id: int) -> list[int]:
        """The games the user follows."""
        ...

    # -- seat clocks --------------------------------------------------------------------

    async def get_seat_clock(self, game_id: int, seat: str) -> SeatClockRecord:
        """The seat's counters (all defaults, ``updated_at`` None, if never stored)."""
        ...

    async def list_seat_clocks(self, game_id: int) -> list[SeatClockRecord]:
        """The stored counters of every seat of the game, by seat."""
        ...

    async def init_seat_clock(
        self, game_id: int, seat: str, *, time_bank_seconds: int
    ) -> SeatClockRecord:
        """Create the seat's counters with a full time bank if absent; return them
        (an existing row is left alone, so calling it at every decision is harmless)."""
        ...

    async def set_vacation(
        self, game_id: int, seat: str, start: datetime | None, until: datetime | None
    ) -> SeatClockRecord:
        """Set (or with two Nones, end) the seat's vacation; return the counters."""
        ...

    async def reset_missed(self, game_id: int, seat: str) -> bool:
        """The seat acted: its missed-in-a-row count goes back to 0. True if it was not 0."""
        ...

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
        ...

    async def get_deadline(self, deadline_id: int) -> DeadlineRecord | None:
        """The deadline, or None."""
        ...

    async def get_deadlines(self, deadline_ids: Sequence[int]) -> list[DeadlineRecord]:
        """The deadlines of these ids that exist, in any state, by id: what another
        process may have changed since a scheduler read them."""
        ...

    async def live_deadlines(self, game_id: int | None = None) -> list[DeadlineRecord]:
        """Open and claimed deadlines (of one game, or all), by ``next_at``; what a
        start-up reloads."""
        ...

    async def live_deadlines_page(self, after_id: int, limit: int) -> list[DeadlineRecord]:
        """Up to ``limit`` live deadlines with ``id > after_id``, by id: a start-up can
        load them page by page instead of holding every row twice at once."""
        ...

    async def due_deadlines(self, now: datetime, limit: int | None = None) -> list[DeadlineRecord]:
        """Live deadlines with ``next_at <= now``, by ``next_at``."""
        ...

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
        ...

    async def mark_reminders_sent(
        self, marks: Sequence[tuple[int, int, int]], now: datetime
    ) -> list[DeadlineRecord]:
        """For each ``(deadline id, expected sent, new sent)``: record the reminders as
        sent if the deadline is open and still at ``expected sent`` (compare-and-set,
        so two processes or a restart never send one twice). Returns the deadlines
        updated, in the order given."""
        ...

    async def claim_deadlines(
        self, claims: Sequence[tuple[int, int]], now: datetime, retry_at: datetime
    ) -> list[tuple[DeadlineRecord, SeatClockRecord]]:
        """For each ``(deadline id, expected attempts)``: claim the live deadline for
        its default action if its attempts are still ``expected`` (compare-and-set):
        set ``fired_at`` (first claim), count one more attempt, move ``next_at`` to
        ``retry_at``. The first claim also counts a missed deadline for the seat and
        spends the bank the deadline held. Returns the claimed deadlines with the seat's
        counters after the claim."""
        ...

    async def complete_deadlines(self, deadline_ids: Sequence[int], now: datetime) -> int:
        """Mark claimed deadlines done; return how many were still claimed."""
        ...

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
        ...

    async def cancel_game_deadlines(self, game_id: int, now: datetime) -> list[int]:
        """Cancel every live deadline of the game (it ended); return their ids."""
        ...

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
        ...

    # -- campaigns ----------------------------------------------------------------------

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
        ...

    async def get_campaign(self, campaign_id: int) -> CampaignRecord | None:
        """The campaign, or None."""
        ...

    async def get_campaign_by_thread(self, thread_id: int) -> CampaignRecord | None:
        """The campaign played in that thread, or None."""
        ...

    async def list_campaigns(
        self,
        guild_id: int | None = None,
        statuses: Sequence[CampaignStatus] | None = None,
    ) -> list[CampaignRecord]:
        """Campaigns of a guild (or of every guild), with one of ``statuses`` (or any);
        newest first."""
        ...

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
        ...

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
        ...

    async def load_campaign_log(
        self, campaign_id: int, after_seq: int = 0
    ) -> list[CampaignEntryRecord]:
        """The campaign's log entries with ``seq > after_seq``, in order."""
        ...

    async def put_campaign_member(
        self, campaign_id: int, user_id: int, *, side: str, display_name: str
    ) -> CampaignMemberRecord:
        """Add the user to the campaign, or change their side and name (they keep their
        place in the join order); bump the campaign's version (:class:`CampaignNotFound`)."""
        ...

    async def replace_campaign_member(
        self, campaign_id: int, leaving: int, coming: int, *, display_name: str
    ) -> CampaignMemberRecord | None:
        """``coming`` takes ``leaving``'s place (side and place in the join order), in
        one transaction, bumping the campaign's version; None (nothing written) if
        ``leaving`` is not a member or ``coming`` is one already."""
        ...

    async def remove_campaign_member(self, campaign_id: int, user_id: int) -> bool:
        """Remove the user from the campaign (bumping its version); False if they were
        not a member."""
        ...

    async def campaign_members(self, campaign_id: int) -> list[CampaignMemberRecord]:
        """The campaign's members, in the order they joined."""
        ...

    async def campaigns_of_user(
        self, user_id: int, statuses: Sequence[CampaignStatus] | None = None
    ) -> list[CampaignRecord]:
        """The campaigns the user is a member of, with one of ``statuses`` (or any);
        newest first."""
        ...

    async def follow_campaign(self, campaign_id: int, user_id: int) -> bool:
        """The user follows the campaign; False if they already did
        (:class:`CampaignNotFound` if there is none)."""
        ...

    async def unfollow_campaign(self, campaign_id: int, user_id: int) -> bool:
        """The user stops following the campaign; False if they did not follow it."""
        ...

    async def campaign_followers(self, campaign_id: int) -> list[int]:
        """The users following the campaign, in the order they started."""
        ...

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
        ...

    async def content_packs(self, guild_id: int) -> list[ContentPackRecord]:
        """The server's live packs (one a name), in the order they were uploaded."""
        ...

    async def content_packs_by_id(self, ids: Sequence[int]) -> list[ContentPackRecord]:
        """The pack versions with these ids, live or removed (what a game was created
        with), in the order of ``ids``; an unknown id is left out."""
        ...

    async def remove_content_pack(self, guild_id: int, name: str) -> ContentPackRecord | None:
        """Mark the server's live pack ``name`` removed (its rows stay, for the games
        that used it) and return it; None if the server has no live pack of that name."""
        ...

    # -- ratings ------------------------------------------------------------------------

    async def ratings_version(self) -> int:
        """The ratings' version: bumped by every write to the ratings (0 before the
        first). A computation names the version it read when it writes."""
        ...

    async def games_to_rate(self, limit: int) -> list[GameRecord]:
        """Up to ``limit`` finished games not yet in the ratings' ledger, in the order
        they finished (``finished_at``, then id): what a catch-up takes in next."""
        ...

    async def rating_ledger(self) -> list[RatedGameRecord]:
        """The ratings' ledger, by seq: the order a recomputation replays the games."""
        ...

    async def get_ratings(self, system: str, keys: Sequence[tuple[int, int]]) -> list[RatingRecord]:
        """The stored ratings in ``system`` of these ``(guild_id, user_id)`` (those
        that exist), in no particular order."""
        ...

    async def rate_game(
        self, expected_version: int, game_id: int, ratings: Sequence[RatingRecord]
    ) -> bool:
        """Take one finished game into the ledger (at its next seq) with the ratings it
        changed (stored, each replacing the player's previous one), in one transaction,
        if the ratings are still at ``expected_version`` (then bumped); False (nothing
        written) otherwise. :class:`ConstraintViolation` if the game is in the ledger
        already."""
        ...

    async def replace_ratings(self, expected_version: int, ratings: Sequence[RatingRecord]) -> bool:
        """Replace every stored rating by ``ratings`` (a recomputation), in one
        transaction, if the ratings are still at ``expected_version`` (then bumped);
        False (nothing written) otherwise."""
        ...

    async def ratings_of_user(self, user_id: int) -> list[RatingRecord]:
        """The player's ratings, by system, then scope (:data:`GLOBAL` first)."""
        ...

    async def leaderboard(
        self, system: str, guild_id: int, *, offset: int, limit: int
    ) -> list[RatingRecord]:
        """A page of a board: the ratings of ``system`` in that scope, best first
        (``score``, then user id), from the ``offset``-th; the global board
        (:data:`GLOBAL`) leaves out the players whose settings hide them from it
        (``"global_board": false``)."""
        ...

    async def board_size(self, system: str, guild_id: int) -> int:
        """How many players :meth:`leaderboard` lists in that board, every page."""
        ...

    async def board_position(self, rating: RatingRecord) -> int | None:
        """Where ``rating`` stands on its board (1: first), or None when the board
        leaves its player out (hidden from the global board)."""
        ...
