"""What the application hands the chat layer to post: the :class:`Publisher` interface.

``bot/`` never imports ``cogs/``. Whatever the application must tell people on its own
initiative (the scheduler's reminders and default moves, an abandoned seat offered to
a substitute, prompts that lapsed) goes through a :class:`Publisher`, which the Discord
layer implements (``cogs.publisher.DiscordPublisher``) and hands to the application at
start-up. Tests may hand in a recording one.

Texts may be :class:`strings.Term`: the publisher puts them in the reader's language
(the server's, for the thread and for DMs).

Mentions in a text only show names: a post notifies exactly the users given as its
``pings`` (and :meth:`Publisher.publish` the players it prompts), never everyone or
a role, whatever a player's name or text contains.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.campaigns import CampaignNews
    from bot.games import LoadedGame
    from bot.outcome import Outcome

__all__ = ["Publisher"]


class Publisher(Protocol):
    """Posts for the application. Every method logs and swallows a chat failure: what
    it reports is committed already, so a failure to post must not undo it."""

    async def publish(self, outcome: Outcome, *, skip_user: int | None = None) -> None:
        """Tell everyone what a committed change did: the narration and the picture in
        the game's thread, prompts (pings, DMs), followers' DMs, and the after-action
        report when the game ended. ``skip_user`` was answered already (no ping)."""
        ...

    async def say(self, game: LoadedGame, text: str, *, pings: Sequence[int] = ()) -> None:
        """One line in the game's thread, notifying the users ``pings``."""
        ...

    async def publish_campaign(self, news: CampaignNews) -> None:
        """Tell what a campaign step did: lines and the sheet in the campaign's thread,
        each mission game opened given its thread and started, the sides whose
        decision is awaited pinged (and ``news.pings``), the followers' DMs."""
        ...

    async def direct(self, user_id: int, text: str) -> bool:
        """A direct message; False if it could not be delivered (closed DMs)."""
        ...

    async def offer_seat(
        self, game: LoadedGame, seat: str, kind: str, text: str, *, pings: Sequence[int] = ()
    ) -> None:
        """Post ``text`` in the thread with a **Take this seat** button for ``seat``
        (notifying the users ``pings``), and remember the message as ``kind``
        (``bot.seats.take_kind``) so it is closed once the seat is no longer offered."""
        ...

    async def close_lapsed(self, game_id: int) -> None:
        """Close the game's posted prompts that no longer hold (``bot.seats.open_prompts``)."""
        ...
