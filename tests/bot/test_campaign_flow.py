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
import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.campaign_verify import verify_campaign
from bot.errors import Refusal
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


@pytest.mark.slow
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
    token = await fake.slash(bob, "campaign verify", channel_id=thread)
    assert "secret until it ends" in fake.original(token)["content"]
    assert str(SEED) not in public_text(fake), "the seed stays secret while it runs"

    # Once it runs, nobody joins a side (its secrets are its members'); not from
    # another server either.
    token = await fake.slash(carol, "campaign join", channel_id=thread, side="israel")
    assert "has started" in fake.original(token)["content"]
    assert campaign.side_of(carol.id) is None
    try:  # its id, typed on another server
        await bot.campaigns.resolve(record.guild_id + 1, None, carol.id, record.id)
    except Refusal as refusal:
        assert f"no campaign #{record.id}" in str(refusal)
    else:
        raise AssertionError("a campaign of another server resolved")

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
    assert f"The campaign's seed was {SEED}" in said

    # Verification: from the revealed seed, the log, every mission's seed and result.
    token = await fake.slash(carol, "campaign verify", channel_id=thread)
    checked = fake.original(token)["content"]
    assert checked.startswith("✅ Verified.") and "6 ended mission games" in checked, checked
    tampered = replace(campaign, record=campaign.record.model_copy(update={"seed": SEED + 1}))
    assert not (await verify_campaign(bot.campaigns, tampered)).ok
    # A log rewritten behind the bot's back: a forged score, a result with no game.
    first = next(e for e in campaign.entries if e.kind == "outcome")
    forged = json.loads(first.entry)
    forged["vp"] = {"A": 999, "B": 0}
    for change in ({"entry": json.dumps(forged)}, {"game_id": None}):
        entries = [e.model_copy(update=change) if e is first else e for e in campaign.entries]
        verification = await verify_campaign(bot.campaigns, replace(campaign, entries=entries))
        assert not verification.ok, change
    assert not fake.problems()


async def test_bad_campaign_input_gets_a_specific_message_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    admin = fake.add_member("admin", admin=True)
    bot = make_bot(tmp_path / "c.sqlite3")
    await fake.start(bot)
    storage = bot.service.storage

    async def said(user: object, command: str, **options: object) -> str:
        token = await fake.slash(user, command, **options)
        return str(fake.original(token)["content"])

    new = {"channel_id": fake.channel_id, "system": "lockedon", "name": CAMPAIGN}
    assert "scale" in await said(alice, "campaign new", **new, options="scale=5")
    assert "name=value" in await said(alice, "campaign new", **new, options="big")
    assert "There is no campaign 'yom-kippur-1973'" in await said(
        alice, "campaign new", **{**new, "system": "dif"}
    ), "Down in Flames has its own campaigns (Zero!'s), not Locked-On's"
    assert "campaigns exist for dif, lockedon, eagles" in await said(
        alice, "campaign new", **{**new, "system": "chess"}
    )
    assert await storage.list_campaigns() == []

    # A server may keep each campaign in the channel it is opened in.
    await fake.slash(admin, "config campaigns", home="channel")
    await fake.slash(alice, "campaign new", **new)
    (record,) = await storage.list_campaigns()
    assert record.thread_id == fake.channel_id, "the channel is the campaign's home"
    assert "not over" in await said(bob, "campaign new", **new)
    here = {"channel_id": fake.channel_id}
    assert "join a side" in await said(bob, "campaign choose", **here)
    assert "no side" in await said(bob, "campaign join", **here, side="syria")
    assert "at least one player" in await said(alice, "campaign start", **here)
    await fake.slash(bob, "campaign join", **here, side="egypt")
    assert "nothing to choose" in await said(bob, "campaign choose", **here)
    assert "confirm:True" in await said(alice, "campaign abandon", **here)
    assert "host" in await said(bob, "campaign abandon", **here, confirm=True)
    after = await storage.get_campaign(record.id)
    assert after is not None and after.status == "recruiting" and after.last_seq == 0
    await fake.slash(alice, "campaign abandon", **here, confirm=True)
    assert (await storage.get_campaign(record.id)).status == "abandoned"  # type: ignore[union-attr]
    await fake.slash(alice, "campaign new", **new)  # the channel is free again
    assert len(await storage.list_campaigns()) == 2
    assert not fake.problems()


async def test_a_side_nobody_joins_is_flown_by_computer_players(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A solo campaign: alice flies Israel; Egypt's choices are made at once and its
    aircraft are computer seats that move on their own."""
    alice = fake.add_member("alice")
    bot = make_bot(tmp_path / "c.sqlite3")
    await fake.start(bot)
    await fake.slash(
        alice, "campaign new", channel_id=fake.channel_id, system="lockedon", name=CAMPAIGN
    )
    (record,) = await bot.service.storage.list_campaigns()
    assert record.thread_id is not None
    await fake.slash(alice, "campaign join", channel_id=record.thread_id)
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    said = "\n".join(m.get("content") or "" for m in fake.sent_to(record.thread_id))
    assert "Egypt: computer players." in said and "Egypt (computer) has made its choices." in said
    driver = CampaignDriver(fake, bot, record.id, {alice.id: alice}, SEED)
    while len((await bot.campaigns.load(record.id)).state.scores) < 1:
        assert await driver.step() in ("choose", "move")
    campaign = await bot.campaigns.load(record.id)
    egypt = [e for e in campaign.entries if e.side == "egypt"]
    assert len(egypt) == 2 and all(e.user_id is None for e in egypt), "mission #2's too"
    (first, second) = await bot.service.storage.games_of_campaign(record.id)
    seats = await bot.service.storage.get_seats(first.id)
    assert {s.seat for s in seats if s.user_id is None} == {"B1", "B2"}
    assert first.status == "finished" and second.status == "lobby"
    assert not fake.problems()
