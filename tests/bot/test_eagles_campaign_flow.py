"""A two-day Eagles in the Sky campaign through the real cogs on the offline Discord.

Two members command the squadrons of a Quiet Sector campaign cut to two days: before
each mission each presses **Choose** and assigns its pilots in a private menu; an
Engagement chit opens a game thread played to its end through the game's UI, an
Encounter is settled by the campaign and reported in its thread; each Evening posts
the day's summary. The bot is restarted in the middle of a mission's game and between
two missions. Both rosters, the log, the secrecy of the assignments and
``/campaign status`` are checked on the way.
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

SEED = 20261205
CAMPAIGN = "quiet-sector"


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


def public_text(fake: FakeDiscord) -> str:
    return "\n".join(text_of(m) for m in fake.public_messages())


@pytest.mark.slow
async def test_a_two_day_eagles_campaign_with_two_restarts(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    db = tmp_path / "eagles-campaign.sqlite3"
    bot = make_bot(db)
    await fake.start(bot)
    await fake.slash(
        alice,
        "campaign new",
        channel_id=fake.channel_id,
        system="eagles",
        name=CAMPAIGN,
        options="days=2 month=1917-10",
    )
    (record,) = await bot.service.storage.list_campaigns()
    thread = record.thread_id
    assert thread is not None
    await fake.slash(alice, "campaign join", channel_id=thread, side="allied")
    await fake.slash(bob, "campaign join", channel_id=thread, side="german")
    await fake.slash(alice, "campaign start", channel_id=thread)
    await fake.slash(carol, "campaign follow", channel_id=thread)

    driver = CampaignDriver(fake, bot, record.id, {u.id: u for u in (alice, bob)}, SEED)
    system = campaign_system("eagles")

    # The first assignment: the Allies assign in secret, the Germans have not yet.
    assert await driver.step() == "choose"
    campaign = await bot.campaigns.load(record.id)
    (secret,) = system.sheet(campaign.state, "allied").secrets  # 'A Harris ★, D ...'
    assert secret not in public_text(fake), "an assignment stays out of public messages"
    token = await fake.slash(bob, "campaign status", channel_id=thread)
    assert secret not in fake.original(token)["content"], "the other side does not see it"
    token = await fake.slash(alice, "campaign status", channel_id=thread)
    status = fake.original(token)["content"]
    assert secret in status, "the side sees its own assignment"
    assert "Allied squadron: pilots" in status and "German squadron: pilots" in status, (
        "both rosters, as text"
    )
    log_token = await fake.slash(bob, "campaign log", channel_id=thread)
    ((_, log_bytes),) = fake.files(fake.original(log_token))
    assert "(secret)" in log_bytes.decode()

    restarted_mid_mission = restarted_between = False
    first_game_moves: int | None = None
    for _ in range(40000):
        what = await driver.step()
        if what == "done":
            break
        if driver.games and first_game_moves is None:
            first_game_moves = driver.moves
        if (
            not restarted_mid_mission
            and first_game_moves is not None
            and driver.moves >= first_game_moves + 8
        ):
            games = await driver.bot.service.storage.games_of_campaign(record.id)
            assert any(g.status is GameStatus.ACTIVE for g in games), "in the middle of a game"
            await driver.bot.close()
            driver.bot = make_bot(db)
            await fake.start(driver.bot)
            restarted_mid_mission = True
        campaign = await driver.bot.campaigns.load(record.id)
        state = campaign.state
        if not restarted_between and state.day == 2 and system.pending(state):
            await driver.bot.close()
            driver.bot = make_bot(db)
            await fake.start(driver.bot)
            restarted_between = True
    assert restarted_mid_mission and restarted_between
    bot = driver.bot
    campaign = await bot.campaigns.load(record.id)
    assert campaign.record.status is CampaignStatus.FINISHED
    state = campaign.state
    assert state.day == 2 and system.is_over(state)
    sorties = state.sorties
    engagements = [s for s in sorties if s.chit == "engagement" and s.flights]
    encounters = [s for s in sorties if s.chit == "encounter"]
    assert engagements and encounters, "this seed flies both kinds"
    games = await bot.service.storage.games_of_campaign(record.id)
    finished = [g for g in games if g.status is GameStatus.FINISHED]
    assert len(finished) == len(driver.games) >= 1
    assert not [g for g in games if g.status in (GameStatus.LOBBY, GameStatus.ACTIVE)], (
        "every mission settled without a game closed its row"
    )

    # The thread told each Encounter, each Evening and each game's thread.
    said = "\n".join(m.get("content") or "" for m in fake.sent_to(thread))
    assert "Encounter: card" in said
    assert "Evening of day 1" in said and "Evening of day 2" in said
    for g in finished:
        assert f"<#{g.thread_id}>" in said
    assert "The campaign is over." in said
    assert any("Encounter" in (m.get("content") or "") for m in fake.dms(carol))

    # Both rosters add up: every pilot who flew is on them, the losses are marked.
    for side in ("allied", "german"):
        sq = state.squadrons[side]
        flew = {pid for s in sorties for pid, _ in s.flights.get(side, [])}
        assert flew <= {p.id for p in sq.pilots}
        for p in sq.pilots:  # his missions, but the one he was lost on
            flights = sum(1 for s in sorties for pid, _ in s.flights.get(side, []) if pid == p.id)
            lost_flying = p.fate in ("killed_in_action", "missing")
            assert p.flown == flights - (1 if lost_flying else 0), (side, p)
    token = await fake.slash(alice, "campaign status", channel_id=thread)
    status = fake.original(token)
    ((_, png),) = fake.files(status)
    assert Image.open(io.BytesIO(png)).width == 960
    log_token = await fake.slash(bob, "campaign log", channel_id=thread)
    ((_, log_bytes),) = fake.files(fake.original(log_token))
    text = log_bytes.decode()
    assert "(secret)" not in text, "every assignment revealed once its mission resolved"
    assert sum("mission flown" in line for line in text.splitlines()) == len(finished)

    token = await fake.slash(carol, "campaign verify", channel_id=thread)
    checked = fake.original(token)["content"]
    assert checked.startswith("✅ Verified."), checked
    assert not fake.problems()


@pytest.mark.slow
async def test_one_player_against_a_computer_squadron(fake: FakeDiscord, tmp_path: Path) -> None:
    """A side nobody joins is commanded by the computer: its assignments are made at
    once, its aircraft flown by computer players; one person plays a day alone."""
    alice = fake.add_member("alice")
    bot = make_bot(tmp_path / "solo.sqlite3")
    await fake.start(bot)
    await fake.slash(
        alice,
        "campaign new",
        channel_id=fake.channel_id,
        system="eagles",
        name="cambrai",
        options="days=1 allied=sopwith-camel",
    )
    (record,) = await bot.service.storage.list_campaigns()
    assert record.thread_id is not None
    await fake.slash(alice, "campaign join", channel_id=record.thread_id, side="allied")
    await fake.slash(alice, "campaign start", channel_id=record.thread_id)
    driver = CampaignDriver(fake, bot, record.id, {alice.id: alice}, SEED)
    while await driver.step() != "done":
        pass
    campaign = await bot.campaigns.load(record.id)
    assert campaign.record.status is CampaignStatus.FINISHED
    state = campaign.state
    assert state.squadrons["allied"].aircraft == "sopwith-camel"
    assert all(s.assigned.get("german") for s in state.sorties if s.status == "done"), (
        "the computer assigned the German flights"
    )
    assert driver.choices == sum(1 for s in state.sorties if "allied" in s.assigned)
    assert not fake.problems()
