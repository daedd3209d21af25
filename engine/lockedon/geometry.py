"""Range and Position arithmetic: pure functions over a state's counters and pairs.

Range (L47-49, L156-157, L189-193): each aircraft has its own Range counter; the
range between two aircraft is the farther of their two counters, plus one band per
altitude level between them, and anything beyond Active Homing is Active Homing.

Positions (L120-131, L195-204) are kept once per pair of aircraft, from the first
seat's point of view (``"A1|B1" -> +1``: A1 Advantaged on B1, so B1 is Disadvantaged
by A1), which makes them symmetric by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.lockedon.components import Position, Range
from engine.lockedon.state import GameState

__all__ = [
    "advantaged_on",
    "band",
    "engaged",
    "holding",
    "pair_key",
    "pos",
    "range_between",
    "set_pos",
    "tailing_on",
]


def band(r_a: int, alt_a: int, r_b: int, alt_b: int) -> Range:
    """The range between two aircraft from their counters and altitudes (L189-193):
    ``band(RH, Low, HS, Medium)`` is Active Homing."""
    return Range(min(Range.ACTIVE, max(r_a, r_b) + abs(alt_a - alt_b)))


def range_between(state: GameState, a: str, b: str) -> Range:
    pa, pb = state.planes[a], state.planes[b]
    return band(pa.range, pa.altitude or 0, pb.range, pb.altitude or 0)


def pair_key(a: str, b: str) -> tuple[str, int]:
    """The key of a pair and the sign that turns its value into ``a``'s position."""
    return (f"{a}|{b}", 1) if a < b else (f"{b}|{a}", -1)


def pos(state: GameState, a: str, b: str) -> Position:
    """``a``'s position relative to ``b`` (Neutral when not engaged, L200)."""
    key, sign = pair_key(a, b)
    return Position(state.positions.get(key, 0) * sign)


def set_pos(state: GameState, a: str, b: str, position: int) -> None:
    """Make ``a`` hold ``position`` relative to ``b`` (and ``b`` the opposite)."""
    key, sign = pair_key(a, b)
    if position == 0:
        state.positions.pop(key, None)
    else:
        state.positions[key] = position * sign


def engaged(state: GameState, a: str) -> Iterator[tuple[str, Position]]:
    """Every aircraft ``a`` is Engaged with (L201), and ``a``'s position on it."""
    for key, value in state.positions.items():
        first, _, second = key.partition("|")
        if first == a:
            yield second, Position(value)
        elif second == a:
            yield first, Position(-value)


def holding(state: GameState, a: str) -> tuple[str, Position] | None:
    """The one enemy ``a`` is Advantaged on or Tailing, if any (L201)."""
    for other, p in engaged(state, a):
        if p > 0:
            return other, p
    return None


def _on(state: GameState, target: str, position: Position, but: Iterable[str]) -> int:
    skip = set(but)
    return sum(1 for other, p in engaged(state, target) if p == -position and other not in skip)


def advantaged_on(state: GameState, target: str, but: Iterable[str] = ()) -> int:
    """How many aircraft (other than ``but``) are Advantaged on ``target`` (at most 2,
    L202)."""
    return _on(state, target, Position.ADVANTAGED, but)


def tailing_on(state: GameState, target: str, but: Iterable[str] = ()) -> int:
    """How many aircraft (other than ``but``) are Tailing ``target`` (at most 1, L202)."""
    return _on(state, target, Position.TAILING, but)
