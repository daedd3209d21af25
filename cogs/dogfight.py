"""``/dogfight``: open a lobby in a thread, join a side, start the fight."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from cogs.ui import guarded, hand_view, publish, reply, service_of

if TYPE_CHECKING:
    from bot.app import TallyHoBot

__all__ = ["DogfightCog"]

log = logging.getLogger(__name__)


class DogfightCog(commands.Cog):
    """Lobby commands. Each callback: resolve inputs, call the service, answer."""

    dogfight = app_commands.Group(
        name="dogfight", description="Start and join Down in Flames dogfights"
    )

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @dogfight.command(name="new", description="Open a dogfight lobby in a new thread")
    @app_commands.describe(
        ruleset="Which rulebook",
        year="Year of the battle (aircraft must be in service)",
        to_the_death="Fight until one side is gone instead of six turns",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        ruleset: Literal["zero", "rotl"] = "zero",
        year: app_commands.Range[int, 1936, 1945] = 1942,
        to_the_death: bool = False,
    ) -> None:
        async def work() -> None:
            if interaction.guild_id is None or not isinstance(
                interaction.channel, discord.TextChannel
            ):
                raise UserError("Open a dogfight in a server text channel.")
            service = service_of(interaction)
            game = await service.new_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel.id,
                host_id=interaction.user.id,
                ruleset=ruleset,
                year=year,
                to_the_death=to_the_death,
            )
            await interaction.response.send_message(f"Opening dogfight #{game.id}…")
            thread = await interaction.channel.create_thread(
                name=f"Dogfight #{game.id}", type=discord.ChannelType.public_thread
            )
            lobby = await thread.send(service.lobby_text(game))
            await service.attach_thread(game, thread.id, lobby.id)
            await interaction.edit_original_response(
                content=f"Dogfight #{game.id} is open in {thread.mention}."
            )

        await guarded(interaction, work)

    @dogfight.command(name="join", description="Take a side in this thread's dogfight")
    @app_commands.describe(side="The side you fly for", aircraft="Your element's aircraft")
    async def join(
        self, interaction: discord.Interaction, side: Literal["allied", "axis"], aircraft: str
    ) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise UserError("Use /dogfight join inside the dogfight's thread.")
            game = await service.join(
                game, interaction.user.id, interaction.user.display_name, aircraft, side
            )
            await interaction.response.send_message(service.joined_text(game, interaction.user.id))
            await refresh_lobby(interaction, service.lobby_text(game), game.record.lobby_message_id)

        await guarded(interaction, work)

    @join.autocomplete("aircraft")
    async def aircraft_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        service = service_of(interaction)
        game = await service.game_in_channel(interaction.channel_id)
        ruleset = game.record.ruleset if game else "zero"
        year = int(game.record.options.get("year", 1945)) if game else 1945
        side = getattr(interaction.namespace, "side", None)
        return [
            app_commands.Choice(name=f"{ac.name} ({ac.nation}, {ac.year})", value=ac.id)
            for ac in service.aircraft_choices(ruleset, year, side, current)
        ][:25]

    @dogfight.command(name="start", description="Start the dogfight (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise UserError("Use /dogfight start inside the dogfight's thread.")
            outcome = await service.start(game, interaction.user.id)
            view = hand_view(game.id)
            await interaction.response.send_message(
                "The dogfight begins! Each pilot now picks a secret starting altitude: press **My hand**.",
                view=view,
            )
            view.stop()  # its button is a DynamicItem: see cogs.ui.forget_view
            await refresh_lobby(
                interaction, service.lobby_text(outcome.game), outcome.game.record.lobby_message_id
            )
            await publish(self.bot, outcome)

        await guarded(interaction, work)

    @dogfight.command(name="aircraft", description="List the aircraft of a ruleset and year")
    async def aircraft(
        self,
        interaction: discord.Interaction,
        ruleset: Literal["zero", "rotl"] = "zero",
        year: app_commands.Range[int, 1936, 1945] = 1945,
    ) -> None:
        async def work() -> None:
            service = service_of(interaction)
            lines = []
            for ac in service.aircraft_choices(ruleset, year, None, ""):
                u = ac.leader.undamaged
                tags = ", ".join(
                    t for t, on in (("agile", ac.agile), ("turbo", ac.turbocharged)) if on
                )
                lines.append(
                    f"`{ac.id}` **{ac.name}** ({ac.side.value}, {ac.year}) hand {u.hand_size}, "
                    f"draw {u.draw}, bursts {u.bursts}, hits {u.damage_capacity}/"
                    f"{ac.leader.damaged.damage_capacity}{', ' + tags if tags else ''}"
                )
            await reply(interaction, "\n".join(lines) or "No aircraft in service by then.")

        await guarded(interaction, work)


async def refresh_lobby(
    interaction: discord.Interaction, text: str, message_id: int | None
) -> None:
    """Edit the lobby message at the top of the thread so it always shows the seats."""
    channel = interaction.channel
    if message_id is None or not isinstance(channel, discord.Thread):
        return
    try:
        await channel.get_partial_message(message_id).edit(content=text)
    except discord.HTTPException:
        log.warning("could not update the lobby message %s", message_id, exc_info=True)


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(DogfightCog(bot))
