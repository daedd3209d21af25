"""The play mat: who tails whom, the dogfights that makes, and who may target whom.

A dogfight is a connected group of the "tails" relation (§9.11); an aircraft neither
tailing nor tailed is Unengaged (§9.34, §9.36). Position Levels run 1-6 (§9.35).
:func:`relation` reads the relation between two aircraft as one signed number, and
:func:`set_relation` writes it back, giving up other positions as §8.26, §8.44 and
§9.32 require. :func:`settle` then renumbers the displays: a dogfight that split
keeps its display for the part holding its lowest display-holder and the other part
takes the lowest free display (§9.51-9.52).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.eagles.state import GameState, Plane

__all__ = [
    "MAX_LEVEL",
    "dogfight",
    "dogfights",
    "engaged",
    "give_up",
    "relation",
    "set_relation",
    "settle",
    "tailers",
    "unengaged",
]

MAX_LEVEL = 6


def flying(state: GameState) -> Iterator[Plane]:
    return (p for p in state.planes if p.flying)


def tailers(state: GameState, ref: str) -> list[Plane]:
    """The aircraft tailing ``ref`` (at most two, §9.45)."""
    return [p for p in flying(state) if p.tailing == ref]


def engaged(state: GameState, p: Plane) -> bool:
    return p.tailing is not None or any(q.tailing == p.ref for q in flying(state))


def unengaged(state: GameState, p: Plane) -> bool:
    return not engaged(state, p)


def relation(state: GameState, a: Plane, b: Plane) -> int:
    """``a``'s Position Level over ``b``: positive when ``a`` tails ``b``, negative
    when ``b`` tails ``a``, 0 when neither."""
    if a.tailing == b.ref:
        return a.level
    if b.tailing == a.ref:
        return -b.level
    return 0


def give_up(p: Plane) -> None:
    """``p`` gives up its position (§9.36)."""
    p.tailing = None
    p.level = 0


def set_relation(state: GameState, a: Plane, b: Plane, value: int) -> None:
    """Make ``a``'s level over ``b`` ``value`` (clamped to ±6, §9.35). The one now
    tailing gives up any other position (§9.32)."""
    value = max(-MAX_LEVEL, min(MAX_LEVEL, value))
    if a.tailing == b.ref:
        give_up(a)
    if b.tailing == a.ref:
        give_up(b)
    if value > 0:
        a.tailing, a.level = b.ref, value
    elif value < 0:
        b.tailing, b.level = a.ref, -value


def dogfight(state: GameState, p: Plane) -> list[Plane]:
    """The aircraft in ``p``'s dogfight, ``p`` included; just ``[p]`` when Unengaged."""
    near: dict[str, list[str]] = {}
    for q in state.planes:
        if q.flying and q.tailing is not None:
            near.setdefault(q.ref, []).append(q.tailing)
            near.setdefault(q.tailing, []).append(q.ref)
    seen = {p.ref}
    todo = [p.ref]
    while todo:
        for n in near.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return [q for q in state.planes if q.ref in seen]


def dogfights(state: GameState) -> list[list[Plane]]:
    """Every dogfight, by display number."""
    out: dict[int, list[Plane]] = {}
    for p in flying(state):
        if p.display is not None:
            out.setdefault(p.display, []).append(p)
    return [out[k] for k in sorted(out)]


def settle(state: GameState) -> None:
    """Drop links to aircraft no longer flying, then give every dogfight a display
    and every Unengaged aircraft none (§9.22, §9.52, §9.62)."""
    alive = {p.ref for p in flying(state)}
    for p in state.planes:
        if p.tailing is not None and (p.tailing not in alive or not p.flying):
            give_up(p)
    groups: list[list[Plane]] = []
    placed: set[str] = set()
    for p in flying(state):
        if p.ref in placed:
            continue
        group = dogfight(state, p)
        placed.update(q.ref for q in group)
        if len(group) > 1:
            groups.append(group)
    # Keep a display for the group holding the lowest ref among its holders.
    used: set[int] = set()
    assigned: dict[int, int] = {}
    for i, group in sorted(
        enumerate(groups), key=lambda ig: min((q.display or 99, q.ref) for q in ig[1])
    ):
        held = sorted({q.display for q in group if q.display is not None})
        keep = next((d for d in held if d not in used), None)
        if keep is not None:
            assigned[i] = keep
            used.add(keep)
    for i in range(len(groups)):
        if i not in assigned:
            n = 1
            while n in used:
                n += 1
            assigned[i] = n
            used.add(n)
    in_fight: set[str] = set()
    for i, group in enumerate(groups):
        for q in group:
            q.display = assigned[i]
            in_fight.add(q.ref)
    for p in state.planes:
        if p.ref not in in_fight:
            p.display = None
