"""The one error boundary of the Discord side.

Commands are plain callbacks: what they raise reaches the command tree's error
handler (:func:`on_tree_error`, installed by ``cogs.app``). Components are
:class:`Guarded`: their :meth:`Guarded.run` raises, and :meth:`Guarded.callback` hands
what it raised to the same :func:`report`. A refusal (:class:`~bot.errors.UserError`)
becomes a short ephemeral answer in the reader's language; anything else is logged
with the user, the channel and what was used, and the user gets a generic apology.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.errors import InternalError, UserError
from cogs.context import language_of, reply
from strings import normalize, t

__all__ = ["Guarded", "on_tree_error", "report"]

log = logging.getLogger(__name__)


async def _language_or_en(interaction: discord.Interaction) -> str:
    """The reader's language, or their locale's (English) if even that fails (storage down)."""
    try:
        return await language_of(interaction)
    except Exception:
        return normalize(interaction.locale) or "en"


def _what(interaction: discord.Interaction) -> str:
    """What was used, for the log, without the move itself (it may be a secret pick)."""
    data: dict[str, Any] = dict(interaction.data or {})
    if "custom_id" in data:
        return ":".join(str(data["custom_id"]).split(":")[:5])
    return f"/{data.get('name', '?')}"


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong (a refusal), or apologise and log (a bug)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    try:
        if isinstance(error, InternalError):  # logged where it happened
            await reply(interaction, t("error.internal", await _language_or_en(interaction)))
            return
        if isinstance(error, UserError):
            await reply(interaction, f"⛔ {error.text(await language_of(interaction))}")
            return
        if isinstance(error, app_commands.CheckFailure):
            await reply(interaction, str(error))
            return
        log.error(
            "command failed: user=%s channel=%s what=%s",
            interaction.user.id,
            interaction.channel_id,
            _what(interaction),
            exc_info=error,
        )
        await reply(interaction, t("error.internal", await _language_or_en(interaction)))
    except discord.HTTPException:
        log.warning("could not tell the user about the failure", exc_info=True)


async def on_tree_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's error handler: every command's refusals and failures."""
    await report(interaction, error)


class Guarded:
    """A component whose callback goes through the error boundary: subclasses
    implement :meth:`run`. (Mixed in before ``discord.ui.DynamicItem``.)"""

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.run(interaction)
        except Exception as exc:
            await report(interaction, exc)
