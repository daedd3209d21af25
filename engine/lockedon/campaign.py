"""Locked-On's campaign game on the campaign contract (:mod:`engine.core.campaign`).

"Playing a Campaign" (L269-314): the missions of a campaign sheet
(:mod:`engine.lockedon.campaigns`) are flown in their numbered order, each as a
Locked-On game of its stated turns (L271-273). Before each one, each nation secretly
selects its Options among the mission's two skills (L286, L291), revealed when the
mission starts; Special Condition skills go to every aircraft of the nation (L311),
Special Condition sites to its side (L290-300); turn order follows EW as in any game
(L301-302). The mission's VP are the sheet's, apportioned by the enemy aircraft
destroyed and rounded up (L305-308): the mission game's outcome gives them (the rules
of the game, :class:`~engine.lockedon.setup.MissionRules`), and the campaign adds
them up and reads each nation's Victory Point chart after the last mission (L311-314).
Campaign Scaling (L416-418) multiplies each mission's aircraft and Options by 2 or 3.

A decision's notation is ``skills #<mission> <aircraft>:<skill> ...``: the mission it
prepares, then each Option selected and the aircraft (numbered from 1 in the order
the Mission circle lists them, scaled) that takes it: ``skills #1 2:jink``.

Readings the book leaves open are in ``docs/rules-decisions.md`` ("Locked-On
campaigns"): one Option per aircraft at most; a resigned or forfeited mission gives
the other nation its full stated VP; an aborted mission is flown again with the same
Options; the better chart level wins the campaign, equal levels draw.
"""

from __future__ import annotations

import functools
import itertools
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
    mission_seed,
)
from engine.core.contract import Outcome, SeatPick, SideInfo
from engine.core.errors import MalformedAction, RuleViolation, SetupError
from engine.core.packs import Pack
from engine.core.present import Choice
from engine.core.rng import Rng
from engine.lockedon.campaigns import Campaign, Level, Mission, campaigns_with, shipped_campaigns
from engine.lockedon.game import LockedOnEngine, default_engine
from engine.lockedon.loader import components_with
from engine.lockedon.setup import (
    LockedOnOptions,
    LockedOnPick,
    LockedOnSetup,
    MissionRules,
    SeatSetup,
)
from engine.lockedon.words import altitude_word, range_word
from strings import Term

__all__ = [
    "CONTENT_KINDS",
    "GAME_SIDES",
    "LockedOnCampaignSetup",
    "LockedOnCampaigns",
    "Pick",
    "SkillsAction",
    "campaign_system",
    "campaign_system_with",
]

CONTENT_KINDS = ("campaigns",)
"""The section a content pack's ``lockedon`` part may have for campaigns (besides the
game's, :data:`engine.lockedon.loader.CONTENT_KINDS`): sheets in the schema of
``data/lockedon/campaigns/``."""

GAME_SIDES = ("A", "B")
"""The game sides nation #1 and nation #2 fly (the top and bottom of a Mission circle)."""
_NOTATION = re.compile(r"^skills\s+#(\d+)((?:\s+\d+:[a-z0-9-]+)+)\s*$")


class LockedOnCampaignSetup(BaseModel):
    """``/campaign new``'s choices: which campaign, and Campaign Scaling (L416-418)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    campaign: str
    scale: Literal[1, 2, 3] = 1
    """Multiplies each mission's aircraft and Options (L416-418)."""


class Pick(BaseModel):
    """One Option selected: the aircraft (from 1) that takes the skill."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    aircraft: int = Field(ge=1)
    skill: str


class SkillsAction(BaseModel):
    """A nation's secret selection of Options for a mission (L286, L291)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mission: int
    picks: tuple[Pick, ...]

    def __str__(self) -> str:
        return f"skills #{self.mission} " + " ".join(f"{p.aircraft}:{p.skill}" for p in self.picks)

    def __hash__(self) -> int:
        return hash(str(self))


class MissionScore(BaseModel):
    """A flown mission: each nation's VP, and how the game ended."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    vp: dict[str, int]
    verdict: str
    conceded: str | None = None
    """The nation that resigned or forfeited it, if one did."""


class CampaignState(BaseModel):
    """A Locked-On campaign between missions or while one is flown. Plain JSON."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    setup: LockedOnCampaignSetup
    seed: int
    mission: int = 1
    """The next mission's number (one more than the last once the campaign is over)."""
    attempt: int = 1
    """The game of the next mission: 2 and more after aborted games."""
    picks: dict[str, SkillsAction] = Field(default_factory=dict)
    """Each nation's selection for the next mission, once made (secret until both are)."""
    scores: tuple[MissionScore, ...] = ()


class LockedOnCampaigns:
    """The Locked-On campaign system (``CampaignSystem``) over the shipped sheets, or
    over those and a server's content packs (:func:`campaign_system_with`)."""

    system_id = "lockedon"
    setup_model = LockedOnCampaignSetup

    def __init__(self, engine: LockedOnEngine, sheets: Mapping[str, Campaign]) -> None:
        self.engine = engine
        self.sheets = dict(sheets)

    # --- campaigns ----------------------------------------------------------------
    def campaigns(self) -> list[CampaignInfo]:
        return [
            CampaignInfo(
                c.id,
                c.title,
                len(c.missions),
                self._side_infos(c),
                summary=f"{c.years}: {c.summary}",
            )
            for c in self.sheets.values()
        ]

    def sheet_of(self, state: CampaignState) -> Campaign:
        return self.sheets[state.setup.campaign]

    def _side_infos(self, c: Campaign) -> tuple[SideInfo, ...]:
        return tuple(SideInfo(n.id, n.name) for n in c.nations)

    def new_campaign(self, setup: LockedOnCampaignSetup, seed: int) -> CampaignState:
        setup = LockedOnCampaignSetup.model_validate(setup)
        if setup.campaign not in self.sheets:
            raise SetupError(Term("campaign.lockedon.unknown", campaign=setup.campaign))
        return CampaignState(setup=setup, seed=seed)

    def sides(self, state: CampaignState) -> tuple[SideInfo, ...]:
        return self._side_infos(self.sheet_of(state))

    def is_over(self, state: CampaignState) -> bool:
        return state.mission > len(self.sheet_of(state).missions)

    def logbook(self, state: CampaignState) -> tuple[PilotLog, ...]:
        """None: no aircrew carries over from one mission to the next (each mission
        flies the aircraft its circle lists, L271-273; the Options are picked afresh
        for it, L286)."""
        return ()

    def _mission(self, state: CampaignState) -> Mission:
        if self.is_over(state):
            raise RuleViolation(Term("campaign.lockedon.over"))
        return self.sheet_of(state).missions[state.mission - 1]

    # --- between missions -----------------------------------------------------------
    def pending(self, state: CampaignState) -> list[CampaignDecision]:
        if self.is_over(state):
            return []
        return [
            CampaignDecision(n.id, "skills", secret=True, mission=state.mission)
            for n in self.sheet_of(state).nations
            if n.id not in state.picks
        ]

    def mission_aircraft(self, state: CampaignState, nation: str) -> list[str]:
        """The nation's aircraft for the next mission, in Mission-circle order, scaled
        (L416-418): their ids, numbered from 1 by their place here."""
        half = self._mission(state).nations[nation]
        return [a.aircraft for a in half.aircraft for _ in range(a.count * state.setup.scale)]

    def options_of(self, state: CampaignState, nation: str) -> tuple[tuple[str, str], int]:
        """The next mission's two Options for ``nation`` and how many it selects."""
        half = self._mission(state).nations[nation]
        return half.options, half.picks * state.setup.scale

    def legal_actions(self, state: CampaignState, side: str) -> list[SkillsAction]:
        """Every selection: ``picks`` distinct aircraft, an Option each (an Option may
        be selected more than once, L418), never a skill the aircraft already has as
        a Special Condition."""
        if self.is_over(state) or side not in self._nation_ids(state) or side in state.picks:
            return []
        half = self._mission(state).nations[side]
        (first, second), count = self.options_of(state, side)
        aircraft = range(1, len(self.mission_aircraft(state, side)) + 1)
        out: list[SkillsAction] = []
        for chosen in itertools.combinations(aircraft, count):
            for skills in itertools.product((first, second), repeat=count):
                if any(s in half.special for s in skills):
                    continue
                picks = tuple(
                    Pick(aircraft=a, skill=s) for a, s in zip(chosen, skills, strict=True)
                )
                out.append(SkillsAction(mission=state.mission, picks=picks))
        return out

    def _nation_ids(self, state: CampaignState) -> tuple[str, ...]:
        return tuple(n.id for n in self.sheet_of(state).nations)

    def apply(self, state: CampaignState, side: str, action: SkillsAction) -> CampaignState:
        if self.is_over(state):
            raise RuleViolation(Term("campaign.lockedon.over"))
        if side not in self._nation_ids(state):
            raise RuleViolation(Term("campaign.lockedon.no_side", side=side))
        if side in state.picks:
            raise RuleViolation(Term("campaign.lockedon.already", mission=state.mission))
        if action.mission != state.mission:
            raise RuleViolation(
                Term("campaign.lockedon.wrong_mission", mission=state.mission, given=action.mission)
            )
        if action not in self.legal_actions(state, side):
            (first, second), count = self.options_of(state, side)
            raise RuleViolation(
                Term(
                    "campaign.lockedon.bad_pick",
                    count=count,
                    first=self._skill_name(first),
                    second=self._skill_name(second),
                    aircraft=len(self.mission_aircraft(state, side)),
                )
            )
        return state.model_copy(update={"picks": {**state.picks, side: action}})

    def default_action(self, state: CampaignState, side: str) -> SkillsAction:
        """At a deadline: the first Option to the first aircraft (the list's first)."""
        legal = self.legal_actions(state, side)
        if not legal:
            raise RuleViolation(Term("campaign.lockedon.nothing", side=side))
        return legal[0]

    def computer_action(self, state: CampaignState, side: str, seed: int) -> SkillsAction:
        """A computer player's selection, from its own seed."""
        legal = self.legal_actions(state, side)
        if not legal:
            raise RuleViolation(Term("campaign.lockedon.nothing", side=side))
        return legal[Rng(seed).below(len(legal))]

    def parse_action(self, text: str) -> SkillsAction:
        m = _NOTATION.match(text.strip())
        if m is None:
            raise MalformedAction(Term("campaign.lockedon.notation", text=text))
        picks = []
        for word in m.group(2).split():
            number, skill = word.split(":")
            picks.append(Pick(aircraft=int(number), skill=skill))
        return SkillsAction(mission=int(m.group(1)), picks=tuple(picks))

    def opening(self, state: CampaignState) -> Happenings:
        """Nothing: the first mission's Options are the first thing that happens."""
        return Happenings()

    def happenings(self, before: CampaignState, after: CampaignState) -> Happenings:
        """Nothing: every Locked-On mission is a game, every step a decision."""
        return Happenings()

    def public_text(self, state: CampaignState, entry: CampaignEntry) -> str:
        """A selection is secret until its mission starts (both nations selected)."""
        if entry.kind is not EntryKind.DECISION:
            return entry.text
        action = self.parse_action(entry.text)
        started = action.mission < state.mission or (
            action.mission == state.mission and self.mission_ready(state)
        )
        return entry.text if started else f"skills #{action.mission} (secret)"

    # --- the missions -------------------------------------------------------------
    def next_mission(self, state: CampaignState) -> NextMission | None:
        if self.is_over(state):
            return None
        m = self._mission(state)
        seed = mission_seed(state.seed, m.number, state.attempt)
        return NextMission(m.number, m.title, state.attempt, seed, self.system_id, self.system_id)

    def mission_ready(self, state: CampaignState) -> bool:
        return not self.is_over(state) and not self.pending(state)

    def mission_setup(self, state: CampaignState) -> MissionPlan:
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.lockedon.not_ready", mission=state.mission))
        c, m = self.sheet_of(state), self._mission(state)
        seats: list[SeatSetup] = []
        seat_sides: dict[str, str] = {}
        briefing: list[str] = []
        for nation, side in zip(c.nations, GAME_SIDES, strict=True):
            half = m.nations[nation.id]
            chosen = {p.aircraft: p.skill for p in state.picks[nation.id].picks}
            for n, aircraft in enumerate(self.mission_aircraft(state, nation.id), start=1):
                seat = f"{side}{n}"
                skills = (*half.special, *([chosen[n]] if n in chosen else []))
                seats.append(
                    SeatSetup(
                        seat=seat,
                        side=side,
                        aircraft=aircraft,
                        skills=skills,
                        ratings={k: dict(v) for k, v in half.ratings.items()},
                    )
                )
                seat_sides[seat] = nation.id
            for p in state.picks[nation.id].picks:
                briefing.append(
                    Term(
                        "campaign.lockedon.briefing_pick",
                        nation=nation.name,
                        aircraft=self._aircraft_name(
                            self.mission_aircraft(state, nation.id)[p.aircraft - 1]
                        ),
                        n=p.aircraft,
                        skill=self._skill_name(p.skill),
                    )
                )
        total = len(seats)
        options = LockedOnOptions(
            rounds=m.turns,
            battle_year=m.year,
            team_games=any(len(self.mission_aircraft(state, n.id)) > 1 for n in c.nations),
            second_deck=total > 8,
        )
        rules = MissionRules(
            number=m.number,
            title=m.title,
            vp={side: m.nations[n.id].vp for n, side in zip(c.nations, GAME_SIDES, strict=True)},
            sites={
                side: m.nations[n.id].sites
                for n, side in zip(c.nations, GAME_SIDES, strict=True)
                if m.nations[n.id].sites
            },
            names={side: n.name for n, side in zip(c.nations, GAME_SIDES, strict=True)},
        )
        setup = LockedOnSetup(options=options, seats=tuple(seats), mission=rules)
        upcoming = self.next_mission(state)
        assert upcoming is not None
        return MissionPlan(
            next=upcoming,
            setup=setup,
            options=options,
            seats=tuple(
                SeatPick(s.seat, s.side, LockedOnPick.model_validate(_pick_fields(s)))
                for s in seats
            ),
            seat_sides=seat_sides,
            briefing=tuple(briefing),
        )

    def absorb(self, state: CampaignState, outcome: Outcome) -> CampaignState:
        """The mission's VP (L305-308) from its game's outcome. A resigned or forfeited
        mission gives the other nation its full stated VP (its enemy left it the
        sky); the conceding nation keeps what it destroyed."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.lockedon.not_ready", mission=state.mission))
        if not outcome.over:
            raise RuleViolation(Term("campaign.lockedon.not_over", mission=state.mission))
        c, m = self.sheet_of(state), self._mission(state)
        nation_of = {side: n.id for n, side in zip(c.nations, GAME_SIDES, strict=True)}
        vp = {nation_of[side]: int(outcome.vp.get(side, 0)) for side in GAME_SIDES}
        conceded = nation_of.get(outcome.conceded) if outcome.conceded else None
        if conceded is not None:
            for side, nation in nation_of.items():
                if nation != conceded:  # every enemy destroyed, NFOD's points kept (L364)
                    points = sum(
                        int(f.record.get("campaign_points", 0))
                        for f in outcome.fates
                        if f.side == side
                    )
                    vp[nation] = max(vp[nation], m.nations[nation].vp + points)
        score = MissionScore(vp=vp, verdict=str(outcome.verdict), conceded=conceded)
        return state.model_copy(
            update={
                "scores": (*state.scores, score),
                "mission": state.mission + 1,
                "attempt": 1,
                "picks": {},
            }
        )

    def abort_mission(self, state: CampaignState) -> CampaignState:
        """An aborted game: the mission is flown again, with the same Options."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.lockedon.not_ready", mission=state.mission))
        return state.model_copy(update={"attempt": state.attempt + 1})

    # --- reading --------------------------------------------------------------------
    def totals(self, state: CampaignState) -> dict[str, int]:
        return {n: sum(s.vp.get(n, 0) for s in state.scores) for n in self._nation_ids(state)}

    def result(self, state: CampaignState) -> CampaignResult | None:
        """L312-314: each nation's total against its chart; the better level wins."""
        if not self.is_over(state):
            return None
        c = self.sheet_of(state)
        totals = self.totals(state)
        levels = {n.id: c.level(n.id, totals[n.id]) for n in c.nations}
        best = min(level.rank for level in levels.values())
        leaders = [n for n, level in levels.items() if level.rank == best]
        winner = leaders[0] if len(leaders) == 1 else None
        words = {n.id: _level_term(levels[n.id]) for n in c.nations}
        first, second = c.nations
        verdict = Term(
            "campaign.lockedon.verdict",
            first=first.name,
            first_vp=totals[first.id],
            first_level=words[first.id],
            second=second.name,
            second_vp=totals[second.id],
            second_level=words[second.id],
        )
        return CampaignResult(winner=winner, verdict=verdict, totals=totals, levels=words)

    def sheet(self, state: CampaignState, side: str | None) -> CampaignSheet:
        c = self.sheet_of(state)
        rows = []
        for m in c.missions:
            if m.number < state.mission:
                score = state.scores[m.number - 1]
                note = (
                    Term("campaign.lockedon.conceded", nation=c.nation(score.conceded).name)
                    if score.conceded
                    else None
                )
                rows.append(MissionRow(m.number, m.title, MissionState.FLOWN, score.vp, note))
            else:
                here = MissionState.NEXT if m.number == state.mission else MissionState.AHEAD
                rows.append(MissionRow(m.number, m.title, here))
        return CampaignSheet(
            campaign=c.id,
            title=c.title,
            sides=self._side_infos(c),
            missions=tuple(rows),
            totals=self.totals(state),
            total_label=Term("campaign.lockedon.vp"),
            next=self._next_lines(state) if not self.is_over(state) else (),
            secrets=self._secrets(state, side),
            result=self.result(state),
            options=(Term("campaign.lockedon.scale", scale=state.setup.scale),)
            if state.setup.scale > 1
            else (),
        )

    def _next_lines(self, state: CampaignState) -> tuple[str, ...]:
        c, m = self.sheet_of(state), self._mission(state)
        lines: list[str] = [
            Term("campaign.lockedon.next", number=m.number, title=m.title, turns=m.turns)
        ]
        for nation in c.nations:
            half = m.nations[nation.id]
            counts: dict[str, int] = {}
            for a in self.mission_aircraft(state, nation.id):
                counts[a] = counts.get(a, 0) + 1
            flown = ", ".join(f"{k} × {self._aircraft_name(a)}" for a, k in counts.items())
            (first, second), picks = self.options_of(state, nation.id)
            lines.append(
                Term(
                    "campaign.lockedon.next_side",
                    nation=nation.name,
                    vp=half.vp,
                    aircraft=flown,
                    picks=picks,
                    first=self._skill_name(first),
                    second=self._skill_name(second),
                )
            )
            if half.special:
                names = ", ".join(self._skill_name(s) for s in half.special)
                lines.append(Term("campaign.lockedon.special", nation=nation.name, skills=names))
            for site_id in half.sites:
                site = self.engine.components.sites[site_id]
                lines.append(
                    Term(
                        "campaign.lockedon.site",
                        nation=nation.name,
                        site=site.name,
                        cards=site.cards,
                        ranges=_and([range_word(r) for r in site.ranges]),
                        altitudes=_and([altitude_word(a) for a in site.altitudes]),
                    )
                )
            if half.note:
                lines.append(half.note)
            waiting = nation.id not in state.picks
            lines.append(
                Term(
                    "campaign.lockedon.waiting" if waiting else "campaign.lockedon.chosen",
                    nation=nation.name,
                )
            )
        return tuple(lines)

    def _secrets(self, state: CampaignState, side: str | None) -> tuple[str, ...]:
        if side is None or side not in state.picks or self.mission_ready(state):
            return ()
        aircraft = self.mission_aircraft(state, side)
        return tuple(
            Term(
                "campaign.lockedon.secret_pick",
                aircraft=self._aircraft_name(aircraft[p.aircraft - 1]),
                n=p.aircraft,
                skill=self._skill_name(p.skill),
            )
            for p in state.picks[side].picks
        )

    def action_label(self, state: CampaignState, side: str, action: SkillsAction) -> str:
        """A selection in words: 'MiG-17F #2: Jink'."""
        return "; ".join(self._pick_label(state, side, p) for p in action.picks)

    def _pick_label(self, state: CampaignState, side: str, p: Pick) -> str:
        aircraft = self.mission_aircraft(state, side)[p.aircraft - 1]
        return f"{self._aircraft_name(aircraft)} #{p.aircraft}: {self._skill_name(p.skill)}"

    def menu(self, state: CampaignState, side: str) -> Choice | None:
        """The selection one Option at a time: the first Option's aircraft and skill,
        then the next's among the aircraft after it... (at most 24 a level: twelve
        aircraft, two Options), the leaves the whole selections."""
        legal = self.legal_actions(state, side)
        if not legal:
            return None
        (_, _), count = self.options_of(state, side)

        def level(prefix: tuple[Pick, ...]) -> tuple[Choice, ...]:
            below = [a for a in legal if a.picks[: len(prefix)] == prefix]
            nexts = list(dict.fromkeys(a.picks[len(prefix)] for a in below))
            out = []
            for p in nexts:
                label = self._pick_label(state, side, p)
                if len(prefix) + 1 == count:
                    action = SkillsAction(mission=state.mission, picks=(*prefix, p))
                    out.append(Choice(label, action=str(action)))
                else:
                    more = Term("campaign.lockedon.menu.next", n=len(prefix) + 2, count=count)
                    out.append(Choice(label, children=level((*prefix, p)), placeholder=more))
            return tuple(out)

        first = Term("campaign.lockedon.menu.first", mission=state.mission, count=count)
        return Choice(
            Term("campaign.lockedon.menu.title", mission=state.mission),
            children=level(()),
            placeholder=first,
        )

    def ask(self, decision: CampaignDecision) -> str:
        return Term("campaign.lockedon.ask", mission=decision.mission or 0)

    def _skill_name(self, skill: str) -> str:
        return self.engine.skills[skill].name

    def _aircraft_name(self, aircraft: str) -> str:
        return self.engine.aircraft[aircraft].name

    # --- storage ------------------------------------------------------------------
    def dump_state(self, state: CampaignState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> CampaignState:
        return CampaignState.model_validate(dict(data))


def _pick_fields(seat: SeatSetup) -> dict[str, Any]:
    """A seat's pick (what the lobby would hold for it), without its seat and side."""
    return seat.model_dump(exclude={"seat", "side"})


def _and(words: list[Term]) -> str:
    """``Gun and Heat Seeking`` (in the reader's language)."""
    out: str = words[0] if words else ""
    for w in words[1:]:
        out = Term("common.and", a=out, b=w)
    return out


def _level_term(level: Level) -> str:
    return Term(f"campaign.lockedon.level.{level.value}")


@functools.cache
def campaign_system() -> LockedOnCampaigns:
    """The campaign system over the shipped data (the registry's factory)."""
    return LockedOnCampaigns(default_engine(), shipped_campaigns())


def campaign_system_with(packs: Sequence[Pack]) -> LockedOnCampaigns:
    """The campaign system over the shipped data and these content packs, in order
    (:func:`engine.core.registry.campaign_with_content`): the components and the
    campaign sheets built over the same packs, each sheet checked against those
    components (:func:`engine.lockedon.campaigns.campaigns_with`). Raises
    ``DataError`` naming the pack's file, entry and field."""
    components = components_with(packs)
    return LockedOnCampaigns(LockedOnEngine(components), campaigns_with(packs, components))
