"""The ratings' storage on both backends: the ledger, the compare-and-set of the
ratings' version, the boards and the global board's hidden players."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import ConstraintViolation, GameStatus, Storage
from bot.storage.models import GLOBAL, RatingRecord
from tests.storage.backends import Database

GUILD = 111_111_111_111_111_111
START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


class TickClock:
    """START, then one second later at every call."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> datetime:
        self.calls += 1
        return START + timedelta(seconds=self.calls)


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Storage]:
    s = await database.open(clock=TickClock())
    try:
        yield s
    finally:
        await s.close()


async def finished_game(store: Storage) -> int:
    game = await store.create_game(
        guild_id=GUILD, channel_id=1, host_id=1, system="dif", ruleset="rotl", seed=1
    )
    await store.update_game(game.id, 0, status=GameStatus.FINISHED, result={"winner": "a"})
    return game.id


def rating(user: int, mu: float, guild: int = GLOBAL, **counts: int) -> RatingRecord:
    return RatingRecord(
        system="dif",
        guild_id=guild,
        user_id=user,
        mu=mu,
        sigma=8.0,
        games=counts.get("games", 1),
        wins=counts.get("wins", 0),
        losses=counts.get("losses", 0),
    )


async def test_the_ledger_takes_each_game_once_in_finish_order(store: Storage) -> None:
    first, second = await finished_game(store), await finished_game(store)
    assert await store.ratings_version() == 0
    assert [g.id for g in await store.games_to_rate(10)] == [first, second]
    assert await store.rate_game(0, first, [rating(1, 30.0, wins=1), rating(2, 20.0, losses=1)])
    assert await store.ratings_version() == 1
    assert not await store.rate_game(0, second, []), "a stale version writes nothing"
    assert [g.id for g in await store.games_to_rate(10)] == [second]
    with pytest.raises(ConstraintViolation):
        await store.rate_game(1, first, [])
    assert await store.ratings_version() == 1, "the refused write was rolled back"
    assert await store.rate_game(1, second, [rating(1, 31.5, games=2, wins=2)])
    assert await store.games_to_rate(10) == []
    ledger = await store.rating_ledger()
    assert [(e.seq, e.game_id) for e in ledger] == [(1, first), (2, second)]
    got = {r.user_id: r for r in await store.get_ratings("dif", [(GLOBAL, 1), (GLOBAL, 2)])}
    assert got[1] == rating(1, 31.5, games=2, wins=2)
    assert got[2] == rating(2, 20.0, losses=1)
    assert await store.get_ratings("dif", [(GUILD, 1)]) == []


async def test_a_recomputation_replaces_every_rating(store: Storage) -> None:
    await store.rate_game(0, await finished_game(store), [rating(1, 30.0), rating(2, 20.0)])
    assert not await store.replace_ratings(0, [rating(3, 10.0)])
    assert await store.replace_ratings(1, [rating(3, 10.0), rating(3, 12.0, guild=GUILD)])
    assert await store.ratings_version() == 2
    assert await store.ratings_of_user(1) == []
    assert [r.guild_id for r in await store.ratings_of_user(3)] == [GLOBAL, GUILD]


async def test_boards_page_best_first_and_hide_who_asked(store: Storage) -> None:
    board = [rating(u, mu) for u, mu in ((1, 20.0), (2, 35.0), (3, 27.0), (4, 27.0))]
    board.append(rating(2, 35.0, guild=GUILD))
    await store.rate_game(0, await finished_game(store), board)
    page = await store.leaderboard("dif", GLOBAL, offset=0, limit=3)
    assert [r.user_id for r in page] == [2, 3, 4]  # equal scores: by user id
    assert [r.user_id for r in await store.leaderboard("dif", GLOBAL, offset=3, limit=3)] == [1]
    assert await store.board_size("dif", GLOBAL) == 4
    assert await store.board_position(board[3]) == 3
    await store.put_user_settings(3, {"global_board": False, "dm": True})
    assert [r.user_id for r in await store.leaderboard("dif", GLOBAL, offset=0, limit=9)] == [
        2,
        4,
        1,
    ]
    assert await store.board_size("dif", GLOBAL) == 3
    assert await store.board_position(board[2]) is None
    assert await store.board_position(board[3]) == 2
    assert await store.board_position(board[4]) == 1, "a server's board hides no one"
    assert await store.board_size("dif", GUILD) == 1
    assert await store.leaderboard("lockedon", GLOBAL, offset=0, limit=9) == []
