"""``/hand``, ``/play`` and ``/game``: playing and following a game."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs import history, people, seats
from cogs.ui import guarded, perform, publish, reply, send_hand, service_of

if TYPE_CHECKING:
    from bot.app import TallyHoBot

__all__ = ["GameCog"]


class GameCog(commands.Cog):
    """Commands of a running game."""

    game = app_commands.Group(name="game", description="Follow and manage a game")

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="Your hand and your choices (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            game = await service_of(interaction).resolve_game(
                interaction.channel_id, interaction.user.id
            )
            await send_hand(interaction, game.id)

        await guarded(interaction, work)

    @app_commands.command(
        name="play", description="Type a move in notation, e.g. 'play MAN X1L' or 'pass'"
    )
    @app_commands.describe(
        text="The move, as shown in /game log (see /hand for your choices)",
        seat="The element it is for, e.g. A2 (needed only if you fly several that decide now)",
    )
    async def play(
        self, interaction: discord.Interaction, text: str, seat: str | None = None
    ) -> None:
        async def work() -> None:
            game = await service_of(interaction).resolve_game(
                interaction.channel_id, interaction.user.id
            )
            await perform(interaction, game.id, seat, text, None)

        await guarded(interaction, work)

    @game.command(name="status", description="The picture of the sky and whose move it is")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.resolve_game(interaction.channel_id, interaction.user.id)
            if game.state is None:
                await reply(interaction, service.lobby_text(game))
                return
            from rendering import render_table

            view = service.view(game, None)
            png = await asyncio.to_thread(render_table, view)
            text = service.status_text(game, view) + await people.deadline_lines(service, game)
            await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="sky.png"))

        await guarded(interaction, work)

    @game.command(name="follow", description="Get this game's moves by DM (for spectators)")
    async def follow(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: people.follow(interaction, on=True))

    @game.command(name="unfollow", description="Stop getting this game's moves by DM")
    async def unfollow(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: people.follow(interaction, on=False))

    @game.command(name="vacation", description="Pause your deadlines in this game for a few days")
    @app_commands.describe(days="How many days (0 ends your vacation now)")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 60]
    ) -> None:
        await guarded(interaction, lambda: people.vacation(self.bot, interaction, days))

    @game.command(
        name="orders", description="Standing orders for while you are away (only you see them)"
    )
    @app_commands.describe(
        order="What to do without asking you",
        cancel="Cancel this order instead",
        seat="Your element",
    )
    async def orders(
        self,
        interaction: discord.Interaction,
        order: Literal["pass-responses", "cheapest-response", "save-ace"] | None = None,
        cancel: bool = False,
        seat: str | None = None,
    ) -> None:
        await guarded(interaction, lambda: people.orders(interaction, order, cancel, seat))

    @game.command(
        name="log", description="The log as a text file (every hand too, once the game is over)"
    )
    async def log(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: history.send_log(interaction))

    @game.command(name="verify", description="Check a finished game against its seed commitment")
    async def verify(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: history.send_verify(interaction))

    @game.command(name="replay", description="A finished game as an animation (GIF)")
    async def replay(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: history.send_replay(interaction))

    @game.command(name="list", description="The open games of this server and whose move it is")
    @app_commands.describe(user="Only the games of this player")
    async def list_games(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await guarded(interaction, lambda: history.send_list(interaction, user))

    @game.command(name="resign", description="Resign: your side loses the game")
    async def resign(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        async def work() -> None:
            if not confirm:
                raise UserError("To resign, run /game resign with confirm: True.")
            service = service_of(interaction)
            game = await service.resolve_game(interaction.channel_id, interaction.user.id)
            outcome = await service.resign(game.id, interaction.user.id)
            await reply(interaction, "You resigned.")
            await publish(self.bot, outcome)

        await guarded(interaction, work)

    @game.command(
        name="sub",
        description="Hand your seat to another member; host/admin: replace a player or use a computer",
    )
    @app_commands.describe(
        member="Who takes the seat (they accept first, unless the host or an admin replaces)",
        seat="The seat, e.g. X1 (needed if you hold several, or to replace someone)",
        computer="Host/admin: a computer player flies the seat for the rest of the game",
        withdraw="Take back the offer of your seat",
    )
    async def sub(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        seat: str | None = None,
        computer: bool = False,
        withdraw: bool = False,
    ) -> None:
        await guarded(interaction, lambda: seats.sub(interaction, member, seat, computer, withdraw))

    @game.command(name="accept", description="Take the seat offered to you (or an abandoned one)")
    @app_commands.describe(seat="The seat, if several are offered to you")
    async def accept(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        await guarded(interaction, lambda: seats.accept(interaction, seat))

    @game.command(name="abort", description="Host/admin: end the game now, with no result")
    async def abort(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        await guarded(interaction, lambda: seats.abort(interaction, confirm))

    @game.command(
        name="undo", description="Ask the opponents to let you take back your latest action"
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: seats.undo(interaction))


async def setup(bot: TallyHoBot) -> None:
    bot.add_dynamic_items(*seats.SEAT_COMPONENTS)  # seat offers, substitutes, undo, abort
    await bot.add_cog(GameCog(bot))


async def teardown(bot: TallyHoBot) -> None:
    bot.remove_dynamic_items(*seats.SEAT_COMPONENTS)
