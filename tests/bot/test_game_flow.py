"""Whole games through the real discord.py client on the offline Discord.

Several fake users send real INTERACTION_CREATE payloads (slash commands, buttons,
menus); the tests assert on what the bot sent, to whom, and that hidden information
(hands, mini-hands, cards drawn) reaches only its owner.
"""

from __future__ import annotations

import logging
import re
import traceback
from pathlib import Path

import pytest

from bot.testing import FakeDiscord, FakeUser, discord_log_errors
from bot.testing.driver import UiPlayer, components_of, text_of, wait_for_new_game
from cogs.app import TallyHoBot
from cogs.context import ALT_LIMIT, alt_text
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from rendering.registry import renderer
from rendering.shapes import Text
from strings import t

SEED = 20261130


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


async def open_game(
    fake: FakeDiscord,
    bot: TallyHoBot,
    alice: FakeUser,
    bob: FakeUser,
    *,
    before_start: FakeUser | None = None,
) -> tuple[int, int]:
    """A Zero! 1v1 started (the bot too, unless it runs); ``before_start`` turns their
    DMs off first."""
    if fake.bot is not bot:
        await fake.start(bot)
    if before_start is not None:
        await fake.slash(before_start, "settings dm", enabled="off")
    await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    assert game.thread_id is not None
    await fake.slash(
        alice, "dogfight join", channel_id=game.thread_id, side="allied", aircraft="buffalo-i"
    )
    await fake.slash(bob, "dogfight join", channel_id=game.thread_id, side="axis", aircraft="ki-43")
    await fake.slash(alice, "dogfight start", channel_id=game.thread_id)
    return game.id, game.thread_id


def dm_requests(fake: FakeDiscord, method: str) -> list[object]:
    """The bot's requests of ``method`` on messages in DM channels."""
    key = f"{method} /channels/{{channel_id}}/messages/{{message_id}}"
    return [c for c in fake.calls if c.key == key and int(c.args["channel_id"]) in fake.dm_channels]


async def play(
    fake: FakeDiscord,
    bot: TallyHoBot,
    game_id: int,
    thread: int,
    users: dict[str, FakeUser],
    max_actions: int = 10_000,
) -> dict[str, UiPlayer]:
    pilots = {s: UiPlayer(fake, u, game_id, thread) for s, u in users.items()}
    brains = {s: RandomPlayer(i + 7) for i, s in enumerate(users)}
    for _ in range(max_actions):
        loaded = await bot.service.load(game_id)
        state = loaded.state
        assert state is not None
        if state.step == "over":
            break
        p = default_engine().pending(state)[0]
        action = brains[p.seat].choose(default_engine(), state, p.seat)
        await pilots[p.seat].act(str(action), via_dm=p.kind in ("respond", "follow"))
    return pilots


PRIVATE = re.compile(r"Hand \(\d+\)|You drew|Wingman's mini-hand: |Your secret altitude")


def assert_private_messages_reach_only_owners(
    fake: FakeDiscord, owners: dict[str, FakeUser]
) -> int:
    """Every message showing a hand, a mini-hand or drawn cards goes only to that seat's owner."""
    checked = 0
    for m in fake.public_messages():
        assert not PRIVATE.search(text_of(m)), (
            f"hidden information in a public message: {m['content']!r}"
        )
    for seat in owners:
        for other in (u for s, u in owners.items() if s != seat):
            for m in fake.ephemeral_for(other) + fake.dms(other):
                text = text_of(m)
                if PRIVATE.search(text):
                    assert f"({seat})**" not in text, f"{other.name} was shown {seat}'s hand"
                    checked += 1
    return checked


async def test_whole_game_through_buttons_keeps_hands_private(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    pilots = await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob})

    final = await bot.service.load(game_id)
    assert final.record.status == "finished"
    assert final.record.result and final.record.result["verdict"]
    assert all(p.typed == 0 for p in pilots.values()), "every move was offered as a button or menu"
    assert assert_private_messages_reach_only_owners(fake, {"A1": alice, "X1": bob}) > 0
    # Each player was shown their own hand.
    assert any("Buffalo I (A1)**" in m["content"] for m in fake.ephemeral_for(alice))
    assert any("(X1)**" in m["content"] for m in fake.ephemeral_for(bob))
    # The thread got pictures of the sky, and the renderer only ever saw spectator views.
    pictures = [f for m in fake.sent_to(thread) for f in fake.files(m)]
    assert pictures and all(data.startswith(b"\x89PNG") for _, data in pictures)
    spectator = bot.service.view(final, None)
    assert all(e.hand is None and e.minihand is None for e in spectator.elements)
    # The end is announced once; the after-action report follows it (cogs.history).
    assert fake.sent_to(thread)[-2]["content"].count("Game over") == 1
    assert "after-action report" in fake.sent_to(thread)[-1]["content"]


async def test_every_picture_says_in_words_what_it_shows(fake: FakeDiscord, tmp_path: Path) -> None:
    """Every picture carries alt text (the attachment's description) built from the
    spectators' view by the system's presenter: whose move, each element's player,
    altitude, position and damage; the report's picture has the report, the replay its
    last picture. The picture names the players next to their seats."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob", locale="fr")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob}, max_actions=30)
    skies = [m for m in fake.sent_to(thread) if m.get("attachments")]
    assert len(skies) > 2
    for m in skies:
        (sky,) = m["attachments"]
        alt = sky["description"]
        assert alt.startswith("Picture of the sky") and len(alt) <= 1024
        assert "Buffalo I (A1), flown by alice, Allied: " in alt
        assert "Ki-43 Oscar (X1), flown by bob, Japanese: " in alt
        assert "leader " in alt and " hits" in alt
    moving = [m["attachments"][0]["description"] for m in skies[1:]]
    assert any("To move: " in alt for alt in moving)
    assert not any(re.search(r"Hand|mini-hand", alt) for alt in moving), "no hidden information"
    # The picture draws the players' names on their cards (the layout is data).
    loaded = await bot.service.load(game_id)
    layout = renderer("dif").layout(bot.service.view(loaded, None), players=loaded.players("en"))
    shown = {i.text for i in layout.items if isinstance(i, Text)}
    assert {"● A1 · alice", "◆ X1 · bob"} <= shown

    # /game status: in the reader's language (Bob's client is in French).
    token = await fake.slash(bob, "game status", channel_id=thread)
    alt = fake.original(token)["attachments"][0]["description"]
    assert alt.startswith("Image du ciel") and "Ki-43 Oscar (X1), piloté par bob" in alt

    await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob})
    report = fake.sent_to(thread)[-1]
    (picture,) = report["attachments"]
    assert picture["filename"] == "report.png"
    assert "after-action report" in picture["description"] and "alice" in picture["description"]
    token = await fake.slash(alice, "game replay", channel_id=thread)
    (gif,) = fake.original(token)["attachments"]
    assert gif["description"].startswith(f"Replay of dogfight #{game_id}")
    assert "Picture of the sky at the end" in gif["description"]
    lobby = fake.sent_to(thread)[0]["content"]
    assert "Buffalo I" in lobby and "Ki-43" in lobby and "Finished:" in lobby


async def test_restart_mid_game_resumes_from_the_database(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    db = tmp_path / "game.sqlite3"
    bot1 = make_bot(db)
    game_id, thread = await open_game(fake, bot1, alice, bob)
    await play(fake, bot1, game_id, thread, {"A1": alice, "X1": bob}, max_actions=25)
    before = await bot1.service.load(game_id)
    assert before.state is not None and before.state.step != "over"
    snapshot = before.state.to_json()
    await bot1.close()

    bot2 = make_bot(db)
    await fake.start(bot2)
    after = await bot2.service.load(game_id)
    assert after.state is not None and after.state.to_json() == snapshot
    # A button sent by the first process still works in the second.
    old = next(
        m
        for m in fake.sent_to(thread)
        if any(c.get("custom_id") == f"th:hand:{game_id}" for c in components_of(m))
    )
    seat_user = alice if default_engine().pending(after.state)[0].seat == "A1" else bob
    token = await fake.click(seat_user, old, f"th:hand:{game_id}")
    assert "Your decision" in fake.original(token)["content"]
    edits = len(dm_requests(fake, "PATCH"))
    await play(fake, bot2, game_id, thread, {"A1": alice, "X1": bob})
    final = await bot2.service.load(game_id)
    assert final.record.status == "finished"
    assert len(await bot2.service.storage.load_actions(game_id)) == final.record.last_seq
    # The DMs the first process sent are closed by the second from their rows' text
    # (messages.content), without fetching them first.
    assert len(dm_requests(fake, "PATCH")) > edits
    assert dm_requests(fake, "GET") == []


async def test_bad_input_gets_a_specific_message_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_member("alice"), fake.add_member("bob"), fake.add_member("carol")
    bot = make_bot(tmp_path / "game.sqlite3")
    await fake.start(bot)
    await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None

    tok = await fake.slash(
        alice, "dogfight join", channel_id=thread, side="allied", aircraft="sopwith camel"
    )
    assert "Unknown aircraft" in fake.original(tok)["content"]
    tok = await fake.slash(
        alice, "dogfight join", channel_id=thread, side="axis", aircraft="buffalo-i"
    )
    assert "flies for the Allied side" in fake.original(tok)["content"]
    await fake.slash(alice, "dogfight join", channel_id=thread, side="allied", aircraft="buffalo-i")
    tok = await fake.slash(bob, "dogfight start", channel_id=thread)
    assert "host" in fake.original(tok)["content"] or "Both sides" in fake.original(tok)["content"]
    await fake.slash(bob, "dogfight join", channel_id=thread, side="axis", aircraft="ki-43")
    await fake.slash(alice, "dogfight start", channel_id=thread)

    version = (await bot.service.load(game.id)).record.version
    tok = await fake.slash(alice, "play", channel_id=thread, text="alt VH")
    assert (
        "turbocharged" in fake.original(tok)["content"] and "4.5" in fake.original(tok)["content"]
    )
    tok = await fake.slash(alice, "play", channel_id=thread, text="fly away")
    assert "unknown action" in fake.original(tok)["content"]
    tok = await fake.slash(carol, "play", channel_id=thread, text="alt M")
    assert "not" in fake.original(tok)["content"]
    assert (await bot.service.load(game.id)).record.version == version

    # Alice picks in the ephemeral select menu; Bob cannot use Alice's menu.
    hand = await UiPlayer(fake, alice, game.id, thread).open_hand()
    menu = fake.custom_id(hand, "Medium")
    assert menu.startswith(f"th:s:{game.id}:A1:")
    tok = await fake.click(bob, hand, menu, values=["alt M"])
    assert "another player" in fake.original(tok)["content"]
    await fake.click(alice, hand, menu, values=["alt M"])
    # The same menu, now stale, is refused instead of applied twice.
    tok = await fake.click(alice, hand, menu, values=["alt L"])
    assert "out of date" in fake.original(tok)["content"]
    assert len(await bot.service.storage.load_actions(game.id)) == 1
    # The pick stays secret: nothing public names Alice's altitude yet.
    assert not any("Medium" in m["content"] for m in fake.public_messages())


async def test_refused_dm_falls_back_to_a_ping_in_the_thread(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    fake.block_dms(alice)
    fake.block_dms(bob)
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob})
    assert fake.dms(alice) == [] and fake.dms(bob) == []
    pings = [
        m["content"] for m in fake.sent_to(thread) if "Respond? Press **My hand**" in m["content"]
    ]
    assert pings, "every attack must reach the defender somehow"
    assert all(f"<@{alice.id}>" in p or f"<@{bob.id}>" in p for p in pings)


async def test_the_demo_on_a_french_server_speaks_french(tmp_path: Path) -> None:
    from cogs.demo import play_demo

    lines = await play_demo(2, tmp_path, language="fr")
    text = "\n".join(lines[:-1])
    assert lines[0].startswith("**Combat #1** : Zero!, 1942, 1 contre 1")
    assert "pioche" in text and "Appuyez sur **My hand**" in text
    for english in (" draws ", " plays ", "Press **My hand**", "Game turn", " stays at "):
        assert english not in text, english
    assert lines[-1].startswith("RESULT: ")  # the admin's summary line stays English
    assert any(p.name.endswith("report.png") for p in tmp_path.iterdir())


async def test_the_report_says_hit_when_hits_landed_but_flipped_no_card(tmp_path: Path) -> None:
    """Seed 55 is a draw where two aircraft took two hits each and none was damaged
    (5.21): the report does not call them unharmed, nor says that nothing happened."""
    from cogs.demo import play_demo

    for language, hit, quiet in (
        ("en", "**hit**, card not flipped (hits taken 2,", "Hits landed, but none flipped"),
        ("fr", "**touché**, carte non retournée (coups reçus 2,", "Des coups ont porté"),
    ):
        lines = await play_demo(55, None, language=language)
        report = "\n".join(lines[next(i for i, x in enumerate(lines) if x.startswith("📋")) :])
        assert report.count(hit) == 2
        assert (
            re.search(r"\*\*(unharmed|indemne)\*\* \((hits taken|coups reçus) [1-9]", report)
            is None
        )
        assert quiet in report


@pytest.mark.parametrize("seed", [1, 2])
async def test_demo_is_deterministic(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cogs.demo import play_demo

    first = await play_demo(seed, tmp_path / "a")
    second = await play_demo(seed, tmp_path / "b")
    assert first == second
    assert first[-1].startswith("RESULT: ")
    assert sorted(p.read_bytes() for p in (tmp_path / "a").iterdir()) == sorted(
        p.read_bytes() for p in (tmp_path / "b").iterdir()
    )


async def test_two_simultaneous_clicks_never_both_apply(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    for user in (alice, bob):
        await UiPlayer(fake, user, game_id, thread).act("alt M")
    game = await bot.service.load(game_id)
    assert game.state is not None
    seat = default_engine().pending(game.state)[0].seat
    user = alice if seat == "A1" else bob
    actions_before = len(await bot.service.storage.load_actions(game_id))
    hand = await UiPlayer(fake, user, game_id, thread).open_hand()
    buttons = [c for c in components_of(hand) if str(c.get("custom_id", "")).startswith("th:a:")]
    assert len(buttons) >= 2
    # Two different moves clicked at the same instant: the lock and the version
    # check let exactly one through; the other is told the game moved on.
    for button in buttons[:2]:
        data = {"custom_id": button["custom_id"], "component_type": 2}
        fake.interact(user, 3, data, int(hand["channel_id"]), message=hand)
    await fake.settle()
    assert len(await bot.service.storage.load_actions(game_id)) == actions_before + 1
    answers = [m["content"] for m in fake.ephemeral_for(user)[-2:]]
    assert sum("out of date" in a or "same moment" in a for a in answers) == 1


async def test_game_log_is_public_notation_and_narration(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    await UiPlayer(fake, alice, game_id, thread).act("alt L")
    tok = await fake.slash(bob, "game log", channel_id=thread)
    ((name, data),) = fake.files(fake.original(tok))
    assert name == f"dogfight-{game_id}.txt"
    text = data.decode()
    assert "A1: alt ?" in text and "alt L" not in text, "a pick stays secret until both picked"
    await UiPlayer(fake, bob, game_id, thread).act("alt M")
    tok = await fake.slash(bob, "game log", channel_id=thread)
    text = fake.files(fake.original(tok))[0][1].decode()
    assert "A1: alt L" in text and "X1: alt M" in text and "Altitudes revealed" in text


async def test_resigning_ends_the_game_and_later_moves_are_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    tok = await fake.slash(bob, "game resign", channel_id=thread)
    assert "confirm" in fake.original(tok)["content"]
    await fake.slash(bob, "game resign", channel_id=thread, confirm=True)
    game = await bot.service.load(game_id)
    assert game.record.status == "finished"
    assert game.record.result is not None and game.record.result["winner"] == "allied"
    assert "resigns" in fake.sent_to(thread)[-2]["content"]  # then the after-action report
    tok = await fake.slash(alice, "play", channel_id=thread, text="alt M")
    assert "over" in fake.original(tok)["content"]
    tok = await fake.slash(alice, "game status", channel_id=thread)
    assert "resigned" in fake.original(tok)["content"]
    assert fake.files(fake.original(tok))[0][0] == "sky.png"


async def test_join_autocompletes_aircraft_of_the_side_and_year(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.add_member("alice")
    bot = make_bot(tmp_path / "game.sqlite3")
    await fake.start(bot)
    await fake.slash(alice, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1940)
    thread = (await wait_for_new_game(fake, bot.service.storage)).thread_id
    choices = await fake.autocomplete(
        alice, "dogfight join", "aircraft", "", channel_id=thread, side="allied"
    )
    values = {c["value"] for c in choices}
    assert {"f4f", "spitfire-i"} <= values
    assert "a6m2" not in values, "only the chosen side"
    assert "buffalo-i" not in values, "the Buffalo I entered service after 1940 (4.3)"
    choices = await fake.autocomplete(
        alice, "dogfight join", "aircraft", "spit", channel_id=thread, side="allied"
    )
    assert [c["value"] for c in choices] == ["spitfire-i"]


async def test_a_system_failing_to_apply_a_move_is_a_logged_internal_error_that_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    fake = FakeDiscord(monkeypatch)
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    storage = bot.service.storage
    before = await storage.get_game(game_id)
    actions = await storage.load_actions(game_id)
    posted = len(fake.sent_to(thread))
    system = (await bot.service.load(game_id)).system

    def broken(*args: object) -> None:
        raise RuntimeError("a bug deep in the rules")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(system, "apply", broken)
        hand = await UiPlayer(fake, alice, game_id, thread).open_hand()
        clicked = await fake.click(alice, hand, fake.custom_id(hand, "Medium"), values=["alt M"])
        typed = await fake.slash(alice, "play", channel_id=thread, text="alt M")

    # The player reads a short apology, privately, and nothing of the failure.
    for token in (clicked, typed):
        answer = fake.original(token)
        assert answer["content"] == t("error.internal", "en")
        assert answer["flags"] & 64, "ephemeral"
    # The log has the failure with its traceback, naming the game but not the move.
    failures = [r for r in caplog.records if r.name == "bot.play" and r.levelno >= logging.ERROR]
    assert len(failures) == 2
    for record in failures:
        assert record.exc_info is not None
        assert "a bug deep in the rules" in "".join(traceback.format_exception(record.exc_info[1]))
        assert f"game {game_id}" in record.getMessage() and "alt M" not in record.getMessage()
    # The stored game is unchanged, nothing was said in the thread, and the game goes on.
    assert await storage.get_game(game_id) == before
    assert await storage.load_actions(game_id) == actions
    assert len(fake.sent_to(thread)) == posted
    token = await fake.slash(alice, "play", channel_id=thread, text="alt M")
    assert fake.original(token)["content"].startswith("✅")
    assert len(await storage.load_actions(game_id)) == len(actions) + 1
    await fake.shutdown()
    assert fake.problems() == []
    logged = discord_log_errors(caplog.records, prefixes=("discord", "cogs", "bot"))
    assert len(logged) == 2, "only the two failures, logged once each"


async def test_the_move_comes_by_dm_and_a_whole_game_plays_from_the_dms(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """When the move passes to a player (their turn, a response, a secret pick), the
    bot DMs them the hand with its buttons, and the thread still pings them. A turn of
    several steps is one DM, kept up to date in place; once nothing is left to decide
    there its buttons go. So a player on a phone plays the whole game from DMs."""
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob)
    users = {"A1": alice, "X1": bob}
    pilots = {s: UiPlayer(fake, u, game_id, thread) for s, u in users.items()}
    assert all(len(p.live_dms()) == 1 for p in pilots.values()), "both pick an altitude"
    brains = {s: RandomPlayer(i + 7) for i, s in enumerate(users)}
    moves = {"A1": 0, "X1": 0}
    for _ in range(10_000):
        state = (await bot.service.load(game_id)).state
        assert state is not None
        if state.step == "over":
            break
        p = default_engine().pending(state)[0]
        action = brains[p.seat].choose(default_engine(), state, p.seat)
        await pilots[p.seat].act(str(action), via_dm=True)
        moves[p.seat] += 1
        assert len(pilots[p.seat].live_dms()) <= 1, "one live DM a seat, never a stale one"
    assert (await bot.service.load(game_id)).record.status == "finished"
    for seat, pilot in pilots.items():
        assert pilot.hands == 0 and pilot.typed == 0, f"{seat} played from the DMs alone"
        assert pilot.live_dms() == [], "the game is over: no button is left in a DM"
        dms = fake.dms(users[seat])
        assert len(dms) < moves[seat] * 0.8, "a DM when the move passes, not one a step"
        assert any(t("publish.dm_done", "en") in m["content"] for m in dms)
        for dm in dms:  # closed from what the bot remembers it showed: the hand stays
            if dm["content"].endswith(t("publish.dm_done", "en")):
                assert dm["content"].rsplit("\n", 1)[0].strip(), "the hand above the note"
    assert dm_requests(fake, "GET") == [], "a DM is closed without fetching it first"
    assert not any("out of date" in (m.get("content") or "") for m in fake.messages.values())
    public = "\n".join(m["content"] for m in fake.sent_to(thread))
    assert f"➡ <@{alice.id}>:" in public and f"➡ <@{bob.id}>:" in public, "the pings stay"
    assert assert_private_messages_reach_only_owners(fake, users) > 10


async def test_no_dm_for_a_player_who_turned_them_off(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "game.sqlite3")
    game_id, thread = await open_game(fake, bot, alice, bob, before_start=bob)
    pilots = await play(fake, bot, game_id, thread, {"A1": alice, "X1": bob}, max_actions=40)
    assert fake.dms(bob) == [], "no DM at all"
    assert pilots["X1"].hands > 0, "Bob plays from My hand"
    assert fake.dms(alice), "Alice still gets hers"
    public = "\n".join(m["content"] for m in fake.sent_to(thread))
    assert f"➡ <@{bob.id}>:" in public, "Bob is pinged in the thread"


def test_alt_text_is_cut_between_lines_within_discords_limit() -> None:
    lines = [f"Line {i}: " + "x" * 90 for i in range(20)]
    cut = alt_text("\n".join(lines))
    assert len(cut) <= ALT_LIMIT and cut.endswith("\n…")
    assert cut.splitlines()[:-1] == lines[: len(cut.splitlines()) - 1], "whole lines only"
    assert alt_text("short") == "short"
