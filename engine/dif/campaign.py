"""Zero!'s Land and Carrier Campaigns on the campaign contract (:mod:`engine.core.campaign`).

:class:`ZeroCampaigns` (system ``dif``, missions played in the ``zero`` ruleset) offers
the Land Campaigns Malaya, the Philippines and Burma (§24, here) and the Carrier
Campaigns Coral Sea and Midway (§25, :mod:`engine.dif.carrier`), from the shipped
sheets (:func:`engine.dif.campaign_data.shipped_book`), or from those and a server's
content packs, whose sheets and aircraft it then flies (:func:`campaign_system_with`).
The campaign sides are ``japanese`` and ``allied``; they fly the DiF game's Axis and
Allied sides.

A Land Campaign (§24.1 III) is a series of Missions, as many as the sheet's Duration
(§24.42). Each one: the campaign's RNG draws one card of the Zero! deck, which the
chosen Period's column turns into a Mission Target (§24.44); each side then secretly
chooses ONE Option of its list, each once per campaign and only in the Periods it
names (§24.52-24.53), ``option #<mission> <number>``, revealed when both have chosen;
the Mission's duration follows (§23.2), Leaders draw their pilots and Heavy Bombers
their crews (§19.24, §19.34) with the campaign's RNG (a Veteran Pilot Leader who drew
more than one Skilled Pilot keeps the one his side names, ``keep #<mission>
<counter>``), and the Mission is a DiF game
(:class:`~engine.dif.mission.MissionSetup`) whose VP (§24.61, from the Land Campaign
awards it carries) the campaign adds up. After the last Mission the Japanese VP less
the Allied VP reads the sheet's Air Group Action Capacity table (§24.7).

Readings of what the book leaves open: ``docs/rules-decisions.md``, "Zero! land and
carrier campaigns".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
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
    MissionPlan,
    MissionRow,
    MissionState,
    NextMission,
    PilotLog,
    SheetTable,
    mission_seed,
)
from engine.core.contract import Outcome, SideInfo
from engine.core.errors import MalformedAction, RuleViolation, SetupError
from engine.core.packs import Pack
from engine.core.present import Choice
from engine.core.rng import Rng
from engine.dif.campaign_data import (
    CampaignBook,
    CampaignOption,
    CarrierCampaign,
    DrawCard,
    LandCampaign,
    MissionTarget,
    MissionType,
    OptionKind,
    OptionSpec,
    shipped_book,
)
from engine.dif.campaign_mission import (
    CAMPAIGN_SIDES,
    GAME_SIDE,
    CampaignPart,
    DrawnCounter,
    Draws,
    FlownPilot,
    Layout,
    OptionPick,
    PartState,
    PilotKeep,
    PilotOffer,
    Sortie,
    ZeroCampaignSetup,
    arrival_change,
    as_drawn,
    campaign_side,
    check_keep,
    clouds_of,
    draw_crews,
    draw_pilots,
    drawn_lines,
    flown_pilots,
    keep_label,
    lay_out,
    lobby,
    logbook,
    option_applies,
    parse_keep,
    pilots_table,
    ratings_of,
    shot_down_pilots,
    side_name,
    veteran_offer,
    victory_result,
    with_crews,
    with_flak,
)
from engine.dif.campaign_packs import CONTENT_KINDS, book_with
from engine.dif.campaign_targets import TargetRatings
from engine.dif.carrier import CarrierCampaigns, parse_loss, parse_orders
from engine.dif.components import Ruleset, Side
from engine.dif.game import DifEngine, default_engine
from engine.dif.loader import aircraft_with, load_decks
from engine.dif.mission import MissionKind, MissionSetup
from engine.dif.pearl_harbor import ASSIGN as PEARL_ASSIGN
from engine.dif.pearl_harbor import CAMPAIGN_ID as PEARL_HARBOR
from engine.dif.pearl_harbor import PearlHarbor, PearlHarborSetup, PearlState, pearl_harbor_system
from engine.dif.pilots import PilotBook, shipped_pilots
from engine.dif.setup import DifSetup
from strings import Term

__all__ = [
    "CONTENT_KINDS",
    "LandCampaigns",
    "LandScore",
    "LandState",
    "OptionPick",
    "ZeroCampaignSetup",
    "ZeroCampaigns",
    "campaign_system",
    "campaign_system_with",
]

_OPTION = re.compile(r"^option\s+#(\d+)\s+(\d+)\s*$")


class LandScore(BaseModel):
    """A flown Mission: its Target, the Options revealed, each side's VP."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int
    title: str
    options: dict[str, int]
    vp: dict[str, int]
    lost: tuple[str, ...] = ()
    """Skilled Pilots shot down (their names)."""
    flown: tuple[FlownPilot, ...] = ()
    """The Skilled Pilots and Crews who flew it, and how they fared (the logbook)."""


class LandState(PartState):
    """A Land Campaign between Missions or while one is flown. Plain JSON."""

    kind: Literal["land"] = "land"
    period: str
    mission: int = 1
    """The next Mission's number (one more than the Duration once over)."""
    attempt: int = 1
    card: DrawCard | None = None
    """The card drawn for the next Mission (§24.44); None once over."""
    target: int = 0
    """The next Mission's Target number."""
    picks: dict[str, int] = Field(default_factory=dict)
    """Each side's secret Option number for the next Mission."""
    used: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    """Options each side has used (§24.53: each once per campaign)."""
    drawn: tuple[DrawnCounter, ...] = ()
    """The next Mission's pilots and crews, drawn when the Options are revealed."""
    keep: dict[str, str] = Field(default_factory=dict)
    """The counter each Veteran Pilot Leader's side keeps, once it said."""
    offer: PilotOffer | None = None
    """A Veteran Pilot Leader's Skilled Pilots awaiting its side's pick: the
    Mission's pilots and crews are drawn (again, from the same RNG state) once it is
    made."""
    lost: tuple[str, ...] = ()
    """Pilot counters shot down with a Skilled Pilot face up: out of the cup."""
    scores: tuple[LandScore, ...] = ()


class LandCampaigns(CampaignPart):
    """The Land Campaigns (§24) for :class:`ZeroCampaigns`."""

    def sheet_of(self, state: LandState) -> LandCampaign:
        c = self.book.campaign(state.setup.campaign)
        assert isinstance(c, LandCampaign)
        return c

    # --- set-up and the Mission draw ----------------------------------------------------
    def new_campaign(self, setup: ZeroCampaignSetup, seed: int, c: LandCampaign) -> LandState:
        periods = [p.id for p in c.periods]
        period = setup.period or periods[0]
        if period not in periods:
            raise SetupError(
                Term(
                    "campaign.zero.unknown_period",
                    campaign=c.name,
                    period=period,
                    valid=", ".join(periods),
                )
            )
        Draws.check(setup, self.deck, self.pilots.counters)
        state = LandState(
            setup=setup,
            seed=seed,
            rng=Rng(seed).state,
            draws=setup.draws,
            cup=setup.cup,
            period=period,
        )
        return self._draw(state)

    def _draw(self, state: LandState) -> LandState:
        """§24.44: one card of the Zero! deck, from the campaign's RNG, selects the
        next Mission Target in the Period's column."""
        draws = self.draws(state)
        card = DrawCard.of(draws.card())
        number = self.sheet_of(state).period(state.period).missions[card]
        return state.model_copy(
            update={**draws.update(), "card": card, "target": number, "picks": {}, "drawn": ()}
        )

    def is_over(self, state: LandState) -> bool:
        return state.mission > self.sheet_of(state).duration

    def mission_target(self, state: LandState) -> MissionTarget:
        if self.is_over(state):
            raise RuleViolation(Term("campaign.zero.over"))
        return self.sheet_of(state).target(state.target)

    def title(self, t: MissionTarget) -> str:
        return Term("campaign.zero.title.land", number=t.number, name=t.name, location=t.location)

    # --- the secret Options --------------------------------------------------------------
    def pending(self, state: LandState) -> list[CampaignDecision]:
        if self.is_over(state):
            return []
        if state.offer is not None:
            return [
                CampaignDecision(state.offer.side, "veteran", secret=True, mission=state.mission)
            ]
        return [
            CampaignDecision(side, "option", secret=True, mission=state.mission)
            for side in CAMPAIGN_SIDES
            if side not in state.picks
        ]

    def options_open(self, state: LandState, side: str) -> list[CampaignOption]:
        """The side's Options it may still choose: unused (§24.53), of the Period."""
        used = state.used.get(side, ())
        return [
            o
            for o in self.sheet_of(state).options[GAME_SIDE[side]]
            if o.number not in used and (not o.periods or state.period in o.periods)
        ]

    def legal_actions(self, state: LandState, side: str) -> list[Any]:
        if state.offer is not None and state.offer.side == side:
            return [PilotKeep(game=state.mission, counter=d.counter) for d in state.offer.counters]
        if self.is_over(state) or side not in CAMPAIGN_SIDES or side in state.picks:
            return []
        return [
            OptionPick(mission=state.mission, number=o.number)
            for o in self.options_open(state, side)
        ]

    def rule_action(self, state: LandState, side: str) -> PilotKeep | None:
        """A computer side's (and a deadline's) Veteran Pilot pick: the most skilled
        counter, the first on a tie. None: no such pick is pending for ``side``."""
        if state.offer is None or state.offer.side != side:
            return None
        return PilotKeep(game=state.mission, counter=state.offer.rule().counter)

    def apply(self, state: LandState, side: str, action: OptionPick | PilotKeep) -> LandState:
        if self.is_over(state):
            raise RuleViolation(Term("campaign.zero.over"))
        if side not in CAMPAIGN_SIDES:
            raise RuleViolation(Term("campaign.zero.no_side", side=side))
        if isinstance(action, PilotKeep):
            return self._keep(state, side, action)
        if side in state.picks:
            raise RuleViolation(Term("campaign.zero.already", mission=state.mission))
        if action.mission != state.mission:
            raise RuleViolation(
                Term("campaign.zero.wrong_mission", mission=state.mission, given=action.mission)
            )
        c = self.sheet_of(state)
        listed = [o for o in c.options[GAME_SIDE[side]] if o.number == action.number]
        if not listed:
            raise RuleViolation(
                Term("campaign.zero.no_option", number=action.number, side=side_name(side))
            )
        if action.number in state.used.get(side, ()):
            raise RuleViolation(Term("campaign.zero.used", number=action.number))
        option = listed[0]
        if option.periods and state.period not in option.periods:
            period = c.period(state.period).name
            raise RuleViolation(Term("campaign.zero.period", number=action.number, period=period))
        picks = {**state.picks, side: action.number}
        used = {**state.used, side: (*state.used.get(side, ()), action.number)}
        state = state.model_copy(update={"picks": picks, "used": used})
        return self._reveal(state) if len(picks) == len(CAMPAIGN_SIDES) else state

    def _keep(self, state: LandState, side: str, action: PilotKeep) -> LandState:
        """The Veteran Pilot Leader keeps the Skilled Pilot its side names of those he
        drew; the Mission's pilots and crews are drawn again with it (same RNG state)."""
        check_keep(state.offer, side, state.mission, action)
        keep = {**state.keep, side: action.counter}
        return self._reveal(state.model_copy(update={"keep": keep, "offer": None}))

    def option_spec(
        self, state: LandState, side: str, number: int
    ) -> tuple[CampaignOption, OptionSpec]:
        entry = self.sheet_of(state).option(GAME_SIDE[side], number)
        return entry, self.book.options[entry.option]

    def _specs(self, state: LandState) -> list[tuple[str, CampaignOption, OptionSpec]]:
        """The revealed Options, the Japanese first."""
        return [
            (side, *self.option_spec(state, side, state.picks[side]))
            for side in CAMPAIGN_SIDES
            if side in state.picks
        ]

    def _reveal(self, state: LandState) -> LandState:
        """Both Options chosen: they are revealed (§24.53) and the Mission's pilots and
        crews drawn from the campaign's RNG (§24.1 III.D, §19.24, §19.34). A Veteran
        Pilot Leader who drew more than one Skilled Pilot first has his side say which
        he keeps: nothing is drawn until then (the RNG stays where it is)."""
        draws = self.draws(state)
        pick = draws.pick
        layout = self._layout(state)
        veteran = {
            GAME_SIDE[side]: spec.pilots
            for side, _, spec in self._specs(state)
            if spec.kind is OptionKind.PILOT
        }
        kept = {GAME_SIDE[s]: c for s, c in state.keep.items()}
        t = self.mission_target(state)
        lost = frozenset(state.lost)
        pilots = draw_pilots(
            self.pilots, self.catalogue, layout, pick, out=lost, veteran=veteran, keep=kept
        )
        offer = veteran_offer(pilots, layout, veteran, kept)
        if offer is not None:
            return state.model_copy(update={"offer": offer})
        crews = draw_crews(
            self.pilots, self.catalogue, layout, pick, given={t.attacker: t.crews}, out=frozenset()
        )
        drawn = tuple(DrawnCounter.of(d) for d in pilots) + tuple(
            DrawnCounter.of(d, crew=True) for d in crews
        )
        return state.model_copy(update={**draws.update(), "drawn": drawn})

    def mission_ready(self, state: LandState) -> bool:
        return not self.is_over(state) and not self.pending(state)

    # --- the Mission's game ---------------------------------------------------------------
    def _sorties(self, state: LandState) -> list[Sortie]:
        """The Mission aircraft (§24.46-24.47) and those the Options add."""
        t = self.mission_target(state)
        out = [Sortie(t.attacker, f) for f in t.aircraft]
        out += [Sortie(t.attacker.other, f) for f in t.opponents]
        for side, entry, spec in self._specs(state):
            if spec.kind is OptionKind.AIRCRAFT:
                out += [Sortie(GAME_SIDE[side], f, mission=False) for f in entry.aircraft]
        return out

    def _target(self, state: LandState) -> TargetRatings | None:
        """The Target Sheet's ratings, FLAK Options applied (only for its defender)."""
        t = self.mission_target(state)
        if t.target is None:
            return None
        ratings = ratings_of(self.book.targets[t.target])
        for side, _, spec in self._specs(state):
            if spec.kind is OptionKind.FLAK and option_applies(spec, GAME_SIDE[side], t.attacker):
                ratings = with_flak(ratings, spec)
        return ratings

    def _layout(self, state: LandState) -> Layout:
        t = self.mission_target(state)
        return lay_out(
            self._sorties(state),
            self.catalogue,
            self.book.bombing,
            altitude=t.altitude,
            attacker=t.attacker,
            target=self._target(state),
            wanted=t.mode,
        )

    def duration(self, state: LandState) -> tuple[int, int, int]:
        """§23.2: Turns of Arrival, Over the Target and Return Home, less the slowest
        attacking aircraft's Speed (Fighters and Light Bombers 6, §23.24), the TURNS
        Options' changes to the Arrival (§23.25, skipped at 0 or less)."""
        t = self.mission_target(state)
        attackers = [s for s in self._sorties(state) if s.side is t.attacker]
        speed = min(self.catalogue[s.flight.aircraft].mission_speed for s in attackers)
        arrival, over, home = t.turns.phases(speed)
        change = sum(
            arrival_change(spec, GAME_SIDE[side], t.attacker)
            for side, _, spec in self._specs(state)
        )
        return max(0, arrival + change), over, home

    def mission_setup(self, state: LandState, upcoming: NextMission) -> MissionPlan:
        t = self.mission_target(state)
        layout = self._layout(state)
        formations = with_crews(layout, [as_drawn(d) for d in state.drawn if d.crew])
        element_seats = {e.seat for e in layout.elements}
        pilots = {
            d.seat: as_drawn(d).setup()
            for d in state.drawn
            if d.kept and not d.crew and d.seat in element_seats
        }
        specs = self._specs(state)
        clouds = next((clouds_of(s) for _, _, s in specs if s.kind is OptionKind.CLOUDS), None)
        common: dict[str, Any] = {
            "attacker": t.attacker,
            "title": self.title(t),
            "formations": tuple(formations),
            "pilots": pilots,
            "awards": self.book.scoresheets.land,
        }
        if t.type in (MissionType.STRIKE, MissionType.PATROL):
            arrival, _, home = self.duration(state)
            mission = MissionSetup(
                kind=MissionKind.STRIKE,
                target=self._target(state),
                arrival=arrival,
                home=home,
                home_base=t.turns.return_home,
                bombs=dict(layout.bombs),
                patrol=t.type is MissionType.PATROL,
                clouds=clouds,
                **common,
            )
        else:
            mission = MissionSetup(kind=MissionKind.DOGFIGHT, turns=t.turns.fixed, **common)
        year = int(self.sheet_of(state).period(state.period).start[:4])
        setup = DifSetup(
            ruleset=Ruleset.ZERO,
            year=year,
            elements=tuple(layout.elements),
            mixed=False,
            mission=mission,
            altitudes=dict(layout.altitudes) or None,
        )
        options, seats = lobby(year, layout, formations)
        seat_sides = {s.seat: campaign_side(Side(s.side)) for s in seats}
        return MissionPlan(
            next=upcoming,
            setup=setup,
            options=options,
            seats=seats,
            seat_sides=seat_sides,
            briefing=tuple(self.briefing(state)),
        )

    def briefing(self, state: LandState) -> list[str]:
        """The Target, the duration, the Options revealed, the pilots drawn."""
        t = self.mission_target(state)
        lines = [self._target_line(state)]
        if t.type in (MissionType.STRIKE, MissionType.PATROL):
            arrival, over, home = self.duration(state)
            lines.append(
                Term("campaign.zero.briefing.phases", arrival=arrival, over=over, home=home)
            )
        else:
            lines.append(Term("campaign.zero.briefing.turns", turns=t.turns.fixed or 0))
        for side, entry, spec in self._specs(state):
            lines.append(self._option_line(side, entry, spec))
        return lines + drawn_lines(state.drawn)

    def _target_line(self, state: LandState) -> str:
        t = self.mission_target(state)
        sheet = self.book.targets[t.target].sheet if t.target else "-"
        aircraft = ", ".join(str(f) for f in (*t.aircraft, *t.opponents))
        return Term(
            "campaign.zero.briefing.target",
            number=t.number,
            name=t.name,
            sheet=sheet,
            attacker=side_name(campaign_side(t.attacker)),
            aircraft=aircraft,
            altitude=t.altitude.code,
        )

    def _option_line(self, side: str, entry: CampaignOption, spec: OptionSpec) -> str:
        aircraft = ", ".join(str(f) for f in entry.aircraft)
        return Term(
            "campaign.zero.briefing.option",
            side=side_name(side),
            number=entry.number,
            name=spec.name,
            aircraft=f" ({aircraft})" if aircraft else "",
        )

    def absorb(self, state: LandState, outcome: Outcome) -> LandState:
        """§24.61: each side's Mission VP as the game counted them from the awards;
        Skilled Pilots shot down leave the cup; then the next Mission is drawn."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.zero.not_ready", mission=state.mission))
        if not outcome.over:
            raise RuleViolation(Term("campaign.zero.not_over", mission=state.mission))
        t = self.mission_target(state)
        vp = {side: int(outcome.vp.get(GAME_SIDE[side].value, 0)) for side in CAMPAIGN_SIDES}
        down = shot_down_pilots(outcome, state.drawn)
        score = LandScore(
            target=t.number,
            title=self.title(t),
            options=dict(state.picks),
            vp=vp,
            lost=tuple(d.name for d in down),
            flown=flown_pilots(outcome, state.drawn),
        )
        state = state.model_copy(
            update={
                "scores": (*state.scores, score),
                "lost": (*state.lost, *(d.counter for d in down)),
                "mission": state.mission + 1,
                "attempt": 1,
                "picks": {},
                "drawn": (),
                "keep": {},
                "card": None,
            }
        )
        return state if self.is_over(state) else self._draw(state)

    def abort_mission(self, state: LandState) -> LandState:
        """An aborted game: the Mission is flown again, same Options and pilots."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.zero.not_ready", mission=state.mission))
        return state.model_copy(update={"attempt": state.attempt + 1})

    # --- reading ------------------------------------------------------------------------
    def totals(self, state: LandState) -> dict[str, int]:
        return {side: sum(s.vp.get(side, 0) for s in state.scores) for side in CAMPAIGN_SIDES}

    def result(self, state: LandState) -> CampaignResult | None:
        if not self.is_over(state):
            return None
        return victory_result(self.sheet_of(state).victory, self.totals(state))

    def logbook(self, state: LandState) -> tuple[PilotLog, ...]:
        """The Skilled Pilots of the flown Missions (§19.24: drawn for each one)."""
        return logbook([(n, s.title, s.flown) for n, s in enumerate(state.scores, start=1)])

    def drawn_line(self, state: LandState) -> str:
        t = self.mission_target(state)
        assert state.card is not None
        return Term(
            "campaign.zero.drawn",
            mission=state.mission,
            card=state.card.value,
            number=t.number,
            name=t.name,
        )

    def happenings(self, before: LandState, after: LandState) -> Happenings:
        lines: list[str] = []
        if after.mission > before.mission:
            score = after.scores[-1]
            lines.append(
                Term(
                    "campaign.zero.scored",
                    mission=before.mission,
                    japanese=score.vp["japanese"],
                    allied=score.vp["allied"],
                )
            )
            lines += [Term("campaign.zero.pilot_lost", name=n) for n in score.lost]
            if not self.is_over(after):
                lines.append(self.drawn_line(after))
        else:
            if len(after.picks) == len(CAMPAIGN_SIDES) > len(before.picks):
                lines += [self._option_line(s, e, sp) for s, e, sp in self._specs(after)]
            if self.mission_ready(after) and not self.mission_ready(before):
                lines += drawn_lines(after.drawn)
        return Happenings(tuple(lines), sheet=after.mission > before.mission)

    def sheet(
        self, state: LandState, side: str | None, sides: tuple[SideInfo, ...]
    ) -> CampaignSheet:
        c = self.sheet_of(state)
        rows = [
            MissionRow(n, s.title, MissionState.FLOWN, s.vp)
            for n, s in enumerate(state.scores, start=1)
        ]
        if not self.is_over(state):
            rows.append(
                MissionRow(state.mission, self.title(self.mission_target(state)), MissionState.NEXT)
            )
        rows += [
            MissionRow(n, Term("campaign.zero.title.ahead", number=n), MissionState.AHEAD)
            for n in range(state.mission + 1, c.duration + 1)
        ]
        used = SheetTable(
            title=Term("campaign.zero.table.options"),
            columns=(
                Term("campaign.zero.table.mission"),
                side_name("japanese"),
                side_name("allied"),
            ),
            rows=tuple(
                (str(n), str(s.options.get("japanese", "-")), str(s.options.get("allied", "-")))
                for n, s in enumerate(state.scores, start=1)
            ),
        )
        return CampaignSheet(
            campaign=c.id,
            title=c.name,
            sides=sides,
            missions=tuple(rows),
            totals=self.totals(state),
            total_label=Term("campaign.zero.vp"),
            next=self._next_lines(state),
            secrets=self._secrets(state, side),
            tables=(used, pilots_table(state.lost, self.pilots)),
            result=self.result(state),
            options=(Term("campaign.zero.period_line", period=c.period(state.period).name),),
        )

    def _next_lines(self, state: LandState) -> tuple[str, ...]:
        if self.is_over(state):
            return ()
        lines = [self.drawn_line(state), self._target_line(state)]
        if self.mission_ready(state):
            return (*lines, *self.briefing(state)[2:])
        for side in CAMPAIGN_SIDES:
            key = "campaign.zero.chosen" if side in state.picks else "campaign.zero.waiting"
            lines.append(Term(key, side=side_name(side)))
        if state.offer is not None:
            lines.append(Term("campaign.zero.waiting_veteran", side=side_name(state.offer.side)))
        return tuple(lines)

    def _secrets(self, state: LandState, side: str | None) -> tuple[str, ...]:
        if state.offer is not None and state.offer.side == side:
            return tuple(keep_label(d) for d in state.offer.counters)
        if side is None or side not in state.picks or self.mission_ready(state):
            return ()
        entry, spec = self.option_spec(state, side, state.picks[side])
        return (self._option_line(side, entry, spec),)

    def public_text(
        self, state: LandState, entry: CampaignEntry, action: OptionPick | PilotKeep
    ) -> str:
        """An Option is secret until both sides have chosen theirs (§24.53), a Veteran
        Pilot's pick until the Mission is set up."""
        if isinstance(action, PilotKeep):
            hidden = action.game == state.mission and not self.mission_ready(state)
            return f"keep #{action.game} (secret)" if hidden else entry.text
        hidden = action.mission == state.mission and len(state.picks) < len(CAMPAIGN_SIDES)
        return f"option #{action.mission} (secret)" if hidden else entry.text

    def label(self, state: LandState, side: str, action: OptionPick | PilotKeep) -> str:
        if isinstance(action, PilotKeep):
            assert state.offer is not None
            return keep_label(next(d for d in state.offer.counters if d.counter == action.counter))
        entry, spec = self.option_spec(state, side, action.number)
        return self._option_line(side, entry, spec)

    def menu(self, state: LandState, side: str) -> Choice | None:
        legal = self.legal_actions(state, side)
        if not legal:
            return None
        return Choice(
            Term("campaign.zero.menu.title", mission=state.mission),
            children=tuple(Choice(self.label(state, side, a), action=str(a)) for a in legal),
            placeholder=Term(
                "campaign.zero.menu.keep" if state.offer else "campaign.zero.menu.option",
                mission=state.mission,
            ),
        )


class ZeroCampaigns:
    """The Zero! campaign system (``CampaignSystem``): the Land and Carrier Campaigns,
    and the Pearl Harbor Solitaire Campaign (:mod:`engine.dif.pearl_harbor`), each
    state handled by its own part."""

    system_id = "dif"
    setup_model = ZeroCampaignSetup

    def __init__(
        self, engine: DifEngine, book: CampaignBook, pilots: PilotBook, pearl: PearlHarbor
    ) -> None:
        self.book = book
        self.land = LandCampaigns(engine, book, pilots)
        self.carrier = CarrierCampaigns(engine, book, pilots)
        self.pearl = pearl

    def _offered(self) -> dict[str, LandCampaign | CarrierCampaign]:
        return {
            c.id: c
            for c in self.book.campaigns.values()
            if isinstance(c, LandCampaign | CarrierCampaign)
        }

    def campaigns(self) -> list[CampaignInfo]:
        out = []
        for c in self._offered().values():
            count = c.duration if isinstance(c, LandCampaign) else c.turns
            out.append(CampaignInfo(c.id, c.name, count, self._side_infos(), summary=c.summary))
        return [*out, *self.pearl.campaigns()]

    def _side_infos(self) -> tuple[SideInfo, ...]:
        return tuple(
            SideInfo(side, side_name(side), phrase=GAME_SIDE[side].phrase(Ruleset.ZERO))
            for side in CAMPAIGN_SIDES
        )

    def new_campaign(self, setup: Any, seed: int) -> LandState | Any:
        setup = ZeroCampaignSetup.model_validate(setup)
        if setup.campaign == PEARL_HARBOR:
            if setup.period is not None:
                raise SetupError(Term("campaign.zero.no_period_solitaire"))
            if setup.cup:
                raise SetupError(Term("campaign.zero.no_cup"))
            return self.pearl.new_campaign(PearlHarborSetup(draws=setup.draws), seed)
        offered = self._offered()
        c = offered.get(setup.campaign)
        if c is None:
            raise SetupError(
                Term(
                    "campaign.zero.unknown",
                    campaign=setup.campaign,
                    valid=", ".join([*offered, PEARL_HARBOR]),
                )
            )
        if isinstance(c, LandCampaign):
            return self.land.new_campaign(setup, seed, c)
        if setup.period is not None:
            raise SetupError(Term("campaign.zero.no_period", campaign=c.name))
        return self.carrier.new_campaign(setup, seed, c)

    def _part(self, state: Any) -> Any:
        if isinstance(state, PearlState):
            return self.pearl
        return self.land if isinstance(state, LandState) else self.carrier

    def sides(self, state: Any) -> tuple[SideInfo, ...]:
        if isinstance(state, PearlState):
            return self.pearl.sides(state)
        return self._side_infos()

    def pending(self, state: Any) -> list[CampaignDecision]:
        result: list[CampaignDecision] = self._part(state).pending(state)
        return result

    def legal_actions(self, state: Any, side: str) -> list[Any]:
        result: list[Any] = self._part(state).legal_actions(state, side)
        return result

    def apply(self, state: Any, side: str, action: Any) -> Any:
        return self._part(state).apply(state, side, action)

    def default_action(self, state: Any, side: str) -> Any:
        """At a deadline: a choice the rules leave to the player as the campaign makes
        it for a computer side (:meth:`CarrierCampaigns.rule_action`), else the first
        legal choice (the lowest Option number)."""
        if isinstance(state, PearlState):
            return self.pearl.default_action(state, side)
        rule = self._part(state).rule_action(state, side)
        if rule is not None:
            return rule
        legal = self.legal_actions(state, side)
        if not legal:
            raise RuleViolation(Term("campaign.zero.nothing", side=side))
        return legal[0]

    def computer_action(self, state: Any, side: str, seed: int) -> Any:
        """A computer player's choice, from its own seed; where the rules leave the
        choice to the player, the campaign's rule (:meth:`CarrierCampaigns.rule_action`)."""
        if isinstance(state, PearlState):
            return self.pearl.computer_action(state, side, seed)
        rule = self._part(state).rule_action(state, side)
        if rule is not None:
            return rule
        legal = self.legal_actions(state, side)
        if not legal:
            raise RuleViolation(Term("campaign.zero.nothing", side=side))
        return legal[Rng(seed).below(len(legal))]

    def menu(self, state: Any, side: str) -> Choice | None:
        result: Choice | None = self._part(state).menu(state, side)
        return result

    def ask(self, decision: CampaignDecision) -> str:
        if decision.kind == PEARL_ASSIGN:
            return self.pearl.ask(decision)
        return Term(f"campaign.zero.ask.{decision.kind}", mission=decision.mission or 0)

    def action_label(self, state: Any, side: str, action: Any) -> str:
        if isinstance(state, PearlState):
            return self.pearl.action_label(state, side, action)
        result: str = self._part(state).label(state, side, action)
        return result

    def parse_action(self, text: str) -> Any:
        if text.strip().startswith("assign"):
            return self.pearl.parse_action(text)
        m = _OPTION.match(text.strip())
        if m is not None:
            return OptionPick(mission=int(m.group(1)), number=int(m.group(2)))
        loss = parse_loss(text) or parse_keep(text)
        if loss is not None:
            return loss
        orders = parse_orders(text)
        if orders is None:
            raise MalformedAction(Term("campaign.zero.notation", text=text))
        return orders

    def opening(self, state: Any) -> Happenings:
        """The first Mission's draw (land); nothing before the first carrier turn."""
        if isinstance(state, LandState):
            return Happenings((self.land.drawn_line(state),))
        if isinstance(state, PearlState):
            return self.pearl.opening(state)
        return Happenings()

    def happenings(self, before: Any, after: Any) -> Happenings:
        result: Happenings = self._part(after).happenings(before, after)
        return result

    def public_text(self, state: Any, entry: CampaignEntry) -> str:
        if isinstance(state, PearlState):
            return self.pearl.public_text(state, entry)
        if entry.kind is not EntryKind.DECISION:
            return entry.text
        result: str = self._part(state).public_text(state, entry, self.parse_action(entry.text))
        return result

    def next_mission(self, state: Any) -> NextMission | None:
        if isinstance(state, PearlState):
            return self.pearl.next_mission(state)
        if self.is_over(state):
            return None
        if isinstance(state, LandState):
            number, title = state.mission, self.land.title(self.land.mission_target(state))
        else:
            number, title = self.carrier.next_game(state)
        seed = mission_seed(state.seed, number, state.attempt)
        return NextMission(number, title, state.attempt, seed, self.system_id, Ruleset.ZERO.value)

    def mission_ready(self, state: Any) -> bool:
        return bool(self._part(state).mission_ready(state))

    def mission_setup(self, state: Any) -> MissionPlan:
        if isinstance(state, PearlState):
            return self.pearl.mission_setup(state)
        upcoming = self.next_mission(state)
        if upcoming is None or not self.mission_ready(state):
            raise RuleViolation(
                Term("campaign.zero.not_ready", mission=getattr(state, "mission", 0))
            )
        result: MissionPlan = self._part(state).mission_setup(state, upcoming)
        return result

    def absorb(self, state: Any, outcome: Outcome) -> Any:
        return self._part(state).absorb(state, outcome)

    def abort_mission(self, state: Any) -> Any:
        return self._part(state).abort_mission(state)

    def sheet(self, state: Any, side: str | None) -> CampaignSheet:
        if isinstance(state, PearlState):
            return self.pearl.sheet(state, side)
        result: CampaignSheet = self._part(state).sheet(state, side, self._side_infos())
        return result

    def result(self, state: Any) -> CampaignResult | None:
        result: CampaignResult | None = self._part(state).result(state)
        return result

    def is_over(self, state: Any) -> bool:
        return bool(self._part(state).is_over(state))

    def logbook(self, state: Any) -> tuple[PilotLog, ...]:
        """The Skilled Pilots and Crews who flew the campaign's games (§19), missing
        once shot down; none in the Pearl Harbor Solitaire Campaign, which draws no
        pilots (§26.0)."""
        if isinstance(state, PearlState):
            return ()
        result: tuple[PilotLog, ...] = self._part(state).logbook(state)
        return result

    def dump_state(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = state.model_dump(mode="json")
        return data

    def load_state(self, data: Mapping[str, Any]) -> Any:
        if data.get("setup", {}).get("campaign") == PEARL_HARBOR:
            return self.pearl.load_state(data)
        if data.get("kind") == "land":
            return LandState.model_validate(dict(data))
        return self.carrier.load_state(data)


@functools.cache
def campaign_system() -> ZeroCampaigns:
    """The campaign system over the shipped data (the registry's factory)."""
    return ZeroCampaigns(default_engine(), shipped_book(), shipped_pilots(), pearl_harbor_system())


def campaign_system_with(packs: Sequence[Pack]) -> ZeroCampaigns:
    """The campaign system over the shipped data and these content packs, in order
    (:func:`engine.core.registry.campaign_with_content`): the aircraft and the campaign
    book built over the same packs (:func:`engine.dif.campaign_packs.book_with`: a
    pack's ``dif.campaigns`` and ``dif.targets``, every sheet checked against those
    aircraft), so that every campaign, Pearl Harbor included, flies the packs'
    aircraft. Raises ``DataError`` naming the pack's file, entry and field."""
    aircraft = aircraft_with(packs)
    book = book_with(packs, aircraft)
    decks = load_decks()
    pearl = PearlHarbor(book, aircraft, decks[Ruleset.ZERO], book.scoresheets.land)
    return ZeroCampaigns(DifEngine(decks, aircraft), book, shipped_pilots(), pearl)
