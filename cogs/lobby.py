"""The lobby message at the top of a game's thread, and its menu: pick an open seat,
then an aircraft of that side (the system's ``aircraft_choices``), privately.

Both menus are :class:`~cogs.components.MenuSelect` levels: ``th:j:{game}`` lists the
open seats, ``th:ac:{game}:{seat}`` the aircraft for one of them (a pick joins with
the aircraft's defaults; ``/dogfight join`` asks the system's extras too).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import Refusal
from bot.games import LoadedGame
from bot.service import GameService
from bot.settings import server_language
from bot.storage import GameStatus
from bot.systems import format_seats
from cogs.components import menu_view
from cogs.context import forget_view, language_of, reply, service_of
from engine.core.present import Choice, Menu
from strings import t, tr

__all__ = ["LobbyAircraft", "LobbySeats", "lobby_view", "refresh_lobby"]

log = logging.getLogger(__name__)

MAX_OPTIONS = 25


class LobbySeats:
    """The lobby message's menu of open seats (``th:j:{game}``)."""

    public = True

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id

    @classmethod
    def parse(cls, args: Sequence[str]) -> tuple[LobbySeats, tuple[int, ...]]:
        return cls(int(args[0])), (0,)

    def custom_id(self, path: Sequence[int]) -> str:
        return f"th:j:{self.game_id}"

    async def menu(self, interaction: discord.Interaction) -> Menu:
        service = service_of(interaction)
        game = await service.load(self.game_id)
        public = await server_language(service.storage, interaction.guild_id)
        return seats_menu(service, game, public)

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        await offer_aircraft(interaction, self.game_id, action)

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        return None


class LobbyAircraft:
    """The aircraft a seat picked in the lobby's menu may take (``th:ac:{game}:{seat}``)."""

    public = False

    def __init__(self, game_id: int, seat: str) -> None:
        self.game_id, self.seat = game_id, seat

    @classmethod
    def parse(cls, args: Sequence[str]) -> tuple[LobbyAircraft, tuple[int, ...]]:
        return cls(int(args[0]), args[1]), (0,)

    def custom_id(self, path: Sequence[int]) -> str:
        return f"th:ac:{self.game_id}:{self.seat}"

    async def menu(self, interaction: discord.Interaction) -> Menu:
        service = service_of(interaction)
        game = await service.load(self.game_id)
        return aircraft_menu(service, game, self.seat, await language_of(interaction))

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        await join_from_menu(interaction, self.game_id, self.seat, action)

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        return None


def seats_menu(service: GameService, game: LoadedGame, language: str) -> Menu:
    """The open seats, each with its side (empty once the lobby is full or started)."""
    if game.record.status is not GameStatus.LOBBY:
        return Menu()
    seats = service.open_seats(game)
    if not seats:
        return Menu()
    fixed = dict(format_seats(game.system, game.options, game.format))
    note = "lobby.menu.open_seat" if fixed else "lobby.menu.new_element"
    options = tuple(
        Choice(
            f"{seat} · {tr(game.side_name(_side_of(service, game, seat)), language)}",
            action=seat,
            description=t(note, language),
        )
        for seat in seats[:MAX_OPTIONS]
    )
    placeholder = t("lobby.menu.placeholder", language)
    return Menu((Choice("", children=options, placeholder=placeholder),))


def _side_of(service: GameService, game: LoadedGame, seat: str) -> str:
    """The side of an open seat (the format's, or the custom side it is next for)."""
    fixed = dict(format_seats(game.system, game.options, game.format))
    if seat in fixed:
        return fixed[seat]
    for side in game.sides():
        if seat in service.open_seats(game, side.id):
            return side.id
    raise Refusal("lobby.menu.seat_gone", seat=seat)


def aircraft_menu(service: GameService, game: LoadedGame, seat: str, language: str) -> Menu:
    choices = service.aircraft_choices(game, _side_of(service, game, seat), "")
    options = tuple(
        Choice(c.label[:100], action=c.id, description=(c.description or "")[:100] or None)
        for c in choices[:MAX_OPTIONS]
    )
    placeholder = t("lobby.menu.aircraft", language)
    return Menu((Choice("", children=options, placeholder=placeholder),))


def lobby_view(
    service: GameService, game: LoadedGame, language: str = "en"
) -> discord.ui.View | None:
    """The lobby message's menu of open seats (None once the lobby is full or started)."""
    return menu_view(LobbySeats(game.id), seats_menu(service, game, language))


async def refresh_lobby(interaction: discord.Interaction, game: LoadedGame) -> None:
    """Edit the lobby message at the top of the thread: seats, points, seat menu."""
    channel = interaction.channel
    message_id = game.record.lobby_message_id
    if message_id is None or not isinstance(channel, discord.Thread):
        return
    service = service_of(interaction)
    public = await server_language(service.storage, interaction.guild_id)
    view = lobby_view(service, game, public)
    try:
        await channel.get_partial_message(message_id).edit(
            content=service.lobby_text(game, public), view=view
        )
    except discord.HTTPException:
        log.warning("could not update the lobby message %s", message_id, exc_info=True)
    finally:
        forget_view({"view": view})


async def offer_aircraft(interaction: discord.Interaction, game_id: int, seat: str) -> None:
    """Second step of the lobby menu: the aircraft the system allows on that side."""
    service = service_of(interaction)
    game = await service.load(game_id)
    if game.record.status is not GameStatus.LOBBY:
        raise Refusal("refusal.started")
    if seat not in service.open_seats(game):
        raise Refusal("lobby.menu.seat_gone", seat=seat)
    language = await language_of(interaction)
    menu = aircraft_menu(service, game, seat, language)
    if not menu.menus[0].children:
        raise Refusal("lobby.menu.no_aircraft")
    more = len(service.aircraft_choices(game, _side_of(service, game, seat), "")) > MAX_OPTIONS
    hint = game.presenter.lobby_menu_hint(more, language)
    view = menu_view(LobbyAircraft(game_id, seat), menu)
    text = t("lobby.menu.choose", language, seat=seat) + "\n" + hint
    await reply(interaction, text, **({"view": view} if view else {}))


async def join_from_menu(
    interaction: discord.Interaction, game_id: int, seat: str, aircraft: str
) -> None:
    service = service_of(interaction)
    game = await service.load(game_id)
    side = _side_of(service, game, seat) if seat in service.open_seats(game) else game.side_of(seat)
    game, taken = await service.join(
        game, interaction.user.id, interaction.user.display_name, aircraft, side, seat=seat
    )
    public = await server_language(service.storage, interaction.guild_id)
    await interaction.response.send_message(
        service.joined_text(game, interaction.user.id, taken, public),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await refresh_lobby(interaction, game)
