"""The action log's markers: taken-back actions, seats handed over, the effective log.

The log is append-only (the database's triggers refuse any update or delete), so a
taken-back action (``/game undo``) stays in it and a *marker* is appended after it:
a system row (no seat) whose text is ``undo <seq>``, naming the action taken back.
A marker may only name the latest action still in effect, so the effective log is a
stack: each marker pops the action it names. Replaying the effective log gives the
game as if the action had never been played, which is what the game is after an
undo (``GameService.load``, ``bot.history``, the scheduler through the listeners).

A seat handed to another player or to a computer (``bot.seats``) is a marker too,
``seat <seat> <note>``, written in the same transaction as the new holder: the note
is the line the thread is told (a :class:`~strings.Term` as JSON), so the outbox
tells a handover a crash kept from the thread as it tells a move (``bot.outbox``).
It changes nothing in the game: the effective log leaves it out.

Pure functions, no storage and no Discord.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, TypeVar

from strings import Term

__all__ = [
    "SEAT",
    "UNDO",
    "effective",
    "handover_note",
    "handover_text",
    "undo_narration",
    "undo_text",
    "undone_seq",
]

UNDO = "undo"
"""The verb of an undo marker (never an engine action)."""
_MARKER = re.compile(r"^undo (\d+)$")
SEAT = "seat"
"""The verb of a handover marker (never an engine action)."""
_SEAT_MARKER = re.compile(r"^seat ([A-Z][0-9]{1,2}) (\{.*\})$")

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


def handover_text(seat: str, note: Term) -> str:
    """The marker of ``seat`` handed over, with the line telling it:
    ``seat A2 {"fields":{...},"term":"seats.note.replaced"}``."""
    return f"{SEAT} {seat} {json.dumps(_term_json(note), sort_keys=True, separators=(',', ':'))}"


def handover_note(text: str) -> tuple[str, Term] | None:
    """The seat a handover marker names and its line, or None if ``text`` is not one."""
    m = _SEAT_MARKER.match(text.strip())
    if m is None:
        return None
    try:
        note = _json_term(json.loads(m[2]))
    except (ValueError, KeyError, TypeError):
        return None
    return (m[1], note) if isinstance(note, Term) else None


def _term_json(value: Any) -> Any:
    if isinstance(value, Term):
        return {"term": value.key, "fields": {k: _term_json(v) for k, v in value.fields.items()}}
    return value


def _json_term(value: Any) -> Any:
    if isinstance(value, dict):
        return Term(value["term"], **{k: _json_term(v) for k, v in value["fields"].items()})
    return value


def effective(rows: Iterable[Row]) -> list[Row]:
    """The ``(seq, seat, text)`` rows still in effect: undo markers and the actions
    they take back are dropped, and so are handover markers. Raises ValueError when a marker does not name the latest
    action in effect (a log no undo of this bot wrote)."""
    kept: list[Row] = []
    for row in rows:
        seq, _, text = row[0], row[1], row[2]
        target = undone_seq(text)
        if target is None:
            if handover_note(text) is None:
                kept.append(row)
            continue
        if not kept or kept[-1][0] != target:
            raise ValueError(
                f"action {seq} takes back action {target}, which is not the latest in effect"
            )
        kept.pop()
    return kept
