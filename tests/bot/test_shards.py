"""Several bot processes, each with its own shards (bot/config.py, cogs/app.py,
cogs/outbox.py): the shard settings and their refusals, a sharded client through the
offline Discord, and a game's catching up done only by the process whose shards hold
its guild (start-up, retries, the sweep that tells what another process left untold)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

import cogs.outbox
import cogs.publisher
from bot.__main__ import main
from bot.config import Settings, parse_shards
from bot.games import GAME_CACHE
from bot.storage import DEFAULT_POOL_SIZE, PostgresStorage, utc_now
from bot.testing import FakeDiscord, FakeUser
from cogs.app import TallyHoBot, client
from tests.bot.test_game_flow import SEED
from tests.bot.test_outbox import crash_in, hand_button, mover, picked, told
from tests.storage.backends import PostgresServer

PG = "postgresql://tallyho@db/tallyho"


def settings(**env: str) -> Settings:
    return Settings(_env_file=None, **env)  # type: ignore[call-arg]


# -- the settings ----------------------------------------------------------------------------


def test_shard_ids_are_written_as_lists_and_ranges() -> None:
    assert parse_shards("0") == (0,)
    assert parse_shards("3,0-1") == (0, 1, 3)
    assert parse_shards(" 2 - 3 , 5 ") == (2, 3, 5)
    for bad, why in (("a", "write shard ids"), ("3-1", "backwards"), ("0,0-1", "twice")):
        with pytest.raises(ValueError, match=why):
            parse_shards(bad)


def test_unset_shards_mean_one_process_running_every_shard() -> None:
    s = settings()
    assert s.shard_ids is None and s.shard_count is None and s.poll_seconds == 30
    every = settings(TALLYHO_SHARD_COUNT="2")  # one process, two shards: SQLite is fine
    assert every.shard_ids is None and every.shard_count == 2
    also = settings(TALLYHO_SHARDS="0-1", TALLYHO_SHARD_COUNT="2")
    assert also.shard_ids == (0, 1)


def test_some_of_the_shards_run_on_postgresql_only() -> None:
    s = settings(TALLYHO_SHARDS="1", TALLYHO_SHARD_COUNT="2", TALLYHO_DATABASE=PG)
    assert s.shard_ids == (1,) and s.shard_count == 2
    refusals = {
        "needs TALLYHO_SHARD_COUNT": {"TALLYHO_SHARDS": "0"},
        "run from 0 to 1": {"TALLYHO_SHARDS": "2", "TALLYHO_SHARD_COUNT": "2"},
        "a SQLite file serves one process": {"TALLYHO_SHARDS": "0", "TALLYHO_SHARD_COUNT": "2"},
        "greater than 0": {"TALLYHO_POLL_SECONDS": "0"},
    }
    for message, env in refusals.items():
        with pytest.raises(ValidationError, match=message):
            settings(**env)


def test_python_m_bot_refuses_a_shard_of_several_on_sqlite(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file here
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("TALLYHO_SHARDS", "0")
    monkeypatch.setenv("TALLYHO_SHARD_COUNT", "2")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "Invalid configuration" in err and "postgresql://" in err


# -- the client ------------------------------------------------------------------------------


def test_the_client_runs_the_configured_shards_and_one_syncs_the_commands() -> None:
    first = client(settings(TALLYHO_SHARDS="0", TALLYHO_SHARD_COUNT="2", TALLYHO_DATABASE=PG))
    second = client(
        settings(
            TALLYHO_SHARDS="1",
            TALLYHO_SHARD_COUNT="2",
            TALLYHO_DATABASE=PG,
            TALLYHO_POLL_SECONDS="5",
        )
    )
    assert (first.shard_ids, first.shard_count, first._sync) == ([0], 2, True)
    assert (second.shard_ids, second.shard_count, second._sync) == ([1], 2, False)
    assert second.poll_interval == timedelta(seconds=5) and second.database == PG
    alone = client(settings())
    assert alone.shard_ids is None and alone.shard_count is None and alone._sync


async def test_the_game_cache_holds_as_many_games_as_the_operator_sets(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``TALLYHO_GAME_CACHE``: how many games the service holds in memory (at least 16)."""
    assert settings().game_cache == GAME_CACHE
    with pytest.raises(ValidationError, match="greater than or equal to 16"):
        settings(TALLYHO_GAME_CACHE="8")
    bot = client(settings(TALLYHO_GAME_CACHE="64", TALLYHO_DATABASE=str(tmp_path / "c.db")))
    await fake.start(bot)
    assert bot.service._cache_size == 64
    await bot.close()


async def test_the_postgresql_pool_holds_as_many_connections_as_the_operator_sets(
    fake: FakeDiscord, postgres_server: PostgresServer
) -> None:
    """``TALLYHO_DATABASE_POOL``: the connections to PostgreSQL a process keeps at most
    (at least one)."""
    assert settings().database_pool == DEFAULT_POOL_SIZE
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        settings(TALLYHO_DATABASE_POOL="0")
    url = postgres_server.new_database()
    bot = client(settings(TALLYHO_DATABASE_POOL="2", TALLYHO_DATABASE=url))
    await fake.start(bot)
    try:
        store = bot.service.storage
        assert isinstance(store, PostgresStorage)
        assert store._pool.get_max_size() == 2
    finally:
        await bot.close()


def holding(fake: FakeDiscord) -> int:
    """The shard of two that holds the fake's guild."""
    return (fake.guild_id >> 22) % 2


def sharded(db: Path, shard: int) -> TallyHoBot:
    """One process of two (the database is a SQLite file here: the refusal is the
    settings', and one test process runs one bot at a time)."""
    return TallyHoBot(database=str(db), seed_source=lambda: SEED, shard_ids=[shard], shard_count=2)


async def test_a_sharded_client_holds_its_shards_guilds_only(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    mine = holding(fake)
    bot = sharded(tmp_path / "a.sqlite3", mine)
    await fake.start(bot)
    assert bot.shard_ids == [mine] and bot.shard_count == 2
    assert bot.owns_guild(fake.guild_id) and bot.get_guild(fake.guild_id) is not None
    assert not bot.owns_guild(fake.guild_id + (1 << 22))
    await bot.close()
    other = sharded(tmp_path / "b.sqlite3", 1 - mine)
    await fake.start(other)
    assert not other.owns_guild(fake.guild_id) and other.get_guild(fake.guild_id) is None
    await other.close()
    every = TallyHoBot(database=str(tmp_path / "c.sqlite3"))
    await fake.start(every)
    assert every.shard_ids is None and every.owns_guild(fake.guild_id + (1 << 22))
    await every.close()


# -- the outbox ------------------------------------------------------------------------------


async def untold_move(fake: FakeDiscord, bot: TallyHoBot) -> tuple[int, int, int]:
    """A game whose last move was committed and never posted (its process was killed
    between the two): its id, its thread, and the thread's message count."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    game_id, thread = await picked(fake, bot, alice, bob)
    user: FakeUser = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    before = len(fake.sent_to(thread))
    crash_in(cogs.publisher, "tell")
    await fake.click(user, hand, button)
    posted, last = await told(bot, game_id)
    assert posted < last and len(fake.sent_to(thread)) == before
    return game_id, thread, before


async def test_only_the_process_holding_the_guild_catches_its_games_up(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "game.sqlite3"
    mine = holding(fake)
    bot = sharded(db, mine)
    game_id, thread, before = await untold_move(fake, bot)
    _, last = await told(bot, game_id)
    await bot.close()

    other = sharded(db, 1 - mine)  # starts: the game is not its guild's
    await fake.start(other)
    assert (await told(other, game_id))[0] < last
    monkeypatch.setattr(cogs.outbox, "RETRY_DELAYS", (0.0,))
    other.outbox.failed(game_id)  # a post of that game failed here: no retry here
    await fake.settle()
    assert await other.outbox.sweep(utc_now() + timedelta(days=1)) == 0
    assert len(fake.sent_to(thread)) == before and (await told(other, game_id))[0] < last
    await other.close()

    owner = sharded(db, mine)
    await fake.start(owner)
    assert await told(owner, game_id) == (last, last)
    assert len(fake.sent_to(thread)) == before + 1, "told once, by the owner"
    await owner.close()


async def test_the_owners_sweep_tells_what_another_process_left_untold(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = sharded(tmp_path / "game.sqlite3", holding(fake))
    game_id, thread, before = await untold_move(fake, bot)  # as if another process moved
    _, last = await told(bot, game_id)
    assert await bot.outbox.sweep() == 0  # changed just now: its poster may be at it
    assert await bot.outbox.sweep(utc_now() + cogs.outbox.SETTLE) == 1
    assert await told(bot, game_id) == (last, last)
    assert len(fake.sent_to(thread)) == before + 1
    assert await bot.outbox.sweep(utc_now() + cogs.outbox.SETTLE) == 0
    assert len(fake.sent_to(thread)) == before + 1, "told once"
    await bot.close()
