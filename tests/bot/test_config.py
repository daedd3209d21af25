"""Server settings: the model (bot.settings) and /config through the offline Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.deadlines import DeadlineSettings
from bot.settings import (
    DeadlinePolicy,
    GuildSettings,
    PlayerSettings,
    SettingsError,
    parse_fractions,
)
from bot.storage.sqlite import SQLiteStorage
from bot.testing import FakeDiscord
from bot.testing.driver import UiPlayer, wait_for_new_game
from cogs.app import TallyHoBot
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine

SEED = 20261130


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


def content(fake: FakeDiscord, token: str) -> str:
    return str(fake.original(token)["content"])


# ---------------------------------------------------------------- the model
@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = await SQLiteStorage.open(str(tmp_path / "settings.sqlite3"))
    yield store
    await store.close()


async def test_defaults_when_nothing_is_stored(storage: SQLiteStorage) -> None:
    s = await GuildSettings.load(storage, 1)
    assert s.deadlines.turn_hours == 24 and s.deadlines.response_hours == 12
    assert s.deadlines.reminders == (0.5, 0.9) and s.deadlines.reminder_fractions == (0.5, 0.9)
    assert s.deadlines.default_action == "pass" and not s.deadlines.computer_players
    assert s.deadlines.abandon_after == 3 and s.deadlines.abandon_action == "forfeit"
    assert s.rulesets == ("zero", "rotl", "lockedon", "eagles")
    assert s.systems == ("dif", "lockedon", "eagles")
    assert s.game_channel_id is None and s.language == "en"
    assert await GuildSettings.load(storage, None) == GuildSettings()


async def test_update_validates_merges_and_keeps_other_keys(storage: SQLiteStorage) -> None:
    await storage.put_guild_settings(7, {"content_packs": ["x"], "deadlines": {"future": 1}})
    s = await GuildSettings.update(
        storage, 7, changes={"rulesets": ["rotl"]}, deadlines={"turn_hours": 48}
    )
    assert s.rulesets == ("rotl",) and s.deadlines.turn_hours == 48
    stored = (await storage.get_guild_settings(7)).settings  # type: ignore[union-attr]
    assert stored["content_packs"] == ["x"] and stored["deadlines"]["future"] == 1
    assert stored["deadlines"]["turn_hours"] == 48
    # The scheduler's own model reads the same JSON and ignores the extra keys.
    assert DeadlineSettings.resolve(stored).turn_hours == 48
    assert isinstance(DeadlinePolicy.resolve(stored), DeadlinePolicy)
    # A refused change writes nothing.
    with pytest.raises(SettingsError) as refused:
        await GuildSettings.update(storage, 7, deadlines={"default_action": "computer"})
    assert refused.value.key == "config.error.computer_needed"
    assert (await GuildSettings.load(storage, 7)).deadlines.default_action == "pass"
    await GuildSettings.update(storage, 7, deadlines={"computer_players": True})
    await GuildSettings.update(storage, 7, deadlines={"default_action": "computer"})
    with pytest.raises(SettingsError) as in_use:
        await GuildSettings.update(storage, 7, deadlines={"computer_players": False})
    assert in_use.value.key == "config.error.computer_in_use"
    with pytest.raises(SettingsError):
        await GuildSettings.update(storage, 7, changes={"rulesets": []})
    with pytest.raises(SettingsError):
        await GuildSettings.update(storage, 7, changes={"language": "xx"})


async def test_invalid_stored_values_fall_back_to_defaults_one_by_one(
    storage: SQLiteStorage,
) -> None:
    await storage.put_guild_settings(
        3,
        {
            "rulesets": ["zero", "nope"],
            "language": "fr",
            "deadlines": {"turn_hours": -1, "response_hours": 6, "default_action": "computer"},
        },
    )
    s = await GuildSettings.load(storage, 3)
    assert s.rulesets == ("zero", "rotl", "lockedon", "eagles") and s.language == "fr"
    assert s.deadlines.turn_hours == 24 and s.deadlines.response_hours == 6
    assert s.deadlines.default_action == "pass"  # computer players are not allowed


def test_reminder_fractions_parse_and_cap() -> None:
    assert parse_fractions("50%, 90%") == (0.5, 0.9)
    assert parse_fractions("0.25 0.5;0.75") == (0.25, 0.5, 0.75)
    assert parse_fractions("") == ()
    for bad in ("0", "100%", "0.9, 0.5", "soon", "1 2 3 4 5 6"):
        with pytest.raises(SettingsError):
            parse_fractions(bad)
    policy = DeadlinePolicy(reminders=(0.25, 0.5, 0.75), max_reminders=2)
    assert policy.reminder_fractions == (0.25, 0.5)


async def test_player_settings_keep_the_schedulers_keys(storage: SQLiteStorage) -> None:
    await storage.put_user_settings(5, {"tz": "Europe/Paris"})
    assert (await PlayerSettings.load(storage, 5)).dm is True
    s = await PlayerSettings.update(storage, 5, dm=False)
    assert s.dm is False and s.auto_pass is False
    stored = (await storage.get_user_settings(5)).settings  # type: ignore[union-attr]
    assert stored == {"tz": "Europe/Paris", "dm": False}


# ---------------------------------------------------------------- /config
async def test_a_member_without_manage_server_is_refused(fake: FakeDiscord, tmp_path: Path) -> None:
    bob = fake.add_member("bob")
    bot = make_bot(tmp_path / "g.sqlite3")
    await fake.start(bot)
    for command, options in (
        ("config show", {}),
        ("config deadlines", {"turn_hours": 48}),
        ("config rulesets", {"ruleset": "rotl", "allowed": False}),
    ):
        token = await fake.slash(bob, command, **options)
        assert "Manage Server" in content(fake, token)
        assert fake.original(token)["flags"] & 64  # ephemeral
    assert (await GuildSettings.load(bot.service.storage, fake.guild_id)) == GuildSettings()
    # Discord hides the group from members without the permission, too.
    synced = [c for cmds in fake.commands.values() for c in cmds if c["name"] == "config"]
    assert synced and int(synced[0]["default_member_permissions"]) == 1 << 5  # Manage Server


async def test_an_admin_changes_settings_and_show_reflects_them(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin = fake.add_member("admin", admin=True)
    bot = make_bot(tmp_path / "g.sqlite3")
    await fake.start(bot)
    before = content(fake, await fake.slash(admin, "config show"))
    assert "24 h for a decision" in before and "at 50%, 90%" in before

    token = await fake.slash(admin, "config deadlines", turn_hours=48, response_hours=6)
    assert "Saved" in content(fake, token) and "48 h" in content(fake, token)
    await fake.slash(admin, "config reminders", at="25%, 50%, 75%", max_count=2)
    await fake.slash(admin, "config computer", allowed=True)
    await fake.slash(admin, "config default-action", action="computer")
    await fake.slash(admin, "config abandonment", after=2, action="computer", substitute_hours=24)
    await fake.slash(admin, "config vacation", max_days=10)
    games = fake.add_channel("games")
    await fake.slash(admin, "config channel", channel=games)
    shown = content(fake, await fake.slash(admin, "config show"))
    assert "48 h for a decision" in shown and "6 h to respond" in shown
    assert "at 25%, 50% of the time given, at most 2 a decision" in shown
    assert "a computer player takes that one decision" in shown
    assert (
        "after 2 missed deadlines" in shown and "within 24 h, a computer player flies it" in shown
    )
    assert "up to 10 days" in shown and f"<#{games}>" in shown

    s = await GuildSettings.load(bot.service.storage, fake.guild_id)
    assert s.deadlines.turn_hours == 48 and s.deadlines.reminder_fractions == (0.25, 0.5)
    assert s.deadlines.abandon_action == "computer" and s.game_channel_id == games

    refused = content(fake, await fake.slash(admin, "config computer", allowed=False))
    assert "still used by `default_action`" in refused
    bad = content(fake, await fake.slash(admin, "config reminders", at="90%, 50%"))
    assert "increasing order" in bad
    nothing = content(fake, await fake.slash(admin, "config deadlines"))
    assert "at least one option" in nothing
    assert "back to its default" in content(
        fake, await fake.slash(admin, "config reset", confirm=True)
    )
    assert await GuildSettings.load(bot.service.storage, fake.guild_id) == GuildSettings()


async def test_a_disallowed_ruleset_is_refused_and_games_open_in_the_games_channel(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin, alice = fake.add_member("admin", admin=True), fake.add_member("alice")
    bot = make_bot(tmp_path / "g.sqlite3")
    await fake.start(bot)
    token = await fake.slash(admin, "config rulesets", ruleset="rotl", allowed=False)
    assert "Zero!" in content(fake, token) and "Rise of the Luftwaffe" not in content(fake, token)
    token = await fake.slash(admin, "config rulesets", ruleset="lockedon", allowed=False)
    assert "Down in Flames (Zero!)" in content(fake, token)
    await fake.slash(admin, "config rulesets", ruleset="eagles", allowed=False)
    last = content(fake, await fake.slash(admin, "config rulesets", ruleset="zero", allowed=False))
    assert "At least one ruleset" in last

    token = await fake.slash(alice, "dogfight new", ruleset="rotl", year=1941)
    assert "does not allow Rise of the Luftwaffe games" in content(fake, token)
    assert await bot.service.storage.list_games() == []

    games = fake.add_channel("games")
    await fake.slash(admin, "config channel", channel=games)
    await fake.slash(alice, "dogfight new", ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    assert game.channel_id == games and game.thread_id is not None
    assert int(fake.channels[game.thread_id]["parent_id"]) == games
    await fake.slash(admin, "config language", language="fr")
    french = content(fake, await fake.slash(alice, "dogfight new", ruleset="rotl", year=1941))
    assert "does not allow" in french  # alice's Discord is in English: she gets English


async def test_config_messages_follow_the_admins_locale(fake: FakeDiscord, tmp_path: Path) -> None:
    admin = fake.add_member("admin", admin=True, locale="fr")
    member = fake.add_member("membre", locale="fr")
    bot = make_bot(tmp_path / "g.sqlite3")
    await fake.start(bot)
    shown = content(fake, await fake.slash(admin, "config show"))
    assert "Réglages Tally-Ho de ce serveur" in shown and "24 h pour une décision" in shown
    assert "Gérer le serveur" in content(fake, await fake.slash(member, "config show"))
    saved = content(fake, await fake.slash(admin, "config vacation", max_days=5))
    assert "Enregistré" in saved and "jusqu'à 5 jours" in saved
    # Command descriptions are localised through the translator.
    config = next(c for cmds in fake.commands.values() for c in cmds if c["name"] == "config")
    assert config["description_localizations"]["fr"].startswith("Réglages du serveur")
    action = next(o for o in config["options"] if o["name"] == "default-action")["options"][0]
    names = {c["value"]: c.get("name_localizations", {}).get("fr") for c in action["choices"]}
    assert names == {"pass": "passer", "computer": "ordinateur"}


# ---------------------------------------------------------------- /settings
async def test_settings_dm_off_stops_dms_but_not_the_thread_ping(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "g.sqlite3")
    await fake.start(bot)
    assert "DM when the move is yours: **on**" in content(
        fake, await fake.slash(alice, "settings show")
    )
    token = await fake.slash(alice, "settings dm", enabled="off")
    assert "No more DMs" in content(fake, token)
    await fake.slash(alice, "settings auto-pass", enabled="on")
    shown = content(fake, await fake.slash(alice, "settings show"))
    assert (
        "DM when the move is yours: **off**" in shown and "Auto-pass at deadlines: **on**" in shown
    )

    await fake.slash(alice, "dogfight new", ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(alice, "dogfight join", channel_id=thread, side="allied", aircraft="buffalo-i")
    await fake.slash(bob, "dogfight join", channel_id=thread, side="axis", aircraft="ki-43")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    users = {"A1": alice, "X1": bob}
    pilots = {s: UiPlayer(fake, u, game.id, thread) for s, u in users.items()}
    brains = {"A1": RandomPlayer(3), "X1": RandomPlayer(4)}  # both attack early (seed fixed)
    asked = {"A1": 0, "X1": 0}
    for _ in range(2000):
        state = (await bot.service.load(game.id)).state
        assert state is not None
        if state.step == "over" or min(asked.values()) >= 1:
            break
        p = default_engine().pending(state)[0]
        urgent = p.kind in ("respond", "follow")
        asked[p.seat] += urgent
        action = brains[p.seat].choose(default_engine(), state, p.seat)
        await pilots[p.seat].act(str(action), via_dm=urgent and p.seat == "X1")
    assert min(asked.values()) >= 1, "both players had to respond during the other's turn"
    assert fake.dms(alice) == [] and fake.dms(bob) != []
    pings = [m["content"] for m in fake.sent_to(thread) if "Press **My hand**" in m["content"]]
    assert any(f"<@{alice.id}>" in p for p in pings), "alice is still pinged in the thread"
