"""Players' ratings: an OpenSkill rating per game system, on each server and globally,
derived from the finished games.

The rating system is OpenSkill's Plackett-Luce model (the ``openskill`` library, a
maintained implementation of Weng and Lin's Bayesian approximation: like TrueSkill it
rates teams and any number of sides, and keeps each player's uncertainty). A player's
rating is ``(mu, sigma)``; the boards order players by ``mu - 3 sigma``
(:attr:`~bot.storage.models.RatingRecord.score`), which rises as a player's games
make the rating surer.

Which games count (:func:`rated_sides`): a finished game, not a practice game against
the computer (its options' ``computer_level``), not one its host opened unrated
(``/dogfight new rated:False``: the options' ``"rated": false``), between at least two
sides that have a player (a seat without one is a computer's and rates no one), no
player on two sides. An aborted game never finishes, so never counts. A game's result
ranks its sides (:func:`side_ranks`): the winner first, the side that conceded
(resigned, or forfeited by abandonment) last, every other side level between them; a
draw ranks every side level.

The ratings are **derived**. Every finished game enters the ratings' ledger (storage's
``rated_games``) once, in the order the games finished, with the ratings it changed,
in one transaction that names the ratings' version it read (:meth:`Ratings.catch_up`:
another process catching up at the same moment cannot take the same step twice). A
catch-up runs after every game's end (a change listener of the game service) and before
a board is read, so a crash between a game's end and its ratings loses nothing.
:func:`compute` replays the ledger's games from fresh ratings and gives the stored
numbers exactly; :meth:`Ratings.recompute` (``python -m bot ratings``) writes them
again, which re-applies a corrected result.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from bot.storage import GameRecord, GameStatus, SeatRecord, Storage, open_storage
from bot.storage.models import GLOBAL, RatingRecord

__all__ = [
    "BATCH",
    "MODEL",
    "RatedGame",
    "Ratings",
    "compute",
    "rate",
    "rated_sides",
    "ratings_main",
    "side_ranks",
]

log = logging.getLogger(__name__)

MODEL: Final = PlackettLuce()
"""The rating model, with the library's defaults (``mu`` 25, ``sigma`` 25/3)."""

BATCH = 100
"""Finished games a catch-up reads at once."""

RatingKey = tuple[int, int]
"""A rating's ``(guild_id, user_id)`` in one system (``guild_id`` :data:`GLOBAL`: the
global rating)."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as the ratings read it: its players by side and the sides' ranks."""

    game_id: int
    system: str
    guild_id: int
    teams: tuple[tuple[int, ...], ...]
    """Each side's players (user ids, in order), one tuple a side with a player."""
    ranks: tuple[int, ...]
    """Each team's rank (lower is better; equal ranks are level)."""


def side_ranks(result: Mapping[str, object], sides: Iterable[str]) -> dict[str, int]:
    """Each side's rank from a stored result: 0 the winner, 2 the side that conceded,
    1 every other side (a draw: every side 1)."""
    winner, conceded = result.get("winner"), result.get("conceded")
    return {side: 0 if side == winner else 2 if side == conceded else 1 for side in sides}


def rated_sides(record: GameRecord, seats: Sequence[SeatRecord]) -> RatedGame | None:
    """The game as the ratings read it, or None when it does not count (see the
    module's docstring: not finished, practice, unrated, fewer than two sides with a
    player, a player on two sides)."""
    options = record.options
    if record.status is not GameStatus.FINISHED or record.result is None:
        return None
    if options.get("computer_level") is not None or options.get("rated", True) is False:
        return None
    players: dict[str, list[int]] = {}
    for seat in seats:
        if seat.user_id is not None and seat.user_id not in players.setdefault(seat.side, []):
            players[seat.side].append(seat.user_id)
    teams = {side: tuple(users) for side, users in players.items() if users}
    everyone = [user for team in teams.values() for user in team]
    if len(teams) < 2 or len(everyone) != len(set(everyone)):
        return None
    ranks = side_ranks(record.result, teams)
    order = sorted(teams)
    return RatedGame(
        game_id=record.id,
        system=record.system,
        guild_id=record.guild_id,
        teams=tuple(teams[side] for side in order),
        ranks=tuple(ranks[side] for side in order),
    )


def rate(game: RatedGame, current: Mapping[RatingKey, RatingRecord]) -> list[RatingRecord]:
    """The ratings ``game`` changes, on its server and globally, from the players'
    ``current`` ones (a player without one starts at the model's default)."""
    changed: list[RatingRecord] = []
    for scope in (game.guild_id, GLOBAL):
        before = [[_rating(game.system, scope, u, current) for u in team] for team in game.teams]
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
        after = MODEL.rate(teams, ranks=list(game.ranks))
        # OpenSkill's rate() with ranks leaves reference cycles behind (the closures of
        # its compiled _unwind, 8 objects a call): garbage for the collector, unless
        # the game cache's freeze under load (bot.games.keep_out_of_collections, with
        # no collection first) takes them in while they wait, and then they are never
        # freed. Collected here while they are young (bench/latency.py counts what
        # freezes keep: 16 in 2,100 moves on PostgreSQL before).
        gc.collect(1)
        best = min(game.ranks)
        for rank, old_team, new_team in zip(game.ranks, before, after, strict=True):
            won = rank == best and game.ranks.count(best) == 1  # alone in front
            lost = rank > best
            for old, new in zip(old_team, new_team, strict=True):
                changed.append(
                    old.model_copy(
                        update={
                            "mu": new.mu,
                            "sigma": new.sigma,
                            "games": old.games + 1,
                            "wins": old.wins + won,
                            "losses": old.losses + lost,
                        }
                    )
                )
    return changed


def _rating(
    system: str, scope: int, user_id: int, current: Mapping[RatingKey, RatingRecord]
) -> RatingRecord:
    """The player's current rating in that scope, or a fresh one (no game yet: the
    record's counts are those of its next game, minus one)."""
    found = current.get((scope, user_id))
    if found is not None:
        return found
    return RatingRecord(
        system=system,
        guild_id=scope,
        user_id=user_id,
        mu=MODEL.mu,
        sigma=MODEL.sigma,
        games=0,
        wins=0,
        losses=0,
    )


def compute(games: Iterable[RatedGame]) -> list[RatingRecord]:
    """Every rating after ``games`` (the ledger's, in its order), from fresh ratings:
    what the catch-ups stored, to the last bit."""
    systems: dict[str, dict[RatingKey, RatingRecord]] = {}
    for game in games:
        current = systems.setdefault(game.system, {})
        for r in rate(game, current):
            current[(r.guild_id, r.user_id)] = r
    return [r for system in sorted(systems) for _, r in sorted(systems[system].items())]


class Ratings:
    """Keeps the stored ratings in step with the finished games (see the module)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._lock = asyncio.Lock()
        """Catch-ups of one process one at a time (other processes: the version)."""

    async def catch_up(self) -> int:
        """Take every finished game not yet in the ledger into the ratings, in the order
        they finished; return how many this call took in. A step another process took
        first is read again, never taken twice."""
        taken = 0
        async with self._lock:
            while True:
                version = await self.storage.ratings_version()
                games = await self.storage.games_to_rate(BATCH)
                if not games:
                    return taken
                for record in games:
                    changes = await self._changes(record)
                    if not await self.storage.rate_game(version, record.id, changes):
                        break  # another process wrote first: read the ledger again
                    version += 1
                    taken += 1

    async def _changes(self, record: GameRecord) -> list[RatingRecord]:
        """The ratings ``record`` changes from the stored ones (none if it does not count)."""
        game = rated_sides(record, await self.storage.get_seats(record.id))
        if game is None:
            return []
        keys = [(scope, u) for scope in (game.guild_id, GLOBAL) for t in game.teams for u in t]
        stored = await self.storage.get_ratings(game.system, keys)
        return rate(game, {(r.guild_id, r.user_id): r for r in stored})

    async def ledger_games(self) -> list[RatedGame]:
        """The ledger's games that count, in its order, as they read now (a corrected
        result reads corrected)."""
        games: list[RatedGame] = []
        for entry in await self.storage.rating_ledger():
            record = await self.storage.get_game(entry.game_id)
            assert record is not None  # the ledger names games (a foreign key)
            game = rated_sides(record, await self.storage.get_seats(record.id))
            if game is not None:
                games.append(game)
        return games

    async def recompute(self) -> list[RatingRecord]:
        """Catch up, then compute every rating again from the ledger's games and store
        the result in place of the ratings (retried if another process wrote in the
        meantime); return it."""
        while True:
            await self.catch_up()
            version = await self.storage.ratings_version()
            ratings = compute(await self.ledger_games())
            if await self.storage.replace_ratings(version, ratings):
                return ratings
            log.info("ratings: another process wrote during the recomputation; again")


async def recompute_database(location: str) -> tuple[int, list[RatingRecord]]:
    """Recompute the ratings of the database at ``location`` (a SQLite path or a
    ``postgresql://`` URL): how many games the ledger holds, and the ratings."""
    storage = await open_storage(location)
    try:
        ratings = await Ratings(storage).recompute()
        return len(await storage.rating_ledger()), ratings
    finally:
        await storage.close()


def ratings_main(argv: Sequence[str]) -> int:
    """``python -m bot ratings``: recompute every rating from the finished games (after
    correcting a result, or to check the stored ones); exit status 0."""
    parser = argparse.ArgumentParser(
        prog="python -m bot ratings",
        description=(
            "Take every finished game not yet rated into the ratings, then compute every "
            "rating again from the ratings' ledger and store it in place of the old ones "
            "(a corrected result is re-applied). Safe while the bot runs."
        ),
    )
    parser.add_argument("--database", help="the database (default: TALLYHO_DATABASE)")
    args = parser.parse_args(list(argv))
    if args.database is None:
        from bot.config import Settings

        args.database = Settings().database
    games, ratings = asyncio.run(recompute_database(args.database))
    players = len({r.user_id for r in ratings})
    sys.stdout.write(
        f"recomputed {len(ratings)} ratings of {players} players from {games} finished games\n"
    )
    return 0
