"""What a Down in Flames lobby asks (:class:`DifOptions`) and what one seat takes
(:class:`DifPick`): the contract's ``options_model`` and ``pick_model``.

Both read what the bot stored before the game-system contract existed: a lobby's
options JSON (``year``, ``to_the_death``, ``vp_bonus``; the bot adds the ruleset and
keeps its own keys beside them) and a seat's payload (``aircraft``, ``wingman``,
``pilot`` as ``"A,BU"``; seats from before team games hold only the aircraft). A
pick dumps to that same payload.
"""

from __future__ import annotations

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
    field_validator,
    model_validator,
)

from engine.dif.components import PilotSkill, Ruleset
from engine.dif.setup import parse_skills
from strings import Term

__all__ = ["DifOptions", "DifPick"]


class DifOptions(BaseModel):
    """What a Down in Flames lobby asks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ruleset: Ruleset
    year: int = Field(ge=1930, le=1950)
    to_the_death: bool = False
    """Fight until one side has no aircraft left instead of six turns (Zero! 4.8)."""
    vp_bonus: bool = False
    """The side with the lower aircraft points gets the difference as VP (13.1)."""
    mixed: bool = False
    """A Zero! game whose Japanese side may fly any Axis aircraft (the host's choice:
    4.2 and 5.0 give it Japanese aircraft only). Rise of the Luftwaffe has no such
    restriction, so the option is Zero!'s alone."""

    @model_validator(mode="after")
    def _mixed_is_zero_only(self) -> DifOptions:
        if self.mixed and self.ruleset is not Ruleset.ZERO:
            raise ValueError(Term("dif.ui.lobby.mixed_zero_only"))
        return self


class DifPick(BaseModel):
    """What one seat flies: an element (13.3), with its leader's pilot skills."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    aircraft: str
    wingman: bool = True
    pilot: tuple[PilotSkill, ...] = ()

    @field_validator("pilot", mode="before")
    @classmethod
    def _skills(cls, v: object) -> object:
        return parse_skills(v)

    @field_serializer("pilot")
    def _stored(self, pilot: tuple[PilotSkill, ...]) -> str:
        """``"A,BU"``: the seat payload's form."""
        return ",".join(k.value for k in pilot)
