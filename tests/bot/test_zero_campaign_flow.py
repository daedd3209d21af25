"""Zero! campaigns through the real cogs on the offline Discord.

Pearl Harbor (§26): one member opens the solitaire campaign, joins the Japanese side
alone and plays it to the end: each wave's Targets chosen in the private menu, the
American defences drawn and told in the thread, and the American fighters' attack on
an Element flown as a mission game against the computer.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.storage import GameStatus
from bot.storage.models import CampaignStatus
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from bot.testing.driver import text_of
from cogs.app import TallyHoBot
from engine.core.registry import campaign_system

PEARL_SEED = 8
"""A seed whose Second Wave meets the American fighters (an Ace Pilot card drawn)."""


def make_bot(db: Path, seed: int) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: seed)


async def test_one_player_flies_pearl_harbor_to_the_end(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, carol = fake.add_member("alice"), fake.add_member("carol")
    bot = make_bot(tmp_path / "pearl.sqlite3", PEARL_SEED)
    await fake.start(bot)
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="dif", name="pearl-harbor"
    )
    (record,) = await bot.service.storage.list_campaigns()
    thread = record.thread_id
    assert thread is not None
    await fake.slash(alice, "campaign join", channel_id=thread, side="japanese")
    await fake.slash(alice, "campaign start", channel_id=thread)
    await fake.slash(carol, "campaign follow", channel_id=thread)
    said = "\n".join(m.get("content") or "" for m in fake.sent_to(thread))
    assert "American: computer players." in said, "nobody needs to join them"

    driver = CampaignDriver(fake, bot, record.id, {alice.id: alice}, PEARL_SEED)
    while await driver.step() != "done":
        pass
    campaign = await bot.campaigns.load(record.id)
    assert campaign.record.status is CampaignStatus.FINISHED
    system = campaign_system("dif")
    assert system.is_over(campaign.state)
    assert driver.choices == 2, "one assignment a wave, both by the one player"

    games = await bot.service.storage.games_of_campaign(record.id)
    finished = [g for g in games if g.status is GameStatus.FINISHED]
    assert len(finished) == len(driver.games) == 1, "the American fighters' attack was a game"
    assert not [g for g in games if g.status in (GameStatus.LOBBY, GameStatus.ACTIVE)]
    (game,) = finished
    game_said = "\n".join(text_of(m) for m in fake.sent_to(game.thread_id))
    assert "P-40B" in game_said

    said = "\n".join(m.get("content") or "" for m in fake.sent_to(thread))
    assert "Target" in said and "Damage" in said, "the bombing is told in the thread"
    assert f"<#{game.thread_id}>" in said
    assert "The campaign is over." in said
    assert any("Target" in (m.get("content") or "") for m in fake.dms(carol))

    token = await fake.slash(carol, "campaign status", channel_id=thread)
    status = fake.original(token)
    ((_, png),) = fake.files(status)
    assert Image.open(io.BytesIO(png)).width == 960
    assert "Battleship Row" in status["content"]
    token = await fake.slash(carol, "campaign verify", channel_id=thread)
    checked = fake.original(token)["content"]
    assert checked.startswith("✅ Verified."), checked
    assert not fake.problems()


async def fly_campaign(
    fake: FakeDiscord, tmp_path: Path, name: str, sides: tuple[str, ...], seed: int
) -> tuple[TallyHoBot, int, CampaignDriver]:
    """Open ``name``, one member a side in ``sides`` (the others: computer), play it out."""
    members = [fake.add_member(f"pilot{i}") for i, _ in enumerate(sides)]
    bot = make_bot(tmp_path / f"{name}.sqlite3", seed)
    await fake.start(bot)
    await fake.slash(
        members[0], "campaign new", channel_id=fake.channel_id, system="dif", name=name
    )
    (record,) = await bot.service.storage.list_campaigns()
    assert record.thread_id is not None
    for member, side in zip(members, sides, strict=True):
        await fake.slash(member, "campaign join", channel_id=record.thread_id, side=side)
    await fake.slash(members[0], "campaign start", channel_id=record.thread_id)
    driver = CampaignDriver(fake, bot, record.id, {m.id: m for m in members}, seed)
    while await driver.step() != "done":
        pass
    return bot, record.id, driver


@pytest.mark.slow
async def test_a_land_campaign_flies_every_mission_through_its_game(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Burma, two players: each Mission's card drawn and told, both secret Options
    chosen in the private menus and revealed at the start, the mission games flown
    (bombers in formation included) and their VP on the sheet, to the victory table."""
    bot, campaign_id, driver = await fly_campaign(
        fake, tmp_path, "burma", ("japanese", "allied"), 1
    )
    campaign = await bot.campaigns.load(campaign_id)
    assert campaign.record.status is CampaignStatus.FINISHED
    state = campaign.state
    system = campaign_system("dif")
    assert system.is_over(state) and len(state.scores) == 8
    assert driver.choices == 17, "one secret Option a side a Mission, and one Veteran Pilot pick"
    games = await bot.service.storage.games_of_campaign(campaign_id)
    finished = [g for g in games if g.status is GameStatus.FINISHED]
    assert len(finished) == 8
    setups = [g.options["setup"]["mission"] for g in finished]
    assert any(m.get("formations") for m in setups), "this seed flies bombers in formation"
    sheet = system.sheet(state, None)
    assert [row.vp for row in sheet.missions] == [s.vp for s in state.scores]
    thread = campaign.record.thread_id
    said = "\n".join(m.get("content") or "" for m in fake.sent_to(thread))
    assert "The campaign is over." in said
    token = await fake.slash(
        driver.users[next(iter(driver.users))], "campaign verify", channel_id=thread
    )
    assert fake.original(token)["content"].startswith("✅ Verified.")
    assert not fake.problems()


async def test_a_carrier_campaign_against_the_computer(fake: FakeDiscord, tmp_path: Path) -> None:
    """Midway, one player for the Allies: Fleet Tactics and Flight Ops, then an Option,
    chosen in secret each turn; the strikes flown as games in the book's order; the
    damage records on the sheet, to the campaign's end."""
    bot, campaign_id, driver = await fly_campaign(fake, tmp_path, "midway", ("allied",), 1)
    campaign = await bot.campaigns.load(campaign_id)
    assert campaign.record.status is CampaignStatus.FINISHED
    system = campaign_system("dif")
    sheet = system.sheet(campaign.state, None)
    assert sheet.result is not None
    titles = [str(table.title) for table in sheet.tables]
    assert any("Damage" in t or "damage" in t for t in titles), titles
    games = await bot.service.storage.games_of_campaign(campaign_id)
    assert [g for g in games if g.status is GameStatus.FINISHED]
    assert not [g for g in games if g.status in (GameStatus.LOBBY, GameStatus.ACTIVE)]
    assert driver.choices >= 2
    thread = campaign.record.thread_id
    said = "\n".join(m.get("content") or "" for m in fake.sent_to(thread))
    assert ") flown. " in said and "flown: ." not in said, "a strike scores on the records"
    assert not fake.problems()
