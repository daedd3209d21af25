"""Two bot processes on one PostgreSQL database, through the offline Discord: each a
``TallyHoBot`` running one of two shards (the fake's guild is on the first's), with
one fake clock. A deadline of a game the first process runs is fired once across
both; the first process killed in the middle of a default move, the second applies
it once its claim's lease is up; killed outright, the second fires its timers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest

from bot.clock import FakeClock
from bot.storage.models import DeadlineRecord, SeatClockRecord
from bot.testing import FakeDiscord
from cogs.app import TallyHoBot
from tests.bot.clocked import SEED, START, log_of, open_duel
from tests.bot.test_deadlines_flow import attack, thread_texts
from tests.storage.backends import PostgresServer

PASSED = "The deadline of Ki-43 Oscar (X1) has passed"


@pytest.fixture
def url(postgres_server: PostgresServer) -> str:
    return postgres_server.new_database()


def process(url: str, clock: FakeClock, shard: int) -> TallyHoBot:
    return TallyHoBot(
        database=url, seed_source=lambda: SEED, clock=clock, shard_ids=[shard], shard_count=2
    )


async def two_processes(fake: FakeDiscord, url: str, clock: FakeClock) -> list[TallyHoBot]:
    """The process holding the fake's guild, then the other one beside it."""
    mine = (fake.guild_id >> 22) % 2
    first, second = process(url, clock, mine), process(url, clock, 1 - mine)
    await fake.start(first)
    await fake.start(second, beside=True)
    assert fake.bot is first and first.owns_guild(fake.guild_id)
    assert not second.owns_guild(fake.guild_id)
    return [first, second]


async def eventually(
    fake: FakeDiscord, check: Callable[[], Awaitable[bool]], timeout: float = 20
) -> None:
    """Let both processes run until ``check()``."""
    async with asyncio.timeout(timeout):
        while not await check():
            await fake.settle()


async def test_a_deadline_fires_once_across_two_processes_and_the_survivor_takes_over(
    fake: FakeDiscord, url: str
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    first, second = await two_processes(fake, url, clock)
    game_id, thread = await open_duel(fake, first, alice, bob, response_hours=2.0)
    await attack(fake, first, alice, game_id, thread)
    clock.advance(timedelta(hours=2.1))  # both schedulers' tasks wake, poll and race

    async def passed() -> bool:
        return "X1 pass" in await log_of(first, game_id)

    await eventually(fake, passed)
    await fake.settle()
    assert (await log_of(first, game_id)).count("X1 pass") == 1
    assert sum(PASSED in text for text in thread_texts(fake, thread)) == 1

    await first.close()  # the first process dies: the second fires the game's timers
    clock.advance(timedelta(hours=48))

    async def turn_passed() -> bool:
        return "A1 done" in await log_of(second, game_id)

    await eventually(fake, turn_passed)
    await fake.settle()
    assert (await log_of(second, game_id)).count("X1 pass") == 1
    await second.close()


async def test_a_process_killed_mid_default_leaves_it_to_the_other_once(
    fake: FakeDiscord, url: str
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    first, second = await two_processes(fake, url, clock)
    assert first.deadlines is not None and second.deadlines is not None
    game_id, thread = await open_duel(fake, first, alice, bob, response_hours=2.0)
    await attack(fake, first, alice, game_id, thread)
    await second.deadlines.scheduler.stop()  # busy elsewhere until the first claims
    started = asyncio.Event()

    async def dies(deadline: DeadlineRecord, seat_clock: SeatClockRecord) -> None:
        started.set()
        await asyncio.Event().wait()  # never finishes: the process is killed meanwhile

    first.deadlines.scheduler.on_due = dies
    clock.advance(timedelta(hours=2.1))
    await asyncio.wait_for(started.wait(), 20)
    await first.close()  # killed in the middle: claimed, never applied
    [claimed] = await second.service.storage.live_deadlines(game_id)
    assert claimed.is_claimed and claimed.attempts == 1

    await second.deadlines.scheduler.start()
    await fake.settle()
    assert "X1 pass" not in await log_of(second, game_id)  # the first's lease runs
    clock.advance(second.deadlines.scheduler.retry_delay)

    async def passed() -> bool:
        return "X1 pass" in await log_of(second, game_id)

    await eventually(fake, passed)
    await fake.settle()
    assert (await log_of(second, game_id)).count("X1 pass") == 1
    assert sum(PASSED in text for text in thread_texts(fake, thread)) == 1
    await second.close()
