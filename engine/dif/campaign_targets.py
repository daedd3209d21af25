"""Zero!'s Target Sheets and Bombing Chart (Campaign rules §21-§22), as validated data.

A Target Sheet (§21.92) gives a target's name, four damage levels with the Damage
needed to reach each and the Victory Points it is worth (§21.81-21.82), the Damage a
Miss, Hit, Direct or Vital bombing or strafing result inflicts (§21.83), and its two
Anti-Aircraft ratings: Discretionary Fire (§22.1) and Anti-Aircraft Fire (§22.2). A
Carrier Fleet's levels are on its Campaign Scoresheet instead (§21.91 exception,
§25.82): :class:`TargetRatings` is the part both share.

The Bombing Chart (§21.23, §22.23) gives, for each Bombing Mode and altitude, the
number of Bombing cards drawn and the change to the Anti-Aircraft cards drawn.

The shipped files are ``data/dif/campaign/targets.yaml`` and
``data/dif/campaign/bombing.yaml``; the loaders are in
:mod:`engine.dif.campaign_data`. The rulebook prints a few of these values (in rules
and examples); ``printed`` names them by field path, and ``data/dif/SOURCES.md``,
section "Zero! campaign game", says where each printed value is and why every other
value was chosen.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from engine.dif.components import Altitude, BombResult, Card, Side

__all__ = [
    "ALT",
    "ID",
    "SIDE",
    "BombingChart",
    "BombingMode",
    "CardBase",
    "ChartRow",
    "DamageLevel",
    "DamageTable",
    "Frozen",
    "ModeRule",
    "Norden",
    "TargetRatings",
    "TargetSheet",
    "check_printed",
]

ID = r"^[a-z0-9][a-z0-9-]*$"
"""The shape of every id in the campaign files (aircraft, targets, options)."""

RESULT_ORDER = (BombResult.MISS, BombResult.HIT, BombResult.DIRECT, BombResult.VITAL)
"""The bombing results "in ascending order of success" (§21.13)."""


class Frozen(BaseModel):
    """A frozen, hashable model that refuses unknown fields (every campaign model)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --- field readers ---------------------------------------------------------------------

_ALTITUDE_NAMES = {a.name.lower(): a for a in Altitude} | {a.code.lower(): a for a in Altitude}


def _altitude(value: Any) -> Any:
    """``VL``/``L``/``M``/``H``/``VH`` or ``very_low`` ... ``very_high`` -> :class:`Altitude`."""
    if isinstance(value, str):
        key = value.strip().lower().replace(" ", "_")
        if key not in _ALTITUDE_NAMES:
            raise ValueError(f"{value!r} is no altitude (VL, L, M, H, VH)")
        return _ALTITUDE_NAMES[key]
    return value


ALT = Annotated[Altitude, BeforeValidator(_altitude)]
"""An altitude field that reads a code (``M``) or a name (``medium``)."""


def _side(value: Any) -> Any:
    """``japanese`` (Zero!'s name for the Axis side, 4.2), ``axis`` or ``allied``."""
    if isinstance(value, str) and value.strip().lower() == "japanese":
        return Side.AXIS
    return value


SIDE = Annotated[Side, BeforeValidator(_side)]
"""A side field that also reads ``japanese``."""


# --- printed values ----------------------------------------------------------------------

_STEP = re.compile(r"^(?P<name>[A-Za-z0-9_-]+)(?:\[(?P<index>\d+|\*)\])?$")


def _resolve(node: Any, steps: list[str]) -> bool:
    """Whether ``steps`` (``levels[*]``, ``damage``, ``hit``) lead somewhere in ``node``."""
    if not steps:
        return True
    match = _STEP.match(steps[0])
    if match is None:
        return False
    name, index = match["name"], match["index"]
    if isinstance(node, BaseModel):
        if name not in type(node).model_fields:
            return False
        child = getattr(node, name)
    elif isinstance(node, Mapping):
        keys = {str(getattr(k, "value", k)): k for k in node}
        if Side.AXIS in node:
            keys["japanese"] = Side.AXIS  # Zero!'s name for the side (4.2)
        if name not in keys:
            return False
        child = node[keys[name]]
    else:
        return False
    if index is None:
        return _resolve(child, steps[1:])
    if not isinstance(child, tuple) or not child:
        return False
    items: Iterable[Any] = child if index == "*" else child[int(index) : int(index) + 1]
    chosen = list(items)
    return bool(chosen) and all(_resolve(item, steps[1:]) for item in chosen)


def check_printed(model: BaseModel, printed: Iterable[str]) -> None:
    """Every ``printed`` path names a field of ``model`` (``levels[1].vp``,
    ``levels[*].damage``, ``damage.direct``, ``missions.OOS``): a typo would otherwise
    mark nothing printed and go unnoticed."""
    for path in sorted(printed):
        if not _resolve(model, path.split(".")):
            raise ValueError(f"printed: {path!r} names no field")


# --- targets -------------------------------------------------------------------------------


class DamageTable(Frozen):
    """The Damage points each bombing or strafing result inflicts on a target (§21.83)."""

    miss: int = Field(default=0, ge=0, le=0, description="a Miss never scores (§21.13)")
    hit: int = Field(ge=0, le=20)
    direct: int = Field(ge=0, le=20)
    vital: int = Field(ge=0, le=20)

    @model_validator(mode="after")
    def _ascending(self) -> DamageTable:
        # "in ascending order of success: Miss, Hit, Direct, Vital" (§21.13)
        if not self.miss <= self.hit <= self.direct <= self.vital:
            raise ValueError("damage must not fall from Miss to Hit, Direct and Vital (§21.13)")
        return self

    def points(self, result: BombResult, *, torpedo: bool = False) -> int:
        """Damage of one result; a Torpedo attack scores twice, a Miss stays a Miss (§21.55)."""
        base = {
            BombResult.MISS: self.miss,
            BombResult.HIT: self.hit,
            BombResult.DIRECT: self.direct,
            BombResult.VITAL: self.vital,
        }[result]
        return base * 2 if torpedo else base


class DamageLevel(Frozen):
    """A damage level: reached at ``damage`` points, worth ``vp`` to the attacker."""

    name: str = Field(min_length=1)
    damage: int = Field(ge=0, description="Damage points that reach this level")
    vp: int = Field(ge=0, description="Victory Points the attacker scores at this level")


class TargetRatings(Frozen):
    """What a Target Sheet and a scoresheet's Damage Record share (§21.92, §25.82)."""

    name: str = Field(min_length=1)
    naval: bool = Field(
        description="a Naval Target: Torpedo Bombing allowed (§21.52), "
        "Saturation results one level down (§21.63), no Norden cards"
    )
    strafe: bool = Field(description="may be Strafed (a Carrier Fleet may not, §21.71)")
    discretionary: int = Field(
        ge=0,
        le=6,
        description="Discretionary Fire: cards per "
        "aircraft Over the Target, Ingress and Egress (§22.13)",
    )
    aa: int = Field(
        ge=0,
        le=6,
        description="Anti-Aircraft Fire: cards per aircraft on "
        "the Bomb Turn, before the Bombing Chart's change (§22.23)",
    )
    damage: DamageTable
    levels: tuple[DamageLevel, ...] = Field(min_length=2)

    @model_validator(mode="after")
    def _levels(self) -> TargetRatings:
        if self.levels[0].damage != 0:
            raise ValueError("levels: the first level is the undamaged one, at 0 Damage")
        for before, after in itertools.pairwise(self.levels):
            if after.damage <= before.damage:
                raise ValueError(
                    f"levels: {after.name!r} must need more Damage than {before.name!r}"
                )
            if after.vp < before.vp:
                raise ValueError(f"levels: {after.name!r} is worth fewer VP than {before.name!r}")
        names = [lv.name for lv in self.levels]
        if len(set(names)) != len(names):
            raise ValueError("levels: each level has its own name")
        return self

    def level(self, damage: int) -> DamageLevel:
        """The level ``damage`` points reach (§21.81)."""
        return [lv for lv in self.levels if lv.damage <= max(damage, 0)][-1]


class TargetSheet(TargetRatings):
    """One side of one of the four double-sided Target Sheets (§21.9; components L14)."""

    id: str = Field(pattern=ID)
    sheet: str = Field(pattern=r"^[1-4][AB]$", description="sheet number and side, e.g. 3A")
    printed: frozenset[str] = Field(default=frozenset(), description="field paths the book prints")

    @model_validator(mode="after")
    def _four_levels(self) -> TargetSheet:
        if len(self.levels) != 4:
            raise ValueError("levels: every Target has four levels of damage (§21.81)")
        check_printed(self, self.printed)
        return self


# --- the Bombing Chart ---------------------------------------------------------------------


class BombingMode(StrEnum):
    """How an aircraft over the target attacks it (§21.2), or that it does not."""

    LEVEL = "level"
    """Level Bombing (§21.3): Fighters, some Light Bombers, Bombers with the capability."""
    DIVE = "dive"
    """Dive Bombing (§21.4): Light Bombers with the capability."""
    TORPEDO = "torpedo"
    """Torpedo Bombing (§21.5): "Torpedo" aircraft, Naval Targets only."""
    SATURATION = "saturation"
    """Saturation Bombing (§21.6): Medium and Heavy Bombers."""
    STRAFING = "strafing"
    """Strafing (§21.7): Fighters and Light Bombers at Very Low."""
    NONE = "none"
    """Over the Target, neither bombing nor strafing: Anti-Aircraft Fire only (§22.21)."""


class CardBase(StrEnum):
    """What the number of Bombing (or Strafing) cards starts from."""

    FACTOR = "factor"
    """The aircraft's Bombing Factor (the rules also say Bombing Capacity, §21.32,
    §21.43, §21.62: one number on the card, its Damaged side's for a Damaged bomber)."""
    ONE = "one"
    """One card (Torpedo, §21.55)."""
    BURSTS = "bursts"
    """The Leader's Number of Bursts; a Wingman uses his Leader's (§21.73)."""
    NONE = "none"
    """No cards (not bombing)."""


class ChartRow(Frozen):
    """One altitude of one Bombing Mode on the Bombing Chart."""

    altitude: ALT = Field(description="the altitude the bombs are dropped from")
    start: ALT | None = Field(
        default=None,
        description="Dive Bombing: the altitude the dive begins at, one level higher; "
        "the drop costs no card (Dive Brakes, §21.42)",
    )
    cards: int = Field(ge=-3, le=3, description="added to the base number of cards")
    aa: int = Field(ge=-3, le=3, description="added to the target's Anti-Aircraft Fire")


class ModeRule(Frozen):
    """A Bombing Mode's column of the Bombing Chart."""

    mode: BombingMode
    base: CardBase
    min_cards: int = Field(
        default=0, ge=0, le=1, description="Strafing draws at least one (§21.73)"
    )
    results: Literal["all", "hit_miss"] = Field(
        default="all", description="Strafing scores only Hit or Miss (§21.74)"
    )
    damage_multiplier: int = Field(default=1, ge=1, le=2, description="Torpedo: x2 (§21.55)")
    naval_only: bool = Field(default=False, description="Torpedo: Naval Targets only (§21.52)")
    naval_shift: int = Field(
        default=0, ge=0, le=1, description="results one level lower vs a Naval Target (§21.63)"
    )
    rows: tuple[ChartRow, ...] = Field(min_length=1)
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _rows(self) -> ModeRule:
        seen = [r.altitude for r in self.rows]
        if len(set(seen)) != len(seen):
            raise ValueError("rows: one row per altitude")
        for row in self.rows:
            if (self.mode is BombingMode.DIVE) != (row.start is not None):
                raise ValueError(
                    "rows: a Dive Bombing row (only) names the altitude the "
                    "dive starts from (§21.41)"
                )
            if row.start is not None and row.start != row.altitude + 1:
                raise ValueError(
                    f"rows: a dive drops one level (§21.42), not "
                    f"{row.start.code} to {row.altitude.code}"
                )
            if self.base is CardBase.NONE and row.cards:
                raise ValueError("rows: no cards are drawn without bombing")
        check_printed(self, self.printed)
        return self

    def row(self, altitude: Altitude) -> ChartRow | None:
        """The row for bombs dropped at ``altitude``; None: the mode cannot be used there."""
        return next((r for r in self.rows if r.altitude is altitude), None)


class Norden(Frozen):
    """The Norden Bombsight (§18.3): two more Bomb Cards, not against a Naval Target
    (GMT errata, L1193)."""

    cards: int = Field(ge=0, le=4)
    naval: bool = Field(description="whether the extra cards are drawn against a Naval Target")


class BombingChart(Frozen):
    """The Bombing Chart: each Bombing Mode's cards and Anti-Aircraft change by altitude."""

    modes: tuple[ModeRule, ...]
    norden: Norden
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _every_mode(self) -> BombingChart:
        have = [m.mode for m in self.modes]
        if sorted(have) != sorted(BombingMode):
            raise ValueError(
                "modes: each Bombing Mode once (level, dive, torpedo, saturation, strafing, none)"
            )
        check_printed(self, self.printed)
        return self

    def rule(self, mode: BombingMode) -> ModeRule:
        return next(m for m in self.modes if m.mode is mode)

    def bomb_cards(
        self,
        mode: BombingMode,
        altitude: Altitude,
        *,
        factor: int = 0,
        bursts: int = 0,
        norden: bool = False,
        naval: bool = False,
    ) -> int:
        """Bombing (or Strafing) cards drawn; ValueError where the mode cannot be used."""
        rule = self.rule(mode)
        row = rule.row(altitude)
        if row is None:
            raise ValueError(f"{mode.value} is not possible at {altitude.code}")
        if rule.base is CardBase.FACTOR and factor <= 0:
            return 0  # a Bomb Factor of 0 drops nothing (the Damaged Ki-21, L1671)
        base = {
            CardBase.FACTOR: factor,
            CardBase.ONE: 1,
            CardBase.BURSTS: bursts,
            CardBase.NONE: 0,
        }[rule.base]
        cards = max(base + row.cards, rule.min_cards, 0)
        if norden and mode is BombingMode.SATURATION and (self.norden.naval or not naval):
            cards += self.norden.cards
        return cards

    def aa_cards(self, aa: int, mode: BombingMode, altitude: Altitude) -> int:
        """Anti-Aircraft cards drawn against one aircraft (§22.23), never fewer than 0."""
        row = self.rule(mode).row(altitude)
        if row is None:
            raise ValueError(f"{mode.value} is not possible at {altitude.code}")
        return max(0, aa + row.aa)

    def result(self, mode: BombingMode, card: Card, *, naval: bool) -> BombResult:
        """What one drawn card scores: its bombing annotation, one level lower for
        Saturation against a Naval Target (§21.63); Strafing reads the card's Hit/Miss
        strafing annotation instead (§21.74)."""
        rule = self.rule(mode)
        if rule.results == "hit_miss":
            return BombResult(card.over_target)
        rank = RESULT_ORDER.index(card.bomb)
        if naval:
            rank = max(0, rank - rule.naval_shift)
        return RESULT_ORDER[rank]
