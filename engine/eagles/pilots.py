"""Flight Leaders (§14.5) and the Famous Aces of §18.0 with their abilities and aircraft."""

from __future__ import annotations

import itertools
from typing import Annotated

from pydantic import Field, field_validator, model_validator

from engine.eagles.enums import YM, AceAbility, Frozen, PilotQuality, Side, YearMonth, coerce

__all__ = [
    "AceMount",
    "FlightLeader",
]


class AceMount(Frozen):
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


class FlightLeader(Frozen):
    """A Flight Leader counter (§14.5) or a Famous Ace (§14.6, §18.0)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, description="as on the counter, e.g. 'Taylor'")
    side: Annotated[Side, coerce(Side)]
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
    abilities: tuple[Annotated[AceAbility, coerce(AceAbility)], ...] = Field(
        default=(), description="an Ace's special abilities, in the book's order"
    )
    asterisked: frozenset[Annotated[AceAbility, coerce(AceAbility)]] = Field(
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
