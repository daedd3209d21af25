"""Events: what an action caused, with a one-line narration."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from strings import LazyTerm

__all__ = ["Event"]


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened.

    ``seat`` is None for a public event (narrated in the thread, safe for everyone)
    and a seat id for a private one (shown to that seat only, e.g. the cards it drew).
    """

    kind: str
    """Machine-readable kind, e.g. ``play``, ``damage``, ``draw``."""
    text: str
    """One line of narration: 'Ki-43 (X1) plays Maneuvering on Buffalo I (A1)'. A
    :class:`strings.Term`: its ``str`` is the English text (the canonical record), and
    ``strings.tr(event.text, language)`` gives it in a reader's language. Made from a
    :class:`strings.LazyTerm` given for it the first time it is read, and kept."""
    seat: str | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __init__(
        self,
        kind: str,
        text: str | LazyTerm,
        seat: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        # The dataclass' own __init__ sets each field through object.__setattr__ (the
        # class is frozen); setting them in the instance's dict costs about a third,
        # and the engines make an event or two with every action (issue 16).
        fields = self.__dict__
        fields["kind"] = kind
        fields["_text"] = text
        fields["seat"] = seat
        fields["data"] = {} if data is None else data

    @property
    def public(self) -> bool:
        return self.seat is None


def _text(event: Event) -> str:
    """:attr:`Event.text`: the Term of a :class:`~strings.LazyTerm` is made when the
    text is first read (compared, shown, logged), and kept. An engine narrates every
    action, and a Term formats its English text when it is made, while a game replayed
    from its log, or played by computer players, reads none of it (issue 16)."""
    text = event.__dict__["_text"]
    if isinstance(text, LazyTerm):
        text = event.__dict__["_text"] = text.term()
    return text


# The field stays a dataclass field (compared, hashed, shown, by asdict and replace):
# its value is read through this property, set on the class once the dataclass is made.
Event.text = property(_text)  # type: ignore[assignment]
