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
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot import seats
from bot.games import LoadedGame
from bot.outcome import Outcome, Prompt
from bot.prompts import (
    DM,
    SIDE,
    DmKind,
    dm_kind,
    dm_now,
    dm_text,
    seat_decision,
    side_deciding,
    side_kind,
)
from bot.settings import server_language, wants_dm
from bot.storage.base import Storage
from bot.storage.models import MessageRecord, MessageRow
from cogs.components import hand_view
from cogs.context import EPHEMERAL_LIMIT, alt_text, attachment, forget_view, pinging
from cogs.hand import seat_view, side_view
from cogs.history import post_after_action
from rendering.registry import picture
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
    "sky_file",
    "tell",
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
    """Tell everyone what a committed change did (:func:`tell`); then, when it ended a
    campaign's mission, the campaign moves on, even if posting failed.

    While an earlier step of the game is still untold (a send failed), this one is not
    posted alone: the outbox posts every untold step, in order (``cogs.outbox``). A
    failure to post is logged and the outbox retries later: the change is committed."""
    game = outcome.game
    try:
        if bot.outbox.behind(game.id):
            await bot.outbox.catch_up(game.id, skip_user)
        else:
            await tell(bot, outcome, skip_user)
    except Exception:
        log.warning("game %s: could not be told; the outbox retries", game.id, exc_info=True)
        bot.outbox.failed(game.id)
    finally:
        if outcome.finished and game.record.campaign_id is not None:
            await bot.game_ended(game.id)


async def tell(bot: TallyHoBot, outcome: Outcome, skip_user: int | None = None) -> None:
    """Narrate in the game thread (with the picture when a turn ended) and prompt.

    Once Discord accepted the thread's message, the game is marked told up to its last
    action (``Storage.mark_posted``); that message's **My hand** carries the seq too,
    so a crash between the two is found in the thread (``cogs.outbox``).

    Whoever must now decide is pinged in the thread and, unless they turned DMs off,
    sent their hand with its buttons by DM (:func:`bot.prompts.dm_now`: a response at
    once, any other decision when the move passes to them); ``skip_user`` made the
    move and was answered already. The game's earlier DMs are brought up to date or
    closed, and a side's menu answered some other way is closed (:func:`close_stale`).
    """
    game = outcome.game
    service = bot.service
    thread_id = game.record.thread_id
    told = game.record.last_seq
    end = outcome.finished and not game.record.end_told  # an end without an action
    if thread_id is None:  # no thread: nobody to tell
        await service.storage.mark_posted(game.id, told, end=outcome.finished)
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
    dm_failed: set[int] = set()  # a response that could not go by DM: pinged instead
    fresh: list[Prompt] = []
    menu = side_view(game, public, told)
    for p in outcome.prompts:
        # A side's decision with no public menu (it would show the side's hand) goes
        # to each of its players by DM, as a seat's own decision does.
        by_dm = dm_now(p, skip_user) or (menu is None and dm_now(replace(p, side=None), skip_user))
        if p.user_id is not None and by_dm:
            if await wants_dm(service.storage, p.user_id):
                fresh.append(p)
            elif p.urgent:
                dm_failed.add(p.user_id)
    deciding = side_deciding(game) if menu is not None else None
    new_dms: list[MessageRow] = []  # remembered in the write taking the stale ones
    for p in fresh:
        assert p.user_id is not None
        row = await dm_hand(bot, game, p.seat, p.user_id, public)
        if row is not None:
            new_dms.append(row)
        elif p.urgent:
            dm_failed.add(p.user_id)
    renewed = {p.seat for p in fresh}
    reopened = await close_stale(bot, game, public, renewed=renewed, menu=deciding, sent=new_dms)
    pings: list[str] = []
    pinged: list[int] = []  # the only users the post notifies
    side = [p for p in outcome.prompts if p.side is not None and (p.new or reopened)]
    if side:  # one decision for the whole side: ping its players, its menu below
        pinged += [p.user_id for p in side if p.user_id]
        users = " ".join(dict.fromkeys(f"<@{p.user_id}>" for p in side if p.user_id))
        key = "publish.order" if menu is not None else "publish.order_hand"
        pings.append(t(key, public, users=users, prompt=tr(side[0].text, public)))
    for p in outcome.prompts:
        if p.user_id is None or p.side is not None or not p.new:
            continue
        if p.user_id != skip_user or p.user_id in dm_failed:
            key = "publish.ping_urgent" if p.urgent else "publish.ping"
            pinged.append(p.user_id)
            pings.append(t(key, public, user=f"<@{p.user_id}>", prompt=tr(p.text, public)))
    narration = [tr(line, public) for line in outcome.public]
    lines = narration + sorted(set(pings), key=pings.index)
    if not lines and not outcome.image:
        forget_view({"view": menu})
        await service.storage.mark_posted(game.id, told, end=outcome.finished)
        return  # nothing public happened (e.g. the end of a step): stay quiet
    text = "\n".join(lines) or t("publish.sky", public)
    files: list[discord.File] = []
    if outcome.image and game.state is not None:
        files.append(await sky_file(game, public))
    chunks = [text[i : i + 1900] for i in range(0, len(text), 1900)]
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        kwargs: dict[str, Any] = {}
        if last:
            kwargs["view"] = menu or hand_view(game.id, told, end=end)
            if files:
                kwargs["files"] = files
        try:
            sent = await channel.send(chunk, allowed_mentions=pinging(pinged), **kwargs)
        finally:
            forget_view(kwargs)
        if last and not outcome.finished:  # Discord accepted it: the thread was told
            await service.storage.mark_posted(game.id, told)
        if last and deciding is not None:
            kind = side_kind(game.record.version, deciding)
            await service.storage.set_message(game.id, kind, sent.channel.id, sent.id, sent.content)
    await notify_followers(bot, game.id, narration, public)
    if outcome.finished:  # the after-action report, and the seed revealed (cogs.history)
        await post_after_action(bot, game, channel)
        # Told once the report is out too: a crash before it leaves the last step (or
        # the end) untold, and the outbox posts the report it finds missing (cogs.outbox).
        await service.storage.mark_posted(game.id, told, end=True)


async def sky_file(game: LoadedGame, language: str) -> discord.File:
    """The picture of the sky of the game now (the spectators' view), its players named
    on it, with its alt text: what it shows in words, in ``language`` (the system's
    presenter, from the same view)."""
    assert game.state is not None
    view = game.system.view(game.state, None)
    players = game.players(language)
    png = await asyncio.to_thread(picture, game.record.system, view, language, players)
    words = game.presenter.picture_text(view, players, language)
    return attachment(png, filename="sky.png", description=alt_text(words))


async def dm_hand(
    bot: TallyHoBot, game: LoadedGame, seat: str, user_id: int, language: str
) -> MessageRow | None:
    """DM ``seat``'s hand and buttons to its player; the message to remember, so it is
    brought up to date or closed later (:func:`close_stale` remembers it); None if it
    could not be delivered."""
    view = seat_view(bot.service, game, seat, language=language)
    sent = await send_dm(bot, user_id, dm_text(game, seat, language), view)
    if sent is None:
        return None
    kind = dm_kind(seat, user_id, game.record.version)
    return MessageRow(kind, sent.channel.id, sent.id, sent.content)


async def close_stale(
    bot: TallyHoBot,
    game: LoadedGame,
    language: str,
    *,
    renewed: set[str],
    menu: str | None,
    sent: Sequence[MessageRow] = (),
) -> bool:
    """Bring the game's remembered DMs and side menus up to date after a change, and
    remember the DMs just ``sent``.

    A DM whose buttons are out of date (the game moved since) is edited in place with
    the seat's hand and fresh buttons while its player still has a decision to take,
    so the latest DM always works (no new notification: the player is still on it);
    it is closed (its buttons removed, a line saying why) once the seat has nothing to
    decide, changed hands, or got a new DM now (``renewed``). A side's menu is closed
    once out of date, or when a new one is posted (``menu``: the side deciding), as
    the other prompts are: its answer came some other way (**My hand**, a default) or
    its menu moves below. Returns whether the menu of a decision still open was
    closed (its side is pinged again with the new one).

    One write takes the stale rows, remembers under the new version the DMs brought up
    to date and remembers the new ones (``Storage.swap_messages``); then each row this
    process took is edited or closed, once (another process took the others)."""
    storage = bot.service.storage
    version = game.record.version
    listed = await storage.list_messages(game.id, (DM, SIDE))  # one read for both
    claim: dict[str, MessageRow | None] = {}  # the stale rows, and what replaces each
    for record in listed:
        if record.kind.startswith(SIDE):
            if menu is not None or record.kind != side_kind(version, _side(record)):
                claim[record.kind] = None
            continue
        dm = DmKind(record.kind)
        if dm.version == version and dm.seat not in renewed:
            continue  # up to date
        asked = seat_decision(game, dm.seat) is not None and game.holder(dm.seat) == dm.user_id
        claim[record.kind] = None
        if asked and dm.seat not in renewed:  # brought up to date in place
            text = dm_text(game, dm.seat, language)[:EPHEMERAL_LIMIT]
            kind = dm_kind(dm.seat, dm.user_id, version)
            claim[record.kind] = MessageRow(kind, record.channel_id, record.message_id, text)
    reposted = False
    deciding = side_deciding(game)
    for record in await storage.swap_messages(game.id, claim, sent):
        if record.kind.startswith(DM):
            newer = DmKind(record.kind).seat in renewed
            note = t("publish.dm_newer" if newer else "publish.dm_done", language)
            await _renew_dm(bot, game, record, claim[record.kind], note, language)
            continue
        still_open = _side(record) == deciding
        reposted = reposted or still_open
        note = "hand.side_newer" if still_open else "hand.side_decided"
        try:
            await _close(bot, record, t(note, language), hand_view(game.id))
        except discord.HTTPException:
            log.warning("game %s: could not close a side's menu", game.id, exc_info=True)
    return reposted


async def _renew_dm(
    bot: TallyHoBot,
    game: LoadedGame,
    record: MessageRecord,
    renewed: MessageRow | None,
    note: str,
    language: str,
) -> None:
    """Edit a stale DM this process took (:func:`close_stale`): with the seat's hand
    and fresh buttons (``renewed``: the row remembered for it), else closed with
    ``note`` under it."""
    dm = DmKind(record.kind)
    try:
        if renewed is None:
            await _close(bot, record, note, None)
            return
        view = seat_view(bot.service, game, dm.seat, language=language)
        message = bot.get_partial_messageable(record.channel_id).get_partial_message(
            record.message_id
        )
        try:
            await message.edit(content=renewed.content, view=view)
        finally:
            forget_view({"view": view})
    except discord.HTTPException:
        log.warning("game %s: could not update the DM of %s", game.id, dm.seat, exc_info=True)


def _side(record: MessageRecord) -> str:
    """The side a remembered side's menu is for (its kind's last part)."""
    return record.kind.rsplit(":", 1)[-1]


async def _handled_here(
    storage: Storage, game_id: int, stale: Iterable[MessageRecord]
) -> AsyncIterator[MessageRecord]:
    """These remembered messages, each forgotten first and given back only if this
    process forgot it (``Storage.delete_message``; another process handles the
    others): each is closed or brought up to date once."""
    for listed in stale:
        record = await storage.delete_message(game_id, listed.kind)
        if record is not None:
            yield record


async def _close(
    bot: TallyHoBot, record: MessageRecord, note: str, view: discord.ui.View | None
) -> None:
    """Take a remembered message's components away (``view``: what it keeps, e.g.
    **My hand**) and add ``note`` under it. Its text comes with its row (what the bot
    last sent it, ``MessageRecord.content``): one request. A row from before the text
    was kept is fetched first, and left alone if closed already."""
    try:
        channel = bot.get_partial_messageable(record.channel_id)
        shown = record.content
        target: discord.Message | discord.PartialMessage
        if shown is None:
            target = await channel.fetch_message(record.message_id)
            if not target.components:
                return
            shown = target.content
        else:  # the row was this process's to handle (Storage.delete_message): open
            target = channel.get_partial_message(record.message_id)
        await target.edit(
            content=f"{shown}\n{note}"[:2000],
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    finally:
        forget_view({"view": view})


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


async def send_dm(
    bot: TallyHoBot, user_id: int, text: str, view: discord.ui.View | None
) -> discord.Message | None:
    """DM a player; None when Discord refuses (closed DMs, error 50007)."""
    try:
        channel = await bot.dm_channel(user_id)
        if view is not None:
            return await channel.send(text[:EPHEMERAL_LIMIT], view=view)
        return await channel.send(text[:EPHEMERAL_LIMIT])
    except discord.Forbidden:
        log.info("DM to %s refused; falling back to a ping in the thread", user_id)
        return None
    except discord.HTTPException:
        log.warning("DM to %s failed", user_id, exc_info=True)
        return None
    finally:
        forget_view({"view": view})


async def say(
    bot: TallyHoBot,
    game: LoadedGame,
    text: str,
    view: discord.ui.View | None = None,
    *,
    pings: Sequence[int] = (),
) -> discord.Message | None:
    """Post in the game's thread, notifying the users ``pings``, and return the message
    (None if it failed: that is logged, the change is committed); a
    :class:`strings.Term` is put in the server's language."""
    thread_id = game.record.thread_id
    if thread_id is None:
        return None
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    try:
        said = tr(text, await public_language(bot, game))
        channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
        assert isinstance(channel, discord.abc.Messageable)
        return await channel.send(said[:2000], allowed_mentions=pinging(pings), **extra)
    except discord.HTTPException:
        log.warning("game %s: could not post in the thread", game.id, exc_info=True)
        return None
    finally:
        if view is not None:
            forget_view({"view": view})


async def post_prompt(
    bot: TallyHoBot,
    game: LoadedGame,
    kind: str,
    text: str,
    view: discord.ui.View,
    *,
    pings: Sequence[int] = (),
) -> None:
    """Post a prompt with buttons (a seat offer, an abandoned seat, an undo request),
    notifying the users ``pings`` (whom it asks), and remember it as ``kind`` (``bot.seats.offer_kind``...), so it is closed once it
    no longer holds (:func:`close_lapsed`), and watch for its lapse."""
    posted = await say(bot, game, text, view, pings=pings)
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
    posted = await storage.list_messages(game_id, seats.PROMPTS)
    if not posted:
        return
    game = await bot.service.load(game_id)
    live = await seats.open_prompts(bot.service, game)
    language: str | None = None
    async for record in _handled_here(storage, game_id, [r for r in posted if r.kind not in live]):
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
