"""What an aircraft card carries for the Zero! campaign game, beyond a dogfight's ratings.

The basic game flies fighters only (Zero! 17.0 L1046). The campaign game adds light
bombers (torpedo bombers among them), medium and heavy bombers and patrol aircraft
(17.1-17.3), and the cards of every type gain a bombing section (5.27, 21.2), a
service (19.21) and Victory Point awards (24.61). :class:`engine.dif.components.Aircraft`
holds these parts; this module says what each one *means*, and which a card of each
role may carry (:func:`role_problem`, one message per field). What the rulebook prints
and what we authored is recorded in ``data/dif/SOURCES.md`` (section 2.5).

Rating names follow the rulebook: a bomber's card has no hand, draw or bursts; when
attacked it draws a defensive mini-hand of its Turret Defensive Rating plus the Turret
Support Rating of every other bomber in its Formation (20.41).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "CAMPAIGN_FIELDS",
    "ELEMENT_SPEED",
    "FIGHTER_ONLY",
    "SERVICE_NATION",
    "BombFactors",
    "Bombing",
    "BombingMode",
    "FormationRatings",
    "LandVP",
    "Role",
    "Service",
    "role_problem",
]


class Role(StrEnum):
    """What an aircraft is in the campaign game (17.0): how it flies and is attacked."""

    FIGHTER = "fighter"
    """Leader and wingman cards; the only type of the basic game (17.0 L1046)."""
    LIGHT_BOMBER = "light_bomber"
    """Leader and wingman, treated as a fighter except for 17.13; machine guns (9.0 L560)."""
    TORPEDO_BOMBER = "torpedo_bomber"
    """A light bomber with "Torpedo" on its card (17.14 L1072)."""
    MEDIUM_BOMBER = "medium_bomber"
    """No wingman: flies in Formations of two (17.22a L1105)."""
    HEAVY_BOMBER = "heavy_bomber"
    """Formations of three; Zero!'s B-17 flies in twos (17.22a L1105)."""
    PATROL = "patrol"
    """Flies alone, otherwise treated as a medium bomber (17.31-17.32 L1147-1151)."""

    @property
    def element(self) -> bool:
        """Flies as a Leader and Wingman (16.11 L1014): fighters and light bombers."""
        return self in _ELEMENT_ROLES

    @property
    def light_bomber(self) -> bool:
        """A light bomber, torpedo bombers included (17.13-17.14)."""
        return self in (Role.LIGHT_BOMBER, Role.TORPEDO_BOMBER)

    @property
    def in_formation(self) -> bool:
        """An "Aircraft in Formation" (20.0 L1299): bombers and patrol aircraft."""
        return not self.element

    @property
    def label(self) -> str:
        """In words, for data errors: ``"heavy bomber"``, ``"patrol aircraft"``."""
        return "patrol aircraft" if self is Role.PATROL else self.value.replace("_", " ")


_ELEMENT_ROLES = frozenset({Role.FIGHTER, Role.LIGHT_BOMBER, Role.TORPEDO_BOMBER})


class Service(StrEnum):
    """The air arm a card belongs to: pilots fly only their own nationality and service
    (19.21 L1215, 19.31 L1265). U.S. and Japanese aircraft are naval or land-based."""

    IJA = "IJA"
    """Imperial Japanese Army Air Service."""
    IJN = "IJN"
    """Imperial Japanese Navy Air Service."""
    USAAF = "USAAF"
    """United States Army Air Forces."""
    USN = "USN"
    """United States Navy."""
    USMC = "USMC"
    """United States Marine Corps aviation."""
    RAF = "RAF"
    """Royal Air Force."""
    RAAF = "RAAF"
    """Royal Australian Air Force."""


SERVICE_NATION: dict[Service, str] = {
    Service.IJA: "Japan",
    Service.IJN: "Japan",
    Service.USAAF: "United States",
    Service.USN: "United States",
    Service.USMC: "United States",
    Service.RAF: "United Kingdom",
    Service.RAAF: "Australia",
}
"""The ``nation`` an aircraft of each service has."""


class BombingMode(StrEnum):
    """The four Bombing Modes (21.21 L1438); an aircraft uses one per mission."""

    LEVEL = "level"
    """Draw the Bombing Factor; +1 bomb and +1 AA card at Very Low (21.32 L1465)."""
    DIVE = "dive"
    """From Medium or Low, down one band free; Factor + 1 at Low, + 2 at Very Low (21.4)."""
    TORPEDO = "torpedo"
    """One card, its damage doubled; naval targets only (21.5 L1491-1507)."""
    SATURATION = "saturation"
    """The Saturation Bombing Capacity, by altitude (21.62 L1519); naval results -1 level."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BombFactors(_Frozen):
    """One side of a card's bombing section: the Bomb Cards each mode the card shows
    draws, before altitude, the Norden and skills (21.32, 21.43-21.44, 21.62). ``None``:
    the card does not show that mode. The rulebook's "Bombing Factor", "Bomb Factor" and
    "Bombing Capacity" are this one number (21.32 L1465, 21.43 L1479, L1665, L1671)."""

    level: int | None = Field(default=None, ge=0, description="Level Bombing Factor")
    dive: int | None = Field(default=None, ge=0, description="Dive Bombing Factor")
    saturation: int | None = Field(default=None, ge=0, description="Saturation Capacity")

    @property
    def modes(self) -> frozenset[BombingMode]:
        """The modes with a factor on this side (torpedo is the card's, not a side's)."""
        shown = {
            BombingMode.LEVEL: self.level,
            BombingMode.DIVE: self.dive,
            BombingMode.SATURATION: self.saturation,
        }
        return frozenset(mode for mode, factor in shown.items() if factor is not None)


class Bombing(_Frozen):
    """A card's bombing section (5.27, 21.2). An aircraft without one shows "Cannot"
    (21.21 L1438) and may not drop bombs."""

    torpedo: bool = Field(default=False, description="'Torpedo' on the card (17.14, 21.51)")
    norden: bool = Field(
        default=False, description="'N' by the Saturation factor: +2 Bomb Cards (18.31-18.32)"
    )
    undamaged: BombFactors
    damaged: BombFactors

    @property
    def modes(self) -> frozenset[BombingMode]:
        """Every Bombing Mode the card allows (one is chosen per mission, 21.21)."""
        torpedo = {BombingMode.TORPEDO} if self.torpedo else set()
        return self.undamaged.modes | torpedo

    @model_validator(mode="after")
    def _consistent(self) -> Bombing:
        if self.undamaged.modes != self.damaged.modes:
            raise ValueError(
                "both sides of the bombing section show the same modes: undamaged "
                f"{_names(self.undamaged.modes)}, damaged {_names(self.damaged.modes)}"
            )
        if not self.modes:
            raise ValueError("a bombing section shows a mode (level, dive, saturation, torpedo)")
        for mode in sorted(self.undamaged.modes):
            und = getattr(self.undamaged, mode.value)
            dam = getattr(self.damaged, mode.value)
            if dam > und:
                # 17.27 L1135: a damaged bomber drops fewer bombs, never more.
                raise ValueError(f"damaged {mode.value} factor {dam} exceeds undamaged {und}")
        if self.norden and BombingMode.SATURATION not in self.modes:
            raise ValueError("a Norden 'N' stands next to a Saturation factor (18.31 L1187)")
        return self


class FormationRatings(_Frozen):
    """One side of a bomber's or patrol aircraft's card (17.2, 20.4)."""

    damage_capacity: int = Field(ge=1, description="hits at which this side is exceeded (5.21)")
    turret_defensive: int = Field(ge=0, description="cards it draws when attacked (20.41)")
    turret_support: int = Field(
        ge=0, description="cards it adds when another of its Formation is attacked (20.41)"
    )


class LandVP(_Frozen):
    """The Victory Points an aircraft is worth in a Land Campaign mission (24.61, the
    Land Campaign Victory Point Awards table, L1819). Carrier campaigns score targets
    only (25.81)."""

    destroyed: int = Field(ge=0, description="to the enemy, when it is destroyed")
    damaged: int = Field(ge=0, description="to the enemy, when it ends Damaged or Evaded")
    returned: int = Field(
        ge=0,
        description="to its own side, flown over the target and back undamaged (17.13d, 24.61)",
    )


def _names(modes: frozenset[BombingMode]) -> str:
    return ", ".join(sorted(m.value for m in modes)) or "none"


# --- what each role's card may carry ---------------------------------------------------

ELEMENT_SPEED = 6
"""The Speed of every fighter and light bomber for a mission's length (23.24 L1717)."""

FIGHTER_ONLY = ("agile", "speed", "thrust", "rocket", "methanol", "very_high_fut")
"""Card attributes that only matter to an aircraft that plays cards and takes position:
an aircraft in formation has none of them (16.32 L1038, 17.23 L1119)."""

_FORMATION_SIZE = {Role.MEDIUM_BOMBER: 2, Role.HEAVY_BOMBER: 3, Role.PATROL: 1}
"""Bombers in a full Formation (17.22a L1105); patrol aircraft fly alone (17.31 L1147)."""

_LEVEL, _DIVE, _TORPEDO, _SATURATION = tuple(BombingMode)
_BOMBING_MODES: dict[Role, frozenset[BombingMode]] = {
    # 21.22 L1442-1447; dive bombing is the light bombers' (21.41 L1471); a torpedo needs
    # the word on the card (21.51) and is carried by light and medium bombers (21.53).
    Role.FIGHTER: frozenset({_LEVEL}),
    Role.LIGHT_BOMBER: frozenset({_LEVEL, _DIVE}),
    Role.TORPEDO_BOMBER: frozenset({_LEVEL, _SATURATION, _TORPEDO}),  # 17.14a L1074
    Role.MEDIUM_BOMBER: frozenset({_LEVEL, _SATURATION, _TORPEDO}),  # L1446, L1461
    Role.HEAVY_BOMBER: frozenset({_SATURATION}),
    Role.PATROL: frozenset({_LEVEL, _SATURATION, _TORPEDO}),  # a medium bomber, 17.32
}
_MUST_BOMB = frozenset(
    {Role.LIGHT_BOMBER, Role.TORPEDO_BOMBER, Role.MEDIUM_BOMBER, Role.HEAVY_BOMBER}
)
"""Roles that carry bombs. A fighter may show "Cannot" (21.21); a patrol aircraft flies
patrols (23.64 L1769), for which it may have a factor or not."""


def _service(role: Role, service: Service | None, data: Mapping[str, Any]) -> str | None:
    if service is None:
        if role is Role.FIGHTER:
            return None
        return (
            f"a {role.label} names its service (IJA, IJN, USAAF, USN, USMC, RAF, RAAF): "
            "pilots fly only aircraft of their own service (19.21 L1215)"
        )
    nation = data.get("nation")
    if nation is not None and SERVICE_NATION[service] != nation:
        return f"{service.value} is a service of {SERVICE_NATION[service]}, not of {nation}"
    return None


def _leader(role: Role, leader: Any, data: Mapping[str, Any]) -> str | None:
    if role.element and leader is None:
        return f"a {role.label} has a leader card (16.11 L1014)"
    if role.in_formation and leader is not None:
        return (
            f"a {role.label} has no leader card: it flies in formation and is attacked "
            "through its formation ratings (16.11 L1014, 20.41 L1355)"
        )
    if role.light_bomber and leader is not None and leader.undamaged.gunner < 1:
        return "every light bomber has machine guns: set the leader's gunner (9.0 L560)"
    return None


def _wingman(role: Role, wingman: Any, data: Mapping[str, Any]) -> str | None:
    if role.light_bomber and wingman is None:
        return "a light bomber has a wingman card (16.11 L1014)"
    if role.in_formation and wingman is not None:
        return f"a {role.label} has no wingman: it flies in a Formation (17.22a L1105)"
    return None


def _formation(role: Role, formation: Any, data: Mapping[str, Any]) -> str | None:
    if role.in_formation and formation is None:
        return (
            f"a {role.label} needs its formation ratings: damage_capacity, turret_defensive "
            "and turret_support on each side (20.41 L1355)"
        )
    if role.element and formation is not None:
        return f"a {role.label} flies as an element, not in formation (16.11 L1014)"
    supports = () if formation is None else (formation.undamaged, formation.damaged)
    if role is Role.PATROL and any(side.turret_support for side in supports):
        return "a patrol aircraft flies alone (17.31 L1147): its turret_support is 0"
    return None


def _formation_size(role: Role, size: int | None, data: Mapping[str, Any]) -> str | None:
    if role.element:
        return None if size is None else f"a {role.label} flies as an element, not in Formation"
    allowed = {_FORMATION_SIZE[role]}
    # Ruleset (engine.dif.components) is a StrEnum: compared by its value, "zero".
    if role is Role.HEAVY_BOMBER and {str(r) for r in data.get("rulesets", ())} == {"zero"}:
        allowed.add(2)  # "in ZERO!, the B-17 ... flies in Formations of two" (17.22a L1105)
    if size in allowed:
        return None
    sizes = " or ".join(map(str, sorted(allowed)))
    zero = " (2 on a Zero!-only card)" if len(allowed) > 1 else ""
    rule = "17.31 L1147" if role is Role.PATROL else "17.22a L1105"
    if size is None:
        return f"a {role.label} states its formation_size: {sizes}{zero} ({rule})"
    return f"a {role.label} flies in Formations of {sizes}{zero}, not {size} ({rule})"


def _formation_speed(role: Role, speed: int | None, data: Mapping[str, Any]) -> str | None:
    if role.in_formation and speed is None:
        return (
            f"a {role.label} has a Formation Speed Factor: it sets a mission's length "
            "(17.22e L1115, 23.24 L1717)"
        )
    if role.element and speed is not None:
        return (
            f"a {role.label} has no Formation Speed: fighters and light bombers count 6 "
            "(23.24 L1717), and a Formation Speed makes an aircraft one in Formation "
            "(17.22e L1115)"
        )
    return None


def _bombing(role: Role, bombing: Bombing | None, data: Mapping[str, Any]) -> str | None:
    if bombing is None:
        if role in _MUST_BOMB:
            return f"a {role.label} has a bombing section (21.22 L1442-1447)"
        return None
    allowed = _BOMBING_MODES[role]
    wrong = bombing.modes - allowed
    if wrong:
        return (
            f"a {role.label} bombs by {_names(allowed)} only, not {_names(wrong)} "
            "(17.14 L1074, 21.22 L1442-1447, 21.41 L1471, 21.51 L1491)"
        )
    if role is Role.TORPEDO_BOMBER and not bombing.torpedo:
        return "a torpedo bomber has 'Torpedo' on its card: set torpedo (17.14 L1072)"
    if role is Role.HEAVY_BOMBER and BombingMode.SATURATION not in bombing.modes:
        return "a heavy bomber saturation-bombs (21.22 L1447)"
    return None


def _crew(role: Role, crew: int | None, data: Mapping[str, Any]) -> str | None:
    if role is Role.FIGHTER:
        return None
    if crew is None:
        return f"a {role.label} states its crew"
    if crew < 2:
        return f"a {role.label} carries a gunner: crew 2 or more, not {crew}"
    return None


def _land_vp(role: Role, vp: LandVP | None, data: Mapping[str, Any]) -> str | None:
    if vp is None:
        if role is Role.FIGHTER:
            return None
        return f"a {role.label} states its Land Campaign VP awards (24.61 L1887)"
    if role is Role.FIGHTER and vp.returned:
        return "only bombers score for returning undamaged, not fighters (17.13d, 24.61 L1890)"
    return None


_CHECKS: dict[str, Callable[[Role, Any, Mapping[str, Any]], str | None]] = {
    "service": _service,
    "leader": _leader,
    "wingman": _wingman,
    "formation": _formation,
    "formation_size": _formation_size,
    "formation_speed": _formation_speed,
    "bombing": _bombing,
    "crew": _crew,
    "land_vp": _land_vp,
}

CAMPAIGN_FIELDS = tuple(_CHECKS)
"""The Aircraft fields checked against its role, each declared after ``role``."""


def role_problem(role: Role, field: str, value: Any, data: Mapping[str, Any]) -> str | None:
    """Why an aircraft of ``role`` may not have ``value`` in ``field`` (one of
    :data:`CAMPAIGN_FIELDS`), or None. ``data`` holds the fields validated before it
    (``nation``, ``rulesets``...)."""
    return _CHECKS[field](role, value, data)
