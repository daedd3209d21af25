"""Every benchmark in ``bench/`` still runs: each one, on the smallest input, in a
process of its own, as a maintainer would start it (``python bench/NAME.py``).

The benches are not tests (their figures depend on the machine), but a bench that no
longer starts is found only when someone needs its figures, maybe sessions later. What
CI does not run is not checked: these check that each one starts, measures and prints
its report, not what it measures: a bench that exits 1 when a figure misses its goal
on this machine (``bench/render.py``) may, but none may fail otherwise. (``bench/chaos.py`` is run by ``tests/chaos``, and
``bench/eagles_scenarios.py`` plays eight whole scenarios, too long for here: the
Eagles scenario tests play them.)
"""

from __future__ import annotations

import os
import pstats
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BENCHES = [
    ("engine.py", ["--games", "2"], "4-v-4"),
    ("coldload.py", ["--games", "1", "--loads", "1"], "snapshot + tail"),
    ("scheduler.py", ["--games", "50"], "deadlines fired: 50"),
    ("fingerprint.py", ["--games", "2"], "total"),
    ("render.py", ["-n", "2"], "DiF 8v8"),
    ("campaigns.py", ["--campaigns", "1"], "whole campaign"),
    (
        "ai.py",
        ["--games", "1", "--pairings", "random-heuristic", "--jobs", "1", "--systems", "dif"],
        "heuristic decisions",
    ),
    (
        "latency.py",
        [
            *("--database", "both", "--games", "4", "--advance", "5", "--clicks", "20"),
            *("--burst", "3", "--floor", "10", "--cached", "50", "--statements", "3"),
            *("--profile", "profiles"),
        ],
        # PostgreSQL's statements, then SQLite's (and no click failed: it would exit 1);
        # the profiles are read below
        (
            "the server's time by statement",
            "SQLite's statements over",
            "profile of the bursts",
            "the bursts profiled, by layer",
            "the same requests alone",
        ),
    ),
]

GOALS_EXIT = {"render.py"}
"""Benches whose exit code says whether every figure met its goal."""


@pytest.mark.parametrize(("script", "args", "said"), BENCHES, ids=[b[0] for b in BENCHES])
def test_bench_runs(
    script: str, args: list[str], said: str | tuple[str, ...], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    goals = script in GOALS_EXIT and done.returncode == 1 and "OVER GOAL" in done.stdout
    assert done.returncode == 0 or goals, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    for words in (said,) if isinstance(said, str) else said:
        assert words in done.stdout, done.stdout[-3000:]
    if "--profile" in args:  # each database's two profiles, each one readable
        folder = tmp_path / args[args.index("--profile") + 1]
        written = sorted(path.name for path in folder.glob("*.pstats"))
        databases = ("postgresql", "sqlite")
        assert written == [
            f"{db}-{part}.pstats" for db in databases for part in ("bursts", "moves")
        ]
        for path in folder.glob("*.pstats"):
            assert pstats.Stats(str(path)).total_calls > 0


def test_every_bench_is_run_here_or_elsewhere() -> None:
    """A new bench is added to :data:`BENCHES` (or named in this module's docstring)."""
    run_here = {b[0] for b in BENCHES}
    for path in sorted((ROOT / "bench").glob("*.py")):
        assert path.name in run_here or f"bench/{path.name}" in (__doc__ or ""), path.name


def test_the_bursts_time_is_told_by_layer() -> None:
    """``bench/latency.py``'s layers: a function's own time goes to the layer of its
    file; a builtin's, or the standard library's, to its callers' layers as the profile
    splits it among them, up the calls (a recursion is not followed round); the
    selector's wait is idle time, shown apart from the shares."""
    sys.path.insert(0, str(ROOT))
    from bench.latency import IDLE, layers_lines, layers_of

    apply = ("/src/engine/dif/game.py", 72, "apply")
    message = ("/venv/site-packages/discord/message.py", 2193, "__init__")
    write = ("/src/bot/storage/sqlite.py", 580, "_write")
    encode = ("/usr/lib/python3.11/json/encoder.py", 205, "iterencode")
    dumps = ("/usr/lib/python3.11/json/__init__.py", 183, "dumps")
    sort = ("~", 0, "<built-in method builtins.sorted>")
    poll = ("~", 0, "<method 'poll' of 'select.epoll' objects>")
    # (calls, primitive calls, own time, cumulative time, {caller: (..., own time there, ...)})
    table = {
        apply: (1, 1, 0.3, 0.5, {}),
        message: (1, 1, 0.1, 0.2, {}),
        sort: (2, 2, 0.2, 0.2, {apply: (1, 1, 0.15, 0.15), message: (1, 1, 0.05, 0.05)}),
        write: (1, 1, 0.05, 0.2, {}),
        dumps: (1, 1, 0.02, 0.12, {write: (1, 1, 0.02, 0.12)}),
        encode: (2, 1, 0.1, 0.1, {dumps: (1, 1, 0.08, 0.1), encode: (1, 0, 0.02, 0.02)}),
        poll: (3, 3, 0.4, 0.4, {}),
    }
    stats = pstats.Stats.__new__(pstats.Stats)
    stats.stats = table  # type: ignore[attr-defined]

    spent = layers_of(stats)

    assert spent["engine"] == pytest.approx(0.45)
    assert spent["discord.py"] == pytest.approx(0.15)
    assert spent["bot.storage"] == pytest.approx(0.05 + 0.02 + 0.1)
    assert spent[IDLE] == pytest.approx(0.4)
    assert sum(spent.values()) == pytest.approx(sum(row[2] for row in table.values()))
    lines = layers_lines(stats, moves=10)
    assert "engine" in lines[0] and "45.000 ms a move" in lines[0] and "58.4%" in lines[0]
    assert IDLE in lines[-1] and "40.000 ms a move" in lines[-1] and "%" not in lines[-1]


def test_a_requests_shape_is_what_it_carried() -> None:
    """``bench/latency.py`` repeats the bot's requests alone from their shapes: an
    interaction's answer carries its message in ``data``, a post carries it whole."""
    from bench.latency import shape

    row = {"type": 1, "components": [{"type": 2}, {"type": 2}]}
    answer = {"type": 4, "data": {"content": "✅ done", "components": [row, row]}}
    assert shape(answer, []) == {"characters": 6, "components": 4, "files": 0, "bytes": 0}
    post = {"content": "Turn 3", "components": [row]}
    carried = shape(post, [("sky.png", b"12345")])
    assert carried == {"characters": 6, "components": 2, "files": 1, "bytes": 5}
    assert shape(None, []) == {"characters": 0, "components": 0, "files": 0, "bytes": 0}
