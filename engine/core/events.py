"""Events: what an action caused, with a one-line narration."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Event"]


@dataclass(frozen=True)
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
    ``strings.tr(event.text, language)`` gives it in a reader's language."""
    seat: str | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def public(self) -> bool:
        return self.seat is None
