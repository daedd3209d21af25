"""How a Locked-On game starts: the lobby's options, each seat's pick, the setup.

A game is ``(setup, seed, action log)``. The setup holds what the players agreed and
chose in the lobby (VP total and year L68-70, optional rules L374-415, aircraft,
skills L326-327, missile loads L375-379), or, for a campaign mission, what the
campaign layer built from the Mission circle (:class:`MissionRules`, L269-314). Conformance vectors and tests may also fix
what normally comes from the shuffle or the secret picks (hands, cards on top of the
deck, altitudes, who goes first) and start from any position (ranges, positions,
afterburners, missiles, countermeasures); the bot never sets those.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from engine.lockedon.actions import CARD_CODE
from engine.lockedon.components import Altitude, MissileLoad, Position, Range, Rating

__all__ = [
    "LockedOnOptions",
    "LockedOnPick",
    "LockedOnSetup",
    "MissionRules",
    "PositionSetup",
    "SeatSetup",
    "side_ids",
]

SEAT = re.compile(r"^[A-Z][0-9]{1,2}$")
SIDE = re.compile(r"^[A-Z]$")


def side_ids(n: int) -> tuple[str, ...]:
    """The first ``n`` side ids: ``A``, ``B``, ``C``..."""
    return tuple(chr(ord("A") + i) for i in range(n))


class LockedOnOptions(BaseModel):
    """What a Locked-On lobby asks: the agreed VP total and year (L68-70), the number
    of rounds (L85) and the optional rules (L374-415)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    vp_limit: int | None = Field(default=None, ge=1, le=2000)
    """The agreed Victory Point total a side may not exceed (L68-70); None: no limit."""
    battle_year: int | None = Field(
        default=None, ge=1945, le=2000, validation_alias=AliasChoices("battle_year", "year")
    )
    """The year of the battle: an aircraft (and a missile bought for a custom load)
    must have entered service by then (L70; C-L3 in docs/rules-decisions.md). Named
    ``battle_year`` because the lobby's options are typed by name and Down in Flames
    already asks a ``year`` of its own range (1936-1945); ``year`` is read too."""
    rounds: int = Field(default=6, ge=1, le=20)
    """Rounds before the dogfight is a draw (L85, L90)."""
    missile_loads: bool = False
    """Custom missile loads may be bought (Missile Loads, L375-385)."""
    team_games: bool = False
    """More than one aircraft a side (Team Games, L388-394): the lobby then accepts
    several seats on a side. The engine plays any setup it is given."""
    teamwork: bool = False
    """The side with more aircraft may add one reaction per enemy Action (L400-404)."""
    free_for_all: bool = False
    """Every seat is its own side (L405-406)."""
    sides: int = Field(default=2, ge=2, le=8)
    """Sides of a free-for-all (one per player); always 2 otherwise (team games, L389)."""
    several_aircraft: bool = False
    """A player may fly several aircraft, each its own seat (L395-397): a lobby rule;
    the engine plays seats, one aircraft each, either way."""
    second_deck: bool = False
    """Two Action decks combined (L414-415)."""

    @property
    def year(self) -> int | None:
        """The year of the battle (``battle_year``)."""
        return self.battle_year

    @model_validator(mode="after")
    def _sides(self) -> LockedOnOptions:
        if not self.free_for_all and self.sides != 2:
            raise ValueError("only a free-for-all has more than two sides")
        if self.teamwork and not self.team_games:
            raise ValueError("Teamwork is a rule of team games (L400-401)")
        if self.free_for_all and self.teamwork:
            raise ValueError("a free-for-all has no friendly aircraft, so no Teamwork (L406)")
        return self


class LockedOnPick(BaseModel):
    """What one seat flies: an aircraft, its skills (L327), the rating changes those
    skills let it choose (Green, Newbie, Skilled, Veteran, Ace: L317, L330-371) and
    its missile load (standard, or bought pairs: L375-379)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    aircraft: str
    skills: tuple[str, ...] = ()
    ratings: dict[str, dict[Rating, int]] = Field(default_factory=dict)
    """For each rating-changing skill, the ratings it changes: ``{"green": {"ew": -1}}``."""
    missiles: tuple[MissileLoad, ...] | None = None
    """None: the Standard Missile Load. Otherwise a custom load (Missile Loads option):
    2 or 4 of each missile type (1 or 2 pairs), ``()`` for none."""

    @field_validator("skills", mode="before")
    @classmethod
    def _skill_list(cls, v: object) -> object:
        if isinstance(v, str):
            v = [w for w in v.replace(",", " ").split() if w]
        if isinstance(v, (list, tuple)):
            if len(set(v)) != len(v):
                raise ValueError("a skill is taken once per aircraft")
            return tuple(v)
        return v


class SeatSetup(LockedOnPick):
    """A seat of a started game: its id, its side and its pick."""

    seat: str
    side: str

    @field_validator("seat")
    @classmethod
    def _seat(cls, v: str) -> str:
        if not SEAT.match(v):
            raise ValueError(f"seat {v!r} must be a capital letter and a number, e.g. A1")
        return v

    @field_validator("side")
    @classmethod
    def _side(cls, v: str) -> str:
        if not SIDE.match(v):
            raise ValueError(f"side {v!r} must be a capital letter, e.g. A")
        return v


class PositionSetup(BaseModel):
    """``seat`` holds ``position`` on ``on`` (tests and vectors)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: str
    on: str
    position: Position

    @field_validator("position", mode="before")
    @classmethod
    def _position_name(cls, v: object) -> object:
        if isinstance(v, str) and not v.lstrip("-").isdigit():
            try:
                return Position[v.strip().upper()]
            except KeyError:
                raise ValueError(f"unknown position {v!r}") from None
        return v


class MissionRules(BaseModel):
    """The rules a campaign mission adds to a game (Playing a Campaign, L269-314).

    Built by the campaign layer from a Mission circle; the game's sides are the game
    side ids (``A``, ``B``), not the nations. The mission's number of turns is
    ``options.rounds`` (six unless stated, L273); every aircraft's Special Condition
    skills and its secretly selected Option are in its seat's ``skills`` (L286, L311),
    and campaign-only skills (90° Angle, 0° Angle, NFOD) may be taken.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1)
    """The Mission Number (L281)."""
    title: str
    """The Mission Title: does not affect play (L282)."""
    vp: dict[str, int]
    """For each game side, the Victory Points stated for it: gained in full for
    destroying every enemy aircraft, otherwise apportioned by the enemy aircraft
    destroyed, rounding up (L305-307). They supersede the aircraft's VP (L308)."""
    sites: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """For each game side, the ids of the SAM/AAA sites it owns
    (``data/lockedon/sites.yaml``, L290-300); a site may be listed twice."""
    names: dict[str, str] = Field(default_factory=dict)
    """For each game side, the nation it flies for, as the sheet prints it ('Israel'):
    the game names its sides so (none: 'Side A')."""

    @field_validator("vp", "sites", "names")
    @classmethod
    def _side_keys(cls, v: dict[str, Any]) -> dict[str, Any]:
        for side in v:
            if not SIDE.match(side):
                raise ValueError(f"side {side!r} must be a capital letter, e.g. A")
        return v

    @field_validator("vp")
    @classmethod
    def _vp(cls, v: dict[str, int]) -> dict[str, int]:
        if any(n < 0 for n in v.values()):
            raise ValueError("a mission's VP are 0 or more")
        return v


class LockedOnSetup(BaseModel):
    """Everything needed, with a seed, to start a game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    options: LockedOnOptions = LockedOnOptions()
    seats: tuple[SeatSetup, ...] = Field(min_length=2)
    mission: MissionRules | None = None
    """A campaign mission's rules (:class:`MissionRules`); None: a dogfight. Left out
    of the dump when None, so a dogfight's setup dumps as it always did (stored
    games, exported logs)."""

    # Fixed instead of random or secret: for rulebook examples and tests only.
    altitudes: dict[str, Altitude] | None = None
    """Starting altitudes by seat (every seat), instead of the secret picks."""
    hands: dict[str, tuple[str, ...]] | None = None
    """Fixed starting hands by seat; a seat not listed is dealt normally (with its
    skills' starting cards); a listed seat gets exactly these cards."""
    deck_top: tuple[str, ...] = ()
    """Card codes on top of the draw pile, the next card drawn first."""
    first_side: str | None = None
    """The side that goes first (skips the first-or-second choice)."""
    ranges: dict[str, Range] = Field(default_factory=dict)
    positions: tuple[PositionSetup, ...] = ()
    afterburners: dict[str, bool] = Field(default_factory=dict)
    """Afterburners already on (a counter spent) by seat."""
    ab_left: dict[str, int] = Field(default_factory=dict)
    """Afterburner counters left by seat."""
    missiles: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Missiles carried by seat (replacing the load)."""
    countermeasures: dict[str, int] = Field(default_factory=dict)
    used: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Once-per-game skills already used, by seat."""

    @model_serializer(mode="wrap")
    def _dump(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self.mission is None:
            data.pop("mission", None)
        return data

    @field_validator("altitudes", mode="before")
    @classmethod
    def _altitude_codes(cls, v: object) -> object:
        if isinstance(v, dict):
            return {k: Altitude.from_code(a) if isinstance(a, str) else a for k, a in v.items()}
        return v

    @field_validator("ranges", mode="before")
    @classmethod
    def _range_codes(cls, v: object) -> object:
        if isinstance(v, dict):
            return {k: Range.from_code(r) if isinstance(r, str) else r for k, r in v.items()}
        return v

    @field_validator("deck_top")
    @classmethod
    def _codes(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for code in v:
            if not CARD_CODE.match(code):
                raise ValueError(f"{code!r} is not a card code")
        return v
