"""Eagles in the Sky components: Maneuver cards, aircraft, Flight Leaders and Aces,
the set-up and event tables, and the historical scenarios: every data model, in one
place to import from.

The YAML files in ``data/eagles/`` are parsed into these frozen pydantic models by
:mod:`engine.eagles.loader`. The models say what a value *means*; which values the
rulebook prints and which the project authored is recorded in ``data/eagles/SOURCES.md``
(and, per aircraft and leader, in their ``printed`` field).

The models live one concept a module: :mod:`engine.eagles.enums` (the vocabulary and
:class:`YearMonth`), :mod:`~engine.eagles.cards`, :mod:`~engine.eagles.aircraft`,
:mod:`~engine.eagles.pilots`, :mod:`~engine.eagles.tables` and
:mod:`~engine.eagles.scenarios`; this module re-exports them all.

Line numbers ("L323") are lines of the plain-text transcription of the rulebook the
maintainers work from (``eagles-in-the-sky.txt``: the Engagement rules, sections
2.0-18.0, then the Campaign rules); "§8.14" is a section of the Engagement rules,
"Campaign §6.1" one of the Campaign rules.
"""

from __future__ import annotations

from engine.eagles.aircraft import (
    Aircraft,
)
from engine.eagles.cards import (
    BOOK_CARDS,
    BookCard,
    Card,
    DamageTable,
    Deck,
)
from engine.eagles.enums import (
    DECK_SIZE,
    AceAbility,
    AircraftType,
    Altitude,
    CardSpecial,
    Characteristic,
    DamageKind,
    DefenceClass,
    EngagementType,
    PilotQuality,
    RandomEvent,
    ScenarioRule,
    Side,
    Symbol,
    VictoryKind,
    Weather,
    YearMonth,
    Zone,
    ZoneChoice,
)
from engine.eagles.pilots import (
    AceMount,
    FlightLeader,
)
from engine.eagles.scenarios import (
    Force,
    ForceAircraft,
    PilotCounts,
    Scenario,
)
from engine.eagles.tables import (
    AltitudeRow,
    EngagementRow,
    EngagementSpec,
    EventResolution,
    FlightSizeRow,
    MissionAircraft,
    RandomEventRow,
    RearGunnerRow,
    SustainedClimbRow,
    Tables,
    WeatherColumn,
    WeatherEffect,
    WeatherRow,
    ZoneRow,
)

__all__ = [
    "BOOK_CARDS",
    "DECK_SIZE",
    "AceAbility",
    "AceMount",
    "Aircraft",
    "AircraftType",
    "Altitude",
    "AltitudeRow",
    "BookCard",
    "Card",
    "CardSpecial",
    "Characteristic",
    "DamageKind",
    "DamageTable",
    "Deck",
    "DefenceClass",
    "EngagementRow",
    "EngagementSpec",
    "EngagementType",
    "EventResolution",
    "FlightLeader",
    "FlightSizeRow",
    "Force",
    "ForceAircraft",
    "MissionAircraft",
    "PilotCounts",
    "PilotQuality",
    "RandomEvent",
    "RandomEventRow",
    "RearGunnerRow",
    "Scenario",
    "ScenarioRule",
    "Side",
    "SustainedClimbRow",
    "Symbol",
    "Tables",
    "VictoryKind",
    "Weather",
    "WeatherColumn",
    "WeatherEffect",
    "WeatherRow",
    "YearMonth",
    "Zone",
    "ZoneChoice",
    "ZoneRow",
]
