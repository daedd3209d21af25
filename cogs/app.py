"""The discord.py client, and the composition of the Discord side.

:class:`TallyHoBot` opens the database and builds the application in
``setup_hook`` (``bot.service``, ``bot.operations``), hands it the
:class:`DiscordPublisher` through which it posts, registers the persistent components
and the cogs, installs the one error boundary and syncs the commands. The generic
components reach what a click does through it (:meth:`TallyHoBot.show_hand`,
:meth:`TallyHoBot.act`, :meth:`TallyHoBot.menu_context`), so no module of ``cogs/``
imports another in a circle.

:func:`serve` runs it until SIGTERM or SIGINT, then shuts it down gracefully
(:meth:`TallyHoBot.shutdown`): no new interaction, the moves and deadline firings in
flight finish, the scheduler stops, the client and the database close.

The client is an ``AutoShardedBot``: with ``shard_ids`` and ``shard_count``
(``TALLYHO_SHARDS``, ``TALLYHO_SHARD_COUNT``) it runs those shards, one process of
several sharing a PostgreSQL database; without, every shard Discord recommends. Any
process fires any deadline (claimed in the database); a game's catch-up posts come
from the process whose shards hold its guild (:meth:`TallyHoBot.owns_guild`,
:mod:`cogs.outbox`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta

import discord
from discord.ext import commands

from bot.campaigns import CampaignNews, CampaignService
from bot.clock import Clock
from bot.config import Settings
from bot.errors import Refusal
from bot.games import GAME_CACHE, LoadedGame, keep_out_of_collections, tune_collector
from bot.operations import DeadlineOps
from bot.outcome import Outcome
from bot.publishing import Publisher
from bot.recent import Recent
from bot.scheduler import POLL_INTERVAL
from bot.service import GameService
from bot.storage import DEFAULT_POOL_SIZE, Storage, open_storage
from cogs import campaign, hand, lobby, publisher, seats
from cogs.boundary import Gate, GatedTree, on_tree_error
from cogs.components import COMPONENTS, MenuContext
from cogs.help import Translator
from cogs.outbox import Outbox

__all__ = ["SHUTDOWN_GRACE", "DiscordPublisher", "TallyHoBot", "client", "serve"]

log = logging.getLogger(__name__)

COGS = (
    "cogs.dogfight",
    "cogs.campaign",
    "cogs.game",
    "cogs.admin",
    "cogs.help",
    "cogs.settings",
    "cogs.community",
)
MENUS: dict[str, Callable[[Sequence[str]], tuple[MenuContext, tuple[int, ...]]]] = {
    "s": hand.SeatDecision.parse,
    "o": hand.SideDecision.parse,
    "j": lobby.LobbySeats.parse,
    "ac": lobby.LobbyAircraft.parse,
    "cm": campaign.CampaignMenu.parse,
}
"""What each kind of menu (``th:{kind}:...``) is about."""
SHUTDOWN_GRACE = 10.0
"""Seconds a shutdown waits for the interactions and the deadline firing in flight."""

DM_CHANNELS = 10_000
"""How many players' DM channels the bot remembers (:meth:`TallyHoBot.dm_channel`)."""


class DiscordPublisher(Publisher):
    """The application's :class:`~bot.publishing.Publisher`, through one bot's
    connection (:mod:`cogs.publisher`)."""

    def __init__(self, bot: TallyHoBot) -> None:
        self.bot = bot

    async def publish(self, outcome: Outcome, *, skip_user: int | None = None) -> None:
        await publisher.publish(self.bot, outcome, skip_user=skip_user)

    async def say(self, game: LoadedGame, text: str, *, pings: Sequence[int] = ()) -> None:
        await publisher.say(self.bot, game, text, pings=pings)

    async def publish_campaign(self, news: CampaignNews) -> None:
        try:
            await campaign.publish_campaign(self.bot, news)
        except Exception:  # what it tells is committed: a failure to post is logged
            log.exception("campaign %s: could not be told", news.campaign.id)

    async def direct(self, user_id: int, text: str) -> bool:
        return await publisher.send_dm(self.bot, user_id, text, None) is not None

    async def offer_seat(
        self, game: LoadedGame, seat: str, kind: str, text: str, *, pings: Sequence[int] = ()
    ) -> None:
        public = await publisher.public_language(self.bot, game)
        view = seats.take_seat_view(game.id, seat, public)
        await publisher.post_prompt(self.bot, game, kind, text, view, pings=pings)

    async def close_lapsed(self, game_id: int) -> None:
        await publisher.close_lapsed(self.bot, game_id)


class TallyHoBot(commands.AutoShardedBot):
    """Opens the database, builds the application, registers components and cogs in
    ``setup_hook``."""

    service: GameService
    campaigns: CampaignService

    def __init__(
        self,
        *,
        database: str,
        guild_id: int | None = None,
        seed_source: Callable[[], int] | None = None,
        sync_commands: bool = True,
        clock: Clock | None = None,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
        poll_interval: timedelta = POLL_INTERVAL,
        game_cache: int = GAME_CACHE,
        database_pool: int = DEFAULT_POOL_SIZE,
    ) -> None:
        """``shard_ids`` of ``shard_count``: the shards this process runs (both None:
        every shard, as many as Discord recommends). ``poll_interval``: how often the
        deadline scheduler reads what other processes opened. ``game_cache``: how many
        games the service holds in memory. ``database_pool``: the connections to a
        PostgreSQL database it keeps at most."""
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=GatedTree,
            allowed_mentions=discord.AllowedMentions.none(),  # pings: cogs.context.pinging
            shard_count=shard_count,
        )
        if shard_ids is not None:  # what the constructor's shard_ids would set
            if shard_count is None:
                raise ValueError("shard_ids need a shard_count")
            self.shard_ids = list(shard_ids)
        self.poll_interval = poll_interval
        self.game_cache = game_cache
        self.database_pool = database_pool
        self.database = database
        self.guild_id = guild_id
        self._seed_source = seed_source
        self._sync = sync_commands
        self.storage: Storage | None = None
        self.clock = clock
        self.deadlines: DeadlineOps | None = None
        self._collector: tuple[int, ...] | None = None
        """The collector's thresholds before the bot tuned them (``bot.games.tune_collector``)."""
        self.publisher = DiscordPublisher(self)
        self.outbox = Outbox(self)
        """What the games' threads were not told yet: posted at start-up and retried."""
        self.gate = Gate()
        """Every interaction's way in; closed by :meth:`shutdown`."""
        self._dm_channels: Recent[int, int] = Recent(DM_CHANNELS)
        """A player's id -> the id of the bot's DM channel with them (:meth:`dm_channel`)."""
        self.tree.on_error = on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.storage = await open_storage(self.database, pool_size=self.database_pool)
        self.service = GameService(
            self.storage,
            seed_source=self._seed_source,
            clock=self.clock,
            cache_size=self.game_cache,
        )
        # The game cache freezes what it holds when no interaction is in flight.
        self.service.busy = lambda: self.gate.inflight > 0
        # A mover's answer is made while its write waits only when no other is in flight.
        self.service.crowded = lambda: self.gate.inflight > 1
        self.gate.on_idle = self.service.idle
        self.campaigns = CampaignService(self.service)
        # Buttons and menus are DynamicItems: they work on messages sent before a restart.
        self.add_dynamic_items(*COMPONENTS)
        await self.tree.set_translator(Translator())  # command descriptions per locale
        for name in COGS:
            await self.load_extension(name)
        if self._sync:
            if self.guild_id:
                guild = discord.Object(self.guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        open_games = await self.storage.list_open_games()
        self.deadlines = DeadlineOps(
            self.service,
            self.publisher,
            clock=self.clock,
            campaigns=self.campaigns,
            poll_interval=self.poll_interval,
        )
        behind = await self.outbox.start()  # steps a crash or a failed post kept untold
        live = await self.deadlines.start()  # overdue deadlines fire once, now
        for news in await self.campaigns.reconcile():  # steps a crash interrupted
            await self.publisher.publish_campaign(news)
        keep_out_of_collections()  # what start-up loaded stays: no collection walks it
        if self._collector is None:
            self._collector = tune_collector()  # full collections rarely, and at idle
        log.info(
            "ready: %d open game(s), %d caught up, %d live deadline(s) in %s",
            len(open_games),
            behind,
            live,
            self.database,
        )

    async def shutdown(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop gracefully (SIGTERM, SIGINT): the gate closes (a late interaction is told
        the bot is restarting), the interactions in flight and a deadline firing get
        ``grace`` seconds in all to finish, then the scheduler stops and the client and
        the database close (:meth:`close`). What did not finish in time is cancelled:
        nothing is committed half-way, and a deadline claimed but not applied fires
        again when its claim's lease is up (at the next start, or in another process)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + grace
        log.info("shutting down: %d interaction(s) in flight", self.gate.inflight)
        unfinished = await self.gate.close(grace)
        if unfinished:
            log.warning("shutting down: %d interaction(s) did not finish in time", unfinished)
        if self.deadlines is not None:
            await self.deadlines.stop(grace=max(0.0, until - loop.time()))
        await self.close()
        log.info("stopped: the database %s is closed", self.database)

    async def close(self) -> None:
        if self._collector is not None:  # the process's thresholds, as they were
            gc.set_threshold(*self._collector)
            self._collector = None
        if self.deadlines is not None:
            await self.deadlines.stop()
            self.deadlines = None
        await self.outbox.stop()
        await super().close()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    async def dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The bot's DM channel with a player, to send to.

        Its id is remembered after the first DM (a DM channel never changes), so a DM
        costs Discord one request: not a fetch of the user (discord.py keeps users
        only while something refers to them) and the channel's creation (it keeps
        128 DM channels) before the message itself. Up to :data:`DM_CHANNELS` players
        are remembered, the least recent forgotten first; a start-up remembers none.
        """
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            channel_id = (await self.create_dm(discord.Object(id=user_id))).id
            self._dm_channels.put(user_id, channel_id)
        return self.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether the guild's events come to this process: its shard (Discord's
        ``(guild_id >> 22) % shard_count``) is one this process runs; every guild when
        it runs every shard."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    # -- what the generic components do ----------------------------------------------
    async def game_ended(self, game_id: int) -> None:
        """A game's end was published: a campaign's mission moves its campaign on."""
        await campaign.after_game(self, game_id)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await hand.send_hand(interaction, game_id)

    async def act(
        self, interaction: discord.Interaction, game_id: int, seat: str, action: str, version: int
    ) -> None:
        await hand.perform(interaction, game_id, seat, action, version)

    def menu_context(self, kind: str, args: Sequence[str]) -> tuple[MenuContext, tuple[int, ...]]:
        """The context of a menu's ``custom_id`` (``th:{kind}:{args}``), and its path."""
        try:
            return MENUS[kind](args)
        except (KeyError, ValueError, IndexError) as exc:
            raise Refusal("refusal.stale_buttons") from exc


async def serve(
    bot: TallyHoBot, connect: Awaitable[None], *, grace: float = SHUTDOWN_GRACE
) -> None:
    """Serve through ``connect`` (``bot.start(token)``: log in, set up, then the
    gateway until the client closes) until it ends or SIGTERM or SIGINT arrives, which
    shuts the bot down gracefully (:meth:`TallyHoBot.shutdown`). An error of the
    connection (a wrong token) is raised once the bot is closed."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    handled = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C stops it at once
            loop.add_signal_handler(signum, stop.set)
            handled.append(signum)
    connection = asyncio.ensure_future(connect)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({connection, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            await bot.shutdown(grace)
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
        stopping.cancel()
        connection.cancel()
        if not bot.is_closed():
            await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await connection


def client(settings: Settings) -> TallyHoBot:
    """The bot as the settings describe it: its database, its shards, its poll."""
    return TallyHoBot(
        database=settings.database,
        guild_id=settings.guild_id,
        shard_ids=settings.shard_ids,
        shard_count=settings.shard_count,
        poll_interval=timedelta(seconds=settings.poll_seconds),
        game_cache=settings.game_cache,
        database_pool=settings.database_pool,
        # the commands are the application's, not a shard's: one process syncs them
        sync_commands=settings.shard_ids is None or 0 in settings.shard_ids,
    )


def run(settings: Settings) -> None:
    """Connect to Discord and serve until stopped (``python -m bot``'s front end)."""
    assert settings.discord_token is not None
    bot = client(settings)
    asyncio.run(serve(bot, bot.start(settings.discord_token.get_secret_value())))
