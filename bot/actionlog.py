"""The action log with taken-back actions: undo markers and the effective log.

The log is append-only (the database's triggers refuse any update or delete), so a
taken-back action (``/game undo``) stays in it and a *marker* is appended after it:
a system row (no seat) whose text is ``undo <seq>``, naming the action taken back.
A marker may only name the latest action still in effect, so the effective log is a
stack: each marker pops the action it names. Replaying the effective log gives the
game as if the action had never been played, which is what the game is after an
undo (``GameService.load``, ``bot.history``, the scheduler through the listeners).

Pure functions, no storage and no Discord.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

__all__ = ["UNDO", "effective", "undo_narration", "undo_text", "undone_seq"]

UNDO = "undo"
"""The verb of an undo marker (never an engine action)."""
_MARKER = re.compile(r"^undo (\d+)$")

Row = TypeVar("Row", bound=tuple[int, str, str])


def undo_text(seq: int) -> str:
    """The marker taking back action ``seq``: ``undo 12``."""
    return f"{UNDO} {seq}"


def undone_seq(text: str) -> int | None:
    """The action a marker takes back, or None if ``text`` is not a marker."""
    m = _MARKER.match(text.strip())
    return int(m[1]) if m else None


def undo_narration(seq: int, seat: str) -> str:
    """The marker's line of narration (in the log and its verification). It names no
    move: a taken-back secret pick must stay secret."""
    return f"↩ Action {seq} of {seat or 'the system'} is taken back (undo)."


def effective(rows: Iterable[Row]) -> list[Row]:
    """The ``(seq, seat, text)`` rows still in effect: markers and the actions they
    take back are dropped. Raises ValueError when a marker does not name the latest
    action in effect (a log no undo of this bot wrote)."""
    kept: list[Row] = []
    for row in rows:
        seq, _, text = row[0], row[1], row[2]
        target = undone_seq(text)
        if target is None:
            kept.append(row)
            continue
        if not kept or kept[-1][0] != target:
            raise ValueError(
                f"action {seq} takes back action {target}, which is not the latest in effect"
            )
        kept.pop()
    return kept
