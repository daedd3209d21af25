"""Test support that ships with the bot: the offline Discord harness.

`FakeDiscord` runs the real discord.py client against an in-memory Discord; the test suite
and ``python -m bot demo`` both use it. See :mod:`bot.testing.fakediscord`.
"""

from __future__ import annotations

from bot.testing.fakediscord import (
    Call,
    FakeDiscord,
    FakeInteraction,
    FakeUser,
    NetworkDisabledError,
    discord_log_errors,
)

__all__ = [
    "Call",
    "FakeDiscord",
    "FakeInteraction",
    "FakeUser",
    "NetworkDisabledError",
    "discord_log_errors",
]
