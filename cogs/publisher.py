"""The Discord side of :class:`bot.publishing.Publisher`: what the application posts on
its own initiative (the scheduler's reminders and default moves, abandoned seats,
lapsed prompts) goes through here to the game's thread and to DMs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.publishing import Publisher
from bot.service import LoadedGame, Outcome
from cogs import seats
from cogs.ui import publish, send_dm

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["DiscordPublisher"]


class DiscordPublisher(Publisher):
    """Posts through one bot's connection."""

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    async def publish(self, outcome: Outcome, *, skip_user: int | None = None) -> None:
        await publish(self.bot, outcome, skip_user=skip_user)

    async def say(self, game: LoadedGame, text: str) -> None:
        await seats.say(self.bot, game, text)

    async def direct(self, user_id: int, text: str) -> bool:
        return await send_dm(self.bot, user_id, text, None)

    async def offer_seat(self, game: LoadedGame, seat: str, kind: str, text: str) -> None:
        public = await seats.public_language(self.bot, game)
        view = seats.take_seat_view(game.id, seat, public)
        await seats.post_prompt(self.bot, game, kind, text, view)

    async def close_lapsed(self, game_id: int) -> None:
        await seats.close_lapsed(self.bot, game_id)
