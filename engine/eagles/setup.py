"""How an Eagles in the Sky engagement starts: the setup (§3.0).

A game is ``(setup, seed, action log)``. The setup holds what the players agreed:
the Engagement type, month, zone, altitude and attacker (each None: drawn on Tables
E2, E5, E6 at the start, §3.3-3.7), each side's Flight (aircraft chosen, or a number
of Scouts drawn from the cup, §3.51-3.53), pilots, Flight Leaders (None: drawn,
§3.6), mission aircraft, weather (§3.8), and for a historical scenario its special
rules (§17.0). Every draw is made in ``new_game`` from the game's seeded generator
and narrated, so a game replays exactly.

A Campaign Game's Engagement (Campaign §5.44) is a setup with ``campaign`` set
(:class:`CampaignEngagement`): the Special Events of its Campaign card (§11.1, §12),
the Engine-out rule (§5.64, §10.86), several Flight Leaders (§5.41); its pilots carry
their campaign id, Fatigue and Exhaustion (§8.2).

Tests and conformance vectors may also fix what normally comes from the shuffle
(hands, the top of the deck) and start from any position (altitudes, damage, who
tails whom); the bot never sets those.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.eagles.campaign_data import SpecialEvent

__all__ = [
    "FIRST_MONTH",
    "LAST_MONTH",
    "REVISION",
    "CampaignEngagement",
    "EaglesSetup",
    "PlaneSetup",
    "SideSetup",
    "month_ok",
]

MONTH = re.compile(r"^19(1[5-8])-(0[1-9]|1[0-2])$")
FIRST_MONTH = "1915-07"
"""The first month with Scouts of both sides in the data (the Fokker E.III, July 1915)."""
LAST_MONTH = "1918-11"
"""The Armistice."""


REVISION = 2
"""The engine's rules revision new games are created with (``EaglesSetup.revision``):
a game keeps the revision it was created with, so its log replays exactly after a
correction. 2: an aircraft that joins (§5.1's Add Aircraft) is not counted when
finding the altitude with the most aircraft."""


def month_ok(text: str) -> bool:
    """``text`` is a month of the game: ``1918-04``, July 1915 to November 1918."""
    return bool(MONTH.match(text)) and FIRST_MONTH <= text <= LAST_MONTH


class PlaneSetup(BaseModel):
    """One aircraft (or the balloon) of a side."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    aircraft: str
    """An aircraft id, or ``balloon``."""
    quality: Literal["green", "inexperienced", "experienced", "leader", "ace"] = "experienced"
    leader: str | None = None
    """The Flight Leader's or Ace's id (quality ``leader`` / ``ace``)."""
    mission: bool = False
    """A Mission aircraft (§16.13), not part of the Flight."""
    bombs: bool = False
    """Carries its bombs (§15.3)."""
    rockets: bool = False
    """Carries Le Prieur rockets (§15.5)."""
    incendiary: bool = False
    """Incendiary ammunition (§15.6)."""
    on_ground: bool = False
    """Starts on the airfield (§16.47): set by the engine for the defender."""
    # -- a Campaign Game's pilot ------------------------------------------------------
    pilot: str | None = None
    """The campaign's id of the pilot, echoed in the outcome record (``pilot_id``)."""
    fatigue: int = Field(default=0, ge=0, le=15)
    """His Fatigue Points (Campaign §8.1): "Engine Trouble" takes the most fatigued
    (§12.3)."""
    exhausted: bool = False
    """An Exhausted pilot (Campaign §8.22): Inexperienced flies as Green, Experienced as
    Inexperienced; a Flight Leader or Ace has Flying and Leadership one lower (never
    below 0) and an Ace loses his asterisked abilities; his gunner fires at -1
    (§8.32)."""
    ace: bool = False
    """A campaign pilot who made Ace without a Flight Leader counter (Campaign §9.31):
    +1 to his Tailing Attacks' Fire Value, as a Flight Leader's "+1 Ace" side gives."""
    # -- tests and vectors: a position to start from --------------------------------
    altitude: Literal["T", "L", "M", "H"] | None = None
    tailing: str | None = None
    level: int = Field(default=0, ge=0, le=6)
    climb: int = Field(default=0, ge=0, le=5)
    damage: dict[str, int] = Field(default_factory=dict)
    guns: dict[str, str] = Field(default_factory=dict)
    wounded: bool = False


class SideSetup(BaseModel):
    """One side: its seats, its Flight and any mission aircraft or balloon."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: tuple[str, ...] = ()
    """The players' seats (``A1``, ``A2``: several may share a side's Flight). A side
    without seats is run by the rules (the solitaire scenario, §17.0)."""
    planes: tuple[PlaneSetup, ...] = ()
    """Aircraft chosen (§3.51 method 1 or 3) and mission aircraft."""
    cup: int = Field(default=0, ge=0, le=6)
    """Scouts to draw from the cup besides ``planes`` (§3.51 method 2)."""
    draw_size: bool = False
    """Draw the number of cup Scouts by Fire Value (§3.53) instead of ``cup``."""
    leader: str | None = None
    """The Flight Leader (or Ace) given to the first Scout; None: drawn (§3.6)."""
    hand_rating: Literal["leadership", "flying"] | None = None
    """Which of the leader's ratings sets the hand size when either may (§7.11); None:
    the larger."""
    pilots: dict[str, int] = Field(default_factory=dict)
    """Pilot qualities of the Scouts besides the leader (``green``: 1...), assigned in
    order; the rest are Experienced (§14.41)."""
    lead: str | None = None
    """A campaign Flight with several Flight Leaders: the id of the one who leads
    (Campaign §5.41); None: the first. Once he is off the mat another takes over."""


class CampaignEngagement(BaseModel):
    """What a Campaign Game's Engagement changes in the engagement rules (Campaign
    §5.41, §5.64, §11.1, §12)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    phase: Literal["morning", "afternoon"]
    """The Morning or Afternoon Phase (Campaign §4.2-4.3): who gets Out of the Sun
    (§12.7)."""
    special_events: tuple[str, ...]
    """The Campaign card's Engagement Special Events table (§11.11): seven
    SpecialEvent values, by Fire Value 0 (a Guns Jammed card) to 6."""
    aces: bool = True
    """Famous Aces may join (Ace, 56 Squadron, Jasta 11, §12.1, §12.4, §12.5); False:
    those events are Lucky Shots, as when they come again (§12.6)."""

    @field_validator("special_events")
    @classmethod
    def _seven(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(value) != 7:
            raise ValueError("seven Special Events, by Fire Value 0 (Guns Jammed) to 6")
        known = {e.value for e in SpecialEvent}
        for event in value:
            if event not in known:
                raise ValueError(f"{event!r} is not a Special Event ({', '.join(sorted(known))})")
        return value

    def special_event(self, fire: int) -> SpecialEvent:
        """The event for a Fire Value (0: Guns Jammed)."""
        return SpecialEvent(self.special_events[fire])


class EaglesSetup(BaseModel):
    """A whole engagement (or a scenario's series of engagements)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    engagement: str | None = None
    """An EngagementType value; None: drawn on Table E2 (§3.31)."""
    attacker: Literal["allied", "german"] | None = None
    """The mission player (§16.13); None: as Table E2 says, or the Allies."""
    month: str = "1918-04"
    """``1918-04``: which aircraft and Aces are available (§3.51, §18.0)."""
    zone: str | None = None
    """A Zone value; None: the Engagement type's, or Table E5 (§3.41)."""
    altitude: Literal["T", "L", "M", "H"] | None = None
    """None: the Engagement type's, or Table E6 (§3.7)."""
    weather: str | None = None
    """A Weather value; ``draw``: the Weather Table (§3.8); None: clear."""
    allied: SideSetup = SideSetup()
    german: SideSetup = SideSetup()
    initiative: Literal["allied", "german"] | None = None
    """The side with the Initiative on turn 1 (a scenario's "Initiative:"); None: by
    §6.0."""
    rules: tuple[str, ...] = ()
    """Scenario rules (ScenarioRule values)."""
    scenario: int | None = None
    engagements: int = Field(default=1, ge=1, le=3)
    turns: int = Field(default=8, ge=1, le=8)
    victory: str = "standard"
    victory_side: Literal["allied", "german"] | None = None
    victory_ace: str | None = None
    series_cup: tuple[str, ...] = ()
    """Scenario 7: the German aircraft drawn one per engagement."""
    revision: int = Field(default=1, ge=1, le=REVISION)
    """The rules revision the game was created with (:data:`REVISION`); 1 for a game
    stored before revisions were recorded."""
    aircraft_rules: bool = True
    """The optional per-aircraft rules of §13.7 (Camel, Fokker DVII, SPAD XIII)."""
    campaign: CampaignEngagement | None = None
    """A Campaign Game's Engagement (Campaign §5.44); None: a single engagement."""
    # -- tests and vectors ------------------------------------------------------------
    hands: dict[str, tuple[int, ...]] | None = None
    """Each side's starting hand (card numbers)."""
    deck_top: tuple[int, ...] = ()
    """Cards on top of the draw pile, first drawn first."""

    @model_validator(mode="after")
    def _month(self) -> EaglesSetup:
        if not month_ok(self.month):
            raise ValueError(f"month is written 1918-04, from {FIRST_MONTH} to {LAST_MONTH}")
        if self.campaign is None and (self.allied.lead or self.german.lead):
            raise ValueError("a Flight's lead is designated in a campaign (Campaign §5.41)")
        return self

    def side(self, side: str) -> SideSetup:
        return self.allied if side == "allied" else self.german
