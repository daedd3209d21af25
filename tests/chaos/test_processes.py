"""Two bot processes, each its own OS process running one of two shards, on one
PostgreSQL database, through the offline Discord served to both
(:class:`~bot.testing.remote.DiscordHost`, two guilds, one on each shard).

Each process opens and plays the game of its own guild: the host sends a guild's
interactions to the process holding its shard. The players are away: each deadline
fires once across both processes (a claim in the database), its default applied
once and told once. Then the first process is killed with SIGKILL, and the second
fires the timers of the first's game and tells them in its guild's thread; it stops
cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import pytest

from bench.chaos import AWAY, START, bot_process, forkserver
from bot.games import LoadedGame
from bot.service import GameService
from bot.storage import GameStatus, Storage, open_storage
from bot.testing.remote import DiscordHost, shard_of
from tests.storage.backends import PostgresServer

TIMEOUT = 60.0
PASSED = "has passed"
"""In the line telling that a deadline passed (``deadline.passed``)."""


@dataclass
class Guild:
    """One guild of the host, its shard and the bot process holding it."""

    id: int
    channel: int
    shard: int
    process: BaseProcess | None = None


@dataclass
class Duel:
    id: int
    thread: int
    players: dict[str, Any]


class Processes:
    """The host, the two bot processes and the players of this test."""

    def __init__(self, tmp_path: Path, url: str, storage: Storage) -> None:
        self.tmp_path, self.url, self.storage = tmp_path, url, storage
        self.oracle = GameService(storage)
        self.host = DiscordHost(str(tmp_path / "discord.sock"), now=START)
        first = shard_of(self.host.guild_id, 2)
        other = self.host.add_guild(shard=1 - first, shard_count=2)
        self.guilds = [
            Guild(self.host.guild_id, self.host.channel_id, first),
            Guild(other, self.host.add_channel("general", guild_id=other), 1 - first),
        ]
        self.context = forkserver()
        self.users = 0

    def start(self, guild: Guild) -> None:
        """Start the process running the guild's shard (shard 0's syncs the commands,
        as ``python -m bot`` does)."""
        log_file = str(self.tmp_path / f"bot-{guild.shard}.log")
        args = (self.host.path, self.url, 1000 * (guild.shard + 1), log_file, guild.shard == 0)
        guild.process = self.context.Process(
            target=bot_process, args=(*args, [guild.shard], 2), daemon=True
        )
        guild.process.start()

    def pid_answering(self, token: str) -> int:
        return self.host.receivers[token].pid

    def answered(self, token: str) -> bool:
        interaction = self.host.interactions[token]
        return interaction.callback_type is not None and not interaction.loading

    async def answer(self, token: str) -> str:
        """Wait until the interaction ``token`` is answered."""
        await self.host.wait_for(lambda: self.answered(token), TIMEOUT)
        return token

    async def command(self, user: Any, path: str, channel: int, **options: Any) -> str:
        data = self.host._command_data(path, options, guild_id=self.host.guild_of(channel))
        return await self.answer(self.host.interact(user, 2, data, channel))

    async def wait(self, check: Callable[[], Any], what: str) -> None:
        """Poll the database until ``await check()`` holds; fail naming ``what``."""
        try:
            async with asyncio.timeout(TIMEOUT):
                while not await check():
                    await asyncio.sleep(0.02)
        except TimeoutError:
            pytest.fail(f"{what}: not after {TIMEOUT:g} s", pytrace=False)

    async def load(self, duel: Duel) -> LoadedGame:
        return await self.oracle.load(duel.id)

    async def told(self, duel: Duel) -> bool:
        record = await self.storage.get_game(duel.id)
        return record is not None and record.posted_seq >= record.last_seq

    async def open_duel(self, guild: Guild) -> tuple[Duel, set[int]]:
        """A Zero! duel opened, joined and started in the guild's channel; with the pids
        of the processes that answered its commands."""
        self.users += 1
        alice = self.host.add_member(f"alice{self.users}")
        bob = self.host.add_member(f"bob{self.users}")
        known = {g.id for g in await self.storage.list_games()}
        tokens = [
            await self.command(alice, "dogfight new", guild.channel, ruleset="zero", year=1942)
        ]
        record = None

        async def opened() -> bool:
            nonlocal record
            fresh = [g for g in await self.storage.list_games() if g.id not in known]
            record = fresh[0] if fresh and fresh[0].thread_id is not None else None
            return record is not None

        await self.wait(opened, "the game opened")
        assert record is not None and record.thread_id is not None
        thread = record.thread_id
        for user, side, aircraft in ((alice, "allied", "buffalo-i"), (bob, "axis", "ki-43")):
            tokens.append(
                await self.command(user, "dogfight join", thread, side=side, aircraft=aircraft)
            )
        tokens.append(await self.command(alice, "dogfight start", thread))
        duel = Duel(record.id, thread, {})
        await self.wait(lambda: self.told(duel), "its first step told")
        loaded = await self.load(duel)
        for seat in loaded.seats:
            duel.players[seat.seat] = alice if loaded.holder(seat.seat) == alice.id else bob
        return duel, {self.pid_answering(t) for t in tokens}

    async def click(self, duel: Duel) -> int:
        """A player of the duel clicks a legal action's button; the pid that answered."""
        loaded = await self.load(duel)
        assert loaded.state is not None
        seat = loaded.system.pending(loaded.state)[0].seat
        action = str(loaded.system.legal_actions(loaded.state, seat)[0])
        custom_id = f"th:a:{duel.id}:{seat}:{loaded.record.version}:{action}"
        message = dict(self.host.sent_to(duel.thread)[-1])
        button = {"type": 2, "custom_id": custom_id, "label": action, "style": 2}
        message["components"] = [{"type": 1, "components": [button]}]
        data = {"custom_id": custom_id, "component_type": 2}
        token = self.host.interact(duel.players[seat], 3, data, duel.thread, message=message)
        await self.answer(token)
        await self.wait(lambda: self.told(duel), "the click told")
        assert [r.action for r in await self.storage.load_actions(duel.id)][-1] == action
        return self.pid_answering(token)

    async def away(self, duels: list[Duel]) -> dict[int, int]:
        """The players are away past every deadline; wait until each duel's pending
        decisions were defaulted and told. Returns how many decisions were due per duel."""
        due: dict[int, int] = {}
        for duel in duels:
            loaded = await self.load(duel)
            assert loaded.state is not None
            due[duel.id] = len(loaded.system.pending(loaded.state))
        before = {d.id: (await self.load(d)).record.last_seq for d in duels}
        self.host.advance(AWAY)

        async def fired(duel: Duel) -> bool:
            record = await self.storage.get_game(duel.id)
            assert record is not None
            live = await self.storage.live_deadlines(duel.id)
            return (
                record.last_seq >= before[duel.id] + due[duel.id]
                and all(d.expires_at > self.host.now for d in live)
                and await self.told(duel)
            )

        for duel in duels:
            await self.wait(lambda duel=duel: fired(duel), f"game {duel.id}'s defaults")  # type: ignore[misc]
        await asyncio.sleep(0.5)  # a second firing, were there one, would land now
        return due

    def passed_lines(self, duel: Duel) -> int:
        return sum(PASSED in (m.get("content") or "") for m in self.host.sent_to(duel.thread))

    def kill(self, guild: Guild) -> None:
        assert guild.process is not None and guild.process.pid is not None
        os.kill(guild.process.pid, signal.SIGKILL)
        guild.process.join(30)

    def terminate(self, guild: Guild) -> int | None:
        assert guild.process is not None and guild.process.pid is not None
        os.kill(guild.process.pid, signal.SIGTERM)
        guild.process.join(60)
        return guild.process.exitcode


@pytest.fixture
async def processes(tmp_path: Path, postgres_server: PostgresServer) -> AsyncIterator[Processes]:
    url = postgres_server.new_database()
    storage = await open_storage(url)  # migrates: the processes find it ready
    run = Processes(tmp_path, url, storage)
    await run.host.listen()
    try:
        yield run
    finally:
        for guild in run.guilds:
            if guild.process is not None and guild.process.is_alive():
                guild.process.kill()
                guild.process.join(30)
        await run.host.close()
        await storage.close()


async def test_two_processes_play_their_guilds_and_the_survivor_takes_over_the_timers(
    processes: Processes,
) -> None:
    run, host = processes, processes.host
    first, second = run.guilds
    for guild in run.guilds:
        run.start(guild)
    await host.wait_ready(2, timeout=TIMEOUT)
    pids = {guild.shard: guild.process.pid for guild in run.guilds}  # type: ignore[union-attr]

    # Games on both: each guild's commands and clicks go to the process holding it.
    duels: list[Duel] = []
    for guild in run.guilds:
        duel, answered_by = await run.open_duel(guild)
        assert answered_by == {pids[guild.shard]}
        assert await run.click(duel) == pids[guild.shard]
        duels.append(duel)

    # Away: every deadline fires once, in whichever process claims it first.
    due = await run.away(duels)
    for duel in duels:
        record = await run.storage.get_game(duel.id)
        assert record is not None and record.status is GameStatus.ACTIVE
        assert run.passed_lines(duel) == due[duel.id] > 0

    # The first process dies: the second fires its game's timers and tells them there.
    run.kill(first)
    await host.wait_for(lambda: len(host.links) == 1, TIMEOUT)
    told_before = len(host.sent_to(duels[0].thread))
    due_again = await run.away(duels)
    assert run.passed_lines(duels[0]) == due[duels[0].id] + due_again[duels[0].id]
    assert len(host.sent_to(duels[0].thread)) > told_before
    assert all(link.pid == pids[second.shard] for link in host.links)
    assert run.terminate(second) == 0, "the survivor stops cleanly on SIGTERM"
    assert host.problems() == []
