"""A crash between two writes of a campaign step loses nothing: the bot finishes the
step when it comes back (``CampaignService.reconcile``, at start-up).

Each test makes one write fail as a crash would leave it (the process stops after the
write before), restarts the bot on the same database and checks the campaign carried
on: a mission half seated, a mission game ended but not yet in the campaign's log, a
campaign abandoned before its running game was aborted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.storage import GameStatus
from bot.storage.models import CampaignStatus
from bot.testing import FakeDiscord, FakeUser
from bot.testing.campaigns import CampaignDriver
from cogs.app import TallyHoBot

SEED = 20261201
CAMPAIGN = "yom-kippur-1973"


class Crash(Exception):
    """The process stopping at that point."""


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


async def restart(fake: FakeDiscord, bot: TallyHoBot, db: Path) -> TallyHoBot:
    await bot.close()
    fresh = make_bot(db)
    await fake.start(fresh)
    return fresh


async def open_campaign(fake: FakeDiscord, bot: TallyHoBot, *users: FakeUser) -> int:
    await fake.start(bot)
    host = users[0]
    await fake.slash(
        host, "campaign new", channel_id=fake.channel_id, system="lockedon", name=CAMPAIGN
    )
    (record,) = await bot.service.storage.list_campaigns()
    assert record.thread_id is not None
    for user, side in zip(users, ("israel", "egypt"), strict=False):
        await fake.slash(user, "campaign join", channel_id=record.thread_id, side=side)
    await fake.slash(host, "campaign start", channel_id=record.thread_id)
    return record.id


async def test_a_mission_half_seated_is_seated_and_started_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    db = tmp_path / "c.sqlite3"
    bot = make_bot(db)
    campaign_id = await open_campaign(fake, bot, alice, bob)
    campaign = await bot.campaigns.load(campaign_id)
    system = campaign.system
    state = campaign.state
    await bot.campaigns.decide(
        campaign_id, alice.id, str(system.computer_action(state, "israel", 1))
    )
    state = (await bot.campaigns.load(campaign_id)).state
    action = str(system.computer_action(state, "egypt", 1))
    # Egypt's is the last decision: the mission is seated then, and crashes there.
    storage: Any = bot.service.storage
    real = storage.put_seat
    calls = 0

    async def put_seat(*args: Any, **kwargs: Any) -> int:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Crash
        return int(await real(*args, **kwargs))

    storage.put_seat = put_seat
    try:
        with pytest.raises(Crash):
            await bot.campaigns.decide(campaign_id, bob.id, action)
    finally:
        storage.put_seat = real
    (row,) = await bot.service.storage.games_of_campaign(campaign_id)
    assert len(await bot.service.storage.get_seats(row.id)) == 1, "one seat of three written"

    bot = await restart(fake, bot, db)
    (row,) = await bot.service.storage.games_of_campaign(campaign_id)
    seats = await bot.service.storage.get_seats(row.id)
    assert [(s.seat, s.user_id) for s in seats] == [
        ("A1", alice.id),
        ("B1", bob.id),
        ("B2", bob.id),
    ]
    assert row.status is GameStatus.ACTIVE and row.thread_id is not None, "started, with its thread"
    settings = await bot.service.storage.get_game_settings(row.id)
    assert settings is not None and settings.settings["plan"]["number"] == 1
    entries = (await bot.campaigns.load(campaign_id)).entries
    assert [e.side for e in entries] == ["israel", "egypt"], "each decision logged once"


async def test_a_mission_game_ended_before_its_campaign_heard_is_absorbed_after_a_restart(
    fake: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A solo campaign (Egypt flown by computer players): mission #1 ends, but the
    campaign's step after it crashes; after the restart its outcome is logged once,
    mission #2 is asked."""
    alice = fake.add_member("alice")
    db = tmp_path / "c.sqlite3"
    bot = make_bot(db)
    campaign_id = await open_campaign(fake, bot, alice)

    async def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    monkeypatch.setattr(bot.campaigns, "after_game", crash)
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice}, SEED)

    async def games(campaign_id: int) -> list[Any]:
        return await bot.service.storage.games_of_campaign(campaign_id)

    while (await games(campaign_id))[0].status is not GameStatus.FINISHED:
        await driver.step()
    assert not [e for e in (await bot.campaigns.load(campaign_id)).entries if e.kind == "outcome"]
    assert "its campaign could not take its end" in caplog.text  # logged, as it must be
    caplog.clear()

    bot = await restart(fake, bot, db)
    campaign = await bot.campaigns.load(campaign_id)
    outcomes = [e for e in campaign.entries if e.kind == "outcome"]
    (first, second) = await games(campaign_id)
    assert [e.game_id for e in outcomes] == [first.id], "the outcome, once"
    assert len(campaign.state.scores) == 1 and second.mission == 2
    bot = await restart(fake, bot, db)  # and again: nothing new
    assert len((await bot.campaigns.load(campaign_id)).entries) == len(campaign.entries)


async def test_a_campaign_abandoned_before_its_game_was_aborted_aborts_it_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.add_member("alice")
    db = tmp_path / "c.sqlite3"
    bot = make_bot(db)
    campaign_id = await open_campaign(fake, bot, alice)
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice}, SEED)
    await driver.step()  # Israel chooses: mission #1 starts
    (game,) = await bot.service.storage.games_of_campaign(campaign_id)
    assert game.status is GameStatus.ACTIVE
    # The abandonment's first write, then the crash:
    await bot.service.storage.update_campaign(campaign_id, status=CampaignStatus.ABANDONED)

    bot = await restart(fake, bot, db)
    (game,) = await bot.service.storage.games_of_campaign(campaign_id)
    assert game.status is GameStatus.ABORTED
    assert game.thread_id is not None
    assert any("aborted" in (m.get("content") or "") for m in fake.sent_to(game.thread_id))


async def test_a_mission_started_but_never_announced_is_announced_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.add_member("alice")
    db = tmp_path / "c.sqlite3"
    bot = make_bot(db)
    campaign_id = await open_campaign(fake, bot, alice)
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice}, SEED)
    await driver.step()  # Israel chooses: mission #1 starts and is announced
    (game,) = await bot.service.storage.games_of_campaign(campaign_id)
    thread = game.thread_id
    assert thread is not None
    storage = bot.service.storage

    def briefings() -> int:
        return sum(
            "**Mission #1: SA-7 Site**" in (m.get("content") or "") for m in fake.sent_to(thread)
        )

    assert briefings() == 1
    settings = await storage.get_game_settings(game.id)
    assert settings is not None and settings.settings["announced"] is True
    # As if the process stopped after the start, before its post:
    await storage.put_game_settings(game.id, {**settings.settings, "announced": False})

    bot = await restart(fake, bot, db)
    assert briefings() == 2, "the start is posted after all"
    bot = await restart(fake, bot, db)
    assert briefings() == 2, "and once"
