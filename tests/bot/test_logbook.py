"""``/campaign logbook`` on the offline Discord: an Eagles in the Sky campaign opened,
joined and started through the cogs, its first missions then written straight into its
log (computer decisions, engagements ended by the engine test's outcomes: the log
replays like any campaign's), and the logbook read with and without a pilot; refusals
are specific, ephemeral and change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import Refusal
from bot.testing import FakeDiscord
from cogs.app import TallyHoBot
from cogs.campaign import find_pilot
from engine.core.campaign import EntryKind, PilotLog, outcome_text
from engine.eagles.campaign import EaglesCampaigns
from strings import t
from tests.engine.eagles.test_campaign_logbook import _outcome

SEED = 20261202
EPHEMERAL = 64


async def _fly(bot: TallyHoBot, campaign_id: int, outcomes: int) -> None:
    """Append the campaign's next decisions and outcomes to its log, as computer
    players and the engine test's games would, until ``outcomes`` games are absorbed
    and both squadrons are to assign again."""
    storage = bot.service.storage
    loaded = await bot.campaigns.load(campaign_id)
    system = loaded.system
    assert isinstance(system, EaglesCampaigns)
    state = loaded.state
    n = 0
    while outcomes or len(system.pending(state)) < 2:
        n += 1
        pending = system.pending(state)
        if pending:
            d = pending[0]
            action = system.computer_action(state, d.side, SEED + n)
            text, kind, side = str(action), EntryKind.DECISION, d.side
            state = system.apply(state, d.side, action)
        else:
            outcome = _outcome(system.mission_setup(state), n)
            text, kind, side = outcome_text(outcome), EntryKind.OUTCOME, None
            state = system.absorb(state, outcome)
            outcomes -= 1
        await storage.append_campaign_entry(campaign_id, kind=kind.value, side=side, entry=text)


async def _assign(bot: TallyHoBot, campaign_id: int) -> None:
    """One squadron's secret assignment, the other's still awaited (§5.41)."""
    loaded = await bot.campaigns.load(campaign_id)
    d = loaded.system.pending(loaded.state)[0]
    action = loaded.system.computer_action(loaded.state, d.side, SEED)
    await bot.service.storage.append_campaign_entry(
        campaign_id, kind=EntryKind.DECISION.value, side=d.side, entry=str(action)
    )


async def test_the_logbook_with_and_without_a_pilot_and_its_refusals(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    bot = TallyHoBot(database=str(tmp_path / "logbook.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    await fake.slash(
        alice,
        "campaign new",
        channel_id=fake.channel_id,
        system="eagles",
        name="quiet-sector",
        options="days=2 month=1917-10",
    )
    (record,) = await bot.service.storage.list_campaigns()
    thread = record.thread_id
    assert thread is not None
    await fake.slash(alice, "campaign join", channel_id=thread, side="allied")
    await fake.slash(bob, "campaign join", channel_id=thread, side="german")
    await fake.slash(alice, "campaign start", channel_id=thread)
    await _fly(bot, record.id, outcomes=3)

    token = await fake.slash(carol, "campaign logbook", channel_id=thread)
    answer = fake.original(token)
    text = answer["content"]
    await _assign(bot, record.id)
    token = await fake.slash(carol, "campaign logbook", channel_id=thread)
    assert fake.original(token)["content"] == text, "a secret assignment shows nothing"
    assert answer["flags"] & EPHEMERAL
    assert "**Logbook: " in text and "· alice" in text and "· bob" in text
    assert "missions 1 · kills" in text, "a pilot line with his missions and kills"
    ((name, png),) = fake.files(answer)
    assert name.endswith(".png") and png.startswith(b"\x89PNG")
    campaign = await bot.campaigns.load(record.id)
    book = campaign.system.logbook(campaign.state)
    ace = max(book, key=lambda p: p.kills)
    assert ace.kills and f"kills {ace.kills}" in text

    choices = await fake.autocomplete(
        carol, "campaign logbook", "pilot", ace.name.split()[1][:3], channel_id=thread
    )
    assert ace.id in [c["value"] for c in choices]
    token = await fake.slash(carol, "campaign logbook", channel_id=thread, pilot=ace.id)
    answer = fake.original(token)
    mine = answer["content"]
    assert answer["flags"] & EPHEMERAL and fake.files(answer)
    assert f"**{ace.name}**" in mine and f"kills {ace.kills}" in mine
    for m in ace.missions:
        assert f"#{m.mission} " in mine
    assert mine != text

    # Her side's pilots flew missions whose outcomes were written straight into the
    # log: no game's seat of hers flew them, so her profile names none (only the pilots
    # a member flew are his: tests/bot/test_logbook_flyers.py) and the logbook names
    # nobody as their flyer.
    allied = [p for p in book if p.side == "allied" and p.missions]
    token = await fake.slash(carol, "profile", channel_id=thread, member=alice)
    profile = fake.original(token)["content"]
    assert allied and not any(f"**{p.name}" in profile for p in allied)
    assert "/campaign logbook" in profile, "/profile links the logbook"
    assert "flown by" not in text

    entries = len(campaign.entries)
    token = await fake.slash(carol, "campaign logbook", channel_id=thread, pilot="Nobody")
    refused = fake.original(token)
    assert refused["flags"] & EPHEMERAL and not fake.files(refused)
    no_pilot = t("logbook.refusal.no_pilot", None, pilot="'Nobody'", id=record.id)
    assert refused["content"].endswith(no_pilot)
    token = await fake.slash(carol, "campaign logbook", channel_id=fake.channel_id)
    refused = fake.original(token)
    assert refused["flags"] & EPHEMERAL
    assert refused["content"].endswith(t("campaign.refusal.none_here"))
    assert len((await bot.campaigns.load(record.id)).entries) == entries


def test_a_pilot_is_found_by_id_or_by_a_part_of_his_name_alone() -> None:
    pilots = (
        PilotLog("allied-A", "A Smith", "allied"),
        PilotLog("allied-B", "B Smith", "allied"),
        PilotLog("german-A", "A Weber", "german"),
    )
    assert find_pilot(1, pilots, "german-A") is pilots[2]
    assert find_pilot(1, pilots, "b smith") is pilots[1]
    assert find_pilot(1, pilots, "web") is pilots[2]
    with pytest.raises(Refusal) as several:
        find_pilot(1, pilots, "Smith")
    assert several.value.key == "logbook.refusal.several"
    assert "A Smith, B Smith" in str(several.value)
    with pytest.raises(Refusal) as unknown:
        find_pilot(1, pilots, "Udet")
    assert unknown.value.key == "logbook.refusal.no_pilot"
