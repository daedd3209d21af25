"""Deadline arithmetic: when a pending decision really falls due. Pure: no I/O, no clock.

A decision gets a *duration* of the player's **active time** (24 hours for a turn, 12
for a response, by default). Time does not count while the player is in their
**quiet hours** (a daily window of their local wall clock, e.g. 22:00-07:00 in
``Europe/Paris``; it may cross midnight and follows daylight-saving changes) or on
**vacation** (a pause from one instant to another). So:

* ``due_at`` is the first instant by which ``duration`` of active time has elapsed
  since the decision became pending (:func:`advance`);
* a reminder at fraction ``f`` falls when ``f * duration`` of active time has elapsed;
* the player's **time bank** absorbs an overrun: the default action applies only at
  ``expires_at``, ``bank`` more active time after ``due_at``; a player who acts in
  between spends the active time past ``due_at`` from the bank (:func:`bank_used`).

Every instant is an aware UTC datetime and every amount a :class:`~datetime.timedelta`,
so the arithmetic is exact to the microsecond: ``active_time(s, advance(s, d)) == d``.

Intervals are half-open, ``[start, end)``. A quiet-hours wall-clock time that a DST
change skips (02:30 on the spring-forward night) is read with the offset before the
change (so it means 03:30 new time); one the change repeats (02:30 on the fall-back
night) is its first occurrence. A window that DST squeezes to nothing that night is
simply absent that night.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeAlias
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator

from strings import Term

__all__ = [
    "DEFAULT_REMINDERS",
    "MAX_QUIET",
    "RESPONSE_KINDS",
    "DeadlinePlan",
    "DeadlineSettings",
    "DecisionTerms",
    "Interval",
    "QuietHours",
    "active_time",
    "advance",
    "bank_used",
    "blocked_intervals",
    "check_fractions",
    "plan_deadline",
    "quiet_hours_of",
    "reminders_due",
]

Interval: TypeAlias = tuple[datetime, datetime]
"""A half-open span ``[start, end)`` of aware UTC datetimes."""

ZERO = timedelta(0)
DAY = timedelta(days=1)
MAX_QUIET = timedelta(hours=20)
"""The longest quiet-hours window: every day keeps at least four active hours, so a
deadline always moves on (and windows of consecutive days never overlap, even across
a DST change)."""
DEFAULT_REMINDERS: tuple[float, ...] = (0.5, 0.9)
"""Reminders at half and nine tenths of the decision's active time."""
RESPONSE_KINDS = frozenset({"respond", "follow"})
"""Decisions taken during someone else's turn: they get the (shorter) response time."""


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime, got naive {moment!r}")
    return moment.astimezone(UTC)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(
            f"unknown time zone {name!r} (use an IANA name like 'Europe/Paris')"
        ) from exc


def _parse_time(value: time | str) -> time:
    if isinstance(value, time):
        if value.tzinfo is not None:
            raise ValueError("quiet hours are wall-clock times: give them without a time zone")
        return value
    try:
        parsed = time.fromisoformat(value.strip())
    except ValueError as exc:
        raise ValueError(f"{value!r} is not a time of day like '22:30'") from exc
    if parsed.tzinfo is not None:
        raise ValueError("quiet hours are wall-clock times: give them without a time zone")
    return parsed


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A player's daily quiet window, in their own time zone.

    ``start`` and ``end`` are wall-clock times of ``tz`` (an IANA name); the window
    runs from ``start`` to the next ``end``, so ``22:00``-``07:00`` crosses midnight.
    ``start == end`` is refused (no window, or one of 24 hours?), and so is a window
    longer than :data:`MAX_QUIET`.
    """

    start: time
    end: time
    tz: str = "UTC"
    _zone: ZoneInfo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        start, end = _parse_time(self.start), _parse_time(self.end)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "_zone", _zone(self.tz))
        if start == end:
            raise ValueError("quiet hours must start and end at different times")
        if self.length > MAX_QUIET:
            raise ValueError(
                f"quiet hours may last {MAX_QUIET.total_seconds() / 3600:g} hours a day at most"
            )

    @classmethod
    def parse(cls, start: str, end: str, tz: str = "UTC") -> QuietHours:
        """From texts like ``"22:00"``, ``"07:30"`` and an IANA zone name."""
        return cls(_parse_time(start), _parse_time(end), tz)

    @property
    def zone(self) -> ZoneInfo:
        return self._zone

    @property
    def length(self) -> timedelta:
        """The window's wall-clock length (a DST change makes one night an hour
        shorter or longer)."""
        base = date(2000, 1, 1)
        a = datetime.combine(base, self.start)
        b = datetime.combine(base, self.end)
        return b - a if b > a else b + DAY - a

    def window(self, day: date) -> Interval:
        """The window starting on local date ``day``, in UTC (possibly empty)."""
        a = datetime.combine(day, self.start, tzinfo=self._zone)
        end_day = day if self.end > self.start else day + DAY
        b = datetime.combine(end_day, self.end, tzinfo=self._zone)
        return a.astimezone(UTC), b.astimezone(UTC)

    def intervals(self, since: datetime) -> Iterator[Interval]:
        """The quiet windows (UTC, in order, non-empty) that end after ``since``; endless."""
        since = _utc(since)
        day = since.astimezone(self._zone).date() - DAY  # yesterday's window may cover since
        while True:
            a, b = self.window(day)
            if b > a and b > since:
                yield a, b
            day += DAY

    def contains(self, moment: datetime) -> bool:
        """Whether ``moment`` falls in a quiet window."""
        moment = _utc(moment)
        for a, b in self.intervals(moment):
            return a <= moment < b
        return False  # pragma: no cover - intervals() is endless

    def to_json(self) -> dict[str, str]:
        return {
            "start": self.start.isoformat(timespec="minutes"),
            "end": self.end.isoformat(timespec="minutes"),
            "tz": self.tz,
        }


def blocked_intervals(
    since: datetime, quiet: QuietHours | None = None, pauses: Iterable[Interval] = ()
) -> Iterator[Interval]:
    """The time that does not count, from ``since`` on: quiet windows and pauses,
    merged into disjoint intervals in order (endless if there are quiet hours)."""
    since = _utc(since)
    finite = sorted(
        (a, b) for a, b in ((_utc(a), _utc(b)) for a, b in pauses) if b > a and b > since
    )
    streams: list[Iterator[Interval]] = [iter(finite)]
    if quiet is not None:
        streams.append(quiet.intervals(since))
    current: Interval | None = None
    for a, b in heapq.merge(*streams):
        if current is None:
            current = (a, b)
        elif a <= current[1]:
            current = (current[0], max(current[1], b))
        else:
            yield current
            current = (a, b)
    if current is not None:
        yield current


def advance(
    start: datetime,
    amount: timedelta,
    *,
    quiet: QuietHours | None = None,
    pauses: Iterable[Interval] = (),
) -> datetime:
    """The first instant ``t >= start`` with ``active_time(start, t) >= amount``."""
    t = _utc(start)
    if amount < ZERO:
        raise ValueError(f"cannot advance by a negative amount ({amount})")
    if amount == ZERO:
        return t
    remaining = amount
    for a, b in blocked_intervals(t, quiet, pauses):
        if b <= t:
            continue
        if a > t:
            gap = a - t
            if remaining <= gap:
                return t + remaining
            remaining -= gap
        t = b
    return t + remaining


def active_time(
    start: datetime,
    end: datetime,
    *,
    quiet: QuietHours | None = None,
    pauses: Iterable[Interval] = (),
) -> timedelta:
    """How much of ``[start, end)`` is neither quiet nor paused (zero if end <= start)."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return ZERO
    total = end - start
    for a, b in blocked_intervals(start, quiet, pauses):
        if a >= end:
            break
        overlap = min(b, end) - max(a, start)
        if overlap > ZERO:
            total -= overlap
    return total


def check_fractions(fractions: Iterable[float]) -> tuple[float, ...]:
    """Reminder fractions, validated: each strictly between 0 and 1, increasing."""
    values = tuple(float(f) for f in fractions)
    for f in values:
        if not 0.0 < f < 1.0:
            raise ValueError(f"a reminder fraction must lie strictly between 0 and 1, not {f}")
    if any(b <= a for a, b in itertools.pairwise(values)):
        raise ValueError(f"reminder fractions must increase: {list(values)}")
    return values


@dataclass(frozen=True, slots=True)
class DeadlinePlan:
    """When a decision's reminders and deadline fall (all aware UTC)."""

    start: datetime
    """When the decision became pending."""
    duration: timedelta
    """The active time the player has."""
    reminder_ats: tuple[datetime, ...]
    """When each reminder falls, in order."""
    due_at: datetime
    """When the active time runs out; past it the time bank runs."""
    expires_at: datetime
    """When the default action applies: ``bank`` more active time after ``due_at``."""
    bank: timedelta
    """The time bank available when the plan was made."""


def plan_deadline(
    start: datetime,
    duration: timedelta,
    *,
    reminders: Sequence[float] = DEFAULT_REMINDERS,
    quiet: QuietHours | None = None,
    pauses: Iterable[Interval] = (),
    bank: timedelta = ZERO,
) -> DeadlinePlan:
    """When a decision pending since ``start`` with ``duration`` of active time falls
    due, when its reminders fall and when its time bank runs out."""
    if duration <= ZERO:
        raise ValueError(f"a deadline needs a positive duration, not {duration}")
    if bank < ZERO:
        raise ValueError(f"a time bank cannot be negative ({bank})")
    fractions = check_fractions(reminders)
    pause_list = list(pauses)
    start = _utc(start)
    due = advance(start, duration, quiet=quiet, pauses=pause_list)
    expires = advance(due, bank, quiet=quiet, pauses=pause_list)
    ats = tuple(advance(start, duration * f, quiet=quiet, pauses=pause_list) for f in fractions)
    return DeadlinePlan(start, duration, ats, due, expires, bank)


def bank_used(
    due_at: datetime,
    acted_at: datetime,
    bank: timedelta,
    *,
    quiet: QuietHours | None = None,
    pauses: Iterable[Interval] = (),
) -> timedelta:
    """How much of the time bank a player spends who acts at ``acted_at`` on a decision
    due at ``due_at``: the active time of the overrun, at most ``bank``."""
    if acted_at <= due_at:
        return ZERO
    return min(bank, active_time(due_at, acted_at, quiet=quiet, pauses=pauses))


def reminders_due(reminder_ats: Sequence[datetime], now: datetime) -> int:
    """How many reminders should have gone out by ``now``."""
    return bisect.bisect_right(reminder_ats, _utc(now))


@dataclass(frozen=True, slots=True)
class DecisionTerms:
    """Everything that decides one player's deadline for one decision."""

    duration: timedelta
    reminders: tuple[float, ...] = DEFAULT_REMINDERS
    quiet: QuietHours | None = None
    pauses: tuple[Interval, ...] = ()
    bank: timedelta = ZERO
    first: bool = True
    """The seat's first decision: its clock (and its time bank) does not exist yet."""

    def plan(self, start: datetime) -> DeadlinePlan:
        return plan_deadline(
            start,
            self.duration,
            reminders=self.reminders,
            quiet=self.quiet,
            pauses=self.pauses,
            bank=self.bank,
        )

    def bank_used(self, due_at: datetime, acted_at: datetime, bank: timedelta) -> timedelta:
        return bank_used(due_at, acted_at, bank, quiet=self.quiet, pauses=self.pauses)


class DeadlineSettings(BaseModel):
    """A server's deadline policy, overridable per game.

    Stored under the key ``"deadlines"`` of the guild settings JSON and of the game
    settings JSON (a game's keys override the server's; unknown keys are ignored).
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    enabled: bool = True
    """False: the game waits for its players forever (no deadlines, no reminders)."""
    turn_hours: float = Field(default=24.0, gt=0, le=24 * 60)
    """Active time for a decision of one's own turn."""
    response_hours: float = Field(default=12.0, gt=0, le=24 * 60)
    """Active time for a decision during someone else's turn (respond, follow)."""
    reminders: tuple[float, ...] = DEFAULT_REMINDERS
    """Fractions of the active time at which the player is reminded (one reminder
    each, at most)."""
    time_bank_hours: float = Field(default=0.0, ge=0, le=24 * 60)
    """Each seat's time bank for the whole game, spent on overruns."""
    abandon_after: int = Field(default=3, ge=0)
    """Consecutive missed deadlines after which a seat counts as abandoned (0: never)."""
    vacation_max_days: int = Field(default=14, ge=0)
    """The longest vacation a player may take."""

    @field_validator("reminders")
    @classmethod
    def _fractions(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        return check_fractions(value)

    def duration(self, kind: str) -> timedelta:
        """The active time for a decision of that kind (``Pending.kind``)."""
        hours = self.response_hours if kind in RESPONSE_KINDS else self.turn_hours
        return timedelta(hours=hours)

    @property
    def time_bank(self) -> timedelta:
        return timedelta(hours=self.time_bank_hours)

    @property
    def reminder_fractions(self) -> tuple[float, ...]:
        """The reminders actually planned per decision (a subclass may cap them)."""
        return self.reminders

    def abandoned(self, missed_in_a_row: int) -> bool:
        """Whether a seat that missed that many deadlines in a row has abandoned."""
        return self.abandon_after > 0 and missed_in_a_row >= self.abandon_after

    def vacation_refusal(self, start: datetime, until: datetime) -> str | None:
        """Why a vacation from ``start`` to ``until`` is not allowed (a :class:`Term` of
        the strings catalogue), or None."""
        if until <= start:
            return Term("people.vacation_order")
        if until - start > timedelta(days=self.vacation_max_days):
            return Term("people.vacation_max", days=self.vacation_max_days)
        return None

    @classmethod
    def resolve(
        cls, guild: Mapping[str, Any] | None = None, game: Mapping[str, Any] | None = None
    ) -> DeadlineSettings:
        """The settings of a game: defaults, then the server's ``"deadlines"`` keys,
        then the game's."""
        merged: dict[str, Any] = {}
        for source in (guild, game):
            if source:
                merged.update(source.get("deadlines") or {})
        return cls.model_validate(merged)


def quiet_hours_of(settings: Mapping[str, Any] | None) -> QuietHours | None:
    """A player's quiet hours from their user settings JSON, or None.

    The shape is ``{"tz": "Europe/Paris", "quiet_hours": {"start": "22:00", "end":
    "07:00"}}``; ``tz`` defaults to UTC. ``ValueError`` on malformed values (check them
    when the player sets them, so stored settings are always valid).
    """
    if not settings:
        return None
    quiet = settings.get("quiet_hours")
    if not quiet:
        return None
    return QuietHours.parse(
        str(quiet["start"]), str(quiet["end"]), str(settings.get("tz") or "UTC")
    )
