"""The play mat in words: the alt text of every picture of an Eagles in the Sky game.

From the spectators' view (:class:`~engine.eagles.view.EaglesView`: no card of anyone),
what the picture shows: the turn and engagement, whose move it is (and who flies that
side) or the result, then each dogfight as a chain of who tails whom, then one line per
aircraft with its altitude, its position, its damage and jams, or how it left the mat.
One line per aircraft, so a long list is cut between aircraft. Words are
``eagles.ui.alt.*`` and the engine's names of altitudes, damage and engagements.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.eagles.view import EaglesView, PlaneView
from strings import t

__all__ = ["picture_text"]

_HITS = ("structure", "wing", "control", "engine")


def picture_text(view: EaglesView, players: Mapping[str, str], language: str) -> str:
    """What the picture of ``view`` shows, in ``language``; ``players``: who flies each
    seat."""

    def w(key: str, **fields: object) -> str:
        return t(f"eagles.ui.alt.{key}", language, **fields)

    def side(code: str | None) -> str:
        return t(f"eagles.ui.side.{code}", language) if code else "-"

    def name(p: PlaneView) -> str:
        return f"{p.ref} {p.name}"

    by_ref = {p.ref: p for p in view.planes}
    lines = [
        w(
            "turn",
            turn=view.turn,
            turns=view.turns,
            engagement=t(f"eagles.engagement.{view.engagement_type}", language),
            zone=t(f"eagles.zone.{view.zone}", language),
        )
    ]
    if view.engagements > 1:
        lines[0] += " " + w("series", n=view.engagement, of=view.engagements)
    if view.phase == "over":
        verdict = side(view.winner) if view.winner else w("draw")
        vp = ", ".join(f"{side(s.id)} {s.vp}" for s in view.sides)
        lines.append(w("over", winner=verdict, vp=vp))
    elif view.pending is not None:
        waiting = view.pending.waiting if view.pending.side is None else (view.pending.side,)
        for code in waiting:
            seats = next((s.seats for s in view.sides if s.id == code), ())
            names = ", ".join(players[s] for s in seats if players.get(s))
            who = w("flown_by", side=side(code), players=names) if names else side(code)
            lines.append(w(f"to_{view.pending.kind}", who=who))
    for fight in view.dogfights:
        links = [
            w(
                "tails",
                plane=name(by_ref[r]),
                target=name(by_ref[by_ref[r].tailing or ""]),
                level=by_ref[r].level,
            )
            for r in fight.planes
            if by_ref[r].tailing in by_ref
        ]
        lines.append(
            w(
                "dogfight",
                n=fight.display,
                altitude=t(f"eagles.altitude.{fight.altitude}", language),
                links="; ".join(links),
            )
        )
    for p in view.planes:
        if p.status == "removed" and p.aircraft == "balloon":
            continue
        state: list[str] = []
        if not p.flying:
            state.append(w(f"status.{p.status}"))
        else:
            state.append(t(f"eagles.altitude.{p.altitude}", language))
            if p.display is None:
                state.append(w("unengaged"))
            if p.on_ground:
                state.append(w("on_ground"))
            if p.climb:
                state.append(w("climb", n=p.climb))
        hits = [
            w("hits", n=p.damage[k], kind=t(f"eagles.damage.{k}", language))
            for k in _HITS
            if p.damage.get(k)
        ]
        state.extend(hits)
        state.extend(w(f"guns.{v}") for v in p.guns.values() if v != "ok")
        state.extend(w(f"crew.{v}", who=w(f"crewman.{k}")) for k, v in p.crew.items() if v != "ok")
        if p.activated and p.flying:
            state.append(w("activated"))
        lines.append(w("aircraft", plane=name(p), side=side(p.side), state=", ".join(state)))
    return "\n".join(lines)
