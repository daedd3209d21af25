"""Deadlines at work: the scheduler wired to the games and to Discord.

:class:`DeadlineOps` listens to every committed change of a game
(``GameService.listeners``) and keeps the scheduler's deadlines in line with the
pending decisions; when a reminder falls due it pings the player in the thread and by
DM (unless they turned DMs off); when a deadline passes it applies the seat's default
(``GameService.default_move``: the passive choice, or a computer player where the
server allows it and the player did not ask for auto-pass) and publishes what
happened, with the reason. A seat that misses too many deadlines in a row is
announced as abandoned.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.clock import Clock
from bot.scheduler import DeadlineScheduler, PendingDecision, StoredTerms
from bot.service import LoadedGame, decision_words
from bot.settings import DeadlinePolicy, PlayerSettings, wants_dm
from bot.storage import GameStatus
from bot.storage.models import DeadlineRecord, SeatClockRecord

if TYPE_CHECKING:
    from bot.app import TallyHoBot

__all__ = ["DeadlineOps", "discord_time"]

log = logging.getLogger(__name__)


def discord_time(when: datetime) -> str:
    """A time every reader sees in their own time zone: ``<t:…:f> (<t:…:R>)``."""
    ts = int(when.timestamp())
    return f"<t:{ts}:f> (<t:{ts}:R>)"


class DeadlineOps:
    """Owns the bot's :class:`DeadlineScheduler`."""

    def __init__(self, bot: TallyHoBot, *, clock: Clock | None = None) -> None:
        assert bot.storage is not None
        self.bot = bot
        self.terms = StoredTerms(bot.storage, DeadlinePolicy)
        self.scheduler = DeadlineScheduler(
            bot.storage,
            on_reminder=self.on_reminder,
            on_due=self.on_due,
            clock=clock,
            terms=self.terms,
        )
        bot.service.listeners.append(self.changed)

    async def start(self) -> int:
        """Load every live deadline; overdue ones fire once, right away."""
        return await self.scheduler.start()

    async def stop(self) -> None:
        await self.scheduler.stop()

    # -- the game changed ------------------------------------------------------------
    async def changed(self, game: LoadedGame, actor: str | None) -> None:
        state = game.state
        if game.record.status is not GameStatus.ACTIVE or state is None or state.step == "over":
            await self.scheduler.cancel_game(game.id)
            return
        engine = self.bot.service.engine
        pending = [
            PendingDecision(p.seat, p.kind, game.holder(p.seat)) for p in engine.pending(state)
        ]
        await self.scheduler.sync(game.id, game.record.version, pending, actor=actor)

    def deadline_of(self, game_id: int) -> DeadlineRecord | None:
        """The game's earliest live deadline (for /game list and /game status)."""
        live = self.scheduler.of_game(game_id)
        return min(live, key=lambda d: d.expires_at) if live else None

    # -- scheduler callbacks ---------------------------------------------------------
    async def on_reminder(self, d: DeadlineRecord, n: int) -> None:
        service = self.bot.service
        game = await service.load(d.game_id)
        if game.state is None or d.user_id is None:
            return
        total = len(d.reminder_ats)
        label = service.element_label(game.state, d.seat)
        text = (
            f"⏰ Reminder {n}/{total}: <@{d.user_id}>, {label} must "
            f"{decision_words(d.kind)} by {discord_time(d.expires_at)}; "
            "then the default applies."
        )
        await self._say(game, text)
        if await wants_dm(service.storage, d.user_id):
            from cogs.ui import send_dm

            await send_dm(self.bot, d.user_id, f"**Dogfight #{game.id}**: {text}", None)

    async def on_due(self, d: DeadlineRecord, seat_clock: SeatClockRecord) -> None:
        service = self.bot.service
        policy = await self.terms.settings(d.game_id)
        computer = False
        if isinstance(policy, DeadlinePolicy) and policy.default_action == "computer":
            wants_pass = (
                d.user_id is not None
                and (await PlayerSettings.load(service.storage, d.user_id)).auto_pass
            )
            computer = policy.computer_players and not wants_pass
        outcome = await service.default_move(d.id, d.game_id, d.seat, d.kind, computer=computer)
        if outcome is None:
            return
        from cogs.ui import publish

        await publish(self.bot, outcome)
        if policy is not None and policy.abandoned(seat_clock.missed_in_a_row):
            await self._say(
                outcome.game,
                f"⚠ Seat {d.seat} has missed {seat_clock.missed_in_a_row} deadlines in a row: "
                "the host or an admin may hand it to a substitute.",
            )

    async def _say(self, game: LoadedGame, text: str) -> None:
        thread_id = game.record.thread_id
        if thread_id is None:
            return
        try:
            channel = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            assert isinstance(channel, discord.abc.Messageable)
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException:
            log.warning("game %s: could not post in the thread", game.id, exc_info=True)
