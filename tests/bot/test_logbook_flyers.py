"""Who flew a campaign pilot, on the offline Discord: a Zero! land campaign (Burma)
with two members on the Japanese side and one on the Allied side, its missions flown
as games (seated round robin by the bot, each ended by the Allied member's
resignation) until a mission where each Japanese member's element carries a Skilled
Pilot (§19.24). ``/profile`` lists only the pilots a member flew, with the missions he
flew them; ``/campaign logbook`` names who flew each pilot, by the name the bot shows
(never a mention), a seat handed to a computer player before the game's end (its
holder at the end flew it) as the computer."""

from __future__ import annotations

from pathlib import Path

from bot.records import mission_games, mission_seats
from bot.storage import GameRecord, GameStatus
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from cogs.app import TallyHoBot
from strings import t

SEED = 3
"""A seed whose third mission draws a Skilled Pilot onto each Japanese member's
element (X1 alice's, X2 dave's) and one onto the Allied A1."""


async def _game_under_way(driver: CampaignDriver, campaign_id: int) -> GameRecord:
    """The campaign's decisions taken in the private menus until a mission game runs."""
    storage = driver.bot.service.storage
    for _ in range(20):
        games = await storage.games_of_campaign(campaign_id)
        running = [g for g in games if g.status is GameStatus.ACTIVE]
        if running:
            return running[0]
        assert await driver.step() == "choose"
    raise AssertionError("no mission game started")


async def test_each_member_sees_the_pilots_he_flew_and_the_logbook_names_them(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, dave = fake.add_member("alice"), fake.add_member("dave")
    bob, carol = fake.add_member("bob"), fake.add_member("carol")
    admin = fake.add_member("admin", admin=True)
    bot = TallyHoBot(database=str(tmp_path / "flyers.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    storage = bot.service.storage
    await fake.slash(alice, "campaign new", channel_id=fake.channel_id, system="dif", name="burma")
    (record,) = await storage.list_campaigns()
    thread = record.thread_id
    assert thread is not None
    for member, side in ((alice, "japanese"), (dave, "japanese"), (bob, "allied")):
        await fake.slash(member, "campaign join", channel_id=thread, side=side)
    await fake.slash(alice, "campaign start", channel_id=thread)
    driver = CampaignDriver(fake, bot, record.id, {u.id: u for u in (alice, dave, bob)}, SEED)
    for mission in (1, 2, 3):
        game = await _game_under_way(driver, record.id)
        assert game.mission == mission and game.thread_id is not None
        holders = {s.seat: s.display_name for s in await storage.get_seats(game.id)}
        if mission == 3:
            assert (holders["X1"], holders["X2"], holders["A1"]) == ("alice", "dave", "bob")
            # The host hands bob's A1 to a computer player: it flies it to the end.
            await fake.slash(admin, "config computer", allowed=True)
            await fake.slash(alice, "game sub", channel_id=game.thread_id, seat="A1", computer=True)
        await fake.slash(bob, "game resign", channel_id=game.thread_id, confirm=True)
        ended = await storage.get_game(game.id)
        assert ended is not None and ended.status is GameStatus.FINISHED

    campaign = await bot.campaigns.load(record.id)
    book = {p.name: p for p in campaign.system.logbook(campaign.state)}
    assert set(book) == {"Shinohara", "Anabuki", "Vigors"}
    assert [(m.mission, m.seat) for m in book["Shinohara"].missions] == [(3, "X1")]
    assert [(m.mission, m.seat) for m in book["Anabuki"].missions] == [(3, "X2")]
    assert [(m.mission, m.seat) for m in book["Vigors"].missions] == [(3, "A1")]
    seats = await mission_seats(storage, campaign)
    assert seats[(3, "A1")].user_id is None, "held by the computer when the game ended"
    assert set(await mission_games(storage, campaign)) == {1, 2, 3}

    async def profile(member: object) -> str:
        token = await fake.slash(carol, "profile", channel_id=thread, member=member)
        return str(fake.original(token)["content"])

    mine, his, bobs = await profile(alice), await profile(dave), await profile(bob)
    title = campaign.sheet(None).title
    for text, name, other in ((mine, "Shinohara", "Anabuki"), (his, "Anabuki", "Shinohara")):
        pilot = book[name]
        aces = t("logbook.profile_aces", None, names=name) if pilot.ace else ""
        head = t(
            "logbook.profile_line", None, id=record.id, title=title, pilots=1, kills=0, aces=aces
        )
        assert head in text
        line = t(
            "logbook.profile_pilot",
            None,
            name=name + (t("logbook.ace", None) if pilot.ace else ""),
            missions=t("logbook.mission_number", None, n=3),
            kills=0,
            fate=t(f"logbook.fate.{pilot.fate.value}", None),
        )
        assert line in text, text
        assert other not in text and "Vigors" not in text, "only the pilots he flew"
    assert not any(name in bobs for name in book), "bob's seat was the computer's at the end"

    token = await fake.slash(carol, "campaign logbook", channel_id=thread)
    answer = fake.original(token)
    text = answer["content"]
    flown = {
        name: t("logbook.flown_by", None, names=who)
        for name, who in (
            ("Shinohara", "alice"),
            ("Anabuki", "dave"),
            ("Vigors", t("seats.a_computer", None)),
        )
    }
    for name, by in flown.items():
        (line,) = [line for line in text.splitlines() if f"**{name}**" in line]
        assert line.endswith(by), line
    assert "<@" not in text, "names, never a mention"
    ((_, png),) = fake.files(answer)
    assert png.startswith(b"\x89PNG")

    pilot = book["Anabuki"]
    token = await fake.slash(carol, "campaign logbook", channel_id=thread, pilot=pilot.id)
    mine = fake.original(token)["content"]
    (line,) = [line for line in mine.splitlines() if line.startswith("#3 ")]
    assert line.endswith(flown["Anabuki"]) and "<@" not in mine
