"""The game service without Discord: lobby, seats, moves, persistence."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.service import GameService, LoadedGame, describe_action
from bot.storage.sqlite import SQLiteStorage
from engine.dif.actions import Action
from engine.dif.game import default_engine

ALICE, BOB, CAROL = 101, 202, 303


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = await SQLiteStorage.open(str(tmp_path / "games.sqlite3"))
    yield GameService(storage, default_engine(), seed_source=lambda: 77)
    await storage.close()


async def lobby(service: GameService, year: int = 1942) -> LoadedGame:
    game = await service.new_lobby(
        guild_id=1, channel_id=2, host_id=ALICE, ruleset="zero", year=year, to_the_death=False
    )
    return await service.attach_thread(game, 3, 4)


async def started(service: GameService) -> LoadedGame:
    game = await lobby(service)
    await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    await service.join(game, BOB, "bob", "Ki-43", None)
    outcome = await service.start(game, ALICE)
    return outcome.game


async def test_joining_checks_side_year_and_seats(service: GameService) -> None:
    game = await lobby(service, year=1940)
    with pytest.raises(UserError, match="entered service in 1941, after 1940"):
        await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    with pytest.raises(UserError, match="flies for the Japanese side"):
        await service.join(game, ALICE, "alice", "a6m2", "allied")
    with pytest.raises(UserError, match="Unknown aircraft"):
        await service.join(game, ALICE, "alice", "sopwith camel", None)
    await service.join(game, ALICE, "alice", "f4f", "allied")
    with pytest.raises(UserError, match="seat is taken"):
        await service.join(game, CAROL, "carol", "spitfire-i", "allied")
    with pytest.raises(UserError, match="other side"):
        await service.join(game, ALICE, "alice", "a6m2", "axis")
    with pytest.raises(UserError, match="Both sides"):
        await service.start(game, ALICE)


async def test_only_the_host_starts_and_only_once(service: GameService) -> None:
    game = await lobby(service)
    await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    await service.join(game, BOB, "bob", "ki-43", "axis")
    with pytest.raises(UserError, match="host"):
        await service.start(game, BOB)
    outcome = await service.start(game, ALICE)
    assert {p.seat for p in outcome.prompts} == {"A1", "X1"}
    with pytest.raises(UserError, match="already started"):
        await service.start(game, ALICE)


async def test_a_refused_move_changes_nothing(service: GameService) -> None:
    game = await started(service)
    version = game.record.version
    with pytest.raises(UserError, match=r"turbocharged.*4\.5"):
        await service.act(game.id, ALICE, None, "alt VH")
    with pytest.raises(UserError, match="not playing"):
        await service.act(game.id, CAROL, None, "alt M")
    with pytest.raises(UserError, match="another player"):
        await service.act(game.id, BOB, "A1", "alt M")
    with pytest.raises(UserError, match="unknown action"):
        await service.act(game.id, ALICE, None, "loop the loop")
    assert (await service.load(game.id)).record.version == version
    assert await service.storage.load_actions(game.id) == []


async def test_a_stale_button_is_refused(service: GameService) -> None:
    game = await started(service)
    old = game.record.version
    await service.act(game.id, ALICE, "A1", "alt M", version=old)
    with pytest.raises(UserError, match="out of date"):
        await service.act(game.id, BOB, "X1", "alt M", version=old)


async def test_moves_are_stored_and_a_new_service_resumes_them(service: GameService) -> None:
    game = await started(service)
    await service.act(game.id, ALICE, None, "alt L")
    outcome = await service.act(game.id, BOB, None, "alt L")
    assert any("Altitudes revealed" in line for line in outcome.public)
    assert outcome.image is True, "the first player-turn starts: time for a picture"
    # What A1 drew is private to A1.
    assert all("You drew" not in line for line in outcome.public)
    assert any("You drew" in line for line in outcome.private["A1"])
    state = (await service.load(game.id)).state
    assert state is not None
    fresh = GameService(service.storage, default_engine())
    again = (await fresh.load(game.id)).state
    assert again is not None and again.to_json() == state.to_json()


async def test_the_public_log_hides_picks_until_both_are_made(service: GameService) -> None:
    game = await started(service)
    await service.act(game.id, ALICE, None, "alt H")
    text = await service.public_log(await service.load(game.id))
    assert "A1: alt ?" in text and "alt H" not in text


async def test_button_labels_read_like_moves(service: GameService) -> None:
    game = await started(service)
    await service.act(game.id, ALICE, None, "alt M")
    await service.act(game.id, BOB, None, "alt M")
    state = (await service.load(game.id)).state
    assert state is not None
    labels = {
        describe_action(service.engine, state, Action.from_text(t))
        for t in ("play MAN X1L", "play VER down", "dive", "pass", "discard", "play MAN=SCI X1L")
    }
    assert labels == {
        "Maneuvering → Ki-43 Oscar (X1)",
        "Vertical Roll: dive to Low",
        "Dive to Low (draw a card)",
        "No response",
        "Keep all cards",
        "Maneuvering as Scissors → Ki-43 Oscar (X1)",
    }
