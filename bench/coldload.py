"""Cold-load benchmark: loading a game no process holds, by log length (issue 16).

    python bench/coldload.py [--games N] [--loads N]

Plays N random four-against-four Down in Flames dogfights (``bench/engine.py``'s
``team`` setups, random players) and stores each in a fresh SQLite file through the
storage the bot uses, a snapshot with every ``SNAPSHOT_EVERY``-th action as the bot
writes it. Then loads each game cold (a new ``GameStore`` each time: nothing cached)
``--loads`` times, from its latest snapshot and the tail of the log, and again with the
snapshots ignored (the whole log replayed, what every load did before snapshots).
Prints, per game, the log's length and both medians. Goal: a cold load independent of
the log's length.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.games
from bench.engine import team
from bot.games import GameStore
from bot.storage import GameStatus, SQLiteStorage
from engine.core import registry
from engine.dif.ai import RandomPlayer
from engine.dif.game import default_engine


def random_log(seed: int) -> tuple[Any, list[tuple[str, str, Any]]]:
    """A random 4-v-4 game's setup and its ``(seat, action, state after)`` rows."""
    engine, setup = default_engine(), team(seed)
    state, _ = engine.new_game(setup, seed)
    brain, rows = RandomPlayer(seed), []
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        action = brain.choose(engine, state, seat)
        state, _ = engine.apply(state, seat, action)
        rows.append((seat, str(action), state))
    return setup, rows


async def stored(storage: SQLiteStorage, seed: int) -> tuple[int, int]:
    """The game of ``seed`` written as the bot writes it: its id and log length."""
    setup, rows = random_log(seed)
    record = await storage.create_game(
        guild_id=1,
        channel_id=1,
        host_id=1,
        system="dif",
        ruleset=setup.ruleset,
        seed=seed,
        options={"setup": setup.model_dump(mode="json")},
        status=GameStatus.ACTIVE,
    )
    game = await GameStore(storage).load(record.id)
    version = record.version
    for seq, (seat, text, after) in enumerate(rows, start=1):
        snapshot = GameStore.snapshot(game, seq, after)
        version = await storage.append_action(record.id, version, seat, text, snapshot=snapshot)
    return record.id, len(rows)


async def median_load(storage: SQLiteStorage, game_id: int, loads: int) -> float:
    times = []
    for _ in range(loads):
        t0 = time.perf_counter()
        await GameStore(storage).load(game_id)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


async def main_async(games: int, loads: int) -> None:
    assert registry.get("dif")
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SQLiteStorage.open(str(Path(tmp) / "cold.sqlite3"))
        try:
            made = sorted(
                [await stored(storage, seed) for seed in range(games)], key=lambda g: g[1]
            )
            fingerprint = bot.games.code_fingerprint
            print(f"cold load of a 4-v-4 game, median of {loads} loads (ms)")
            print(f"{'actions':>8} {'snapshot + tail':>16} {'whole log':>10}")
            for game_id, length in made:
                with_snapshot = await median_load(storage, game_id, loads)
                bot.games.code_fingerprint = lambda: "ignore every snapshot"  # type: ignore[assignment]
                try:
                    whole = await median_load(storage, game_id, loads)
                finally:
                    bot.games.code_fingerprint = fingerprint
                print(f"{length:8} {with_snapshot:16.2f} {whole:10.2f}")
        finally:
            await storage.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games of different lengths")
    parser.add_argument("--loads", type=int, default=21, help="cold loads per game")
    args = parser.parse_args()
    asyncio.run(main_async(args.games, args.loads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
