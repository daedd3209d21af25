"""Languages through the real bot on the offline Discord: a reader gets refusals and
private answers in their Discord locale; a server's thread (lobby, reminders, DMs,
the engine's narration) speaks the server's language (``/config language``); the
exported log and the stored result stay English (the canonical game record)."""

from __future__ import annotations

from pathlib import Path

from bot.archive import archive
from bot.clock import FakeClock
from bot.results import verdict_text
from bot.testing import FakeDiscord
from bot.testing.driver import UiPlayer, components_of, message_with, wait_for_new_game
from engine.dif.actions import Action
from engine.dif.game import default_engine
from strings import tr
from tests.bot.clocked import FIXED, START, advance, log_of, make_bot, open_duel
from tests.bot.test_deadlines_flow import attack, thread_texts
from tests.bot.test_seats_flow import answer


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
    assert any("vole pour le camp allié à la place A1" in t for t in texts)
    assert lobby is not None
    shown = bot.service.lobby_text(await bot.service.load(game_id), "fr")
    assert "En cours : appuyez sur **My hand**" in shown
    await attack(fake, bot, alice, game_id, thread)
    await advance(fake, bot, clock, 5.5)  # past 50 %: the first reminder
    reminders = [t for t in thread_texts(fake, thread) if t.startswith("⏰ Rappel")]
    assert len(reminders) == 1 and f"<@{bob.id}>" in reminders[0]
    assert "Ki-43 Oscar (X1) doit répondre, ou passer avant le" in reminders[0]
    assert any("⏰ Rappel 1/2" in (m.get("content") or "") for m in fake.dms(bob))
    # The engine's narration reaches the thread in the server's language (English where
    # its catalogue has no translation); the exported log keeps it in English.
    history = await archive(bot.service).history(await bot.service.load(game_id))
    narrated = [e.text for m in history.moves for e in m.events if e.public]
    assert narrated
    said = "\n".join(thread_texts(fake, thread))
    assert all(tr(line, "fr") in said for line in narrated)
    # Bob's Discord is English: his own answers stay English even on a French server.
    tok = await fake.slash(bob, "game resign")
    assert "To resign, run /game resign" in fake.original(tok)["content"]


async def test_a_french_table_gets_moves_seats_deadlines_and_verification_in_french(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Texts the bot adds to a game, not only the lobby: move labels and menus, a
    deadline's default, a seat handed over, the end and its verification."""
    admin = fake.add_member("admin", admin=True)
    alice, bob = fake.add_member("alice", locale="fr"), fake.add_member("bob", locale="fr")
    carol = fake.add_member("carol", locale="fr")
    clock = FakeClock(START)
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    await fake.start(bot)
    await fake.slash(admin, "config language", language="fr")
    await bot.close()  # open_duel starts the bot again
    bot = make_bot(tmp_path / "g.sqlite3", clock)
    secret = {k: v for k, v in FIXED.items() if k != "altitudes"}  # picked in a menu
    game_id, thread = await open_duel(fake, bot, alice, bob, secret, response_hours=10.0)

    # A move label in a menu: the secret altitudes, in French.
    hand = await UiPlayer(fake, alice, game_id, thread).open_hand()
    (menu,) = [c for c in components_of(hand) if c.get("type") == 3]
    assert menu["placeholder"] == "Altitude de départ secrète…"
    options = [o["label"] for o in menu["options"]]
    assert options[:4] == ["Très basse", "Basse", "Moyenne", "Haute"]  # the Buffalo's bands
    await fake.slash(alice, "play", channel_id=thread, text="alt M")
    await fake.slash(bob, "play", channel_id=thread, text="alt M")
    await attack(fake, bot, alice, game_id, thread)
    hand = await UiPlayer(fake, bob, game_id, thread).open_hand()
    labels = [str(c.get("label")) for c in components_of(hand) if c.get("type") == 2]
    assert "Pas de réponse" in labels and "No response" not in labels
    # The engine's refusal of a move, in the player's language.
    state = (await bot.service.load(game_id)).state
    assert state is not None
    why = default_engine().refusal(state, "X1", Action.from_text("stay"))
    assert why is not None and tr(why, "fr") != str(why)
    tok = await fake.slash(bob, "play", channel_id=thread, text="stay")
    assert answer(fake, tok) == f"⛔ {tr(why, 'fr')}"

    # A deadline passes: the thread says so in French.
    await advance(fake, bot, clock, 10.5)
    assert (await log_of(bot, game_id))[-1] == "X1 pass"
    said = "\n".join(thread_texts(fake, thread))
    assert (
        "⏰ Le délai de Ki-43 Oscar (X1) est écoulé : le choix par défaut s'applique : pass."
        in said
    )
    assert "has passed" not in said

    # A seat changes hands: the offer, its buttons and the hand-over, in French.
    tok = await fake.slash(bob, "game sub", channel_id=thread, member=carol)
    assert answer(fake, tok).startswith("La place X1 est offerte à")
    said = "\n".join(thread_texts(fake, thread))
    assert f"🔁 <@{bob.id}> offre la place X1 (Ki-43 Oscar (X1)) à <@{carol.id}>." in said
    offer, accept_id = message_with(fake, thread, f"th:sub:{game_id}:X1:accept")
    buttons = {str(c.get("label")) for c in components_of(offer)}
    assert {"Accepter la place", "Refuser", "Retirer l'offre"} <= buttons
    tok = await fake.click(carol, offer, accept_id)
    assert "vous pilotez désormais X1" in answer(fake, tok)
    said = "\n".join(thread_texts(fake, thread))
    assert f"🔁 <@{carol.id}> remplace <@{bob.id}> à la place X1 (Ki-43 Oscar (X1))." in said
    assert "a accepté" in fake.messages[int(offer["id"])]["content"]

    # The end: the resignation line, the after-action post and /game verify.
    await fake.slash(carol, "game resign", channel_id=thread, confirm=True)
    said = "\n".join(thread_texts(fake, thread))
    resigned = "Victoire pour le camp allié : le camp japonais a abandonné"
    assert f"<@{carol.id}> abandonne. {resigned}." in said
    report = thread_texts(fake, thread)[-1]
    assert "📋 **Combat #" in report and "rapport après action" in report
    assert "🔓 La graine était" in report
    assert resigned in report, "the report's verdict, in French too"
    text = answer(fake, await fake.slash(alice, "game verify", channel_id=thread))
    assert text.startswith(f"**Combat #{game_id} : vérification**\n✅ Vérifié.")
    assert "correspond à l'engagement" in text and "arrêtée par un joueur" in text
    # The stored verdict stays English: it is the game's record.
    record = (await bot.service.load(game_id)).record
    assert record.result is not None
    assert record.result["verdict"] == "Victory for the Allied side: the Japanese side resigned"
    # ... and is shown in French: in the lobby message and in /game status.
    lobby = record.lobby_message_id
    assert lobby is not None and f"Terminé : {resigned}." in fake.messages[lobby]["content"]
    status = answer(fake, await fake.slash(alice, "game status", channel_id=thread))
    assert resigned in status
    # A verdict stored in the first release's words is still recognised and translated.
    old = {**record.result, "verdict": "Allied victory: the Japanese side resigned"}
    await bot.service.storage.update_game(game_id, record.version, result=old)
    game = await bot.service.load(game_id)
    assert verdict_text(game, "fr") == resigned
    assert verdict_text(game, "en") == "Victory for the Allied side: the Japanese side resigned"
