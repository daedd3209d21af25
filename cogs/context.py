"""What every cog needs of an interaction: the application, the reader's language,
an ephemeral answer, and whom a message may notify.

The bot's default (``TallyHoBot``) notifies nobody: a message's mentions only show
names. A message that must ping names exactly the users it pings (:func:`pinging`),
never everyone or a role, whatever a player's name or text contains."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import UserError
from bot.service import GameService
from bot.settings import GuildSettings, server_language
from strings import normalize, pick, t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = [
    "ALT_LIMIT",
    "EPHEMERAL_LIMIT",
    "admin_settings",
    "alt_text",
    "app_of",
    "forget_view",
    "is_admin",
    "language_of",
    "new_view",
    "pinging",
    "reply",
    "service_of",
]

EPHEMERAL_LIMIT = 2000
"""A message's content limit."""
ALT_LIMIT = 1024
"""An attachment's description (its alt text) limit."""


def pinging(users: Iterable[int]) -> discord.AllowedMentions:
    """Notify exactly ``users`` (of the mentions in the message), never everyone, a
    role or anyone else."""
    chosen = [discord.Object(u) for u in dict.fromkeys(users)]
    return discord.AllowedMentions(everyone=False, users=chosen, roles=False, replied_user=False)


def app_of(interaction: discord.Interaction) -> TallyHoBot:
    return interaction.client  # type: ignore[return-value]


def service_of(interaction: discord.Interaction) -> GameService:
    return app_of(interaction).service


async def language_of(interaction: discord.Interaction) -> str:
    """The reader's language: their Discord locale where translated, else the server's."""
    locale = normalize(interaction.locale)
    if locale is not None:
        return locale
    return await server_language(service_of(interaction).storage, interaction.guild_id)


def alt_text(text: str) -> str:
    """``text`` as an attachment's alt text: whole lines while they fit Discord's limit,
    then "…" (a picture's text has its most important lines first)."""
    if len(text) <= ALT_LIMIT:
        return text
    kept = text[: ALT_LIMIT - 2]
    cut = kept.rfind("\n")
    return (kept[:cut] if cut > 0 else kept).rstrip() + "\n…"


class _Buffer(io.BytesIO):
    """An attachment's bytes, which hold no reference cycle once sent.

    While it sends a file, discord.py stubs the buffer's ``close`` with an instance
    attribute, then puts it back as one: the buffer's own bound ``close``, which refers
    to the buffer (``discord.File.close``). Such a cycle is freed only by the cyclic
    collector, and never if ``gc.freeze`` moved it out of its reach while the picture
    was in flight (``bot.games.keep_out_of_collections``): the picture's bytes stayed
    for good (``bench/latency.py`` counted them). Here putting back the buffer's own
    method removes the instance attribute instead."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "close" and getattr(value, "__self__", None) is self:
            vars(self).pop("close", None)
            return
        super().__setattr__(name, value)


def attachment(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """A file to send (a picture's ``description`` is its alt text, as given)."""
    return discord.File(_Buffer(data), filename=filename, description=description)


def new_view() -> discord.ui.View:
    """An empty view for the bot's components, stopped before it is sent.

    Every component is a DynamicItem (registered once, ``TallyHoBot.setup_hook``),
    dispatched by its custom_id alone, so discord.py need keep nothing of a view it
    sends: a view already finished is sent without being stored (no entry in its view
    store, no 15-minute timeout task for an ephemeral one, nothing to remove after),
    which a move's reply and each DM and post of the publisher would otherwise pay
    for (issue 16). Built outside a running event loop (a view cannot be stopped
    there) it is stored as before, and :func:`forget_view` lets it go once sent."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def forget_view(kwargs: dict[str, Any]) -> None:
    """Stop tracking a view once its message is sent.

    Every component is a DynamicItem, dispatched by its custom_id alone, so the view
    object is not needed after sending. Stopping it frees the memory discord.py would
    keep per message, and the 15-minute timeout task it starts for an ephemeral one;
    clearing its items breaks the reference cycle between the view and its items, so
    they are freed at once, not by the cyclic collector (which never reaches them once
    ``gc.freeze`` moved them out of its reach, ``bot.games.keep_out_of_collections``).
    """
    view = kwargs.get("view")
    if isinstance(view, discord.ui.View):
        view.stop()
        view.clear_items()


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer an interaction ephemerally, whether or not it was answered already."""
    content = content[:EPHEMERAL_LIMIT]
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)
    forget_view(kwargs)


async def admin_settings(interaction: discord.Interaction) -> tuple[int, GuildSettings, str]:
    """For ``/config``: the server's id, its settings and the admin's language; refused
    outside a server and for a member without Manage Server."""
    guild_id = interaction.guild_id
    settings = await GuildSettings.load(service_of(interaction).storage, guild_id)
    language = pick(interaction.locale, settings.language)
    if guild_id is None:
        raise UserError(t("config.not_in_guild", language))
    if not interaction.permissions.manage_guild:
        raise UserError(t("config.no_permission", language))
    return guild_id, settings, language


def is_admin(interaction: discord.Interaction) -> bool:
    """A server admin: Manage Server, as for /config (no such permission in a DM). May
    manage any game or campaign of the server (abort, replace a player, abandon)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild
