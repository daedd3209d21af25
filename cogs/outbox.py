"""Posting what a game's thread was not told, once and in order (the outbox).

A game's committed actions after its ``posted_seq`` are untold (:mod:`bot.outbox`):
a crash, a timeout or an outage of Discord came between the move and its post. So are
a start (``start_told``) and an end without an action (``end_told``) until posted.
:meth:`Outbox.catch_up` posts them as the move would have (``cogs.publisher.tell``:
narration, picture, pings, DMs, side menus, followers, the after-action report), and
:func:`~cogs.publisher.tell` marks them told once Discord accepted the thread's
message. It runs at start-up for every game behind (before the bot takes
interactions or fires deadlines), and after a failed post: the next move of that
game goes through it (its step follows the untold ones), and a background retry with
backoff (:data:`RETRY_DELAYS`) posts them if no move comes.

Exactly once: the thread's message of a step carries the seq it tells on its **My
hand** button (``th:hand:{game}:{seq}``). A crash after Discord accepted it but before
the mark is written leaves the seq in the thread: :meth:`Outbox.catch_up` reads the
thread's latest messages first and marks what they tell instead of posting it again.
Nothing here is needed to recover but the database and the thread.

**Several processes.** A game's catching up belongs to the process whose shards hold
its guild (:meth:`~cogs.app.TallyHoBot.owns_guild`): the start-up catch-up, the
retries and a periodic sweep (:meth:`Outbox.sweep`, every :data:`SWEEP_SECONDS`) look
at that process's guilds only, so two processes never catch up one game at once.
Another process may still post a game's live steps (any process fires any deadline);
when such a post fails, or that process is killed between a default move and its
post, the owner's sweep tells the game once it has been quiet for :data:`SETTLE` (a
live post of that long would be a stuck one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord

from bot.outbox import untold, untold_end
from bot.outcome import Outcome
from bot.storage import GameRecord, GameStatus, utc_now
from cogs import publisher
from cogs.history import post_after_action

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["HISTORY_LIMIT", "RETRY_DELAYS", "SETTLE", "SWEEP_SECONDS", "Outbox", "Shown"]

log = logging.getLogger(__name__)

RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0)
"""Seconds before each retry of a failed post; the last one repeats until it works."""
HISTORY_LIMIT = 25
"""The thread's latest messages read for a step told but not marked (a crash between
Discord accepting the post and the mark: the very latest one, in practice)."""
SWEEP_SECONDS = 60.0
"""How often a process looks for its guilds' games left untold by another process."""
SETTLE = timedelta(minutes=2)
"""A game changed more recently than this is left to whoever is posting it (the
sweep's margin)."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What a game's thread shows of its steps (:meth:`Outbox.catch_up` reads it)."""

    told: int = 0
    """The last seq a step's message says it told (0: none)."""
    followed: bool = False
    """A bot message follows the latest step's (the after-action report follows a
    game's last step)."""
    end: bool = False
    """The latest step's message tells an end without an action (its marker's
    ``:end``)."""
    step: bool = False
    """Some step's message is there: the start's, at least, was told."""
    begins: bool = False
    """The start command's answer (its **My hand** names no seq) is there."""


class Outbox:
    """The untold steps of one bot's games: catching up, and retrying a failed post."""

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._behind: set[int] = set()
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def behind(self, game_id: int) -> bool:
        """A post of this game failed and its steps are not all told yet."""
        return game_id in self._behind

    def failed(self, game_id: int) -> None:
        """A post of the game failed: its next post catches up first, and a retry is
        scheduled (one per game)."""
        self._behind.add(game_id)
        running = self._retries.get(game_id)
        if running is None or running.done():
            self._retries[game_id] = asyncio.create_task(self._retry(game_id))

    async def start(self) -> int:
        """At start-up: post the untold steps of every game of this process's guilds
        (open games and games that ended since); a game that cannot be told now is
        retried later. Then sweep every :data:`SWEEP_SECONDS`. Returns how many games
        were behind."""
        games = [
            record
            for record in await self.bot.service.storage.list_unposted_games()
            if self.bot.owns_guild(record.guild_id)
        ]
        for record in games:
            await self._tell(record.id)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="outbox-sweep")
        return len(games)

    async def sweep(self, now: datetime | None = None) -> int:
        """Post the untold steps of this process's guilds' games quiet for
        :data:`SETTLE` before ``now`` (default: the time) and not being retried here:
        what a post that failed in another process, or a process killed before its
        post, left untold. Returns how many games it caught up."""
        now = utc_now() if now is None else now
        count = 0
        for record in await self.bot.service.storage.list_unposted_games():
            running = self._retries.get(record.id)
            if (
                not self.bot.owns_guild(record.guild_id)
                or record.updated_at > now - SETTLE
                or (running is not None and not running.done())
            ):
                continue
            await self._tell(record.id)
            count += 1
        return count

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:
                log.warning("the outbox sweep failed; trying again later", exc_info=True)

    async def _tell(self, game_id: int) -> None:
        """Catch the game up; if that fails, retry it later."""
        try:
            await self.catch_up(game_id)
        except Exception:
            log.warning("game %s: its untold steps could not be posted", game_id, exc_info=True)
            self.failed(game_id)

    async def stop(self) -> None:
        """Cancel the sweep and the retries (the steps stay untold in the database: the
        next start posts them)."""
        sweeper, self._sweeper = self._sweeper, None
        tasks = [*([sweeper] if sweeper is not None else []), *self._retries.values()]
        self._retries.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def catch_up(self, game_id: int, skip_user: int | None = None) -> Outcome | None:
        """Post the game's untold steps, in one message as one move would, and mark them
        told; return what was posted (None: nothing was untold, or the thread already
        showed it). ``skip_user`` was answered already. Raises what the post raised
        (nothing is marked then)."""
        storage = self.bot.service.storage
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            record = await storage.get_game(game_id)
            if record is None or (
                record.posted_seq >= record.last_seq and record.end_told and record.start_told
            ):
                self._behind.discard(game_id)
                return None
            shown = await self._shown_in_thread(record)
            since = max(record.posted_seq, shown.told)
            # The message telling the game's end is in the thread: its last step's, or
            # the one telling an end without an action (a resignation, an abort).
            end_posted = record.end_told or shown.end
            # Any step's message in the thread comes after the start's (told in order).
            start_untold = not record.start_told and not shown.step
            over = record.status in (GameStatus.FINISHED, GameStatus.ABORTED)
            if over and end_posted and shown.told >= record.last_seq and not shown.followed:
                # The game's end was posted, not its after-action report (cogs.publisher).
                game = await self.bot.service.load(game_id)
                channel = await self._thread(record)
                await post_after_action(self.bot, game, channel)
            if (
                since > record.posted_seq
                or (shown.end and not record.end_told)
                or (shown.step and not record.start_told)
            ):  # posted, but the mark was never written
                await storage.mark_posted(game_id, since, end=shown.end)
            if end_posted:
                outcome = await untold(self.bot.service, game_id, since, start=start_untold)
            else:
                outcome = await untold_end(self.bot.service, game_id, since, start=start_untold)
            if outcome is not None and start_untold and not shown.begins:
                # the start command's own answer (cogs.dogfight) was lost too
                outcome.public.insert(0, outcome.game.presenter.begins(outcome.game.options))
            if outcome is not None:
                await publisher.tell(self.bot, outcome, skip_user)
            self._behind.discard(game_id)
            return outcome

    async def _thread(self, record: GameRecord) -> discord.abc.Messageable:
        assert record.thread_id is not None
        channel = self.bot.get_channel(record.thread_id) or await self.bot.fetch_channel(
            record.thread_id
        )
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _shown_in_thread(self, record: GameRecord) -> Shown:
        """What the bot's messages among the thread's latest show of the game's steps."""
        if record.thread_id is None or self.bot.user is None:
            return Shown()
        channel = await self._thread(record)
        marker = re.compile(rf"th:hand:{record.id}(?::(\d+)(:end)?)?")
        told, followed, newer, end, step, begins = 0, False, False, False, False, False
        async for message in channel.history(limit=HISTORY_LIMIT):  # newest first
            if message.author.id != self.bot.user.id:
                continue
            matches = [
                match
                for row in message.components
                for item in getattr(row, "children", (row,))
                if (match := marker.fullmatch(str(getattr(item, "custom_id", "") or "")))
            ]
            begins = begins or any(match[1] is None for match in matches)
            found = [match for match in matches if match[1] is not None]
            if found and not step:  # the latest message telling a step
                step, followed = True, newer
                end = any(match[2] for match in found)
            told = max([told, *(int(match[1]) for match in found)])
            newer = True
        return Shown(told, followed, end, step, begins)

    async def _retry(self, game_id: int) -> None:
        """Post the game's untold steps after a delay, again and again with backoff
        until it works; a campaign's mission that ended is then absorbed. A game of
        another process's guild is left to that process's sweep."""
        record = await self.bot.service.storage.get_game(game_id)
        if record is not None and not self.bot.owns_guild(record.guild_id):
            log.info("game %s: another process's guild; its sweep tells the game", game_id)
            self._retries.pop(game_id, None)
            return
        attempt = 0
        while True:
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1
            try:
                outcome = await self.catch_up(game_id)
            except Exception:
                log.warning("game %s: retry %d of its post failed", game_id, attempt, exc_info=True)
                continue
            self._retries.pop(game_id, None)
            if outcome is not None and outcome.finished and outcome.game.record.campaign_id:
                await self.bot.game_ended(game_id)
            return
