"""Moving a server: ``python -m bot export``/``import`` copy every table from SQLite to
PostgreSQL and back, ids included, and the finished games verify on the copy; a
non-empty target is refused; ``python -m bot backup`` copies a SQLite file while
another connection writes to it, consistently."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.move import verify_finished
from bot.storage import CampaignEntryKind, CampaignStatus, GameStatus, SQLiteStorage
from bot.storage.models import RatingRecord
from bot.storage.transfer import (
    TABLES,
    TargetNotEmpty,
    backup_sqlite,
    copy_database,
    read_all,
    table_names,
)
from tests.storage.backends import PostgresServer

FIXTURES = Path(__file__).parent / "fixtures"
GUILD = 111_111_111_111_111_111
CHANNEL = 333_333_333_333_333_333
HOST = 444_444_444_444_444_444
PLAYER = 555_555_555_555_555_555


async def _fill(path: Path) -> None:
    """The previous release's database (a finished, an active, an aborted game and a
    lobby, with deadlines, clocks, messages, settings) plus a campaign with a mission
    whose log holds an undone action, settings of every kind and followers."""
    shutil.copy(FIXTURES / "release-0.1.sqlite3", path)
    store = await SQLiteStorage.open(str(path))
    try:
        await store.put_guild_settings(GUILD, {"language": "fr"})
        await store.put_user_settings(PLAYER, {"dm": False})
        await store.add_content_pack(
            GUILD, name="aces", file="aces.yaml", digest="d1", document="pack: aces\n",
            uploaded_by=HOST,
        )  # fmt: skip
        await store.add_content_pack(
            GUILD, name="aces", file="aces.yaml", digest="d2", document="pack: aces # é\n",
            uploaded_by=HOST,
        )  # fmt: skip
        campaign = await store.create_campaign(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, system="zero",
            campaign="guadalcanal", setup={"scale": 1}, seed=77, status=CampaignStatus.ACTIVE,
        )  # fmt: skip
        await store.put_campaign_member(campaign.id, HOST, side="allied", display_name="Host")
        await store.put_campaign_member(campaign.id, PLAYER, side="japanese", display_name="P")
        await store.follow_campaign(campaign.id, PLAYER)
        mission = await store.create_game(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, system="zero", ruleset="zero",
            seed=5, options={"note": "é"}, status=GameStatus.ACTIVE, thread_id=999,
            campaign_id=campaign.id, mission=1,
        )  # fmt: skip
        version = await store.append_action(mission.id, 0, "a", "pass", snapshot={"n": 1})
        version = await store.append_action(mission.id, version, "a", "play 3")
        await store.append_action(mission.id, version, "a", "undo 2")
        await store.put_game_settings(mission.id, {"orders": ["x"]})
        await store.follow(mission.id, PLAYER)
        await store.set_message(mission.id, "status", CHANNEL, 123_456)
        await store.append_campaign_entry(
            campaign.id, kind=CampaignEntryKind.DECISION, entry="fly 1", side="allied"
        )
        await store.append_campaign_entry(
            campaign.id, kind=CampaignEntryKind.OUTCOME, entry='{"won": "allied"}',
            game_id=mission.id,
        )  # fmt: skip
        (finished,) = await store.list_games(statuses=[GameStatus.FINISHED])
        rating = RatingRecord(
            system="zero", guild_id=GUILD, user_id=PLAYER, mu=26.5, sigma=7.9, games=1, wins=1,
            losses=0,
        )  # fmt: skip
        await store.rate_game(0, finished.id, [rating])
    finally:
        await store.close()


@pytest.fixture
def original(tmp_path: Path) -> str:
    path = tmp_path / "original.sqlite3"
    asyncio.run(_fill(path))
    return str(path)


def test_table_list_is_the_schema(postgres_server: PostgresServer, tmp_path: Path) -> None:
    """A table added by a migration but not to TABLES is never copied: this fails."""
    sqlite_tables = asyncio.run(table_names(str(tmp_path / "empty.sqlite3")))
    postgres_tables = asyncio.run(table_names(postgres_server.new_database()))
    assert sqlite_tables == postgres_tables == set(TABLES)


def test_round_trip_through_postgres_equals_the_original(
    original: str, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    postgres = postgres_server.new_database()
    back = str(tmp_path / "back.sqlite3")
    there = asyncio.run(copy_database(original, postgres))
    again = asyncio.run(copy_database(postgres, back))
    rows = asyncio.run(read_all(original))
    assert there.rows == again.rows == {table: len(rows[table]) for table in TABLES}
    assert all(rows[table] for table in TABLES), "every table has rows to copy"
    assert asyncio.run(read_all(postgres)) == rows
    assert asyncio.run(read_all(back)) == rows
    with sqlite3.connect(original) as a, sqlite3.connect(back) as b:  # byte for byte
        for table in TABLES:
            assert (
                a.execute(f"SELECT * FROM {table}").fetchall()
                == b.execute(f"SELECT * FROM {table}").fetchall()
            ), table
    assert asyncio.run(verify_finished(postgres)) == (1, [])
    assert asyncio.run(verify_finished(back)) == (1, [])


def test_postgres_hands_out_ids_after_the_copied_ones(
    original: str, postgres_server: PostgresServer
) -> None:
    from bot.storage import open_storage

    postgres = postgres_server.new_database()
    asyncio.run(copy_database(original, postgres))

    async def new_game_id() -> int:
        store = await open_storage(postgres)
        try:
            game = await store.create_game(
                guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, system="zero",
                ruleset="zero", seed=1,
            )  # fmt: skip
            return game.id
        finally:
            await store.close()

    copied = max(row["id"] for row in asyncio.run(read_all(original))["games"])
    assert asyncio.run(new_game_id()) == copied + 1


def test_postgres_plans_on_the_copied_rows(original: str, postgres_server: PostgresServer) -> None:
    """The copy leaves the planner statistics of every table it filled (as after a
    ``pg_restore``), not the none of a new table, which autovacuum would only gather
    later: plans made meanwhile (the prepared reads of every click) walk the wrong
    index."""
    import asyncpg

    postgres = postgres_server.new_database()
    asyncio.run(copy_database(original, postgres))

    async def unanalyzed() -> list[str]:
        conn = await asyncpg.connect(postgres)
        try:
            rows = await conn.fetch(  # reltuples -1: never analyzed nor vacuumed
                "SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples < 0 "
                "AND relnamespace = current_schema()::regnamespace"
            )
            return [r["relname"] for r in rows]
        finally:
            await conn.close()

    assert asyncio.run(unanalyzed()) == []


def test_a_non_empty_target_is_refused(original: str, tmp_path: Path) -> None:
    target = str(tmp_path / "target.sqlite3")
    asyncio.run(copy_database(original, target))
    before = asyncio.run(read_all(target))
    with pytest.raises(TargetNotEmpty, match="already holds data"):
        asyncio.run(copy_database(original, target))
    assert asyncio.run(read_all(target)) == before


def test_the_command_line_copies_verifies_and_refuses(
    original: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / "cli.sqlite3")
    assert main(["export", "--from", original, "--to", target]) == 0
    out = capsys.readouterr().out
    assert "copied 5 games, " in out and ", 1 campaigns" in out
    assert "verified 1 of 1 finished games" in out
    assert main(["import", "--from", original, "--to", target]) == 2
    assert "nothing copied: the target already holds data" in capsys.readouterr().err


def test_a_backup_while_another_connection_writes_is_consistent(
    original: str, tmp_path: Path
) -> None:
    """A writer commits pairs of rows (one transaction each) throughout the backup:
    the copy holds whole pairs only, and passes its integrity check."""
    with sqlite3.connect(original) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
    stop = threading.Event()

    def write() -> None:
        conn = sqlite3.connect(original, timeout=10, isolation_level=None)
        n = 1
        while not stop.is_set():
            conn.execute("BEGIN IMMEDIATE")
            for user in (n, n + 1):
                conn.execute(
                    "INSERT INTO user_settings (user_id, settings, updated_at) "
                    "VALUES (?, '{}', '2024-01-01T00:00:00.000000+00:00')",
                    (user,),
                )
            conn.execute("COMMIT")
            n += 2
        conn.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        backups = [tmp_path / f"backup-{i}.sqlite3" for i in range(3)]
        for path in backups:
            backup_sqlite(original, str(path))
    finally:
        stop.set()
        writer.join()
    for path in backups:
        with sqlite3.connect(path) as copy:
            users = copy.execute("SELECT count(*) FROM user_settings WHERE user_id < 1000")
            assert users.fetchone()[0] % 2 == 0
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert main(["backup", "--from", original, str(backups[0])]) == 2  # never overwrites
