"""Discord UI shared by the cogs: persistent buttons and menus, the error boundary,
and publishing an :class:`~bot.service.Outcome` to the thread and to DMs.

Every component is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries
what it needs (game, seat, game version, action), so buttons keep working after a
restart and on any message, and a button from an earlier moment of the game is
refused instead of applied twice.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Refusal, UserError
from bot.service import (
    FORMATS,
    GameService,
    LoadedGame,
    Outcome,
    describe_action,
    plane_name,
    player_name,
    seat_side,
    side_term,
)
from bot.settings import server_language, wants_dm
from bot.storage import GameStatus
from engine.dif.actions import Action
from engine.dif.components import Position, Ruleset
from strings import normalize, t, tr

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = [
    "ActionButton",
    "ActionSelect",
    "AircraftSelect",
    "CardsSelect",
    "HandButton",
    "OrderSelect",
    "SeatSelect",
    "TargetSelect",
    "action_view",
    "guarded",
    "hand_text",
    "hand_view",
    "language_of",
    "publish",
    "service_of",
]

log = logging.getLogger(__name__)

EPHEMERAL_LIMIT = 2000
MAX_ROWS = 5
"""Rows of components a Discord message may carry."""


def service_of(interaction: discord.Interaction) -> GameService:
    bot: TallyHoBot = interaction.client  # type: ignore[assignment]
    return bot.service


async def language_of(interaction: discord.Interaction) -> str:
    """The reader's language: their Discord locale where translated, else the server's."""
    locale = normalize(interaction.locale)
    if locale is not None:
        return locale
    return await server_language(service_of(interaction).storage, interaction.guild_id)


def forget_view(kwargs: dict[str, Any]) -> None:
    """Stop tracking a view once its message is sent.

    Every component is a DynamicItem, dispatched by its custom_id alone, so the view
    object is not needed after sending. Stopping it frees the memory discord.py would
    keep per message, and the 15-minute timeout task it starts for an ephemeral one.
    """
    view = kwargs.get("view")
    if isinstance(view, discord.ui.View):
        view.stop()


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer an interaction ephemerally, whether or not it was answered already."""
    content = content[:EPHEMERAL_LIMIT]
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)
    forget_view(kwargs)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """The one error boundary: refusals become a short ephemeral, bugs are logged."""
    try:
        await work()
    except UserError as exc:
        await reply(interaction, f"⛔ {exc.text(await language_of(interaction))}")
    except Exception:
        log.exception(
            "command failed: user=%s channel=%s what=%s",
            interaction.user.id,
            interaction.channel_id,
            _what(interaction),
        )
        try:
            await reply(interaction, t("error.internal", await _language_or_en(interaction)))
        except discord.HTTPException:
            log.warning("could not tell the user about the failure", exc_info=True)


async def _language_or_en(interaction: discord.Interaction) -> str:
    """The reader's language, or English if even that fails (storage down)."""
    try:
        return await language_of(interaction)
    except Exception:
        return "en"


def _what(interaction: discord.Interaction) -> str:
    """What was used, for the log, without the move itself (it may be a secret pick)."""
    data: dict[str, Any] = dict(interaction.data or {})
    if "custom_id" in data:
        return ":".join(str(data["custom_id"]).split(":")[:5])
    return f"/{data.get('name', '?')}"


# ---------------------------------------------------------------- components
class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:hand:(?P<game>\d+)"):
    """The persistent "My hand" button under every thread message."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                emoji="🂠",
                style=discord.ButtonStyle.primary,
                custom_id=f"th:hand:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: send_hand(interaction, self.game_id))


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:a:(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<version>\d+):(?P<action>.+)",
):
    """One legal action of one seat at one version of the game."""

    def __init__(
        self,
        game_id: int,
        seat: str,
        version: int,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or action)[:80],
                style=style,
                custom_id=f"th:a:{game_id}:{seat}:{version}:{action}"[:100],
            )
        )
        self.game_id, self.seat, self.version, self.action = game_id, seat, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["game"]), match["seat"], int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(
            interaction,
            lambda: perform(interaction, self.game_id, self.seat, self.action, self.version),
        )


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:s:(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<version>\d+):(?P<n>\d+)",
):
    """A menu of legal actions (when there are too many for buttons)."""

    def __init__(
        self,
        game_id: int,
        seat: str,
        version: int,
        n: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:s:{game_id}:{seat}:{version}:{n}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id, self.seat, self.version = game_id, seat, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        return cls(int(match["game"]), match["seat"], int(match["version"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        await guarded(
            interaction,
            lambda: perform(interaction, self.game_id, self.seat, str(values[0]), self.version),
        )


class CardsSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:(?P<verb>[dr]):(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<version>\d+)",
):
    """Pick any number of cards of the hand: the discard step (``th:d``, 3.4) or the
    Combat Vision redraw (``th:r``, RotL "Pilots")."""

    def __init__(
        self,
        verb: str,
        game_id: int,
        seat: str,
        version: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        opts = options or [discord.SelectOption(label="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:{verb}:{game_id}:{seat}:{version}",
                options=opts,
                min_values=1,
                max_values=len(opts),
                placeholder=placeholder,
            )
        )
        self.verb, self.game_id, self.seat, self.version = verb, game_id, seat, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardsSelect:
        return cls(match["verb"], int(match["game"]), match["seat"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        codes = tuple(str(v).split(":", 1)[1] for v in _values(interaction))
        make = Action.discard if self.verb == "d" else Action.redraw
        text = str(make(codes))
        await guarded(
            interaction, lambda: perform(interaction, self.game_id, self.seat, text, self.version)
        )


class TargetSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:t:(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<version>\d+)",
):
    """Too many card-and-target moves for one message: pick the target first, then
    the card in the message this answers with."""

    def __init__(
        self,
        game_id: int,
        seat: str,
        version: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:t:{game_id}:{seat}:{version}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id, self.seat, self.version = game_id, seat, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TargetSelect:
        return cls(int(match["game"]), match["seat"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        ref = _values(interaction)[0]
        await guarded(
            interaction,
            lambda: send_target_moves(interaction, self.game_id, self.seat, self.version, ref),
        )


class OrderSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:o:(?P<game>\d+):(?P<version>\d+)",
):
    """Turn 1 (4.7): the side choosing names its element that plays next.

    Posted in the thread for the whole side: any of its players may answer, and the
    message then says who chose what.
    """

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:o:{game_id}:{version}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OrderSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        seat = _values(interaction)[0]
        await guarded(
            interaction, lambda: choose_order(interaction, self.game_id, seat, self.version)
        )


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"th:j:(?P<game>\d+)"):
    """On the lobby message: take an open seat (then pick an aircraft privately)."""

    def __init__(
        self,
        game_id: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:j:{game_id}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeatSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        seat = _values(interaction)[0]
        await guarded(interaction, lambda: offer_aircraft(interaction, self.game_id, seat))


class AircraftSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:ac:(?P<game>\d+):(?P<seat>[A-Z]\d+)",
):
    """The aircraft for the seat picked in the lobby menu (wingman: if it has one)."""

    def __init__(
        self,
        game_id: int,
        seat: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:ac:{game_id}:{seat}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AircraftSelect:
        return cls(int(match["game"]), match["seat"])

    async def callback(self, interaction: discord.Interaction) -> None:
        aircraft = _values(interaction)[0]
        await guarded(
            interaction, lambda: join_from_menu(interaction, self.game_id, self.seat, aircraft)
        )


def _values(interaction: discord.Interaction) -> list[str]:
    """The options a user chose in a select menu."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", [])]


COMPONENTS = (
    HandButton,
    ActionButton,
    ActionSelect,
    CardsSelect,
    TargetSelect,
    OrderSelect,
    SeatSelect,
    AircraftSelect,
)


def hand_view(game_id: int) -> discord.ui.View:
    from cogs.help import HelpButton  # (cogs.help imports this module)

    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id))
    view.add_item(HelpButton())  # every game message points to /help
    return view


MENU_VERBS = frozenset({"play", "respond", "climb", "follow", "wm", "alt", "next"})
"""Moves that go in a select menu when there are too many for buttons."""
MENU_PLACEHOLDERS = frozenset({"play", "alt", "wm", "next", "respond", "follow", "climb"})
"""Moves whose menu has its own placeholder (``menu.<verb>``; the others: ``menu.choose``)."""
QUIET_VERBS = frozenset({"pass", "done", "skip", "stay", "nofollow", "redraw", "discard"})


def action_view(
    service: GameService,
    game: LoadedGame,
    seat: str,
    target: str | None = None,
    language: str = "en",
) -> discord.ui.View | None:
    """Buttons and menus for every legal action of ``seat``, built from legal_actions,
    labelled in ``language``.

    Discord allows five rows and 25 options a menu. When the card-and-target moves do
    not fit one menu (several elements at one altitude), a menu of targets comes
    instead, and picking one answers with the moves against it (``target``).
    """
    actions = service.legal(game, seat)
    if not actions or game.state is None:
        return None
    state = game.state
    gid, version = game.id, game.record.version
    view = discord.ui.View(timeout=None)
    verb = actions[0].verb

    def label(a: Action) -> str:
        return describe_action(service.engine, state, a, language)

    if verb in ("discard", "redraw") and target is None:
        hand = sorted(state.elements[seat].hand)
        options = [
            discord.SelectOption(
                label=tr(service.engine.label[c], language), value=f"{i}:{service.engine.code[c]}"
            )
            for i, c in enumerate(hand)
        ][:25]
        if options:
            placeholder = t(f"menu.{verb}", language)
            view.add_item(CardsSelect(verb[0], gid, seat, version, options, placeholder))
        keep = label(Action(verb))
        view.add_item(ActionButton(gid, seat, version, verb, keep, discord.ButtonStyle.success))
        return view
    if target is not None:
        actions = [a for a in actions if a.target == target and a.verb in ("play", "wm")]
        if not actions:
            return None
    notes = service.target_notes(game, language)
    many = len(actions) > 10
    in_menu = [a for a in actions if a.verb == "alt" or (many and a.verb in MENU_VERBS)]
    buttons = [a for a in actions if a not in in_menu][: MAX_ROWS * 5]
    targeted = [a for a in in_menu if a.verb == "play" and a.target is not None]
    targets = list(dict.fromkeys(a.target for a in targeted if a.target is not None))
    by_target = target is None and len(targeted) > 25 and len(targets) > 1
    if by_target:
        in_menu = [a for a in in_menu if a not in targeted]
    # Discord allows five rows: a menu fills one, buttons go five to a row.
    free_rows = MAX_ROWS - -(-len(buttons) // 5) - (1 if by_target else 0)
    chunks = [in_menu[n : n + 25] for n in range(0, len(in_menu), 25)]
    if len(chunks) > free_rows:
        log.warning("%d menus of moves do not fit; /play still accepts them", len(chunks))
        chunks = chunks[:free_rows]
    if by_target:
        options = [
            discord.SelectOption(
                label=tr(plane_name(service.engine, state, ref), language)[:100],
                value=ref,
                description=notes.get(ref, "")[:100] or None,
            )
            for ref in targets[:25]
        ]
        view.add_item(TargetSelect(gid, seat, version, options, t("menu.target", language)))
    for n, chunk in enumerate(chunks):
        options = [
            discord.SelectOption(
                label=label(a)[:100],
                value=str(a),
                description=notes.get(a.target or "", "")[:100] or None,
            )
            for a in chunk
        ]
        first = chunk[0].verb
        placeholder = t(f"menu.{first if first in MENU_PLACEHOLDERS else 'choose'}", language)
        view.add_item(ActionSelect(gid, seat, version, n, options, placeholder))
    for a in buttons:
        style = (
            discord.ButtonStyle.secondary if a.verb in QUIET_VERBS else discord.ButtonStyle.primary
        )
        view.add_item(ActionButton(gid, seat, version, str(a), label(a), style))
    return view


def hand_text(
    service: GameService,
    game: LoadedGame,
    seat: str,
    *,
    decision: bool = True,
    language: str = "en",
) -> str:
    """The private summary of one seat: hand, playable cards, position, decision.

    It always starts with the element's name in bold: a player flying several
    elements gets one such message per element.
    """
    assert game.state is not None
    view = service.view(game, seat)
    el = next(e for e in view.elements if e.seat == seat)
    legal = service.legal(game, seat)
    playable = {a.card for a in legal if a.card}
    where = (
        t(f"altitude.{el.altitude.code}", language)
        if el.altitude is not None
        else t("hand.secret_altitude", language)
    )
    lines = [t("hand.head", language, element=el.label, altitude=where)]
    for g in view.engagements:
        if seat in (g.leader, g.on):
            other = g.on if g.leader == seat else g.leader
            mine = g.position if g.leader == seat else Position(-g.position)
            name = next(e.label for e in view.elements if e.seat == other)
            position = t(f"position.{mine.name.lower()}", language)
            lines.append(t("hand.position", language, position=position, on=name))
    if el.pick is not None:
        pick = t(f"altitude.{el.pick.code}", language)
        lines.append(t("hand.secret_pick", language, altitude=pick))
    # Which pile the marked cards are played from: the wingman's mini-hand while it
    # attacks or defends, else the hand.
    x = view.exchange
    wingman_pile = (game.state.step == "wingman_attack" and view.active == seat) or (
        x is not None and x.waiting_on == seat and f"{seat}W" in (x.target, x.attacker)
    )

    def names(codes: tuple[str, ...], live: bool) -> str:
        out = []
        for code in codes:
            label = tr(service.engine.card_label(code), language)
            out.append(f"**{label}** ▶" if live and code in playable else label)
        return ", ".join(out) or t("hand.empty", language)

    if el.hand is not None:
        hand = names(el.hand, not wingman_pile)
        lines.append(t("hand.hand", language, n=len(el.hand), cards=hand))
    if el.minihand:
        lines.append(t("hand.minihand", language, cards=names(el.minihand, wingman_pile)))
    if view.bursts_left is not None and view.active == seat:
        lines.append(t("hand.bursts", language, n=view.bursts_left))
    pending = next((p for p in service.engine.pending(game.state) if p.seat == seat), None)
    if pending is not None:
        if decision:  # (a DM says it in its first line already)
            prompt = tr(service.prompt_text(game, pending), language)
            lines.append(t("hand.decision", language, prompt=prompt))
    elif game.state.step != "over":
        waiting = ", ".join(sorted({p.seat for p in view.pending}))
        lines.append(t("hand.waiting", language, seats=waiting))
    return "\n".join(lines)


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
        view = action_view(service, game, seat, language=language)
        text = hand_text(service, game, seat, language=language)
        kwargs: dict[str, Any] = {"view": view} if view else {}
        if i == 0:
            await reply(interaction, text, **kwargs)
        else:
            await interaction.followup.send(text[:EPHEMERAL_LIMIT], ephemeral=True, **kwargs)
            forget_view(kwargs)


async def send_target_moves(
    interaction: discord.Interaction, game_id: int, seat: str, version: int, ref: str
) -> None:
    """The second step of a target menu: the moves of ``seat`` against ``ref``."""
    service = service_of(interaction)
    game = await service.load(game_id)
    if seat not in game.seats_of(interaction.user.id):
        raise Refusal("refusal.others_seat")
    if version != game.record.version or game.state is None:
        raise Refusal("refusal.stale_buttons")
    language = await language_of(interaction)
    view = action_view(service, game, seat, target=ref, language=language)
    if view is None:
        raise Refusal("hand.no_move_against")
    me = service.element_label(game.state, seat)
    target = plane_name(service.engine, game.state, ref)
    text = t("hand.attack_with", language, me=me, target=target)
    await reply(interaction, text, view=view)


async def choose_order(
    interaction: discord.Interaction, game_id: int, seat: str, version: int
) -> None:
    """A player of the choosing side names the element that plays next (4.7)."""
    service = service_of(interaction)
    game = await service.load(game_id)
    if game.state is None:
        raise Refusal("hand.not_started")
    choosing = {p.seat for p in service.engine.pending(game.state) if p.kind == "order"}
    mine = [s for s in game.seats_of(interaction.user.id) if s in choosing]
    if choosing and not mine:
        side, _ = service.engine.order_choice(game.state)
        raise Refusal("hand.order_side", side=side_term(side, Ruleset(game.state.ruleset)))
    label = service.element_label(game.state, seat)
    await perform(interaction, game_id, mine[0] if mine else None, f"next {seat}", version)
    message = interaction.message
    if message is not None:
        public = await server_language(service.storage, interaction.guild_id)
        chose = t("hand.chose", public, user=f"<@{interaction.user.id}>", element=label)
        try:  # everyone sees the choice made, and the menu goes away
            await message.edit(
                content=f"{message.content}\n{chose}",
                view=hand_view(game_id),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not update the order menu of game %s", game_id, exc_info=True)


def lobby_view(
    service: GameService, game: LoadedGame, language: str = "en"
) -> discord.ui.View | None:
    """The lobby message's menu of open seats (None once the lobby is full or started)."""
    if game.record.status is not GameStatus.LOBBY:
        return None
    seats = service.open_seats(game)
    if not seats:
        return None
    rs = Ruleset(game.record.ruleset)
    fixed = bool(FORMATS[game.format])
    options = [
        discord.SelectOption(
            label=f"{seat} · {side_term(seat_side(seat), rs).text(language)}",
            value=seat,
            description=t("lobby.menu.open_seat" if fixed else "lobby.menu.new_element", language),
        )
        for seat in seats[:25]
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(SeatSelect(game.id, options, t("lobby.menu.placeholder", language)))
    return view


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
        if view is not None:
            view.stop()  # see forget_view


async def offer_aircraft(interaction: discord.Interaction, game_id: int, seat: str) -> None:
    """Second step of the lobby menu: the aircraft the engine allows on that side."""
    service = service_of(interaction)
    game = await service.load(game_id)
    if game.record.status is not GameStatus.LOBBY:
        raise Refusal("refusal.started")
    if seat not in service.open_seats(game):
        raise Refusal("lobby.menu.seat_gone", seat=seat)
    side = seat_side(seat)
    year = int(game.record.options["year"])
    choices = service.aircraft_choices(game.record.ruleset, year, side.value, "")
    if not choices:
        raise Refusal("lobby.menu.no_aircraft")
    options = [
        discord.SelectOption(
            label=ac.name[:100], value=ac.id, description=f"{ac.nation}, {ac.year}"[:100]
        )
        for ac in choices[:25]
    ]
    language = await language_of(interaction)
    more = t("lobby.menu.more" if len(choices) > 25 else "lobby.menu.join_instead", language)
    view = discord.ui.View(timeout=None)
    view.add_item(AircraftSelect(game_id, seat, options, t("lobby.menu.aircraft", language)))
    await reply(interaction, t("lobby.menu.choose", language, seat=seat) + "\n" + more, view=view)


async def join_from_menu(
    interaction: discord.Interaction, game_id: int, seat: str, aircraft: str
) -> None:
    service = service_of(interaction)
    game = await service.load(game_id)
    game, taken = await service.join(
        game,
        interaction.user.id,
        interaction.user.display_name,
        aircraft,
        seat_side(seat).value,
        seat=seat,
    )
    public = await server_language(service.storage, interaction.guild_id)
    await interaction.response.send_message(
        service.joined_text(game, interaction.user.id, taken, public),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await refresh_lobby(interaction, game)


async def perform(
    interaction: discord.Interaction,
    game_id: int,
    seat: str | None,
    action: str,
    version: int | None,
) -> None:
    """Apply an action for the clicking user; answer them, then tell everyone else."""
    service = service_of(interaction)
    outcome = await service.act(game_id, interaction.user.id, seat, action, version=version)
    game = outcome.game
    assert game.state is not None
    seats = game.seats_of(interaction.user.id)
    language = await language_of(interaction)
    mine = []
    for s in seats:  # private lines (cards drawn), named by element if several
        for line in outcome.private.get(s, []):
            said = tr(line, language)
            mine.append(
                f"{service.element_label(game.state, s)}: {said}" if len(seats) > 1 else said
            )
    text = "✅ " + (" ".join(mine) if mine else t("hand.done", language))
    still = [p for p in outcome.prompts if p.seat in seats]
    view = action_view(service, game, still[0].seat, language=language) if still else None
    if still:
        text += "\n" + hand_text(service, game, still[0].seat, language=language)
    await reply(interaction, text, **({"view": view} if view else {}))
    bot: TallyHoBot = interaction.client  # type: ignore[assignment]
    await publish(bot, outcome, skip_user=interaction.user.id)


def order_view(
    service: GameService, game: LoadedGame, language: str = "en"
) -> discord.ui.View | None:
    """The public menu of turn 1's order choice (4.7), under the My hand button."""
    state = game.state
    if state is None or not any(p.kind == "order" for p in service.engine.pending(state)):
        return None
    _, seats = service.engine.order_choice(state)
    names = {s.seat: tr(player_name(s), language) for s in game.seats}
    options = [
        discord.SelectOption(
            label=service.element_label(state, seat)[:100],
            value=seat,
            description=t("hand.flown_by", language, name=names.get(seat, "?"))[:100],
        )
        for seat in seats[:25]
    ]
    view = hand_view(game.id)
    placeholder = t("hand.order_placeholder", language)
    view.add_item(OrderSelect(game.id, game.record.version, options, placeholder))
    return view


async def publish(bot: TallyHoBot, outcome: Outcome, skip_user: int | None = None) -> None:
    """Narrate in the game thread (with the picture when a player-turn ended) and prompt."""
    game = outcome.game
    service = bot.service
    thread_id = game.record.thread_id
    if thread_id is None:
        return
    channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
    assert isinstance(channel, discord.abc.Messageable)
    public = await server_language(service.storage, game.record.guild_id)  # thread and DMs
    if outcome.finished and game.record.lobby_message_id and isinstance(channel, discord.Thread):
        try:  # the lobby message at the top of the thread shows the result too
            await channel.get_partial_message(game.record.lobby_message_id).edit(
                content=service.lobby_text(game, public)
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of game %s", game.id, exc_info=True)
    pings: list[str] = []
    dm_failed: set[int] = set()
    order = [p for p in outcome.prompts if p.kind == "order" and p.new]
    if order:  # one decision for the whole side: ping all its players, menu below
        users = " ".join(dict.fromkeys(f"<@{p.user_id}>" for p in order if p.user_id))
        pings.append(t("publish.order", public, users=users, prompt=tr(order[0].text, public)))
    for p in outcome.prompts:
        if p.user_id is None or p.kind == "order" or not p.new:
            continue
        if p.urgent:  # a DM, unless the player turned them off (/settings dm)
            head = t("publish.dm", public, id=game.id, prompt=tr(p.text, public))
            ok = await wants_dm(service.storage, p.user_id) and await send_dm(
                bot,
                p.user_id,
                head + "\n" + hand_text(service, game, p.seat, decision=False, language=public),
                action_view(service, game, p.seat, language=public),
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
    if outcome.image and game.state is not None:
        from rendering import render_table

        png = await asyncio.to_thread(render_table, service.view(game, None), language=public)
        files.append(discord.File(io.BytesIO(png), filename="sky.png"))
    chunks = [text[i : i + 1900] for i in range(0, len(text), 1900)]
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        kwargs: dict[str, Any] = {}
        if last:
            kwargs["view"] = order_view(service, game, public) or hand_view(game.id)
            if files:
                kwargs["files"] = files
        await channel.send(chunk, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
        forget_view(kwargs)
    await notify_followers(bot, game.id, narration, public)
    if outcome.finished:  # the after-action report, and the seed revealed (cogs.history)
        from cogs.history import post_after_action

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
