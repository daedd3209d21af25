"""Tests of the play-by-post tables of the store (migration 0002): deadlines, seat
clocks, user and game settings, follows; on both backends (see conftest.py), but for
the one test marked SQLite only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.clock import FakeClock
from bot.storage import GameNotFound, GameStatus, SQLiteStorage, StaleGameVersion, Storage
from bot.storage.base import DeadlineClosed
from bot.storage.models import (
    DeadlineChanges,
    DeadlineOpening,
    DeadlineRecord,
    DeadlineSettlement,
    LogEntry,
)
from tests.storage.backends import Database

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
async def store(database: Database, clock: FakeClock) -> AsyncIterator[Storage]:
    s = await database.open(clock=clock)
    try:
        yield s
    finally:
        await s.close()


async def new_game(store: Storage) -> int:
    game = await store.create_game(
        guild_id=1, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=7
    )
    return game.id


async def open_one(
    store: Storage, game_id: int, seat: str = "A1", key: str = "1:play", **overrides: Any
) -> DeadlineRecord:
    fields: dict[str, Any] = {
        "game_id": game_id,
        "seat": seat,
        "kind": "play",
        "decision_key": key,
        "user_id": 99,
        "created_at": T0,
        "duration_seconds": 24 * 3600,
        "bank_seconds": 0,
        "due_at": T0 + 24 * H,
        "expires_at": T0 + 24 * H,
        "reminder_ats": [T0 + 12 * H, T0 + 21 * H],
    }
    fields.update(overrides)
    d, created = await store.open_deadline(**fields)
    assert created
    return d


async def test_the_migration_adds_the_play_by_post_tables(tmp_path: Path) -> None:
    """SQLite only (its catalogue); test_postgres.py compares the two schemas."""
    path = tmp_path / "t.sqlite3"
    async with await SQLiteStorage.open(path):
        pass
    async with aiosqlite.connect(path) as conn:
        rows = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    assert {"deadlines", "seat_clocks", "user_settings", "game_settings", "follows"} <= {
        r[0] for r in rows
    }


# -- settings and follows --------------------------------------------------------------


async def test_user_and_game_settings_round_trip(store: Storage) -> None:
    assert await store.get_user_settings(5) is None
    prefs = {"dm": False, "tz": "Europe/Paris", "quiet_hours": {"start": "22:00", "end": "07:00"}}
    saved = await store.put_user_settings(5, prefs)
    assert saved.settings == prefs and saved.updated_at == T0
    assert await store.get_user_settings(5) == saved
    game = await new_game(store)
    assert await store.get_game_settings(game) is None
    g = await store.put_game_settings(game, {"deadlines": {"turn_hours": 48}, "mode": "fog"})
    assert await store.get_game_settings(game) == g
    with pytest.raises(GameNotFound):
        await store.put_game_settings(game + 1, {})


async def test_follows(store: Storage) -> None:
    game = await new_game(store)
    assert await store.follow(game, 10)
    assert not await store.follow(game, 10)
    assert await store.follow(game, 11)
    assert await store.followers(game) == [10, 11]
    assert await store.followed_games(10) == [game]
    assert await store.unfollow(game, 10)
    assert not await store.unfollow(game, 10)
    assert await store.followers(game) == [11]
    with pytest.raises(GameNotFound):
        await store.follow(game + 1, 10)


# -- seat clocks -----------------------------------------------------------------------


async def test_seat_clocks_default_init_once_and_vacations(store: Storage) -> None:
    game = await new_game(store)
    blank = await store.get_seat_clock(game, "A1")
    assert (blank.missed_in_a_row, blank.time_bank_seconds, blank.updated_at) == (0, 0, None)
    c = await store.init_seat_clock(game, "A1", time_bank_seconds=3600)
    assert c.time_bank_seconds == 3600
    again = await store.init_seat_clock(game, "A1", time_bank_seconds=99)
    assert again.time_bank_seconds == 3600  # an existing bank is never refilled
    v = await store.set_vacation(game, "A1", T0, T0 + 72 * H)
    assert (v.vacation_from, v.vacation_until, v.time_bank_seconds) == (T0, T0 + 72 * H, 3600)
    ended = await store.set_vacation(game, "A1", None, None)
    assert ended.vacation_until is None
    with pytest.raises(ValueError):
        await store.set_vacation(game, "A1", T0, None)
    with pytest.raises(ValueError):
        await store.set_vacation(game, "A1", T0, T0)
    await store.set_vacation(game, "X1", T0, T0 + H)  # creates the row
    assert [c.seat for c in await store.list_seat_clocks(game)] == ["A1", "X1"]


# -- deadlines -------------------------------------------------------------------------


async def test_opening_a_deadline_is_idempotent_per_decision(store: Storage) -> None:
    game = await new_game(store)
    d = await open_one(store, game)
    assert d.next_at == T0 + 12 * H and d.reminders_sent == 0 and d.is_live
    assert d.reminder_ats == (T0 + 12 * H, T0 + 21 * H)
    same, created = await store.open_deadline(
        game_id=game,
        seat="A1",
        kind="play",
        decision_key="1:play",
        user_id=99,
        created_at=T0 + H,
        duration_seconds=60,
        bank_seconds=0,
        due_at=T0 + 2 * H,
        expires_at=T0 + 2 * H,
        reminder_ats=[],
    )
    assert not created and same == d
    no_reminders = await open_one(store, game, "X1", reminder_ats=[])
    assert no_reminders.next_at == no_reminders.expires_at
    with pytest.raises(GameNotFound):
        await open_one(store, game + 1)
    with pytest.raises(ValueError):
        await open_one(store, game, "A2", reminder_ats=[T0 + 2 * H, T0 + H])
    with pytest.raises(ValueError):
        await open_one(store, game, "A2", expires_at=T0)


async def test_live_and_due_deadlines(store: Storage) -> None:
    game = await new_game(store)
    a = await open_one(store, game, "A1")
    b = await open_one(store, game, "X1", reminder_ats=[T0 + H])
    assert [d.id for d in await store.live_deadlines()] == [b.id, a.id]
    assert [d.id for d in await store.live_deadlines(game)] == [b.id, a.id]
    assert await store.live_deadlines(game + 1) == []
    assert await store.due_deadlines(T0) == []
    assert [d.id for d in await store.due_deadlines(T0 + H)] == [b.id]
    assert [d.id for d in await store.due_deadlines(T0 + 13 * H, limit=1)] == [b.id]
    assert [d.id for d in await store.live_deadlines_page(0, 1)] == [a.id]
    assert [d.id for d in await store.live_deadlines_page(a.id, 10)] == [b.id]
    assert await store.live_deadlines_page(b.id, 10) == []
    assert await store.get_deadline(a.id) == a
    assert await store.get_deadline(a.id + 100) is None


async def test_get_deadlines_reads_several_in_any_state_by_id(store: Storage) -> None:
    game = await new_game(store)
    a = await open_one(store, game, "A1")
    b = await open_one(store, game, "B1")
    c = await open_one(store, game, "C1")
    await store.claim_deadlines([(b.id, 0)], T0 + 24 * H, T0 + 25 * H)
    await store.settle_deadline(c.id, T0 + H, acted=True)
    found = await store.get_deadlines([c.id, a.id, b.id, c.id + 100, a.id])
    assert [d.id for d in found] == [a.id, b.id, c.id]
    assert [(d.is_live, d.is_claimed) for d in found] == [
        (True, False),
        (True, True),
        (False, False),
    ]
    assert await store.get_deadlines([]) == []


async def test_reminders_are_marked_with_compare_and_set(store: Storage) -> None:
    game = await new_game(store)
    d = await open_one(store, game)
    now = T0 + 12 * H
    [first] = await store.mark_reminders_sent([(d.id, 0, 1)], now)
    assert first.reminders_sent == 1 and first.next_at == T0 + 21 * H
    assert await store.mark_reminders_sent([(d.id, 0, 1)], now) == []  # a second sender loses
    [second] = await store.mark_reminders_sent([(d.id, 1, 2)], now)
    assert second.next_at == second.expires_at
    assert await store.mark_reminders_sent([(d.id, 2, 3)], now) == []  # never more than planned
    with pytest.raises(ValueError):
        await store.mark_reminders_sent([(d.id, 2, 2)], now)


async def test_missed_reminders_collapse_into_one_mark(store: Storage) -> None:
    game = await new_game(store)
    d = await open_one(store, game)
    [marked] = await store.mark_reminders_sent([(d.id, 0, 2)], T0 + 22 * H)
    assert marked.reminders_sent == 2 and marked.next_at == d.expires_at


async def test_claims_fire_once_and_count_the_miss_once(store: Storage) -> None:
    game = await new_game(store)
    await store.init_seat_clock(game, "A1", time_bank_seconds=7200)
    d = await open_one(store, game, bank_seconds=3600, expires_at=T0 + 25 * H)
    now, retry = T0 + 25 * H, T0 + 25 * H + timedelta(minutes=1)
    [(claimed, clock)] = await store.claim_deadlines([(d.id, 0)], now, retry)
    assert claimed.fired_at == now and claimed.attempts == 1 and claimed.next_at == retry
    assert claimed.is_claimed and claimed.is_live
    assert (clock.missed_in_a_row, clock.missed_total, clock.time_bank_seconds) == (1, 1, 3600)
    assert await store.claim_deadlines([(d.id, 0)], now, retry) == []  # someone else won
    # A retry (after a crash or a failed callback) counts an attempt, not another miss.
    [(retried, clock2)] = await store.claim_deadlines([(d.id, 1)], retry, retry + H)
    assert retried.attempts == 2 and retried.fired_at == now
    assert (clock2.missed_in_a_row, clock2.time_bank_seconds) == (1, 3600)
    assert await store.complete_deadlines([d.id], retry) == 1
    assert await store.complete_deadlines([d.id], retry) == 0
    done = await store.get_deadline(d.id)
    assert done is not None and done.done_at == retry and not done.is_live
    assert await store.live_deadlines() == []
    assert await store.claim_deadlines([(d.id, 2)], retry, retry) == []


async def test_a_claim_creates_missing_counters(store: Storage) -> None:
    game = await new_game(store)
    d = await open_one(store, game)
    [(_, clock)] = await store.claim_deadlines([(d.id, 0)], T0 + 24 * H, T0 + 25 * H)
    assert clock.missed_in_a_row == 1 and clock.updated_at is not None


async def test_settling_cancels_and_resets_the_missed_count(store: Storage) -> None:
    game = await new_game(store)
    await store.init_seat_clock(game, "A1", time_bank_seconds=3600)
    old = await open_one(store, game, key="1:play")
    await store.claim_deadlines([(old.id, 0)], T0 + 24 * H, T0 + 25 * H)
    await store.complete_deadlines([old.id], T0 + 24 * H)
    assert (await store.get_seat_clock(game, "A1")).missed_in_a_row == 1
    d = await open_one(store, game, key="5:play")
    settled = await store.settle_deadline(d.id, T0 + 30 * H, acted=True, bank_used_seconds=600)
    assert settled is not None and settled.cancelled_at == T0 + 30 * H and not settled.is_live
    clock = await store.get_seat_clock(game, "A1")
    assert (clock.missed_in_a_row, clock.missed_total, clock.time_bank_seconds) == (0, 1, 3000)
    assert await store.settle_deadline(d.id, T0 + 31 * H, acted=False) is None
    # A decision that vanished (someone else's move) does not touch the counters.
    other = await open_one(store, game, "X1", key="6:respond")
    await store.claim_deadlines([(other.id, 0)], T0 + 40 * H, T0 + 41 * H)
    assert await store.settle_deadline(other.id, T0 + 40 * H, acted=False) is None  # claimed
    assert (await store.get_deadline(other.id)).is_claimed  # type: ignore[union-attr]
    assert await store.reset_missed(game, "X1")
    assert not await store.reset_missed(game, "X1")


async def test_cancel_a_games_deadlines(store: Storage) -> None:
    game = await new_game(store)
    other = await new_game(store)
    a = await open_one(store, game, "A1")
    x = await open_one(store, game, "X1")
    keep = await open_one(store, other, "A1")
    assert await store.cancel_game_deadlines(game, T0 + H) == [a.id, x.id]
    assert await store.cancel_game_deadlines(game, T0 + H) == []
    assert [d.id for d in await store.live_deadlines()] == [keep.id]


async def test_rescheduling_keeps_the_reminders_sent(store: Storage) -> None:
    game = await new_game(store)
    d = await open_one(store, game)
    await store.mark_reminders_sent([(d.id, 0, 1)], T0 + 12 * H)
    moved = await store.reschedule_deadline(
        d.id,
        due_at=T0 + 96 * H,
        expires_at=T0 + 96 * H,
        reminder_ats=[T0 + 60 * H, T0 + 90 * H],
    )
    assert moved is not None and moved.reminders_sent == 1 and moved.next_at == T0 + 90 * H
    fewer = await store.reschedule_deadline(
        d.id, due_at=T0 + 50 * H, expires_at=T0 + 50 * H, reminder_ats=[]
    )
    assert fewer is not None and fewer.reminders_sent == 0 and fewer.next_at == T0 + 50 * H
    await store.claim_deadlines([(d.id, 0)], T0 + 50 * H, T0 + 51 * H)
    assert (
        await store.reschedule_deadline(
            d.id, due_at=T0 + 99 * H, expires_at=T0 + 99 * H, reminder_ats=[]
        )
        is None
    )


async def test_a_default_action_is_appended_once_with_the_deadline_closed(
    store: Storage,
) -> None:
    game = await new_game(store)
    d = await open_one(store, game)
    with pytest.raises(DeadlineClosed, match="not claimed"):
        await store.append_deadline_action(d.id, 0, "pass")
    await store.claim_deadlines([(d.id, 0)], T0 + 24 * H, T0 + 25 * H)
    with pytest.raises(StaleGameVersion):
        await store.append_deadline_action(d.id, 5, "pass")
    assert (await store.get_deadline(d.id)).is_claimed  # type: ignore[union-attr]
    version = await store.append_deadline_action(d.id, 0, "pass", snapshot={"s": 1})
    assert version == 1
    [action] = await store.load_actions(game)
    assert (action.seq, action.seat, action.action) == (1, "A1", "pass")
    snap = await store.latest_snapshot(game)
    assert snap is not None and snap.seq == 1
    done = await store.get_deadline(d.id)
    assert done is not None and done.done_at is not None and not done.is_live
    with pytest.raises(DeadlineClosed, match="already done"):
        await store.append_deadline_action(d.id, 1, "pass")
    assert len(await store.load_actions(game)) == 1
    with pytest.raises(DeadlineClosed, match="does not exist"):
        await store.append_deadline_action(d.id + 50, 1, "pass")
    x = await open_one(store, game, "X1")
    await store.claim_deadlines([(x.id, 0)], T0 + 24 * H, T0 + 25 * H)
    await store.cancel_game_deadlines(game, T0 + 24 * H)
    with pytest.raises(DeadlineClosed, match="cancelled"):
        await store.append_deadline_action(x.id, 1, "pass")


async def test_deadlines_survive_a_restart(database: Database, clock: FakeClock) -> None:
    first = await database.open(clock=clock)
    try:
        game = await new_game(first)
        d = await open_one(first, game)
        await first.mark_reminders_sent([(d.id, 0, 1)], T0 + 12 * H)
        await first.init_seat_clock(game, "A1", time_bank_seconds=60)
    finally:
        await first.close()
    second = await database.open(clock=clock)
    try:
        [again] = await second.live_deadlines()
        assert again.id == d.id and again.reminders_sent == 1 and again.next_at == T0 + 21 * H
        assert (await second.get_seat_clock(game, "A1")).time_bank_seconds == 60
    finally:
        await second.close()


async def test_two_processes_claim_a_deadline_once(database: Database, clock: FakeClock) -> None:
    one = await database.open(clock=clock)
    two = await database.open(clock=clock)
    try:
        game = await new_game(one)
        d = await open_one(one, game)
        now = T0 + 24 * H
        results = await asyncio.gather(
            one.claim_deadlines([(d.id, 0)], now, now + H),
            two.claim_deadlines([(d.id, 0)], now, now + H),
        )
        assert sorted(len(r) for r in results) == [0, 1]
        reminders = await asyncio.gather(
            one.mark_reminders_sent([(d.id, 0, 1)], now),
            two.mark_reminders_sent([(d.id, 0, 1)], now),
        )
        assert reminders == [[], []]  # claimed: no reminder any more
        assert (await one.get_seat_clock(game, "A1")).missed_in_a_row == 1
    finally:
        await one.close()
        await two.close()


# -- one move, one transaction ---------------------------------------------------------


def opening(seat: str, key: str, bank: int | None = 600) -> DeadlineOpening:
    return DeadlineOpening(
        seat=seat,
        kind="play",
        decision_key=key,
        user_id=99,
        created_at=T0,
        duration_seconds=24 * 3600,
        bank_seconds=bank or 0,
        due_at=T0 + 24 * H,
        expires_at=T0 + 25 * H,
        reminder_ats=(T0 + 12 * H,),
        seat_bank_seconds=bank,
    )


async def test_a_move_commits_its_actions_and_deadlines_together(store: Storage) -> None:
    """``commit_move``: the actions (a snapshot kept), the old deadline settled with the
    bank it used, the actor's missed count reset, the new deadline opened with its seat
    clock created, all in one transaction."""
    game = await new_game(store)
    old = await open_one(store, game, "A1", "0:play")
    await store.init_seat_clock(game, "A1", time_bank_seconds=300)
    await store.claim_deadlines([(old.id, 0)], T0 + 24 * H, T0 + 25 * H)  # missed once
    other = await open_one(store, game, "A1", "1:play")
    changes = DeadlineChanges(
        settle=(DeadlineSettlement(other.id, acted=True, bank_used_seconds=100),),
        open=(opening("X1", "3:play"),),
        reset_missed=("A1",),
        at=T0 + 2 * H,
    )
    entries = [LogEntry("A1", "fly"), LogEntry("A1", "draw", {"s": 2})]
    done = await store.commit_move(game, 0, entries, deadlines=changes)
    assert (done.game.version, done.game.last_seq) == (2, 2)
    assert [(a.seq, a.action) for a in await store.load_actions(game)] == [(1, "fly"), (2, "draw")]
    snap = await store.latest_snapshot(game)
    assert snap is not None and snap.seq == 2
    assert done.closed == (other.id,)
    [new] = done.opened
    assert (new.seat, new.decision_key, new.bank_seconds) == ("X1", "3:play", 600)
    a1 = await store.get_seat_clock(game, "A1")
    assert (a1.missed_in_a_row, a1.time_bank_seconds) == (0, 200)
    assert (await store.get_seat_clock(game, "X1")).time_bank_seconds == 600
    settled = await store.get_deadline(other.id)
    assert settled is not None and settled.cancelled_at == T0 + 2 * H


async def test_a_move_creates_a_seat_clock_at_its_first_decision_only(store: Storage) -> None:
    """An opening with no ``seat_bank_seconds`` says the seat's clock exists (the
    planner read it): the move writes none, the deadline opens all the same; with one,
    the clock is created if absent (migration 0014 on PostgreSQL)."""
    game = await new_game(store)
    await store.init_seat_clock(game, "A1", time_bank_seconds=300)
    changes = DeadlineChanges(
        open=(opening("A1", "1:play", bank=None), opening("X1", "1:play", bank=None)),
        at=T0 + H,
    )
    done = await store.commit_move(game, 0, [LogEntry("A1", "fly")], deadlines=changes)
    assert [(d.seat, d.decision_key) for d in done.opened] == [("A1", "1:play"), ("X1", "1:play")]
    assert (await store.get_seat_clock(game, "A1")).time_bank_seconds == 300
    assert (await store.get_seat_clock(game, "X1")).updated_at is None, "no clock written"
    first = DeadlineChanges(open=(opening("X1", "2:play", bank=450),), at=T0 + 2 * H)
    await store.commit_move(game, done.game.version, [LogEntry("X1", "fly")], deadlines=first)
    assert (await store.get_seat_clock(game, "X1")).time_bank_seconds == 450


async def test_a_move_changing_one_seat_twice_and_finding_a_deadline_stored(
    store: Storage,
) -> None:
    """``commit_move`` with the changes that touch the same rows (a statement doing
    several parts of a move would see them as they were before it): two
    deadlines of a seat settled by its action charge its bank twice; a settlement
    the seat did not act on leaves its clock alone; another seat's missed count is
    reset; two openings of one seat create its clock once, with the first's bank; an
    opening whose decision has a deadline already gets the stored one; the actions
    take their numbers in order."""
    game = await new_game(store)
    await store.init_seat_clock(game, "A1", time_bank_seconds=300)
    await store.init_seat_clock(game, "X1", time_bank_seconds=500)
    missed = await open_one(store, game, "A1", "0:play")
    b1 = await open_one(store, game, "B1", "0:play")
    await store.claim_deadlines([(missed.id, 0), (b1.id, 0)], T0 + 24 * H, T0 + 25 * H)
    first = await open_one(store, game, "A1", "1:play")
    second = await open_one(store, game, "A1", "1:respond")
    lapsed = await open_one(store, game, "X1", "1:play")
    stored = await open_one(store, game, "Y1", "2:play")
    x1_before = await store.get_seat_clock(game, "X1")
    changes = DeadlineChanges(
        settle=(
            DeadlineSettlement(first.id, acted=True, bank_used_seconds=50),
            DeadlineSettlement(lapsed.id, acted=False),
            DeadlineSettlement(second.id, acted=True, bank_used_seconds=70),
        ),
        open=(
            opening("C1", "2:play", bank=600),
            opening("Y1", "2:play"),
            opening("C1", "2:x", 900),
        ),
        reset_missed=("B1",),
        at=T0 + 2 * H,
    )
    entries = [LogEntry("A1", "fly"), LogEntry("A1", "draw", {"s": 2}), LogEntry("X1", "pass")]
    done = await store.commit_move(game, 0, entries, deadlines=changes)
    assert (done.game.version, done.game.last_seq) == (3, 3)
    logged = await store.load_actions(game)
    assert [(a.seq, a.seat, a.action) for a in logged] == [
        (1, "A1", "fly"),
        (2, "A1", "draw"),
        (3, "X1", "pass"),
    ]
    snap = await store.latest_snapshot(game)
    assert snap is not None and (snap.seq, snap.state) == (2, {"s": 2})
    assert done.closed == (first.id, lapsed.id, second.id)
    a1 = await store.get_seat_clock(game, "A1")
    assert (a1.missed_in_a_row, a1.time_bank_seconds) == (0, 300 - 50 - 70)
    assert await store.get_seat_clock(game, "X1") == x1_before
    assert (await store.get_seat_clock(game, "B1")).missed_in_a_row == 0
    assert [(d.seat, d.decision_key) for d in done.opened] == [
        ("C1", "2:play"),
        ("Y1", "2:play"),
        ("C1", "2:x"),
    ]
    assert done.opened[1] == stored  # as it was stored
    assert (await store.get_seat_clock(game, "C1")).time_bank_seconds == 600
    live = {(d.seat, d.decision_key) for d in await store.live_deadlines(game)}
    assert live == {
        ("A1", "0:play"),
        ("B1", "0:play"),
        ("C1", "2:play"),
        ("C1", "2:x"),
        ("Y1", "2:play"),
    }


async def test_an_opening_of_a_decision_the_move_settles_gets_it_settled(store: Storage) -> None:
    """The deadline a move returns for an opening whose decision has one already is the
    stored one as the move left it: cancelled, if the move settled it (found by
    tests/storage/test_move_backends.py in a one-statement PostgreSQL move, since
    withdrawn, which read the row as it was before the statement)."""
    game = await new_game(store)
    d = await open_one(store, game, "A1", "1:play")
    changes = DeadlineChanges(
        settle=(DeadlineSettlement(d.id, acted=False),), open=(opening("A1", "1:play"),), at=T0 + H
    )
    done = await store.commit_move(game, 0, [LogEntry("A1", "fly")], deadlines=changes)
    assert done.closed == (d.id,)
    [again] = done.opened
    assert again.id == d.id and again.cancelled_at == T0 + H
    assert again == await store.get_deadline(d.id)


async def test_a_refused_move_writes_nothing(store: Storage) -> None:
    """A stale version, a deadline not claimed, a malformed deadline: nothing of the
    move is written, not its actions, not its deadlines."""
    game = await new_game(store)
    d = await open_one(store, game)
    await store.init_seat_clock(game, "A1", time_bank_seconds=300)
    clock = await store.get_seat_clock(game, "A1")
    move = [LogEntry("A1", "fly", {"s": 1})]
    changes = DeadlineChanges(
        settle=(DeadlineSettlement(d.id, acted=True, bank_used_seconds=100),),
        open=(opening("X1", "1:play"),),
        reset_missed=("A1",),
        at=T0,
    )
    with pytest.raises(StaleGameVersion):
        await store.commit_move(game, 3, move, deadlines=changes)
    with pytest.raises(GameNotFound):
        await store.commit_move(game + 1, 0, move, deadlines=changes)
    assert await store.get_seat_clock(game, "A1") == clock
    assert (await store.get_seat_clock(game, "X1")).updated_at is None  # no clock made
    assert await store.latest_snapshot(game) is None
    with pytest.raises(DeadlineClosed, match="not claimed"):
        await store.commit_move(game, 0, move, deadline_id=d.id, deadlines=changes)
    bad = replace(opening("X1", "1:play"), expires_at=T0)
    with pytest.raises(ValueError, match="expire"):
        await store.commit_move(game, 0, move, deadlines=DeadlineChanges(open=(bad,)))
    with pytest.raises(ValueError, match="at least one"):
        await store.commit_move(game, 0, [])
    assert await store.load_actions(game) == []
    assert [x.id for x in await store.live_deadlines(game)] == [d.id]


async def test_a_default_move_that_ends_the_game(store: Storage) -> None:
    """A deadline's default action closes its deadline; the game's end cancels every
    live deadline and records the result, with the action."""
    game = await new_game(store)
    d = await open_one(store, game)
    x = await open_one(store, game, "X1")
    await store.claim_deadlines([(d.id, 0)], T0 + 24 * H, T0 + 25 * H)
    done = await store.commit_move(
        game,
        0,
        [LogEntry("A1", "pass")],
        deadline_id=d.id,
        deadlines=DeadlineChanges(cancel_all=True, at=T0 + 24 * H),
        result={"winner": "X"},
    )
    assert done.game.status is GameStatus.FINISHED and done.game.result == {"winner": "X"}
    assert done.closed == (x.id,)
    assert await store.live_deadlines(game) == []
    again = await store.get_deadline(d.id)
    assert again is not None and again.done_at is not None
    with pytest.raises(DeadlineClosed, match="already done"):
        await store.commit_move(game, done.game.version, [LogEntry("A1", "pass")], deadline_id=d.id)


async def test_a_default_move_on_the_wrong_game_or_a_stale_one_writes_nothing(
    store: Storage,
) -> None:
    """A default's move naming another game's deadline, or a cancelled one, is refused
    with the reason; on a stale version its claimed deadline stays claimed, not done,
    so the default is applied once, later."""
    game = await new_game(store)
    other = await new_game(store)
    d = await open_one(store, game)
    gone = await open_one(store, game, "X1")
    await store.claim_deadlines([(d.id, 0)], T0 + 24 * H, T0 + 25 * H)
    await store.settle_deadline(gone.id, T0, acted=False)
    move = [LogEntry("A1", "pass")]
    with pytest.raises(DeadlineClosed, match=f"is not a deadline of game {other}"):
        await store.commit_move(other, 0, move, deadline_id=d.id)
    with pytest.raises(DeadlineClosed, match="cancelled"):
        await store.commit_move(game, 0, move, deadline_id=gone.id)
    with pytest.raises(StaleGameVersion):
        await store.commit_move(game, 5, move, deadline_id=d.id)
    claimed = await store.get_deadline(d.id)
    assert claimed is not None and claimed.is_claimed
    assert await store.load_actions(game) == [] and await store.load_actions(other) == []
    done = await store.commit_move(game, 0, move, deadline_id=d.id)
    assert done.game.version == 1
    after = await store.get_deadline(d.id)
    assert after is not None and after.done_at is not None


async def test_a_move_settles_only_its_own_games_deadlines(store: Storage) -> None:
    """A settlement naming another game's deadline leaves it live and its seat's clock
    as it was (the statement finds a deadline by its id and the game's: on PostgreSQL
    the game's id keeps the planner on the game's few live rows, migration 0012)."""
    game = await new_game(store)
    other = await new_game(store)
    mine = await open_one(store, game, "A1", "0:play")
    theirs = await open_one(store, other, "A1", "0:play")
    await store.init_seat_clock(other, "A1", time_bank_seconds=300)
    changes = DeadlineChanges(
        settle=(
            DeadlineSettlement(theirs.id, acted=True, bank_used_seconds=100),
            DeadlineSettlement(mine.id, acted=False),
        ),
        at=T0 + H,
    )
    done = await store.commit_move(game, 0, [LogEntry("A1", "fly")], deadlines=changes)
    assert done.closed == (mine.id,)
    assert [d.id for d in await store.live_deadlines(other)] == [theirs.id]
    clock = await store.get_seat_clock(other, "A1")
    assert clock.time_bank_seconds == 300
