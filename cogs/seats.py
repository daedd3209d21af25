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
from bot.errors import UserError
from bot.operations import discord_time
from bot.service import LoadedGame, Outcome
from bot.settings import wants_dm
from bot.storage import GameStatus
from cogs.ui import action_view, guarded, hand_text, publish, reply, send_dm, service_of

if TYPE_CHECKING:
    from bot.app import TallyHoBot

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

MENTIONS = discord.AllowedMentions(users=True)
OFFER_LABELS = {"accept": "Accept the seat", "decline": "Decline", "withdraw": "Withdraw the offer"}


def _bot(interaction: discord.Interaction) -> TallyHoBot:
    return interaction.client  # type: ignore[return-value]


def _admin(interaction: discord.Interaction) -> bool:
    """Manage Server, as for /config (no such permission in a DM)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


async def say(
    bot: TallyHoBot, game: LoadedGame, text: str, view: discord.ui.View | None = None
) -> None:
    """Post in the game's thread (a failure is logged: the change is committed)."""
    thread_id = game.record.thread_id
    if thread_id is None:
        return
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    try:
        channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
        assert isinstance(channel, discord.abc.Messageable)
        await channel.send(text[:2000], allowed_mentions=MENTIONS, **extra)
    except discord.HTTPException:
        log.warning("game %s: could not post in the thread", game.id, exc_info=True)
    finally:
        if view is not None:
            view.stop()  # DynamicItems: see cogs.ui.forget_view


async def close_message(interaction: discord.Interaction, note: str) -> None:
    """The message whose button was used: say what happened, drop its buttons."""
    message = interaction.message
    if message is None:
        return
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
    their own click, else by DM (the thread names them either way)."""
    service = bot.service
    if game.state is None or game.record.status is not GameStatus.ACTIVE:
        return
    text = f"**Dogfight #{game.id}**: you now fly {seat}.\n" + hand_text(service, game, seat)
    view = action_view(service, game, seat)
    if interaction is not None and interaction.user.id == user_id:
        await reply(interaction, text, **({"view": view} if view else {}))
    elif await wants_dm(service.storage, user_id):
        await send_dm(bot, user_id, text, view)


# ---------------------------------------------------------------- components
class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:sub:(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<what>accept|decline|withdraw)",
):
    """Under a seat offer: the member accepts or declines, the player withdraws."""

    def __init__(self, game_id: int, seat: str, what: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=OFFER_LABELS[what],
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

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, service = _bot(interaction), service_of(interaction)
            if self.what == "accept":
                await _accept(interaction, self.game_id, self.seat, from_button=True)
                return
            line = await seats.close_offer(
                service, self.game_id, interaction.user.id, self.seat, self.what
            )
            await reply(interaction, "Done.")
            await close_message(
                interaction, "✖ Declined." if self.what == "decline" else "✖ Withdrawn."
            )
            await say(bot, await service.load(self.game_id), line)

        await guarded(interaction, work)


class TakeSeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:take:(?P<game>\d+):(?P<seat>[A-Z]\d+)",
):
    """Under an abandoned seat's announcement: anyone not playing takes it, at once."""

    def __init__(self, game_id: int, seat: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Take this seat ({seat})",
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

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = service_of(interaction)
            user = interaction.user
            handover = await seats.take_abandoned(
                service, self.game_id, user.id, user.display_name, self.seat
            )
            await _handed(interaction, handover)
            await close_message(interaction, f"✔ <@{user.id}> took it.")

        await guarded(interaction, work)


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:undo:(?P<game>\d+):(?P<seq>\d+):(?P<what>yes|no)",
):
    """Under an undo request: an opposing player agrees or declines."""

    def __init__(self, game_id: int, seq: int, what: str) -> None:
        agree = what == "yes"
        super().__init__(
            discord.ui.Button(
                label="Agree to take it back" if agree else "Decline",
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

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, service = _bot(interaction), service_of(interaction)
            agree = self.what == "yes"
            line, outcome = await seats.answer_undo(
                service, self.game_id, interaction.user.id, self.seq, agree
            )
            await reply(interaction, "You agreed." if agree else "You declined.")
            if outcome is not None:
                await close_message(interaction, "✔ Taken back.")
                await publish(bot, outcome)
                return
            if not agree:
                await close_message(interaction, "✖ Declined.")
            await say(bot, await service.load(self.game_id), line)

        await guarded(interaction, work)


class AbortButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:abort:(?P<game>\d+)"
):
    """The confirmation of ``/game abort`` (only the host or an admin sees it)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Abort dogfight #{game_id}",
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

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _abort(interaction, self.game_id))


SEAT_COMPONENTS = (OfferButton, TakeSeatButton, UndoButton, AbortButton)


def take_seat_view(game_id: int, seat: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakeSeatButton(game_id, seat))
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
        await reply(interaction, "Your offer is withdrawn.")
        await say(bot, game, line)
        return
    if member is not None and member.bot:
        raise UserError("A bot cannot take a seat: use `computer: True` for a computer player.")
    result = await seats.substitute(
        service,
        game.id,
        interaction.user.id,
        admin=_admin(interaction),
        seat=seat,
        member=(member.id, member.display_name) if member is not None else None,
        computer=computer,
    )
    if isinstance(result, seats.Offer):
        await reply(
            interaction,
            f"Seat {result.seat} is offered to <@{result.to}>: it stays yours until they "
            "accept. `/game sub withdraw: True` takes the offer back.",
        )
        view = discord.ui.View(timeout=None)
        for what in ("accept", "decline", "withdraw"):
            view.add_item(OfferButton(game.id, result.seat, what))
        await say(
            bot,
            result.game,
            f"🔁 <@{result.by}> offers seat {result.seat} ({result.label}) to <@{result.to}>. "
            f"<@{result.to}>: accept below or with `/game accept`, by "
            f"{discord_time(result.until)}.",
            view,
        )
        return
    who = "a computer player" if result.new is None else f"<@{result.new}>"
    await reply(interaction, f"Seat {result.seat} is now flown by {who}.")
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
        await close_message(interaction, f"✔ <@{user.id}> accepted.")


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
        raise UserError("This game is over already.")
    if interaction.user.id != game.record.host_id and not _admin(interaction):
        raise UserError(
            "Only the host who opened this game or a server admin (Manage Server) can abort it."
        )
    if confirm:
        await _abort(interaction, game.id)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(AbortButton(game.id))
    await reply(
        interaction,
        f"Abort dogfight #{game.id}? It ends now for everyone, with no result. Press the "
        "button to confirm (or dismiss this message).",
        view=view,
    )


async def _abort(interaction: discord.Interaction, game_id: int) -> None:
    bot, service = _bot(interaction), service_of(interaction)
    outcome = await service.abort(game_id, interaction.user.id, admin=_admin(interaction))
    await reply(interaction, f"Dogfight #{game_id} is aborted.")
    game = outcome.game
    if game.state is not None:
        await publish(bot, outcome)
        return
    await say(bot, game, "\n".join(outcome.public))  # a lobby: no sky, no report
    thread_id, message_id = game.record.thread_id, game.record.lobby_message_id
    if thread_id is not None and message_id is not None:
        try:
            channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
            if isinstance(channel, discord.Thread):
                await channel.get_partial_message(message_id).edit(
                    content=service.lobby_text(game), view=None
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
        interaction,
        f"Asked: action {result.seq} is taken back once every opposing player agrees.",
    )
    who = " ".join(f"<@{u}>" for u in result.needed)
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(game.id, result.seq, "yes"))
    view.add_item(UndoButton(game.id, result.seq, "no"))
    await say(
        bot,
        result.game,
        f"↩ <@{result.by}> asks to take back action {result.seq} ({result.seat}: "
        f"{result.shown}). {who}: do you agree? Every opposing player must; the request "
        f"lapses {discord_time(result.until)}, or as soon as anyone acts.",
        view,
    )


async def _taken_back(interaction: discord.Interaction, outcome: Outcome) -> None:
    bot, service = _bot(interaction), service_of(interaction)
    game = outcome.game
    mine = [p.seat for p in outcome.prompts if p.user_id == interaction.user.id]
    if mine and game.state is not None:
        view = action_view(service, game, mine[0])
        text = "✅ Taken back.\n" + hand_text(service, game, mine[0])
        await reply(interaction, text, **({"view": view} if view else {}))
    else:
        await reply(interaction, "✅ Taken back.")
    await publish(bot, outcome, skip_user=interaction.user.id)
