"""``/dogfight``: open a lobby in a thread, join a side, start the fight."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.service import SYSTEM, seat_side
from bot.settings import server_language
from cogs.admin import lobby_channel
from cogs.help import cmd_text
from cogs.ui import (
    guarded,
    hand_view,
    language_of,
    lobby_view,
    publish,
    refresh_lobby,
    reply,
    service_of,
)
from engine.dif.components import Side
from strings import t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["DogfightCog"]

log = logging.getLogger(__name__)


class DogfightCog(commands.Cog):
    """Lobby commands. Each callback: resolve inputs, call the service, answer."""

    dogfight = app_commands.Group(name="dogfight", description=cmd_text("cmd.dogfight.description"))

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @dogfight.command(name="new", description=cmd_text("cmd.dogfight.new.description"))
    @app_commands.describe(
        format=cmd_text("cmd.dogfight.new.param.format"),
        ruleset=cmd_text("cmd.dogfight.new.param.ruleset"),
        year=cmd_text("cmd.dogfight.new.param.year"),
        to_the_death=cmd_text("cmd.dogfight.new.param.to_the_death"),
        vp_bonus=cmd_text("cmd.dogfight.new.param.vp_bonus"),
        responses=cmd_text("cmd.dogfight.new.param.responses"),
        turn_hours=cmd_text("cmd.dogfight.new.param.turn_hours"),
        response_hours=cmd_text("cmd.dogfight.new.param.response_hours"),
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
            public = await server_language(service.storage, channel.guild.id)
            await interaction.response.send_message(t("dogfight.opening", public, id=game.id))
            thread = await channel.create_thread(
                name=t("dogfight.thread_name", public, id=game.id),
                type=discord.ChannelType.public_thread,
            )
            view = lobby_view(service, game, public) or discord.ui.View(timeout=None)
            lobby = await thread.send(
                service.lobby_text(game, public),
                allowed_mentions=discord.AllowedMentions.none(),
                view=view,
            )
            view.stop()  # its menu is a DynamicItem: see cogs.ui.forget_view
            await service.attach_thread(game, thread.id, lobby.id)
            await interaction.edit_original_response(
                content=t("dogfight.opened", public, id=game.id, thread=thread.mention)
            )

        await guarded(interaction, work)

    @dogfight.command(name="join", description=cmd_text("cmd.dogfight.join.description"))
    @app_commands.describe(
        side=cmd_text("cmd.dogfight.join.param.side"),
        aircraft=cmd_text("cmd.dogfight.join.param.aircraft"),
        seat=cmd_text("cmd.dogfight.join.param.seat"),
        wingman=cmd_text("cmd.dogfight.join.param.wingman"),
        pilot=cmd_text("cmd.dogfight.join.param.pilot"),
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
                raise Refusal("dogfight.in_thread", command="/dogfight join")
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
            public = await server_language(service.storage, interaction.guild_id)
            await interaction.response.send_message(
                service.joined_text(game, interaction.user.id, taken, public)
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
            app_commands.Choice(name=f"{ac.name} ({ac.nation}, {ac.year})"[:100], value=ac.id)
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
        language = await language_of(interaction)
        choices = [
            app_commands.Choice(name=t("dogfight.seat_open", language, seat=s), value=s)
            for s in service.open_seats(game, wanted)
        ]
        choices += [
            app_commands.Choice(name=t("dogfight.seat_yours", language, seat=s), value=s)
            for s in mine
        ]
        key = current.strip().upper()
        return [c for c in choices if c.value.startswith(key)][:25]

    @dogfight.command(name="leave", description=cmd_text("cmd.dogfight.leave.description"))
    @app_commands.describe(seat=cmd_text("cmd.dogfight.leave.param.seat"))
    async def leave(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise Refusal("dogfight.in_thread", command="/dogfight leave")
            game, left = await service.leave(game, interaction.user.id, seat)
            public = await server_language(service.storage, interaction.guild_id)
            await interaction.response.send_message(
                t("dogfight.left", public, user=f"<@{interaction.user.id}>", seat=left),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await refresh_lobby(interaction, game)

        await guarded(interaction, work)

    @dogfight.command(name="bonus", description=cmd_text("cmd.dogfight.bonus.description"))
    @app_commands.describe(apply=cmd_text("cmd.dogfight.bonus.param.apply"))
    async def bonus(self, interaction: discord.Interaction, apply: bool) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise Refusal("dogfight.in_thread", command="/dogfight bonus")
            game = await service.set_vp_bonus(game, interaction.user.id, apply)
            public = await server_language(service.storage, interaction.guild_id)
            await interaction.response.send_message(
                t(f"dogfight.bonus_{'on' if apply else 'off'}", public)
            )
            await refresh_lobby(interaction, game)

        await guarded(interaction, work)

    @dogfight.command(name="start", description=cmd_text("cmd.dogfight.start.description"))
    async def start(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = service_of(interaction)
            game = await service.game_in_channel(interaction.channel_id)
            if game is None:
                raise Refusal("dogfight.in_thread", command="/dogfight start")
            outcome = await service.start(game, interaction.user.id)
            view = hand_view(game.id)
            public = await server_language(service.storage, interaction.guild_id)
            await interaction.response.send_message(t("dogfight.begins", public), view=view)
            view.stop()  # its button is a DynamicItem: see cogs.ui.forget_view
            await refresh_lobby(interaction, outcome.game)
            await publish(self.bot, outcome)

        await guarded(interaction, work)

    @dogfight.command(name="aircraft", description=cmd_text("cmd.dogfight.aircraft.description"))
    @app_commands.describe(
        ruleset=cmd_text("cmd.dogfight.aircraft.param.ruleset"),
        year=cmd_text("cmd.dogfight.aircraft.param.year"),
    )
    async def aircraft(
        self,
        interaction: discord.Interaction,
        ruleset: Literal["zero", "rotl"] = "zero",
        year: app_commands.Range[int, 1936, 1945] = 1945,
    ) -> None:
        async def work() -> None:
            service = service_of(interaction)
            language = await language_of(interaction)
            lines = []
            for ac in service.aircraft_choices(ruleset, year, None, ""):
                u = ac.leader.undamaged
                tags = ", ".join(
                    t(f"dogfight.tag.{tag}", language)
                    for tag, on in (("agile", ac.agile), ("turbo", ac.turbocharged))
                    if on
                )
                lines.append(
                    t(
                        "dogfight.aircraft_line",
                        language,
                        id=ac.id,
                        name=ac.name,
                        side=ac.side.value,
                        year=ac.year,
                        hand=u.hand_size,
                        draw=u.draw,
                        bursts=u.bursts,
                        hits=u.damage_capacity,
                        damaged=ac.leader.damaged.damage_capacity,
                        tags=", " + tags if tags else "",
                    )
                )
            await reply(interaction, "\n".join(lines) or t("dogfight.no_aircraft", language))

        await guarded(interaction, work)


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(DogfightCog(bot))
