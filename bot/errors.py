"""Errors the bot shows to a player as a short ephemeral message."""

from __future__ import annotations

from typing import Any

from strings import t

__all__ = ["Refusal", "UserError"]


class UserError(Exception):
    """Bad input or a refused move: the message is shown to the user, nothing changed.

    Raised with a plain text (the engine's refusals, which stay English), or as a
    :class:`Refusal` carrying a catalogue key."""

    def text(self, language: str | None) -> str:
        """The message in ``language`` (a plain-text error has only its own)."""
        return str(self)


class Refusal(UserError):
    """A refusal from the strings catalogue: an i18n key and its fields. ``str()`` is
    the English text; :meth:`text` gives the reader's language."""

    def __init__(self, key: str, /, **fields: Any) -> None:
        super().__init__(t(key, None, **fields))
        self.key = key
        self.fields = fields

    def text(self, language: str | None) -> str:
        return t(self.key, language, **self.fields)
