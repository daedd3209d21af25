"""``/campaign``: a series of mission games in its own thread, thin.

``new``, ``join``, ``start``, ``choose`` (the side's secret decisions, by ephemeral
menu; also the **Choose** button the campaign thread shows while they are awaited),
``status`` (the sheet as a picture: the member's own, secrets included, ephemeral),
``logbook`` (the campaign pilots' logbook, or one pilot's, as text and a picture),
``log``, ``list``, ``follow`` and ``abandon``. What each does is
:class:`bot.campaigns.CampaignService`'s; this module turns its
:class:`~bot.campaigns.CampaignNews` into messages: lines and the spectators' sheet in
the campaign's thread, a thread for each mission game (linked from the campaign's),
pings for the sides whose decision is awaited, DMs to followers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaigns import CampaignNews, CampaignService, LoadedCampaign
from bot.commitment import campaign_commitment
from bot.errors import Refusal, UserError
from bot.operations import discord_time
from bot.packs import ContentPacks, prepare_campaign
from bot.records import aircraft_name, campaign_title, mission_seats
from bot.settings import GuildSettings, server_language
from bot.storage.models import GameRecord
from bot.systems import hosted
from bot.words import player_name
from cogs.admin import lobby_channel
from cogs.boundary import Guarded
from cogs.components import menu_view
from cogs.context import (
    alt_text,
    app_of,
    attachment,
    is_admin,
    language_of,
    new_view,
    pinging,
    reply,
)
from cogs.help import cmd_text
from cogs.publisher import publish
from engine.core.campaign import PilotLog
from engine.core.present import Choice, Menu
from engine.core.registry import campaign_system_ids, entry
from rendering.campaign import render_sheet, sheet_alt_text
from rendering.community import CardView, render_card
from rendering.logbook import logbook_card, logbook_lines, pilot_card, pilot_lines
from strings import t, tr

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["CampaignChoose", "CampaignCog", "CampaignMenu", "publish_campaign"]

log = logging.getLogger(__name__)


def campaigns_of(interaction: discord.Interaction) -> CampaignService:
    return app_of(interaction).campaigns


async def _found(interaction: discord.Interaction, campaign: int | None) -> LoadedCampaign:
    """The campaign a command is about: the one named, else this thread's, else the
    user's only running one (on this server)."""
    return await campaigns_of(interaction).resolve(
        interaction.guild_id, interaction.channel_id, interaction.user.id, campaign
    )


# ---------------------------------------------------------------- publishing
async def sheet_file(campaign: LoadedCampaign, side: str | None, language: str) -> discord.File:
    """The sheet's picture as ``side`` (None: anyone) may see it, with its alt text."""
    sheet = campaign.sheet(side)
    png = await asyncio.to_thread(render_sheet, sheet, language=language)
    return attachment(
        png,
        filename=f"campaign-{campaign.id}.png",
        description=alt_text(sheet_alt_text(sheet, language)),
    )


async def _channel(bot: TallyHoBot, channel_id: int) -> Any:
    return bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)


async def publish_campaign(bot: TallyHoBot, news: CampaignNews) -> None:
    """Tell Discord what a campaign call did (see the module's doc). Each mission game
    opened gets its thread before it starts, so its first prompts find it."""
    campaign = news.campaign
    record = campaign.record
    if record.thread_id is None:
        return
    for outcome in news.outcomes:  # its mission games' own news (an abort)
        await publish(bot, outcome)
    public = await server_language(bot.service.storage, record.guild_id)
    thread = await _channel(bot, record.thread_id)
    lines = [tr(line, public) for line in news.lines]
    for game_id in news.launch:
        mention = await _launch(bot, campaign, game_id, public)
        if mention is not None:
            lines.append(t("campaign.mission_thread", public, thread=mention))
    pinged = list(news.pings)  # the only users the post notifies
    if news.asks:
        for d in news.asks:
            members = [m.user_id for m in campaign.members_of(d.side)]
            pinged += members
            who = " ".join(f"<@{u}>" for u in members)
            words = tr(campaign.system.ask(d), public)
            lines.append(t("campaign.ask_line", public, users=who, what=words))
    files = [await sheet_file(campaign, None, public)] if news.sheet else []
    if lines or files:
        view = choose_view(campaign.id, public) if news.asks else None
        kwargs: dict[str, Any] = {"files": files} if files else {}
        if view is not None:
            kwargs["view"] = view
        chunks = _chunks(lines) or [t("campaign.sheet_caption", public, title=record.campaign)]
        for text in chunks[:-1]:  # a long report (a day's Encounters) in several posts
            await thread.send(text, allowed_mentions=pinging(pinged))
        await thread.send(chunks[-1], allowed_mentions=pinging(pinged), **kwargs)
    if news.told is not None:  # posted: a restart does not tell it again
        await bot.campaigns.mark_told(campaign.id, news.told)
    if news.followers:
        await _tell_followers(bot, campaign, news, public)


def _chunks(lines: list[str], size: int = 1900) -> list[str]:
    """``lines`` joined into posts of at most ``size`` characters, whole lines each
    (a line longer than a post is cut)."""
    out: list[str] = []
    for line in lines:
        line = line[:size]
        if out and len(out[-1]) + 1 + len(line) <= size:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


async def _tell_followers(
    bot: TallyHoBot, campaign: LoadedCampaign, news: CampaignNews, public: str
) -> None:
    """DM each follower the mission's result (or the end) and the spectators' sheet."""
    text = "\n".join(tr(line, public) for line in news.followers)
    body = t("campaign.follow_dm", public, id=campaign.id, text=text)
    chunks = _chunks(body.split("\n"))
    for user_id in await bot.service.storage.campaign_followers(campaign.id):
        try:
            channel = await bot.dm_channel(user_id)
            for part in chunks[:-1]:
                await channel.send(part)
            await channel.send(chunks[-1], file=await sheet_file(campaign, None, public))
        except discord.HTTPException:  # closed DMs: following is best effort
            log.info("campaign %s: DM to follower %s failed", campaign.id, user_id)


async def _launch(
    bot: TallyHoBot, campaign: LoadedCampaign, game_id: int, public: str
) -> str | None:
    """Give a mission game its thread (unless it has one), start it, publish its start
    and let computer seats move. Returns the thread's mention."""
    service = bot.service
    game = await service.load(game_id)
    if game.record.thread_id is None:
        parent = await _channel(bot, campaign.record.channel_id)
        plan = game.record.options
        name = t(
            "campaign.mission_thread_name",
            public,
            number=plan.get("mission", 0),
            title=campaign.sheet(None).missions[int(plan.get("mission", 1)) - 1].title,
        )
        thread = await parent.create_thread(name=name[:100], type=discord.ChannelType.public_thread)
        first = await thread.send(
            t(
                "campaign.mission_header",
                public,
                campaign=campaign.sheet(None).title,
                thread=f"<#{campaign.record.thread_id}>",
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        game = await service.attach_thread(game, thread.id, first.id)
    outcome = await bot.campaigns.launch(game_id)
    if outcome.public or outcome.prompts:
        await publish(bot, outcome)
        await bot.campaigns.mark_announced(game_id)
    more = await service.resume(game_id)
    if more is not None:
        await publish(bot, more)
    return f"<#{game.record.thread_id}>"


async def after_game(bot: TallyHoBot, game_id: int) -> None:
    """A game ended: if it was a campaign's mission, the campaign moves on."""
    try:
        news = await bot.campaigns.after_game(game_id)
    except Exception:  # the game's end is committed and told; the campaign catches up at start-up
        log.exception("game %s: its campaign could not take its end", game_id)
        return
    if news is not None:
        await publish_campaign(bot, news)


# ---------------------------------------------------------------- the secret menu
def choose_view(campaign_id: int, language: str) -> discord.ui.View:
    view = new_view()
    view.add_item(CampaignChoose(campaign_id, language))
    return view


class CampaignChoose(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:cchoose:(?P<campaign>\d+)",
):
    """The campaign thread's **Choose** button: opens the member's side's menu,
    privately (the decision is secret)."""

    def __init__(self, campaign_id: int, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t("campaign.ui.choose", language),
                style=discord.ButtonStyle.primary,
                custom_id=f"th:cchoose:{campaign_id}",
            )
        )
        self.campaign_id = campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> CampaignChoose:
        return cls(int(match["campaign"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await send_choices(interaction, self.campaign_id)


async def send_choices(interaction: discord.Interaction, campaign_id: int) -> None:
    """The member's side's decision as an ephemeral menu (refused for anyone else)."""
    service = campaigns_of(interaction)
    campaign = await service.load(campaign_id)
    language = await language_of(interaction)
    side = campaign.side_of(interaction.user.id)
    if side is None:
        raise Refusal("campaign.refusal.not_member")
    context = CampaignMenu(campaign_id, service.menu_version(campaign))
    menu = _menu(service, campaign, interaction.user.id, language)
    if not menu:
        raise Refusal("campaign.refusal.nothing_pending", side=campaign.side_name(side))
    view = menu_view(context, menu)
    await reply(interaction, t("campaign.choose_intro", language), view=view)


def _menu(service: CampaignService, campaign: LoadedCampaign, user_id: int, language: str) -> Menu:
    """The side's decision as its system's tree, in the reader's language."""
    top = service.menu(campaign, user_id)
    return Menu(menus=(_translated(top, language),)) if top is not None else Menu()


def _translated(
    choice: Choice, language: str, said: dict[int, tuple[object, str]] | None = None
) -> Choice:
    """``choice``'s tree in ``language``. A text object that comes back on many
    branches (a pilot in a flight's every combination) is put in it once (``said``:
    each text's words by its identity, the text held so the identity stays its own)."""
    said = {} if said is None else said

    def words(text: object) -> str:
        if id(text) not in said:
            said[id(text)] = (text, tr(text, language))
        return said[id(text)][1]

    return replace(
        choice,
        label=words(choice.label)[:100],
        placeholder=words(choice.placeholder)[:150] if choice.placeholder else None,
        children=tuple(_translated(c, language, said) for c in choice.children),
    )


class CampaignMenu:
    """A member's menu of their side's campaign decision (``th:cm:{campaign}:{version}``,
    the mission it prepares): private, and refused once that mission is flown."""

    public = False

    def __init__(self, campaign_id: int, seq: int, path: tuple[int, ...] = (0,)) -> None:
        self.campaign_id, self.seq, self.path = campaign_id, seq, path

    @classmethod
    def parse(cls, args: Sequence[str]) -> tuple[CampaignMenu, tuple[int, ...]]:
        path = tuple(int(p) for p in args[2].split(".")) if len(args) > 2 and args[2] else (0,)
        return cls(int(args[0]), int(args[1]), path), path

    def custom_id(self, path: Sequence[int]) -> str:
        return f"th:cm:{self.campaign_id}:{self.seq}:{'.'.join(str(p) for p in path)}"

    async def menu(self, interaction: discord.Interaction) -> Menu:
        service = campaigns_of(interaction)
        campaign = await service.load(self.campaign_id)
        if service.menu_version(campaign) != self.seq:
            raise Refusal("campaign.refusal.stale")
        return _menu(service, campaign, interaction.user.id, await language_of(interaction))

    async def choose(self, interaction: discord.Interaction, action: str, label: str) -> None:
        bot = app_of(interaction)
        news = await bot.campaigns.decide(
            self.campaign_id, interaction.user.id, action, version=self.seq
        )
        language = await language_of(interaction)
        await reply(interaction, t("campaign.chosen", language, choice=label))
        await publish_campaign(bot, news)

    def button(self, choice: Choice) -> discord.ui.Item[Any] | None:
        return None


# ---------------------------------------------------------------- the commands
async def _system_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=entry(s).title, value=s)
        for s in campaign_system_ids()
        if current.lower() in (s + entry(s).title).lower()
    ][:25]


async def _campaign_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    system = getattr(interaction.namespace, "system", None)
    packs = ContentPacks(campaigns_of(interaction).storage)
    out = []
    for s in campaign_system_ids():
        if system and s != system:
            continue
        try:  # the server's content packs may add campaigns
            rules = await packs.campaigns_for(interaction.guild_id, s)
        except Refusal:
            continue
        for c in rules.campaigns():
            label = f"{c.title} ({c.missions})"
            if current.lower() in (c.id + c.title).lower():
                out.append(app_commands.Choice(name=label[:100], value=c.id))
    return out[:25]


async def _campaign_typed(interaction: discord.Interaction) -> LoadedCampaign | None:
    """The campaign an autocomplete is about: the one named so far, else this
    thread's or the user's only one (None: none)."""
    try:
        return await campaigns_of(interaction).resolve(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            getattr(interaction.namespace, "campaign", None),
        )
    except Refusal:
        return None


async def _side_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    campaign = await _campaign_typed(interaction)
    if campaign is None:
        return []
    return [
        app_commands.Choice(name=str(s.name), value=s.id)
        for s in campaign.system.sides(campaign.state)
        if current.lower() in (s.id + str(s.name)).lower()
    ]


async def _pilot_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The campaign's pilots (its logbook's), by name and side."""
    campaign = await _campaign_typed(interaction)
    if campaign is None:
        return []
    needle = current.lower()
    return [
        app_commands.Choice(name=f"{p.name} ({campaign.side_name(p.side)})"[:100], value=p.id)
        for p in campaign.system.logbook(campaign.state)
        if needle in f"{p.id} {p.name}".lower()
    ][:25]


def find_pilot(campaign_id: int, pilots: Sequence[PilotLog], text: str) -> PilotLog:
    """The pilot ``text`` names: his id (what the list offers) or his name, whole or
    a part of it that no other pilot's name holds."""
    wanted = text.strip().lower()
    exact = [p for p in pilots if wanted in (p.id.lower(), p.name.lower())]
    found = exact or [p for p in pilots if wanted and wanted in p.name.lower()]
    if len(found) == 1:
        return found[0]
    if not found:
        raise Refusal("logbook.refusal.no_pilot", pilot=repr(text), id=campaign_id)
    names = ", ".join(p.name for p in found[:10])
    raise Refusal("logbook.refusal.several", pilot=repr(text), id=campaign_id, names=names)


def parse_options(text: str | None) -> dict[str, Any]:
    """``scale=2`` (pairs separated by spaces or commas) as a mapping; the campaign
    system's ``setup_model`` validates the values."""
    out: dict[str, Any] = {}
    for word in (text or "").replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise Refusal("campaign.refusal.options", text=repr(word))
        value = value.strip()
        out[key.strip().lower()] = int(value) if value.isascii() and value.isdigit() else value
    return out


class CampaignCog(commands.Cog):
    """``/campaign``."""

    campaign = app_commands.Group(name="campaign", description=cmd_text("cmd.campaign.description"))

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    @campaign.command(name="new", description=cmd_text("cmd.campaign.new.description"))
    @app_commands.describe(
        system=cmd_text("cmd.campaign.new.param.system"),
        name=cmd_text("cmd.campaign.new.param.name"),
        options=cmd_text("cmd.campaign.new.param.options"),
    )
    @app_commands.autocomplete(system=_system_names, name=_campaign_names)
    async def new(
        self,
        interaction: discord.Interaction,
        system: str,
        name: str,
        options: str | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("campaign.refusal.guild_only")
        if system not in campaign_system_ids():
            raise Refusal(
                "campaign.refusal.no_system",
                system=repr(system),
                systems=", ".join(campaign_system_ids()),
            )
        # The server's settings: allowed systems, the games channel, the campaigns' home.
        parent = await lobby_channel(interaction, system, hosted(system).rulesets[0].id)
        service = campaigns_of(interaction)
        settings = await GuildSettings.load(service.storage, interaction.guild_id)
        in_channel = settings.campaign_home == "channel"
        if in_channel:
            if not isinstance(interaction.channel, discord.TextChannel):
                raise Refusal("campaign.refusal.text_channel")
            parent = interaction.channel
            busy = await service.storage.get_campaign_by_thread(parent.id)
            if busy is not None and busy.status in ("recruiting", "active"):
                raise Refusal("campaign.refusal.channel_busy", id=busy.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        campaign = await service.new(
            guild_id=interaction.guild_id,
            channel_id=parent.id,
            host_id=interaction.user.id,
            system=system,
            campaign=name,
            options=parse_options(options),
        )
        public = await server_language(service.storage, interaction.guild_id)
        sheet = campaign.sheet(None)
        home: Any = parent
        if not in_channel:
            home = await parent.create_thread(
                name=t("campaign.thread_name", public, id=campaign.id, title=sheet.title)[:100],
                type=discord.ChannelType.public_thread,
            )
        campaign = await service.attach_thread(campaign, home.id)
        commitment = campaign_commitment(campaign.id, campaign.record.seed)
        opening = t(
            "campaign.opened_thread", public, title=sheet.title, host=f"<@{interaction.user.id}>"
        )
        await home.send(
            opening + "\n" + t("campaign.commitment", public, commitment=commitment),
            files=[await sheet_file(campaign, None, public)],
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.edit_original_response(
            content=t("campaign.opened", public, id=campaign.id, thread=home.mention)
        )

    @campaign.command(name="join", description=cmd_text("cmd.campaign.join.description"))
    @app_commands.describe(
        side=cmd_text("cmd.campaign.join.param.side"),
        campaign=cmd_text("cmd.campaign.param.campaign"),
    )
    @app_commands.autocomplete(side=_side_names)
    async def join(
        self, interaction: discord.Interaction, side: str | None = None, campaign: int | None = None
    ) -> None:
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        found, taken = await service.join(
            found.id, interaction.user.id, interaction.user.display_name, side
        )
        language = await language_of(interaction)
        await reply(interaction, t("campaign.joined", language, side=found.side_name(taken)))
        if found.record.thread_id is not None:
            public = await server_language(service.storage, found.record.guild_id)
            thread = await _channel(self.bot, found.record.thread_id)
            await thread.send(
                t(
                    "campaign.joined_public",
                    public,
                    user=f"<@{interaction.user.id}>",
                    side=found.side_name(taken),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @campaign.command(name="start", description=cmd_text("cmd.campaign.start.description"))
    @app_commands.describe(campaign=cmd_text("cmd.campaign.param.campaign"))
    async def start(self, interaction: discord.Interaction, campaign: int | None = None) -> None:
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        await interaction.response.defer(ephemeral=True, thinking=True)
        admin = is_admin(interaction)
        news = await service.start(found.id, interaction.user.id, admin=admin)
        language = await language_of(interaction)
        await interaction.edit_original_response(content=t("campaign.started", language))
        await publish_campaign(self.bot, news)

    @campaign.command(name="choose", description=cmd_text("cmd.campaign.choose.description"))
    @app_commands.describe(campaign=cmd_text("cmd.campaign.param.campaign"))
    async def choose(self, interaction: discord.Interaction, campaign: int | None = None) -> None:
        found = await _found(interaction, campaign)
        await send_choices(interaction, found.id)

    @campaign.command(name="status", description=cmd_text("cmd.campaign.status.description"))
    @app_commands.describe(campaign=cmd_text("cmd.campaign.param.campaign"))
    async def status(self, interaction: discord.Interaction, campaign: int | None = None) -> None:
        found = await _found(interaction, campaign)
        language = await language_of(interaction)
        side = found.side_of(interaction.user.id)
        sheet = found.sheet(side)
        lines = [sheet_alt_text(sheet, language), *(tr(line, language) for line in sheet.next)]
        if sheet.secrets:
            secrets = "; ".join(tr(line, language) for line in sheet.secrets)
            lines.append(t("campaign.your_secrets", language, picks=secrets))
        for table in sheet.tables:  # a squadron's roster: as text too, not only drawn
            lines.append(f"**{tr(table.title, language)}**")
            lines.extend(
                " · ".join(tr(cell, language) for cell in row if tr(cell, language))
                for row in table.rows
            )
        first, *more = _chunks(lines, 1800)
        await reply(interaction, first, file=await sheet_file(found, side, language))
        for part in more:
            await interaction.followup.send(part, ephemeral=True)

    @campaign.command(name="logbook", description=cmd_text("cmd.campaign.logbook.description"))
    @app_commands.describe(
        campaign=cmd_text("cmd.campaign.param.campaign"),
        pilot=cmd_text("cmd.campaign.logbook.param.pilot"),
    )
    @app_commands.autocomplete(pilot=_pilot_names)
    async def logbook(
        self,
        interaction: discord.Interaction,
        campaign: int | None = None,
        pilot: str | None = None,
    ) -> None:
        found = await _found(interaction, campaign)
        pilots = found.system.logbook(found.state)
        if not pilots:
            raise Refusal("logbook.refusal.empty")
        chosen = find_pilot(found.id, pilots, pilot) if pilot is not None else None
        language = await language_of(interaction)
        sides = {s.id: tr(s.name, language) for s in found.system.sides(found.state)}
        players = {
            side: ", ".join(m.display_name for m in found.members_of(side)) for side in sides
        }
        seats = await mission_seats(campaigns_of(interaction).storage, found)
        flyers = {key: tr(player_name(seat), language) for key, seat in seats.items()}
        title = found.sheet(None).title
        lines = [t("logbook.head", language, title=title, id=found.id)]
        card: CardView
        if chosen is None:
            lines += logbook_lines(pilots, sides, players, language, flyers)
            lines.append(t("logbook.hint", language))
            card = logbook_card(title, pilots, sides, language, flyers)
        else:
            names = {
                m.aircraft: aircraft_name(found.record.system, m.aircraft) for m in chosen.missions
            }
            side = sides.get(chosen.side, chosen.side)
            lines += pilot_lines(
                chosen, side, players.get(chosen.side, ""), names, language, flyers
            )
            card = pilot_card(title, chosen, names, language, flyers)
        png = await asyncio.to_thread(render_card, card)
        picture = attachment(
            png,
            filename=f"logbook-{found.id}.png",
            description=alt_text("\n".join(lines)),
        )
        first, *more = _chunks(lines, 1800)
        await reply(interaction, first, file=picture)
        for part in more:
            await interaction.followup.send(part, ephemeral=True)

    @campaign.command(name="log", description=cmd_text("cmd.campaign.log.description"))
    @app_commands.describe(campaign=cmd_text("cmd.campaign.param.campaign"))
    async def log_(self, interaction: discord.Interaction, campaign: int | None = None) -> None:
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        language = await language_of(interaction)
        lines = [
            t(
                "campaign.log_line",
                language,
                seq=e.seq,
                kind=t(f"campaign.log_kind.{e.kind}", language),
                side=found.side_name(e.side) if e.side else "",
                text=text,
                game=f" (game {e.game_id})" if e.game_id else "",
            )
            for e, text in service.public_log(found)
        ]
        body = "\n".join(lines) or t("campaign.log_empty", language)
        if found.record.status in ("finished", "abandoned"):
            body += "\n" + tr(service.seed_line(found), language)
        head = t("campaign.log_head", language, id=found.id, title=found.sheet(None).title)
        data = (head + "\n" + body + "\n").encode()
        await reply(
            interaction,
            head,
            file=attachment(data, filename=f"campaign-{found.id}.log.txt"),
        )

    @campaign.command(name="verify", description=cmd_text("cmd.campaign.verify.description"))
    @app_commands.describe(campaign=cmd_text("cmd.campaign.param.campaign"))
    async def verify(self, interaction: discord.Interaction, campaign: int | None = None) -> None:
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        await interaction.response.defer(ephemeral=True, thinking=True)
        verification = await service.verify(found.id)
        await reply(interaction, verification.text(await language_of(interaction)))

    @campaign.command(name="list", description=cmd_text("cmd.campaign.list.description"))
    async def list_(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("campaign.refusal.guild_only")
        service = campaigns_of(interaction)
        language = await language_of(interaction)
        records = await service.list_campaigns(interaction.guild_id)
        for r in records:  # a content pack's campaign is titled by its pack
            with contextlib.suppress(Refusal):
                await prepare_campaign(service.storage, r.system, r.setup)
        lines = [
            t(
                "campaign.list_line",
                language,
                id=r.id,
                title=campaign_title(r),
                status=t(f"campaign.status.{r.status}", language),
                thread=f"<#{r.thread_id}>" if r.thread_id else "-",
            )
            for r in records
        ]
        await reply(interaction, "\n".join(lines) or t("campaign.list_empty", language))

    @campaign.command(name="follow", description=cmd_text("cmd.campaign.follow.description"))
    @app_commands.describe(
        stop=cmd_text("cmd.campaign.follow.param.stop"),
        campaign=cmd_text("cmd.campaign.param.campaign"),
    )
    async def follow(
        self, interaction: discord.Interaction, stop: bool = False, campaign: int | None = None
    ) -> None:
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        language = await language_of(interaction)
        if stop:
            await service.unfollow(found.id, interaction.user.id)
            await reply(interaction, t("campaign.unfollowed", language, id=found.id))
        else:
            await service.follow(found.id, interaction.user.id)
            await reply(interaction, t("campaign.followed", language, id=found.id))

    @campaign.command(name="vacation", description=cmd_text("cmd.campaign.vacation.description"))
    @app_commands.describe(
        days=cmd_text("cmd.campaign.vacation.param.days"),
        campaign=cmd_text("cmd.campaign.param.campaign"),
    )
    async def vacation(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, 60],
        campaign: int | None = None,
    ) -> None:
        """Pause the deadlines of your side's campaign decisions (0 ends the pause)."""
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        side = found.side_of(interaction.user.id)
        if side is None:
            raise Refusal("campaign.refusal.not_member")
        ops = self.bot.deadlines
        if ops is None:
            raise Refusal("people.no_deadlines")
        language = await language_of(interaction)
        now = ops.scheduler.clock.now()
        until = now + timedelta(days=days) if days else None

        async def pause(row: GameRecord | None) -> None:
            # Under the campaign's lock: no decision moves it to another row meanwhile.
            if row is None:
                raise Refusal("campaign.refusal.no_row")
            if until is None:
                await ops.scheduler.set_vacation(row.id, side, None, None)
                return
            policy = await ops.terms.settings(row.id)
            if policy is not None:
                why = policy.vacation_refusal(now, until)
                if why:
                    raise UserError(why)
            await ops.scheduler.set_vacation(row.id, side, now, until)

        await service.with_current_row(found.id, pause)
        if until is None:
            await reply(interaction, t("people.vacation_over", language))
        else:
            await reply(interaction, t("campaign.paused", language, until=discord_time(until)))

    @campaign.command(name="sub", description=cmd_text("cmd.campaign.sub.description"))
    @app_commands.describe(
        member=cmd_text("cmd.campaign.sub.param.member"),
        replaces=cmd_text("cmd.campaign.sub.param.replaces"),
        campaign=cmd_text("cmd.campaign.param.campaign"),
    )
    async def sub(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        replaces: discord.Member | None = None,
        campaign: int | None = None,
    ) -> None:
        """Hand your place in the campaign to another member (the host or an admin:
        replace any member)."""
        service = campaigns_of(interaction)
        if member.bot:
            raise Refusal("campaign.refusal.sub_bot")
        found = await _found(interaction, campaign)
        found, side = await service.substitute(
            found.id,
            interaction.user.id,
            member.id,
            member.display_name,
            replaces=replaces.id if replaces is not None else None,
            admin=is_admin(interaction),
        )
        language = await language_of(interaction)
        await reply(interaction, t("campaign.subbed", language, user=member.mention))
        if found.record.thread_id is not None:
            public = await server_language(service.storage, found.record.guild_id)
            thread = await _channel(self.bot, found.record.thread_id)
            left = replaces.id if replaces is not None else interaction.user.id
            await thread.send(
                t(
                    "campaign.subbed_public",
                    public,
                    user=member.mention,
                    old=f"<@{left}>",
                    side=found.side_name(side),
                ),
                allowed_mentions=discord.AllowedMentions(users=[member]),
            )

    @campaign.command(name="abandon", description=cmd_text("cmd.campaign.abandon.description"))
    @app_commands.describe(
        confirm=cmd_text("cmd.campaign.abandon.param.confirm"),
        campaign=cmd_text("cmd.campaign.param.campaign"),
    )
    async def abandon(
        self, interaction: discord.Interaction, confirm: bool = False, campaign: int | None = None
    ) -> None:
        if not confirm:
            raise Refusal("campaign.abandon_confirm")
        service = campaigns_of(interaction)
        found = await _found(interaction, campaign)
        news = await service.abandon(found.id, interaction.user.id, admin=is_admin(interaction))
        await reply(interaction, t("campaign.abandoned_reply", await language_of(interaction)))
        await publish_campaign(self.bot, news)


async def setup(bot: TallyHoBot) -> None:
    await bot.add_cog(CampaignCog(bot))
    bot.add_dynamic_items(CampaignChoose)


async def teardown(bot: TallyHoBot) -> None:
    bot.remove_dynamic_items(CampaignChoose)
