"""Eagles in the Sky components: Maneuver cards, aircraft, Flight Leaders and Aces,
the set-up and event tables, and the historical scenarios.

The YAML files in ``data/eagles/`` are parsed into these frozen pydantic models by
:mod:`engine.eagles.loader`. The models say what a value *means*; which values the
rulebook prints and which the project authored is recorded in ``data/eagles/SOURCES.md``
(and, per aircraft, in :attr:`Aircraft.printed`).

Line numbers ("L323") are lines of the plain-text transcription of the rulebook the
maintainers work from (``eagles-in-the-sky.txt``: the Engagement rules, sections
2.0-18.0, then the Campaign rules); "§8.14" is a section of the Engagement rules,
"Campaign §6.1" one of the Campaign rules.

Every enum has a ``from_code`` that accepts its value (``"no_mans_land"``), its name,
its short code where it has one (``"NML"``) or its words (``"No Man's Land"``), in any
case, so YAML and commands may use whichever reads best.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from enum import Enum, IntEnum, StrEnum
from typing import Annotated, Any, NamedTuple, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

__all__ = [
    "BOOK_CARDS",
    "DECK_SIZE",
    "AceAbility",
    "AceMount",
    "Aircraft",
    "AircraftType",
    "Altitude",
    "AltitudeRow",
    "BookCard",
    "Card",
    "CardSpecial",
    "Characteristic",
    "DamageKind",
    "DamageTable",
    "Deck",
    "DefenceClass",
    "EngagementRow",
    "EngagementSpec",
    "EngagementType",
    "EventResolution",
    "FlightLeader",
    "FlightSizeRow",
    "Force",
    "ForceAircraft",
    "MissionAircraft",
    "PilotQuality",
    "RandomEvent",
    "RandomEventRow",
    "RearGunnerRow",
    "Scenario",
    "ScenarioRule",
    "Side",
    "SustainedClimbRow",
    "Symbol",
    "Tables",
    "VictoryKind",
    "Weather",
    "WeatherColumn",
    "WeatherEffect",
    "WeatherRow",
    "YearMonth",
    "Zone",
    "ZoneChoice",
    "ZoneRow",
]

DECK_SIZE = 110
"""Maneuver cards in the deck, numbered 1-110 (L13, L1767)."""


# --- enums -----------------------------------------------------------------------------

_E = TypeVar("_E", bound=Enum)


def _words(text: str) -> str:
    """``"No Man's Land"`` -> ``"NO_MANS_LAND"``: the comparison key of from_code."""
    return re.sub(r"[^A-Z0-9*]+", "_", text.strip().upper().replace("'", "")).strip("_")


def _from_code(cls: type[_E], code: str | int) -> _E:
    """The member of ``cls`` whose value, name or ``code`` matches ``code``."""
    if isinstance(code, cls):
        return code
    key = _words(str(code))
    for member in cls:
        keys = {_words(str(member.value)), member.name}
        member_code = getattr(member, "code", None)
        if member_code is not None:
            keys.add(_words(str(member_code)))
        if key in keys:
            return member
    codes = ", ".join(str(getattr(m, "code", m.value)) for m in cls)
    raise ValueError(f"unknown {_snake(cls.__name__)} {code!r} (expected one of {codes})")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def _coerce(cls: type[_E]) -> Any:
    """A before-validator turning a code into a member of ``cls``."""

    def convert(value: Any) -> Any:
        return _from_code(cls, value) if isinstance(value, str | int) else value

    return BeforeValidator(convert)


class Side(StrEnum):
    """The two players (§3.2): the Allies, and the Central Powers, all German here."""

    ALLIED = "allied"
    GERMAN = "german"

    @property
    def code(self) -> str:
        """``"A"`` or ``"G"``."""
        return self.value[0].upper()

    @property
    def opponent(self) -> Side:
        """The other side."""
        return Side.GERMAN if self is Side.ALLIED else Side.ALLIED

    @classmethod
    def from_code(cls, code: str) -> Side:
        """``"allied"``, ``"A"``, ``"german"``, ``"G"`` (any case)."""
        return _from_code(cls, code)


class Symbol(StrEnum):
    """A Performance symbol on a Maneuver card, naming the Performance Rating the card
    is used with (§2.2, §2.13)."""

    CLIMB = "climb"
    DIVE = "dive"
    SPEED = "speed"
    AGILITY = "agility"

    @property
    def code(self) -> str:
        """``"C"``, ``"D"``, ``"S"`` or ``"A"``."""
        return self.value[0].upper()

    @classmethod
    def from_code(cls, code: str) -> Symbol:
        """The symbol of a code (``"D"``) or name (``"dive"``); any case."""
        return _from_code(cls, code)


class DefenceClass(IntEnum):
    """An aircraft's Defensive Class (§2.13), weakest first: a Structure hit's second
    hit lowers it one step (§10.83)."""

    FRAGILE = 0
    NORMAL = 1
    STURDY = 2
    ARMORED = 3

    @property
    def code(self) -> str:
        """The letter on the counter: ``"F"``, ``"N"``, ``"S"`` or ``"A"``."""
        return self.name[0]

    @property
    def weaker(self) -> DefenceClass | None:
        """One class down (§10.83); None below Fragile (the aircraft is shot down)."""
        return DefenceClass(self - 1) if self > DefenceClass.FRAGILE else None

    @classmethod
    def from_code(cls, code: str) -> DefenceClass:
        """The class of a letter (``"S"``) or name (``"sturdy"``); any case."""
        return _from_code(cls, code)


class DamageKind(StrEnum):
    """The seven results of a damage table (§10.8, L579-627)."""

    SUPERFICIAL = "superficial"
    """No effect (§10.82)."""
    STRUCTURE = "structure"
    """Second hit lowers the Defensive Class, third shoots down (§10.83, AEG GIV §13.74)."""
    WING = "wing"
    """Dive -2 and Agility -1; second hit shoots down (§10.84)."""
    CONTROL = "control"
    """Agility -2; second hit shoots down (§10.85)."""
    ENGINE = "engine"
    """Speed -2 and Climb -1; second hit shoots down (§10.86)."""
    CREW = "crew"
    """A crewman wounded or killed, by further draws (§10.87)."""
    ON_FIRE = "on_fire"
    """Shot down unless a Flight Leader or Ace puts it out (§10.88)."""

    @property
    def code(self) -> str:
        """Two letters: ``SU``, ``ST``, ``WI``, ``CO``, ``EN``, ``CR``, ``FI``."""
        return _DAMAGE_CODES[self]

    @property
    def severity(self) -> int:
        """A rough order of harm used to check authored tables (not a rule): Superficial
        0, Structure 1, Wing/Control/Engine 2, Crew 3, On Fire 4."""
        return _SEVERITY[self]

    @property
    def counts_as_damage(self) -> bool:
        """Counts towards "2 or more points of damage" for Victory Points (§16.21:
        Structure, Wing, Engine, Control)."""
        return self in (
            DamageKind.STRUCTURE,
            DamageKind.WING,
            DamageKind.ENGINE,
            DamageKind.CONTROL,
        )

    @classmethod
    def from_code(cls, code: str) -> DamageKind:
        """The kind of a code (``"ST"``) or name (``"structure"``, ``"On Fire"``)."""
        return _from_code(cls, code)


_DAMAGE_CODES = {
    DamageKind.SUPERFICIAL: "SU",
    DamageKind.STRUCTURE: "ST",
    DamageKind.WING: "WI",
    DamageKind.CONTROL: "CO",
    DamageKind.ENGINE: "EN",
    DamageKind.CREW: "CR",
    DamageKind.ON_FIRE: "FI",
}
_SEVERITY = {
    DamageKind.SUPERFICIAL: 0,
    DamageKind.STRUCTURE: 1,
    DamageKind.WING: 2,
    DamageKind.CONTROL: 2,
    DamageKind.ENGINE: 2,
    DamageKind.CREW: 3,
    DamageKind.ON_FIRE: 4,
}


class Altitude(IntEnum):
    """The four altitude levels (§11.11), lowest first."""

    TREETOP = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @property
    def code(self) -> str:
        """``"T"``, ``"L"``, ``"M"`` or ``"H"``."""
        return self.name[0]

    @classmethod
    def from_code(cls, code: str) -> Altitude:
        """The altitude of a code (``"T"``) or name (``"treetop"``); any case."""
        return _from_code(cls, code)


class Zone(StrEnum):
    """The five zones, west to east (§3.41): the Random Events column, and in the
    Campaign the Safe Return column."""

    ALLIED_REAR = "allied_rear"
    ALLIED_FRONT = "allied_front"
    NO_MANS_LAND = "no_mans_land"
    GERMAN_FRONT = "german_front"
    GERMAN_REAR = "german_rear"

    @property
    def code(self) -> str:
        """``"AR"``, ``"AF"``, ``"NML"``, ``"GF"`` or ``"GR"``."""
        return _ZONE_CODES[self]

    @property
    def printed_name(self) -> str:
        """The rulebook's words: "Allied Rear Area", "No Man's Land"..."""
        return _ZONE_NAMES[self]

    @property
    def owner(self) -> Side | None:
        """The side whose lines or rear area this is; None for No Man's Land."""
        if self in (Zone.ALLIED_REAR, Zone.ALLIED_FRONT):
            return Side.ALLIED
        if self in (Zone.GERMAN_REAR, Zone.GERMAN_FRONT):
            return Side.GERMAN
        return None

    @classmethod
    def front_lines(cls, side: Side) -> Zone:
        """``side``'s Front Lines: "the defender's Front Lines" is
        ``Zone.front_lines(defender)`` (§16.42-16.48)."""
        return Zone.ALLIED_FRONT if side is Side.ALLIED else Zone.GERMAN_FRONT

    @classmethod
    def rear_area(cls, side: Side) -> Zone:
        """``side``'s Rear Area ("the defender's Rear Area", §16.43, §16.47)."""
        return Zone.ALLIED_REAR if side is Side.ALLIED else Zone.GERMAN_REAR

    @classmethod
    def from_code(cls, code: str) -> Zone:
        """The zone of a code (``"NML"``), value or printed name; any case."""
        for zone in cls:
            if _words(str(code)) == _words(zone.printed_name):
                return zone
        return _from_code(cls, code)


_ZONE_CODES = {
    Zone.ALLIED_REAR: "AR",
    Zone.ALLIED_FRONT: "AF",
    Zone.NO_MANS_LAND: "NML",
    Zone.GERMAN_FRONT: "GF",
    Zone.GERMAN_REAR: "GR",
}
_ZONE_NAMES = {
    Zone.ALLIED_REAR: "Allied Rear Area",
    Zone.ALLIED_FRONT: "Allied Front Lines",
    Zone.NO_MANS_LAND: "No Man's Land",
    Zone.GERMAN_FRONT: "German Front Lines",
    Zone.GERMAN_REAR: "German Rear Area",
}


class ZoneChoice(StrEnum):
    """A zone an Engagement type allows, relative to its defender (§16.4)."""

    DRAW = "draw"
    """Drawn on Table E-5 (Patrol, §16.41)."""
    NO_MANS_LAND = "no_mans_land"
    DEFENDER_FRONT = "defender_front"
    DEFENDER_REAR = "defender_rear"

    def resolve(self, defender: Side) -> Zone | None:
        """The zone for this defender; None for :attr:`DRAW`."""
        if self is ZoneChoice.NO_MANS_LAND:
            return Zone.NO_MANS_LAND
        if self is ZoneChoice.DEFENDER_FRONT:
            return Zone.front_lines(defender)
        if self is ZoneChoice.DEFENDER_REAR:
            return Zone.rear_area(defender)
        return None

    @classmethod
    def from_code(cls, code: str) -> ZoneChoice:
        return _from_code(cls, code)


class AircraftType(StrEnum):
    """The two general types (§2.1). German CL class aircraft are Scouts, J class are
    2-Seaters (§2.1 design note)."""

    SCOUT = "scout"
    TWO_SEATER = "two_seater"

    @classmethod
    def from_code(cls, code: str) -> AircraftType:
        return _from_code(cls, code)


class Characteristic(StrEnum):
    """A special characteristic letter on the counter (§13.1-13.6)."""

    COVERED_GUNS = "covered_guns"
    """C: a jam of these guns stays jammed on FV 1 or 2 (§13.1)."""
    DUAL_CONTROLS = "dual_controls"
    """D: the gunner flies on if the pilot is killed (§13.2)."""
    FRONT_GUNNER = "front_gunner"
    """F: the gunner makes the Tailing and Head-on attacks, at half FV (§13.3)."""
    HIGH_ALTITUDE_ENGINE = "high_altitude_engine"
    """H: no -2 at High altitude until an Engine hit (§13.4)."""
    UNRELIABLE_ENGINE = "unreliable_engine"
    """U: Speed maneuvers may cause an Engine hit (§13.5)."""
    WEAK_WINGS = "weak_wings"
    """W: Dive maneuvers may cause a Wing hit (§13.6)."""

    @property
    def code(self) -> str:
        """The counter's letter: C, D, F, H, U or W."""
        return {
            Characteristic.COVERED_GUNS: "C",
            Characteristic.DUAL_CONTROLS: "D",
            Characteristic.FRONT_GUNNER: "F",
            Characteristic.HIGH_ALTITUDE_ENGINE: "H",
            Characteristic.UNRELIABLE_ENGINE: "U",
            Characteristic.WEAK_WINGS: "W",
        }[self]

    @classmethod
    def from_code(cls, code: str) -> Characteristic:
        return _from_code(cls, code)


class PilotQuality(StrEnum):
    """The five pilot qualities (§14.1), weakest first."""

    GREEN = "green"
    INEXPERIENCED = "inexperienced"
    EXPERIENCED = "experienced"
    LEADER = "leader"
    """A Flight Leader (§14.5): an Experienced pilot with Leadership and Flying."""
    ACE = "ace"
    """A Famous Ace (§14.6, §18.0), also a Flight Leader."""

    @classmethod
    def from_code(cls, code: str) -> PilotQuality:
        return _from_code(cls, code)


class EngagementType(StrEnum):
    """The eight Engagement types (§16.11)."""

    PATROL = "patrol"
    ARTILLERY_SPOTTING = "artillery_spotting"
    PHOTO_RECON = "photo_recon"
    CONTACT_PATROL = "contact_patrol"
    TRENCH_STRAFING = "trench_strafing"
    BOMBING = "bombing"
    AIRFIELD_ATTACK = "airfield_attack"
    BALLOON_BUSTING = "balloon_busting"

    @classmethod
    def from_code(cls, code: str) -> EngagementType:
        return _from_code(cls, code)


class RandomEvent(StrEnum):
    """A result of the Random Events Table (§5.1, L259-273)."""

    ADD_AIRCRAFT = "add_aircraft"
    ADD_AIRCRAFT_STAR = "add_aircraft_star"
    """"Add Aircraft*": only with 7 or more aircraft on the display, else No Event."""
    REMOVE_AIRCRAFT = "remove_aircraft"
    CLOUDS = "clouds"
    LIGHT_FLAK = "light_flak"
    HEAVY_FLAK = "heavy_flak"
    SPECIAL = "special"
    """Campaign only: an Engagement Special Event (L1767); No Event otherwise."""
    NONE = "none"

    @property
    def code(self) -> str:
        """``"add_aircraft*"`` for the starred result, else the value."""
        return "add_aircraft*" if self is RandomEvent.ADD_AIRCRAFT_STAR else self.value

    @classmethod
    def from_code(cls, code: str) -> RandomEvent:
        return _from_code(cls, code)


class CardSpecial(StrEnum):
    """A Maneuver card's special rule (its text is in ``data/eagles/SOURCES.md``)."""

    FALLING_LEAF = "falling_leaf"
    """§8.3: Targeted Activation only against an aircraft Tailing it, no Response; the
    aircraft drops a level, unfollowed, and keeps dropping while drawn cards show a
    Dive symbol; not for Green/Inexperienced pilots or a gunner flying (§8.37)."""
    MEDAL = "medal"
    """§8.14: Maneuver Rating always 4, whatever the Performance Rating; never played
    by a Green pilot (§14.23)."""
    SNAP_TURN = "snap_turn"
    """§8.43: an Agility maneuver that may also Respond to a Speed maneuver."""
    BARREL_ROLL = "barrel_roll"
    """§8.43: a Speed maneuver that may also Respond to an Agility maneuver."""

    @classmethod
    def from_code(cls, code: str) -> CardSpecial:
        return _from_code(cls, code)


class AceAbility(StrEnum):
    """A Famous Ace's special ability (§18.0, L1269-1360). Whether it is lost when the
    Ace is wounded is :attr:`FlightLeader.asterisked`."""

    TAILING_FIRE_PLUS_2 = "tailing_fire_plus_2"
    """Adds 2 to his Fire Value on Tailing Attacks (Richthofen, Fonck, Collishaw)."""
    NO_RESPONSE_UNENGAGED = "no_response_unengaged"
    """His Targeted Activation against an Unengaged aircraft flown by a non-Ace: no
    Response, no Gunner Attack in that Activation (Richthofen)."""
    SNAP_TURN_ANY = "snap_turn_any"
    """Once per turn, any card played as though it were a Snap Turn (Voss)."""
    CREW_TO_ENGINE = "crew_to_engine"
    """Any Crew hit he inflicts becomes an Engine hit (Udet)."""
    MEDAL_ANY = "medal_any"
    """Once per Engagement, any card played as if it were a Medal Maneuver (Udet)."""
    NO_WEAK_WINGS_DIVE = "no_weak_wings_dive"
    """No Weak Wings check when playing a Dive maneuver (Loerzer)."""
    NO_FALLING_LEAF_CHECK = "no_falling_leaf_check"
    """No check for additional altitude loss after a Falling Leaf (Loerzer)."""
    IGNORES_PERFORMANCE_CAP = "ignores_performance_cap"
    """§8.14 does not apply to his aircraft (Loerzer)."""
    CONVERT_HIT = "convert_hit"
    """A Wing, Engine, Control or Crew hit from his Tailing Attack may become any one of
    those four (Fonck)."""
    GUN_JAM_REDRAW = "gun_jam_redraw"
    """A Guns Jammed drawn when he fires is redrawn; only a second one jams (Fonck,
    McCudden)."""
    AGILITY_PLUS_2 = "agility_plus_2"
    """His aircraft's Agility +2 (Guynemer)."""
    RESPONSE_MR_PLUS_1 = "response_mr_plus_1"
    """+1 Maneuver Rating on every card he plays as a Response; §8.14 still applies
    (Collishaw)."""
    SPEED_PLUS_1 = "speed_plus_1"
    """His aircraft's Speed +1 (McCudden)."""
    HIGH_ALTITUDE_ENGINE = "high_altitude_engine"
    """His aircraft always has a High Altitude Engine (McCudden)."""
    MR_PLUS_1 = "mr_plus_1"
    """Once per turn, +1 Maneuver Rating on a card played as an Activation or a
    Response; §8.14 still applies (Rickenbacker)."""
    BALLOON_FIRE_PLUS_2 = "balloon_fire_plus_2"
    """+2 Fire Value when attacking a balloon, added after the anti-aircraft guns' FV
    is worked out (Luke)."""

    @classmethod
    def from_code(cls, code: str) -> AceAbility:
        return _from_code(cls, code)


class Weather(StrEnum):
    """A Weather condition (Campaign §6; optional in an Engagement, §3.8). The effects
    are :class:`WeatherEffect`; the names are those the Campaign rules use."""

    CLEAR = "clear"
    CLOUDY = "cloudy"
    FOG = "fog"
    RAIN = "rain"
    SNOW = "snow"
    EXTREME_COLD = "extreme_cold"
    ICE_STORM = "ice_storm"
    STRONG_PREVAILING_WINDS = "strong_prevailing_winds"
    CONTRARY_WINDS = "contrary_winds"
    STRONG_CONTRARY_WINDS = "strong_contrary_winds"

    @classmethod
    def from_code(cls, code: str) -> Weather:
        return _from_code(cls, code)


class ScenarioRule(StrEnum):
    """A special rule of a historical scenario (§17.0)."""

    SOLITAIRE = "solitaire"
    """One player plays the Allies; the other side is run by the rules (Scenario 1)."""
    NO_RANDOM_EVENTS = "no_random_events"
    """Omit the Random Events phase of every turn."""
    NO_INITIATIVE_PHASE = "no_initiative_phase"
    """Omit the Initiative phase: :attr:`Scenario.initiative` always has it."""
    DAMAGE_CARRIES_OVER = "damage_carries_over"
    """Between consecutive engagements, damage and broken guns stay; jams are cleared."""
    NO_MISSION_VP = "no_mission_vp"
    """The mission player scores no Engagement VP for the mission (Scenario 7)."""
    ENDS_WHEN_TARGET_DOWN = "ends_when_target_down"
    """An engagement ends as soon as the enemy's balloon or aircraft is shot down."""
    ENDS_WHEN_BALLOON_GROUNDED = "ends_when_balloon_grounded"
    """An engagement ends when the balloon is lowered below Treetop."""

    @classmethod
    def from_code(cls, code: str) -> ScenarioRule:
        return _from_code(cls, code)


class VictoryKind(StrEnum):
    """How a scenario is won (§17.0)."""

    STANDARD = "standard"
    """Victory and Glory Points (§3.12, §16.2-16.3)."""
    SHOOT_DOWN_ACE = "shoot_down_ace"
    """:attr:`Scenario.victory_side` wins iff :attr:`Scenario.victory_ace` (an enemy)
    is shot down; otherwise the other side wins (Scenario 2)."""
    SWEEP = "sweep"
    """:attr:`Scenario.victory_side` wins iff it shoots down the enemy target of every
    engagement and its own :attr:`Scenario.victory_ace` is not shot down; the
    scenario ends at the first failure (Scenarios 1 and 7)."""

    @classmethod
    def from_code(cls, code: str) -> VictoryKind:
        return _from_code(cls, code)


# --- small values ----------------------------------------------------------------------


class YearMonth(NamedTuple):
    """A month of the war, ordered: ``YearMonth(1917, 7) < YearMonth(1918, 1)``.
    YAML writes it ``1917-07``; ``str()`` gives that text back."""

    year: int
    month: int

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @classmethod
    def from_text(cls, text: str) -> YearMonth:
        """``"1917-07"`` -> ``YearMonth(1917, 7)``."""
        match = re.fullmatch(r"\s*(\d{4})-(\d{1,2})\s*", text)
        if not match:
            raise ValueError(f"{text!r} is not a year-month like 1917-07")
        return cls.checked(int(match[1]), int(match[2]))

    @classmethod
    def checked(cls, year: int, month: int) -> YearMonth:
        """A YearMonth within the war's air war (1914-1918), month 1-12."""
        if not 1 <= month <= 12:
            raise ValueError(f"month {month} is not 1-12")
        if not 1914 <= year <= 1918:
            raise ValueError(f"year {year} is outside 1914-1918")
        return cls(year, month)


def _year_month(value: Any) -> Any:
    if isinstance(value, str):
        return YearMonth.from_text(value)
    if isinstance(value, list | tuple) and len(value) == 2:
        return YearMonth.checked(int(value[0]), int(value[1]))
    return value


YM = Annotated[YearMonth, BeforeValidator(_year_month)]
"""A :class:`YearMonth` field that reads ``1917-07`` or ``[1917, 7]``."""


def _range(value: Any) -> Any:
    """``[1, 10]`` or ``7`` (one number) -> ``(1, 10)`` / ``(7, 7)``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    return value


Span = Annotated[tuple[int, int], BeforeValidator(_range)]
"""An inclusive range of numbers: YAML ``[1, 10]``, or one number."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- cards -----------------------------------------------------------------------------


class DamageTable(_Frozen):
    """A card's damage table (§10.22): a row per target Defensive Class, each
    ``(1-Gun result, 2-Guns result)``. YAML: ``normal: [superficial, structure]``."""

    fragile: tuple[DamageKind, DamageKind]
    normal: tuple[DamageKind, DamageKind]
    sturdy: tuple[DamageKind, DamageKind]
    armored: tuple[DamageKind, DamageKind]

    @field_validator("fragile", "normal", "sturdy", "armored", mode="before")
    @classmethod
    def _codes(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(DamageKind.from_code(v) if isinstance(v, str) else v for v in value)
        return value

    def row(self, defence: DefenceClass) -> tuple[DamageKind, DamageKind]:
        """The (1-Gun, 2-Guns) results against ``defence``."""
        return (self.fragile, self.normal, self.sturdy, self.armored)[defence]

    def result(self, guns: int, defence: DefenceClass) -> DamageKind:
        """The result for ``guns`` (1, or 2 and more: the "2-Guns" column) firing at
        ``defence``."""
        if guns < 1:
            raise ValueError("no gun fired: there is no damage column for 0 guns")
        return self.row(defence)[0 if guns == 1 else 1]


class Card(_Frozen):
    """One of the 110 Maneuver cards (§2.2): the Maneuver section (name, symbols,
    Maneuver Rating, number, special rule) and the Fire section (a Fire Value with a
    damage table, or "Guns Jammed")."""

    number: int = Field(ge=1, le=DECK_SIZE, description="card number, 1-110, unique")
    name: str = Field(min_length=1, description="the Maneuver's name, e.g. 'Zoom Climb'")
    symbols: tuple[Annotated[Symbol, _coerce(Symbol)], ...] = Field(
        min_length=1, description="Performance symbols; usable with any one of them"
    )
    rating: int = Field(ge=1, le=4, description="the Maneuver Rating (MR)")
    special: Annotated[CardSpecial, _coerce(CardSpecial)] | None = Field(
        default=None, description="the card's special rule, if any"
    )
    fire: int | None = Field(ge=1, le=6, description="Fire Value; None = 'Guns Jammed'")
    damage: DamageTable | None = Field(description="damage table; None for Guns Jammed")

    @property
    def jammed(self) -> bool:
        """A "Guns Jammed" card (§10.71): no Fire Value, no damage table."""
        return self.fire is None

    def has(self, symbol: Symbol) -> bool:
        """Whether the card shows ``symbol``."""
        return symbol in self.symbols

    def responds_to(self, symbol: Symbol) -> bool:
        """Whether this card may Respond to an Activation made with ``symbol``: the same
        symbol, or a Snap Turn against Speed, a Barrel Roll against Agility (§8.43).
        A Falling Leaf is never a Response to anything of its own (§8.31) but may be
        played as one by symbol; the rules module decides who may respond at all."""
        if symbol in self.symbols:
            return True
        if self.special is CardSpecial.SNAP_TURN and symbol is Symbol.SPEED:
            return True
        return self.special is CardSpecial.BARREL_ROLL and symbol is Symbol.AGILITY

    def damage_for(self, guns: int, defence: DefenceClass) -> DamageKind:
        """The damage-table result for ``guns`` firing at ``defence`` (§10.22). Raises
        ValueError on a Guns Jammed card."""
        if self.damage is None:
            raise ValueError(f"card {self.number} ({self.name}) is Guns Jammed: no damage table")
        return self.damage.result(guns, defence)

    def hits(self, fire_value: int) -> bool:
        """Whether fire at ``fire_value`` hits with this card: its printed FV is less
        than or equal to it (§10.21). A Guns Jammed card never hits."""
        return self.fire is not None and self.fire <= fire_value

    @model_validator(mode="after")
    def _consistent(self) -> Card:
        if len(set(self.symbols)) != len(self.symbols):
            raise ValueError("symbols: list each symbol once")
        if (self.fire is None) != (self.damage is None):
            raise ValueError("a card has both a Fire Value and a damage table, or neither")
        needs = {
            CardSpecial.FALLING_LEAF: Symbol.DIVE,
            CardSpecial.SNAP_TURN: Symbol.AGILITY,
            CardSpecial.BARREL_ROLL: Symbol.SPEED,
        }
        if self.special in needs and needs[self.special] not in self.symbols:
            raise ValueError(f"a {self.special.value} card shows the {needs[self.special]} symbol")
        if self.special is CardSpecial.MEDAL and self.rating != 4:
            raise ValueError("a Medal Maneuver always has Maneuver Rating 4 (§8.14)")
        return self


class BookCard(NamedTuple):
    """What the rulebook states about a named card: it shows at least ``symbols``
    (exactly them if ``exact``), has Maneuver Rating ``rating`` (None: not stated)
    and the special rule ``special``."""

    symbols: frozenset[Symbol]
    exact: bool
    rating: int | None
    special: CardSpecial | None
    source: str


BOOK_CARDS: Mapping[str, BookCard] = {
    "Zoom Climb": BookCard(frozenset({Symbol.CLIMB}), True, 3, None, "L323, L694"),
    "Half Loop": BookCard(frozenset({Symbol.CLIMB, Symbol.DIVE}), True, 3, None, "L350"),
    "Steep Dive": BookCard(frozenset({Symbol.DIVE}), True, 2, None, "L350"),
    "Medal Maneuver": BookCard(
        frozenset({Symbol.DIVE, Symbol.SPEED}), False, 4, CardSpecial.MEDAL, "L321, L350, L429"
    ),
    "Shallow Dive": BookCard(frozenset({Symbol.SPEED}), True, 2, None, "L383, L429"),
    "Snap Turn": BookCard(frozenset({Symbol.AGILITY}), True, 3, CardSpecial.SNAP_TURN, "L380"),
    "Barrel Roll": BookCard(frozenset({Symbol.SPEED}), True, None, CardSpecial.BARREL_ROLL, "L381"),
    "Full Throttle": BookCard(frozenset({Symbol.SPEED}), True, 1, None, "L429"),
    "Tight Turn": BookCard(frozenset({Symbol.AGILITY}), True, 2, None, "L431"),
    "Vertical Roll": BookCard(frozenset({Symbol.CLIMB}), False, 2, None, "L692"),
    "Falling Leaf": BookCard(
        frozenset({Symbol.DIVE}), False, None, CardSpecial.FALLING_LEAF, "§8.3, §11.31"
    ),
}
"""Every card value the rulebook states (``data/eagles/SOURCES.md`` section 1.1)."""


class Deck(_Frozen):
    """The 110 Maneuver cards (§2.0, §2.2), numbered 1-110."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    cards: tuple[Card, ...]

    @property
    def by_number(self) -> dict[int, Card]:
        """Cards keyed by number."""
        return {card.number: card for card in self.cards}

    def card(self, number: int) -> Card:
        """The card numbered ``number``; KeyError if there is none."""
        for card in self.cards:
            if card.number == number:
                return card
        raise KeyError(number)

    @property
    def names(self) -> frozenset[str]:
        """Every card name in the deck."""
        return frozenset(card.name for card in self.cards)

    @property
    def jams(self) -> tuple[Card, ...]:
        """The Guns Jammed cards."""
        return tuple(card for card in self.cards if card.jammed)

    def numbers(self) -> list[int]:
        """Every card number in file order (shuffle before use)."""
        return [card.number for card in self.cards]

    @model_validator(mode="after")
    def _consistent(self) -> Deck:
        numbers = [card.number for card in self.cards]
        duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
        if duplicates:
            raise ValueError(f"card numbers used twice: {duplicates}")
        missing = sorted(set(range(1, DECK_SIZE + 1)) - set(numbers))
        if missing or len(numbers) != DECK_SIZE:
            raise ValueError(f"the deck is cards 1-{DECK_SIZE}; missing {missing}")
        problems: list[str] = []
        for name, book in BOOK_CARDS.items():
            named = [card for card in self.cards if card.name == name]
            if not named:
                problems.append(f"no {name!r} card (the rulebook names it, {book.source})")
            for card in named:
                symbols = set(card.symbols)
                if (book.exact and symbols != book.symbols) or not book.symbols <= symbols:
                    shown = "/".join(sorted(book.symbols))
                    problems.append(
                        f"card {card.number} {name}: the book gives {shown} ({book.source})"
                    )
                if book.rating is not None and card.rating != book.rating:
                    problems.append(
                        f"card {card.number} {name}: Maneuver Rating {card.rating}, "
                        f"the book gives {book.rating} ({book.source})"
                    )
                if card.special is not book.special:
                    problems.append(f"card {card.number} {name}: special must be {book.special}")
        for card in self.cards:
            if card.special is not None and card.name not in BOOK_CARDS:
                problems.append(
                    f"card {card.number} {card.name}: only the book's named cards have {card.special}"
                )
        if not any(c.has(Symbol.SPEED) and c.rating >= 3 for c in self.cards):
            problems.append("no Speed card with Maneuver Rating 3 or 4 (the book has some, L842)")
        if problems:
            raise ValueError("; ".join(problems))
        return self


# --- aircraft --------------------------------------------------------------------------


class Aircraft(_Frozen):
    """An aircraft counter type (§2.13) with its line of the Aircraft Availability
    Chart (in-service dates and point value, §3.51, L96, L181)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="slug, e.g. 'spad-xiii'")
    name: str = Field(min_length=1, description="as the rulebook writes it, e.g. 'SPAD XIII'")
    side: Annotated[Side, _coerce(Side)]
    type: Annotated[AircraftType, _coerce(AircraftType)]
    climb: int = Field(ge=0, le=9)
    dive: int = Field(ge=0, le=9)
    speed: int = Field(ge=0, le=9)
    agility: int = Field(ge=0, le=9)
    defence: Annotated[DefenceClass, _coerce(DefenceClass)]
    guns_forward: int = Field(ge=0, le=2, description="forward-firing machine guns")
    guns_rear: int = Field(default=0, ge=0, le=2, description="guns of the rear gunner")
    lewis: bool = Field(default=False, description="an 'L': a wing-mounted Lewis gun (§15.4)")
    bombs: int = Field(default=0, ge=0, le=4, description="points of bombs it can carry")
    light_bombs: bool = Field(default=False, description="red bomb symbol: a very light load")
    characteristics: frozenset[Annotated[Characteristic, _coerce(Characteristic)]] = frozenset()
    crew: int = Field(default=1, ge=1, le=3, description="crewmen (pilot and gunners)")
    structure_hits_to_destroy: int = Field(
        default=3, ge=3, le=4, description="Structure hits that shoot it down (§10.83, §13.74)"
    )
    le_prieur: bool = Field(default=False, description="may carry Le Prieur rockets (§15.51)")
    in_service_from: YM = Field(description="first month on the Availability Chart")
    in_service_to: YM = Field(description="last month on the Availability Chart")
    points: int = Field(ge=1, le=30, description="point value for selection method 3 (§3.51)")
    cup: bool = Field(description="in the random cup (§3.52): Scouts except German CL")
    printed: frozenset[str] = Field(
        default=frozenset(), description="fields whose value the rulebook prints"
    )

    @property
    def front_gunner(self) -> bool:
        """An F aircraft: its gunner makes its Tailing and Head-on attacks (§13.3)."""
        return Characteristic.FRONT_GUNNER in self.characteristics

    @property
    def rear_gunner(self) -> bool:
        """Has a rear gunner, who may make Gunner Attacks (§10.5)."""
        return self.guns_rear > 0

    @property
    def scout(self) -> bool:
        return self.type is AircraftType.SCOUT

    @property
    def fixed_guns(self) -> int:
        """Forward guns counted for the damage column, the Lewis gun included while it
        has ammunition (§15.41): 1 or 2 (0: no forward gun)."""
        return min(2, self.guns_forward + (1 if self.lewis else 0))

    @property
    def guns_text(self) -> str:
        """The counter's gun number: ``"2"``, ``"1L"``, ``"1-2"``."""
        forward = f"{self.guns_forward or ''}{'L' if self.lewis else ''}" or "0"
        return f"{forward}-{self.guns_rear}" if self.guns_rear else forward

    def has(self, characteristic: Characteristic) -> bool:
        return characteristic in self.characteristics

    def available(self, when: YearMonth) -> bool:
        """In service in the month ``when`` (the Availability Chart)."""
        return self.in_service_from <= when <= self.in_service_to

    def rating(self, symbol: Symbol) -> int:
        """The printed Performance Rating for ``symbol``."""
        return int(getattr(self, symbol.value))

    @field_validator("printed")
    @classmethod
    def _known_fields(cls, names: frozenset[str]) -> frozenset[str]:
        unknown = sorted(names - (set(cls.model_fields) - {"printed"}))
        if unknown:
            raise ValueError(f"not Aircraft fields: {', '.join(unknown)}")
        return names

    @model_validator(mode="after")
    def _consistent(self) -> Aircraft:
        if self.in_service_to < self.in_service_from:
            raise ValueError(f"in service to {self.in_service_to} is before {self.in_service_from}")
        if self.fixed_guns == 0 and self.guns_rear == 0:
            raise ValueError("an aircraft carries at least one gun")
        gunners = (1 if self.rear_gunner else 0) + (1 if self.front_gunner else 0)
        if self.crew < 1 + gunners:
            raise ValueError(f"crew {self.crew} is too few for the pilot and {gunners} gunner(s)")
        if self.has(Characteristic.DUAL_CONTROLS) and self.crew < 2:
            raise ValueError("Dual Controls need a gunner to fly on (§13.2)")
        if self.light_bombs and not self.bombs:
            raise ValueError("light_bombs (a red bomb symbol) needs bombs")
        if self.le_prieur and (self.side is not Side.ALLIED or not self.scout):
            raise ValueError("only Allied Scouts carry Le Prieur rockets (§15.51)")
        if self.cup and not self.scout:
            raise ValueError("only Scouts go in the cup (§3.52)")
        return self


# --- pilots ----------------------------------------------------------------------------


class AceMount(_Frozen):
    """An Ace's aircraft for a span of months (§18.0: "[July 1917: Albatros DV, ...]")."""

    first: YM
    last: YM
    aircraft: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="an Aircraft id")

    def covers(self, when: YearMonth) -> bool:
        return self.first <= when <= self.last

    @model_validator(mode="after")
    def _ordered(self) -> AceMount:
        if self.last < self.first:
            raise ValueError(f"{self.last} is before {self.first}")
        return self


class FlightLeader(_Frozen):
    """A Flight Leader counter (§14.5) or a Famous Ace (§14.6, §18.0)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, description="as on the counter, e.g. 'Taylor'")
    side: Annotated[Side, _coerce(Side)]
    leadership: int = Field(ge=0, le=5, description="Leadership Rating (§7.11)")
    flying: int = Field(ge=0, le=5, description="Flying Rating (§7.11, §10.88)")
    ace: bool = Field(default=False, description="a Famous Ace of §18.0")
    glory: int | None = Field(
        default=None,
        ge=0,
        le=10,
        description="Glory Points for shooting him down: an Ace's (§18.0), or a Flight "
        "Leader's on his '+1 Ace' side (Campaign §9.31)",
    )
    abilities: tuple[Annotated[AceAbility, _coerce(AceAbility)], ...] = Field(
        default=(), description="an Ace's special abilities, in the book's order"
    )
    asterisked: frozenset[Annotated[AceAbility, _coerce(AceAbility)]] = Field(
        default=frozenset(), description="abilities lost when he is wounded ('*', L1271)"
    )
    aircraft_by_date: tuple[AceMount, ...] = Field(
        default=(), description="an Ace's aircraft by date (§18.0)"
    )
    represents: str | None = Field(
        default=None, description="the historical pilot a counter stands for (Taylor: Brown)"
    )
    printed: frozenset[str] = Field(default=frozenset(), description="fields the book prints")

    @property
    def quality(self) -> PilotQuality:
        return PilotQuality.ACE if self.ace else PilotQuality.LEADER

    def aircraft_on(self, when: YearMonth) -> str | None:
        """The Ace's aircraft id in the month ``when``; None outside his dates (and
        for a Flight Leader, who flies whatever his flight flies)."""
        for mount in self.aircraft_by_date:
            if mount.covers(when):
                return mount.aircraft
        return None

    def available(self, when: YearMonth) -> bool:
        """A Flight Leader always; an Ace in the months §18.0 lists."""
        return not self.ace or self.aircraft_on(when) is not None

    def loses_when_wounded(self, ability: AceAbility) -> bool:
        return ability in self.asterisked

    @field_validator("printed")
    @classmethod
    def _known_fields(cls, names: frozenset[str]) -> frozenset[str]:
        unknown = sorted(names - (set(cls.model_fields) - {"printed"}))
        if unknown:
            raise ValueError(f"not FlightLeader fields: {', '.join(unknown)}")
        return names

    @model_validator(mode="after")
    def _consistent(self) -> FlightLeader:
        if self.ace:
            if self.glory is None or not self.abilities or not self.aircraft_by_date:
                raise ValueError("an Ace has glory, abilities and aircraft_by_date (§18.0)")
        elif self.abilities or self.aircraft_by_date:
            raise ValueError("only Aces have abilities and aircraft_by_date")
        if len(set(self.abilities)) != len(self.abilities):
            raise ValueError("abilities: list each once")
        extra = sorted(self.asterisked - set(self.abilities))
        if extra:
            raise ValueError(f"asterisked abilities he does not have: {', '.join(extra)}")
        mounts = self.aircraft_by_date
        for before, after in itertools.pairwise(mounts):
            if after.first <= before.last:
                raise ValueError(f"aircraft_by_date overlap or are out of order at {after.first}")
        return self


# --- tables ----------------------------------------------------------------------------


class _Band(_Frozen):
    """A row of a card-number table: the inclusive card numbers it covers."""

    cards: Span

    @field_validator("cards")
    @classmethod
    def _ordered(cls, value: tuple[int, int]) -> tuple[int, int]:
        low, high = value
        if not 1 <= low <= high <= DECK_SIZE:
            raise ValueError(f"{list(value)} is not a range within 1-{DECK_SIZE}")
        return value

    def covers(self, number: int) -> bool:
        return self.cards[0] <= number <= self.cards[1]


class RandomEventRow(_Band):
    """A row of the Random Events Table (§5.0): an event per Zone column."""

    allied_rear: Annotated[RandomEvent, _coerce(RandomEvent)]
    allied_front: Annotated[RandomEvent, _coerce(RandomEvent)]
    no_mans_land: Annotated[RandomEvent, _coerce(RandomEvent)]
    german_front: Annotated[RandomEvent, _coerce(RandomEvent)]
    german_rear: Annotated[RandomEvent, _coerce(RandomEvent)]

    def event(self, zone: Zone) -> RandomEvent:
        return RandomEvent(getattr(self, zone.value))


class EventResolution(_Frozen):
    """The instructions below the Random Events Table (L257): the second card's Fire
    Value decides which side an aircraft is added for or removed from, and where
    Clouds form. A Guns Jammed second card is drawn again."""

    add_allied: Span = Field(description="FVs that add the aircraft to the Allies")
    remove_allied: Span = Field(description="FVs that remove an Allied aircraft")
    clouds: tuple[tuple[Span, Annotated[Altitude, _coerce(Altitude)]], ...] = Field(
        description="FV ranges -> the Clouds altitude"
    )

    def add_side(self, fire: int) -> Side:
        return Side.ALLIED if self.add_allied[0] <= fire <= self.add_allied[1] else Side.GERMAN

    def remove_side(self, fire: int) -> Side:
        return (
            Side.ALLIED if self.remove_allied[0] <= fire <= self.remove_allied[1] else Side.GERMAN
        )

    def cloud_altitude(self, fire: int) -> Altitude:
        for (low, high), altitude in self.clouds:
            if low <= fire <= high:
                return altitude
        raise ValueError(f"fire value {fire} is not in the Clouds instructions")

    @model_validator(mode="after")
    def _covers(self) -> EventResolution:
        _check_spans([span for span, _ in self.clouds], 1, 6, "clouds")
        for span in (self.add_allied, self.remove_allied):
            if not 1 <= span[0] <= span[1] <= 6:
                raise ValueError(f"{list(span)} is not a Fire Value range within 1-6")
        return self


class EngagementRow(_Band):
    """A row of Table E2 (§3.31): the Engagement type, and the attacker (the mission
    player, §16.13; None for a Patrol, which has no mission)."""

    type: Annotated[EngagementType, _coerce(EngagementType)]
    attacker: Annotated[Side, _coerce(Side)] | None = None


class ZoneRow(_Band):
    """A row of Table E5 (§3.41)."""

    zone: Annotated[Zone, _coerce(Zone)]


class AltitudeRow(_Band):
    """A row of Table E6 (§3.7)."""

    altitude: Annotated[Altitude, _coerce(Altitude)]


class WeatherColumn(_Frozen):
    """A month column of the Weather Table (Campaign §6.12)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    months: frozenset[int] = Field(min_length=1)

    @field_validator("months")
    @classmethod
    def _months(cls, value: frozenset[int]) -> frozenset[int]:
        if not value <= set(range(1, 13)):
            raise ValueError("months are 1-12")
        return value


class WeatherRow(_Band):
    """A row of the Weather Table: a condition per month column, in column order."""

    weather: tuple[Annotated[Weather, _coerce(Weather)], ...] = Field(min_length=1)


class WeatherEffect(_Frozen):
    """What a Weather condition does ("listed below the Weather Table", Campaign
    §6.21). Only ``clouds``, ``on_fire_bonus`` and ``grounded`` act in a single
    Engagement; the rest are Campaign effects."""

    weather: Annotated[Weather, _coerce(Weather)]
    grounded: bool = Field(default=False, description="no missions fly this phase")
    clouds: Annotated[Altitude, _coerce(Altitude)] | None = Field(
        default=None, description="a Clouds marker starts at this altitude (§5.1)"
    )
    on_fire_bonus: int = Field(
        default=0, ge=0, le=3, description="any pilot at Low/Treetop may put out a fire (§10.88)"
    )
    patrol_only: bool = Field(default=False, description="non-Patrol missions become Patrols")
    fatigue: int = Field(default=0, ge=0, le=2, description="extra Fatigue Points (Campaign §8.1)")
    fatigue_low_only: bool = Field(
        default=False, description="the extra fatigue only for missions starting Low/Treetop"
    )
    safe_return_allied: int = Field(default=0, ge=-10, le=10)
    safe_return_german: int = Field(default=0, ge=-10, le=10)
    next_phase: Annotated[Weather, _coerce(Weather)] | None = Field(
        default=None, description="the weather it causes in the next phase (Campaign §6.13)"
    )


class FlightSizeRow(_Frozen):
    """The flight-size draw (§3.53, L185): Fire Values -> Scouts. A Guns Jammed card
    is drawn again."""

    fire: Span
    scouts: int = Field(ge=1, le=6)


class RearGunnerRow(_Frozen):
    """Rear Gunner Fire Value (§10.53): the Tailing aircraft's Position Level -> FV."""

    level: Span
    fire: int = Field(ge=1, le=6)


class SustainedClimbRow(_Frozen):
    """Sustained Rate of Climb (§11.42): current Climb Rating -> rate."""

    climb: Span
    rate: int = Field(ge=0, le=3)


class MissionAircraft(_Frozen):
    """The mission aircraft one side brings as attacker in an Engagement type (§16.4)."""

    choices: tuple[str, ...] = Field(min_length=1, description="Aircraft ids to choose from")
    count: int = Field(ge=1, le=3, description="how many")
    optional: bool = Field(default=False, description="'may elect to include'")
    same_type: bool = Field(default=False, description="all of one type (Bombing)")
    bombs: bool = Field(default=False, description="they start carrying bombs")
    may_carry_bombs: bool = Field(default=False, description="the attacker may load bombs")


class EngagementSpec(_Frozen):
    """An Engagement type's zone, altitude, mission aircraft and Engagement VP (§16.4)."""

    type: Annotated[EngagementType, _coerce(EngagementType)]
    zones: tuple[Annotated[ZoneChoice, _coerce(ZoneChoice)], ...] = Field(min_length=1)
    altitudes: tuple[Annotated[Altitude, _coerce(Altitude)], ...] = Field(
        default=(), description="allowed start altitudes; () = draw on Table E-6"
    )
    allied: MissionAircraft | None = Field(default=None, description="if the Allies attack")
    german: MissionAircraft | None = Field(default=None, description="if the Germans attack")
    defender_balloon: bool = Field(default=False, description="the defender gets a balloon")
    target_defence: Annotated[DefenceClass, _coerce(DefenceClass)] | None = Field(
        default=None, description="the ground target's class (trenches, airfield)"
    )
    vp: int = Field(ge=0, description="the Engagement VP per scoring event (§16.4x)")
    bomb_vp: int = Field(default=0, ge=0, description="VP per bomb point dropped")

    def mission(self, attacker: Side) -> MissionAircraft | None:
        return self.allied if attacker is Side.ALLIED else self.german


class Tables(_Frozen):
    """The set-up and event tables: Random Events (§5), Tables E2/E5/E6 (§3.3-3.7),
    Weather (§3.8, Campaign §6), the flight-size draw (§3.53), the Rear Gunner Fire
    Value (§10.53), the Sustained Rate of Climb (§11.42) and the Engagement types
    (§16.4). Every card-number table covers 1-110 once."""

    random_events: tuple[RandomEventRow, ...] = Field(min_length=1)
    event_resolution: EventResolution
    engagement_types: tuple[EngagementRow, ...] = Field(min_length=1)
    zones: tuple[ZoneRow, ...] = Field(min_length=1)
    altitudes: tuple[AltitudeRow, ...] = Field(min_length=1)
    weather_columns: tuple[WeatherColumn, ...] = Field(min_length=1)
    weather: tuple[WeatherRow, ...] = Field(min_length=1)
    weather_effects: tuple[WeatherEffect, ...] = Field(min_length=1)
    flight_size: tuple[FlightSizeRow, ...] = Field(min_length=1)
    rear_gunner_fire: tuple[RearGunnerRow, ...] = Field(min_length=1)
    sustained_climb: tuple[SustainedClimbRow, ...] = Field(min_length=1)
    engagements: tuple[EngagementSpec, ...] = Field(min_length=1)

    def random_event(self, number: int, zone: Zone) -> RandomEvent:
        """The Random Events Table result for card ``number`` in ``zone``."""
        return _find(self.random_events, number).event(zone)

    def engagement_type(self, number: int) -> EngagementRow:
        """Table E2's row for card ``number``."""
        return _find(self.engagement_types, number)

    def zone(self, number: int) -> Zone:
        """Table E5's zone for card ``number``."""
        return _find(self.zones, number).zone

    def altitude(self, number: int) -> Altitude:
        """Table E6's altitude for card ``number``."""
        return _find(self.altitudes, number).altitude

    def weather_column(self, month: int) -> int:
        """The index of the Weather Table column used in ``month``."""
        for index, column in enumerate(self.weather_columns):
            if month in column.months:
                return index
        raise ValueError(f"no weather column for month {month}")

    def weather_for(self, number: int, month: int) -> Weather:
        """The Weather Table result for card ``number`` in ``month``."""
        return _find(self.weather, number).weather[self.weather_column(month)]

    def weather_effect(self, weather: Weather) -> WeatherEffect:
        for effect in self.weather_effects:
            if effect.weather is weather:
                return effect
        raise KeyError(weather)

    def scouts_for(self, fire: int) -> int:
        """Scouts a flight-size draw of Fire Value ``fire`` gives (§3.53)."""
        for row in self.flight_size:
            if row.fire[0] <= fire <= row.fire[1]:
                return row.scouts
        raise ValueError(f"fire value {fire} is not in the flight-size draw")

    def rear_gunner(self, level: int) -> int:
        """The Rear Gunner's Fire Value against a Tailing aircraft at Position Level
        ``level`` (§10.53)."""
        for row in self.rear_gunner_fire:
            if row.level[0] <= level <= row.level[1]:
                return row.fire
        raise ValueError(f"position level {level} is not 1-6")

    def climb_rate(self, climb: int) -> int:
        """The Sustained Rate of Climb of a current Climb Rating (§11.42); ratings
        below 0 count as 0 (§10.81), above the table as its top row (G-E11)."""
        climb = max(0, min(climb, self.sustained_climb[-1].climb[1]))
        for row in self.sustained_climb:
            if row.climb[0] <= climb <= row.climb[1]:
                return row.rate
        raise ValueError(f"climb rating {climb} is not in the table")

    def engagement(self, type_: EngagementType) -> EngagementSpec:
        for spec in self.engagements:
            if spec.type is type_:
                return spec
        raise KeyError(type_)

    @model_validator(mode="after")
    def _covers(self) -> Tables:
        for name in ("random_events", "engagement_types", "zones", "altitudes", "weather"):
            rows: tuple[_Band, ...] = getattr(self, name)
            _check_spans([row.cards for row in rows], 1, DECK_SIZE, name)
        _check_spans([row.fire for row in self.flight_size], 1, 6, "flight_size")
        _check_spans([row.level for row in self.rear_gunner_fire], 1, 6, "rear_gunner_fire")
        _check_spans([row.climb for row in self.sustained_climb], 0, 9, "sustained_climb")
        months = [m for column in self.weather_columns for m in column.months]
        if sorted(months) != list(range(1, 13)):
            raise ValueError("weather_columns: every month 1-12 in exactly one column")
        for index, row in enumerate(self.weather):
            if len(row.weather) != len(self.weather_columns):
                raise ValueError(
                    f"weather[{index}]: {len(row.weather)} conditions for "
                    f"{len(self.weather_columns)} columns"
                )
        effects = [effect.weather for effect in self.weather_effects]
        if sorted(effects) != sorted(set(effects)) or set(effects) != set(Weather):
            raise ValueError("weather_effects: one entry for every Weather condition")
        types = [spec.type for spec in self.engagements]
        if sorted(types) != sorted(set(types)) or set(types) != set(EngagementType):
            raise ValueError("engagements: one entry for every Engagement type")
        return self


_B = TypeVar("_B", bound=_Band)


def _find(rows: Iterable[_B], number: int) -> _B:
    for row in rows:
        if row.covers(number):
            return row
    raise ValueError(f"card number {number} is not in the table (1-{DECK_SIZE})")


def _check_spans(spans: list[tuple[int, int]], low: int, high: int, name: str) -> None:
    """``spans``, in order, cover ``low``..``high`` with no gap and no overlap."""
    expected = low
    for index, (first, last) in enumerate(spans):
        if first != expected:
            what = (
                "overlaps the row before"
                if first < expected
                else f"leaves {expected}-{first - 1} uncovered"
            )
            raise ValueError(f"{name}[{index}]: starts at {first}: {what}")
        if last < first:
            raise ValueError(f"{name}[{index}]: {first}-{last} is empty")
        expected = last + 1
    if expected != high + 1:
        raise ValueError(f"{name}: covers {low}-{expected - 1}, not {low}-{high}")


# --- scenarios -------------------------------------------------------------------------


class ForceAircraft(_Frozen):
    """Aircraft of one type in a scenario's forces: ``(6) SPAD XIII``."""

    aircraft: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="an Aircraft id")
    count: int = Field(ge=1, le=6)
    bombs: bool = Field(default=False, description="carrying bombs (Scenario 8)")
    incendiary: bool = Field(default=False, description="Incendiary Ammunition (§15.6)")


class Force(_Frozen):
    """One side's forces in a historical scenario (§17.0), as printed."""

    aircraft: tuple[ForceAircraft, ...] = Field(default=(), description="its aircraft")
    drawn_from_cup: tuple[str, ...] = Field(
        default=(), description="one of these aircraft drawn per engagement (Scenario 7)"
    )
    pilots: Mapping[Annotated[PilotQuality, _coerce(PilotQuality)], int] = Field(
        default_factory=dict, description="pilot counters besides the leader: quality -> count"
    )
    leader: str | None = Field(default=None, description="a FlightLeader id (leader or Ace)")
    leader_ace_side: bool = Field(
        default=False, description="the Flight Leader flies on his '+1 Ace' side"
    )
    balloons: int = Field(default=0, ge=0, le=1, description="balloons per engagement")

    @property
    def aircraft_count(self) -> int:
        return sum(entry.count for entry in self.aircraft) + (1 if self.drawn_from_cup else 0)

    @property
    def pilot_count(self) -> int:
        """Pilots listed: the counters plus the leader."""
        return sum(self.pilots.values()) + (1 if self.leader else 0)

    @model_validator(mode="after")
    def _consistent(self) -> Force:
        if not self.aircraft and not self.drawn_from_cup and not self.balloons:
            raise ValueError("a force has aircraft, a cup to draw from, or a balloon")
        bad = sorted(q.value for q in self.pilots if q in (PilotQuality.LEADER, PilotQuality.ACE))
        if bad:
            raise ValueError(f"pilots: leaders and Aces go in 'leader', not {bad}")
        if self.leader_ace_side and self.leader is None:
            raise ValueError("leader_ace_side needs a leader")
        if self.pilots and self.pilot_count != sum(e.count for e in self.aircraft):
            raise ValueError(
                f"{self.pilot_count} pilots for {sum(e.count for e in self.aircraft)} aircraft"
            )
        return self


class Scenario(_Frozen):
    """A historical scenario (§17.0, L1109-1267), exactly as printed."""

    number: int = Field(ge=1, le=8)
    name: str = Field(min_length=1, description="a short title (authored)")
    date: str = Field(min_length=1, description="the date as printed: 'September 16th, 1918'")
    month: YM = Field(description="its year and month (aircraft and Aces' availability)")
    type: Annotated[EngagementType, _coerce(EngagementType)]
    altitude: Annotated[Altitude, _coerce(Altitude)]
    zone: Annotated[Zone, _coerce(Zone)]
    initiative: Annotated[Side, _coerce(Side)] | None = Field(
        description="the side the scenario gives the Initiative ('Initiative: Germans'); "
        "with no_initiative_phase it has it every turn (see SOURCES.md on the others)"
    )
    allied: Force
    german: Force
    rules: frozenset[Annotated[ScenarioRule, _coerce(ScenarioRule)]] = frozenset()
    engagements: int = Field(default=1, ge=1, le=3, description="consecutive engagements")
    turns_per_engagement: int = Field(default=8, ge=1, le=8)
    victory: Annotated[VictoryKind, _coerce(VictoryKind)] = VictoryKind.STANDARD
    victory_side: Annotated[Side, _coerce(Side)] | None = None
    victory_ace: str | None = Field(default=None, description="a FlightLeader id")

    def force(self, side: Side) -> Force:
        return self.allied if side is Side.ALLIED else self.german

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if (self.victory is VictoryKind.STANDARD) != (self.victory_side is None):
            raise ValueError("victory_side is set exactly for a non-standard victory")
        if (self.victory is VictoryKind.STANDARD) != (self.victory_ace is None):
            raise ValueError("victory_ace is set exactly for a non-standard victory")
        if ScenarioRule.NO_INITIATIVE_PHASE in self.rules and self.initiative is None:
            raise ValueError("no_initiative_phase needs the side that always has it")
        return self
