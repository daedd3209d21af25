"""The chaos test (``bench/chaos.py``, which describes it): the bot in a process of
its own on the offline Discord (``bot.testing.remote``), driven through whole games by
scripted players and killed with SIGKILL at least 200 times, inside clicks, inside
deadline firings, idle and while it starts; restarted on the same database each time.
Every game finishes, its log is exactly what the players and the deadlines did and
replays to its result, and its thread told every step once, in order.

The soak: ``python bench/chaos.py --games 4 --kills 2000``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.chaos import chaos

KILLS = 200


@pytest.mark.slow
def test_kills_lose_nothing_and_duplicate_nothing(tmp_path: Path) -> None:
    report = asyncio.run(chaos(tmp_path, games=2, kills=KILLS, seed=20261202))
    assert report.failures == []
    assert report.duplicates == 0 and report.gaps == 0
    assert report.kills >= KILLS
    # About 30% land inside a click (a round may have no click in flight: a player is
    # away, a game waits for a deadline); a click takes milliseconds, so which kill
    # lands in one varies with the machine's speed.
    assert report.kills_in_click >= KILLS // 5, "kills land inside clicks"
    assert report.kills_committed_untold > 0, "some between a commit and its post"
    assert report.kills_in_firing > 0 and report.defaults > 0, "and inside deadline firings"
    assert report.kills_in_startup > 0, "and while the bot starts"
    assert report.already_played > 0, "a click retried after it went through is told so"
    assert report.games >= 2 and report.steps > 0
