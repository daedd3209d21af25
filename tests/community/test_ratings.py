"""Ratings: the updates of 1v1, team and free-for-all games against OpenSkill's own
figures (its Plackett-Luce model from fresh ratings, printed by the library), which
games count, and that a recomputation from the ledger equals the ratings the
catch-ups stored (on both backends)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.ratings import RatedGame, Ratings, compute, rate, rated_sides, side_ranks
from bot.storage import GameRecord, GameStatus, SeatRecord, SQLiteStorage, Storage
from bot.storage.models import GLOBAL, RatingRecord
from tests.storage.backends import Database

GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def game(teams: tuple[tuple[int, ...], ...], ranks: tuple[int, ...]) -> RatedGame:
    return RatedGame(game_id=1, system="dif", guild_id=GUILD, teams=teams, ranks=ranks)


def by_user(ratings: list[RatingRecord], scope: int = GLOBAL) -> dict[int, RatingRecord]:
    return {r.user_id: r for r in ratings if r.guild_id == scope}


def test_a_1v1_win_moves_both_players_as_openskill_says() -> None:
    after = rate(game(((1,), (2,)), (0, 1)), {})
    assert len(after) == 4  # the server's ratings and the global ones
    for scope in (GUILD, GLOBAL):
        mine = by_user(after, scope)
        assert (mine[1].mu, mine[1].sigma) == (27.635389493140497, 8.06590141354368)
        assert (mine[2].mu, mine[2].sigma) == (22.364610506859503, 8.06590141354368)
        assert (mine[1].games, mine[1].wins, mine[1].losses) == (1, 1, 0)
        assert (mine[2].games, mine[2].wins, mine[2].losses) == (1, 0, 1)


def test_rating_a_game_leaves_no_reference_cycle() -> None:
    """OpenSkill leaves some (a freeze could keep them for ever: bot.games): rate()
    collects them."""
    gc.collect()
    gc.disable()
    try:
        for ranks in ((0, 1), (0, 0), (1, 0, 1)):
            teams = ((1,), (2,), (3,))[: len(ranks)]
            assert rate(game(teams, ranks), {})
            assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_draw_changes_no_mean_and_counts_neither_win_nor_loss() -> None:
    mine = by_user(rate(game(((1,), (2,)), (1, 1)), {}))
    assert (mine[1].mu, mine[1].sigma) == (25.0, 8.06590141354368)
    assert (mine[1].wins, mine[1].losses, mine[2].wins, mine[2].losses) == (0, 0, 0, 0)


def test_a_team_game_rates_each_wingman_with_their_team() -> None:
    mine = by_user(rate(game(((1, 2), (3,)), (0, 1)), {}))
    assert mine[1].mu == mine[2].mu == 25.746116583375226
    assert mine[1].sigma == mine[2].sigma == 8.207298168569771
    assert (mine[3].mu, mine[3].sigma) == (24.253883416624774, 8.244535891006825)


def test_a_free_for_all_ranks_the_winner_first_and_the_others_level() -> None:
    mine = by_user(rate(game(((1,), (2,), (3,)), (1, 0, 1)), {}))
    assert (mine[2].mu, mine[2].sigma) == (27.869048680749426, 8.205243377397993)
    assert mine[1].mu == mine[3].mu == 23.565475659625285
    assert (mine[2].wins, mine[1].losses, mine[3].losses) == (1, 1, 1)


def test_a_side_that_concedes_a_free_for_all_without_winner_ranks_last() -> None:
    ranks = side_ranks({"winner": None, "conceded": "b"}, ["a", "b", "c"])
    assert ranks == {"a": 1, "b": 2, "c": 1}
    mine = by_user(rate(game(((1,), (2,), (3,)), (1, 2, 1)), {}))
    assert mine[1].mu == mine[3].mu == 25.717262170187357
    assert mine[2].mu == 23.565475659625285
    assert (mine[1].wins, mine[1].losses, mine[2].losses) == (0, 0, 1)


def test_a_rating_goes_on_from_the_stored_one() -> None:
    first = rate(game(((1,), (2,)), (0, 1)), {})
    current = {(r.guild_id, r.user_id): r for r in first}
    second = by_user(rate(game(((1,), (2,)), (0, 1)), current))
    assert second[1].games == 2 and second[1].wins == 2
    assert second[1].mu > by_user(first)[1].mu
    assert second[1].sigma < by_user(first)[1].sigma


def record(**changes: Any) -> GameRecord:
    fields: dict[str, Any] = {
        "id": 7,
        "guild_id": GUILD,
        "channel_id": 1,
        "host_id": 1,
        "system": "dif",
        "ruleset": "rotl",
        "status": GameStatus.FINISHED,
        "options": {},
        "seed": 1,
        "version": 3,
        "last_seq": 2,
        "created_at": START,
        "updated_at": START,
        "finished_at": START,
        "thread_id": None,
        "lobby_message_id": None,
        "posted_seq": 0,
        "campaign_id": None,
        "mission": None,
        "result": {"vp": {"allied": 3, "axis": 0}, "winner": "allied", "verdict": "won"},
    }
    return GameRecord.model_validate({**fields, **changes})


def seat(name: str, side: str, user: int | None) -> SeatRecord:
    return SeatRecord(
        game_id=7,
        seat=name,
        side=side,
        user_id=user,
        display_name=str(user),
        payload={},
        joined_at=START,
    )


SEATS = [seat("A1", "allied", 1), seat("A2", "allied", 2), seat("X1", "axis", 3)]


def test_which_games_count() -> None:
    counted = rated_sides(record(), SEATS)
    assert counted is not None
    assert counted.teams == ((1, 2), (3,)) and counted.ranks == (0, 1)
    resigned = record(result={"vp": {}, "winner": "axis", "verdict": "r", "conceded": "allied"})
    assert rated_sides(resigned, SEATS) == RatedGame(7, "dif", GUILD, ((1, 2), (3,)), (2, 0))
    assert rated_sides(record(options={"computer_level": "heuristic"}), SEATS) is None
    assert rated_sides(record(options={"rated": False}), SEATS) is None
    assert rated_sides(record(status=GameStatus.ABORTED, result=None), SEATS) is None
    against_computer = [seat("A1", "allied", 1), seat("X1", "axis", None)]
    assert rated_sides(record(), against_computer) is None
    both_sides = [seat("A1", "allied", 1), seat("X1", "axis", 1)]
    assert rated_sides(record(), both_sides) is None
    wingman_left = [*SEATS[:1], seat("A2", "allied", None), SEATS[2]]
    assert rated_sides(record(), wingman_left) == RatedGame(7, "dif", GUILD, ((1,), (3,)), (0, 1))


# -- the catch-up and the recomputation, on both backends ----------------------------------


class TickClock:
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


async def play(
    store: Storage,
    seats: list[tuple[str, str, int | None]],
    result: dict[str, Any],
    *,
    guild: int = GUILD,
    system: str = "dif",
    options: dict[str, Any] | None = None,
) -> int:
    """A game between these seats, finished with ``result``."""
    created = await store.create_game(
        guild_id=guild, channel_id=1, host_id=1, system=system, ruleset="r", seed=1,
        options=options, status=GameStatus.ACTIVE,
    )  # fmt: skip
    version = 0
    for name, side, user in seats:
        version = await store.put_seat(created.id, name, side, user, str(user))
    await store.update_game(created.id, version, status=GameStatus.FINISHED, result=result)
    return created.id


def won(side: str, **more: Any) -> dict[str, Any]:
    return {"vp": {}, "winner": side, "verdict": "", **more}


async def test_recomputing_from_the_ledger_gives_the_stored_ratings(store: Storage) -> None:
    ratings = Ratings(store)
    duel = [("A1", "a", 1), ("B1", "b", 2)]
    await play(store, duel, won("a"))
    await play(store, [("A1", "a", 1), ("A2", "a", 3), ("B1", "b", 2)], won("b"))
    await play(store, duel, won("b", conceded="a"), guild=OTHER_GUILD)
    assert await ratings.catch_up() == 3
    await play(store, [("A", "a", 1), ("B", "b", 2), ("C", "c", 3)], won("c"))  # free-for-all
    await play(store, duel, {"vp": {}, "winner": None, "verdict": "draw"}, system="lockedon")
    await play(store, duel, won("a"), options={"computer_level": "random"})  # practice
    await play(store, duel, won("a"), options={"rated": False})
    await play(store, [("A1", "a", 1), ("B1", "b", None)], won("a"))  # against a computer
    assert await ratings.catch_up() == 5
    assert await ratings.catch_up() == 0
    assert len(await store.rating_ledger()) == 8

    stored = [r for user in (1, 2, 3) for r in await store.ratings_of_user(user)]
    recomputed = compute(await ratings.ledger_games())
    key = lambda r: (r.system, r.guild_id, r.user_id)  # noqa: E731
    assert sorted(stored, key=key) == sorted(recomputed, key=key)
    assert {(r.system, r.guild_id) for r in stored} == {
        ("dif", GUILD),
        ("dif", OTHER_GUILD),
        ("dif", GLOBAL),
        ("lockedon", GUILD),
        ("lockedon", GLOBAL),
    }
    player_1 = {(r.system, r.guild_id): r for r in await store.ratings_of_user(1)}
    assert (player_1["dif", GLOBAL].games, player_1["dif", GLOBAL].wins) == (4, 1)
    assert player_1["dif", GLOBAL].losses == 3
    assert (player_1["dif", OTHER_GUILD].games, player_1["dif", OTHER_GUILD].losses) == (1, 1)
    version = await store.ratings_version()
    assert await ratings.recompute() == recomputed
    assert await store.ratings_version() == version + 1
    again = [r for user in (1, 2, 3) for r in await store.ratings_of_user(user)]
    assert sorted(again, key=key) == sorted(stored, key=key)


async def test_a_corrected_result_is_reapplied_by_recomputing(store: Storage) -> None:
    ratings = Ratings(store)
    game_id = await play(store, [("A1", "a", 1), ("B1", "b", 2)], won("a"))
    await ratings.catch_up()
    before = by_user(await store.ratings_of_user(1))
    assert before[1].wins == 1
    record_ = await store.get_game(game_id)
    assert record_ is not None
    await store.update_game(game_id, record_.version, result=won("b"))
    await ratings.recompute()
    after = by_user(await store.ratings_of_user(1))
    assert (after[1].wins, after[1].losses) == (0, 1)
    assert after[1].mu == 22.364610506859503


async def test_two_processes_catching_up_at_once_take_each_game_once(
    database: Database,
) -> None:
    first, second = await database.open(), await database.open()
    try:
        for _ in range(6):
            await play(first, [("A1", "a", 1), ("B1", "b", 2)], won("a"))
        counts = await asyncio.gather(Ratings(first).catch_up(), Ratings(second).catch_up())
        assert sum(counts) == 6
        mine = by_user(await first.ratings_of_user(1))
        assert (mine[1].games, mine[1].wins) == (6, 6)
        assert [r for r in await first.ratings_of_user(1)] == [
            r for r in compute(await Ratings(first).ledger_games()) if r.user_id == 1
        ]
    finally:
        await first.close()
        await second.close()


def test_python_m_bot_ratings_recomputes_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line: a database whose cache was never filled (the games finished
    before the ratings existed) gets every rating, as the catch-ups would have."""
    path = str(tmp_path / "cli.sqlite3")

    async def fill() -> None:
        store = await SQLiteStorage.open(path, clock=TickClock())
        try:
            await play(store, [("A1", "a", 1), ("B1", "b", 2)], won("a"))
            await play(store, [("A1", "a", 2), ("B1", "b", 3)], won("b", conceded="a"))
        finally:
            await store.close()

    async def stored() -> tuple[list[RatingRecord], list[RatingRecord]]:
        store = await SQLiteStorage.open(path)
        try:
            mine = [r for user in (1, 2, 3) for r in await store.ratings_of_user(user)]
            return mine, compute(await Ratings(store).ledger_games())
        finally:
            await store.close()

    asyncio.run(fill())
    assert main(["ratings", "--database", path]) == 0
    said = capsys.readouterr().out
    assert said == "recomputed 6 ratings of 3 players from 2 finished games\n"
    mine, recomputed = asyncio.run(stored())
    assert sorted(mine, key=lambda r: (r.guild_id, r.user_id)) == recomputed
    assert {r.user_id: r.losses for r in recomputed if r.guild_id == GLOBAL} == {1: 0, 2: 2, 3: 0}
