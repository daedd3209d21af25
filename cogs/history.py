"""Spectators and history on Discord: ``/game log``, ``/game verify``, ``/game
replay``, ``/game list``, and the after-action report posted when a game ends.

Thin on purpose: the commands themselves are declared in :mod:`cogs.game` (one
``/game`` group) and call these functions; the work is in :mod:`bot.archive` and
:mod:`bot.listing`, the pictures in :mod:`rendering.report` and the game's system's
(:mod:`rendering.registry`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.archive import archive
from bot.errors import Refusal
from bot.listing import list_text, open_games
from bot.report import report_text
from bot.settings import server_language
from cogs.context import ALT_LIMIT, alt_text, attachment, language_of, reply, service_of
from rendering.registry import has_pictures
from rendering.report import render_report
from strings import t

if TYPE_CHECKING:
    from bot.games import LoadedGame
    from cogs.app import TallyHoBot

__all__ = ["post_after_action", "send_list", "send_log", "send_replay", "send_verify"]

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


def _file(data: bytes, name: str, description: str | None = None) -> discord.File:
    """An attachment; a picture's ``description`` is its alt text (what it shows)."""
    alt = alt_text(description) if description else None
    return attachment(data, filename=name, description=alt)


async def send_log(interaction: discord.Interaction) -> None:
    """The public log as a text file; once the game is over, the full log as well."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    if game.setup is None:
        raise Refusal("history.no_log")
    files = await archive(service).log_files(game)
    key = "history.logs" if len(files) > 1 else "history.public_log"
    text = t(key, await language_of(interaction), id=game.id)
    await reply(interaction, text, files=[_file(body.encode(), name) for name, body in files])


async def send_verify(interaction: discord.Interaction) -> None:
    """Replay a finished game from its revealed seed and say whether it checks out."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await archive(service).verify(game)
    language = await language_of(interaction)
    text = t("history.verify_head", language, id=game.id) + "\n" + result.text(language)
    await reply(interaction, text)


async def send_replay(interaction: discord.Interaction) -> None:
    """An animated GIF of a finished game, one frame per player-turn."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    if not has_pictures(game.record.system):
        raise Refusal("history.no_pictures")
    await interaction.response.defer(ephemeral=True, thinking=True)
    language = await language_of(interaction)
    try:
        gif = await archive(service).replay_gif(game, language)
    except ValueError as exc:
        raise Refusal("history.too_long") from exc
    assert game.state is not None  # a finished game
    final = game.system.view(game.state, None)
    words = game.presenter.picture_text(final, game.players(language), language)
    alt = t("history.replay_alt", language, id=game.id) + "\n" + words
    await reply(
        interaction,
        t("history.replay", language, id=game.id),
        file=_file(gif, f"dogfight-{game.id}-replay.gif", alt),
    )


async def send_list(interaction: discord.Interaction, user: discord.abc.User | None) -> None:
    """The open games of this server (or of ``user``), with whose move it is."""
    if interaction.guild_id is None:
        raise Refusal("history.list_in_server")
    service = service_of(interaction)
    lines, total = await open_games(
        service, interaction.guild_id, user.id if user is not None else None
    )
    language = await language_of(interaction)
    user_id = user.id if user is not None else None
    text = list_text(lines, total, user_id=user_id, language=language)
    await reply(interaction, text, allowed_mentions=NO_MENTIONS)


async def post_after_action(
    bot: TallyHoBot, game: LoadedGame, channel: discord.abc.Messageable
) -> None:
    """Once a game ends: the after-action report (words and picture) and the seed.

    The game's end is already committed and announced when this runs, so a failure
    here is logged and the seed is revealed anyway, rather than told to the player
    who made the last move as a failure of that move.
    """
    history = archive(bot.service)
    files: list[discord.File] = []
    text = ""
    public = "en"
    try:
        public = await server_language(bot.service.storage, game.record.guild_id)
        report = await history.report(game)
        png = await asyncio.to_thread(render_report, report, language=public)
        words = report_text(report, limit=ALT_LIMIT, language=public)
        files.append(_file(png, "report.png", words))
        text = report_text(report, limit=1500, language=public) + "\n"
    except Exception:
        log.exception("after-action report of game %s failed", game.id)
    commitment = game.record.options.get("commitment")
    seed = game.record.seed
    if commitment:
        text += t("history.seed_committed", public, seed=seed, commitment=commitment)
    else:
        text += t("history.seed", public, seed=seed)
    text += t("history.seed_tail", public)
    try:
        extra: dict[str, Any] = {"files": files} if files else {}
        await channel.send(text[:2000], allowed_mentions=NO_MENTIONS, **extra)
    except discord.HTTPException:
        log.warning("could not post the after-action report of game %s", game.id, exc_info=True)
