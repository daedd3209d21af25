"""Deadline scheduler benchmark (not part of the test suite).

    python bench/scheduler.py [--games N] [--db PATH]

Creates N open games (default 10,000), each with one pending decision and its
deadline (reminders at 50 % and 90 %), in a fresh SQLite database file, then, like a
restart, opens a new store and scheduler on it and prints:

* how many live deadlines the scheduler holds after the reload;
* the reload time (open the database, load every live deadline) against the goal of
  under 5 s for 10,000 open games (play-by-post issue);
* the memory the loaded scheduler holds (tracemalloc, a second reload), and the peak
  RSS of a fresh process that only opens the database and loads the scheduler (what a
  restarted bot pays for its deadlines, on top of Python and the imports), against the
  goal of under 200 MB;
* how many reminders and how many expired deadlines it fires per second, with
  callbacks that do nothing (every one is a compare-and-set write to the database,
  batched, fsynced as in production).

The scheduler runs on a fake clock moved by hand, so nothing waits for real time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import FakeClock
from bot.deadlines import DecisionTerms
from bot.scheduler import DeadlineScheduler
from bot.storage import GameStatus, SQLiteStorage
from bot.storage.models import DeadlineRecord, SeatClockRecord

GOAL_MEMORY_MB = 200.0
GOAL_RELOAD_S = 5.0
T0 = datetime(2024, 5, 1, 12, tzinfo=UTC)


async def _nothing_reminded(deadline: DeadlineRecord, n: int) -> None:
    return None


async def _nothing_due(deadline: DeadlineRecord, seat: SeatClockRecord) -> None:
    return None


def scheduler_on(store: SQLiteStorage, clock: FakeClock) -> DeadlineScheduler:
    return DeadlineScheduler(store, on_reminder=_nothing_reminded, on_due=_nothing_due, clock=clock)


async def populate(path: Path, games: int, clock: FakeClock) -> float:
    """N active games, one deadline each, due between 24 and 48 hours from T0."""
    rng = random.Random(1)
    began = time.perf_counter()
    async with await SQLiteStorage.open(path, clock=clock) as store:
        scheduler = scheduler_on(store, clock)
        for n in range(games):
            game = await store.create_game(
                guild_id=1 + n % 50,
                channel_id=2,
                host_id=3,
                system="dif",
                ruleset="zero",
                seed=n,
                status=GameStatus.ACTIVE,
            )
            hours = 24 + rng.random() * 24
            terms = DecisionTerms(duration=timedelta(hours=hours), reminders=(0.5, 0.9))
            seat = "A1" if n % 2 else "X1"
            await scheduler.open(game.id, seat, "play", "1:play", terms, user_id=1000 + n)
    return time.perf_counter() - began


async def reload(path: Path, clock: FakeClock) -> tuple[SQLiteStorage, DeadlineScheduler, float]:
    began = time.perf_counter()
    store = await SQLiteStorage.open(path, clock=clock)
    scheduler = scheduler_on(store, clock)
    await scheduler.load()
    return store, scheduler, time.perf_counter() - began


def rss_mb() -> float:
    """This process's peak resident set size (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """This process's resident set size now (Linux /proc; else the peak)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return rss_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def reload_only(path: Path) -> None:
    """The child process: RSS before and after a reload, the peak, the count."""
    before = current_rss_mb()
    store, scheduler, _ = await reload(path, FakeClock(T0))
    print(f"{before:.1f} {current_rss_mb():.1f} {rss_mb():.1f} {len(scheduler)}")
    await store.close()


def fresh_process_rss(path: Path) -> tuple[float, float, float, int]:
    out = subprocess.run(
        [sys.executable, __file__, "--reload-only", str(path)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    ).stdout.split()
    return float(out[0]), float(out[1]), float(out[2]), int(out[3])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", type=Path, default=None, help="database file (default: a temp dir)")
    parser.add_argument("--reload-only", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.reload_only is not None:
        await reload_only(args.reload_only)
        return
    folder = None
    if args.db is None:
        folder = tempfile.TemporaryDirectory(prefix="tallyho-bench-")
        path = Path(folder.name) / "bench.sqlite3"
    else:
        path = args.db
        path.unlink(missing_ok=True)
    clock = FakeClock(T0)
    games = args.games
    print(f"scheduler benchmark: {games:,} open games, one deadline each, database {path}")

    setup = await populate(path, games, clock)
    print(f"  setup (create games, open deadlines): {setup:.1f} s, {games / setup:,.0f} games/s")

    # Restart: a new store and scheduler reload every live deadline.
    store, scheduler, reload_s = await reload(path, clock)
    held = len(scheduler)
    await store.close()
    print(f"  live deadlines held after reload: {held:,}")
    print(
        f"  reload (open database + load): {reload_s:.2f} s "
        f"(goal < {GOAL_RELOAD_S:g} s: {reload_s / GOAL_RELOAD_S:.1%} of it)"
    )

    # Memory of a restarted bot: a fresh process that only reloads.
    before, after, peak, count = fresh_process_rss(path)
    print(
        f"  fresh process reloading {count:,} deadlines: RSS {before:.0f} MB after the "
        f"imports, {after:.0f} MB once loaded (+{after - before:.0f} MB), peak {peak:.0f} MB; "
        f"goal < {GOAL_MEMORY_MB:g} MB: the peak is {peak / GOAL_MEMORY_MB:.1%} of it"
    )

    # Memory: what a loaded scheduler keeps (traced during a second reload).
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    store, scheduler, _ = await reload(path, clock)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    held_mb = (current - base) / 2**20
    peak_mb = (peak - base) / 2**20
    print(
        f"  memory held by the loaded scheduler: {held_mb:.1f} MB "
        f"({(current - base) / max(1, held):,.0f} bytes per deadline; "
        f"peak while loading {peak_mb:.1f} MB); "
        f"goal < {GOAL_MEMORY_MB:g} MB: {held_mb / GOAL_MEMORY_MB:.1%} of it"
    )
    print(f"  this process's peak RSS (it also created the games): {rss_mb():.0f} MB")

    # Reminders: just before the earliest deadline every first reminder is due.
    clock.set(T0 + timedelta(hours=24) - timedelta(seconds=1))
    began = time.perf_counter()
    reminded = await scheduler.run_due()
    took = time.perf_counter() - began
    print(f"  reminders fired: {reminded:,} in {took:.2f} s = {reminded / took:,.0f} per second")

    # Expiry: every deadline is over; claim, call on_due, mark done.
    clock.set(T0 + timedelta(hours=100))
    began = time.perf_counter()
    fired = await scheduler.run_due()
    took = time.perf_counter() - began
    print(f"  deadlines fired: {fired:,} in {took:.2f} s = {fired / took:,.0f} per second")
    left = len(await store.live_deadlines())
    print(f"  live deadlines left in the database: {left}; held by the scheduler: {len(scheduler)}")
    await store.close()
    if folder is not None:
        folder.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
