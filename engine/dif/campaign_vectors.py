"""Zero! Land and Carrier Campaign expectations of conformance vectors
(``tests/conformance/dif/zero-c*.yaml``, vectors with a ``campaign:`` key).

The generic runner (:func:`engine.conformance.run_campaign_vector`) plays the steps
and checks the keys every campaign shares (``pending``, ``totals``, ``winner``,
``over``, ``mission``, ``public``); this module reads what only a Zero! campaign
holds. Keys (``tests/conformance/README.md``):

Land Campaigns (§24)
``card``, ``target``  the card drawn for the next Mission (``OOS``) and its Target
``picks``     the Options chosen for the next Mission: ``{japanese: 2, allied: 4}``
``duration``  ``[arrival, over the target, return home]`` (§23.2)
``scores``    by Mission number: ``{1: {target: 11, vp: {japanese: 26, allied: 15},
              options: {...}, lost: [Kato]}}``: the fields given
``lost``      the Pilot counters out of the cup

Carrier Campaigns (§25)
``turn``, ``phase``  the turn and ``orders``/``options``/``flying``/``over``
``queue``     the turn's games still to fly, each ``kind side source>target``
              (``strike allied midway>japanese-fleet``; a recon has no target;
              ``simultaneous``: sized at the Damage when the first of the two flies, §25.53)
``recon``     ``{japanese: true}``: this turn's Reconnaissance Missions survived
``damage``    ``{allied-fleet: 4}``: the Damage Records' boxes crossed out
``recovered`` the last flown game's recovery: ``[X1W:landed, X2L:lost]`` (§25.71)

Both
``drawn``     the next game's Pilot (and Crew) counters in draw order, each
              ``seat name`` and ``(discarded)`` for an Unskilled one (§19.24d)
``plan``      the next game's setup: ``aircraft`` (``{japanese: [a6m2, a6m2/W, b5n2]}``:
              Leaders, Wingmen, bombers in seat order), ``attacker`` (a campaign side),
              ``kind``, ``arrival``, ``home``, ``turns``, ``extra_damage``, ``target``
              (the target's name begins so), ``clouds`` (``[draw, shift, aa,
              torpedo]``), ``bombs`` (``{X1: level}``), ``briefing`` (lines it includes)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.dif.campaign import LandState
from engine.dif.campaign_mission import GAME_SIDE, campaign_side
from engine.dif.carrier import CarrierState
from engine.dif.mission import MissionSetup
from engine.dif.setup import DifSetup

__all__ = ["check_campaign"]

_LAND = ("card", "target", "picks", "duration", "scores", "lost")
_CARRIER = ("turn", "phase", "queue", "recon", "damage", "recovered")


def check_campaign(system: Any, state: Any, expect: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for key, want in expect.items():
        if key in _LAND and isinstance(state, LandState):
            out += _land(system, state, key, want)
        elif key in _CARRIER and isinstance(state, CarrierState):
            out += _carrier(state, key, want)
        elif key == "drawn":
            out += _differ("drawn", _drawn(state), list(want))
        elif key == "plan":
            out += _plan(system, state, dict(want))
        else:
            out.append(f"unknown campaign expectation {key!r} for this campaign")
    return out


def _differ(what: str, got: object, want: object) -> list[str]:
    return [] if got == want else [f"{what}: expected {want!r}, got {got!r}"]


def _land(system: Any, state: LandState, key: str, want: Any) -> list[str]:
    if key == "card":
        return _differ("card", state.card.value if state.card else None, want)
    if key == "target":
        return _differ("target", state.target, want)
    if key == "picks":
        return _differ("picks", dict(state.picks), dict(want))
    if key == "duration":
        return _differ("duration", list(system.land.duration(state)), list(want))
    if key == "lost":
        return _differ("lost", list(state.lost), list(want))
    out: list[str] = []
    for number, fields in dict(want).items():
        if int(number) > len(state.scores):
            out.append(f"no Mission #{number} flown")
            continue
        score = state.scores[int(number) - 1].model_dump(mode="json")
        for name, value in dict(fields).items():
            got = score.get(name)
            out += _differ(f"#{number} {name}", list(got or ()) if name == "lost" else got, value)
    return out


def _carrier(state: CarrierState, key: str, want: Any) -> list[str]:
    if key == "queue":
        queue = [
            f"{g.kind} {g.side} {g.source}"
            + (f">{g.target}" if g.target else "")
            + (" simultaneous" if g.simultaneous else "")
            for g in state.queue
        ]
        return _differ("queue", queue, list(want))
    if key in ("recon", "damage"):
        got = getattr(state, key)
        return _differ(key, {k: got[k] for k in want if k in got}, dict(want))
    if key == "recovered":
        got = list(state.scores[-1].recovered) if state.scores else None
        return _differ("recovered", got, list(want))
    return _differ(key, getattr(state, key), want)


def _drawn(state: Any) -> list[str]:
    return [
        f"{d.seat} {d.name}" + ("" if d.kept else " (discarded)")
        for d in getattr(state, "drawn", ())
    ]


def _aircraft(setup: DifSetup, mission: MissionSetup) -> dict[str, list[str]]:
    """Each campaign side's aircraft: Leaders, Wingmen (``f4f/W``), bombers."""
    out: dict[str, list[str]] = {}
    for e in setup.elements:
        rows = out.setdefault(campaign_side(e.side), [])
        rows += [e.aircraft] + ([f"{e.aircraft}/W"] if e.wingman else [])
    for f in mission.formations:
        out.setdefault(campaign_side(f.side), []).extend(f.aircraft)
    return out


def _plan(system: Any, state: Any, want: Mapping[str, Any]) -> list[str]:
    plan = system.mission_setup(state)
    setup = plan.setup
    assert isinstance(setup, DifSetup) and setup.mission is not None
    mission = setup.mission
    out: list[str] = []
    for name, value in want.items():
        if name == "aircraft":
            sides = _aircraft(setup, mission)
            out += _differ("plan aircraft", {s: sides.get(s, []) for s in value}, dict(value))
        elif name == "attacker":
            out += _differ("plan attacker", mission.attacker is GAME_SIDE[str(value)], True)
        elif name == "kind":
            out += _differ("plan kind", mission.kind.value, value)
        elif name == "target":
            title = mission.target.name if mission.target else None
            out += _differ("plan target", bool(title and title.startswith(str(value))), True)
        elif name == "clouds":
            c = mission.clouds
            shown = [c.draw, c.result_shift, c.aa, c.torpedo] if c else None
            out += _differ("plan clouds", shown, value)
        elif name == "bombs":
            out += _differ("plan bombs", {k: v.value for k, v in mission.bombs.items()}, value)
        elif name == "briefing":
            missing = [line for line in value if line not in plan.briefing]
            out += _differ("plan briefing lacks", missing, [])
        else:
            out += _differ(f"plan {name}", getattr(mission, name), value)
    return out
