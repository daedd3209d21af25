"""Down in Flames expectations of rules conformance vectors (``tests/conformance/dif``).

The generic runner (:mod:`engine.conformance`) builds the game through the contract,
runs the steps and checks the keys every system shares (``events``, ``no_events``,
``pending``, ``legal``); this module reads what only a Down in Flames state holds
(positions between leaders, hits, burst budgets, Full Throttle counters...). See
``tests/conformance/README.md`` for each key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.events import Event
from engine.dif.bombing import phase
from engine.dif.campaign_vectors import check_campaign as check_campaign
from engine.dif.components import Aircraft, Altitude, Position
from engine.dif.game import DifEngine
from engine.dif.state import GameState
from engine.dif.system import DifSystem

__all__ = ["check", "prepare"]


def prepare(system: Any, data: Mapping[str, Any]) -> DifSystem:
    """The system a vector runs against: the shipped one, or one with the aircraft a
    printed example needs that the shipped data lacks (``aircraft:``, authored in the
    vector itself with the data schema, like a content pack)."""
    assert isinstance(system, DifSystem)
    if not data.get("aircraft"):
        return system
    engine = system.engine
    extra = [Aircraft.model_validate(a) for a in data["aircraft"]]
    return DifSystem(DifEngine(engine.decks, {**engine.aircraft, **{a.id: a for a in extra}}))


def _multiset(codes: Iterable[str]) -> list[str]:
    return sorted(Counter(codes).elements())


def check(
    system: Any, state: GameState, expect: Mapping[str, Any], events: Iterable[Event] = ()
) -> list[str]:
    """Compare the state with the DiF expectations; returns what differs (an unknown
    key is a failure)."""
    engine: DifEngine = system.engine
    out: list[str] = []
    view = engine.view(state, None)

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "positions":
            for pair, pos in want.items():
                a, b = pair.split(" on ")
                differ(
                    f"position {pair}",
                    Position(engine.pos(state, a, b)).label,
                    str(pos).capitalize(),
                )
        elif key in ("hits", "damaged", "status"):
            for ref, v in want.items():
                bomber = next((b for b in engine._bombers_all(state) if b["ref"] == ref), None)
                if bomber is not None:  # a formation's bomber (X3B1)
                    differ(f"{key} {ref}", bomber[key], v)
                    continue
                plane = engine._plane(state, ref) if not ref.endswith("-lost") else None
                planes = {p.ref: p for e in state.elements.values() for p in e.planes()}
                plane = planes.get(ref, plane)
                if plane is None:
                    out.append(f"{key} {ref}: no such aircraft")
                    continue
                differ(f"{key} {ref}", getattr(plane, key), v)
        elif key == "altitude":
            for seat, code in want.items():
                alt = state.elements[seat].altitude
                differ(f"altitude {seat}", Altitude(alt).code if alt is not None else None, code)
        elif key == "hand":
            for seat, codes in want.items():
                got = _multiset(engine.code[c] for c in state.elements[seat].hand)
                differ(f"hand {seat}", got, _multiset(codes))
        elif key == "hand_count":
            for seat, n in want.items():
                differ(f"hand size {seat}", len(state.elements[seat].hand), n)
        elif key == "counters":
            for seat, n in want.items():
                differ(f"Full Throttle counters {seat}", state.elements[seat].counters, n)
        elif key == "pilot":
            for ref, skills in want.items():
                pilot_of = engine._plane(state, ref)
                skills_got = sorted(pilot_of.pilot) if pilot_of is not None else None
                differ(f"pilot skills {ref}", skills_got, sorted(skills))
        elif key == "order":
            differ("player order", list(state.order), list(want))
        elif key == "minihand":
            for seat, codes in want.items():
                e = state.elements[seat]
                differ(
                    f"mini-hand {seat}",
                    _multiset(engine.code[c] for c in e.minihand + e.defence),
                    _multiset(codes),
                )
        elif key == "bursts_left":
            differ("bursts left", view.bursts_left, want)
        elif key == "turn":
            differ("turn", state.turn, want)
        elif key == "active":
            differ("active seat", state.active, want)
        elif key == "step":
            differ("step", state.step, want)
        elif key == "vp":
            differ("VP", {k.value: v for k, v in engine.victory_points(state).items()}, want)
        elif key == "winner":
            differ("winner", state.result["winner"] if state.result else None, want)
        elif key == "in_play":
            differ(
                "cards in play", _multiset(engine.code[c] for c in state.in_play), _multiset(want)
            )
        elif key == "discard_count":
            differ("discard pile size", len(state.discard), want)
        elif key == "verdict":
            differ("verdict", state.result["verdict"] if state.result else None, want)
        elif key == "deck_top":
            got = [engine.code[c] for c in reversed(state.deck[-len(want) :])] if want else []
            differ("next cards", got, list(want))
        elif key == "mission":
            out.extend(_mission(engine, state, want))
        elif key == "engaged":
            for seat, other in want.items():
                differ(f"engaged {seat}", engine.engaged_with(state, seat), other)
        else:
            out.append(f"unknown expectation {key!r}")
    return out


def _mission(engine: DifEngine, state: GameState, want: Mapping[str, Any]) -> list[str]:
    """A campaign mission's expectations: the target's ``damage`` and ``level``, the
    game turns it lasts (``turns``), the ``phase`` now, the aircraft still ``loaded``,
    the elements ``away`` (Abandoned) and the ``clouds`` drawn (None before the draw)."""
    m = state.mission
    if m is None:
        return ["mission: this game is no mission"]
    target = engine._target(state)
    got = {
        "damage": m["damage"],
        "level": target.level(m["damage"]).name if target is not None else None,
        "turns": state.max_turns,
        "phase": phase(m, state.turn),
        "loaded": sorted(m["loaded"]),
        "away": sorted(m["away"]),
        "clouds": m.get("clouds"),
    }
    out = []
    for key, value in want.items():
        if key not in got:
            out.append(f"unknown mission expectation {key!r}")
        elif got[key] != (sorted(value) if isinstance(value, list) else value):
            out.append(f"mission {key}: expected {value!r}, got {got[key]!r}")
    return out
