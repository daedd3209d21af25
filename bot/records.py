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
What a finished game counts is kept in memory by the game's version (:class:`Tally`,
:data:`TALLIES` of them), so a veteran's ``/profile`` loads only the games it has not
read yet, and those without putting them in the cache of games being played.

**Who flew a campaign pilot.** A logbook's mission names the seat of the mission's
game that flew the pilot (:attr:`LogbookEntry.seat`); the member who flew him is the
one holding that seat when the game ended: the seats table, which a handover
(``/game sub``, a substitute, a computer given the seat) rewrites and which nothing
changes once the game is over (docs/community.md). So no mission game is loaded:
:func:`mission_seats` reads the seats of the campaign's settled missions, and
:func:`pilots_flown_by` needs only the seats the player held (:attr:`PilotRecord.held`,
read with his finished games).
"""

from __future__ import annotations

import functools
from collections import Counter, OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.campaigns import LoadedCampaign
from bot.errors import Refusal
from bot.games import GameStore, LoadedGame
from bot.packs import campaign_system_of
from bot.storage import CampaignRecord, GameStatus, SeatRecord, Storage
from bot.storage.models import OPEN_CAMPAIGN_STATUSES
from bot.systems import hosted
from engine.core.campaign import EntryKind, PilotLog
from engine.core.contract import AircraftFate, Fate
from engine.core.registry import campaign_system

__all__ = [
    "ACE_KILLS",
    "PilotRecord",
    "SystemRecord",
    "aircraft_name",
    "campaign_title",
    "mission_games",
    "mission_seats",
    "pilot_record",
    "pilots_flown_by",
]

ACE_KILLS = 5
"""Kills that make an ace (the traditional five: Eagles in the Sky §9.31)."""
TALLIES = 20_000
"""Finished games whose :class:`Tally` the process keeps (a few hundred bytes each)."""


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
    held: frozenset[tuple[int, str]] = frozenset()
    """The ``(game id, seat)`` of every seat they held when a finished game ended."""

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
    """The campaign's title, as its campaign game gives it: the one over the content
    packs it was created with once built in this process (a load or
    :func:`bot.packs.prepare_campaign` builds it), else the built-in one; its sheet's
    id if neither knows it."""
    try:
        system = campaign_system_of(campaign.system, campaign.setup)
    except Refusal:  # its packs are not built here, or are gone
        system = campaign_system(campaign.system)
    sheets = system.campaigns()
    return next((c.title for c in sheets if c.id == campaign.campaign), campaign.campaign)


@dataclass(frozen=True, slots=True)
class Tally:
    """What one finished game counts in its players' records: read once from its
    state, valid while the game's version stays the same."""

    system: str
    practice: bool
    sides: dict[str, str]
    """Each seat's side."""
    holders: dict[str, int | None]
    """Each seat's player (None: a computer player)."""
    fates: tuple[AircraftFate, ...]
    winner: str | None
    conceded: str | None


def tally(game: LoadedGame) -> Tally | None:
    """What ``game`` counts, or None for a game without a state (nothing played)."""
    if game.state is None:
        return None
    result = game.record.result or {}
    return Tally(
        game.record.system,
        game.practice_level is not None,
        {s.seat: s.side for s in game.seats},
        {s.seat: s.user_id for s in game.seats},
        tuple(game.system.outcome(game.state).fates),
        result.get("winner"),
        result.get("conceded"),
    )


def add_game(record: PilotRecord, game: Tally) -> None:
    """Count one finished game of the player in ``record`` (a practice game counts
    nothing)."""
    if game.practice:
        return
    mine = {seat for seat, holder in game.holders.items() if holder == record.user_id}
    sides = {game.sides[seat] for seat in mine}
    winner, conceded = game.winner, game.conceded
    entry = record.systems.setdefault(game.system, SystemRecord(game.system))
    entry.played += 1
    entry.won += winner in sides
    entry.lost += (winner is not None and winner not in sides) or conceded in sides
    refs = {f.ref for f in game.fates if f.seat in mine}
    entry.kills += sum(
        1 for f in game.fates if f.fate is Fate.SHOT_DOWN and f.by in refs and f.side not in sides
    )
    entry.losses += sum(1 for f in game.fates if f.ref in refs and f.fate is Fate.SHOT_DOWN)
    entry.aircraft.update({f.aircraft for f in game.fates if f.ref in refs})


_tallies: OrderedDict[tuple[int, int], Tally | None] = OrderedDict()
"""The tallies read, by ``(game id, version)``, oldest first (at most :data:`TALLIES`)."""


async def _tally_of(games: GameStore, game_id: int) -> Tally | None:
    record = await games.storage.get_game(game_id)
    if record is None:
        return None
    key = (game_id, record.version)
    if key not in _tallies:
        _tallies[key] = tally(await games.load(game_id, remember=False))
        while len(_tallies) > TALLIES:
            _tallies.popitem(last=False)
    return _tallies[key]


async def pilot_record(games: GameStore, user_id: int) -> PilotRecord:
    """The player's record from their finished games, and their current campaigns."""
    storage = games.storage
    record = PilotRecord(user_id)
    seats = await storage.seats_of_user(user_id, statuses=[GameStatus.FINISHED])
    record.held = frozenset((s.game_id, s.seat) for s in seats)
    for game_id in sorted({s.game_id for s in seats}):
        counted = await _tally_of(games, game_id)
        if counted is not None:
            add_game(record, counted)
    record.campaigns = await storage.campaigns_of_user(user_id, OPEN_CAMPAIGN_STATUSES)
    return record


# -- who flew a campaign's pilots ------------------------------------------------------


async def mission_games(storage: Storage, campaign: LoadedCampaign) -> dict[int, int]:
    """Each settled mission's game by mission number: the game whose outcome the
    campaign's log holds (an aborted attempt flew nothing; a mission settled without
    a game has none). One read of the campaign's games."""
    absorbed = {e.game_id for e in campaign.entries if e.kind == EntryKind.OUTCOME and e.game_id}
    return {
        g.mission: g.id
        for g in await storage.games_of_campaign(campaign.id)
        if g.id in absorbed and g.mission is not None
    }


async def mission_seats(
    storage: Storage, campaign: LoadedCampaign
) -> dict[tuple[int, str], SeatRecord]:
    """Who flew each seat of each settled mission's game, by ``(mission, seat)``: the
    seat as the game ended (its holder, or nobody for a computer player). One read of
    the campaign's games and one of each settled mission's seats; no game is loaded."""
    out: dict[tuple[int, str], SeatRecord] = {}
    for mission, game_id in sorted((await mission_games(storage, campaign)).items()):
        for seat in await storage.get_seats(game_id):
            out[(mission, seat.seat)] = seat
    return out


def pilots_flown_by(
    pilots: Sequence[PilotLog], games: Mapping[int, int], held: Collection[tuple[int, str]]
) -> list[PilotLog]:
    """The pilots of a logbook whom a player flew, each with only the missions he
    flew them: those whose game (``games``: :func:`mission_games`) and seat are among
    the seats the player held at the game's end (``held``: ``(game id, seat)``)."""
    out: list[PilotLog] = []
    for p in pilots:
        mine = tuple(
            m
            for m in p.missions
            if m.seat is not None and m.mission in games and (games[m.mission], m.seat) in held
        )
        if mine:
            out.append(replace(p, missions=mine))
    return out
