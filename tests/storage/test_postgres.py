"""Tests of what is PostgreSQL's own in the store: its migrations (kept in step with
SQLite's), the append-only triggers, the choice of backend, and the serialisation of
writes between processes (two stores = two connection pools, as two bot processes or
shards would have). The behaviour both backends share is tested on both by the rest of
this folder."""

from __future__ import annotations

import asyncio
import inspect
import math
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import (
    ConstraintViolation,
    GameNotFound,
    MigrationError,
    PostgresStorage,
    SQLiteStorage,
    StaleGameVersion,
    StalePlan,
    Storage,
    open_storage,
    utc_now,
)
from bot.storage.base import DeadlineClosed
from bot.storage.memo import remember_settings
from bot.storage.migrate import discover
from bot.storage.migrate_postgres import (
    SCHEMA_TABLE,
    migrate,
    postgres_migrations,
    schema_version,
)
from bot.storage.models import (
    DeadlineChanges,
    DeadlineOpening,
    DeadlineSettlement,
    LogEntry,
)
from bot.storage.postgres import _Ahead, _numbered
from tests.storage.backends import PostgresServer

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


@pytest.fixture
def url(postgres_server: PostgresServer) -> str:
    """A fresh, empty PostgreSQL database (not migrated yet)."""
    return postgres_server.new_database()


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[PostgresStorage, PostgresStorage]]:
    """Two stores on one database, each with its own pool: two processes."""
    first = await PostgresStorage.open(url)
    second = await PostgresStorage.open(url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def new_game(store: Storage) -> int:
    game = await store.create_game(
        guild_id=1, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=7
    )
    return game.id


async def warmed_and_logged(store: PostgresStorage) -> list[str]:
    """The statements the store's only connection runs from now (``pool_size=1``), once
    a click on a game of its own had asyncpg look the composite types up (once a
    connection: they would be the first statements logged)."""
    warm = await new_game(store)

    async def warm_up() -> None:
        remember_settings()
        await store.get_game_settings(warm)
        await store.commit_move(warm, 0, [LogEntry("A1", "fly")], replan=True)

    await asyncio.create_task(warm_up())
    seen: list[str] = []
    async with store._pool.acquire() as conn:
        conn.add_query_logger(lambda record: seen.append(record.query))
    return seen


async def planned_click(store: PostgresStorage, game_id: int, seen: list[str]) -> list[str]:
    """A click's move by seat A1, planned on what it reads (``replan``: ``StalePlan``
    fails the test): the statements it ran (``seen``: :func:`warmed_and_logged`)."""
    game = await store.get_game(game_id)
    assert game is not None
    start = len(seen)

    async def move() -> None:
        remember_settings()
        await store.get_game_settings(game_id)
        await store.live_deadlines(game_id)
        await store.get_seat_clock(game_id, "A1")
        entries = [LogEntry("A1", "fly")]
        await store.commit_move(game_id, game.version, entries, replan=True)

    await asyncio.create_task(move())
    return seen[start:]


def read_then_planned(statements: list[str]) -> bool:
    """A click that read its game ahead, then wrote its move planned on it."""
    return (
        len(statements) == 2
        and statements[0].startswith("\nSELECT g.guild_id")
        and "tallyho_commit_planned" in statements[1]
    )


def test_every_method_of_the_protocol_is_written_with_sqlites_signature() -> None:
    """A method left out would inherit the Protocol's body and answer None: each store
    writes every one itself or inherits it from what both share (``SQLStorage``)."""
    methods = [n for n, v in vars(Storage).items() if inspect.isfunction(v) and n[0] != "_"]
    assert "append_action" in methods
    for name in methods:
        for store in (PostgresStorage, SQLiteStorage):
            owner = next(c for c in store.__mro__ if name in vars(c))
            assert owner is not Storage, f"{store.__name__}.{name}"
        postgres = inspect.signature(getattr(PostgresStorage, name))
        assert postgres == inspect.signature(getattr(SQLiteStorage, name)), name


def test_the_shared_reads_placeholders_are_numbered_for_postgresql() -> None:
    """The reads both stores share are written with SQLite's ``?``: PostgreSQL gets
    them numbered, in order, and a text with none unchanged."""
    assert _numbered("SELECT 1 FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT 1 FROM t WHERE a = $1 AND b IN ($2, $3)"
    )
    assert _numbered("SELECT version FROM ratings_cursor") == "SELECT version FROM ratings_cursor"
    assert _numbered("? ") == "$1 "


# -- choosing the backend ----------------------------------------------------------------


async def test_tallyho_database_names_the_backend(url: str, tmp_path: Path) -> None:
    for location in (url, url.replace("postgresql://", "postgres://", 1)):
        store = await open_storage(location)
        try:
            assert isinstance(store, PostgresStorage)
        finally:
            await store.close()
    store = await open_storage(str(tmp_path / "tallyho.sqlite3"))
    try:
        assert isinstance(store, SQLiteStorage)
    finally:
        await store.close()


async def test_the_password_stays_out_of_the_stores_repr(url: str) -> None:
    async with await PostgresStorage.open(url) as store:
        assert repr(store) == f"<PostgresStorage {url!r}>"  # no password: shown whole
    with_password = "postgresql://tally:s3cret@db.example/tallyho"
    unopened = PostgresStorage(None, with_password, utc_now)  # type: ignore[arg-type]
    assert "s3cret" not in repr(unopened) and "tally:***@db.example" in repr(unopened)


async def test_a_connection_goes_back_to_the_pool_without_a_round_trip(url: str) -> None:
    """A read outside a transaction is one statement: the pool puts its connection back
    without asyncpg's default reset query (``RESET ALL`` ...: the store changes no
    session setting), and a transaction a caller left open is still rolled back."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        seen: list[str] = []
        async with store._pool.acquire() as conn:  # the pool's only connection
            conn.add_query_logger(lambda record: seen.append(record.query))
            await conn.execute("BEGIN")  # left open: a cancelled caller's transaction
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at)"
                " VALUES (7, '{}', now())"
            )
        assert await store.get_guild_settings(7) is None  # rolled back on release
        await store.get_guild_settings(8)
        reads = [q for q in seen if "guild_settings" in q and q.startswith("SELECT")]
        assert len(reads) == 2
        assert not [q for q in seen if "RESET ALL" in q or "UNLISTEN" in q]


async def test_the_pool_keeps_its_connections(url: str) -> None:
    """Never retired after a number of queries or an idle time: a closed connection's
    transport is a reference cycle, which the game cache's freezes (``gc.freeze``) kept
    for good when the connection had been frozen alive (``bench/latency.py`` counted
    its objects)."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        async with store._pool.acquire() as conn:
            first = conn._con
        for guild in range(50):
            await store.get_guild_settings(guild)
        async with store._pool.acquire() as conn:
            assert conn._con is first
        assert store._pool._max_queries == math.inf
        assert store._pool._max_inactive_connection_lifetime == 0


async def test_a_click_reads_its_game_ahead_in_one_statement(url: str) -> None:
    """In a click (a task with a settings memo), the first read of a game's settings
    brings in the same statement what the move goes on to read: the server's and the
    players' settings (a player with none too), the live deadlines (handed out once) and
    the seat clocks (a seat with none too), each as its own read finds it. Once the
    click writes anything, deadlines and clocks are read from the database again."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        game_id = await new_game(store)
        await store.put_seat(game_id, "A1", "A", 11, "Alice")
        await store.put_seat(game_id, "B1", "B", 12, "Bob")
        await store.put_guild_settings(1, {"language": "fr"})
        await store.put_user_settings(11, {"quiet": "x"})
        await store.put_game_settings(game_id, {"responses": "fast"})
        await store.init_seat_clock(game_id, "A1", time_bank_seconds=300)
        await store.open_deadline(
            game_id=game_id, seat="A1", kind="play", decision_key="1:play", user_id=11,
            created_at=T0, duration_seconds=3600, bank_seconds=0, due_at=T0 + H,
            expires_at=T0 + H, reminder_ats=[T0 + H / 2],
        )  # fmt: skip

        async def reads() -> list[object]:
            return [
                await store.get_game_settings(game_id),
                await store.get_guild_settings(1),
                await store.get_user_settings(11),
                await store.get_user_settings(12),
                await store.live_deadlines(game_id),
                await store.get_seat_clock(game_id, "A1"),
                await store.get_seat_clock(game_id, "B1"),
            ]

        expected = await reads()  # outside a click: each its own statement
        seen: list[str] = []
        other = await new_game(store)

        async def warm_up() -> None:  # asyncpg looks the composite types up, once
            remember_settings()
            await store.get_game_settings(other)

        await asyncio.create_task(warm_up())

        async def click() -> None:
            remember_settings()
            async with store._pool.acquire() as conn:  # the pool's only connection
                conn.add_query_logger(lambda record: seen.append(record.query))
            assert await reads() == expected
            assert len(seen) == 1, seen  # all in one statement
            assert await store.live_deadlines(game_id) == expected[4]  # handed out once
            assert len(seen) == 2
            assert (await store.get_seat_clock(game_id, "B1")).updated_at is None
            assert len(seen) == 2  # the clocks stay until the click writes
            await store.init_seat_clock(game_id, "B1", time_bank_seconds=500)
            written = len(seen)
            assert (await store.get_seat_clock(game_id, "B1")).time_bank_seconds == 500
            assert len(seen) == written + 1  # read again after the write

        await asyncio.create_task(click())
        assert expected[4] and expected[0] is not None and expected[3] is None


async def test_a_click_plans_on_what_the_games_last_move_left_until_it_changes(
    url: str,
) -> None:
    """What a click read ahead of its game is kept for the game's next click, as the
    click's move left it (read back in the move's statement): the next click reads
    nothing before its move. A move planned on it (``replan``) is written only if those
    rows are unchanged: when another process wrote one (a player's settings, a seat's
    clock, a deadline), the move writes nothing (``StalePlan``) and the next click reads
    them again. A move without ``replan`` is written as planned, and what it changed is
    read again too."""
    store = await PostgresStorage.open(url, pool_size=1)
    other = await PostgresStorage.open(url)  # another process
    try:
        game_id = await new_game(store)
        await store.put_seat(game_id, "A1", "A", 11, "Alice")
        await store.put_seat(game_id, "B1", "B", 12, "Bob")
        game = await store.get_game(game_id)
        assert game is not None
        version = game.version
        seen = await warmed_and_logged(store)

        async def click(action: str, *, replan: bool = True, opens: str | None = None) -> list[str]:
            """A click's move: its statements."""
            nonlocal version
            start = len(seen)
            remember_settings()
            await store.get_game_settings(game_id)
            await store.get_user_settings(11)
            await store.live_deadlines(game_id)
            await store.get_seat_clock(game_id, "B1")
            opening = () if opens is None else (
                DeadlineOpening(
                    seat=opens, kind="play", decision_key=f"{version + 1}:play",
                    user_id=12, created_at=T0, duration_seconds=3600, bank_seconds=60,
                    due_at=T0 + H, expires_at=T0 + H, reminder_ats=(T0 + H / 2,),
                    seat_bank_seconds=60,
                ),
            )  # fmt: skip
            changes = DeadlineChanges(open=opening, at=T0)
            entries = [LogEntry("A1", action)]
            await store.commit_move(game_id, version, entries, deadlines=changes, replan=replan)
            version += 1
            return seen[start:]

        def planned(statements: list[str]) -> bool:
            return len(statements) == 1 and "tallyho_commit_planned" in statements[0]

        first = await asyncio.create_task(click("fly", opens="B1"))
        assert len(first) == 2 and first[0].startswith("\nSELECT g.guild_id"), first
        assert planned(first[1:])
        # The next click plans on what the move read back: its deadline, B1's new clock.
        assert planned(await asyncio.create_task(click("draw")))
        [deadline] = await store.live_deadlines(game_id)

        async def held() -> tuple[object, object]:
            remember_settings()
            await store.get_game_settings(game_id)
            return await store.live_deadlines(game_id), await store.get_seat_clock(game_id, "B1")

        start = len(seen)
        assert await asyncio.create_task(held()) == (
            [deadline],
            await store.get_seat_clock(game_id, "B1"),
        )
        assert len(seen) == start + 1  # only the read outside a click
        actions = ["fly", "draw"]
        for write in (
            lambda: other.put_user_settings(11, {"quiet": "x"}),
            lambda: other.init_seat_clock(game_id, "A1", time_bank_seconds=9),
            lambda: other.mark_reminders_sent([(deadline.id, 0, 1)], T0 + H / 2),
        ):
            await write()
            with pytest.raises(StalePlan):
                await asyncio.create_task(click("climb"))
            assert [a.action for a in await other.load_actions(game_id)] == actions
            again = await asyncio.create_task(click("climb"))  # read again, then written
            assert again[0].startswith("\nSELECT g.guild_id") and planned(again[1:])
            actions.append("climb")
            assert [a.action for a in await other.load_actions(game_id)] == actions
        assert planned(await asyncio.create_task(click("dive")))
        # Without replan, the move is written as planned, and the next click reads again.
        plain = await asyncio.create_task(click("roll", replan=False))
        assert len(plain) == 1 and "tallyho_commit_planned" in plain[0]
        again = await asyncio.create_task(click("loop"))
        assert again[0].startswith("\nSELECT g.guild_id") and planned(again[1:])
    finally:
        await store.close()
        await other.close()


async def test_a_write_of_this_process_outside_a_move_has_the_next_click_read_again(
    url: str,
) -> None:
    """What a process itself writes of a game's seats, deadlines or seat clocks outside
    a move (a game's start opening its first deadlines, a reminder sent, a vacation, a
    seat taken) forgets what it kept for the game's next click: that click reads the
    rows again and its move is written at the first try, never refused as planned on
    rows that changed (``StalePlan``) and planned again."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        game_id = await new_game(store)
        await store.put_seat(game_id, "A1", "A", 11, "Alice")
        seen = await warmed_and_logged(store)

        async def click() -> list[str]:
            return await planned_click(store, game_id, seen)

        assert read_then_planned(await click())
        assert len(await click()) == 1  # kept: no read before the move

        def opening(key: str) -> dict[str, object]:
            return dict(
                game_id=game_id, seat="A1", kind="play", decision_key=key, user_id=11,
                created_at=T0, duration_seconds=3600, bank_seconds=0, due_at=T0 + H,
                expires_at=T0 + 2 * H, reminder_ats=[T0 + H / 2],
            )  # fmt: skip

        deadline, _ = await store.open_deadline(**opening("start"))  # type: ignore[arg-type]
        assert read_then_planned(await click())
        writes = [
            lambda: store.init_seat_clock(game_id, "A1", time_bank_seconds=300),
            lambda: store.set_vacation(game_id, "A1", T0, T0 + H),
            lambda: store.mark_reminders_sent([(deadline.id, 0, 1)], T0 + H / 2),
            lambda: store.reschedule_deadline(
                deadline.id, due_at=T0 + 2 * H, expires_at=T0 + 3 * H, reminder_ats=[]
            ),
            lambda: store.settle_deadline(deadline.id, T0 + H, acted=False),
            lambda: store.open_deadline(**opening("again")),  # type: ignore[arg-type]
            lambda: store.cancel_game_deadlines(game_id, T0 + H),
            lambda: store.put_seat(game_id, "B1", "B", 12, "Bob"),
            lambda: store.remove_seat(game_id, "B1"),
        ]
        for write in writes:
            assert len(await click()) == 1
            await write()
            assert read_then_planned(await click())
        # Writing nothing keeps it: a clock already there, a count already at zero.
        await store.init_seat_clock(game_id, "A1", time_bank_seconds=300)
        await store.reset_missed(game_id, "A1")
        assert len(await click()) == 1


async def test_a_game_read_ahead_after_its_change_costs_its_next_click_no_read(
    url: str,
) -> None:
    """``prefetch``, once a write outside a move dropped what a game's next click reads
    (a start opening its first deadline, a reminder sent, a seat taken): the next click
    reads nothing before its move, and its move is written at the first try. A game
    whose rows are kept is not read again; a game that does not exist keeps nothing;
    a write of the game while the prefetch reads has it keep nothing (it read the rows
    before the write), and what a move read back meanwhile is kept over it."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        game_id = await new_game(store)
        await store.put_seat(game_id, "A1", "A", 11, "Alice")
        seen = await warmed_and_logged(store)
        deadline, _ = await store.open_deadline(
            game_id=game_id, seat="A1", kind="play", decision_key="start", user_id=11,
            created_at=T0, duration_seconds=3600, bank_seconds=0, due_at=T0 + H,
            expires_at=T0 + 2 * H, reminder_ats=[T0 + H / 2],
        )  # fmt: skip
        for write in (
            lambda: store.mark_reminders_sent([(deadline.id, 0, 1)], T0 + H / 2),
            lambda: store.put_seat(game_id, "B1", "B", 12, "Bob"),
            lambda: store.put_user_settings(11, {"quiet": "x"}),
        ):
            await write()
            start = len(seen)
            await store.prefetch(game_id)
            assert len(seen) == start + 1 and seen[-1].startswith("\nSELECT g.guild_id")
            await store.prefetch(game_id)  # kept: not read again
            assert len(seen) == start + 1
            statements = await planned_click(store, game_id, seen)
            assert len(statements) == 1 and "tallyho_commit_planned" in statements[0]
        await store.prefetch(10**9)  # no such game
        assert 10**9 not in store._ahead

        # A write of the game while the prefetch reads: what it read is not kept.
        await store.put_seat(game_id, "B1", "B", 12, "Bob")
        reading = asyncio.create_task(store.prefetch(game_id))
        await asyncio.sleep(0)  # the read is sent
        assert game_id in store._prefetching
        await store.init_seat_clock(game_id, "B1", time_bank_seconds=60)
        await reading
        assert game_id not in store._ahead and not store._prefetching
        assert read_then_planned(await planned_click(store, game_id, seen))
        # What a move read back meanwhile (kept) is newer than what the prefetch read.
        kept = store._ahead.get(game_id)
        assert kept is not None
        await store.put_seat(game_id, "B1", "B", 12, "Bob")
        reading = asyncio.create_task(store.prefetch(game_id))
        await asyncio.sleep(0)
        store._keep_ahead(game_id, kept)
        await reading
        assert store._ahead.get(game_id) is kept


async def test_two_processes_planning_on_what_they_kept_of_one_game_never_both_write(
    url: str,
) -> None:
    """Two processes each keep what they read of one game. The first to write moves the
    game on; the other's move, planned on what it kept, writes nothing (the version
    moved on: ``StaleGameVersion``) and it reads the game's rows again for the next
    click, which plans on the deadline the first one's move opened."""
    first = await PostgresStorage.open(url)
    second = await PostgresStorage.open(url)
    try:
        game_id = await new_game(first)
        await first.put_seat(game_id, "A1", "A", 11, "Alice")
        game = await first.get_game(game_id)
        assert game is not None

        async def click(store: PostgresStorage, version: int, opens: bool) -> list[object]:
            remember_settings()
            await store.get_game_settings(game_id)
            live = await store.live_deadlines(game_id)
            opening = (
                DeadlineOpening(
                    seat="A1", kind="play", decision_key=f"{version + 1}:play", user_id=11,
                    created_at=T0, duration_seconds=3600, bank_seconds=0, due_at=T0 + H,
                    expires_at=T0 + H, reminder_ats=(), seat_bank_seconds=None,
                ),
            ) if opens else ()  # fmt: skip
            changes = DeadlineChanges(open=opening, at=T0)
            entries = [LogEntry("A1", f"move {version}")]
            await store.commit_move(game_id, version, entries, deadlines=changes, replan=True)
            return list(live)

        v = game.version
        for store in (first, second):  # each reads the game ahead, and keeps it
            assert await asyncio.create_task(click(store, v, opens=False)) == []
            v += 1
        with pytest.raises(StaleGameVersion):  # first kept v - 1: second moved it on
            await asyncio.create_task(click(first, v - 1, opens=True))
        assert await asyncio.create_task(click(first, v, opens=True)) == []  # read again
        with pytest.raises(StaleGameVersion):
            await asyncio.create_task(click(second, v, opens=False))
        [opened] = await asyncio.create_task(click(second, v + 1, opens=False))
        assert opened.seat == "A1" and opened.decision_key == f"{v + 1}:play"
        actions = [a.action for a in await first.load_actions(game_id)]
        assert actions == [f"move {i}" for i in range(game.version, v + 2)]
    finally:
        await first.close()
        await second.close()


async def test_what_a_move_reads_back_is_kept_only_under_the_rows_it_was_checked_on(
    url: str,
) -> None:
    """The stamp a move returns is taken after its writes, in a statement of its own: a
    settings row or a seat changed between the check and it would be stamped but not
    held (the store holds the rows it checked), so nothing is kept; a change of the
    deadlines and clocks only (what the move wrote, read back with the stamp) is."""
    async with await PostgresStorage.open(url) as store:
        used = _Ahead(
            guild_id=1, game=None, guild=None, players=(), users={}, deadlines=(),
            clocks={}, stamp=(8 * 100 + 1, 8 * 200 + 3, 8 * 300 + 5),
        )  # fmt: skip
        store._read_back(7, used, {"ahead": [801, 1603, 8 * 400 + 5], "live": [], "clocks": []})
        kept = store._ahead.get(7)
        assert kept is not None and kept.stamp == (801, 1603, 8 * 400 + 5)
        store._read_back(7, used, {"ahead": [801, 8 * 201 + 3, 3205], "live": [], "clocks": []})
        assert store._ahead.get(7) is None


async def test_a_move_with_no_deadline_of_its_own_is_one_statement(url: str) -> None:
    """A player's move (actions, deadlines settled and opened, the result) is one call
    of ``tallyho_commit_planned``: one statement, no ``BEGIN`` or ``COMMIT``; a default's
    move, which closes its claimed deadline, keeps the transaction."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        game_id = await new_game(store)
        other = await new_game(store)  # asyncpg looks the composite types up, once
        await store.commit_move(other, 0, [LogEntry("A1", "fly")])
        seen: list[str] = []
        async with store._pool.acquire() as conn:
            conn.add_query_logger(lambda record: seen.append(record.query))
        done = await store.commit_move(
            game_id, 0, [LogEntry("A1", "fly"), LogEntry("B1", "draw")], result={"winner": "A"}
        )
        assert (done.game.version, done.game.last_seq, done.game.status.value) == (
            3,
            2,
            "finished",
        )
        assert len(seen) == 1 and "tallyho_commit_planned" in seen[0], seen
        with pytest.raises(StaleGameVersion):
            await store.commit_move(game_id, 0, [LogEntry("A1", "fly")])
        with pytest.raises(GameNotFound):
            await store.commit_move(game_id + 1000, 0, [LogEntry("A1", "fly")])
        assert [a.action for a in await store.load_actions(game_id)] == ["fly", "draw"]


async def test_a_process_of_the_previous_release_still_writes_its_moves(url: str) -> None:
    """``tallyho_commit_move``, as the release before 0015 calls it, writes a move with
    the statements of ``tallyho_commit_planned`` (one body for both), and returns no
    row for a stale version."""
    async with await PostgresStorage.open(url) as store:
        game_id = await new_game(store)
        conn = await asyncpg.connect(url)
        try:
            call = (
                "SELECT game, opened, closed FROM tallyho_commit_move($1, $2, NULL, $3, $3, "
                "$4, $5, $6, '{}', '{}', '{}', false, '{}', '[]', NULL)"
            )
            args = (["A1"], ["fly"], [None])
            row = await conn.fetchrow(call, game_id, 0, T0, *args)
            assert row is not None and row["closed"] == [] and row["opened"] == []
            assert await conn.fetchrow(call, game_id, 0, T0, *args) is None  # stale
        finally:
            await conn.close()
        assert [a.action for a in await store.load_actions(game_id)] == ["fly"]


async def test_a_process_still_running_when_another_migrates_keeps_playing(url: str) -> None:
    """A newer process added columns to the tables a move reads whole while this one
    ran (its connections know the old row types): a click still reads ahead, and a
    move still written is read back, not reported failed (the call was done)."""
    async with await PostgresStorage.open(url, pool_size=1) as store:
        game_id = await new_game(store)
        await store.put_seat(game_id, "A1", "A", 11, "Alice")
        old, _ = await store.open_deadline(
            game_id=game_id, seat="A1", kind="play", decision_key="0:play", user_id=11,
            created_at=T0, duration_seconds=3600, bank_seconds=0, due_at=T0 + H,
            expires_at=T0 + H, reminder_ats=[],
        )  # fmt: skip

        async def click() -> object:
            remember_settings()
            await store.get_game_settings(game_id)
            return await store.live_deadlines(game_id)

        assert await asyncio.create_task(click()) == [old]  # the row types now known
        await store.commit_move(game_id, 1, [LogEntry("A1", "fly")])  # the seat made it 1

        async def migrated(column: str) -> None:  # by another process
            conn = await asyncpg.connect(url)
            try:
                for table in ("games", "deadlines", "seat_clocks", "game_settings"):
                    await conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER")
            finally:
                await conn.close()

        await migrated("later")
        assert await asyncio.create_task(click()) == [old]  # read again, one by one
        await store.commit_move(game_id, 2, [LogEntry("A1", "turn")])  # the new types known
        await migrated("later_still")
        opening = DeadlineOpening(
            seat="B1", kind="play", decision_key="2:play", user_id=12, created_at=T0,
            duration_seconds=3600, bank_seconds=60, due_at=T0 + H, expires_at=T0 + H,
            reminder_ats=(), seat_bank_seconds=60,
        )  # fmt: skip
        changes = DeadlineChanges(
            settle=(DeadlineSettlement(old.id, acted=True),), open=(opening,), at=T0 + H
        )
        done = await store.commit_move(game_id, 3, [LogEntry("A1", "draw")], deadlines=changes)
        assert (done.game.version, done.game.last_seq) == (4, 3)
        assert done.closed == (old.id,)
        [new] = done.opened
        assert new == await store.get_deadline(new.id) and new.decision_key == "2:play"
        again = await store.commit_move(game_id, 4, [LogEntry("B1", "fly")])
        assert again.game.version == 5  # the types known again: the call as usual
        assert await asyncio.create_task(click()) == [new]


# -- migrations ---------------------------------------------------------------------------


def test_both_dialects_have_the_same_migrations() -> None:
    sqlite = [(m.version, m.name) for m in discover()]
    postgres = [(m.version, m.name) for m in discover(postgres_migrations())]
    assert postgres == sqlite
    for migration in discover(postgres_migrations()):
        assert migration.sql.startswith(f"-- {migration.name} (PostgreSQL)")


async def sqlite_columns(tmp_path: Path) -> dict[str, list[tuple[str, bool]]]:
    """Every table of a migrated SQLite database: its columns, in order, and whether
    each may be NULL (a primary key column never is)."""
    path = tmp_path / "schema.sqlite3"
    async with await SQLiteStorage.open(path):
        pass
    tables: dict[str, list[tuple[str, bool]]] = {}
    async with aiosqlite.connect(path) as conn:
        names = await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        for (name,) in names:
            info = await conn.execute_fetchall(f"PRAGMA table_info({name})")
            tables[name] = [(col, not (notnull or pk)) for _, col, _, notnull, _, pk in info]
    return tables


async def postgres_columns(url: str) -> dict[str, list[tuple[str, bool]]]:
    """The same, read from PostgreSQL's information_schema (the version table left out)."""
    async with await PostgresStorage.open(url):
        pass
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, is_nullable FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name <> $1 "
            "ORDER BY table_name, ordinal_position",
            SCHEMA_TABLE,
        )
    finally:
        await conn.close()
    tables: dict[str, list[tuple[str, bool]]] = {}
    for row in rows:
        tables.setdefault(row["table_name"], []).append(
            (row["column_name"], row["is_nullable"] == "YES")
        )
    return tables


async def test_both_dialects_make_the_same_tables_and_columns(url: str, tmp_path: Path) -> None:
    sqlite = await sqlite_columns(tmp_path)
    postgres = await postgres_columns(url)
    assert sorted(postgres) == sorted(sqlite)
    for table, columns in sqlite.items():
        assert postgres[table] == columns, table


async def test_a_fresh_database_migrates_once_to_the_last_version(url: str) -> None:
    latest = len(discover(postgres_migrations()))
    # Two processes starting at once on a fresh database: each migration applies once.
    stores = await asyncio.gather(PostgresStorage.open(url), PostgresStorage.open(url))
    for store in stores:
        await store.close()
    conn = await asyncpg.connect(url)
    try:
        assert await schema_version(conn) == latest
        assert await migrate(conn) == []  # idempotent
        assert await conn.fetchval(f"SELECT count(*) FROM {SCHEMA_TABLE}") == 1
    finally:
        await conn.close()


async def test_0005_sets_the_games_of_an_older_database_as_posted(url: str, tmp_path: Path) -> None:
    """Games played before the outbox were posted: their watermark starts at their
    last seq (SQLite's twin: the release database in test_campaigns.py)."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in discover(postgres_migrations()):
        if migration.version < 5:
            (folder / migration.name).write_text(migration.sql)
    conn = await asyncpg.connect(url)
    try:
        assert await migrate(conn, folder) == [1, 2, 3, 4]
        await conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_id, system, ruleset, seed, "
            "version, last_seq, created_at, updated_at) "
            "VALUES (1, 2, 3, 'dif', 'zero', 4, 7, 7, now(), now())"
        )
        assert (await migrate(conn))[0] == 5  # and any later migrations
        assert await conn.fetchval("SELECT posted_seq FROM games") == 7
    finally:
        await conn.close()


async def test_a_failing_migration_rolls_back_completely(url: str, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("-- 0001: one table\nCREATE TABLE first (x INT);\n")
    (folder / "0002_broken.sql").write_text(
        "-- 0002: a table, a row, then a syntax error\n"
        "CREATE TABLE second (y INT);\n"
        "INSERT INTO first (x) VALUES (1);\n"
        "CREAT TABLE oops (z INT);\n"
    )
    conn = await asyncpg.connect(url)
    try:
        with pytest.raises(MigrationError, match=r"0002_broken\.sql"):
            await migrate(conn, folder)
        assert await schema_version(conn) == 1
        assert await conn.fetchval("SELECT to_regclass('second')") is None
        assert await conn.fetchval("SELECT count(*) FROM first") == 0
        assert not conn.is_in_transaction()

        (folder / "0002_broken.sql").write_text("-- 0002: fixed\nCREATE TABLE second (y INT);\n")
        assert await migrate(conn, folder) == [2]
        assert await conn.fetchval("SELECT to_regclass('second') IS NOT NULL")
    finally:
        await conn.close()


async def test_a_database_newer_than_the_bot_is_refused(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE TABLE {SCHEMA_TABLE} (version INTEGER NOT NULL)")
        await conn.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES (99)")
    finally:
        await conn.close()
    with pytest.raises(MigrationError, match="newer"):
        await PostgresStorage.open(url)


# -- append-only logs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE actions SET action = 'play 13'",
        "DELETE FROM actions",
        "TRUNCATE actions",
        "UPDATE campaign_log SET entry = 'retreat'",
        "DELETE FROM campaign_log",
        "TRUNCATE campaign_log",
    ],
)
async def test_the_database_refuses_to_rewrite_the_logs(url: str, statement: str) -> None:
    async with await PostgresStorage.open(url) as store:
        game_id = await new_game(store)
        await store.append_action(game_id, 0, "A1", "play 12")
        campaign = await store.create_campaign(
            guild_id=1, channel_id=2, host_id=3, system="lockedon", campaign="c", setup={}, seed=1
        )
        await store.append_campaign_entry(campaign.id, kind="decision", entry="strike")
        conn = await asyncpg.connect(url)
        try:
            with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
                await conn.execute(statement)
        finally:
            await conn.close()
        assert [a.action for a in await store.load_actions(game_id)] == ["play 12"]
        assert [e.entry for e in await store.load_campaign_log(campaign.id)] == ["strike"]


async def test_constraint_failures_are_named_as_sqlite_names_them(url: str) -> None:
    async with await PostgresStorage.open(url) as store:
        await store.create_game(
            guild_id=1, channel_id=2, host_id=3, system="dif", ruleset="zero", seed=7, thread_id=5
        )
        other = await new_game(store)
        with pytest.raises(ConstraintViolation, match=r"^UNIQUE constraint failed"):
            await store.update_game(other, 0, thread_id=5)
        campaign = await store.create_campaign(
            guild_id=1, channel_id=2, host_id=3, system="lockedon", campaign="c", setup={}, seed=1
        )
        with pytest.raises(ConstraintViolation, match=r"^CHECK constraint failed"):
            await store.append_campaign_entry(campaign.id, kind="outcome", entry="{not json")


# -- two processes ------------------------------------------------------------------------


async def test_two_processes_appending_to_one_game_never_share_a_version(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """Each process appends as the bot does: read the version, append, and on a stale
    version read again. Every append lands exactly once, at its own seq."""
    first, second = two
    game_id = await new_game(first)
    per_writer = 15

    async def writer(store: PostgresStorage, name: str) -> list[int]:
        versions: list[int] = []
        while len(versions) < per_writer:
            game = await store.get_game(game_id)
            assert game is not None
            try:
                versions.append(
                    await store.append_action(game_id, game.version, name, f"play {len(versions)}")
                )
            except StaleGameVersion:
                continue
        return versions

    names = ("A1", "A2", "B1", "B2")
    results = await asyncio.gather(
        *(writer((first, second)[i % 2], n) for i, n in enumerate(names))
    )
    won = sorted(v for versions in results for v in versions)
    assert won == list(range(1, per_writer * len(names) + 1))  # each version won once
    actions = await second.load_actions(game_id)
    assert [a.seq for a in actions] == won
    for name in names:
        mine = [a.action for a in actions if a.seat == name]
        assert mine == [f"play {n}" for n in range(per_writer)]
    game = await first.get_game(game_id)
    assert game is not None and (game.version, game.last_seq) == (len(won), len(won))


async def test_two_processes_with_the_same_version_one_wins_each_time(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    first, second = two
    game_id = await new_game(first)
    version = 0
    for turn in range(10):
        outcomes = await asyncio.gather(
            first.append_action(game_id, version, "A1", f"a{turn}", snapshot={"turn": turn}),
            second.append_action(game_id, version, "B1", f"b{turn}", snapshot={"turn": turn}),
            return_exceptions=True,
        )
        wins = [o for o in outcomes if isinstance(o, int)]
        assert wins == [version + 1], outcomes
        assert sum(isinstance(o, StaleGameVersion) for o in outcomes) == 1, outcomes
        version = wins[0]
    assert [a.seq for a in await first.load_actions(game_id)] == list(range(1, 11))


async def test_two_claimers_never_claim_the_same_deadline(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    first, second = two
    game_id = await new_game(first)
    opened = []
    for n in range(40):
        deadline, _ = await first.open_deadline(
            game_id=game_id,
            seat=f"A{n % 4 + 1}",
            kind="play",
            decision_key=f"{n}:play",
            user_id=None,
            created_at=T0,
            duration_seconds=3600,
            bank_seconds=0,
            due_at=T0 + H,
            expires_at=T0 + H,
            reminder_ats=[],
        )
        opened.append(deadline.id)
    now = T0 + 2 * H

    async def claimer(store: PostgresStorage) -> list[int]:
        due = await store.due_deadlines(now)
        claims = [(d.id, d.attempts) for d in due]
        return [d.id for d, _ in await store.claim_deadlines(claims, now, now + H)]

    one, other = await asyncio.gather(claimer(first), claimer(second))
    assert not set(one) & set(other)
    assert sorted(one + other) == sorted(opened)
    clocks = await first.list_seat_clocks(game_id)
    assert [c.missed_total for c in clocks] == [10, 10, 10, 10]  # each miss counted once

    # Applying the default actions from both processes: each deadline's action once.
    async def apply(store: PostgresStorage, deadline_id: int) -> str:
        while True:
            game = await store.get_game(game_id)
            assert game is not None
            try:
                await store.append_deadline_action(deadline_id, game.version, "pass")
                return "applied"
            except StaleGameVersion:
                continue
            except DeadlineClosed:
                return "closed"

    outcomes = await asyncio.gather(
        *(apply(store, d) for d in opened[:10] for store in (first, second))
    )
    assert sorted(outcomes) == ["applied"] * 10 + ["closed"] * 10
    assert len(await second.load_actions(game_id)) == 10


# -- the whole bot ------------------------------------------------------------------------


@pytest.mark.slow
async def test_the_bot_plays_the_same_game_on_postgresql(url: str) -> None:
    """The offline demo (the real cogs on an in-memory Discord) with TALLYHO_DATABASE
    a PostgreSQL URL: the thread reads exactly as on SQLite, result included."""
    from cogs.demo import play_demo

    on_postgres = await play_demo(28, None, database=url)
    on_sqlite = await play_demo(28, None)
    assert on_postgres == on_sqlite
    assert on_postgres[-1].startswith("RESULT: ") and "unfinished" not in on_postgres[-1]
    async with await PostgresStorage.open(url) as store:
        [game] = await store.list_games()
        assert game.status.value == "finished" and len(await store.load_actions(game.id)) > 1


async def test_claims_crossing_seat_clocks_all_land(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """Each process claims a deadline of seat A and one of seat B, in crossed orders of
    their seat clocks: PostgreSQL may break the deadlock by rolling one batch back,
    which is then claimed again. Every deadline is claimed once, every miss counted."""
    first, second = two
    game_id = await new_game(first)
    rounds = 3
    for seat in ("A1", "B1"):
        await first.init_seat_clock(game_id, seat, time_bank_seconds=0)
    for turn in range(rounds):
        ids = []
        for seat in ("A1", "B1", "B1", "A1"):  # first takes ids 1 and 3, second 2 and 4
            deadline, _ = await first.open_deadline(
                game_id=game_id,
                seat=seat,
                kind="play",
                decision_key=f"{turn}:{len(ids)}",
                user_id=None,
                created_at=T0,
                duration_seconds=60,
                bank_seconds=0,
                due_at=T0 + H,
                expires_at=T0 + H,
                reminder_ats=[],
            )
            ids.append(deadline.id)
        now = T0 + 2 * H
        one, other = await asyncio.gather(
            first.claim_deadlines([(ids[0], 0), (ids[2], 0)], now, now + H),
            second.claim_deadlines([(ids[1], 0), (ids[3], 0)], now, now + H),
        )
        assert [d.id for d, _ in one] == [ids[0], ids[2]]
        assert [d.id for d, _ in other] == [ids[1], ids[3]]
    clocks = await first.list_seat_clocks(game_id)
    assert [(c.seat, c.missed_total) for c in clocks] == [("A1", 2 * rounds), ("B1", 2 * rounds)]
