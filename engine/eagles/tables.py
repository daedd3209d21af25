"""The set-up and event tables: Random Events (§5), Tables E2/E5/E6 (§3.3-3.7),
Weather (§3.8, Campaign §6), the flight-size draw (§3.53), the Rear Gunner Fire Value
(§10.53), the Sustained Rate of Climb (§11.42) and the Engagement types (§16.4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, TypeVar

from pydantic import Field, field_validator, model_validator

from engine.eagles.enums import (
    DECK_SIZE,
    Altitude,
    DefenceClass,
    EngagementType,
    Frozen,
    RandomEvent,
    Side,
    Span,
    Weather,
    Zone,
    ZoneChoice,
    coerce,
)

__all__ = [
    "AltitudeRow",
    "EngagementRow",
    "EngagementSpec",
    "EventResolution",
    "FlightSizeRow",
    "MissionAircraft",
    "RandomEventRow",
    "RearGunnerRow",
    "SustainedClimbRow",
    "Tables",
    "WeatherColumn",
    "WeatherEffect",
    "WeatherRow",
    "ZoneRow",
]


class _Band(Frozen):
    """A row of a card-number table: the inclusive card numbers it covers."""

    cards: Span

    @field_validator("cards")
    @classmethod
    def _ordered(cls, value: tuple[int, int]) -> tuple[int, int]:
        low, high = value
        if not 1 <= low <= high <= DECK_SIZE:
            raise ValueError(f"{list(value)} is not a range within 1-{DECK_SIZE}")
        return value

    def covers(self, number: int) -> bool:
        return self.cards[0] <= number <= self.cards[1]


class RandomEventRow(_Band):
    """A row of the Random Events Table (§5.0): an event per Zone column."""

    allied_rear: Annotated[RandomEvent, coerce(RandomEvent)]
    allied_front: Annotated[RandomEvent, coerce(RandomEvent)]
    no_mans_land: Annotated[RandomEvent, coerce(RandomEvent)]
    german_front: Annotated[RandomEvent, coerce(RandomEvent)]
    german_rear: Annotated[RandomEvent, coerce(RandomEvent)]

    def event(self, zone: Zone) -> RandomEvent:
        return RandomEvent(getattr(self, zone.value))


class EventResolution(Frozen):
    """The instructions below the Random Events Table (L257): the second card's Fire
    Value decides which side an aircraft is added for or removed from, and where
    Clouds form. A Guns Jammed second card is drawn again."""

    add_allied: Span = Field(description="FVs that add the aircraft to the Allies")
    remove_allied: Span = Field(description="FVs that remove an Allied aircraft")
    clouds: tuple[tuple[Span, Annotated[Altitude, coerce(Altitude)]], ...] = Field(
        description="FV ranges -> the Clouds altitude"
    )

    def add_side(self, fire: int) -> Side:
        return Side.ALLIED if self.add_allied[0] <= fire <= self.add_allied[1] else Side.GERMAN

    def remove_side(self, fire: int) -> Side:
        return (
            Side.ALLIED if self.remove_allied[0] <= fire <= self.remove_allied[1] else Side.GERMAN
        )

    def cloud_altitude(self, fire: int) -> Altitude:
        for (low, high), altitude in self.clouds:
            if low <= fire <= high:
                return altitude
        raise ValueError(f"fire value {fire} is not in the Clouds instructions")

    @model_validator(mode="after")
    def _covers(self) -> EventResolution:
        _check_spans([span for span, _ in self.clouds], 1, 6, "clouds")
        for span in (self.add_allied, self.remove_allied):
            if not 1 <= span[0] <= span[1] <= 6:
                raise ValueError(f"{list(span)} is not a Fire Value range within 1-6")
        return self


class EngagementRow(_Band):
    """A row of Table E2 (§3.31): the Engagement type, and the attacker (the mission
    player, §16.13; None for a Patrol, which has no mission)."""

    type: Annotated[EngagementType, coerce(EngagementType)]
    attacker: Annotated[Side, coerce(Side)] | None = None


class ZoneRow(_Band):
    """A row of Table E5 (§3.41)."""

    zone: Annotated[Zone, coerce(Zone)]


class AltitudeRow(_Band):
    """A row of Table E6 (§3.7)."""

    altitude: Annotated[Altitude, coerce(Altitude)]


class WeatherColumn(Frozen):
    """A month column of the Weather Table (Campaign §6.12)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    months: frozenset[int] = Field(min_length=1)

    @field_validator("months")
    @classmethod
    def _months(cls, value: frozenset[int]) -> frozenset[int]:
        if not value <= set(range(1, 13)):
            raise ValueError("months are 1-12")
        return value


class WeatherRow(_Band):
    """A row of the Weather Table: a condition per month column, in column order."""

    weather: tuple[Annotated[Weather, coerce(Weather)], ...] = Field(min_length=1)


class WeatherEffect(Frozen):
    """What a Weather condition does ("listed below the Weather Table", Campaign
    §6.21). Only ``clouds``, ``on_fire_bonus`` and ``grounded`` act in a single
    Engagement; the rest are Campaign effects."""

    weather: Annotated[Weather, coerce(Weather)]
    grounded: bool = Field(default=False, description="no missions fly this phase")
    clouds: Annotated[Altitude, coerce(Altitude)] | None = Field(
        default=None, description="a Clouds marker starts at this altitude (§5.1)"
    )
    on_fire_bonus: int = Field(
        default=0, ge=0, le=3, description="any pilot at Low/Treetop may put out a fire (§10.88)"
    )
    patrol_only: bool = Field(default=False, description="non-Patrol missions become Patrols")
    fatigue: int = Field(default=0, ge=0, le=2, description="extra Fatigue Points (Campaign §8.1)")
    fatigue_low_only: bool = Field(
        default=False, description="the extra fatigue only for missions starting Low/Treetop"
    )
    safe_return_allied: int = Field(default=0, ge=-10, le=10)
    safe_return_german: int = Field(default=0, ge=-10, le=10)
    next_phase: Annotated[Weather, coerce(Weather)] | None = Field(
        default=None, description="the weather it causes in the next phase (Campaign §6.13)"
    )


class FlightSizeRow(Frozen):
    """The flight-size draw (§3.53, L185): Fire Values -> Scouts. A Guns Jammed card
    is drawn again."""

    fire: Span
    scouts: int = Field(ge=1, le=6)


class RearGunnerRow(Frozen):
    """Rear Gunner Fire Value (§10.53): the Tailing aircraft's Position Level -> FV."""

    level: Span
    fire: int = Field(ge=1, le=6)


class SustainedClimbRow(Frozen):
    """Sustained Rate of Climb (§11.42): current Climb Rating -> rate."""

    climb: Span
    rate: int = Field(ge=0, le=3)


class MissionAircraft(Frozen):
    """The mission aircraft one side brings as attacker in an Engagement type (§16.4)."""

    choices: tuple[str, ...] = Field(min_length=1, description="Aircraft ids to choose from")
    count: int = Field(ge=1, le=3, description="how many")
    optional: bool = Field(default=False, description="'may elect to include'")
    same_type: bool = Field(default=False, description="all of one type (Bombing)")
    bombs: bool = Field(default=False, description="they start carrying bombs")
    may_carry_bombs: bool = Field(default=False, description="the attacker may load bombs")


class EngagementSpec(Frozen):
    """An Engagement type's zone, altitude, mission aircraft and Engagement VP (§16.4)."""

    type: Annotated[EngagementType, coerce(EngagementType)]
    zones: tuple[Annotated[ZoneChoice, coerce(ZoneChoice)], ...] = Field(min_length=1)
    altitudes: tuple[Annotated[Altitude, coerce(Altitude)], ...] = Field(
        default=(), description="allowed start altitudes; () = draw on Table E-6"
    )
    allied: MissionAircraft | None = Field(default=None, description="if the Allies attack")
    german: MissionAircraft | None = Field(default=None, description="if the Germans attack")
    defender_balloon: bool = Field(default=False, description="the defender gets a balloon")
    target_defence: Annotated[DefenceClass, coerce(DefenceClass)] | None = Field(
        default=None, description="the ground target's class (trenches, airfield)"
    )
    vp: int = Field(ge=0, description="the Engagement VP per scoring event (§16.4x)")
    bomb_vp: int = Field(default=0, ge=0, description="VP per bomb point dropped")

    def mission(self, attacker: Side) -> MissionAircraft | None:
        return self.allied if attacker is Side.ALLIED else self.german


class Tables(Frozen):
    """The set-up and event tables: Random Events (§5), Tables E2/E5/E6 (§3.3-3.7),
    Weather (§3.8, Campaign §6), the flight-size draw (§3.53), the Rear Gunner Fire
    Value (§10.53), the Sustained Rate of Climb (§11.42) and the Engagement types
    (§16.4). Every card-number table covers 1-110 once."""

    random_events: tuple[RandomEventRow, ...] = Field(min_length=1)
    event_resolution: EventResolution
    engagement_types: tuple[EngagementRow, ...] = Field(min_length=1)
    zones: tuple[ZoneRow, ...] = Field(min_length=1)
    altitudes: tuple[AltitudeRow, ...] = Field(min_length=1)
    weather_columns: tuple[WeatherColumn, ...] = Field(min_length=1)
    weather: tuple[WeatherRow, ...] = Field(min_length=1)
    weather_effects: tuple[WeatherEffect, ...] = Field(min_length=1)
    flight_size: tuple[FlightSizeRow, ...] = Field(min_length=1)
    rear_gunner_fire: tuple[RearGunnerRow, ...] = Field(min_length=1)
    sustained_climb: tuple[SustainedClimbRow, ...] = Field(min_length=1)
    engagements: tuple[EngagementSpec, ...] = Field(min_length=1)

    def random_event(self, number: int, zone: Zone) -> RandomEvent:
        """The Random Events Table result for card ``number`` in ``zone``."""
        return _find(self.random_events, number).event(zone)

    def engagement_type(self, number: int) -> EngagementRow:
        """Table E2's row for card ``number``."""
        return _find(self.engagement_types, number)

    def zone(self, number: int) -> Zone:
        """Table E5's zone for card ``number``."""
        return _find(self.zones, number).zone

    def altitude(self, number: int) -> Altitude:
        """Table E6's altitude for card ``number``."""
        return _find(self.altitudes, number).altitude

    def weather_column(self, month: int) -> int:
        """The index of the Weather Table column used in ``month``."""
        for index, column in enumerate(self.weather_columns):
            if month in column.months:
                return index
        raise ValueError(f"no weather column for month {month}")

    def weather_for(self, number: int, month: int) -> Weather:
        """The Weather Table result for card ``number`` in ``month``."""
        return _find(self.weather, number).weather[self.weather_column(month)]

    def weather_effect(self, weather: Weather) -> WeatherEffect:
        for effect in self.weather_effects:
            if effect.weather is weather:
                return effect
        raise KeyError(weather)

    def scouts_for(self, fire: int) -> int:
        """Scouts a flight-size draw of Fire Value ``fire`` gives (§3.53)."""
        for row in self.flight_size:
            if row.fire[0] <= fire <= row.fire[1]:
                return row.scouts
        raise ValueError(f"fire value {fire} is not in the flight-size draw")

    def rear_gunner(self, level: int) -> int:
        """The Rear Gunner's Fire Value against a Tailing aircraft at Position Level
        ``level`` (§10.53)."""
        for row in self.rear_gunner_fire:
            if row.level[0] <= level <= row.level[1]:
                return row.fire
        raise ValueError(f"position level {level} is not 1-6")

    def climb_rate(self, climb: int) -> int:
        """The Sustained Rate of Climb of a current Climb Rating (§11.42); ratings
        below 0 count as 0 (§10.81), above the table as its top row (G-E11)."""
        climb = max(0, min(climb, self.sustained_climb[-1].climb[1]))
        for row in self.sustained_climb:
            if row.climb[0] <= climb <= row.climb[1]:
                return row.rate
        raise ValueError(f"climb rating {climb} is not in the table")

    def engagement(self, type_: EngagementType) -> EngagementSpec:
        for spec in self.engagements:
            if spec.type is type_:
                return spec
        raise KeyError(type_)

    @model_validator(mode="after")
    def _covers(self) -> Tables:
        for name in ("random_events", "engagement_types", "zones", "altitudes", "weather"):
            rows: tuple[_Band, ...] = getattr(self, name)
            _check_spans([row.cards for row in rows], 1, DECK_SIZE, name)
        _check_spans([row.fire for row in self.flight_size], 1, 6, "flight_size")
        _check_spans([row.level for row in self.rear_gunner_fire], 1, 6, "rear_gunner_fire")
        _check_spans([row.climb for row in self.sustained_climb], 0, 9, "sustained_climb")
        months = [m for column in self.weather_columns for m in column.months]
        if sorted(months) != list(range(1, 13)):
            raise ValueError("weather_columns: every month 1-12 in exactly one column")
        for index, row in enumerate(self.weather):
            if len(row.weather) != len(self.weather_columns):
                raise ValueError(
                    f"weather[{index}]: {len(row.weather)} conditions for "
                    f"{len(self.weather_columns)} columns"
                )
        effects = [effect.weather for effect in self.weather_effects]
        if sorted(effects) != sorted(set(effects)) or set(effects) != set(Weather):
            raise ValueError("weather_effects: one entry for every Weather condition")
        types = [spec.type for spec in self.engagements]
        if sorted(types) != sorted(set(types)) or set(types) != set(EngagementType):
            raise ValueError("engagements: one entry for every Engagement type")
        return self


_B = TypeVar("_B", bound=_Band)


def _find(rows: Iterable[_B], number: int) -> _B:
    for row in rows:
        if row.covers(number):
            return row
    raise ValueError(f"card number {number} is not in the table (1-{DECK_SIZE})")


def _check_spans(spans: list[tuple[int, int]], low: int, high: int, name: str) -> None:
    """``spans``, in order, cover ``low``..``high`` with no gap and no overlap."""
    expected = low
    for index, (first, last) in enumerate(spans):
        if first != expected:
            what = (
                "overlaps the row before"
                if first < expected
                else f"leaves {expected}-{first - 1} uncovered"
            )
            raise ValueError(f"{name}[{index}]: starts at {first}: {what}")
        if last < first:
            raise ValueError(f"{name}[{index}]: {first}-{last} is empty")
        expected = last + 1
    if expected != high + 1:
        raise ValueError(f"{name}: covers {low}-{expected - 1}, not {low}-{high}")
