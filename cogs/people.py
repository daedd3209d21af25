"""``/game follow|unfollow|vacation|orders``: spectators and players who are away.

Thin: storage and the scheduler do the work; the engine's standing orders
(:mod:`engine.dif.orders`) decide the moves. Every answer is ephemeral.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.operations import discord_time
from bot.service import GameService, LoadedGame
from bot.storage import GameStatus
from cogs.ui import reply, service_of
from engine.dif.orders import Order

if TYPE_CHECKING:
    from bot.app import TallyHoBot

__all__ = ["deadline_lines", "follow", "orders", "vacation"]


async def deadline_lines(service: GameService, game: LoadedGame) -> str:
    """Deadlines of the decisions a game waits on, and who is on vacation until when."""
    if game.record.status is not GameStatus.ACTIVE or game.state is None:
        return ""
    lines = []
    for d in sorted(await service.storage.live_deadlines(game.id), key=lambda d: d.expires_at):
        label = service.element_label(game.state, d.seat)
        lines.append(f"⏰ {label}: the default applies {discord_time(d.expires_at)}.")
    for c in await service.storage.list_seat_clocks(game.id):
        if c.vacation_until is not None:
            label = service.element_label(game.state, c.seat)
            lines.append(
                f"🏖 {label} is on vacation: the game waits on it until {discord_time(c.vacation_until)}."
            )
    return "".join("\n" + line for line in lines)


async def follow(interaction: discord.Interaction, *, on: bool) -> None:
    service = service_of(interaction)
    game = await service.game_in_channel(interaction.channel_id)
    if game is None:
        raise UserError("Use this in a game's thread.")
    if on and game.seats_of(interaction.user.id):
        raise UserError("You play in this game: you already get its prompts.")
    if on:
        await service.storage.follow(game.id, interaction.user.id)
        text = (
            f"You follow dogfight #{game.id}: each move reaches you by DM (only what the "
            "thread shows). `/game unfollow` stops it."
        )
    else:
        done = await service.storage.unfollow(game.id, interaction.user.id)
        text = (
            f"You no longer follow dogfight #{game.id}." if done else "You were not following it."
        )
    await reply(interaction, text)


async def vacation(bot: TallyHoBot, interaction: discord.Interaction, days: int) -> None:
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    seats = game.seats_of(interaction.user.id)
    if not seats:
        raise UserError("You are not playing in this game.")
    if game.record.status is not GameStatus.ACTIVE:
        raise UserError("This game is not running.")
    ops = bot.deadlines
    if ops is None:
        raise UserError("Deadlines are not running on this bot.")
    now = ops.scheduler.clock.now()
    if days == 0:
        for seat in seats:
            await ops.scheduler.set_vacation(game.id, seat, None, None)
        await reply(interaction, "Your vacation is over: your deadlines run again.")
        await ops._say(game, f"<@{interaction.user.id}> is back: their deadlines run again.")
        return
    until = now + timedelta(days=days)
    policy = await ops.terms.settings(game.id)
    if policy is not None:
        why = policy.vacation_refusal(now, until)
        if why:
            raise UserError(why)
    for seat in seats:
        await ops.scheduler.set_vacation(game.id, seat, now, until)
    await reply(interaction, f"Your deadlines in this game are paused until {discord_time(until)}.")
    await ops._say(
        game,
        f"🏖 <@{interaction.user.id}> is on vacation: the game waits on "
        f"{', '.join(seats)} until {discord_time(until)}.",
    )


async def orders(
    interaction: discord.Interaction, order: str | None, cancel: bool, seat: str | None
) -> None:
    """Show, add or cancel a seat's standing orders; only their owner sees them."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    mine = game.seats_of(interaction.user.id)
    if not mine:
        raise UserError("You are not playing in this game.")
    if seat is not None and seat.strip().upper() not in mine:
        raise UserError("That seat belongs to another player.")
    seat = seat.strip().upper() if seat else mine[0]
    settings = await service.game_settings(game.id)
    all_orders: dict[str, list[str]] = dict(settings.get("orders", {}))
    current = list(all_orders.get(seat, []))
    if order is not None:
        o = Order(order)
        if cancel:
            if o.value not in current:
                raise UserError(f"{seat} has no such order.")
            current.remove(o.value)
        elif o.value not in current:
            current.append(o.value)
        all_orders[seat] = current
        await service.storage.put_game_settings(game.id, {**settings, "orders": all_orders})
    shown = "\n".join(f"• {Order(o).label} (`{o}`)" for o in current) or "• none"
    await reply(
        interaction,
        f"Standing orders of {seat} (only you see them; carried out through the legal "
        f"moves when the decision comes):\n{shown}",
    )
