"""Who did what to whom: each aircraft's hits, who shot it down or damaged it, and the
decisive exchanges, kept in the state as the game is played (``GameState.fates``).

The typed outcome (:meth:`engine.dif.system.DifSystem.outcome`) and the after-action
report read it. It is bookkeeping, never a rule: nothing in the engine decides
anything from it, and it is rebuilt exactly by replaying the log.

Aircraft are named by the ref they started with: a leader shot down and replaced by its
wingman (11.2) becomes ``A1L-lost1`` in the state while its wingman becomes ``A1L``;
here they stay ``A1L`` and ``A1W`` (``ident`` maps the refs of the moment to them). What
each event says: ``play`` (data ``by``, ``target``, ``card``) opens an attack, which
stays open across the responses; ``damage`` (``ref``, ``hits``) counts hits taken, and
given by the attacker of that aircraft; ``damage`` without a ref is a fuel tank hit;
``damaged`` after a hit: the attacker damaged it; ``destroyed``: the attacker shot it
down (a loss while evading names no attacker); ``promoted``: the wingman takes over.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from engine.core.events import Event
from engine.dif.state import GameState, Plane

__all__ = ["Fates", "origin_refs", "record", "start"]

Fates = dict[str, Any]
"""The bookkeeping, plain JSON: ``ident`` (ref now -> ref at the start), ``lost``
(seat -> leaders lost), ``attack`` ([by, target, card] or None), ``taken`` and
``given`` (ref -> hits), ``killer`` (ref -> [by, turn, fuel tank]), ``damager``
(ref -> [by, turn]), ``evading`` (refs lost while evading), ``left`` (ref -> turn it
evaded), ``exchanges`` ([turn, by, target, card, outcome]: ``damaged``, ``shot_down``
or ``shot_down_fuel``)."""


def start(state: GameState) -> Fates:
    """The bookkeeping of a new game: every aircraft is who it was."""
    ident = {
        p.ref: p.ref
        for e in state.elements.values()
        for p in (e.leader, e.wingman)
        if p is not None
    }
    return {
        "ident": ident,
        "lost": {},
        "attack": None,
        "taken": {},
        "given": {},
        "killer": {},
        "damager": {},
        "evading": [],
        "left": {},
        "exchanges": [],
    }


def _add(counter: dict[str, int], ref: str, n: int) -> None:
    counter[ref] = counter.get(ref, 0) + n


def record(
    before: GameState, after: GameState, seat: str, verb: str, events: Sequence[Event]
) -> None:
    """Fold one applied action (its ``verb``, its ``events``) into ``after.fates``: a
    copy of ``before``'s whose parts are still ``before``'s own (:meth:`GameState.clone`),
    each replaced by a copy of it before it first changes (:func:`_own`), so ``before``
    stays as it was."""
    f = after.fates
    if not f:
        return  # a state from before this bookkeeping existed
    shared = before.fates
    ident: dict[str, str] = f["ident"]
    turn = max(before.turn, 1)
    last_hit: str | None = None
    last_destroyed: str | None = None
    flipped: int | None = None  # index of this action's "damaged" exchange
    fuel = False
    evasion = False  # an aircraft leaves the fight only by an evasion (12.1), which says so
    for ev in events:
        if ev.kind not in _FOLDED:
            continue
        d = ev.data
        attack = f["attack"]
        if ev.kind == "play":
            target = d.get("target")
            f["attack"] = (
                [ident.get(d["by"], d["by"]), ident.get(target, target), str(d.get("card"))]
                if target and "by" in d
                else None
            )
        elif ev.kind == "damage" and "ref" in d:
            o = ident.get(d["ref"], d["ref"])
            hits = int(d.get("hits", 0))
            _add(_own(f, shared, "taken"), o, hits)
            if attack is not None and attack[1] == o:
                _add(_own(f, shared, "given"), attack[0], hits)
            last_hit = o
        elif ev.kind == "damage":
            fuel = True  # "Fuel tank hit!": the destroyed event follows
        elif ev.kind == "damaged" and last_hit is not None:
            if attack is not None and attack[1] == last_hit:
                _own(f, shared, "damager").setdefault(last_hit, [attack[0], turn])
                _own(f, shared, "exchanges").append(
                    [turn, attack[0], last_hit, attack[2], "damaged"]
                )
                flipped = len(f["exchanges"]) - 1
        elif ev.kind == "destroyed" and "ref" in d:
            o = ident.get(d["ref"], d["ref"])
            last_destroyed = d["ref"]
            if attack is not None and attack[1] == o:
                _own(f, shared, "killer")[o] = [attack[0], turn, fuel]
                exchanges = _own(f, shared, "exchanges")
                if flipped is not None and exchanges[flipped][2] == o:
                    del exchanges[flipped]  # damaged and shot down by one hit (G-R9)
                outcome = "shot_down_fuel" if fuel else "shot_down"
                exchanges.append([turn, attack[0], o, attack[2], outcome])
            fuel = False
            flipped = None
        elif ev.kind == "promoted" and last_destroyed is not None:
            lost_seat = last_destroyed[:-1]
            lost = _own(f, shared, "lost")
            lost[lost_seat] = lost.get(lost_seat, 0) + 1
            ident = _own(f, shared, "ident")
            ident[f"{lost_seat}L-lost{f['lost'][lost_seat]}"] = ident.get(
                f"{lost_seat}L", f"{lost_seat}L"
            )
            ident[f"{lost_seat}L"] = ident.pop(f"{lost_seat}W", f"{lost_seat}W")
        elif ev.kind == "evasion":
            evasion = True
    if verb == "evade":  # shot down while evading: the event names no ref
        e = after.elements.get(seat)
        if e is not None:
            shown = e.leader if e.leader is not None else (e.lost[-1] if e.lost else None)
            for p in (shown, e.wingman):
                if p is not None and p.status == "destroyed":
                    o = ident.get(p.ref, p.ref)
                    if o not in f["evading"]:
                        _own(f, shared, "evading").append(o)
    if not evasion:
        return
    evaded = [p for e in after.elements.values() for p in e.planes() if p.status == "evaded"]
    if evaded:
        was = {p.ref: p.status for e in before.elements.values() for p in e.planes()}
        for p in evaded:
            if was.get(p.ref) != "evaded":
                _own(f, shared, "left").setdefault(ident.get(p.ref, p.ref), turn)


_FOLDED = frozenset({"play", "damage", "damaged", "destroyed", "promoted", "evasion"})
"""The kinds of event :func:`record` reads (most of an action's events are others)."""


def _own(f: Fates, shared: Fates, key: str) -> Any:
    """``f[key]``, to change: first a shallow copy if it is still ``shared[key]`` (the
    state ``f`` was cloned from holds it). Shallow is enough: ``record`` adds,
    replaces and deletes the items of a part, never changes one in place."""
    part = f[key]
    if part is shared.get(key):
        part = f[key] = copy.copy(part)
    return part


def origin_refs(
    seat: str, leader: Plane | None, wingman: Plane | None, lost: Sequence[Plane]
) -> dict[str, Plane]:
    """An element's aircraft by the ref each started with: a leader shot down and
    replaced is ``A1L-lost1`` in the state but ``A1L`` here (11.2)."""
    out: dict[str, Plane] = {}
    for p in lost:
        out[f"{seat}L"] = p
    if leader is not None:
        out[f"{seat}W" if leader.promoted else f"{seat}L"] = leader
    if wingman is not None:
        out[f"{seat}W"] = wingman
    return out
