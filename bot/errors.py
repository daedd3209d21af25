"""Errors the bot shows to a player as a short ephemeral message."""

from __future__ import annotations

from typing import Any

from strings import t, tr

__all__ = ["InternalError", "Refusal", "UserError"]


class UserError(Exception):
    """Bad input or a refused move: the message is shown to the user, nothing changed.

    Raised with a text, which may be a :class:`strings.Term` (the engine's refusals:
    keep the Term itself, never ``str()`` or an f-string of it, so it can still be
    translated), or as a :class:`Refusal` carrying a catalogue key."""

    def text(self, language: str | None) -> str:
        """The message in ``language`` (a plain text has only its own)."""
        return tr(self.args[0], language) if self.args else str(self)


class Refusal(UserError):
    """A refusal from the strings catalogue: an i18n key and its fields. ``str()`` is
    the English text; :meth:`text` gives the reader's language."""

    def __init__(self, key: str, /, **fields: Any) -> None:
        super().__init__(t(key, None, **fields))
        self.key = key
        self.fields = fields

    def text(self, language: str | None) -> str:
        return t(self.key, language, **self.fields)


class InternalError(Refusal):
    """A bug met while serving a request (a system failing in an unexpected way).

    Raised where it happened, after logging it there with its traceback and nothing
    committed: the user reads only the generic apology (``error.internal``: nothing was
    changed), never the failure itself."""

    def __init__(self) -> None:
        super().__init__("error.internal")
