"""An aircraft counter type (§2.13) with its line of the Aircraft Availability Chart."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator, model_validator

from engine.eagles.enums import (
    YM,
    AircraftType,
    Characteristic,
    DefenceClass,
    Frozen,
    Side,
    Symbol,
    YearMonth,
    coerce,
)

__all__ = [
    "Aircraft",
]


class Aircraft(Frozen):
    """An aircraft counter type (§2.13) with its line of the Aircraft Availability
    Chart (in-service dates and point value, §3.51, L96, L181)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="slug, e.g. 'spad-xiii'")
    name: str = Field(min_length=1, description="as the rulebook writes it, e.g. 'SPAD XIII'")
    side: Annotated[Side, coerce(Side)]
    type: Annotated[AircraftType, coerce(AircraftType)]
    climb: int = Field(ge=0, le=9)
    dive: int = Field(ge=0, le=9)
    speed: int = Field(ge=0, le=9)
    agility: int = Field(ge=0, le=9)
    defence: Annotated[DefenceClass, coerce(DefenceClass)]
    guns_forward: int = Field(ge=0, le=2, description="forward-firing machine guns")
    guns_rear: int = Field(default=0, ge=0, le=2, description="guns of the rear gunner")
    lewis: bool = Field(default=False, description="an 'L': a wing-mounted Lewis gun (§15.4)")
    bombs: int = Field(default=0, ge=0, le=4, description="points of bombs it can carry")
    light_bombs: bool = Field(default=False, description="red bomb symbol: a very light load")
    characteristics: frozenset[Annotated[Characteristic, coerce(Characteristic)]] = frozenset()
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
