"""What every hosted system shares of the undo rule (once written twice, identically,
for Down in Flames and Locked-On); each system still says the rule in its own words
(its catalogue keys). Computer players are :mod:`engine.ai`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.core.events import Event

__all__ = ["UndoReason", "undo_reason"]

UndoReason = Literal["revealed", "random", "drawn", "hidden"]


def undo_reason(
    *,
    revealed: bool,
    randomness: bool,
    drew: bool,
    events: Sequence[Event],
) -> UndoReason | None:
    """Why an action may not be taken back: taking back must never let anyone see a
    card again or roll again. ``revealed``: the secret picks were revealed;
    ``randomness``: the game's RNG was used (a shuffle, a roll); ``drew``: the draw
    pile changed; and any private event (a line shown to one seat only)."""
    if revealed:
        return "revealed"
    if randomness:
        return "random"
    if drew:
        return "drawn"
    if any(not e.public for e in events):
        return "hidden"
    return None
