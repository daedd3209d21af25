"""Posting to Discord: an :class:`~bot.outcome.Outcome` narrated in its game's thread
(with the picture when a turn ended), prompts by ping and DM, followers' DMs, the
after-action report at the end; lines and prompts with buttons in a thread, and
closing the prompts that no longer hold.

``cogs.app.DiscordPublisher`` hands these to the application
(:class:`bot.publishing.Publisher`), which calls them on its own initiative (the
scheduler); the cogs call them after a player's command.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import seats
from bot.games import LoadedGame
from bot.outcome import Outcome
from bot.prompts import hand_text
from bot.settings import server_language, wants_dm
from cogs.components import hand_view
from cogs.context import EPHEMERAL_LIMIT, MENTIONS, forget_view
from cogs.hand import seat_view, side_view
from cogs.history import post_after_action
from rendering.registry import has_pictures, picture
from strings import t, tr

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = [
    "close_lapsed",
    "notify_followers",
    "post_prompt",
    "public_language",
    "publish",
    "say",
    "send_dm",
]

log = logging.getLogger(__name__)

LAPSED = {
    "offer": "seats.ui.closed.lapsed_offer",
    "take": "seats.ui.closed.lapsed_take",
    "undo": "seats.ui.closed.lapsed_undo",
}
"""The line added to a prompt closed by :func:`close_lapsed`, by kind."""


async def public_language(bot: TallyHoBot, game: LoadedGame) -> str:
    """The language of the game's thread (and of its DMs): the server's."""
    return await server_language(bot.service.storage, game.record.guild_id)


async def publish(bot: TallyHoBot, outcome: Outcome, skip_user: int | None = None) -> None:
    """Narrate in the game thread (with the picture when a turn ended) and prompt."""
    game = outcome.game
    service = bot.service
    thread_id = game.record.thread_id
    if thread_id is None:
        return
    channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
    assert isinstance(channel, discord.abc.Messageable)
    public = await public_language(bot, game)  # thread and DMs
    if outcome.finished and game.record.lobby_message_id and isinstance(channel, discord.Thread):
        try:  # the lobby message at the top of the thread shows the result too
            await channel.get_partial_message(game.record.lobby_message_id).edit(
                content=service.lobby_text(game, public)
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of game %s", game.id, exc_info=True)
    pings: list[str] = []
    dm_failed: set[int] = set()
    side = [p for p in outcome.prompts if p.side is not None and p.new]
    if side:  # one decision for the whole side: ping all its players, menu below
        users = " ".join(dict.fromkeys(f"<@{p.user_id}>" for p in side if p.user_id))
        pings.append(t("publish.order", public, users=users, prompt=tr(side[0].text, public)))
    for p in outcome.prompts:
        if p.user_id is None or p.side is not None or not p.new:
            continue
        if p.urgent:  # a DM, unless the player turned them off (/settings dm)
            head = t("publish.dm", public, id=game.id, prompt=tr(p.text, public))
            ok = await wants_dm(service.storage, p.user_id) and await send_dm(
                bot,
                p.user_id,
                head + "\n" + hand_text(game, p.seat, decision=False, language=public),
                seat_view(service, game, p.seat, language=public),
            )
            if not ok:
                dm_failed.add(p.user_id)
        if p.user_id != skip_user or p.user_id in dm_failed:
            key = "publish.ping_urgent" if p.urgent else "publish.ping"
            pings.append(t(key, public, user=f"<@{p.user_id}>", prompt=tr(p.text, public)))
    narration = [tr(line, public) for line in outcome.public]
    lines = narration + sorted(set(pings), key=pings.index)
    if not lines and not outcome.image:
        return  # nothing public happened (e.g. the end of a step): stay quiet
    text = "\n".join(lines) or t("publish.sky", public)
    files: list[discord.File] = []
    if outcome.image and game.state is not None and has_pictures(game.record.system):
        view = service.view(game, None)
        png = await asyncio.to_thread(picture, game.record.system, view, public)
        files.append(discord.File(io.BytesIO(png), filename="sky.png"))
    chunks = [text[i : i + 1900] for i in range(0, len(text), 1900)]
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        kwargs: dict[str, Any] = {}
        if last:
            kwargs["view"] = side_view(game, public) or hand_view(game.id)
            if files:
                kwargs["files"] = files
        await channel.send(chunk, allowed_mentions=MENTIONS, **kwargs)
        forget_view(kwargs)
    await notify_followers(bot, game.id, narration, public)
    if outcome.finished:  # the after-action report, and the seed revealed (cogs.history)
        await post_after_action(bot, game, channel)


async def notify_followers(
    bot: TallyHoBot, game_id: int, public: list[str], language: str = "en"
) -> None:
    """Spectators who ``/game follow`` get the public narration by DM: exactly what the
    thread shows, never a hand (``Outcome.public`` holds public events only), in the
    server's language."""
    if not public:
        return
    storage = bot.service.storage
    said = [tr(line, language) for line in public]
    text = t("publish.follow", language, id=game_id) + "\n" + "\n".join(said)
    for user_id in await storage.followers(game_id):
        if await wants_dm(storage, user_id):
            await send_dm(bot, user_id, text[:1990], None)


async def send_dm(bot: TallyHoBot, user_id: int, text: str, view: discord.ui.View | None) -> bool:
    """DM a player; False when Discord refuses (closed DMs, error 50007)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        if view is not None:
            await user.send(text[:EPHEMERAL_LIMIT], view=view)
            view.stop()  # see forget_view
        else:
            await user.send(text[:EPHEMERAL_LIMIT])
        return True
    except discord.Forbidden:
        log.info("DM to %s refused; falling back to a ping in the thread", user_id)
        return False
    except discord.HTTPException:
        log.warning("DM to %s failed", user_id, exc_info=True)
        return False


async def say(
    bot: TallyHoBot, game: LoadedGame, text: str, view: discord.ui.View | None = None
) -> discord.Message | None:
    """Post in the game's thread and return the message (None if it failed: that is
    logged, the change is committed); a :class:`strings.Term` is put in the server's
    language."""
    thread_id = game.record.thread_id
    if thread_id is None:
        return None
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    try:
        said = tr(text, await public_language(bot, game))
        channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
        assert isinstance(channel, discord.abc.Messageable)
        return await channel.send(said[:2000], allowed_mentions=MENTIONS, **extra)
    except discord.HTTPException:
        log.warning("game %s: could not post in the thread", game.id, exc_info=True)
        return None
    finally:
        if view is not None:
            view.stop()  # DynamicItems: see cogs.context.forget_view


async def post_prompt(
    bot: TallyHoBot, game: LoadedGame, kind: str, text: str, view: discord.ui.View
) -> None:
    """Post a prompt with buttons (a seat offer, an abandoned seat, an undo request)
    and remember it as ``kind`` (``bot.seats.offer_kind``...), so it is closed once it
    no longer holds (:func:`close_lapsed`), and watch for its lapse."""
    posted = await say(bot, game, text, view)
    if posted is None:
        return
    await bot.service.storage.set_message(game.id, kind, posted.channel.id, posted.id)
    if bot.deadlines is not None:
        await bot.deadlines.watch(game.id)


async def close_lapsed(bot: TallyHoBot, game_id: int) -> None:
    """Close the game's posted prompts that no longer hold: an offer that lapsed or
    was withdrawn or settled by command, a seat no longer abandoned, an undo request
    overtaken or expired, anything once the game is over. Their buttons go and a line
    says so (in the server's language); a message its own button already closed is
    only forgotten."""
    storage = bot.service.storage
    posted = [m for m in await storage.list_messages(game_id) if m.kind.startswith(seats.PROMPTS)]
    if not posted:
        return
    game = await bot.service.load(game_id)
    live = await seats.open_prompts(bot.service, game)
    language: str | None = None
    for record in posted:
        if record.kind in live:
            continue
        await storage.delete_message(game_id, record.kind)  # first: closed once only
        try:
            channel = bot.get_channel(record.channel_id) or await bot.fetch_channel(
                record.channel_id
            )
            assert isinstance(channel, discord.abc.Messageable)
            message = await channel.fetch_message(record.message_id)
            if not message.components:
                continue  # closed by its own button
            language = language or await public_language(bot, game)
            note = t(LAPSED[record.kind.split(":", 1)[0]], language)
            await message.edit(
                content=f"{message.content}\n{note}"[:2000],
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("game %s: could not close prompt %s", game_id, record.kind, exc_info=True)
