"""A game resumed from a snapshot: its state at one point of the log, plus the tail.

A game is ``(setup, seed, action log)``; replaying the whole log rebuilds it, at a cost
that grows with the log. A snapshot is the state after some action, as
``dump_state`` wrote it (plain JSON): :func:`resume` loads it and applies only the
actions logged after it. Replaying and resuming give the same state for every game
(tests/engine/test_snapshots.py, over every conformance vector and random games of
every system), so the log stays the only truth and a snapshot only a cache.

A dump's key order is part of it: a system may go through a dict of its state in
order (Down in Flames deals and fires element by element), so a store keeps the dump
as text (``bot.games.GameStore.snapshot``), never as a JSON object whose keys it
would sort.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from engine.core.contract import GameSystem

__all__ = ["resume"]

S = TypeVar("S")


def resume(
    system: GameSystem[S, Any, Any], snapshot: Mapping[str, Any], tail: Iterable[tuple[str, str]]
) -> S:
    """The state ``snapshot`` (a ``dump_state``) holds, after the ``(seat, action text)``
    actions of ``tail``. Raises what ``load_state`` raises for a snapshot it cannot
    read, and the rules' errors for a tail they refuse."""
    state = system.load_state(snapshot)
    for seat, text in tail:
        state, _ = system.apply(state, seat, system.parse_action(text))
    return state
