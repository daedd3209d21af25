"""``/game follow|unfollow|vacation|orders``: spectators and players who are away.

Thin: storage and the scheduler do the work; the game's system's standing orders
decide the moves. Every answer is ephemeral.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.errors import Refusal, UserError
from bot.games import LoadedGame
from bot.operations import discord_time
from bot.service import GameService
from bot.settings import server_language
from bot.storage import GameStatus
from bot.words import and_list
from cogs.context import language_of, reply, service_of
from cogs.publisher import say
from strings import t, tr

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["deadline_lines", "follow", "orders", "vacation"]


async def deadline_lines(service: GameService, game: LoadedGame, language: str = "en") -> str:
    """Deadlines of the decisions a game waits on, and who is on vacation until when."""
    if game.record.status is not GameStatus.ACTIVE or game.state is None:
        return ""
    lines = []
    for d in sorted(await service.storage.live_deadlines(game.id), key=lambda d: d.expires_at):
        label = game.seat_label(d.seat)
        when = discord_time(d.expires_at)
        lines.append(t("people.deadline", language, element=label, when=when))
    for c in await service.storage.list_seat_clocks(game.id):
        if c.vacation_until is not None:
            label = game.seat_label(c.seat)
            when = discord_time(c.vacation_until)
            lines.append(t("people.on_vacation", language, element=label, until=when))
    return "".join("\n" + line for line in lines)


async def follow(interaction: discord.Interaction, *, on: bool) -> None:
    service = service_of(interaction)
    game = await service.game_in_channel(interaction.channel_id)
    if game is None:
        raise Refusal("people.in_thread")
    if on and game.seats_of(interaction.user.id):
        raise Refusal("people.plays_already")
    language = await language_of(interaction)
    if on:
        await service.storage.follow(game.id, interaction.user.id)
        text = t("people.follow", language, id=game.id)
    else:
        done = await service.storage.unfollow(game.id, interaction.user.id)
        key = "people.unfollow" if done else "people.not_following"
        text = t(key, language, id=game.id)
    await reply(interaction, text)


async def vacation(bot: TallyHoBot, interaction: discord.Interaction, days: int) -> None:
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    seats = game.seats_of(interaction.user.id)
    if not seats:
        raise Refusal("refusal.not_playing")
    if game.record.status is not GameStatus.ACTIVE:
        raise Refusal("people.not_running")
    ops = bot.deadlines
    if ops is None:
        raise Refusal("people.no_deadlines")
    language = await language_of(interaction)
    public = await server_language(service.storage, game.record.guild_id)
    user = f"<@{interaction.user.id}>"
    now = ops.scheduler.clock.now()
    if days == 0:
        for seat in seats:
            await ops.scheduler.set_vacation(game.id, seat, None, None)
        await reply(interaction, t("people.vacation_over", language))
        await say(bot, game, t("people.back", public, user=user))
        return
    until = now + timedelta(days=days)
    policy = await ops.terms.settings(game.id)
    if policy is not None:
        why = policy.vacation_refusal(now, until)
        if why:
            raise UserError(why)
    for seat in seats:
        await ops.scheduler.set_vacation(game.id, seat, now, until)
    when = discord_time(until)
    await reply(interaction, t("people.paused", language, until=when))
    await say(bot, game, t("people.away", public, user=user, seats=", ".join(seats), until=when))


async def orders(
    interaction: discord.Interaction, order: str | None, cancel: bool, seat: str | None
) -> None:
    """Show, add or cancel a seat's standing orders; only their owner sees them."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    mine = game.seats_of(interaction.user.id)
    if not mine:
        raise Refusal("refusal.not_playing")
    seat = seat.strip().upper() if seat else mine[0]
    if seat not in mine:
        game.require_seat(seat)  # a seat of no one: say which seats there are
        raise Refusal("refusal.seat_of_other", seat=seat, mine=and_list(mine))
    current = await service.update_orders(game.id, seat, order, cancel=cancel)
    language = await language_of(interaction)
    label = game.system.order_label
    shown = "\n".join(f"• {tr(label(o), language)} (`{o}`)" for o in current)
    shown = shown or "• " + t("people.no_orders", language)
    await reply(interaction, t("people.orders", language, seat=seat) + "\n" + shown)
