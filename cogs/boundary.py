"""The one error boundary of the Discord side.

Commands are plain callbacks: what they raise reaches the command tree's error
handler (:func:`on_tree_error`, installed by ``cogs.app``). Components are
:class:`Guarded`: their :meth:`Guarded.run` raises, and :meth:`Guarded.callback` hands
what it raised to the same :func:`report`. A refusal (:class:`~bot.errors.UserError`)
becomes a short ephemeral answer in the reader's language; anything else is logged
with the user, the channel and what was used, and the user gets a generic apology.

Every interaction also passes the bot's :class:`Gate` first (the command tree's
``interaction_check``, :meth:`Guarded.callback`): at a shutdown the gate closes, each
late interaction is told the bot is restarting, and the shutdown waits for the ones
the gate let in.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.errors import InternalError, UserError
from bot.later import FollowUp, answer_first, run_follow_ups
from bot.storage.memo import remember_settings
from cogs.context import app_of, forget_view, language_of, reply
from strings import normalize, t

__all__ = ["REPLIES_FIRST", "Gate", "GatedTree", "Guarded", "on_tree_error", "report"]

log = logging.getLogger(__name__)


async def _language_or_en(interaction: discord.Interaction) -> str:
    """The reader's language, or their locale's (English) if even that fails (storage down)."""
    try:
        return await language_of(interaction)
    except Exception:
        return normalize(interaction.locale) or "en"


def _let_go(interaction: discord.Interaction, _task: asyncio.Task[Any]) -> None:
    """Break the reference cycle of an interaction whose task ended: discord.py caches
    its response object, which refers back to it. Left alone, the two (and the message,
    members and users they hold) are freed only by the cyclic collector, and never once
    ``gc.freeze`` moved them out of its reach while they were in flight
    (``bot.games.keep_out_of_collections``): a bot frozen in a burst of clicks would keep
    every one. Nothing reads the response once the task that answered it ended."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")  # discord.py's cached_slot_property


def _what(interaction: discord.Interaction) -> str:
    """What was used, for the log, without the move itself (it may be a secret pick)."""
    data: dict[str, Any] = dict(interaction.data or {})
    if "custom_id" in data:
        return ":".join(str(data["custom_id"]).split(":")[:5])
    return f"/{data.get('name', '?')}"


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong (a refusal), or apologise and log (a bug)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    try:
        if isinstance(error, InternalError):  # logged where it happened
            await reply(interaction, t("error.internal", await _language_or_en(interaction)))
            return
        if isinstance(error, UserError):
            await reply(interaction, f"⛔ {error.text(await language_of(interaction))}")
            return
        if isinstance(error, app_commands.CheckFailure):
            await reply(interaction, str(error))
            return
        log.error(
            "command failed: user=%s channel=%s what=%s",
            interaction.user.id,
            interaction.channel_id,
            _what(interaction),
            exc_info=error,
        )
        await reply(interaction, t("error.internal", await _language_or_en(interaction)))
    except discord.HTTPException:
        log.warning("could not tell the user about the failure", exc_info=True)


async def on_tree_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's error handler: every command's refusals and failures."""
    await report(interaction, error)


REPLIES_FIRST = 1.0
"""The longest a move's public post waits for other interactions' replies
(:meth:`Gate.replies_first`): under a steady stream of clicks, posts still go out."""


class Gate:
    """The way in of every interaction: open while the bot serves, closed for a
    shutdown. It keeps the tasks running the interactions it let in, so that the
    shutdown waits for the moves in flight; once closed, it answers each interaction,
    ephemerally, that the bot is restarting, and changes nothing.

    It also knows which of them still wait for their answer (:meth:`answered`), so a
    move's public post can let them go first (:meth:`replies_first`): in a burst of
    clicks every player is answered before the threads are told."""

    def __init__(self) -> None:
        self.closed = False
        self._inflight: set[asyncio.Task[Any]] = set()
        self._unanswered: set[asyncio.Task[Any]] = set()
        self._all_answered = asyncio.Event()
        self._all_answered.set()
        self.on_idle: Callable[[], None] = lambda: None
        """Called when the last interaction in flight ends (the game cache freezes then:
        ``bot.games.GameStore.idle``)."""

    @property
    def inflight(self) -> int:
        """How many interactions it let in are still running."""
        return len(self._inflight)

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Let the interaction in (True), counting the task that runs it; closed, tell
        the user the bot is restarting (an autocomplete gets no choices) and refuse."""
        if self.closed:
            try:
                if interaction.type is discord.InteractionType.autocomplete:
                    await interaction.response.autocomplete([])
                else:
                    await reply(
                        interaction, t("error.restarting", await _language_or_en(interaction))
                    )
            except discord.HTTPException:
                log.warning("could not tell a late interaction the bot restarts")
            return False
        remember_settings()  # this interaction reads each settings row once
        task = asyncio.current_task()
        if task is not None and task not in self._inflight:
            self._inflight.add(task)
            # First: the follow-ups' task is in flight before the idle check of _ended.
            task.add_done_callback(functools.partial(self._follow_up, answer_first()))
            task.add_done_callback(self._ended)
            self._unanswered.add(task)
            self._all_answered.clear()
            task.add_done_callback(self._answered)
            task.add_done_callback(functools.partial(_let_go, interaction))
        return True

    def _follow_up(self, follow_ups: list[FollowUp], task: asyncio.Task[Any]) -> None:
        """The interaction's task ended: run what its changes left for after the
        answer (``bot.later``) in a task of its own, in flight like an interaction."""
        if not follow_ups:
            return
        runner = asyncio.get_running_loop().create_task(
            run_follow_ups(follow_ups), name=f"follow-ups of {task.get_name()}"
        )
        self._inflight.add(runner)
        runner.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        self._inflight.discard(task)
        if not self._inflight:  # once the task's callbacks ran and it is let go
            asyncio.get_running_loop().call_soon(self._idle)

    def _idle(self) -> None:
        if self._inflight:
            return
        try:
            self.on_idle()
        except Exception:
            log.exception("the idle hook failed")

    def answered(self) -> None:
        """The current interaction got its answer (``cogs.context.reply``; an
        interaction answered some other way counts as answered once it ends)."""
        task = asyncio.current_task()
        if task is not None:
            self._answered(task)

    def _answered(self, task: asyncio.Task[Any]) -> None:
        self._unanswered.discard(task)
        if not self._unanswered:
            self._all_answered.set()

    async def replies_first(self, limit: float = REPLIES_FIRST) -> None:
        """Wait until every interaction let in has its answer, or ``limit`` seconds:
        what can wait after a reply (the public post of a move) waits for the other
        players' replies."""
        if self._unanswered - {asyncio.current_task()}:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._all_answered.wait(), limit)

    async def close(self, grace: float) -> int:
        """Let no new interaction in, and wait up to ``grace`` seconds for the ones in
        flight to finish; return how many still run."""
        self.closed = True
        loop = asyncio.get_running_loop()
        until = loop.time() + grace
        # Again while it lasts: an interaction that ends starts its follow-ups.
        while running := self._inflight - {asyncio.current_task()}:
            left = until - loop.time()
            if left <= 0:
                return len(running)
            await asyncio.wait(running, timeout=left)
        return 0


class GatedTree(app_commands.CommandTree[Any]):
    """The command tree: every command (and autocomplete) passes the bot's gate."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await app_of(interaction).gate.admit(interaction)


class Guarded:
    """A component whose callback goes through the bot's gate and the error boundary:
    subclasses implement :meth:`run`. (Mixed in before ``discord.ui.DynamicItem``.)"""

    async def run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if not await app_of(interaction).gate.admit(interaction):
                return
            try:
                await self.run(interaction)
            except Exception as exc:
                await report(interaction, exc)
        finally:
            # discord.py built a view of the clicked message to hold this item, and
            # reads neither once the callback returned: let it go as a sent view is.
            forget_view({"view": getattr(self, "view", None)})
