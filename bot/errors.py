"""Errors the bot shows to a player as a short ephemeral message."""

from __future__ import annotations

__all__ = ["UserError"]


class UserError(Exception):
    """Bad input or a refused move: the message is shown to the user, nothing changed."""
