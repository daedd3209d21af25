"""Zero! campaigns through the real cogs on the offline Discord.

Pearl Harbor (§26): one member opens the solitaire campaign, joins the Japanese side
alone and plays it to the end: each wave's Targets chosen in the private menu, the
American defences drawn and told in the thread, and the American fighters' attack on
an Element flown as a mission game against the computer.
"""

from __future__ import annotations

import io
from pathlib import Path

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
