"""The historical scenarios of §17.0 as setups.

:func:`scenario_setup` turns a scenario of ``data/eagles/scenarios.yaml`` into the
:class:`~engine.eagles.setup.EaglesSetup` of a game: each side's aircraft with their
pilots, the leader or Ace in the aircraft he flew that month (§18.0), the balloon,
bombs and incendiary ammunition, and the scenario's special rules, turns and series
of engagements.

Who attacks is not printed with the scenarios; it follows from §16.13: the side whose
Front Lines or Rear Area the engagement is over defends (the German Front Lines in a
Balloon Busting: the Germans hold the balloon), and in No Man's Land a Patrol has no
attacker. An attacker's aircraft of a type its Engagement lists as mission aircraft
(§16.4) is a mission aircraft: Scenario 8's two Halberstadts, Scenario 7's
two-seater.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.eagles.components import Force, PilotQuality, Scenario, Side, YearMonth
from engine.eagles.loader import Components
from engine.eagles.setup import REVISION, EaglesSetup, PlaneSetup, SideSetup

__all__ = ["attacker_of", "scenario_setup"]


def attacker_of(scenario: Scenario) -> str | None:
    """The mission player of a scenario (§16.13)."""
    owner = scenario.zone.owner
    if scenario.type.value == "patrol" or owner is None:
        return None
    return "german" if owner is Side.ALLIED else "allied"


def scenario_setup(
    components: Components, number: int, seats: Mapping[str, tuple[str, ...]]
) -> EaglesSetup:
    """The setup of scenario ``number`` with these seats per side (a solitaire
    scenario's German side has none: the rules play it)."""
    sc = components.scenarios[number]
    attacker = attacker_of(sc)
    spec = next(e for e in components.tables.engagements if e.type is sc.type)
    when = sc.month
    sides = {}
    for side in (Side.ALLIED, Side.GERMAN):
        force = sc.force(side)
        mission_types: set[str] = set()
        mission = spec.mission(side) if attacker == side.value else None
        if mission is not None:
            mission_types = set(mission.choices)
        sides[side.value] = SideSetup(
            seats=tuple(seats.get(side.value, ())),
            planes=_planes(components, force, mission_types, YearMonth(*when)),
        )
    return EaglesSetup(
        revision=REVISION,
        engagement=sc.type.value,
        attacker=attacker,
        month=f"{when[0]:04d}-{when[1]:02d}",
        zone=sc.zone.value,
        altitude=sc.altitude.code,
        allied=sides["allied"],
        german=sides["german"],
        initiative=sc.initiative.value if sc.initiative else None,
        rules=tuple(sorted(r.value for r in sc.rules)),
        scenario=number,
        engagements=sc.engagements,
        turns=sc.turns_per_engagement,
        victory=sc.victory.value,
        victory_side=sc.victory_side.value if sc.victory_side else None,
        victory_ace=sc.victory_ace,
        series_cup=tuple(sc.german.drawn_from_cup or sc.allied.drawn_from_cup),
    )


def _planes(
    components: Components, force: Force, mission: set[str], when: YearMonth
) -> tuple[PlaneSetup, ...]:
    out: list[PlaneSetup] = []
    for entry in force.aircraft:
        for _ in range(entry.count):
            out.append(
                PlaneSetup(
                    aircraft=entry.aircraft,
                    mission=entry.aircraft in mission,
                    bombs=entry.bombs,
                    incendiary=entry.incendiary,
                )
            )
    if force.leader is not None:
        lead = components.leaders[force.leader]
        flies = lead.aircraft_on(when)
        scouts = [i for i, p in enumerate(out) if not p.mission]
        at = next((i for i in scouts if out[i].aircraft == flies), scouts[0] if scouts else 0)
        quality = "ace" if (lead.ace or force.leader_ace_side) else "leader"
        out[at] = out[at].model_copy(update={"leader": force.leader, "quality": quality})
    qualities = [
        q for q in (PilotQuality.GREEN, PilotQuality.INEXPERIENCED) for _ in range(force.pilots[q])
    ]
    for i, p in enumerate(out):
        if p.leader is None and not p.mission and qualities:
            out[i] = p.model_copy(update={"quality": qualities.pop(0).value})
    out.extend(PlaneSetup(aircraft="balloon") for _ in range(force.balloons))
    return tuple(out)
