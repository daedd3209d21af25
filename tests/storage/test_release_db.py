"""A database written by the previous release loads, shows the same texts, and its
open game plays on to the end.

``fixtures/release-0.1.sqlite3`` was written by the release before the generic bot
(``fixtures/make_release_db.py`` says how); ``fixtures/release-0.1.json`` is what that
release showed about it. Stored payloads (seats' ``aircraft``/``wingman``/``pilot``,
lobby options ``year``/``to_the_death``/``vp_bonus``/``format``) and logs must keep
loading, replaying and verifying unchanged.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.archive import Archive, archive
from bot.games import LoadedGame
from bot.listing import list_text, open_games
from bot.logfile import export_log
from bot.prompts import hand_text
from bot.report import report_text
from bot.service import GameService
from bot.storage.sqlite import SQLiteStorage
from bot.verify import verify_log
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine
from strings import NARRATION, tr

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "release-0.1.json").read_text("utf-8"))
LANGUAGES = ("en", "fr")
SINCE_RELEASE: tuple[tuple[str, str, str], ...] = (
    # An aircraft that took hits that flipped no card (5.21) reads "hit", not "unharmed".
    ("en", "bob: **unharmed** (hits taken 2,", "bob: **hit**, card not flipped (hits taken 2,"),
    (
        "fr",
        "bob : **indemne** (coups reçus 2,",
        "bob : **touché**, carte non retournée (coups reçus 2,",
    ),
    # A side in a sentence is its phrase: "le camp de l'Axe", not "le camp Axe".
    ("fr", "le camp Axe commence avec", "le camp de l'Axe commence avec"),
    ("fr", "il donnerait 3 PV au camp Japonais.", "le camp japonais commencerait avec 3 PV."),
)
"""Texts reworded on purpose since the release: ``(language, what the release showed,
what is shown now)``. The fixture stays as the release wrote it; a rewording is added
here, so every difference from the release is one somebody chose."""


def shown_now(text: str, language: str) -> str:
    """What the release showed, with the rewordings made since (:data:`SINCE_RELEASE`)."""
    for lang, before, after in SINCE_RELEASE:
        if lang == language:
            text = text.replace(before, after)
    return text


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    db = tmp_path / "release.sqlite3"
    shutil.copy(FIXTURES / "release-0.1.sqlite3", db)
    storage = await SQLiteStorage.open(str(db))
    try:
        yield GameService(storage)
    finally:
        await storage.close()


async def test_every_game_shows_what_the_release_showed(service: GameService) -> None:
    history = archive(service)
    for gid in (1, 2, 3, 4):
        expected = EXPECTED[str(gid)]
        game = await service.load(gid)
        assert game.record.status.value == expected["status"]
        for lang in LANGUAGES:
            assert service.lobby_text(game, lang) == shown_now(expected["lobby"][lang], lang)
        if game.state is None:
            continue
        assert game.record.version == expected["version"]
        for lang in LANGUAGES:
            assert service.status_text(game, lang) == shown_now(expected["status_text"][lang], lang)
        assert [list(f) for f in await release_logs(history, game)] == expected["log_files"]
        assert [name for name, _ in await history.log_files(game)] == [
            name for name, _ in expected["log_files"]
        ]
        for name, text in expected["log_files"]:  # the files players saved then
            if game.record.status.value != "active":  # the seed is revealed
                checked = verify_log(text)
                assert checked.ok, (name, checked.text())
                assert checked.checks[2].text.key == narration_checked(1), name
        pending = game.system.pending(game.state)
        assert [(p.seat, p.kind) for p in pending] == [
            (e["seat"], e["kind"]) for e in expected["pending"]
        ]
        for p, e in zip(pending, expected["pending"], strict=True):
            assert [str(a) for a in service.legal(game, p.seat)] == e["legal"]
            for lang in LANGUAGES:
                assert tr(service.prompt_text(game, p), lang) == shown_now(e["prompt"][lang], lang)
                assert hand_text(game, p.seat, language=lang) == shown_now(e["hand"][lang], lang)
        if "verify" in expected:
            verified = await history.verify(game)
            assert verified.ok
            for lang in LANGUAGES:
                assert verified.text(lang) == shown_now(expected["verify"][lang], lang)
        if "report" in expected:
            assert game.record.result == expected["result"]
            report = await history.report(game)
            for lang in LANGUAGES:
                shown = shown_now(expected["report"][lang], lang)
                assert report_text(report, language=lang) == shown
    guild = (await service.load(1)).record.guild_id
    lines, total = await open_games(service, guild)
    for lang in LANGUAGES:
        assert list_text(lines, total, language=lang) == shown_now(EXPECTED["list"][lang], lang)


async def release_logs(history: Archive, game: LoadedGame) -> list[tuple[str, str]]:
    """The game's log files in the narration wording of the release (version 1): the
    same bytes as the files it exported, although the narration was reworded since."""
    replayed, info = await history.history(game), history.info(game)
    files = [(f"dogfight-{game.id}.txt", export_log(replayed, info, narration=1))]
    if info.over:
        full = export_log(replayed, info, full=True, narration=1)
        files.append((f"dogfight-{game.id}-full.txt", full))
    return files


def narration_checked(version: int) -> str:
    """The key of the verification's line for narration of ``version`` found right."""
    return "verify.narration_ok" if version == NARRATION else "verify.narration_ok_then"


async def test_a_log_saved_by_the_release_still_verifies_and_an_edit_still_fails() -> None:
    name, text = EXPECTED["1"]["log_files"][1]  # the full log of the finished game
    assert name == "dogfight-1-full.txt" and "# narration:" not in text
    assert verify_log(text).ok
    edited = text.replace("draws 2 cards.", "draws 3 cards.", 1)
    assert edited != text and not verify_log(edited).ok
    newer = text.replace("# hands: shown", f"# hands: shown\n# narration: {NARRATION + 1}")
    refused = verify_log(newer)
    assert not refused.ok and refused.checks[0].text.key == "verify.narration_unknown"


async def test_the_open_game_plays_on_to_the_end_and_verifies(service: GameService) -> None:
    game = await service.load(2)
    assert game.state is not None
    players = EXPECTED["2"]["players"]
    brain = RandomPlayer(2026)
    for _ in range(5000):
        game = await service.load(2)
        state = game.state
        assert state is not None
        if game.record.status.value != "active":
            break
        p = default_engine().pending(state)[0]
        action = brain.choose(default_engine(), state, p.seat)
        await service.act(game.id, players[p.seat], p.seat, str(action))
    game = await service.load(2)
    assert game.record.status.value == "finished" and game.record.result
    verified = await archive(service).verify(game)
    assert verified.ok, verified.text()
    files = await archive(service).log_files(game)
    assert [name for name, _ in files] == ["dogfight-2.txt", "dogfight-2-full.txt"]
    # the log written before the upgrade is the beginning of the log after it, in the
    # release's wording; in today's, the same actions (and it verifies: above)
    before = EXPECTED["2"]["log_files"][0][1].split("\n[")
    after = (await release_logs(archive(service), game))[0][1].split("\n[")
    assert after[1 : len(before) - 1] == before[1:-1]
    today = [part.split("\n")[0] for part in files[0][1].split("\n[")]
    assert today[1 : len(before) - 1] == [part.split("\n")[0] for part in before[1:-1]]
    assert verify_log(files[1][1]).ok
    assert (f"# narration: {NARRATION}" in files[1][1]) == (NARRATION > 1)
