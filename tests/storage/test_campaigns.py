"""Tests of campaign storage: campaigns, their append-only log, members, followers,
their mission games, and the migration that adds them to an existing database; on
both backends (see conftest.py), but for the tests marked SQLite only."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import (
    CampaignEntryKind,
    CampaignNotFound,
    CampaignStatus,
    ConstraintViolation,
    GameStatus,
    SQLiteStorage,
    StaleCampaignVersion,
    Storage,
)
from bot.storage.migrate import schema_version
from tests.storage.backends import Database

GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
CHANNEL = 333_333_333_333_333_333
HOST = 444_444_444_444_444_444
PLAYER = 555_555_555_555_555_555
THREAD = 666_666_666_666_666_666
START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
FIXTURES = Path(__file__).parent / "fixtures"
SCHEMA_VERSION = 6


class TickClock:
    """A deterministic clock: START, then one second later at every call."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> datetime:
        now = START + timedelta(seconds=self.calls)
        self.calls += 1
        return now


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Storage]:
    s = await database.open(clock=TickClock())
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store() -> AsyncIterator[SQLiteStorage]:
    """SQLite only: a store whose connection the test inspects."""
    s = await SQLiteStorage.open(":memory:", clock=TickClock())
    try:
        yield s
    finally:
        await s.close()


async def new_campaign(store: Storage, **overrides: Any) -> int:
    fields: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "host_id": HOST,
        "system": "lockedon",
        "campaign": "yom-kippur-1973",
        "setup": {"scale": "short"},
        "seed": -7,
    }
    fields.update(overrides)
    campaign = await store.create_campaign(**fields)
    return campaign.id


async def new_mission(store: Storage, campaign_id: int | None, mission: int | None) -> int:
    game = await store.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        system="lockedon",
        ruleset="standard",
        seed=mission or 0,
        campaign_id=campaign_id,
        mission=mission,
    )
    return game.id


# -- campaigns ------------------------------------------------------------------------


async def test_create_and_get_a_campaign(store: Storage) -> None:
    created = await store.create_campaign(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        system="lockedon",
        campaign="yom-kippur-1973",
        setup={"scale": "short", "sides": ["israel", "arab"]},
        seed=2**63 - 1,
    )
    assert created.id >= 1
    assert created.status is CampaignStatus.RECRUITING and created.is_open
    assert (created.version, created.last_seq) == (0, 0)
    assert created.thread_id is None and created.result is None and created.finished_at is None
    assert created.setup == {"scale": "short", "sides": ["israel", "arab"]}
    assert created.created_at == created.updated_at == START
    assert await store.get_campaign(created.id) == created
    assert await store.get_campaign(created.id + 1) is None


async def test_a_campaign_created_finished_has_finished_at(store: Storage) -> None:
    campaign_id = await new_campaign(store, status=CampaignStatus.ABANDONED)
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and not campaign.is_open
    assert campaign.finished_at == campaign.created_at


async def test_list_campaigns_newest_first_by_guild_and_status(store: Storage) -> None:
    first = await new_campaign(store)
    second = await new_campaign(store, status=CampaignStatus.ACTIVE)
    other = await new_campaign(store, guild_id=OTHER_GUILD)
    assert [c.id for c in await store.list_campaigns()] == [other, second, first]
    assert [c.id for c in await store.list_campaigns(GUILD)] == [second, first]
    active = await store.list_campaigns(GUILD, [CampaignStatus.ACTIVE])
    assert [c.id for c in active] == [second]
    assert await store.list_campaigns(statuses=[]) == []
    with pytest.raises(ValueError):
        await store.list_campaigns(statuses=["lobby"])  # type: ignore[list-item]


async def test_update_campaign_changes_fields_and_bumps_the_version(
    store: Storage,
) -> None:
    campaign_id = await new_campaign(store)
    started = await store.update_campaign(
        campaign_id, expected_version=0, status=CampaignStatus.ACTIVE, thread_id=THREAD
    )
    assert started.status is CampaignStatus.ACTIVE and started.thread_id == THREAD
    assert started.version == 1 and started.finished_at is None
    assert started.updated_at > started.created_at
    assert await store.get_campaign_by_thread(THREAD) == started
    assert await store.get_campaign_by_thread(THREAD + 1) is None

    moved = await store.update_campaign(campaign_id, channel_id=CHANNEL + 1)  # unguarded
    assert moved.channel_id == CHANNEL + 1 and moved.version == 2

    done = await store.update_campaign(
        campaign_id,
        expected_version=2,
        status="finished",
        result={"winner": "israel", "vp": 14},
    )
    assert done.status is CampaignStatus.FINISHED and done.version == 3
    assert done.result == {"winner": "israel", "vp": 14}
    assert done.finished_at == done.updated_at
    # finished_at is set once: another terminal write keeps it
    again = await store.update_campaign(campaign_id, status=CampaignStatus.ABANDONED)
    assert again.finished_at == done.finished_at

    when = datetime(2024, 6, 1, 8, 30, tzinfo=UTC)
    fixed = await store.update_campaign(campaign_id, finished_at=when, result=None)
    assert fixed.finished_at == when and fixed.result is None


async def test_update_campaign_refuses_a_stale_version(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    await store.update_campaign(campaign_id, expected_version=0, thread_id=THREAD)
    with pytest.raises(StaleCampaignVersion) as refused:
        await store.update_campaign(
            campaign_id, expected_version=0, status=CampaignStatus.ABANDONED
        )
    assert (refused.value.expected, refused.value.actual, refused.value.of) == (0, 1, "version")
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None
    assert campaign.status is CampaignStatus.RECRUITING and campaign.version == 1


async def test_update_campaign_needs_a_field_and_an_existing_campaign(
    store: Storage,
) -> None:
    campaign_id = await new_campaign(store)
    with pytest.raises(ValueError, match="at least one field"):
        await store.update_campaign(campaign_id)
    with pytest.raises(CampaignNotFound):
        await store.update_campaign(campaign_id + 1, status=CampaignStatus.ACTIVE)
    with pytest.raises(CampaignNotFound):
        await store.update_campaign(campaign_id + 1, expected_version=0, thread_id=THREAD)


async def test_one_thread_holds_one_live_campaign(store: Storage) -> None:
    first = await new_campaign(store)
    second = await new_campaign(store)
    await store.update_campaign(first, thread_id=THREAD)
    with pytest.raises(ConstraintViolation):
        await store.update_campaign(second, thread_id=THREAD)
    campaign = await store.get_campaign(second)
    assert campaign is not None and campaign.thread_id is None and campaign.version == 0
    # A channel that is a campaign's home may be the next one's once it is over.
    await store.update_campaign(first, status=CampaignStatus.FINISHED)
    await store.update_campaign(second, thread_id=THREAD)
    found = await store.get_campaign_by_thread(THREAD)
    assert found is not None and found.id == second, "the live one first"
    await store.update_campaign(second, status=CampaignStatus.ABANDONED)
    found = await store.get_campaign_by_thread(THREAD)
    assert found is not None and found.id == second, "else the latest"


# -- the campaign log -------------------------------------------------------------------


async def test_entries_are_appended_in_order_from_seq_1(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    game_id = await new_mission(store, campaign_id, 1)
    decision = await store.append_campaign_entry(
        campaign_id,
        kind=CampaignEntryKind.DECISION,
        entry="target airfields",
        side="israel",
        user_id=PLAYER,
        expected_seq=0,
    )
    outcome = await store.append_campaign_entry(
        campaign_id,
        kind="outcome",
        entry=json.dumps({"winner": "israel"}),
        game_id=game_id,
        expected_seq=1,
    )
    aborted = await store.append_campaign_entry(
        campaign_id, kind=CampaignEntryKind.ABORTED, entry="host cancelled", game_id=game_id
    )
    assert [e.seq for e in (decision, outcome, aborted)] == [1, 2, 3]
    assert decision.kind is CampaignEntryKind.DECISION and decision.side == "israel"
    assert decision.user_id == PLAYER and decision.game_id is None
    assert outcome.user_id is None and outcome.game_id == game_id

    log = await store.load_campaign_log(campaign_id)
    assert log == [decision, outcome, aborted]
    assert await store.load_campaign_log(campaign_id, after_seq=2) == [aborted]
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and (campaign.last_seq, campaign.version) == (3, 3)


async def test_a_stale_append_writes_nothing(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    await store.append_campaign_entry(campaign_id, kind="decision", entry="a", expected_seq=0)
    with pytest.raises(StaleCampaignVersion, match="log no longer ends at seq 0") as refused:
        await store.append_campaign_entry(campaign_id, kind="decision", entry="b", expected_seq=0)
    assert (refused.value.expected, refused.value.actual, refused.value.of) == (0, 1, "seq")
    assert [e.entry for e in await store.load_campaign_log(campaign_id)] == ["a"]
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and (campaign.last_seq, campaign.version) == (1, 1)


async def test_the_seq_guard_ignores_other_writes_to_the_campaign(
    store: Storage,
) -> None:
    campaign_id = await new_campaign(store)
    await store.put_campaign_member(campaign_id, PLAYER, side="israel", display_name="ann")
    await store.update_campaign(campaign_id, status=CampaignStatus.ACTIVE)
    entry = await store.append_campaign_entry(
        campaign_id, kind="decision", entry="a", expected_seq=0
    )
    assert entry.seq == 1


async def test_concurrent_appends_for_one_step_one_wins(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    outcomes = await asyncio.gather(
        *(
            store.append_campaign_entry(
                campaign_id, kind="decision", entry=f"choice {n}", expected_seq=0
            )
            for n in range(5)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StaleCampaignVersion) for o in outcomes) == 4
    assert len(await store.load_campaign_log(campaign_id)) == 1


async def test_two_processes_cannot_both_append_one_step(database: Database) -> None:
    setup = await database.open()
    try:
        campaign_id = await new_campaign(setup)
    finally:
        await setup.close()
    first = await database.open()
    second = await database.open()
    try:
        outcomes = await asyncio.gather(
            first.append_campaign_entry(campaign_id, kind="decision", entry="a", expected_seq=0),
            second.append_campaign_entry(campaign_id, kind="decision", entry="b", expected_seq=0),
            return_exceptions=True,
        )
        assert sum(isinstance(o, StaleCampaignVersion) for o in outcomes) == 1, outcomes
        assert len(await second.load_campaign_log(campaign_id)) == 1
    finally:
        await first.close()
        await second.close()


async def test_append_checks_the_campaign_kind_and_game(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    other = await new_campaign(store)
    foreign_game = await new_mission(store, other, 1)
    standalone = await new_mission(store, None, None)
    with pytest.raises(CampaignNotFound):
        await store.append_campaign_entry(campaign_id + 99, kind="decision", entry="a")
    with pytest.raises(ValueError):
        await store.append_campaign_entry(campaign_id, kind="move", entry="a")
    with pytest.raises(ConstraintViolation):
        await store.append_campaign_entry(campaign_id, kind="outcome", entry="not json")
    for game_id in (foreign_game, standalone, standalone + 99):
        with pytest.raises(ConstraintViolation):
            await store.append_campaign_entry(
                campaign_id, kind="aborted", entry="gone", game_id=game_id
            )
    assert await store.load_campaign_log(campaign_id) == []
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and (campaign.last_seq, campaign.version) == (0, 0)


async def test_the_database_refuses_to_rewrite_the_campaign_log(
    sqlite_store: SQLiteStorage,
) -> None:
    """SQLite only (its connection); test_postgres.py has PostgreSQL's."""
    store = sqlite_store
    campaign_id = await new_campaign(store)
    await store.append_campaign_entry(campaign_id, kind="decision", entry="strike")
    conn = store._conn
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        await conn.execute_fetchall("UPDATE campaign_log SET entry = 'retreat'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        await conn.execute_fetchall("DELETE FROM campaign_log")
    assert [e.entry for e in await store.load_campaign_log(campaign_id)] == ["strike"]


# -- members and followers -------------------------------------------------------------


async def test_a_member_hands_over_their_place_in_one_write(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    await store.put_campaign_member(campaign_id, HOST, side="israel", display_name="hal")
    await store.put_campaign_member(campaign_id, PLAYER, side="arab", display_name="ann")
    version = (await store.get_campaign(campaign_id)).version  # type: ignore[union-attr]
    newcomer = PLAYER + 1
    taken = await store.replace_campaign_member(campaign_id, HOST, newcomer, display_name="neo")
    assert taken is not None and (taken.side, taken.display_name) == ("israel", "neo")
    assert [(m.user_id, m.side) for m in await store.campaign_members(campaign_id)] == [
        (newcomer, "israel"),  # the place in the join order too
        (PLAYER, "arab"),
    ]
    # refused, nothing written: the leaver is no member, or the newcomer is one already
    assert await store.replace_campaign_member(campaign_id, HOST, 7, display_name="x") is None
    assert (
        await store.replace_campaign_member(campaign_id, PLAYER, newcomer, display_name="x") is None
    )
    after = await store.get_campaign(campaign_id)
    assert after is not None and after.version == version + 1
    assert len(await store.campaign_members(campaign_id)) == 2


async def test_members_join_change_side_and_leave(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    host = await store.put_campaign_member(campaign_id, HOST, side="israel", display_name="hal")
    player = await store.put_campaign_member(campaign_id, PLAYER, side="arab", display_name="ann")
    assert (player.side, player.display_name) == ("arab", "ann")
    moved = await store.put_campaign_member(
        campaign_id, HOST, side="arab", display_name="hal the host"
    )
    assert moved.joined_at == host.joined_at  # a change keeps the place in the join order
    assert [(m.user_id, m.side) for m in await store.campaign_members(campaign_id)] == [
        (HOST, "arab"),
        (PLAYER, "arab"),
    ]
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and campaign.version == 3

    assert await store.remove_campaign_member(campaign_id, HOST)
    assert not await store.remove_campaign_member(campaign_id, HOST)
    assert [m.user_id for m in await store.campaign_members(campaign_id)] == [PLAYER]
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and campaign.version == 4  # the refused removal wrote nothing

    with pytest.raises(CampaignNotFound):
        await store.put_campaign_member(campaign_id + 99, HOST, side="a", display_name="x")


async def test_campaigns_of_user(store: Storage) -> None:
    old = await new_campaign(store)
    new = await new_campaign(store, status=CampaignStatus.ACTIVE)
    await new_campaign(store)  # not a member
    for campaign_id in (old, new):
        await store.put_campaign_member(campaign_id, PLAYER, side="israel", display_name="ann")
    assert [c.id for c in await store.campaigns_of_user(PLAYER)] == [new, old]
    active = await store.campaigns_of_user(PLAYER, [CampaignStatus.ACTIVE])
    assert [c.id for c in active] == [new]
    assert await store.campaigns_of_user(PLAYER, []) == []
    assert await store.campaigns_of_user(HOST) == []


async def test_followers_follow_and_unfollow(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    assert await store.follow_campaign(campaign_id, PLAYER)
    assert not await store.follow_campaign(campaign_id, PLAYER)
    assert await store.follow_campaign(campaign_id, HOST)
    assert await store.campaign_followers(campaign_id) == [PLAYER, HOST]
    assert await store.unfollow_campaign(campaign_id, PLAYER)
    assert not await store.unfollow_campaign(campaign_id, PLAYER)
    assert await store.campaign_followers(campaign_id) == [HOST]
    with pytest.raises(CampaignNotFound):
        await store.follow_campaign(campaign_id + 99, PLAYER)
    campaign = await store.get_campaign(campaign_id)
    assert campaign is not None and campaign.version == 0  # following is not a write to it


# -- missions ---------------------------------------------------------------------------


async def test_games_linked_to_a_campaign(store: Storage) -> None:
    campaign_id = await new_campaign(store)
    second = await new_mission(store, campaign_id, 2)
    first = await new_mission(store, campaign_id, 1)
    replay = await new_mission(store, campaign_id, 1)  # mission 1 played again
    standalone = await new_mission(store, None, None)
    assert [g.id for g in await store.games_of_campaign(campaign_id)] == [first, replay, second]
    game = await store.get_game(second)
    assert game is not None and (game.campaign_id, game.mission) == (campaign_id, 2)
    alone = await store.get_game(standalone)
    assert alone is not None and (alone.campaign_id, alone.mission) == (None, None)
    # every read of a game row carries the link, writes included
    updated = await store.update_game(second, 0, status=GameStatus.ACTIVE)
    assert (updated.campaign_id, updated.mission) == (campaign_id, 2)
    listed = {g.id: g for g in await store.list_games(GUILD)}
    assert listed[first].mission == 1 and listed[standalone].campaign_id is None
    assert await store.games_of_campaign(campaign_id + 99) == []


async def test_a_mission_needs_an_existing_campaign(store: Storage) -> None:
    with pytest.raises(CampaignNotFound):
        await new_mission(store, 99, 1)
    with pytest.raises(ValueError, match="needs a campaign"):
        await new_mission(store, None, 1)
    campaign_id = await new_campaign(store)
    with pytest.raises(ConstraintViolation):
        await new_mission(store, campaign_id, 0)
    assert await store.list_games() == []


# -- the schema -------------------------------------------------------------------------


async def test_a_fresh_database_migrates_to_the_last_version(tmp_path: Path) -> None:
    """SQLite only (its catalogue); test_postgres.py checks PostgreSQL's."""
    db = tmp_path / "fresh.sqlite3"
    async with await SQLiteStorage.open(db):
        pass
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        assert await schema_version(conn) == SCHEMA_VERSION
        rows = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        assert {"campaigns", "campaign_log", "campaign_members", "campaign_follows"} <= {
            row[0] for row in rows
        }
        columns = {row[1] for row in await conn.execute_fetchall("PRAGMA table_info(games)")}
        assert {"campaign_id", "mission"} <= columns
        columns = {row[1] for row in await conn.execute_fetchall("PRAGMA table_info(campaigns)")}
        assert "told_seq" in columns  # 0004
        columns = {row[1] for row in await conn.execute_fetchall("PRAGMA table_info(games)")}
        assert "posted_seq" in columns  # 0005


async def test_the_previous_release_database_upgrades_in_place(tmp_path: Path) -> None:
    """SQLite only: the previous release wrote SQLite files."""
    db = tmp_path / "release.sqlite3"
    shutil.copy(FIXTURES / "release-0.1.sqlite3", db)
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        assert await schema_version(conn) == 2  # what the release wrote
    async with await SQLiteStorage.open(db) as store:
        games = await store.list_games()
        assert [g.id for g in games] == [1, 2, 3, 4]
        assert all(g.campaign_id is None and g.mission is None for g in games)
        assert any(g.last_seq > 0 for g in games)
        assert all(g.posted_seq == g.last_seq for g in games), "0005: they were posted"
        campaign_id = await new_campaign(store, guild_id=games[0].guild_id)
        mission = await new_mission(store, campaign_id, 1)
        entry = await store.append_campaign_entry(
            campaign_id, kind="aborted", entry="test", game_id=mission, expected_seq=0
        )
        assert entry.seq == 1
        assert [g.id for g in await store.games_of_campaign(campaign_id)] == [mission]
        told = await store.update_campaign(campaign_id, told_seq=1)
        assert told.told_seq == 1
        assert (await store.update_campaign(campaign_id, told_seq=0)).told_seq == 1  # never back
        assert not [row for row in await store._fetch("PRAGMA foreign_key_check")]
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        assert await schema_version(conn) == SCHEMA_VERSION
