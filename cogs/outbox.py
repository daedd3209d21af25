"""Posting what a game's thread was not told, once and in order (the outbox).

A game's committed actions after its ``posted_seq`` are untold (:mod:`bot.outbox`):
a crash, a timeout or an outage of Discord came between the move and its post.
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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.outbox import untold
from bot.outcome import Outcome
from bot.storage import GameRecord, GameStatus
from cogs import publisher
from cogs.history import post_after_action

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["HISTORY_LIMIT", "RETRY_DELAYS", "Outbox"]

log = logging.getLogger(__name__)

RETRY_DELAYS = (5.0, 30.0, 120.0, 600.0)
"""Seconds before each retry of a failed post; the last one repeats until it works."""
HISTORY_LIMIT = 25
"""The thread's latest messages read for a step told but not marked (a crash between
Discord accepting the post and the mark: the very latest one, in practice)."""


class Outbox:
    """The untold steps of one bot's games: catching up, and retrying a failed post."""

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._behind: set[int] = set()
        self._retries: dict[int, asyncio.Task[None]] = {}

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
        """At start-up: post every game's untold steps (open games and games that ended
        since); a game that cannot be told now is retried later. Returns how many games
        were behind."""
        games = await self.bot.service.storage.list_unposted_games()
        for record in games:
            try:
                await self.catch_up(record.id)
            except Exception:
                log.warning(
                    "game %s: its untold steps could not be posted", record.id, exc_info=True
                )
                self.failed(record.id)
        return len(games)

    async def stop(self) -> None:
        """Cancel the retries (the steps stay untold in the database: the next start
        posts them)."""
        tasks = list(self._retries.values())
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
            if record is None or record.posted_seq >= record.last_seq:
                self._behind.discard(game_id)
                return None
            told, followed = await self._told_in_thread(record)
            since = max(record.posted_seq, told)
            if told >= record.last_seq and not followed and record.status is GameStatus.FINISHED:
                # The game's end was posted, not its after-action report (cogs.publisher).
                game = await self.bot.service.load(game_id)
                channel = await self._thread(record)
                await post_after_action(self.bot, game, channel)
            if since > record.posted_seq:  # posted, but the mark was never written
                await storage.mark_posted(game_id, since)
            outcome = await untold(self.bot.service, game_id, since)
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

    async def _told_in_thread(self, record: GameRecord) -> tuple[int, bool]:
        """The last seq a bot message among the thread's latest says it told (0: none),
        and whether a bot message follows the latest such message (the after-action
        report follows a game's last step)."""
        if record.thread_id is None or self.bot.user is None:
            return 0, False
        channel = await self._thread(record)
        marker = re.compile(rf"th:hand:{record.id}:(\d+)")
        told, followed, newer = 0, False, False
        async for message in channel.history(limit=HISTORY_LIMIT):  # newest first
            if message.author.id != self.bot.user.id:
                continue
            seqs = [
                int(found[1])
                for row in message.components
                for item in getattr(row, "children", (row,))
                if (found := marker.fullmatch(str(getattr(item, "custom_id", "") or "")))
            ]
            if seqs and not told:
                followed = newer
            told = max([told, *seqs])
            newer = True
        return told, followed

    async def _retry(self, game_id: int) -> None:
        """Post the game's untold steps after a delay, again and again with backoff
        until it works; a campaign's mission that ended is then absorbed."""
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
