"""Ratings, boards and records through the offline Discord: games finished by
resignation move the players' ratings as they end; ``/rank``, ``/leaderboard`` (its
pages turned with the buttons, the global board without a player who hid) and
``/profile`` answer privately, in text and with a picture; an unrated game counts
in no rating; every refusal is a specific private message."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot import records
from bot.games import LoadedGame
from bot.later import FollowUp, answer_first, run_follow_ups
from bot.ratings import MODEL
from bot.records import campaign_title, pilot_record
from bot.service import GameService
from bot.storage import CampaignStatus, GameStatus, SQLiteStorage
from bot.storage.models import GLOBAL
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import wait_for_new_game
from cogs.app import TallyHoBot


async def duel(
    fake: FakeDiscord, bot: TallyHoBot, host: FakeUser, other: FakeUser, **options: object
) -> int:
    """A Zero! 1v1 of ``host`` (Allied, Buffalo I) and ``other`` (Ki-43), which
    ``other`` resigns; returns the game's id."""
    await fake.slash(host, "dogfight new", channel_id=fake.channel_id, ruleset="zero", **options)
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(host, "dogfight join", channel_id=thread, side="allied", aircraft="buffalo-i")
    await fake.slash(other, "dogfight join", channel_id=thread, side="axis", aircraft="ki-43")
    await fake.slash(host, "dogfight start", channel_id=thread)
    await fake.slash(other, "game resign", channel_id=thread, confirm=True)
    return game.id


async def taken_in(fake: FakeDiscord, bot: TallyHoBot, games: int) -> None:
    """Wait until the ratings' ledger holds ``games`` games (a catch-up runs in the
    background once a game ends, or the bot starts)."""
    for _ in range(100):
        if len(await bot.service.storage.rating_ledger()) >= games:
            return
        await fake.settle()
    raise AssertionError(f"the ratings never took in {games} games")


async def test_ratings_boards_and_records_through_discord(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol, dave = (fake.add_member(n) for n in ("alice", "bob", "carol", "dave"))
    bot = TallyHoBot(database=str(tmp_path / "ratings.sqlite3"), seed_source=lambda: 7)
    await fake.start(bot)
    # the extension's own module (discord.py loads a fresh one): two players a page
    monkeypatch.setattr(sys.modules["cogs.community"], "PAGE_SIZE", 2)
    storage = bot.service.storage

    tok = await fake.slash(dave, "rank")
    refused = fake.original(tok)
    assert refused["flags"] & 64 and "has no rated game yet" in refused["content"]
    tok = await fake.slash(alice, "leaderboard")
    assert "No rated game of Down in Flames yet, this server." in fake.original(tok)["content"]

    await duel(fake, bot, alice, bob)
    await taken_in(fake, bot, 1)
    rated = {(r.guild_id, r.system): r for r in await storage.ratings_of_user(alice.id)}
    assert rated[GLOBAL, "dif"].wins == 1, "the game's end moved the ratings"
    assert rated[GLOBAL, "dif"].mu == MODEL.rate([[MODEL.rating()], [MODEL.rating()]])[0][0].mu
    await duel(fake, bot, alice, carol)
    await duel(fake, bot, bob, carol)
    unrated = await duel(fake, bot, carol, dave, rated=False)
    unrated_game = await storage.get_game(unrated)
    assert unrated_game is not None and unrated_game.options["rated"] is False
    lobby = fake.messages[unrated_game.lobby_message_id or 0]["content"]
    assert "Unrated: this game does not count in the players' ratings." in lobby
    tok = await fake.slash(dave, "rank", system="dif")
    assert "has no rated game of Down in Flames yet" in fake.original(tok)["content"]

    tok = await fake.slash(alice, "rank")
    answer = fake.original(tok)
    assert answer["flags"] & 64, "a player's ratings are shown to the reader only"
    assert "this server: **" in answer["content"] and "(#1 of 3)" in answer["content"]
    assert "2 games, 2 won, 0 lost" in answer["content"]
    assert fake.files(answer)[0][0] == "rank.png"

    tok = await fake.slash(carol, "leaderboard")
    first = fake.original(tok)
    assert "(page 1 of 2)" in first["content"]
    lines = [line for line in first["content"].splitlines() if line[:2] in ("1.", "2.")]
    assert [f"<@{alice.id}>" in lines[0], f"<@{bob.id}>" in lines[1]] == [True, True]
    assert fake.files(first)[0][0] == "leaderboard.png"
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(carol, first, fake.custom_id(first, "◀"))
    await fake.click(carol, first, fake.custom_id(first, "▶"))
    second = fake.messages[int(first["id"])]
    assert "(page 2 of 2)" in second["content"] and f"3. <@{carol.id}>" in second["content"]
    await fake.click(carol, second, fake.custom_id(second, "◀"))
    assert "(page 1 of 2)" in fake.messages[int(first["id"])]["content"]

    tok = await fake.slash(bob, "settings global-board", enabled="off")
    assert "no longer appear on the global leaderboards" in fake.original(tok)["content"]
    tok = await fake.slash(carol, "leaderboard", scope="global")
    shown = fake.original(tok)["content"]
    assert f"<@{bob.id}>" not in shown and f"2. <@{carol.id}>" in shown
    tok = await fake.slash(carol, "leaderboard", scope="server")
    assert f"2. <@{bob.id}>" in fake.original(tok)["content"], "a server's board hides no one"
    dm = fake.dm_channel_id(carol)
    tok = await fake.slash(carol, "leaderboard", channel_id=dm)
    assert "A server's leaderboard is shown in that server" in fake.original(tok)["content"]
    tok = await fake.slash(carol, "leaderboard", channel_id=dm, scope="global")
    assert "every server** (page 1 of 1)" in fake.original(tok)["content"]
    tok = await fake.slash(bob, "rank")
    assert "every server: **" in fake.original(tok)["content"]
    assert "(hidden)" in fake.original(tok)["content"]

    tok = await fake.slash(carol, "profile", member=alice)
    record = fake.original(tok)
    assert record["flags"] & 64
    assert "**Down in Flames**: 2 games, 2 won · 0 kills, 0 aircraft lost" in record["content"]
    assert "Favourite aircraft: **Buffalo I** (Down in Flames)" in record["content"]
    assert fake.files(record)[0][0] == "profile.png"
    tok = await fake.slash(dave, "profile")
    assert "**Down in Flames**: 1 games, 0 won" in fake.original(tok)["content"]

    # share:True posts in the channel, in the server's language, and pings nobody.
    admin = fake.add_member("admin", admin=True)
    await fake.slash(admin, "config language", language="fr")
    before = len(fake.pings)
    tok = await fake.slash(carol, "leaderboard", share=True)
    board = fake.original(tok)
    assert not board["flags"] & 64 and "**Tableau de Down in Flames" in board["content"]
    assert fake.files(board)[0][0] == "leaderboard.png"
    await fake.click(dave, board, fake.custom_id(board, "▶"))  # anyone turns its pages
    assert "(page 2 sur 2)" in fake.messages[int(board["id"])]["content"]
    tok = await fake.slash(carol, "profile", member=alice, share=True)
    assert (
        not fake.original(tok)["flags"] & 64 and f"<@{alice.id}>" in fake.original(tok)["content"]
    )
    tok = await fake.slash(carol, "rank", member=bob, share=True)  # bob hid from the global board
    shared = fake.original(tok)["content"]
    assert not fake.original(tok)["flags"] & 64 and f"<@{bob.id}>" in shared
    assert "tous les serveurs :" not in shared and "ce serveur :" in shared, shared
    assert all(not (p.users or p.roles or p.everyone) for p in fake.pings[before:])

    by_ledger = await bot.get_cog("CommunityCog").ratings.ledger_games()  # type: ignore[union-attr]
    assert [g.game_id for g in by_ledger] == [1, 2, 3], "the unrated game counts in none"


async def test_a_pilot_record_counts_kills_and_losses_from_the_fates(tmp_path: Path) -> None:
    """A whole seeded game to the death through the service, both seats flown by the
    heuristic computer: the winner's kills are the loser's losses, and the aircraft
    flown are the seats' own; a campaign the player is in is a current one."""
    storage = await SQLiteStorage.open(str(tmp_path / "records.sqlite3"))
    try:
        service = GameService(storage, seed_source=lambda: 3)
        game = await service.new_lobby(
            guild_id=1, channel_id=2, host_id=11, ruleset="zero", year=1942, to_the_death=True
        )
        await service.join(game, 11, "alice", "buffalo-i", "allied")
        await service.join(game, 22, "bob", "ki-43", "axis")
        game = (await service.start(game, 11)).game
        computer = game.system.computer_player(5, "heuristic")  # it fights; random play flees
        while game.record.status is GameStatus.ACTIVE:
            decision = game.system.pending(game.state)[0]
            action = computer.choose(game.state, decision.seat)
            user = game.holder(decision.seat)
            assert user is not None
            game = (await service.act(game.id, user, decision.seat, str(action))).game
        outcome = game.system.outcome(game.state)
        alice, bob = await pilot_record(service, 11), await pilot_record(service, 22)
        mine, theirs = alice.systems["dif"], bob.systems["dif"]
        assert (mine.played, theirs.played) == (1, 1)
        assert mine.won + theirs.won == (outcome.winner is not None)
        assert mine.kills == theirs.losses == len(outcome.shot_down("axis"))
        assert theirs.kills == mine.losses == len(outcome.shot_down("allied"))
        assert (theirs.kills, mine.losses) == (2, 2), "this game: both Buffalos shot down"
        assert set(mine.aircraft) == {"buffalo-i"} and set(theirs.aircraft) == {"ki-43"}
        assert alice.favourite == ("dif", "buffalo-i")
        # A record reads each finished game once (its version unchanged), and keeps it
        # out of the cache of games being played.
        loads: list[int] = []
        load = service.load

        async def counted(game_id: int, *, remember: bool = True) -> LoadedGame:
            loads.append(game_id)
            return await load(game_id, remember=remember)

        service.load = counted  # type: ignore[method-assign]
        service._forget(game.id)
        records._tallies.clear()
        assert await pilot_record(service, 11) == alice and loads == [game.id]
        assert await pilot_record(service, 22) == bob and loads == [game.id]
        assert game.id not in service._cache
        service.load = load  # type: ignore[method-assign]
        campaign = await storage.create_campaign(
            guild_id=1, channel_id=2, host_id=11, system="dif", campaign="malaya", setup={},
            seed=1, status=CampaignStatus.ACTIVE,
        )  # fmt: skip
        await storage.put_campaign_member(campaign.id, 11, side="allied", display_name="alice")
        (current,) = (await pilot_record(service, 11)).campaigns
        assert (current.id, campaign_title(current)) == (campaign.id, "Malaya")
        assert (await pilot_record(service, 22)).campaigns == []
    finally:
        await storage.close()


async def test_the_games_finished_before_a_start_are_rated_at_the_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A database whose games finished while no bot rated them (a crash between a
    game's end and its ratings, an older release): the start takes them in."""
    path = tmp_path / "older.sqlite3"
    store = await SQLiteStorage.open(str(path))
    try:
        game = await store.create_game(
            guild_id=fake.guild_id, channel_id=1, host_id=1, system="dif", ruleset="zero",
            seed=1, status=GameStatus.ACTIVE,
        )  # fmt: skip
        await store.put_seat(game.id, "A1", "allied", 11, "alice")
        version = await store.put_seat(game.id, "X1", "axis", 22, "bob")
        result = {"vp": {}, "winner": "axis", "verdict": "", "conceded": "allied"}
        await store.update_game(game.id, version, status=GameStatus.FINISHED, result=result)
    finally:
        await store.close()
    bot = TallyHoBot(database=str(path))
    await fake.start(bot)
    await taken_in(fake, bot, 1)
    (bob,) = [r for r in await bot.service.storage.ratings_of_user(22) if r.guild_id == GLOBAL]
    assert (bob.games, bob.wins) == (1, 1)


async def test_a_games_end_is_rated_once_its_player_was_answered(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The ratings' catch-up after a game's end starts once the interaction that ended
    it was answered (its follow-ups, ``bot.later``): a task started at once would run
    in the answer's own awaits, the player's reply waiting for it. Outside an
    interaction (a deadline's default ended the game) it starts at once."""
    bot = TallyHoBot(database=str(tmp_path / "ratings.sqlite3"), seed_source=lambda: 7)
    await fake.start(bot)
    cog: Any = bot.get_cog("CommunityCog")  # of the extension's own module (a fresh one)
    assert cog is not None
    await fake.settle()  # the start's own catch-up
    record = SimpleNamespace(status=GameStatus.FINISHED)
    ended = cast(LoadedGame, SimpleNamespace(record=record))

    async def answered() -> tuple[int, list[FollowUp]]:  # an interaction's task
        follow_ups = answer_first()
        await cog.game_changed(ended, "A1")
        return len(cog._catch_ups), follow_ups

    during, follow_ups = await asyncio.create_task(answered())
    assert during == 0 and len(follow_ups) == 1
    await run_follow_ups(follow_ups)
    assert len(cog._catch_ups) == 1
    await fake.settle()
    assert not cog._catch_ups
    await cog.game_changed(ended, None)  # outside an interaction: at once
    assert len(cog._catch_ups) == 1
    await fake.settle()
