"""What the Zero! land and carrier campaigns share: laying out a mission's aircraft
as a DiF game's seats, drawing its pilots and crews, and the game's lobby record.

A mission's aircraft come as :class:`Sortie` rows (a sheet's :class:`Flight` and the
side flying it). Fighters and Light Bombers become Elements, seats ``A1``, ``A2``...
for the Allied side and ``X1``... for the Japanese (:data:`engine.dif.system.SEAT_PREFIX`);
Medium and Heavy Bombers are grouped by type into Formations of their
``formation_size`` and Patrol Aircraft fly alone (§17.22, §17.31), seats that go on
with the same numbering (:mod:`engine.dif.mission`). Leaders then draw pilots
(§19.24), Heavy Bombers crews (§19.34).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.core.campaign import CampaignResult, LogbookEntry, PilotFate, PilotLog, SheetTable
from engine.core.contract import Fate, Outcome, SeatPick
from engine.core.errors import RuleViolation, SetupError
from engine.core.rng import Rng
from engine.dif.campaign_cards import Role as AircraftRole
from engine.dif.campaign_data import (
    CampaignBook,
    Flight,
    FlightForm,
    OptionKind,
    OptionSpec,
    Role,
    VictoryRow,
    victory_row,
)
from engine.dif.campaign_targets import ID, BombingChart, BombingMode, TargetRatings
from engine.dif.components import Aircraft, Altitude, CardType, Deck, Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.mission import Clouds, FormationSetup, PilotSetup
from engine.dif.picks import DifOptions, DifPick
from engine.dif.pilots import Drawn, Picker, PilotBook, choose_crews, choose_pilots, rng_picker
from engine.dif.setup import ElementSetup
from engine.dif.system import SEAT_PREFIX
from strings import Term

__all__ = [
    "CAMPAIGN_SIDES",
    "GAME_SIDE",
    "CampaignPart",
    "DrawnCounter",
    "Draws",
    "FlownPilot",
    "Layout",
    "OptionPick",
    "PartState",
    "PilotKeep",
    "PilotOffer",
    "Sortie",
    "ZeroCampaignSetup",
    "arrival_change",
    "as_drawn",
    "bomb_mode",
    "campaign_side",
    "check_keep",
    "clouds_of",
    "draw_crews",
    "draw_pilots",
    "drawn_lines",
    "flown_pilots",
    "keep_label",
    "lay_out",
    "lobby",
    "logbook",
    "option_applies",
    "parse_keep",
    "pilots_table",
    "ratings_of",
    "shot_down_pilots",
    "side_name",
    "veteran_offer",
    "victory_result",
    "with_crews",
    "with_flak",
]

_KEEP = re.compile(r"^keep\s+#(\d+)\s+([a-z0-9][a-z0-9-]*)\s*$")
GAME_SIDE: dict[str, Side] = {"japanese": Side.AXIS, "allied": Side.ALLIED}
"""A campaign side's id and the DiF game side it flies (Zero! calls the Axis side
Japanese, 4.2)."""
CAMPAIGN_SIDES: tuple[str, ...] = ("japanese", "allied")


@dataclass(frozen=True, slots=True)
class Sortie:
    """Aircraft of one type one side flies in a mission."""

    side: Side
    flight: Flight
    mission: bool = True
    """Mission aircraft (§24.46-24.48); False: added by an Option, or a CAP."""


@dataclass
class Layout:
    """A mission's aircraft as seats."""

    elements: list[ElementSetup] = field(default_factory=list)
    formations: list[FormationSetup] = field(default_factory=list)
    bombs: dict[str, BombingMode] = field(default_factory=dict)
    altitudes: dict[str, Altitude] = field(default_factory=dict)
    """Mission aircraft's Elements at the sheet's altitude (§24.48)."""

    def leaders(self, side: Side) -> list[tuple[str, str]]:
        """(seat, aircraft id) of the side's Leader aircraft, in seat order (§19.24)."""
        return [(e.seat, e.aircraft) for e in self.elements if e.side is side]

    def heavy(self, side: Side) -> list[tuple[str, str]]:
        """(``seat:index``, aircraft id) of the side's bombers in Formation (§19.34)."""
        return [
            (f"{f.seat}:{i}", a)
            for f in self.formations
            if f.side is side
            for i, a in enumerate(f.aircraft)
        ]


def ratings_of(target: TargetRatings) -> TargetRatings:
    """A Target Sheet's or Damage Record's ratings alone, as a mission stores them."""
    return TargetRatings.model_validate(
        {name: getattr(target, name) for name in TargetRatings.model_fields}
    )


def bomb_mode(
    aircraft: Aircraft,
    target: TargetRatings | None,
    wanted: BombingMode | None,
    *,
    fixed: tuple[Altitude, BombingChart] | None = None,
) -> BombingMode | None:
    """The mode an aircraft bombs ``target`` in (§21.21: one per mission): the one the
    Mission Target requires (torpedoes) when its card allows it; else a Torpedo
    against a Naval Target (§21.52), Dive, Saturation, Level, in that order of
    preference. ``fixed``: a formation's altitude for the whole mission (§17.24) and
    the Bombing Chart: only the modes the chart allows there (a PBY on patrol at Medium cannot carry a
    torpedo, which needs Very Low, §21.53). None: it cannot bomb (no bombing section,
    "Cannot", or no mode at that altitude)."""
    if aircraft.bombing is None or target is None:
        return None
    modes = {BombingMode(m.value) for m in aircraft.bombing.modes}
    if not target.naval:
        modes.discard(BombingMode.TORPEDO)
    if fixed is not None:
        altitude, chart = fixed
        modes = {m for m in modes if chart.rule(m).row(altitude) is not None}
    if wanted is not None and wanted in modes:
        return wanted
    order = (BombingMode.TORPEDO, BombingMode.DIVE, BombingMode.SATURATION, BombingMode.LEVEL)
    return next((m for m in order if m in modes), None)


def lay_out(
    sorties: Sequence[Sortie],
    catalogue: Mapping[str, Aircraft],
    chart: BombingChart,
    *,
    altitude: Altitude,
    attacker: Side,
    target: TargetRatings | None,
    wanted: BombingMode | None = None,
    fixed_altitude: bool = True,
) -> Layout:
    """The seats of a mission's aircraft. The attacker's Light Bombers and its Mission
    Fighters able to carry bombs are Loaded against a target (§17.15, §24.46: not the
    Fighters an Option adds); its bombers bomb in their mode (Saturation unless the
    Mission Target requires another). Mission aircraft start at ``altitude`` (§24.48;
    ``fixed_altitude`` False: an Air Strike's, which picks its own)."""
    out = Layout()
    numbers = {Side.ALLIED: 0, Side.AXIS: 0}

    def seat(side: Side) -> str:
        numbers[side] += 1
        return f"{SEAT_PREFIX[side]}{numbers[side]}"

    for s in sorties:
        aircraft = catalogue[s.flight.aircraft]
        if not aircraft.role.element:
            continue
        wingman = s.flight.form is FlightForm.ELEMENT
        for _ in range(s.flight.count):
            name = seat(s.side)
            out.elements.append(
                ElementSetup(seat=name, side=s.side, aircraft=aircraft.id, wingman=wingman)
            )
            if s.mission and fixed_altitude:
                out.altitudes[name] = altitude
            loaded = s.side is attacker and (s.mission or aircraft.role is not AircraftRole.FIGHTER)
            mode = bomb_mode(aircraft, target, wanted) if loaded else None
            if mode is not None:
                out.bombs[name] = mode
    groups: dict[tuple[Side, str], list[str]] = {}
    for s in sorties:
        aircraft = catalogue[s.flight.aircraft]
        if aircraft.role.element:
            continue
        groups.setdefault((s.side, aircraft.type_name), []).extend(
            [aircraft.id] * s.flight.aircraft_count
        )
    for (side, _), ids in groups.items():
        size = catalogue[ids[0]].formation_size or 1
        for start in range(0, len(ids), size):
            chunk = tuple(ids[start : start + size])
            mode = (
                bomb_mode(catalogue[chunk[0]], target, wanted, fixed=(altitude, chart))
                if side is attacker
                else None
            )
            out.formations.append(
                FormationSetup(
                    seat=seat(side), side=side, aircraft=chunk, altitude=altitude, mode=mode
                )
            )
    return out


def draw_pilots(
    book: PilotBook,
    catalogue: Mapping[str, Aircraft],
    layout: Layout,
    pick: Picker,
    *,
    out: frozenset[str],
    veteran: Mapping[Side, int],
    keep: Mapping[Side, str] | None = None,
) -> list[Drawn]:
    """§19.24 for both sides, the Japanese first: each Leader's draw; a side that chose
    the Veteran Pilot Option draws ``veteran[side]`` counters for its first Leader and
    keeps ``keep[side]`` of them (else the best)."""
    found: list[Drawn] = []
    for side in (Side.AXIS, Side.ALLIED):
        leaders = layout.leaders(side)
        draws = {leaders[0][0]: veteran[side]} if leaders and side in veteran else {}
        kept = {leaders[0][0]: keep[side]} if leaders and keep and side in keep else {}
        found += choose_pilots(book, catalogue, leaders, pick, out=out, draws=draws, keep=kept)
    return found


def veteran_offer(
    drawn: Sequence[Drawn], layout: Layout, veteran: Mapping[Side, int], kept: Mapping[Side, str]
) -> PilotOffer | None:
    """The first side (the Japanese first, as drawn) whose Veteran Pilot Leader drew
    more than one Skilled Pilot and has not said which it keeps: it chooses ("keeps
    the one he prefers", Options Sheet)."""
    for side in (Side.AXIS, Side.ALLIED):
        leaders = layout.leaders(side)
        if side not in veteran or side in kept or not leaders:
            continue
        skilled = [d for d in drawn if d.seat == leaders[0][0] and d.skills]
        if len(skilled) > 1:
            return PilotOffer(
                side=campaign_side(side), counters=tuple(DrawnCounter.of(d) for d in skilled)
            )
    return None


def draw_crews(
    book: PilotBook,
    catalogue: Mapping[str, Aircraft],
    layout: Layout,
    pick: Picker,
    *,
    given: Mapping[Side, Sequence[str]],
    out: frozenset[str],
) -> list[Drawn]:
    """§19.34 for both sides: Heavy Bombers' crews, the Mission Target's first."""
    found: list[Drawn] = []
    for side in (Side.AXIS, Side.ALLIED):
        found += choose_crews(
            book, catalogue, layout.heavy(side), pick, given=given.get(side, ()), out=out
        )
    return found


def with_crews(layout: Layout, crews: Sequence[Drawn]) -> list[FormationSetup]:
    """The formations with their Skilled Crews on board (§19.34d)."""
    kept = {d.seat: d for d in crews if d.kept}
    out: list[FormationSetup] = []
    for f in layout.formations:
        on = {
            i: PilotSetup(name=kept[f"{f.seat}:{i}"].name, skills=kept[f"{f.seat}:{i}"].skills)
            for i in range(len(f.aircraft))
            if f"{f.seat}:{i}" in kept
        }
        out.append(f.model_copy(update={"crews": on}) if on else f)
    return out


def lobby(
    year: int, layout: Layout, formations: Sequence[FormationSetup]
) -> tuple[DifOptions, tuple[SeatPick, ...]]:
    """The game's lobby record: the options and a seat per Element and Formation."""
    options = DifOptions(ruleset=Ruleset.ZERO, year=year, mixed=False)
    seats = [
        SeatPick(e.seat, e.side.value, DifPick(aircraft=e.aircraft, wingman=e.wingman))
        for e in layout.elements
    ] + [
        SeatPick(f.seat, f.side.value, DifPick(aircraft=f.aircraft[0], wingman=False))
        for f in formations
    ]
    return options, tuple(seats)


class ZeroCampaignSetup(BaseModel):
    """``/campaign new``'s choices: the campaign, and a Land Campaign's Period (§24.41;
    the sheet's first when not given)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    campaign: str
    period: str | None = None
    # -- tests and vectors: what normally comes from the shuffle ----------------------
    draws: tuple[str, ...] = Field(default=(), json_schema_extra={"tests_only": True})
    """Card codes (``OOS-1B2D``, ``MAN``) every card the campaign draws takes first, in
    order, then the campaign's RNG (Pearl Harbor: ``PearlHarborSetup.draws``)."""
    cup: tuple[str, ...] = Field(default=(), json_schema_extra={"tests_only": True})
    """Land and Carrier Campaigns: Pilot and Crew counters drawn from the cup first, in
    order, each ``counter:face`` (``ijn-1:0``: the side that lands face up, §19.24c)."""


class OptionPick(BaseModel):
    """A side's secret Option for a Mission (§24.52) or a carrier turn (§25.52)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mission: int = Field(ge=1, description="the Mission's (or the carrier turn's) number")
    number: int = Field(ge=1, description="the Option's number on the sheet")

    def __str__(self) -> str:
        return f"option #{self.mission} {self.number}"

    def __hash__(self) -> int:
        return hash(str(self))


class PilotKeep(BaseModel):
    """The Skilled Pilot a Veteran Pilot Leader keeps of those he drew (Options
    Sheet: "keeps the one he prefers"), ``keep #<game> <counter>``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: int = Field(ge=1, description="the Mission's (or the carrier game's) number")
    counter: str = Field(pattern=ID)

    def __str__(self) -> str:
        return f"keep #{self.game} {self.counter}"

    def __hash__(self) -> int:
        return hash(str(self))


def parse_keep(text: str) -> PilotKeep | None:
    """``keep #3 ijn-a6m2-2``; None when the text is not one."""
    m = _KEEP.match(text.strip())
    if m is None:
        return None
    return PilotKeep(game=int(m.group(1)), counter=m.group(2))


class DrawnCounter(BaseModel):
    """A Pilot (or Crew) counter drawn for a mission (:class:`engine.dif.pilots.Drawn`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: str
    counter: str
    side: int
    name: str
    skills: tuple[str, ...] = ()
    kept: bool
    crew: bool = False

    @classmethod
    def of(cls, drawn: Drawn, *, crew: bool = False) -> DrawnCounter:
        return cls(
            seat=drawn.seat,
            counter=drawn.counter,
            side=drawn.side,
            name=drawn.name,
            skills=drawn.skills,
            kept=drawn.kept,
            crew=crew,
        )


class PilotOffer(BaseModel):
    """A Veteran Pilot Leader's Skilled Pilots, awaiting the side's pick (secret to
    it until the game is set up)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: str
    counters: tuple[DrawnCounter, ...]

    def rule(self) -> DrawnCounter:
        """The campaign's pick for a computer side: the most skills, the first on a tie."""
        return max(self.counters, key=lambda d: len(d.skills))


def check_keep(offer: PilotOffer | None, side: str, game: int, action: PilotKeep) -> None:
    """Raise the refusal of ``side``'s ``keep`` for game (or Mission) ``game``: no
    offer of its own, another game's number, a counter its Leader did not draw."""
    if offer is None or offer.side != side:
        raise RuleViolation(Term("campaign.zero.no_keep", side=side_name(side)))
    if action.game != game:
        raise RuleViolation(Term("campaign.zero.wrong_game", game=game, given=action.game))
    if action.counter not in [d.counter for d in offer.counters]:
        names = ", ".join(d.counter for d in offer.counters)
        raise RuleViolation(Term("campaign.zero.not_drawn", counter=action.counter, counters=names))


def side_name(side: str) -> str:
    """'Japanese' / 'Allied' (Zero!'s names of the DiF sides)."""
    return GAME_SIDE[side].label(Ruleset.ZERO)


def option_applies(spec: OptionSpec, chooser: Side, attacker: Side) -> bool:
    """An Option meant for the attacking (defending) side does nothing when its
    chooser defends (attacks) (Options Sheet, ``role``)."""
    if spec.role is Role.ATTACKER:
        return chooser is attacker
    if spec.role is Role.DEFENDER:
        return chooser is not attacker
    return True


def arrival_change(spec: OptionSpec, chooser: Side, attacker: Side) -> int:
    """A TURNS Option's change to the attacker's Turns of Arrival (§23.25): its own
    when the chooser attacks, the enemy's when he defends."""
    if spec.kind is not OptionKind.TURNS or not option_applies(spec, chooser, attacker):
        return 0
    return spec.own_arrival if chooser is attacker else spec.enemy_arrival


def with_flak(target: TargetRatings, spec: OptionSpec) -> TargetRatings:
    """A FLAK Option's Discretionary and Anti-Aircraft Fire on the target (0 to 6)."""
    return target.model_copy(
        update={
            "discretionary": min(6, max(0, target.discretionary + spec.discretionary)),
            "aa": min(6, max(0, target.aa + spec.aa)),
        }
    )


def clouds_of(spec: OptionSpec) -> Clouds:
    """The Clouds Over the Target Option as the mission game reads it (§24.53)."""
    return Clouds(draw=spec.draw, result_shift=spec.result_shift, aa=spec.aa, torpedo=spec.torpedo)


def victory_result(rows: tuple[VictoryRow, ...], totals: Mapping[str, int]) -> CampaignResult:
    """§24.7, §25.9: the Japanese VP less the Allied VP on the Air Group Action
    Capacity table; the side whose capacity is higher wins."""
    row = victory_row(rows, totals["japanese"] - totals["allied"])
    winner = (
        "japanese" if row.japanese > row.allied else "allied" if row.allied > row.japanese else None
    )
    levels = {
        "japanese": Term("campaign.zero.capacity", value=f"{row.japanese:+d}"),
        "allied": Term("campaign.zero.capacity", value=f"{row.allied:+d}"),
    }
    verdict = Term(
        "campaign.zero.verdict",
        result=row.result,
        japanese=totals["japanese"],
        allied=totals["allied"],
        japanese_level=f"{row.japanese:+d}",
        allied_level=f"{row.allied:+d}",
    )
    return CampaignResult(winner=winner, verdict=verdict, totals=dict(totals), levels=levels)


def pilots_table(lost: tuple[str, ...], book: PilotBook) -> SheetTable:
    """The Pilot counters shot down, out of the cup for the rest of the campaign."""
    names = {c.id: f"{c.sides[0].name} / {c.sides[1].name}" for c in book.pilots}
    return SheetTable(
        title=Term("campaign.zero.table.lost"),
        columns=(Term("campaign.zero.table.counter"),),
        rows=tuple((names.get(c, c),) for c in lost),
    )


def drawn_lines(drawn: tuple[DrawnCounter, ...]) -> list[str]:
    """The briefing's pilots and crews: who flies with whom."""
    lines: list[str] = []
    for d in drawn:
        if d.kept:
            key = "campaign.zero.briefing.crew" if d.crew else "campaign.zero.briefing.pilot"
            lines.append(
                Term(key, seat=d.seat.split(":")[0], name=d.name, skills=",".join(d.skills))
            )
        else:
            lines.append(Term("campaign.zero.briefing.unskilled", name=d.name))
    return lines


def keep_label(d: DrawnCounter) -> str:
    """A Veteran Pilot's choice: 'Keep Nishizawa (A,CV)'."""
    return Term("campaign.zero.keep_label", name=d.name, skills=",".join(d.skills))


def as_drawn(d: DrawnCounter) -> Drawn:
    return Drawn(d.seat, d.counter, d.side, d.name, d.skills, d.kept)


def campaign_side(side: Side) -> str:
    return "japanese" if side is Side.AXIS else "allied"


class FlownPilot(BaseModel):
    """A Skilled Pilot (or Crew) who flew a game of the campaign, on his aircraft
    throughout it (§19.13), and what befell that aircraft: the logbook's line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    counter: str
    face: int
    """The side of the counter that landed face up (§19.24c): which man flew."""
    name: str
    skills: tuple[str, ...] = ()
    crew: bool = False
    side: str
    """The campaign side."""
    seat: str
    aircraft: str
    fate: Fate
    kills: int = 0
    """Enemy aircraft his aircraft shot down (their fates name it as shooter)."""

    @property
    def key(self) -> str:
        """The man's id in the campaign: his counter and its face."""
        return f"{self.counter}:{self.face}"


def flown_pilots(outcome: Outcome, drawn: tuple[DrawnCounter, ...]) -> tuple[FlownPilot, ...]:
    """The game's Skilled Pilots and Crews (the counters kept), each with his
    aircraft's fate (the one on his seat whose ``record["pilot"]`` names him: a
    Leader's, a promoted wingman's skills staying on the Leader) and its kills."""
    out: list[FlownPilot] = []
    for d in drawn:
        if not d.kept:
            continue
        seat = d.seat.split(":")[0]
        mine = next(
            (f for f in outcome.fates if f.seat == seat and f.record.get("pilot") == d.name),
            None,
        )
        if mine is None:
            continue
        kills = sum(1 for f in outcome.fates if f.fate is Fate.SHOT_DOWN and f.by == mine.ref)
        out.append(
            FlownPilot(
                counter=d.counter,
                face=d.side,
                name=d.name,
                skills=d.skills,
                crew=d.crew,
                side=campaign_side(Side(mine.side)),
                seat=seat,
                aircraft=mine.aircraft,
                fate=mine.fate,
                kills=kills,
            )
        )
    return tuple(out)


def logbook(games: Sequence[tuple[int, str, tuple[FlownPilot, ...]]]) -> tuple[PilotLog, ...]:
    """The logbook of a Land or Carrier Campaign from its flown games (number, title,
    the pilots who flew it), in the order each man first flew. A Skilled Pilot shot
    down leaves the cup (docs/rules-decisions.md, "Zero! land and carrier
    campaigns"): missing, whether killed or captured; the man on the other side of
    his counter flies no more either. A Crew stays in the draw, its bomber shot down
    or not (the campaign's reading, as it keeps them). An "A" is an Ace Pilot (§19.25;
    "AC" an Ace Crew, §19.35)."""
    flown: dict[str, list[tuple[FlownPilot, LogbookEntry]]] = {}
    for number, title, pilots in games:
        for p in pilots:
            entry = LogbookEntry(
                mission=number,
                title=title,
                aircraft=p.aircraft,
                seat=p.seat,
                kills=p.kills,
                lost=p.fate is Fate.SHOT_DOWN and not p.crew,
                result=Term(f"logbook.zero.result.{p.fate.value}"),
            )
            flown.setdefault(p.key, []).append((p, entry))
    down = {p.counter: p.name for rows in flown.values() for p, e in rows if e.lost}
    out: list[PilotLog] = []
    for key, rows in flown.items():
        first = rows[0][0]
        missions = tuple(e for _, e in rows)
        if any(e.lost for e in missions):
            fate, status = PilotFate.MISSING, Term("logbook.zero.status.shot_down")
        elif first.counter in down:
            fate = PilotFate.RETIRED
            status = Term("logbook.zero.status.counter_out", name=down[first.counter])
        else:
            active = "logbook.zero.status.crew" if first.crew else "logbook.zero.status.active"
            fate, status = PilotFate.ACTIVE, Term(active)
        rank = Term(
            "logbook.zero.crew" if first.crew else "logbook.zero.skills",
            skills=", ".join(first.skills),
        )
        ace = ("AC" if first.crew else "A") in first.skills
        out.append(
            PilotLog(
                id=key,
                name=first.name,
                side=first.side,
                missions=missions,
                fate=fate,
                status=status,
                rank=rank,
                ace=ace,
            )
        )
    return tuple(out)


def shot_down_pilots(outcome: Outcome, drawn: tuple[DrawnCounter, ...]) -> list[DrawnCounter]:
    """The Skilled Pilots whose Leader was shot down (the Leader's fate on their seat,
    ``record["pilot"]`` naming them): their counters leave the cup."""
    kept = {(d.seat, d.name): d for d in drawn if d.kept and not d.crew}
    out: list[DrawnCounter] = []
    for f in outcome.fates:
        d = kept.get((f.seat, str(f.record.get("pilot", ""))))
        if d is not None and f.fate is Fate.SHOT_DOWN and d not in out:
            out.append(d)
    return out


class Draws:
    """The draws of one step of a Land or Carrier Campaign: the setup's fixed ones
    first, in order (``draws`` cards, ``cup`` counters: tests and vectors), then the
    campaign's RNG. :meth:`update` is what the step writes back into the state."""

    def __init__(self, rng: int, cards: Sequence[str], cup: Sequence[str], deck: Deck) -> None:
        self.rng = Rng(rng)
        self.cards = list(cards)
        self.counters = list(cup)
        self.deck = deck

    @staticmethod
    def check(setup: ZeroCampaignSetup, deck: Deck, counters: frozenset[str]) -> None:
        """Refuses a fixed card that is no card of the deck, or a counter not in the
        book (or a face other than 0 and 1)."""
        codes = {c.type.code for c in deck.cards}
        for code in setup.draws:
            if code not in codes:
                raise SetupError(Term("campaign.zero.bad_draw", card=code))
        for entry in setup.cup:
            counter, _, face = entry.rpartition(":")
            if counter not in counters or face not in ("0", "1"):
                raise SetupError(Term("campaign.zero.bad_cup", counter=entry))

    def card(self) -> CardType:
        """One card of the Zero! deck: a Mission's (§24.44), a CAP's (§25.43), Out of
        Sight's (L1946), a recovery's (§25.71)."""
        if self.cards:
            code = self.cards.pop(0)
            return next(c.type for c in self.deck.cards if c.type.code == code)
        cards = self.deck.cards
        return cards[self.rng.below(len(cards))].type

    def pick(self, cup: Sequence[str]) -> tuple[str, int]:
        """A counter from the cup and the side it lands on (§19.24b-c, §19.34)."""
        if not self.counters:
            return rng_picker(self.rng)(cup)
        counter, _, face = self.counters.pop(0).rpartition(":")
        if counter not in cup:
            raise RuleViolation(Term("campaign.zero.not_in_cup", counter=counter))
        return counter, int(face)

    def update(self) -> dict[str, Any]:
        return {"rng": self.rng.state, "draws": tuple(self.cards), "cup": tuple(self.counters)}


class PartState(BaseModel):
    """What a Land and a Carrier Campaign's states share: the set-up, the seed, the
    campaign's RNG and the set-up's fixed draws not yet drawn. Plain JSON."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    setup: ZeroCampaignSetup
    seed: int
    rng: int
    """The campaign's RNG state (the Mission draws, pilots, crews, recovery)."""
    draws: tuple[str, ...] = ()
    """The setup's fixed cards not yet drawn (tests and vectors)."""
    cup: tuple[str, ...] = ()
    """The setup's fixed Pilot and Crew counters not yet drawn (tests and vectors)."""


class CampaignPart:
    """What the Land and the Carrier Campaigns share: the engine's aircraft and Zero!
    deck, the campaign book, the pilot counters, and each step's :class:`Draws`."""

    def __init__(self, engine: DifEngine, book: CampaignBook, pilots: PilotBook) -> None:
        self.engine = engine
        self.book = book
        self.pilots = pilots

    @property
    def catalogue(self) -> Mapping[str, Aircraft]:
        return self.engine.aircraft

    @property
    def deck(self) -> Deck:
        return self.engine.decks[Ruleset.ZERO]

    def draws(self, state: PartState) -> Draws:
        return Draws(state.rng, state.draws, state.cup, self.deck)
