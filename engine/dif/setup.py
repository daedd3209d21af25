"""How a Down in Flames game starts: the setup a game is created from.

A game is ``(setup, seed, action log)``. The setup holds what the players chose in
the lobby (ruleset, year, aircraft, 4.1-4.4). Conformance vectors and tests may also
fix what normally comes from the shuffle or the secret picks (hands, cards on top
of the deck, altitudes, who won the coin flip, positions, hits), so that a printed
example can be replayed exactly; the bot never sets those.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from engine.dif.actions import BOMBER_REF, CARD_CODE, PLANE_REF, quoted
from engine.dif.components import Altitude, PilotSkill, Position, Ruleset, Side
from engine.dif.mission import MissionSetup
from strings import Term

__all__ = ["JAPANESE", "MAX_AIRCRAFT", "DifSetup", "ElementSetup", "PositionSetup", "parse_skills"]

SEAT = re.compile(r"^[A-Z][0-9]{1,2}$")

MAX_AIRCRAFT = 15
"""The most aircraft a game starts with, in both rulesets: the largest column of
RotL's victory table ("14 to 15" aircraft at the start, L69). Zero! prints no limit
(docs/rules-decisions.md)."""

JAPANESE = "Japan"
"""The nation of Zero!'s red-bordered aircraft cards (5.0): in a Zero! game the
Japanese side flies these only, unless the host chose a mixed game (4.2)."""


def parse_skills(v: object) -> object:
    """Pilot skills as a setup or a lobby gives them: ``"A,BU"``, ``["A", "BV"]`` or
    :class:`PilotSkill` values; each at most once, in the printed order."""
    if isinstance(v, str):
        v = [w for w in v.replace(",", " ").split() if w]
    if isinstance(v, (list, tuple)):
        out = [PilotSkill.parse(x) if isinstance(x, str) else x for x in v]
        if len(set(out)) != len(out):
            raise ValueError(Term("dif.setup.skill_twice"))
        return tuple(sorted(out, key=list(PilotSkill).index))
    return v


class ElementSetup(BaseModel):
    """One element: seat id, side, aircraft, with or without its wingman (13.3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: str = Field(description="e.g. 'A1' for the first Allied element, 'X1' for Axis")
    side: Side
    aircraft: str
    wingman: bool = True
    pilot: tuple[PilotSkill, ...] = ()
    """The leader's pilot skills (RotL "Pilots", Zero! 13.4); empty = unskilled."""

    @field_validator("pilot", mode="before")
    @classmethod
    def _skills(cls, v: object) -> object:
        return parse_skills(v)

    @field_validator("seat")
    @classmethod
    def _seat(cls, v: str) -> str:
        if not SEAT.match(v):
            raise ValueError(f"seat {quoted(v)} must be a capital letter and a number, e.g. A1")
        return v


class PositionSetup(BaseModel):
    """``leader`` holds ``position`` on ``on`` (both element seats), e.g. Advantaged."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    leader: str
    on: str
    position: Position

    @field_validator("position", mode="before")
    @classmethod
    def _position_name(cls, v: object) -> object:
        # Accept "Advantaged", "tailing"... as well as -2..2, for hand-written vectors.
        if isinstance(v, str) and not v.lstrip("-").isdigit():
            try:
                return Position[v.strip().upper()]
            except KeyError:
                names = ", ".join(p.label for p in Position)
                raise ValueError(f"unknown position {quoted(v)} (use one of {names})") from None
        return v


class DifSetup(BaseModel):
    """Everything needed, with a seed, to start a game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ruleset: Ruleset
    year: int = Field(ge=1930, le=1950)
    elements: tuple[ElementSetup, ...] = ()
    """Two at least in a dogfight; a campaign mission may have fewer, its Formations
    being seats too (an unescorted raid on an undefended target, §24.43)."""
    to_the_death: bool = False
    """Fight until one side has no aircraft left instead of six turns (Zero! 4.8)."""
    vp_bonus: bool = False
    """Give the side with the lower aircraft points the difference as VP (13.1)."""
    mixed: bool | None = None
    """A Zero! game where the Japanese side may also fly European Axis aircraft (the
    host's choice; 4.2 and 5.0 give that side Japanese aircraft only). The lobby sets
    it, True or False, and :meth:`~engine.dif.game.DifEngine.new_game` then checks the
    Japanese side's aircraft. None: not chosen, as in a setup stored before this option
    existed (which must still replay) or built by a test; nationality is not checked."""
    mission: MissionSetup | None = None
    """A Zero! campaign mission (:mod:`engine.dif.mission`); None: a dogfight."""

    @model_serializer(mode="wrap")
    def _without_unset_mixed(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A setup that never chose ``mixed`` dumps as before the option existed, so the
        # exported logs and stored setups of such games stay byte for byte the same.
        data: dict[str, Any] = handler(self)
        if self.mixed is None:
            data.pop("mixed", None)
        if self.mission is None:
            data.pop("mission", None)
        return data

    # Fixed instead of random or secret: for rulebook examples and tests only.
    altitudes: dict[str, Altitude] | None = None
    hands: dict[str, tuple[str, ...]] | None = None
    """Fixed starting hands by seat; a seat not listed (or listed empty) is dealt
    normally at the reveal, from the top of the deck (``deck_top`` first)."""
    deck_top: tuple[str, ...] = ()
    """Card codes on top of the draw pile, the next card drawn first."""
    first_side: Side | None = None
    order: tuple[str, ...] | None = None
    positions: tuple[PositionSetup, ...] = ()
    hits: dict[str, int] = Field(default_factory=dict)

    @field_validator("altitudes", mode="before")
    @classmethod
    def _altitude_codes(cls, v: object) -> object:
        # Accept "M", "VL"... as well as the enum values, for hand-written vectors.
        if isinstance(v, dict):
            return {k: Altitude.from_code(a) if isinstance(a, str) else a for k, a in v.items()}
        return v

    @field_validator("elements")
    @classmethod
    def _size(cls, v: tuple[ElementSetup, ...]) -> tuple[ElementSetup, ...]:
        n = sum(2 if e.wingman else 1 for e in v)
        if n > MAX_AIRCRAFT:
            raise ValueError(Term("dif.setup.too_many", n=n, max=MAX_AIRCRAFT))
        return v

    @model_validator(mode="after")
    def _two_elements(self) -> DifSetup:
        if self.mission is None and len(self.elements) < 2:
            raise ValueError("elements: a dogfight needs two elements at least")
        if self.mission is not None and not (self.elements or self.mission.formations):
            raise ValueError("elements: a mission needs an aircraft")
        return self

    @field_validator("deck_top")
    @classmethod
    def _codes(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for code in v:
            if not CARD_CODE.match(code):
                raise ValueError(f"{quoted(code)} is not a card code")
        return v

    @field_validator("hits")
    @classmethod
    def _refs(cls, v: dict[str, int]) -> dict[str, int]:
        for ref in v:
            if not (PLANE_REF.match(ref) or BOMBER_REF.match(ref)):
                raise ValueError(f"{quoted(ref)} is not an aircraft reference like A1L or X3B1")
        return v
