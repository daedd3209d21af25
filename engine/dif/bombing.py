"""A Zero! campaign mission played as a Down in Flames game (§15.2, §17.15, §18, §21-§23).

A game whose setup carries a :class:`~engine.dif.mission.MissionSetup` keeps its own
state in ``GameState.mission`` (plain JSON, see :func:`start`) and adds to the basic
game's player-turn (§15.2): the Jettison Bombs step before the Wingman Attack, the
Bombing and Strafing phase after Adjust Altitude on the Bomb Turn, with its
Anti-Aircraft Fire (§22.2); the declarations to Abandon before the Ingress Turn
(§23.51); Discretionary Fire at the end of the Ingress and Egress Turns (§22.1); the
Turns of Return Home (§23.7); the Load Penalty (§17.15); the mission's VP (§24.61);
the Clouds Over the Target option (L1881).

Formations of bombers (§17.2) fly in ``GameState.mission["formations"]``, never as
elements: they have no player-turn; they take Discretionary Fire, and bomb and take
Anti-Aircraft Fire at the end of the Bomb Turn (§23.63). A NOT Assigned leader, or the
wingman of one in its Wingman Attack step (``wm X3B1``, a mini-hand of Offensive +
Defensive cards, no Burst limit, §20.13, §20.21), chooses a bomber with Maneuvering or
Half Loop (§20.32) and attacks it with In My Sights or Out of the Sun; the formation's
seat answers from the bomber's defensive mini-hand (§20.41-§20.54), its Ace Crew twice
a mission with a Rejected Attack (§19.35 AC). A friendly NOT Assigned leader may answer
a Maneuvering or Half Loop at a NOT Assigned light bomber (§17.13b). With the optional
Angle of Attack an element declares ``angle frontal|beam|rear`` before attacking a
formation (§20.31). The numbers of attacking bombers are in :mod:`engine.dif.formation`.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core.contract import AircraftFate, Decision, Fate
from engine.core.errors import SetupError
from engine.core.events import Event
from engine.dif import tables
from engine.dif.actions import ANGLES, COUNTER, Action, quoted
from engine.dif.base import Pending
from engine.dif.campaign_cards import Role
from engine.dif.campaign_data import AircraftClass, load_bombing_chart
from engine.dif.campaign_targets import BombingChart, BombingMode, TargetRatings
from engine.dif.components import (
    BURST_KINDS,
    Aircraft,
    Altitude,
    BombResult,
    CardKind,
    PilotSkill,
    Ruleset,
    Side,
)
from engine.dif.formation import (
    Angle,
    Supporter,
    answer,
    attack_refusal,
    award_vp,
    bomber_response_refusal,
    choice_bonus,
    defence_cards,
    formation_speed,
    leader_bursts,
    saturation_cards,
    wingman_minihand,
)
from engine.dif.legality import Refuser, Why
from engine.dif.mission import Clouds, CrewSkill, FormationSetup, MissionKind, MissionSetup
from engine.dif.resolution import Resolution
from engine.dif.state import Element, Exchange, FollowOffer, GameState, Plane
from engine.dif.texts import fixed, join
from engine.dif.view import BomberView, FormationView, MissionView
from strings import Term

__all__ = ["MISSION_STEPS", "MissionRules", "phase", "start"]

MISSION_STEPS = ("abandon", "jettison", "bomb", "strafe", "aa")
"""The decisions a mission adds: declare Abandon (§23.51), Jettison Bombs (§15.2),
bomb (§21, §23.61), strafe (§21.7) and respond to Anti-Aircraft Fire (§22.25)."""

_VERBS = {
    "abandon": ("abandon", "continue"),
    "jettison": ("jettison", "keep"),
    "bomb": ("bomb", "hold"),
    "strafe": ("strafe", "hold"),
    "aa": ("respond", "pass"),
}
_CHOICE_KINDS = (CardKind.MAN.value, CardKind.HAL.value)
"""The kinds of card whose effect on a bomber its formation's side chooses (§20.32a)."""

_LOADED_BANNED = frozenset({CardKind.MAN, CardKind.HAL, CardKind.SCI, CardKind.FUT})
"""Cards a Loaded leader or wingman may not play (§17.15)."""
_DROPS = (BombingMode.LEVEL, BombingMode.DIVE, BombingMode.TORPEDO, BombingMode.SATURATION)
_OVER = ("ingress", "bomb", "egress")
_RANK = (BombResult.MISS, BombResult.HIT, BombResult.DIRECT, BombResult.VITAL)
_BLUE = frozenset({CardKind.TIT, CardKind.BAR, CardKind.ACE})
"""The blue-bordered (Response) cards of the deck (§2.2 L26-30): the red ones are
Attacks, the white ones (SCI, VER, FUT) either."""
_PHASE_KEYS = {
    "arrival": "dif.mission.phase.arrival",
    "ingress": "dif.mission.phase.ingress",
    "bomb": "dif.mission.phase.bomb",
    "egress": "dif.mission.phase.egress",
    "home": "dif.mission.phase.home",
    "dogfight": "dif.mission.phase.dogfight",
}
"""The name of each mission phase (:func:`phase`)."""
ACE_CREW_USES = 2
"""An Ace Crew's Ace Ability counters, each a Rejected Attack on a counter-attack
card (§19.35 AC)."""
_LIGHT_BOMBERS = frozenset({Role.LIGHT_BOMBER.value, Role.TORPEDO_BOMBER.value})
"""The roles a friendly leader helps defend (§17.13b; torpedo bombers are light
bombers, §17.14)."""
_ANGLE_KEYS = {
    "frontal": "dif.mission.angle.frontal",
    "beam": "dif.mission.angle.beam",
    "rear": "dif.mission.angle.rear",
}
"""The name of each Angle of Attack (§20.31)."""
ELEMENT_SPEED = 6
"""Fighters and Light Bombers count Speed 6 for the mission's duration (§23.24)."""


def phase(m: dict[str, Any], turn: int) -> str:
    """The mission phase of a game turn (§23.1): ``arrival``, ``ingress``, ``bomb``,
    ``egress``, ``home``; ``dogfight`` for a dogfight-kind mission."""
    if m["kind"] == MissionKind.DOGFIGHT.value:
        return "dogfight"
    past = turn - m["arrival"]
    if past <= 0:
        return "arrival"
    return ("ingress", "bomb", "egress")[past - 1] if past <= 3 else "home"


def start(mission: MissionSetup, elements: dict[str, Element]) -> dict[str, Any]:
    """A mission's state at the start: who carries bombs (§18.21), the target's Damage
    (§25.81), the formations' bombers (§17.22), each aircraft's record for the
    campaign (mission.RECORD_KEYS): bombers never Abandon, they fly Over the Target."""
    loaded: dict[str, str] = {}
    for seat, mode in mission.bombs.items():
        e = elements[seat]
        for p in (e.leader, e.wingman):
            if p is not None:
                loaded[p.ref] = mode.value
    return {
        "setup": mission.model_dump(mode="json"),
        "kind": mission.kind.value,
        "attacker": mission.attacker.value,
        "arrival": mission.arrival,
        "home": mission.home,
        "loaded": loaded,
        "away": [],
        "declare": None,
        "damage": mission.target_damage,
        "records": {
            p.ref: {"over_target": False, "bombed": False, "damage_dealt": 0}
            for e in elements.values()
            for p in (e.leader, e.wingman)
            if p is not None
        }
        | {
            f"{f.seat}B{i}": {"over_target": True, "bombed": False, "damage_dealt": 0}
            for f in mission.formations
            for i in range(1, len(f.aircraft) + 1)
        },
        "formations": {f.seat: _formation(f) for f in mission.formations},
        "acted": [],
        "queue": [],
        "after": None,
        "aa": None,
        "bombed_leader": False,
        "clouds": None,
        "ace_crew": {},
        "helping": None,
        "angle": None,
    }


def _formation(f: FormationSetup) -> dict[str, Any]:
    """A formation's state: its bombers by ref (``X3B1``), their hits, Damaged side,
    status and the formation each belongs to now (its seat; a Damaged bomber's own
    ref once it left the formation, §17.28)."""
    return {
        "side": f.side.value,
        "altitude": int(f.altitude),
        "mode": f.mode.value if f.mode is not None else None,
        "bombers": [
            {
                "ref": f"{f.seat}B{i}",
                "aircraft": ac,
                "hits": 0,
                "damaged": False,
                "status": "flying",
                "group": f.seat,
            }
            for i, ac in enumerate(f.aircraft, start=1)
        ],
    }


def duration(mission: MissionSetup) -> int:
    """The game turns a mission lasts: a dogfight's ``turns``, else Arrival, the three
    Turns Over the Target and Return Home (§23.1, §23.22)."""
    if mission.kind is MissionKind.DOGFIGHT:
        assert mission.turns is not None
        return mission.turns
    return mission.arrival + 3 + mission.home


class MissionRules(Resolution):
    """The campaign mission's rules over the basic game's (Zero! §15-§23)."""

    _chart: BombingChart | None = None

    @property
    def chart(self) -> BombingChart:
        """The Bombing Chart (loaded once, on the first mission)."""
        if MissionRules._chart is None:
            MissionRules._chart = load_bombing_chart()
        return MissionRules._chart

    # -- setup ----------------------------------------------------------------------
    def mission_refusal(
        self, ruleset: Ruleset, mission: MissionSetup, seats: set[str]
    ) -> Term | None:
        """Why this mission cannot be played: only in Zero! (§15), formations
        that may fly (§17.22), bombs on elements of the attacker that can drop them
        (§18.11, §21.21)."""
        if ruleset is not Ruleset.ZERO:
            return Term("dif.mission.setup.not_zero")
        for f in mission.formations:
            why = self._formation_refusal(mission, f, seats)
            if why is not None:
                return why
        for seat, mode in mission.bombs.items():
            if seat not in seats:
                return Term("dif.mission.setup.no_seat", seat=seat)
            if mode is BombingMode.TORPEDO and (mission.target is None or not mission.target.naval):
                return Term("dif.mission.setup.torpedo", seat=seat)
        return None

    def _formation_refusal(
        self, mission: MissionSetup, f: FormationSetup, seats: set[str]
    ) -> Term | None:
        """A formation flies aircraft in formation (§17.22e) of one type (§17.22c), no
        more than its Formation size, at an altitude its mode may bomb from (Bombing
        Chart); only the attacker's bombers carry bombs, a torpedo only against a
        Naval Target (§21.52)."""
        if f.seat in seats:
            return Term("dif.setup.shared_seat")
        types = set()
        for ref in f.aircraft:
            ac = self.aircraft.get(ref)
            if ac is None:
                return Term("dif.refuse.unknown_aircraft", aircraft=quoted(ref))
            if ac.formation is None or ac.formation_size is None:
                return Term("dif.mission.setup.not_in_formation", aircraft=ac.name)
            if len(f.aircraft) > ac.formation_size:
                return Term(
                    "dif.mission.setup.formation_size", aircraft=ac.name, n=ac.formation_size
                )
            types.add(ac.type_name)
        if len(types) > 1:
            return Term("dif.mission.setup.mixed_formation", seat=f.seat)
        if f.mode is not None:
            ac = self.aircraft[f.aircraft[0]]
            if f.side is not mission.attacker:
                return Term("dif.mission.setup.defender_bombs", seat=f.seat)
            if ac.bombing is None or f.mode.value not in {m.value for m in ac.bombing.modes}:
                return Term("dif.mission.setup.cannot_bomb", aircraft=ac.name, mode=f.mode.value)
            if f.mode is BombingMode.TORPEDO and (
                mission.target is None or not mission.target.naval
            ):
                return Term("dif.mission.setup.torpedo", seat=f.seat)
        if self.chart.rule(f.mode or BombingMode.NONE).row(f.altitude) is None:
            return Term(
                "dif.mission.setup.formation_altitude", seat=f.seat, altitude=f.altitude.label
            )
        return None

    def _bomb_modes_refusal(
        self, mission: MissionSetup, elements: dict[str, Element]
    ) -> Term | None:
        for seat, mode in mission.bombs.items():
            e = elements[seat]
            ac = self._ac(e)
            if e.side != mission.attacker.value:
                return Term("dif.mission.setup.defender_bombs", seat=seat)
            if ac.bombing is None or mode.value not in {m.value for m in ac.bombing.modes}:
                return Term("dif.mission.setup.cannot_bomb", aircraft=ac.name, mode=mode.value)
        return None

    def _start_mission(self, state: GameState, mission: MissionSetup) -> None:
        why = self._bomb_modes_refusal(mission, state.elements)
        if why is not None:
            raise SetupError(why)
        for seat, pilot in mission.pilots.items():
            e = state.elements.get(seat)
            if e is None or e.leader is None:
                raise SetupError(Term("dif.mission.setup.no_seat", seat=seat))
            # §19.25: A, BV, CV, D, G, H, P are the dogfight's skills; BM and S are
            # read when the aircraft bombs or strafes (mission["setup"]).
            for skill in pilot.skills:
                if skill in ("BM", "S"):
                    continue
                value = PilotSkill.parse(skill).value
                if value not in e.leader.pilot:
                    e.leader.pilot.append(value)
            e.cv = e.cv or PilotSkill.CV.value in e.leader.pilot
        state.mission = start(mission, state.elements)
        state.max_turns = duration(mission)
        state.aircraft_at_start += sum(len(f.aircraft) for f in mission.formations)

    def _setup_of(self, s: GameState) -> MissionSetup:
        assert s.mission is not None
        return MissionSetup.model_validate(s.mission["setup"])

    def _target(self, s: GameState) -> TargetRatings | None:
        return self._setup_of(s).target

    # -- queries --------------------------------------------------------------------
    def _phase(self, s: GameState) -> str:
        assert s.mission is not None
        return phase(s.mission, s.turn)

    def _over_target(self, s: GameState, seat: str) -> bool:
        """The element flies Over the Target this turn (did not Abandon, §23.5)."""
        m = s.mission
        return m is not None and self._phase(s) in _OVER and seat not in m["away"]

    def _origin(self, e: Element, p: Plane) -> str:
        """The ref ``p`` started the game with (a promoted wingman stays ``W``)."""
        if "-lost" in p.ref:
            return f"{e.seat}L"
        return f"{e.seat}W" if p.promoted else p.ref

    def _loaded(self, s: GameState, e: Element, p: Plane | None) -> str | None:
        """The bombs' mode the aircraft still carries (§18.21), or None."""
        if s.mission is None or p is None:
            return None
        mode: str | None = s.mission["loaded"].get(self._origin(e, p))
        return mode

    def _by_origin(self, s: GameState, ref: str) -> Plane | None:
        e = s.elements[ref[:-1]]
        for p in (e.leader, e.wingman):
            if p is not None and p.flying and self._origin(e, p) == ref:
                return p
        return None

    def _bombers(self, s: GameState, side: str | None = None) -> list[dict[str, Any]]:
        """The flying bombers (of ``side``), formation by formation (§17.22)."""
        m = s.mission
        if m is None:
            return []
        return [
            b
            for f in m.get("formations", {}).values()
            if side is None or f["side"] == side
            for b in f["bombers"]
            if b["status"] == "flying"
        ]

    def _bombers_all(self, s: GameState) -> list[dict[str, Any]]:
        """Every bomber of the mission's formations, destroyed ones too."""
        m = s.mission
        if m is None:
            return []
        return [b for f in m.get("formations", {}).values() for b in f["bombers"]]

    def _flies(self, s: GameState, side: str) -> bool:
        """The side has an element in the fight or a bomber flying (§4.91, §23.1)."""
        return any(e.in_fight for e in s.elements.values() if e.side == side) or bool(
            self._bombers(s, side)
        )

    def _unopposed(self, s: GameState) -> bool:
        """Every defending aircraft is out of the fight (§23.7 note)."""
        assert s.mission is not None
        return not self._flies(s, Side(s.mission["attacker"]).other.value)

    def _side_out(self, s: GameState) -> bool:
        m = s.mission
        if m is None:
            return super()._side_out(s)
        if m["kind"] == MissionKind.DOGFIGHT.value:
            return not all(self._flies(s, side.value) for side in Side)
        if not self._flies(s, m["attacker"]):
            return True
        # §23.7 note: with no defender left the attackers still fly to the Bomb Turn;
        # the Egress is skipped and Return Home has nobody to fight: the game ends.
        return self._unopposed(s) and phase(m, s.turn) in ("egress", "home")

    # -- the flow of a mission ------------------------------------------------------
    def pending(self, state: GameState) -> list[Decision]:
        m = state.mission
        if m is None or state.step not in MISSION_STEPS or state.follow is not None:
            return super().pending(state)
        if state.step == "abandon":
            return [Pending(m["declare"][0], "abandon")]
        if state.step == "aa":
            return [Pending(m["aa"]["ref"][:-1], "aa")]
        assert state.active is not None
        return [Pending(state.active, state.step)]

    def _start_turn(self, s: GameState, ev: list[Event]) -> None:
        m = s.mission
        if (
            m is not None
            and phase(m, s.turn) == "ingress"
            and m["declare"] is None
            and self._ask_abandon(s, ev)
        ):
            return
        super()._start_turn(s, ev)
        if m is None or s.step not in ("wingman", "altitude"):
            return
        m["bombed_leader"] = False
        m["angle"] = None  # §20.31: declared anew each player-turn
        e = s.elements[s.order[s.index]]
        if any(self._loaded(s, e, p) for p in (e.leader, e.wingman)):
            s.step = "jettison"  # §15.2: Jettison Bombs, before the Wingman Attack

    def _ask_abandon(self, s: GameState, ev: list[Event]) -> bool:
        """§23.51: before the Ingress Turn each element declares whether it Abandons,
        the defending side first; False when no element is left to declare."""
        assert s.mission is not None
        attacker = s.mission["attacker"]
        live = [e.seat for e in s.elements.values() if e.in_fight]
        defence = [seat for seat in live if s.elements[seat].side != attacker]
        s.mission["declare"] = defence + [seat for seat in live if seat not in defence]
        if not live:
            self._draw_clouds(s, ev)  # bombers alone: they never Abandon (§23.5)
            return False
        ev.append(Event("mission", Term("dif.mission.event.declare")))
        s.step = "abandon"
        return True

    def _do_abandon(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        m = s.mission
        assert m is not None
        m["declare"].pop(0)
        if a.verb == "abandon":
            m["away"].append(e.seat)
            ev.append(
                Event("mission", Term("dif.mission.event.abandons", element=self._el_label(s, e)))
            )
        else:
            ev.append(
                Event("mission", Term("dif.mission.event.continues", element=self._el_label(s, e)))
            )
            for p in (e.leader, e.wingman):
                if p is not None and p.flying:
                    m["records"][self._origin(e, p)]["over_target"] = True
        if not m["declare"]:
            s.step = "play"
            self._draw_clouds(s, ev)
            self._start_turn(s, ev)

    def _draw_clouds(self, s: GameState, ev: list[Event]) -> None:
        """Clouds Over the Target (§24.53 example, L1881): at the start of the Ingress
        Turn, after the Abandon declarations (§23.51 "before beginning"), ``draw``
        cards face up; a blue-bordered one (a Response card, §2.2) brings the clouds.
        White cards (Scissors, Vertical Roll, Full Throttle) are no blue ones."""
        m = s.mission
        assert m is not None
        clouds = self._setup_of(s).clouds
        if clouds is None:
            return
        drawn = self._draw_cards(s, clouds.draw, ev)
        m["clouds"] = any(self.kind[c] in _BLUE for c in drawn)
        key = "dif.mission.event.clouds" if m["clouds"] else "dif.mission.event.no_clouds"
        cards = join([self.label[c] for c in drawn]) if drawn else "-"
        ev.append(Event("mission", Term(key, cards=cards), data={"clouds": m["clouds"]}))
        self._discard(s, drawn)

    def _clouds(self, s: GameState, mode: BombingMode) -> Clouds | None:
        """The clouds over the target when they change this mode's bombing and its
        Anti-Aircraft Fire: never a Torpedo attack's unless the option says so."""
        m = s.mission
        clouds = self._setup_of(s).clouds
        if m is None or clouds is None or not m.get("clouds"):
            return None
        if mode is BombingMode.TORPEDO and not clouds.torpedo:
            return None
        return clouds

    def _do_jettison(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "jettison":
            loaded = [p for p in (e.leader, e.wingman) if p is not None and self._loaded(s, e, p)]
            self._jettison(s, e, loaded, ev)
        self._to_wingman_step(s, e)

    def _jettison(self, s: GameState, e: Element, planes: list[Plane], ev: list[Event]) -> None:
        assert s.mission is not None
        for p in planes:
            s.mission["loaded"].pop(self._origin(e, p), None)
            ev.append(
                Event(
                    "mission", Term("dif.mission.event.jettison", plane=self._plane_label(s, p.ref))
                )
            )

    def _hit(self, s: GameState, p: Plane, hits: int, ev: list[Event]) -> None:
        if hits > 0:
            p = s.own(p)  # read after the hit: the plane as changed
        was = p.damaged
        super()._hit(s, p, hits, ev)
        if s.mission is not None and p.damaged and not was and p.flying:
            e = s.elements[p.ref[:-1]]
            if self._loaded(s, e, p):
                self._jettison(s, e, [p], ev)  # §18.22: a Damaged fighter jettisons

    def _game_turn_ends(self, s: GameState, ev: list[Event]) -> bool:
        m = s.mission
        if m is None:
            return True
        m["acted"] = []
        now = phase(m, s.turn)
        if now in ("ingress", "egress"):
            self._discretionary_fire(s, ev)
        if now == "bomb":
            self._formations_bomb(s, ev)
        if now == "egress":
            self._recompute_home(s, ev)
        if phase(m, s.turn + 1) == "ingress" and not any(e.in_fight for e in s.elements.values()):
            self._ask_abandon(s, ev)  # nobody declares: the clouds are drawn now
        return True

    def _discretionary_fire(self, s: GameState, ev: list[Event]) -> None:
        """§22.1: at the end of the Ingress and Egress Turns, the target's Discretionary
        Fire draws its rating against every aircraft Over the Target; only In My Sights
        and Out of the Sun cards do damage; no response (§22.14)."""
        target = self._target(s)
        if target is None:
            return
        for e in list(s.elements.values()):
            if not self._over_target(s, e.seat):
                continue
            for p in (e.leader, e.wingman):
                if p is not None and p.flying:
                    fire = self._draw_cards(s, target.discretionary, ev)
                    ev.append(self._fire_event(s, p, fire, "dif.mission.event.discretionary"))
                    self._fire_damage(s, p, fire, None, ev)
                    self._discard(s, fire)
        for b in self._bombers(s):
            fire = self._draw_cards(s, target.discretionary, ev)
            ev.append(
                self._fire_text(
                    b["ref"], self._bomber_label(b), fire, "dif.mission.event.discretionary"
                )
            )
            self._bomber_fire(s, b, fire, ev)
            self._discard(s, fire)

    def _recompute_home(self, s: GameState, ev: list[Event]) -> None:
        """§23.7: the Turns of Return Home from the base number less the slowest
        attacking aircraft left (fighters and light bombers count 6, §23.24)."""
        mission = self._setup_of(s)
        if mission.home_base is None:
            return
        assert s.mission is not None
        left = [
            self._ac(p)
            for e in s.elements.values()
            if e.side == mission.attacker.value
            for p in (e.leader, e.wingman)
            if p is not None and p.flying
        ] + [self.aircraft[b["aircraft"]] for b in self._bombers(s, mission.attacker.value)]
        home = max(0, mission.home_base - (formation_speed(left) or ELEMENT_SPEED))
        s.mission["home"] = home
        s.max_turns = s.mission["arrival"] + 3 + home
        ev.append(Event("mission", Term("dif.mission.event.home", n=home)))

    # -- the Bombing and Strafing phase (§21, §22.2, §23.6) -------------------------
    def _do_altitude_step(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        super()._do_altitude_step(s, e, a, ev)
        if s.mission is not None and self._phase(s) == "bomb" and self._over_target(s, e.seat):
            s.step = "bomb"

    def _fliers(self, s: GameState, e: Element) -> list[Plane]:
        """The element's aircraft that may bomb or strafe: a wingman that made the
        Wingman Attack this turn may not (§23.62)."""
        out = []
        if e.leader is not None and e.leader.flying:
            out.append(e.leader)
        if e.wingman is not None and e.wingman.flying and s.t.wm_target is None:
            out.append(e.wingman)
        return out

    def _do_bomb(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        m = s.mission
        assert m is not None
        queue: list[dict[str, Any]] = []
        bombers = (
            [p for p in self._fliers(s, e) if self._loaded(s, e, p)] if a.verb == "bomb" else []
        )
        if bombers:
            mode = BombingMode(self._loaded(s, e, bombers[0]) or "")
            if mode is BombingMode.DIVE:
                e.altitude = (e.altitude or 0) - 1  # §21.42: Dive Brakes, no card
                ev.append(
                    Event(
                        "altitude",
                        Term(
                            "dif.mission.event.dive",
                            element=self._el_label(s, e),
                            altitude=Altitude(e.altitude).label,
                        ),
                    )
                )
            self._neutral(s, e, ev)
            m["bombed_leader"] = any(p.role == "leader" for p in bombers)
        for p in (e.leader, e.wingman):
            if p is not None and p.flying:
                mode_p = self._loaded(s, e, p) if p in bombers else BombingMode.NONE.value
                queue.append({"ref": self._origin(e, p), "mode": mode_p})
                if p in bombers:
                    m["loaded"].pop(self._origin(e, p), None)
                    m["acted"].append(self._origin(e, p))
        m["queue"], m["after"] = queue, "strafe"
        self._next_fire(s, ev)

    def _neutral(self, s: GameState, e: Element, ev: list[Event]) -> None:
        """§23.65: a Leader who bombs or strafes on the Bomb Turn goes Neutral."""
        for o in self._enemy_seats(s, e):
            if self.pos(s, e.seat, o) > 0:
                self._set_pos(s, e.seat, o, 0)
                ev.append(
                    Event(
                        "position",
                        Term(
                            "dif.mission.event.neutral",
                            element=self._el_label(s, e),
                            other=self._el_label(s, s.elements[o]),
                        ),
                    )
                )

    def _do_strafe(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        m = s.mission
        assert m is not None
        if a.verb == "hold":
            self._after_bombing(s, e, ev)
            return
        self._neutral(s, e, ev)
        m["queue"] = [
            {"ref": self._origin(e, p), "mode": BombingMode.STRAFING.value}
            for p in self._fliers(s, e)
        ]
        m["acted"].extend(q["ref"] for q in m["queue"])
        m["after"] = "play"
        self._next_fire(s, ev)

    def _next_fire(self, s: GameState, ev: list[Event]) -> None:
        """Each aircraft in turn, the leader first (§22.22): its bomb (or strafing)
        cards, then the Anti-Aircraft Fire against it, which it may answer once."""
        m = s.mission
        assert m is not None
        target = self._target(s)
        assert target is not None
        while m["queue"]:
            q = m["queue"].pop(0)
            p = self._by_origin(s, q["ref"])
            if p is None:
                continue
            e = s.elements[p.ref[:-1]]
            mode = BombingMode(q["mode"])
            bombs = self._draw_cards(s, self._bomb_count(s, e, p, mode, target), ev)
            if bombs:
                ev.append(self._bombs_event(self._plane_label(s, p.ref), mode, bombs))
            n = self._aa_count(s, target, mode, Altitude(e.altitude or 0))
            fire = self._draw_cards(s, n, ev)
            ev.append(self._fire_event(s, p, fire, "dif.mission.event.aa"))
            q["bombs"], q["fire"] = bombs, fire
            s.in_play.extend(bombs + fire)  # face up until the fire is resolved
            if self._fire_answerable(s, e, p, fire, ev):
                m["aa"] = q
                s.step = "aa"
                return
            self._end_fire(s, e, p, q, None, ev)
        self._queue_done(s, ev)

    def _bomb_count(
        self, s: GameState, e: Element, p: Plane, mode: BombingMode, target: TargetRatings
    ) -> int:
        """Bomb cards (§21.32, §21.43-21.44, §21.55) or strafing cards (§21.73, one
        at least; a wingman uses its leader's bursts), +1 for a pilot's BM or S (§19.25)."""
        if mode is BombingMode.NONE:
            return 0
        ac = self._ac(p)
        alt = Altitude(e.altitude or 0)
        skills = self._mission_skills(s, e)
        if mode is BombingMode.STRAFING:
            bursts = self._leader_ratings(e).bursts if e.leader is not None else 0
            n = self.chart.bomb_cards(mode, alt, bursts=bursts)
            return n + ("S" in skills and p.role == "leader")
        n = self._factor_cards(ac, mode, alt, damaged=p.damaged, naval=target.naval)
        return n + ("BM" in skills and p.role == "leader" and n > 0)

    def _factor_cards(
        self, ac: Aircraft, mode: BombingMode, alt: Altitude, *, damaged: bool, naval: bool
    ) -> int:
        """Bomb Cards from the Bombing Factor of the card's side it shows (§17.27,
        §21.32) by the Bombing Chart."""
        assert ac.bombing is not None
        side = ac.bombing.damaged if damaged else ac.bombing.undamaged
        factor = getattr(side, mode.value, None) or 0
        return self.chart.bomb_cards(mode, alt, factor=factor, naval=naval)

    def _aa_count(
        self, s: GameState, target: TargetRatings, mode: BombingMode, alt: Altitude
    ) -> int:
        """Anti-Aircraft cards against one aircraft (§22.23): the target's rating and
        the clouds' change by the Bombing Chart's row for its mode and altitude."""
        clouds = self._clouds(s, mode)
        aa = target.aa + (clouds.aa if clouds is not None else 0)
        return self.chart.aa_cards(aa, mode, alt)

    def _bombs_event(self, label: str, mode: BombingMode, bombs: list[int]) -> Event:
        """The Bomb (or Strafing) Cards an aircraft drew, for the narration."""
        key = (
            "dif.mission.event.strafes"
            if mode is BombingMode.STRAFING
            else "dif.mission.event.bombs"
        )
        return Event("bombs", Term(key, plane=label, cards=join([self.label[c] for c in bombs])))

    def _mission_skills(self, s: GameState, e: Element) -> tuple[str, ...]:
        pilot = self._setup_of(s).pilots.get(e.seat)
        return pilot.skills if pilot is not None else ()

    def _fire_answerable(
        self, s: GameState, e: Element, p: Plane, fire: list[int], ev: list[Event]
    ) -> bool:
        """Whether the aircraft may answer this fire (§22.25-22.26): a leader from its
        hand, a wingman from the defensive mini-hand it draws now."""
        if not any(self.kind[c] in BURST_KINDS for c in fire):
            return False
        if p.role == "wingman":
            self._draw_defence(s, e, ev)
            source = e.defence
        else:
            source = e.hand
        return any(self._fire_response(s, e, p, c, fire) is None for c in source)

    def _fire_response(
        self, s: GameState, e: Element, p: Plane, card: int, fire: list[int]
    ) -> Why | None:
        kind = self.kind[card]
        if self._loaded(s, e, p) and kind in _LOADED_BANNED:
            return Why("dif.mission.refuse.loaded_card", card=kind.label)
        answers = self.cards[card].type.responds_to
        if not any(self.kind[c] in BURST_KINDS and self.kind[c] in answers for c in fire):
            return Why("dif.mission.refuse.aa_response", card=kind.label)
        return None

    def _do_aa(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        m = s.mission
        assert m is not None
        q = m["aa"]
        m["aa"] = None
        p = self._by_origin(s, q["ref"])
        assert p is not None
        answer = None
        if a.verb == "respond":
            source = e.defence if p.role == "wingman" else e.hand
            answer = self._find(source, a.card or "")
            assert answer is not None
            source.remove(answer)
            self._discard(s, [answer])
            ev.append(
                Event(
                    "respond",
                    Term(
                        "dif.event.responds",
                        plane=self._plane_label(s, p.ref),
                        card=self.label[answer],
                    ),
                )
            )
        self._end_fire(s, e, p, q, answer, ev)
        self._next_fire(s, ev)

    def _end_fire(
        self,
        s: GameState,
        e: Element,
        p: Plane,
        q: dict[str, Any],
        answer: int | None,
        ev: list[Event],
    ) -> None:
        """§21.14: the fire's damage, then the bombs' (or strafing's) results not
        negated by its Rejected Attack symbols (§22.23)."""
        fire, bombs = q["fire"], q["bombs"]
        self._discard_defences(s, e, ev)
        p = self._fire_damage(s, p, fire, answer, ev)
        if bombs:
            spoiled = sum(1 for c in fire if self.cards[c].spoiled_attack)
            label = self._plane_label(s, p.ref)
            self._score(s, label, q["ref"], BombingMode(q["mode"]), bombs, spoiled, ev)
        for c in fire + bombs:
            s.in_play.remove(c)
        self._discard(s, fire + bombs)

    def _fire_damage(
        self, s: GameState, p: Plane, fire: list[int], answer: int | None, ev: list[Event]
    ) -> Plane:
        """In My Sights and Out of the Sun cards damage the aircraft (§22.13, §22.23);
        a response negates the worst one it answers (docs/rules-decisions.md).
        Returns the plane as the fire left it (the state's own copy once hit:
        :meth:`GameState.own`)."""
        hits = [c for c in fire if self.kind[c] in BURST_KINDS]
        if answer is not None:
            answers = self.cards[answer].type.responds_to
            can = [c for c in hits if self.kind[c] in answers]
            worst = max(
                can, key=lambda c: (self.cards[c].type.fuel_tank, self.cards[c].type.damage)
            )
            hits.remove(worst)
        if hits:
            p = s.own(p)  # read after each card: the plane as changed
        for c in hits:
            if not p.flying:
                return p
            if self.cards[c].type.fuel_tank:
                ev.append(
                    Event("damage", Term("dif.event.fuel_tank", plane=self._plane_label(s, p.ref)))
                )
                self._destroy(s, p, ev)
            else:
                self._hit(s, p, self.cards[c].type.damage, ev)
        return p

    def _score(
        self,
        s: GameState,
        label: str | Term,
        ref: str,
        mode: BombingMode,
        bombs: list[int],
        spoiled: int,
        ev: list[Event],
    ) -> None:
        """Each Rejected Attack negates the best bombing card (§22.23); the rest score
        the target's Damage (§21.83), twice for a torpedo (§21.55), plus the Loaded
        Flight Deck's extra per damaging bomb result. Clouds Over the Target lower
        each bombing (not strafing) result (L1881)."""
        m = s.mission
        assert m is not None
        mission = self._setup_of(s)
        target = mission.target
        assert target is not None
        clouds = self._clouds(s, mode) if mode in _DROPS else None
        shift = clouds.result_shift if clouds is not None else 0
        results = sorted(
            (
                _lower(self.chart.result(mode, self.cards[c], naval=target.naval), shift)
                for c in bombs
            ),
            key=_RANK.index,
            reverse=True,
        )
        kept = results[spoiled:]
        points = 0
        # §23.64: a Patrol Mission drops nothing; its success is found as for bombing
        # (the same cards, fire and Target Sheet), so its "Damage" is the success.
        drops = mode in _DROPS and not mission.patrol
        for r in kept:
            scored = target.damage.points(r, torpedo=mode is BombingMode.TORPEDO)
            if scored and drops:
                scored += mission.extra_damage
            points += scored
        m["damage"] += points
        record = m["records"][ref]
        record["damage_dealt"] += points
        if drops:
            record["bombed"] = True
        ev.append(
            Event(
                "bombing",
                Term(
                    "dif.mission.event.patrolled" if mission.patrol else "dif.mission.event.scored",
                    plane=label,
                    results=join([r.value for r in results]),
                    spoiled=spoiled,
                    n=points,
                    total=m["damage"],
                ),
                data={"ref": ref, "damage": points, "target_damage": m["damage"]},
            )
        )

    def _queue_done(self, s: GameState, ev: list[Event]) -> None:
        m = s.mission
        assert m is not None
        e = s.elements[s.order[s.index]]
        if m["after"] == "strafe" and self._may_strafe(s, e) is None:
            s.step = "strafe"
            return
        self._after_bombing(s, e, ev)

    def _after_bombing(self, s: GameState, e: Element, ev: list[Event]) -> None:
        """§23.62: a leader who bombed skips Play Cards, but discards and draws."""
        assert s.mission is not None
        if not e.in_fight:
            self._end_turn(s, ev)
            return
        s.step = "discard" if s.mission["bombed_leader"] else "play"

    def _may_strafe(self, s: GameState, e: Element) -> Why | None:
        """§21.71: the attacker's fighters and light bombers at Very Low, on the Bomb
        Turn, unless the target may not be strafed (a Carrier Fleet)."""
        assert s.mission is not None
        target = self._target(s)
        if target is None or not target.strafe:
            return Why("dif.mission.refuse.no_strafing")
        if e.side != s.mission["attacker"]:
            return Why("dif.mission.refuse.defender_strafes")
        if e.altitude != Altitude.VERY_LOW:
            return Why("dif.mission.refuse.strafe_altitude")
        if not self._fliers(s, e):
            return Why("dif.mission.refuse.no_strafer")
        return None

    def _drop_refusal(self, s: GameState, e: Element) -> Why | None:
        """Whether the element may drop its bombs now (§21.2, §21.41, §21.52-21.53)."""
        bombers = [p for p in self._fliers(s, e) if self._loaded(s, e, p)]
        if not bombers:
            return Why("dif.mission.refuse.not_loaded")
        mode = BombingMode(self._loaded(s, e, bombers[0]) or "")
        rule = self.chart.rule(mode)
        alt = Altitude(e.altitude or 0)
        if mode is BombingMode.DIVE:
            ok = any(r.start is alt for r in rule.rows)
        else:
            ok = rule.row(alt) is not None
        if not ok:
            return Why("dif.mission.refuse.bomb_altitude", mode=mode.value, altitude=alt.label)
        return None

    # -- formations of bombers (§17.2, §21.6, §22, §23.63) ---------------------------
    def _bomber_label(self, b: dict[str, Any]) -> str:
        return f"{self.aircraft[b['aircraft']].name} ({b['ref']})"

    def _crew(self, s: GameState, ref: str) -> tuple[str, ...]:
        """The skills of the bomber's Skilled Crew (§19.35), by its ref ``X3B1``."""
        f = next(f for f in self._setup_of(s).formations if f.seat == ref[:-2])
        crew = f.crews.get(int(ref[-1]) - 1)
        return crew.skills if crew is not None else ()

    def _bomber_capacity(self, s: GameState, b: dict[str, Any]) -> tuple[int, int]:
        """§17.27: the Damage Capacity of each side of the bomber's card, +1 each with
        a D crew (§19.35)."""
        ratings = self.aircraft[b["aircraft"]].formation
        assert ratings is not None
        d = int(CrewSkill.D.value in self._crew(s, b["ref"]))
        return ratings.undamaged.damage_capacity + d, ratings.damaged.damage_capacity + d

    def _hit_bomber(self, s: GameState, b: dict[str, Any], hits: int, ev: list[Event]) -> None:
        """Damage points on a bomber (5.21): flipped to its Damaged side it leaves its
        formation at once and flies alone (§17.28); destroyed past the Damaged side."""
        if hits <= 0:
            return
        b["hits"] += hits
        undamaged, damaged = self._bomber_capacity(s, b)
        label = self._bomber_label(b)
        ev.append(
            Event(
                "damage",
                Term("dif.event.damage.one", plane=label, total=b["hits"])
                if hits == 1
                else Term("dif.event.damage.other", plane=label, n=hits, total=b["hits"]),
                data={"ref": b["ref"], "hits": hits},
            )
        )
        if not b["damaged"] and b["hits"] >= undamaged:
            b["damaged"], b["group"] = True, b["ref"]
            ev.append(Event("damaged", Term("dif.event.damaged", plane=label)))
        if b["hits"] >= damaged:
            self._destroy_bomber(b, ev)

    def _destroy_bomber(self, b: dict[str, Any], ev: list[Event]) -> None:
        b["status"] = "destroyed"
        ev.append(
            Event(
                "destroyed",
                Term("dif.event.shot_down", plane=self._bomber_label(b)),
                data={"ref": b["ref"]},
            )
        )

    def _bomber_fire(
        self, s: GameState, b: dict[str, Any], fire: list[int], ev: list[Event], *, spared: int = 0
    ) -> None:
        """Discretionary or Anti-Aircraft Fire on a bomber: every In My Sights and Out
        of the Sun does its Damage (§22.13, §22.23), a Fuel Tank destroys it; no
        response (§22.14, §22.24). ``spared``: the first attacks ignored (NS, §19.35)."""
        for c in [c for c in fire if self.kind[c] in BURST_KINDS][spared:]:
            if b["status"] != "flying":
                return
            if self.cards[c].type.fuel_tank:
                ev.append(Event("damage", Term("dif.event.fuel_tank", plane=self._bomber_label(b))))
                self._destroy_bomber(b, ev)
            else:
                self._hit_bomber(s, b, self.cards[c].type.damage, ev)

    def _formations_bomb(self, s: GameState, ev: list[Event]) -> None:
        """§23.63, §17.31: after every other aircraft's Bomb Turn, each flying bomber
        draws its Bomb Cards, then the Anti-Aircraft Fire against it (§22.22), which it
        cannot answer (§22.24); its Damage is applied, then its results not negated by
        a Rejected Attack, even if it was destroyed (§21.14, §22.23)."""
        m = s.mission
        target = self._target(s)
        assert m is not None
        if target is None:
            return
        for f in m.get("formations", {}).values():
            mode = BombingMode(f["mode"] or BombingMode.NONE.value)
            alt = Altitude(f["altitude"])
            for b in f["bombers"]:
                if b["status"] == "flying":
                    self._bomber_run(s, b, mode, alt, target, ev)

    def _bomber_run(
        self,
        s: GameState,
        b: dict[str, Any],
        mode: BombingMode,
        alt: Altitude,
        target: TargetRatings,
        ev: list[Event],
    ) -> None:
        label = self._bomber_label(b)
        bombs = self._draw_cards(s, self._bomber_bomb_count(s, b, mode, alt, target), ev)
        if bombs:
            ev.append(self._bombs_event(label, mode, bombs))
        fire = self._draw_cards(s, self._aa_count(s, target, mode, alt), ev)
        ev.append(self._fire_text(b["ref"], label, fire, "dif.mission.event.aa"))
        # §19.35 NS: "spared the first Anti-Aircraft attack ... when they bomb".
        spared = int(bool(bombs) and CrewSkill.NS.value in self._crew(s, b["ref"]))
        self._bomber_fire(s, b, fire, ev, spared=spared)
        if bombs:
            spoiled = sum(1 for c in fire if self.cards[c].spoiled_attack)
            self._score(s, label, b["ref"], mode, bombs, spoiled, ev)
        self._discard(s, fire + bombs)

    def _bomber_bomb_count(
        self,
        s: GameState,
        b: dict[str, Any],
        mode: BombingMode,
        alt: Altitude,
        target: TargetRatings,
    ) -> int:
        """A bomber's Bomb Cards: the Saturation ones (§21.62, formation.saturation_cards),
        else its Bombing Factor (the Damaged side's once Damaged, §17.27) by the Bombing
        Chart (§21.32; a torpedo one card, §21.55), +1 with a BD crew (§19.35)."""
        if mode is BombingMode.NONE:
            return 0
        ac = self.aircraft[b["aircraft"]]
        crew = self._crew(s, b["ref"])
        if mode is BombingMode.SATURATION:
            return saturation_cards(
                self.chart, ac, damaged=b["damaged"], altitude=alt, naval=target.naval, crew=crew
            )
        n = self._factor_cards(ac, mode, alt, damaged=b["damaged"], naval=target.naval)
        return n + int(n > 0 and CrewSkill.BD.value in crew)

    def bomber_fates(self, state: GameState) -> list[AircraftFate]:
        """Every bomber's fate at the end, by its ref (``X3B1``), with its record."""
        m = state.mission
        out: list[AircraftFate] = []
        if m is None:
            return out
        for seat, f in m.get("formations", {}).items():
            for b in f["bombers"]:
                if b["status"] == "destroyed":
                    fate = Fate.SHOT_DOWN
                else:
                    fate = Fate.DAMAGED if b["damaged"] else Fate.UNHARMED
                out.append(
                    AircraftFate(
                        ref=b["ref"],
                        seat=seat,
                        side=f["side"],
                        aircraft=b["aircraft"],
                        fate=fate,
                        damaged=b["damaged"],
                        hits_taken=b["hits"],
                        record=self.mission_record(state, seat, b["ref"]),
                    )
                )
        return out

    # -- the optional Angle of Attack (§20.31) ---------------------------------------
    def angle_name(self, name: str) -> Term:
        """An Angle of Attack's name (§20.31): ``frontal``, ``beam`` or ``rear``."""
        return fixed(_ANGLE_KEYS[name])

    def _angle(self, s: GameState) -> Angle | None:
        """The active element's Angle of Attack this turn; None without the option or
        before it is declared (Beam: no change)."""
        m = s.mission
        if m is None or not m.get("angle") or not self._setup_of(s).angle_of_attack:
            return None
        return Angle(m["angle"])

    def _angles(self, s: GameState) -> list[Action]:
        """The declarations the option offers (§20.31), legal or not."""
        if not self._setup_of(s).angle_of_attack:
            return []
        return [Action.angle(name) for name in ANGLES]

    def _angle_refusal(self, s: GameState, e: Element) -> Why | None:
        """§20.31: declared once a player-turn, for the leader and its wingman alike,
        before either attacks a formation; by an element that may attack a bomber (NOT
        Assigned, one at its altitude)."""
        assert s.mission is not None
        if not self._setup_of(s).angle_of_attack:
            return Why("dif.mission.refuse.angle_option")
        if s.mission.get("angle"):
            angle = self.angle_name(s.mission["angle"])
            return Why("dif.mission.refuse.angle_declared", angle=angle)
        if (
            not self._bomber_targets(s, e)
            or self.engaged_with(s, e.seat) is not None
            or (e.seat in s.mission["away"] and self._phase(s) in _OVER)  # §23.53
        ):
            return Why("dif.mission.refuse.angle_no_bomber")
        return None

    def _fix_angle(self, s: GameState) -> None:
        """§20.31: an attack on a formation without a declaration is made at the Beam
        (no change); the angle then holds for the rest of the player-turn."""
        m = s.mission
        if m is not None and not m.get("angle") and self._setup_of(s).angle_of_attack:
            m["angle"] = Angle.BEAM.value

    def _do_angle(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        assert s.mission is not None and a.arg is not None
        s.mission["angle"] = a.arg
        angle = self.angle_name(a.arg)
        ev.append(
            Event(
                "angle",
                Term("dif.mission.event.angle", element=self._el_label(s, e), angle=angle),
                data={"seat": e.seat, "angle": a.arg},
            )
        )

    def _do_wingman(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "angle":
            self._do_angle(s, e, a, ev)
            return
        if self._bomber(s, a.target or "") is not None:
            self._fix_angle(s)
        super()._do_wingman(s, e, a, ev)

    def _do_play(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        if a.verb == "angle":
            self._do_angle(s, e, a, ev)
            return
        super()._do_play(s, e, a, ev)

    # -- friendly leaders help a light bomber (§17.13b) -----------------------------
    def _light_bomber_helpers(self, s: GameState, x: Exchange) -> list[str]:
        """§17.13b: against a Maneuvering or Half Loop at a NOT Assigned Light Bomber
        (a torpedo bomber too, §17.14), the seats of the friendly NOT Assigned leaders
        at its altitude, in the setup's order, that may answer once it passes; none
        against In My Sights / Out of the Sun or an Assigned light bomber."""
        target = self._plane(s, x.target)
        if x.kind not in (CardKind.MAN.value, CardKind.HAL.value) or target is None:
            return []
        o = s.elements[x.target[:-1]]
        if (
            target.role != "leader"
            or self._ac(o).role.value not in _LIGHT_BOMBERS
            or self.engaged_with(s, o.seat) is not None
        ):
            return []
        return [
            e.seat
            for e in s.elements.values()
            if e.seat != o.seat
            and e.side == o.side
            and e.leader is not None
            and e.leader.flying
            and e.altitude == o.altitude
            and self.engaged_with(s, e.seat) is None
            and self._same_fight(s, e.seat, o.seat)
        ]

    def _same_fight(self, s: GameState, a: str, b: str) -> bool:
        """§23.53: over the target, who Abandons fights only who Abandons."""
        m = s.mission
        if m is None or self._phase(s) not in _OVER:
            return True
        return (a in m["away"]) == (b in m["away"])

    def _helper(self, s: GameState) -> str | None:
        """The friendly leader answering for the light bomber now (§17.13b), if any."""
        help_ = s.mission.get("helping") if s.mission is not None else None
        return help_["seats"][help_["at"]] if help_ and help_["at"] >= 0 else None

    def _do_respond(self, s: GameState, e: Element, a: Action, ev: list[Event]) -> None:
        """§17.13b: when the light bomber (or a helper) passes, the next friendly NOT
        Assigned leader may answer for it; after any answer the next defender's turn
        starts again with the light bomber."""
        x = s.exchange
        help_ = s.mission.get("helping") if s.mission is not None else None
        if help_ is None or x is None or not x.defender_to_move:
            super()._do_respond(s, e, a, ev)
            return
        if a.verb == "pass" and help_["at"] + 1 < len(help_["seats"]):
            help_["at"] += 1
            helper = s.elements[help_["seats"][help_["at"]]]
            ev.append(Event("pass", Term("dif.event.no_response", element=self._el_label(s, e))))
            ev.append(
                Event(
                    "help",
                    Term(
                        "dif.mission.event.light_bomber_help",
                        element=self._el_label(s, helper),
                        plane=self._plane_label(s, x.target),
                    ),
                )
            )
            return
        super()._do_respond(s, e, a, ev)
        help_["at"] = -1

    def _resolve(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        if s.mission is not None:
            s.mission["helping"] = None
        super()._resolve(s, x, ev)

    # -- fighters attack bombers (§20.11, §20.22, §20.4, §20.5) -----------------------
    def _bomber(self, s: GameState, ref: str) -> dict[str, Any] | None:
        """The bomber named ``ref`` (``X3B1``), destroyed or not; None for any other ref."""
        if s.mission is None:
            return None  # a dogfight (asked for every candidate attack: kept quick)
        return next((b for b in self._bombers_all(s) if b["ref"] == ref), None)

    def _formation_seat(self, s: GameState, ref: str) -> str:
        """The seat of the formation the bomber ``ref`` started in."""
        m = s.mission
        assert m is not None
        return next(
            seat
            for seat, f in m["formations"].items()
            if any(b["ref"] == ref for b in f["bombers"])
        )

    def _designated(self, s: GameState, b: dict[str, Any]) -> dict[str, Any]:
        """§20.32: without a successful choice the formation's side names the bomber
        attacked; read as the first flying bomber of the attacked one's group
        (docs/rules-decisions.md)."""
        assert s.mission is not None
        f = s.mission["formations"][self._formation_seat(s, b["ref"])]
        return next(o for o in f["bombers"] if o["status"] == "flying" and o["group"] == b["group"])

    def _bomber_budget(self, s: GameState, e: Element, ref: str) -> int:
        """§20.22: a leader's Bursts against bomber ``ref``, its rating +2, plus what its
        successful Maneuvering and Half Loop at it won (kept as against a wingman), -1
        if the bomber's crew takes Evasive Action (EA, §19.35 L1292)."""
        return leader_bursts(
            self._leader_ratings(e),
            gained=s.t.wm_bonus,
            angle=self._angle(s),
            evasive=self._evasive(s, ref),
        )

    def _evasive(self, s: GameState, ref: str) -> bool:
        """Bomber ``ref`` has an Evasive Action crew (§19.35 L1292: -1 to the enemy
        Leader's Bursts and Wingman's Offensive Rating when it is chosen as a Target)."""
        return CrewSkill.EA.value in self._crew(s, ref)

    def _choosing(self, s: GameState, x: Exchange) -> bool:
        """The exchange is a Maneuvering or Half Loop played at a bomber (§20.32a)."""
        return x.kind in _CHOICE_KINDS and (self._bomber(s, x.target) is not None)

    def _choice_answerer(self, s: GameState, ref: str) -> Element | None:
        """§20.32b: the formation's side answers a choice from the hand of a NOT
        Assigned leader at its altitude; read as the first such in the setup's order.
        Over the target a leader that Abandoned answers for no bomber (§23.53: bombers
        never Abandon)."""
        assert s.mission is not None
        seat = self._formation_seat(s, ref)
        f = s.mission["formations"][seat]
        for e in s.elements.values():
            if (
                e.side == f["side"]
                and e.leader is not None
                and e.leader.flying
                and e.altitude == f["altitude"]
                and self.engaged_with(s, e.seat) is None
                and self._same_fight(s, e.seat, seat)
            ):
                return e
        return None

    def _defending_ref(self, s: GameState, x: Exchange) -> str:
        helper = self._helper(s)
        if helper is not None:
            return f"{helper}L"
        if self._choosing(s, x):
            e = self._choice_answerer(s, x.target)
            if e is not None and e.leader is not None:
                return e.leader.ref
        return super()._defending_ref(s, x)

    def _bomber_play_refusal(self, s: GameState, e: Element, a: Action) -> Why | None:
        """A leader's card at a bomber (§20.11, §20.42): a Maneuvering or Half Loop
        chooses any (§20.32a), an In My Sights or Out of the Sun goes to the chosen or
        designated one within the Bursts (§20.22, §20.32e); no Load Penalty against
        formations (§17.15)."""
        m = s.mission
        b = self._bomber(s, a.target or "")
        assert m is not None and b is not None
        code = a.card or ""
        if code == COUNTER:
            return attack_refusal(CardKind.FUT)
        if self._find(e.hand, code) is None:
            return Why("dif.refuse.not_in_hand", code=code)
        kind = CardKind(code.split("-")[0])
        why = attack_refusal(kind)
        if why is not None:
            return why
        if a.as_kind is not None or a.arg is not None:
            return Why("dif.mission.refuse.bomber_as")
        t = s.t
        if t.target is not None and b["ref"] != t.target:
            return Why("dif.refuse.one_target", target=self._plane_label(s, t.target))
        why = self._at_bomber_refusal(s, e, b)
        if why is not None:
            return why
        if kind not in BURST_KINDS:
            return None  # §20.32a: a Maneuvering or Half Loop chooses any of them
        first = self._designated(s, b)
        if t.target != b["ref"] and first is not b:
            return Why("dif.mission.refuse.bomber_designated", ref=first["ref"])
        return self._burst_refusal(code, t.bursts_used, self._bomber_budget(s, e, b["ref"]))

    def _bomber_targets(self, s: GameState, e: Element) -> list[str]:
        """The enemy bombers flying at ``e``'s altitude (§20.11)."""
        m = s.mission
        assert m is not None
        return [
            b["ref"]
            for f in m["formations"].values()
            if f["side"] != e.side and f["altitude"] == e.altitude
            for b in f["bombers"]
            if b["status"] == "flying"
        ]

    def _wm_at_bomber(self, s: GameState) -> bool:
        """The active wingman's attack this turn is at a bomber (§20.13)."""
        ref = s.t.wm_target
        return s.mission is not None and ref is not None and self._bomber(s, ref) is not None

    def _at_bomber_refusal(self, s: GameState, e: Element, b: dict[str, Any]) -> Why | None:
        """What keeps ``e`` from attacking bomber ``b`` at all (§20.11): it is gone, of
        ``e``'s side, at another altitude; ``e``'s leader is Assigned (10.3a); ``e``
        Abandoned the target (§23.53)."""
        m = s.mission
        assert m is not None
        f = m["formations"][self._formation_seat(s, b["ref"])]
        if b["status"] != "flying":
            return Why("dif.refuse.target_gone", ref=b["ref"])
        if f["side"] == e.side:
            return Why("dif.refuse.own_side")
        if e.altitude != f["altitude"]:
            return Why("dif.refuse.other_altitude")
        if self.engaged_with(s, e.seat) is not None:
            return Why("dif.mission.refuse.bomber_assigned")
        if e.seat in m["away"] and self._phase(s) in _OVER:
            return Why("dif.mission.refuse.abandoned")  # §23.53: bombers never Abandon
        return None

    def _wm_bomber_refusal(self, s: GameState, e: Element, b: dict[str, Any]) -> Why | None:
        """``wm X3B1``: the wingman of a NOT Assigned leader attacks a flying enemy
        bomber at its altitude (§20.11, 10.3a); without a choice yet, the one the
        formation's side designates (§20.32e); a Loaded wingman too, the Load Penalty
        does not apply against formations (§17.15 Exceptions)."""
        m = s.mission
        assert m is not None
        if e.wingman is None or not e.wingman.flying:
            return Why("dif.refuse.no_wingman")
        why = self._at_bomber_refusal(s, e, b)
        if why is not None:
            return why
        first = self._designated(s, b)
        if first is not b:
            return Why("dif.mission.refuse.bomber_designated", ref=first["ref"])
        return None

    def _wm_bomber_offence(self, s: GameState, e: Element) -> int:
        """§20.13: the mini-hand of a wingman attacking a bomber, its Offensive plus its
        Defensive Rating at its altitude (7.5, read as for 10.11 and 10.51), its
        Offensive part -1 against an Evasive Action crew (§19.35)."""
        assert e.wingman is not None
        r = self._wingman_ratings(e.wingman)
        off, dfn = tables.wingman_modifiers(e.altitude or 0, self._ac(e).turbocharged)
        return wingman_minihand(
            r.model_copy(
                update={
                    "offensive": max(0, r.offensive + off),
                    "defensive": max(0, r.defensive + dfn),
                }
            ),
            angle=self._angle(s),
            evasive=self._evasive(s, s.t.wm_target or ""),
        )

    def _wm_bomber_candidates(self, s: GameState, e: Element) -> list[Action]:
        """The wingman's cards at the bombers at its altitude, until its target falls."""
        b = self._bomber(s, s.t.wm_target or "")
        if b is None or b["status"] != "flying":
            return [Action.simple("done")]
        refs = self._bomber_targets(s, e)
        return [Action.simple("done")] + [
            Action.play(c, ref) for c in self._codes(e.minihand) for ref in refs
        ]

    def _wm_bomber_play_refusal(self, s: GameState, e: Element, a: Action) -> Why | None:
        """A wingman's card at a bomber (§20.21, §20.42, §20.43): no Burst limit; a
        Maneuvering or Half Loop only chooses the bomber, before its first In My Sights
        or Out of the Sun (§20.32a "when starting the attack"); those go to its target,
        the designated or chosen one."""
        why = self._wm_card_refusal(e, a)
        if why is not None:
            return why
        code = a.card or ""
        kind = CardKind(code.split("-")[0])
        why = attack_refusal(kind)
        if why is not None:
            return why
        b = self._bomber(s, a.target or "")
        target = s.t.wm_target
        if b is None:
            return Why("dif.refuse.wingman_target", target=target)
        if b["status"] != "flying":
            return Why("dif.refuse.target_gone", ref=b["ref"])
        if b["ref"] not in self._bomber_targets(s, e):
            return Why("dif.refuse.other_altitude")
        if kind not in BURST_KINDS:
            if self._wm_fired(s):
                return Why("dif.mission.refuse.wingman_choice_first")
            return None  # §20.32a: a Maneuvering or Half Loop chooses any of them
        if b["ref"] != target:
            return Why("dif.mission.refuse.wingman_bomber", ref=target)
        return None

    def _wm_fired(self, s: GameState) -> bool:
        """The wingman has fired at its bomber: the defensive mini-hand is drawn at
        the first In My Sights or Out of the Sun (§20.41) and discarded when its attack
        ends, so it is out only once the attack has begun."""
        assert s.mission is not None
        return any(f.get("defending") for f in s.mission["formations"].values())

    def _defence(self, s: GameState, b: dict[str, Any]) -> int:
        """§20.41: the attacked bomber's defensive mini-hand, with the Turret Support
        of every other bomber still in its group (a Damaged one has left it, §17.28)."""
        assert s.mission is not None
        f = s.mission["formations"][self._formation_seat(s, b["ref"])]

        def supporter(o: dict[str, Any]) -> Supporter:
            ratings = self.aircraft[o["aircraft"]].formation
            assert ratings is not None
            side = ratings.damaged if o["damaged"] else ratings.undamaged
            return Supporter(side, self._crew(s, o["ref"]))

        others = [
            supporter(o)
            for o in f["bombers"]
            if o is not b and o["status"] == "flying" and o["group"] == b["group"]
        ]
        return defence_cards(supporter(b), others, angle=self._angle(s))

    def _open_exchange(
        self, s: GameState, e: Element, attacker: str, a: Action, source: str, ev: list[Event]
    ) -> None:
        target = s.t.target
        super()._open_exchange(s, e, attacker, a, source, ev)
        b = self._bomber(s, a.target or "")
        x = s.exchange
        if x is not None and b is None and s.mission is not None:
            helpers = self._light_bomber_helpers(s, x)
            s.mission["helping"] = {"seats": helpers, "at": -1} if helpers else None
        if b is None or x is None:
            return
        self._fix_angle(s)
        if self._choosing(s, x):
            s.own_turn().target = target  # chosen only if the choice succeeds (§20.32d-e)
            if self._choice_answerer(s, b["ref"]) is None:
                s.exchange = None  # nobody may answer it: it succeeds at once
                self._resolve(s, x, ev)
            return
        seat = self._formation_seat(s, b["ref"])
        assert s.mission is not None
        f = s.mission["formations"][seat]
        if f.get("defending") != b["ref"]:
            # §20.41, as for a wingman (10.63): one mini-hand for the attacker's turn.
            f["defending"] = b["ref"]
            f["defence"] = self._draw_cards(s, self._defence(s, b), ev)
            ev.append(
                Event(
                    "draw",
                    Term(
                        "dif.mission.event.bomber_defence",
                        plane=self._bomber_label(b),
                        n=len(f["defence"]),
                    ),
                    data={"seat": seat, "count": len(f["defence"])},
                )
            )

    def _responder(self, state: GameState, x: Exchange) -> str:
        if state.mission is None:  # a dogfight: no bomber, no helper (asked often)
            return super()._responder(state, x)
        helper = self._helper(state)
        if x.defender_to_move and helper is not None:
            return helper
        if x.defender_to_move and self._choosing(state, x):
            return self._defending_ref(state, x)[:-1]
        if x.defender_to_move and self._bomber(state, x.target) is not None:
            return self._formation_seat(state, x.target)
        return super()._responder(state, x)

    def _response_source(self, state: GameState, x: Exchange) -> list[int]:
        if state.mission is None:  # a dogfight: no bomber, no helper (asked often)
            return super()._response_source(state, x)
        helper = self._helper(state)
        if x.defender_to_move and helper is not None:
            return state.elements[helper].hand
        if x.defender_to_move and self._choosing(state, x):
            return state.elements[self._defending_ref(state, x)[:-1]].hand
        if x.defender_to_move and x.source == "bomber" and state.step == "wingman_attack":
            # §20.52: the attacking wingman answers the counter-attack from the
            # mini-hand it attacks with (the Z-18 wingman has no card left, L1406).
            return state.elements[x.target[:-1]].minihand
        return super()._response_source(state, x)

    def _plane_label(self, state: GameState, ref: str) -> str:
        b = self._bomber(state, ref) if state.mission is not None else None
        return self._bomber_label(b) if b is not None else super()._plane_label(state, ref)

    def _effect(self, s: GameState, x: Exchange, ev: list[Event]) -> None:
        b = self._bomber(s, x.target)
        if b is None:
            super()._effect(s, x, ev)
            return
        if self._choosing(s, x) and x.source == "minihand":
            # §20.32d, §20.43: the wingman's target is chosen; it has no Bursts.
            s.own_turn().wm_target = b["ref"]
            label = self._bomber_label(b)
            ev.append(Event("bursts", Term("dif.mission.event.bomber_chosen_wingman", plane=label)))
            return
        if self._choosing(s, x):
            # §20.32d, §20.22: the bomber is chosen and the leader's Bursts grow.
            t = s.own_turn()
            t.target = b["ref"]
            t.wm_bonus += choice_bonus(CardKind(x.kind))
            e = s.elements[x.attacker[:-1]]
            n = self._bomber_budget(s, e, b["ref"]) - s.t.bursts_used
            label = self._bomber_label(b)
            ev.append(Event("bursts", Term("dif.mission.event.bomber_chosen", plane=label, n=n)))
            return
        card = self.cards[x.card].type
        if card.fuel_tank:
            ev.append(Event("damage", Term("dif.event.fuel_tank", plane=self._bomber_label(b))))
            self._destroy_bomber(b, ev)
            return
        self._hit_bomber(s, b, card.damage + self._heavy_cannon(s, x), ev)

    def _heavy_cannon(self, s: GameState, x: Exchange) -> int:
        """RotL L127, L145: the '+#' of the leader's or the wingman's card that fired."""
        fighter = self._plane(s, x.attacker)
        if x.source == "minihand" and fighter is not None and fighter.role == "wingman":
            return self._wingman_ratings(fighter).heavy_cannon
        return self._leader_ratings(s.elements[x.attacker[:-1]]).heavy_cannon

    def _discard_defences(self, s: GameState, e: Element, ev: list[Event]) -> None:
        super()._discard_defences(s, e, ev)
        m = s.mission
        for f in (m or {}).get("formations", {}).values():
            if f.get("defending") is None:
                continue
            b = self._bomber(s, f["defending"])
            assert b is not None
            if f["defence"]:
                cards = join([self.label[c] for c in f["defence"]])
                ev.append(
                    Event(
                        "discard",
                        Term(
                            "dif.mission.event.discard_bomber_defence",
                            plane=self._bomber_label(b),
                            cards=cards,
                        ),
                    )
                )
            self._discard(s, f["defence"])
            f["defence"], f["defending"] = [], None

    def formation_candidates(self, state: GameState, seat: str) -> list[Action]:
        """A formation seat's answers to the attack on its bomber (§20.5); an In My
        Sights or Out of the Sun also with its Ace Crew's Rejected Attack (§19.35 AC)."""
        assert state.mission is not None
        codes = self._codes(state.mission["formations"][seat]["defence"])
        aces = [Action.respond(c, as_kind="ACE") for c in codes if c[:3] in ("IMS", "OOS")]
        return [Action.simple("pass")] + [Action.respond(c) for c in codes] + aces

    def _ace_crew_left(self, s: GameState, ref: str) -> int:
        """§19.35 AC: the Ace Ability counters the bomber's Ace Crew has left (two a
        mission); 0 without an Ace Crew."""
        if CrewSkill.AC.value not in self._crew(s, ref):
            return 0
        assert s.mission is not None
        return ACE_CREW_USES - s.mission.get("ace_crew", {}).get(ref, 0)

    def formation_refusal(self, state: GameState, seat: str, a: Action) -> Why | None:
        """§20.43, §20.51: a bomber answers only an In My Sights or Out of the Sun, from
        its mini-hand, with an In My Sights, an Out of the Sun or a Rejected Attack."""
        x = state.exchange
        assert x is not None and state.mission is not None
        if a.verb not in ("respond", "pass"):
            return Why(
                "dif.refuse.wrong_verb",
                verb=a.verb,
                decision=Term("dif.decision.respond"),
                verbs="respond / pass",
            )
        if a.verb == "pass":
            return None
        if a.as_kind not in (None, "ACE"):
            return Why("dif.mission.refuse.bomber_as")
        c = self._find(state.mission["formations"][seat]["defence"], a.card or "")
        if c is None:
            return Why("dif.refuse.not_in_minihand", code=a.card)
        why = bomber_response_refusal(CardKind(x.kind), self.cards[c])
        if why is None and a.as_kind == "ACE":
            why = self._ace_crew_refusal(state, x.target, c)
        return why

    def _ace_crew_refusal(self, s: GameState, ref: str, card: int) -> Why | None:
        """§19.35 AC: only the attacked bomber's own Ace Crew (never lent through Turret
        Support), twice a mission, on a counter-attack card (an In My Sights or Out of
        the Sun, §20.52)."""
        if self.kind[card] not in BURST_KINDS:
            return Why("dif.mission.refuse.ace_crew_card", card=self.kind[card].label)
        if CrewSkill.AC.value not in self._crew(s, ref):
            return Why("dif.mission.refuse.no_ace_crew")
        if self._ace_crew_left(s, ref) <= 0:
            return Why("dif.mission.refuse.ace_crew_spent")
        return None

    def _do_formation_respond(self, s: GameState, seat: str, a: Action, ev: list[Event]) -> None:
        """§20.52-§20.54: the bomber's answer. Not rejected, the fighter's attack does
        its Damage; an In My Sights or Out of the Sun then attacks the fighter, which
        may respond to it but never to a Rejected Attack; the bomber never answers."""
        x = s.exchange
        assert x is not None and s.mission is not None
        b = self._bomber(s, x.target)
        assert b is not None
        s.exchange = None
        if a.verb == "pass":
            ev.append(Event("pass", Term("dif.event.no_response", element=self._bomber_label(b))))
            self._resolve(s, x, ev)
            return
        f = s.mission["formations"][seat]
        c = self._find(f["defence"], a.card or "")
        assert c is not None
        f["defence"].remove(c)
        s.in_play.append(c)
        fighter = x.attacker
        ev.append(
            Event(
                "respond",
                Term("dif.event.responds", plane=self._bomber_label(b), card=self.label[c]),
                data={"card": self.code[c]},
            )
        )
        ace = a.as_kind == "ACE"
        if ace:
            used = s.mission.setdefault("ace_crew", {})
            used[b["ref"]] = used.get(b["ref"], 0) + 1
            ev.append(
                Event(
                    "ace",
                    Term(
                        "dif.mission.event.ace_crew",
                        plane=self._bomber_label(b),
                        card=self.label[c],
                        n=self._ace_crew_left(s, b["ref"]),
                    ),
                )
            )
        result = answer(self.cards[c], ace=ace)
        if result.rejected:
            ev.append(Event("negated", Term("dif.event.negated", card=self.label[x.card])))
        else:
            self._effect(s, x, ev)
        target = self._plane(s, fighter)
        if result.counter and target is not None and target.flying:
            ev.append(
                Event(
                    "play",
                    Term(
                        "dif.mission.event.bomber_counter",
                        plane=self._bomber_label(b),
                        target=self._plane_label(s, fighter),
                    ),
                    data={"card": self.code[c], "target": fighter, "by": b["ref"]},
                )
            )
            s.exchange = Exchange(b["ref"], fighter, c, self.kind[c].value, "bomber")
            return
        self._after_exchange(s, ev)

    # -- the helpers of fire ---------------------------------------------------------
    def _draw_cards(self, s: GameState, n: int, ev: list[Event]) -> list[int]:
        out = []
        for _ in range(max(n, 0)):
            c = self._draw_one(s, ev)
            if c is None:
                break
            out.append(c)
        return out

    def _fire_event(self, s: GameState, p: Plane, fire: list[int], key: str) -> Event:
        return self._fire_text(p.ref, self._plane_label(s, p.ref), fire, key)

    def _fire_text(self, ref: str, label: str | Term, fire: list[int], key: str) -> Event:
        cards = join([self.label[c] for c in fire]) if fire else "-"
        return Event(
            "fire",
            Term(key, plane=label, cards=cards),
            data={"ref": ref, "cards": [self.code[c] for c in fire]},
        )

    # -- legality -----------------------------------------------------------------------
    def _candidates(self, state: GameState, p: Decision) -> list[Action]:
        m = state.mission
        if m is not None and p.seat in m["formations"]:
            return self.formation_candidates(state, p.seat)
        if m is not None and p.kind == "play":
            e = state.elements[p.seat]
            refs = self._bomber_targets(state, e)
            return (
                super()._candidates(state, p)
                + [Action.play(c, ref) for c in self._codes(e.hand) for ref in refs]
                + self._angles(state)
            )
        if m is not None and p.kind == "wingman":
            e = state.elements[p.seat]
            refs = self._bomber_targets(state, e)
            return (
                super()._candidates(state, p)
                + [Action.wingman(ref) for ref in refs]
                + self._angles(state)
            )
        if m is not None and p.kind == "wingman_attack" and self._wm_at_bomber(state):
            return self._wm_bomber_candidates(state, state.elements[p.seat])
        if p.kind not in MISSION_STEPS:
            return super()._candidates(state, p)
        if p.kind != "aa":
            return [Action.simple(v) for v in _VERBS[p.kind]]
        e = state.elements[p.seat]
        m = state.mission
        assert m is not None
        plane = self._by_origin(state, m["aa"]["ref"])
        source = e.defence if plane is not None and plane.role == "wingman" else e.hand
        return [Action.simple("pass")] + [Action.respond(c) for c in self._codes(source)]

    def _refuser(self, state: GameState, p: Decision) -> Refuser:
        """The refusal predicate of a mission's decision: a formation's answer, a
        mission step's own, or the basic game's, which an Angle of Attack may also
        answer in the Wingman Attack and Play Cards steps (§20.31); chosen once per
        decision, like the basic game's (issue 16)."""
        m = state.mission
        if m is None:  # a dogfight: no formation, no mission step
            return super()._refuser(state, p)
        if p.seat in m["formations"]:
            return functools.partial(self.formation_refusal, state, p.seat)
        if p.kind in MISSION_STEPS:
            return functools.partial(self._step_refusal, state, p)
        basic = super()._refuser(state, p)
        if p.kind not in ("wingman", "play"):
            return basic
        e = state.elements[p.seat]
        return lambda a: self._angle_refusal(state, e) if a.verb == "angle" else basic(a)

    def _candidate_rule(self, state: GameState, p: Decision) -> Refuser:
        """A mission's candidates: the whole predicate (an Angle of Attack, a formation's
        answer and a mission step's verbs are not the basic game's)."""
        if state.mission is None:
            return super()._candidate_rule(state, p)
        return self._refuser(state, p)

    def _step_refusal(self, state: GameState, p: Decision, a: Action) -> Why | None:
        """The refusal predicate of a decision of a mission step (:data:`MISSION_STEPS`)."""
        verbs = _VERBS[p.kind]
        if a.verb not in verbs:
            return Why(
                "dif.refuse.wrong_verb",
                verb=a.verb,
                decision=Term(f"dif.decision.{p.kind}"),
                verbs=" / ".join(verbs),
            )
        e = state.elements[p.seat]
        if p.kind == "bomb" and a.verb == "bomb":
            return self._drop_refusal(state, e)
        if p.kind == "strafe" and a.verb == "strafe":
            return self._may_strafe(state, e)
        if p.kind == "aa" and a.verb == "respond":
            return self._aa_refusal(state, e, a)
        return None

    def _aa_refusal(self, s: GameState, e: Element, a: Action) -> Why | None:
        m = s.mission
        assert m is not None
        q = m["aa"]
        p = self._by_origin(s, q["ref"])
        assert p is not None
        if a.as_kind is not None:
            return Why("dif.mission.refuse.aa_as")
        source = e.defence if p.role == "wingman" else e.hand
        c = self._find(source, a.card or "")
        if c is None:
            return Why("dif.refuse.not_in_hand_respond", code=a.card)
        return self._fire_response(s, e, p, c, q["fire"])

    def _target_refusal(
        self, state: GameState, e: Element, ref: str, *, by_leader: bool
    ) -> Why | None:
        why = super()._target_refusal(state, e, ref, by_leader=by_leader)
        m = state.mission
        if why is not None or m is None or self._phase(state) not in _OVER:
            return why
        if (e.seat in m["away"]) != (ref[:-1] in m["away"]):
            # §23.53: over the target, who Abandons fights only who Abandons.
            return Why("dif.mission.refuse.abandoned")
        return None

    def _play_refusal(self, state: GameState, e: Element, a: Action) -> Why | None:
        if state.mission is None:  # a dogfight: no bomber, no bombs, no torpedo
            return super()._play_refusal(state, e, a)
        if a.verb == "play" and self._bomber(state, a.target or "") is not None:
            return self._bomber_play_refusal(state, e, a)
        why = self._loaded_refusal(state, e, e.leader, a)
        if why is None and a.arg == "up":
            why = self._torpedo_climb_refusal(state, e)
        return why or super()._play_refusal(state, e, a)

    def _altitude_rule(self, state: GameState, e: Element) -> Refuser:
        rule = super()._altitude_rule(state, e)
        torpedo = self._torpedo_climb_refusal(state, e)
        if torpedo is None:
            return rule
        return lambda a: torpedo if a.verb == "climb" else rule(a)

    def _follow_refusal(
        self, state: GameState, e: Element, f: FollowOffer, a: Action
    ) -> Why | None:
        why = self._torpedo_climb_refusal(state, e) if f.direction > 0 else None
        return why or super()._follow_refusal(state, e, f, a)

    def _torpedo_climb_refusal(self, state: GameState, e: Element) -> Why | None:
        """§21.53: a light bomber flying a torpedo mission, once at Very Low, stays
        there through the Ingress, Bomb and Egress Turns."""
        m = state.mission
        if m is None or self._phase(state) not in _OVER or e.altitude != Altitude.VERY_LOW:
            return None
        if m["setup"]["bombs"].get(e.seat) == BombingMode.TORPEDO.value:
            return Why("dif.mission.refuse.torpedo_low")
        return None

    def _loaded_refusal(
        self, state: GameState, e: Element, p: Plane | None, a: Action
    ) -> Why | None:
        """§17.15: a Loaded leader or wingman plays no MAN, HAL, SCI or FUT."""
        if a.card is None or not self._loaded(state, e, p) or a.arg is not None:
            return None
        code = a.card.split("-")[0]
        kinds = [CardKind.FUT if code == "FTC" else CardKind(code)]
        if a.as_kind is not None and a.as_kind != "ACE":
            kinds.append(CardKind(a.as_kind))
        for kind in kinds:  # the card itself first, then what it is played as: the
            # refusal names the same kind every time (a set's order changed by run)
            if kind in _LOADED_BANNED:
                return Why("dif.mission.refuse.loaded_card", card=kind.label)
        return None

    def _wm_target_refusal(self, state: GameState, e: Element, ref: str) -> Why | None:
        b = self._bomber(state, ref)
        if b is not None:
            return self._wm_bomber_refusal(state, e, b)
        why = super()._wm_target_refusal(state, e, ref)
        if (
            why is None
            and self._loaded(state, e, e.wingman)
            and self.engaged_with(state, e.seat) is None
        ):
            return Why("dif.mission.refuse.loaded_wingman")  # §17.15
        return why

    def _wm_play_refusal(self, state: GameState, e: Element, a: Action) -> Why | None:
        if self._wm_at_bomber(state):
            return self._wm_bomber_play_refusal(state, e, a)
        return self._loaded_refusal(state, e, e.wingman, a) or super()._wm_play_refusal(state, e, a)

    def _respond_refusal(self, state: GameState, e: Element, x: Exchange, a: Action) -> Why | None:
        why = super()._respond_refusal(state, e, x, a)
        if why is not None or state.mission is None:
            return why
        ref = self._defending_ref(state, x) if x.defender_to_move else x.attacker
        p = self._plane(state, ref)
        # §17.15 Exceptions: no Load Penalty attacking or defending against a formation.
        against = self._bomber(state, x.target) or self._bomber(state, x.attacker)
        why = None if against is not None else self._loaded_refusal(state, e, p, a)
        if why is not None:
            return why
        if (
            x.defender_to_move
            and x.chain
            and self._phase(state) == "bomb"
            and p is not None
            and self._origin(e, p) in state.mission["acted"]
        ):
            return Why("dif.mission.refuse.one_response")  # §23.66
        return None

    def _offence(self, s: GameState, e: Element) -> int:
        if self._wm_at_bomber(s):
            return self._wm_bomber_offence(s, e)
        n = super()._offence(s, e)
        return n - 1 if self._loaded(s, e, e.wingman) else n  # §17.15

    def _legal_choices(self, state: GameState, p: Decision) -> list[Action] | None:
        """A mission's decisions are filtered through its rules (its candidates and
        rules add bombers, Angles of Attack, Load and torpedo limits), but for the
        choices of cards its rules allow whole (:meth:`_held_choices`)."""
        if state.mission is not None and not self._held_choices(state, p):
            return None
        return super()._legal_choices(state, p)

    def _held_choices(self, state: GameState, p: Decision) -> bool:
        """Not a formation's answer, nor the discard an unopposed attacker makes (which
        names no card: :meth:`_discard_rule`)."""
        m = state.mission
        if m is not None and (
            p.seat in m["formations"] or (p.kind == "discard" and self._unopposed(state))
        ):
            return False
        return super()._held_choices(state, p)

    def _discard_rule(self, state: GameState, e: Element) -> Refuser:
        rule = super()._discard_rule(state, e)
        if state.mission is None or not self._unopposed(state):
            return rule
        # §23.7 note, G-Z6: with no defender left, the attackers discard nothing
        unopposed = Why("dif.mission.refuse.unopposed_discard")
        return lambda a: unopposed if a.cards else rule(a)

    # -- the end ------------------------------------------------------------------------
    def victory_points(self, s: GameState) -> dict[Side, int]:
        """§24.61: each side's VP by the awards (aircraft destroyed, damaged or evaded,
        Skilled Pilots shot down, bombers returning undamaged from Over the Target) and
        the target's level for the attacker; without awards, the level only (§25.81)."""
        m = s.mission
        if m is None:
            return super().victory_points(s)
        mission = self._setup_of(s)
        vp = {side: 0 for side in Side}
        if mission.target is not None:
            vp[mission.attacker] += mission.target.level(m["damage"]).vp
        awards = mission.awards
        if awards is None:
            return vp
        for e in s.elements.values():
            own = Side(e.side)
            for p in e.planes():
                award = awards.awards[AircraftClass(_class(self._ac(p).role.value))]
                theirs, ours = award_vp(
                    award,
                    destroyed=p.status == "destroyed",
                    damaged=p.damaged or p.status == "evaded",
                    over_target=m["records"][self._origin(e, p)]["over_target"],
                )
                vp[own.other] += theirs
                vp[own] += ours
                leader = self._origin(e, p) == f"{e.seat}L"
                if p.status == "destroyed" and leader and e.seat in mission.pilots:
                    vp[own.other] += awards.skilled_pilot
        for f in m.get("formations", {}).values():
            own = Side(f["side"])
            for b in f["bombers"]:
                role = self.aircraft[b["aircraft"]].role.value
                theirs, ours = award_vp(
                    awards.awards[AircraftClass(_class(role))],
                    destroyed=b["status"] == "destroyed",
                    damaged=b["damaged"],
                    over_target=True,  # bombers never Abandon
                )
                vp[own.other] += theirs
                vp[own] += ours
        return vp

    def _check_end(self, s: GameState, ev: list[Event]) -> None:
        had = s.result is not None
        super()._check_end(s, ev)
        m = s.mission
        if m is None or had or s.result is None:
            return
        target = self._target(s)
        level = target.level(m["damage"]).name if target is not None else None
        s.result["target_damage"] = m["damage"]
        s.result["target_level"] = level
        if target is not None:
            ev.append(
                Event("mission", Term("dif.mission.event.target", damage=m["damage"], level=level))
            )

    def mission_view(self, state: GameState, viewer: str | None = None) -> MissionView:
        """What every seat sees of the mission: phase, target, Abandons and bombs; a
        formation's defensive mini-hand only in its own seat's view (``viewer``)."""
        m = state.mission
        assert m is not None
        target = self._target(state)
        return MissionView(
            phase=fixed(_PHASE_KEYS[phase(m, state.turn)]),
            attacker=Side(m["attacker"]),
            target=target.name if target is not None else None,
            target_damage=m["damage"],
            target_level=target.level(m["damage"]).name if target is not None else None,
            away=tuple(m["away"]),
            loaded=tuple(sorted(m["loaded"])),
            clouds=m.get("clouds"),
            track=tuple(phase(m, turn) for turn in range(1, (state.max_turns or 0) + 1)),
            formations=tuple(
                FormationView(
                    seat=seat,
                    side=Side(f["side"]),
                    altitude=Altitude(f["altitude"]),
                    mode=f["mode"],
                    bombers=tuple(
                        BomberView(
                            ref=b["ref"],
                            aircraft=self.aircraft[b["aircraft"]].name,
                            hits=b["hits"],
                            damaged=b["damaged"],
                            status=b["status"],
                            group=b["group"],
                        )
                        for b in f["bombers"]
                    ),
                    defence=len(f["defence"]) if f.get("defending") else None,
                    defence_cards=tuple(self.code[c] for c in sorted(f["defence"]))
                    if f.get("defending") and viewer == seat
                    else None,
                )
                for seat, f in m.get("formations", {}).items()
            ),
        )

    def mission_record(self, state: GameState, seat: str, ref: str) -> dict[str, Any]:
        """An aircraft's :data:`~engine.dif.mission.RECORD_KEYS` for the campaign."""
        m = state.mission
        assert m is not None
        mission = self._setup_of(state)
        rec = dict(
            m["records"].get(ref, {"over_target": False, "bombed": False, "damage_dealt": 0})
        )
        formation = next((f for f in mission.formations if f.seat == seat), None)
        if formation is not None:
            # a bomber keeps its bombs only until the Bomb Turn (§23.63): never Loaded
            crew = formation.crews.get(int(ref[-1]) - 1)
            if crew is not None:
                rec["pilot"] = crew.name
            rec["role"] = self.aircraft[formation.aircraft[int(ref[-1]) - 1]].role.value
            rec["loaded"] = False
            return rec
        e = state.elements[seat]
        pilot = mission.pilots.get(seat)
        if pilot is not None and ref.endswith("L"):
            rec["pilot"] = pilot.name
        rec["role"] = self.aircraft[e.aircraft].role.value
        rec["loaded"] = ref in m["loaded"]
        return rec


def _lower(result: BombResult, levels: int) -> BombResult:
    """A bombing result ``levels`` lower, Miss at worst (Clouds Over the Target, L1881)."""
    return _RANK[max(0, _RANK.index(result) - levels)]


def _class(role: str) -> str:
    """The VP awards' class of a campaign Role (§24.61): torpedo bombers are light
    bombers."""
    return "light_bomber" if role == "torpedo_bomber" else role
