"""The historical scenarios of §17.0 (L1109-1267), as printed, and a server's own in
the same schema (a content pack's ``eagles.scenarios``, numbered after the book's)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from engine.eagles.enums import (
    YM,
    Altitude,
    EngagementType,
    Frozen,
    PilotQuality,
    ScenarioRule,
    Side,
    VictoryKind,
    Zone,
    coerce,
)

__all__ = [
    "MAX_FORCE",
    "MAX_NUMBER",
    "Force",
    "ForceAircraft",
    "PilotCounts",
    "Scenario",
]

MAX_FORCE = 6
"""Aircraft a side flies in a scenario: up to six (§3.53's Flights; the book's
scenarios have at most six a side)."""
MAX_NUMBER = 99
"""The book numbers its scenarios 1 to 8 (§17.0); a content pack's come after."""


class ForceAircraft(Frozen):
    """Aircraft of one type in a scenario's forces: ``(6) SPAD XIII``."""

    aircraft: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="an Aircraft id")
    count: int = Field(ge=1, le=6)
    bombs: bool = Field(default=False, description="carrying bombs (Scenario 8)")
    incendiary: bool = Field(default=False, description="Incendiary Ammunition (§15.6)")


class PilotCounts(Frozen):
    """Pilot counters of each quality in a scenario's force (§14.1), the leader apart.
    YAML: ``{green: 1, experienced: 4}``; ``counts[PilotQuality.GREEN]`` reads one."""

    green: int = Field(default=0, ge=0, le=6)
    inexperienced: int = Field(default=0, ge=0, le=6)
    experienced: int = Field(default=0, ge=0, le=6)

    @property
    def total(self) -> int:
        return self.green + self.inexperienced + self.experienced

    def __getitem__(self, quality: PilotQuality) -> int:
        """The number of ``quality`` pilots (0 for leaders and Aces: see Force.leader)."""
        return int(getattr(self, quality.value, 0))

    def qualities(self) -> list[PilotQuality]:
        """One entry per pilot, weakest first: ``[GREEN, EXPERIENCED, ...]``."""
        return [q for q in PilotQuality for _ in range(self[q])]


class Force(Frozen):
    """One side's forces in a historical scenario (§17.0), as printed."""

    aircraft: tuple[ForceAircraft, ...] = Field(default=(), description="its aircraft")
    drawn_from_cup: tuple[str, ...] = Field(
        default=(), description="one of these aircraft drawn per engagement (Scenario 7)"
    )
    pilots: PilotCounts = Field(
        default_factory=PilotCounts, description="pilot counters besides the leader"
    )
    leader: str | None = Field(default=None, description="a FlightLeader id (leader or Ace)")
    leader_ace_side: bool = Field(
        default=False, description="the Flight Leader flies on his '+1 Ace' side"
    )
    balloons: int = Field(default=0, ge=0, le=1, description="balloons per engagement")

    @property
    def aircraft_count(self) -> int:
        return sum(entry.count for entry in self.aircraft) + (1 if self.drawn_from_cup else 0)

    @property
    def pilot_count(self) -> int:
        """Pilots listed: the counters plus the leader."""
        return self.pilots.total + (1 if self.leader else 0)

    @model_validator(mode="after")
    def _consistent(self) -> Force:
        if not self.aircraft and not self.drawn_from_cup and not self.balloons:
            raise ValueError("a force has aircraft, a cup to draw from, or a balloon")
        if self.leader_ace_side and self.leader is None:
            raise ValueError("leader_ace_side needs a leader")
        if self.aircraft_count > MAX_FORCE:
            raise ValueError(
                f"{self.aircraft_count} aircraft, more than the {MAX_FORCE} a side flies (§3.53)"
            )
        if self.pilots.total and self.pilot_count != sum(e.count for e in self.aircraft):
            raise ValueError(
                f"{self.pilot_count} pilots for {sum(e.count for e in self.aircraft)} aircraft"
            )
        return self


class Scenario(Frozen):
    """A historical scenario (§17.0, L1109-1267), exactly as printed; a content pack's
    scenario has the same fields, its number above the book's eight."""

    number: int = Field(ge=1, le=MAX_NUMBER)
    name: str = Field(min_length=1, description="a short title (authored)")
    date: str = Field(min_length=1, description="the date as printed: 'September 16th, 1918'")
    month: YM = Field(description="its year and month (aircraft and Aces' availability)")
    type: Annotated[EngagementType, coerce(EngagementType)]
    altitude: Annotated[Altitude, coerce(Altitude)]
    zone: Annotated[Zone, coerce(Zone)]
    initiative: Annotated[Side, coerce(Side)] | None = Field(
        description="the side the scenario gives the Initiative ('Initiative: Germans'); "
        "with no_initiative_phase it has it every turn (see SOURCES.md on the others)"
    )
    allied: Force
    german: Force
    rules: frozenset[Annotated[ScenarioRule, coerce(ScenarioRule)]] = frozenset()
    engagements: int = Field(default=1, ge=1, le=3, description="consecutive engagements")
    turns_per_engagement: int = Field(default=8, ge=1, le=8)
    victory: Annotated[VictoryKind, coerce(VictoryKind)] = VictoryKind.STANDARD
    victory_side: Annotated[Side, coerce(Side)] | None = None
    victory_ace: str | None = Field(default=None, description="a FlightLeader id")

    def force(self, side: Side) -> Force:
        return self.allied if side is Side.ALLIED else self.german

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if (self.victory is VictoryKind.STANDARD) != (self.victory_side is None):
            raise ValueError("victory_side is set exactly for a non-standard victory")
        if (self.victory is VictoryKind.STANDARD) != (self.victory_ace is None):
            raise ValueError("victory_ace is set exactly for a non-standard victory")
        if ScenarioRule.NO_INITIATIVE_PHASE in self.rules and self.initiative is None:
            raise ValueError("no_initiative_phase needs the side that always has it")
        if not self.allied.aircraft_count and not self.german.aircraft_count:
            raise ValueError("no side has aircraft (only balloons)")
        if ScenarioRule.SOLITAIRE in self.rules and self.german.aircraft_count:
            raise ValueError(
                "solitaire: the rules play only a German balloon, not aircraft (Scenario 1)"
            )
        if ScenarioRule.ENDS_WHEN_BALLOON_GROUNDED in self.rules and not (
            self.allied.balloons or self.german.balloons
        ):
            raise ValueError("ends_when_balloon_grounded needs a balloon")
        return self
