"""``/hand``, ``/play`` and ``/game``: playing and following a game."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.systems import hosted, hosted_ids
from cogs import history, people, seats
from cogs.context import app_of, language_of, reply, service_of
from cogs.hand import perform, send_hand
from cogs.help import cmd_text
from rendering.registry import has_pictures, picture
from strings import t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["GameCog"]

ORDERS = tuple(dict.fromkeys(o for s in hosted_ids() for o in hosted(s).standing_orders))
"""Every registered system's standing orders (``/game orders``)."""
ORDER_CHOICES = [app_commands.Choice(name=o, value=o) for o in ORDERS]


class GameCog(commands.Cog):
    """Commands of a running game."""

    game = app_commands.Group(name="game", description=cmd_text("cmd.game.description"))

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description=cmd_text("cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        game = await service_of(interaction).resolve_game(
            interaction.channel_id, interaction.user.id
        )
        await send_hand(interaction, game.id)

    @app_commands.command(name="play", description=cmd_text("cmd.play.description"))
    @app_commands.describe(
        text=cmd_text("cmd.play.param.text"), seat=cmd_text("cmd.play.param.seat")
    )
    async def play(
        self, interaction: discord.Interaction, text: str, seat: str | None = None
    ) -> None:
        game = await service_of(interaction).resolve_game(
            interaction.channel_id, interaction.user.id
        )
        await perform(interaction, game.id, seat, text, None)

    @game.command(name="status", description=cmd_text("cmd.game.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        game = await service.resolve_game(interaction.channel_id, interaction.user.id)
        if game.state is None:
            await reply(interaction, service.lobby_text(game, await language_of(interaction)))
            return
        language = await language_of(interaction)
        text = service.status_text(game, language)
        text += await people.deadline_lines(service, game, language)
        if not has_pictures(game.record.system):
            await reply(interaction, text)
            return
        view = service.view(game, None)
        png = await asyncio.to_thread(picture, game.record.system, view, language)
        await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="sky.png"))

    @game.command(name="follow", description=cmd_text("cmd.game.follow.description"))
    async def follow(self, interaction: discord.Interaction) -> None:
        await people.follow(interaction, on=True)

    @game.command(name="unfollow", description=cmd_text("cmd.game.unfollow.description"))
    async def unfollow(self, interaction: discord.Interaction) -> None:
        await people.follow(interaction, on=False)

    @game.command(name="vacation", description=cmd_text("cmd.game.vacation.description"))
    @app_commands.describe(days=cmd_text("cmd.game.vacation.param.days"))
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 60]
    ) -> None:
        await people.vacation(self.bot, interaction, days)

    @game.command(name="orders", description=cmd_text("cmd.game.orders.description"))
    @app_commands.describe(
        order=cmd_text("cmd.game.orders.param.order"),
        cancel=cmd_text("cmd.game.orders.param.cancel"),
        seat=cmd_text("cmd.game.orders.param.seat"),
    )
    @app_commands.choices(order=ORDER_CHOICES)
    async def orders(
        self,
        interaction: discord.Interaction,
        order: app_commands.Choice[str] | None = None,
        cancel: bool = False,
        seat: str | None = None,
    ) -> None:
        await people.orders(interaction, order.value if order else None, cancel, seat)

    @game.command(name="log", description=cmd_text("cmd.game.log.description"))
    async def log(self, interaction: discord.Interaction) -> None:
        await history.send_log(interaction)

    @game.command(name="verify", description=cmd_text("cmd.game.verify.description"))
    async def verify(self, interaction: discord.Interaction) -> None:
        await history.send_verify(interaction)

    @game.command(name="replay", description=cmd_text("cmd.game.replay.description"))
    async def replay(self, interaction: discord.Interaction) -> None:
        await history.send_replay(interaction)

    @game.command(name="list", description=cmd_text("cmd.game.list.description"))
    @app_commands.describe(user=cmd_text("cmd.game.list.param.user"))
    async def list_games(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await history.send_list(interaction, user)

    @game.command(name="resign", description=cmd_text("cmd.game.resign.description"))
    async def resign(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        if not confirm:
            raise Refusal("game.resign_confirm")
        service = service_of(interaction)
        game = await service.resolve_game(interaction.channel_id, interaction.user.id)
        outcome = await service.resign(game.id, interaction.user.id)
        await reply(interaction, t("game.resigned", await language_of(interaction)))
        await app_of(interaction).publisher.publish(outcome)

    @game.command(name="sub", description=cmd_text("cmd.game.sub.description"))
    @app_commands.describe(
        member=cmd_text("cmd.game.sub.param.member"),
        seat=cmd_text("cmd.game.sub.param.seat"),
        computer=cmd_text("cmd.game.sub.param.computer"),
        withdraw=cmd_text("cmd.game.sub.param.withdraw"),
    )
    async def sub(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        seat: str | None = None,
        computer: bool = False,
        withdraw: bool = False,
    ) -> None:
        await seats.sub(interaction, member, seat, computer, withdraw)

    @game.command(name="accept", description=cmd_text("cmd.game.accept.description"))
    @app_commands.describe(seat=cmd_text("cmd.game.accept.param.seat"))
    async def accept(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        await seats.accept(interaction, seat)

    @game.command(name="abort", description=cmd_text("cmd.game.abort.description"))
    async def abort(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        await seats.abort(interaction, confirm)

    @game.command(name="undo", description=cmd_text("cmd.game.undo.description"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await seats.undo(interaction)


async def setup(bot: TallyHoBot) -> None:
    bot.add_dynamic_items(*seats.SEAT_COMPONENTS)  # seat offers, substitutes, undo, abort
    await bot.add_cog(GameCog(bot))


async def teardown(bot: TallyHoBot) -> None:
    bot.remove_dynamic_items(*seats.SEAT_COMPONENTS)
