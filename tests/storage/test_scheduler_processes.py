"""Two deadline schedulers on one database, as two bot processes would run them (on
SQLite and on PostgreSQL, see conftest.py), with one fake clock: a deadline one process
opened is seen and fired by exactly one of them, a reminder is sent once, a claim is a
lease (the live claimer keeps it, a killed claimer's passes on once it ends), and one
process settles the deadline another opened (bot/scheduler.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock
from bot.deadlines import DecisionTerms
from bot.scheduler import DeadlineScheduler, PendingDecision
from bot.storage import Storage
from bot.storage.models import DeadlineRecord, SeatClockRecord
from tests.storage.backends import Database

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)
TERMS = DecisionTerms(duration=24 * H, reminders=(0.5,))
POLL = timedelta(seconds=30)


class FixedTerms:
    async def terms(
        self, game_id: int, seat: str, kind: str, user_id: int | None
    ) -> DecisionTerms | None:
        return TERMS


@dataclass
class Process:
    """One bot process: its own store (connection) and scheduler on the database."""

    store: Storage
    scheduler: DeadlineScheduler
    reminders: list[tuple[int, int]] = field(default_factory=list)
    dues: list[tuple[int, int]] = field(default_factory=list)
    """(deadline id, attempt) of every ``on_due`` call that started."""
    hold: asyncio.Event | None = None
    """If set, ``on_due`` waits for it (a firing in progress)."""


@dataclass
class Cluster:
    database: Database
    clock: FakeClock
    processes: list[Process] = field(default_factory=list)

    async def spawn(self) -> Process:
        store = await self.database.open(clock=self.clock)
        process: Process

        async def on_reminder(d: DeadlineRecord, n: int) -> None:
            process.reminders.append((d.id, n))

        async def on_due(d: DeadlineRecord, seat_clock: SeatClockRecord) -> None:
            process.dues.append((d.id, d.attempts))
            if process.hold is not None:
                await process.hold.wait()

        scheduler = DeadlineScheduler(
            store,
            on_reminder=on_reminder,
            on_due=on_due,
            clock=self.clock,
            terms=FixedTerms(),
            poll_interval=POLL,
        )
        process = Process(store, scheduler)
        self.processes.append(process)
        return process

    async def kill(self, process: Process) -> None:
        """The process dies: its task stops wherever it is, nothing is finished."""
        await process.scheduler.stop()
        await process.store.close()
        self.processes.remove(process)


@pytest.fixture
async def cluster(database: Database) -> AsyncIterator[Cluster]:
    c = Cluster(database, FakeClock(T0))
    yield c
    for process in list(c.processes):
        await c.kill(process)


async def new_game(store: Storage) -> int:
    game = await store.create_game(
        guild_id=1, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=7
    )
    return game.id


async def eventually(check: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait for the schedulers' tasks (and the databases) until ``check()``."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.005)


async def test_a_poll_finds_what_another_process_opened(cluster: Cluster) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    await b.scheduler.load()
    game = await new_game(a.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", TERMS)
    assert d.id not in b.scheduler
    assert await b.scheduler.poll() == 0  # the reminder falls after the next poll
    cluster.clock.set(T0 + 12 * H - POLL)
    assert await b.scheduler.poll() == 1
    assert b.scheduler.next_wake() == T0 + 12 * H


async def test_a_deadline_one_process_opened_fires_once_across_both(cluster: Cluster) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    await a.scheduler.start()
    await b.scheduler.start()
    game = await new_game(a.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", TERMS)

    async def stored(check: Callable[[DeadlineRecord], bool]) -> None:
        """Until the database shows the firing done: the fake clock jumps hours at
        once, past the lease of a firing a loaded machine has not finished yet."""
        async with asyncio.timeout(20.0):
            while (record := await a.store.get_deadline(d.id)) is None or not check(record):
                await asyncio.sleep(0.005)

    for moment in (T0 + 12 * H - POLL, T0 + 12 * H):
        cluster.clock.set(moment)
        await asyncio.sleep(0.05)
    await eventually(lambda: len(a.reminders) + len(b.reminders) == 1)
    await stored(lambda r: r.reminders_sent == 1 and not r.is_claimed)
    for moment in (T0 + 24 * H - POLL, T0 + 24 * H):
        cluster.clock.set(moment)
        await asyncio.sleep(0.05)
    await eventually(lambda: len(a.dues) + len(b.dues) == 1)
    await stored(lambda r: r.done_at is not None)
    cluster.clock.advance(2 * H)  # past any lease: nothing fires again
    await asyncio.sleep(0.2)
    assert a.reminders + b.reminders == [(d.id, 1)]
    assert a.dues + b.dues == [(d.id, 1)]
    await eventually(lambda: d.id not in a.scheduler and d.id not in b.scheduler)
    assert await a.store.live_deadlines() == []


async def test_a_live_claimers_lease_is_kept(cluster: Cluster) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    game = await new_game(a.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    await b.scheduler.load()
    a.hold = asyncio.Event()
    cluster.clock.set(T0 + H)
    firing = asyncio.ensure_future(a.scheduler.run_due())
    await eventually(lambda: a.dues == [(d.id, 1)])
    assert await b.scheduler.run_due() == 0  # claimed by A: re-armed at the lease end
    assert b.scheduler.next_wake() == T0 + H + a.scheduler.retry_delay
    await b.store.close()  # B restarts: the claim stays A's at load too
    cluster.processes.remove(b)
    b = await cluster.spawn()
    await b.scheduler.load()
    assert await b.scheduler.run_due() == 0
    a.hold.set()
    assert await firing == 1
    cluster.clock.advance(a.scheduler.retry_delay)
    assert await b.scheduler.run_due() == 0  # A finished it: B forgets it
    assert b.dues == [] and len(b.scheduler) == 0


async def test_a_killed_claimers_deadline_passes_to_the_other_once(cluster: Cluster) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    await a.scheduler.start()
    await b.scheduler.start()
    game = await new_game(b.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    a.hold = asyncio.Event()  # A's on_due never finishes
    b.hold = asyncio.Event()
    b.hold.set()
    await b.scheduler.stop()  # B is busy elsewhere until A has claimed
    cluster.clock.set(T0 + H)
    await eventually(lambda: a.dues == [(d.id, 1)])
    await cluster.kill(a)  # killed mid-firing: claimed, never done
    stored = await b.store.get_deadline(d.id)
    assert stored is not None and stored.is_claimed and stored.attempts == 1
    await b.scheduler.start()
    await asyncio.sleep(0.1)
    assert b.dues == []  # the lease runs
    cluster.clock.advance(b.scheduler.retry_delay)
    await eventually(lambda: b.dues == [(d.id, 2)])
    await eventually(lambda: d.id not in b.scheduler)
    cluster.clock.advance(H)
    await asyncio.sleep(0.1)
    assert b.dues == [(d.id, 2)]
    done = await b.store.get_deadline(d.id)
    assert done is not None and done.done_at is not None
    clock = await b.store.get_seat_clock(game, "A1")
    assert clock is not None and clock.missed_total == 1  # the miss counted once


async def test_a_reminder_another_process_sent_is_not_sent_again(cluster: Cluster) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    game = await new_game(a.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", TERMS)
    await b.scheduler.load()
    cluster.clock.set(T0 + 12 * H)
    assert await a.scheduler.run_due() == 1
    assert await b.scheduler.run_due() == 0  # re-read: sent, next wake-up the expiry
    assert b.scheduler.next_wake() == d.expires_at
    assert a.reminders == [(d.id, 1)] and b.reminders == []


async def test_a_deadline_moved_elsewhere_does_not_fire_from_a_stale_copy(
    cluster: Cluster,
) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    game = await new_game(a.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", DecisionTerms(duration=H))
    await b.scheduler.load()
    later = await a.store.reschedule_deadline(
        d.id, due_at=T0 + 5 * H, expires_at=T0 + 5 * H, reminder_ats=[]
    )
    assert later is not None
    cluster.clock.set(T0 + H)
    assert await b.scheduler.run_due() == 0
    assert b.scheduler.next_wake() == T0 + 5 * H


async def test_a_process_settles_the_deadline_another_opened(cluster: Cluster) -> None:
    a, b = await cluster.spawn(), await cluster.spawn()
    game = await new_game(a.store)
    d = await a.scheduler.open(game, "A1", "play", "1:play", TERMS)
    await b.scheduler.load()
    other = await a.scheduler.open(game, "A1", "play", "2:play", TERMS, start=T0 + H)
    assert [x.id for x in await b.scheduler.reload_game(game)] == [d.id, other.id]
    await b.scheduler.settle(b.scheduler.of_game(game)[0], acted=True)
    assert [x.id for x in await a.scheduler.reload_game(game)] == [other.id]
    await b.scheduler.sync(game, 3, [PendingDecision("A1", "play", 99)], actor="A1")
    assert [x.id for x in await a.scheduler.reload_game(game)] == [other.id]
