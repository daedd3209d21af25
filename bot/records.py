"""A pilot's record (``/profile``), derived from the stored games.

For each game system: the finished games the player flew in and won, the aircraft
they flew, their kills and losses. A kill is an enemy aircraft shot down whose fate
names one of the player's aircraft as its shooter (:attr:`AircraftFate.by`); a loss is
one of the player's aircraft shot down. A player is an **ace** in a system once they
have :data:`ACE_KILLS` kills in it (docs/rules-decisions.md: Eagles in the Sky §9.31's
design note). Practice games against the computer count for nothing (like the
ratings: :mod:`bot.ratings`); unrated games count here, being played between people.

Nothing is stored besides the games: each of the player's finished games is loaded
(from its snapshot) and its typed outcome read, so a corrected game reads corrected.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

from bot.games import GameStore, LoadedGame
from bot.storage import CampaignRecord, GameStatus
from bot.storage.models import OPEN_CAMPAIGN_STATUSES
from bot.systems import hosted
from engine.core.contract import Fate
from engine.core.registry import campaign_system

__all__ = [
    "ACE_KILLS",
    "PilotRecord",
    "SystemRecord",
    "aircraft_name",
    "campaign_title",
    "pilot_record",
]

ACE_KILLS = 5
"""Kills that make an ace (the traditional five: Eagles in the Sky §9.31)."""


@dataclass
class SystemRecord:
    """A player's record in one game system."""

    system: str
    played: int = 0
    won: int = 0
    lost: int = 0
    kills: int = 0
    losses: int = 0
    aircraft: Counter[str] = field(default_factory=Counter)
    """Games flown in each aircraft type (ids of the system's data)."""

    @property
    def ace(self) -> bool:
        return self.kills >= ACE_KILLS


@dataclass
class PilotRecord:
    """A player's record across the systems, and the campaigns they play in."""

    user_id: int
    systems: dict[str, SystemRecord] = field(default_factory=dict)
    campaigns: list[CampaignRecord] = field(default_factory=list)

    @property
    def favourite(self) -> tuple[str, str] | None:
        """The ``(system, aircraft)`` flown in the most games (ties: the first by
        system, then aircraft id), or None before a first game."""
        flown = [
            (-n, record.system, aircraft)
            for record in self.systems.values()
            for aircraft, n in record.aircraft.items()
        ]
        if not flown:
            return None
        _, system, aircraft = min(flown)
        return system, aircraft


@functools.cache
def _catalogue(system: str) -> dict[str, str]:
    return {a.id: a.label for a in hosted(system).aircraft_catalogue()}


def aircraft_name(system: str, aircraft: str) -> str:
    """The aircraft's name as its system's catalogue gives it (its id if unknown)."""
    return _catalogue(system).get(aircraft, aircraft)


def campaign_title(campaign: CampaignRecord) -> str:
    """The campaign's title, as its campaign game gives it (its sheet's id if unknown)."""
    sheets = campaign_system(campaign.system).campaigns()
    return next((c.title for c in sheets if c.id == campaign.campaign), campaign.campaign)


def add_game(record: PilotRecord, game: LoadedGame) -> None:
    """Count one finished game of the player in ``record`` (a practice game counts
    nothing)."""
    if game.practice_level is not None or game.state is None:
        return
    mine = set(game.seats_of(record.user_id))
    sides = {game.side_of(seat) for seat in mine}
    outcome = game.system.outcome(game.state)
    result = game.record.result or {}
    winner, conceded = result.get("winner"), result.get("conceded")
    entry = record.systems.setdefault(game.record.system, SystemRecord(game.record.system))
    entry.played += 1
    entry.won += winner in sides
    entry.lost += (winner is not None and winner not in sides) or conceded in sides
    refs = {f.ref for f in outcome.fates if f.seat in mine}
    entry.kills += sum(
        1
        for f in outcome.fates
        if f.fate is Fate.SHOT_DOWN and f.by in refs and f.side not in sides
    )
    entry.losses += sum(1 for f in outcome.fates if f.ref in refs and f.fate is Fate.SHOT_DOWN)
    entry.aircraft.update({f.aircraft for f in outcome.fates if f.ref in refs})


async def pilot_record(games: GameStore, user_id: int) -> PilotRecord:
    """The player's record from their finished games, and their current campaigns."""
    storage = games.storage
    record = PilotRecord(user_id)
    seats = await storage.seats_of_user(user_id, statuses=[GameStatus.FINISHED])
    for game_id in sorted({s.game_id for s in seats}):
        add_game(record, await games.load(game_id))
    record.campaigns = await storage.campaigns_of_user(user_id, OPEN_CAMPAIGN_STATUSES)
    return record
