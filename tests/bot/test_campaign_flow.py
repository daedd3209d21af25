"""A whole Locked-On campaign through the real cogs on the offline Discord.

Two members (Israel and Egypt) open, join and start the 1973 Yom Kippur campaign;
before each mission each presses **Choose** in the campaign's thread and picks its
secret Options in a private menu; each mission is a game in its own thread, played
to its end through the game's UI with the computer player's choices. The bot is
restarted twice: in the middle of a mission and between two missions. The sheet,
the log, ``/campaign status`` and the secrecy of the picks are checked on the way.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.storage.models import CampaignStatus
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from bot.testing.driver import text_of
from cogs.app import TallyHoBot
from engine.core.registry import campaign_system

SEED = 20261201
CAMPAIGN = "yom-kippur-1973"


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


def public_text(fake: FakeDiscord) -> str:
    """Everything posted in public (threads and channels), components included."""
    return "\n".join(text_of(m) for m in fake.public_messages())


async def test_a_whole_lockedon_campaign_with_two_restarts(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    db = tmp_path / "campaign.sqlite3"
    bot = make_bot(db)
    await fake.start(bot)
    token = await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="lockedon", name="vietnam"
    )
    assert "yom-kippur-1973" in fake.original(token)["content"], (
        "an unknown campaign names the known"
    )
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="lockedon", name=CAMPAIGN
    )
    (record,) = await bot.service.storage.list_campaigns()
    thread = record.thread_id
    assert thread is not None
    opening = fake.sent_to(thread)[0]
    assert "1973" in opening["content"] and fake.files(opening), "the sheet is posted at once"

    await fake.slash(alice, "campaign join", channel_id=thread, side="israel")
    await fake.slash(bob, "campaign join", channel_id=thread, side="egypt")
    refused = await fake.slash(bob, "campaign start", channel_id=thread)
    assert "host" in fake.original(refused)["content"].lower()
    await fake.slash(alice, "campaign start", channel_id=thread)
    await fake.slash(carol, "campaign follow", channel_id=thread)

    users = {u.id: u for u in (alice, bob)}
    driver = CampaignDriver(fake, bot, record.id, users, SEED)
    system = campaign_system("lockedon")

    # The first secret pick: Israel chooses, Egypt has not yet.
    assert await driver.step() == "choose"
    campaign = await bot.campaigns.load(record.id)
    israel_pick = campaign.state.picks["israel"]
    (secret,) = system.sheet(campaign.state, "israel").secrets  # 'Mirage IIICJ #1: Locked'
    assert secret not in public_text(fake), "a secret pick stays out of public messages"
    token = await fake.slash(bob, "campaign status", channel_id=thread)
    assert secret not in fake.original(token)["content"], "the other side does not see it"
    token = await fake.slash(alice, "campaign status", channel_id=thread)
    assert secret in fake.original(token)["content"], "the side sees its own secret pick"
    assert str(israel_pick) not in public_text(fake)
    log_token = await fake.slash(bob, "campaign log", channel_id=thread)
    ((_, log_bytes),) = fake.files(fake.original(log_token))
    assert "(secret)" in log_bytes.decode() and str(israel_pick) not in log_bytes.decode()

    restarted_mid_mission = restarted_between = False
    second_from: int | None = None
    for _ in range(20000):
        what = await driver.step()
        if what == "done":
            break
        campaign = await driver.bot.campaigns.load(record.id)
        flown = len(campaign.state.scores)
        if len(driver.games) == 2 and second_from is None:
            second_from = driver.moves  # mission #2's first move
        if not restarted_mid_mission and second_from and driver.moves >= second_from + 10:
            assert flown == 1, "in the middle of mission #2"
            await driver.bot.close()
            driver.bot = make_bot(db)
            await fake.start(driver.bot)
            restarted_mid_mission = True
        if not restarted_between and flown == 3 and not campaign.state.picks:
            await driver.bot.close()
            driver.bot = make_bot(db)
            await fake.start(driver.bot)
            restarted_between = True
    assert restarted_mid_mission and restarted_between
    bot = driver.bot
    campaign = await bot.campaigns.load(record.id)
    assert campaign.record.status is CampaignStatus.FINISHED
    assert len(driver.games) == 6, "six missions, one game each"
    games = await bot.service.storage.games_of_campaign(record.id)
    assert [g.mission for g in games] == [1, 2, 3, 4, 5, 6]
    assert all(g.status == "finished" for g in games)

    # The sheet adds up the games' results, mission by mission.
    sheet = campaign.sheet(None)
    nation_of = {"A": "israel", "B": "egypt"}
    for g, row in zip(games, sheet.missions, strict=True):
        assert g.result is not None
        assert {nation_of[s]: v for s, v in g.result["vp"].items()} == dict(row.vp), g.mission
    assert dict(sheet.totals) == {
        n: sum(r.vp[n] for r in sheet.missions) for n in ("israel", "egypt")
    }
    result = campaign.record.result
    assert result is not None and result["totals"] == dict(sheet.totals)

    # Every mission thread is linked from the campaign's; the end is announced.
    said = "\n".join(m.get("content") or "" for m in fake.sent_to(thread))
    for g in games:
        assert f"<#{g.thread_id}>" in said
    assert "The campaign is over." in said
    token = await fake.slash(alice, "campaign status", channel_id=thread)
    status = fake.original(token)
    ((_, png),) = fake.files(status)
    assert Image.open(io.BytesIO(png)).width == 960
    log_token = await fake.slash(bob, "campaign log", channel_id=thread)
    ((_, log_bytes),) = fake.files(fake.original(log_token))
    lines = log_bytes.decode().splitlines()
    assert sum("mission flown" in line for line in lines) == 6
    assert sum("decision" in line for line in lines) == 12
    assert "(secret)" not in log_bytes.decode(), "revealed once each mission started"
    assert any("The campaign is over." in (m.get("content") or "") for m in fake.dms(carol))
    assert not fake.problems()
