"""/help through the offline Discord: pages, navigation, languages, the Help button."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.testing import FakeDiscord
from bot.testing.driver import components_of, wait_for_new_game
from cogs.app import TallyHoBot
from cogs.help import PAGE_KEYS, PAGE_LIMIT, PAGES, page_text
from strings import SUPPORTED, t

SEED = 20261130


def make_bot(db: Path) -> TallyHoBot:
    return TallyHoBot(database=str(db), seed_source=lambda: SEED)


def button(message: dict[str, Any], way: str) -> dict[str, Any]:
    return next(
        c for c in components_of(message) if str(c.get("custom_id", "")).endswith(f":{way}")
    )


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_page_fits_one_message(language: str) -> None:
    for n, page in enumerate(PAGES):
        text = page_text(n, language)
        assert len(text) <= PAGE_LIMIT, (language, page, len(text))
        assert t(PAGE_KEYS[page][0], language) in text


def test_the_rules_pages_cite_their_sections() -> None:
    zero = t(PAGE_KEYS["rules_zero"][1])
    for section in ("3.0", "4.7", "6.0", "6.4", "7.0", "8.3", "10.0", "4.92"):
        assert f"{section}" in zero
    for word in ("Sequence of play", "Position", "Bursts", "Responses", "Wingmen", "Altitude"):
        assert word.lower() in zero.lower()
    rotl = t(PAGE_KEYS["rules_rotl"][1])
    assert "Victory Point Table" in rotl and "Following an Altitude Change" in rotl
    assert "shared" not in zero + rotl  # the rulebooks' own titles, never a local path


async def test_help_pages_forward_and_back(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_member("alice")
    bot = make_bot(tmp_path / "h.sqlite3")
    await fake.start(bot)
    token = await fake.slash(alice, "help")
    first = fake.original(token)
    assert first["flags"] & 64  # only alice sees it
    assert (
        "Tally-Ho: getting started" in first["content"]
        and f"Page 1/{len(PAGES)}" in first["content"]
    )
    assert button(first, "p").get("disabled") is True

    await fake.click(alice, first, button(first, "n")["custom_id"])
    second = fake.messages[int(first["id"])]  # edited in place
    assert (
        "/dogfight: opening and joining" in second["content"]
        and f"Page 2/{len(PAGES)}" in second["content"]
    )
    await fake.click(alice, second, button(second, "n")["custom_id"])
    third = fake.messages[int(first["id"])]
    assert "Playing your turn" in third["content"]
    await fake.click(alice, third, button(third, "p")["custom_id"])
    assert f"Page 2/{len(PAGES)}" in fake.messages[int(first["id"])]["content"]

    message = fake.messages[int(first["id"])]
    await fake.click(alice, message, "th:help:topic", values=[str(PAGES.index("rules_rotl"))])
    rotl = fake.messages[int(first["id"])]
    assert "Rise of the Luftwaffe, what differs" in rotl["content"]
    await fake.click(alice, rotl, "th:help:topic", values=[str(PAGES.index("rules_lockedon"))])
    lockedon = fake.messages[int(first["id"])]
    assert "Rules: Down in Flames: Locked-On" in lockedon["content"], "each system's rules page"
    await fake.click(alice, lockedon, "th:help:topic", values=[str(len(PAGES) - 1)])
    last = fake.messages[int(first["id"])]
    assert "Rules: Eagles in the Sky" in last["content"], "the last system's rules page last"
    assert button(last, "n").get("disabled") is True

    token = await fake.slash(alice, "help", topic="rules_zero")
    assert "Down in Flames, basic game (Zero!)" in fake.original(token)["content"]


async def test_a_french_locale_gets_french_help(fake: FakeDiscord, tmp_path: Path) -> None:
    amelie = fake.add_member("amélie", locale="fr")
    hans = fake.add_member("hans", locale="de")
    admin = fake.add_member("admin", admin=True)
    bot = make_bot(tmp_path / "h.sqlite3")
    await fake.start(bot)
    page = fake.original(await fake.slash(amelie, "help"))
    assert "Tally-Ho : pour commencer" in page["content"]
    assert button(page, "n")["label"] == "Suivant"
    await fake.click(amelie, page, button(page, "n")["custom_id"])
    assert "/dogfight : ouvrir une partie" in fake.messages[int(page["id"])]["content"]

    # No German catalogue: English, until the server's language is French.
    assert "getting started" in fake.original(await fake.slash(hans, "help"))["content"]
    await fake.slash(admin, "config language", language="fr")
    assert "pour commencer" in fake.original(await fake.slash(hans, "help"))["content"]
    # The command itself is described in French for French clients.
    synced = next(c for cmds in fake.commands.values() for c in cmds if c["name"] == "help")
    assert synced["description_localizations"]["fr"].startswith("Comment jouer")


async def test_game_messages_carry_a_help_button(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = make_bot(tmp_path / "h.sqlite3")
    await fake.start(bot)
    await fake.slash(alice, "dogfight new", ruleset="zero", year=1942)
    game = await wait_for_new_game(fake, bot.service.storage)
    thread = game.thread_id
    assert thread is not None
    await fake.slash(alice, "dogfight join", channel_id=thread, side="allied", aircraft="buffalo-i")
    await fake.slash(bob, "dogfight join", channel_id=thread, side="axis", aircraft="ki-43")
    await fake.slash(alice, "dogfight start", channel_id=thread)
    started = next(m for m in fake.sent_to(thread) if "The dogfight begins" in m["content"])
    ids = [c.get("custom_id") for c in components_of(started)]
    assert f"th:hand:{game.id}" in ids and "th:help" in ids
    token = await fake.click(bob, started, "th:help")
    page = fake.original(token)
    assert page["flags"] & 64 and "getting started" in page["content"]
