"""The two kinds of error an engine raises, under one base (STYLE.md)."""

from __future__ import annotations

from strings import tr

__all__ = ["EngineError", "MalformedAction", "RuleViolation", "SetupError"]


class EngineError(Exception):
    """Base of every error a player may be shown. The message is for the player.

    The message is a :class:`strings.Term` (``str()`` gives its English text); show
    it in a reader's language with :meth:`text`.
    """

    def text(self, locale: object | None) -> str:
        """The message in ``locale``'s language (English where untranslated)."""
        return tr(self.args[0], locale) if self.args else ""


class MalformedAction(EngineError, ValueError):
    """The text of an action cannot be parsed at all."""


class RuleViolation(EngineError):
    """The action is well formed but the rules forbid it now.

    The message names the rule (section number where the rulebook has one) in words
    a player understands. A refused action changes nothing.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class SetupError(EngineError):
    """A game cannot be created from this setup (unknown aircraft, wrong year...)."""
