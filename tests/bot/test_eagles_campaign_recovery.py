"""An Eagles in the Sky campaign's missions settled without a game, against crashes and
deadlines: a deadline of a mission the campaign has left decides nothing; what the
campaign settled is posted after a crash that cut its post short; the decision that
settles a mission spends its side's time bank like any other.

The chits are fixed (every mission an Encounter) by a set-up model whose ``cup`` says
so (a test-only field ``/campaign new`` refuses from players).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.testing import FakeDiscord
from cogs.app import TallyHoBot
from engine.core.registry import campaign_system
from engine.eagles.campaign import EaglesCampaignSetup
from tests.bot.clocked import START, advance, make_bot


class Crash(Exception):
    """The process dies here."""


async def encounters_campaign(
    fake: FakeDiscord, bot: TallyHoBot, monkeypatch: pytest.MonkeyPatch, *members: Any
) -> int:
    """A one-day Quiet Sector campaign whose every chit is an Encounter, started with
    ``members`` on the Allied and German sides; its id."""

    class Encounters(EaglesCampaignSetup):
        cup: tuple[str, ...] = ("encounter",) * 8

    monkeypatch.setattr(campaign_system("eagles"), "setup_model", Encounters)
    alice, bob = members[:2]
    await fake.slash(
        alice,
        "campaign new",
        channel_id=fake.channel_id,
        system="eagles",
        name="quiet-sector",
        options="days=1 month=1917-10",
    )
    (record,) = await bot.service.storage.list_campaigns()
    await fake.slash(alice, "campaign join", channel_id=record.thread_id, side="allied")
    await fake.slash(bob, "campaign join", channel_id=record.thread_id, side="german")
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    return record.id


async def assign(bot: TallyHoBot, campaign_id: int, user_id: int, side: str) -> None:
    campaign = await bot.campaigns.load(campaign_id)
    action = campaign.system.computer_action(campaign.state, side, 1)
    await bot.campaigns.decide(campaign_id, user_id, str(action))


async def test_a_deadline_of_a_settled_mission_decides_nothing(
    fake: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The German deadline fires and its default settles mission #1; the process dies
    while posting it. At start-up the deadline, still claimed, comes due again: it
    must not take the Germans' decision for mission #2, which they were never asked."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "e.sqlite3"
    bot = make_bot(db, clock)
    await fake.start(bot)
    campaign_id = await encounters_campaign(fake, bot, monkeypatch, alice, bob)
    await assign(bot, campaign_id, alice.id, "allied")
    assert bot.deadlines is not None

    async def dying(news: Any) -> None:
        raise Crash

    monkeypatch.setattr(bot.deadlines.publisher, "publish_campaign", dying)
    await advance(fake, bot, clock, 25)  # the German deadline passes
    campaign = await bot.campaigns.load(campaign_id)
    entries = len(campaign.entries)
    assert campaign.state.sorties[0].status == "done", "the default settled mission #1"
    await bot.close()
    bot = make_bot(db, clock)
    await fake.start(bot)
    await advance(fake, bot, clock, 0.01)
    campaign = await bot.campaigns.load(campaign_id)
    assert len(campaign.entries) == entries, "mission #2 was decided by #1's deadline"
    assert [d.side for d in campaign.system.pending(campaign.state)] == ["allied", "german"]
    assert "on_due failed" in caplog.text  # the crash, logged as it must be
    caplog.clear()


async def test_what_a_crash_kept_from_the_thread_is_posted_at_start_up(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision that settles mission #1 is logged, then the process dies before
    its Encounters reach the thread: at start-up they are posted (and the followers
    told), once."""
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    clock = FakeClock(START)
    db = tmp_path / "e.sqlite3"
    bot = make_bot(db, clock)
    await fake.start(bot)
    campaign_id = await encounters_campaign(fake, bot, monkeypatch, alice, bob)
    record = await bot.service.storage.get_campaign(campaign_id)
    assert record is not None and record.thread_id is not None
    await fake.slash(carol, "campaign follow", channel_id=record.thread_id)
    await assign(bot, campaign_id, alice.id, "allied")

    async def crash(*args: Any, **kwargs: Any) -> Any:
        raise Crash

    campaign = await bot.campaigns.load(campaign_id)
    action = campaign.system.computer_action(campaign.state, "german", 1)
    bot.campaigns._advance = crash  # type: ignore[method-assign]
    with pytest.raises(Crash):
        await bot.campaigns.decide(campaign_id, bob.id, str(action))
    del bot.campaigns._advance  # (not monkeypatch.undo(): the fake's patches stay)
    posted = len(fake.sent_to(record.thread_id))
    await bot.close()
    bot = make_bot(db, clock)
    await fake.start(bot)
    await fake.settle()
    said = [m.get("content") or "" for m in fake.sent_to(record.thread_id)][posted:]
    assert any("Mission #1" in s and "Encounter" in s for s in said), said
    assert any("Encounter" in (m.get("content") or "") for m in fake.dms(carol))
    told = await bot.service.storage.get_campaign(campaign_id)
    assert told is not None and told.told_seq == told.last_seq
    again = len(fake.sent_to(record.thread_id))
    await bot.close()
    bot = make_bot(db, clock)
    await fake.start(bot)
    await fake.settle()
    later = [m.get("content") or "" for m in fake.sent_to(record.thread_id)][again:]
    assert not any("Mission #1" in s for s in later), "told once"


async def test_the_decision_that_settles_a_mission_spends_time_bank(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Germans answer mission #1 two hours into their time bank; that answer
    settles the mission (an Encounter): the two hours are spent all the same."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "e.sqlite3", clock)
    await fake.start(bot)
    storage = bot.service.storage
    await storage.put_guild_settings(fake.guild_id, {"deadlines": {"time_bank_hours": 6}})
    campaign_id = await encounters_campaign(fake, bot, monkeypatch, alice, bob)
    await assign(bot, campaign_id, alice.id, "allied")
    await advance(fake, bot, clock, 26)  # the 24 h deadline, and 2 h of the bank
    await assign(bot, campaign_id, bob.id, "german")  # settles mission #1
    row = (await storage.games_of_campaign(campaign_id))[-1]
    banks = {c.seat: c.time_bank_seconds for c in await storage.list_seat_clocks(row.id)}
    assert banks["german"] == 4 * 3600


async def test_the_draws_tests_fix_are_not_a_players_option(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """``draws`` and ``cup`` fix a campaign's luck in tests: ``/campaign new`` refuses
    them, whatever their value."""
    alice = fake.add_member("alice")
    bot = make_bot(tmp_path / "e.sqlite3", FakeClock(START))
    await fake.start(bot)
    for option in ("draws=100", "cup=encounter"):
        token = await fake.slash(
            alice,
            "campaign new",
            channel_id=fake.channel_id,
            system="eagles",
            name="quiet-sector",
            options=option,
        )
        said = fake.original(token)["content"]
        assert option.split("=")[0] in said and "not an option" in said, said
    assert not await bot.service.storage.list_campaigns()
