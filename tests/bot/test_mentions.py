"""Whom the bot's messages notify: the bot-wide default is nobody, and a message
that must ping names exactly the users it pings. A player's name and text holding
``@everyone``, ``@here``, a role's and another member's mention go through every path
that echoes them, and nothing notifies everyone, a role or someone not called."""

from __future__ import annotations

from pathlib import Path

from bot.clock import FakeClock
from bot.testing import FakeDiscord, FakeUser, Ping
from bot.testing.campaigns import CampaignDriver
from tests.bot.clocked import START, advance, log_of, make_bot, open_duel
from tests.bot.test_campaign_deadlines import open_campaign


def _said(fake: FakeDiscord, ping: Ping) -> str:
    return str(fake.messages[ping.message_id]["content"])


def _check(fake: FakeDiscord, called: set[int]) -> None:
    for ping in fake.pings:
        assert ping.allowed_mentions is not None, _said(fake, ping)
        assert not ping.everyone and not ping.roles, _said(fake, ping)
        assert ping.users <= called, _said(fake, ping)


def _pinged(fake: FakeDiscord, words: str) -> list[frozenset[int]]:
    return [p.users for p in fake.pings if words in _said(fake, p)]


async def test_a_game_pings_only_whom_it_calls_whatever_names_and_texts_hold(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    carol = fake.add_member("carol")
    evil = f"@everyone @here <@&{fake.admin_role_id}> <@{carol.id}>"
    alice: FakeUser = fake.add_member(f"alice {evil}")
    bob, dave = fake.add_member("bob"), fake.add_member("dave")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=2.0)
    refused = fake.original(await fake.slash(alice, "play", channel_id=thread, text=evil))
    assert refused["flags"] & 64 and await log_of(bot, game_id) == []
    await fake.slash(alice, "play", channel_id=thread, text="stay")
    await fake.slash(alice, "play", channel_id=thread, text="play MAN X1L")
    await advance(fake, bot, clock, 1.5)
    await fake.slash(alice, "game undo", channel_id=thread)
    await fake.slash(bob, "game sub", channel_id=thread, member=dave)
    await fake.slash(bob, "game resign", channel_id=thread, confirm=True)
    assert any(evil in m["content"] for m in fake.public_messages()), "the report names alice"
    _check(fake, called={alice.id, bob.id, dave.id})
    assert _pinged(fake, "Reminder 1/2") == [frozenset({bob.id})]
    assert _pinged(fake, "asks to take back") == [frozenset({bob.id})]
    assert _pinged(fake, "offers seat X1") == [frozenset({dave.id})]
    assert frozenset({bob.id}) in _pinged(fake, "must respond"), "the prompt"


async def test_a_campaign_pings_only_the_sides_it_asks(fake: FakeDiscord, tmp_path: Path) -> None:
    carol = fake.add_member("carol")
    evil = f"@everyone @here <@&{fake.admin_role_id}> <@{carol.id}>"
    alice, bob = fake.add_member(f"alice {evil}"), fake.add_member(f"bob {evil}")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "c.sqlite3", clock)
    campaign_id, thread = await open_campaign(fake, bot, alice, bob)
    driver = CampaignDriver(fake, bot, campaign_id, {alice.id: alice, bob.id: bob}, 7)
    campaign = await bot.campaigns.load(campaign_id)
    await driver.choose(bob, str(campaign.system.computer_action(campaign.state, "egypt", 1)))
    await advance(fake, bot, clock, 12.5)  # alice's reminder
    await fake.slash(alice, "campaign sub", channel_id=thread, member=carol)
    _check(fake, called={alice.id, bob.id, carol.id})
    assert _pinged(fake, "Reminder 1/2") == [frozenset({alice.id})]
    assert frozenset({alice.id, bob.id}) in [p.users for p in fake.pings], "both sides asked"
