"""Zero!'s Pearl Harbor Solitaire Campaign (§26.0) on the campaign contract
(:mod:`engine.core.campaign`).

"The player assigns his aircraft to Targets, checks for the effects of the American
defenses by drawing an AC, and carries out the attacks" (§26.0, L2069), without the
Mission/Air Strike and Anti-Aircraft rules; the rest is the Pearl Harbor Campaign Sheet,
an AUTHORED sheet here (``data/dif/campaign/pearl-harbor.yaml``, schema
:class:`~engine.dif.campaign_data.SolitaireCampaign`).

Each wave opens with the Japanese player's one decision, ``assign``: a Target for every
bombing Element of the wave that can fly (refused: torpedoes against a non-naval
Target, §21.52, or a Target the sheet shelters). Each bombing Element is then a
**mission** of the contract, resolved in the sheet's order by the campaign's own
draws: one card per aircraft read on the wave's defence row (none, hit, spoiled,
fighters), then its Bombing cards (the Bombing Chart at the Element's altitude, its
factor from the card's Damaged side once Damaged, §21.3-21.5, the Norden rule §18.32),
their Damage to the Target (the Target Sheet, torpedoes twice, §21.55). When American
fighters come up, the engagement is a Down in Flames game
(:meth:`PearlHarbor.mission_setup`, a dogfight-kind mission of the drawn turns, the
wave's escorts with the attacked Element); its outcome (:meth:`PearlHarbor.absorb`)
says who is shot down, damaged or gone, and the survivors then bomb. Aircraft carry
their damage from the First Wave to the Second (the sheet's element names say which).

VP: the Japanese score each Target's level (the Target Sheets, §21.81-21.82), the
Americans each Japanese aircraft destroyed or damaged (the Land Campaign Victory Point
Awards, §24.61); the sheet's victory table reads the difference.

The American side takes no decision: its defences are drawn and its fighters flown by
a computer seat in the engagement's game (a side nobody joins, ``MissionPlan``).

A decision's notation: ``assign <wave> <element>:<target> ...``, e.g.
``assign 1 kates-torpedo:1 kates-level:4 vals:5``. Readings the sheet leaves open:
``docs/rules-decisions.md``, "Pearl Harbor Solitaire Campaign".
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.campaign import (
    CampaignDecision,
    CampaignEntry,
    CampaignInfo,
    CampaignResult,
    CampaignSheet,
    Happenings,
    MissionPlan,
    MissionRow,
    MissionState,
    NextMission,
    SheetTable,
    mission_seed,
)
from engine.core.contract import AircraftFate, Fate, Outcome, SeatPick, SideInfo
from engine.core.errors import MalformedAction, RuleViolation, SetupError
from engine.core.present import Choice
from engine.core.rng import Rng
from engine.dif.campaign_data import (
    AircraftClass,
    CampaignBook,
    Defense,
    DrawCard,
    Flight,
    FlightForm,
    LandScoresheet,
    SolitaireCampaign,
    SolitaireTarget,
    Sortie,
    Wave,
    shipped_book,
    victory_row,
)
from engine.dif.campaign_targets import RESULT_ORDER, BombingMode, TargetSheet
from engine.dif.components import Aircraft, Card, Deck, Ruleset, Side
from engine.dif.loader import load_aircraft, load_decks
from engine.dif.mission import MissionKind, MissionSetup
from engine.dif.picks import DifOptions, DifPick
from engine.dif.setup import DifSetup, ElementSetup
from engine.dif.texts import join
from strings import Term

__all__ = [
    "ALLIED",
    "CAMPAIGN_ID",
    "JAPANESE",
    "AssignAction",
    "PearlHarbor",
    "PearlHarborSetup",
    "PearlState",
    "pearl_harbor_system",
]

JAPANESE = "japanese"
"""The player's side: every decision is his."""
ALLIED = "allied"
"""The American defences: drawn, and flown by a computer seat in an engagement."""
CAMPAIGN_ID: Literal["pearl-harbor"] = "pearl-harbor"
ASSIGN = "assign"
"""The kind of the campaign's one decision: a wave's Targets."""
YEAR = 1941
BOMBING_SEAT = "X1"
"""The attacked Element's seat in an engagement; the escorts follow (``X2``...)."""
_NOTATION = re.compile(r"^assign\s+(\d+)((?:\s+[a-z0-9][a-z0-9-]*:\d+)+)\s*$")
_CLASS = {
    "fighter": AircraftClass.FIGHTER,
    "light_bomber": AircraftClass.LIGHT_BOMBER,
    "torpedo_bomber": AircraftClass.LIGHT_BOMBER,
}
"""The Victory Point Awards row of each role the carriers' aircraft fly (§24.61)."""


class PearlHarborSetup(BaseModel):
    """``/campaign new``'s choice: the one solitaire campaign (nothing else to choose)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    campaign: Literal["pearl-harbor"] = CAMPAIGN_ID
    # -- tests and vectors: what normally comes from the shuffle ----------------------
    draws: tuple[str, ...] = Field(default=(), json_schema_extra={"tests_only": True})
    """Card codes (``IMS-3B3D``, ``MAN``) drawn first, in order, then the shuffled deck."""


class AssignAction(BaseModel):
    """The Japanese player's Targets for a wave's bombing Elements (the sheet's first
    rule: every one, before the first attack)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wave: int = Field(ge=1, description="1: the First Wave")
    targets: tuple[tuple[str, int], ...]
    """Each Element and its Target's number, in the sheet's order."""

    def __str__(self) -> str:
        return f"assign {self.wave} " + " ".join(f"{e}:{t}" for e, t in self.targets)

    def __hash__(self) -> int:
        return hash(str(self))


class Plane(BaseModel):
    """One Japanese aircraft, across both waves."""

    model_config = ConfigDict(extra="forbid")

    aircraft: str
    hits: int = 0
    damaged: bool = False
    destroyed: bool = False


class Engagement(BaseModel):
    """American fighters drawn against an Element: its game is the next to fly."""

    model_config = ConfigDict(extra="forbid")

    card: DrawCard
    """The defence row that brought them (its fighters and turns)."""
    spoiled: list[str] = Field(default_factory=list)
    """The Element's aircraft whose best Bombing card is negated (drawn before)."""


class Line(BaseModel):
    """One line told in the campaign's thread: a ``campaign.pearl.line`` key and its
    fields (plain values; :meth:`PearlHarbor.line` words them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    fields: dict[str, Any] = Field(default_factory=dict)


class PearlState(BaseModel):
    """The campaign between two entries of its log. Plain JSON."""

    model_config = ConfigDict(extra="forbid")

    setup: PearlHarborSetup
    seed: int
    rng: int
    deck: list[int]
    """The draw pile's card ids, the next drawn last (hidden from everyone)."""
    draws: list[str] = Field(default_factory=list)
    """The setup's fixed draws not yet drawn."""
    wave: int = 0
    """The wave being flown (0: the First); ``len(waves)`` once over."""
    assigned: dict[str, int] = Field(default_factory=dict)
    """The wave's Element -> Target number (empty until the player decides)."""
    step: int = 0
    """The wave's next bombing Element to attack (its index among them)."""
    attempt: int = 1
    planes: dict[str, Plane]
    """``<element>.L`` / ``<element>.W`` -> the aircraft."""
    damage: dict[int, int] = Field(default_factory=dict)
    """Target number -> its Damage points (§21.81)."""
    engagement: Engagement | None = None
    scores: list[dict[str, int]] = Field(default_factory=list)
    """The VP each flown mission added, by side."""
    lines: list[Line] = Field(default_factory=list)


class PearlHarbor:
    """The Pearl Harbor Solitaire Campaign (``CampaignSystem``)."""

    system_id = "dif"
    setup_model = PearlHarborSetup

    def __init__(
        self,
        book: CampaignBook,
        aircraft: Mapping[str, Aircraft],
        deck: Deck,
        awards: LandScoresheet,
    ) -> None:
        sheet = book.campaign(CAMPAIGN_ID)
        assert isinstance(sheet, SolitaireCampaign)
        self.sheet_data = sheet
        self.targets: dict[int, SolitaireTarget] = {t.number: t for t in sheet.targets}
        self.target_sheets: dict[str, TargetSheet] = dict(book.targets)
        self.chart = book.bombing
        self.aircraft = dict(aircraft)
        self.deck = deck
        self.awards = awards
        self._check()

    def _check(self) -> None:
        """The sheet flies: every bombing Element's aircraft shows its mode (§21.21)
        and the Bombing Chart has its altitude; every Target has its sheet."""
        for wave in self.sheet_data.waves:
            for s in wave.sorties:
                ac = self.aircraft[s.flight.aircraft]
                if s.mode is not None:
                    assert ac.bombing is not None and s.mode in ac.bombing.modes, s
                    assert s.altitude is not None
                    assert self.chart.rule(s.mode).row(s.altitude) is not None, s
        for t in self.targets.values():
            assert t.target in self.target_sheets, t

    # --- campaigns ----------------------------------------------------------------
    def campaigns(self) -> list[CampaignInfo]:
        return [
            CampaignInfo(
                CAMPAIGN_ID,
                self.sheet_data.name,
                len(self._missions()),
                self._side_infos(),
                summary=self.sheet_data.summary,
            )
        ]

    def _side_infos(self) -> tuple[SideInfo, ...]:
        return (
            SideInfo(JAPANESE, Term("campaign.pearl.side.japanese")),
            SideInfo(ALLIED, Term("campaign.pearl.side.allied")),
        )

    def sides(self, state: PearlState) -> tuple[SideInfo, ...]:
        return self._side_infos()

    def new_campaign(self, setup: PearlHarborSetup, seed: int) -> PearlState:
        try:
            setup = PearlHarborSetup.model_validate(setup)
        except ValueError as exc:
            raise SetupError(Term("campaign.pearl.unknown", campaign=str(exc))) from exc
        codes = {c.type.code for c in self.deck.cards}
        for code in setup.draws:
            if code not in codes:
                raise SetupError(Term("campaign.pearl.bad_draw", card=code))
        rng = Rng(seed)
        deck = [c.id for c in self.deck.cards]
        rng.shuffle(deck)
        planes: dict[str, Plane] = {}
        for wave in self.sheet_data.waves:
            for s in wave.sorties:
                for ref in _positions(s.flight):
                    planes.setdefault(f"{s.element}.{ref}", Plane(aircraft=s.flight.aircraft))
        state = PearlState(
            setup=setup,
            seed=seed,
            rng=rng.state,
            deck=deck,
            draws=list(setup.draws),
            planes=planes,
            damage={t: 0 for t in self.targets},
        )
        self._say(state, "opening", wave=0, dates=self.sheet_data.dates)
        self._advance(state)
        return state

    # --- where the campaign stands ------------------------------------------------
    def is_over(self, state: PearlState) -> bool:
        return state.wave >= len(self.sheet_data.waves)

    def _wave(self, state: PearlState) -> Wave:
        return self.sheet_data.waves[state.wave]

    @staticmethod
    def _bombers(wave: Wave) -> list[Sortie]:
        return [s for s in wave.sorties if s.mode is not None]

    def _missions(self) -> list[tuple[int, Sortie]]:
        """Every mission of the campaign: each wave's bombing Elements, in order."""
        return [(i, s) for i, w in enumerate(self.sheet_data.waves) for s in self._bombers(w)]

    def _number(self, state: PearlState) -> int:
        """The next mission's number (one more than the last once over)."""
        before = sum(len(self._bombers(w)) for w in self.sheet_data.waves[: state.wave])
        return before + state.step + 1

    def _flying(self, state: PearlState, element: str) -> list[str]:
        """The Element's aircraft not destroyed, Leader first."""
        return [
            ref
            for pos in ("L", "W")
            if (ref := f"{element}.{pos}") in state.planes and not state.planes[ref].destroyed
        ]

    def _to_assign(self, state: PearlState) -> list[Sortie]:
        """The wave's bombing Elements with an aircraft left to fly."""
        return [s for s in self._bombers(self._wave(state)) if self._flying(state, s.element)]

    # --- between missions -----------------------------------------------------------
    def pending(self, state: PearlState) -> list[CampaignDecision]:
        if self.is_over(state) or state.assigned or not self._to_assign(state):
            return []
        return [CampaignDecision(JAPANESE, ASSIGN, secret=False, mission=self._number(state))]

    def allowed_targets(self, sortie: Sortie) -> list[SolitaireTarget]:
        """The Targets ``sortie`` may attack: torpedoes only Naval Targets (§21.52) the
        sheet does not shelter."""
        return [t for t in self.targets.values() if self._refusal(sortie, t) is None]

    def _refusal(self, sortie: Sortie, target: SolitaireTarget) -> Term | None:
        if sortie.mode is not BombingMode.TORPEDO:
            return None
        if not self.target_sheets[target.target].naval:
            return Term("campaign.pearl.torpedo_naval", number=target.number, target=target.name)
        if not target.torpedo:
            return Term(
                "campaign.pearl.torpedo_sheltered", number=target.number, target=target.name
            )
        return None

    def legal_actions(self, state: PearlState, side: str) -> list[AssignAction]:
        """Every assignment: a Target for each Element that can fly, in product."""
        if side != JAPANESE or not self.pending(state):
            return []
        sorties = self._to_assign(state)
        choices = [[(s.element, t.number) for t in self.allowed_targets(s)] for s in sorties]
        return [
            AssignAction(wave=state.wave + 1, targets=tuple(pairs))
            for pairs in itertools.product(*choices)
        ]

    def apply(self, state: PearlState, side: str, action: AssignAction) -> PearlState:
        self._check_assign(state, side, action)
        new = state.model_copy(deep=True)
        new.assigned = dict(action.targets)
        self._say(new, "assigned", wave=new.wave, targets=[list(p) for p in action.targets])
        self._advance(new)
        return new

    def _check_assign(self, state: PearlState, side: str, action: AssignAction) -> None:
        """The sheet's first rule and §21.52, each refusal naming its rule."""
        if self.is_over(state):
            raise RuleViolation(Term("campaign.pearl.over"))
        if side != JAPANESE:
            raise RuleViolation(Term("campaign.pearl.no_side", side=side))
        if not self.pending(state):
            raise RuleViolation(Term("campaign.pearl.nothing", side=side))
        wave = self._wave(state)
        if action.wave != state.wave + 1:
            raise RuleViolation(
                Term("campaign.pearl.wrong_wave", wave=state.wave + 1, given=action.wave)
            )
        sorties = {s.element: s for s in self._to_assign(state)}
        named = [e for e, _ in action.targets]
        for element in named:
            if element not in sorties:
                raise RuleViolation(
                    Term("campaign.pearl.unknown_element", element=element, wave=wave.name)
                )
        if len(set(named)) != len(named):
            twice = next(e for e in named if named.count(e) > 1)
            raise RuleViolation(Term("campaign.pearl.twice", element=twice))
        missing = [e for e in sorties if e not in named]
        if missing:
            raise RuleViolation(
                Term("campaign.pearl.missing", wave=wave.name, elements=", ".join(missing))
            )
        for element, number in action.targets:
            target = self.targets.get(number)
            if target is None:
                raise RuleViolation(
                    Term("campaign.pearl.unknown_target", number=number, last=len(self.targets))
                )
            refusal = self._refusal(sorties[element], target)
            if refusal is not None:
                raise RuleViolation(refusal)

    def default_action(self, state: PearlState, side: str) -> AssignAction:
        """At a deadline: each Element to the Target it would add the most VP to."""
        return self._policy(state, side, None)

    def computer_action(self, state: PearlState, side: str, seed: int) -> AssignAction:
        """A computer commander: the same aim, ties broken from its own ``seed``."""
        return self._policy(state, side, Rng(seed))

    def _policy(self, state: PearlState, side: str, rng: Rng | None) -> AssignAction:
        """Element by Element, the Target whose level the Element's expected Damage
        raises the most VP (the Damage planned for the Elements before counted)."""
        if side != JAPANESE or not self.pending(state):
            raise RuleViolation(Term("campaign.pearl.nothing", side=side))
        planned = dict(state.damage)
        pairs: list[tuple[str, int]] = []
        for s in self._to_assign(state):
            expect = self._expected(state, s)
            gains: list[tuple[float, int]] = []
            for t in self.allowed_targets(s):
                sheet = self.target_sheets[t.target]
                now = planned[t.number]
                gain = self._vp_at(sheet, now + expect[t.target]) - self._vp_at(sheet, now)
                gains.append((gain, t.number))
            best = max(g for g, _ in gains)
            tied = [n for g, n in gains if g == best]
            number = tied[rng.below(len(tied))] if rng is not None else tied[0]
            planned[number] += round(expect[self.targets[number].target])
            pairs.append((s.element, number))
        return AssignAction(wave=state.wave + 1, targets=tuple(pairs))

    def _expected(self, state: PearlState, s: Sortie) -> dict[str, float]:
        """The Damage ``s`` may expect against each Target Sheet: its cards times the
        deck's mean Damage per card."""
        assert s.mode is not None
        out: dict[str, float] = {}
        for sheet_id in {t.target for t in self.targets.values()}:
            sheet = self.target_sheets[sheet_id]
            cards = sum(self._cards(state, ref, s, sheet) for ref in self._flying(state, s.element))
            mean = sum(
                sheet.damage.points(
                    self.chart.result(s.mode, c, naval=sheet.naval),
                    torpedo=s.mode is BombingMode.TORPEDO,
                )
                for c in self.deck.cards
            ) / len(self.deck.cards)
            out[sheet_id] = cards * mean
        return out

    @staticmethod
    def _vp_at(sheet: TargetSheet, damage: float) -> int:
        return sheet.level(int(damage)).vp

    def parse_action(self, text: str) -> AssignAction:
        m = _NOTATION.match(text.strip())
        if m is None:
            raise MalformedAction(Term("campaign.pearl.notation", text=text))
        pairs = []
        for word in m.group(2).split():
            element, number = word.split(":")
            pairs.append((element, int(number)))
        return AssignAction(wave=int(m.group(1)), targets=tuple(pairs))

    # --- the attacks ----------------------------------------------------------------
    def _advance(self, state: PearlState) -> None:
        """Resolve the wave's attacks in order until a decision or a game is awaited,
        or the campaign ends."""
        while not self.is_over(state) and state.engagement is None:
            bombers = self._bombers(self._wave(state))
            if not state.assigned and self._to_assign(state):
                return  # the player assigns the wave's Targets first
            if state.step >= len(bombers):
                state.wave += 1
                state.step, state.assigned = 0, {}
                if not self.is_over(state):
                    self._say(state, "next_wave", wave=state.wave)
                continue
            sortie = bombers[state.step]
            if not self._flying(state, sortie.element):
                self._say(state, "nobody", number=self._number(state), element=sortie.element)
                self._finish(state)
                continue
            number = state.assigned[sortie.element]
            self._say(
                state,
                "mission",
                number=self._number(state),
                element=sortie.element,
                target=number,
                name=self.targets[number].name,
            )
            spoiled = self._defend(state, sortie)
            if state.engagement is None:
                self._bomb(state, sortie, spoiled=spoiled, gone=[])
                self._finish(state)

    def _defend(self, state: PearlState, sortie: Sortie) -> list[str]:
        """One card for each aircraft, read on the wave's defence row (the sheet): the
        aircraft whose best Bombing card is negated; American fighters drawn make the
        engagement the next game (while an aircraft of the Element still flies)."""
        wave = self._wave(state)
        spoiled: list[str] = []
        fighters: DrawCard | None = None
        for ref in self._flying(state, sortie.element):
            card = self._draw(state)
            row_card = DrawCard.of(card.type)
            row = wave.defense[row_card]
            plane = state.planes[ref]
            if row.effect is Defense.HIT:
                self._hit(state, ref, card)
                if card.spoiled_attack and not plane.destroyed:
                    spoiled.append(ref)
            elif row.effect is Defense.SPOILED:
                spoiled.append(ref)
                self._say(state, "spoiled", plane=ref, card=card.type.code)
            elif row.effect is Defense.FIGHTERS:
                fighters = fighters or row_card
                self._say(
                    state,
                    "fighters",
                    plane=ref,
                    card=card.type.code,
                    fighters=[str(f) for f in row.fighters],
                    turns=row.turns,
                )
            else:
                self._say(state, "quiet", plane=ref, card=card.type.code)
        if fighters is not None and self._flying(state, sortie.element):
            state.engagement = Engagement(card=fighters, spoiled=spoiled)
            self._say(
                state, "engagement", element=sortie.element, turns=wave.defense[fighters].turns
            )
        return spoiled

    def _hit(self, state: PearlState, ref: str, card: Card) -> None:
        """The burst card's Damage on the aircraft (§5.21: Damaged at its undamaged
        capacity, destroyed at its damaged one); a Fuel Tank card destroys it."""
        plane = state.planes[ref]
        undamaged, damaged = self._capacity(ref, plane)
        plane.hits += card.type.damage
        if card.type.fuel_tank or plane.hits >= damaged:
            plane.destroyed = True
        if plane.hits >= undamaged:
            plane.damaged = True
        self._say(
            state,
            "hit",
            plane=ref,
            card=card.type.code,
            damage=card.type.damage,
            status=_status(plane),
            rejected=card.spoiled_attack and not plane.destroyed,
        )

    def _capacity(self, ref: str, plane: Plane) -> tuple[int, int]:
        ac = self.aircraft[plane.aircraft]
        if ref.endswith(".L"):
            card = ac.leader_card
            return card.undamaged.damage_capacity, card.damaged.damage_capacity
        assert ac.wingman is not None
        return ac.wingman.undamaged.damage_capacity, ac.wingman.damaged.damage_capacity

    def _cards(self, state: PearlState, ref: str, s: Sortie, sheet: TargetSheet) -> int:
        """Bombing cards the aircraft draws (the Bombing Chart at the Element's
        altitude; the Damaged side's factor, §21.32; the Norden's, §18.32)."""
        assert s.mode is not None and s.altitude is not None
        plane = state.planes[ref]
        bombing = self.aircraft[plane.aircraft].bombing
        assert bombing is not None
        factors = bombing.damaged if plane.damaged else bombing.undamaged
        factor = getattr(factors, s.mode.value, None) if s.mode is not BombingMode.TORPEDO else 0
        return self.chart.bomb_cards(
            s.mode, s.altitude, factor=factor or 0, norden=bombing.norden, naval=sheet.naval
        )

    def _bomb(self, state: PearlState, s: Sortie, spoiled: list[str], gone: list[str]) -> None:
        """Each aircraft still there drops its bombs: its cards' results, the best
        negated when its aim was spoiled, the Damage on the Target (§21.13, §21.55)."""
        assert s.mode is not None
        number = state.assigned[s.element]
        sheet = self.target_sheets[self.targets[number].target]
        for ref in self._flying(state, s.element):
            if ref in gone:
                self._say(state, "gone", plane=ref)
                continue
            cards = [self._draw(state) for _ in range(self._cards(state, ref, s, sheet))]
            results = [self.chart.result(s.mode, c, naval=sheet.naval) for c in cards]
            drawn = [[c.type.code, r.value] for c, r in zip(cards, results, strict=True)]
            if ref in spoiled and results:
                best = max(range(len(results)), key=lambda i: RESULT_ORDER.index(results[i]))
                negated = drawn.pop(best)
                results.pop(best)
                self._say(state, "negated", plane=ref, card=negated[0], result=negated[1])
            points = sum(
                sheet.damage.points(r, torpedo=s.mode is BombingMode.TORPEDO) for r in results
            )
            state.damage[number] += points
            self._say(
                state,
                "bombs",
                plane=ref,
                cards=drawn,
                points=points,
                number=number,
                total=state.damage[number],
                level=sheet.level(state.damage[number]).name,
            )

    def _finish(self, state: PearlState) -> None:
        """The mission is over: the VP it added, and on to the next Element."""
        totals = self.totals(state)
        before = {side: sum(s.get(side, 0) for s in state.scores) for side in totals}
        state.scores.append({side: totals[side] - before[side] for side in totals})
        state.step += 1
        state.attempt = 1

    def _draw(self, state: PearlState) -> Card:
        """The next card: a fixed draw first (tests), else the pile's top; an empty
        pile is the whole deck shuffled again."""
        if state.draws:
            code = state.draws.pop(0)
            return next(c for c in self.deck.cards if c.type.code == code)
        if not state.deck:
            rng = Rng(state.rng)
            state.deck = [c.id for c in self.deck.cards]
            rng.shuffle(state.deck)
            state.rng = rng.state
        return self.deck.cards[state.deck.pop()]

    # --- the engagements ------------------------------------------------------------
    def next_mission(self, state: PearlState) -> NextMission | None:
        if self.is_over(state):
            return None
        number = self._number(state)
        seed = mission_seed(state.seed, number, state.attempt)
        title = self._title(state.wave, self._bombers(self._wave(state))[state.step])
        return NextMission(number, title, state.attempt, seed, self.system_id, Ruleset.ZERO.value)

    def _title(self, wave: int, s: Sortie) -> str:
        return Term(
            "campaign.pearl.title",
            wave=self.sheet_data.waves[wave].name,
            element=s.element,
            aircraft=self.aircraft[s.flight.aircraft].name,
            mode=Term(f"campaign.pearl.mode.{s.mode}"),
        )

    def mission_ready(self, state: PearlState) -> bool:
        return not self.is_over(state) and state.engagement is not None

    def _seats(self, state: PearlState) -> dict[str, list[str]]:
        """The Japanese seats of the engagement and their aircraft (the game's Leader
        first): the attacked Element, then the wave's escorts still flying."""
        wave = self._wave(state)
        attacked = self._bombers(wave)[state.step]
        escorts = [s for s in wave.sorties if s.mode is None and self._flying(state, s.element)]
        seats = {BOMBING_SEAT: self._flying(state, attacked.element)}
        for n, s in enumerate(escorts, start=2):
            seats[f"X{n}"] = self._flying(state, s.element)
        return seats

    def mission_setup(self, state: PearlState) -> MissionPlan:
        """The engagement as a Down in Flames game: a dogfight-kind mission of the
        drawn turns (§23.1), the attacked Element Loaded with its bombs (§17.15), the
        wave's escorts with it, the defence row's American fighters against them."""
        if not self.mission_ready(state) or state.engagement is None:
            raise RuleViolation(Term("campaign.pearl.not_ready"))
        row = self._wave(state).defense[state.engagement.card]
        attacked = self._bombers(self._wave(state))[state.step]
        assert attacked.mode is not None
        elements: list[ElementSetup] = []
        seat_sides: dict[str, str] = {}
        hits: dict[str, int] = {}
        for seat, refs in self._seats(state).items():
            aircraft = state.planes[refs[0]].aircraft
            elements.append(
                ElementSetup(seat=seat, side=Side.AXIS, aircraft=aircraft, wingman=len(refs) > 1)
            )
            seat_sides[seat] = JAPANESE
            for ref, pos in zip(refs, ("L", "W"), strict=False):
                if state.planes[ref].hits:
                    hits[f"{seat}{pos}"] = state.planes[ref].hits
        for n, flight in enumerate(_elements(row.fighters), start=1):
            seat = f"A{n}"
            elements.append(
                ElementSetup(
                    seat=seat,
                    side=Side.ALLIED,
                    aircraft=flight.aircraft,
                    wingman=flight.form is FlightForm.ELEMENT,
                )
            )
            seat_sides[seat] = ALLIED
        number = state.assigned[attacked.element]
        mission = MissionSetup(
            kind=MissionKind.DOGFIGHT,
            attacker=Side.AXIS,
            title=self.targets[number].name[:120],
            turns=row.turns,
            bombs={BOMBING_SEAT: attacked.mode},
        )
        setup = DifSetup(
            ruleset=Ruleset.ZERO,
            year=YEAR,
            elements=tuple(elements),
            mixed=False,
            mission=mission,
            hits=hits,
        )
        options = DifOptions(ruleset=Ruleset.ZERO, year=YEAR)
        upcoming = self.next_mission(state)
        assert upcoming is not None
        briefing = Term(
            "campaign.pearl.briefing",
            fighters=self._flights(row.fighters),
            element=attacked.element,
            number=number,
            turns=row.turns,
            escorts=len(elements) - len(_elements(row.fighters)) - 1,
        )
        return MissionPlan(
            next=upcoming,
            setup=setup,
            options=options,
            seats=tuple(
                SeatPick(e.seat, e.side.value, DifPick(aircraft=e.aircraft, wingman=e.wingman))
                for e in elements
            ),
            seat_sides=seat_sides,
            briefing=(briefing,),
        )

    def absorb(self, state: PearlState, outcome: Outcome) -> PearlState:
        """The engagement's end: each Japanese aircraft's fate (shot down, damaged,
        gone from the fight, its hits), then the attacked Element's survivors bomb
        (those that left the fight do not) and the wave goes on. A Japanese side that
        resigned or forfeited breaks off: no bombs; nor does an aircraft that
        jettisoned its bombs in the fight (its record's ``loaded``)."""
        if not self.mission_ready(state) or state.engagement is None:
            raise RuleViolation(Term("campaign.pearl.not_ready"))
        if not outcome.over:
            raise RuleViolation(Term("campaign.pearl.not_over"))
        new = state.model_copy(deep=True)
        seats = self._seats(new)
        attacked = self._bombers(self._wave(new))[new.step]
        gone: list[str] = []
        for f in outcome.fates:
            if f.side == Side.ALLIED.value:
                if f.fate is Fate.SHOT_DOWN:
                    self._say(new, "american_down", aircraft=f.aircraft)
                continue
            refs = seats.get(f.seat, [])
            index = 0 if f.ref.endswith("L") else 1
            if index >= len(refs):
                continue
            ref = refs[index]
            plane = new.planes[ref]
            plane.hits += f.hits_taken
            if f.fate is Fate.SHOT_DOWN:
                plane.destroyed = True
            if f.damaged or f.fate is Fate.DAMAGED:
                plane.damaged = True
            if f.fate is Fate.LEFT:
                gone.append(ref)
            self._say(new, "fate", plane=ref, fate=f.fate.value, status=_status(plane))
            if self._jettisoned(f, ref, attacked) and ref not in gone:
                gone.append(ref)  # §18.22: jettisoned in the fight, nothing to drop
                self._say(new, "jettisoned", plane=ref)
        if outcome.conceded == Side.AXIS.value:
            gone = self._flying(new, attacked.element)
            self._say(new, "broke_off", element=attacked.element)
        spoiled = new.engagement.spoiled if new.engagement is not None else []
        new.engagement = None
        self._bomb(new, attacked, spoiled=spoiled, gone=gone)
        self._finish(new)
        self._advance(new)
        return new

    @staticmethod
    def _jettisoned(f: AircraftFate, ref: str, attacked: Sortie) -> bool:
        """An aircraft of the attacked Element that came home from the fight without
        its bombs (the mission game's record, :data:`engine.dif.mission.RECORD_KEYS`)."""
        return (
            ref.startswith(f"{attacked.element}.")
            and f.record.get("loaded") is False
            and f.fate is not Fate.SHOT_DOWN
        )

    def abort_mission(self, state: PearlState) -> PearlState:
        """An aborted engagement is flown again, in a new game."""
        if not self.mission_ready(state):
            raise RuleViolation(Term("campaign.pearl.not_ready"))
        return state.model_copy(update={"attempt": state.attempt + 1}, deep=True)

    # --- reading --------------------------------------------------------------------
    def totals(self, state: PearlState) -> dict[str, int]:
        """Japanese VP: each Target's level (§21.82); American VP: each Japanese
        aircraft destroyed or damaged (the Land Campaign awards, §24.61)."""
        japanese = sum(
            self.target_sheets[t.target].level(state.damage[n]).vp for n, t in self.targets.items()
        )
        allied = 0
        for plane in state.planes.values():
            award = self.awards.awards[_CLASS[self.aircraft[plane.aircraft].role.value]]
            if plane.destroyed:
                allied += award.destroyed
            elif plane.damaged:
                allied += award.damaged
        return {JAPANESE: japanese, ALLIED: allied}

    def result(self, state: PearlState) -> CampaignResult | None:
        """The sheet's victory table, read by the Japanese VP minus the American."""
        if not self.is_over(state):
            return None
        totals = self.totals(state)
        difference = totals[JAPANESE] - totals[ALLIED]
        row = victory_row(self.sheet_data.victory, difference)
        winner = (
            JAPANESE if row.japanese > row.allied else ALLIED if row.allied > row.japanese else None
        )
        verdict = Term(
            "campaign.pearl.verdict",
            result=row.result,
            japanese=totals[JAPANESE],
            allied=totals[ALLIED],
            difference=difference,
        )
        levels = {
            JAPANESE: Term("campaign.pearl.capacity", result=row.result, capacity=row.japanese),
            ALLIED: Term("campaign.pearl.capacity", result=row.result, capacity=row.allied),
        }
        return CampaignResult(winner=winner, verdict=verdict, totals=totals, levels=levels)

    def sheet(self, state: PearlState, side: str | None) -> CampaignSheet:
        """Every reader sees the same sheet: nothing of it is secret (the deck's
        order never appears)."""
        rows = []
        number = self._number(state)
        for n, (wave, s) in enumerate(self._missions(), start=1):
            title = self._title(wave, s)
            if n < number:
                rows.append(MissionRow(n, title, MissionState.FLOWN, state.scores[n - 1]))
            else:
                here = MissionState.NEXT if n == number else MissionState.AHEAD
                rows.append(MissionRow(n, title, here))
        return CampaignSheet(
            campaign=CAMPAIGN_ID,
            title=self.sheet_data.name,
            sides=self._side_infos(),
            missions=tuple(rows),
            totals=self.totals(state),
            total_label=Term("campaign.pearl.vp"),
            next=self._next_lines(state),
            tables=(self._target_table(state), self._wave_table(state), self._plane_table(state)),
            result=self.result(state),
        )

    def _next_lines(self, state: PearlState) -> tuple[str, ...]:
        if self.is_over(state):
            return ()
        wave = self._wave(state).name
        if self.pending(state):
            return (Term("campaign.pearl.next_assign", wave=wave),)
        if state.engagement is not None:
            s = self._bombers(self._wave(state))[state.step]
            return (Term("campaign.pearl.next_engagement", element=s.element, wave=wave),)
        return ()

    def _target_table(self, state: PearlState) -> SheetTable:
        rows = []
        for n, t in self.targets.items():
            sheet = self.target_sheets[t.target]
            level = sheet.level(state.damage[n])
            rows.append(
                (str(n), t.name, sheet.name, str(state.damage[n]), level.name, str(level.vp))
            )
        return SheetTable(
            Term("campaign.pearl.table.targets"),
            tuple(
                Term(f"campaign.pearl.column.{c}")
                for c in ("number", "target", "sheet", "damage", "level", "vp")
            ),
            tuple(rows),
        )

    def _wave_table(self, state: PearlState) -> SheetTable:
        rows = []
        for i, wave in enumerate(self.sheet_data.waves):
            for s in wave.sorties:
                target = ""
                if i == state.wave and s.element in state.assigned:
                    target = str(state.assigned[s.element])
                elif i < state.wave and s.mode is not None:
                    target = self._flown_target(state, i, s.element)
                mode = (
                    Term(f"campaign.pearl.mode.{s.mode}")
                    if s.mode
                    else Term("campaign.pearl.escort")
                )
                rows.append((wave.name, s.element, self._flight_words(s.flight), mode, target))
        return SheetTable(
            Term("campaign.pearl.table.waves"),
            tuple(
                Term(f"campaign.pearl.column.{c}")
                for c in ("wave", "element", "aircraft", "attack", "number")
            ),
            tuple(rows),
        )

    @staticmethod
    def _flown_target(state: PearlState, wave: int, element: str) -> str:
        """The Target an earlier wave's Element was assigned (from the log's lines)."""
        for line in state.lines:
            if line.key == "assigned" and line.fields["wave"] == wave:
                for e, number in line.fields["targets"]:
                    if e == element:
                        return str(number)
        return ""

    def _plane_table(self, state: PearlState) -> SheetTable:
        rows = tuple(
            (
                self._plane_words(ref),
                str(plane.hits),
                Term(f"campaign.pearl.state.{_status(plane)}"),
            )
            for ref, plane in state.planes.items()
        )
        return SheetTable(
            Term("campaign.pearl.table.aircraft"),
            tuple(Term(f"campaign.pearl.column.{c}") for c in ("plane", "hits", "state")),
            rows,
        )

    # --- words ----------------------------------------------------------------------
    @staticmethod
    def _say(state: PearlState, key: str, **fields: Any) -> None:
        state.lines.append(Line(key=key, fields=fields))

    def line(self, line: Line) -> str:
        """A line of the thread in words (a Term): each field worded by its name."""
        words: dict[str, Any] = {}
        for name, value in line.fields.items():
            if name == "plane":
                words[name] = self._plane_words(value)
            elif name == "wave":
                words[name] = self.sheet_data.waves[value].name
            elif name in ("mode", "fate", "result"):
                words[name] = Term(f"campaign.pearl.{name}.{value}")
            elif name == "status":
                words[name] = Term(f"campaign.pearl.state.{value}")
            elif name == "aircraft":
                words[name] = self.aircraft[value].name
            elif name == "fighters":
                words[name] = self._flights(tuple(Flight.from_text(f) for f in value))
            elif name == "cards":
                words[name] = self._card_list(value)
            elif name == "targets":
                words[name] = join(
                    [Term("campaign.pearl.pair", element=e, number=n) for e, n in value]
                )
            elif name == "rejected":
                words[name] = Term("campaign.pearl.rejected") if value else ""
            else:
                words[name] = value
        return Term(f"campaign.pearl.line.{line.key}", **words)

    def _card_list(self, cards: list[list[str]]) -> str:
        if not cards:
            return Term("campaign.pearl.no_cards")
        return join(
            [
                Term("campaign.pearl.card", card=code, result=Term(f"campaign.pearl.result.{r}"))
                for code, r in cards
            ]
        )

    def _plane_words(self, ref: str) -> str:
        element, pos = ref.rsplit(".", 1)
        name = self.aircraft[self._plane_type(ref)].name
        return Term(
            "campaign.pearl.plane",
            element=element,
            position=Term(f"campaign.pearl.position.{pos}"),
            aircraft=name,
        )

    def _plane_type(self, ref: str) -> str:
        element = ref.rsplit(".", 1)[0]
        for wave in self.sheet_data.waves:
            for s in wave.sorties:
                if s.element == element:
                    return s.flight.aircraft
        raise KeyError(ref)

    def _flight_words(self, flight: Flight) -> str:
        form = "element" if flight.form is FlightForm.ELEMENT else "leader"
        return Term(
            f"campaign.pearl.flight.{form}",
            count=flight.count,
            aircraft=self.aircraft[flight.aircraft].name,
        )

    def _flights(self, flights: tuple[Flight, ...]) -> str:
        return join([self._flight_words(f) for f in flights])

    def opening(self, state: PearlState) -> Happenings:
        """The campaign's first lines: the raid, the First Wave awaiting its Targets."""
        return Happenings(tuple(self.line(x) for x in state.lines), sheet=True)

    def happenings(self, before: PearlState, after: PearlState) -> Happenings:
        """The lines ``after`` added: the assignment, each defence draw, the bombing
        cards and the Damage, the engagement's fates (no card not yet drawn)."""
        new = after.lines[len(before.lines) :]
        flown = len(after.scores) != len(before.scores)
        return Happenings(tuple(self.line(x) for x in new), sheet=flown or self.is_over(after))

    def public_text(self, state: PearlState, entry: CampaignEntry) -> str:
        """Nothing in the log is secret: an assignment is told as it is made."""
        return entry.text

    def action_label(self, state: PearlState, side: str, action: AssignAction) -> str:
        """An assignment in words: 'kates-torpedo: Target 1 (Battleship Row...)'."""
        return join(
            [
                Term(
                    "campaign.pearl.assign_label",
                    element=e,
                    number=n,
                    target=self.targets[n].name,
                )
                for e, n in action.targets
            ]
        )

    def menu(self, state: PearlState, side: str) -> Choice | None:
        """The assignment an Element at a time: the first Element's Target, then the
        next's... (nine Targets a level at most); the leaves the whole assignments."""
        if not self.legal_actions(state, side):
            return None
        sorties = self._to_assign(state)

        def level(prefix: tuple[tuple[str, int], ...]) -> tuple[Choice, ...]:
            s = sorties[len(prefix)]
            out = []
            for t in self.allowed_targets(s):
                pairs = (*prefix, (s.element, t.number))
                label = Term("campaign.pearl.menu.target", number=t.number, target=t.name)
                if len(pairs) == len(sorties):
                    action = AssignAction(wave=state.wave + 1, targets=pairs)
                    out.append(Choice(label, action=str(action)))
                else:
                    out.append(
                        Choice(
                            label,
                            children=level(pairs),
                            placeholder=self._ask_for(state, sorties[len(pairs)]),
                        )
                    )
            return tuple(out)

        return Choice(
            Term("campaign.pearl.menu.title", wave=self._wave(state).name),
            children=level(()),
            placeholder=self._ask_for(state, sorties[0]),
        )

    def _ask_for(self, state: PearlState, s: Sortie) -> str:
        return Term(
            "campaign.pearl.menu.element",
            element=s.element,
            aircraft=self._flight_words(s.flight),
            mode=Term(f"campaign.pearl.mode.{s.mode}"),
        )

    def ask(self, decision: CampaignDecision) -> str:
        return Term("campaign.pearl.ask", mission=decision.mission or 0)

    # --- storage ------------------------------------------------------------------
    def dump_state(self, state: PearlState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> PearlState:
        return PearlState.model_validate(dict(data))


def _positions(flight: Flight) -> tuple[str, ...]:
    return ("L", "W") if flight.form is FlightForm.ELEMENT else ("L",)


def _elements(flights: tuple[Flight, ...]) -> list[Flight]:
    """A defence row's fighters one Element each (``2 L/W p-40b``: two)."""
    return [f.model_copy(update={"count": 1}) for f in flights for _ in range(f.count)]


def _status(plane: Plane) -> str:
    return "destroyed" if plane.destroyed else "damaged" if plane.damaged else "ok"


@functools.cache
def pearl_harbor_system() -> PearlHarbor:
    """The Pearl Harbor campaign over the shipped data (the registry's factory)."""
    return PearlHarbor(
        shipped_book(),
        load_aircraft(),
        load_decks()[Ruleset.ZERO],
        shipped_book().scoresheets.land,
    )
