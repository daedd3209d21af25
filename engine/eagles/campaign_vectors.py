"""Eagles in the Sky campaign expectations of conformance vectors
(``tests/conformance/eagles``, vectors with a ``campaign:`` key).

The generic runner (:func:`engine.conformance.run_campaign_vector`) plays the steps
and checks the keys every campaign shares (``pending``, ``totals``, ``winner``,
``over``, ``mission``, ``public``); this module reads what only an Eagles campaign
holds. Keys (``tests/conformance/README.md``):

``day``, ``phase``, ``weather``  the day (1-5), ``morning``/``afternoon``/``over``, the
              phase's weather
``missions``  the Mission numbers drawn so far, in order: ``[12, 2, 14, 21]``
``sorties``   by campaign mission number: ``{1: {chit: encounter, status: done,
              points: {german: 1}, glory: {german: 1}, mission: 12, type: patrol,
              report: [encounter, miss, hit]}}`` (``report``: the report's kinds, in
              order; ``has``: kinds it must include)
``pilots``    ``{allied: {A: {fatigue: 1, quality: green, status: ready, kills: 0,
              missions: 1, exhausted: false}}}``: the fields given
``planes``    ``{allied: {ready: 11, lost: 1, damaged: {3: {wing: 1}}}}``
``squadron``  ``{allied: {glory: 2, points: 1, event: ground_support, pilots: 12}}``
``chits``     ``{engagement: 2, encounter: 2}``: still in the cup
``flight``    ``{allied: [[A, 1], [D, 2]]}``: the mission being flown's flights
``limit``     ``{german: 3}``: the most pilots a side may assign now
``log``       ``{1: {allied: "A7 D8", german: "-"}}``: each side's flight on the Campaign
              Log (§5.43: pilot letter and aircraft number)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["check_campaign"]


def check_campaign(system: Any, state: Any, expect: Mapping[str, Any]) -> list[str]:
    out: list[str] = []

    def differ(what: str, got: object, want: object) -> None:
        if got != want:
            out.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key in ("day", "phase", "weather"):
            differ(key, getattr(state, key), want)
        elif key == "missions":
            differ("missions", [s.mission for s in state.sorties], list(want))
        elif key == "chits":
            differ("chits", dict(state.chits), dict(want))
        elif key == "sorties":
            by_number = {s.number: s for s in state.sorties}
            for number, fields in dict(want).items():
                s = by_number.get(int(number))
                if s is None:
                    out.append(f"no mission #{number}")
                    continue
                for name, value in dict(fields).items():
                    if name == "report":
                        differ(f"#{number} report", [k for k, _ in s.report], list(value))
                    elif name == "has":
                        kinds = [k for k, _ in s.report]
                        missing = [k for k in value if k not in kinds]
                        differ(f"#{number} report has", missing, [])
                    elif name in ("points", "glory", "vp"):
                        differ(f"#{number} {name}", dict(getattr(s, name)), dict(value))
                    else:
                        differ(f"#{number} {name}", getattr(s, name), value)
        elif key == "pilots":
            for side, pilots in dict(want).items():
                sq = state.squadrons[side]
                for pid, fields in dict(pilots).items():
                    p = sq.pilot(str(pid))
                    for name, value in dict(fields).items():
                        differ(f"{side} pilot {pid} {name}", getattr(p, name), value)
        elif key == "planes":
            for side, fields in dict(want).items():
                sq = state.squadrons[side]
                for name, value in dict(fields).items():
                    if name == "ready":
                        differ(f"{side} planes ready", len(sq.ready_planes()), value)
                    elif name == "lost":
                        differ(f"{side} planes lost", sum(p.lost for p in sq.planes), value)
                    elif name == "active":
                        differ(f"{side} planes", len(sq.active_planes()), value)
                    elif name == "damaged":
                        got = {p.id: dict(p.hits) for p in sq.planes if p.hits and not p.lost}
                        differ(
                            f"{side} damaged planes",
                            got,
                            {int(k): dict(v) for k, v in dict(value).items()},
                        )
                    else:
                        out.append(f"unknown planes expectation {name!r}")
        elif key == "squadron":
            for side, fields in dict(want).items():
                sq = state.squadrons[side]
                for name, value in dict(fields).items():
                    if name == "pilots":
                        differ(f"{side} pilots", len(sq.active_pilots()), value)
                    else:
                        differ(f"{side} {name}", getattr(sq, name), value)
        elif key == "flight":
            s = system.current(state)
            flights: dict[str, list[list[Any]]] = (
                {side: [list(f) for f in s.flights.get(side, [])] for side in want} if s else {}
            )
            differ("flight", flights, {k: [list(f) for f in v] for k, v in dict(want).items()})
        elif key == "log":
            by_number = {s.number: s for s in state.sorties}
            for number, sides in dict(want).items():
                for side, codes in dict(sides).items():
                    differ(
                        f"#{number} {side} log",
                        system.log_codes(by_number[int(number)], side),
                        codes,
                    )
        elif key == "limit":
            for side, n in dict(want).items():
                differ(f"{side} limit", system.flight_limit(state, side), n)
        else:
            out.append(f"unknown campaign expectation {key!r}")
    return out
