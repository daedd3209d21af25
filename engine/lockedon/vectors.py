"""Locked-On expectations of rules conformance vectors (``tests/conformance/lockedon``).

The generic runner (:mod:`engine.conformance`) builds the game through the contract,
runs the steps and checks the keys every system shares; this module reads what only a
Locked-On state holds. Keys (``tests/conformance/README.md``):

``positions``  ``{"A1 on B1": Tailing}``: A1's position relative to B1
``altitude``   ``{A1: H}``;  ``range``: own Range counters ``{A1: RH}``
``range_between``  ``{"A1 B1": AH}``: the range between two aircraft
``hand`` / ``hand_count`` / ``side_count``  cards (codes, any order) / numbers
``mini`` / ``mini_count``  the Missile's mini-hand in the exchange being resolved
``missiles``   ``{A1: {aim-9e: 3}}``;  ``countermeasures``: ``{A1: 1}``
``ab_on`` / ``ab_left``  afterburners on, counters left
``used``       once-per-game skills used ``{A1: [alert]}``
``status`` / ``by``  ``flying`` / ``destroyed``, and the shooter
``value``      each aircraft's VP in this dogfight
``vp``, ``winner``, ``verdict``, ``round``, ``active``, ``step``, ``sides`` (turn
order), ``acted``, ``in_play``, ``discard_count``, ``deck_top``, ``missile_bonus``,
``speed_left``, ``exchange`` (its kind, or null), ``launch`` (``A1 B1 aim-9e`` or
null), ``chooser`` (the seat choosing first or second)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.events import Event
from engine.lockedon import geometry
from engine.lockedon.components import Altitude, Position, Range
from engine.lockedon.state import GameState
from engine.lockedon.system import LockedOnSystem

__all__ = ["check", "check_campaign", "prepare"]


def prepare(system: Any, data: Mapping[str, Any]) -> LockedOnSystem:
    """The shipped system (vectors use only the shipped data)."""
    assert isinstance(system, LockedOnSystem)
    return system


def _multiset(codes: Iterable[str]) -> list[str]:
    return sorted(Counter(codes).elements())


def check(
    system: Any, state: GameState, expect: Mapping[str, Any], events: Iterable[Event] = ()
) -> list[str]:
    """Compare the state with the Locked-On expectations; returns what differs."""
    engine = system.engine
    out: list[str] = []
    planes = state.planes

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "positions":
            for pair, pos in want.items():
                a, b = pair.split(" on ")
                differ(
                    f"position {pair}",
                    Position(geometry.pos(state, a, b)).name.lower(),
                    str(pos).lower(),
                )
        elif key == "altitude":
            for seat, code in want.items():
                alt = planes[seat].altitude
                differ(f"altitude {seat}", Altitude(alt).code if alt is not None else None, code)
        elif key == "range":
            for seat, code in want.items():
                differ(f"range counter {seat}", Range(planes[seat].range).code, code)
        elif key == "range_between":
            for pair, code in want.items():
                a, b = pair.split()
                differ(f"range {pair}", geometry.range_between(state, a, b).code, code)
        elif key == "hand":
            for seat, codes in want.items():
                differ(
                    f"hand {seat}",
                    _multiset(engine.codes(state, planes[seat].hand)),
                    _multiset(codes),
                )
        elif key == "hand_count":
            for seat, n in want.items():
                differ(f"hand size {seat}", len(planes[seat].hand), n)
        elif key == "side_count":
            for seat, n in want.items():
                differ(f"Aircraft Expertise cards {seat}", len(planes[seat].side_hand), n)
        elif key in ("mini", "mini_count"):
            mini = state.exchange.mini if state.exchange else []
            if key == "mini":
                differ("missile cards", _multiset(engine.codes(state, mini)), _multiset(want))
            else:
                differ("missile cards", len(mini), want)
        elif key == "missiles":
            for seat, loads in want.items():
                carried = {m: n for m, n in planes[seat].missiles.items() if n}
                differ(f"missiles {seat}", carried, {m: n for m, n in loads.items() if n})
        elif key == "countermeasures":
            for seat, n in want.items():
                differ(f"countermeasures {seat}", planes[seat].cm, n)
        elif key == "ab_on":
            for seat, on in want.items():
                differ(f"afterburners {seat}", planes[seat].ab_on, on)
        elif key == "ab_left":
            for seat, n in want.items():
                differ(f"afterburner counters {seat}", planes[seat].ab_left, n)
        elif key == "used":
            for seat, skills in want.items():
                differ(f"skills used {seat}", sorted(planes[seat].used), sorted(skills))
        elif key == "status":
            for seat, status in want.items():
                differ(f"status {seat}", planes[seat].status, status)
        elif key == "by":
            for seat, shooter in want.items():
                differ(f"shot down by {seat}", planes[seat].by, shooter)
        elif key == "value":
            for seat, vp in want.items():
                differ(f"value {seat}", planes[seat].value, vp)
        elif key == "vp":
            differ("VP", engine.victory_points(state), dict(want))
        elif key == "winner":
            differ("winner", state.result["winner"] if state.result else None, want)
        elif key == "verdict":
            differ("verdict", state.result["verdict"] if state.result else None, want)
        elif key in ("round", "active", "step", "chooser"):
            differ(key, getattr(state, key), want)
        elif key == "sides":
            differ("turn order", list(state.sides), list(want))
        elif key == "acted":
            differ("acted this round", list(state.acted), list(want))
        elif key == "in_play":
            differ("cards in play", _multiset(engine.codes(state, state.in_play)), _multiset(want))
        elif key == "discard_count":
            differ("discard pile size", len(state.discard), want)
        elif key == "deck_top":
            top = list(reversed(engine.codes(state, state.deck[-len(want) :]))) if want else []
            differ("next cards", top, list(want))
        elif key == "missile_bonus":
            differ("missile bonus", state.t.bonus, want)
        elif key == "speed_left":
            differ(
                "speed points left", state.t.speed_points - sum(state.t.speed_used.values()), want
            )
        elif key == "exchange":
            differ("exchange", state.exchange.kind if state.exchange else None, want)
        elif key == "launch":
            launch = state.launch
            differ(
                "launch",
                f"{launch.seat} {launch.target} {launch.missile}" if launch else None,
                want,
            )
        else:
            out.append(f"unknown expectation {key!r}")
    return out


def check_campaign(system: Any, state: Any, expect: Mapping[str, Any]) -> list[str]:
    """Locked-On campaign keys (``tests/conformance/README.md``): ``aircraft`` (the next
    mission's aircraft by nation, scaled: ``{israel: {mirage-iiicj: 3}}``), ``picks``
    (Options each nation selects), ``scores`` (each flown mission's VP by nation),
    and, once both have selected, the next game's ``seats`` (each seat's aircraft and
    skills: ``{A1: [mirage-iiicj, jink]}``), ``mission_vp`` and ``sites`` by game side."""
    out: list[str] = []

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "aircraft":
            got = {n: dict(Counter(system.mission_aircraft(state, n))) for n in want}
            differ("aircraft", got, {n: dict(v) for n, v in want.items()})
        elif key == "picks":
            differ("picks", {n: system.options_of(state, n)[1] for n in want}, dict(want))
        elif key == "scores":
            differ("scores", [dict(s.vp) for s in state.scores], [dict(s) for s in want])
        elif key in ("seats", "mission_vp", "sites"):
            plan = system.mission_setup(state)
            setup = plan.setup
            if key == "seats":
                seats = {s.seat: [s.aircraft, *s.skills] for s in setup.seats}
                differ("seats", seats, {k: list(v) for k, v in want.items()})
            elif key == "mission_vp":
                differ("mission_vp", dict(setup.mission.vp), dict(want))
            else:
                sites = {k: list(v) for k, v in setup.mission.sites.items()}
                differ("sites", sites, {k: list(v) for k, v in want.items()})
        else:
            out.append(f"unknown campaign expectation {key!r}")
    return out
