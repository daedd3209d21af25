"""The Campaign Game's components (Campaign §2-§13): the four Campaign cards and the
tables the campaign draws on between engagements.

The shipped files are ``data/eagles/campaign/cards.yaml`` (the four Campaign cards:
strategic offensive, missions a day, dates, aircraft lists, starting pilot quality,
the Mission Table, the Campaign Events and Engagement Special Events tables) and
``data/eagles/campaign/tables.yaml`` (the Encounter, Safe Return and Replacement
tables, the chits, the pilots' name pools). Almost none of it is printed (the book
prints the rules and a handful of values in its extended example): what is printed
and what we authored is in ``data/eagles/SOURCES.md``, section "Campaign Game".

Card numbers are the Maneuver card numbers 1-110 (§2.2); a modified draw (the
Encounter Table's +5, the Safe Return modifiers, the Replacement modifiers) may fall
outside them, and the tables say what happens there.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Annotated

from pydantic import Field, field_validator, model_validator

from engine.core.dataload import DataError, parse_keyed_list, parse_model, read_shipped
from engine.eagles.enums import (
    DECK_SIZE,
    YM,
    Altitude,
    EngagementType,
    Frozen,
    Side,
    Span,
    YearMonth,
    Zone,
    coerce,
)
from engine.eagles.tables import _Band, _check_spans

__all__ = [
    "CARDS_FILE",
    "TABLES_FILE",
    "CampaignCard",
    "CampaignEvent",
    "CampaignTables",
    "DataError",
    "EncounterResult",
    "MissionEntry",
    "SpecialEvent",
    "load_campaign_cards",
    "load_campaign_tables",
    "shipped_cards",
    "shipped_tables",
]

CARDS_FILE = "campaign/cards.yaml"
TABLES_FILE = "campaign/tables.yaml"
_ID = r"^[a-z0-9][a-z0-9-]*$"


class CampaignEvent(StrEnum):
    """A Campaign Event (Campaign §13), drawn by each player each Evening (§11.21)."""

    NONE = "none"
    AIRCRAFT_PRODUCTION_INCREASE = "aircraft_production_increase"  # §13.1
    BIG_PUSH = "big_push"  # §13.2
    DOLPHINS = "dolphins"  # §13.3, Allied only
    FUEL_SHORTAGE = "fuel_shortage"  # §13.4
    GROUND_SUPPORT = "ground_support"  # §13.5
    LEAVE = "leave"  # §13.6
    LULL = "lull"  # §13.7
    PARTS_SHORTAGE = "parts_shortage"  # §13.8
    PARTY = "party"  # §13.9
    SCHLACHTSTAS = "schlachtstas"  # §13.10, German only
    SCROUNGING = "scrounging"  # §13.11
    TRAINING_SCHOOLS = "training_schools"  # §13.12


class SpecialEvent(StrEnum):
    """An Engagement Special Event (Campaign §12), on a Random Events draw of 101-110
    in a campaign's engagement (§11.11), by the Fire Value of a second card."""

    NONE = "none"
    ACE = "ace"  # §12.1
    CLEARING_SKIES = "clearing_skies"  # §12.2
    ENGINE_TROUBLE = "engine_trouble"  # §12.3
    SQUADRON_56 = "squadron_56"  # §12.4
    JASTA_11 = "jasta_11"  # §12.5
    LUCKY_SHOT = "lucky_shot"  # §12.6
    OUT_OF_THE_SUN = "out_of_the_sun"  # §12.7
    THUNDERSTORM = "thunderstorm"  # §12.8
    WIND_CHANGE = "wind_change"  # §12.9
    WITHDRAWAL = "withdrawal"  # §12.10


def _covers_deck(rows: tuple[_Band, ...], what: str) -> None:
    """Every card number 1-110 in exactly one row."""
    _check_spans([row.cards for row in rows], 1, DECK_SIZE, what)


class MissionEntry(_Band):
    """A row of a Campaign card's Mission Table (Campaign §5.21)."""

    number: int = Field(ge=1, description="the Mission number written on the Campaign Log")
    type: Annotated[EngagementType, coerce(EngagementType)]
    attacker: Annotated[Side, coerce(Side)] = Field(
        description="the attacking player (a Patrol's too: it sets the zone of Ground "
        "Support's Trench Strafing, §13.5)"
    )
    zone: Annotated[Zone, coerce(Zone)]
    altitude: Annotated[Altitude, coerce(Altitude)]
    mission_aircraft: tuple[str, ...] = Field(
        default=(),
        description="pre-assigned Mission aircraft ids (Operation Michael, Cambrai, "
        "§5.42); in Normal Activity the type is drawn among the Engagement type's "
        "(``draw_mission_aircraft``)",
    )
    draw_mission_aircraft: bool = Field(
        default=False,
        description="Normal Activity: one of each type the Engagement rules list for "
        "the mission goes in a cup, one is drawn (§5.42)",
    )
    once: bool = Field(
        default=False, description="flown once a campaign; later draws become ``instead``"
    )
    instead: int | None = Field(
        default=None, description="the Mission a repeated ``once`` Mission becomes (§5.11)"
    )
    no_squadron: Annotated[Side, coerce(Side)] | None = Field(
        default=None, description="the side that may not assign squadron aircraft (L1916)"
    )
    printed: frozenset[str] = Field(default=frozenset(), description="fields the book prints")

    @model_validator(mode="after")
    def _instead(self) -> MissionEntry:
        if self.once != (self.instead is not None):
            raise ValueError("a 'once' Mission names the Mission it becomes ('instead')")
        return self


class EventRow(_Band):
    """A row of a Campaign Events Table (by card number, §11.21)."""

    event: Annotated[CampaignEvent, coerce(CampaignEvent)]


class SpecialRow(Frozen):
    """A row of an Engagement Special Events Table (by Fire Value, §11.11): 0 is a
    Guns Jammed card."""

    fire: Span
    event: Annotated[SpecialEvent, coerce(SpecialEvent)]


class PilotMix(Frozen):
    """A squadron's starting pilots besides its three Flight Leaders (§3.6: twelve
    pilots in all), by quality (the Campaign card's "starting experience levels")."""

    green: int = Field(default=0, ge=0, le=9)
    inexperienced: int = Field(default=0, ge=0, le=9)
    experienced: int = Field(default=0, ge=0, le=9)

    @model_validator(mode="after")
    def _nine(self) -> PilotMix:
        if self.green + self.inexperienced + self.experienced != 9:
            raise ValueError("nine pilots besides the three Flight Leaders (Campaign §3.6)")
        return self


class CampaignCard(Frozen):
    """One of the four Campaign cards (Campaign §2.1)."""

    id: str = Field(pattern=_ID)
    title: str = Field(min_length=1)
    summary: str = Field(min_length=1, description="the card's short description")
    offensive: Annotated[Side, coerce(Side)] = Field(
        description="the side on the Strategic Offensive (Big Push and Lull, §11.23)"
    )
    missions_per_day: int = Field(ge=2, le=8)
    days: int = Field(default=5, ge=1, le=5, description="five days (Campaign §4.0)")
    month: YM | None = Field(
        default=None, description="a historical campaign's month; None: the players choose"
    )
    first_month: YM | None = Field(
        default=None, description="the earliest month a generic campaign may be set in"
    )
    aircraft: dict[Annotated[Side, coerce(Side)], tuple[str, ...]] = Field(
        default_factory=dict,
        description="a historical campaign's aircraft types a side may draw (§3.4); "
        "empty: any in service that month",
    )
    pilots: dict[Annotated[Side, coerce(Side)], PilotMix]
    mission_aircraft: bool = Field(
        default=True, description="False: no Mission aircraft at all (Quiet Sector, §5.42)"
    )
    all_green_replacements: bool = Field(
        default=False, description="every replacement pilot Green (Quiet Sector, §10.32)"
    )
    missions: tuple[MissionEntry, ...]
    campaign_events: tuple[EventRow, ...]
    special_events: tuple[SpecialRow, ...]
    sources: str = Field(min_length=1, description="the history the card is drawn from")
    printed: frozenset[str] = Field(default=frozenset(), description="fields the book prints")

    @model_validator(mode="after")
    def _tables(self) -> CampaignCard:
        _covers_deck(self.missions, "missions")
        _covers_deck(self.campaign_events, "campaign_events")
        numbers = {m.number for m in self.missions}
        for m in self.missions:
            if m.instead is not None and m.instead not in numbers:
                raise ValueError(f"mission {m.number}: 'instead' {m.instead} is no Mission")
        fires = sorted(
            f for row in self.special_events for f in range(row.fire[0], row.fire[1] + 1)
        )
        if fires != list(range(7)):
            raise ValueError("special_events: Fire Values 0 (Guns Jammed) to 6, once each")
        if set(self.pilots) != set(Side):
            raise ValueError("pilots: both sides' starting pilots")
        return self

    def mission(self, number: int) -> MissionEntry:
        for m in self.missions:
            if m.number == number:
                return m
        raise KeyError(number)

    def mission_for(self, card: int) -> MissionEntry:
        return next(m for m in self.missions if m.covers(card))

    def campaign_event(self, card: int) -> CampaignEvent:
        return next(r.event for r in self.campaign_events if r.covers(card))

    def special_event(self, fire: int) -> SpecialEvent:
        return next(r.event for r in self.special_events if r.fire[0] <= fire <= r.fire[1])


class EncounterResult(Frozen):
    """An Encounter Table result ``CP/GP/draws`` (Campaign §7.23); ``*`` on the
    Campaign Points: the Flight Leader shot an enemy down (§7.26)."""

    campaign: int = Field(ge=0, le=1, description="never more than one (§14.15)")
    glory: int = Field(ge=0)
    draws: int = Field(ge=0, le=12)
    leader_kill: bool = False

    @classmethod
    def parse(cls, text: str) -> EncounterResult:
        cp, gp, draws = text.split("/")
        star = cp.endswith("*") or draws.endswith("*")
        return cls(
            campaign=int(cp.rstrip("*")),
            glory=int(gp),
            draws=int(draws.rstrip("*")),
            leader_kill=star,
        )

    def __str__(self) -> str:
        return f"{self.campaign}{'*' if self.leader_kill else ''}/{self.glory}/{self.draws}"


class EncounterRow(Frozen):
    """A row of the Encounter Table: card numbers (modified: up to 115) and the result
    in each column (1-2, 3-4, 5-6 Scouts)."""

    cards: Span
    results: tuple[str, str, str]

    @field_validator("results")
    @classmethod
    def _results(cls, value: tuple[str, str, str]) -> tuple[str, str, str]:
        for text in value:
            EncounterResult.parse(text)
        return value


class SafeReturnColumn(Frozen):
    """A Safe Return Table column (Campaign §5.65-5.66): a zone and a nationality."""

    zone: Annotated[Zone, coerce(Zone)]
    side: Annotated[Side, coerce(Side)]
    safe: int = Field(description="a modified draw at most this returns safely")
    survive: Span = Field(
        description="an Aircrew Survival draw within: survives. It starts at 1, the low "
        "end of the deck, so the parachutes' -20 (Campaign §5.66) only ever helps: a "
        "draw taken below 1 by them reads as 1 (see :meth:`survives`)"
    )

    @field_validator("survive")
    @classmethod
    def _low_end(cls, value: tuple[int, int]) -> tuple[int, int]:
        low, high = value
        if low != 1 or not 1 <= high <= DECK_SIZE:
            raise ValueError(
                f"{list(value)}: the survival range runs from 1 (parachutes subtract 20, "
                f"Campaign §5.66) to at most {DECK_SIZE}"
            )
        return value

    def returns(self, modified: int) -> bool:
        """A modified Safe Return draw brings the aircraft home (§5.65)."""
        return modified <= self.safe

    def survives(self, draw: int) -> bool:
        """The crew of a lost aircraft survives an Aircrew Survival draw of ``draw``
        (the card number, less 20 for German parachutes from July 1918, §5.66). A
        ``within`` test would let the parachutes' -20 push a low, surviving draw
        below the range and kill the crew; a draw below 1 reads as 1."""
        return max(draw, 1) <= self.survive[1]


class SafeReturnTable(Frozen):
    """The Safe Return Table and its modifiers (Campaign §5.65)."""

    hit: dict[str, int] = Field(
        description="added per hit of each kind (structure, wing, control, engine)"
    )
    wounded_pilot: int
    engine_out: int = Field(description="the Engine-out modifier: a second Engine hit (§5.64)")
    exhausted_green: int = Field(
        default=0, description="an Exhausted Green pilot with no damage (§8.22)"
    )
    parachute: int = Field(default=-20, description="German parachutes, July 1918 (§5.66)")
    parachutes_from: YM = Field(default=YearMonth(1918, 7))
    columns: tuple[SafeReturnColumn, ...]

    @model_validator(mode="after")
    def _every_column(self) -> SafeReturnTable:
        have = {(c.zone, c.side) for c in self.columns}
        if have != {(z, s) for z in Zone for s in Side} or len(self.columns) != 10:
            raise ValueError("columns: one for each zone and nationality")
        return self

    def column(self, zone: Zone, side: Side) -> SafeReturnColumn:
        return next(c for c in self.columns if c.zone is zone and c.side is side)


class ReplacementTable(Frozen):
    """The Replacement Table (Campaign §10.31): a modified draw at most ``pilot`` or
    ``aircraft`` gives a replacement."""

    pilot: int
    aircraft: int
    allied_aircraft: int = Field(default=-5, description="the Allied modifier (§10.31)")
    german_aircraft_late: int = Field(default=5, description="German, June 1918 on (§10.31)")
    german_late_from: YM = Field(default=YearMonth(1918, 6))
    per_glory: int = Field(default=-2, description="per squadron Glory Point (§10.31)")
    german_green_from: YM = Field(
        default=YearMonth(1918, 6),
        description="German replacements are Inexperienced up until May 1918 (§10.32)",
    )


class Chits(Frozen):
    """Engagement and Encounter chits for a day's Missions (Campaign §7.12)."""

    missions: Span
    engagement: int = Field(ge=0)
    encounter: int = Field(ge=0)


class CampaignTables(Frozen):
    """The tables every Campaign card shares."""

    chits: tuple[Chits, ...]
    encounter: tuple[EncounterRow, ...]
    encounter_mission_modifier: int = Field(
        default=5, description="Mission aircraft on the player's side (L1926)"
    )
    safe_return: SafeReturnTable
    replacement: ReplacementTable
    names: dict[Annotated[Side, coerce(Side)], tuple[str, ...]] = Field(
        description="pilots' surnames for each side, drawn for new pilots"
    )
    printed: frozenset[str] = Field(default=frozenset())

    @model_validator(mode="after")
    def _names(self) -> CampaignTables:
        for side in Side:
            pool = self.names.get(side, ())
            if len(pool) < 30 or len(set(pool)) != len(pool):
                raise ValueError(f"names: at least 30 distinct names for {side.value}")
        return self

    def chits_for(self, missions: int) -> Chits:
        for c in self.chits:
            if c.missions[0] <= missions <= c.missions[1]:
                return c
        raise KeyError(missions)

    def encounter_result(self, number: int, scouts: int) -> EncounterResult:
        """The result for a (modified) card number and the Flight's Scouts: the first
        row below 1 or above the last row reads the nearest row."""
        column = 0 if scouts <= 2 else 1 if scouts <= 4 else 2
        rows = self.encounter
        clamped = max(rows[0].cards[0], min(number, rows[-1].cards[1]))
        row = next(r for r in rows if r.cards[0] <= clamped <= r.cards[1])
        return EncounterResult.parse(row.results[column])


def load_campaign_cards(text: str | None = None) -> dict[str, CampaignCard]:
    """The Campaign cards: the shipped ones, or those of ``text`` (a pack's file)."""
    body = read_shipped("eagles", CARDS_FILE) if text is None else text
    return parse_keyed_list(CARDS_FILE, body, CampaignCard)


def load_campaign_tables(text: str | None = None) -> CampaignTables:
    body = read_shipped("eagles", TABLES_FILE) if text is None else text
    return parse_model(TABLES_FILE, body, CampaignTables, "the campaign tables")


@functools.cache
def shipped_cards() -> Mapping[str, CampaignCard]:
    return MappingProxyType(load_campaign_cards())


@functools.cache
def shipped_tables() -> CampaignTables:
    return load_campaign_tables()
