"""``/config pack add|list|remove``: a server's content packs (:mod:`bot.packs`).

The commands live in ``/config``'s group (:class:`cogs.admin.AdminCog`), for members
with Manage Server, checked again here at run time; this module holds what they do.
Every answer is ephemeral; a refusal (:class:`~bot.errors.Refusal`) changes nothing.
"""

from __future__ import annotations

import discord

from bot.packs import ContentPacks
from bot.storage import ContentPackRecord
from cogs.context import admin_settings, reply, service_of
from engine.core.packs import Pack
from strings import t

__all__ = ["add_pack", "list_packs", "remove_pack"]


async def _admin(interaction: discord.Interaction) -> tuple[int, str]:
    """The server's id and the admin's language (:func:`cogs.context.admin_settings`)."""
    guild_id, _, language = await admin_settings(interaction)
    return guild_id, language


def _packs(interaction: discord.Interaction) -> ContentPacks:
    return ContentPacks(service_of(interaction).storage)


def _contents(pack: Pack) -> str:
    """``dif: 1 aircraft; lockedon: 2 aircraft, 1 missiles``: each section's entries."""
    return "; ".join(
        f"{system}: " + ", ".join(f"{len(entries)} {kind}" for kind, entries in by_kind.items())
        for system, by_kind in pack.sections.items()
    )


async def add_pack(interaction: discord.Interaction, file: discord.Attachment) -> None:
    """Check the attached pack and store it as its name's next version."""
    guild_id, language = await _admin(interaction)
    packs = _packs(interaction)
    packs.check_size(file.filename, file.size)
    data = await file.read()
    record, pack = await packs.add(guild_id, interaction.user.id, file.filename, data)
    text = t(
        "packs.added",
        language,
        name=record.name,
        version=record.version,
        file=record.file,
        contents=_contents(pack),
    )
    await reply(interaction, text)


SHOWN_PROVENANCE = 300
"""Characters of a pack's provenance ``/config pack list`` shows (ten packs fit)."""
MESSAGE = 2000
"""Discord's limit of a message's characters."""


def _line(record: ContentPackRecord, pack: Pack, language: str) -> str:
    shown = pack.provenance[:SHOWN_PROVENANCE] + (
        "…" if len(pack.provenance) > SHOWN_PROVENANCE else ""
    )
    provenance = "\n".join(f"> {line}" for line in shown.splitlines())
    return t(
        "packs.list.line",
        language,
        name=record.name,
        version=record.version,
        file=record.file,
        contents=_contents(pack),
        at=f"<t:{int(record.created_at.timestamp())}:d>",
        provenance=provenance,
    )


async def list_packs(interaction: discord.Interaction) -> None:
    """The server's live packs with what they hold and their provenance."""
    guild_id, language = await _admin(interaction)
    live = await _packs(interaction).live(guild_id)
    if not live:
        await reply(interaction, t("packs.list.none", language))
        return
    lines = [t("packs.list.title", language), *(_line(r, p, language) for r, p in live)]
    await reply(interaction, "\n".join(lines)[:MESSAGE])


async def remove_pack(interaction: discord.Interaction, name: str) -> None:
    """Remove a live pack (games created with it keep it)."""
    guild_id, language = await _admin(interaction)
    removed = await _packs(interaction).remove(guild_id, name)
    await reply(interaction, t("packs.removed", language, name=removed.name))
