"""Snapshots (bot.games): every 50th action is stored with the state after it, and a
game is loaded from its latest snapshot plus the actions after it. One that must not be
trusted (other rules or data, unreadable, or an undo reaching behind it) is ignored and
the whole log replayed: the loaded game is always the one the log replays."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import bot.games
from bot.games import SNAPSHOT_EVERY, GameStore
from bot.later import FollowUp, answer_first, run_follow_ups
from bot.service import GameService, LoadedGame
from bot.storage.models import canonical_json
from bot.storage.sqlite import SQLiteStorage
from engine import ai
from engine.core.snapshots import resume
from engine.dif.ai import RandomPlayer
from engine.dif.system import system as dif_system
from tests.engine.dif.test_mission_properties import random_mission

ALICE, BOB = 101, 202
USERS = {"A1": ALICE, "X1": BOB}


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SQLiteStorage]:
    store = await SQLiteStorage.open(str(tmp_path / "games.sqlite3"))
    yield store
    await store.close()


async def played(service: GameService, actions: int) -> LoadedGame:
    """A Buffalo against a Ki-43, ``actions`` actions logged (the heuristic's moves)."""
    game = await service.new_lobby(
        guild_id=1, channel_id=2, host_id=ALICE, ruleset="zero", year=1942, to_the_death=True
    )
    game = await service.attach_thread(game, 3, 4)
    await service.join(game, ALICE, "alice", "buffalo-i", "allied")
    await service.join(game, BOB, "bob", "ki-43", "axis")
    game = (await service.start(game, ALICE)).game
    return await played_on(service, game, actions)


async def played_on(service: GameService, game: LoadedGame, actions: int) -> LoadedGame:
    """``game`` played on (the heuristic's moves) until ``actions`` actions are logged."""
    player = ai.player("dif", "heuristic", 5)
    while game.record.last_seq < actions:
        assert game.state is not None and not game.system.is_over(game.state)
        seat = game.system.pending(game.state)[0].seat
        action = player.choose(game.state, seat)
        game = (await service.act(game.id, USERS[seat], seat, str(action))).game
    return game


def resumes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the loads that resumed from a snapshot."""
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return resume(*args)

    monkeypatch.setattr(bot.games, "resume", counted)
    return calls


async def test_a_game_loads_from_its_latest_snapshot_and_the_tail(
    storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await played(GameService(storage, seed_source=lambda: 9), SNAPSHOT_EVERY + 7)
    snapshot = await storage.latest_snapshot(live.id)
    assert snapshot is not None and snapshot.seq == SNAPSHOT_EVERY
    calls = resumes(monkeypatch)
    cold = await GameService(storage).load(live.id)
    assert calls == [1]
    system = live.system
    assert system.dump_state(cold.state) == system.dump_state(live.state)


async def test_a_snapshot_is_written_after_the_players_answer(storage: SQLiteStorage) -> None:
    """A move that reaches a snapshot's action is written without it (its transaction
    holds the actions and deadlines only) and answered; the snapshot follows once the
    interaction's task ended, with the state that action reached."""
    service = GameService(storage, seed_source=lambda: 9)
    before = await played(service, SNAPSHOT_EVERY - 3)

    async def click() -> tuple[LoadedGame, list[FollowUp]]:  # an interaction's task
        follow_ups = answer_first()  # what its answer leaves for after it (cogs.boundary)
        game = await played_on(service, before, SNAPSHOT_EVERY)
        assert await storage.latest_snapshot(game.id) is None
        return game, follow_ups

    game, follow_ups = await asyncio.create_task(click())
    assert follow_ups and await storage.latest_snapshot(game.id) is None
    await run_follow_ups(follow_ups)
    snapshot = await storage.latest_snapshot(game.id)
    assert snapshot is not None and snapshot.seq == SNAPSHOT_EVERY
    log = [(a.seat or "", a.action) for a in await storage.load_actions(game.id)]
    at = game.system.replay(game.setup, game.record.seed, log[:SNAPSHOT_EVERY])
    assert snapshot.state == GameStore.snapshot(game, SNAPSHOT_EVERY, at)


def test_a_snapshot_keeps_the_order_of_the_state() -> None:
    """The stores write JSON with sorted keys (``canonical_json``; PostgreSQL's jsonb
    orders them its own way), and Down in Flames deals and fires element by element,
    in the state's order: a Zero! mission whose Axis elements come first, read back
    from a sorted snapshot, played on differently from its log and refused it (seed 2:
    "Your hand holds no BAR"). The dump is stored as text, its order kept."""
    dif = dif_system()
    seed = 2
    setup = random_mission(dif.engine, random.Random(seed))
    state, _ = dif.new_game(setup, seed)
    assert list(state.elements) == ["X1", "A1", "A2", "A3"]
    player = RandomPlayer(seed)
    log: list[tuple[str, str]] = []
    while len(log) < 2 * SNAPSHOT_EVERY and not dif.is_over(state):
        seat = dif.pending(state)[0].seat
        action = player.choose(dif.engine, state, seat)
        state, _ = dif.apply(state, seat, action)
        log.append((seat, str(action)))
    at = dif.replay(setup, seed, log[:SNAPSHOT_EVERY])
    snapshot = GameStore.snapshot(SimpleNamespace(system=dif), SNAPSHOT_EVERY, at)  # type: ignore[arg-type]
    assert snapshot is not None
    stored = json.loads(canonical_json(snapshot))  # as every store writes it
    resumed = resume(dif, json.loads(stored["dump"]), log[SNAPSHOT_EVERY:])
    assert dif.dump_state(resumed) == dif.dump_state(state)


async def test_a_snapshot_of_other_rules_or_unreadable_is_ignored(
    storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    live = await played(GameService(storage, seed_source=lambda: 9), SNAPSHOT_EVERY + 3)
    system = live.system
    calls = resumes(monkeypatch)
    monkeypatch.setattr(bot.games, "code_fingerprint", lambda: "other rules")
    cold = await GameService(storage).load(live.id)
    assert calls == [] and system.dump_state(cold.state) == system.dump_state(live.state)

    monkeypatch.undo()
    calls = resumes(monkeypatch)
    broken = {"code": bot.games.code_fingerprint(), "dump": '{"elements": "not a state"}'}
    await storage.put_snapshot(live.id, SNAPSHOT_EVERY + 2, broken)
    with caplog.at_level(logging.WARNING, logger="bot.games"):
        cold = await GameService(storage).load(live.id)
    assert calls == [1], "it was tried"
    assert system.dump_state(cold.state) == system.dump_state(live.state)
    assert f"snapshot at action {SNAPSHOT_EVERY + 2} cannot be used" in caplog.text


async def test_an_undo_behind_the_snapshot_replays_the_whole_log(
    storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(storage, seed_source=lambda: 9)
    live = await played(service, SNAPSHOT_EVERY)
    assert (await storage.latest_snapshot(live.id)) is not None
    async with service.locks(live.id):
        live = (await service.take_back(live, SNAPSHOT_EVERY, "undo")).game
    cold = await GameService(storage).load(live.id)
    system = live.system
    assert system.dump_state(cold.state) == system.dump_state(live.state)
    rows = await storage.load_actions(live.id)
    replayed = system.replay(
        live.setup, live.record.seed, [(r.seat or "", r.action) for r in rows[:-2]]
    )
    assert system.dump_state(cold.state) == system.dump_state(replayed)


async def test_a_cached_game_evicted_while_its_version_is_read_is_kept(
    storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loads at once on a busy cache: another load may evict a game while its version
    is read (found by bench/latency.py on PostgreSQL: a click failed with a KeyError).
    The cached state is still that version's: it is returned and put back, not lost."""
    service = GameService(storage, seed_source=lambda: 9)
    live = await played(service, 3)
    read = storage.game_version

    async def evicting(game_id: int) -> Any:
        service._forget(game_id)  # another task's load pushed it out meanwhile
        return await read(game_id)

    monkeypatch.setattr(storage, "game_version", evicting)
    calls = resumes(monkeypatch)
    records = []
    get_game = storage.get_game

    async def counted(game_id: int) -> Any:
        records.append(game_id)
        return await get_game(game_id)

    monkeypatch.setattr(storage, "get_game", counted)
    again = await service.load(live.id)
    assert again is live and calls == [], "the cached state, not a load from the database"
    assert records == [], "a cached game is checked by its version alone"
    monkeypatch.setattr(storage, "game_version", read)
    assert await service.load(live.id) is live, "and it is cached again"
