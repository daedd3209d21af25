"""Eagles in the Sky's Campaign Game on the campaign contract (:mod:`engine.core.campaign`).

Each player commands a squadron (:mod:`engine.eagles.squadron`) through five days
(Campaign §4.0). Each day: the Pre-dawn Phase draws the day's missions on the Campaign
card's Mission Table and fills the chit cup (§4.1, §5.1, §7.12); the Morning and
Afternoon Phases draw the weather (§6) and fly half the missions each (§4.2-4.3); the
Evening Phase draws the Campaign Events, repairs, heals, replaces and rests (§4.4).

A **mission** of the contract is one mission of a day (numbered through the campaign:
the sheet's rows). Before it, both players assign their pilots in secret (§5.41), a
decision of kind ``assign``; then a chit decides (§5.44): an **Engagement** is played
as an Eagles in the Sky game (:meth:`EaglesCampaigns.mission_setup`), whose outcome the
campaign absorbs; an **Encounter** (§7) is resolved at once by the campaign's own
draws and reported on the sheet. Missions flown by nobody, grounded by an Ice Storm or
given away (§5.45) are resolved the same way, without a game.

Every draw is a Maneuver card from the campaign's own deck (shuffled from its seed,
reshuffled after the day's mission draws and after each mission, §3.7): a campaign
replays exactly from its log. The choices the rules leave to a player that are not
assignments (which aircraft takes an Encounter's damage draws, cannibalisation, the
Repair Points, promotions, Leave, parachutes) are made by the campaign by a stated
policy: ``docs/rules-decisions.md`` ("Eagles in the Sky campaigns") gives each.

A decision's notation: ``assign #<mission> <pilots>``, the pilots by letter, the
leading Flight Leader marked ``*`` (§5.41), or ``none``: ``assign #3 C* A F``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.campaign import (
    CampaignDecision,
    CampaignEntry,
    CampaignInfo,
    CampaignResult,
    CampaignSheet,
    EntryKind,
    Happenings,
    LogbookEntry,
    MissionPlan,
    MissionRow,
    MissionState,
    NextMission,
    PilotFate,
    PilotLog,
    SheetTable,
    mission_seed,
)
from engine.core.contract import Fate, Outcome, SeatPick, SideInfo
from engine.core.errors import MalformedAction, RuleViolation, SetupError
from engine.core.packs import Pack
from engine.core.present import Choice
from engine.core.rng import Rng
from engine.eagles.campaign_cards import (
    LAST_MONTH,
    SECTION,
    cards_with,
    checked_shipped_cards,
    dolphin_type,
    schlachtsta_types,
    squadron_types,
)
from engine.eagles.campaign_data import (
    CampaignCard,
    CampaignEvent,
    CampaignTables,
    shipped_tables,
)
from engine.eagles.enums import (
    DECK_SIZE,
    Altitude,
    Characteristic,
    DamageKind,
    DefenceClass,
    EngagementType,
    Side,
    Weather,
    YearMonth,
    Zone,
)
from engine.eagles.game import EaglesEngine, default_engine
from engine.eagles.loader import components_with
from engine.eagles.lobby import EaglesOptions, EaglesPick
from engine.eagles.setup import (
    REVISION,
    CampaignEngagement,
    EaglesSetup,
    PlaneSetup,
    SideSetup,
)
from engine.eagles.squadron import MAX_FATIGUE, SQUADRON_SIZE, Pilot, Plane, Squadron
from strings import Term

__all__ = [
    "CONTENT_KINDS",
    "SIDES",
    "AssignAction",
    "EaglesCampaignSetup",
    "EaglesCampaigns",
    "campaign_system",
    "campaign_system_with",
]

CONTENT_KINDS = (SECTION,)
"""The section a content pack's ``eagles`` part may have for campaigns (besides the
game's, :data:`engine.eagles.loader.CONTENT_KINDS`): Campaign cards in the schema of
``data/eagles/campaign/cards.yaml`` (:mod:`engine.eagles.campaign_cards`)."""

SIDES = ("allied", "german")
_NOTATION = re.compile(r"^assign\s+#(\d+)\s+(none|(?:[A-Z]+\*?\s*)+)$")
MAX_FLIGHT = 6
"""Six boxes a mission on the Campaign Log (§5.43; six Scouts a side, §3.53)."""
FUEL_SHORTAGE_FLIGHT = 3
"""Fuel Shortage: no more than three squadron aircraft a mission (§13.4)."""
FUEL_SHORTAGE_GLORY = 5
FLIGHT_LEADERS = 3
"""A squadron's Flight Leaders (Campaign §3.5, §9.21)."""
REPAIR_POINTS = 6
"""Each Evening (§10.13)."""
LEAVE_PILOTS = 3


# ----------------------------------------------------------------- the state
class EaglesCampaignSetup(BaseModel):
    """``/campaign new``'s choices: the Campaign card, the month of a generic one
    (§3.3), each squadron's aircraft type (None: drawn, §3.4) and the optional
    per-aircraft rules (§13.7, Campaign §5.63, §8.12)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    campaign: str
    month: str | None = None
    """``1917-10``: a generic campaign's month; None: the card's, or October 1917."""
    allied: str | None = None
    german: str | None = None
    aircraft_rules: bool = True
    days: int | None = Field(default=None, ge=1, le=5)
    """A shorter campaign than the card's five days (for a quick campaign): None, five."""
    # -- tests and vectors: what normally comes from the shuffle ----------------------
    draws: tuple[int, ...] = Field(default=(), json_schema_extra={"tests_only": True})
    """The first Maneuver cards drawn, in order, whatever the shuffles (then the deck)."""
    cup: tuple[str, ...] = Field(default=(), json_schema_extra={"tests_only": True})
    """The first draws from a cup (chits: ``engagement``/``encounter``; Mission
    aircraft: an aircraft id), in order."""


class AssignAction(BaseModel):
    """A player's secret assignment to a mission (§5.41): the pilots (each flies the
    squadron's next undamaged aircraft, §5.43) and the Flight Leader who leads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mission: int
    pilots: tuple[str, ...] = ()
    lead: str | None = None

    def __str__(self) -> str:
        if not self.pilots:
            return f"assign #{self.mission} none"
        words = [f"{p}*" if p == self.lead else p for p in self.pilots]
        return f"assign #{self.mission} " + " ".join(words)

    def __hash__(self) -> int:
        return hash(str(self))


class Sortie(BaseModel):
    """One mission of a day (a row of the Campaign Log, §5.3) and how it went."""

    model_config = ConfigDict(extra="forbid")

    number: int
    """Its place in the campaign (the sheet's row, the contract's mission number)."""
    day: int
    phase: Literal["morning", "afternoon"]
    mission: int
    """The Mission Table's number (§5.21)."""
    type: str
    attacker: str
    zone: str
    altitude: str
    converted: str | None = None
    """``TS`` (Ground Support, §5.32) or ``P`` (Fog, §5.33)."""
    mission_aircraft: dict[str, list[str]] = Field(default_factory=dict)
    """Mission aircraft ids by side (§5.42, Dolphins, Schlachtstas)."""
    weather: str = "clear"
    status: Literal["ahead", "assigning", "flying", "done", "cancelled"] = "ahead"
    chit: Literal["engagement", "encounter"] | None = None
    assigned: dict[str, AssignAction] = Field(default_factory=dict)
    flights: dict[str, list[list[Any]]] = Field(default_factory=dict)
    """Each side's flight as flown: ``[pilot, aircraft number]`` pairs (§5.43)."""
    points: dict[str, int] = Field(default_factory=dict)
    """Campaign Points scored on it (§14.1)."""
    glory: dict[str, int] = Field(default_factory=dict)
    vp: dict[str, int] = Field(default_factory=dict)
    attempt: int = 1
    report: list[list[Any]] = Field(default_factory=list)
    """What happened, as ``[term key, params]`` lines (rendered by :func:`_line`)."""


class CampaignState(BaseModel):
    """An Eagles in the Sky campaign. Plain JSON; ``apply`` copies it before changing."""

    model_config = ConfigDict(extra="forbid")

    setup: EaglesCampaignSetup
    seed: int
    month: str
    rng: int
    deck: list[int] = Field(default_factory=list)
    """The Maneuver cards still to draw, top first (§3.7)."""
    forced: list[int] = Field(default_factory=list)
    """Cards a test fixed, drawn before the deck (``EaglesCampaignSetup.draws``)."""
    forced_cup: list[str] = Field(default_factory=list)
    day: int = 1
    phase: Literal["morning", "afternoon", "over"] = "morning"
    weather: str = "clear"
    carry: str | None = None
    """The weather an Ice Storm brings to the next phase (§6.13)."""
    chits: dict[str, int] = Field(default_factory=dict)
    sorties: list[Sortie] = Field(default_factory=list)
    """Every mission drawn so far, in order (the day's still to fly at the end)."""
    once: list[int] = Field(default_factory=list)
    """Missions flown that come once a campaign (§5.11 note)."""
    squadrons: dict[str, Squadron]
    days: list[dict[str, Any]] = Field(default_factory=list)
    """Each day's events and the Evening's report lines, by day."""


# ----------------------------------------------------------------- the system
class EaglesCampaigns:
    """The Eagles in the Sky campaign system (``CampaignSystem``) over the shipped
    Campaign cards, or over those and a server's content packs
    (:func:`campaign_system_with`)."""

    system_id = "eagles"
    setup_model = EaglesCampaignSetup

    def __init__(
        self, engine: EaglesEngine, cards: Mapping[str, CampaignCard], tables: CampaignTables
    ) -> None:
        self.engine = engine
        self.components = engine.components
        self.cards = dict(cards)
        self.tables = tables

    # --- campaigns -----------------------------------------------------------------
    def campaigns(self) -> list[CampaignInfo]:
        return [
            CampaignInfo(
                c.id,
                c.title,
                c.days * c.missions_per_day,
                self._side_infos(),
                summary=c.summary,
            )
            for c in self.cards.values()
        ]

    def _side_infos(self) -> tuple[SideInfo, ...]:
        return (
            SideInfo("allied", Term("eagles.side.allied")),
            SideInfo("german", Term("eagles.side.german")),
        )

    def sides(self, state: CampaignState) -> tuple[SideInfo, ...]:
        return self._side_infos()

    def card(self, state: CampaignState) -> CampaignCard:
        return self.cards[state.setup.campaign]

    def days(self, state: CampaignState) -> int:
        """The campaign's days: five (Campaign §4.0), or fewer as the set-up asks."""
        return state.setup.days or self.card(state).days

    def when(self, state: CampaignState) -> YearMonth:
        return YearMonth.from_text(state.month)

    def new_campaign(self, setup: EaglesCampaignSetup, seed: int) -> CampaignState:
        """Set-up (Campaign §3): the month, each squadron's aircraft type (drawn among
        the card's list or those in service, §3.4), three Flight Leaders drawn (§3.5),
        nine pilots of the card's qualities, twelve aircraft (§3.6)."""
        setup = EaglesCampaignSetup.model_validate(setup)
        card = self.cards.get(setup.campaign)
        if card is None:
            raise SetupError(Term("campaign.eagles.unknown", campaign=setup.campaign))
        month = self._month(card, setup)
        when = YearMonth.from_text(month)
        rng = Rng(seed)
        squadrons: dict[str, Squadron] = {}
        used_names: set[str] = set()
        for side in SIDES:
            aircraft = self._squadron_type(card, setup, side, when, rng)
            sq = Squadron(side=side, aircraft=aircraft, pilots=[], planes=[])
            for leader in self._draw_leaders(side, FLIGHT_LEADERS, rng, exclude=()):
                sq.add_pilot(self.components.leaders[leader].name, "leader", leader)
            mix = card.pilots[Side(side)]
            for quality, count in (
                ("experienced", mix.experienced),
                ("inexperienced", mix.inexperienced),
                ("green", mix.green),
            ):
                for _ in range(count):
                    sq.add_pilot(self._new_name(side, rng, used_names), quality)  # type: ignore[arg-type]
            for _ in range(SQUADRON_SIZE):
                sq.add_plane()
            squadrons[side] = sq
        state = CampaignState(
            setup=setup,
            seed=seed,
            month=month,
            rng=rng.state,
            squadrons=squadrons,
            forced=list(setup.draws),
            forced_cup=list(setup.cup),
        )
        self._shuffle(state)
        self._predawn(state)
        return state

    def _month(self, card: CampaignCard, setup: EaglesCampaignSetup) -> str:
        if card.month is not None:
            if setup.month is not None and setup.month != str(card.month):
                raise SetupError(
                    Term("campaign.eagles.fixed_month", campaign=card.title, month=str(card.month))
                )
            return str(card.month)
        month = setup.month or "1917-10"
        try:
            when = YearMonth.from_text(month)
        except ValueError as exc:
            raise SetupError(Term("campaign.eagles.bad_month", month=month)) from exc
        if card.first_month is not None and when < card.first_month:
            raise SetupError(
                Term("campaign.eagles.early_month", month=month, first=str(card.first_month))
            )
        if when > LAST_MONTH:
            raise SetupError(Term("campaign.eagles.bad_month", month=month))
        return month

    def squadron_types(self, card: CampaignCard, side: str, when: YearMonth) -> list[str]:
        """The aircraft a squadron may fly (§3.4): the card's list, or every Scout of
        the side in service that month (the Availability Chart)."""
        return squadron_types(card, self.components, Side(side), when)

    def _squadron_type(
        self, card: CampaignCard, setup: EaglesCampaignSetup, side: str, when: YearMonth, rng: Rng
    ) -> str:
        choices = self.squadron_types(card, side, when)
        chosen = setup.allied if side == "allied" else setup.german
        if chosen is not None:
            if chosen not in choices:
                names = ", ".join(self.components.aircraft[a].name for a in choices)
                raise SetupError(
                    Term(
                        "campaign.eagles.bad_type", aircraft=chosen, month=str(when), choices=names
                    )
                )
            return chosen
        if not choices:
            raise SetupError(Term("campaign.eagles.no_type", side=side, month=str(when)))
        return choices[rng.below(len(choices))]

    def _draw_leaders(self, side: str, n: int, rng: Rng, exclude: tuple[str, ...]) -> list[str]:
        """``n`` Flight Leader counters of ``side`` drawn from the cup (§3.5, §9.22)."""
        cup = [
            lid
            for lid, lead in self.components.leaders.items()
            if lead.side.value == side and not lead.ace and lid not in exclude
        ]
        out = []
        for _ in range(min(n, len(cup))):
            out.append(cup.pop(rng.below(len(cup))))
        return out

    def _new_name(self, side: str, rng: Rng, used: set[str]) -> str:
        pool = [n for n in self.tables.names[Side(side)] if n not in used]
        if not pool:
            pool = list(self.tables.names[Side(side)])
        name = pool[rng.below(len(pool))]
        used.add(name)
        return name

    # --- the deck ---------------------------------------------------------------------
    def _shuffle(self, state: CampaignState) -> None:
        rng = Rng(state.rng)
        deck = list(range(1, DECK_SIZE + 1))
        rng.shuffle(deck)
        state.deck = deck
        state.rng = rng.state

    def _draw(self, state: CampaignState) -> int:
        """The next Maneuver card's number (a fresh shuffle when the deck runs out)."""
        if state.forced:
            card = state.forced.pop(0)
            if card in state.deck:
                state.deck.remove(card)
            return card
        if not state.deck:
            self._shuffle(state)
        return state.deck.pop(0)

    def _fire(self, number: int) -> int:
        """A card's Fire Value; a Guns Jammed card counts 0 (§8.21)."""
        card = self.components.deck.card(number)
        return 0 if card.jammed or card.fire is None else card.fire

    def _cup(self, state: CampaignState, items: list[str]) -> str:
        """One of ``items`` drawn from a cup (a chit, a Mission aircraft type)."""
        if state.forced_cup and state.forced_cup[0] in items:
            return state.forced_cup.pop(0)
        return items[self._pick(state, len(items))]

    def _pick(self, state: CampaignState, n: int) -> int:
        rng = Rng(state.rng)
        out = rng.below(n)
        state.rng = rng.state
        return out

    # --- the day -----------------------------------------------------------------------
    def _predawn(self, state: CampaignState) -> None:
        """The Pre-dawn Phase (§4.1): the day's missions, the chits, Exhaustion."""
        card = self.card(state)
        count = card.missions_per_day
        events = {side: state.squadrons[side].event for side in SIDES}
        offensive = card.offensive.value
        if events[offensive] == CampaignEvent.BIG_PUSH:
            count += 2  # §13.2
        if events[offensive] == CampaignEvent.LULL:
            count = max(count - 2, 0)  # §13.7
        report: list[list[Any]] = []
        first = len(state.sorties) + 1
        drawn_once: set[int] = set()
        day_sorties: list[Sortie] = []
        for i in range(count):
            entry = card.mission_for(self._draw(state))
            if entry.once and (entry.number in state.once or entry.number in drawn_once):
                entry = card.mission(entry.instead or entry.number)  # §5.11 note
            if entry.once:
                drawn_once.add(entry.number)
            sortie = Sortie(
                number=first + i,
                day=state.day,
                phase="morning" if i < (count + 1) // 2 else "afternoon",
                mission=entry.number,
                type=entry.type.value,
                attacker=entry.attacker.value,
                zone=entry.zone.value,
                altitude=entry.altitude.code,
            )
            if entry.type is EngagementType.PATROL and any(
                events[s] == CampaignEvent.GROUND_SUPPORT for s in SIDES
            ):
                # §13.5: Trench Strafing at Treetop over the defender's Front Lines.
                sortie.converted = "TS"
                sortie.type = EngagementType.TRENCH_STRAFING.value
                sortie.zone = Zone.front_lines(entry.attacker.opponent).value
                sortie.altitude = Altitude.TREETOP.code
            day_sorties.append(sortie)
        self._mission_aircraft(state, day_sorties, events)
        state.sorties.extend(day_sorties)
        chits = self.tables.chits_for(count) if count else None
        state.chits = (
            {"engagement": chits.engagement, "encounter": chits.encounter} if chits else {}
        )
        self._shuffle(state)  # §3.7: after drawing for all of a day's Missions
        for side in SIDES:
            for p in state.squadrons[side].pilots:
                if p.exhausted and p.status != "lost":
                    total = p.fatigue + self._fire(self._draw(state))
                    if total <= 8:  # §8.25
                        p.exhausted = p.worn = False
                        report.append(["recovered", {"side": side, "pilot": p.id}])
        state.days.append({"day": state.day, "events": events, "predawn": report, "evening": []})
        state.phase = "morning"
        self._start_phase(state)

    def _mission_aircraft(
        self, state: CampaignState, sorties: list[Sortie], events: Mapping[str, str]
    ) -> None:
        """Mission aircraft (§5.42): drawn from the Engagement type's list (Normal
        Activity), the card's (historical campaigns), none (Quiet Sector); Dolphins
        (§13.3) and Schlachtstas (§13.10) join the day's Trench Strafing."""
        card = self.card(state)
        when = self.when(state)
        for s in sorties:
            entry = card.mission(s.mission)
            planes: dict[str, list[str]] = {}
            if card.mission_aircraft and s.converted is None:
                if entry.mission_aircraft:
                    planes[s.attacker] = list(entry.mission_aircraft)
                elif entry.draw_mission_aircraft:
                    spec = self.components.tables.engagement(EngagementType(s.type))
                    mission = spec.mission(Side(s.attacker))
                    if mission is not None:
                        types = [
                            a
                            for a in mission.choices
                            if self.components.aircraft[a].available(when)
                        ] or list(mission.choices)
                        chosen = self._cup(state, types)
                        planes[s.attacker] = [chosen] * mission.count
            if s.type == EngagementType.TRENCH_STRAFING.value:
                if events["allied"] == CampaignEvent.DOLPHINS and s.attacker == "allied":
                    planes.setdefault("allied", []).extend([self._dolphin()] * 3)
                if events["german"] == CampaignEvent.SCHLACHTSTAS:
                    planes.setdefault("german", []).extend([self._cl(when)] * 2)
            s.mission_aircraft = planes

    def _dolphin(self) -> str:
        found = dolphin_type(self.components.aircraft)
        assert found is not None, "check_card: Dolphins only on a card where one flies"
        return found

    def _cl(self, when: YearMonth) -> str:
        """The German CL type the German player would choose: the first in service."""
        cls = schlachtsta_types(self.components)
        return next((a for a in cls if self.components.aircraft[a].available(when)), cls[0])

    def _start_phase(self, state: CampaignState) -> None:
        """A Morning or Afternoon Phase (§4.2-4.3): the weather (§6.1), Fog's Patrols
        (§5.33), an Ice Storm's grounding (L1934), then its first mission."""
        if state.carry is not None:
            weather = Weather(state.carry)  # §6.13
            state.carry = None
        else:
            weather = self.components.tables.weather_for(self._draw(state), self.when(state).month)
        effect = self.components.tables.weather_effect(weather)
        state.weather = weather.value
        state.carry = effect.next_phase.value if effect.next_phase is not None else None
        for s in self._phase_sorties(state):
            s.weather = weather.value
            if effect.patrol_only and s.type != EngagementType.PATROL.value:
                # §5.33 and its Play Note: the Fog's own Patrol (authored: over No
                # Man's Land at Low, docs/rules-decisions.md).
                s.converted = "P"
                s.type = EngagementType.PATROL.value
                s.zone = Zone.NO_MANS_LAND.value
                s.altitude = Altitude.LOW.code
                s.mission_aircraft = {}
            if effect.grounded:
                s.status = "cancelled"
                s.report.append(["grounded", {"weather": weather.value}])
        self._next_sortie(state)

    def _phase_sorties(self, state: CampaignState) -> list[Sortie]:
        return [
            s
            for s in state.sorties
            if s.day == state.day and s.phase == state.phase and s.status == "ahead"
        ]

    def current(self, state: CampaignState) -> Sortie | None:
        """The mission being assigned or flown."""
        return next((s for s in state.sorties if s.status in ("assigning", "flying")), None)

    def _next_sortie(self, state: CampaignState) -> None:
        """Open the phase's next mission for assignments, resolving at once those no
        one may assign to; after the phase's last, the next phase or the Evening."""
        while True:
            ahead = self._phase_sorties(state)
            if not ahead:
                if state.phase == "morning":
                    state.phase = "afternoon"
                    self._start_phase(state)
                else:
                    self._evening(state)
                return
            s = ahead[0]
            s.status = "assigning"
            if not self.pending(state):
                self._resolve(state, s)
                if s.status == "flying":
                    return
                continue
            return

    # --- assignments -------------------------------------------------------------------
    def flight_limit(self, state: CampaignState, side: str) -> int:
        sq = state.squadrons[side]
        limit = MAX_FLIGHT
        if sq.event == CampaignEvent.FUEL_SHORTAGE and sq.glory < FUEL_SHORTAGE_GLORY:
            limit = FUEL_SHORTAGE_FLIGHT  # §13.4
        return min(limit, len(sq.ready_planes()))

    def may_assign(self, state: CampaignState, side: str) -> bool:
        s = self.current(state)
        if s is None or s.status != "assigning":
            return False
        entry = self.card(state).mission(s.mission)
        if entry.no_squadron is not None and entry.no_squadron.value == side and not s.converted:
            return False  # L1923
        sq = state.squadrons[side]
        return bool(sq.ready_pilots()) and self.flight_limit(state, side) > 0

    def pending(self, state: CampaignState) -> list[CampaignDecision]:
        s = self.current(state)
        if s is None or s.status != "assigning":
            return []
        return [
            CampaignDecision(side, "assign", secret=True, mission=s.number)
            for side in SIDES
            if side not in s.assigned and self.may_assign(state, side)
        ]

    def legal_actions(self, state: CampaignState, side: str) -> list[AssignAction]:
        """Every assignment (§5.41): none, or up to six ready pilots (three on Fuel
        Shortage, no more than the undamaged aircraft), with a Flight Leader or, if
        none, an Experienced pilot when one is ready; with two or more Flight Leaders,
        which one leads."""
        if side not in [d.side for d in self.pending(state)]:
            return []
        s = self.current(state)
        assert s is not None
        ready = state.squadrons[side].ready_pilots()
        limit = self.flight_limit(state, side)
        experienced_ready = any(p.effective_quality() == "experienced" for p in ready)
        out = [AssignAction(mission=s.number)]

        def walk(start: int, chosen: list[Pilot]) -> None:
            if chosen:
                leaders = [p for p in chosen if p.is_leader]
                if (
                    leaders
                    or not experienced_ready
                    or any(p.effective_quality() == "experienced" for p in chosen)
                ):
                    ids = tuple(p.id for p in chosen)
                    for lead in leaders:
                        out.append(AssignAction(mission=s.number, pilots=ids, lead=lead.id))
                    if not leaders:
                        out.append(AssignAction(mission=s.number, pilots=ids))
            if len(chosen) == limit:
                return
            for i in range(start, len(ready)):
                walk(i + 1, [*chosen, ready[i]])

        walk(0, [])
        return out

    def normal(self, state: CampaignState, side: str, action: AssignAction) -> AssignAction:
        """``action`` with its lead filled in where one Flight Leader flies (§5.41)."""
        sq = state.squadrons.get(side)
        if sq is None or not action.pilots:
            return action
        known = {p.id: i for i, p in enumerate(sq.pilots)}
        pilots = tuple(sorted(action.pilots, key=lambda pid: known.get(pid, len(known))))
        leaders = [pid for pid in pilots if pid in known and sq.pilots[known[pid]].is_leader]
        lead = leaders[0] if len(leaders) == 1 and action.lead is None else action.lead
        return action.model_copy(update={"pilots": pilots, "lead": lead})

    def _check(self, state: CampaignState, side: str, action: AssignAction) -> None:
        s = self.current(state)
        if s is None or s.status != "assigning":
            raise RuleViolation(Term("campaign.eagles.no_mission"))
        if side not in SIDES:
            raise RuleViolation(Term("campaign.eagles.no_side", side=side))
        if action.mission != s.number:
            raise RuleViolation(
                Term("campaign.eagles.wrong_mission", mission=s.number, given=action.mission)
            )
        if side in s.assigned:
            raise RuleViolation(Term("campaign.eagles.already", mission=s.number))
        if not self.may_assign(state, side):
            raise RuleViolation(Term("campaign.eagles.may_not", mission=s.number))
        sq = state.squadrons[side]
        known = {p.id: p for p in sq.pilots}
        for pid in action.pilots:
            p = known.get(pid)
            if p is None:
                raise RuleViolation(Term("campaign.eagles.no_pilot", pilot=pid))
            if not p.available():
                why = "grounded" if p.grounded else "held" if p.held else p.status
                raise RuleViolation(
                    Term("campaign.eagles.unavailable", pilot=f"{pid} {p.name}", why=why)
                )
        if len(set(action.pilots)) != len(action.pilots):
            raise RuleViolation(Term("campaign.eagles.twice"))
        limit = self.flight_limit(state, side)
        if len(action.pilots) > limit:
            raise RuleViolation(Term("campaign.eagles.too_many", n=len(action.pilots), max=limit))
        leaders = [pid for pid in action.pilots if known[pid].is_leader]
        if action.lead is not None and action.lead not in leaders:
            raise RuleViolation(Term("campaign.eagles.bad_lead", pilot=action.lead))
        if len(leaders) > 1 and action.lead is None:
            raise RuleViolation(Term("campaign.eagles.which_lead"))
        experienced = any(p.effective_quality() == "experienced" for p in sq.ready_pilots())
        if (
            action.pilots
            and not leaders
            and experienced
            and not any(known[pid].effective_quality() == "experienced" for pid in action.pilots)
        ):
            raise RuleViolation(Term("campaign.eagles.bad_flight"))

    def apply(self, state: CampaignState, side: str, action: AssignAction) -> CampaignState:
        action = self.normal(state, side, action)
        self._check(state, side, action)
        new = _copy(state)
        s = self.current(new)
        assert s is not None
        s.assigned[side] = action
        if not self.pending(new):
            self._resolve(new, s)
            if s.status == "done":
                self._next_sortie(new)
        return new

    def default_action(self, state: CampaignState, side: str) -> AssignAction:
        """At a deadline: a Flight Leader and up to three of the least tired pilots."""
        return self._policy(state, side, size=4)

    def computer_action(self, state: CampaignState, side: str, seed: int) -> AssignAction:
        """A computer squadron commander: two to six of the least tired pilots (more
        for a Patrol), led by a Flight Leader, sparing the exhausted."""
        rng = Rng(seed)
        return self._policy(state, side, size=2 + rng.below(5))

    def _policy(self, state: CampaignState, side: str, size: int) -> AssignAction:
        legal = self.legal_actions(state, side)
        if not legal:
            raise RuleViolation(Term("campaign.eagles.nothing", side=side))
        s = self.current(state)
        assert s is not None
        ready = state.squadrons[side].ready_pilots()
        rested = sorted(ready, key=lambda p: (p.exhausted, p.fatigue, not p.is_leader, p.id))
        leaders = [p for p in rested if p.is_leader]
        team: list[Pilot] = leaders[:1]
        for p in rested:
            if len(team) >= min(size, self.flight_limit(state, side)):
                break
            if p not in team and (p.fatigue < 8 or len(team) < 2):
                team.append(p)
        ids = tuple(p.id for p in ready if p in team)
        lead = team[0].id if team and team[0].is_leader else None
        candidate = AssignAction(mission=s.number, pilots=ids, lead=lead)
        return candidate if candidate in legal else legal[-1]

    def parse_action(self, text: str) -> AssignAction:
        m = _NOTATION.match(text.strip())
        if m is None:
            raise MalformedAction(Term("campaign.eagles.notation", text=text))
        if m.group(2) == "none":
            return AssignAction(mission=int(m.group(1)))
        words = m.group(2).split()
        lead = next((w.rstrip("*") for w in words if w.endswith("*")), None)
        return AssignAction(
            mission=int(m.group(1)), pilots=tuple(w.rstrip("*") for w in words), lead=lead
        )

    def opening(self, state: CampaignState) -> Happenings:
        """The first day's missions (§5.1), and what its first phase settled at once
        (a mission grounded by the weather)."""
        return self._news(state, set(), 0, lambda day: False)

    def happenings(self, before: CampaignState, after: CampaignState) -> Happenings:
        """Each mission settled from ``before`` to ``after`` with its report (the
        Encounters, the weather's groundings, the Safe Returns after a game), each
        Evening's report, each new day's missions."""
        settled = {s.number for s in before.sorties if s.status in ("done", "cancelled")}
        news = self._news(after, settled, before.day, lambda day: _evening_done(before, day))
        return Happenings(news.lines, sheet=after.day != before.day or self.is_over(after))

    def _news(
        self,
        after: CampaignState,
        settled: set[int],
        since_day: int,
        told_evening: Callable[[int], bool],
    ) -> Happenings:
        """What ``after`` holds that was not yet told: the missions settled beyond
        ``settled``, the Evenings done beyond ``told_evening``, the days after
        ``since_day``."""
        lines: list[str] = []
        for day in after.days:  # in the order things happened
            d = int(day["day"])
            if d > since_day:
                drawn = ", ".join(
                    str(s.mission) + (f" ({s.converted})" if s.converted else "")
                    for s in after.sorties
                    if s.day == d
                )
                lines.append(Term("campaign.eagles.day", day=d, missions=drawn or "-"))
                lines.extend(_line(after, key, params) for key, params in day["predawn"])
            for s in after.sorties:
                if s.day != d or s.number in settled or s.status not in ("done", "cancelled"):
                    continue
                lines.append(
                    Term("campaign.eagles.settled", number=s.number, title=self._title(after, s))
                )
                lines.extend(_line(after, key, params) for key, params in s.report)
            if _evening_done(after, d) and not told_evening(d) and day["evening"]:
                lines.append(Term("campaign.eagles.evening", day=d))
                lines.extend(_line(after, key, params) for key, params in day["evening"])
        return Happenings(tuple(lines), sheet=True)

    def public_text(self, state: CampaignState, entry: CampaignEntry) -> str:
        """An assignment is secret until both are made (the mission then resolves)."""
        if entry.kind is not EntryKind.DECISION:
            return entry.text
        action = self.parse_action(entry.text)
        s = self.current(state)
        hidden = s is not None and s.number == action.mission and s.status == "assigning"
        return f"assign #{action.mission} (secret)" if hidden else entry.text

    # --- resolving a mission -----------------------------------------------------------
    def _flight(self, state: CampaignState, side: str, s: Sortie) -> list[list[Any]]:
        """The assigned pilots, each in the squadron's next undamaged aircraft (§5.43)."""
        action = s.assigned.get(side)
        if action is None:
            return []
        planes = state.squadrons[side].ready_planes()
        return [[pid, planes[i].id] for i, pid in enumerate(action.pilots)]

    def _resolve(self, state: CampaignState, s: Sortie) -> None:
        """Both have assigned: the chit (§5.44), then an Encounter, a game, or §5.45."""
        if s.status == "cancelled":
            return
        entry = self.card(state).mission(s.mission)
        barred = {
            side: entry.no_squadron is not None
            and entry.no_squadron.value == side
            and not s.converted
            for side in SIDES
        }
        for side in SIDES:
            s.flights[side] = self._flight(state, side, s)
            for pid, _ in s.flights[side]:
                state.squadrons[side].pilot(pid).today = True
        flying = {side: bool(s.flights[side]) for side in SIDES}
        s.chit = self._draw_chit(state)
        s.report.append(["chit", {"chit": s.chit}])
        for side in SIDES:
            if not flying[side] and flying[_other(side)] and not barred[side]:
                s.points[_other(side)] = s.points.get(_other(side), 0) + 1  # §14.16
                s.report.append(["bonus", {"side": _other(side)}])
        if s.chit == "encounter":
            for side in SIDES:
                if flying[side]:
                    self._encounter(state, side, s)
            self._after_mission(state, s)
            return
        missions = {side: bool(s.mission_aircraft.get(side)) for side in SIDES}
        if all(flying[sd] or missions[sd] for sd in SIDES):
            s.status = "flying"  # §5.44; §5.45: Mission aircraft alone play it out
            return
        for side in SIDES:
            other = _other(side)
            if not flying[side] and not missions[side] and flying[other]:
                # §5.45: not played, 3 Campaign Points to the other (none if it did not
                # assign any aircraft either: its Mission aircraft alone score nothing).
                s.points[other] = s.points.get(other, 0) + 3
                s.report.append(["walkover", {"side": other}])
        for side in SIDES:  # §8.12: a pilot assigned to a Mission gains its Fatigue
            for pid, number in s.flights[side]:
                self._return(state, side, s, pid, number, {}, escaped=False, engine_out=False)
        self._after_mission(state, s)

    def _draw_chit(self, state: CampaignState) -> Literal["engagement", "encounter"]:
        eng, enc = state.chits.get("engagement", 0), state.chits.get("encounter", 0)
        if eng + enc == 0:
            return "engagement"
        drawn = self._cup(state, ["engagement"] * eng + ["encounter"] * enc)
        chit: Literal["engagement", "encounter"] = (
            "engagement" if drawn == "engagement" else "encounter"
        )
        state.chits[chit] -= 1
        return chit

    def _encounter(self, state: CampaignState, side: str, s: Sortie) -> None:
        """An Encounter (§7.2): the Encounter Table by the Flight's Scouts (+5 with
        Mission aircraft), then the damage draws (§7.24-7.25)."""
        sq = state.squadrons[side]
        ac = self.components.aircraft[sq.aircraft]
        scouts = len(s.flights[side]) if ac.scout else 0
        if not scouts:
            s.report.append(["no_scouts", {"side": side}])  # §7.21 note
            for pid, plane in s.flights[side]:
                self._return(state, side, s, pid, plane, {}, escaped=False, engine_out=False)
            return
        number = self._draw(state)
        modified = number + (
            self.tables.encounter_mission_modifier if s.mission_aircraft.get(side) else 0
        )
        result = self.tables.encounter_result(modified, scouts)
        s.report.append(
            [
                "encounter",
                {"side": side, "card": number, "modified": modified, "result": str(result)},
            ]
        )
        if result.campaign:
            s.points[side] = s.points.get(side, 0) + min(result.campaign, 1)  # §14.15
        if result.glory:
            s.glory[side] = s.glory.get(side, 0) + result.glory
            sq.glory += result.glory
        if result.leader_kill:
            lead = s.assigned[side].lead or next(
                (pid for pid, _ in s.flights[side] if sq.pilot(pid).is_leader), None
            )
            if lead is not None:
                sq.pilot(lead).kills += 1  # §7.26, §9.33
                s.report.append(["leader_kill", {"side": side, "pilot": lead}])
        hits: dict[str, dict[str, int]] = {pid: {} for pid, _ in s.flights[side]}
        for pid in self._damage_order(sq, s.flights[side], result.draws):
            self._damage_draw(state, side, s, pid, hits[pid], ac.defence)
        for pid, plane in s.flights[side]:
            self._return(state, side, s, pid, plane, hits[pid], escaped=False, engine_out=False)

    def _damage_order(self, sq: Squadron, flight: list[list[Any]], draws: int) -> list[str]:
        """Who takes each damage draw (§7.24): Green pilots' aircraft first, every
        aircraft once before any twice, two at most. The rest is the player's choice:
        the campaign gives them to the least experienced first (the policy in
        docs/rules-decisions.md)."""
        rank = {"green": 0, "inexperienced": 1, "experienced": 2, "leader": 3, "ace": 4}
        order = sorted(
            (pid for pid, _ in flight),
            key=lambda pid: rank[sq.pilot(pid).effective_quality()],  # §8.22
        )
        out = [*order, *order][:draws]
        return out

    def _damage_draw(
        self,
        state: CampaignState,
        side: str,
        s: Sortie,
        pid: str,
        hits: dict[str, int],
        defence: DefenceClass,
    ) -> None:
        """One damage draw (§7.25): a Fire Value 3 attack; a hit reads the 1-Gun column
        on the aircraft's Defensive Class; a Guns Jammed card has no effect."""
        number = self._draw(state)
        card = self.components.deck.card(number)
        if card.jammed or card.fire is None or card.fire > 3:
            s.report.append(["miss", {"side": side, "pilot": pid, "card": number}])
            return
        kind = card.damage_for(1, defence)
        s.report.append(["hit", {"side": side, "pilot": pid, "card": number, "result": kind.value}])
        if kind is DamageKind.SUPERFICIAL:
            return
        if kind is DamageKind.ON_FIRE:
            pilot = state.squadrons[side].pilot(pid)
            if self._extinguish(state, s, pilot):
                kind = DamageKind.STRUCTURE
            else:
                hits["fire"] = 1
                return
        if kind is DamageKind.CREW:
            self._crew_hit(state, state.squadrons[side].aircraft, hits)
            return
        hits[kind.value] = hits.get(kind.value, 0) + 1

    def _crew_hit(self, state: CampaignState, aircraft: str, hits: dict[str, int]) -> None:
        """A Crew hit (§10.87): with a gunner aboard a first card says who (Fire Value
        1-3 the pilot, 4-6 the gunner, Guns Jammed both); then a card for each: Fire
        Value 1-4 wounded, 5-6 killed, Guns Jammed wounded (killed if wounded
        already). ``hits`` keeps ``pilot`` and ``gunner``: 1 wounded, 2 killed."""
        crew = ["pilot"]
        if self.components.aircraft[aircraft].rear_gunner and hits.get("gunner") != 2:
            crew.append("gunner")
        if hits.get("pilot") == 2:
            crew.remove("pilot")
        if len(crew) > 1:
            card = self.components.deck.card(self._draw(state))
            if not card.jammed:
                crew = ["pilot" if (card.fire or 0) <= 3 else "gunner"]
        for who in crew:
            c = self.components.deck.card(self._draw(state))
            if c.jammed:
                hits[who] = 2 if hits.get(who) == 1 else 1
            else:
                hits[who] = 2 if (c.fire or 0) > 4 else max(hits.get(who, 0), 1)

    def _extinguish(self, state: CampaignState, s: Sortie, pilot: Pilot) -> bool:
        """A Flight Leader or Ace may put a fire out (§10.88): Fire Value 6 or more, +1
        with a Flying Rating of 3 or more; in Rain any pilot at Low or Treetop may try,
        at +2 (the weather's ``on_fire_bonus``)."""
        effect = self.components.tables.weather_effect(Weather(s.weather))
        rain = effect.on_fire_bonus if s.altitude in ("T", "L") else 0
        leader = pilot.is_leader and pilot.leader is not None
        if not (leader or rain):
            return False
        fire = self._fire(self._draw(state))
        if not fire:
            return False
        bonus = rain
        if leader and pilot.leader is not None:
            flying = self.components.leaders[pilot.leader].flying - (1 if pilot.exhausted else 0)
            bonus += 1 if flying >= 3 else 0
        return fire + bonus >= 6

    def _destroyed(self, aircraft: str, hits: Mapping[str, int]) -> bool:
        """Hits that shoot an aircraft down (§10.82-10.87): a fire not put out, two
        Wing or Control hits, the Structure hits of its class, a killed pilot (unless
        Dual Controls and a live gunner fly it home, §13.21)."""
        ac = self.components.aircraft[aircraft]
        structure = ac.structure_hits_to_destroy - (1 if ac.defence is DefenceClass.FRAGILE else 0)
        flown_home = (
            Characteristic.DUAL_CONTROLS in ac.characteristics
            and ac.rear_gunner
            and hits.get("gunner") != 2
        )
        return bool(
            hits.get("fire")
            or hits.get("wing", 0) >= 2
            or hits.get("control", 0) >= 2
            or hits.get("structure", 0) >= structure
            or (hits.get("pilot") == 2 and not flown_home)
        )

    def _return(
        self,
        state: CampaignState,
        side: str,
        s: Sortie,
        pid: str,
        number: int,
        hits: dict[str, int],
        *,
        escaped: bool,
        engine_out: bool,
        shot_down: bool = False,
        by: str | None = None,
        weather: str | None = None,
    ) -> bool:
        """After a mission: shot down, Safe Return (§5.6), or home; the pilot's fatigue
        for it (§8.12) and his Exhaustion draw (§8.21). True if the pilot came home."""
        sq = state.squadrons[side]
        pilot, plane = sq.pilot(pid), sq.plane(number)
        engine_out = engine_out or hits.get("engine", 0) >= 2
        if shot_down or (self._destroyed(sq.aircraft, hits) and not engine_out):
            self._lose_plane(sq, plane)
            self._lose_pilot(sq, pilot, "killed_in_action")
            s.report.append(["shot_down", {"side": side, "pilot": pid, "plane": number}])
            if by is not None:
                self._credit(state, s, _other(side), by)
            return False
        plane.hits = {k: hits.get(k, 0) for k in ("structure", "wing", "control", "engine")}
        wounded = hits.get("pilot") == 1
        killed = hits.get("pilot") == 2  # Dual Controls: the gunner flies it home
        damaged = bool(
            sum(v for k, v in plane.hits.items() if k != "structure") or plane.hits["structure"] > 1
        )
        must = damaged or wounded or killed or engine_out  # §5.61-5.62, §5.64
        if pilot.exhausted and pilot.quality == "green":
            must = True  # §8.22 (a Green pilot's; the others only fly as Green)
        camel = "camel" in sq.aircraft and pilot.effective_quality() in ("green", "inexperienced")
        if camel and state.setup.aircraft_rules:
            must = True  # §5.63 (optional)
        fatigue = 1
        if s.altitude == "H":
            fatigue += 1
        effect = self.components.tables.weather_effect(Weather(s.weather))
        if effect.fatigue and (not effect.fatigue_low_only or s.altitude in ("T", "L")):
            fatigue += effect.fatigue
        if camel and state.setup.aircraft_rules:
            fatigue += 1  # §8.12 (optional)
        home = True
        if must:
            fatigue += 1
            home = self._safe_return(
                state, side, s, pilot, plane, hits, engine_out, by, weather or s.weather
            )
        if killed and pilot.status != "lost":
            self._lose_pilot(sq, pilot, "killed_in_action")
            s.report.append(["crew_lost", {"side": side, "pilot": pid}])
        if wounded and pilot.status != "lost":
            pilot.status = "wounded"  # §10.21
            pilot.fate = "wounded"
            s.report.append(["wounded", {"side": side, "pilot": pid}])
        plane.hits.pop("structure", None)  # §10.11
        plane.hits = {k: v for k, v in plane.hits.items() if v}
        if pilot.status == "lost":
            return False
        pilot.fatigue = min(pilot.fatigue + fatigue, MAX_FATIGUE)  # §8.12, §8.24
        if pilot.fatigue >= MAX_FATIGUE:
            pilot.worn = True  # §8.24: grounded until he recovers from Exhaustion
        pilot.missions += 1
        pilot.flown += 1
        if pilot.fatigue >= 4 and not pilot.exhausted:  # §8.21
            fire = self._fire(self._draw(state))
            if pilot.fatigue + fire >= 10:
                pilot.exhausted = True
                s.report.append(["exhausted", {"side": side, "pilot": pid}])
        return home

    def _safe_return(
        self,
        state: CampaignState,
        side: str,
        s: Sortie,
        pilot: Pilot,
        plane: Plane,
        hits: Mapping[str, int],
        engine_out: bool,
        by: str | None,
        weather: str,
    ) -> bool:
        """A Safe Return check (§5.65-5.66): the card number plus the modifiers against
        the zone's and nationality's column; a lost aircraft's crew draws for Aircrew
        Survival (German parachutes from July 1918: -20, the aircraft lost)."""
        sq = state.squadrons[side]
        table = self.tables.safe_return
        column = table.column(Zone(s.zone), Side(side))
        modifier = sum(table.hit.get(k, 0) * v for k, v in hits.items() if k in table.hit)
        if hits.get("pilot") == 1:
            modifier += table.wounded_pilot
        if engine_out:
            modifier += table.engine_out
        if pilot.exhausted and pilot.quality == "green" and not hits:
            modifier += table.exhausted_green
        effect = self.components.tables.weather_effect(Weather(weather))  # §12.9's too
        modifier += effect.safe_return_allied if side == "allied" else effect.safe_return_german
        chance = max(0, min(DECK_SIZE, column.safe - modifier)) / DECK_SIZE
        parachute = (
            side == "german"
            and self.when(state) >= table.parachutes_from
            and chance < 0.5  # the campaign's policy: jump when the odds are worse
        )
        if parachute:
            s.report.append(["parachute", {"side": side, "pilot": pilot.id}])
            survive = self._draw(state) + table.parachute
        else:
            number = self._draw(state)
            total = number + modifier
            if column.returns(total):
                s.report.append(
                    ["safe", {"side": side, "pilot": pilot.id, "card": number, "total": total}]
                )
                return True
            s.report.append(
                ["lost", {"side": side, "pilot": pilot.id, "card": number, "total": total}]
            )
            survive = self._draw(state)
        self._lose_plane(sq, plane)
        if by is not None:
            self._credit(state, s, _other(side), by)  # §9.32
        if s.chit == "engagement":
            s.vp[_other(side)] = s.vp.get(_other(side), 0) + self._lost_vp(sq.aircraft, hits)
        if column.survives(survive):
            s.report.append(["survived", {"side": side, "pilot": pilot.id}])
            return True
        self._lose_pilot(sq, pilot, "missing")
        s.report.append(["crew_lost", {"side": side, "pilot": pilot.id}])
        return False

    def _lost_vp(self, aircraft: str, hits: Mapping[str, int]) -> int:
        """What a Safe Return loss adds to the enemy's VP (§5.65): the shoot-down's
        VP less the damage VP already counted (§16.21)."""
        ac = self.components.aircraft[aircraft]
        down, damaged = (3, 2) if ac.scout else (5, 3)
        points = sum(v for k, v in hits.items() if k in ("structure", "wing", "control", "engine"))
        return down - (damaged if points >= 2 else 0)

    def _credit(self, state: CampaignState, s: Sortie, side: str, pid: str) -> None:
        """A Safe Return loss counts as shot down by the last pilot who damaged the
        aircraft (§9.32): his kill, towards advancement (§9.1) and Ace (§9.31)."""
        sq = state.squadrons[side]
        if any(p.id == pid for p in sq.pilots):
            sq.pilot(pid).kills += 1
            s.report.append(["kill", {"side": side, "pilot": pid}])

    def _lose_plane(self, sq: Squadron, plane: Plane) -> None:
        if not plane.lost:
            plane.lost = True
            sq.lost_planes += 1

    def _lose_pilot(self, sq: Squadron, pilot: Pilot, fate: str) -> None:
        if pilot.status != "lost":
            pilot.status = "lost"
            pilot.fate = fate
            sq.lost_pilots += 1

    def _after_mission(self, state: CampaignState, s: Sortie) -> None:
        """Post-mission (§5.5): advancement (§9.1), Aces (§9.31), cannibalisation
        (§10.12); the mission's Campaign Points; the deck reshuffled (§3.7)."""
        for side in SIDES:
            sq = state.squadrons[side]
            for pid, _ in s.flights.get(side, []):
                self._advance(sq, sq.pilot(pid), s)
            sq.cannibalise()
            sq.points += s.points.get(side, 0)
        entry = self.card(state).mission(s.mission)
        if entry.once and not s.converted:
            state.once.append(entry.number)
        s.status = "done"
        self._shuffle(state)

    def _advance(self, sq: Squadron, pilot: Pilot, s: Sortie) -> None:
        """§9.11-9.12: two missions (Green) or three (Inexperienced), or a kill on the
        first (Green) or first two (Inexperienced); §9.31: an Ace at three kills for a
        Flight Leader, five for another pilot."""
        if pilot.status == "lost":
            return
        kills_now = sum(
            1
            for k in s.report
            if k[0] == "kill" and k[1].get("pilot") == pilot.id and k[1].get("side") == sq.side
        )
        if pilot.quality == "green" and (
            pilot.missions >= 2 or (kills_now and pilot.missions == 1)
        ):
            pilot.quality = "inexperienced"
            # A kill on his first mission: that mission counts towards Experienced.
            pilot.missions = 1 if kills_now and pilot.missions == 1 else 0
            s.report.append(
                ["advanced", {"side": sq.side, "pilot": pilot.id, "to": "inexperienced"}]
            )
        elif pilot.quality == "inexperienced" and (
            pilot.missions >= 3 or (kills_now and pilot.missions <= 2)
        ):
            pilot.quality = "experienced"
            pilot.missions = 0
            s.report.append(["advanced", {"side": sq.side, "pilot": pilot.id, "to": "experienced"}])
        if pilot.is_leader and pilot.quality == "leader" and pilot.kills >= 3:
            pilot.quality = "ace"
            s.report.append(["ace", {"side": sq.side, "pilot": pilot.id}])
        elif not pilot.is_leader and pilot.kills >= 5 and not pilot.ace:
            pilot.ace = True
            s.report.append(["ace", {"side": sq.side, "pilot": pilot.id}])

    # --- the Evening ---------------------------------------------------------------
    def _evening(self, state: CampaignState) -> None:
        """The Evening Phase (§4.4): victory on the last day; otherwise the Campaign
        Events (§11.2), repair (§10.1), wounds (§10.22), replacements (§10.3),
        promotions (§9.2), fatigue (§8.13), the chits back in the cup."""
        card = self.card(state)
        report: list[list[Any]] = state.days[-1]["evening"]
        last = state.day >= self.days(state)
        events = {side: CampaignEvent.NONE.value for side in SIDES}
        if not last:
            for side in SIDES:
                number = self._draw(state)
                event = card.campaign_event(number)
                if (event is CampaignEvent.DOLPHINS and side != "allied") or (
                    event is CampaignEvent.SCHLACHTSTAS and side != "german"
                ):
                    event = CampaignEvent.NONE  # §11.22
                if event in (CampaignEvent.BIG_PUSH, CampaignEvent.LULL) and side != card.offensive:
                    event = CampaignEvent.NONE  # §11.23
                if event is CampaignEvent.FUEL_SHORTAGE and (
                    state.squadrons[side].glory >= FUEL_SHORTAGE_GLORY
                ):
                    event = CampaignEvent.NONE  # §13.4
                events[side] = event.value
                report.append(["event", {"side": side, "card": number, "event": event.value}])
        for side in SIDES:
            self._evening_side(state, side, CampaignEvent(events[side]), last, report)
        if last:
            state.phase = "over"
            return
        state.day += 1
        for side in SIDES:
            state.squadrons[side].event = events[side]
        self._predawn(state)

    def _evening_side(
        self,
        state: CampaignState,
        side: str,
        event: CampaignEvent,
        last: bool,
        report: list[list[Any]],
    ) -> None:
        sq = state.squadrons[side]
        points = REPAIR_POINTS
        if event is CampaignEvent.PARTS_SHORTAGE:
            points -= 2  # §13.8
        if event is CampaignEvent.SCROUNGING:
            points += 3  # §13.11
        sq.cannibalise()  # §10.14
        spent = sq.repair(points)
        if spent:
            report.append(["repaired", {"side": side, "hits": spent}])
        for p in sq.pilots:
            if p.status == "wounded":  # §10.22
                fire = self._fire(self._draw(state))
                p.status = "ready" if fire == 0 else "out"
                p.back = state.day + 1 + fire
                if fire and p.back > self.days(state):
                    self._lose_pilot(sq, p, "invalided")  # §10.23: replaced
                report.append(["wound", {"side": side, "pilot": p.id, "days": fire}])
            elif p.status == "out" and p.back <= state.day + 1:
                p.status = "ready"
                report.append(["back", {"side": side, "pilot": p.id}])
        if not last:
            self._replacements(state, sq, event, report)
            self._promote(state, sq, report)
        for p in sq.pilots:  # §8.13, §13.6, §13.9
            rest = 2 + (0 if p.today else 2) + (3 if event is CampaignEvent.PARTY else 0)
            p.fatigue = 0 if p.held else max(0, p.fatigue - rest)
            p.today = False
            p.held = False
        if event is CampaignEvent.LEAVE and not last:
            tired = sorted(
                (p for p in sq.pilots if p.status == "ready" and p.fatigue),
                key=lambda p: (-p.fatigue, p.id),
            )[:LEAVE_PILOTS]
            for p in tired:
                p.held = True  # §13.6: out of tomorrow's missions, rested that Evening
            if tired:
                report.append(["leave", {"side": side, "pilots": " ".join(p.id for p in tired)}])

    def _replacements(
        self, state: CampaignState, sq: Squadron, event: CampaignEvent, report: list[list[Any]]
    ) -> None:
        """§10.31-10.34: one draw per pilot lost and aircraft destroyed since the last
        Evening; the free pilot or aircraft of an Event; never more than twelve."""
        table = self.tables.replacement
        when = self.when(state)
        card = self.card(state)
        side = sq.side
        used = {p.name for p in sq.pilots}
        rng = Rng(state.rng)
        if (
            event is CampaignEvent.AIRCRAFT_PRODUCTION_INCREASE
            and len(sq.active_planes()) < SQUADRON_SIZE
        ):
            sq.add_plane()
            report.append(["free_plane", {"side": side}])
        if event is CampaignEvent.TRAINING_SCHOOLS and len(sq.active_pilots()) < SQUADRON_SIZE:
            p = sq.add_pilot(self._new_name(side, rng, used), "green")
            report.append(["free_pilot", {"side": side, "pilot": p.id}])
        quality: Literal["green", "inexperienced"] = "green"
        if side == "german" and when < table.german_green_from and not card.all_green_replacements:
            quality = "inexperienced"  # §10.32
        for _ in range(sq.lost_pilots):
            if len(sq.active_pilots()) >= SQUADRON_SIZE:
                break
            number = self._draw(state)
            total = number + table.per_glory * sq.glory
            ok = total <= table.pilot
            if ok:
                p = sq.add_pilot(self._new_name(side, rng, used), quality)
                report.append(["new_pilot", {"side": side, "pilot": p.id, "total": total}])
            else:
                report.append(["no_pilot", {"side": side, "total": total}])
        for _ in range(sq.lost_planes):
            if len(sq.active_planes()) >= SQUADRON_SIZE:
                break
            number = self._draw(state)
            total = number + table.per_glory * sq.glory
            if side == "allied":
                total += table.allied_aircraft
            elif when >= table.german_late_from:
                total += table.german_aircraft_late
            if total <= table.aircraft:
                plane = sq.add_plane()
                report.append(["new_plane", {"side": side, "plane": plane.id, "total": total}])
            else:
                report.append(["no_plane", {"side": side, "total": total}])
        sq.lost_pilots = sq.lost_planes = 0
        state.rng = rng.state

    def _promote(self, state: CampaignState, sq: Squadron, report: list[list[Any]]) -> None:
        """§9.21-9.22: an Experienced pilot replaces each lost Flight Leader, his
        counter drawn among the side's unused ones (the most kills, then the least
        tired, is the campaign's choice of pilot)."""
        in_use = tuple(p.leader for p in sq.leaders() if p.leader)
        rng = Rng(state.rng)
        while len(sq.leaders()) < FLIGHT_LEADERS:
            candidates = sorted(
                (p for p in sq.active_pilots() if p.quality == "experienced"),
                key=lambda p: (-p.kills, p.fatigue, p.id),
            )
            if not candidates:
                break
            drawn = self._draw_leaders(sq.side, 1, rng, exclude=in_use)
            if not drawn:
                break
            p = candidates[0]
            p.quality, p.leader = "leader", drawn[0]
            in_use = (*in_use, drawn[0])
            report.append(["promoted", {"side": sq.side, "pilot": p.id, "leader": drawn[0]}])
        state.rng = rng.state

    # --- the missions ------------------------------------------------------------------
    def next_mission(self, state: CampaignState) -> NextMission | None:
        s = self.current(state)
        if s is None:
            return None
        title = self._title(state, s)
        seed = mission_seed(state.seed, s.number, s.attempt)
        return NextMission(s.number, title, s.attempt, seed, self.system_id, self.system_id)

    def _title(self, state: CampaignState, s: Sortie) -> str:
        return Term(
            "campaign.eagles.title",
            day=s.day,
            phase=Term(f"campaign.eagles.phase.{s.phase}"),
            mission=s.mission,
            type=Term(f"eagles.engagement.{s.type}"),
            attacker=Term(f"campaign.eagles.attacker.{s.attacker}"),
        )

    def mission_ready(self, state: CampaignState) -> bool:
        s = self.current(state)
        return s is not None and s.status == "flying"

    def mission_setup(self, state: CampaignState) -> MissionPlan:
        """The Engagement's game (§5.44, §16.14): type, zone and altitude from the
        Mission Table, the phase's weather, each side's flight and Mission aircraft,
        the Campaign card's Special Events table (§11.11)."""
        s = self.current(state)
        if s is None or s.status != "flying":
            raise RuleViolation(Term("campaign.eagles.not_ready"))
        card = self.card(state)
        sides: dict[str, SideSetup] = {}
        seats: list[SeatPick] = []
        seat_sides: dict[str, str] = {}
        briefing: list[str] = []
        for side in SIDES:
            sq = state.squadrons[side]
            planes: list[PlaneSetup] = []
            action = s.assigned.get(side)
            lead = action.lead if action else None
            flight = s.flights.get(side, [])
            order = sorted(flight, key=lambda f: f[0] != lead)
            for pid, _number in order:
                p = sq.pilot(pid)
                planes.append(
                    PlaneSetup(
                        aircraft=sq.aircraft,
                        quality=p.quality,  # an Exhausted pilot's: the engine (§8.22)
                        leader=p.leader if p.is_leader else None,
                        exhausted=p.exhausted,
                        fatigue=p.fatigue,
                        ace=p.ace,
                        pilot=pid,
                    )
                )
            spec = self.components.tables.engagement(EngagementType(s.type))
            mission = spec.mission(Side(s.attacker)) if s.attacker == side else None
            for ac in s.mission_aircraft.get(side, []):
                planes.append(
                    PlaneSetup(aircraft=ac, mission=True, bombs=bool(mission and mission.bombs))
                )
            seat = _seat(side)
            leaders = [sq.pilot(pid) for pid, _ in flight if sq.pilot(pid).is_leader]
            sides[side] = SideSetup(
                seats=(seat,) if planes else (),
                planes=tuple(planes),
                lead=sq.pilot(lead).leader if lead is not None and len(leaders) > 1 else None,
            )
            if planes:
                seat_sides[seat] = side
                seats.append(
                    SeatPick(
                        seat,
                        side,
                        EaglesPick(
                            aircraft=tuple(p.aircraft for p in planes if not p.mission),
                            leader=planes[0].leader if planes and planes[0].leader else None,
                        ),
                    )
                )
            names = ", ".join(
                f"{pid} {sq.pilot(pid).name}{'*' if pid == lead else ''}" for pid, _ in flight
            )
            briefing.append(
                Term(
                    "campaign.eagles.briefing",
                    side=Term(f"campaign.eagles.squadron.{side}"),
                    n=len(flight),
                    aircraft=self.components.aircraft[sq.aircraft].name,
                    pilots=names or "-",
                )
            )
        patrol = s.type == EngagementType.PATROL.value
        setup = EaglesSetup(
            engagement=s.type,
            attacker=None if patrol else s.attacker,
            month=state.month,
            zone=s.zone,
            altitude=s.altitude,
            weather=None if s.weather == Weather.CLEAR.value else s.weather,
            allied=sides["allied"],
            german=sides["german"],
            aircraft_rules=state.setup.aircraft_rules,
            revision=REVISION,
            campaign=CampaignEngagement(
                phase=s.phase,
                special_events=tuple(card.special_event(f).value for f in range(7)),
            ),
        )
        options = EaglesOptions(
            engagement=s.type,
            month=state.month,
            zone=s.zone,
            altitude=s.altitude,
            attacker=None if patrol else s.attacker,
        )
        upcoming = self.next_mission(state)
        assert upcoming is not None
        return MissionPlan(
            next=upcoming,
            setup=setup,
            options=options,
            seats=tuple(seats),
            seat_sides=seat_sides,
            briefing=tuple(briefing),
        )

    def absorb(self, state: CampaignState, outcome: Outcome) -> CampaignState:
        """The Engagement's end (§5.5, §14.1): each squadron aircraft shot down, home,
        or through Safe Return; the kills; the VP with the Safe Return losses; the
        winner's Campaign Points by the VP ratio (a conceding side loses)."""
        s = self.current(state)
        if s is None or s.status != "flying":
            raise RuleViolation(Term("campaign.eagles.not_ready"))
        if not outcome.over:
            raise RuleViolation(Term("campaign.eagles.not_over"))
        new = _copy(state)
        s = self.current(new)
        assert s is not None
        pilot_of = {f.ref: f.record.get("pilot_id") for f in outcome.fates}
        s.vp = {side: int(outcome.vp.get(side, 0)) for side in SIDES}
        for f in outcome.fates:
            pid = f.record.get("pilot_id")
            if pid is None or f.side not in SIDES:
                continue
            sq = new.squadrons[f.side]
            flight = dict((p, n) for p, n in s.flights.get(f.side, []))
            if pid not in flight:
                continue
            kills = [k for k in f.record.get("kills", []) if k in pilot_of]
            for _ in kills:
                s.report.append(["kill", {"side": f.side, "pilot": pid}])
            sq.pilot(pid).kills += len(kills)
            hits = {k: int(v) for k, v in dict(f.record.get("damage", {})).items() if v}
            crew = dict(f.record.get("crew", {}))
            for who in ("pilot", "gunner"):
                if crew.get(who) in ("wounded", "killed"):
                    hits[who] = 1 if crew[who] == "wounded" else 2
            by = pilot_of.get(f.by) if f.by else None
            self._return(
                new,
                f.side,
                s,
                pid,
                flight[pid],
                hits,
                escaped=bool(f.record.get("escaped")),
                engine_out=bool(f.record.get("engine_out")),
                shot_down=f.fate is Fate.SHOT_DOWN,
                by=by if f.fate is not Fate.SHOT_DOWN else None,
                weather=f.record.get("weather"),
            )
        # §12.9: a Wind Change holds to the end of the Phase (the weather of an
        # aircraft still on the mat at the end).
        stayed = [
            f.record.get("weather")
            for f in outcome.fates
            if f.fate in (Fate.UNHARMED, Fate.DAMAGED) and not f.record.get("escaped")
        ]
        if stayed and stayed[0] and stayed[0] != new.weather:
            new.weather = str(stayed[0])
            for later in self._phase_sorties(new):
                later.weather = new.weather
        for side in SIDES:
            own = [f for f in outcome.fates if f.side == side]
            # The side's Glory Points (§16.31: outnumbered, shoot-downs, Aces) as the
            # game tallied them, on each of its aircraft's record.
            glory = int(own[0].record.get("side_glory", 0)) if own else 0
            if glory:
                s.glory[side] = s.glory.get(side, 0) + glory
                new.squadrons[side].glory += glory
        winner = self._winner(s.vp, outcome.conceded, outcome.winner)
        if winner is not None:
            loser = s.vp[_other(winner)]
            mine = s.vp[winner]
            points = 1
            if mine > loser:
                points = 3 if loser <= 0 or mine >= 3 * loser else 2 if mine >= 2 * loser else 1
            s.points[winner] = s.points.get(winner, 0) + points  # §14.12-14.14
            s.report.append(["won", {"side": winner, "points": points}])
        else:
            s.report.append(["drawn", {}])
        if outcome.conceded in SIDES:
            s.report.append(["conceded", {"side": outcome.conceded}])
        self._after_mission(new, s)
        self._next_sortie(new)
        return new

    @staticmethod
    def _winner(vp: Mapping[str, int], conceded: str | None, game: str | None) -> str | None:
        """The Engagement's winner (§14.11): the side that did not concede; the more
        VP once the Safe Returns are counted; on equal VP, the game's own tie-break
        (the side with aircraft still on the mat, ``game``)."""
        if conceded in SIDES:
            return _other(str(conceded))
        if vp["allied"] == vp["german"]:
            return game if game in SIDES else None
        return "allied" if vp["allied"] > vp["german"] else "german"

    def abort_mission(self, state: CampaignState) -> CampaignState:
        """An aborted game: the Engagement is flown again by the same flights."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.eagles.not_ready"))
        new = _copy(state)
        s = self.current(new)
        assert s is not None
        s.attempt += 1
        return new

    # --- reading -----------------------------------------------------------------------
    def is_over(self, state: CampaignState) -> bool:
        return state.phase == "over"

    def totals(self, state: CampaignState) -> dict[str, int]:
        return {side: state.squadrons[side].points for side in SIDES}

    def result(self, state: CampaignState) -> CampaignResult | None:
        """§14.21: the most Campaign Points wins; equal is a draw."""
        if not self.is_over(state):
            return None
        totals = self.totals(state)
        a, g = totals["allied"], totals["german"]
        winner = None if a == g else "allied" if a > g else "german"
        verdict = Term(
            "campaign.eagles.verdict",
            allied=a,
            german=g,
            result=Term(f"campaign.eagles.won.{winner}" if winner else "campaign.eagles.won.draw"),
        )
        return CampaignResult(winner=winner, verdict=verdict, totals=totals)

    def sheet(self, state: CampaignState, side: str | None) -> CampaignSheet:
        card = self.card(state)
        rows = []
        for s in state.sorties:
            title = self._title(state, s)
            if s.status == "done":
                rows.append(
                    MissionRow(s.number, title, MissionState.FLOWN, dict(s.points), self._log(s))
                )
            elif s.status == "cancelled":
                note = Term(
                    "campaign.eagles.note.cancelled", weather=Term(f"eagles.weather.{s.weather}")
                )
                rows.append(MissionRow(s.number, title, MissionState.FLOWN, {}, note))
            else:
                here = (
                    MissionState.NEXT if s.status in ("assigning", "flying") else MissionState.AHEAD
                )
                rows.append(MissionRow(s.number, title, here))
        options = [Term("campaign.eagles.month", month=state.month)]
        if not state.setup.aircraft_rules:
            options.append(Term("campaign.eagles.no_aircraft_rules"))
        return CampaignSheet(
            campaign=card.id,
            title=card.title,
            sides=self._side_infos(),
            missions=tuple(rows),
            totals=self.totals(state),
            total_label=Term("campaign.eagles.cp"),
            next=self._next_lines(state),
            secrets=self._secrets(state, side),
            tables=tuple(t for sd in SIDES for t in self.roster(state, sd)),
            result=self.result(state),
            options=tuple(options),
        )

    @staticmethod
    def log_codes(s: Sortie, side: str) -> str:
        """A side's flight on the Campaign Log (§5.43): pilot letter and aircraft
        number, ``D7`` (the counter's letter names a piece of cardboard: none here)."""
        return " ".join(f"{pid}{number}" for pid, number in s.flights.get(side, [])) or "-"

    def _log(self, s: Sortie) -> str:
        """A flown mission's line on the Campaign Log (§2.2): the chit, the weather,
        each side's flight."""
        return Term(
            "campaign.eagles.note.flown",
            chit=Term(f"campaign.eagles.note.{s.chit or 'none'}"),
            weather=Term(f"eagles.weather.{s.weather}"),
            allied=self.log_codes(s, "allied"),
            german=self.log_codes(s, "german"),
        )

    def _next_lines(self, state: CampaignState) -> tuple[str, ...]:
        if self.is_over(state):
            return ()
        lines: list[str] = [
            Term(
                "campaign.eagles.today",
                day=state.day,
                days=self.days(state),
                phase=Term(f"campaign.eagles.phase.{state.phase}"),
                weather=Term(f"eagles.weather.{state.weather}"),
            )
        ]
        for side in SIDES:
            event = state.squadrons[side].event
            if event != CampaignEvent.NONE:
                lines.append(
                    Term(
                        "campaign.eagles.event_line",
                        side=Term(f"campaign.eagles.squadron.{side}"),
                        event=Term(f"campaign.eagles.event.{event}"),
                    )
                )
        s = self.current(state)
        if s is not None:
            lines.append(
                Term(
                    "campaign.eagles.next",
                    title=self._title(state, s),
                    zone=Term(f"eagles.zone.{s.zone}"),
                    altitude=Term(f"eagles.altitude.{s.altitude}"),
                )
            )
            for side, planes in s.mission_aircraft.items():
                if planes:
                    names = ", ".join(self.components.aircraft[a].name for a in planes)
                    lines.append(
                        Term(
                            "campaign.eagles.with_mission",
                            side=Term(f"campaign.eagles.squadron.{side}"),
                            aircraft=names,
                        )
                    )
            for side in SIDES:
                if s.status == "assigning":
                    key = (
                        "campaign.eagles.assigned"
                        if side in s.assigned
                        else "campaign.eagles.waiting"
                        if self.may_assign(state, side)
                        else "campaign.eagles.cannot"
                    )
                    lines.append(Term(key, side=Term(f"campaign.eagles.squadron.{side}")))
        return tuple(lines)

    def _secrets(self, state: CampaignState, side: str | None) -> tuple[str, ...]:
        s = self.current(state)
        if side is None or s is None or s.status != "assigning" or side not in s.assigned:
            return ()
        return (self.action_label(state, side, s.assigned[side]),)

    def roster(self, state: CampaignState, side: str) -> list[SheetTable]:
        """The Squadron Log (§2.3): the pilots on the roster, then the aircraft; those
        lost in one last row each."""
        sq = state.squadrons[side]
        sname = Term(f"campaign.eagles.squadron.{side}")
        pilots: list[tuple[str, ...]] = [
            (
                p.id,
                p.name,
                Term(f"campaign.eagles.quality.{p.quality}")
                if not p.ace
                else Term("campaign.eagles.quality.ace"),
                Term("campaign.eagles.exhausted", fatigue=p.fatigue)
                if p.exhausted
                else str(p.fatigue),
                str(p.flown),
                str(p.kills),
                Term(f"campaign.eagles.status.{p.status}", back=p.back),
            )
            for p in sq.pilots
            if p.status != "lost"
        ]
        lost = ", ".join(p.id for p in sq.pilots if p.status == "lost")
        planes: list[tuple[str, ...]] = [
            (
                str(p.id),
                ", ".join(f"{Term(f'eagles.damage.{k}')} {v}" for k, v in p.hits.items())
                or Term("campaign.eagles.plane.ready"),
            )
            for p in sq.planes
            if not p.lost
        ]
        gone = ", ".join(str(p.id) for p in sq.planes if p.lost)
        aircraft = self.components.aircraft[sq.aircraft].name
        return [
            SheetTable(
                Term("campaign.eagles.pilots", side=sname, glory=sq.glory)
                if not lost
                else Term("campaign.eagles.pilots_lost", side=sname, glory=sq.glory, lost=lost),
                (
                    Term("campaign.eagles.col.id"),
                    Term("campaign.eagles.col.name"),
                    Term("campaign.eagles.col.quality"),
                    Term("campaign.eagles.col.fatigue"),
                    Term("campaign.eagles.col.missions"),
                    Term("campaign.eagles.col.kills"),
                    Term("campaign.eagles.col.status"),
                ),
                tuple(pilots),
            ),
            SheetTable(
                Term("campaign.eagles.aircraft", side=sname, aircraft=aircraft)
                if not gone
                else Term(
                    "campaign.eagles.aircraft_lost", side=sname, aircraft=aircraft, lost=gone
                ),
                (Term("campaign.eagles.col.number"), Term("campaign.eagles.col.damage")),
                tuple(planes),
            ),
        ]

    def logbook(self, state: CampaignState) -> tuple[PilotLog, ...]:
        """Every pilot ever on each Squadron Log (§2.3), with the missions of the
        Campaign Log he flew (§5.43: the settled ones; a mission being assigned or
        flown shows nothing), his kills (§9.3, an Encounter's Flight Leader kill
        §7.26 and a Safe Return loss credited §9.32 included), his wounds (§10.2) and
        how he left the squadron: killed in action, missing after a Safe Return draw
        (§5.66), invalided (§10.23)."""
        out: list[PilotLog] = []
        for side in SIDES:
            sq = state.squadrons[side]
            flown: dict[str, list[LogbookEntry]] = {p.id: [] for p in sq.pilots}
            for s in state.sorties:
                if s.status != "done":
                    continue
                for pid, number in s.flights.get(side, []):
                    flown[pid].append(self._logbook_entry(state, s, side, pid, number))
            out += [self._pilot_log(sq, p, tuple(flown[p.id])) for p in sq.pilots]
        return tuple(out)

    def _logbook_entry(
        self, state: CampaignState, s: Sortie, side: str, pid: str, number: int
    ) -> LogbookEntry:
        """One mission of a pilot, read from its report: the kills credited to him,
        a wound, and whether he came home (§5.6)."""
        said = [k for k, p in s.report if p.get("side") == side and p.get("pilot") == pid]
        kills = sum(
            1
            for k, p in s.report
            if k in ("kill", "leader_kill") and p.get("side") == side and p.get("pilot") == pid
        )
        if "shot_down" in said:
            result = "shot_down"
        elif "crew_lost" in said:
            result = "missing" if "lost" in said else "killed"
        elif "survived" in said:
            result = "crashed"
        elif "safe" in said:
            result = "safe_return"
        else:
            result = "home"
        return LogbookEntry(
            mission=s.number,
            title=self._title(state, s),
            aircraft=state.squadrons[side].aircraft,
            airframe=str(number),
            seat=_seat(side) if _played(s) else None,
            kills=kills,
            wounded="wounded" in said,
            lost=result in ("shot_down", "missing", "killed"),
            result=Term(f"logbook.eagles.result.{result}"),
        )

    @staticmethod
    def _pilot_log(sq: Squadron, p: Pilot, missions: tuple[LogbookEntry, ...]) -> PilotLog:
        """A pilot's fate: ready, wounded or recovering (§10.21-10.22), or gone:
        killed in action, missing (§5.66), invalided (§10.23)."""
        if p.status == "lost":
            fate = {
                "killed_in_action": PilotFate.KILLED,
                "missing": PilotFate.MISSING,
                "invalided": PilotFate.RETIRED,
            }[p.fate or "killed_in_action"]
            status = Term(f"logbook.eagles.fate.{p.fate or 'killed_in_action'}")
        else:
            fate = PilotFate.ACTIVE if p.status == "ready" else PilotFate.RECOVERING
            status = Term(f"campaign.eagles.status.{p.status}", back=p.back)
        ace = p.ace or p.quality == "ace"  # §9.31
        return PilotLog(
            id=f"{sq.side}-{p.id}",
            name=f"{p.id} {p.name}",
            side=sq.side,
            missions=missions,
            fate=fate,
            status=status,
            rank=Term(f"campaign.eagles.quality.{'ace' if ace else p.quality}"),
            ace=ace,
        )

    def action_label(self, state: CampaignState, side: str, action: AssignAction) -> str:
        if not action.pilots:
            return Term("campaign.eagles.none")
        sq = state.squadrons[side]
        return ", ".join(
            f"{pid} {sq.pilot(pid).name}" + (" ★" if pid == action.lead else "")
            for pid in action.pilots
        )

    def menu(self, state: CampaignState, side: str) -> Choice | None:
        """The flight one pilot at a time (in roster order), "that's all" ending it,
        then the leading Flight Leader where there are several (§5.41)."""
        legal = self.legal_actions(state, side)
        if not legal:
            return None
        s = self.current(state)
        assert s is not None
        sq = state.squadrons[side]
        by_pilots: dict[tuple[str, ...], list[AssignAction]] = {}
        trie: dict[tuple[str, ...], list[str]] = {}
        for a in legal:
            by_pilots.setdefault(a.pilots, []).append(a)
        for pilots in by_pilots:
            for i in range(len(pilots)):
                nexts = trie.setdefault(pilots[:i], [])
                if pilots[i] not in nexts:
                    nexts.append(pilots[i])

        labels: dict[str, str] = {}  # a pilot comes back on every branch he may join

        def pilot_label(pid: str) -> str:
            if pid not in labels:
                p = sq.pilot(pid)
                labels[pid] = Term(
                    "campaign.eagles.menu.pilot",
                    pilot=f"{pid} {p.name}",
                    quality=Term(f"campaign.eagles.quality.{p.quality}"),
                    fatigue=f"{p.fatigue}{'!' if p.exhausted else ''}",
                )
            return labels[pid]

        def leaf(pilots: tuple[str, ...], label: str) -> Choice:
            actions = by_pilots[pilots]
            if len(actions) == 1:
                return Choice(label, action=str(actions[0]))
            return Choice(
                label,
                children=tuple(Choice(pilot_label(a.lead or ""), action=str(a)) for a in actions),
                placeholder=Term("campaign.eagles.menu.lead"),
            )

        def level(prefix: tuple[str, ...]) -> tuple[Choice, ...]:
            out: list[Choice] = []
            if prefix and prefix in by_pilots:
                out.append(leaf(prefix, Term("campaign.eagles.menu.done", n=len(prefix))))
            for pid in trie.get(prefix, []):
                more = (*prefix, pid)
                if more not in trie:
                    out.append(leaf(more, pilot_label(pid)))
                else:
                    out.append(
                        Choice(
                            pilot_label(pid),
                            children=level(more),
                            placeholder=Term("campaign.eagles.menu.next", n=len(more) + 1),
                        )
                    )
            return tuple(out)

        top = list(level(()))
        top.insert(0, Choice(Term("campaign.eagles.menu.nobody"), action=str(legal[0])))
        return Choice(
            Term("campaign.eagles.menu.title", mission=s.number),
            children=tuple(top),
            placeholder=Term(
                "campaign.eagles.menu.first", mission=s.number, max=self.flight_limit(state, side)
            ),
        )

    def ask(self, decision: CampaignDecision) -> str:
        return Term("campaign.eagles.ask", mission=decision.mission or 0)

    # --- storage -----------------------------------------------------------------------
    def dump_state(self, state: CampaignState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> CampaignState:
        return CampaignState.model_validate(dict(data))


def _copy(state: CampaignState) -> CampaignState:
    """A copy of ``state`` to change: what a step may change is copied (the squadrons'
    pilots and aircraft, the missions not yet settled, the day's report, the deck);
    the settled missions and past days, never changed again, are shared, and so are
    the report lines (only ever appended to their lists)."""
    settled = ("done", "cancelled")
    day = state.days[-1] if state.days else None
    return state.model_copy(
        update={
            "deck": list(state.deck),
            "forced": list(state.forced),
            "forced_cup": list(state.forced_cup),
            "chits": dict(state.chits),
            "once": list(state.once),
            "squadrons": {k: _copy_squadron(v) for k, v in state.squadrons.items()},
            "sorties": [s if s.status in settled else _copy_sortie(s) for s in state.sorties],
            "days": [
                *state.days[:-1],
                *(
                    [
                        {
                            **day,
                            "events": dict(day["events"]),
                            "predawn": list(day["predawn"]),
                            "evening": list(day["evening"]),
                        }
                    ]
                    if day is not None
                    else []
                ),
            ],
        }
    )


def _copy_squadron(sq: Squadron) -> Squadron:
    return sq.model_copy(
        update={
            "pilots": [p.model_copy() for p in sq.pilots],
            "planes": [p.model_copy(update={"hits": dict(p.hits)}) for p in sq.planes],
        }
    )


def _copy_sortie(s: Sortie) -> Sortie:
    return s.model_copy(
        update={
            "mission_aircraft": {k: list(v) for k, v in s.mission_aircraft.items()},
            "assigned": dict(s.assigned),
            "flights": {k: [list(f) for f in v] for k, v in s.flights.items()},
            "points": dict(s.points),
            "glory": dict(s.glory),
            "vp": dict(s.vp),
            "report": list(s.report),
        }
    )


def _other(side: str) -> str:
    return "german" if side == "allied" else "allied"


def _seat(side: str) -> str:
    """The seat a squadron flies in an Engagement's game."""
    return "A1" if side == "allied" else "G1"


def _played(s: Sortie) -> bool:
    """The mission was an Engagement's game (its end is reported won or drawn)."""
    return any(k in ("won", "drawn") for k, _ in s.report)


def _evening_done(state: CampaignState, day: int) -> bool:
    return day < state.day or state.phase == "over"


def _line(state: CampaignState, key: str, params: Mapping[str, Any]) -> str:
    """A report line in words: pilots by letter and name, sides by name."""
    words: dict[str, Any] = dict(params)
    side = params.get("side")
    if isinstance(side, str) and side in state.squadrons:
        words["side"] = Term(f"campaign.eagles.squadron.{side}")
        pid = params.get("pilot")
        if isinstance(pid, str):
            sq = state.squadrons[side]
            if any(p.id == pid for p in sq.pilots):
                words["pilot"] = f"{pid} {sq.pilot(pid).name}"
    if key == "hit":
        words["result"] = Term(f"eagles.damage.{params['result']}")
    if key == "event":
        words["event"] = Term(f"campaign.eagles.event.{params['event']}")
    if key == "grounded":
        words["weather"] = Term(f"eagles.weather.{params['weather']}")
    if key == "chit":
        words["chit"] = Term(f"campaign.eagles.chit.{params['chit']}")
    if key == "advanced":
        words["to"] = Term(f"campaign.eagles.quality.{params['to']}")
    return Term(f"campaign.eagles.report.{key}", **words)


@functools.cache
def campaign_system() -> EaglesCampaigns:
    """The campaign system over the shipped data (the registry's factory)."""
    return EaglesCampaigns(default_engine(), checked_shipped_cards(), shipped_tables())


def campaign_system_with(packs: Sequence[Pack]) -> EaglesCampaigns:
    """The campaign system over the shipped data and these content packs, in order
    (:func:`engine.core.registry.campaign_with_content`): the components and the
    Campaign cards built over the same packs, each card checked against those
    components (:func:`engine.eagles.campaign_cards.cards_with`), so a squadron may fly
    a pack's Scout. The tables are the shipped ones. Raises ``DataError`` naming the
    pack's file, entry and field."""
    components = components_with(packs)
    return EaglesCampaigns(
        EaglesEngine(components), cards_with(packs, components), shipped_tables()
    )
