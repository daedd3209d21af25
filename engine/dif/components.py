"""Down in Flames components: action cards and aircraft, as validated data.

The YAML files in ``data/dif/`` are parsed into these frozen pydantic models by
:mod:`engine.dif.loader`. What the rulebooks print and what we authored is recorded
in ``data/dif/SOURCES.md``; the models only say what a value *means*.

Rating names differ between the two rulesets (DESIGN.md): the hand limit is RotL
"Performance" / Zero! "Action Capacity", and the number of cards drawn is RotL
"Horsepower" / Zero! "Performance". The models use neutral names (``hand_size``,
``draw``) and :func:`rating_label` gives the ruleset's own word.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from engine.dif.actions import quoted
from engine.dif.campaign_cards import (
    CAMPAIGN_FIELDS,
    ELEMENT_SPEED,
    FIGHTER_ONLY,
    Bombing,
    FormationRatings,
    LandVP,
    Role,
    Service,
    role_problem,
)
from engine.dif.texts import fixed
from strings import Term

__all__ = [
    "Aircraft",
    "Altitude",
    "BombResult",
    "Card",
    "CardKind",
    "CardType",
    "Deck",
    "LeaderRatings",
    "PilotSkill",
    "Position",
    "Ruleset",
    "Side",
    "WingmanRatings",
    "rating_label",
]


class Ruleset(StrEnum):
    """The two rulebooks the ``dif`` engine plays."""

    ROTL = "rotl"
    """Rise of the Luftwaffe / Eighth Air Force (WWII Europe)."""
    ZERO = "zero"
    """Zero! (Pacific 1941-42)."""


class Side(StrEnum):
    """The two teams. Zero! calls the Axis side "Japanese" (4.2)."""

    AXIS = "axis"
    ALLIED = "allied"

    @property
    def other(self) -> Side:
        return Side.ALLIED if self is Side.AXIS else Side.AXIS

    def label(self, ruleset: Ruleset) -> Term:
        """The side's name in this ruleset (Zero!: Japanese / Allied; RotL: Axis / Allies)."""
        return fixed(f"dif.side.{ruleset.value}.{self.value}")

    def phrase(self, ruleset: Ruleset) -> Term:
        """The side inside a sentence: "the Allied side", never "the Allies side"."""
        return fixed(f"dif.side_phrase.{ruleset.value}.{self.value}")


class Altitude(IntEnum):
    """The five altitude bands (Zero! 7.0), lowest first."""

    VERY_LOW = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    VERY_HIGH = 4

    @property
    def code(self) -> str:
        return ("VL", "L", "M", "H", "VH")[self]

    @property
    def label(self) -> Term:
        return fixed(_ALTITUDE_KEYS[self])

    @classmethod
    def from_code(cls, code: str) -> Altitude:
        codes = {a.code: a for a in cls}
        try:
            return codes[code.upper()]
        except KeyError:
            raise ValueError(Term("dif.error.unknown_altitude", code=quoted(code))) from None


class Position(IntEnum):
    """A leader's position relative to one enemy leader (Zero! 6.1), worst first.

    Always symmetric between two leaders: if A is ``ADVANTAGED`` on B, B is
    ``DISADVANTAGED`` on A, i.e. ``pos(B, A) == -pos(A, B)``.
    """

    TAILED = -2
    """An enemy leader is on this leader's tail ("Enemy on Tail")."""
    DISADVANTAGED = -1
    NEUTRAL = 0
    ADVANTAGED = 1
    TAILING = 2

    @property
    def label(self) -> Term:
        return fixed(_POSITION_KEYS[self])


class CardKind(StrEnum):
    """Card names, by the rulebooks' abbreviations (RotL L10-19)."""

    IMS = "IMS"
    """In My Sights: a burst attack."""
    OOS = "OOS"
    """Out of the Sun (Zero! "OTS"): a burst attack."""
    MAN = "MAN"
    """Maneuvering: +1 position step."""
    HAL = "HAL"
    """Half Loop: exactly +2 position steps."""
    SCI = "SCI"
    """Scissors (white): attack Disadvantaged -> Advantaged, or a response."""
    VER = "VER"
    """Vertical Roll (white): change altitude as an attack, or a response."""
    FUT = "FUT"
    """Full Throttle (white): RotL/8AF and Corsairs & Hellcats decks only."""
    TIT = "TIT"
    """Tight Turn: a response."""
    BAR = "BAR"
    """Barrel Roll: a response."""
    ACE = "ACE"
    """Ace Pilot: responds to any card."""

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]


_KIND_LABELS = {
    CardKind.IMS: "In My Sights",
    CardKind.OOS: "Out of the Sun",
    CardKind.MAN: "Maneuvering",
    CardKind.HAL: "Half Loop",
    CardKind.SCI: "Scissors",
    CardKind.VER: "Vertical Roll",
    CardKind.FUT: "Full Throttle",
    CardKind.TIT: "Tight Turn",
    CardKind.BAR: "Barrel Roll",
    CardKind.ACE: "Ace Pilot",
}

BURST_KINDS = frozenset({CardKind.IMS, CardKind.OOS})
POSITION_KINDS = frozenset({CardKind.MAN, CardKind.HAL, CardKind.SCI, CardKind.FUT})
ATTACK_KINDS = BURST_KINDS | POSITION_KINDS | {CardKind.VER}


class BombResult(StrEnum):
    """A card's bombing annotation (campaign rules; Zero! summary L936-940)."""

    VITAL = "vital"
    DIRECT = "direct"
    HIT = "hit"
    MISS = "miss"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


T = TypeVar("T", bound=BaseModel)


class CardType(_Frozen):
    """One kind of action card as printed, e.g. "In My Sights 2 Bursts / 3 Damage".

    ``code`` is the canonical short name used in action text: the kind alone for
    cards without bursts (``MAN``), else kind, bursts and damage (``IMS-2B3D``), or
    ``IMS-2BFT`` for the fuel-tank hit that destroys the target outright.
    """

    kind: CardKind
    bursts: int = Field(default=0, ge=0, le=3, description="bursts it costs (IMS/OOS)")
    damage: int = Field(default=0, ge=0, le=6, description="hits it inflicts (IMS/OOS)")
    fuel_tank: bool = Field(default=False, description="destroys the target outright")
    responds_to: frozenset[CardKind] = Field(
        default=frozenset(), description="cards named in its blue response box"
    )

    @property
    def code(self) -> str:
        if self.kind not in BURST_KINDS:
            return self.kind.value
        tail = "FT" if self.fuel_tank else f"{self.damage}D"
        return f"{self.kind.value}-{self.bursts}B{tail}"

    @property
    def label(self) -> str:
        if self.kind not in BURST_KINDS:
            return self.kind.label
        hit = "Fuel Tank" if self.fuel_tank else f"{self.damage}D"
        return f"{self.kind.label} ({self.bursts}B/{hit})"

    @property
    def is_attack(self) -> bool:
        return self.kind in ATTACK_KINDS

    @property
    def is_response(self) -> bool:
        return bool(self.responds_to)

    @model_validator(mode="after")
    def _burst_fields(self) -> CardType:
        if self.kind in BURST_KINDS:
            if self.bursts < 1:
                raise ValueError(f"{self.kind.value} cards cost 1 to 3 bursts")
            if self.fuel_tank == (self.damage > 0):
                raise ValueError("a burst card has either damage or fuel_tank: true")
        elif self.bursts or self.damage or self.fuel_tank:
            raise ValueError(f"{self.kind.value} cards have no bursts or damage")
        return self


class Card(_Frozen):
    """One physical card of a deck: its type plus the per-copy campaign annotations."""

    id: int = Field(ge=0, description="index of the copy in its deck, 0-based")
    type: CardType
    bomb: BombResult
    over_target: Literal["hit", "miss"] = Field(description="strafing / over-target result")
    spoiled_attack: bool = Field(description="carries the Spoiled/Rejected Attack symbol")


class Deck(_Frozen):
    """A whole action deck, every copy listed."""

    id: str
    name: str
    cards: tuple[Card, ...]

    @model_validator(mode="after")
    def _ids_are_indices(self) -> Deck:
        for index, card in enumerate(self.cards):
            if card.id != index:
                raise ValueError(f"card #{index} has id {card.id}; ids must be 0..n-1 in order")
        return self


class LeaderRatings(_Frozen):
    """One side (undamaged or damaged) of a leader card (Zero! 5.2, RotL L107-145)."""

    damage_capacity: int = Field(ge=1, description="hits at which this side is exceeded")
    hand_size: int = Field(ge=1, description="RotL Performance / Zero! Action Capacity")
    draw: int = Field(ge=0, description="RotL Horsepower / Zero! Performance")
    bursts: int = Field(ge=0, description="Burst Rating / Number of Bursts")
    heavy_cannon: int = Field(default=0, ge=0, description="'+#' hits per successful burst card")
    gunner: int = Field(default=0, ge=0, description="gunner / machine-gun bursts (0 = none)")


class WingmanRatings(_Frozen):
    """One side of a wingman card (Zero! 5.3)."""

    damage_capacity: int = Field(ge=1)
    offensive: int = Field(ge=0, description="mini-hand size when attacking")
    defensive: int = Field(ge=0, description="mini-hand size when attacked")
    heavy_cannon: int = Field(default=0, ge=0, description="'+#' hits per burst card (RotL L145)")


class _Sides(_Frozen, Generic[T]):
    undamaged: T
    damaged: T

    @model_validator(mode="after")
    def _damaged_side_holds_more(self) -> _Sides[T]:
        # A card flips at the undamaged capacity and is shot down at the damaged one
        # (Zero! 5.21), so the damaged capacity must be the larger.
        und = getattr(self.undamaged, "damage_capacity")  # noqa: B009
        dam = getattr(self.damaged, "damage_capacity")  # noqa: B009
        if dam <= und:
            raise ValueError(f"damaged capacity {dam} must exceed undamaged capacity {und}")
        return self


class Aircraft(_Frozen):
    """An aircraft type: its cards and attributes.

    A fighter or light bomber has a leader card and (almost always) a wingman card; a
    bomber or patrol aircraft has neither, but formation ratings (16.11 L1014). The
    campaign fields (``role`` onwards, see :mod:`engine.dif.campaign_cards`) all have
    defaults, so a fighter's entry needs none of them; a validator refuses the
    combinations the rules exclude, naming the field.
    """

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="slug used in commands")
    name: str = Field(description="as printed, e.g. 'Bf-109E'")
    side: Side
    nation: str
    year: int = Field(ge=1930, le=1950, description="year of service")
    rulesets: frozenset[Ruleset]
    role: Role = Field(default=Role.FIGHTER, description="fighter, light bomber, bomber... (17.0)")
    service: Service | None = Field(
        default=None,
        validate_default=True,
        description="IJA, IJN, USAAF, USN, RAF... (19.21); required but for fighters",
    )
    aircraft_type: str | None = Field(
        default=None,
        min_length=1,
        description="the type its models share ('B-17' for the B-17D and E), when another "
        "model exists: see type_name",
    )
    value: int | None = Field(default=None, ge=0, description="element point value (13.1)")
    leader_only_value: int | None = Field(default=None, ge=0)
    agile: bool = False
    turbocharged: bool = False
    small_target: bool = False
    ceiling: Altitude | None = Field(default=None, description="altitude limit on the card")
    speed: int | None = Field(
        default=None,
        ge=1,
        description="jets and rockets: Full Throttle counters at the start and the most "
        "held (not a bomber's formation_speed)",
    )
    thrust: int | None = Field(
        default=None, ge=0, description="jets: Full Throttle counters gained each Draw step"
    )
    rocket: bool = Field(default=False, description="'R': no wingman, no altitude effect on draw")
    methanol: bool = Field(
        default=False, description="Bf-109G: one Full Throttle counter a game (RotL L326-329)"
    )
    very_high_fut: bool = Field(
        default=False, description="Ta-152H-1: one card a turn as FUT at Very High (RotL L330-332)"
    )
    leader: _Sides[LeaderRatings] | None = Field(
        default=None,
        validate_default=True,
        description="fighters and light bombers only (16.11); see leader_card",
    )
    wingman: _Sides[WingmanRatings] | None = Field(
        default=None, validate_default=True, description="None when no wingman card exists"
    )
    formation: _Sides[FormationRatings] | None = Field(
        default=None,
        validate_default=True,
        description="bombers and patrol aircraft only: damage and turret ratings (20.41)",
    )
    formation_size: int | None = Field(
        default=None,
        ge=1,
        validate_default=True,
        description="bombers a Formation holds: medium 2, heavy 3 (Zero!'s B-17: 2), patrol 1",
    )
    formation_speed: int | None = Field(
        default=None,
        ge=1,
        le=6,
        validate_default=True,
        description="Formation Speed Factor (17.22e, 23.24); not the jets' speed",
    )
    bombing: Bombing | None = Field(
        default=None, validate_default=True, description="the bombing section; None: 'Cannot'"
    )
    crew: int | None = Field(
        default=None, ge=1, validate_default=True, description="crewmen aboard (history)"
    )
    land_vp: LandVP | None = Field(
        default=None, validate_default=True, description="Land Campaign VP awards (24.61)"
    )
    printed: frozenset[str] = Field(
        default=frozenset(),
        description="dotted paths of the values the rulebook prints ('formation_speed', "
        "'formation.undamaged.turret_defensive'); the rest is authored (SOURCES.md)",
    )

    @field_validator(*CAMPAIGN_FIELDS)
    @classmethod
    def _fits_role(cls, value: object, info: ValidationInfo) -> object:
        # Each campaign field against the role (and nation, rulesets) validated before
        # it, so that a refusal names the field: "[20].formation_size: ...".
        role = info.data.get("role")
        if role is not None and info.field_name is not None:
            problem = role_problem(role, info.field_name, value, info.data)
            if problem is not None:
                raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Aircraft:
        # A content pack's aircraft must be flyable somewhere, and a leader alone can
        # never be worth more than its element (RotL point-value table, Zero! 5.35).
        if not self.rulesets:
            raise ValueError("rulesets must name at least one ruleset (rotl, zero)")
        if self.speed is not None and not self.turbocharged:
            raise ValueError("jets always have turbochargers (RotL L133): set turbocharged")
        if self.thrust is not None and self.speed is None:
            raise ValueError("a Thrust rating needs a Speed rating (RotL L134-136)")
        if self.rocket and self.wingman is not None:
            raise ValueError("rocket fighters always fly solo: no wingman card (RotL L122)")
        if self.methanol and self.speed is not None:
            raise ValueError("a jet's Full Throttle counters come from Speed, not methanol")
        if self.role.in_formation:
            for name in FIGHTER_ONLY:
                if getattr(self, name):
                    raise ValueError(
                        f"{name}: a {self.role.label} is never positioned and plays no "
                        "cards (16.32 L1038, 17.23 L1119)"
                    )
        for path in sorted(self.printed):
            if _resolve(self, path) is None:
                raise ValueError(f"printed: {path!r} names no value of this aircraft")
        if (
            self.value is not None
            and self.leader_only_value is not None
            and self.leader_only_value > self.value
        ):
            raise ValueError(
                f"leader_only_value {self.leader_only_value} exceeds the element value {self.value}"
            )
        return self

    @property
    def leader_card(self) -> _Sides[LeaderRatings]:
        """The leader card of a fighter or light bomber. A dogfight holds only fighters
        (``DifEngine.aircraft_refusal``); an aircraft in formation has none (16.11)."""
        if self.leader is None:
            raise ValueError(f"{self.name} flies in formation: it has no leader card (16.11)")
        return self.leader

    @property
    def type_name(self) -> str:
        """The aircraft type, whichever its model: bombers of one type may share a
        Formation (17.22c L1109), a skilled pilot flies any model of his type (19.23
        L1223)."""
        return self.aircraft_type if self.aircraft_type is not None else self.name

    @property
    def mission_speed(self) -> int:
        """The Speed a mission's length subtracts: the Formation Speed, or 6 for
        fighters and light bombers (23.24 L1717)."""
        return self.formation_speed if self.formation_speed is not None else ELEMENT_SPEED

    @property
    def max_altitude(self) -> Altitude:
        return self.ceiling if self.ceiling is not None else Altitude.VERY_HIGH

    @property
    def jet(self) -> bool:
        """Has a Speed rating: Full Throttle counters, double VP (RotL L64-65, L133)."""
        return self.speed is not None

    @property
    def counters_max(self) -> int:
        """Most Full Throttle counters this aircraft may hold (RotL L136, L326)."""
        if self.speed is not None:
            return self.speed
        return 1 if self.methanol else 0

    @property
    def double_vp(self) -> bool:
        """Jets and rocket fighters count double victory points (RotL L64-65)."""
        return self.jet or self.rocket


def _resolve(obj: object, path: str) -> object:
    """The value at a dotted path of model fields, or None."""
    for part in path.split("."):
        if not isinstance(obj, BaseModel) or part not in type(obj).model_fields:
            return None
        obj = getattr(obj, part)
    return obj


class PilotSkill(StrEnum):
    """Pilot skill letters usable in a dogfight (RotL "Pilots", Zero! 19.25 / 13.4).

    RotL's BU (Burst) is Zero!'s BV; both give +1 burst. BM and S (bombing and
    strafing) only matter in campaigns and are not offered.
    """

    A = "A"
    """Ace Pilot: once a game, declare a response card to be an Ace Pilot."""
    BU = "BU"
    """+1 Burst Rating (RotL BU, Zero! BV)."""
    CV = "CV"
    """Combat Vision: one redraw of any cards of the first hand."""
    D = "D"
    """+1 damage capacity on each side of the card."""
    G = "G"
    """+1 gunner / machine-gun bursts."""
    H = "H"
    """+1 to the cards drawn (RotL Horsepower / Zero! Performance)."""
    P = "P"
    """+1 to the hand limit (RotL Performance / Zero! Action Capacity)."""

    @classmethod
    def parse(cls, text: str) -> PilotSkill:
        t = text.strip().upper()
        if t == "BV":
            return cls.BU
        try:
            return cls(t)
        except ValueError:
            names = ", ".join(k.value for k in cls)
            raise ValueError(
                Term("dif.error.unknown_skill", text=quoted(text), names=names)
            ) from None

    @property
    def label(self) -> Term:
        return fixed(f"dif.skill.{self.value}")


_ALTITUDE_KEYS = tuple(f"dif.altitude.{code}" for code in ("VL", "L", "M", "H", "VH"))
_POSITION_KEYS = {p: f"dif.position.{p.name.lower()}" for p in Position}
RATED = ("hand_size", "draw", "bursts")
"""The rating fields with a printed name in each ruleset (``dif.rating.<ruleset>.<field>``)."""


def rating_label(field: str, ruleset: Ruleset) -> str:
    """The ruleset's printed name of a rating field (see the module docstring): RotL
    Performance / Horsepower / Burst Rating, Zero! Action Capacity / Performance /
    Number of Bursts. Other fields get their own name in words."""
    if field in RATED:
        return fixed(f"dif.rating.{ruleset.value}.{field}")
    return field.replace("_", " ").title()
