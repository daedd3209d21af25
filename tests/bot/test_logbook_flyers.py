"""Who flew a campaign pilot, on the offline Discord.

A Zero! land campaign (Burma) with two members on the Japanese side and one on the
Allied side, its missions flown as games (seated round robin by the bot, each ended by
the Allied member's resignation) until a mission where each Japanese member's element
carries a Skilled Pilot (§19.24): ``/profile`` lists only the pilots a member flew,
with the missions he flew them; ``/campaign logbook`` names who flew each pilot, by the
name the bot shows (never a mention), a seat handed to a computer player before the
game's end (its holder at the end flew it) as the computer. An Eagles in the Sky
campaign whose seat is handed from one member to another mid-game: its last holder
flew that mission. And the reads themselves (an aborted attempt flew nothing) and
``/profile``'s picture."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bot.campaigns import LoadedCampaign
from bot.records import PilotRecord, mission_games, mission_seats, pilots_flown_by
from bot.storage import CampaignRecord, GameRecord, GameStatus, SQLiteStorage
from bot.storage.models import CampaignEntryKind
from bot.testing import FakeDiscord
from bot.testing.campaigns import CampaignDriver
from cogs.app import TallyHoBot
from cogs.community import profile_answer
from engine.core.campaign import LogbookEntry, PilotLog
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


async def test_a_mission_flown_again_counts_only_the_game_the_log_absorbed(
    tmp_path: Path,
) -> None:
    """Mission 1's first game was aborted (its seats flew nothing), its second flown;
    mission 2 was settled without a game: the flyers are the absorbed games' seats as
    they ended, and a player's pilots only those of his seats."""
    store = await SQLiteStorage.open(tmp_path / "missions.sqlite3")
    try:
        record = await store.create_campaign(
            guild_id=1, channel_id=2, host_id=10, system="dif", campaign="burma", setup={}, seed=1
        )
        games = []
        for mission in (1, 1, 3):
            game = await store.create_game(
                guild_id=1,
                channel_id=2,
                host_id=10,
                system="dif",
                ruleset="zero",
                seed=mission,
                campaign_id=record.id,
                mission=mission,
            )
            await store.put_seat(game.id, "X1", "axis", 10, "alice")
            await store.put_seat(game.id, "X2", "axis", 11 if game.id != 1 else 10, "dave")
            await store.put_seat(game.id, "A1", "allied", None, "computer")
            games.append(game.id)
        aborted, flown, third = games
        for kind, game_id in (
            (CampaignEntryKind.ABORTED, aborted),
            (CampaignEntryKind.OUTCOME, flown),
            (CampaignEntryKind.DECISION, None),
            (CampaignEntryKind.OUTCOME, third),
        ):
            entry = "{}" if kind is CampaignEntryKind.OUTCOME else "-"
            await store.append_campaign_entry(record.id, kind=kind, entry=entry, game_id=game_id)
        loaded = await store.get_campaign(record.id)
        assert loaded is not None
        campaign = LoadedCampaign(loaded, [], await store.load_campaign_log(record.id), None)
        assert await mission_games(store, campaign) == {1: flown, 3: third}
        seats = await mission_seats(store, campaign)
        assert sorted(seats) == [(1, "A1"), (1, "X1"), (1, "X2"), (3, "A1"), (3, "X1"), (3, "X2")]
        assert seats[(1, "X2")].user_id == 11 and seats[(3, "A1")].user_id is None
    finally:
        await store.close()

    def flew(mission: int, seat: str | None) -> LogbookEntry:
        return LogbookEntry(mission, "t", "ki-43", seat=seat)

    pilots = (
        PilotLog("p1", "Hinoki", "japanese", (flew(1, "X1"), flew(2, None), flew(3, "X2"))),
        PilotLog("p2", "Anabuki", "japanese", (flew(3, "X1"),)),
        PilotLog("p3", "Vigors", "allied", (flew(1, "A1"),)),
    )
    found = {1: flown, 3: third}
    dave = pilots_flown_by(pilots, found, {(flown, "X2"), (third, "X2"), (aborted, "X1")})
    assert dave == [replace(pilots[0], missions=(flew(3, "X2"),))]
    alice = pilots_flown_by(pilots, found, {(flown, "X1"), (third, "X1"), (aborted, "X2")})
    assert [(p.name, [m.mission for m in p.missions]) for p in alice] == [
        ("Hinoki", [1]),
        ("Anabuki", [3]),
    ]
    assert pilots_flown_by(pilots, found, {(aborted, "X1"), (aborted, "X2")}) == []


def test_the_profile_draws_the_pilots_flown() -> None:
    """``/profile``'s picture gets a table of the campaign pilots flown (name, ace's
    star, campaign, missions, kills) only when there are some."""
    campaign = CampaignRecord.model_validate(
        {
            "id": 4,
            "guild_id": 1,
            "channel_id": 2,
            "thread_id": None,
            "host_id": 10,
            "system": "dif",
            "campaign": "burma",
            "setup": {},
            "seed": 1,
            "status": "active",
            "version": 1,
            "last_seq": 0,
            "created_at": "2026-12-02T00:00:00Z",
            "updated_at": "2026-12-02T00:00:00Z",
            "finished_at": None,
            "result": None,
        }
    )
    record = PilotRecord(10, campaigns=[campaign])
    missions = (LogbookEntry(1, "t", "ki-43", seat="X1", kills=2), LogbookEntry(3, "t", "ki-43"))
    pilot = PilotLog("p1", "Hinoki", "japanese", missions, ace=True)
    text, card = profile_answer(record, 10, "alice", "en", {4: [pilot]})
    assert "· **Hinoki ★**: missions #1, #3 · kills 2 · active" in text
    assert card.tables[-1].title == t("logbook.profile_table", "en")
    assert card.tables[-1].rows == (("Hinoki ★", "#4 Burma", "#1, #3", "2"),)
    _, bare = profile_answer(record, 10, "alice", "en", {})
    assert len(bare.tables) == 2


async def test_a_seat_handed_over_mid_game_was_flown_by_its_last_holder(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Eagles in the Sky, two members on the Allied squadron (its whole flight is one
    seat, §5.43), who take turns flying it, one mission each: the host hands the second
    game's seat to the other member mid-game (``/game sub``, a ``seat A1`` marker in its
    log); each mission's pilots are its last holder's, in each one's ``/profile`` and in
    the logbook."""
    alice, dave, bob, carol = (fake.add_member(n) for n in ("alice", "dave", "bob", "carol"))
    bot = TallyHoBot(database=str(tmp_path / "handover.sqlite3"), seed_source=lambda: 2)
    await fake.start(bot)
    storage = bot.service.storage
    await fake.slash(
        carol,
        "campaign new",
        channel_id=fake.channel_id,
        system="eagles",
        name="quiet-sector",
        options="days=2 month=1917-10",
    )
    (record,) = await storage.list_campaigns()
    thread = record.thread_id
    assert thread is not None
    for member, side in ((alice, "allied"), (dave, "allied"), (bob, "german")):
        await fake.slash(member, "campaign join", channel_id=thread, side=side)
    await fake.slash(carol, "campaign start", channel_id=thread)
    driver = CampaignDriver(fake, bot, record.id, {u.id: u for u in (alice, dave, bob)}, 2)
    holder: dict[int, str] = {}  # who held the seat at each mission game's end
    seated_first: list[str] = []
    for n in (1, 2):
        game = await _game_under_way(driver, record.id)
        assert game.thread_id is not None and game.mission is not None
        # The members take turns: the round robin starts one further each mission.
        seated, other = (alice, dave) if game.mission % 2 else (dave, alice)
        assert [s.user_id for s in await storage.get_seats(game.id) if s.seat == "A1"] == [
            seated.id
        ]
        holder[game.mission] = seated.name
        seated_first.append(seated.name)
        if n == 2:
            await fake.slash(carol, "game sub", channel_id=game.thread_id, seat="A1", member=other)
            handed = game.mission
            holder[handed] = other.name
        await fake.slash(bob, "game resign", channel_id=game.thread_id, confirm=True)
    assert seated_first == ["alice", "dave"], "missions 1 and 2: each member flies one"
    log = [a.action for a in await storage.load_actions(game.id)]
    assert any(a.startswith("seat A1 ") for a in log), "the handover's marker"

    campaign = await bot.campaigns.load(record.id)
    allied = [p for p in campaign.system.logbook(campaign.state) if p.side == "allied"]
    seats = await mission_seats(storage, campaign)
    assert seats[(handed, "A1")].display_name == holder[handed]
    flown = [(p, m) for p in allied for m in p.missions if m.seat is not None]
    assert {m.mission for _, m in flown} == {m for m, _ in seats} and len(seats) == 4
    assert any(m.mission == handed for _, m in flown) and any(m.mission != handed for _, m in flown)

    def lines(mine: Callable[[int], bool]) -> list[str]:
        out = []
        for p in allied:
            missions = [m for m in p.missions if m.seat is not None and mine(m.mission)]
            if missions:
                numbers = ", ".join(
                    t("logbook.mission_number", None, n=m.mission) for m in missions
                )
                out.append(
                    t(
                        "logbook.profile_pilot",
                        None,
                        name=p.name + (t("logbook.ace", None) if p.ace else ""),
                        missions=numbers,
                        kills=sum(m.kills for m in missions),
                        fate=t(f"logbook.fate.{p.fate.value}", None),
                    )
                )
        return out

    for member in (alice, dave):
        token = await fake.slash(carol, "profile", channel_id=thread, member=member)
        text = fake.original(token)["content"]
        listed = [line for line in text.splitlines() if line.startswith("· **")]
        assert listed == lines(lambda m, name=member.name: holder.get(m) == name), text

    pilot = next(p for p, m in flown if m.mission == handed)
    token = await fake.slash(carol, "campaign logbook", channel_id=thread, pilot=pilot.id)
    said = fake.original(token)["content"].splitlines()
    for m in pilot.missions:
        (line,) = [line for line in said if line.startswith(f"#{m.mission} ")]
        who = holder.get(m.mission, "")
        assert line.endswith(t("logbook.flown_by", None, names=who)) == (m.seat is not None)
