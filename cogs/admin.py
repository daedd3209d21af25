"""``/config``: a server's Tally-Ho settings, for members with Manage Server.

Discord hides the group from other members (``default_permissions``) and every
command checks the permission again at run time, since a server can override
command permissions. Settings are validated by :mod:`bot.settings`; this cog only
parses options, calls it and answers in the admin's language, ephemerally.

:func:`lobby_channel` is the hook ``/dogfight new`` calls: whether the server allows
the ruleset, and in which channel the game's thread opens.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.settings import (
    GuildSettings,
    SettingsError,
    allowed_list,
    parse_fractions,
    ruleset_name,
    system_title,
)
from bot.systems import hosted, hosted_ids, rulesets
from cogs.context import admin_settings, reply, service_of
from cogs.help import choices, cmd_text
from cogs.packs import add_pack, list_packs, remove_pack
from engine.core.contract import COMPUTER_LEVELS
from strings import SUPPORTED, pick, t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["AdminCog", "lobby_channel", "settings_lines"]

log = logging.getLogger(__name__)

THREAD_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
"""What the bot needs in a games channel."""


def _games(settings: GuildSettings) -> str:
    """``Down in Flames (Zero!, Rise of the Luftwaffe), Down in Flames: Locked-On``: each
    allowed system with its allowed rulesets, unless its only one is the game itself."""
    out = []
    for system in settings.systems:
        mine = [r for r in settings.rulesets if rulesets().get(r) == system]
        title = system_title(system)
        if len(mine) == 1 and len(hosted(system).rulesets) == 1:
            out.append(title)
        else:
            out.append(f"{title} ({', '.join(ruleset_name(r) for r in mine)})")
    return ", ".join(out)


def _hours(value: float, language: str) -> str:
    return t("common.hours", language, hours=f"{value:g}")


def _percent(fraction: float) -> str:
    return f"{fraction * 100:g}%"


def settings_lines(settings: GuildSettings, language: str) -> dict[str, str]:
    """One line per setting, by ``/config`` command name (what ``show`` lists and a
    change confirms)."""
    d = settings.deadlines
    lang = language
    lines: dict[str, str] = {}
    if d.enabled:
        lines["deadlines"] = t(
            "config.show.deadlines_on",
            lang,
            turn=_hours(d.turn_hours, lang),
            response=_hours(d.response_hours, lang),
            bank=_hours(d.time_bank_hours, lang),
        )
    else:
        lines["deadlines"] = t("config.show.deadlines_off", lang)
    fractions = d.reminder_fractions
    if fractions:
        capped = d.max_reminders is not None and d.max_reminders < len(d.reminders)
        cap = t("config.show.reminders_cap", lang, n=d.max_reminders) if capped else ""
        at = ", ".join(_percent(f) for f in fractions)
        lines["reminders"] = t("config.show.reminders", lang, at=at, cap=cap)
    else:
        lines["reminders"] = t("config.show.reminders_none", lang)
    lines["default-action"] = t(f"config.show.default_action.{d.default_action}", lang)
    lines["computer"] = t(
        f"config.show.computer.{'on' if d.computer_players else 'off'}",
        lang,
        level=t(f"level.{d.computer_level}", lang),
    )
    if d.abandon_after > 0:
        lines["abandonment"] = t(
            "config.show.abandon",
            lang,
            n=d.abandon_after,
            hours=_hours(d.substitute_hours, lang),
            action=t(f"config.show.abandon_action.{d.abandon_action}", lang),
        )
    else:
        lines["abandonment"] = t("config.show.abandon_never", lang)
    lines["vacation"] = t("config.show.vacation", lang, days=d.vacation_max_days)
    lines["rulesets"] = t("config.show.rulesets", lang, games=_games(settings))
    if settings.game_channel_id is not None:
        lines["channel"] = t("config.show.channel", lang, channel=f"<#{settings.game_channel_id}>")
    else:
        lines["channel"] = t("config.show.channel_any", lang)
    lines["campaigns"] = t(f"config.show.campaigns.{settings.campaign_home}", lang)
    lines["language"] = t(
        "config.show.language", lang, language=t(f"language.{settings.language}", lang)
    )
    return lines


async def lobby_channel(
    interaction: discord.Interaction, system: str, ruleset: str
) -> discord.TextChannel:
    """Where ``/dogfight new`` opens its thread, after the server's checks.

    Raises UserError (in the user's language) if the server does not allow the game.
    The server's games channel if one is set (and still exists), else the channel the
    command was used in, which must then be a text channel.
    """
    if interaction.guild is None:
        raise UserError(t("dogfight.text_channel", pick(interaction.locale)))
    settings = await GuildSettings.load(service_of(interaction).storage, interaction.guild.id)
    language = pick(interaction.locale, settings.language)
    try:
        settings.check_new_game(system, ruleset)
    except SettingsError as exc:
        raise UserError(exc.text(language)) from exc
    if settings.game_channel_id is not None:
        channel = interaction.guild.get_channel(settings.game_channel_id)
        if isinstance(channel, discord.TextChannel):
            return channel
        log.warning(
            "guild %s: games channel %s is gone; using the current channel",
            interaction.guild.id,
            settings.game_channel_id,
        )
    if not isinstance(interaction.channel, discord.TextChannel):
        raise UserError(t("dogfight.text_channel", language))
    return interaction.channel


Change = Callable[[GuildSettings], Awaitable[GuildSettings]]
RULESETS = tuple(rulesets())
"""Every registered system's rulesets."""
SYSTEMS = hosted_ids()
RULESET_CHOICES = [app_commands.Choice(name=ruleset_name(r), value=r) for r in RULESETS]
SYSTEM_CHOICES = [app_commands.Choice(name=system_title(s), value=s) for s in SYSTEMS]
"""Titles, not translated."""


class AdminCog(commands.Cog):
    """The ``/config`` commands."""

    config = app_commands.Group(
        name="config",
        description=cmd_text("cmd.config.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    pack = app_commands.Group(
        name="pack", description=cmd_text("cmd.config.pack.description"), parent=config
    )

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    # ---------------------------------------------------------------- plumbing
    async def _run(
        self,
        interaction: discord.Interaction,
        change: Change | None,
        shown: tuple[str, ...] = (),
        done: str = "config.saved",
    ) -> None:
        """Check the permission, apply ``change`` (None: only show), answer with the
        lines of the settings ``shown`` (all of them when only showing)."""
        _, current, language = await admin_settings(interaction)
        if change is None:
            lines = settings_lines(current, language)
            text = "\n".join(
                [
                    t("config.show.title", language),
                    *lines.values(),
                    t("config.show.footer", language),
                ]
            )
            await reply(interaction, text)
            return
        try:
            updated = await change(current)
        except SettingsError as exc:
            raise UserError(exc.text(language)) from exc
        language = pick(interaction.locale, updated.language)
        lines = settings_lines(updated, language)
        text = "\n".join([t(done, language), *(lines[k] for k in shown)])
        await reply(interaction, text)

    def _storage(self) -> Any:
        return self.bot.service.storage

    def _deadlines(self, guild_id: int | None, **changes: Any) -> Change:
        values = {k: v for k, v in changes.items() if v is not None}

        async def change(current: GuildSettings) -> GuildSettings:
            if not values:
                raise SettingsError("config.error.nothing")
            assert guild_id is not None
            return await GuildSettings.update(self._storage(), guild_id, deadlines=values)

        return change

    def _top(self, guild_id: int | None, **changes: Any) -> Change:
        async def change(current: GuildSettings) -> GuildSettings:
            assert guild_id is not None
            return await GuildSettings.update(self._storage(), guild_id, changes=changes)

        return change

    # ---------------------------------------------------------------- commands
    @config.command(name="show", description=cmd_text("cmd.config.show.description"))
    async def show(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, None)

    @config.command(name="deadlines", description=cmd_text("cmd.config.deadlines.description"))
    @app_commands.describe(
        enabled=cmd_text("cmd.config.deadlines.param.enabled"),
        turn_hours=cmd_text("cmd.config.deadlines.param.turn_hours"),
        response_hours=cmd_text("cmd.config.deadlines.param.response_hours"),
        time_bank_hours=cmd_text("cmd.config.deadlines.param.time_bank_hours"),
    )
    async def deadlines(
        self,
        interaction: discord.Interaction,
        enabled: bool | None = None,
        turn_hours: app_commands.Range[float, 0.1, 1440.0] | None = None,
        response_hours: app_commands.Range[float, 0.1, 1440.0] | None = None,
        time_bank_hours: app_commands.Range[float, 0.0, 1440.0] | None = None,
    ) -> None:
        change = self._deadlines(
            interaction.guild_id,
            enabled=enabled,
            turn_hours=turn_hours,
            response_hours=response_hours,
            time_bank_hours=time_bank_hours,
        )
        await self._run(interaction, change, ("deadlines",))

    @config.command(name="reminders", description=cmd_text("cmd.config.reminders.description"))
    @app_commands.describe(
        at=cmd_text("cmd.config.reminders.param.at"),
        max_count=cmd_text("cmd.config.reminders.param.max_count"),
    )
    async def reminders(
        self,
        interaction: discord.Interaction,
        at: str | None = None,
        max_count: app_commands.Range[int, 0, 5] | None = None,
    ) -> None:
        guild_id = interaction.guild_id

        async def change(current: GuildSettings) -> GuildSettings:
            values: dict[str, Any] = {}
            if at is not None:
                values["reminders"] = list(parse_fractions(at))
            if max_count is not None:
                values["max_reminders"] = max_count
            return await self._deadlines(guild_id, **values)(current)

        await self._run(interaction, change, ("reminders",))

    @config.command(
        name="default-action", description=cmd_text("cmd.config.default-action.description")
    )
    @app_commands.describe(action=cmd_text("cmd.config.default-action.param.action"))
    @app_commands.choices(action=choices("choice", ("pass", "computer")))
    async def default_action(
        self, interaction: discord.Interaction, action: app_commands.Choice[str]
    ) -> None:
        change = self._deadlines(interaction.guild_id, default_action=action.value)
        await self._run(interaction, change, ("default-action",))

    @config.command(name="computer", description=cmd_text("cmd.config.computer.description"))
    @app_commands.describe(
        allowed=cmd_text("cmd.config.computer.param.allowed"),
        level=cmd_text("cmd.config.computer.param.level"),
    )
    @app_commands.choices(level=choices("level", COMPUTER_LEVELS))
    async def computer(
        self,
        interaction: discord.Interaction,
        allowed: bool | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        change = self._deadlines(
            interaction.guild_id,
            computer_players=allowed,
            computer_level=level.value if level else None,
        )
        await self._run(interaction, change, ("computer",))

    @config.command(name="abandonment", description=cmd_text("cmd.config.abandonment.description"))
    @app_commands.describe(
        after=cmd_text("cmd.config.abandonment.param.after"),
        action=cmd_text("cmd.config.abandonment.param.action"),
        substitute_hours=cmd_text("cmd.config.abandonment.param.substitute_hours"),
    )
    @app_commands.choices(action=choices("choice", ("computer", "forfeit")))
    async def abandonment(
        self,
        interaction: discord.Interaction,
        after: app_commands.Range[int, 0, 50] | None = None,
        action: app_commands.Choice[str] | None = None,
        substitute_hours: app_commands.Range[float, 0.0, 720.0] | None = None,
    ) -> None:
        change = self._deadlines(
            interaction.guild_id,
            abandon_after=after,
            abandon_action=action.value if action is not None else None,
            substitute_hours=substitute_hours,
        )
        await self._run(interaction, change, ("abandonment",))

    @config.command(name="vacation", description=cmd_text("cmd.config.vacation.description"))
    @app_commands.describe(max_days=cmd_text("cmd.config.vacation.param.max_days"))
    async def vacation(
        self, interaction: discord.Interaction, max_days: app_commands.Range[int, 0, 365]
    ) -> None:
        change = self._deadlines(interaction.guild_id, vacation_max_days=max_days)
        await self._run(interaction, change, ("vacation",))

    @config.command(name="rulesets", description=cmd_text("cmd.config.rulesets.description"))
    @app_commands.describe(
        ruleset=cmd_text("cmd.config.rulesets.param.ruleset"),
        allowed=cmd_text("cmd.config.rulesets.param.allowed"),
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rulesets(
        self, interaction: discord.Interaction, ruleset: app_commands.Choice[str], allowed: bool
    ) -> None:
        guild_id = interaction.guild_id

        async def change(current: GuildSettings) -> GuildSettings:
            chosen = allowed_list(current.rulesets, RULESETS, ruleset.value, allowed)
            if not chosen:
                raise SettingsError("config.error.no_ruleset")
            return await self._top(guild_id, rulesets=chosen)(current)

        await self._run(interaction, change, ("rulesets",))

    @config.command(name="systems", description=cmd_text("cmd.config.systems.description"))
    @app_commands.describe(
        system=cmd_text("cmd.config.systems.param.system"),
        allowed=cmd_text("cmd.config.systems.param.allowed"),
    )
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def systems(
        self, interaction: discord.Interaction, system: app_commands.Choice[str], allowed: bool
    ) -> None:
        guild_id = interaction.guild_id

        async def change(current: GuildSettings) -> GuildSettings:
            chosen = allowed_list(current.systems, SYSTEMS, system.value, allowed)
            if not chosen:
                raise SettingsError("config.error.no_system")
            return await self._top(guild_id, systems=chosen)(current)

        await self._run(interaction, change, ("rulesets",))

    @config.command(name="channel", description=cmd_text("cmd.config.channel.description"))
    @app_commands.describe(channel=cmd_text("cmd.config.channel.param.channel"))
    async def channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        guild_id = interaction.guild_id

        async def change(current: GuildSettings) -> GuildSettings:
            if channel is None:
                return await self._top(guild_id, game_channel_id=None)(current)
            guild = interaction.guild
            found = guild.get_channel(channel.id) if guild is not None else None
            if guild is None or not isinstance(found, discord.TextChannel):
                raise SettingsError("config.error.channel_type")
            if not found.permissions_for(guild.me).is_superset(THREAD_PERMISSIONS):
                raise SettingsError("config.error.channel_perms", channel=found.mention)
            return await self._top(guild_id, game_channel_id=found.id)(current)

        await self._run(interaction, change, ("channel",))

    @config.command(name="campaigns", description=cmd_text("cmd.config.campaigns.description"))
    @app_commands.describe(home=cmd_text("cmd.config.campaigns.param.home"))
    @app_commands.choices(
        home=[
            app_commands.Choice(name="thread", value="thread"),
            app_commands.Choice(name="channel", value="channel"),
        ]
    )
    async def campaigns(
        self, interaction: discord.Interaction, home: app_commands.Choice[str]
    ) -> None:
        change = self._top(interaction.guild_id, campaign_home=home.value)
        await self._run(interaction, change, ("campaigns",))

    @config.command(name="language", description=cmd_text("cmd.config.language.description"))
    @app_commands.describe(language=cmd_text("cmd.config.language.param.language"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name=t(f"language.{code}", code), value=code) for code in SUPPORTED
        ]
    )
    async def language(
        self, interaction: discord.Interaction, language: app_commands.Choice[str]
    ) -> None:
        change = self._top(interaction.guild_id, language=language.value)
        await self._run(interaction, change, ("language",))

    @config.command(name="reset", description=cmd_text("cmd.config.reset.description"))
    @app_commands.describe(confirm=cmd_text("cmd.config.reset.param.confirm"))
    async def reset(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        guild_id = interaction.guild_id

        async def change(current: GuildSettings) -> GuildSettings:
            if not confirm:
                raise SettingsError("config.reset.confirm")
            assert guild_id is not None
            return await GuildSettings.reset(self._storage(), guild_id)

        await self._run(interaction, change, (), "config.reset.done")

    # ---------------------------------------------------------------- content packs
    @pack.command(name="add", description=cmd_text("cmd.config.pack.add.description"))
    @app_commands.describe(file=cmd_text("cmd.config.pack.add.param.file"))
    async def pack_add(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        await add_pack(interaction, file)

    @pack.command(name="list", description=cmd_text("cmd.config.pack.list.description"))
    async def pack_list(self, interaction: discord.Interaction) -> None:
        await list_packs(interaction)

    @pack.command(name="remove", description=cmd_text("cmd.config.pack.remove.description"))
    @app_commands.describe(name=cmd_text("cmd.config.pack.remove.param.name"))
    async def pack_remove(self, interaction: discord.Interaction, name: str) -> None:
        await remove_pack(interaction, name)


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(AdminCog(bot))
