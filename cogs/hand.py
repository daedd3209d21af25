"""A seat's own messages and moves: **My hand** (one private message per seat the user
holds, with its components), playing an action, and the public menu of a decision a
whole side takes.

The menus come from the game's system (its presenter's ``menu`` and ``side_menu``);
:mod:`cogs.components` shows them. Each action goes to the service, then the user is
answered (in their language) and everyone else told (:mod:`cogs.publisher`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import Refusal
from bot.games import LoadedGame
from bot.outcome import Outcome
from bot.prompts import hand_text, side_kind
from bot.service import GameService
from bot.settings import server_language
from bot.storage import GameStatus
from cogs.components import ActionButton, hand_view, menu_view
from cogs.context import EPHEMERAL_LIMIT, app_of, forget_view, language_of, reply, service_of
from engine.core.contract import Scope, Timing
from engine.core.present import Choice, Menu, Seating
from strings import t, tr

__all__ = [
    "SeatDecision",
    "SideDecision",
    "answer",
    "perform",
    "seat_view",
    "seating",
    "send_hand",
    "side_view",
]

log = logging.getLogger(__name__)


def seating(game: LoadedGame, language: str) -> Seating:
    """Who holds each seat, for the menus' descriptions."""
    return Seating(
        names={s.seat: s.display_name for s in game.seats}, players=game.players(language)
    )


def _path(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p.isdigit())


class SeatDecision:
    """The menus of one seat's decision at one version of the game (``th:s``)."""

    public = False

    def __init__(self, game_id: int, seat: str, version: int) -> None:
        self.game_id, self.seat, self.version = game_id, seat, version

    @classmethod
    def parse(cls, args: Sequence[str]) -> tuple[SeatDecision, tuple[int, ...]]:
        game, seat, version, *rest = args
        return cls(int(game), seat, int(version)), _path(rest[0] if rest else "")

    def custom_id(self, path: Sequence[int]) -> str:
        return f"th:s:{self.game_id}:{self.seat}:{self.version}:{'.'.join(map(str, path))}"

    async def menu(self, interaction: discord.Interaction) -> Menu:
        service = service_of(interaction)
        game = await service.load(self.game_id)
        if self.seat not in game.seats_of(interaction.user.id):
            raise Refusal("refusal.others_seat")
        state = service.require_active(game)
        mine = [p for p in game.system.pending(state) if p.seat == self.seat]
        picking = bool(mine) and all(p.timing is Timing.SIMULTANEOUS for p in mine)
        if self.version != game.record.version and not picking:
            # An older menu: read the pick in the menu the player saw; the move is then
            # refused as out of date, or as one that already went through.
            state = await service.state_at(game, self.version)
            if state is None or self.seat not in {p.seat for p in game.system.pending(state)}:
                raise Refusal("refusal.stale_buttons")
        language = await language_of(interaction)
        return game.presenter.menu(state, self.seat, seating(game, language), language)

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        await perform(interaction, self.game_id, self.seat, action, self.version)

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        return ActionButton.of(self.game_id, self.seat, self.version, choice)


class SideDecision:
    """The public menu of a decision any player of a side may take (``th:o``):
    whoever of them answers first decides, and the message then says who chose what."""

    public = True

    def __init__(self, game_id: int, version: int) -> None:
        self.game_id, self.version = game_id, version

    @classmethod
    def parse(cls, args: Sequence[str]) -> tuple[SideDecision, tuple[int, ...]]:
        game, version, *rest = args
        return cls(int(game), int(version)), _path(rest[0] if rest else "")

    def custom_id(self, path: Sequence[int]) -> str:
        return f"th:o:{self.game_id}:{self.version}:{'.'.join(map(str, path))}"

    async def menu(self, interaction: discord.Interaction) -> Menu:
        game = await service_of(interaction).load(self.game_id)
        if game.state is None:
            raise Refusal("hand.not_started")
        public = await server_language(service_of(interaction).storage, interaction.guild_id)
        return side_menu(game, public)

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        service = service_of(interaction)
        game = await service.load(self.game_id)
        if game.state is None:
            raise Refusal("hand.not_started")
        deciding = [p for p in game.system.pending(game.state) if p.scope is Scope.SIDE]
        choosing = {p.seat for p in deciding}
        mine = [s for s in game.seats_of(interaction.user.id) if s in choosing]
        if choosing and not mine:
            side = deciding[0].side or ""
            raise Refusal("hand.side_only", side=game.side_phrase(side))
        seat = mine[0] if mine else None
        outcome = await answer(interaction, self.game_id, seat, action, self.version)
        message = interaction.message
        if message is not None:
            # This menu is closed here, saying who chose what; the publisher closes a
            # side's menu answered some other way (My hand, a default).
            for record in await service.storage.list_messages(
                self.game_id, side_kind(self.version)
            ):
                await service.storage.delete_message(self.game_id, record.kind)
            public = await server_language(service.storage, interaction.guild_id)
            chose = t("hand.chose", public, user=f"<@{interaction.user.id}>", element=label)
            view = hand_view(self.game_id)
            try:  # everyone sees the choice made, and the menu goes away
                await message.edit(
                    content=f"{message.content}\n{chose}",
                    view=view,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException:
                log.warning(
                    "could not update the side's menu of game %s", self.game_id, exc_info=True
                )
            finally:
                forget_view({"view": view})
        await app_of(interaction).publisher.publish(outcome, skip_user=interaction.user.id)

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        return None


def side_menu(game: LoadedGame, language: str) -> Menu:
    """The public menu of the side decision pending now (empty if none)."""
    state = game.state
    if state is None or game.record.status is not GameStatus.ACTIVE:
        return Menu()
    deciding = [p for p in game.system.pending(state) if p.scope is Scope.SIDE]
    if not deciding:
        return Menu()
    return game.presenter.side_menu(state, deciding[0], seating(game, language), language)


def side_view(
    game: LoadedGame, language: str = "en", told: int | None = None
) -> discord.ui.View | None:
    """The thread's menu of a side's decision, under **My hand** (None: none pending);
    ``told``: as :func:`~cogs.components.hand_view`'s."""
    menu = side_menu(game, language)
    if not menu:
        return None
    view = hand_view(game.id, told)
    components = menu_view(SideDecision(game.id, game.record.version), menu)
    for item in components.children if components is not None else ():
        view.add_item(item)
    return view


def seat_view(
    service: GameService, game: LoadedGame, seat: str, language: str = "en"
) -> discord.ui.View | None:
    """Buttons and menus for every legal action of ``seat``, labelled in ``language``."""
    if game.state is None or game.record.status is not GameStatus.ACTIVE:
        return None
    menu = game.presenter.menu(game.state, seat, seating(game, language), language)
    return menu_view(SeatDecision(game.id, seat, game.record.version), menu)


async def send_hand(interaction: discord.Interaction, game_id: int) -> None:
    """One ephemeral message per seat the user holds, each with that seat's moves."""
    service = service_of(interaction)
    game = await service.load(game_id)
    seats = game.seats_of(interaction.user.id)
    if not seats:
        raise Refusal("hand.not_playing")
    if game.state is None:
        raise Refusal("hand.not_started")
    language = await language_of(interaction)
    for i, seat in enumerate(seats):
        view = seat_view(service, game, seat, language=language)
        text = hand_text(game, seat, language=language)
        kwargs: dict[str, Any] = {"view": view} if view else {}
        if i == 0:
            await reply(interaction, text, **kwargs)
        else:
            await interaction.followup.send(text[:EPHEMERAL_LIMIT], ephemeral=True, **kwargs)
            forget_view(kwargs)


async def perform(
    interaction: discord.Interaction,
    game_id: int,
    seat: str | None,
    action: str,
    version: int | None,
) -> None:
    """Apply an action for the clicking user; answer them, then tell everyone else,
    once the other players clicking at the same moment were answered too."""
    outcome = await answer(interaction, game_id, seat, action, version)
    app = app_of(interaction)
    app.gate.answered()
    await app.gate.replies_first()
    await app.publisher.publish(outcome, skip_user=interaction.user.id)


async def answer(
    interaction: discord.Interaction,
    game_id: int,
    seat: str | None,
    action: str,
    version: int | None,
) -> Outcome:
    """Apply an action for the clicking user and answer them (privately: what they
    drew, and their next step's buttons); returns what to tell everyone else. The
    answer is made while the move is being written (``GameService.act_and_answer``)."""
    service = service_of(interaction)
    language = await language_of(interaction)
    user_id = interaction.user.id

    def told(outcome: Outcome) -> tuple[str, discord.ui.View | None]:
        game = outcome.game
        seats = game.seats_of(user_id)
        mine = []
        for s in seats:  # private lines (cards drawn), named by seat if several
            for line in outcome.private.get(s, []):
                said = tr(line, language)
                mine.append(f"{game.seat_label(s)}: {said}" if len(seats) > 1 else said)
        text = "✅ " + (" ".join(mine) if mine else t("hand.done", language))
        still = [p for p in outcome.prompts if p.seat in seats]
        if not still:
            return text, None
        view = seat_view(service, game, still[0].seat, language=language)
        return text + "\n" + hand_text(game, still[0].seat, language=language), view

    outcome, (text, view) = await service.act_and_answer(
        game_id,
        user_id,
        seat,
        action,
        told,
        version=version,
        discard=lambda answered: forget_view({"view": answered[1]}),
    )
    await reply(interaction, text, **({"view": view} if view else {}))
    return outcome
