"""Languages through the real bot on the offline Discord: a reader gets refusals and
private answers in their Discord locale; a server's thread (lobby, reminders, DMs)
speaks the server's language (``/config language``); the engine's narration stays
English (the canonical game record)."""

from __future__ import annotations

from pathlib import Path

from bot.clock import FakeClock
from bot.testing import FakeDiscord
from bot.testing.driver import wait_for_new_game
from tests.bot.clocked import START, advance, make_bot, open_duel
from tests.bot.test_deadlines_flow import attack, thread_texts


async def test_a_french_player_gets_french_refusals(fake: FakeDiscord, tmp_path: Path) -> None:
    amelie = fake.add_member("amélie", locale="fr")
    bob = fake.add_member("bob")
    bot = make_bot(tmp_path / "g.sqlite3", FakeClock(START))
    await fake.start(bot)
    await fake.slash(amelie, "dogfight new", channel_id=fake.channel_id, ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    # Outside the thread, then before the start: refused in each reader's language.
    tok = await fake.slash(amelie, "dogfight join", side="allied", aircraft="buffalo-i")
    assert fake.original(tok)["content"] == "⛔ Utilisez /dogfight join dans le fil du combat."
    tok = await fake.slash(bob, "dogfight join", side="allied", aircraft="buffalo-i")
    assert fake.original(tok)["content"] == "⛔ Use /dogfight join inside the dogfight's thread."
    await fake.slash(
        amelie, "dogfight join", channel_id=thread, side="allied", aircraft="buffalo-i"
    )
    tok = await fake.slash(amelie, "play", channel_id=thread, text="stay")
    assert fake.original(tok)["content"] == "⛔ Cette partie n'a pas encore commencé."
    tok = await fake.slash(bob, "play", channel_id=thread, text="stay")
    assert fake.original(tok)["content"] == "⛔ This game has not started yet."
    tok = await fake.slash(amelie, "dogfight join", channel_id=thread, side="axis", aircraft="zzz")
    assert "Appareil inconnu : 'zzz'" in fake.original(tok)["content"]
    # The server speaks English: the thread's lobby stays English for everyone.
    assert any(t.startswith("**Dogfight #") for t in thread_texts(fake, thread))


async def test_a_french_server_gets_a_french_lobby_and_french_reminders(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin = fake.add_member("admin", admin=True)
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    await fake.start(bot)
    await fake.slash(admin, "config language", language="fr")
    await bot.close()  # open_duel starts the bot again
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    game_id, thread = await open_duel(fake, bot, alice, bob, response_hours=10.0)
    lobby = (await bot.service.load(game_id)).record.lobby_message_id
    texts = thread_texts(fake, thread)
    assert texts[0].startswith("**Combat #") and "1 contre 1, six tours" in texts[0]
    assert any("vole pour le camp Alliés à la place A1" in t for t in texts)
    assert lobby is not None
    shown = bot.service.lobby_text(await bot.service.load(game_id), "fr")
    assert "En cours : appuyez sur **My hand**" in shown
    await attack(fake, bot, alice, game_id, thread)
    await advance(fake, bot, clock, 5.5)  # past 50 %: the first reminder
    reminders = [t for t in thread_texts(fake, thread) if t.startswith("⏰ Rappel")]
    assert len(reminders) == 1 and f"<@{bob.id}>" in reminders[0]
    assert "Ki-43 Oscar (X1) doit répondre, ou passer avant le" in reminders[0]
    assert any("⏰ Rappel 1/2" in (m.get("content") or "") for m in fake.dms(bob))
    # The engine's narration is the game record: it stays English.
    assert any("is now" in t or "plays" in t for t in thread_texts(fake, thread))
    # Bob's Discord is English: his own answers stay English even on a French server.
    tok = await fake.slash(bob, "game resign")
    assert "To resign, run /game resign" in fake.original(tok)["content"]
