"""A move's reply waits for one transaction (issue 16): the action, the moves made
without asking, the next decision's deadline and the seat's clock are written
together before the player is answered, and each settings row is read once per click.
What can wait (the thread's post, the prompts) comes after the reply."""

from __future__ import annotations

import asyncio
import copy
import gc
import logging
import re
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import cogs.publisher
from bot import games
from bot.later import FollowUp, after_answer
from bot.storage import GameNotFound, MessageRecord, MessageRow, SQLiteStorage
from bot.storage.memo import remember_settings, settings_written
from bot.testing import FakeDiscord, FakeUser
from cogs.app import TallyHoBot
from cogs.boundary import Gate
from cogs.context import attachment
from cogs.hand import seat_view
from tests.bot.test_game_flow import make_bot
from tests.bot.test_outbox import THREAD_POST, hand_button, mover, picked
from tests.storage.backends import PostgresServer
from tests.storage.test_sqlite import new_game

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"


class Statements:
    """Every SQL statement the store's SQLite connection runs (its trace callback, on
    the database's thread: whichever way the store sends them)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def watch(self, store: SQLiteStorage) -> None:
        conn = store._conn
        await conn._execute(conn._conn.set_trace_callback, self.record)
        if store._reader is not None:  # the file's reads, on the event loop's thread
            store._reader.set_trace_callback(self.record)

    def record(self, sql: str) -> None:
        self.seen.append(re.sub(r"\s+", " ", sql))

    def since(self, start: int, what: Callable[[str], bool]) -> list[str]:
        return [s for s in self.seen[start:] if what(s)]


@pytest.fixture
async def table(
    tmp_path: Path,
) -> AsyncIterator[tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser]]:
    async with FakeDiscord() as fake:
        bot = make_bot(tmp_path / "db.sqlite3")
        alice, bob = fake.add_member("alice"), fake.add_member("bob")
        try:
            yield fake, bot, alice, bob
        finally:
            await bot.close()


async def test_a_click_commits_once_before_its_reply(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser],
) -> None:
    fake, bot, alice, bob = table
    game_id, thread = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    sql = Statements()
    assert isinstance(bot.service.storage, SQLiteStorage)
    await sql.watch(bot.service.storage)
    at_reply: list[int] = []
    answer = fake.routes[CALLBACK]

    def replied(call: Any) -> Any:
        at_reply.append(len(sql.seen))
        return answer(call)

    fake.routes[CALLBACK] = replied
    start = len(sql.seen)
    await fake.click(user, hand, button)
    assert fake.problems() == []
    [reply] = at_reply
    before = sql.seen[start:reply]
    assert before.count("BEGIN IMMEDIATE") == 1, before  # one transaction before the reply
    writes = [s for s in before if s.split(" ")[0] in ("INSERT", "UPDATE", "DELETE")]
    assert any(s.startswith("INSERT INTO actions") for s in writes)
    assert any(s.startswith("INSERT INTO deadlines") for s in writes)  # the next decision's
    settings = Counter(s for s in before if re.search(r"FROM \w+_settings", s))
    assert not settings, settings  # SQLite: the store holds the rows it read before
    # what waits for after the reply: the thread is told, and marked told
    after = sql.since(reply, lambda s: s.startswith("UPDATE games SET posted_seq"))
    assert len(after) == 1
    game = await bot.service.load(game_id)
    [d] = await bot.service.storage.live_deadlines(game_id)
    assert d.decision_key.startswith(f"{game.record.version}:")


async def test_a_click_on_postgresql_waits_for_one_statement(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL every statement is a round trip. A game's settings, deadlines and
    clocks are read ahead once in a process (here before the first move) and kept: before the player is answered, a move is one statement, which
    writes it if those rows are unchanged and reads them back for the game's next click
    (``tallyho_commit_planned``); nothing else."""
    seen: list[str] = []
    for name in ("execute", "fetch", "fetchrow", "fetchval"):
        method = getattr(asyncpg.connection.Connection, name)

        async def logged(
            self: Any, query: str, *args: Any, _method: Any = method, **kw: Any
        ) -> Any:
            seen.append(re.sub(r"\s+", " ", query).strip())
            return await _method(self, query, *args, **kw)

        monkeypatch.setattr(asyncpg.connection.Connection, name, logged)
    async with FakeDiscord() as fake:
        bot = TallyHoBot(database=postgres_server.new_database(), seed_source=lambda: 7)
        alice, bob = fake.add_member("alice"), fake.add_member("bob")
        try:
            game_id, thread = await picked(fake, bot, alice, bob)
            at_reply: list[int] = []
            answer = fake.routes[CALLBACK]

            def replied(call: Any) -> Any:
                at_reply.append(len(seen))
                return answer(call)

            fake.routes[CALLBACK] = replied
            before: list[list[str]] = []
            clicks_start = len(seen)
            for _ in range(3):
                user = await mover(bot, game_id, alice, bob)
                hand, button = await hand_button(fake, user, game_id, thread)
                start, replies = len(seen), len(at_reply)
                await fake.click(user, hand, button)
                assert fake.problems() == []
                before.append(seen[start : at_reply[replies]])
            for statements in before:
                assert len(statements) == 1, statements
                assert "tallyho_commit_planned" in statements[0]
            assert any(s.startswith("SELECT g.guild_id") for s in seen[:clicks_start])
            again = [s for s in seen[clicks_start:] if s.startswith("SELECT g.guild_id")]
            assert not again  # not read again: each move read back what the next needs
        finally:
            await bot.close()


async def test_a_sqlite_store_holds_the_settings_rows_across_clicks(tmp_path: Path) -> None:
    """Only this process writes a SQLite file: a settings row is read from it once, each
    write replaces what is held, each caller gets a copy of its own, a failed write
    forgets the row, and a read under way while a write ended is not held."""
    store = await SQLiteStorage.open(tmp_path / "h.sqlite3")
    sql = Statements()
    await sql.watch(store)
    reads = lambda: sum("FROM guild_settings" in s for s in sql.seen)  # noqa: E731
    try:
        assert await store.get_guild_settings(5) is None
        assert await store.get_guild_settings(5) is None  # "no row" is held too
        assert reads() == 1
        await store.put_guild_settings(5, {"language": "fr"})
        first = await store.get_guild_settings(5)
        assert first is not None and first.settings == {"language": "fr"}
        first.settings["language"] = "xx"  # a caller's change stays its own
        again = await store.get_guild_settings(5)
        assert again is not None and again.settings == {"language": "fr"}
        assert reads() == 1
        with pytest.raises(GameNotFound):  # a failed write: the row is read again
            await store.put_game_settings(404, {"responses": "fast"})
        assert await store.get_game_settings(404) is None

        held = store.held_settings
        writes = held.writes
        row = again.model_dump()
        held.written(("guild_settings", 5), {**row, "settings": {"language": "de"}})
        held.read(("guild_settings", 5), {**row, "settings": {}}, writes)  # began before it
        mine = await store.get_guild_settings(5)
        assert mine is not None and mine.settings == {"language": "de"}
        read_before = reads()
        settings_written(store, "guild_settings", 5, None)  # a write that may have gone through
        found = await store.get_guild_settings(5)
        assert found is not None and found.settings == {"language": "fr"}  # the database's
        assert reads() == read_before + 1
    finally:
        await store.close()


async def test_a_sqlite_store_holds_the_games_messages_across_clicks(tmp_path: Path) -> None:
    """A game's remembered messages are read once from a SQLite file and then listed
    from memory: every write (set, swap, delete) leaves what is held equal to the
    file, a failed write forgets the game, and a read under way while a write ended
    is not held."""
    path = tmp_path / "m.sqlite3"
    store = await SQLiteStorage.open(path)
    sql = Statements()
    await sql.watch(store)
    reads = lambda: sum(  # noqa: E731
        s.startswith("SELECT") and "FROM messages" in s and "kind =" not in s for s in sql.seen
    )

    async def in_the_file(game_id: int) -> list[MessageRecord]:
        other = await SQLiteStorage.open(path)
        try:
            return await other.list_messages(game_id)
        finally:
            await other.close()

    try:
        game_id = await new_game(store)
        await store.set_message(game_id, "dm:A1:7:1", 70, 1, "hand")
        assert [m.kind for m in await store.list_messages(game_id, "dm:")] == ["dm:A1:7:1"]
        assert await store.list_messages(game_id, "offer:") == []
        assert reads() == 1
        await store.set_message(game_id, "offer:X1", 90, 2)
        await store.swap_messages(
            game_id,
            {"dm:A1:7:1": MessageRow("dm:A1:7:2", 70, 1, "hand, up to date")},
            [MessageRow("dm:X1:8:2", 80, 3, "X1's hand")],
        )
        await store.delete_message(game_id, "offer:X1")
        held = await store.list_messages(game_id)
        assert reads() == 1, "listed from memory"
        assert held == await in_the_file(game_id)
        assert [m.kind for m in held] == ["dm:A1:7:2", "dm:X1:8:2"]
        assert [m.kind for m in await store.list_messages(game_id, ("dm:X", "side:"))] == [
            "dm:X1:8:2"
        ]

        with pytest.raises(GameNotFound):  # a write refused: nothing held changes
            await store.set_message(game_id + 1, "dm:A1:7:2", 70, 9)
        assert await store.list_messages(game_id) == held
        store.held_messages.written(game_id, None)  # a write that may have gone through
        assert await store.list_messages(game_id) == held
        assert reads() == 2, "the game read again"

        store.held_messages.written(game_id, None)
        writes = store.held_messages.writes
        store.held_messages.written(game_id + 1, {})  # another write ended meanwhile
        store.held_messages.keep(game_id, {}, writes)  # so what was read then is not kept
        assert await store.list_messages(game_id) == held
        assert reads() == 3
    finally:
        await store.close()


async def test_a_sqlite_store_holds_the_followers_across_clicks(tmp_path: Path) -> None:
    """A game's (and a campaign's) followers are read once from a SQLite file, in the
    order they started; a follow or an unfollow, even one refused, reads them again."""
    store = await SQLiteStorage.open(tmp_path / "f.sqlite3")
    sql = Statements()
    await sql.watch(store)
    reads = lambda: sum(s.startswith("SELECT user_id FROM follows") for s in sql.seen)  # noqa: E731
    try:
        game_id = await new_game(store)
        assert await store.followers(game_id) == []
        assert await store.followers(game_id) == []
        assert reads() == 1
        assert await store.follow(game_id, 30) and await store.follow(game_id, 20)
        assert await store.followers(game_id) == [30, 20]
        assert await store.followers(game_id) == [30, 20]
        assert reads() == 2
        assert not await store.follow(game_id, 30)  # already: nothing changed, read again
        assert await store.unfollow(game_id, 20)
        assert await store.followers(game_id) == [30]
        with pytest.raises(GameNotFound):
            await store.follow(game_id + 1, 30)
        assert await store.followers(game_id) == [30]
        assert reads() == 3
    finally:
        await store.close()


async def test_the_settings_memo_is_the_clicks_task_only(tmp_path: Path) -> None:
    """Within the task that opened it, a settings row is read once and a write replaces
    it; another task (a timer it started) reads the database. (A store other processes
    write to, as PostgreSQL: it holds no rows across clicks.)"""
    store = await SQLiteStorage.open(tmp_path / "m.sqlite3")
    store.held_settings = None  # type: ignore[assignment]
    try:
        await store.put_guild_settings(5, {"language": "fr"})

        async def click() -> list[Any]:
            remember_settings()
            first = await store.get_guild_settings(5)
            outside = await store.get_guild_settings(5)
            await asyncio.create_task(store_elsewhere())  # not this task: not its memo
            stale = await store.get_guild_settings(5)  # the memo: read once per click
            await store.put_guild_settings(5, {"language": "de"})
            mine = await store.get_guild_settings(5)
            other = await asyncio.create_task(read())  # a task of its own: the database
            assert first is not None and outside is not None
            first.settings["language"] = "xx"  # a caller's change stays its own
            again = await store.get_guild_settings(5)
            return [outside, stale, mine, other, again]

        async def store_elsewhere() -> None:  # another process writes the row
            other = await SQLiteStorage.open(tmp_path / "m.sqlite3")
            await other.put_guild_settings(5, {"language": "es"})
            await other.close()

        async def read() -> Any:
            return await store.get_guild_settings(5)

        found = await asyncio.create_task(click())
        assert [r.settings["language"] for r in found] == ["fr", "fr", "de", "de", "de"]
        fresh = await store.get_guild_settings(5)
        assert fresh is not None and fresh.settings["language"] == "de"
    finally:
        await store.close()


async def test_a_cached_game_holds_no_reference_cycle(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser],
) -> None:
    """The game cache freezes what it holds (``bot.games.keep_out_of_collections``): a
    frozen game must still be freed by reference counting once evicted, so a cached
    game (record, seats, setup, state) holds no reference cycle."""
    fake, bot, alice, bob = table
    game_id, thread = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    await fake.click(user, hand, button)
    game = await bot.service.load(game_id)
    gc.collect()
    gc.disable()
    try:
        held = copy.deepcopy(game)
        assert held.state is not None
        del held
        assert gc.collect() == 0  # nothing was left for the collector: no cycle
    finally:
        gc.enable()


async def test_the_game_cache_freezes_when_no_interaction_is_in_flight(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A freeze while a move runs would keep that move's reference cycles (its view,
    its interaction) for ever: a freeze due during a click waits until the gate has
    nothing in flight, and under load that never pauses it comes all the same after
    ``FREEZE_AT_LATEST`` games, without the full collection first (it would walk every
    click in flight)."""
    fake, bot, alice, bob = table
    game_id, thread = await picked(fake, bot, alice, bob)
    in_flight: list[tuple[int, bool]] = []
    monkeypatch.setattr(
        games,
        "keep_out_of_collections",
        lambda collect=True: in_flight.append((bot.gate.inflight, collect)),
    )
    service = bot.service
    service._unfrozen = games.FREEZE_EVERY - 1  # the click's move makes a freeze due
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    await fake.click(user, hand, button)
    await fake.settle()
    assert in_flight == [(0, True)]  # once, after the click, with nothing in flight
    game = await service.load(game_id)
    service.busy = lambda: True  # a load that never pauses
    for _ in range(games.FREEZE_AT_LATEST):
        service._remember(game)
    assert in_flight == [(0, True), (0, False)]  # the last one froze, busy: no collection


async def test_a_click_in_flight_at_a_freeze_is_freed_all_the_same(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load the game cache freezes while clicks are in flight (``FREEZE_AT_LATEST``):
    whatever a click holds at that moment must still be freed once it is done, so it
    may hold no reference cycle (its interaction and response, the views of the clicked
    message and of the reply, the settings memo and its task: each held one, found by
    ``bench/latency.py``'s count of what the freezes kept). The freeze here comes as the
    click was answered, everything of it still alive; afterwards, with the freeze
    undone, the collector finds nothing the click made left behind."""
    fake, bot, alice, bob = table
    game_id, thread = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    hand, button = await hand_button(fake, user, game_id, thread)
    answered = Gate.answered
    froze: list[int] = []

    def freeze_now(gate: Gate) -> None:
        answered(gate)
        gc.freeze()  # what keep_out_of_collections does, at the worst moment
        froze.append(gate.inflight)

    monkeypatch.setattr(Gate, "answered", freeze_now)
    gc.unfreeze()  # what earlier freezes hold, seen and collected now
    gc.collect()
    before = gc.get_objects()  # held: no id of theirs is reused by the click's objects
    older = {id(o) for o in before}
    try:
        await fake.click(user, hand, button)
        await fake.settle()
    finally:
        gc.unfreeze()
    assert froze == [1]  # frozen while the click was in flight
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kept = Counter(type(o).__qualname__ for o in gc.garbage if id(o) not in older)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kept == Counter()


async def test_clicks_at_once_are_all_answered_and_all_told(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser],
) -> None:
    """A burst of clicks through Discord: every player is answered, and every move's
    public post comes. The service knows the moves are crowded (``crowded``: other
    clicks in flight, whose work goes first while a write waits); a click alone is not."""
    fake, bot, alice, bob = table
    clicks = []
    for _ in range(4):  # one alone, then three at once
        game_id, thread = await picked(fake, bot, alice, bob)
        user = await mover(bot, game_id, alice, bob)
        hand, button = await hand_button(fake, user, game_id, thread)
        clicks.append((user, hand, button, thread))
    storage = bot.service.storage
    commit = storage.commit_move
    crowded: list[bool] = []

    async def watched(*args: Any, **kwargs: Any) -> Any:
        crowded.append(bot.service.crowded())
        return await commit(*args, **kwargs)

    storage.commit_move = watched  # type: ignore[method-assign]
    user, hand, button, _ = clicks.pop()
    await fake.click(user, hand, button)
    assert crowded == [False]  # alone
    start = len(fake.calls)
    for user, hand, button, _ in clicks:
        data = {"custom_id": button, "component_type": 2}
        fake.interact(user, 3, data, int(hand["channel_id"]), message=hand)
    threads = {thread for *_, thread in clicks}

    def told() -> tuple[list[int], set[int]]:
        calls = fake.calls[start:]
        replies = [i for i, c in enumerate(calls) if c.key == CALLBACK]
        return replies, {int(c.args["channel_id"]) for c in calls if c.key == THREAD_POST}

    # A post may wait for the other replies (Gate.replies_first, up to a second): on a
    # loaded machine one settle can end inside that wait.
    for _ in range(20):
        await fake.settle()
        replies, posted = told()
        if len(replies) == 3 and threads <= posted:
            break
    assert fake.problems() == []
    assert len(replies) == 3 and threads <= posted
    assert bot.gate.inflight == 0
    assert crowded[0] is False and True in crowded[1:]


async def test_a_moves_post_lets_the_other_replies_go_first() -> None:
    """``Gate.replies_first``: the public post of a move waits until every other
    interaction let in has its answer (or the limit passed, for one that never gets
    one)."""
    gate, order = Gate(), []
    loop = asyncio.get_running_loop()
    posted: dict[str, float] = {}

    async def click(name: str, thinking: float, answers: bool = True) -> None:
        assert await gate.admit(None)  # type: ignore[arg-type]
        await asyncio.sleep(thinking)  # its move, until the reply
        if answers:
            order.append(f"reply {name}")
            gate.answered()
        await gate.replies_first(limit=0.3)
        order.append(f"post {name}")
        posted[name] = loop.time()

    await asyncio.gather(click("a", 0), click("b", 0.02), click("c", 0.05))
    assert order[:3] == ["reply a", "reply b", "reply c"]
    assert sorted(order[3:]) == ["post a", "post b", "post c"]
    began = loop.time()
    await asyncio.gather(click("a", 0), click("mute", 1.0, answers=False))
    assert 0.3 <= posted["a"] - began < 0.9, "not after the one that never answers"


async def test_follow_ups_run_after_the_interaction_or_at_once_outside_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``bot.later``: in an interaction the gate let in, work left for after the answer
    waits until its task ended, then runs in order in a task the gate counts in flight
    (a failure is logged, the rest still run); outside one, or in a task the
    interaction started, it runs at once. A shutdown waits for the follow-ups of an
    interaction that ends while it waits."""
    gate, order = Gate(), []

    def work(name: str, fails: bool = False) -> FollowUp:
        async def run() -> None:
            await asyncio.sleep(0)
            order.append(name)
            if fails:
                raise RuntimeError(name)

        return run

    await after_answer(work("outside"))
    assert order == ["outside"]

    async def click() -> None:
        assert await gate.admit(None)  # type: ignore[arg-type]
        await after_answer(work("not this"), deferred=work("deferred"))
        await after_answer(work("fails", fails=True))
        await asyncio.create_task(after_answer(work("its own task")))
        await after_answer(work("last"))
        await asyncio.sleep(0.05)
        order.append("answered")

    with caplog.at_level(logging.ERROR, logger="bot.later"):
        task = asyncio.create_task(click())
        await asyncio.sleep(0.01)
        closing = asyncio.create_task(gate.close(grace=5))
        assert await closing == 0
    assert task.done() and gate.inflight == 0
    assert order == ["outside", "its own task", "answered", "deferred", "fails", "last"]
    assert "a follow-up of a change failed" in caplog.text


async def test_the_bot_collects_rarely_while_it_runs(tmp_path: Path) -> None:
    """A collection walks every click in flight made since the last one: while the bot
    runs, the collector starts a young collection only every ``YOUNG_COLLECTION_AFTER``
    allocations, a middle-generation one every ``MIDDLE_COLLECTION_AFTER`` young ones
    (each walks what those let through) and a full one only every
    ``FULL_COLLECTION_AFTER`` middle-generation collections (the game cache's freezes
    collect in full at idle moments); the process's thresholds are put back when it
    stops."""
    before = gc.get_threshold()
    async with FakeDiscord() as fake:
        bot = make_bot(tmp_path / "db.sqlite3")
        try:
            await fake.start(bot)
            assert gc.get_threshold() == (
                games.YOUNG_COLLECTION_AFTER,
                games.MIDDLE_COLLECTION_AFTER,
                games.FULL_COLLECTION_AFTER,
            )
        finally:
            await bot.close()
    assert gc.get_threshold() == before


async def test_a_sent_picture_holds_no_reference_cycle(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser],
) -> None:
    """discord.py stubs a file's ``close`` while sending it and puts it back as an
    attribute of the buffer, a cycle (buffer, its bound ``close``, buffer): a picture in
    flight at a freeze kept its bytes for ever. An ``attachment`` is freed by reference
    counting as soon as it is sent (the collector is off here)."""
    fake, bot, _, _ = table
    await fake.start(bot)
    channel = bot.get_partial_messageable(fake.channel_id)
    file = attachment(b"\x89PNG picture", "sky.png", description="the sky")
    buffer = weakref.ref(file.fp)
    gc.collect()
    gc.disable()
    try:
        await channel.send(file=file)
        assert "close" not in vars(file.fp)  # discord.py's stub was taken away
        del file
        assert buffer() is None
    finally:
        gc.enable()
    sent = fake.sent_to(fake.channel_id)[-1]
    assert sent["attachments"][0]["filename"] == "sky.png"


async def test_a_dm_costs_one_request_once_its_channel_is_known(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser],
) -> None:
    """The bot remembers each player's DM channel (``TallyHoBot.dm_channel``): a DM
    after the first is the message alone, with no fetch of the user and no new
    channel, even once discord.py's own caches forgot both; the least recent player
    is forgotten past ``DM_CHANNELS``."""
    fake, bot, alice, bob = table
    await fake.start(bot)
    requests = lambda: [c.key for c in fake.calls]  # noqa: E731
    before = len(requests())
    assert await cogs.publisher.send_dm(bot, alice.id, "first", None) is not None
    assert requests()[before:].count("POST /users/@me/channels") == 1
    state = bot._connection
    state._private_channels.clear()
    state._private_channels_by_user.clear()
    state._users.clear()
    before = len(requests())
    assert await cogs.publisher.send_dm(bot, alice.id, "second", None) is not None
    assert requests()[before:] == ["POST /channels/{channel_id}/messages"]
    assert [m["content"] for m in fake.dms(alice)] == ["first", "second"]
    bot._dm_channels.size = 1  # as if DM_CHANNELS were 1
    assert await cogs.publisher.send_dm(bot, bob.id, "to bob", None) is not None
    state._private_channels.clear()
    state._private_channels_by_user.clear()
    before = len(requests())
    assert await cogs.publisher.send_dm(bot, alice.id, "third", None) is not None
    assert requests()[before:].count("POST /users/@me/channels") == 1, "alice was forgotten"
    assert [m["content"] for m in fake.dms(alice)][-1] == "third"


async def test_a_hand_sent_by_dm_lets_its_view_go(
    table: tuple[FakeDiscord, TallyHoBot, FakeUser, FakeUser],
) -> None:
    """A hand sent by DM lets its view go as every sent view does
    (``cogs.context.forget_view``): its items cleared, so no reference cycle between
    them outlives the send (a freeze meanwhile would have kept it for good)."""
    fake, bot, alice, bob = table
    game_id, _ = await picked(fake, bot, alice, bob)
    user = await mover(bot, game_id, alice, bob)
    game = await bot.service.load(game_id)
    seat = game.seats_of(user.id)[0]
    view = seat_view(bot.service, game, seat)
    assert view is not None and view.children
    assert await cogs.publisher.send_dm(bot, user.id, "your hand", view) is not None
    assert view.children == [] and view.is_finished()
    assert fake.dms(user)[-1]["components"], "sent with its buttons"
