"""A property test (hypothesis): ``commit_move`` writes the same rows on SQLite and on
PostgreSQL, for any mix of deadline changes a move can carry.

The two stores write a move their own way (SQLite statement by statement in a
transaction; PostgreSQL with statements that each do several parts, every part of
one seeing the rows as they were before it). Each example opens the same deadlines
on a fresh game in both stores (some claimed: missed, their bank spent), gives some
seats a clock, then commits one move: actions (some with a snapshot), settlements
(acted or not, with the bank they used, of open or claimed deadlines), resets of
missed counts, openings (some for a decision that has a deadline already, some twice
in the move, several for one seat), and now and then a stale version. The two stores
must agree on what the move returns, the game's log and snapshot, every deadline and
every seat's clock (deadline ids told apart by their decision, not by number). Small
and derandomized; ``TALLYHO_HYPOTHESIS_EXAMPLES`` soaks it (CONTRIBUTING).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import FakeClock
from bot.storage import SQLiteStorage, StaleGameVersion, Storage, open_storage
from bot.storage.memo import remember_settings
from bot.storage.models import (
    DeadlineChanges,
    DeadlineOpening,
    DeadlineRecord,
    DeadlineSettlement,
    LogEntry,
    MoveCommitted,
    SeatClockRecord,
)
from tests.storage.backends import PostgresServer

SOAK = int(os.environ.get("TALLYHO_HYPOTHESIS_EXAMPLES", "0"))
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)
SEATS = ("A1", "A2", "X1")
KEYS = ("1:play", "1:respond", "2:play", "2:respond")


@dataclass(frozen=True)
class Existing:
    seat: str
    key: str
    claimed: bool


@dataclass(frozen=True)
class Move:
    existing: tuple[Existing, ...]
    clocks: dict[str, int]
    entries: tuple[LogEntry, ...]
    settle: tuple[tuple[int, bool, int], ...]
    """(index of an existing deadline, acted, bank used)"""
    reset: tuple[str, ...]
    openings: tuple[DeadlineOpening, ...]
    stale: bool


def opening(seat: str, key: str, bank: int, reminders: int) -> DeadlineOpening:
    return DeadlineOpening(
        seat=seat,
        kind=key.split(":")[1],
        decision_key=key,
        user_id=None if seat == "X1" else 99,
        created_at=T0 + H,
        duration_seconds=24 * 3600,
        bank_seconds=bank // 2,
        due_at=T0 + 25 * H,
        expires_at=T0 + 26 * H,
        reminder_ats=tuple(T0 + (12 + 4 * i) * H for i in range(reminders)),
        seat_bank_seconds=bank,
    )


@st.composite
def moves(draw: st.DrawFn) -> Move:
    decisions = draw(
        st.lists(st.tuples(st.sampled_from(SEATS), st.sampled_from(KEYS)), max_size=5, unique=True)
    )
    existing = tuple(Existing(seat, key, draw(st.booleans())) for seat, key in decisions)
    clocks = draw(st.dictionaries(st.sampled_from(SEATS), st.integers(0, 900)))
    entries = tuple(
        LogEntry(
            draw(st.sampled_from(SEATS)), f"move {i}", {"i": i} if draw(st.booleans()) else None
        )
        for i in range(draw(st.integers(1, 3)))
    )
    chosen = draw(st.lists(st.integers(0, len(existing) - 1), unique=True)) if existing else []
    settle = tuple((i, draw(st.booleans()), draw(st.integers(0, 300))) for i in chosen)
    reset = tuple(draw(st.lists(st.sampled_from(SEATS), unique=True)))
    openings = tuple(
        opening(seat, key, draw(st.integers(0, 900)), draw(st.integers(0, 2)))
        for seat, key in draw(
            st.lists(st.tuples(st.sampled_from(SEATS), st.sampled_from(KEYS)), max_size=4)
        )
    )
    return Move(existing, clocks, entries, settle, reset, openings, draw(st.integers(0, 9)) == 0)


class Stores:
    """A SQLite store and a PostgreSQL store on one event loop, with one clock."""

    def __init__(self, sqlite: str, postgres: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.clock = FakeClock(T0)
        self.sqlite: Storage = self.run(SQLiteStorage.open(sqlite, clock=self.clock))
        self.postgres: Storage = self.run(open_storage(postgres, clock=self.clock))

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    def close(self) -> None:
        self.run(self.sqlite.close())
        self.run(self.postgres.close())
        self.loop.close()


@pytest.fixture(scope="module")
def stores(
    postgres_server: PostgresServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stores]:
    folder: Path = tmp_path_factory.mktemp("move-backends")
    both = Stores(str(folder / "tally-ho.sqlite3"), postgres_server.new_database())
    try:
        yield both
    finally:
        both.close()


async def play(store: Storage, move: Move) -> tuple[Any, ...]:
    """The move on a fresh game of ``store``; what it returned and left, with each
    deadline named by its seat and decision instead of its id."""
    game = (
        await store.create_game(
            guild_id=1, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=7
        )
    ).id
    for seat, bank in move.clocks.items():
        await store.init_seat_clock(game, seat, time_bank_seconds=bank)
    ids = []
    for e in move.existing:
        d, _ = await store.open_deadline(
            game_id=game,
            seat=e.seat,
            kind="play",
            decision_key=e.key,
            user_id=99,
            created_at=T0,
            duration_seconds=3600,
            bank_seconds=120,
            due_at=T0 + H,
            expires_at=T0 + 2 * H,
            reminder_ats=[T0 + H / 2],
        )
        ids.append(d.id)
    claims = [(ids[i], 0) for i, e in enumerate(move.existing) if e.claimed]
    await store.claim_deadlines(claims, T0 + 2 * H, T0 + 3 * H)
    name = {d: (e.seat, e.key) for d, e in zip(ids, move.existing, strict=True)}
    changes = DeadlineChanges(
        settle=tuple(DeadlineSettlement(ids[i], acted, used) for i, acted, used in move.settle),
        open=move.openings,
        reset_missed=move.reset,
        at=T0 + 3 * H,
    )

    async def click() -> MoveCommitted:
        """The move as a click commits it: planned on what it read ahead of the game."""
        remember_settings()
        await store.get_game_settings(game)
        return await store.commit_move(
            game, 5 if move.stale else 0, move.entries, deadlines=changes, replan=True
        )

    async def next_click() -> tuple[list[DeadlineRecord], list[SeatClockRecord]]:
        """What the game's next click plans on (PostgreSQL: what the move read back)."""
        remember_settings()
        await store.get_game_settings(game)
        live = await store.live_deadlines(game)
        return live, [await store.get_seat_clock(game, seat) for seat in SEATS]

    try:
        done: MoveCommitted | None = await asyncio.create_task(click())
    except StaleGameVersion:
        done = None
    planned_on = await asyncio.create_task(next_click())
    fresh = (  # read from the database, outside any click
        await store.live_deadlines(game),
        [await store.get_seat_clock(game, seat) for seat in SEATS],
    )
    assert planned_on == fresh

    def named(d: DeadlineRecord) -> tuple[Any, ...]:
        fields = d.model_dump(exclude={"id", "game_id"})
        return ((d.seat, d.decision_key), d.id in name, sorted(fields.items()))

    returned = None
    if done is not None:
        game_row = done.game.model_dump(exclude={"id", "created_at"})
        closed = [name[i] for i in done.closed]
        returned = (sorted(game_row.items()), closed, [named(d) for d in done.opened])
    deadlines = sorted(named(d) for d in await store.live_deadlines(game))
    every = [await store.get_deadline(i) for i in ids]
    clocks = [c.model_dump(exclude={"game_id"}) for c in await store.list_seat_clocks(game)]
    actions = [(a.seq, a.seat, a.action) for a in await store.load_actions(game)]
    snapshot = await store.latest_snapshot(game)
    kept = None if snapshot is None else (snapshot.seq, snapshot.state)
    return (
        returned,
        deadlines,
        [None if d is None else named(d) for d in every],
        [sorted(c.items()) for c in clocks],
        actions,
        kept,
    )


@settings(
    max_examples=SOAK or 40,
    derandomize=not SOAK,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(move=moves())
def test_a_move_writes_the_same_rows_on_both_backends(stores: Stores, move: Move) -> None:
    on_sqlite = stores.run(play(stores.sqlite, move))
    on_postgres = stores.run(play(stores.postgres, move))
    assert on_postgres == on_sqlite
