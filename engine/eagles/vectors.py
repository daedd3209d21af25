"""Eagles in the Sky expectations of rules conformance vectors
(``tests/conformance/eagles``).

The generic runner (:mod:`engine.conformance`) builds the game through the contract,
runs the steps and checks the keys every system shares; this module reads what only
an Eagles state holds. Keys (``tests/conformance/README.md``):

``position``  ``{"A1 G1": 4}``: A1's Position Level over G1 (negative: G1 tails A1;
              0: neither)
``altitude``  ``{A1: L}``;  ``climb``: climb progress ``{A1: 4}``
``status``    ``{A1: shot_down}`` (flying, shot_down, escaped, removed, landed)
``damage``    ``{A1: {wing: 1}}`` (the hits of each kind; ``{}``: none)
``crew`` / ``guns``  ``{A1: {pilot: wounded}}`` / ``{A1: {fixed: jammed}}``
``activated`` ``{A1: true}``;  ``display``: ``{A1: 1}`` (None: Unengaged)
``hand_count`` / ``hand_size``  ``{allied: 5}``: cards held / the hand size now
``vp`` / ``glory``  ``{allied: 3, german: 0}``: the engagement's score as it stands
``winner``, ``turn``, ``initiative``, ``to_act``, ``phase``, ``engagement``
``kills``     ``{A1: [G1]}``
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.events import Event
from engine.eagles import mat
from engine.eagles.campaign_vectors import check_campaign
from engine.eagles.state import GameState

__all__ = ["check", "check_campaign", "prepare"]

_ALTITUDES = "TLMH"


def prepare(system: Any, data: Mapping[str, Any]) -> Any:
    """The shipped system (vectors use only the shipped data)."""
    return system


def _engine(system: Any) -> Any:
    return getattr(system, "engine", system)


def check(
    system: Any, state: GameState, expect: Mapping[str, Any], events: Iterable[Event] = ()
) -> list[str]:
    """Compare the state with the Eagles expectations; returns what differs."""
    engine = _engine(system)
    out: list[str] = []

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    tally = engine.tally(state)
    for key, want in expect.items():
        if key == "position":
            for pair, level in want.items():
                a, b = pair.split()
                differ(
                    f"position {pair}", mat.relation(state, state.plane(a), state.plane(b)), level
                )
        elif key == "altitude":
            for ref, code in want.items():
                differ(f"altitude {ref}", _ALTITUDES[state.plane(ref).altitude], code)
        elif key in ("climb", "status", "activated", "display", "kills"):
            for ref, value in want.items():
                got = getattr(state.plane(ref), key)
                differ(f"{key} {ref}", list(got) if key == "kills" else got, value)
        elif key in ("damage", "crew", "guns"):
            for ref, value in want.items():
                got = {
                    k: v for k, v in getattr(state.plane(ref), key).items() if v not in (0, "ok")
                }
                differ(f"{key} {ref}", got, dict(value))
        elif key == "hand_count":
            for side, n in want.items():
                differ(f"hand_count {side}", len(state.hands.get(side, [])), n)
        elif key == "hand_size":
            for side, n in want.items():
                differ(f"hand_size {side}", engine.hand_limit(state, side)[0], n)
        elif key == "vp":
            differ("vp", dict(tally.vp), dict(want))
        elif key == "glory":
            differ("glory", dict(tally.glory), dict(want))
        elif key in ("winner", "turn", "initiative", "to_act", "phase", "engagement"):
            differ(key, getattr(state, key), want)
        else:
            out.append(f"unknown expectation {key!r}")
    return out
