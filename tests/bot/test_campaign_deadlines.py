"""A campaign's decisions keep time like a game's, on the offline Discord with a fake
clock: reminders in the campaign's thread (and by DM), the default decision when the
deadline passes (then the mission starts), a restart in between losing and repeating
nothing, a vacation moving the deadline, and a substitute taking a member's place.
"""

from __future__ import annotations

from pathlib import Path

from bot.clock import FakeClock
from bot.storage import GameStatus
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from bot.testing.driver import components_of, message_with
from cogs.app import TallyHoBot
from tests.bot.clocked import START, advance, make_bot

CAMPAIGN = "yom-kippur-1973"


async def open_campaign(fake: FakeDiscord, bot: TallyHoBot, *users: object) -> tuple[int, int]:
    if fake.bot is not bot:
        await fake.start(bot)
    alice, bob = users
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="lockedon", name=CAMPAIGN
    )
    (record,) = await bot.service.storage.list_campaigns()
    assert record.thread_id is not None
    await fake.slash(alice, "campaign join", channel_id=record.thread_id, side="israel")
    await fake.slash(bob, "campaign join", channel_id=record.thread_id, side="egypt")
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    return record.id, record.thread_id


def texts(fake: FakeDiscord, channel: int) -> list[str]:
    return [m.get("content") or "" for m in fake.sent_to(channel)]


async def test_a_missed_campaign_decision_is_reminded_then_defaulted_across_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    db = tmp_path / "c.sqlite3"
    bot = make_bot(db, clock)
    campaign_id, thread = await open_campaign(fake, bot, alice, bob)
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice, bob.id: bob}, 7)
    # Egypt chooses at once; Israel's alice does not.
    campaign = await bot.campaigns.load(campaign_id)
    action = campaign.system.computer_action(campaign.state, "egypt", 1)
    await driver.choose(bob, str(action))

    def reminders() -> list[str]:
        return [t for t in texts(fake, thread) if "Reminder" in t and f"<@{alice.id}>" in t]

    await advance(fake, bot, clock, 12.5)  # past half of the 24 h: the first reminder
    assert len(reminders()) == 1 and "Reminder 1/2" in reminders()[0]
    assert any("Reminder 1/2" in (m.get("content") or "") for m in fake.dms(alice))
    assert not any(f"<@{bob.id}>" in t and "Reminder" in t for t in texts(fake, thread))
    await bot.close()  # a restart between the reminder and the deadline
    bot = make_bot(db, clock)
    await fake.start(bot)
    await advance(fake, bot, clock, 0.1)
    assert len(reminders()) == 1, "nothing sent twice after the restart"
    await advance(fake, bot, clock, 12.0)  # the deadline
    campaign = await bot.campaigns.load(campaign_id)
    decisions = [e for e in campaign.entries if e.kind == "decision"]
    assert [e.side for e in decisions] == ["egypt", "israel"]
    assert decisions[1].user_id is None, "taken by the bot"
    said = "\n".join(texts(fake, thread))
    assert "Israel's time ran out: its choices were made for it." in said
    (game,) = await bot.service.storage.games_of_campaign(campaign_id)
    assert game.status is GameStatus.ACTIVE and game.thread_id is not None, "mission #1 started"
    assert f"<#{game.thread_id}>" in said
    await advance(fake, bot, clock, 30)  # no campaign deadline is left to fire twice
    assert len([e for e in (await bot.campaigns.load(campaign_id)).entries]) == 2


async def test_a_vacation_moves_the_deadline_and_a_substitute_takes_the_place(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "c.sqlite3", clock)
    campaign_id, thread = await open_campaign(fake, bot, alice, bob)
    await fake.slash(alice, "campaign vacation", channel_id=thread, days=2)
    refused = await fake.slash(carol, "campaign sub", channel_id=thread, member=alice)
    assert "member" in fake.original(refused)["content"].lower()
    await fake.slash(bob, "campaign sub", channel_id=thread, member=carol)
    campaign = await bot.campaigns.load(campaign_id)
    assert campaign.side_of(carol.id) == "egypt" and campaign.side_of(bob.id) is None
    assert "takes the place of" in "\n".join(texts(fake, thread))
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice, carol.id: carol}, 3)
    action = campaign.system.computer_action(campaign.state, "egypt", 3)
    await driver.choose(carol, str(action))  # carol chooses for Egypt now

    await advance(fake, bot, clock, 30)  # past the 24 h, but alice is away
    campaign = await bot.campaigns.load(campaign_id)
    assert [(e.side, e.user_id) for e in campaign.entries] == [("egypt", carol.id)]
    await advance(fake, bot, clock, 24 * 3)  # alice's vacation over, her deadline passes
    campaign = await bot.campaigns.load(campaign_id)
    assert [(e.side, e.user_id) for e in campaign.entries] == [
        ("egypt", carol.id),
        ("israel", None),
    ]


async def test_a_menu_stays_good_while_the_other_side_chooses(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Both sides choose at once: Egypt's menu, opened before Israel chose, still works;
    it goes stale only once its mission is flown."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "c.sqlite3", FakeClock(START))
    campaign_id, thread = await open_campaign(fake, bot, alice, bob)
    message, custom_id = message_with(fake, thread, f"th:cchoose:{campaign_id}")
    token = await fake.click(bob, message, custom_id)
    (menu,) = [
        m
        for m in fake.messages.values()
        if m.get("interaction_metadata", {}).get("id") == str(fake.interactions[token].id)
    ]
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice, bob.id: bob}, 5)
    campaign = await bot.campaigns.load(campaign_id)
    await driver.choose(alice, str(campaign.system.computer_action(campaign.state, "israel", 1)))
    select = next(c for c in components_of(menu) if str(c["custom_id"]).startswith("th:cm:"))
    pick = next(o["value"] for o in select["options"] if not o["value"].startswith(">"))
    token = await fake.click(bob, menu, select["custom_id"], [pick])
    said = [
        m.get("content") or ""
        for m in fake.messages.values()
        if m.get("interaction_metadata", {}).get("id") == str(fake.interactions[token].id)
    ]
    assert any(s.startswith("Chosen:") for s in said), said
    campaign = await bot.campaigns.load(campaign_id)
    assert [e.side for e in campaign.entries] == ["israel", "egypt"]
