"""Test support that ships with the bot: the offline Discord harness.

Not part of the running bot: nothing outside the tests and ``python -m bot demo``
(``cogs.demo``) imports it. `FakeDiscord` runs the real discord.py client against an
in-memory Discord (see :mod:`bot.testing.fakediscord`); :mod:`bot.testing.driver`
clicks through the bot's generic components like a player. It ships in the package
because the demo uses it.
"""

from __future__ import annotations

from bot.testing.fakediscord import (
    Call,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
    NetworkDisabledError,
    Ping,
    discord_log_errors,
    notified,
)

__all__ = [
    "Call",
    "FakeDiscord",
    "FakeInteraction",
    "FakeUser",
    "NetworkDisabledError",
    "Ping",
    "discord_log_errors",
    "notified",
]
