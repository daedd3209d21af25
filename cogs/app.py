"""The discord.py client: start-up, cogs, persistent components, error boundary.

The composition of the Discord side: it builds the application (``bot.service``,
``bot.operations``) and hands it the :class:`~cogs.publisher.DiscordPublisher` through
which the application posts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock
from bot.operations import DeadlineOps
from bot.service import GameService
from bot.storage.sqlite import SQLiteStorage
from cogs.help import Translator
from cogs.publisher import DiscordPublisher
from cogs.ui import COMPONENTS
from engine.dif.game import DifEngine, default_engine
from strings import normalize, t

__all__ = ["TallyHoBot"]

log = logging.getLogger(__name__)

COGS = ("cogs.dogfight", "cogs.game", "cogs.admin", "cogs.help", "cogs.settings")


class TallyHoBot(commands.Bot):
    """Opens the database, loads data, registers components and cogs in ``setup_hook``."""

    service: GameService

    def __init__(
        self,
        *,
        database: str,
        guild_id: int | None = None,
        engine: DifEngine | None = None,
        seed_source: Callable[[], int] | None = None,
        sync_commands: bool = True,
        clock: Clock | None = None,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.database = database
        self.guild_id = guild_id
        self._engine = engine
        self._seed_source = seed_source
        self._sync = sync_commands
        self.storage: SQLiteStorage | None = None
        self.clock = clock
        self.deadlines: DeadlineOps | None = None
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.storage = await SQLiteStorage.open(self.database)
        engine = self._engine or default_engine()
        self.service = GameService(
            self.storage, engine, seed_source=self._seed_source, clock=self.clock
        )
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
        self.deadlines = DeadlineOps(self.service, DiscordPublisher(self), clock=self.clock)
        live = await self.deadlines.start()  # overdue deadlines fire once, now
        log.info(
            "ready: %d open game(s), %d live deadline(s) in %s",
            len(open_games),
            live,
            self.database,
        )

    async def close(self) -> None:
        if self.deadlines is not None:
            await self.deadlines.stop()
            self.deadlines = None
        await super().close()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.error(
            "app command error (user %s, channel %s)",
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
        text = t("error.internal", normalize(interaction.locale))
        if isinstance(error, app_commands.CheckFailure):
            text = str(error)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report the error to the user", exc_info=True)
