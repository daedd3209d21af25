"""Eagles in the Sky vocabulary: the closed sets (sides, symbols, classes, damage,
altitudes, zones, characteristics, pilot qualities, events...), months of the war, and
the schema helpers every data model shares.

Every enum has a ``from_code`` that accepts its value (``"no_mans_land"``), its name,
its short code where it has one (``"NML"``) or its words (``"No Man's Land"``), in any
case, so YAML and commands may use whichever reads best. Section numbers ("§10.83")
and lines ("L323") are those of the rulebook transcription ``eagles-in-the-sky.txt``.
"""

from __future__ import annotations

import re
from enum import Enum, IntEnum, StrEnum
from typing import Annotated, Any, NamedTuple, Self, TypeVar, cast

from pydantic import BaseModel, BeforeValidator, ConfigDict

__all__ = [
    "DECK_SIZE",
    "YM",
    "AceAbility",
    "AircraftType",
    "Altitude",
    "CardSpecial",
    "Characteristic",
    "DamageKind",
    "DefenceClass",
    "EngagementType",
    "Frozen",
    "PilotQuality",
    "RandomEvent",
    "ScenarioRule",
    "Side",
    "Span",
    "Symbol",
    "VictoryKind",
    "Weather",
    "YearMonth",
    "Zone",
    "ZoneChoice",
    "coerce",
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


class _Coded:
    """The ``from_code`` of every enum here: its member whose value, name or ``code``
    matches (``"NML"``, ``"no_mans_land"``, ``"No Man's Land"``)."""

    @classmethod
    def from_code(cls, code: str | int) -> Self:
        found: Self = _from_code(cast("type[Any]", cls), code)
        return found


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def coerce(cls: type[_E]) -> Any:
    """A before-validator turning a code into a member of ``cls``."""

    def convert(value: Any) -> Any:
        return _from_code(cls, value) if isinstance(value, str | int) else value

    return BeforeValidator(convert)


class Side(_Coded, StrEnum):
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


class Symbol(_Coded, StrEnum):
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


class DefenceClass(_Coded, IntEnum):
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


class DamageKind(_Coded, StrEnum):
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


class Altitude(_Coded, IntEnum):
    """The four altitude levels (§11.11), lowest first."""

    TREETOP = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @property
    def code(self) -> str:
        """``"T"``, ``"L"``, ``"M"`` or ``"H"``."""
        return self.name[0]


class Zone(_Coded, StrEnum):
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
    def from_code(cls, code: str | int) -> Zone:
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


class ZoneChoice(_Coded, StrEnum):
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


class AircraftType(_Coded, StrEnum):
    """The two general types (§2.1). German CL class aircraft are Scouts, J class are
    2-Seaters (§2.1 design note)."""

    SCOUT = "scout"
    TWO_SEATER = "two_seater"


class Characteristic(_Coded, StrEnum):
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


class PilotQuality(_Coded, StrEnum):
    """The five pilot qualities (§14.1), weakest first."""

    GREEN = "green"
    INEXPERIENCED = "inexperienced"
    EXPERIENCED = "experienced"
    LEADER = "leader"
    """A Flight Leader (§14.5): an Experienced pilot with Leadership and Flying."""
    ACE = "ace"
    """A Famous Ace (§14.6, §18.0), also a Flight Leader."""


class EngagementType(_Coded, StrEnum):
    """The eight Engagement types (§16.11)."""

    PATROL = "patrol"
    ARTILLERY_SPOTTING = "artillery_spotting"
    PHOTO_RECON = "photo_recon"
    CONTACT_PATROL = "contact_patrol"
    TRENCH_STRAFING = "trench_strafing"
    BOMBING = "bombing"
    AIRFIELD_ATTACK = "airfield_attack"
    BALLOON_BUSTING = "balloon_busting"


class RandomEvent(_Coded, StrEnum):
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


class CardSpecial(_Coded, StrEnum):
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


class AceAbility(_Coded, StrEnum):
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


class Weather(_Coded, StrEnum):
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


class ScenarioRule(_Coded, StrEnum):
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


class VictoryKind(_Coded, StrEnum):
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


class Frozen(BaseModel):
    """A frozen, hashable model that refuses unknown fields (every data model)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
