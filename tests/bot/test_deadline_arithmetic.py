"""Deadline arithmetic (bot/deadlines.py) and the clocks (bot/clock.py): pure, no I/O."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.clock import Clock, FakeClock, SystemClock
from bot.deadlines import (
    MAX_QUIET,
    DeadlineSettings,
    DecisionTerms,
    QuietHours,
    active_time,
    advance,
    bank_used,
    blocked_intervals,
    check_fractions,
    plan_deadline,
    quiet_hours_of,
    reminders_due,
)

PARIS = ZoneInfo("Europe/Paris")
H = timedelta(hours=1)


def paris(y: int, mo: int, d: int, h: int, mi: int = 0) -> datetime:
    return datetime(y, mo, d, h, mi, tzinfo=PARIS).astimezone(UTC)


NIGHT = QuietHours.parse("22:00", "07:00", "Europe/Paris")


# -- quiet hours ---------------------------------------------------------------------


def test_no_quiet_hours_means_plain_addition() -> None:
    start = datetime(2024, 5, 1, 12, tzinfo=UTC)
    assert advance(start, 24 * H) == start + 24 * H
    assert active_time(start, start + 5 * H) == 5 * H


def test_quiet_hours_crossing_midnight_do_not_count() -> None:
    # 21:00 in Paris with two hours to go: one hour before 22:00, one after 07:00.
    start = paris(2024, 5, 1, 21)
    assert advance(start, 2 * H, quiet=NIGHT) == paris(2024, 5, 2, 8)
    assert active_time(start, paris(2024, 5, 2, 8), quiet=NIGHT) == 2 * H


def test_a_decision_pending_during_quiet_hours_starts_counting_at_their_end() -> None:
    start = paris(2024, 5, 2, 3)  # inside last night's window
    assert NIGHT.contains(start)
    assert advance(start, H, quiet=NIGHT) == paris(2024, 5, 2, 8)


def test_a_window_within_one_day() -> None:
    lunch = QuietHours.parse("12:00", "14:30", "UTC")
    start = datetime(2024, 5, 1, 11, tzinfo=UTC)
    assert advance(start, 2 * H, quiet=lunch) == datetime(2024, 5, 1, 15, 30, tzinfo=UTC)
    assert not lunch.contains(datetime(2024, 5, 1, 14, 30, tzinfo=UTC))  # half-open
    assert lunch.contains(datetime(2024, 5, 1, 12, tzinfo=UTC))


def test_a_24_hour_turn_with_nine_quiet_hours_a_night_lasts_33_hours() -> None:
    start = paris(2024, 5, 1, 12)
    assert advance(start, 24 * H, quiet=NIGHT) == paris(2024, 5, 2, 21)


def test_daylight_saving_changes_shorten_and_lengthen_the_night() -> None:
    spring = NIGHT.window(datetime(2024, 3, 30).date())  # clocks go forward that night
    autumn = NIGHT.window(datetime(2024, 10, 26).date())  # clocks go back
    ordinary = NIGHT.window(datetime(2024, 5, 1).date())
    assert spring[1] - spring[0] == 8 * H
    assert autumn[1] - autumn[0] == 10 * H
    assert ordinary[1] - ordinary[0] == 9 * H
    # Wall-clock 22:00 and 07:00 on both sides of the change.
    assert spring[0] == paris(2024, 3, 30, 22) and spring[1] == paris(2024, 3, 31, 7)
    assert autumn[0] == paris(2024, 10, 26, 22) and autumn[1] == paris(2024, 10, 27, 7)


def test_a_window_skipped_by_the_spring_change_is_absent_that_night() -> None:
    # 02:30-03:30 on the night Paris jumps from 02:00 to 03:00: 02:30 reads as 03:30.
    odd = QuietHours.parse("02:30", "03:30", "Europe/Paris")
    a, b = odd.window(datetime(2024, 3, 31).date())
    assert a == b == paris(2024, 3, 31, 3, 30)
    since = paris(2024, 3, 31, 0)
    first = next(odd.intervals(since))
    assert first[0] == paris(2024, 4, 1, 2, 30)


def test_a_repeated_hour_is_read_as_its_first_occurrence() -> None:
    odd = QuietHours.parse("02:30", "04:00", "Europe/Paris")
    a, b = odd.window(datetime(2024, 10, 27).date())
    assert a == datetime(2024, 10, 27, 0, 30, tzinfo=UTC)  # 02:30 CEST
    assert b == datetime(2024, 10, 27, 3, 0, tzinfo=UTC)  # 04:00 CET
    assert b - a == 2.5 * H


def test_quiet_hours_are_validated() -> None:
    with pytest.raises(ValueError, match="different times"):
        QuietHours.parse("22:00", "22:00")
    with pytest.raises(ValueError, match="at most"):
        QuietHours.parse("01:00", "23:00")
    with pytest.raises(ValueError, match="unknown time zone"):
        QuietHours.parse("22:00", "07:00", "Mars/Olympus_Mons")
    with pytest.raises(ValueError, match="time of day"):
        QuietHours.parse("10pm", "07:00")
    with pytest.raises(ValueError, match="wall-clock"):
        QuietHours(time(22, tzinfo=UTC), time(7), "UTC")
    assert QuietHours.parse("02:00", "22:00").length == MAX_QUIET


def test_quiet_hours_from_user_settings() -> None:
    assert quiet_hours_of(None) is None
    assert quiet_hours_of({"dm": True}) is None
    q = quiet_hours_of({"tz": "Europe/Paris", "quiet_hours": {"start": "22:00", "end": "07:00"}})
    assert q == NIGHT
    assert q is not None and q.to_json() == {"start": "22:00", "end": "07:00", "tz": "Europe/Paris"}
    assert quiet_hours_of({"quiet_hours": {"start": "23:00", "end": "06:00"}}) == QuietHours(
        time(23), time(6), "UTC"
    )


# -- vacation, bank, reminders ---------------------------------------------------------


def test_a_vacation_pauses_the_deadline() -> None:
    start = datetime(2024, 5, 1, 12, tzinfo=UTC)
    away = (datetime(2024, 5, 1, 18, tzinfo=UTC), datetime(2024, 5, 4, 18, tzinfo=UTC))
    assert advance(start, 24 * H, pauses=[away]) == start + 24 * H + 72 * H
    # A vacation that began before the decision only delays its start.
    earlier = (start - 5 * H, start + 3 * H)
    assert advance(start, 24 * H, pauses=[earlier]) == start + 27 * H


def test_overlapping_pauses_and_quiet_hours_merge() -> None:
    start = paris(2024, 5, 1, 12)
    pauses = [(paris(2024, 5, 1, 20), paris(2024, 5, 2, 2))]
    blocked = list(itertools.islice(blocked_intervals(start, NIGHT, pauses), 2))
    assert blocked[0] == (paris(2024, 5, 1, 20), paris(2024, 5, 2, 7))
    assert blocked[1] == (paris(2024, 5, 2, 22), paris(2024, 5, 3, 7))


def test_plan_places_reminders_at_fractions_of_the_active_time() -> None:
    start = paris(2024, 5, 1, 12)
    plan = plan_deadline(start, 24 * H, reminders=(0.5, 0.9), quiet=NIGHT, bank=2 * H)
    # 12 active hours: 10 before 22:00, 2 after 07:00.
    assert plan.reminder_ats[0] == paris(2024, 5, 2, 9)
    assert active_time(start, plan.reminder_ats[1], quiet=NIGHT) == 24 * H * 0.9
    assert plan.due_at == paris(2024, 5, 2, 21)
    # The bank runs in active time too: one hour before 22:00, one after 07:00.
    assert plan.expires_at == paris(2024, 5, 3, 8)


def test_the_bank_absorbs_an_overrun() -> None:
    due = paris(2024, 5, 2, 21)
    assert bank_used(due, due - H, 3 * H, quiet=NIGHT) == timedelta(0)
    assert bank_used(due, due + 30 * timedelta(minutes=1), 3 * H, quiet=NIGHT) == 0.5 * H
    # 21:00 to 07:30 the next morning is 1.5 active hours.
    assert bank_used(due, paris(2024, 5, 3, 7, 30), 3 * H, quiet=NIGHT) == 1.5 * H
    assert bank_used(due, due + 10 * H, 3 * H) == 3 * H  # never more than the bank


def test_reminders_due_counts_the_reminders_whose_time_has_come() -> None:
    ats = (datetime(2024, 5, 1, 12, tzinfo=UTC), datetime(2024, 5, 1, 20, tzinfo=UTC))
    assert reminders_due(ats, datetime(2024, 5, 1, 11, tzinfo=UTC)) == 0
    assert reminders_due(ats, ats[0]) == 1
    assert reminders_due(ats, datetime(2024, 5, 2, tzinfo=UTC)) == 2


def test_plans_are_validated() -> None:
    start = datetime(2024, 5, 1, tzinfo=UTC)
    with pytest.raises(ValueError, match="positive"):
        plan_deadline(start, timedelta(0))
    with pytest.raises(ValueError, match="negative"):
        plan_deadline(start, H, bank=-H)
    with pytest.raises(ValueError, match="between 0 and 1"):
        check_fractions([0.5, 1.0])
    with pytest.raises(ValueError, match="increase"):
        check_fractions([0.9, 0.5])
    with pytest.raises(ValueError, match="naive"):
        advance(datetime(2024, 5, 1), H)
    assert plan_deadline(start, H, reminders=()).reminder_ats == ()


def test_decision_terms_plan_and_bank() -> None:
    terms = DecisionTerms(duration=12 * H, reminders=(0.5,), quiet=NIGHT, bank=H)
    plan = terms.plan(paris(2024, 5, 1, 12))
    assert plan.due_at == paris(2024, 5, 2, 9)
    assert terms.bank_used(plan.due_at, plan.due_at + 2 * H, H) == H


# -- settings ------------------------------------------------------------------------


def test_deadline_settings_defaults_server_and_game_overrides() -> None:
    default = DeadlineSettings()
    assert default.duration("play") == 24 * H and default.duration("respond") == 12 * H
    assert default.reminders == (0.5, 0.9)
    server = {"deadlines": {"turn_hours": 48, "reminders": [0.75], "time_bank_hours": 6}}
    game = {"deadlines": {"turn_hours": 8}, "mode": "fast"}
    s = DeadlineSettings.resolve(server, game)
    assert s.duration("play") == 8 * H and s.duration("follow") == 12 * H
    assert s.reminders == (0.75,) and s.time_bank == 6 * H
    assert DeadlineSettings.resolve(None, None) == default
    with pytest.raises(ValueError):
        DeadlineSettings.resolve({"deadlines": {"reminders": [1.5]}})


def test_abandonment_and_vacation_limits() -> None:
    s = DeadlineSettings(abandon_after=3, vacation_max_days=7)
    assert not s.abandoned(2) and s.abandoned(3)
    assert not DeadlineSettings(abandon_after=0).abandoned(100)
    start = datetime(2024, 5, 1, tzinfo=UTC)
    assert s.vacation_refusal(start, start + timedelta(days=7)) is None
    assert s.vacation_refusal(start, start + timedelta(days=8)) is not None
    assert s.vacation_refusal(start, start) is not None


# -- properties ----------------------------------------------------------------------

ZONES = [
    "UTC",
    "Europe/Paris",
    "America/New_York",
    "America/Santiago",
    "Australia/Sydney",
    "Australia/Lord_Howe",  # half-hour DST
    "Asia/Kolkata",
    "Pacific/Chatham",
    "America/St_Johns",
]
moments = st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
)
minutes_of_day = st.integers(0, 24 * 60 - 1).map(lambda m: time(m // 60, m % 60))


@st.composite
def quiet_hours(draw: st.DrawFn) -> QuietHours | None:
    if draw(st.booleans()):
        return None
    start = draw(minutes_of_day)
    end = draw(minutes_of_day.filter(lambda t: t != start))
    q_start = datetime.combine(datetime(2000, 1, 1), start)
    q_end = datetime.combine(datetime(2000, 1, 1), end)
    length = q_end - q_start if q_end > q_start else q_end + timedelta(days=1) - q_start
    if length > MAX_QUIET:
        start, end = end, start  # its complement is at most 20 hours
    return QuietHours(start, end, draw(st.sampled_from(ZONES)))


@st.composite
def pauses(draw: st.DrawFn) -> list[tuple[datetime, datetime]]:
    found = []
    for _ in range(draw(st.integers(0, 2))):
        a = draw(moments)
        found.append((a, a + timedelta(minutes=draw(st.integers(1, 60 * 24 * 20)))))
    return found


amounts = st.integers(0, 10 * 24 * 3600 * 1000).map(lambda ms: timedelta(milliseconds=ms))


@settings(max_examples=300, deadline=None)
@given(moments, amounts, quiet_hours(), pauses())
def test_advance_gives_exactly_the_active_time_asked(
    start: datetime,
    amount: timedelta,
    quiet: QuietHours | None,
    paused: list[tuple[datetime, datetime]],
) -> None:
    end = advance(start, amount, quiet=quiet, pauses=paused)
    assert end >= start + amount
    assert active_time(start, end, quiet=quiet, pauses=paused) == amount
    if amount > timedelta(0):
        # It is the first such instant: the deadline never falls inside blocked time.
        for a, b in blocked_intervals(start, quiet, paused):
            if a >= end:
                break
            assert not a < end <= b


@settings(max_examples=200, deadline=None)
@given(moments, amounts, amounts, quiet_hours(), pauses())
def test_advance_is_monotonic_and_inverts_active_time(
    start: datetime,
    x: timedelta,
    y: timedelta,
    quiet: QuietHours | None,
    paused: list[tuple[datetime, datetime]],
) -> None:
    small, big = sorted((x, y))
    assert advance(start, small, quiet=quiet, pauses=paused) <= advance(
        start, big, quiet=quiet, pauses=paused
    )
    later = start + big
    assert (
        advance(
            start, active_time(start, later, quiet=quiet, pauses=paused), quiet=quiet, pauses=paused
        )
        <= later
    )


@settings(max_examples=200, deadline=None)
@given(moments, quiet_hours())
def test_quiet_windows_are_ordered_disjoint_and_about_as_long_as_asked(
    since: datetime, quiet: QuietHours | None
) -> None:
    if quiet is None:
        return
    windows = list(itertools.islice(quiet.intervals(since), 8))
    assert windows[0][1] > since
    for a, b in windows:
        assert a < b
        assert abs((b - a) - quiet.length) <= timedelta(hours=1)
    for (_, b), (c, _) in itertools.pairwise(windows):
        assert b <= c
    assert quiet.contains(windows[0][0]) and not quiet.contains(windows[0][1])


@settings(max_examples=200, deadline=None)
@given(
    moments,
    st.integers(60, 7 * 24 * 3600).map(lambda s: timedelta(seconds=s)),
    st.lists(st.floats(0.01, 0.99), max_size=4, unique=True).map(sorted),
    quiet_hours(),
    pauses(),
    st.integers(0, 48 * 3600).map(lambda s: timedelta(seconds=s)),
)
def test_plans_are_ordered_and_consistent(
    start: datetime,
    duration: timedelta,
    fractions: list[float],
    quiet: QuietHours | None,
    paused: list[tuple[datetime, datetime]],
    bank: timedelta,
) -> None:
    plan = plan_deadline(
        start, duration, reminders=fractions, quiet=quiet, pauses=paused, bank=bank
    )
    times = [plan.start, *plan.reminder_ats, plan.due_at, plan.expires_at]
    assert times == sorted(times)
    assert active_time(start, plan.due_at, quiet=quiet, pauses=paused) == duration
    assert active_time(plan.due_at, plan.expires_at, quiet=quiet, pauses=paused) == bank
    for f, at in zip(fractions, plan.reminder_ats, strict=True):
        assert active_time(start, at, quiet=quiet, pauses=paused) == duration * f
    assert bank_used(plan.due_at, plan.expires_at, bank, quiet=quiet, pauses=paused) == bank


# -- clocks ----------------------------------------------------------------------------


def test_system_clock_is_aware_utc() -> None:
    clock = SystemClock()
    assert isinstance(clock, Clock)
    assert clock.now().tzinfo is UTC and clock().tzinfo is UTC


async def test_fake_clock_moves_only_when_told_and_wakes_sleepers() -> None:
    clock = FakeClock(datetime(2024, 5, 1, tzinfo=UTC))
    assert isinstance(clock, Clock)
    woke: list[datetime] = []

    async def nap(seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(clock.now())

    tasks = [asyncio.create_task(nap(s)) for s in (10, 60)]
    await asyncio.sleep(0)
    assert clock.sleepers == 2
    clock.advance(30)
    await asyncio.sleep(0)
    assert woke == [datetime(2024, 5, 1, 0, 0, 30, tzinfo=UTC)]
    clock.set(datetime(2024, 5, 2, tzinfo=UTC))
    await asyncio.gather(*tasks)
    assert len(woke) == 2 and clock.sleepers == 0
    with pytest.raises(ValueError, match="back"):
        clock.set(datetime(2024, 5, 1, tzinfo=UTC))
    await clock.sleep(0)  # returns at once


async def test_fake_clock_sleep_until_is_a_moment_not_a_delay() -> None:
    """A sleep computed before the clock moved still wakes at the moment computed: the
    scheduler's sleeper starts a loop turn after it chose the moment."""
    start = datetime(2024, 5, 1, tzinfo=UTC)
    clock = FakeClock(start)
    task = asyncio.ensure_future(clock.sleep_until(start + timedelta(hours=1)))
    clock.advance(timedelta(hours=2))  # before the sleeper even started
    await asyncio.wait_for(task, 1.0)  # it starts, sees the moment passed, returns
    late = asyncio.ensure_future(clock.sleep_until(clock.now() + timedelta(minutes=1)))
    await asyncio.sleep(0)
    assert clock.sleepers == 1 and not late.done()
    clock.advance(timedelta(minutes=1))
    await asyncio.wait_for(late, 1.0)
