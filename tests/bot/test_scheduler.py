"""The deadline scheduler (bot/scheduler.py) with a fake clock: nothing sleeps for real.

Reminders fire the configured number of times; a restart (a new scheduler and store on
the same SQLite file) between a reminder and the deadline neither loses nor duplicates
anything; a deadline missed during downtime fires once right after start-up; a crash in
the middle of a default action applies it exactly once (retried at the claim's lease end).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.deadlines import DecisionTerms
from bot.scheduler import DeadlineScheduler, PendingDecision, StoredTerms
from bot.storage import GameRecord, SQLiteStorage, StaleGameVersion
from bot.storage.models import DeadlineRecord, SeatClockRecord

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)
TERMS = DecisionTerms(duration=24 * H, reminders=(0.25, 0.5, 0.9))


class FixedTerms:
    """Every decision gets the same terms (no quiet hours, no bank)."""

    def __init__(self, terms: DecisionTerms = TERMS) -> None:
        self.value = terms

    async def terms(
        self, game_id: int, seat: str, kind: str, user_id: int | None
    ) -> DecisionTerms | None:
        return self.value


class Crash(Exception):
    """Stands for the process dying in the middle of a callback."""


@dataclass
class Bot:
    """One run of the bot: a store and a scheduler on the database file, recording
    what the callbacks saw."""

    store: SQLiteStorage
    scheduler: DeadlineScheduler
    reminders: list[tuple[int, int]] = field(default_factory=list)
    dues: list[tuple[int, int, int]] = field(default_factory=list)
    """(deadline id, attempt, missed in a row)."""
    due_hook: Callable[[DeadlineRecord], object] | None = None


@dataclass
class World:
    path: Path
    clock: FakeClock
    bots: list[Bot] = field(default_factory=list)

    async def boot(self, terms: object | None = None, *, load: bool = True) -> Bot:
        store = await SQLiteStorage.open(self.path, clock=self.clock)
        bot: Bot

        async def on_reminder(d: DeadlineRecord, n: int) -> None:
            bot.reminders.append((d.id, n))

        async def on_due(d: DeadlineRecord, seat: SeatClockRecord) -> None:
            bot.dues.append((d.id, d.attempts, seat.missed_in_a_row))
            if bot.due_hook is not None:
                result = bot.due_hook(d)
                if asyncio.iscoroutine(result):
                    await result

        scheduler = DeadlineScheduler(
            store,
            on_reminder=on_reminder,
            on_due=on_due,
            clock=self.clock,
            terms=FixedTerms() if terms is None else terms,  # type: ignore[arg-type]
        )
        bot = Bot(store, scheduler)
        self.bots.append(bot)
        if load:
            await scheduler.load()
        return bot

    async def shutdown(self, bot: Bot) -> None:
        await bot.scheduler.stop()
        await bot.store.close()
        self.bots.remove(bot)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    w = World(tmp_path / "tally-ho.sqlite3", FakeClock(T0))
    yield w
    for bot in list(w.bots):
        await w.shutdown(bot)


async def new_game(store: SQLiteStorage, guild_id: int = 1) -> int:
    game = await store.create_game(
        guild_id=guild_id, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=7
    )
    return game.id


async def step_through(bot: Bot, clock: FakeClock, until: datetime, step: timedelta) -> None:
    """Move the clock in steps, running the scheduler at each (like its task would)."""
    while clock.now() < until:
        clock.set(min(until, clock.now() + step))
        await bot.scheduler.run_due()


async def eventually(check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait (for the scheduler's task and the database thread) until ``check()``."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.002)


# -- reminders and deadlines -------------------------------------------------------------


async def test_reminders_fire_the_configured_number_of_times(world: World) -> None:
    bot = await world.boot()
    game = await new_game(bot.store)
    d = await bot.scheduler.open(game, "A1", "play", "1:play", TERMS, user_id=9)
    assert len(bot.scheduler) == 1
    await step_through(bot, world.clock, T0 + 30 * H, timedelta(minutes=7))
    assert bot.reminders == [(d.id, 1), (d.id, 2), (d.id, 3)]
    assert bot.dues == [(d.id, 1, 1)]
    assert len(bot.scheduler) == 0
    stored = await bot.store.get_deadline(d.id)
    assert stored is not None and stored.done_at is not None and stored.reminders_sent == 3


async def test_reminders_fall_at_their_fractions(world: World) -> None:
    bot = await world.boot()
    game = await new_game(bot.store)
    d = await bot.scheduler.open(game, "A1", "play", "1:play", TERMS)
    assert d.reminder_ats == (T0 + 6 * H, T0 + 12 * H, T0 + 24 * H * 0.9)
    world.clock.set(T0 + 6 * H - timedelta(microseconds=1))
    assert await bot.scheduler.run_due() == 0
    world.clock.set(T0 + 6 * H)
    assert await bot.scheduler.run_due() == 1
    assert bot.scheduler.next_wake() == T0 + 12 * H


async def test_a_late_run_sends_only_the_latest_missed_reminder(world: World) -> None:
    bot = await world.boot()
    game = await new_game(bot.store)
    d = await bot.scheduler.open(game, "A1", "play", "1:play", TERMS)
    world.clock.set(T0 + 13 * H)  # past the first two reminders
    await bot.scheduler.run_due()
    assert bot.reminders == [(d.id, 2)]
    world.clock.set(T0 + 23 * H)
    await bot.scheduler.run_due()
    assert bot.reminders == [(d.id, 2), (d.id, 3)]


async def test_a_restart_between_reminders_and_deadline_loses_and_repeats_nothing(
    world: World,
) -> None:
    first = await world.boot()
    game = await new_game(first.store)
    d = await first.scheduler.open(game, "A1", "play", "1:play", TERMS)
    await step_through(first, world.clock, T0 + 7 * H, timedelta(minutes=30))
    assert first.reminders == [(d.id, 1)]
    await world.shutdown(first)

    world.clock.advance(timedelta(minutes=5))  # the restart takes a while
    second = await world.boot()
    assert len(second.scheduler) == 1
    assert await second.scheduler.run_due() == 0  # reminder 1 is not sent again
    await step_through(second, world.clock, T0 + 13 * H, timedelta(minutes=30))
    assert second.reminders == [(d.id, 2)]
    await world.shutdown(second)

    third = await world.boot()
    await step_through(third, world.clock, T0 + 48 * H, timedelta(minutes=30))
    assert third.reminders == [(d.id, 3)]
    assert third.dues == [(d.id, 1, 1)]
    await world.shutdown(third)

    fourth = await world.boot()
    assert len(fourth.scheduler) == 0
    await step_through(fourth, world.clock, T0 + 96 * H, H)
    assert fourth.reminders == [] and fourth.dues == []


async def test_a_deadline_missed_during_downtime_fires_once_right_after_start_up(
    world: World,
) -> None:
    first = await world.boot()
    game = await new_game(first.store)
    d = await first.scheduler.open(game, "A1", "play", "1:play", TERMS)
    await world.shutdown(first)

    world.clock.set(T0 + 3 * 24 * H)  # down for three days
    second = await world.boot(load=False)
    assert await second.scheduler.start() == 1
    await eventually(lambda: len(second.dues) == 1)
    assert second.dues == [(d.id, 1, 1)]
    assert second.reminders == []  # no stale reminders for an expired decision
    assert await second.scheduler.run_due() == 0
    await world.shutdown(second)

    third = await world.boot()
    assert len(third.scheduler) == 0 and await third.scheduler.run_due() == 0


async def test_the_task_sleeps_on_the_clock_and_rearms_for_an_earlier_deadline(
    world: World,
) -> None:
    bot = await world.boot(load=False)
    game = await new_game(bot.store)
    far = DecisionTerms(duration=48 * H, reminders=())
    near = DecisionTerms(duration=H, reminders=())
    late = await bot.scheduler.open(game, "A1", "play", "1:play", far)
    await bot.scheduler.start()
    await eventually(lambda: world.clock.sleepers == 1)
    soon = await bot.scheduler.open(game, "X1", "respond", "2:respond", near)
    world.clock.advance(H)
    await eventually(lambda: len(bot.dues) == 1)
    assert bot.dues == [(soon.id, 1, 1)]
    world.clock.advance(47 * H)
    await eventually(lambda: len(bot.dues) == 2)
    assert bot.dues[1] == (late.id, 1, 1)
    assert bot.scheduler.running


async def test_stop_stops_even_when_a_callback_fails_on_the_way_out(world: World) -> None:
    """A callback (or a query) interrupted by stop() may fail with an ordinary error
    rather than CancelledError; caught like any failure, it would swallow the
    cancellation, and stop() would wait for the task forever."""
    bot = await world.boot(load=False)
    game = await new_game(bot.store)
    await bot.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    started = asyncio.Event()

    async def stuck(_: DeadlineRecord) -> None:
        started.set()
        try:
            await asyncio.Event().wait()  # until cancelled
        except asyncio.CancelledError:
            raise Crash("discord went away while we were stopping") from None

    bot.due_hook = stuck
    world.clock.set(T0 + H)
    await bot.scheduler.start()
    await asyncio.wait_for(started.wait(), 10)
    stopping = asyncio.ensure_future(bot.scheduler.stop())
    done, _ = await asyncio.wait({stopping}, timeout=10)  # (wait_for would cancel again)
    if not done:
        stopping.cancel()
    assert done, "stop() hung: the cancellation was swallowed"
    assert not bot.scheduler.running


async def test_a_graceful_stop_lets_the_firing_in_progress_finish(world: World) -> None:
    """``stop(grace)`` (a shutdown): the default action being applied completes and
    the deadline is done; with a grace too short, it is cancelled and fires again
    after the restart."""
    bot = await world.boot(load=False)
    game = await new_game(bot.store)
    d = await bot.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    started, release = asyncio.Event(), asyncio.Event()

    async def slow(_: DeadlineRecord) -> None:
        started.set()
        await release.wait()

    bot.due_hook = slow
    world.clock.set(T0 + H)
    await bot.scheduler.start()
    await asyncio.wait_for(started.wait(), 10)
    stopping = asyncio.ensure_future(bot.scheduler.stop(grace=30))
    await asyncio.sleep(0.05)
    assert not stopping.done(), "stop waits for the firing"
    release.set()
    await asyncio.wait_for(stopping, 10)
    assert not bot.scheduler.running
    stored = await bot.store.get_deadline(d.id)
    assert stored is not None and stored.done_at is not None

    game = await new_game(bot.store)
    cut = await bot.scheduler.open(game, "A1", "play", "2:play", DecisionTerms(duration=H))
    started.clear()
    release.clear()
    world.clock.set(T0 + 2 * H)
    await bot.scheduler.start()
    await asyncio.wait_for(started.wait(), 10)
    await asyncio.wait_for(bot.scheduler.stop(grace=0.05), 10)
    assert not bot.scheduler.running
    stored = await bot.store.get_deadline(cut.id)
    assert stored is not None and stored.done_at is None and stored.fired_at is not None
    await world.shutdown(bot)
    release.set()
    again = await world.boot()
    assert await again.scheduler.run_due() == 0  # the claim's lease runs for a minute
    world.clock.advance(again.scheduler.retry_delay)
    assert await again.scheduler.run_due() == 1 and again.dues[0][:2] == (cut.id, 2)


# -- exactly-once default actions ----------------------------------------------------------


async def test_a_failing_on_due_is_retried_until_it_returns(world: World) -> None:
    bot = await world.boot()
    game = await new_game(bot.store)
    d = await bot.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    failures = [Crash("discord is down"), Crash("still down")]

    def flaky(_: DeadlineRecord) -> None:
        if failures:
            raise failures.pop(0)

    bot.due_hook = flaky
    world.clock.set(T0 + H)
    await bot.scheduler.run_due()
    assert bot.dues == [(d.id, 1, 1)] and len(bot.scheduler) == 1
    world.clock.advance(bot.scheduler.retry_delay)
    await bot.scheduler.run_due()
    world.clock.advance(bot.scheduler.retry_delay)
    await bot.scheduler.run_due()
    assert bot.dues == [(d.id, 1, 1), (d.id, 2, 1), (d.id, 3, 1)]  # one miss, three tries
    assert len(bot.scheduler) == 0


async def test_a_crash_before_the_default_action_commits_retries_it_after_restart(
    world: World,
) -> None:
    first = await world.boot()
    game = await new_game(first.store)
    d = await first.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))

    def crash(_: DeadlineRecord) -> None:
        raise Crash  # the process dies before writing the action

    first.due_hook = crash
    world.clock.set(T0 + H)
    await first.scheduler.run_due()
    await world.shutdown(first)

    second = await world.boot()

    async def apply_default(deadline: DeadlineRecord) -> None:
        game_record = await second.store.get_game(deadline.game_id)
        assert game_record is not None
        await second.store.append_deadline_action(deadline.id, game_record.version, "pass")

    second.due_hook = apply_default
    assert await second.scheduler.run_due() == 0  # claimed: due at the lease end
    world.clock.advance(second.scheduler.retry_delay)
    await second.scheduler.run_due()
    assert second.dues == [(d.id, 2, 1)]  # the second attempt; the miss counted once
    assert [a.action for a in await second.store.load_actions(game)] == ["pass"]


async def test_a_crash_after_the_default_action_commits_does_not_apply_it_again(
    world: World,
) -> None:
    first = await world.boot()
    game = await new_game(first.store)
    await first.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))

    async def apply_then_crash(deadline: DeadlineRecord) -> None:
        await first.store.append_deadline_action(deadline.id, 0, "pass")
        raise Crash  # dies before the scheduler marks the deadline done

    first.due_hook = apply_then_crash
    world.clock.set(T0 + H)
    await first.scheduler.run_due()
    await world.shutdown(first)

    second = await world.boot()
    assert len(second.scheduler) == 0  # the action's transaction closed the deadline
    world.clock.advance(24 * H)
    assert await second.scheduler.run_due() == 0
    assert [a.action for a in await second.store.load_actions(game)] == ["pass"]


async def test_a_player_acting_at_the_last_moment_beats_the_default_action(
    world: World,
) -> None:
    bot = await world.boot()
    game = await new_game(bot.store)
    await bot.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    outcomes: list[str] = []

    async def apply_default(deadline: DeadlineRecord) -> None:
        # The player's own move lands between the claim and the default action.
        await bot.store.append_action(game, 0, "A1", "play MAN X1L")
        try:
            await bot.store.append_deadline_action(deadline.id, 0, "pass")
        except StaleGameVersion:
            outcomes.append("stale: nothing to do")

    bot.due_hook = apply_default
    world.clock.set(T0 + H)
    await bot.scheduler.run_due()
    assert outcomes == ["stale: nothing to do"]
    assert [a.action for a in await bot.store.load_actions(game)] == ["play MAN X1L"]
    assert len(bot.scheduler) == 0


async def test_two_processes_fire_a_deadline_once(world: World) -> None:
    one = await world.boot()
    two = await world.boot()
    game = await new_game(one.store)
    await one.scheduler.open(game, "A1", "play", "1:play", TERMS)
    await two.scheduler.load()
    world.clock.set(T0 + 13 * H)
    await asyncio.gather(one.scheduler.run_due(), two.scheduler.run_due())
    assert len(one.reminders) + len(two.reminders) == 1
    world.clock.set(T0 + 25 * H)
    await asyncio.gather(one.scheduler.run_due(), two.scheduler.run_due())
    assert len(one.dues) + len(two.dues) == 1
    assert await one.store.live_deadlines() == []


# -- following a game ----------------------------------------------------------------------


async def test_sync_follows_the_games_pending_decisions(world: World) -> None:
    bot = await world.boot()
    s = bot.scheduler
    game = await new_game(bot.store)
    # Secret altitudes: both seats decide at once.
    live = await s.sync(
        game, 1, [PendingDecision("A1", "altitude", 10), PendingDecision("X1", "altitude", 20)]
    )
    assert {(d.seat, d.decision_key) for d in live} == {("A1", "1:altitude"), ("X1", "1:altitude")}
    x1 = next(d for d in live if d.seat == "X1")
    world.clock.advance(H)
    live = await s.sync(game, 2, [PendingDecision("X1", "altitude", 20)], actor="A1")
    assert [d.id for d in live] == [x1.id]  # X1's clock keeps running
    world.clock.advance(H)
    live = await s.sync(game, 3, [PendingDecision("A1", "play", 10)], actor="X1")
    assert [(d.seat, d.decision_key, d.created_at) for d in live] == [("A1", "3:play", T0 + 2 * H)]
    # Playing a card keeps the turn's deadline: the turn is one decision.
    world.clock.advance(H)
    again = await s.sync(game, 4, [PendingDecision("A1", "play", 10)], actor="A1")
    assert [d.id for d in again] == [live[0].id]
    # The response interrupts the turn; the turn gets a fresh deadline afterwards.
    live = await s.sync(game, 5, [PendingDecision("X1", "respond", 20)], actor="A1")
    assert [d.decision_key for d in live] == ["5:respond"]
    assert await s.cancel_game(game) == [live[0].id]
    assert len(s) == 0 and s.of_game(game) == []
    assert await bot.store.live_deadlines() == []


async def test_missed_deadlines_in_a_row_count_and_acting_resets_them(world: World) -> None:
    bot = await world.boot(FixedTerms(DecisionTerms(duration=H, reminders=())))
    s = bot.scheduler
    game = await new_game(bot.store)
    version = 1
    for _ in range(3):
        await s.sync(game, version, [PendingDecision("A1", "play", 10)])
        world.clock.advance(H)
        await s.run_due()
        version += 1
    assert [missed for _, _, missed in bot.dues] == [1, 2, 3]
    await s.sync(game, version, [PendingDecision("X1", "respond", 20)], actor="A1")
    clock = await bot.store.get_seat_clock(game, "A1")
    assert (clock.missed_in_a_row, clock.missed_total) == (0, 3)


# -- policy from the database (StoredTerms) -------------------------------------------------


async def test_stored_terms_use_server_game_and_player_settings(world: World) -> None:
    first = await world.boot()
    store = first.store
    await store.put_guild_settings(
        1, {"deadlines": {"turn_hours": 10, "response_hours": 4, "reminders": [0.5]}}
    )
    game = await new_game(store)
    await store.put_game_settings(game, {"deadlines": {"response_hours": 2}})
    await store.put_user_settings(
        20, {"tz": "UTC", "quiet_hours": {"start": "13:00", "end": "15:00"}}
    )
    terms = StoredTerms(store)
    play = await terms.terms(game, "A1", "play", 10)
    respond = await terms.terms(game, "X1", "respond", 20)
    assert play is not None and play.duration == 10 * H and play.quiet is None
    assert respond is not None and respond.duration == 2 * H and respond.quiet is not None
    assert await terms.terms(game, "X2", "play", None) is None  # nobody in the seat
    await store.put_game_settings(game, {"deadlines": {"reminders": [2]}})  # malformed
    fallback = await terms.terms(game, "A1", "play", 10)
    assert fallback is not None and fallback.duration == 24 * H  # defaults, not a stall
    await store.put_game_settings(game, {"deadlines": {"enabled": False}})
    assert await terms.terms(game, "A1", "play", 10) is None
    assert await terms.terms(game + 1, "A1", "play", 10) is None


async def test_stored_terms_read_a_games_guild_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's guild never changes: the terms of its decisions read its record once
    (each move plans its deadlines), and still follow the settings as they change."""
    store = (await world.boot()).store
    game = await new_game(store)
    terms = StoredTerms(store)
    reads = []
    get_game = store.get_game

    async def counted(game_id: int) -> GameRecord | None:
        reads.append(game_id)
        return await get_game(game_id)

    monkeypatch.setattr(store, "get_game", counted)
    first = await terms.terms(game, "A1", "play", 10)
    await store.put_guild_settings(1, {"deadlines": {"turn_hours": 10}})
    second = await terms.terms(game, "A1", "play", 10)
    assert first is not None and first.duration == 24 * H
    assert second is not None and second.duration == 10 * H
    assert reads == [game]


async def test_quiet_hours_and_vacation_move_the_deadline(world: World) -> None:
    bot = await world.boot(load=False)
    store = bot.store
    bot.scheduler.terms = StoredTerms(store)
    await store.put_guild_settings(1, {"deadlines": {"response_hours": 2, "reminders": [0.5]}})
    await store.put_user_settings(20, {"quiet_hours": {"start": "13:00", "end": "15:00"}})
    game = await new_game(store)
    [d] = await bot.scheduler.sync(game, 1, [PendingDecision("X1", "respond", 20)])
    # From 12:00 UTC: one hour, then quiet 13:00-15:00, then the second hour.
    assert d.reminder_ats == (T0 + H,) and d.due_at == T0 + 4 * H
    moved = await bot.scheduler.set_vacation(
        game, "X1", T0 + 30 * timedelta(minutes=1), T0 + 48 * H
    )
    [m] = moved
    assert m.id == d.id and m.reminder_ats == (T0 + 48 * H + 30 * timedelta(minutes=1),)
    # Half an hour before leaving, an hour on return, quiet 13:00-15:00, half an hour.
    assert m.due_at == T0 + 51 * H + 30 * timedelta(minutes=1)
    assert bot.scheduler.of_game(game)[0].expires_at == m.due_at  # the game waits until then
    back = await bot.scheduler.set_vacation(game, "X1", None, None)
    assert back[0].due_at == T0 + 4 * H


async def banked(world: World) -> tuple[Bot, SQLiteStorage, int]:
    """A bot whose deadlines come from the stored settings: one-hour turns with no
    reminder and a two-hour time bank; and a new game."""
    bot = await world.boot(load=False)
    bot.scheduler.terms = StoredTerms(bot.store)
    await bot.store.put_guild_settings(
        1, {"deadlines": {"turn_hours": 1, "reminders": [], "time_bank_hours": 2}}
    )
    return bot, bot.store, await new_game(bot.store)


async def test_the_time_bank_delays_expiry_and_is_spent_on_overruns(world: World) -> None:
    bot, store, game = await banked(world)
    [d] = await bot.scheduler.sync(game, 1, [PendingDecision("A1", "play", 10)])
    assert d.due_at == T0 + H and d.expires_at == T0 + 3 * H and d.bank_seconds == 7200
    world.clock.set(T0 + 90 * timedelta(minutes=1))
    assert await bot.scheduler.run_due() == 0  # on the bank, not expired
    await bot.scheduler.sync(game, 2, [PendingDecision("X1", "respond", 20)], actor="A1")
    assert (await store.get_seat_clock(game, "A1")).time_bank_seconds == 7200 - 1800
    # Next time the bank holds 1.5 hours, and expiry spends all of it.
    [d2] = await bot.scheduler.sync(game, 3, [PendingDecision("A1", "play", 10)])
    assert d2.expires_at == d2.due_at + 90 * timedelta(minutes=1)
    world.clock.set(d2.expires_at)
    await bot.scheduler.run_due()
    assert (await store.get_seat_clock(game, "A1")).time_bank_seconds == 0


async def test_a_seat_clock_is_created_by_its_first_decision_only(world: World) -> None:
    """The planner gives a new deadline the seat's starting bank only while the seat
    has no clock (``DecisionTerms.first``): later decisions write no clock (the store
    skips the write, issue 16), and the bank the seat has left still counts."""
    bot, store, game = await banked(world)
    [first] = (await bot.scheduler.plan(game, 1, [PendingDecision("A1", "play", 10)])).open
    assert first.seat_bank_seconds == 7200
    await bot.scheduler.sync(game, 1, [PendingDecision("A1", "play", 10)])
    clock = await store.get_seat_clock(game, "A1")
    assert clock.updated_at is not None and clock.time_bank_seconds == 7200
    [later] = (await bot.scheduler.plan(game, 2, [PendingDecision("A1", "respond", 10)])).open
    assert later.seat_bank_seconds is None and later.bank_seconds == 7200


async def test_load_reads_every_live_deadline_page_by_page(world: World) -> None:
    first = await world.boot()
    game = await new_game(first.store)
    opened = [
        await first.scheduler.open(game, f"A{n}", "play", "1:play", TERMS) for n in range(1, 6)
    ]
    await first.scheduler.settle(opened[2], acted=True)
    await world.shutdown(first)
    second = await world.boot(load=False)
    second.scheduler.LOAD_PAGE = 2
    assert await second.scheduler.load() == 4
    assert {d.id for d in second.scheduler.of_game(game)} == {
        d.id for i, d in enumerate(opened) if i != 2
    }


async def test_stored_terms_read_a_richer_policy_model(world: World) -> None:
    from bot.deadlines import DeadlineSettings

    class Capped(DeadlineSettings):
        max_reminders: int = 1

        @property
        def reminder_fractions(self) -> tuple[float, ...]:
            return self.reminders[: self.max_reminders]

    bot = await world.boot(load=False)
    game = await new_game(bot.store)
    terms = StoredTerms(bot.store, Capped)
    settings = await terms.settings(game)
    assert isinstance(settings, Capped)
    found = await terms.terms(game, "A1", "play", 10)
    assert found is not None and found.reminders == (0.5,)
