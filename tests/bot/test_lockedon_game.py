"""Locked-On through the real cogs on the offline Discord: the same commands as a
Down in Flames dogfight, a whole 2v2 team game played by four users clicking the
bot's menus and DMs, and the checks every game gets (hidden information, the picture,
the log, verification).

The players choose their moves with the engine's random player (steered towards
attacks so that the game sees missiles and guns), and then make them through the
UI: ``UiPlayer.act`` clicks the button or walks the menu tree to the leaf holding
that action, and types it with ``/play`` only if no component offers it.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.clock import FakeClock
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, components_of, text_of, wait_for_new_game
from cogs.app import TallyHoBot
from engine.core.contract import Timing
from engine.lockedon.ai import RandomPlayer
from engine.lockedon.system import system
from strings import t
from tests.bot.clocked import START, advance, log_of

SEED = 20261130
PRIVATE = re.compile(
    r"Hand \(\d+, limit|Your Missile's cards|Your secret starting altitude|You draw|"
    r"Aircraft Expertise cards:"
)
SEAT_HEADER = re.compile(r"\*\*[^*\n]+ \(([AB]\d+)\)\*\*")


async def play_out(
    fake: FakeDiscord,
    bot: TallyHoBot,
    game_id: int,
    thread: int,
    seats: dict[str, FakeUser],
    *,
    from_hand: frozenset[str] = frozenset(),
) -> dict[str, UiPlayer]:
    """Every pending decision made through the UI until the game is over; the users
    named in ``from_hand`` take their side's decisions through **My hand**."""
    lo = system()
    pilots = {
        u.name: UiPlayer(fake, u, game_id, thread, side_menus=u.name not in from_hand)
        for u in set(seats.values())
    }
    brains = {s: RandomPlayer(i + 5, steer=True) for i, s in enumerate(sorted(seats))}
    for _ in range(900):
        state = (await bot.service.load(game_id)).state
        if lo.is_over(state):
            break
        d = lo.pending(state)[0]
        action = brains[d.seat].choose(lo.engine, state, d.seat)
        pilot = pilots[seats[d.seat].name]
        token = await pilot.act(str(action), via_dm=d.timing is Timing.RESPONSE, seat=d.seat)
        said = [m.get("content") for m in pilot.answers(token)]
        assert (await bot.service.load(game_id)).state != state, (d, str(action), said)
    assert lo.is_over((await bot.service.load(game_id)).state)
    return pilots


@pytest.mark.slow
async def test_a_lockedon_team_game_through_the_ui(fake: FakeDiscord, tmp_path: Path) -> None:
    users = [fake.add_member(n) for n in ("alice", "bob", "carol", "dave")]
    alice, bob, carol, dave = users
    bot = TallyHoBot(database=str(tmp_path / "g.sqlite3"), seed_source=lambda: SEED)
    await fake.start(bot)
    token = await fake.slash(
        alice, "dogfight aircraft", ruleset="lockedon", battle_year=1962, vp_limit=40
    )
    catalogue = fake.original(token)["content"]
    assert "MiG-15bis" in catalogue and "F-15" not in catalogue, "in service by 1962, within 40 VP"

    await fake.slash(
        alice,
        "dogfight new",
        channel_id=fake.channel_id,
        format="2v2",
        ruleset="lockedon",
        battle_year=1985,
        vp_limit=250,
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(alice, "dogfight teams", channel_id=thread, apply=True)
    await fake.slash(alice, "dogfight teamwork", channel_id=thread, apply=True)
    refused = await fake.slash(
        alice, "dogfight join", channel_id=thread, side="A", aircraft="f-15a", skills="top gun"
    )
    assert "top gun" in fake.original(refused)["content"].lower(), "an unknown skill is named"
    for user, side, aircraft, extra in (
        (alice, "A", "f-15a", {"skills": "eagle-eyes, Skilled", "ratings": "speed+1"}),
        (bob, "A", "f-16a", {"missiles": "none"}),
        (carol, "B", "mig-29", {}),
        (dave, "B", "mig-23mf", {"skills": "agile, timely"}),
    ):
        await fake.slash(
            user, "dogfight join", channel_id=thread, side=side, aircraft=aircraft, **extra
        )
    lobby = fake.sent_to(thread)[0]["content"]
    assert "F-15A" in lobby and "MiG-23MF" in lobby and "VP" in lobby
    await fake.slash(alice, "dogfight start", channel_id=thread)

    seats = {"A1": alice, "A2": bob, "B1": carol, "B2": dave}
    # Team B names its next aircraft through My hand, team A in the thread's menu.
    pilots = await play_out(
        fake, bot, game.id, thread, seats, from_hand=frozenset({"carol", "dave"})
    )
    stale = [m for m in fake.messages.values() if "out of date" in (m.get("content") or "")]
    assert not stale, "a response still owed after the seat's own move is asked afresh"
    typed = sum(p.typed for p in pilots.values())
    assert typed <= 2, f"{typed} moves had to be typed: the menus should offer them"
    assert pilots["alice"].order_menus + pilots["bob"].order_menus > 0, "team A chose in the thread"
    assert pilots["carol"].order_menus + pilots["dave"].order_menus == 0
    # Team B's menus in the thread were closed once it chose through My hand: no
    # "which aircraft flies next" menu is left live to go out of date.
    decided = [m for m in fake.sent_to(thread) if t("hand.side_decided", "en") in m["content"]]
    assert decided, "team B's menus were closed"
    for m in fake.sent_to(thread):
        assert not any(str(c.get("custom_id", "")).startswith("th:o:") for c in components_of(m))

    # Everything public is free of hands, mini-hands and secret picks; each private
    # message names only its reader's aircraft.
    for m in fake.public_messages():
        assert not PRIVATE.search(text_of(m)), f"hidden information in public: {m['content']!r}"
    holders = {alice: {"A1"}, bob: {"A2"}, carol: {"B1"}, dave: {"B2"}}
    checked = 0
    for user, mine in holders.items():
        for m in fake.ephemeral_for(user) + fake.dms(user):
            text = text_of(m)
            if PRIVATE.search(text):
                assert set(SEAT_HEADER.findall(text)) <= mine, (user.name, text[:200])
                checked += 1
    assert checked > 20

    pictures = [m for m in fake.sent_to(thread) if m.get("attachments")]
    assert len(pictures) > 5, "a picture of the sky after the turns"
    skies = [m["attachments"][0] for m in pictures if m["attachments"][0]["filename"] == "sky.png"]
    for sky in skies:  # each says what it shows, naming every aircraft's player
        alt = sky["description"]
        assert all(f"{seat} " in alt and f"flown by {u.name}" in alt for seat, u in seats.items())
    record = (await bot.service.load(game.id)).record
    assert record.result is not None

    token = await fake.slash(alice, "game verify", channel_id=thread)
    assert "✅" in fake.original(token)["content"]
    token = await fake.slash(carol, "game log", channel_id=thread)
    assert fake.original(token).get("attachments"), "the public log as a file"
    token = await fake.slash(bob, "game replay", channel_id=thread)
    ((name, gif),) = fake.files(fake.original(token))
    assert name.endswith("-replay.gif") and gif.startswith(b"GIF8")
    assert Image.open(io.BytesIO(gif)).n_frames > 5, "one picture of the range chart a turn"
    token = await fake.slash(dave, "game status", channel_id=thread)
    assert fake.files(fake.original(token)), "the final picture"


async def test_a_lockedon_duel_in_french_through_the_ui(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_member("alice", locale="fr"), fake.add_member("bob")
    bot = TallyHoBot(database=str(tmp_path / "d.sqlite3"), seed_source=lambda: 7)
    await fake.start(bot)
    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, format="1v1", ruleset="lockedon"
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(
        alice, "dogfight join", channel_id=thread, side="A", aircraft="sea-harrier-frs1"
    )
    await fake.slash(bob, "dogfight join", channel_id=thread, side="B", aircraft="dagger-a")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    pilots = await play_out(fake, bot, game.id, thread, {"A1": alice, "B1": bob})
    assert sum(p.typed for p in pilots.values()) <= 1
    mine = [text_of(m) for m in fake.ephemeral_for(alice)]
    assert any("Main (" in text for text in mine), "alice's own hand, in French"
    token = await fake.slash(alice, "game status", channel_id=thread)
    alt = fake.original(token)["attachments"][0]["description"]
    assert "A1 Sea Harrier" in alt and "piloté par alice" in alt, "the picture in French words"
    record = (await bot.service.load(game.id)).record
    assert record.result is not None


async def test_lockedon_deadlines_take_the_passive_defaults(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The generic timer drives a Locked-On game: unpicked secret altitudes become
    Medium, and a turn left alone ends with nothing spent (the system's defaults)."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = TallyHoBot(database=str(tmp_path / "t.sqlite3"), seed_source=lambda: SEED, clock=clock)
    await fake.start(bot)
    await fake.slash(
        alice,
        "dogfight new",
        channel_id=fake.channel_id,
        ruleset="lockedon",
        turn_hours=12.0,
        response_hours=2.0,
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(alice, "dogfight join", channel_id=thread, side="A", aircraft="f-15a")
    await fake.slash(bob, "dogfight join", channel_id=thread, side="B", aircraft="mig-29")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    await advance(fake, bot, clock, 11.9)
    assert await log_of(bot, game.id) == [], "not yet"
    await advance(fake, bot, clock, 0.2)
    assert await log_of(bot, game.id) == ["A1 alt M", "B1 alt M"]
    for _ in range(8):
        await advance(fake, bot, clock, 12.1)
    log = await log_of(bot, game.id)
    print(log)
    assert len(log) > 4 and all(row.split()[0] in ("A1", "B1") for row in log)
    state = (await bot.service.load(game.id)).state
    assert (system().outcome(state).fates and not system().is_over(state)) or len(log) > 8
