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

from bot.errors import UserError
from bot.service import GameService, LoadedGame, Outcome, describe_action
from engine.dif.actions import Action
from engine.dif.components import Position

if TYPE_CHECKING:
    from bot.app import TallyHoBot

__all__ = [
    "ActionButton",
    "ActionSelect",
    "DiscardSelect",
    "HandButton",
    "action_view",
    "guarded",
    "hand_text",
    "hand_view",
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
        await reply(interaction, f"⛔ {exc}")
    except Exception:
        log.exception(
            "command failed: user=%s channel=%s what=%s",
            interaction.user.id,
            interaction.channel_id,
            _what(interaction),
        )
        try:
            await reply(
                interaction,
                "Something went wrong on our side; it has been logged. Nothing was changed.",
            )
        except discord.HTTPException:
            log.warning("could not tell the user about the failure", exc_info=True)


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
        placeholder: str = "Choose…",
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


class DiscardSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"th:d:(?P<game>\d+):(?P<seat>[A-Z]\d+):(?P<version>\d+)",
):
    """The discard step: pick any number of cards of the hand (3.4)."""

    def __init__(
        self,
        game_id: int,
        seat: str,
        version: int,
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        opts = options or [discord.SelectOption(label="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"th:d:{game_id}:{seat}:{version}",
                options=opts,
                min_values=1,
                max_values=len(opts),
                placeholder="Cards to discard…",
            )
        )
        self.game_id, self.seat, self.version = game_id, seat, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DiscardSelect:
        return cls(int(match["game"]), match["seat"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        codes = [str(v).split(":", 1)[1] for v in values]
        text = str(Action.discard(tuple(codes)))
        await guarded(
            interaction, lambda: perform(interaction, self.game_id, self.seat, text, self.version)
        )


def _values(interaction: discord.Interaction) -> list[str]:
    """The options a user chose in a select menu."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", [])]


COMPONENTS = (HandButton, ActionButton, ActionSelect, DiscardSelect)


def hand_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id))
    return view


def action_view(service: GameService, game: LoadedGame, seat: str) -> discord.ui.View | None:
    """Buttons and menus for every legal action of ``seat``, built from legal_actions."""
    actions = service.legal(game, seat)
    if not actions or game.state is None:
        return None
    gid, version = game.id, game.record.version
    view = discord.ui.View(timeout=None)
    if actions[0].verb == "discard":
        hand = sorted(game.state.elements[seat].hand)
        options = [
            discord.SelectOption(
                label=service.engine.label[c], value=f"{i}:{service.engine.code[c]}"
            )
            for i, c in enumerate(hand)
        ][:25]
        if options:
            view.add_item(DiscardSelect(gid, seat, version, options))
        view.add_item(
            ActionButton(
                gid, seat, version, "discard", "Keep all cards", discord.ButtonStyle.success
            )
        )
        return view
    menu_verbs = {"play", "climb", "follow", "wm", "alt"}
    # The secret altitude is always a select menu (a private pick, 4.5); other
    # moves become menus only when there are too many for buttons.
    many = len(actions) > 10
    in_menu = [a for a in actions if a.verb == "alt" or (many and a.verb in menu_verbs)]
    buttons = [a for a in actions if a not in in_menu][: MAX_ROWS * 5]
    # Discord allows five rows: a menu fills one, buttons go five to a row.
    free_rows = MAX_ROWS - -(-len(buttons) // 5)
    chunks = [in_menu[n : n + 25] for n in range(0, len(in_menu), 25)]
    if len(chunks) > free_rows:
        log.warning("%d menus of moves do not fit; /play still accepts them", len(chunks))
        chunks = chunks[:free_rows]
    for n, chunk in enumerate(chunks):
        options = [
            discord.SelectOption(
                label=describe_action(service.engine, game.state, a)[:100], value=str(a)
            )
            for a in chunk
        ]
        placeholder = {"play": "Play a card…", "alt": "Secret starting altitude…"}
        view.add_item(
            ActionSelect(gid, seat, version, n, options, placeholder.get(chunk[0].verb, "Choose…"))
        )
    for a in buttons:
        style = (
            discord.ButtonStyle.secondary
            if a.verb in ("pass", "done", "skip", "stay", "nofollow")
            else discord.ButtonStyle.primary
        )
        view.add_item(
            ActionButton(
                gid, seat, version, str(a), describe_action(service.engine, game.state, a), style
            )
        )
    return view


def hand_text(service: GameService, game: LoadedGame, seat: str) -> str:
    """The private summary of one seat: hand, playable cards, position, decision."""
    assert game.state is not None
    view = service.view(game, seat)
    el = next(e for e in view.elements if e.seat == seat)
    legal = service.legal(game, seat)
    playable = {a.card for a in legal if a.card}
    lines = [
        f"**{el.label}** at {el.altitude.label if el.altitude is not None else 'a secret altitude'}"
    ]
    for g in view.engagements:
        if seat in (g.leader, g.on):
            other = g.on if g.leader == seat else g.leader
            mine = g.position if g.leader == seat else Position(-g.position)
            name = next(e.label for e in view.elements if e.seat == other)
            lines.append(f"Position: **{mine.label}** on {name}")
    if el.pick is not None:
        lines.append(f"Your secret altitude: {el.pick.label}")

    def names(codes: tuple[str, ...]) -> str:
        out = []
        for code in codes:
            label = service.engine.card_label(code)
            out.append(f"**{label}** ▶" if code in playable else label)
        return ", ".join(out) or "(empty)"

    if el.hand is not None:
        lines.append(f"Hand ({len(el.hand)}): {names(el.hand)}")
    if el.minihand:
        lines.append(f"Wingman's mini-hand: {names(el.minihand)}")
    if view.bursts_left is not None and view.active == seat:
        lines.append(f"Bursts left this turn: {view.bursts_left}")
    decision = next((p for p in service.engine.pending(game.state) if p.seat == seat), None)
    if decision is not None:
        lines.append(f"➡ Your decision: {service.prompt_text(game, decision)}")
    elif game.state.step != "over":
        waiting = ", ".join(sorted({p.seat for p in view.pending}))
        lines.append(f"Waiting for {waiting}.")
    return "\n".join(lines)


async def send_hand(interaction: discord.Interaction, game_id: int) -> None:
    service = service_of(interaction)
    game = await service.load(game_id)
    seats = game.seats_of(interaction.user.id)
    if not seats:
        raise UserError("You are not playing in this game; you can follow it in this thread.")
    if game.state is None:
        raise UserError("The dogfight has not started yet.")
    for i, seat in enumerate(seats):
        view = action_view(service, game, seat)
        text = hand_text(service, game, seat)
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
    """Apply an action for the clicking user; answer them, then tell everyone else."""
    service = service_of(interaction)
    outcome = await service.act(game_id, interaction.user.id, seat, action, version=version)
    game = outcome.game
    mine = [line for s in game.seats_of(interaction.user.id) for line in outcome.private.get(s, [])]
    text = "✅ " + (" ".join(mine) if mine else "Done.")
    still = [p for p in outcome.prompts if p.seat in game.seats_of(interaction.user.id)]
    view = action_view(service, game, still[0].seat) if still else None
    if still:
        text += "\n" + hand_text(service, game, still[0].seat)
    await reply(interaction, text, **({"view": view} if view else {}))
    bot: TallyHoBot = interaction.client  # type: ignore[assignment]
    await publish(bot, outcome, skip_user=interaction.user.id)


async def publish(bot: TallyHoBot, outcome: Outcome, skip_user: int | None = None) -> None:
    """Narrate in the game thread (with the picture when a player-turn ended) and prompt."""
    game = outcome.game
    service = bot.service
    thread_id = game.record.thread_id
    if thread_id is None:
        return
    channel = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
    assert isinstance(channel, discord.abc.Messageable)
    if outcome.finished and game.record.lobby_message_id and isinstance(channel, discord.Thread):
        try:  # the lobby message at the top of the thread shows the result too
            await channel.get_partial_message(game.record.lobby_message_id).edit(
                content=service.lobby_text(game)
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of game %s", game.id, exc_info=True)
    pings: list[str] = []
    dm_failed: set[int] = set()
    for p in outcome.prompts:
        if p.user_id is None:
            continue
        if p.urgent:
            ok = await send_dm(
                bot,
                p.user_id,
                f"**Dogfight #{game.id}**: {p.text}\n{hand_text(service, game, p.seat)}",
                action_view(service, game, p.seat),
            )
            if not ok:
                dm_failed.add(p.user_id)
        if p.user_id != skip_user or p.user_id in dm_failed:
            pings.append(
                f"➡ <@{p.user_id}>: {p.text}" + (" Press **My hand**." if p.urgent else "")
            )
    lines = outcome.public + sorted(set(pings), key=pings.index)
    if not lines and not outcome.image:
        return  # nothing public happened (e.g. the end of a step): stay quiet
    text = "\n".join(lines) or "The sky now:"
    files: list[discord.File] = []
    if outcome.image and game.state is not None:
        from rendering import render_table

        png = await asyncio.to_thread(render_table, service.view(game, None))
        files.append(discord.File(io.BytesIO(png), filename="sky.png"))
    chunks = [text[i : i + 1900] for i in range(0, len(text), 1900)]
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        kwargs: dict[str, Any] = {}
        if last:
            kwargs["view"] = hand_view(game.id)
            if files:
                kwargs["files"] = files
        await channel.send(chunk, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
        forget_view(kwargs)


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
