"""Tests of the store (on both backends: see conftest.py), the SQLite migrations and
connection, and the per-game locks.

Tests taking ``store`` or ``database`` run on SQLite and on PostgreSQL; tests marked
"SQLite only" inspect SQLite itself (its file, pragmas, connection); their PostgreSQL
counterparts are in test_postgres.py."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import bot.storage.sqlite as sqlite_storage
from bot.storage import (
    ConstraintViolation,
    GameLocks,
    GameNotFound,
    GameStatus,
    MessageRow,
    MigrationError,
    SeatNotFound,
    SQLiteStorage,
    StaleGameVersion,
    Storage,
    sqlite_disk,
)
from bot.storage.migrate import discover, migrate, schema_version, split_statements
from tests.storage.backends import Database

GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
CHANNEL = 333_333_333_333_333_333
HOST = 444_444_444_444_444_444
PLAYER = 555_555_555_555_555_555
START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


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


@pytest.fixture
async def grouped_store() -> AsyncIterator[SQLiteStorage]:
    """SQLite only: a store writing as on a disk (in groups, on the database's thread)."""
    s = await SQLiteStorage.open(":memory:", clock=TickClock(), inline=False)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tally-ho.sqlite3"


async def new_game(store: Storage, **overrides: Any) -> int:
    fields: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "host_id": HOST,
        "system": "dif",
        "ruleset": "rotl",
        "seed": 42,
        "options": {"year": 1940, "seats": {"A1": "Bf 109E"}},
    }
    fields.update(overrides)
    game = await store.create_game(**fields)
    return game.id


async def pragma(conn: aiosqlite.Connection, name: str) -> Any:
    rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
    return rows[0][0]


async def table_names(conn: aiosqlite.Connection) -> set[str]:
    rows = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row[0] for row in rows}


# -- migrations -----------------------------------------------------------------------


def test_shipped_migrations_are_found_through_importlib_resources() -> None:
    migrations = discover()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "0001_initial.sql"
    assert migrations[0].sql.startswith("-- 0001_initial.sql")


def test_split_statements_keeps_trigger_bodies_and_skips_comments() -> None:
    script = (
        "-- header; with a semicolon in a comment\n"
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_ro BEFORE DELETE ON t\nBEGIN\n"
        "    SELECT RAISE(ABORT, 'no; never');\nEND;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[0].endswith("CREATE TABLE t (x INTEGER);")
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


async def test_migrations_create_the_schema_on_a_fresh_file(db_path: Path) -> None:
    async with await SQLiteStorage.open(db_path):
        pass
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await schema_version(conn) == len(discover())
        assert {"guild_settings", "games", "seats", "actions", "snapshots", "messages"} <= (
            await table_names(conn)
        )


async def test_migrations_are_idempotent_on_reopen(db_path: Path) -> None:
    async with await SQLiteStorage.open(db_path):
        pass
    async with await SQLiteStorage.open(db_path):
        pass
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await migrate(conn) == []
        assert await schema_version(conn) == len(discover())


async def test_a_failing_migration_rolls_back_completely(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("-- 0001: one table\nCREATE TABLE first (x);\n")
    (folder / "0002_broken.sql").write_text(
        "-- 0002: a table, a row, then a syntax error\n"
        "CREATE TABLE second (y);\n"
        "INSERT INTO first (x) VALUES (1);\n"
        "CREAT TABLE oops (z);\n"
    )
    async with aiosqlite.connect(tmp_path / "db.sqlite3", isolation_level=None) as conn:
        with pytest.raises(MigrationError, match=r"0002_broken\.sql"):
            await migrate(conn, folder)
        assert await schema_version(conn) == 1
        assert "second" not in await table_names(conn)
        assert list(await conn.execute_fetchall("SELECT * FROM first")) == []
        assert not conn.in_transaction

        # Once fixed, the migration applies from where it stopped.
        (folder / "0002_broken.sql").write_text("-- 0002: fixed\nCREATE TABLE second (y);\n")
        assert await migrate(conn, folder) == [2]
        assert "second" in await table_names(conn)


async def test_migration_numbers_must_not_have_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("-- a\nCREATE TABLE a (x);\n")
    (tmp_path / "0003_c.sql").write_text("-- c\nCREATE TABLE c (x);\n")
    with pytest.raises(MigrationError, match=r"0003_c\.sql"):
        discover(tmp_path)


async def test_a_database_newer_than_the_bot_is_refused(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "db.sqlite3", isolation_level=None) as conn:
        await conn.execute_fetchall("PRAGMA user_version = 99")
        with pytest.raises(MigrationError, match="newer"):
            await migrate(conn)


# -- connection settings ----------------------------------------------------------------


async def test_file_database_uses_wal_and_durable_settings(db_path: Path) -> None:
    """SQLite only."""
    async with await SQLiteStorage.open(db_path, busy_timeout_ms=1234, inline=False) as store:
        # Per-connection pragmas can only be read on the store's own connection.
        conn = store._conn
        assert await pragma(conn, "journal_mode") == "wal"
        assert await pragma(conn, "synchronous") == 2
        assert await pragma(conn, "foreign_keys") == 1
        assert await pragma(conn, "busy_timeout") == 1234
    # WAL is a property of the file: a fresh connection sees it too.
    async with aiosqlite.connect(db_path) as conn:
        assert await pragma(conn, "journal_mode") == "wal"


# -- games ------------------------------------------------------------------------------


async def test_create_and_get_a_game(store: Storage) -> None:
    game = await store.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        system="dif",
        ruleset="zero",
        seed=2**63 - 1,
        options={"year": 1942, "ruleset": {"first_turn_wingman": True}},
    )
    assert game.id >= 1
    assert game.status is GameStatus.LOBBY
    assert (game.version, game.last_seq) == (0, 0)
    assert game.seed == 2**63 - 1
    assert game.options == {"year": 1942, "ruleset": {"first_turn_wingman": True}}
    assert game.thread_id is None and game.lobby_message_id is None
    assert game.created_at == game.updated_at == START
    assert game.finished_at is None and game.result is None
    assert await store.get_game(game.id) == game
    assert await store.get_game(game.id + 1000) is None
    assert await store.game_version(game.id) == 0
    assert await store.game_version(game.id + 1000) is None
    updated = await store.update_game(game.id, 0, thread_id=5)
    assert await store.game_version(game.id) == updated.version == 1


async def test_game_ids_are_not_reused(store: Storage) -> None:
    first = await new_game(store)
    second = await new_game(store)
    assert second > first


async def test_get_game_by_thread(store: Storage) -> None:
    game_id = await new_game(store, thread_id=777)
    await new_game(store, thread_id=888)
    found = await store.get_game_by_thread(777)
    assert found is not None and found.id == game_id
    assert await store.get_game_by_thread(999) is None


async def test_list_games_filters_by_guild_and_status(store: Storage) -> None:
    lobby = await new_game(store)
    active = await new_game(store, status=GameStatus.ACTIVE)
    other = await new_game(store, guild_id=OTHER_GUILD, status=GameStatus.ACTIVE)
    done = await new_game(store)
    record = await store.get_game(done)
    assert record is not None
    await store.update_game(done, record.version, status=GameStatus.FINISHED)

    assert [g.id for g in await store.list_games()] == [lobby, active, other, done]
    assert [g.id for g in await store.list_games(GUILD)] == [lobby, active, done]
    assert [g.id for g in await store.list_games(statuses=["active"])] == [active, other]
    assert [g.id for g in await store.list_games(GUILD, statuses=[GameStatus.ACTIVE])] == [active]
    assert await store.list_games(statuses=[]) == []
    assert [g.id for g in await store.list_open_games()] == [lobby, active, other]
    with pytest.raises(ValueError):
        await store.list_games(statuses=["paused"])


async def test_update_game_changes_fields_and_bumps_the_version(store: Storage) -> None:
    game_id = await new_game(store)
    game = await store.update_game(game_id, 0, thread_id=777, lobby_message_id=999)
    assert (game.version, game.thread_id, game.lobby_message_id) == (1, 777, 999)
    assert game.updated_at > game.created_at

    game = await store.update_game(game_id, 1, status="active", options={"year": 1941})
    assert game.status is GameStatus.ACTIVE and game.options == {"year": 1941}
    assert game.finished_at is None

    game = await store.update_game(
        game_id, 2, status=GameStatus.FINISHED, result={"winner": "A", "vp": {"A": 3}}
    )
    assert game.version == 3
    assert game.result == {"winner": "A", "vp": {"A": 3}}
    assert game.finished_at == game.updated_at
    assert game.thread_id == 777  # untouched fields stay
    assert await store.get_game(game_id) == game

    # None is a value (clear the field), not "leave it alone".
    game = await store.update_game(game_id, 3, lobby_message_id=None)
    assert game.lobby_message_id is None and game.thread_id == 777


async def test_update_game_refuses_a_stale_version(store: Storage) -> None:
    game_id = await new_game(store)
    await store.update_game(game_id, 0, status=GameStatus.ACTIVE)
    before = await store.get_game(game_id)
    with pytest.raises(StaleGameVersion) as caught:
        await store.update_game(game_id, 0, status=GameStatus.ABORTED)
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert await store.get_game(game_id) == before


async def test_update_game_needs_a_field_and_an_existing_game(store: Storage) -> None:
    game_id = await new_game(store)
    with pytest.raises(ValueError):
        await store.update_game(game_id, 0)
    with pytest.raises(GameNotFound):
        await store.update_game(game_id + 1000, 0, status="active")


async def test_one_thread_holds_one_game(store: Storage) -> None:
    await new_game(store, thread_id=777)
    other = await new_game(store)
    with pytest.raises(ConstraintViolation, match="UNIQUE"):
        await store.update_game(other, 0, thread_id=777)
    game = await store.get_game(other)
    assert game is not None and game.version == 0 and game.thread_id is None


# -- seats ------------------------------------------------------------------------------


async def test_seats_are_stored_replaced_and_removed(store: Storage) -> None:
    game_id = await new_game(store)
    assert await store.put_seat(game_id, "A1", "A", PLAYER, "Adolf", {"aircraft": "bf109e"}) == 1
    assert await store.put_seat(game_id, "B10", "B", None, "AI", {"aircraft": "hurricane"}) == 2
    assert await store.put_seat(game_id, "B2", "B", HOST, "Host") == 3

    seats = await store.get_seats(game_id)
    assert [s.seat for s in seats] == ["A1", "B2", "B10"]
    assert seats[0].payload == {"aircraft": "bf109e"}
    assert seats[1].payload == {}
    assert seats[2].user_id is None

    # Taking a seat again replaces it.
    assert await store.put_seat(game_id, "B10", "B", PLAYER, "Adolf", {"aircraft": "spit1"}) == 4
    replaced = (await store.get_seats(game_id))[2]
    assert (replaced.user_id, replaced.payload) == (PLAYER, {"aircraft": "spit1"})

    assert await store.remove_seat(game_id, "B2") == 5
    assert [s.seat for s in await store.get_seats(game_id)] == ["A1", "B10"]
    with pytest.raises(SeatNotFound):
        await store.remove_seat(game_id, "B2")
    game = await store.get_game(game_id)
    assert game is not None and game.version == 5  # the refused removal wrote nothing


async def test_seat_writes_can_be_guarded_by_the_version(store: Storage) -> None:
    game_id = await new_game(store)
    await store.put_seat(game_id, "A1", "A", PLAYER, "Adolf", expected_version=0)
    with pytest.raises(StaleGameVersion):
        await store.put_seat(game_id, "A1", "A", HOST, "Host", expected_version=0)
    with pytest.raises(StaleGameVersion):
        await store.remove_seat(game_id, "A1", expected_version=0)
    [seat] = await store.get_seats(game_id)
    assert seat.user_id == PLAYER
    with pytest.raises(GameNotFound):
        await store.put_seat(game_id + 1000, "A1", "A", PLAYER, "Adolf")


async def test_a_user_may_hold_several_seats(store: Storage) -> None:
    open_game = await new_game(store)
    finished = await new_game(store)
    await store.put_seat(open_game, "A1", "A", PLAYER, "Adolf")
    await store.put_seat(open_game, "A2", "A", PLAYER, "Adolf")
    await store.put_seat(open_game, "B1", "B", HOST, "Host")
    version = await store.put_seat(finished, "B1", "B", PLAYER, "Adolf")
    await store.update_game(finished, version, status=GameStatus.FINISHED)

    mine = await store.seats_of_user(PLAYER)
    assert [(s.game_id, s.seat) for s in mine] == [
        (open_game, "A1"),
        (open_game, "A2"),
        (finished, "B1"),
    ]
    still_open = await store.seats_of_user(PLAYER, statuses=["lobby", "active"])
    assert [(s.game_id, s.seat) for s in still_open] == [(open_game, "A1"), (open_game, "A2")]
    assert await store.seats_of_user(12345) == []


# -- the action log ---------------------------------------------------------------------


async def test_actions_are_appended_in_order_from_seq_1(store: Storage) -> None:
    game_id = await new_game(store)
    version = 0
    for seat, text in [("A1", "play 12"), ("B1", "respond 40"), (None, "timeout B1")]:
        version = await store.append_action(game_id, version, seat, text)
    assert version == 3

    actions = await store.load_actions(game_id)
    assert [(a.seq, a.seat, a.action) for a in actions] == [
        (1, "A1", "play 12"),
        (2, "B1", "respond 40"),
        (3, None, "timeout B1"),
    ]
    assert [a.created_at for a in actions] == sorted(a.created_at for a in actions)
    assert [a.seq for a in await store.load_actions(game_id, after_seq=1)] == [2, 3]
    assert await store.load_actions(game_id, after_seq=3) == []

    game = await store.get_game(game_id)
    assert game is not None and (game.version, game.last_seq) == (3, 3)


async def test_seq_has_no_gaps_when_other_writes_bump_the_version(
    store: Storage,
) -> None:
    game_id = await new_game(store)
    version = await store.put_seat(game_id, "A1", "A", PLAYER, "Adolf")
    version = (await store.update_game(game_id, version, status="active")).version
    version = await store.append_action(game_id, version, "A1", "play 1")
    version = (await store.update_game(game_id, version, thread_id=5)).version
    await store.append_action(game_id, version, "A1", "play 2")
    assert [a.seq for a in await store.load_actions(game_id)] == [1, 2]


async def test_a_stale_append_writes_nothing(store: Storage) -> None:
    game_id = await new_game(store)
    await store.append_action(game_id, 0, "A1", "play 12", snapshot={"turn": 1})
    before = await store.get_game(game_id)

    with pytest.raises(StaleGameVersion) as caught:
        await store.append_action(game_id, 0, "B1", "play 7", snapshot={"turn": 2})
    assert caught.value.game_id == game_id
    assert (caught.value.expected, caught.value.actual) == (0, 1)

    assert [a.action for a in await store.load_actions(game_id)] == ["play 12"]
    assert await store.get_game(game_id) == before
    snapshot = await store.latest_snapshot(game_id)
    assert snapshot is not None and snapshot.state == {"turn": 1}


async def test_mark_posted_only_raises_the_watermark_and_keeps_the_version(
    store: Storage,
) -> None:
    """The outbox's watermark (migration 0005): what the thread was told. Marking never
    lowers it and never bumps the version, so a move racing it still commits."""
    game_id = await new_game(store)
    version = 0
    for text in ("play 1", "play 2", "play 3"):
        version = await store.append_action(game_id, version, "A1", text)
    before = await store.get_game(game_id)
    assert before is not None and (before.posted_seq, before.last_seq) == (0, 3)

    await store.mark_posted(game_id, 2)
    await store.mark_posted(game_id, 1)  # a late mark of an older post: never back
    game = await store.get_game(game_id)
    assert game is not None and (game.posted_seq, game.version) == (2, version)
    assert game == before.model_copy(update={"posted_seq": 2}), "nothing else written"
    assert [g.id for g in await store.list_unposted_games()] == [game_id]
    await store.mark_posted(game_id, 3)
    assert await store.list_unposted_games() == []
    await store.append_action(game_id, version, "A1", "play 4")  # the version still holds
    assert [g.id for g in await store.list_unposted_games()] == [game_id]
    with pytest.raises(GameNotFound):
        await store.mark_posted(game_id + 1000, 1)


async def test_an_end_without_an_action_is_untold_until_marked(store: Storage) -> None:
    """A resignation, a forfeit or an abort adds no action (migration 0006): the
    game's ``end_told`` is written false with its status, so it is listed as untold
    until the thread was told; marking it never bumps the version or goes back."""
    game_id = await new_game(store)
    version = await store.append_action(game_id, 0, "A1", "play 1")
    await store.mark_posted(game_id, 1)
    assert (await store.get_game(game_id)).end_told is True  # type: ignore[union-attr]
    ended = await store.update_game(game_id, version, status="finished", end_told=False)
    assert not ended.end_told and ended.posted_seq == ended.last_seq == 1
    assert [g.id for g in await store.list_unposted_games()] == [game_id]
    await store.mark_posted(game_id, 1)  # the steps only: the end is still untold
    assert [g.id for g in await store.list_unposted_games()] == [game_id]
    await store.mark_posted(game_id, 1, end=True)
    told = await store.get_game(game_id)
    assert told == ended.model_copy(update={"end_told": True}), "nothing else written"
    assert await store.list_unposted_games() == []
    await store.mark_posted(game_id, 1)  # a late mark of the steps: the end stays told
    assert (await store.get_game(game_id)) == told


async def test_a_start_is_untold_until_any_mark(store: Storage) -> None:
    """A start adds no action either (migration 0009): ``start_told`` is written false
    with the status, and any mark sets it back (a thread is told in order)."""
    game_id = await new_game(store)
    started = await store.update_game(game_id, 0, status="active", start_told=False)
    assert not started.start_told and started.posted_seq == started.last_seq == 0
    assert [g.id for g in await store.list_unposted_games()] == [game_id]
    await store.mark_posted(game_id, 0)
    told = await store.get_game(game_id)
    assert told == started.model_copy(update={"start_told": True}), "nothing else written"
    assert await store.list_unposted_games() == []


async def test_a_handover_is_one_write_with_its_marker(store: Storage) -> None:
    """The new holder, the game's settings and the marker in the log, together, if the
    version holds; a stale handover writes none of them."""
    game_id = await new_game(store)
    version = await store.put_seat(game_id, "A1", "A", 11, "alice", {"aircraft": "bf-109e"})
    version = await store.append_action(game_id, version, "A1", "play 1")
    await store.put_game_settings(game_id, {"offers": {"A1": {"to": 12}}})
    [seat] = await store.get_seats(game_id)
    holder = seat.model_copy(update={"user_id": None, "display_name": "Computer"})
    with pytest.raises(StaleGameVersion):
        await store.hand_over_seat(game_id, version - 1, holder, {}, "seat A1 {}")
    assert await store.get_seats(game_id) == [seat]
    assert (await store.get_game_settings(game_id)).settings == {  # type: ignore[union-attr]
        "offers": {"A1": {"to": 12}}
    }
    assert len(await store.load_actions(game_id)) == 1
    settings = {"computer_seats": ["A1"]}
    after = await store.hand_over_seat(game_id, version, holder, settings, "seat A1 {}")
    [handed] = await store.get_seats(game_id)
    assert (handed.user_id, handed.display_name, handed.payload) == (None, "Computer", seat.payload)
    assert (await store.get_game_settings(game_id)).settings == settings  # type: ignore[union-attr]
    game = await store.get_game(game_id)
    assert game is not None and (game.version, game.last_seq) == (after, 2)
    [_, marker] = await store.load_actions(game_id)
    assert (marker.seq, marker.seat, marker.action) == (2, None, "seat A1 {}")


async def test_append_to_a_missing_game(store: Storage) -> None:
    with pytest.raises(GameNotFound):
        await store.append_action(404, 0, "A1", "play 12")


async def test_snapshots_follow_the_log(store: Storage) -> None:
    game_id = await new_game(store)
    assert await store.latest_snapshot(game_id) is None
    await store.put_snapshot(game_id, 0, {"turn": 0})
    version = await store.append_action(game_id, 0, "A1", "play 12")
    version = await store.append_action(game_id, version, "B1", "pass", snapshot={"turn": 2})
    snapshot = await store.latest_snapshot(game_id)
    assert snapshot is not None and (snapshot.seq, snapshot.state) == (2, {"turn": 2})

    await store.put_snapshot(game_id, 1, {"turn": 1})  # backfill: still not the latest
    snapshot = await store.latest_snapshot(game_id)
    assert snapshot is not None and snapshot.seq == 2
    with pytest.raises(ValueError):
        await store.put_snapshot(game_id, 3, {"turn": 3})
    game = await store.get_game(game_id)
    assert game is not None and game.version == version  # snapshots are not game writes


async def test_the_database_refuses_to_rewrite_the_log(sqlite_store: SQLiteStorage) -> None:
    """SQLite only (its connection); test_postgres.py has PostgreSQL's."""
    store = sqlite_store
    game_id = await new_game(store)
    await store.append_action(game_id, 0, "A1", "play 12")
    conn = store._conn
    with pytest.raises(Exception, match="append-only"):
        await conn.execute_fetchall("UPDATE actions SET action = 'play 13'")
    with pytest.raises(Exception, match="append-only"):
        await conn.execute_fetchall("DELETE FROM actions")
    assert [a.action for a in await store.load_actions(game_id)] == ["play 12"]


async def test_two_concurrent_appends_with_the_same_version_one_wins(
    database: Database,
) -> None:
    setup = await database.open()
    try:
        game_id = await new_game(setup)
        version = await setup.append_action(game_id, 0, "A1", "play 1")
    finally:
        await setup.close()

    first = await database.open()
    second = await database.open()
    try:
        outcomes = await asyncio.gather(
            first.append_action(game_id, version, "A1", "play 2"),
            second.append_action(game_id, version, "B1", "play 3"),
            return_exceptions=True,
        )
        wins = [o for o in outcomes if isinstance(o, int)]
        losses = [o for o in outcomes if isinstance(o, StaleGameVersion)]
        assert wins == [version + 1] and len(losses) == 1, outcomes

        actions = await first.load_actions(game_id)
        assert [a.seq for a in actions] == [1, 2]
        winner = "play 2" if outcomes[0] == version + 1 else "play 3"
        assert actions[-1].action == winner
        game = await second.get_game(game_id)
        assert game is not None and (game.version, game.last_seq) == (2, 2)
    finally:
        await first.close()
        await second.close()


async def test_concurrent_appends_on_one_store_one_wins(store: Storage) -> None:
    game_id = await new_game(store)
    outcomes = await asyncio.gather(
        *(store.append_action(game_id, 0, "A1", f"play {n}") for n in range(5)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, int) for o in outcomes) == 1
    assert sum(isinstance(o, StaleGameVersion) for o in outcomes) == 4
    assert len(await store.load_actions(game_id)) == 1


# -- messages and guild settings ------------------------------------------------------


async def test_messages_are_remembered_per_kind(store: Storage) -> None:
    game_id = await new_game(store)
    assert await store.get_message(game_id, "latest") is None
    await store.set_message(game_id, "latest", 777, 1001)
    await store.set_message(game_id, "latest", 777, 1002)
    await store.set_message(game_id, "lobby", CHANNEL, 900)
    latest = await store.get_message(game_id, "latest")
    assert latest is not None and (latest.channel_id, latest.message_id) == (777, 1002)
    lobby = await store.get_message(game_id, "lobby")
    assert lobby is not None and lobby.message_id == 900
    with pytest.raises(GameNotFound):
        await store.set_message(game_id + 1000, "latest", 777, 1003)


@pytest.mark.parametrize("turns", [1, 2, 3, 5, 8])
async def test_a_write_cancelled_mid_statement_leaves_the_connection_usable(
    store: Storage, turns: int
) -> None:
    """Cancelling an await does not stop its statement on aiosqlite's thread: a BEGIN
    or an INSERT still runs. The transaction must roll it back all the same, and the
    cancellation must come out as a cancellation (stop() of a task relies on it)."""
    game_id = await new_game(store)
    task = asyncio.ensure_future(store.set_message(game_id, "lobby", 1, 2))
    for _ in range(turns):  # cancel at a different statement each time
        await asyncio.sleep(0)
    task.cancel()
    outcome = await asyncio.gather(task, return_exceptions=True)
    assert isinstance(outcome[0], (asyncio.CancelledError, type(None))), outcome
    await store.set_message(game_id, "latest", 1, 3)  # a BEGIN left open would fail here
    latest = await store.get_message(game_id, "latest")
    assert latest is not None and latest.message_id == 3


async def test_messages_are_listed_by_prefix_and_forgotten(store: Storage) -> None:
    game_id, other = await new_game(store), await new_game(store)
    for kind, message_id in (("offer:X1", 1), ("offer:A1", 2), ("undo:7", 3), ("lobby", 4)):
        await store.set_message(game_id, kind, 777, message_id)
    await store.set_message(other, "offer:X1", 777, 5)
    offers = await store.list_messages(game_id, "offer:")
    assert [(m.kind, m.message_id) for m in offers] == [("offer:A1", 2), ("offer:X1", 1)]
    assert len(await store.list_messages(game_id)) == 4
    several = await store.list_messages(game_id, ("undo:", "offer:X", "take:"))
    assert [m.kind for m in several] == ["offer:X1", "undo:7"]
    assert await store.list_messages(game_id, ()) == []
    deleted = await store.delete_message(game_id, "offer:X1")
    assert deleted is not None and (deleted.kind, deleted.message_id) == ("offer:X1", 1)
    assert await store.delete_message(game_id, "offer:X1") is None, "handled once"
    assert await store.delete_message(game_id, "no-such-kind") is None
    assert [m.kind for m in await store.list_messages(game_id, "offer:")] == ["offer:A1"]
    assert [m.message_id for m in await store.list_messages(other)] == [5]


async def test_a_message_keeps_what_it_shows(store: Storage) -> None:
    """A remembered message's text (migration 0010) comes with its row: it is what the
    bot closes it with, without fetching it; a message stored without one has None."""
    game_id = await new_game(store)
    await store.set_message(game_id, "dm:A1", 777, 1, "Your hand:\n**Hit** ×2 — « é »")
    await store.set_message(game_id, "offer:X1", 777, 2)
    dm = await store.get_message(game_id, "dm:A1")
    assert dm is not None and dm.content == "Your hand:\n**Hit** ×2 — « é »"
    offer = await store.get_message(game_id, "offer:X1")
    assert offer is not None and offer.content is None
    await store.set_message(game_id, "dm:A1", 777, 3, "brought up to date")
    listed = await store.list_messages(game_id, "dm:")
    assert [(m.message_id, m.content) for m in listed] == [(3, "brought up to date")]
    deleted = await store.delete_message(game_id, "dm:A1")
    assert deleted == listed[0], "the row deleted, its text with it"


async def test_a_message_two_processes_forget_at_once_is_handled_by_one(
    database: Database,
) -> None:
    """Two processes closing the same DM each delete its row first: the one whose
    delete returns the row closes it, the other leaves it (closed once)."""
    first, second = await database.open(), await database.open()
    try:
        game_id = await new_game(first)
        await first.set_message(game_id, "dm:A1", 777, 1, "hand")
        got = await asyncio.gather(
            first.delete_message(game_id, "dm:A1"), second.delete_message(game_id, "dm:A1")
        )
        assert sorted(r is None for r in got) == [False, True], got
        assert [r.content for r in got if r is not None] == ["hand"]
    finally:
        await first.close()
        await second.close()


async def test_messages_are_swapped_in_one_write(store: Storage) -> None:
    """``swap_messages``: the claimed rows are forgotten and returned, by kind; each
    claimed one's replacement is written, the new rows too; a kind not there is not
    returned and its replacement not written (another process took it); a new row may
    take a claimed one's kind (a DM sent again for the same version)."""
    game_id = await new_game(store)
    await store.set_message(game_id, "dm:A1:7:3", 70, 1, "hand of A1")
    await store.set_message(game_id, "dm:X1:8:3", 80, 2, "hand of X1")
    await store.set_message(game_id, "side:3:allied", 90, 3)
    await store.set_message(game_id, "offer:X1", 90, 4)
    claimed = await store.swap_messages(
        game_id,
        {
            "side:3:allied": None,
            "dm:X1:8:3": MessageRow("dm:X1:8:4", 80, 2, "hand of X1, up to date"),
            "dm:A1:7:3": None,
            "dm:B1:9:3": MessageRow("dm:B1:9:4", 99, 9, "never written"),
        },
        [MessageRow("dm:A1:7:4", 70, 5, "new hand of A1"), MessageRow("dm:A1:7:3", 70, 6)],
    )
    assert [(r.kind, r.channel_id, r.message_id, r.content) for r in claimed] == [
        ("dm:A1:7:3", 70, 1, "hand of A1"),
        ("dm:X1:8:3", 80, 2, "hand of X1"),
        ("side:3:allied", 90, 3, None),
    ]
    assert all(r.game_id == game_id and r.updated_at.tzinfo is not None for r in claimed)
    now = {(r.kind, r.message_id, r.content) for r in await store.list_messages(game_id)}
    assert now == {
        ("dm:A1:7:3", 6, None),
        ("dm:A1:7:4", 5, "new hand of A1"),
        ("dm:X1:8:4", 2, "hand of X1, up to date"),
        ("offer:X1", 4, None),
    }
    again = await store.swap_messages(game_id, {"dm:X1:8:3": MessageRow("dm:X1:8:5", 80, 2)})
    assert again == [], "forgotten once: its replacement is not written"
    assert await store.get_message(game_id, "dm:X1:8:5") is None
    assert await store.swap_messages(game_id, {}) == []
    with pytest.raises(GameNotFound):
        await store.swap_messages(game_id + 1000, {}, [MessageRow("dm:A1:7:4", 70, 5)])


async def test_a_message_two_processes_swap_at_once_is_handled_by_one(
    database: Database,
) -> None:
    """Two processes bringing the same DM up to date at once: one gets its row (and
    writes its replacement), the other gets nothing and writes nothing of it."""
    first, second = await database.open(), await database.open()
    try:
        game_id = await new_game(first)
        await first.set_message(game_id, "dm:A1:7:3", 777, 1, "hand")
        got = await asyncio.gather(
            first.swap_messages(game_id, {"dm:A1:7:3": MessageRow("dm:A1:7:4", 777, 1, "a")}),
            second.swap_messages(game_id, {"dm:A1:7:3": MessageRow("dm:A1:7:4", 777, 1, "b")}),
        )
        assert sorted(len(claimed) for claimed in got) == [0, 1], got
        winner = "a" if got[0] else "b"
        kept = await first.get_message(game_id, "dm:A1:7:4")
        assert kept is not None and kept.content == winner
    finally:
        await first.close()
        await second.close()


async def test_guild_settings_round_trip(store: Storage) -> None:
    assert await store.get_guild_settings(GUILD) is None
    put = await store.put_guild_settings(GUILD, {"deadline_hours": 24, "dm": True})
    assert await store.get_guild_settings(GUILD) == put
    await store.put_guild_settings(GUILD, {"deadline_hours": 48})
    settings = await store.get_guild_settings(GUILD)
    assert settings is not None and settings.settings == {"deadline_hours": 48}
    assert settings.updated_at > put.updated_at
    assert await store.get_guild_settings(OTHER_GUILD) is None


async def test_timestamps_come_from_the_injected_clock(store: Storage) -> None:
    game = await store.create_game(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, system="dif", ruleset="rotl", seed=1
    )
    await store.append_action(game.id, 0, "A1", "play 1")
    [action] = await store.load_actions(game.id)
    assert game.created_at == START
    assert action.created_at == START + timedelta(seconds=1)
    assert action.created_at.tzinfo is not None


async def test_a_naive_clock_is_refused(database: Database) -> None:
    store = await database.open(clock=datetime.now)
    try:
        with pytest.raises(ValueError, match="aware"):
            await new_game(store)
    finally:
        await store.close()


# -- restart ----------------------------------------------------------------------------


async def test_everything_survives_a_restart(database: Database) -> None:
    store = await database.open(clock=TickClock())
    try:
        await store.put_guild_settings(GUILD, {"deadline_hours": 12})
        game_id = await new_game(store, thread_id=777)
        version = await store.put_seat(game_id, "A1", "A", PLAYER, "Adolf", {"aircraft": "bf109e"})
        version = (await store.update_game(game_id, version, status="active")).version
        version = await store.append_action(game_id, version, "A1", "play 12")
        version = await store.append_action(game_id, version, None, "timeout B1", snapshot={"x": 1})
        await store.set_message(game_id, "latest", 777, 1001)
        finished = await new_game(store)
        await store.update_game(finished, 0, status="aborted")
        before = (
            await store.get_game(game_id),
            await store.get_seats(game_id),
            await store.load_actions(game_id),
            await store.latest_snapshot(game_id),
            await store.get_message(game_id, "latest"),
            await store.get_guild_settings(GUILD),
        )
    finally:
        await store.close()

    store = await database.open()
    try:
        after = (
            await store.get_game(game_id),
            await store.get_seats(game_id),
            await store.load_actions(game_id),
            await store.latest_snapshot(game_id),
            await store.get_message(game_id, "latest"),
            await store.get_guild_settings(GUILD),
        )
        assert after == before
        assert [g.id for g in await store.list_open_games()] == [game_id]
        # The log continues where it stopped.
        assert await store.append_action(game_id, version, "A1", "play 3") == version + 1
    finally:
        await store.close()


# -- per-game locks ---------------------------------------------------------------------


async def test_game_locks_serialise_one_game() -> None:
    locks = GameLocks()
    trace: list[str] = []

    async def worker(name: str) -> None:
        async with locks(7):
            trace.append(f"{name} in")
            await asyncio.sleep(0.01)
            trace.append(f"{name} out")

    await asyncio.gather(worker("a"), worker("b"))
    assert trace == ["a in", "a out", "b in", "b out"]
    assert len(locks) == 0 and 7 not in locks


async def test_game_locks_do_not_block_other_games() -> None:
    locks = GameLocks()
    async with locks(1):
        assert locks.locked(1)
        async with asyncio.timeout(1):
            async with locks(2):
                assert len(locks) == 2
    assert len(locks) == 0


async def test_game_locks_clean_up_after_a_cancelled_waiter() -> None:
    locks = GameLocks()
    entered = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks(7):
            entered.set()
            await release.wait()

    async def waiter() -> None:
        async with locks(7):
            raise AssertionError("the waiter was cancelled before getting the lock")

    held = asyncio.create_task(holder())
    await entered.wait()
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()
    await held
    assert len(locks) == 0


async def test_writes_at_once_commit_together_each_with_its_own_outcome(
    grouped_store: SQLiteStorage,
) -> None:
    """Group commit (``SQLiteStorage._write_grouped``, on a disk): writes queued while a group runs go in
    the next one, one COMMIT (one fsync) for all; a write that fails is rolled back
    alone and only its caller sees the error; a caller cancelled while its write is
    still queued writes nothing."""
    store = grouped_store
    games = [await new_game(store) for _ in range(6)]
    seen: list[str] = []
    conn = store._conn
    await conn._execute(conn._conn.set_trace_callback, seen.append)
    busy = asyncio.ensure_future(conn._execute(time.sleep, 0.3))  # the database's thread
    first = asyncio.ensure_future(store.update_game(games[1], 0, status="active"))
    await asyncio.sleep(0.05)  # the first group took it, and waits for the thread
    stale = asyncio.ensure_future(store.update_game(games[0], 7, status="active"))
    moved = [asyncio.ensure_future(store.update_game(g, 0, status="active")) for g in games[2:5]]
    dropped = asyncio.ensure_future(store.update_game(games[5], 0, status="active"))
    await asyncio.sleep(0.05)  # queued behind it
    dropped.cancel()
    await busy
    assert (await first).version == 1
    with pytest.raises(StaleGameVersion):
        await stale
    assert [(await m).version for m in moved] == [1, 1, 1]
    with pytest.raises(asyncio.CancelledError):
        await dropped
    assert [s for s in seen if s in ("BEGIN IMMEDIATE", "COMMIT")] == [
        "BEGIN IMMEDIATE",
        "COMMIT",
    ] * 2
    assert sum(s.startswith("SAVEPOINT") for s in seen) == 1 + 4, "the cancelled one never ran"
    assert (await store.get_game(games[0])).version == 0  # type: ignore[union-attr]
    assert (await store.get_game(games[5])).status == "lobby"  # type: ignore[union-attr]


async def test_a_write_cancelled_before_it_begins_writes_nothing(
    sqlite_store: SQLiteStorage,
) -> None:
    """A write waits for the store's lock while a multi-statement transaction holds it;
    cancelled then, it writes nothing, and the transaction is not disturbed."""
    store = sqlite_store
    game = await new_game(store)
    async with store._transaction():
        write = asyncio.ensure_future(store.update_game(game, 0, status="active"))
        await asyncio.sleep(0.01)
        write.cancel()
        with pytest.raises(asyncio.CancelledError):
            await write
    assert (await store.get_game(game)).status == "lobby"  # type: ignore[union-attr]
    assert (await store.update_game(game, 0, status="active")).version == 1


async def test_another_connections_write_lock_is_waited_for_off_the_loop(db_path: Path) -> None:
    """SQLite only. The store writes on the event loop with no busy timeout; when
    another connection (a maintenance script) holds the write lock, the write waits
    for it on aiosqlite's thread, so the loop goes on meanwhile, and up to the store's
    busy timeout only ("database is locked" then, nothing written)."""
    async with await SQLiteStorage.open(db_path, busy_timeout_ms=2000, inline=True) as store:
        game = await new_game(store)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = asyncio.create_task(ticker())
        write = asyncio.ensure_future(store.update_game(game, 0, status="active"))
        await asyncio.sleep(0.2)
        assert not write.done() and ticks >= 5, "the loop went on while the write waited"
        other.execute("COMMIT")
        assert (await write).version == 1
        ticking.cancel()

        store._busy_timeout_ms = 50
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await store.update_game(game, 1, status="finished")
        other.execute("ROLLBACK")
        other.close()
        assert (await store.get_game(game)).status == "active"  # type: ignore[union-attr]
        assert (await store.update_game(game, 1, status="finished")).version == 2


async def test_the_log_is_checkpointed_off_the_loop(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite only. The writing connection's automatic checkpoint is off (it would
    run on the event loop): once the log passed its size, a checkpoint on a thread
    copies it into the database file."""
    monkeypatch.setattr(sqlite_disk, "CHECKPOINT_BYTES", 1)
    async with await SQLiteStorage.open(db_path, inline=True) as store:
        assert await pragma(store._conn, "wal_autocheckpoint") == 0
        checkpoints = store._checkpointer
        assert checkpoints is not None
        game = await new_game(store)
        assert checkpoints.runs >= 1
        await checkpoints.settled()
        if checkpoints.runs == 1:  # the game's commit found it running: one more
            await store.update_game(game, 0, status="active")
            await checkpoints.settled()
        copy = db_path.with_name("main-file-only.sqlite3")
        copy.write_bytes(db_path.read_bytes())  # the database file without its log
        alone = sqlite3.connect(copy)
        assert alone.execute("SELECT id FROM games").fetchall() == [(game,)]
        alone.close()


async def test_a_checkpoint_starts_once_the_log_grew_again_not_after_every_commit(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite only. A checkpoint lets the writer restart the log, which then shrinks
    (``journal_size_limit``): the next one waits until the log grew past the size
    again. (The log's file used to stay at its largest, and every commit once past it
    started a checkpoint.)"""
    monkeypatch.setattr(sqlite_disk, "CHECKPOINT_BYTES", 256 * 1024)
    async with await SQLiteStorage.open(db_path, inline=True) as store:
        checkpoints = store._checkpointer
        assert checkpoints is not None
        game = await new_game(store)
        commits = 300
        for version in range(commits):
            await store.append_action(game, version, "A1", f"play {version}")
            await checkpoints.settled()  # the next commit finds none running
        assert 1 <= checkpoints.runs <= commits // 8, checkpoints.runs  # was 300
        assert os.stat(f"{db_path}-wal").st_size < 2 * 256 * 1024


async def test_writes_run_on_the_loop_where_a_durable_write_is_fast(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite only. Where the disk's fsync takes microseconds (a memory file system),
    and for an in-memory database, writes run on the event loop, the connection's
    busy timeout zero and SQLite's automatic checkpoint off (``Checkpointer``'s);
    on a disk, in groups on the database's thread."""
    assert 0 < sqlite_disk.durable_write_seconds(str(db_path.parent)) < 1
    assert sqlite_disk.durable_write_seconds(str(db_path / "no such folder")) == float("inf")
    for seconds, inline in ((0.00002, True), (0.0005, False)):
        monkeypatch.setattr(sqlite_storage, "durable_write_seconds", lambda folder, s=seconds: s)
        async with await SQLiteStorage.open(db_path, busy_timeout_ms=1234) as store:
            assert store._inline is inline
            assert (store._checkpointer is not None) is inline
            assert await pragma(store._conn, "busy_timeout") == (0 if inline else 1234)
            assert await pragma(store._conn, "wal_autocheckpoint") == (0 if inline else 1000)
            assert await pragma(store._conn, "synchronous") == 2
            game = await new_game(store)
            async with store._transaction() as conn:  # waits for another's lock too
                assert await pragma(conn, "busy_timeout") == 1234
            assert await pragma(store._conn, "busy_timeout") == (0 if inline else 1234)
            assert (await store.update_game(game, 0, status="active")).version == 1
    async with await SQLiteStorage.open(":memory:") as store:
        assert store._inline and store._checkpointer is None
