"""Locked-On components: action cards, aircraft, missiles, skills and SAM/AAA sites.

The YAML files in ``data/lockedon/`` are parsed into these frozen pydantic models by
:mod:`engine.lockedon.loader`. The models say what a value *means*; which values the
rulebook prints and which the project authored is recorded in
``data/lockedon/SOURCES.md`` (and, per aircraft, in :attr:`Aircraft.printed`).

Line numbers ("L24") are lines of the plain-text rulebook transcription the
maintainers work from (``locked-on.txt``).

Names a card may react to (:attr:`CardType.react_to`) are card names without their
subtitles ("Guns" covers "Guns (Good Angle)", L165) plus the pseudo-names of
:data:`PSEUDO_TITLES`. How a played card is *named* for reactions:

* a card played as Maneuvering (to adjust Position or Range), and a Speed Maneuvering
  point, is ``"Maneuvering"`` whatever the card (L140, L111);
* a declared Missile launch is ``"Missile"`` (L183) and a Countermeasures counter is
  ``"Countermeasures"`` (L182);
* a Vertical Roll played as an action (an altitude change) is ``"Altitude"``;
* a Tone / Guns card is ``"Tone"`` when it starts a missile attack and ``"Guns"`` when
  it starts a gun attack (:attr:`CardType.titles`); a SAM/AAA site's draw counts it
  as both;
* any other card is its :attr:`CardType.name`.

A card whose ``react_to`` holds ``"any"`` (Ace Pilot) reacts to every one of these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum, StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "ANY",
    "GUNS_TITLE",
    "MISSILE_PAIR_VP",
    "PSEUDO_TITLES",
    "TONE_TITLE",
    "Aircraft",
    "Altitude",
    "CardEffect",
    "CardType",
    "Deck",
    "Missile",
    "MissileLoad",
    "MissileType",
    "Position",
    "Range",
    "Rating",
    "RatingChange",
    "Site",
    "SiteKind",
    "Skill",
    "SkillEvent",
    "SkillKind",
    "load_cost",
    "pair_cost",
]


# --- enums -----------------------------------------------------------------------------


class Altitude(IntEnum):
    """The three altitude bands (L204-216), lowest first."""

    LOW = 0
    MEDIUM = 1
    HIGH = 2

    @property
    def code(self) -> str:
        """``"L"``, ``"M"`` or ``"H"``."""
        return ("L", "M", "H")[self]

    @classmethod
    def from_code(cls, code: str) -> Altitude:
        """The altitude of a code (``"L"``/``"M"``/``"H"``) or name (``"low"``); any case."""
        return _from_code(cls, code)


class Range(IntEnum):
    """The four range bands, closest first (L78-79): any range beyond Active Homing is
    Active Homing (L49)."""

    GUN = 0
    HEAT = 1
    """Heat Seeking."""
    RADAR = 2
    """Radar Homing."""
    ACTIVE = 3
    """Active Homing."""

    @property
    def code(self) -> str:
        """``"G"``, ``"HS"``, ``"RH"`` or ``"AH"`` (the Range chart's codes, L50)."""
        return ("G", "HS", "RH", "AH")[self]

    @property
    def printed_name(self) -> str:
        """The rulebook's name: "Gun", "Heat Seeking", "Radar Homing", "Active Homing"."""
        return ("Gun", "Heat Seeking", "Radar Homing", "Active Homing")[self]

    @classmethod
    def from_code(cls, code: str) -> Range:
        """The range of a code (``"G"``, ``"HS"``, ``"RH"``, ``"AH"``) or name; any case."""
        return _from_code(cls, code)


class MissileType(StrEnum):
    """A missile's guidance, shown by its counter's colour band (L29)."""

    HEAT = "heat"
    """Heat Seeking (red band)."""
    RADAR = "radar"
    """Radar Homing (black band)."""
    ACTIVE = "active"
    """Active Homing (green band)."""

    @property
    def range(self) -> Range:
        """The range band this type launches at (L187)."""
        return {
            MissileType.HEAT: Range.HEAT,
            MissileType.RADAR: Range.RADAR,
            MissileType.ACTIVE: Range.ACTIVE,
        }[self]

    def launches_at(self, range_: Range) -> bool:
        """Whether a missile of this type may launch at ``range_`` (the range between the
        two aircraft). Each type launches only at its own range; Active Homing missiles
        also at Radar Homing range (L187-188)."""
        if self is MissileType.ACTIVE:
            return range_ in (Range.ACTIVE, Range.RADAR)
        return range_ == self.range


class Position(IntEnum):
    """An aircraft's position as seen from it toward one enemy aircraft (L120-130).

    Symmetric: if A is ``ADVANTAGED`` on B, B is ``DISADVANTAGED`` by A, i.e.
    ``pos(B, A) == -pos(A, B)``.
    """

    TAILED = -2
    """The enemy's nose is on this aircraft's tail."""
    DISADVANTAGED = -1
    """The enemy's nose is on this aircraft's side."""
    NEUTRAL = 0
    """Nose to nose, or not engaged (every aircraft starts Neutral, L75)."""
    ADVANTAGED = 1
    """This aircraft's nose is on the enemy's side."""
    TAILING = 2
    """This aircraft's nose is on the enemy's tail."""


class CardEffect(StrEnum):
    """What a card does when played as an Action ("Detailed Action Card Rules", L168-183).

    Every card may also be played as Maneuvering up to its Positioning / Range values
    and in Reaction to the names in its ``react_to``; this is only the Action use.
    """

    NONE = "none"
    """No Action use: only Maneuvering and Reaction (Ace Pilot, Redline, Tight Turn)."""
    GUNS = "guns"
    """Gun attack: destroys the enemy if not reacted to; at Gun Range; costs
    ``guns_discard`` cards less the Gun Rating (L171-172)."""
    TONE = "tone"
    """Tone: if not reacted to, lets you launch a Missile (proper Position and Range),
    its mini-hand changed by ``missile_cards`` (L177, L240-248)."""
    TONE_GUNS = "tone_guns"
    """Tone / Guns: either a gun attack or a Tone, the missile mini-hand 1 card
    smaller (L178)."""
    BARREL_ROLL = "barrel_roll"
    """Disadvantaged or Tailed -> Neutral (L169)."""
    SCISSORS = "scissors"
    """Disadvantaged -> Advantaged (L174)."""
    MISSILE_BONUS = "missile_bonus"
    """Tactic on yourself: your next Missile attack this turn draws 1 extra card
    (Break L170, Yo-Yo L181)."""
    VERTICAL_ROLL = "vertical_roll"
    """On yourself: climb or dive one altitude, discarding or drawing as for a climb or
    dive (L179-180)."""
    SPLIT_S = "split_s"
    """Reaction only, on an opponent's turn: when you play the last card of a cycle that
    targeted a friendly aircraft, end the acting player's turn and draw 1 (L175-176)."""


class Rating(StrEnum):
    """The Aircraft Ratings a skill may change (Green skill example, L317).

    ``thrust`` is the pre- and the post-turn Thrust together ("Thrust (both beginning
    and end of turn)"), ``afterburner`` both A/B numbers likewise.
    """

    SPEED = "speed"
    PERFORMANCE = "performance"
    THRUST = "thrust"
    AFTERBURNER = "afterburner"
    GUN = "gun"
    EW = "ew"
    COUNTERMEASURES = "countermeasures"


class SkillKind(StrEnum):
    """The mechanism of a skill: the closed set the engine implements (L325-373)."""

    RATINGS = "ratings"
    """Change chosen Aircraft Ratings (:attr:`Skill.ratings`): Green, Newbie, Skilled,
    Veteran, Ace."""
    FIXED_RATINGS = "fixed_ratings"
    """Change named ratings by fixed amounts (:attr:`Skill.rating_deltas`): Fighter
    Pilot, Grit."""
    DISCARD_ON_DRAW = "discard_on_draw"
    """Discard the named cards (:attr:`Skill.cards`) when drawn, no re-draw: Nugget,
    Plumber."""
    NO_TEAMWORK = "no_teamwork"
    """Cannot give or receive Teamwork reactions: Drift Factor."""
    START_EXTRA_DRAW = "start_extra_draw"
    """Draw ``amount`` more cards after the initial draw: Guided Intercept 2 / 3."""
    START_CARDS = "start_cards"
    """Add the named cards (:attr:`Skill.cards`, taken from the deck) to the hand after
    the initial draw: Edge, Locked, Up the Sleeve, Tiger."""
    GUN_DISCARD = "gun_discard"
    """Discard ``amount`` fewer cards for a gun attack: Gun Fighter (once)."""
    NO_GUN_DISCARD = "no_gun_discard"
    """Discard 0 cards for gun attacks: In my Sights!."""
    START_POSITION = "start_position"
    """Begin at any Range, set one enemy's Range to match, then take ``position`` on it
    if within weapon range (campaigns only): 90° Angle, 0° Angle."""
    INITIATIVE = "initiative"
    """Start with Initiative: Eagle Eyes."""
    ZERO_MISSILE_HAND = "zero_missile_hand"
    """Reduce a Missile's mini-hand to 0 right after it is fired at you: Alert (once)."""
    SECOND_MISSILE_CARDS = "second_missile_cards"
    """``amount`` more missile cards when firing 2 missiles from one Tone card: Cocky."""
    MISSILE_CARDS = "missile_cards"
    """Every Tone type card gives ``amount`` more missile cards: Better Envelope."""
    DRAW_ON_EVENT = "draw_on_event"
    """Draw ``amount`` cards whenever :attr:`Skill.event` happens: Focused, Relief,
    Brave, Diligent, Quick Hands."""
    COUNTERMEASURE_AS_ACE = "countermeasure_as_ace"
    """Expend a Countermeasures counter as an Ace Pilot: Lucky (once)."""
    ANY_AS_ACE = "any_as_ace"
    """Play any card as an Ace Pilot (only in reaction to :attr:`Skill.against`, if
    set): Agile (once), Jink (once, against Guns)."""
    DRAW_PAST_PERFORMANCE = "draw_past_performance"
    """Thrust and A/B draws may exceed Performance: Test Pilot."""
    REDRAW = "redraw"
    """Discard any cards and draw as many, at any time: Timely (once)."""
    CAMPAIGN_POINTS = "campaign_points"
    """Gain Campaign points equal to the sides' point difference: NFOD."""
    FREE_NEUTRAL = "free_neutral"
    """May return to Neutral at the beginning of each aircraft's turn: Bat-Turn."""
    DRAW_TO_PERFORMANCE = "draw_to_performance"
    """Draw cards equal to Performance in the Discard/Draw steps, then discard down to
    Performance: Edge of Envelope."""
    SIDE_HAND = "side_hand"
    """A second hand of Performance cards set aside at the start; 1 playable per
    aircraft turn: Aircraft Expertise."""


class SkillEvent(StrEnum):
    """What triggers a :attr:`SkillKind.DRAW_ON_EVENT` skill's draw."""

    ENEMY_ADJUSTS_OWN_RANGE = "enemy_adjusts_own_range"
    """Focused: an enemy adjusts their own Range."""
    ENEMY_TONE_CANCELLED = "enemy_tone_cancelled"
    """Relief: an enemy Tone is cancelled or stopped."""
    ENEMY_TONE_LAUNCH = "enemy_tone_launch"
    """Brave: an enemy plays a Tone type card to launch a Missile."""
    OWN_VERTICAL_ROLL = "own_vertical_roll"
    """Diligent: you play a Vertical Roll."""
    MISSILE_FIRED_AT_YOU = "missile_fired_at_you"
    """Quick Hands: a Missile is fired at you (per missile)."""


class SiteKind(StrEnum):
    """A Special Condition site (L294)."""

    SAM = "sam"
    """Surface-to-air missile site."""
    AAA = "aaa"
    """Anti-aircraft artillery."""


ANY = "any"
"""``react_to`` value of a card that reacts to every card (Ace Pilot, L168)."""

PSEUDO_TITLES = frozenset({"Maneuvering", "Missile", "Countermeasures", "Altitude", ANY})
"""Names in ``react_to`` that are not card names (see the module docstring)."""

TONE_TITLE = "Tone"
GUNS_TITLE = "Guns"


_E = TypeVar("_E", bound=IntEnum)


def _from_code(cls: type[_E], code: str) -> _E:
    text = code.strip().upper()
    for member in cls:
        if text in (getattr(member, "code", ""), member.name):
            return member
    if cls is Range:
        for member in cls:
            if text == Range(member.value).printed_name.upper():
                return member
    codes = ", ".join(getattr(m, "code", m.name) for m in cls)
    raise ValueError(f"unknown {cls.__name__.lower()} {code!r} (expected one of {codes})")


def _enum_set(cls: type[Altitude] | type[Range], value: Any) -> Any:
    """YAML writes altitudes and ranges by code (``[L, M]``, ``[G, HS]``)."""
    if isinstance(value, list | tuple | set | frozenset):
        return frozenset(cls.from_code(v) if isinstance(v, str) else v for v in value)
    return value


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- cards -----------------------------------------------------------------------------


class CardType(_Frozen):
    """One kind of Action card as printed, e.g. "Guns (Good Angle)", with its copies."""

    code: str = Field(
        pattern=r"^[A-Z][A-Z0-9]*$",
        description="short unique code used in notation and commands, e.g. 'GUNG'",
    )
    name: str = Field(min_length=1, description="the card's title without subtitle, e.g. 'Guns'")
    subtitle: str | None = Field(
        default=None, description="the printed subtitle, e.g. 'Good Angle', 'Strong'"
    )
    count: int = Field(ge=1, description="copies of this card in one deck")
    positioning: int = Field(
        ge=0, le=4, description="most Positions it adjusts as Maneuvering; 0 = cannot"
    )
    range: int = Field(
        ge=0, le=6, description="most Range steps it adjusts as Maneuvering; 0 = cannot"
    )
    effect: CardEffect = Field(description="what it does played as an Action")
    react_to: frozenset[str] = Field(
        default=frozenset(),
        description="names it may be played in Reaction to (card names, PSEUDO_TITLES)",
    )
    tactic: bool = Field(
        default=False, description="'Tactic': played on yourself as an Action, no reactions"
    )
    guns_discard: int | None = Field(
        default=None,
        ge=0,
        description="cards to discard for a gun attack, before the Gun Rating reduces it",
    )
    missile_cards: int = Field(
        default=0, ge=-3, le=3, description="change to the missile mini-hand (Tone types)"
    )
    opponent_turn_only: bool = Field(
        default=False, description="may only be played on an opposing player's turn (Split-S)"
    )
    missile_usable: bool = Field(
        default=True,
        description="a Missile can play it from its mini-hand (not Ace Pilot, L168)",
    )

    @property
    def label(self) -> str:
        """The printed title: ``"Guns (Good Angle)"``, ``"Barrel Roll"``."""
        return f"{self.name} ({self.subtitle})" if self.subtitle else self.name

    @property
    def titles(self) -> frozenset[str]:
        """The names this card answers to when it is played as an Action or drawn by a
        site: its name, and "Tone" and "Guns" for a Tone / Guns card."""
        if self.effect is CardEffect.TONE_GUNS:
            return frozenset({self.name, TONE_TITLE, GUNS_TITLE})
        return frozenset({self.name})

    @property
    def is_guns(self) -> bool:
        """Can start a gun attack."""
        return self.effect in (CardEffect.GUNS, CardEffect.TONE_GUNS)

    @property
    def is_tone(self) -> bool:
        """A "Tone type" card (skills L343, L367): can start a missile attack."""
        return self.effect in (CardEffect.TONE, CardEffect.TONE_GUNS)

    def can_react_to(self, title: str) -> bool:
        """Whether this card may be played in Reaction to a card named ``title``."""
        return ANY in self.react_to or title in self.react_to

    @model_validator(mode="after")
    def _consistent(self) -> CardType:
        if ANY in self.react_to and len(self.react_to) > 1:
            raise ValueError("react_to: 'any' already covers every name; list nothing else")
        if self.is_guns != (self.guns_discard is not None):
            raise ValueError("guns_discard is set exactly for Guns and Tone / Guns cards")
        if not self.is_tone and self.missile_cards:
            raise ValueError("missile_cards is only for Tone type cards")
        if self.tactic and self.effect is not CardEffect.MISSILE_BONUS:
            raise ValueError("only missile_bonus cards are Tactic cards (Break, Yo-Yo)")
        if self.opponent_turn_only and (self.positioning or self.range):
            raise ValueError("a card played only on the opponent's turn cannot maneuver")
        return self


class Deck(_Frozen):
    """The Action card deck: every card type with its number of copies (L9)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    types: tuple[CardType, ...] = Field(min_length=1)

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(t.count for t in self.types)

    @property
    def by_code(self) -> dict[str, CardType]:
        """Card types keyed by code, in file order."""
        return {t.code: t for t in self.types}

    @property
    def names(self) -> frozenset[str]:
        """Every card name (without subtitles)."""
        return frozenset(t.name for t in self.types)

    def card_codes(self) -> list[str]:
        """The whole deck as card codes, ``count`` copies of each type in file order
        (shuffle before use)."""
        return [t.code for t in self.types for _ in range(t.count)]

    @model_validator(mode="after")
    def _consistent(self) -> Deck:
        seen: set[str] = set()
        printed: set[tuple[str, str | None]] = set()
        for t in self.types:
            if t.code in seen:
                raise ValueError(f"duplicate card type code {t.code}")
            if (t.name, t.subtitle) in printed:
                raise ValueError(f"duplicate card {t.label}")
            seen.add(t.code)
            printed.add((t.name, t.subtitle))
        known = self.names | PSEUDO_TITLES | {TONE_TITLE, GUNS_TITLE}
        for t in self.types:
            unknown = sorted(t.react_to - known)
            if unknown:
                raise ValueError(
                    f"{t.code} reacts to {', '.join(map(repr, unknown))}: neither a card "
                    f"name in this deck nor one of {', '.join(sorted(PSEUDO_TITLES))}"
                )
        return self


# --- missiles --------------------------------------------------------------------------


class Missile(_Frozen):
    """A missile counter (L26-33)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="slug, e.g. 'aim-7e-2'")
    name: str = Field(min_length=1, description="military designation, e.g. 'AIM-7E-2 Sparrow'")
    type: MissileType
    neutral: int | None = Field(
        ge=0, description="cards drawn launched from Neutral; None = '-', cannot launch"
    )
    advantaged: int | None = Field(ge=0, description="cards drawn launched from Advantaged")
    tailing: int | None = Field(ge=0, description="cards drawn launched from Tailing")
    value: int = Field(
        ge=4, le=11, description="Missile Value for custom loadouts (a column of MISSILE_PAIR_VP)"
    )
    nation: str | None = None
    year: int | None = Field(default=None, ge=1950, le=2000, description="year of service")

    def cards(self, position: Position) -> int | None:
        """Cards drawn when launched from ``position``; None where it cannot launch
        (a "-", and every position other than Neutral, Advantaged and Tailing)."""
        if position is Position.NEUTRAL:
            return self.neutral
        if position is Position.ADVANTAGED:
            return self.advantaged
        if position is Position.TAILING:
            return self.tailing
        return None

    def can_launch(self, position: Position, range_: Range) -> bool:
        """Proper Position and Range for a launch (L240-241, L187-188)."""
        return self.cards(position) is not None and self.type.launches_at(range_)

    @model_validator(mode="after")
    def _launchable(self) -> Missile:
        if self.neutral is None and self.advantaged is None and self.tailing is None:
            raise ValueError("a missile must launch from at least one position")
        return self


class MissileLoad(_Frozen):
    """Missiles of one type carried: an entry of a Standard Missile Load (L22)."""

    missile: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="a Missile id")
    count: int = Field(ge=1, le=8)


MISSILE_PAIR_VP: Mapping[int, tuple[int, int]] = {
    4: (7, 10),
    5: (9, 12),
    6: (11, 16),
    7: (13, 18),
    8: (14, 19),
    9: (16, 22),
    10: (18, 24),
    11: (20, 28),
}
"""The printed Missile VPs table (L380-385): Missile Value -> (VP for 1 pair, VP for
2 pairs). The header cell reads "Pairs" but the columns are Missile Values (G-L8)."""


def pair_cost(missile_value: int, pairs: int) -> int:
    """VP of ``pairs`` (1 or 2) pairs of a missile of ``missile_value`` (L379-385):
    ``pair_cost(6, 1) == 11``, ``pair_cost(6, 2) == 16``."""
    if missile_value not in MISSILE_PAIR_VP:
        raise ValueError(f"missile value {missile_value} is not in the table (4 to 11)")
    if pairs not in (1, 2):
        raise ValueError(f"{pairs} pairs: an aircraft adds 1 or 2 pairs of each missile type")
    return MISSILE_PAIR_VP[missile_value][pairs - 1]


def load_cost(loads: Iterable[MissileLoad], missiles: Mapping[str, Missile]) -> int:
    """VP of a missile load priced by the Missile VPs table: 2 or 4 of each missile
    (1 or 2 pairs, L379). Raises ValueError for other counts or an unknown missile."""
    total = 0
    for load in loads:
        if load.count not in (2, 4):
            raise ValueError(f"{load.count} × {load.missile}: loads are bought in 1 or 2 pairs")
        total += pair_cost(missiles[load.missile].value, load.count // 2)
    return total


# --- aircraft --------------------------------------------------------------------------


class Aircraft(_Frozen):
    """An Aircraft card (L11-24).

    ``None`` stands for a printed "-": no afterburners (both A/B numbers), no gun
    (cannot make gun attacks), no EW (altitude still modifies it, L216: treat as 0).
    """

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="slug used in commands")
    name: str = Field(min_length=1, description="designation as on the card, e.g. 'F-15A Eagle'")
    nation: str = Field(min_length=1, description="the flag on the card, e.g. 'United States'")
    air_force: str = Field(min_length=1, description="operating service, e.g. 'USAF', 'US Navy'")
    year: int = Field(ge=1945, le=2000, description="service year printed with the flag")
    speed: int = Field(ge=0, le=6, description="free Speed Maneuvering per point above the enemy")
    performance: int = Field(ge=1, le=10, description="hand limit when drawing")
    thrust_pre: int = Field(ge=0, le=6, description="cards drawn at the start of the turn")
    thrust_post: int = Field(ge=0, le=6, description="cards drawn at the end of the turn")
    ab_pre: int | None = Field(default=None, ge=0, le=6, description="start draw, A/B on")
    ab_post: int | None = Field(default=None, ge=0, le=6, description="end draw, A/B on")
    gun: int | None = Field(ge=0, le=4, description="reduces gun-attack discards; None = '-'")
    ew: int | None = Field(ge=0, le=5, description="cards fewer for enemy missiles; None = '-'")
    countermeasures: int = Field(ge=0, le=8, description="Countermeasures counters at the start")
    missiles: tuple[MissileLoad, ...] = Field(default=(), description="the Standard Missile Load")
    vp: int = Field(ge=0, description="Victory Points without missiles")
    vp_missiles: int | None = Field(
        default=None, ge=0, description="VP with the Standard Missile Load; None if no load"
    )
    modifier: int = Field(
        ge=0, description="subtracted from both VPs if no opposing aircraft carries missiles"
    )
    printed: frozenset[str] = Field(
        default=frozenset(), description="fields whose value the rulebook prints"
    )
    from_example: frozenset[str] = Field(
        default=frozenset(), description="fields whose value follows from a worked example"
    )

    @property
    def has_afterburners(self) -> bool:
        return self.ab_pre is not None

    @property
    def has_gun(self) -> bool:
        return self.gun is not None

    def draw(self, *, post_turn: bool, afterburner: bool) -> int:
        """The printed Thrust or A/B number (before altitude, L207-215)."""
        if afterburner and self.ab_pre is not None and self.ab_post is not None:
            return self.ab_post if post_turn else self.ab_pre
        return self.thrust_post if post_turn else self.thrust_pre

    def value(self, *, with_missiles: bool, enemy_missiles: bool = True) -> int:
        """The VP value used to balance a dogfight (L23-24)."""
        base = self.vp_missiles if with_missiles and self.vp_missiles is not None else self.vp
        return base if enemy_missiles else base - self.modifier

    @field_validator("printed", "from_example")
    @classmethod
    def _known_fields(cls, names: frozenset[str]) -> frozenset[str]:
        rated = set(cls.model_fields) - {"printed", "from_example"}
        unknown = sorted(names - rated)
        if unknown:
            raise ValueError(f"not Aircraft fields: {', '.join(unknown)}")
        return names

    @model_validator(mode="after")
    def _consistent(self) -> Aircraft:
        if (self.ab_pre is None) != (self.ab_post is None):
            raise ValueError("ab_pre and ab_post are both set (afterburners) or both '-'")
        if (
            self.ab_pre is not None
            and self.ab_post is not None
            and (self.ab_pre < self.thrust_pre or self.ab_post < self.thrust_post)
        ):
            raise ValueError("afterburner draws cannot be lower than the Thrust draws")
        ids = [load.missile for load in self.missiles]
        if len(set(ids)) != len(ids):
            raise ValueError("missiles: list each missile once, with its count")
        if self.missiles:
            if self.vp_missiles is None:
                raise ValueError("vp_missiles is required with a Standard Missile Load")
            if self.vp_missiles < self.vp:
                raise ValueError(f"vp_missiles {self.vp_missiles} is below vp {self.vp}")
        elif self.vp_missiles not in (None, self.vp):
            raise ValueError("without missiles, vp_missiles is omitted (or equals vp)")
        if self.modifier > self.vp:
            raise ValueError(f"modifier {self.modifier} exceeds vp {self.vp}")
        both = sorted(self.printed & self.from_example)
        if both:
            raise ValueError(f"printed and from_example overlap: {', '.join(both)}")
        return self


# --- skills ----------------------------------------------------------------------------


class RatingChange(_Frozen):
    """A skill that changes ratings of the player's choice (Green, Newbie, Skilled,
    Veteran, Ace): at most ``max_ratings`` different ratings, by ``total`` in all
    (negative = reduce), each by whole points in the same direction."""

    max_ratings: int = Field(ge=1, le=len(Rating))
    total: int = Field(description="signed sum of the changes, e.g. -2 for Newbie")
    exact_ratings: bool = Field(
        default=False, description="exactly max_ratings ratings (Green/Skilled: '1 Rating')"
    )

    @model_validator(mode="after")
    def _consistent(self) -> RatingChange:
        if self.total == 0 or abs(self.total) < self.max_ratings:
            raise ValueError("total must be nonzero and at least 1 point per rating")
        return self


class Skill(_Frozen):
    """A Skill counter (L315-373): front name, back cost, printed effect."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, description="as printed, e.g. 'In my Sights!'")
    cost: int = Field(ge=-10, le=15, description="VP cost from the list (L325-373)")
    text: str = Field(min_length=1, description="the printed effect, verbatim")
    kind: SkillKind
    once_per_game: bool = False
    campaign_only: bool = Field(
        default=False, description="'(Cannot be used outside of Campaigns)'"
    )
    ratings: RatingChange | None = Field(default=None, description="kind 'ratings'")
    rating_deltas: tuple[tuple[Rating, int], ...] = Field(
        default=(), description="kind 'fixed_ratings'; YAML: a mapping rating -> change"
    )
    requires_gun: bool = Field(default=False, description="cannot be used with Gun '-'")
    cards: tuple[str, ...] = Field(
        default=(), description="card codes (start_cards, discard_on_draw)"
    )
    amount: int | None = Field(default=None, description="cards drawn / discards saved")
    event: SkillEvent | None = Field(default=None, description="kind 'draw_on_event'")
    position: Position | None = Field(default=None, description="kind 'start_position'")
    initiative: bool = Field(default=False, description="your team begins with Initiative")
    against: frozenset[str] = Field(
        default=frozenset(), description="any_as_ace: only in reaction to these names"
    )

    @field_validator("rating_deltas", mode="before")
    @classmethod
    def _deltas_from_mapping(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return tuple(sorted(value.items(), key=lambda item: str(item[0])))
        return value

    @field_validator("position", mode="before")
    @classmethod
    def _position_name(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return Position[value.strip().upper()]
            except KeyError:
                names = ", ".join(p.name.lower() for p in Position)
                raise ValueError(f"unknown position {value!r} (expected one of {names})") from None
        return value

    @property
    def deltas(self) -> dict[Rating, int]:
        """``rating_deltas`` as a mapping."""
        return dict(self.rating_deltas)

    @model_validator(mode="after")
    def _parameters_match_kind(self) -> Skill:
        k = SkillKind
        needs: dict[str, bool] = {
            "ratings": self.kind is k.RATINGS,
            "rating_deltas": self.kind is k.FIXED_RATINGS,
            "cards": self.kind in (k.START_CARDS, k.DISCARD_ON_DRAW),
            "amount": self.kind
            in (
                k.START_EXTRA_DRAW,
                k.GUN_DISCARD,
                k.SECOND_MISSILE_CARDS,
                k.MISSILE_CARDS,
                k.DRAW_ON_EVENT,
            ),
            "event": self.kind is k.DRAW_ON_EVENT,
            "position": self.kind is k.START_POSITION,
        }
        for field, needed in needs.items():
            present = bool(getattr(self, field)) if field != "amount" else self.amount is not None
            if needed and not present:
                raise ValueError(f"a {self.kind.value} skill needs {field}")
            if present and not needed:
                raise ValueError(f"{field} is not used by a {self.kind.value} skill")
        if self.against and self.kind is not k.ANY_AS_ACE:
            raise ValueError(f"against is not used by a {self.kind.value} skill")
        if self.initiative and self.kind not in (k.START_POSITION,):
            raise ValueError("initiative: set only on start_position skills (use kind initiative)")
        return self


# --- sites -----------------------------------------------------------------------------


class Site(_Frozen):
    """A SAM or AAA site type (Special Condition, L294-300): at the start of each enemy
    aircraft's Play Cards step, if the aircraft's own Range counter and its Altitude are
    listed, draw ``cards`` cards; any card whose title is in ``looks_for`` must be
    reacted to once, or the aircraft is Destroyed."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, description="military designation, e.g. 'SA-7'")
    kind: SiteKind
    cards: int = Field(ge=1, le=10, description="cards drawn each check")
    looks_for: frozenset[str] = Field(
        min_length=1, description="'Tone' and/or 'Guns' (subtitles ignored)"
    )
    ranges: frozenset[Range] = Field(min_length=1, description="Range counters it attacks at")
    altitudes: frozenset[Altitude] = Field(min_length=1, description="Altitudes it attacks at")
    nation: str | None = None
    year: int | None = Field(default=None, ge=1945, le=2000)

    @field_validator("ranges", mode="before")
    @classmethod
    def _range_codes(cls, value: Any) -> Any:
        return _enum_set(Range, value)

    @field_validator("altitudes", mode="before")
    @classmethod
    def _altitude_codes(cls, value: Any) -> Any:
        return _enum_set(Altitude, value)

    @field_validator("looks_for")
    @classmethod
    def _tone_or_guns(cls, value: frozenset[str]) -> frozenset[str]:
        unknown = sorted(value - {TONE_TITLE, GUNS_TITLE})
        if unknown:
            raise ValueError(f"a site looks for 'Tone' and/or 'Guns', not {', '.join(unknown)}")
        return value

    def attacks(self, range_: Range, altitude: Altitude) -> bool:
        """Whether an aircraft with this Range counter and Altitude is attacked."""
        return range_ in self.ranges and altitude in self.altitudes
