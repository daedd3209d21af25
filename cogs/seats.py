"""``/game sub|accept|abort|undo`` and their buttons: seats and people, thin.

:mod:`bot.seats` and :class:`~bot.service.GameService` decide and commit; this module
parses, answers the user (ephemerally), posts in the thread and hands the new holder
of a seat their hand. Components are DynamicItems (``custom_id`` carries the game),
so they work after a restart; each one is checked again by the service when used.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot import seats
from bot.errors import Refusal
from bot.games import LoadedGame
from bot.operations import discord_time
from bot.outcome import Outcome
from bot.prompts import hand_text
from bot.settings import server_language, wants_dm
from bot.storage import GameStatus
from cogs.boundary import Guarded
from cogs.context import is_admin, language_of, new_view, reply, service_of
from cogs.hand import seat_view
from cogs.publisher import close_lapsed, post_prompt, public_language, publish, say, send_dm
from strings import t, tr

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = [
    "SEAT_COMPONENTS",
    "AbortButton",
    "OfferButton",
    "TakeSeatButton",
    "UndoButton",
    "abort",
    "accept",
    "sub",
    "take_seat_view",
    "undo",
]

log = logging.getLogger(__name__)


def _bot(interaction: discord.Interaction) -> TallyHoBot:
    return interaction.client  # type: ignore[return-value]


async def close_message(interaction: discord.Interaction, key: str, **fields: Any) -> None:
    """The message whose button was used (in the thread): say what happened (the
    catalogue's ``key``, in the server's language) and drop its buttons."""
    message = interaction.message
    if message is None:
        return
    storage = service_of(interaction).storage
    note = t(key, await server_language(storage, interaction.guild_id), **fields)
    try:
        await message.edit(
            content=f"{message.content}\n{note}"[:2000],
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not update message %s", message.id, exc_info=True)


async def give_hand(
    bot: TallyHoBot,
    game: LoadedGame,
    seat: str,
    user_id: int,
    interaction: discord.Interaction | None = None,
) -> None:
    """The new holder of a seat gets its hand and buttons at once: in the answer to
    their own click (in their language), else by DM (the server's, like every DM; the
    thread names them either way)."""
    service = bot.service
    if game.state is None or game.record.status is not GameStatus.ACTIVE:
        return
    clicked = interaction is not None and interaction.user.id == user_id
    if interaction is not None and clicked:
        language = await language_of(interaction)
    elif await wants_dm(service.storage, user_id):
        language = await public_language(bot, game)
    else:
        return
    head = t("seats.ui.now_flying", language, id=game.id, seat=seat)
    text = head + "\n" + hand_text(game, seat, language=language)
    view = seat_view(service, game, seat, language=language)
    if interaction is not None and clicked:
        await reply(interaction, text, **({"view": view} if view else {}))
    else:
        await send_dm(bot, user_id, text, view)


# ---------------------------------------------------------------- components
class OfferButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:sub:(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<what>accept|decline|withdraw)",
):
    """Under a seat offer: the member accepts or declines, the player withdraws."""

    def __init__(self, game_id: int, seat: str, what: str, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t(f"seats.ui.offer.{what}", language),
                style=discord.ButtonStyle.success
                if what == "accept"
                else discord.ButtonStyle.secondary,
                custom_id=f"th:sub:{game_id}:{seat}:{what}",
            )
        )
        self.game_id, self.seat, self.what = game_id, seat, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OfferButton:
        return cls(int(match["game"]), match["seat"], match["what"])

    async def run(self, interaction: discord.Interaction) -> None:
        bot, service = _bot(interaction), service_of(interaction)
        if self.what == "accept":
            await _accept(interaction, self.game_id, self.seat, from_button=True)
            return
        line = await seats.close_offer(
            service, self.game_id, interaction.user.id, self.seat, self.what
        )
        await reply(interaction, t("hand.done", await language_of(interaction)))
        await close_message(interaction, f"seats.ui.closed.{self.what}")
        await say(bot, await service.load(self.game_id), line)


class TakeSeatButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:take:(?P<game>\d+):(?P<seat>[A-Z]\d+)",
):
    """Under an abandoned seat's announcement: anyone not playing takes it, at once."""

    def __init__(self, game_id: int, seat: str, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t("seats.ui.take", language, seat=seat),
                emoji="🙋",
                style=discord.ButtonStyle.success,
                custom_id=f"th:take:{game_id}:{seat}",
            )
        )
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TakeSeatButton:
        return cls(int(match["game"]), match["seat"])

    async def run(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        user = interaction.user
        handover = await seats.take_abandoned(
            service, self.game_id, user.id, user.display_name, self.seat
        )
        await _handed(interaction, handover)
        await close_message(interaction, "seats.ui.closed.took", user=f"<@{user.id}>")


class UndoButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:undo:(?P<game>\d+):(?P<seq>\d+):(?P<what>yes|no)",
):
    """Under an undo request: an opposing player agrees or declines."""

    def __init__(self, game_id: int, seq: int, what: str, language: str = "en") -> None:
        agree = what == "yes"
        super().__init__(
            discord.ui.Button(
                label=t(f"seats.ui.undo.{what}", language),
                style=discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary,
                custom_id=f"th:undo:{game_id}:{seq}:{what}",
            )
        )
        self.game_id, self.seq, self.what = game_id, seq, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoButton:
        return cls(int(match["game"]), int(match["seq"]), match["what"])

    async def run(self, interaction: discord.Interaction) -> None:
        bot, service = _bot(interaction), service_of(interaction)
        agree = self.what == "yes"
        line, outcome = await seats.answer_undo(
            service, self.game_id, interaction.user.id, self.seq, agree
        )
        key = "seats.ui.agreed" if agree else "seats.ui.declined"
        await reply(interaction, t(key, await language_of(interaction)))
        if outcome is not None:
            await close_message(interaction, "seats.ui.closed.taken_back")
            await publish(bot, outcome)
            return
        if not agree:
            await close_message(interaction, "seats.ui.closed.decline")
        await say(bot, await service.load(self.game_id), line)


class AbortButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:abort:(?P<game>\d+)"
):
    """The confirmation of ``/game abort`` (only the host or an admin sees it)."""

    def __init__(self, game_id: int, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t("seats.ui.abort", language, id=game_id),
                emoji="🛑",
                style=discord.ButtonStyle.danger,
                custom_id=f"th:abort:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AbortButton:
        return cls(int(match["game"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await _abort(interaction, self.game_id)


SEAT_COMPONENTS = (OfferButton, TakeSeatButton, UndoButton, AbortButton)


def take_seat_view(game_id: int, seat: str, language: str = "en") -> discord.ui.View:
    view = new_view()
    view.add_item(TakeSeatButton(game_id, seat, language))
    return view


# ---------------------------------------------------------------- commands
async def sub(
    interaction: discord.Interaction,
    member: discord.Member | discord.User | None,
    seat: str | None,
    computer: bool,
    withdraw: bool,
) -> None:
    """``/game sub``: offer one's seat, replace a player (host/admin), hand a seat to a
    computer player (host/admin), or withdraw one's offer."""
    bot, service = _bot(interaction), service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    if withdraw:
        line = await seats.close_offer(service, game.id, interaction.user.id, seat, "withdraw")
        await reply(interaction, t("seats.ui.withdrawn", await language_of(interaction)))
        await say(bot, game, line)
        await close_lapsed(bot, game.id)  # the offer's own message
        return
    if member is not None and member.bot:
        raise Refusal("seats.ui.no_bots")
    result = await seats.substitute(
        service,
        game.id,
        interaction.user.id,
        admin=is_admin(interaction),
        seat=seat,
        member=(member.id, member.display_name) if member is not None else None,
        computer=computer,
    )
    language = await language_of(interaction)
    if isinstance(result, seats.Offer):
        to = f"<@{result.to}>"
        await reply(interaction, t("seats.ui.offered", language, seat=result.seat, user=to))
        public = await public_language(bot, result.game)
        view = new_view()
        for what in ("accept", "decline", "withdraw"):
            view.add_item(OfferButton(game.id, result.seat, what, public))
        offer = t(
            "seats.note.offer",
            public,
            user=f"<@{result.by}>",
            seat=result.seat,
            element=result.label,
            to=to,
            until=discord_time(result.until),
        )
        kind = seats.offer_kind(result.seat, result.until)
        await post_prompt(bot, result.game, kind, offer, view, pings=[result.to])
        return
    who = t("seats.a_computer", language) if result.new is None else f"<@{result.new}>"
    await reply(interaction, t("seats.ui.flown_by", language, seat=result.seat, who=who))
    await publish(bot, result.outcome)
    if result.new is not None:
        await give_hand(bot, result.outcome.game, result.seat, result.new)


async def accept(interaction: discord.Interaction, seat: str | None) -> None:
    """``/game accept``: take the seat offered to you (or an abandoned seat)."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    await _accept(interaction, game.id, seat, from_button=False)


async def _accept(
    interaction: discord.Interaction, game_id: int, seat: str | None, *, from_button: bool
) -> None:
    user = interaction.user
    handover = await seats.accept(
        service_of(interaction), game_id, user.id, user.display_name, seat
    )
    await _handed(interaction, handover)
    if from_button:
        await close_message(interaction, "seats.ui.closed.accepted", user=f"<@{user.id}>")


async def _handed(interaction: discord.Interaction, handover: seats.Handover) -> None:
    """The clicking user now holds the seat: their hand first, then the thread."""
    bot = _bot(interaction)
    game = handover.outcome.game
    assert handover.new is not None
    await give_hand(bot, game, handover.seat, handover.new, interaction)
    await publish(bot, handover.outcome, skip_user=handover.new)


async def abort(interaction: discord.Interaction, confirm: bool) -> None:
    """``/game abort``: the host or an admin ends the game with no result."""
    service = service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    if game.record.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
        raise Refusal("refusal.over_already")
    if interaction.user.id != game.record.host_id and not is_admin(interaction):
        raise Refusal("refusal.abort_who")
    if confirm:
        await _abort(interaction, game.id)
        return
    language = await language_of(interaction)
    view = new_view()
    view.add_item(AbortButton(game.id, language))
    await reply(interaction, t("seats.ui.abort_confirm", language, id=game.id), view=view)


async def _abort(interaction: discord.Interaction, game_id: int) -> None:
    bot, service = _bot(interaction), service_of(interaction)
    outcome = await service.abort(game_id, interaction.user.id, admin=is_admin(interaction))
    await reply(interaction, t("seats.ui.aborted", await language_of(interaction), id=game_id))
    game = outcome.game
    if game.state is not None:
        await publish(bot, outcome)
        return
    public = await public_language(bot, game)
    await say(bot, game, "\n".join(tr(line, public) for line in outcome.public))  # a lobby
    thread_id, message_id = game.record.thread_id, game.record.lobby_message_id
    if thread_id is not None and message_id is not None:
        try:
            channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
            if isinstance(channel, discord.Thread):
                await channel.get_partial_message(message_id).edit(
                    content=service.lobby_text(game, public), view=None
                )
        except discord.HTTPException:
            log.warning("could not update the lobby message of game %s", game_id, exc_info=True)


async def undo(interaction: discord.Interaction) -> None:
    """``/game undo``: ask the opponents to let you take back your latest action."""
    bot, service = _bot(interaction), service_of(interaction)
    game = await service.resolve_game(interaction.channel_id, interaction.user.id)
    result = await seats.request_undo(service, game.id, interaction.user.id)
    if isinstance(result, Outcome):  # only computer players oppose: taken back at once
        await _taken_back(interaction, result)
        return
    await reply(
        interaction, t("seats.ui.undo_asked", await language_of(interaction), seq=result.seq)
    )
    public = await public_language(bot, result.game)
    view = new_view()
    view.add_item(UndoButton(game.id, result.seq, "yes", public))
    view.add_item(UndoButton(game.id, result.seq, "no", public))
    ask = t(
        "seats.note.undo_asked",
        public,
        user=f"<@{result.by}>",
        seq=result.seq,
        seat=result.seat,
        action=result.shown,
        users=" ".join(f"<@{u}>" for u in result.needed),
        until=discord_time(result.until),
    )
    await close_lapsed(bot, game.id)  # an earlier request this one replaces
    kind = seats.undo_kind(result.seq, result.game.record.version)
    await post_prompt(bot, result.game, kind, ask, view, pings=result.needed)


async def _taken_back(interaction: discord.Interaction, outcome: Outcome) -> None:
    bot, service = _bot(interaction), service_of(interaction)
    game = outcome.game
    mine = [p.seat for p in outcome.prompts if p.user_id == interaction.user.id]
    language = await language_of(interaction)
    done = t("seats.ui.taken_back", language)
    if mine and game.state is not None:
        view = seat_view(service, game, mine[0], language=language)
        text = done + "\n" + hand_text(game, mine[0], language=language)
        await reply(interaction, text, **({"view": view} if view else {}))
    else:
        await reply(interaction, done)
    await publish(bot, outcome, skip_user=interaction.user.id)
