"""Eagles in the Sky through the real cogs on the offline Discord: the same commands as
the other systems, a team engagement (two players sharing the Allied flight and its
hand against one) played by clicking the bot's menus and DMs, a solitaire scenario by
one player in French, and the checks every game gets (hidden information, the log,
verification).

The players choose their moves with the system's steered random player, then make them
through the UI: ``UiPlayer.act`` clicks the button or walks the menu tree (aircraft,
card, maneuver, target, options) to the leaf holding that action, and types it with
``/play`` only if no component offers it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.testing import FakeDiscord, FakeUser
from bot.testing.driver import UiPlayer, message_with, text_of, wait_for_new_game
from cogs.app import TallyHoBot
from engine.core.contract import Timing
from engine.eagles.ai import RandomPlayer
from engine.eagles.system import system

PRIVATE = re.compile(r"Hand \(\d+ cards|Main \(\d+ cartes|You drew|Vous avez tiré|▶ may:")


async def play_out(
    fake: FakeDiscord, bot: TallyHoBot, game_id: int, thread: int, seats: dict[str, FakeUser]
) -> dict[str, UiPlayer]:
    """Every pending decision made through the UI until the game is over."""
    ea = system()
    pilots = {u.name: UiPlayer(fake, u, game_id, thread) for u in set(seats.values())}
    brains = {s: RandomPlayer(i + 11, steer=True) for i, s in enumerate(sorted(seats))}
    turns = random.Random(game_id)  # which player of a side answers for it
    for _ in range(1500):
        state = (await bot.service.load(game_id)).state
        if ea.is_over(state):
            break
        d = turns.choice(ea.pending(state))
        action = brains[d.seat].choose(ea.engine, state, d.seat)
        pilot = pilots[seats[d.seat].name]
        token = await pilot.act(str(action), via_dm=d.timing is Timing.RESPONSE, seat=d.seat)
        said = [m.get("content") for m in pilot.answers(token)]
        assert (await bot.service.load(game_id)).state != state, (d, str(action), said)
    assert ea.is_over((await bot.service.load(game_id)).state)
    return pilots


async def test_an_eagles_team_engagement_through_the_ui(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    bot = TallyHoBot(database=str(tmp_path / "g.sqlite3"), seed_source=lambda: 20261201)
    await fake.start(bot)
    token = await fake.slash(alice, "dogfight aircraft", ruleset="eagles", month="1917-07")
    catalogue = fake.original(token)["content"]
    assert "SPAD VII" in catalogue and "Fokker DVII" not in catalogue, "in service in July 1917"

    await fake.slash(
        alice,
        "dogfight new",
        channel_id=fake.channel_id,
        format="custom",
        ruleset="eagles",
        engagement="patrol",
        month="1918-04",
        flight="points 40",
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    refused = await fake.slash(
        alice, "dogfight join", channel_id=thread, side="german", aircraft="se5a"
    )
    assert "other side" in fake.original(refused)["content"]
    for user, side, aircraft, extra in (
        (alice, "allied", "se5a", {"leader": "McCudden"}),
        (bob, "allied", "sopwith-camel", {}),
        (carol, "german", "fokker-dri", {"more": "albatros dva"}),
    ):
        await fake.slash(
            user, "dogfight join", channel_id=thread, side=side, aircraft=aircraft, **extra
        )
    lobby = fake.sent_to(thread)[0]["content"]
    assert "SE5a" in lobby and "McCudden" in lobby and "points" in lobby
    await fake.slash(alice, "dogfight start", channel_id=thread)

    seats = {"A1": alice, "A2": bob, "G1": carol}
    pilots = await play_out(fake, bot, game.id, thread, seats)
    typed = sum(p.typed for p in pilots.values())
    assert typed == 0, f"{typed} moves had to be typed: the menus should offer them"

    for m in fake.public_messages():
        assert not PRIVATE.search(text_of(m)), f"hidden information in public: {m['content']!r}"
    mine = [text_of(m) for m in fake.ephemeral_for(bob)]
    assert any("▶ may:" in text and "SE5a (A1)" in text for text in mine), (
        "bob sees the shared flight, alice's SE5a too, with its maneuvers"
    )
    # The Allies' decisions are the whole side's, with no menu in the thread (it would
    # show their hand): each of its players gets them by DM, and the thread says so.
    for user in (alice, bob):
        ids = {int(m["id"]) for m in fake.dms(user)}
        seen = [content for message_id, content in fake.contents if message_id in ids]
        assert any("activate one of your aircraft" in c for c in seen), "the side's turn by DM"
    public = "\n".join(text_of(m) for m in fake.public_messages())
    assert "Any of you may answer, from your DM or **My hand**" in public
    assert "Any of you may choose below" not in public
    dm_ids = {int(m["id"]) for m in fake.dms(carol)}
    shown = [content for message_id, content in fake.contents if message_id in dm_ids]
    responses = [content for content in shown if "targets" in content]
    assert responses, "the single German player answers Targeted Activations by DM"

    record = (await bot.service.load(game.id)).record
    assert record.result is not None
    token = await fake.slash(alice, "game verify", channel_id=thread)
    assert "✅" in fake.original(token)["content"]
    token = await fake.slash(carol, "game log", channel_id=thread)
    assert fake.original(token).get("attachments"), "the public log as a file"
    token = await fake.slash(bob, "game status", channel_id=thread)
    assert fake.original(token)["content"]


async def test_the_solitaire_scenario_by_one_player_in_french(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.add_member("alice", locale="fr")
    bot = TallyHoBot(database=str(tmp_path / "s.sqlite3"), seed_source=lambda: 11)
    await fake.start(bot)
    await fake.slash(
        alice,
        "dogfight new",
        channel_id=fake.channel_id,
        format="1v1",
        ruleset="eagles",
        scenario="1 Luke's Balloons",
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    lobby = fake.sent_to(thread)[0]["content"]
    assert "Luke's Balloons" in lobby
    await fake.slash(alice, "dogfight join", channel_id=thread, side="allied", aircraft="spad-xiii")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    pilots = await play_out(fake, bot, game.id, thread, {"A1": alice})
    assert pilots["alice"].typed == 0
    mine = [text_of(m) for m in fake.ephemeral_for(alice)]
    assert any("Main (" in text for text in mine), "alice's own hand, in French"
    record = (await bot.service.load(game.id)).record
    assert record.result is not None


@pytest.mark.parametrize("extra", [[], ["--scenario", "1"]])
def test_the_demo_plays_an_engagement_the_same_way_for_a_seed(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--system", "eagles", "--seed", "3", *extra]) == 0
    first = capsys.readouterr().out
    assert first.splitlines()[-1].startswith("RESULT: ")
    assert main(["demo", "--system", "eagles", "--seed", "3", *extra]) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("number", [3, 7])
def test_a_historical_scenario_plays_to_its_end_through_the_bot(
    number: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo opens the scenario by number, each side joins (Scenario 7's Germans
    with the aircraft drawn from its cup), and computer players click to the end.
    The longer scenarios play the same way: `python bench/eagles_scenarios.py`."""
    assert main(["demo", "--system", "eagles", "--scenario", str(number), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    name = {3: "Udet Meets Guynemer", 7: "Fonck's Wager"}[number]
    assert name in out
    assert out.splitlines()[-1].startswith("RESULT: ")
    if number == 7:
        assert "from the cup" in out


@pytest.mark.parametrize("number", range(1, 9))
async def test_every_scenario_opens_fills_and_starts_through_the_lobby(
    number: int, fake: FakeDiscord, tmp_path: Path
) -> None:
    """§17.0: each scenario's lobby takes its forces' aircraft (or the cup), starts, and
    the game holds the printed forces."""
    eagles = system()
    demo = eagles.presenter().demo("eagles", "1v1", number)
    assert demo is not None
    users = [fake.add_member(name) for name in ("alice", "bob")[: len(demo.seats)]]
    bot = TallyHoBot(database=str(tmp_path / "s.sqlite3"), seed_source=lambda: 5)
    await fake.start(bot)
    await fake.slash(
        users[0], "dogfight new", channel_id=fake.channel_id, ruleset="eagles", **demo.options
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    for (seat, side, aircraft), user in zip(demo.seats, users, strict=True):
        await fake.slash(
            user, "dogfight join", channel_id=thread, side=side, aircraft=aircraft, seat=seat
        )
    await fake.slash(users[0], "dogfight start", channel_id=thread)
    loaded = await bot.service.load(game.id)
    assert loaded.state is not None, fake.sent_to(thread)[-1]["content"]
    sc = eagles.engine.components.scenarios[number]
    flying = [p for p in loaded.state.planes if not p.balloon]
    assert len(flying) == sc.allied.aircraft_count + sc.german.aircraft_count


async def test_an_engagement_is_undone_substituted_and_replayed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The same commands as the other systems: a move that drew no card is taken back
    with the other side's consent, a seat is handed to another member, and the finished
    engagement replays as an animation."""
    alice, bob, carol = (fake.add_member(n) for n in ("alice", "bob", "carol"))
    bot = TallyHoBot(database=str(tmp_path / "u.sqlite3"), seed_source=lambda: 21)
    await fake.start(bot)
    await fake.slash(
        alice, "dogfight new", channel_id=fake.channel_id, ruleset="eagles", format="1v1"
    )
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(alice, "dogfight join", channel_id=thread, side="allied", aircraft="se5a")
    await fake.slash(bob, "dogfight join", channel_id=thread, side="german", aircraft="fokker-dri")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    ea = system()
    players = {"A1": alice, "G1": bob}
    state = (await bot.service.load(game.id)).state
    (d,) = ea.pending(state)
    idle = next(a for a in ea.legal_actions(state, d.seat) if a.verb == "idle")
    mover, other = players[d.seat], players["G1" if d.seat == "A1" else "A1"]
    await fake.slash(mover, "play", channel_id=thread, text=str(idle))
    await fake.slash(mover, "game undo", channel_id=thread)
    request, agree = message_with(fake, thread, f"th:undo:{game.id}:")
    agree = agree.rsplit(":", 1)[0] + ":yes"
    await fake.click(other, request, agree)
    after = (await bot.service.load(game.id)).state
    assert after is not None and after.dump() == state.dump(), "as if never played"

    await fake.slash(bob, "game sub", channel_id=thread, member=carol)
    offer, accept = message_with(fake, thread, f"th:sub:{game.id}:G1:accept")
    await fake.click(carol, offer, accept)
    assert (await bot.service.load(game.id)).holder("G1") == carol.id

    await play_out(fake, bot, game.id, thread, {"A1": alice, "G1": carol})
    token = await fake.slash(bob, "game replay", channel_id=thread)
    files = fake.original(token).get("attachments") or []
    assert files and str(files[0].get("filename", "")).endswith(".gif")
