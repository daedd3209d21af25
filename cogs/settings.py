"""``/settings``: a player's own settings (DMs, auto-pass, quiet hours, a place on the
global leaderboards), the same on every server.

Stored by :class:`bot.settings.PlayerSettings` in the storage's user settings;
``cogs.publisher.publish`` asks :func:`bot.settings.wants_dm` before sending a DM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.deadlines import quiet_hours_of
from bot.errors import UserError
from bot.settings import PlayerSettings
from bot.storage import GameStatus
from cogs.context import language_of, reply, service_of
from cogs.help import choices, cmd_text
from strings import t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["SettingsCog"]

ON_OFF = choices("choice", ("on", "off"))


class SettingsCog(commands.Cog):
    """The ``/settings`` commands (in a server or in DMs with the bot)."""

    settings = app_commands.Group(name="settings", description=cmd_text("cmd.settings.description"))

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @settings.command(name="show", description=cmd_text("cmd.settings.show.description"))
    async def show(self, interaction: discord.Interaction) -> None:
        language = await language_of(interaction)
        mine = await PlayerSettings.load(service_of(interaction).storage, interaction.user.id)
        on, off = t("common.on", language), t("common.off", language)
        text = t(
            "settings.show",
            language,
            dm=on if mine.dm else off,
            auto_pass=on if mine.auto_pass else off,
        )
        await reply(interaction, text)

    @settings.command(name="dm", description=cmd_text("cmd.settings.dm.description"))
    @app_commands.describe(enabled=cmd_text("cmd.settings.dm.param.enabled"))
    @app_commands.choices(enabled=ON_OFF)
    async def dm(self, interaction: discord.Interaction, enabled: app_commands.Choice[str]) -> None:
        await self._set(interaction, "dm", enabled.value == "on")

    @settings.command(name="auto-pass", description=cmd_text("cmd.settings.auto-pass.description"))
    @app_commands.describe(enabled=cmd_text("cmd.settings.auto-pass.param.enabled"))
    @app_commands.choices(enabled=ON_OFF)
    async def auto_pass(
        self, interaction: discord.Interaction, enabled: app_commands.Choice[str]
    ) -> None:
        await self._set(interaction, "auto_pass", enabled.value == "on")

    @settings.command(
        name="global-board", description=cmd_text("cmd.settings.global-board.description")
    )
    @app_commands.describe(enabled=cmd_text("cmd.settings.global-board.param.enabled"))
    @app_commands.choices(enabled=ON_OFF)
    async def global_board(
        self, interaction: discord.Interaction, enabled: app_commands.Choice[str]
    ) -> None:
        await self._set(interaction, "global_board", enabled.value == "on")

    @settings.command(name="quiet", description=cmd_text("cmd.settings.quiet.description"))
    @app_commands.describe(
        start=cmd_text("cmd.settings.quiet.param.start"),
        end=cmd_text("cmd.settings.quiet.param.end"),
        tz=cmd_text("cmd.settings.quiet.param.tz"),
    )
    async def quiet(
        self,
        interaction: discord.Interaction,
        start: str | None = None,
        end: str | None = None,
        tz: str = "UTC",
    ) -> None:
        language = await language_of(interaction)
        storage = service_of(interaction).storage
        record = await storage.get_user_settings(interaction.user.id)
        stored = dict(record.settings) if record else {}
        if start is None and end is None:
            stored.pop("quiet_hours", None)
            text = t("settings.quiet.off", language)
        else:
            candidate = {**stored, "tz": tz, "quiet_hours": {"start": start, "end": end}}
            try:  # validated now, so stored quiet hours are always usable
                quiet_hours_of(candidate)
            except (KeyError, ValueError, TypeError) as exc:
                raise UserError(t("settings.quiet.bad", language, error=exc)) from exc
            stored = candidate
            text = t("settings.quiet.set", language, start=start, end=end, tz=tz)
        await storage.put_user_settings(interaction.user.id, stored)
        await self._reschedule(interaction.user.id)
        await reply(interaction, text)

    async def _reschedule(self, user_id: int) -> None:
        """Move the open deadlines of the player's seats to their new quiet hours."""
        ops = self.bot.deadlines
        if ops is None:
            return
        for seat in await ops.service.storage.seats_of_user(user_id, [GameStatus.ACTIVE]):
            await ops.scheduler.reschedule_seat(seat.game_id, seat.seat)

    async def _set(self, interaction: discord.Interaction, key: str, on: bool) -> None:
        language = await language_of(interaction)
        storage = service_of(interaction).storage
        await PlayerSettings.update(storage, interaction.user.id, **{key: on})
        await reply(interaction, t(f"settings.{key}.{'on' if on else 'off'}", language))


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(SettingsCog(bot))
