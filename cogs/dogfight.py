"""``/dogfight``: open a lobby in a thread, join a side, start the fight."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import SYSTEM, seat_side
from cogs.admin import lobby_channel
from cogs.ui import guarded, hand_view, lobby_view, publish, refresh_lobby, reply, service_of
from engine.dif.components import Side

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
        format="1v1: one element a side; 2v2: two; custom: players add elements (15 aircraft at most)",
        ruleset="Which rulebook",
        year="Year of the battle (aircraft must be in service)",
        to_the_death="Fight until one side is gone instead of six turns",
        vp_bonus="Give the side with fewer aircraft points the difference as VP (13.1)",
        responses="normal: windows wait for the defender; fast: no legal response passes at "
        "once (everyone sees it); fog: every window lasts 15 minutes unless answered",
        turn_hours="Hours a player has for a turn's decision (default: the server's)",
        response_hours="Hours a player has to respond (default: the server's)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        format: Literal["1v1", "2v2", "custom"] = "1v1",
        ruleset: Literal["zero", "rotl"] = "zero",
        year: app_commands.Range[int, 1936, 1945] = 1942,
        to_the_death: bool = False,
        vp_bonus: bool = False,
        responses: Literal["normal", "fast", "fog"] = "normal",
        turn_hours: app_commands.Range[float, 0.05, 1440.0] | None = None,
        response_hours: app_commands.Range[float, 0.05, 1440.0] | None = None,
    ) -> None:
        async def work() -> None:
            # The server's settings: allowed rulesets, and the channel for game threads.
            channel = await lobby_channel(interaction, SYSTEM, ruleset)
            service = service_of(interaction)
            game = await service.new_lobby(
                guild_id=channel.guild.id,
                channel_id=channel.id,
                host_id=interaction.user.id,
                ruleset=ruleset,
                year=year,
                to_the_death=to_the_death,
                format=format,
                vp_bonus=vp_bonus,
                responses=responses,
                turn_hours=turn_hours,
                response_hours=response_hours,
            )
            await interaction.response.send_message(f"Opening dogfight #{game.id}…")
            thread = await channel.create_thread(
                name=f"Dogfight #{game.id}", type=discord.ChannelType.public_thread
            )
            view = lobby_view(service, game) or discord.ui.View(timeout=None)
            lobby = await thread.send(
                service.lobby_text(game),
                allowed_mentions=discord.AllowedMentions.none(),
                view=view,
            )
            view.stop()  # its menu is a DynamicItem: see cogs.ui.forget_view
            await service.attach_thread(game, thread.id, lobby.id)
            await interaction.edit_original_response(
                content=f"Dogfight #{game.id} is open in {thread.mention}."
            )

        await guarded(interaction, work)

    @dogfight.command(name="join", description="Take a seat in this thread's dogfight")
    @app_commands.describe(
        side="The side you fly for",
        aircraft="Your element's aircraft",
        seat="A1, A2... (Allied) or X1, X2... (Axis); default: the first open seat of your side",
        wingman="Fly with your wingman (default: yes, if the aircraft has one)",
        pilot="The leader's pilot skills, e.g. 'A,BU' (A, BU, CV, D, G, H, P; 1 point each)",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        side: Literal["allied", "axis"],
        aircraft: str,
        seat: str | None = None,
        wingman: bool | None = None,
        pilot: str | None = None,
    ) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise UserError("Use /dogfight join inside the dogfight's thread.")
            game, taken = await service.join(
                game,
                interaction.user.id,
                interaction.user.display_name,
                aircraft,
                side,
                seat=seat,
                wingman=wingman,
                pilot=pilot,
            )
            await interaction.response.send_message(
                service.joined_text(game, interaction.user.id, taken)
            )
            await refresh_lobby(interaction, game)

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

    @join.autocomplete("seat")
    async def seat_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        service = service_of(interaction)
        game = await service.game_in_channel(interaction.channel_id)
        if game is None:
            return []
        side = getattr(interaction.namespace, "side", None)
        wanted = Side(side) if side in ("allied", "axis") else None
        mine = [
            s
            for s in game.seats_of(interaction.user.id)
            if wanted is None or seat_side(s) is wanted
        ]
        choices = [
            app_commands.Choice(name=f"{s} (open)", value=s)
            for s in service.open_seats(game, wanted)
        ]
        choices += [app_commands.Choice(name=f"{s} (yours: change it)", value=s) for s in mine]
        key = current.strip().upper()
        return [c for c in choices if c.value.startswith(key)][:25]

    @dogfight.command(name="leave", description="Give up your seat before the start")
    @app_commands.describe(seat="The seat to leave (needed if you hold several)")
    async def leave(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise UserError("Use /dogfight leave inside the dogfight's thread.")
            game, left = await service.leave(game, interaction.user.id, seat)
            await interaction.response.send_message(
                f"<@{interaction.user.id}> leaves seat {left}.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await refresh_lobby(interaction, game)

        await guarded(interaction, work)

    @dogfight.command(name="bonus", description="Host: apply the 13.1 VP bonus or not")
    @app_commands.describe(
        apply="Give the side with fewer aircraft points the difference as VP (13.1)"
    )
    async def bonus(self, interaction: discord.Interaction, apply: bool) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise UserError("Use /dogfight bonus inside the dogfight's thread.")
            game = await service.set_vp_bonus(game, interaction.user.id, apply)
            await interaction.response.send_message(
                f"The VP bonus (13.1) is {'on' if apply else 'off'} for this dogfight."
            )
            await refresh_lobby(interaction, game)

        await guarded(interaction, work)

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
                "The dogfight begins! Each element now picks a secret starting altitude: "
                "press **My hand**.",
                view=view,
            )
            view.stop()  # its button is a DynamicItem: see cogs.ui.forget_view
            await refresh_lobby(interaction, outcome.game)
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


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(DogfightCog(bot))
