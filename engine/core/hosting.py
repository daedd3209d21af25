"""Pieces every hosted system shares: the undo rule and the computer-player adapter.

Both were written twice, identically, for Down in Flames and Locked-On; each system
still says the rule in its own words (its catalogue keys).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Literal, Protocol, TypeVar

from engine.core.events import Event

__all__ = ["BoundPlayer", "UndoReason", "undo_reason"]

UndoReason = Literal["revealed", "random", "drawn", "hidden"]

E = TypeVar("E")
S = TypeVar("S")
A = TypeVar("A")
E_in = TypeVar("E_in", contravariant=True)
S_in = TypeVar("S_in", contravariant=True)
A_out = TypeVar("A_out", covariant=True)


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


class _Chooser(Protocol[E_in, S_in, A_out]):
    def choose(self, engine: E_in, state: S_in, seat: str) -> A_out: ...


class BoundPlayer(Generic[E, S, A]):
    """A system's player (``choose(engine, state, seat)``) bound to its engine, as the
    contract's :class:`~engine.core.contract.ComputerPlayer` (``choose(state, seat)``)."""

    def __init__(self, engine: E, player: _Chooser[E, S, A]) -> None:
        self.engine, self.player = engine, player

    def choose(self, state: S, seat: str) -> A:
        return self.player.choose(self.engine, state, seat)
