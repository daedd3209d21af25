"""Latency of a click through the offline Discord, with many games open (issues 14, 16).

    python bench/latency.py [--games 1000] [--advance 30] [--clicks 1000] [--burst 100]
                            [--database sqlite|postgresql|both] [--cached 10000]
                            [--statements N] [--profile DIR]

The real bot (``cogs.app.TallyHoBot``) on the offline Discord (``bot.testing``), in
one process, as ``python -m bot`` runs it. Times are wall-clock, from the interaction
reaching discord.py (its gateway parser of ``INTERACTION_CREATE``) to the bot's answer
reaching the transport (the interaction's callback, or the message that follows a
deferral, timed as the request arrives, ``Call.at``). The harness's own work (building
the interaction, copying and decoding what it is sent) is outside both ends, so it is
not timed as the bot's.

1. **The floor**: a slash command that answers at once (a command added for the
   bench): discord.py's own round trip, with no work of the bot. It is timed amid the
   sequential moves below, once after each move (its post told, before the bench
   picks the next click): the floor and the moves then share the same seconds of the
   run and the same state of the CPU's caches, which a shared machine's neighbours
   and the work between two clicks change. Timed back to back before the moves (as
   before, ``--floor`` times: printed too), the same command warms the caches for
   itself alone, and its p99 moved between 0.10 and 0.21 ms from one run of one
   commit to the next (its p50 between 0.05 and 0.08), against 0.17-0.23 ms amid the
   moves in eight runs (p50 0.09-0.12): a ratio to it said more about that moment
   than about the bot. The ratios are printed against both.
2. **Sequential moves**: ``--games`` Zero! 1v1 games open at once (opened through
   ``/dogfight new``, ``join`` and ``start``), each then played on by a random number
   of moves below ``--advance`` (clicked as below, untimed: a server's games are at
   every point of a fight, not all at their first altitude picks), then ``--clicks``
   moves, one at a time,
   each a random legal action of the seat to act in a random game, clicked as its
   action button (``th:a:…``). Moves that pass the turn post a picture: their reply
   and their picture are timed separately (the picture from the same click to the
   thread message carrying it). The loop thread's CPU time for each reply is
   printed too (``time.thread_time``, against the floor's): the bot's work without
   the waits for a CPU that a loaded machine adds to the wall time, to compare two
   versions of the bot on a shared machine. The requests the bot made to Discord
   are counted per move: Discord lets a bot make about 50 a second in all
   (interaction answers apart), a ceiling on the moves a second of all its
   processes together.
3. **A burst**: ``--burst`` clicks on as many games at once (chosen first, then sent
   in one go), and the moves a second one process sustains (every game clicked once,
   all at once, until every move is told in its thread, not only answered: the bot
   answers a burst's players first, ``cogs.boundary.Gate.replies_first``).
   Where the loop's thread spent the bursts' wall time is printed too: running (its
   CPU time), idle (in the selector), and waiting, neither: for the interpreter's lock
   while the threads drawing pictures hold it (each SQLite statement and socket call
   releases it), or for a CPU on a loaded machine.
   Then **the same requests alone**: as many clicks at once on a bare discord.py
   client of a fresh offline Discord, each making the requests a move of the bot made
   (as often, with as much content, as many buttons and files: :func:`discord_alone`),
   and nothing else. Its CPU a move is what a move costs discord.py and the harness
   whatever the bot does: the bursts' CPU a move less it is the bot's own work, and
   ``1000 / it`` the most moves a second any bot making those requests could sustain
   in one process on this machine.
4. **Garbage collection**: the longest collector pause (``gc.callbacks``) during the
   moves above (in the bursts, those that began with clicks in flight apart from
   those at a moment with none, when the game cache freezes after a full collection),
   then with ``--cached`` games held in the service's cache.

Every click is checked afterwards: its move must have been applied (the game moved
past the version its button showed). A click that did not go through is left out of
the sequential figures, counted, and its answer printed; the bench then exits non-zero,
since its figures would time error answers as moves.

With ``--statements N``, the bench prints a move's statements during the sequential
moves. On PostgreSQL the server counts them (``pg_stat_statements``, loaded for the
run) and the bench prints the N that took it the longest, per move: the server's share
of a move, the statements ``tallyho_commit_planned`` runs included, apart from the round
trips. On SQLite, which runs in the bot's process (its time is the loop's), the store's
connections name each statement they run (``SQLiteStorage.trace``) and the bench prints
how many a move ran, how many of them began a write transaction, and the N run most
often, per move: a move's statements are what is left to cut on SQLite (each costs
more in the bot than alone: ``docs/architecture.md``). The trace's own call at each
statement is then in the sequential moves' times: take those from a run without it.
``--server-statements`` is the option's older name.

With ``--profile DIR``, the moves one at a time and the bursts run under ``cProfile``
and their statistics are written to ``DIR/<database>-moves.pstats`` and
``DIR/<database>-bursts.pstats`` (read them with ``python -m pstats``): where the
loop's CPU goes, the harness's own work included. The profiler slows every Python
call, the bot's more than the database's: take the figures from a run without it.
The bursts' are also printed by layer (:func:`layers_of`: discord.py, the offline
Discord, the engine, the bot's storage, the database driver, asyncio, the kernel's
sockets...), per move and as a share of the loop's work: how much of a move is the
bot's to cut, and how much the library's, the harness's or the machine's. (The moves
one at a time are not: the bench's own waits between two of them are in their profile.)

Prints p50 and p99 of each, and their ratio to the floor's p99. Goals (issues 14 and
16): a move's reply p99 at most 10 times the floor's p99 (the replies of both kinds of
move together: printed apart too, each kind's p99 is nearer its largest value); a burst of 100 clicks p99 under
100 ms; at least 1,000 moves a second with SQLite; no collector pause over 50 ms with
10,000 games cached.

Both databases measure the bot, not the disk. PostgreSQL is a server this bench starts
(``initdb`` in a temporary folder, as the storage tests do: durability off), its
tables analyzed once the games are open, as autovacuum would have done on a running
server (:func:`analyzed`). The SQLite
database goes in ``/dev/shm`` (in memory) when the machine has it, where the bot's
durable commit (``synchronous=FULL``) costs no fsync, and the store writes on the
event loop's thread (``bot.storage.sqlite_disk``); ``--dir`` puts it elsewhere, e.g.
on the disk a server would use, where the store writes on the database's thread, in
groups. The disk's own cost is printed first: a small durable commit there, which a
move's reply waits for once (a burst's moves share one, by group commit). Not part of
the test suite: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import cProfile
import gc
import io
import os
import pstats
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.games import LoadedGame
from bot.storage import GameStatus
from bot.storage.sqlite import SQLiteStorage
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import wait_for_new_game
from cogs.app import TallyHoBot
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
THREAD_POST = "POST /channels/{channel_id}/messages"
THREAD_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


@dataclass
class Clicks:
    """When each timed interaction was sent, answered, and its picture posted."""

    sent: dict[str, float] = field(default_factory=dict)
    answered: dict[str, asyncio.Future[float]] = field(default_factory=dict)
    picture_of: dict[int, str] = field(default_factory=dict)
    """A thread's id -> the token of the click whose picture it awaits."""
    pictures: dict[str, float] = field(default_factory=dict)
    told: dict[int, float] = field(default_factory=dict)
    """A game's id -> when the bot last marked it told (``Storage.mark_posted``)."""
    received: dict[str, float] = field(default_factory=dict)
    """A token -> when discord.py's gateway parser received its interaction."""
    cpu_received: dict[str, float] = field(default_factory=dict)
    """A token -> the loop thread's CPU time then (``time.thread_time``)."""
    cpu: dict[str, float] = field(default_factory=dict)
    """A token -> the loop thread's CPU time from its receipt to its answer, in ms:
    the bot's work for it, without the time the thread waited for a CPU (which its
    wall time counts on a loaded machine; caches and cores shared with other work
    still slow it)."""
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    """A token -> the body of its answer (what a failed click was told)."""
    requests: Counter[str] = field(default_factory=Counter)
    """The requests the bot made to Discord, by route."""
    sizes: dict[str, Counter[str]] = field(default_factory=dict)
    """A route -> what its requests carried in all: characters of content, components,
    files and their bytes (:func:`shape`: the traffic :func:`discord_alone` repeats)."""

    def count(self, route: str, body: Any, files: list[tuple[str, bytes]]) -> None:
        """One request to ``route``, counted with what it carried."""
        self.requests[route] += 1
        self.sizes.setdefault(route, Counter()).update(shape(body, files))

    def traffic(self) -> dict[str, Counter[str]]:
        """The requests counted so far, by route: how many (``requests``) and what they
        carried in all (a copy)."""
        return {
            route: Counter(requests=n, **self.sizes.get(route, {}))
            for route, n in self.requests.items()
        }

    def reset(self) -> None:
        """Count the requests from here."""
        self.requests.clear()
        self.sizes.clear()

    def reply_ms(self, token: str) -> float:
        return (self.answered[token].result() - self.sent[token]) * 1000

    def picture_ms(self, token: str) -> float | None:
        at = self.pictures.get(token)
        return None if at is None else (at - self.sent[token]) * 1000


def watch(fake: FakeDiscord, bot: TallyHoBot, clicks: Clicks) -> None:
    """Time the interactions and their answers and pictures: wrap discord.py's gateway
    parser of interactions (where a click reaches discord.py) and the fake's routes
    (the transport; a request is timed when it reached it, ``Call.at``, before the
    fake's own work on it)."""
    routes = fake.routes
    parsers = bot._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def received(data: dict[str, Any]) -> None:
        clicks.received[data["token"]] = time.perf_counter()
        clicks.cpu_received[data["token"]] = time.thread_time()
        parse(data)

    parsers["INTERACTION_CREATE"] = received
    new_call = fake.new_call

    def counted(method: str, path: str, *args: Any) -> Any:
        _, body, files, _ = args
        clicks.count(f"{method} {path}", body, files)
        return new_call(method, path, *args)

    fake.new_call = counted  # type: ignore[method-assign]
    storage = bot.service.storage
    mark_posted = storage.mark_posted

    async def marked(game_id: int, seq: int, *, end: bool = False) -> None:
        await mark_posted(game_id, seq, end=end)
        clicks.told[game_id] = time.perf_counter()

    storage.mark_posted = marked  # type: ignore[method-assign]

    def answered(call: Any, body: Any) -> None:
        token = call.args["webhook_token"]
        clicks.replies.setdefault(token, dict(body or {}))
        future = clicks.answered.get(token)
        if future is not None and not future.done():
            future.set_result(call.at)
            start = clicks.cpu_received.pop(token, None)
            if start is not None:
                clicks.cpu[token] = (call.cpu - start) * 1000

    def on_callback(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def wrapped(call: Any) -> Any:
            result = handler(call)
            kind = int((call.json or {}).get("type", 0))
            if kind not in (5, 6):  # a deferral is not the answer: what follows it is
                answered(call, (call.json or {}).get("data"))
            return result

        return wrapped

    def on_webhook(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def wrapped(call: Any) -> Any:
            result = handler(call)
            answered(call, call.json)
            return result

        return wrapped

    def on_post(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def wrapped(call: Any) -> Any:
            result = handler(call)
            token = clicks.picture_of.get(int(call.args["channel_id"]))
            if call.files and token is not None:
                clicks.pictures.setdefault(token, call.at)
            return result

        return wrapped

    routes[CALLBACK] = on_callback(routes[CALLBACK])
    routes[EDIT_ORIGINAL] = on_webhook(routes[EDIT_ORIGINAL])
    routes[FOLLOWUP] = on_webhook(routes[FOLLOWUP])
    routes[THREAD_POST] = on_post(routes[THREAD_POST])


def button_row(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The components of a message showing the button a click's ``data`` names (its
    ``custom_id``): discord.py finds the clicked component on the message."""
    button = {"type": 2, "style": 2, "label": "move", "custom_id": data["custom_id"]}
    return [{"type": 1, "components": [button]}]


def shape(body: Any, files: list[tuple[str, bytes]]) -> Counter[str]:
    """What one request carried: characters of content, components (each button or
    menu of its rows), files and their bytes. An interaction's answer carries its
    message in ``data``."""
    message = body.get("data", body) if isinstance(body, dict) else None
    message = message if isinstance(message, dict) else {}
    rows = message.get("components") or []
    return Counter(
        characters=len(message.get("content") or ""),
        components=sum(len(row.get("components") or []) for row in rows),
        files=len(files),
        bytes=sum(len(data) for _, data in files),
    )


async def discord_alone(
    traffic: dict[str, Counter[str]], moves: int, clicks: int
) -> tuple[float, list[str]]:
    """The loop's CPU a move's requests to Discord take alone: ``clicks`` clicks at once,
    each on a channel of its own, on a bare discord.py client of the offline Discord
    (a fresh one: call it with the bot's closed), whose click handler makes what the
    bot's ``moves`` moves made per move (``traffic``, :meth:`Clicks.traffic`): the
    answer, the posts and edits of messages, each route as often (a fraction drawn at
    random), with the same mean content, buttons and files. The buttons are the bot's
    own (``cogs.components.ActionButton``, in a view sent stopped as the bot sends
    them). No rule, storage or rendering runs: what is left of the bot's moves' CPU is
    its own. Returns ms a move, and the routes it left out (followed by their count a
    move)."""
    from cogs.components import ActionButton
    from cogs.context import forget_view, new_view

    rng = random.Random(1)
    plan = {route: sizes for route, sizes in traffic.items() if sizes["requests"]}
    replayed = {CALLBACK, FOLLOWUP, THREAD_POST, THREAD_EDIT}
    left_out = [
        f"{route} {plan[route]['requests'] / max(moves, 1):.2f}"
        for route in plan
        if route not in replayed
    ]
    done: list[None] = []
    last: dict[int, int] = {}  # a channel -> the message its last move posted

    def mean(route: str, what: str) -> int:
        return round(plan[route][what] / plan[route]["requests"])

    def how_often(route: str) -> int:
        rate = plan[route]["requests"] / max(moves, 1) if route in plan else 0.0
        return int(rate) + (rng.random() < rate - int(rate))

    def message(route: str, channel: int) -> dict[str, Any]:
        view = new_view()
        for i in range(mean(route, "components")):
            view.add_item(ActionButton(channel, "A1", 1, f"move {i}", f"Move {i}"))
        kwargs: dict[str, Any] = {"content": "x" * mean(route, "characters"), "view": view}
        files, requests = plan[route]["files"], plan[route]["requests"]
        if files and rng.random() < files / requests:  # a file of the files' mean size
            size = plan[route]["bytes"] // files
            kwargs["file"] = discord.File(io.BytesIO(bytes(size)), filename="sky.png")
        return kwargs

    async def move(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        for route in (CALLBACK, FOLLOWUP, THREAD_POST, THREAD_EDIT):
            for _ in range(how_often(route)):
                kwargs = message(route, interaction.channel_id or 0)
                if route == CALLBACK:
                    await interaction.response.send_message(ephemeral=True, **kwargs)
                elif route == FOLLOWUP:
                    await interaction.followup.send(ephemeral=True, **kwargs)
                elif route == THREAD_POST:
                    sent = await channel.send(**kwargs)
                    last[sent.channel.id] = sent.id
                elif interaction.channel_id in last:
                    kwargs.pop("file", None)
                    partial = channel.get_partial_message(last[interaction.channel_id])
                    await partial.edit(**kwargs)
                forget_view(kwargs)
        done.append(None)

    class Click(
        discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:alone:(?P<id>\d+)"
    ):
        def __init__(self, number: int) -> None:
            super().__init__(discord.ui.Button(label="move", custom_id=f"bench:alone:{number}"))

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
        ) -> Click:
            return cls(int(match["id"]))

        async def callback(self, interaction: discord.Interaction) -> None:
            await move(interaction)

    fake = FakeDiscord()
    fake.keep_calls = False
    channels = [fake.add_channel(f"game-{i}") for i in range(clicks)]
    player = fake.add_member("player")
    client = discord.Client(intents=discord.Intents.default())
    client.add_dynamic_items(Click)
    try:
        await fake.start(client)
        data = [{"custom_id": f"bench:alone:{i}", "component_type": 2} for i in range(clicks)]
        on = [  # the message each click is on, as the fake posted it
            fake._new_message(c, {"components": button_row(d)}, [])
            for c, d in zip(channels, data, strict=True)
        ]
        gc.collect()
        with loop_time() as spent:
            for channel, click, shown in zip(channels, data, on, strict=True):
                fake.interact(player, 3, click, channel, message=shown)
            deadline = time.perf_counter() + 120
            while len(done) < clicks and time.perf_counter() < deadline:
                await asyncio.sleep(0.001)
        if len(done) < clicks or fake.problems():
            raise SystemExit(f"the bare client's moves failed: {fake.problems()}")
    finally:
        await client.close()
        fake.patch.undo()
    return spent.running / max(clicks, 1) * 1000, left_out


def add_floor_command(bot: TallyHoBot) -> None:
    """``/bench-floor``: answers at once, touches nothing (the harness's round trip)."""

    @bot.tree.command(name="bench-floor", description="answers at once")
    async def floor(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


@dataclass
class Table:
    """One open game: its thread and who plays which seat."""

    game_id: int
    thread: int
    users: dict[str, FakeUser]


@dataclass
class Click:
    """A move to click: who, the button's interaction data, and the game's version
    the button shows."""

    user: FakeUser
    data: dict[str, Any]
    table: Table
    version: int


class Bench:
    def __init__(self, fake: FakeDiscord, bot: TallyHoBot, clicks: Clicks) -> None:
        self.fake, self.bot, self.clicks = fake, bot, clicks
        # The offline Discord's log of every request (a copy of each body and answer,
        # for tests to inspect) is not kept: it would grow with every move, and the
        # collector's pauses would be the harness's, not the bot's. (The messages stay:
        # the bot edits its earlier ones.)
        fake.keep_calls = False
        self.brain = RandomPlayer(7)
        self.engine = default_engine()
        self.failures: list[str] = []
        """What each click that did not go through was told (its answer's text)."""
        self._floor: tuple[FakeUser, dict[str, Any]] | None = None
        self.amid: tuple[list[float], list[float]] = ([], [])
        """The no-op command's round trips and CPU times amid the sequential moves."""

    async def open_games(self, count: int) -> list[Table]:
        fake, storage = self.fake, self.bot.service.storage
        tables = []
        for i in range(count):
            alice, bob = fake.add_member(f"a{i}"), fake.add_member(f"b{i}")
            await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero")
            game = await wait_for_new_game(fake, storage)
            assert game.thread_id is not None
            for user, side, aircraft in ((alice, "allied", "buffalo-i"), (bob, "axis", "ki-43")):
                await fake.slash(
                    user, "dogfight join", channel_id=game.thread_id, side=side, aircraft=aircraft
                )
            await fake.slash(alice, "dogfight start", channel_id=game.thread_id)
            tables.append(Table(game.id, game.thread_id, {"A1": alice, "X1": bob}))
        return tables

    async def advance(self, tables: list[Table], most: int, rng: random.Random) -> int:
        """Play each game on by a random number of moves below ``most``, clicked as the
        timed moves are but not timed; the moves made."""
        made = 0
        for table in tables:
            for _ in range(rng.randrange(most) if most > 0 else 0):
                click = await self.next_click(table)
                if click is None:
                    break
                if not await self.went_through(await self.click(click), click):
                    break
                made += 1
        return made

    async def click(self, click: Click) -> str:
        """Send a click and wait for its answer, its post and any work after it; its
        token (its picture, if it posts one, timed too: :meth:`Clicks.picture_ms`)."""
        thread = click.table.thread
        token = self.send(click.user, click.data, thread)
        self.clicks.picture_of[thread] = token
        await self.answer(token)
        await self.fake.settle(rounds=3)  # the post after the reply, then the next click
        return token

    async def next_click(self, table: Table) -> Click | None:
        """A random legal move of the seat to act in the game (None: it ended)."""
        game: LoadedGame = await self.bot.service.load(table.game_id)
        state = game.state
        if game.record.status is not GameStatus.ACTIVE or state is None:
            return None
        seat = self.engine.pending(state)[0].seat
        action = self.brain.choose(self.engine, state, seat)
        version = game.record.version
        custom_id = f"th:a:{table.game_id}:{seat}:{version}:{action}"[:100]
        data = {"custom_id": custom_id, "component_type": 2}
        return Click(table.users[seat], data, table, version)

    async def went_through(self, token: str, click: Click) -> bool:
        """Whether the click's move was applied (the game moved past the version the
        button showed); if not, the answer is kept as a failure."""
        game = await self.bot.service.load(click.table.game_id, remember=False)
        if game.record.version > click.version:
            return True
        body = self.clicks.replies.get(token, {})
        self.failures.append(f"game {click.table.game_id}: {body.get('content')!r}")
        return False

    def send(
        self,
        user: FakeUser,
        data: dict[str, Any],
        channel: int,
        kind: int = 3,
        message: dict[str, Any] | None = None,
    ) -> str:
        """Send one interaction now; its token (timed). A click comes from the
        message showing its button (`clicked_on`, unless given)."""
        loop = asyncio.get_running_loop()
        if kind == 3 and message is None:
            message = self.clicked_on(data, channel)
        sent = time.perf_counter()
        token = self.fake.interact(user, kind, data, channel, message=message)
        self.clicks.sent[token] = self.clicks.received.pop(token, sent)
        self.clicks.answered[token] = loop.create_future()
        return token

    def clicked_on(self, data: dict[str, Any], channel: int) -> dict[str, Any]:
        """The player's hand message, showing the button clicked: a copy of the
        thread's latest message (discord.py finds the clicked component on the
        message)."""
        message = dict(self.fake.sent_to(channel)[-1])
        message["components"] = button_row(data)
        return message

    async def answer(self, token: str) -> None:
        """Wait for the interaction's answer (an error if the bot never answers)."""
        try:
            await asyncio.wait_for(asyncio.shield(self.clicks.answered[token]), 60)
        except TimeoutError:
            raise SystemExit(f"no answer to {token}: {self.fake.problems()}") from None

    async def floor(self, count: int) -> tuple[list[float], list[float]]:
        """The no-op command's round trips, ``count`` back to back: wall times and the
        loop's CPU times."""
        times: list[float] = []
        cpu: list[float] = []
        for _ in range(count):
            await self.noop(times, cpu)
        return times, cpu

    async def noop(self, times: list[float], cpu: list[float]) -> None:
        """One no-op command, its round trip and the loop's CPU time added to those."""
        if self._floor is None:
            user = self.fake.add_member("floor")
            self._floor = (
                user,
                self.fake._command_data("bench-floor", {}, guild_id=self.fake.guild_id),
            )
        user, data = self._floor
        answers = self.clicks.requests[CALLBACK], Counter(self.clicks.sizes.get(CALLBACK, {}))
        token = self.send(user, data, self.fake.channel_id, kind=2)
        await self.answer(token)
        times.append(self.clicks.reply_ms(token))
        cpu.append(self.clicks.cpu[token])
        await self.fake.settle(rounds=2)
        # the moves' requests are counted, not its
        self.clicks.requests[CALLBACK], self.clicks.sizes[CALLBACK] = answers

    async def sequential(
        self, tables: list[Table], count: int, rng: random.Random
    ) -> tuple[list[float], list[float], list[float], list[float]]:
        """``count`` moves one at a time: replies of text moves, of picture moves, the
        pictures, and the loop's CPU time for each reply, both kinds of move. After each
        move, the floor's no-op command once (:attr:`amid`)."""
        text, with_picture, pictures, cpu = [], [], [], []
        live = list(tables)
        for _ in range(count):
            click = None
            while live and click is None:
                table = rng.choice(live)
                click = await self.next_click(table)
                if click is None:
                    live.remove(table)
            if click is None:
                break
            token = await self.click(click)
            await self.noop(*self.amid)
            if not await self.went_through(token, click):
                continue
            cpu.append(self.clicks.cpu[token])
            picture = self.clicks.picture_ms(token)
            if picture is None:
                text.append(self.clicks.reply_ms(token))
            else:
                with_picture.append(self.clicks.reply_ms(token))
                pictures.append(picture)
        return text, with_picture, pictures, cpu

    async def burst(self, tables: list[Table]) -> tuple[list[float], float, float]:
        """One click on each table, all at once: the replies, the seconds until the
        last reply, and until every move was told in its thread (the bot marked it
        told: ``Storage.mark_posted``, watched by :func:`watch`). The clicks are chosen first, then sent in one go (the
        harness's own work between two of them would be timed as the bot's)."""
        ready = []
        for table in tables:
            click = await self.next_click(table)
            if click is not None:
                ready.append((click, self.clicked_on(click.data, table.thread)))
        start = time.perf_counter()
        tokens = [self.send(c.user, c.data, c.table.thread, message=m) for c, m in ready]
        await asyncio.gather(*(self.clicks.answered[t] for t in tokens))
        last = max(self.clicks.answered[t].result() for t in tokens)
        games = {c.table.game_id for c, _ in ready}
        while any(self.clicks.told.get(g, 0.0) < start for g in games):
            await asyncio.sleep(0.005)
        told = max(self.clicks.told[g] for g in games)
        await self.fake.settle(rounds=3, timeout=120)
        for token, (click, _) in zip(tokens, ready, strict=True):
            await self.went_through(token, click)
        return [self.clicks.reply_ms(t) for t in tokens], last - start, told - start


@dataclass
class Pauses:
    """The collector's pauses (ms) while a block runs, each one's generation, and
    whether the bot had an interaction in flight when it began."""

    times: list[float] = field(default_factory=list)
    generations: list[int] = field(default_factory=list)
    busy: list[bool] = field(default_factory=list)

    def _kept(self, busy: bool | None) -> list[int]:
        """The pauses' indexes (``busy``: only those with, or without, a click in flight)."""
        return [i for i, b in enumerate(self.busy) if busy is None or b == busy]

    def longest(self, *, busy: bool | None = None) -> str:
        """The longest pause (``busy``: only those with, or without, a click in flight)."""
        kept = self._kept(busy)
        if not kept:
            return "none"
        i = max(kept, key=self.times.__getitem__)
        return f"longest {self.times[i]:.1f} ms (generation {self.generations[i]})"

    def count(self, *, busy: bool) -> int:
        return len(self._kept(busy))

    def total(self, *, busy: bool) -> float:
        """The pauses' time in all (ms), with clicks in flight or without."""
        return sum(self.times[i] for i in self._kept(busy))


@contextlib.contextmanager
def gc_pauses(busy: Callable[[], bool] = lambda: True) -> Iterator[Pauses]:
    """The collector's pauses while the block runs (``busy``: whether an interaction is
    in flight, asked as each pause begins)."""
    pauses = Pauses()
    started: list[tuple[float, bool]] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append((time.perf_counter(), busy()))
        elif started:
            began, in_flight = started.pop()
            pauses.times.append((time.perf_counter() - began) * 1000)
            pauses.generations.append(int(info.get("generation", -1)))
            pauses.busy.append(in_flight)

    gc.callbacks.append(callback)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(callback)


@dataclass
class LoopTime:
    """Where the event loop's thread spent a stretch of wall time (seconds)."""

    wall: float = 0.0
    running: float = 0.0
    """CPU time of the loop's thread (``time.thread_time``): the bot's work."""
    idle: float = 0.0
    """Waiting in the selector for something to do."""

    @property
    def waiting(self) -> float:
        """Neither running nor idle: waiting for the interpreter's lock (the GIL) while
        another thread holds it (pictures are drawn on threads, ``asyncio.to_thread``),
        or for a CPU."""
        return max(0.0, self.wall - self.running - self.idle)

    def __str__(self) -> str:
        share = self.waiting / self.wall if self.wall else 0.0
        return (
            f"{self.wall:.2f} s: running {self.running:.2f} s, idle {self.idle:.2f} s,"
            f" waiting {self.waiting:.2f} s ({share:.0%}: for the GIL, which the threads"
            " drawing pictures hold, or for a CPU)"
        )


@contextlib.contextmanager
def loop_time() -> Iterator[LoopTime]:
    """Account for the running loop's thread while the block runs: its CPU time, its
    time in the selector, and the rest (:attr:`LoopTime.waiting`)."""
    selector: Any = asyncio.get_running_loop()._selector  # type: ignore[attr-defined]
    select = selector.select
    spent = LoopTime()

    def timed(timeout: float | None = None) -> Any:
        began = time.perf_counter()
        try:
            return select(timeout)
        finally:
            spent.idle += time.perf_counter() - began

    selector.select = timed
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        yield spent
    finally:
        spent.wall, spent.running = time.perf_counter() - wall, time.thread_time() - cpu
        del selector.select  # the class's method again


def requests_line(requests: Counter[str], moves: int) -> str:
    """The requests to Discord per move, the most frequent routes first. Discord lets a
    bot make about 50 requests a second in all, interaction answers apart: a ceiling
    on the moves a second of every process of one bot together, whatever their CPU."""
    total = sum(requests.values())
    answers = sum(n for route, n in requests.items() if route.startswith("POST /interactions/"))
    routes = ", ".join(f"{n / moves:.2f} {route}" for route, n in requests.most_common(5))
    return (
        f"  requests to Discord per move: {total / max(moves, 1):.2f}, of which"
        f" {(total - answers) / max(moves, 1):.2f} count against the bot's 50 a second"
        f" ({routes})"
    )


LAYERS: tuple[tuple[str, str], ...] = (
    ("/site-packages/discord/", "discord.py"),
    ("/bot/testing/", "the offline Discord (the harness)"),
    ("/bench/", "this bench"),
    ("/engine/", "engine"),
    ("/rendering/", "rendering"),
    ("/bot/storage/", "bot.storage"),
    ("/bot/", "bot (but its storage)"),
    ("/cogs/", "cogs"),
    ("/strings/", "strings"),
    ("/site-packages/asyncpg/", "database driver (asyncpg, aiosqlite, sqlite3)"),
    ("/site-packages/aiosqlite/", "database driver (asyncpg, aiosqlite, sqlite3)"),
    ("/site-packages/pydantic", "pydantic"),
    ("/asyncio/", "asyncio (the loop's own work)"),
    ("/selectors.py", "asyncio (the loop's own work)"),
)
"""Where a profiled function's own time is counted, by the path of its file (the first
part found): the layers a move passes through (:func:`layer_of`)."""

DRIVER = "database driver (asyncpg, aiosqlite, sqlite3)"
SOCKETS = "the kernel: socket calls (a wait for a CPU included)"
IDLE = "idle: the selector waiting for I/O or a timer"
UNCALLED = "Python itself"
"""A builtin's or the standard library's time with no caller in the profile (the
profile's first frames)."""
CALLERS = ""
"""Not a layer: the time of a builtin or of the standard library, counted in the layer
of whoever called it (:func:`layers_of`)."""


def layer_of(filename: str, name: str) -> str:
    """The layer of a profiled function (:data:`LAYERS`). A function in C (``~``) by
    what it is: sqlite3's and asyncpg's calls are the driver's (a sqlite3 call includes
    the wait for the GIL to come back from a thread drawing a picture); a socket's call
    is the kernel's (it includes the wait for a CPU when the receiver of a send, the
    database server on the same machine, is scheduled first); the selector's wait is
    idle time. Builtins and the standard library are :data:`CALLERS`'."""
    if filename == "~":
        if "sqlite3" in name or "asyncpg" in name:
            return DRIVER
        if "select.epoll" in name:
            return IDLE
        if "_socket.socket" in name:
            return SOCKETS
        return CALLERS
    path = filename.replace("\\", "/")
    for marker, layer in LAYERS:
        if marker in path:
            return layer
    return CALLERS


def layers_of(stats: pstats.Stats) -> Counter[str]:
    """The profiled time by layer: each function's own time (``tottime``) in its layer
    (:func:`layer_of`); a builtin's or the standard library's in its callers' layers,
    shared as the profile splits it among them (up the calls until a layer), so that
    ``json.dumps`` called by the storage counts as the storage's."""
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    shares: dict[Any, dict[str, float]] = {}

    def share(func: Any, seen: frozenset[Any]) -> dict[str, float]:
        """How ``func``'s own time divides among layers (fractions summing to 1)."""
        if func in shares:
            return shares[func]
        layer = layer_of(func[0], func[2])
        if layer != CALLERS:
            return {layer: 1.0}
        callers = {c: row[2] for c, row in table[func][4].items() if c not in seen}
        total = sum(callers.values())
        if not total:  # called from nowhere the profile saw (its start)
            return {UNCALLED: 1.0}
        found: Counter[str] = Counter()
        for caller, seconds in callers.items():
            for name, part in share(caller, seen | {func}).items():
                found[name] += part * seconds / total
        shares[func] = dict(found)
        return shares[func]

    spent: Counter[str] = Counter()
    for func, row in table.items():
        for layer, part in share(func, frozenset()).items():
            spent[layer] += row[2] * part
    return spent


def layers_lines(stats: pstats.Stats, moves: int) -> list[str]:
    """The profiled time by layer (:func:`layers_of`), per move and as a share of the
    time the loop worked (idle time apart), the largest first."""
    spent = layers_of(stats)
    idle = spent.pop(IDLE, 0.0)
    total = sum(spent.values()) or 1.0
    rows = [(layer, seconds, f"{seconds / total:5.1%}") for layer, seconds in spent.most_common()]
    return [
        f"    {layer:<52} {seconds * 1000 / max(moves, 1):6.3f} ms a move  {share}"
        for layer, seconds, share in [*rows, (IDLE, idle, "")]
    ]


class Profiled:
    """The statistics of a block run under ``cProfile`` (:func:`profiled`), once it ran."""

    def __init__(self) -> None:
        self.stats: pstats.Stats | None = None

    def print_layers(self, part: str, moves: int) -> None:
        """Print where the profiled time went, by layer (:func:`layers_lines`)."""
        if self.stats is None:
            return
        print(
            f"  the {part} profiled, by layer (each function's own time, the profiler's"
            " overhead in it: compare shares, not the times of a run without it):"
        )
        print("\n".join(layers_lines(self.stats, moves)))


@contextlib.contextmanager
def profiled(folder: str | None, kind: str, part: str) -> Iterator[Profiled]:
    """Run the block under ``cProfile`` and write its statistics to
    ``folder/<kind>-<part>.pstats`` (nothing without a folder); what it yields holds
    them once the block ran, to print by layer (:meth:`Profiled.print_layers`)."""
    result = Profiled()
    if folder is None:
        yield result
        return
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield result
    finally:
        profile.disable()
        path = Path(folder) / f"{kind}-{part}.pstats"
        path.parent.mkdir(parents=True, exist_ok=True)
        profile.dump_stats(path)
        result.stats = pstats.Stats(profile)
        print(f"  profile of the {part} written to {path} (python -m pstats {path})")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, values: list[float], floor_p99: float, goal: str = "") -> str:
    p50, p99 = pct(values, 0.5), pct(values, 0.99)
    return (
        f"  {name:<28} n={len(values):>5}  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms"
        f"  p99/floor {p99 / floor_p99:6.1f}x  {goal}"
    )


CPU_NOTE = "(both kinds; waits for a CPU left out)"
TRIP_NOTE = "(SELECT 1: a move's reply waits for one, and the server's time for its move)"

RAM = Path("/dev/shm")
"""Where the SQLite database goes by default when the machine has it: a folder in
memory, where a commit's fsync costs nothing, as the PostgreSQL server this bench
starts runs with durability off. Both then measure the bot, not the disk;
:func:`disk_commits` measures the disk on its own."""


def default_folder() -> str | None:
    return str(RAM) if RAM.is_dir() and os.access(RAM, os.W_OK) else None


def disk_commits(folder: str | None, count: int = 300) -> list[float]:
    """The time (ms) of a small durable commit in ``folder`` (the system's temporary
    folder if None), as the bot writes a move: WAL, ``synchronous=FULL``."""
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        db = sqlite3.connect(Path(tmp) / "disk.db", isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, action TEXT)")
            times = []
            for _ in range(count):
                start = time.perf_counter()
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO moves (action) VALUES ('play 12 on X1')")
                db.execute("COMMIT")
                times.append((time.perf_counter() - start) * 1000)
            return times
        finally:
            db.close()


STATEMENTS_SETTINGS = (
    "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
)
"""The server's settings for ``--statements`` on PostgreSQL: every statement counted,
those a function runs too (``tallyho_commit_planned``'s own)."""


@contextlib.asynccontextmanager
async def database(kind: str, folder: Path, *, statements: bool = False) -> AsyncIterator[str]:
    """The database's URL (``statements``: a PostgreSQL server that counts its
    statements, ``pg_stat_statements``)."""
    if kind == "sqlite":
        yield str(folder / "latency.db")
        return
    from tests.storage.backends import PostgresServer, postgres_bindir

    bindir = postgres_bindir()
    if bindir is None:
        raise SystemExit("PostgreSQL's server binaries are needed (apt-get install postgresql)")
    server = PostgresServer(bindir)
    server.start(STATEMENTS_SETTINGS if statements else "")
    try:
        server.create_database()
        yield server.url()
    finally:
        server.stop()


async def run(kind: str, args: argparse.Namespace) -> int:
    """Measure on one database; the number of clicks that did not go through."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir if kind == "sqlite" else None) as tmp:
        statements = bool(args.statements) and kind == "postgresql"
        async with database(kind, Path(tmp), statements=statements) as url:
            fake = FakeDiscord()
            bot = TallyHoBot(database=url, seed_source=lambda: rng.randrange(1 << 62))
            add_floor_command(bot)
            clicks = Clicks()
            try:
                await fake.start(bot)
                watch(fake, bot, clicks)
                bench = Bench(fake, bot, clicks)
                t0 = time.perf_counter()
                tables = await bench.open_games(args.games)
                opened = time.perf_counter() - t0
                where = (
                    f" (database in {args.dir or tempfile.gettempdir()})"
                    if kind == "sqlite"
                    else ""
                )
                print(f"{kind}{where}: {len(tables)} games opened in {opened:.1f} s")
                t0 = time.perf_counter()
                made = await bench.advance(tables, args.advance, rng)
                print(
                    f"  ... and played on by {made} moves in all in {time.perf_counter() - t0:.1f} s"
                )
                if kind == "postgresql":
                    await analyzed(url)
                    warmed = await bench.advance(tables, WARM_MOVES, rng)
                    print(f"  ... analyzed, then played on by {warmed} moves (untimed: plans made)")
                warm, warm_cpu = await bench.floor(args.floor)
                gc.unfreeze()  # a clean start for the count of what freezes keep (below)
                gc.collect()
                gc.freeze()
                in_flight = lambda: bot.gate.inflight > 0  # noqa: E731
                clicks.reset()
                if statements:
                    await count_statements(url)
                store = bot.service.storage
                tracing = store if args.statements and isinstance(store, SQLiteStorage) else None
                traced: list[str] = []  # kept as run, counted after: cheap on the loop
                if tracing is not None:
                    tracing.trace(traced.append)
                with gc_pauses(in_flight) as pauses, profiled(args.profile, kind, "moves"):
                    text, moved, pictures, cpu = await bench.sequential(tables, args.clicks, rng)
                one_at_a_time = len(text) + len(moved)
                if statements:
                    print(await server_statements(url, args.statements, one_at_a_time))
                if tracing is not None:
                    tracing.trace(None)
                    print(sqlite_statements(traced, args.statements, one_at_a_time))
                requests = requests_line(clicks.requests, one_at_a_time)
                traffic = clicks.traffic()  # a move's requests, repeated alone below
                floor, floor_cpu = bench.amid
                floor_p99, floor_cpu_p99 = pct(floor, 0.99), pct(floor_cpu, 0.99)
                trips = await server_round_trips(url) if kind == "postgresql" else None
                with (
                    gc_pauses(in_flight) as burst_pauses,
                    loop_time() as burst_loop,
                    profiled(args.profile, kind, "bursts") as bursts_profile,
                ):
                    sample = rng.sample(tables, min(args.burst, len(tables)))
                    burst, _, burst_told = await bench.burst(sample)
                    everyone, seconds, told = await bench.burst(tables)
                bursts_profile.print_layers("bursts", len(burst) + len(everyone))
                print(line("floor (no-op command)", floor, floor_p99, "(amid the moves)"))
                print(line("move, text reply", text, floor_p99))
                print(line("move posting a picture", moved, floor_p99, "(its reply)"))
                print(line("  ... its picture", pictures, floor_p99))
                replies = text + moved  # a move's reply, whichever kind of move
                print(
                    line("move's reply, both kinds", replies, floor_p99, "goal: p99/floor <= 10x")
                )
                print(line("floor, the loop's CPU", floor_cpu, floor_cpu_p99))
                print(line("move's reply, the loop's CPU", cpu, floor_cpu_p99, CPU_NOTE))
                if trips is not None:
                    print(line("the server: a round trip", trips, floor_p99, TRIP_NOTE))
                warm_p99 = pct(warm, 0.99)
                print(
                    line("floor, back to back", warm, warm_p99, "(before the moves)")
                    + f"\n  ... against it: a move's reply p99/floor {pct(replies, 0.99) / warm_p99:.1f}x,"
                    f" the loop's CPU {pct(cpu, 0.99) / pct(warm_cpu, 0.99):.1f}x"
                )
                print(requests)
                print(
                    line(f"burst of {len(burst)} at once", burst, floor_p99, "goal: p99 < 100 ms")
                )
                print(f"  ... every move of the burst told in its thread after {burst_told:.2f} s")
                rate = len(everyone) / told if told else float("nan")
                print(
                    f"  sustained: {len(everyone)} moves at once answered in {seconds:.2f} s,"
                    f" all told in {told:.2f} s: {rate:,.0f} moves/s"
                    "  (goal: >= 1,000 moves/s with SQLite)"
                )
                print(f"  the event loop's thread during the bursts: {burst_loop}")
                print(
                    f"  collector during the moves one at a time: {len(pauses.times)} pauses,"
                    f" {pauses.longest()} (goal: no pause > 50 ms)"
                )
                print(
                    f"  collector during the bursts: {burst_pauses.count(busy=True)} pauses with"
                    f" clicks in flight ({burst_pauses.total(busy=True):.1f} ms in all),"
                    f" {burst_pauses.longest(busy=True)};"
                    f" {burst_pauses.count(busy=False)} with none,"
                    f" {burst_pauses.longest(busy=False)} (the game cache's freeze waits for"
                    " that moment: bot.games.GameStore.idle)"
                )
                moves = len(text) + len(moved) + len(burst) + len(everyone)
                gc.collect()  # the garbage the collector frees as usual
                gc.unfreeze()  # then what the freezes kept that died since: never freed
                kept = gc.collect()
                print(
                    f"  dead objects the freezes kept during the moves (reference cycles alive at"
                    f" a freeze, never freed): {kept} in {moves} moves"
                )
                gc.freeze()
                if args.cached:
                    await cached_pauses(bot, tables, args.cached)
                bot_ms = burst_loop.running / max(len(burst) + len(everyone), 1) * 1000
            finally:
                await bot.close()
                fake.patch.undo()
            alone_ms, left_out = await discord_alone(traffic, one_at_a_time, len(everyone))
            print(
                f"  the same requests alone (a bare discord.py client on the offline Discord,"
                f" no bot): {alone_ms:.2f} ms of the loop's CPU a move, at most"
                f" {1000 / alone_ms:,.0f} moves/s; the bot's moves took {bot_ms:.2f} ms a move"
                f" in the bursts, its own work {bot_ms - alone_ms:.2f} ms of it"
                + (f" (left out: {', '.join(left_out)})" if left_out else "")
            )
            failed = bench.failures
            print(f"  clicks that did not go through: {len(failed)}")
            for answer in failed[:5]:
                print(f"    {answer}")
            return len(failed)


async def cached_pauses(bot: TallyHoBot, tables: list[Table], count: int) -> None:
    """Hold ``count`` games in the cache (copies of the open ones under new ids), then
    measure the collector's longest pause over a full collection and young ones."""
    service = bot.service
    service._cache_size = max(service._cache_size, count + len(tables))
    held = [await service.load(t.game_id) for t in tables]
    for i in range(count):  # each its own state, as loading it would give
        game = held[i % len(held)]
        record = game.record.model_copy(update={"id": 10_000_000 + i})
        state = copy.deepcopy(game.state)
        service._remember(LoadedGame(record, game.seats, game.setup, state))
    with gc_pauses() as pauses:
        for _ in range(50):  # the allocations of ordinary work: young collections
            [LoadedGame(g.record, g.seats, g.setup, g.state) for g in held]
        gc.collect()
    young = pauses.times[:-1]
    print(
        f"  collector with {len(service._cache)} games cached: full collection {pauses.times[-1]:.1f} ms,"
        f" longest other pause {max(young, default=0):.1f} ms (goal: no pause > 50 ms)"
    )


WARM_MOVES = 2
"""After :func:`analyzed`, each game is played on by fewer moves than this, at random
(about 500 moves in 1,000 games), untimed: new statistics make every connection plan
its statements again, PL/pgSQL's each at its first run (the move's function has
branches a move runs only now and then), and each such first run took the server
1.8-1.9 ms instead of about 0.4, counted in the slowest replies (the server's log
showed them). A running server's plans are made once per connection."""


async def analyzed(url: str) -> None:
    """Gather the server's planner statistics of the games just opened (``ANALYZE``),
    as autovacuum does on a running server within a minute or so of such a change. The
    moves are then planned as on a server in its steady state, whatever ``--games``:
    with 300 games the run was over before autovacuum came, and the plan PostgreSQL kept
    for a click's read of its game's deadlines, made on no statistics, walked every
    live deadline (the read-ahead: 0.22 ms on the server; 0.05 ms once analyzed, as in
    a run with 1,000 games, long enough for autovacuum)."""
    await on_server(url, "ANALYZE")


async def count_statements(url: str) -> None:
    """Start PostgreSQL's own count of its statements (``pg_stat_statements``) from
    nothing: what :func:`server_statements` reports."""
    await on_server(
        url,
        "CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
        "SELECT pg_stat_statements_reset()",
    )


@contextlib.asynccontextmanager
async def server_connection(url: str) -> AsyncIterator[Any]:
    """A connection of the bench's own to the PostgreSQL server, closed after."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        yield conn
    finally:
        await conn.close()


async def on_server(url: str, *statements: str) -> None:
    """Run ``statements`` on the PostgreSQL server, on a connection of the bench's own."""
    async with server_connection(url) as conn:
        for statement in statements:
            await conn.execute(statement)


async def server_round_trips(url: str, count: int = 300) -> list[float]:
    """The time (ms) of a trivial statement's round trip to the PostgreSQL server
    (``SELECT 1`` on a connection of its own): what any reply waiting for the server
    pays at least once, before the server's own time for the statement."""
    times = []
    async with server_connection(url) as conn:
        for _ in range(count):
            start = time.perf_counter()
            await conn.fetchval("SELECT 1")
            times.append((time.perf_counter() - start) * 1000)
    return times


async def server_statements(url: str, most: int, moves: int) -> str:
    """The ``most`` statements that took the server the longest since
    :func:`count_statements`, per move of the ``moves`` played meanwhile. The
    server's time only: the round trips and asyncpg's work are the client's."""
    async with server_connection(url) as conn:
        rows = await conn.fetch(
            "SELECT calls, total_exec_time, max_exec_time, toplevel,"
            " regexp_replace(query, '\\s+', ' ', 'g') AS query"
            " FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'"
            " ORDER BY total_exec_time DESC LIMIT $1",
            most,
        )
    lines = [
        f"  the server's time by statement over the {moves} moves one at a time"
        " (pg_stat_statements; 'in a function': run by tallyho_commit_planned, its time"
        " counted in the call's too; the bench's own reads of a game's version before"
        " and after each click among them):",
        "    per move   mean      max    calls  statement",
    ]
    for r in rows:
        per_move = r["total_exec_time"] * 1000 / max(moves, 1)
        mean = r["total_exec_time"] * 1000 / max(r["calls"], 1)
        most_ms = r["max_exec_time"]
        where = "" if r["toplevel"] else "in a function: "
        lines.append(
            f"    {per_move:6.1f} us {mean:6.1f} us {most_ms:5.2f} ms {r['calls']:6d}"
            f"  {where}{r['query'][:90]}"
        )
    return "\n".join(lines)


_LITERALS = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")
"""A statement's bound values, as SQLite's trace shows them: quoted texts and numbers."""


def statement_kind(sql: str) -> str:
    """A statement as traced, its values put back as ``?`` and its spaces squeezed:
    the statements that differ only by their values count together."""
    return " ".join(_LITERALS.sub("?", sql).split())


def sqlite_statements(statements: list[str], most: int, moves: int) -> str:
    """How many of the traced ``statements`` the store ran per move of the ``moves``
    one at a time, how many began a write transaction, and the ``most`` run most often."""
    per = max(moves, 1)
    traced = Counter(statement_kind(sql) for sql in statements)
    total = len(statements)
    writes = sum(n for sql, n in traced.items() if sql.upper().startswith("BEGIN"))
    lines = [
        f"  SQLite's statements over the {moves} moves one at a time (the store's trace;"
        " the bench's own reads of a game's version before and after each click among"
        f" them): {total / per:.1f} a move, {writes / per:.2f} of them beginning a write"
        " transaction",
        "    per move  statement",
    ]
    for sql, n in traced.most_common(most):
        lines.append(f"    {n / per:8.2f}  {sql[:100]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--clicks", type=int, default=1000)
    parser.add_argument(
        "--advance",
        type=int,
        default=30,
        help="each game is first played on by fewer moves than this, at random (untimed)",
    )
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--floor", type=int, default=300)
    parser.add_argument("--cached", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--dir",
        default=default_folder(),
        help="the SQLite database's folder (default: /dev/shm, in memory, when there is one)",
    )
    parser.add_argument(
        "--disk", default=None, help="the folder whose disk commits are timed (default: temp)"
    )
    parser.add_argument(
        "--statements",
        "--server-statements",
        type=int,
        default=0,
        metavar="N",
        help="print a move's statements during the moves one at a time: on PostgreSQL the"
        " N that took the server the longest (pg_stat_statements, loaded for the run), on"
        " SQLite how many a move ran and the N run most often (the store's trace)",
    )
    parser.add_argument(
        "--profile",
        default=None,
        metavar="DIR",
        help="cProfile the moves one at a time and the bursts, statistics written to DIR"
        " (the profiler slows the figures: take those from a run without it)",
    )
    args = parser.parse_args()
    kinds = ("sqlite", "postgresql") if args.database == "both" else (args.database,)
    disk = disk_commits(args.disk)
    print(
        f"the disk ({args.disk or tempfile.gettempdir()}): a durable commit p50"
        f" {pct(disk, 0.5):.2f} ms, p99 {pct(disk, 0.99):.2f} ms: with the SQLite database"
        " there, each move's reply waits for one (a burst's moves share one: group commit)"
    )
    failed = sum(asyncio.run(run(kind, args)) for kind in kinds)
    if failed:
        raise SystemExit(f"{failed} clicks did not go through: the figures above are not valid")


if __name__ == "__main__":
    main()
