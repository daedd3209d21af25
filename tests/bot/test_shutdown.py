"""A graceful shutdown: SIGTERM or SIGINT closes the gate (late interactions are told
the bot is restarting), lets the moves in flight finish, stops the deadline
scheduler, closes the client and then the database."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.testing import FakeDiscord
from cogs.app import TallyHoBot, serve
from tests.bot.clocked import FIXED, SEED, open_duel

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_serving_bot_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    database = tmp_path / "tallyho.sqlite3"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.serve_offline", str(database)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready"
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "INFO cogs.app: shutting down: 0 interaction(s) in flight" in err
    assert f"INFO cogs.app: stopped: the database {database} is closed" in err
    assert "Traceback" not in err
    # Closed: the last connection checkpointed the WAL into the file and removed it.
    assert not Path(f"{database}-wal").exists()
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)


async def test_shutdown_refuses_late_interactions_and_lets_a_move_in_flight_finish(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    bot = TallyHoBot(database=str(tmp_path / "g.sqlite3"), seed_source=lambda: SEED)
    game_id, thread = await open_duel(fake, bot, alice, bob, fixed=FIXED)
    assert bot.deadlines is not None
    scheduler = bot.deadlines.scheduler
    assert scheduler.running
    async with bot.service.locks(game_id):  # a move in flight waits for the game's lock
        moving = await fake.slash(alice, "play", channel_id=thread, text="stay")
        shutdown = asyncio.create_task(bot.shutdown(grace=30))
        await fake.settle()
        assert bot.gate.closed and bot.gate.inflight == 1
        late = await fake.slash(bob, "game status", channel_id=thread)
        assert fake.original(late)["content"] == (
            "⏳ The bot is restarting: try again in a minute. Nothing was changed."
        )
        assert not shutdown.done()
    await shutdown
    assert fake.original(moving)["content"].startswith("✅ Done."), "answered before closing"
    assert bot.is_closed() and bot.storage is None and bot.deadlines is None
    assert not scheduler.running
    with sqlite3.connect(tmp_path / "g.sqlite3") as db:
        actions = db.execute("SELECT seat, action FROM actions WHERE game_id = ?", (game_id,))
        assert ("A1", "stay") in actions.fetchall(), "the move in flight was committed"


async def test_a_connection_that_fails_is_raised_once_the_bot_is_closed(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A wrong token ends the connection: ``serve`` closes the bot (the database
    too) and raises the error, as ``Client.run`` did."""
    bot = TallyHoBot(database=str(tmp_path / "g.sqlite3"), seed_source=lambda: SEED)

    async def refused() -> None:
        await fake.start(bot)
        raise RuntimeError("improper token")

    with pytest.raises(RuntimeError, match="improper token"):
        await serve(bot, refused())
    assert bot.is_closed() and bot.storage is None
