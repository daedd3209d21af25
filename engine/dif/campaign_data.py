"""Zero!'s campaign game sheets (Campaign rules §23-§26), as validated data.

* The **Campaign Game Options Sheet** (§24.51, §25.51): every Option's effect
  (:class:`OptionSpec`, ``options.yaml``).
* The **Campaign Scoresheets**' shared tables: the Land Campaign Victory Point Awards
  (§24.32) and the carrier rules' numbers (§25.62, §25.71) (``scoresheets.yaml``).
* One **Campaign Sheet** per campaign (one file each): the Land Campaigns Malaya, the
  Philippines and Burma (§24, :class:`LandCampaign`), the Carrier Campaigns Coral Sea
  and Midway (§25, :class:`CarrierCampaign`, with their Scoresheets' Damage Records)
  and the Pearl Harbor Solitaire Campaign (§26, :class:`SolitaireCampaign`).

With the Target Sheets and the Bombing Chart (:mod:`engine.dif.campaign_targets`)
they make a :class:`CampaignBook`, loaded by :func:`load_campaign_book`, which also
checks that the files agree (every target, option and record a sheet names exists).
A server's uploaded content pack may add or replace Campaign Sheets and Target Sheets
in these schemas (:mod:`engine.dif.campaign_packs`).
Every problem is a :class:`DataError` naming the file, the entry and the field, e.g.
``targets.yaml: [1] (railway).aa: Input should be greater than or equal to 0``.

Nothing in the engine plays campaigns yet; this is their data. Almost none of it is
printed: the ``printed`` field of each entry names, by field path, the values the
rulebook states, and ``data/dif/SOURCES.md`` ("Zero! campaign game") gives the line
of each and the reasoning behind every authored value.

Mission draws (§24.44) are keyed by :class:`DrawCard`, the card's name with the
Burst cost of an In My Sights card ("1B", "2B", "3B").
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, Field, model_validator

from engine.core.dataload import (
    DataError,
    pack_picker,
    parse_keyed_list,
    parse_model,
    parse_yaml,
    read_shipped,
)
from engine.dif.campaign_targets import (
    ALT,
    ID,
    SIDE,
    BombingChart,
    BombingMode,
    DamageLevel,
    Frozen,
    TargetRatings,
    TargetSheet,
    check_printed,
)
from engine.dif.components import CardKind, CardType, Side

__all__ = [
    "BOMBING_FILE",
    "CAMPAIGN_FILES",
    "OPTIONS_FILE",
    "SCORESHEETS_FILE",
    "TARGETS_FILE",
    "AircraftClass",
    "Campaign",
    "CampaignBook",
    "CampaignOption",
    "CarrierCampaign",
    "DataError",
    "DrawCard",
    "Duration",
    "FleetTactics",
    "Flight",
    "FlightForm",
    "FlightOps",
    "LandCampaign",
    "MissionTarget",
    "MissionType",
    "OptionKind",
    "OptionSpec",
    "Scoresheets",
    "SolitaireCampaign",
    "check_references",
    "load_bombing_chart",
    "load_campaign",
    "load_campaign_book",
    "load_options",
    "load_scoresheets",
    "load_targets",
    "shipped_book",
    "side_key",
    "victory_row",
]

SYSTEM_DIR = "dif"
TARGETS_FILE = "campaign/targets.yaml"
BOMBING_FILE = "campaign/bombing.yaml"
OPTIONS_FILE = "campaign/options.yaml"
SCORESHEETS_FILE = "campaign/scoresheets.yaml"
CAMPAIGN_FILES = (
    "campaign/malaya.yaml",
    "campaign/philippines.yaml",
    "campaign/burma.yaml",
    "campaign/coral-sea.yaml",
    "campaign/midway.yaml",
    "campaign/pearl-harbor.yaml",
)
"""One file per Campaign Sheet, in the order §15.1 names them."""

PERIOD_MONTH = r"^194[1-2]-(0[1-9]|1[0-2])$"


# --- the card drawn for a mission ------------------------------------------------------------


class DrawCard(StrEnum):
    """A row of a Campaign Sheet's Missions section: the drawn card's name, and for
    In My Sights its Burst cost (§24.44, L1839). Zero! has no Full Throttle card."""

    IMS_1B = "IMS-1B"
    IMS_2B = "IMS-2B"
    IMS_3B = "IMS-3B"
    OOS = "OOS"
    MAN = "MAN"
    HAL = "HAL"
    TIT = "TIT"
    BAR = "BAR"
    ACE = "ACE"
    VER = "VER"
    SCI = "SCI"

    @classmethod
    def of(cls, card: CardType) -> DrawCard:
        """The row a drawn card reads (the Fuel Tank In My Sights costs 2 Bursts)."""
        if card.kind is CardKind.IMS:
            return cls(f"IMS-{card.bursts}B")
        if card.kind is CardKind.FUT:
            raise ValueError("Zero! has no Full Throttle card (L42): no Missions row")
        return cls(card.kind.value)


# --- aircraft on a sheet -------------------------------------------------------------------


class FlightForm(StrEnum):
    """How a sheet counts aircraft (§24.46, §25.63)."""

    ELEMENT = "L/W"
    """Leader and Wingman: Fighters and Light Bombers; ``2 L/W`` is two Elements."""
    LEADER = "L"
    """A Leader alone."""
    AIRCRAFT = "aircraft"
    """Medium and Heavy Bombers and Patrol Aircraft: the number of aircraft."""


_FLIGHT = re.compile(
    r"^(?:(?P<count>\d+)\s+)?(?:(?P<form>L/W|L)\s+)?(?P<aircraft>[a-z0-9][a-z0-9-]*)$"
)


class Flight(Frozen):
    """Aircraft of one type as a sheet lists them: ``2 L/W ki-43``, ``L d3a1``,
    ``4 ki-21`` (text in the files; ``Flight.from_text(str(f)) == f``)."""

    aircraft: str = Field(pattern=ID)
    count: int = Field(default=1, ge=1, le=8)
    form: FlightForm

    @classmethod
    def from_text(cls, text: str) -> Flight:
        match = _FLIGHT.match(text.strip())
        if match is None:
            raise ValueError(
                f"{text!r} is not 'L/W <aircraft>', '<n> L/W <aircraft>', 'L <aircraft>' "
                "or '<n> <aircraft>'"
            )
        count, form = match["count"], match["form"]
        if form is None and count is None:
            raise ValueError(f"{text!r}: give the number of Bombers ('2 {text.strip()}')")
        return cls(
            aircraft=match["aircraft"],
            count=int(count) if count else 1,
            form=FlightForm(form) if form else FlightForm.AIRCRAFT,
        )

    def __str__(self) -> str:
        if self.form is FlightForm.AIRCRAFT:
            return f"{self.count} {self.aircraft}"
        prefix = f"{self.count} " if self.count > 1 else ""
        return f"{prefix}{self.form.value} {self.aircraft}"

    @property
    def aircraft_count(self) -> int:
        return self.count * 2 if self.form is FlightForm.ELEMENT else self.count


def _flight(value: Any) -> Any:
    return Flight.from_text(value) if isinstance(value, str) else value


FLIGHT = Annotated[Flight, BeforeValidator(_flight)]


class Duration(Frozen):
    """A Mission Target's Turns column (§23.23): ``9/8`` (base Turns of Arrival at the
    Target / of Return Home, less the slowest attacker's Speed) or ``6`` (the turns a
    "Dogfight", Reconnaissance or Evacuation Mission lasts)."""

    arrival: int | None = Field(default=None, ge=1, le=15)
    return_home: int | None = Field(default=None, ge=1, le=15)
    fixed: int | None = Field(default=None, ge=1, le=15)

    @model_validator(mode="after")
    def _one_kind(self) -> Duration:
        pair = self.arrival is not None and self.return_home is not None
        if pair == (self.fixed is not None) or (self.arrival is None) != (self.return_home is None):
            raise ValueError("turns: either 'arrival/return' or one number")
        return self

    @classmethod
    def from_text(cls, text: str | int) -> Duration:
        parts = str(text).split("/")
        if len(parts) == 1 and parts[0].strip().isdigit():
            return cls(fixed=int(parts[0]))
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            return cls(arrival=int(parts[0]), return_home=int(parts[1]))
        raise ValueError(f"{text!r} is not 'arrival/return' (9/8) or one number (6)")

    def __str__(self) -> str:
        if self.fixed is not None:
            return str(self.fixed)
        return f"{self.arrival}/{self.return_home}"

    def phases(self, speed: int) -> tuple[int, int, int]:
        """Turns of Arrival, Over the Target (always 3) and Return Home when the slowest
        attacker has ``speed`` (Fighters and Light Bombers count 6), §23.24."""
        if self.arrival is None or self.return_home is None:
            raise ValueError("a one-number Mission has no Arrival or Return Home turns")
        return max(0, self.arrival - speed), 3, max(0, self.return_home - speed)


def _duration(value: Any) -> Any:
    return Duration.from_text(value) if isinstance(value, str | int) else value


DURATION = Annotated[Duration, BeforeValidator(_duration)]


# --- the Campaign Game Options Sheet -----------------------------------------------------------


class OptionKind(StrEnum):
    """What an Option does; its numbers are the :class:`OptionSpec` fields named here."""

    AIRCRAFT = "aircraft"
    """The chooser adds the aircraft the Campaign Sheet lists with the Option."""
    CLOUDS = "clouds"
    """``draw`` cards at the start of the Ingress Turn; on a blue-bordered one, every
    bombing result ``result_shift`` levels lower and Anti-Aircraft Fire ``aa``."""
    TURNS = "turns"
    """``own_arrival`` / ``enemy_arrival`` Turns of Arrival at the Target (§23.25)."""
    FLAK = "flak"
    """The defended target's ``discretionary`` and ``aa`` ratings change."""
    PILOT = "pilot"
    """One Leader draws ``pilots`` Pilot counters (§19.24) and keeps one."""
    LOADED_FLIGHT_DECK = "loaded_flight_deck"
    """Each bomb result that damages the enemy Carrier Fleet scores ``extra_damage``."""
    EXTRA_CAP = "extra_cap"
    """``elements`` more Leader/Wingman pairs on CAP, cards permitting (§25.65)."""
    RECONNAISSANCE = "reconnaissance"
    """A Reconnaissance Mission: surviving ``turns`` turns adds ``bonus_aircraft``."""
    OUT_OF_SIGHT = "out_of_sight"
    """Cards drawn by the chooser's Fleet Tactics (``range_draw``) may hide his fleet."""
    NO_OPTION = "no_option"
    """Nothing."""


class OptionUse(StrEnum):
    LAND = "land"
    CARRIER = "carrier"


class Role(StrEnum):
    """Which side of a mission an Option helps; chosen by the other, it does nothing."""

    ANY = "any"
    ATTACKER = "attacker"
    DEFENDER = "defender"


class FleetTactics(StrEnum):
    """Carrier Fleet Tactics (§25.32)."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


_OPTION_NUMBERS = (
    "draw",
    "result_shift",
    "aa",
    "discretionary",
    "own_arrival",
    "enemy_arrival",
    "pilots",
    "extra_damage",
    "elements",
    "turns",
    "bonus_aircraft",
)
_KIND_NUMBERS: dict[OptionKind, frozenset[str]] = {
    OptionKind.AIRCRAFT: frozenset(),
    OptionKind.CLOUDS: frozenset({"draw", "result_shift", "aa"}),
    OptionKind.TURNS: frozenset({"own_arrival", "enemy_arrival"}),
    OptionKind.FLAK: frozenset({"aa", "discretionary"}),
    OptionKind.PILOT: frozenset({"pilots"}),
    OptionKind.LOADED_FLIGHT_DECK: frozenset({"extra_damage"}),
    OptionKind.EXTRA_CAP: frozenset({"elements"}),
    OptionKind.RECONNAISSANCE: frozenset({"turns", "bonus_aircraft"}),
    OptionKind.OUT_OF_SIGHT: frozenset(),
    OptionKind.NO_OPTION: frozenset(),
}
"""The numbers each kind of Option uses; the others stay 0."""


class OptionSpec(Frozen):
    """An Option of the Campaign Game Options Sheet (§24.51, §25.51)."""

    id: str = Field(pattern=ID)
    name: str = Field(min_length=1)
    kind: OptionKind
    category: Literal["aircraft", "condition", "mission", "none"] = Field(
        description='the sheet\'s heading (the rules name a "Condition Option", L1985)'
    )
    use: frozenset[OptionUse] = Field(min_length=1, description="land and/or carrier campaigns")
    side: SIDE | None = Field(default=None, description="only this side may choose it (§25.52)")
    role: Role = Role.ANY
    repeatable: bool = Field(default=False, description="may be chosen more than once (§25.52)")
    torpedo: bool = Field(
        default=True, description="False: no effect on Torpedo attacks nor their AA (L1881)"
    )
    draw: int = Field(default=0, ge=0, le=3)
    result_shift: int = Field(default=0, ge=0, le=3)
    aa: int = Field(default=0, ge=-3, le=3)
    discretionary: int = Field(default=0, ge=-3, le=3)
    own_arrival: int = Field(default=0, ge=-4, le=4)
    enemy_arrival: int = Field(default=0, ge=-4, le=4)
    pilots: int = Field(default=0, ge=0, le=3)
    extra_damage: int = Field(default=0, ge=0, le=3)
    elements: int = Field(default=0, ge=0, le=2)
    turns: int = Field(default=0, ge=0, le=6)
    bonus_aircraft: int = Field(default=0, ge=0, le=2)
    range_draw: dict[FleetTactics, int] = Field(
        default_factory=dict, description="Out of Sight: cards drawn by Fleet Tactics"
    )
    text: str = Field(min_length=1, description="the effect, in words")
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _numbers(self) -> OptionSpec:
        used = _KIND_NUMBERS[self.kind]
        for name in _OPTION_NUMBERS:
            if name not in used and getattr(self, name):
                raise ValueError(f"{name}: a {self.kind.value} Option has none")
        if (
            self.kind is not OptionKind.AIRCRAFT
            and used
            and not any(getattr(self, n) for n in used)
        ):
            raise ValueError(f"a {self.kind.value} Option needs one of {sorted(used)}")
        if (self.kind is OptionKind.OUT_OF_SIGHT) != bool(self.range_draw):
            raise ValueError("range_draw: Out of Sight (only) draws by Fleet Tactics")
        if self.range_draw and set(self.range_draw) != set(FleetTactics):
            raise ValueError("range_draw: a number for short, medium and long")
        if self.kind is OptionKind.NO_OPTION and not self.repeatable:
            raise ValueError("repeatable: No Option may be chosen more than once (§25.52)")
        check_printed(self, self.printed)
        return self


class CampaignOption(Frozen):
    """A numbered Option on a Campaign Sheet (§24.52, §25.53)."""

    number: int = Field(ge=1, le=30)
    option: str = Field(pattern=ID, description="the Options Sheet entry")
    aircraft: tuple[FLIGHT, ...] = Field(default=(), description="an aircraft Option's aircraft")
    periods: tuple[str, ...] = Field(
        default=(), description="the Periods it may be chosen in; empty: all"
    )
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _printed(self) -> CampaignOption:
        check_printed(self, self.printed)
        return self


def side_key(side: Side) -> str:
    """A side as the Campaign Sheets' keys name it (``japanese``, ``allied``), for a
    problem's field path."""
    return "japanese" if side is Side.AXIS else "allied"


def _unique_numbers(options: tuple[CampaignOption, ...], where: str) -> None:
    numbers = [o.number for o in options]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise ValueError(f"{where}: Option numbers {twice} used twice")


# --- victory ---------------------------------------------------------------------------------


class VictoryRow(Frozen):
    """A row of a sheet's "Air Group Action Capacity" (Victory) table (§24.7, §25.9),
    read by the Japanese VP minus the Allied VP."""

    low: int | None = Field(default=None, description="lowest difference; None: no limit")
    high: int | None = Field(default=None, description="highest difference; None: no limit")
    result: str = Field(min_length=1)
    japanese: int = Field(ge=-2, le=2, description="Japanese Air Group Action Capacity")
    allied: int = Field(ge=-2, le=2, description="Allied Air Group Action Capacity")


def _victory(rows: tuple[VictoryRow, ...]) -> None:
    """Every difference in exactly one row, rows in order, and a better difference is
    never worse for the Japanese nor better for the Allies (monotone)."""
    if not rows or rows[0].low is not None or rows[-1].high is not None:
        raise ValueError("victory: rows from no lower limit to no upper limit")
    for before, after in itertools.pairwise(rows):
        if before.high is None or after.low != before.high + 1:
            raise ValueError(f"victory: {after.result!r} must start just above {before.result!r}")
        if after.japanese < before.japanese or after.allied > before.allied:
            raise ValueError(
                f"victory: {after.result!r} must not favour the Allies more than {before.result!r}"
            )
    for row in rows:
        if row.low is not None and row.high is not None and row.low > row.high:
            raise ValueError(f"victory: {row.result!r} runs backwards")


def victory_row(rows: tuple[VictoryRow, ...], difference: int) -> VictoryRow:
    return next(
        r
        for r in rows
        if (r.low is None or r.low <= difference) and (r.high is None or difference <= r.high)
    )


# --- scoresheets -------------------------------------------------------------------------------


class AircraftClass(StrEnum):
    """Aircraft types as the Victory Point awards tell them apart (§2.1, §17)."""

    FIGHTER = "fighter"
    LIGHT_BOMBER = "light_bomber"
    MEDIUM_BOMBER = "medium_bomber"
    HEAVY_BOMBER = "heavy_bomber"
    PATROL = "patrol"


class VpAward(Frozen):
    """VP the enemy scores for one aircraft Destroyed or Damaged/Evaded; VP its own
    side scores when it flew Over the Target and returned NOT Damaged (§24.61)."""

    destroyed: int = Field(ge=0)
    damaged: int = Field(ge=0)
    returned: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _order(self) -> VpAward:
        if self.damaged > self.destroyed:
            raise ValueError("damaged: worth no more than destroyed")
        return self


class LandScoresheet(Frozen):
    """The Land Campaign Victory Point Awards table (§24.32)."""

    awards: dict[AircraftClass, VpAward]
    skilled_pilot: int = Field(ge=0, description="each enemy Skilled Pilot shot down (§24.61)")

    @model_validator(mode="after")
    def _every_class(self) -> LandScoresheet:
        if set(self.awards) != set(AircraftClass):
            raise ValueError("awards: one row for each aircraft class")
        return self


class CarrierRules(Frozen):
    """The numbers every Carrier Campaign shares (§25.62, §25.71)."""

    recovery: dict[FleetTactics, int] = Field(description="cards per side's Fleet Tactics")
    strike_arrival: int = Field(ge=0, description="Air Strike Turns of Arrival at the Target")
    strike_return: int = Field(ge=0, description="Air Strike Turns of Return Home")

    @model_validator(mode="after")
    def _every_range(self) -> CarrierRules:
        if set(self.recovery) != set(FleetTactics):
            raise ValueError("recovery: a number for short, medium and long")
        return self


class Scoresheets(Frozen):
    land: LandScoresheet
    carrier: CarrierRules
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _printed(self) -> Scoresheets:
        check_printed(self, self.printed)
        return self


# --- land campaigns ------------------------------------------------------------------------------


class MissionType(StrEnum):
    """A Mission Target's type (§23.1, §23.64)."""

    STRIKE = "strike"
    """Bomb and/or Strafe the target (§21)."""
    PATROL = "patrol"
    """Patrol: bombers or Patrol Aircraft "bomb" nothing, success is found as for
    Bombing (§23.64)."""
    DOGFIGHT = "dogfight"
    """A "Dogfight": both sides' aircraft listed, fixed turns (§24.47)."""
    RECONNAISSANCE = "reconnaissance"
    """Survive a fixed number of turns over the enemy (§23.1)."""
    EVACUATION = "evacuation"
    """Bring the evacuating aircraft through a fixed number of turns (§23.1)."""


_FIXED_TYPES = frozenset({MissionType.DOGFIGHT, MissionType.RECONNAISSANCE, MissionType.EVACUATION})


class MissionTarget(Frozen):
    """A row of a Campaign Sheet's Mission Targets section (§24.45-24.49)."""

    number: int = Field(ge=1, le=40)
    name: str = Field(min_length=1, description="e.g. 'Freighter at Rangoon'")
    location: str = Field(min_length=1, description="the numbered circle on the map")
    type: MissionType
    target: str | None = Field(default=None, pattern=ID, description="its Target Sheet")
    attacker: SIDE = Field(description="the side flying the Mission aircraft")
    aircraft: tuple[FLIGHT, ...] = Field(min_length=1, description="the Mission aircraft")
    opponents: tuple[FLIGHT, ...] = Field(default=(), description="a Dogfight's other side")
    altitude: ALT = Field(description="the Mission aircraft's starting altitude (§24.48)")
    turns: DURATION
    mode: BombingMode | None = Field(
        default=None, description="a Bombing Mode the Mission requires (torpedoes)"
    )
    crews: tuple[str, ...] = Field(default=(), description="Skilled Crew counters received")
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _shape(self) -> MissionTarget:
        fixed = self.type in _FIXED_TYPES
        if fixed != (self.turns.fixed is not None):
            raise ValueError(
                "turns: one number for a Dogfight, Reconnaissance or "
                "Evacuation, 'arrival/return' otherwise (§23.23)"
            )
        if fixed == (self.target is not None):
            raise ValueError("target: a Target Sheet for a strike or patrol (only)")
        if (self.type is MissionType.DOGFIGHT) != bool(self.opponents):
            raise ValueError("opponents: a Dogfight (only) lists the other side (§24.47)")
        if self.mode is not None and self.type is not MissionType.STRIKE:
            raise ValueError("mode: only a strike drops bombs")
        if self.mode in (BombingMode.STRAFING, BombingMode.NONE):
            raise ValueError("mode: a Bombing Mode (level, dive, torpedo, saturation)")
        check_printed(self, self.printed)
        return self


class Period(Frozen):
    """A Period of a Land Campaign and its column of the Missions section (§24.44)."""

    id: str = Field(pattern=ID)
    name: str = Field(min_length=1, description="as the column heads it")
    start: str = Field(pattern=PERIOD_MONTH)
    end: str = Field(pattern=PERIOD_MONTH)
    missions: dict[DrawCard, int] = Field(description="drawn card -> Mission Target number")
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _every_card(self) -> Period:
        if self.end < self.start:
            raise ValueError("end: before start")
        missing = [c.value for c in DrawCard if c not in self.missions]
        if missing:
            raise ValueError(f"missions: no Mission for {missing}")
        check_printed(self, self.printed)
        return self


class LandCampaign(Frozen):
    """A Land Campaign Sheet (§24.2)."""

    kind: Literal["land"]
    id: str = Field(pattern=ID)
    name: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    duration: int = Field(ge=1, le=20, description="Missions in a campaign (§24.42)")
    periods: tuple[Period, ...] = Field(min_length=1)
    targets: tuple[MissionTarget, ...] = Field(min_length=1)
    options: dict[SIDE, tuple[CampaignOption, ...]]
    victory: tuple[VictoryRow, ...]
    rules: tuple[str, ...] = Field(default=(), description="the sheet's special rules")
    sources: str = Field(min_length=1, description="the history the sheet is drawn from")
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _consistent(self) -> LandCampaign:
        numbers = [t.number for t in self.targets]
        if len(set(numbers)) != len(numbers):
            raise ValueError("targets: each Target number once")
        ids = [p.id for p in self.periods]
        if len(set(ids)) != len(ids):
            raise ValueError("periods: each id once")
        for i, period in enumerate(self.periods):
            for card, number in period.missions.items():
                if number not in numbers:
                    raise ValueError(
                        f"periods[{i}].missions.{card.value}: Target {number} is not in targets"
                    )
        if set(self.options) != set(Side):
            raise ValueError("options: a list for each side (§24.52)")
        for side, options in self.options.items():
            _unique_numbers(options, f"options.{side_key(side)}")
            for option in options:
                unknown = set(option.periods) - set(ids)
                if unknown:
                    raise ValueError(
                        f"options.{side_key(side)}: Option {option.number} names "
                        f"unknown periods {sorted(unknown)}"
                    )
            for period in self.periods:
                open_ = [o for o in options if not o.periods or period.id in o.periods]
                if len(open_) < self.duration:
                    raise ValueError(
                        f"options.{side_key(side)}: {len(open_)} Options in {period.id}, fewer "
                        f"than the {self.duration} Missions (each once per campaign, §24.53)"
                    )
        _victory(self.victory)
        check_printed(self, self.printed)
        return self

    def target(self, number: int) -> MissionTarget:
        return next(t for t in self.targets if t.number == number)

    def period(self, id_: str) -> Period:
        return next(p for p in self.periods if p.id == id_)

    def mission_for(self, period: str, card: CardType) -> MissionTarget:
        """The Mission Target a card drawn in ``period`` selects (§24.44)."""
        return self.target(self.period(period).missions[DrawCard.of(card)])

    def option(self, side: Side, number: int) -> CampaignOption:
        return next(o for o in self.options[side] if o.number == number)


# --- carrier campaigns -------------------------------------------------------------------------


class FlightOps(StrEnum):
    """Flight Ops (§25.42)."""

    LARGE = "large"
    """Large Air Strike: never on two turns running."""
    SMALL = "small"
    NONE = "none"
    """No Air Strike."""


class FlightOp(Frozen):
    """A Flight Ops choice on a Carrier Campaign Sheet: the base Air Strike and CAP
    (§25.63-25.64) and what the Air Strike may attack (§25.66)."""

    ops: FlightOps
    strike: tuple[FLIGHT, ...] = ()
    cap: tuple[FLIGHT, ...] = ()
    targets: tuple[str, ...] = Field(default=(), description="Damage Record ids")
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _strike(self) -> FlightOp:
        striking = self.ops is not FlightOps.NONE
        if striking != bool(self.strike) or striking != bool(self.targets):
            raise ValueError("strike: a Large or Small Air Strike (only) has aircraft and targets")
        check_printed(self, self.printed)
        return self


class RecordLevel(DamageLevel):
    """A level of a scoresheet's Damage Record: its VP (§25.83) and the aircraft it
    takes from each Air Strike and from the CAP (§25.84)."""

    strike: int = Field(default=0, ge=-6, le=0)
    cap: int = Field(default=0, ge=-6, le=0)


class AirfieldRow(Frozen):
    """An airfield that launches by its own damage (Midway, §25.43 exception)."""

    low: int = Field(ge=0)
    high: int | None = Field(default=None, description="None: and above")
    strike: tuple[FLIGHT, ...] = ()
    cap: tuple[FLIGHT, ...] = ()


class DamageRecord(TargetRatings):
    """A Damage Record of a Carrier Campaign Scoresheet (§25.82): a Carrier Fleet, the
    Midway airfield, Port Moresby, the Invasion Force."""

    id: str = Field(pattern=ID)
    kind: Literal["carrier_fleet", "airfield", "base", "invasion_force"]
    owner: SIDE
    levels: tuple[RecordLevel, ...] = Field(min_length=2)
    out_of_action: bool = Field(
        default=False, description="its last level puts the fleet Out of Action (§25.9)"
    )
    tactics: SIDE | None = Field(
        default=None,
        description="whose Fleet Tactics it takes (§25.34, L2037); None: its own",
    )
    cap_draw: dict[DrawCard, tuple[FLIGHT, ...]] = Field(
        default_factory=dict, description="CAP by one drawn card (§25.43)"
    )
    launches: tuple[AirfieldRow, ...] = Field(
        default=(), description="Air Strike and CAP by Damage (Midway, §25.43)"
    )
    strike_targets: tuple[str, ...] = Field(default=(), description="what its strikes attack")
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _record(self) -> DamageRecord:
        if self.kind == "carrier_fleet":
            if self.strafe or not self.naval or self.tactics is not None:
                raise ValueError(
                    "a Carrier Fleet is naval, may not be strafed (§21.71) and "
                    "keeps its own Fleet Tactics"
                )
            if not self.out_of_action:
                raise ValueError("out_of_action: a Carrier Fleet can be put Out of Action")
        elif self.tactics is None:
            raise ValueError("tactics: a fleet without carriers takes another's (§25.34)")
        for lower, higher in itertools.pairwise(self.levels):
            if higher.strike > lower.strike or higher.cap > lower.cap:
                raise ValueError("levels: more Damage never gives back aircraft (§25.84)")
        if self.cap_draw and set(self.cap_draw) != set(DrawCard):
            raise ValueError("cap_draw: a CAP for every card")
        if self.launches:
            if self.launches[0].low != 0 or self.launches[-1].high is not None:
                raise ValueError("launches: rows from 0 Damage up, the last open-ended")
            for row, next_row in itertools.pairwise(self.launches):
                if row.high is None or next_row.low != row.high + 1:
                    raise ValueError("launches: each row starts just above the last")
        if bool(self.launches) != bool(self.strike_targets):
            raise ValueError("strike_targets: an airfield that launches strikes names targets")
        check_printed(self, self.printed)
        return self

    def level(self, damage: int) -> RecordLevel:
        """The level ``damage`` points reach, with what it costs the strikes and CAP."""
        return [lv for lv in self.levels if lv.damage <= max(damage, 0)][-1]


class CarrierSide(Frozen):
    """One side of a Carrier Campaign Sheet."""

    fleet: str = Field(pattern=ID, description="its Carrier Fleet's Damage Record")
    flight_ops: tuple[FlightOp, ...]
    recon: tuple[FLIGHT, ...] = Field(min_length=1, description="Reconnaissance aircraft")

    @model_validator(mode="after")
    def _every_ops(self) -> CarrierSide:
        if sorted(f.ops for f in self.flight_ops) != sorted(FlightOps):
            raise ValueError("flight_ops: Large, Small and No Air Strike, once each (§25.42)")
        return self

    def ops(self, ops: FlightOps) -> FlightOp:
        return next(f for f in self.flight_ops if f.ops is ops)


class CarrierCampaign(Frozen):
    """A Carrier Campaign Sheet and its Scoresheet's Damage Records (§25.21-25.22)."""

    kind: Literal["carrier"]
    id: str = Field(pattern=ID)
    name: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    dates: str = Field(min_length=1)
    turns: int = Field(ge=1, le=12, description="the Campaign's Duration in Turns (§25.23)")
    sides: dict[SIDE, CarrierSide]
    records: tuple[DamageRecord, ...]
    options: tuple[CampaignOption, ...] = Field(min_length=1, description="one list (§25.52)")
    victory: tuple[VictoryRow, ...]
    rules: tuple[str, ...] = ()
    sources: str = Field(min_length=1)
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _consistent(self) -> CarrierCampaign:
        if set(self.sides) != set(Side):
            raise ValueError("sides: both")
        ids = [r.id for r in self.records]
        if len(set(ids)) != len(ids):
            raise ValueError("records: each id once")
        for side, sheet in self.sides.items():
            record = self.record(sheet.fleet)
            if record is None or record.kind != "carrier_fleet" or record.owner is not side:
                raise ValueError(
                    f"sides.{side_key(side)}.fleet: not this side's Carrier Fleet record"
                )
            for op in sheet.flight_ops:
                for target in op.targets:
                    aim = self.record(target)
                    if aim is None or aim.owner is side:
                        raise ValueError(
                            f"sides.{side_key(side)}: {op.ops.value} strikes "
                            f"{target!r}, no enemy record"
                        )
        for record in self.records:
            for target in record.strike_targets:
                aim = self.record(target)
                if aim is None or aim.owner is record.owner:
                    raise ValueError(f"records: {record.id} strikes {target!r}, no enemy record")
        _unique_numbers(self.options, "options")
        _victory(self.victory)
        check_printed(self, self.printed)
        return self

    def record(self, id_: str) -> DamageRecord | None:
        return next((r for r in self.records if r.id == id_), None)

    def option(self, number: int) -> CampaignOption:
        return next(o for o in self.options if o.number == number)


# --- Pearl Harbor ------------------------------------------------------------------------------


class Sortie(Frozen):
    """One Element of a Pearl Harbor wave and how it attacks (None: escort)."""

    element: str = Field(
        pattern=ID,
        description="the Element's name; the same name in two waves is the same aircraft "
        "(destroyed ones stay home, damaged ones fly damaged)",
    )
    flight: FLIGHT
    mode: BombingMode | None = None
    altitude: ALT | None = Field(
        default=None, description="a bombing Element's drop altitude: its Bombing Chart row"
    )

    @model_validator(mode="after")
    def _mode(self) -> Sortie:
        if self.mode in (BombingMode.SATURATION, BombingMode.STRAFING, BombingMode.NONE):
            raise ValueError("mode: level, dive or torpedo (the carriers' aircraft)")
        if self.flight.form is FlightForm.AIRCRAFT or self.flight.count != 1:
            raise ValueError("flight: one Element, 'L/W <aircraft>' or 'L <aircraft>'")
        if (self.mode is None) != (self.altitude is None):
            raise ValueError("altitude: a bombing Element (only) has its drop altitude")
        return self


class Defense(StrEnum):
    """The American defences a Pearl Harbor attack draws (§26.0)."""

    NONE = "none"
    HIT = "hit"
    """The drawn In My Sights / Out of the Sun card hits the aircraft (its Damage; its
    Rejected Attack symbol negates the aircraft's best Bombing card)."""
    SPOILED = "spoiled"
    """Flak spoils the aim: the aircraft's best Bombing card is negated."""
    FIGHTERS = "fighters"
    """American fighters are up: the ``fighters`` attack before the bombs fall."""


class DefenseRow(Frozen):
    effect: Defense
    fighters: tuple[FLIGHT, ...] = ()
    turns: int = Field(default=0, ge=0, le=6)

    @model_validator(mode="after")
    def _fighters(self) -> DefenseRow:
        if (self.effect is Defense.FIGHTERS) != bool(self.fighters) or bool(self.fighters) != bool(
            self.turns
        ):
            raise ValueError("fighters: a 'fighters' result (only) names them and the turns")
        return self


class Wave(Frozen):
    name: str = Field(min_length=1)
    sorties: tuple[Sortie, ...] = Field(min_length=1)
    defense: dict[DrawCard, DefenseRow]

    @model_validator(mode="after")
    def _defense(self) -> Wave:
        if set(self.defense) != set(DrawCard):
            raise ValueError("defense: a result for every card")
        for card, row in self.defense.items():
            if row.effect is Defense.HIT and card not in _BURST_CARDS:
                raise ValueError(f"defense.{card.value}: only a burst card can hit")
        names = [s.element for s in self.sorties]
        if len(set(names)) != len(names):
            raise ValueError("sorties: each Element once a wave")
        return self


_BURST_CARDS = frozenset({DrawCard.IMS_1B, DrawCard.IMS_2B, DrawCard.IMS_3B, DrawCard.OOS})


class SolitaireTarget(Frozen):
    number: int = Field(ge=1, le=20)
    name: str = Field(min_length=1)
    target: str = Field(pattern=ID, description="its Target Sheet")
    torpedo: bool = Field(
        default=True,
        description="False: torpedoes cannot reach it, Naval Target or not (the ships "
        "moored inboard); a non-naval Target refuses them in any case (§21.52)",
    )


class SolitaireCampaign(Frozen):
    """The Pearl Harbor Solitaire Campaign sheet (§26.0): the player assigns each wave's
    aircraft to Targets, draws an AC for the American defences, and attacks."""

    kind: Literal["solitaire"]
    id: str = Field(pattern=ID)
    name: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    dates: str = Field(min_length=1)
    waves: tuple[Wave, ...] = Field(min_length=1)
    targets: tuple[SolitaireTarget, ...] = Field(min_length=1)
    victory: tuple[VictoryRow, ...]
    rules: tuple[str, ...] = ()
    sources: str = Field(min_length=1)
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _consistent(self) -> SolitaireCampaign:
        numbers = [t.number for t in self.targets]
        if len(set(numbers)) != len(numbers):
            raise ValueError("targets: each number once")
        flights: dict[str, Flight] = {}
        for wave in self.waves:
            for sortie in wave.sorties:
                if flights.setdefault(sortie.element, sortie.flight) != sortie.flight:
                    raise ValueError(
                        f"waves: {sortie.element} flies {flights[sortie.element]} in one wave "
                        f"and {sortie.flight} in another (the same aircraft)"
                    )
        _victory(self.victory)
        check_printed(self, self.printed)
        return self


Campaign = LandCampaign | CarrierCampaign | SolitaireCampaign
"""Any Campaign Sheet; its ``kind`` says which."""

_KINDS: dict[str, type[LandCampaign | CarrierCampaign | SolitaireCampaign]] = {
    "land": LandCampaign,
    "carrier": CarrierCampaign,
    "solitaire": SolitaireCampaign,
}


# --- loading -----------------------------------------------------------------------------------

M = TypeVar("M", bound=BaseModel)


_PATH_PART = re.compile(r"\[\d+\]|[^.\[\]]+")


def _name_entries(raw: Any, problem: str) -> str:
    """``targets[3].aa: ...`` -> ``targets[3] (#11).aa: ...``: each list entry on the
    path named by its ``id`` or ``number`` as the file gives them."""
    path, sep, message = problem.partition(": ")
    if not sep or path.startswith("("):
        return problem
    out = ""
    node = raw
    for part in _PATH_PART.findall(path):
        if part.startswith("["):
            index = int(part[1:-1])
            node = node[index] if isinstance(node, list) and index < len(node) else None
            out += part
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                out += f" ({node['id']})"
            elif isinstance(node, dict) and isinstance(node.get("number"), int):
                out += f" (#{node['number']})"
        else:
            node = node.get(part) if isinstance(node, dict) else None
            out += f".{part}" if out else part
    return out + sep + message


def _named(name: str, text: str, exc: DataError) -> DataError:
    raw = parse_yaml(name, text)
    return DataError(exc.file, [_name_entries(raw, p) for p in exc.problems])


def _keyed(name: str, text: str, model: type[M]) -> dict[str, M]:
    try:
        return parse_keyed_list(name, text, model)
    except DataError as exc:
        raise _named(name, text, exc) from exc


def _mapping(name: str, text: str, model: type[M], expected: str) -> M:
    try:
        return parse_model(name, text, model, expected)
    except DataError as exc:
        raise _named(name, text, exc) from exc


Source = Callable[[str], tuple[str, str]]
"""file name -> (name used in messages, text)."""


def _shipped(filename: str) -> tuple[str, str]:
    return filename.removeprefix("campaign/"), read_shipped(SYSTEM_DIR, filename)


def _source(pack: Path | str | None) -> Source:
    """The shipped files, or a content pack's where it has them. A pack is a directory
    laid out like ``data/dif`` (its ``campaign/`` folder holds the files)."""
    if pack is None:
        return _shipped
    pick = pack_picker(pack)

    def read(filename: str) -> tuple[str, str]:
        path = pick(filename)
        if path is None:
            return _shipped(filename)
        try:
            return str(path), path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DataError(str(path), [f"cannot read the file: {exc}"]) from exc

    return read


def load_targets(pack: Path | str | None = None) -> dict[str, TargetSheet]:
    """The Target Sheets by id (``campaign/targets.yaml``)."""
    name, text = _source(pack)(TARGETS_FILE)
    sheets = _keyed(name, text, TargetSheet)
    numbers = [s.sheet for s in sheets.values()]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise DataError(name, [f"sheet: sheet sides {twice} hold two targets"])
    return sheets


def load_bombing_chart(pack: Path | str | None = None) -> BombingChart:
    name, text = _source(pack)(BOMBING_FILE)
    return _mapping(name, text, BombingChart, "the Bombing Chart")


def load_options(pack: Path | str | None = None) -> dict[str, OptionSpec]:
    """The Campaign Game Options Sheet by id (``campaign/options.yaml``)."""
    name, text = _source(pack)(OPTIONS_FILE)
    return _keyed(name, text, OptionSpec)


def load_scoresheets(pack: Path | str | None = None) -> Scoresheets:
    name, text = _source(pack)(SCORESHEETS_FILE)
    return _mapping(name, text, Scoresheets, "the land and carrier scoresheet tables")


def load_campaign(filename: str, pack: Path | str | None = None) -> Campaign:
    """One Campaign Sheet, e.g. ``campaign/burma.yaml``; its ``kind`` (land, carrier,
    solitaire) says which schema it follows."""
    name, text = _source(pack)(filename)
    raw = parse_yaml(name, text)
    kind = raw.get("kind") if isinstance(raw, dict) else None
    if kind not in _KINDS:
        raise DataError(name, ["kind: 'land', 'carrier' or 'solitaire' (a Campaign Sheet)"])
    return _mapping(name, text, _KINDS[kind], "a Campaign Sheet")


class CampaignBook(Frozen):
    """Every campaign sheet with the Target Sheets, Bombing Chart and Options they use."""

    targets: dict[str, TargetSheet]
    bombing: BombingChart
    options: dict[str, OptionSpec]
    scoresheets: Scoresheets
    campaigns: dict[str, Campaign]

    def campaign(self, id_: str) -> Campaign:
        return self.campaigns[id_]


def load_campaign_book(pack: Path | str | None = None) -> CampaignBook:
    """Every campaign file, the pack's where it has them, checked against each other."""
    source = _source(pack)
    targets = load_targets(pack)
    bombing = load_bombing_chart(pack)
    options = load_options(pack)
    scoresheets = load_scoresheets(pack)
    campaigns: dict[str, Campaign] = {}
    for filename in CAMPAIGN_FILES:
        campaign = load_campaign(filename, pack)
        name, text = source(filename)
        problems = check_references(campaign, targets, options)
        if problems:
            raw = parse_yaml(name, text)
            raise DataError(name, [_name_entries(raw, p) for p in problems])
        if campaign.id in campaigns:
            raise DataError(name, [f"id: {campaign.id!r} is another sheet's id"])
        campaigns[campaign.id] = campaign
    return CampaignBook(
        targets=targets,
        bombing=bombing,
        options=options,
        scoresheets=scoresheets,
        campaigns=campaigns,
    )


def check_references(
    campaign: Campaign,
    targets: Mapping[str, TargetSheet],
    options: Mapping[str, OptionSpec],
) -> list[str]:
    """What a sheet names that the Target Sheets and the Options Sheet must hold, each
    problem as ``<field path>: <message>`` (``targets[3].target: ...``)."""
    found: list[str] = []

    def option_checks(where: str, entry: CampaignOption, use: OptionUse, side: Side | None) -> None:
        spec = options.get(entry.option)
        if spec is None:
            found.append(f"{where}.option: {entry.option!r} is not on the Options Sheet")
            return
        if use not in spec.use:
            found.append(f"{where}.option: {entry.option!r} is not a {use.value} campaign Option")
        if (spec.kind is OptionKind.AIRCRAFT) != bool(entry.aircraft):
            found.append(f"{where}.aircraft: an aircraft Option (only) lists its aircraft")
        if side is not None and spec.side is not None and spec.side is not side:
            found.append(f"{where}.option: {entry.option!r} is the other side's")

    if isinstance(campaign, LandCampaign):
        for i, target in enumerate(campaign.targets):
            if target.target is not None and target.target not in targets:
                found.append(
                    f"targets[{i}].target: {target.target!r} is no Target Sheet "
                    "(not in targets.yaml or a pack)"
                )
            sheet = targets.get(target.target or "")
            if target.mode is BombingMode.TORPEDO and sheet is not None and not sheet.naval:
                found.append(f"targets[{i}].mode: torpedoes need a Naval Target (§21.52)")
        for side, entries in campaign.options.items():
            for i, entry in enumerate(entries):
                option_checks(f"options.{side_key(side)}[{i}]", entry, OptionUse.LAND, side)
    elif isinstance(campaign, CarrierCampaign):
        for i, entry in enumerate(campaign.options):
            option_checks(f"options[{i}]", entry, OptionUse.CARRIER, None)
    else:
        for i, solo in enumerate(campaign.targets):
            if solo.target not in targets:
                found.append(
                    f"targets[{i}].target: {solo.target!r} is no Target Sheet "
                    "(not in targets.yaml or a pack)"
                )
    return found


@functools.cache
def shipped_book() -> CampaignBook:
    """The shipped campaign data, loaded once."""
    return load_campaign_book()
