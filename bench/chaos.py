"""Chaos: the bot in a process of its own, killed with SIGKILL at random moments.

    python bench/chaos.py [--games N] [--kills K] [--seed S] [--dir PATH]

The offline Discord runs in this process (:class:`bot.testing.remote.DiscordHost`);
the bot runs in another, started from a ``forkserver`` with discord.py, the cogs and
the engines already imported (a restart costs the set-up only), and connected to the
host through :class:`~bot.testing.remote.HostLink`. Scripted players (two a game, N
games at once, a finished game replaced by a new one until K kills were made) read
each game from the database (the oracle: the bot's own store, read-only) and click a
legal action of the seat to act, chosen by a seeded RNG, through its ``th:a:`` button.
Each round (until K kills; then only calm rounds, until every game ends), one of:

* **click**: every game's player clicks; the bot is killed a random moment later
  (uniform over a click's usual duration, measured as the run goes);
* **away**: the players are away: the host's clock jumps past every deadline and the
  bot is killed a random moment later, while the deadlines fire (their defaults apply);
* **idle**: the bot is killed once everything was told;
* **calm**: no kill (the clicks finish, so every game moves on).

After a kill in a click a new process starts on the same database (three starts in
ten are killed again, while they catch up). A click that got no answer is clicked
again, same ``custom_id``, as a player would: it must go through once, or be refused
as already played (or out of date). The button is the one the bot puts in the seat's
hand (``th:a:{game}:{seat}:{version}:{action}``), clicked on a message of the thread
(Discord sends the message a component is on). At the end every game finished, and for each game:

* the log replays from its seed to the recorded result (``bot.verify.verify_game``);
* the log is exactly the moves the players made (each once, in order) and the
  defaults of the deadlines the host's clock made fall due (the system's
  ``default_action`` for the seat, in an away round only): nothing lost, nothing twice;
* the thread tells every step once, in order: the seqs of the steps' **My hand**
  buttons (``th:hand:{game}:{seq}``) rise strictly to the last action (a duplicate
  repeats one), and every step's public narration is in the messages that told it
  (a gap misses one); the after-action report is posted once.

``tests/chaos/test_chaos.py`` runs a small setting (at least 200 kills) in CI; this
script runs the soak and prints the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import importlib
import itertools
import json
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from importlib.machinery import ModuleSpec
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from discord.ext.commands.bot import BotBase

from bot.clock import FakeClock
from bot.games import LoadedGame
from bot.history import replay_history
from bot.service import GameService
from bot.storage import GameRecord, GameStatus, SQLiteStorage
from bot.testing.fakediscord import FakeUser
from bot.testing.remote import DiscordHost, HostLink
from bot.verify import verify_game
from cogs.app import COGS, TallyHoBot, serve
from strings import t, tr

# Imported now, so the forkserver holds them too: a bot process loads its cogs and
# draws its first picture without importing anything.
for _module in (*COGS, "rendering.dif"):
    importlib.import_module(_module)

__all__ = ["Chaos", "Report", "bot_process", "main"]

log = logging.getLogger("bench.chaos")

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LEASE = timedelta(minutes=2)
"""How far the clock moves when a killed firing's claim must pass on (its lease, the
scheduler's retry delay of a minute, then its poll)."""
AWAY = timedelta(hours=25)
"""How far an away round moves the clock: past a turn's deadline (24 h) and a
response's (12 h), the defaults."""
SETUP = (("allied", "buffalo-i"), ("axis", "ki-43"))
"""The two players' sides and aircraft, in the order they join."""
STARTUP_KILLS = 0.3
"""How often a restart after a kill in a click is killed again, while it starts."""
ANSWER_TIMEOUT = 60.0
"""Seconds a live bot may take to answer a click or tell a step."""


def bot_process(
    path: str,
    database: str,
    seed: int,
    log_file: str,
    sync: bool,
    shards: Sequence[int] | None = None,
    shard_count: int = 1,
) -> None:
    """The bot process: connect to the host at ``path``, serve until killed (or, on
    SIGTERM, stop gracefully). Its output goes to ``log_file``. ``sync``: sync the
    commands (the first start; the host keeps them, as Discord does). ``shards`` of
    ``shard_count``: the shards it runs, one process of several (None: every one)."""
    fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    logging.basicConfig(
        level=os.environ.get("TALLYHO_CHAOS_LOG", "WARNING"),
        format=f"{os.getpid()} %(relativeCreated)d %(levelname)s %(name)s: %(message)s",
        force=True,
    )
    _reuse_imported_cogs()
    asyncio.run(_serve_bot(path, database, seed, sync, shards, shard_count))


def _reuse_imported_cogs() -> None:
    """Load each cog from the module the forkserver imported: discord.py's
    ``load_extension`` would execute it again (most of a start's time, typing its
    commands), though a forked process holds a fresh copy already."""
    real = BotBase._load_from_module_spec

    async def load(bot: BotBase, spec: ModuleSpec, key: str) -> None:
        module = sys.modules.get(key)
        if module is None:
            return await real(bot, spec, key)
        await module.setup(bot)
        bot._BotBase__extensions[key] = module  # type: ignore[attr-defined]
        return None

    BotBase._load_from_module_spec = load  # type: ignore[method-assign]


async def _serve_bot(
    path: str,
    database: str,
    seed: int,
    sync: bool,
    shards: Sequence[int] | None,
    shard_count: int,
) -> None:
    link = await HostLink.open(path, shards or range(shard_count), shard_count)
    clock = FakeClock(link.now)
    seeds = itertools.count(seed)
    bot = TallyHoBot(
        database=database,
        seed_source=lambda: next(seeds),
        clock=clock,
        sync_commands=sync,
        shard_ids=shards,
        shard_count=shard_count if shards is not None else None,
    )
    await serve(bot, link.connect(bot, clock))


def forkserver() -> ForkServerContext:
    """The context bot processes start from: a fork of a server that imported the bot,
    the cogs and the engines once (a restart pays none of it)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


@dataclass
class Move:
    """A click of a player: the action of a seat at a version of the game."""

    game_id: int
    seat: str
    action: str
    seq: int
    """The seq it takes in the log."""
    custom_id: str
    user: FakeUser
    tokens: list[str] = field(default_factory=list)
    """Each try's interaction (a retry after a kill is a new one)."""
    answers: list[str] = field(default_factory=list)
    """What each answered try said."""
    applied: bool = False
    sent_at: float = 0.0
    """When the first try was sent (``time.monotonic``)."""


@dataclass
class Game:
    """One game the players drive, and what they did to it."""

    id: int
    thread: int
    players: dict[str, FakeUser]
    moves: list[Move] = field(default_factory=list)
    away: list[tuple[int, int]] = field(default_factory=list)
    """The seqs the deadlines' defaults may take: ``(after, up to)`` of each away round."""
    missed: Counter[str] = field(default_factory=Counter)
    """The seats' deadlines missed in a row (a seat missing three abandons)."""
    finished: bool = False

    @property
    def outstanding(self) -> Move | None:
        last = self.moves[-1] if self.moves else None
        return last if last is not None and not (last.applied and last.answers) else None


@dataclass
class Report:
    """What a run did and found."""

    games: int = 0
    kills: int = 0
    kills_in_click: int = 0
    """Kills while a click was not answered or its step not told yet."""
    kills_committed_untold: int = 0
    """Kills that left a move committed but not told (seen in the database after)."""
    kills_in_firing: int = 0
    """Kills after the clock made deadlines fall due and before their steps were told."""
    kills_firing_claimed: int = 0
    """Kills that left a deadline claimed, or applied but not told (database after)."""
    kills_idle: int = 0
    kills_in_startup: int = 0
    """Kills before the new process was ready (while it caught up)."""
    restarts: int = 0
    clicks: int = 0
    retries: int = 0
    already_played: int = 0
    stale: int = 0
    firings: int = 0
    """Away rounds (the clock jumped past every game's deadline)."""
    defaults: int = 0
    """Actions the deadlines applied."""
    steps: int = 0
    """Log rows checked."""
    duplicates: int = 0
    gaps: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report, one ``name: value`` a line."""
        values = asdict(self)
        failures = values.pop("failures")
        out = [
            f"{key}: {value:.1f}" if isinstance(value, float) else f"{key}: {value}"
            for key, value in values.items()
        ]
        out.append(f"restarts/s: {self.restarts / self.seconds:.2f}" if self.seconds else "")
        out += [f"FAILURE: {f}" for f in failures]
        return [line for line in out if line]


class Chaos:
    """One run: the host, the bot process, the players and the checks."""

    def __init__(self, workdir: Path, *, games: int, kills: int, seed: int) -> None:
        self.workdir = workdir
        self.concurrent, self.target = games, kills
        self.rng = random.Random(seed)
        self.seed = seed
        self.db = str(workdir / "tallyho.sqlite3")
        self.log_file = str(workdir / "bot.log")
        self.host = DiscordHost(str(workdir / "discord.sock"), now=START)
        self.context = forkserver()
        self.process: BaseProcess | None = None
        self.storage: SQLiteStorage | None = None
        self.oracle: GameService | None = None
        self.games: list[Game] = []
        self.report = Report()
        self.click_times: list[float] = [0.3]
        self.start_times: list[float] = [0.3]
        self._users = itertools.count(1)

    # -- the bot process -----------------------------------------------------------------

    async def start(self, *, kill_in_startup: bool = False) -> None:
        """Start a bot process and wait until it is ready (or kill it on the way)."""
        await self.host.wait_for(lambda: not self.host.links)
        process = self.context.Process(
            target=bot_process,
            args=(self.host.path, self.db, self.seed * 1000, self.log_file, not self.host.commands),
            daemon=True,
        )
        began = time.monotonic()
        process.start()
        self.process = process
        log.debug("started %s", process.pid)
        if kill_in_startup:
            await asyncio.sleep(self.rng.uniform(0, median(self.start_times)))
            if not self.host.links or not self.host.links[0].ready:
                self.report.kills_in_startup += 1
            await self.kill()
            await self.start()
            return
        await self.host.wait_ready(1, timeout=ANSWER_TIMEOUT)
        self.start_times.append(time.monotonic() - began)
        if self.report.kills:
            self.report.restarts += 1

    async def kill(self) -> None:
        """SIGKILL the bot process and wait for it to be gone."""
        process = self.process
        assert process is not None and process.pid is not None
        log.debug("kill %s", process.pid)
        os.kill(process.pid, signal.SIGKILL)
        await asyncio.to_thread(process.join, 30)
        self.process = None
        self.report.kills += 1
        await self.host.wait_for(lambda: not self.host.links)

    async def stop(self) -> None:
        """Stop the bot process gracefully (SIGTERM), as a deploy would."""
        process = self.process
        if process is not None and process.pid is not None:
            os.kill(process.pid, signal.SIGTERM)
            await asyncio.to_thread(process.join, 60)
            if process.is_alive():
                process.kill()
                self.report.failures.append("the bot did not stop on SIGTERM")
        self.process = None

    # -- reading the games (the oracle) -----------------------------------------------

    async def load(self, game: Game) -> LoadedGame:
        assert self.oracle is not None
        return await self.oracle.load(game.id)

    async def told(self, game: Game) -> bool:
        """Every committed step of the game is told (``posted_seq``)."""
        assert self.storage is not None
        record = await self.storage.get_game(game.id)
        assert record is not None
        return record.posted_seq >= record.last_seq

    # -- the players ---------------------------------------------------------------------

    def member(self, name: str) -> FakeUser:
        return self.host.add_member(f"{name}{next(self._users)}")

    async def new_game(self) -> Game:
        """Open a Zero! duel through the bot's commands, as its players would."""
        alice, bob = self.member("alice"), self.member("bob")
        host = self.host
        known = {g.id for g in self.games}
        await self.command(alice, "dogfight new", host.channel_id, ruleset="zero", year=1942)
        record = await self.opened(known)
        assert record.thread_id is not None
        for user, (side, aircraft) in zip((alice, bob), SETUP, strict=True):
            await self.command(
                user, "dogfight join", record.thread_id, side=side, aircraft=aircraft
            )
        await self.command(alice, "dogfight start", record.thread_id)
        game = Game(record.id, record.thread_id, {})  # its first step told before a click
        await self.host.wait_for(lambda: bool(self.steps(game)), ANSWER_TIMEOUT)
        loaded = await self.load(game)
        for seat in loaded.seats:
            holder = loaded.holder(seat.seat)
            game.players[seat.seat] = alice if holder == alice.id else bob
        self.games.append(game)
        self.report.games += 1
        return game

    async def opened(self, known: set[int]) -> GameRecord:
        """The game ``/dogfight new`` opened, once its thread is attached."""
        assert self.storage is not None
        began = time.monotonic()
        while time.monotonic() - began < ANSWER_TIMEOUT:
            for record in await self.storage.list_games():
                if record.id not in known and record.thread_id is not None:
                    return record
            await asyncio.sleep(0.01)
        raise TimeoutError("/dogfight new opened no game")

    async def command(self, user: FakeUser, path: str, channel: int, **options: Any) -> None:
        """Run a slash command and wait for its answer (set-up: no kill meanwhile)."""
        data = self.host._command_data(path, options, guild_id=self.host.guild_of(channel))
        token = self.host.interact(user, 2, data, channel, summary=f"/{path}")
        await self.host.wait_for(lambda: self.answer(token) is not None, ANSWER_TIMEOUT)

    async def choose(self, game: Game) -> Move | None:
        """The next click of the game: a legal action of a seat to act (None: over)."""
        loaded = await self.load(game)
        system, state = loaded.system, loaded.state
        if loaded.record.status is not GameStatus.ACTIVE or state is None:
            game.finished = True
            return None
        pending = system.pending(state)
        seat = self.rng.choice(pending).seat
        version = loaded.record.version
        legal = system.legal_actions(state, seat)
        # A player fights on: an action that ends the game (leaving the fight) only
        # when nothing else is legal, so games last their turns.
        going_on = [a for a in legal if not system.is_over(system.apply(state, seat, a)[0])]
        options = [f"th:a:{game.id}:{seat}:{version}:{a}" for a in going_on or legal]
        custom_id = self.rng.choice([o for o in options if len(o) <= 100])
        action = custom_id.split(":", 5)[5]
        move = Move(
            game.id, seat, action, loaded.record.last_seq + 1, custom_id, game.players[seat]
        )
        game.moves.append(move)
        game.missed[seat] = 0
        return move

    def click(self, game: Game, move: Move) -> None:
        """Click the move's button: the button the bot puts in the seat's hand (its
        DM, or the answer to **My hand**), on a message of the thread."""
        message = copy.deepcopy(self.host.sent_to(game.thread)[-1])
        button = {"type": 2, "custom_id": move.custom_id, "label": move.action, "style": 2}
        message["components"] = [{"type": 1, "components": [button]}]
        data = {"custom_id": move.custom_id, "component_type": 2}
        token = self.host.interact(
            move.user, 3, data, game.thread, message=message, summary=f"click {move.custom_id}"
        )
        move.tokens.append(token)
        move.sent_at = move.sent_at or time.monotonic()
        self.report.clicks += 1
        if len(move.tokens) > 1:
            self.report.retries += 1

    def answer(self, token: str) -> str | None:
        """What the bot answered a click, or None (not yet, or never: it died)."""
        interaction = self.host.interactions[token]
        if interaction.callback_type is None or interaction.loading:
            return None
        if interaction.original_id is None:
            return ""
        return str(self.host.messages[interaction.original_id]["content"])

    async def settled(self, game: Game) -> bool:
        """The game's click was answered (and went through), and every step is told."""
        move = game.outstanding
        if move is not None:
            said = self.answer(move.tokens[-1])
            if said is None:
                return False
            move.answers.append(said)
            if t("refusal.already_played", "en", action=move.action) in said:
                self.report.already_played += 1
            elif not said.startswith("✅"):
                self.report.stale += 1
            move.applied = await self.applied(move)
            if not move.applied:
                self.fail(game, f"{move.custom_id} not applied, answered {said!r}")
                move.applied = True  # the check of the log reports it too
        if not await self.told(game):
            return False
        if move is not None and len(move.tokens) == 1:
            self.click_times.append(time.monotonic() - move.sent_at)
        return True

    async def applied(self, move: Move) -> bool:
        """The move is in the log, at its seq."""
        assert self.storage is not None
        rows = await self.storage.load_actions(move.game_id, after_seq=move.seq - 1)
        return any(r.seq == move.seq and r.action == move.action for r in rows)

    async def quiet(self) -> None:
        """Wait until every game's click is answered and every step told."""
        for game in self.active():
            began = time.monotonic()
            while not await self.settled(game):
                if time.monotonic() - began > ANSWER_TIMEOUT:
                    raise TimeoutError(f"game {game.id}: not told after {ANSWER_TIMEOUT}s")
                # Often: a click's time (click_times, which times the kills) is measured
                # here, and a coarse poll would make it longer than the click.
                await asyncio.sleep(0.002)

    def active(self) -> list[Game]:
        return [g for g in self.games if not g.finished]

    # -- the rounds ----------------------------------------------------------------------

    async def round(self) -> None:
        """One round: clicks, an away round or nothing, then maybe a kill."""
        await self.retry_unanswered()
        for game in self.active():
            if (await self.load(game)).record.status is not GameStatus.ACTIVE:
                game.finished = True
        roll = self.rng.random() if self.report.kills < self.target else 1.0
        log.debug(
            "round: kills %d, roll %.2f, games %s",
            self.report.kills,
            roll,
            [(g.id, len(g.moves)) for g in self.active()],
        )
        if roll < 0.2 and self.may_be_away():
            await self.away()
            return
        for game in self.active():
            if game.outstanding is None and await self.told(game):
                move = await self.choose(game)
                if move is not None:
                    self.click(game, move)
        if roll < 0.75:  # a kill at a moment within a click's usual time
            await asyncio.sleep(self.rng.uniform(0, 0.75 * median(self.click_times[-50:])))
            if self.in_flight():
                self.report.kills_in_click += 1
            await self.kill()
            self.report.kills_committed_untold += await self.committed_untold() > 0
            await self.start(kill_in_startup=self.rng.random() < STARTUP_KILLS)
        elif roll < 0.85:
            await self.quiet()
            self.report.kills_idle += 1
            await self.kill()
            await self.start()
        else:
            await self.quiet()

    def in_flight(self) -> bool:
        """A click of a game is not answered, or its step is not in the thread yet."""
        for game in self.active():
            move = game.outstanding
            if move is None or not move.tokens:
                continue
            if self.answer(move.tokens[-1]) is None or self.thread_seq(game) < move.seq:
                return True
        return False

    def thread_seq(self, game: Game) -> int:
        """The last seq the game's thread tells (its latest step's **My hand**)."""
        seqs = [s for _, s in self.steps(game)]
        return max(seqs, default=0)

    async def committed_untold(self) -> int:
        """How many games have a move committed that their thread was not told."""
        count = 0
        for game in self.active():
            if not await self.told(game):
                count += 1
        return count

    async def retry_unanswered(self) -> None:
        """After a restart: a click that got no answer is clicked again (same
        custom_id); one answered is settled. Then, one time in ten, a player clicks
        their last move's button again (an old message on a phone)."""
        for game in self.active():
            move = game.outstanding
            if move is not None and move.tokens and self.answer(move.tokens[-1]) is None:
                self.click(game, move)
        await self.quiet()
        for game in self.active():
            if self.rng.random() < 0.1:
                await self.click_again(game)

    async def click_again(self, game: Game) -> None:
        """A click on the button of a move that went through: the bot says it did
        (``refusal.already_played``) and changes nothing (the log's check)."""
        move = game.moves[-1] if game.moves else None
        if move is None or not move.applied or not move.answers:
            return
        self.click(game, move)
        began = time.monotonic()
        while (said := self.answer(move.tokens[-1])) is None:
            if time.monotonic() - began > ANSWER_TIMEOUT:
                raise TimeoutError(f"game {game.id}: a click again not answered")
            await asyncio.sleep(0.01)
        if t("refusal.already_played", "en", action=move.action) in said:
            self.report.already_played += 1
        else:
            self.fail(game, f"{move.custom_id} clicked again, answered {said!r}")

    def may_be_away(self) -> bool:
        """An away round misses every pending seat's deadline: not for a seat that
        missed two in a row already (three abandon the seat)."""
        return all(max(g.missed.values(), default=0) < 2 for g in self.active())

    async def away(self) -> None:
        """The players are away: the clock jumps past every deadline; the bot is
        killed a random moment later (or, one time in four, left to finish)."""
        assert self.storage is not None
        for game in self.active():
            loaded = await self.load(game)
            assert loaded.state is not None
            for p in loaded.system.pending(loaded.state):
                game.missed[p.seat] += 1
            game.away.append((loaded.record.last_seq, -1))
        self.report.firings += 1
        self.host.advance(AWAY)
        if self.rng.random() < 0.75:
            await asyncio.sleep(self.rng.uniform(0, 1.5 * median(self.click_times[-50:])))
            if any(self.thread_seq(g) <= g.away[-1][0] for g in self.active()):
                self.report.kills_in_firing += 1
            await self.kill()
            self.report.kills_firing_claimed += await self.firing_interrupted()
            await self.start()
        await self.firings_done()

    async def firing_interrupted(self) -> bool:
        """A deadline claimed but not done, or a default applied but not told."""
        assert self.storage is not None
        for game in self.active():
            if not await self.told(game):
                return True
        async with self.storage._conn.execute(
            "SELECT count(*) FROM deadlines WHERE fired_at IS NOT NULL AND done_at IS NULL"
            " AND cancelled_at IS NULL"
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row and row[0])

    async def fired(self, game: Game) -> bool:
        """No deadline of the game is due any more, and every step is told."""
        assert self.storage is not None
        live = await self.storage.live_deadlines(game.id)
        return all(d.expires_at > self.host.now for d in live) and await self.told(game)

    async def firings_done(self) -> None:
        """Wait until the away round's defaults are applied and told in every game."""
        for game in self.active():
            after, _ = game.away[-1]
            began = waited = time.monotonic()
            while True:
                loaded = await self.load(game)
                if loaded.record.last_seq > after and await self.fired(game):
                    break
                if time.monotonic() - began > ANSWER_TIMEOUT:
                    raise TimeoutError(f"game {game.id}: no default applied after {AWAY}")
                if time.monotonic() - waited > 0.5 and await self.firing_interrupted():
                    # a kill inside the firing left its claim: it passes on when the
                    # claim's lease ends (the scheduler's retry delay), a minute later
                    self.host.advance(LEASE)
                    waited = time.monotonic()
                await asyncio.sleep(0.01)
            game.away[-1] = (after, loaded.record.last_seq)
            self.report.defaults += loaded.record.last_seq - after
            if loaded.record.status is not GameStatus.ACTIVE:
                game.finished = True

    # -- the run -------------------------------------------------------------------------

    async def run(self) -> Report:
        began = time.monotonic()
        await self.host.listen()
        try:
            await self.start()
            self.storage = await SQLiteStorage.open(self.db)
            self.oracle = GameService(self.storage)
            while self.report.kills < self.target or self.active():
                while len(self.active()) < self.concurrent and self.report.kills < self.target:
                    await self.new_game()
                await self.round()
            await self.quiet()
            log.info(
                "median start %.3fs, click %.3fs",
                median(self.start_times),
                median(self.click_times),
            )
            await self.stop()
            self.report.seconds = time.monotonic() - began
            for game in self.games:
                await self.check(game)
            self.check_log()
        finally:
            if self.process is not None and self.process.is_alive():
                self.process.kill()
                self.process.join(10)
            await self.host.close()
            if self.storage is not None:
                await self.storage.close()
        return self.report

    # -- the checks ----------------------------------------------------------------------

    def fail(self, game: Game, what: str) -> None:
        self.report.failures.append(f"game {game.id}: {what}")

    def steps(self, game: Game) -> list[tuple[int, int]]:
        """The thread's step messages: ``(index in the thread, seq told)``, in order."""
        marker = f"th:hand:{game.id}:"
        found = []
        for i, message in enumerate(self.host.sent_to(game.thread)):
            for row in message.get("components") or ():
                for item in row.get("components") or (row,):
                    custom_id = str(item.get("custom_id") or "")
                    if custom_id.startswith(marker):
                        found.append((i, int(custom_id[len(marker) :].split(":")[0])))
        return found

    async def check(self, game: Game) -> None:
        """The game finished, its log is the players' moves and the deadlines' defaults
        (each once), it replays to its result, and its thread told every step once."""
        assert self.storage is not None
        loaded = await self.load(game)
        record, system = loaded.record, loaded.system
        if record.status is not GameStatus.FINISHED:
            self.fail(game, f"not finished ({record.status})")
        rows = await self.storage.load_actions(game.id)
        self.report.steps += len(rows)
        if [r.seq for r in rows] != list(range(1, len(rows) + 1)):
            self.fail(game, f"log seqs {[r.seq for r in rows]}")
        log = [(r.seq, r.seat or "", r.action) for r in rows]
        history = replay_history(system, loaded.setup, record.seed, log)
        verified = verify_game(
            system,
            game_id=game.id,
            setup=loaded.setup,
            seed=record.seed,
            commitment=record.options.get("commitment"),
            log=log,
            recorded_result=record.result,
        )
        if not verified.ok:
            self.fail(game, "the log does not replay to its result")
        clicks = {m.seq: m for m in game.moves}
        before = history.start
        for entry in history.log_rows:
            seq, seat, action = entry.seq, entry.seat, entry.text
            move = clicks.pop(seq, None)
            if move is not None:
                if (move.seat, move.action) != (seat, action):
                    self.fail(
                        game, f"seq {seq} is {seat} {action}, the player sent {move.custom_id}"
                    )
            elif not any(a < seq <= b for a, b in game.away):
                self.fail(game, f"seq {seq} ({seat} {action}) was neither clicked nor a default")
            elif str(system.default_action(before, seat)) != action:
                self.fail(game, f"seq {seq} ({seat} {action}) is not the seat's default")
            before = entry.after
        for move in clicks.values():
            self.fail(game, f"the click {move.custom_id} (seq {move.seq}) is not in the log")
        self.check_thread(game, history, record.last_seq, record.seed)

    def check_thread(self, game: Game, history: Any, last: int, seed: int) -> None:
        """Every step told once, in order, with its narration; the report once."""
        thread = self.host.sent_to(game.thread)
        steps = self.steps(game)
        told = [seq for _, seq in steps]
        self.report.duplicates += sum(b <= a for a, b in itertools.pairwise(told))
        if told and told[-1] != last:
            self.fail(game, f"the thread tells up to {told[-1]}, the log has {last}")
        bounds = [(0, -1), *steps]
        for (start, since), (end, upto) in itertools.pairwise(bounds):
            text = "\n".join(str(m.get("content") or "") for m in thread[start + 1 : end + 1])
            at = 0
            for entry in history.log_rows:
                if not since < entry.seq <= upto:
                    continue
                for event in entry.events:
                    if event.seat is not None:
                        continue
                    line = tr(event.text, "en")
                    found = text.find(line, at)
                    if found < 0:
                        self.report.gaps += 1
                        self.fail(game, f"seq {entry.seq}: {line!r} not told")
                    else:
                        at = found + len(line)
        said = t("history.seed", "en", seed=seed).removesuffix(".")  # or seed_committed
        reports = sum(said in str(m.get("content")) for m in thread)
        if reports != 1:
            self.fail(game, f"the after-action report was posted {reports} times")
        if self.report.duplicates:
            self.fail(game, f"steps told twice: {told}")

    def check_log(self) -> None:
        """The bot processes logged no error."""
        with open(self.log_file, encoding="utf-8", errors="replace") as log:
            for line in log:
                if " ERROR " in line or "Traceback" in line:
                    self.report.failures.append(f"bot log: {line.strip()}")


async def chaos(workdir: Path, *, games: int, kills: int, seed: int) -> Report:
    """Run the chaos test in ``workdir`` (a fresh folder) and return its report. The
    forkserver is stopped after: nothing is left running."""
    try:
        return await Chaos(workdir, games=games, kills=kills, seed=seed).run()
    finally:
        multiprocessing.forkserver._forkserver._stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=4, help="games played at once")
    parser.add_argument("--kills", type=int, default=1000, help="kills at least")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None, help="keep the run's files here")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every round")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    with contextlib.ExitStack() as stack:
        workdir = args.dir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        workdir.mkdir(parents=True, exist_ok=True)
        report = asyncio.run(chaos(workdir, games=args.games, kills=args.kills, seed=args.seed))
    print(json.dumps(asdict(report), indent=1) if args.json else "\n".join(report.lines()))
    return 1 if report.failures or report.duplicates or report.gaps else 0


if __name__ == "__main__":
    # Run as bench.chaos, so the bot processes (forked from the forkserver, which
    # imports bench.chaos) find bot_process under that name.
    import bench.chaos

    sys.exit(bench.chaos.main())
