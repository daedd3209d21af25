"""``/rank``, ``/leaderboard`` and ``/profile``: players' ratings, the boards and pilots'
records, as text and as a picture, answered privately in the reader's language.

The ratings are kept by :class:`bot.ratings.Ratings`, which this cog builds and hangs
on the game service's change listeners: every game's end takes it into the ratings
(and start-up takes in whatever a crash left out); each command catches up first too.
A board's pages turn with **◀**/**▶** buttons (DynamicItems: they work after a
restart). A player hides from the global boards with ``/settings global-board off``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.games import LoadedGame
from bot.later import after_answer
from bot.ratings import Ratings
from bot.records import (
    PilotRecord,
    aircraft_name,
    campaign_title,
    mission_games,
    pilot_record,
    pilots_flown_by,
)
from bot.settings import server_language, system_title
from bot.storage import GameStatus
from bot.storage.models import GLOBAL, CampaignRecord, RatingRecord
from bot.systems import hosted_ids
from bot.words import comma_list, mention
from cogs.boundary import Guarded
from cogs.context import (
    EPHEMERAL_LIMIT,
    alt_text,
    app_of,
    attachment,
    forget_view,
    language_of,
    new_view,
    reply,
    service_of,
)
from cogs.help import choices, cmd_text
from engine.core.campaign import PilotLog
from rendering.community import CardTable, CardView, render_card
from strings import t

if TYPE_CHECKING:
    from cogs.app import TallyHoBot

__all__ = ["BoardPageButton", "CommunityCog"]

log = logging.getLogger(__name__)

PAGE_SIZE = 10
"""Players on one page of a board."""
SCOPES = choices("choice", ("server", "global"))
SYSTEMS = [app_commands.Choice(name=system_title(s), value=s) for s in hosted_ids()]


def _score(rating: RatingRecord) -> str:
    return f"{rating.score:.1f}"


def _counts(rating: RatingRecord, language: str) -> str:
    return t(
        "community.counts", language, games=rating.games, wins=rating.wins, losses=rating.losses
    )


def _scope_words(guild_id: int, language: str) -> str:
    return t("community.global" if guild_id == GLOBAL else "community.server", language)


async def _name(interaction: discord.Interaction, user_id: int, language: str) -> str:
    """How a picture names a player: their name on this server, else their Discord
    name, else "a player" (an account gone)."""
    guild = interaction.guild
    member = guild.get_member(user_id) if guild is not None else None
    if member is not None:
        return member.display_name
    client = interaction.client
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
    except discord.HTTPException:
        return t("community.unknown_player", language)
    return user.display_name


def _picture(card: CardView, filename: str, text: str) -> discord.File:
    """The card as an attachment, the text it shows as its description (alt text)."""
    png = render_card(card)
    return attachment(png, filename=filename, description=alt_text(text))


def community_of(interaction: discord.Interaction) -> CommunityCog:
    cog = app_of(interaction).get_cog("CommunityCog")
    assert isinstance(cog, CommunityCog)  # loaded with the bot (cogs.app.COGS)
    return cog


# -- /rank -----------------------------------------------------------------------------


async def rank_answer(
    interaction: discord.Interaction, ratings: Sequence[RatingRecord], player: int, language: str
) -> tuple[str, CardView]:
    """``/rank``'s text and card: each system's rating on this server and globally,
    with the player's place on each board."""
    storage = service_of(interaction).storage
    lines = [t("community.rank.title", language, player=mention(player))]
    rows: list[tuple[str, ...]] = []
    for system in dict.fromkeys(r.system for r in ratings):
        lines.append(t("community.rank.system", language, system=system_title(system)))
        for rating in (r for r in ratings if r.system == system):
            where = await storage.board_position(rating)
            total = await storage.board_size(rating.system, rating.guild_id)
            position = (
                t("community.position", language, n=where, total=total)
                if where is not None
                else t("community.hidden", language)
            )
            scope = _scope_words(rating.guild_id, language)
            counts = _counts(rating, language)
            lines.append(
                t(
                    "community.rank.line",
                    language,
                    scope=scope,
                    rating=_score(rating),
                    position=position,
                    counts=counts,
                )
            )
            rows.append((f"{system_title(system)}: {scope}", _score(rating), position, counts))
    lines.append(t("community.rank.footer", language))
    name = await _name(interaction, player, language)
    header = tuple(
        t(f"community.col.{c}", language) for c in ("scope", "rating", "position", "games")
    )
    card = CardView(
        t("community.rank.picture_title", language, player=name),
        t("community.rank.picture_subtitle", language),
        (CardTable(name, header, tuple(rows)),),
    )
    return "\n".join(lines), card


# -- /leaderboard ----------------------------------------------------------------------


async def board_answer(
    interaction: discord.Interaction, system: str, scope: str, page: int, language: str
) -> tuple[str, CardView, int, int]:
    """A board's page (0-based, kept within the board): its text, its card, the page
    shown and how many there are."""
    if scope == "server" and interaction.guild_id is None:
        raise Refusal("community.refusal.board_in_server")
    guild_id = GLOBAL if scope == "global" else interaction.guild_id
    assert guild_id is not None
    storage = service_of(interaction).storage
    await community_of(interaction).ratings.catch_up()
    total = await storage.board_size(system, guild_id)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    board = await storage.leaderboard(system, guild_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    title, scope_words = system_title(system), _scope_words(guild_id, language)
    lines = [
        t(
            "community.board.title",
            language,
            system=title,
            scope=scope_words,
            page=page + 1,
            pages=pages,
        )
    ]
    rows: list[tuple[str, ...]] = []
    mine: int | None = None
    for n, rating in enumerate(board, start=page * PAGE_SIZE + 1):
        counts = _counts(rating, language)
        lines.append(
            t(
                "community.board.line",
                language,
                n=n,
                player=mention(rating.user_id),
                rating=_score(rating),
                counts=counts,
            )
        )
        if rating.user_id == interaction.user.id:
            mine = len(rows)
        name = await _name(interaction, rating.user_id, language)
        rows.append(
            (f"{n}. {name}", _score(rating), str(rating.games), f"{rating.wins}–{rating.losses}")
        )
    empty = t("community.board.empty", language, system=title, scope=scope_words)
    if not board:
        lines.append(empty)
    header = tuple(
        t(f"community.col.{c}", language) for c in ("player", "rating", "games", "record")
    )
    card = CardView(
        t("community.board.picture_title", language, system=title),
        t(
            "community.board.picture_subtitle",
            language,
            scope=scope_words,
            page=page + 1,
            pages=pages,
        ),
        (CardTable(scope_words, header, tuple(rows), mine, empty),),
    )
    return "\n".join(lines), card, page, pages


def board_view(system: str, scope: str, page: int, pages: int) -> discord.ui.View | None:
    """**◀** and **▶** under a board of several pages (None for one page)."""
    if pages <= 1:
        return None
    view = new_view()
    view.add_item(BoardPageButton(system, scope, page - 1, "p", disabled=page == 0))
    view.add_item(BoardPageButton(system, scope, page + 1, "n", disabled=page >= pages - 1))
    return view


async def reader_language(interaction: discord.Interaction, share: bool) -> str:
    """The answer's language: the reader's, or the server's for an answer everyone in
    the channel reads (``share``)."""
    if share:
        return await server_language(service_of(interaction).storage, interaction.guild_id)
    return await language_of(interaction)


async def answer(
    interaction: discord.Interaction, text: str, *, share: bool, **kwargs: Any
) -> None:
    """A private answer, or with ``share`` one posted in the channel for everyone
    (``share:True``), which pings nobody it names."""
    if not share:
        await reply(interaction, text, **kwargs)
        return
    await interaction.response.send_message(
        text[:EPHEMERAL_LIMIT], allowed_mentions=discord.AllowedMentions.none(), **kwargs
    )
    forget_view(kwargs)


async def show_board(
    interaction: discord.Interaction,
    system: str,
    scope: str,
    page: int,
    *,
    edit: bool,
    share: bool = False,
) -> None:
    """Answer with a board's page: a new message (private unless ``share``), or the
    clicked one edited (a shared board in the server's language)."""
    if edit and interaction.message is not None:
        share = not interaction.message.flags.ephemeral
    language = await reader_language(interaction, share)
    text, card, page, pages = await board_answer(interaction, system, scope, page, language)
    file = await asyncio.to_thread(_picture, card, "leaderboard.png", text)
    view = board_view(system, scope, page, pages)
    if edit:
        await interaction.response.edit_message(
            content=text, attachments=[file], view=view or new_view()
        )
        if view is not None:
            forget_view({"view": view})
    elif view is not None:
        await answer(interaction, text, share=share, file=file, view=view)
    else:
        await answer(interaction, text, share=share, file=file)


class BoardPageButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"th:board:(?P<system>[a-z0-9_-]+):(?P<scope>server|global):(?P<page>\d+):(?P<way>[pn])",
):
    """Back (``p``) or Next (``n``) on a board: shows page ``page`` of that board."""

    def __init__(
        self, system: str, scope: str, page: int, way: str, *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                emoji="◀" if way == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"th:board:{system}:{scope}:{max(page, 0)}:{way}",
                disabled=disabled,
            )
        )
        self.system, self.scope, self.page = system, scope, max(page, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardPageButton:
        return cls(match["system"], match["scope"], int(match["page"]), match["way"])

    async def run(self, interaction: discord.Interaction) -> None:
        if self.system not in hosted_ids():
            raise Refusal("refusal.stale_buttons")
        await show_board(interaction, self.system, self.scope, self.page, edit=True)


# -- /profile --------------------------------------------------------------------------


def profile_answer(
    record: PilotRecord,
    player: int,
    name: str,
    language: str,
    pilots: Mapping[int, Sequence[PilotLog]] | None = None,
) -> tuple[str, CardView]:
    """``/profile``'s text and card; ``pilots``: the pilots the player flew in each of
    their current campaigns (its logbook's, each with the missions the player flew
    him: :func:`bot.records.pilots_flown_by`)."""
    lines = [t("community.profile.title", language, player=mention(player))]
    rows: list[tuple[str, ...]] = []
    flown: list[tuple[str, ...]] = []
    flew: list[tuple[str, ...]] = []
    """The campaign pilots they flew, for the picture."""
    for system, entry in sorted(record.systems.items()):
        title = system_title(system)
        ace = t("community.profile.ace", language) if entry.ace else ""
        lines.append(
            t(
                "community.profile.system",
                language,
                system=title,
                played=entry.played,
                won=entry.won,
                kills=entry.kills,
                losses=entry.losses,
                ace=ace,
            )
        )
        most = sorted(entry.aircraft.items(), key=lambda item: (-item[1], item[0]))
        names = [
            t("community.profile.aircraft_one", language, aircraft=aircraft_name(system, a), n=n)
            for a, n in most
        ]
        lines.append(t("community.profile.aircraft", language, aircraft=comma_list(names)))
        rows.append(
            (title + ace, str(entry.played), str(entry.won), str(entry.kills), str(entry.losses))
        )
        flown.extend((f"{aircraft_name(system, a)} ({title})", str(n)) for a, n in most)
    if not record.systems:
        lines.append(t("community.profile.nothing", language))
    favourite = record.favourite
    if favourite is not None:
        system, aircraft = favourite
        lines.append(
            t(
                "community.profile.favourite",
                language,
                aircraft=aircraft_name(system, aircraft),
                system=system_title(system),
            )
        )
    aces = [system_title(s) for s, e in sorted(record.systems.items()) if e.ace]
    if aces:
        lines.append(t("community.profile.aces", language, systems=comma_list(aces)))
    if record.campaigns:
        named = [
            t("community.profile.campaign", language, id=c.id, title=campaign_title(c))
            for c in record.campaigns
        ]
        lines.append(t("community.profile.campaigns", language, campaigns=comma_list(named)))
        for c in record.campaigns:
            flying = (pilots or {}).get(c.id, ())
            if flying:
                lines += _flown_lines(c, flying, language)
                flew += [
                    (
                        p.name + (t("logbook.ace", language) if p.ace else ""),
                        t("community.profile.campaign", language, id=c.id, title=campaign_title(c)),
                        _numbers(p, language),
                        str(p.kills),
                    )
                    for p in flying
                ]
        lines.append(t("community.profile.campaign_pilots", language))
    header = tuple(
        t(f"community.col.{c}", language) for c in ("system", "played", "won", "kills", "losses")
    )
    nothing = t("community.profile.nothing", language)
    card = CardView(
        t("community.profile.picture_title", language, player=name),
        t("community.profile.picture_subtitle", language),
        (
            CardTable(
                t("community.profile.picture_systems", language), header, tuple(rows), empty=nothing
            ),
            CardTable(
                t("community.profile.picture_aircraft", language),
                (t("community.col.aircraft", language), t("community.col.flown", language)),
                tuple(flown),
                empty=nothing,
            ),
            *((_pilots_table(flew, language),) if flew else ()),
        ),
    )
    return "\n".join(lines), card


def _numbers(pilot: PilotLog, language: str) -> str:
    """The missions he was flown on: ``#1, #3``."""
    return ", ".join(t("logbook.mission_number", language, n=m.mission) for m in pilot.missions)


def _flown_lines(campaign: CampaignRecord, flying: Sequence[PilotLog], language: str) -> list[str]:
    """A campaign's line (the pilots the player flew, their kills on his missions,
    the aces), then a line a pilot: the missions he flew him, kills, fate."""
    aces = [p.name for p in flying if p.ace]
    head = t(
        "logbook.profile_line",
        language,
        id=campaign.id,
        title=campaign_title(campaign),
        pilots=len(flying),
        kills=sum(p.kills for p in flying),
        aces=t("logbook.profile_aces", language, names=comma_list(aces)) if aces else "",
    )
    return [
        head,
        *(
            t(
                "logbook.profile_pilot",
                language,
                name=p.name + (t("logbook.ace", language) if p.ace else ""),
                missions=_numbers(p, language),
                kills=p.kills,
                fate=t(f"logbook.fate.{p.fate.value}", language),
            )
            for p in flying
        ),
    ]


def _pilots_table(rows: Sequence[tuple[str, ...]], language: str) -> CardTable:
    header = tuple(
        t(f"logbook.col.{c}", language) for c in ("pilot", "campaign", "missions", "kills")
    )
    return CardTable(t("logbook.profile_table", language), header, tuple(rows))


class CommunityCog(commands.Cog):
    """``/rank``, ``/leaderboard``, ``/profile``; keeps the ratings up to date."""

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot
        self.ratings = Ratings(bot.service.storage)
        self._catch_ups: set[asyncio.Task[None]] = set()
        """Catch-ups running in the background (cancelled when the cog unloads)."""

    async def cog_load(self) -> None:
        self.bot.service.listeners.append(self.game_changed)
        # The games a crash or an older release left out: a first start on a database
        # of thousands of finished games must not hold the bot up.
        self._catch_up_later()

    async def cog_unload(self) -> None:
        self.bot.service.listeners.remove(self.game_changed)
        for task in tuple(self._catch_ups):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def game_changed(self, game: LoadedGame, actor: str | None) -> None:
        """A change listener of the game service: a game's end goes into the ratings,
        in the background, started once the player who ended it was answered
        (``bot.later``: a task started at once ran in the answer's own awaits, the
        last move's reply then waiting for it, about 2 ms). A catch-up that fails or is
        cut short is done again by the next one."""
        if game.record.status is GameStatus.FINISHED:
            await after_answer(self._start_catch_up)

    async def _start_catch_up(self) -> None:
        self._catch_up_later()

    def _catch_up_later(self) -> None:
        task = asyncio.create_task(self._catch_up())
        self._catch_ups.add(task)
        task.add_done_callback(self._catch_ups.discard)

    async def _catch_up(self) -> None:
        try:
            taken = await self.ratings.catch_up()
        except Exception:  # the next game's end, command or start catches up again
            log.exception("ratings: a catch-up failed")
            return
        if taken:
            log.info("ratings: %d finished game(s) taken in", taken)

    @app_commands.command(name="rank", description=cmd_text("cmd.rank.description"))
    @app_commands.describe(
        member=cmd_text("cmd.rank.param.member"),
        system=cmd_text("cmd.rank.param.system"),
        share=cmd_text("cmd.community.param.share"),
    )
    @app_commands.choices(system=SYSTEMS)
    async def rank(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        system: app_commands.Choice[str] | None = None,
        share: bool = False,
    ) -> None:
        language = await reader_language(interaction, share)
        player = (member or interaction.user).id
        await self.ratings.catch_up()
        ratings = await self.bot.service.storage.ratings_of_user(player)
        shown = [
            r
            for r in ratings
            if r.guild_id in (GLOBAL, interaction.guild_id)
            and (system is None or r.system == system.value)
        ]
        if share and player != interaction.user.id:  # a player hidden from the global
            storage = self.bot.service.storage  # boards: nobody else posts it there
            shown = [r for r in shown if r.guild_id != GLOBAL or await storage.board_position(r)]
        if not shown and system is not None:
            raise Refusal(
                "community.refusal.no_ratings_system",
                player=mention(player),
                system=system_title(system.value),
            )
        if not shown:
            raise Refusal("community.refusal.no_ratings", player=mention(player))
        shown.sort(key=lambda r: (r.system, r.guild_id == GLOBAL))
        text, card = await rank_answer(interaction, shown, player, language)
        file = await asyncio.to_thread(_picture, card, "rank.png", text)
        await answer(interaction, text, share=share, file=file)

    @app_commands.command(name="leaderboard", description=cmd_text("cmd.leaderboard.description"))
    @app_commands.describe(
        system=cmd_text("cmd.leaderboard.param.system"),
        scope=cmd_text("cmd.leaderboard.param.scope"),
        share=cmd_text("cmd.community.param.share"),
    )
    @app_commands.choices(system=SYSTEMS, scope=SCOPES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        system: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        share: bool = False,
    ) -> None:
        chosen = system.value if system is not None else hosted_ids()[0]
        where = scope.value if scope is not None else "server"
        await show_board(interaction, chosen, where, 0, edit=False, share=share)

    @app_commands.command(name="profile", description=cmd_text("cmd.profile.description"))
    @app_commands.describe(
        member=cmd_text("cmd.profile.param.member"), share=cmd_text("cmd.community.param.share")
    )
    async def profile(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        share: bool = False,
    ) -> None:
        language = await reader_language(interaction, share)
        player = (member or interaction.user).id
        record = await pilot_record(self.bot.service, player)
        name = await _name(interaction, player, language)
        pilots: dict[int, Sequence[PilotLog]] = {}
        for c in record.campaigns:  # the pilots they flew (a campaign's logbook)
            campaign = await self.bot.campaigns.load(c.id)
            logbook = campaign.system.logbook(campaign.state)
            if any(m.seat is not None for p in logbook for m in p.missions):
                games = await mission_games(self.bot.service.storage, campaign)
                pilots[c.id] = pilots_flown_by(logbook, games, record.held)
        text, card = profile_answer(record, player, name, language, pilots)
        file = await asyncio.to_thread(_picture, card, "profile.png", text)
        await answer(interaction, text, share=share, file=file)


async def setup(bot: TallyHoBot) -> None:
    bot.add_dynamic_items(BoardPageButton)
    await bot.add_cog(CommunityCog(bot))


async def teardown(bot: TallyHoBot) -> None:
    bot.remove_dynamic_items(BoardPageButton)
