"""The deadline scheduler: reminders and default actions on time, across restarts.

:class:`DeadlineScheduler` keeps every live deadline (open or claimed) in memory in a
heap keyed by its next wake-up (the next reminder, else the expiry), and one asyncio
task that sleeps until the earliest (woken early when an earlier one is added). When
something falls due it calls the caller's callbacks:

* ``on_reminder(deadline, n)``: the ``n``-th reminder of the decision (1-based, at most
  ``len(deadline.reminder_ats)`` per decision);
* ``on_due(deadline, seat_clock)``: the deadline expired (the time bank included): apply
  the default action. ``seat_clock`` holds the seat's counters *after* this miss
  (``missed_in_a_row`` for abandonment, the rest of the time bank).

Every deadline lives in the database (:meth:`bot.storage.base.Storage.open_deadline`);
the heap is a cache that :meth:`DeadlineScheduler.load` rebuilds at start-up.

**Several processes on one database.** Any process may fire any deadline. Each
scheduler polls the database (:meth:`DeadlineScheduler.poll`, every ``poll_interval``,
30 s by default) for the live deadlines that fall due before its next poll, so it
sees the deadlines other processes opened, claimed or moved; and before firing what
woke, it re-reads those rows (:meth:`~bot.storage.base.Storage.get_deadlines`): one
another process reminded, claimed, rescheduled or closed since is re-armed at its new
time or forgotten, not fired from a stale copy. A claim is a **lease**: the claim
moves ``next_at`` to ``retry_at`` (now + ``retry_delay``), and a claimed deadline is
due again only then, in every process (at load too). A live claimer finishes within
its lease and marks the deadline done; a claimer that died leaves it claimed, and
whichever process claims it next after the lease (compare-and-set on ``attempts``)
runs ``on_due`` again, once. :meth:`DeadlineScheduler.reload_game` re-reads one
game's deadlines before its pending decisions are synced, so a process settles the
deadlines another one opened.

Delivery guarantees (the database decides, with compare-and-set updates, so they hold
across restarts and even with two processes on one database):

* **Reminders: at most once.** The reminder is recorded as sent (``reminders_sent``
  moves from the count read to the new count, only if still at the count read) and
  only then is ``on_reminder`` called. A crash between the two loses that reminder;
  nothing ever sends it twice. After downtime, reminders whose time passed collapse
  into one (the latest); none is sent once the deadline itself has expired.
* **Default actions: exactly once.** At expiry the deadline is *claimed* (``fired_at``
  set, ``attempts`` + 1, compare-and-set on ``attempts``); the first claim also counts
  the missed deadline and spends the bank, once. Then ``on_due`` is called, and when it
  returns the deadline is marked done. ``on_due`` is therefore called **at least
  once**: again after a crash or an exception before the deadline was marked done (with
  ``deadline.attempts`` > 1). The default action itself is applied exactly once when
  ``on_due`` writes it with :meth:`~bot.storage.base.Storage.append_deadline_action`,
  which appends the action *and* marks the deadline done in one transaction, and
  refuses (``DeadlineClosed``) when the deadline is already done: a crash before that
  commit leaves the deadline claimed and the game unchanged, so the retry applies the
  action; a crash after it leaves the deadline done, so there is no retry. Anything
  else ``on_due`` does (messages) happens at least once unless it checks
  ``deadline.attempts``.

A deadline that expired while the bot was down is claimed and fired once by the first
:meth:`DeadlineScheduler.run_due` after :meth:`~DeadlineScheduler.load` (the task runs
one immediately); a claimed deadline whose ``on_due`` never finished is retried at its
lease end (``retry_delay`` after the claim).

Times come from an injectable :class:`bot.clock.Clock`; with a
:class:`bot.clock.FakeClock` nothing sleeps for real, and tests may also drive
:meth:`DeadlineScheduler.run_due` directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import sys
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.clock import Clock, SystemClock
from bot.deadlines import DeadlineSettings, DecisionTerms, Interval, quiet_hours_of, reminders_due
from bot.recent import Recent
from bot.storage.base import Storage
from bot.storage.models import (
    DeadlineChanges,
    DeadlineOpening,
    DeadlineRecord,
    DeadlineSettlement,
    GameStatus,
    MoveCommitted,
    SeatClockRecord,
)

__all__ = [
    "POLL_INTERVAL",
    "DeadlineScheduler",
    "DueCallback",
    "PendingDecision",
    "ReminderCallback",
    "StoredTerms",
    "TermsSource",
]

log = logging.getLogger(__name__)

POLL_INTERVAL = timedelta(seconds=30)
"""How often a scheduler reads what falls due from the database, by default."""

GUILDS_HELD = 4096
"""Games whose guild :class:`StoredTerms` remembers (it reads a game's guild once)."""

ReminderCallback = Callable[[DeadlineRecord, int], Awaitable[None]]
"""``on_reminder(deadline, n)``: send the ``n``-th reminder (1-based) of the decision."""
DueCallback = Callable[[DeadlineRecord, SeatClockRecord], Awaitable[None]]
"""``on_due(deadline, seat_clock)``: the deadline expired; apply the default action
(with ``Storage.append_deadline_action``). Called again after a crash or an exception
until it returns."""


@dataclass(frozen=True, slots=True)
class PendingDecision:
    """A decision a seat must take now (the service's ``Prompt``/the engine's
    ``Pending``, with who holds the seat)."""

    seat: str
    kind: str
    user_id: int | None = None


class TermsSource(Protocol):
    """Decides each new decision's deadline terms (policy lives here, not in the
    scheduler)."""

    async def terms(
        self, game_id: int, seat: str, kind: str, user_id: int | None
    ) -> DecisionTerms | None:
        """The terms for this decision, or None for no deadline (deadlines off, AI)."""
        ...


class StoredTerms:
    """The terms from the database: the server's and the game's :class:`DeadlineSettings`
    (key ``"deadlines"`` of the guild and game settings), the player's quiet hours
    (user settings), the seat's vacation and time bank (its seat clock; a full bank at
    the seat's first decision, whose clock is created with the deadline). Reads only.
    No deadline for a seat without a player."""

    def __init__(
        self, storage: Storage, settings_type: type[DeadlineSettings] = DeadlineSettings
    ) -> None:
        """``settings_type``: the model read from the ``"deadlines"`` keys, e.g. a
        subclass with more policy (``bot.settings.DeadlinePolicy``)."""
        self.storage = storage
        self.settings_type = settings_type
        self._guilds: Recent[int, int] = Recent(GUILDS_HELD)
        """The guild of each game asked about lately (a game's guild never changes)."""

    async def _guild_of(self, game_id: int) -> int | None:
        """The game's guild (None if the game does not exist), read once per game."""
        guild_id = self._guilds.get(game_id)
        if guild_id is None:
            game = await self.storage.get_game(game_id)
            if game is None:
                return None
            guild_id = game.guild_id
            self._guilds.put(game_id, guild_id)
        return guild_id

    async def settings(self, game_id: int) -> DeadlineSettings | None:
        """The game's deadline settings (None if the game does not exist). Malformed
        stored settings are logged and replaced by the defaults: a game never stalls
        on them."""
        guild_id = await self._guild_of(game_id)
        if guild_id is None:
            return None
        guild = await self.storage.get_guild_settings(guild_id)
        own = await self.storage.get_game_settings(game_id)
        try:
            return self.settings_type.resolve(
                guild.settings if guild else None, own.settings if own else None
            )
        except ValueError:
            log.exception("game %s: malformed deadline settings; using the defaults", game_id)
            return self.settings_type()

    async def terms(
        self, game_id: int, seat: str, kind: str, user_id: int | None
    ) -> DecisionTerms | None:
        settings = await self.settings(game_id)
        if settings is None or not settings.enabled or user_id is None:
            return None
        user = await self.storage.get_user_settings(user_id)
        try:
            quiet = quiet_hours_of(user.settings if user else None)
        except (KeyError, ValueError):
            log.warning("user %s has malformed quiet hours; ignoring them", user_id)
            quiet = None
        clock = await self.storage.get_seat_clock(game_id, seat)
        bank = (
            clock.time_bank_seconds
            if clock.updated_at is not None
            else int(settings.time_bank.total_seconds())  # the seat's first decision
        )
        pauses: tuple[Interval, ...] = ()
        if clock.vacation_from is not None and clock.vacation_until is not None:
            pauses = ((clock.vacation_from, clock.vacation_until),)
        return DecisionTerms(
            duration=settings.duration(kind),
            reminders=settings.reminder_fractions,
            quiet=quiet,
            pauses=pauses,
            bank=timedelta(seconds=bank),
            first=clock.updated_at is None,
        )


class _Held:
    """A live deadline as the scheduler holds it: the record's values in slots, without
    pydantic's per-instance bookkeeping (a third of the memory of a record)."""

    __slots__ = (
        "attempts",
        "bank_seconds",
        "created_at",
        "decision_key",
        "due_at",
        "duration_seconds",
        "expires_at",
        "fired_at",
        "game_id",
        "id",
        "kind",
        "next_at",
        "reminder_ats",
        "reminders_sent",
        "seat",
        "updated_at",
        "user_id",
    )
    attempts: int
    bank_seconds: int
    created_at: datetime
    decision_key: str
    due_at: datetime
    duration_seconds: int
    expires_at: datetime
    fired_at: datetime | None
    game_id: int
    id: int
    kind: str
    next_at: datetime
    reminder_ats: tuple[datetime, ...]
    reminders_sent: int
    seat: str
    updated_at: datetime
    user_id: int | None

    def __init__(self, d: DeadlineRecord) -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(d, name))
        self.seat = sys.intern(d.seat)
        self.kind = sys.intern(d.kind)

    @property
    def is_claimed(self) -> bool:
        return self.fired_at is not None

    def record(self) -> DeadlineRecord:
        values = {name: getattr(self, name) for name in self.__slots__}
        return DeadlineRecord.model_construct(**values, done_at=None, cancelled_at=None)


def _seconds(amount: timedelta) -> int:
    return max(0, round(amount.total_seconds()))


def _stop_if_cancelled() -> None:
    """Inside ``except Exception``: if the current task is being cancelled (``stop()``),
    stop now. A callback or a query interrupted by the cancellation may fail with an
    ordinary error instead of ``CancelledError``; caught and retried like any other,
    it would swallow the cancellation and ``stop()`` would wait forever."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        log.warning("deadline scheduler: an error while stopping", exc_info=True)
        raise asyncio.CancelledError


class DeadlineScheduler:
    """Fires reminders and expired deadlines on time; see the module docstring.

    Use: ``await scheduler.start()`` once the bot can talk (it loads every live
    deadline and fires the overdue ones), :meth:`sync` after every change of a game's
    pending decisions, :meth:`cancel_game` when a game ends, ``await scheduler.stop()``
    at shutdown.
    """

    LOAD_PAGE = 1000
    """Deadlines read per query by :meth:`load`."""

    def __init__(
        self,
        storage: Storage,
        *,
        on_reminder: ReminderCallback,
        on_due: DueCallback,
        clock: Clock | None = None,
        terms: TermsSource | None = None,
        retry_delay: timedelta = timedelta(minutes=1),
        max_sleep: timedelta = timedelta(minutes=5),
        poll_interval: timedelta = POLL_INTERVAL,
    ) -> None:
        """``retry_delay``: a claim's lease: how long after a claim ``on_due`` is tried
        again if it failed or its process died. ``max_sleep``: the task re-reads the
        clock at least this often (wall-clock jumps, suspended machines).
        ``poll_interval``: how often the task reads what falls due from the database
        (:meth:`poll`): the longest a deadline another process opened waits for this
        one to know it."""
        self.storage = storage
        self.on_reminder = on_reminder
        self.on_due = on_due
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.terms: TermsSource = terms if terms is not None else StoredTerms(storage)
        self.retry_delay = retry_delay
        self.max_sleep = max_sleep
        if poll_interval <= timedelta(0):
            raise ValueError(f"poll_interval must be positive, not {poll_interval}")
        self.poll_interval = poll_interval
        self._poll_at = 0.0
        self._live: dict[int, _Held] = {}
        self._wake: dict[int, float] = {}
        self._by_game: dict[int, set[int]] = {}
        self._heap: list[tuple[float, int]] = []
        self._armed: float | None = None
        self._changed = asyncio.Event()
        self._run_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.fired = 0
        """Callbacks called since creation (reminders and dues), for benchmarks."""

    # -- in-memory index ----------------------------------------------------------------

    def __len__(self) -> int:
        """How many live deadlines the scheduler holds."""
        return len(self._live)

    def __contains__(self, deadline_id: object) -> bool:
        return deadline_id in self._live

    def get(self, deadline_id: int) -> DeadlineRecord | None:
        held = self._live.get(deadline_id)
        return None if held is None else held.record()

    def of_game(self, game_id: int) -> list[DeadlineRecord]:
        """The game's live deadlines, soonest expiry first: who the game waits on and
        until when (``expires_at``)."""
        return [h.record() for h in self._held_of(game_id)]

    def _held_of(self, game_id: int) -> list[_Held]:
        """:meth:`of_game` as held (no record built: a move's planning reads a few
        values of each)."""
        found = [self._live[i] for i in self._by_game.get(game_id, ())]
        return sorted(found, key=lambda d: (d.expires_at, d.seat, d.id))

    def next_wake(self) -> datetime | None:
        """When the scheduler must next run (None: nothing to do)."""
        self._drop_stale()
        if not self._heap:
            return None
        return datetime.fromtimestamp(self._heap[0][0], tz=UTC)

    def _wake_time(self, d: DeadlineRecord | _Held) -> float:
        return d.next_at.timestamp()

    def _hold(self, d: DeadlineRecord | _Held) -> _Held:
        """Hold (or refresh) a live deadline's values without arming it."""
        if isinstance(d, DeadlineRecord):
            d = _Held(d)
        self._live[d.id] = d
        self._by_game.setdefault(d.game_id, set()).add(d.id)
        return d

    def _put(self, d: DeadlineRecord | _Held, wake: float | None = None) -> None:
        """Hold (or refresh) a live deadline and (re)arm its wake-up."""
        if isinstance(d, DeadlineRecord) and not d.is_live:
            self._forget(d.id)
            return
        d = self._hold(d)
        when = self._wake_time(d) if wake is None else wake
        if self._wake.get(d.id) != when:
            self._wake[d.id] = when
            heapq.heappush(self._heap, (when, d.id))
            if self._armed is None or when < self._armed:
                self._changed.set()
        if len(self._heap) > 2 * len(self._wake) + 1024:
            self._heap = [(w, i) for i, w in self._wake.items()]
            heapq.heapify(self._heap)

    def _forget(self, deadline_id: int) -> None:
        d = self._live.pop(deadline_id, None)
        self._wake.pop(deadline_id, None)
        if d is not None:
            ids = self._by_game.get(d.game_id)
            if ids is not None:
                ids.discard(deadline_id)
                if not ids:
                    del self._by_game[d.game_id]

    def _drop_stale(self) -> None:
        heap = self._heap
        while heap and self._wake.get(heap[0][1]) != heap[0][0]:
            heapq.heappop(heap)

    def _pop_due(self, until: float) -> list[int]:
        due: list[int] = []
        heap = self._heap
        while heap and heap[0][0] <= until:
            when, deadline_id = heapq.heappop(heap)
            if self._wake.get(deadline_id) == when:
                del self._wake[deadline_id]
                due.append(deadline_id)
        return due

    # -- start-up and the task ------------------------------------------------------------

    async def load(self) -> int:
        """(Re)load every live deadline from the database; return how many.

        A claimed deadline (its ``on_due`` is running in another process, or a crash or
        an error interrupted it) is due at its lease end (its ``next_at``, the claim's
        ``retry_at``): a live claimer keeps it until then. Fires nothing:
        :meth:`run_due` (or the task of :meth:`start`) does.
        """
        now = self.clock.now().timestamp()
        self._poll_at = now + self.poll_interval.total_seconds()
        self._live.clear()
        self._wake.clear()
        self._by_game.clear()
        after = 0
        while True:  # page by page: never every row as a record at once
            page = await self.storage.live_deadlines_page(after, self.LOAD_PAGE)
            for record in page:
                d = self._hold(record)
                self._wake[d.id] = self._wake_time(d)
            if len(page) < self.LOAD_PAGE:
                break
            after = page[-1].id
        self._heap = [(w, i) for i, w in self._wake.items()]
        heapq.heapify(self._heap)
        self._changed.set()
        return len(self._live)

    async def poll(self) -> int:
        """Read the live deadlines that fall due before the next poll from the database
        and arm them (the database's copy wins): those other processes opened, claimed
        (due at the lease end), reminded or moved. Returns how many were read.

        Reads at most :attr:`LOAD_PAGE`, soonest first; when that many came, the next
        poll comes when the last of them falls due, and reads the next ones.
        """
        async with self._run_lock:  # never re-arms a deadline while it is being fired
            now = self.clock.now()
            horizon = now + self.poll_interval
            page = await self.storage.due_deadlines(horizon, self.LOAD_PAGE)
            for record in page:
                self._put(record)
            self._poll_at = horizon.timestamp()
            if len(page) >= self.LOAD_PAGE:
                self._poll_at = max(now.timestamp(), page[-1].next_at.timestamp())
            return len(page)

    async def reload_game(self, game_id: int) -> list[DeadlineRecord]:
        """Re-read the game's live deadlines from the database (the database's copy
        wins; those no longer live are forgotten) and return them, soonest expiry
        first: call it before syncing a game another process may have changed."""
        await self.refresh_game(game_id)
        return self.of_game(game_id)

    async def refresh_game(self, game_id: int) -> None:
        """:meth:`reload_game`, returning nothing (before a move's :meth:`plan`)."""
        fresh = await self.storage.live_deadlines(game_id)
        for deadline_id in self._by_game.get(game_id, set()) - {d.id for d in fresh}:
            self._forget(deadline_id)
        for record in fresh:
            self._put(record)

    async def start(self) -> int:
        """Load the live deadlines and start the task, which at once fires what fell due
        while the bot was down (once), then sleeps until the next wake-up."""
        count = await self.load()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="deadline-scheduler")
        return count

    async def stop(self, grace: float = 0.0) -> None:
        """Stop the task. A firing in progress (:meth:`run_due`) gets ``grace`` seconds
        to finish and none starts after it; past them, or with no grace, it is
        cancelled: a default action is committed whole or not at all, and a deadline
        claimed but not done fires again when its lease is up (at the next start, or in
        another process)."""
        task, self._task = self._task, None
        if task is None:
            return
        held = False
        if grace > 0:
            try:
                async with asyncio.timeout(grace):
                    await self._run_lock.acquire()
                held = True
            except TimeoutError:
                log.warning("deadline scheduler: a firing did not finish in %ss", grace)
        try:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        finally:
            if held:
                self._run_lock.release()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _run(self) -> None:
        while True:
            try:
                if self.clock.now().timestamp() >= self._poll_at:
                    await self.poll()
                await self.run_due()
            except Exception:  # a storage hiccup must not kill the scheduler
                _stop_if_cancelled()
                log.exception("deadline scheduler: run_due failed; retrying")
                await self.clock.sleep(self.retry_delay.total_seconds())
                continue
            self._changed.clear()
            self._drop_stale()
            now = self.clock.now().timestamp()
            delay = self.max_sleep.total_seconds()
            if self._heap:
                self._armed = self._heap[0][0]
                delay = min(delay, self._armed - now)
            else:
                self._armed = None
            delay = min(delay, self._poll_at - now)
            if delay <= 0:
                continue
            # until a moment, not for a delay: the sleeper starts a little later, and
            # the clock may have moved by then (a test's FakeClock, a slow loop)
            wake = datetime.fromtimestamp(now + delay, UTC)
            sleeper = asyncio.ensure_future(self.clock.sleep_until(wake))
            woken = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait({sleeper, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeper.cancel()
                woken.cancel()
            self._armed = None

    # -- firing ---------------------------------------------------------------------------

    async def run_due(self, now: datetime | None = None) -> int:
        """Fire everything due at ``now`` (default: the clock's time); return how many
        callbacks were called. The task calls it; tests may call it directly."""
        async with self._run_lock:
            now = self.clock.now() if now is None else now
            due = self._pop_due(now.timestamp())
            if not due:
                return 0
            calls = 0
            try:
                reminders, claims = await self._triage(due, now)
                if reminders:
                    calls += await self._send_reminders(reminders, now)
                if claims:
                    calls += await self._fire(claims, now)
            except BaseException:
                # The storage failed (or we were cancelled) mid-way: whatever was popped
                # and not re-armed wakes again after the retry delay, not never.
                later = (now + self.retry_delay).timestamp()
                for deadline_id in due:
                    d = self._live.get(deadline_id)
                    if d is not None and deadline_id not in self._wake:
                        self._put(d, later)
                raise
            finally:
                self.fired += calls
            return calls

    async def _triage(
        self, due: list[int], now: datetime
    ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
        """Sort what woke into reminders to mark ``(id, sent, new sent)`` and deadlines
        to claim ``(id, attempts)``, from the database's copy: another process may have
        reminded, claimed (its lease runs), rescheduled or closed one since this process
        read it; that one is re-armed at its new ``next_at`` or forgotten."""
        fresh = {d.id: d for d in await self.storage.get_deadlines(due)}
        reminders: list[tuple[int, int, int]] = []
        claims: list[tuple[int, int]] = []
        for deadline_id in due:
            record = fresh.get(deadline_id)
            if record is None or not record.is_live:
                self._forget(deadline_id)
                continue
            if record.next_at > now:  # moved on elsewhere, or woken early: sleep again
                self._put(record)
                continue
            d = self._hold(record)
            if d.fired_at is not None or now >= d.expires_at:
                claims.append((d.id, d.attempts))
                continue
            count = min(reminders_due(d.reminder_ats, now), len(d.reminder_ats))
            if count > d.reminders_sent:
                reminders.append((d.id, d.reminders_sent, count))
            else:  # cannot happen (next_at is the next reminder or the expiry)
                log.error("deadline %s woke with nothing to do; retrying later", d.id)
                self._put(d, (now + self.retry_delay).timestamp())
        return reminders, claims

    async def _refresh(self, deadline_ids: Iterable[int]) -> None:
        """Re-read deadlines a compare-and-set missed (another process, a cancellation)."""
        for deadline_id in deadline_ids:
            fresh = await self.storage.get_deadline(deadline_id)
            if fresh is None or not fresh.is_live:
                self._forget(deadline_id)
            else:
                self._put(fresh)

    async def _send_reminders(self, marks: list[tuple[int, int, int]], now: datetime) -> int:
        updated = await self.storage.mark_reminders_sent(marks, now)
        done = {d.id for d in updated}
        await self._refresh(i for i, _, _ in marks if i not in done)
        calls = 0
        for d in updated:
            self._put(d)
            try:
                await self.on_reminder(d, d.reminders_sent)
            except Exception:
                _stop_if_cancelled()
                log.exception("on_reminder failed for deadline %s (not resent)", d.id)
            calls += 1
        return calls

    async def _fire(self, claims: list[tuple[int, int]], now: datetime) -> int:
        retry_at = now + self.retry_delay
        claimed = await self.storage.claim_deadlines(claims, now, retry_at)
        got = {d.id for d, _ in claimed}
        await self._refresh(i for i, _ in claims if i not in got)
        finished: list[int] = []
        calls = 0
        for d, seat_clock in claimed:
            self._put(d)  # wakes again at retry_at unless completed below
            calls += 1
            try:
                await self.on_due(d, seat_clock)
            except Exception:
                _stop_if_cancelled()
                log.exception(
                    "on_due failed for deadline %s (attempt %s); retrying in %s",
                    d.id,
                    d.attempts,
                    self.retry_delay,
                )
                continue
            finished.append(d.id)
        if finished:
            await self.storage.complete_deadlines(finished, now)
            for deadline_id in finished:
                self._forget(deadline_id)
        return calls

    # -- what the bot tells the scheduler -------------------------------------------------

    async def open(
        self,
        game_id: int,
        seat: str,
        kind: str,
        decision_key: str,
        terms: DecisionTerms,
        *,
        user_id: int | None = None,
        start: datetime | None = None,
    ) -> DeadlineRecord:
        """Give a new pending decision its deadline (idempotent per decision key)."""
        start = self.clock.now() if start is None else start
        plan = terms.plan(start)
        d, _ = await self.storage.open_deadline(
            game_id=game_id,
            seat=seat,
            kind=kind,
            decision_key=decision_key,
            user_id=user_id,
            created_at=plan.start,
            duration_seconds=max(1, _seconds(plan.duration)),
            bank_seconds=_seconds(plan.bank),
            due_at=plan.due_at,
            expires_at=plan.expires_at,
            reminder_ats=plan.reminder_ats,
        )
        self._put(d)
        return d

    async def plan(
        self,
        game_id: int,
        version: int,
        pending: Iterable[PendingDecision],
        *,
        actor: str | None = None,
        over: bool = False,
        now: datetime | None = None,
    ) -> DeadlineChanges:
        """What a change of the game does to its deadlines, written nowhere yet: the
        move writes it with its actions (``Storage.commit_move``), then calls
        :meth:`committed`; :meth:`sync` writes it on its own.

        ``version`` is the game version after the change; ``actor`` the seat that just
        acted, if any; ``over``: the game ended (every live deadline is cancelled). A
        decision still pending keeps its deadline running; one no longer pending is
        settled (for the actor: missed count reset, the bank its overrun used spent); a
        new one gets a deadline keyed ``"{version}:{kind}"`` with the
        :class:`TermsSource`'s terms (the bank less what this change spent of it).
        """
        now = self.clock.now() if now is None else now
        if over:
            return DeadlineChanges(cancel_all=True, at=now)
        wanted = {(p.seat, p.kind): p for p in pending}
        # Claimed deadlines belong to the firing path (their on_due is running or will
        # be retried): they neither keep a decision's deadline nor get settled here.
        current = {(d.seat, d.kind): d for d in self._held_of(game_id) if not d.is_claimed}
        settle: list[DeadlineSettlement] = []
        spent: dict[str, int] = {}
        for key, d in current.items():
            if key in wanted:
                continue
            acted = d.seat == actor
            used = await self._bank_used(d, now) if acted else 0
            settle.append(DeadlineSettlement(d.id, acted, used))
            spent[d.seat] = spent.get(d.seat, 0) + used
        actor_settled = any(x.acted for x in settle)
        reset = (actor,) if actor is not None and not actor_settled else ()
        opened: list[DeadlineOpening] = []
        for key, p in wanted.items():
            if key in current:
                continue
            terms = await self.terms.terms(game_id, p.seat, p.kind, p.user_id)
            if terms is None:
                continue
            if spent.get(p.seat):
                left = max(timedelta(0), terms.bank - timedelta(seconds=spent[p.seat]))
                terms = replace(terms, bank=left)
            plan = terms.plan(now)
            opened.append(
                DeadlineOpening(
                    seat=p.seat,
                    kind=p.kind,
                    decision_key=f"{version}:{p.kind}",
                    user_id=p.user_id,
                    created_at=plan.start,
                    duration_seconds=max(1, _seconds(plan.duration)),
                    bank_seconds=_seconds(plan.bank),
                    due_at=plan.due_at,
                    expires_at=plan.expires_at,
                    reminder_ats=tuple(plan.reminder_ats),
                    # Only a seat's first decision creates its clock: a write less
                    # at every other one (issue 16).
                    seat_bank_seconds=_seconds(terms.bank) if terms.first else None,
                )
            )
        return DeadlineChanges(tuple(settle), tuple(opened), reset, at=now)

    def committed(self, game_id: int, done: MoveCommitted) -> None:
        """A change planned by :meth:`plan` was written: hold what it opened, forget
        what it closed (and, at the game's end, everything of the game)."""
        for deadline_id in done.closed:
            self._forget(deadline_id)
        if done.game.status is not GameStatus.ACTIVE:
            for deadline_id in list(self._by_game.get(game_id, ())):
                self._forget(deadline_id)
        for d in done.opened:
            if d.is_live:
                self._put(d)

    async def sync(
        self,
        game_id: int,
        version: int,
        pending: Iterable[PendingDecision],
        *,
        actor: str | None = None,
        now: datetime | None = None,
    ) -> list[DeadlineRecord]:
        """Bring the game's deadlines in line with its pending decisions after a change
        not written with them (a start, a campaign's step, a seat changing hands): the
        :meth:`plan`, written now. Returns the game's live deadlines."""
        changes = await self.plan(game_id, version, pending, actor=actor, now=now)
        at = changes.at or self.clock.now()
        for x in changes.settle:
            await self.storage.settle_deadline(
                x.deadline_id, at, acted=x.acted, bank_used_seconds=x.bank_used_seconds
            )
            self._forget(x.deadline_id)
        for seat in changes.reset_missed:
            await self.storage.reset_missed(game_id, seat)
        for o in changes.open:
            if o.seat_bank_seconds is not None:
                await self.storage.init_seat_clock(
                    game_id, o.seat, time_bank_seconds=o.seat_bank_seconds
                )
            d, _ = await self.storage.open_deadline(
                game_id=game_id,
                seat=o.seat,
                kind=o.kind,
                decision_key=o.decision_key,
                user_id=o.user_id,
                created_at=o.created_at,
                duration_seconds=o.duration_seconds,
                bank_seconds=o.bank_seconds,
                due_at=o.due_at,
                expires_at=o.expires_at,
                reminder_ats=o.reminder_ats,
            )
            self._put(d)
        return self.of_game(game_id)

    async def _bank_used(self, deadline: DeadlineRecord | _Held, now: datetime) -> int:
        """Seconds of its bank a decision taken at ``now`` used (it acted after
        ``due_at``, in active time)."""
        if now <= deadline.due_at or deadline.bank_seconds <= 0:
            return 0
        terms = await self.terms.terms(
            deadline.game_id, deadline.seat, deadline.kind, deadline.user_id
        )
        if terms is None:
            return 0
        spent = terms.bank_used(deadline.due_at, now, timedelta(seconds=deadline.bank_seconds))
        return _seconds(spent)

    async def settle(
        self, deadline: DeadlineRecord, *, acted: bool, now: datetime | None = None
    ) -> None:
        """The decision was taken (``acted``: by its seat) or vanished before expiry.

        If the seat acted after ``due_at``, the active time of the overrun leaves its
        time bank.
        """
        now = self.clock.now() if now is None else now
        used = await self._bank_used(deadline, now) if acted else 0
        await self.storage.settle_deadline(deadline.id, now, acted=acted, bank_used_seconds=used)
        self._forget(deadline.id)

    async def cancel_game(self, game_id: int, now: datetime | None = None) -> list[int]:
        """The game ended (finished, aborted, resigned): drop all its deadlines."""
        now = self.clock.now() if now is None else now
        ids = await self.storage.cancel_game_deadlines(game_id, now)
        for deadline_id in [*ids, *self._by_game.get(game_id, ())]:
            self._forget(deadline_id)
        return ids

    async def reschedule_seat(self, game_id: int, seat: str) -> list[DeadlineRecord]:
        """Recompute the seat's open deadlines (its vacation or quiet hours changed):
        same start, active time and bank, new quiet hours and pauses. Reminders already
        sent stay sent. The game's deadlines are re-read first: another process may
        have opened one."""
        changed: list[DeadlineRecord] = []
        for d in await self.reload_game(game_id):
            if d.seat != seat or d.is_claimed:
                continue
            terms = await self.terms.terms(game_id, seat, d.kind, d.user_id)
            if terms is None:
                continue
            terms = replace(
                terms,
                duration=timedelta(seconds=d.duration_seconds),
                bank=timedelta(seconds=d.bank_seconds),
            )
            plan = terms.plan(d.created_at)
            fresh = await self.storage.reschedule_deadline(
                d.id, due_at=plan.due_at, expires_at=plan.expires_at, reminder_ats=plan.reminder_ats
            )
            if fresh is None:
                await self._refresh([d.id])
                continue
            self._put(fresh)
            changed.append(fresh)
        return changed

    async def set_vacation(
        self, game_id: int, seat: str, start: datetime | None, until: datetime | None
    ) -> list[DeadlineRecord]:
        """Store the seat's vacation (two Nones end it) and move its open deadlines."""
        await self.storage.set_vacation(game_id, seat, start, until)
        return await self.reschedule_seat(game_id, seat)
