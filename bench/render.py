"""Benchmark the pictures: CPU time per render (layout, draw, PNG encoding) and PNG size.

Run from the repository root::

    python bench/render.py            # 50 renders of each picture
    python bench/render.py -n 200

Times are CPU time of this process (``time.process_time``), not wall time: the
machine the bench runs on is often shared, and wall time there measures the other
processes too. Each figure is the median of the runs.

The pictures:

- DiF 1v1 and 8v8: the hand-built views of ``tests/rendering/test_table.py`` (a
  typical 1v1 with an engagement; eight elements a side over every band). Goals of
  issue 16: the 1v1 under 10 ms, the 8v8 under 30 ms, render (layout, draw and
  encode) included.
- DiF 7v7, turn by turn: every picture of a random 7v7 Zero! dogfight
  (``tests/rendering/test_replay.py``), each drawn once, in order, from empty caches,
  as the bot posts them during a game; the median of those renders, held to the
  8v8's goal.
- The other systems' typical pictures, held to the 8v8's goal (the largest DiF
  picture's budget): a Locked-On 4v4 in mid-fight, the Eagles in the Sky mat with
  three dogfights, a Zero! campaign's sheet.

``warm`` is a render in a running bot: the renderer's caches (fonts, text widths,
glyph masks, text blends and rounded corners: :func:`rendering.table.clear_caches`)
hold what earlier pictures drew (the same picture, or a game's earlier turns).
``cold`` empties them before each
render: the first picture after start-up. The goals apply to ``warm``; ``layout``,
``draw`` and ``encode`` are its three steps. Not part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# First on the path: bench/engine.py (this script's folder comes first) would shadow
# the engine package.
sys.path.insert(0, str(ROOT))

from rendering.campaign import layout_sheet  # noqa: E402
from rendering.registry import renderer  # noqa: E402
from rendering.shapes import Layout  # noqa: E402
from rendering.table import clear_caches, draw_layout, encode_png  # noqa: E402

GOAL_1V1_MS = 10.0
GOAL_8V8_MS = 30.0
GOAL_BYTES = 300_000


@dataclass(frozen=True)
class Case:
    """A picture to time: its layouts (one, or a game's, turn by turn) and goal."""

    name: str
    layouts: Sequence[Callable[[], Layout]]
    goal_ms: float


def _test_module(name: str) -> ModuleType:
    """A test module holding view builders, loaded by path (tests/ is no package)."""
    path = ROOT / "tests" / "rendering" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_render_bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sky(system_id: str, view: Any) -> Callable[[], Layout]:
    return lambda: renderer(system_id).layout(view)


def _cases() -> list[Case]:
    table = _test_module("test_table")
    replay = _test_module("test_replay")
    lockedon = _test_module("test_lockedon_picture")
    eagles = _test_module("test_eagles_picture")
    campaign = _test_module("test_campaign_picture")
    game = [_sky("dif", view) for view, _ in replay.frames_of(replay.game(7))]
    fight = [lo.view(state, None) for lo, state in lockedon._states(seed=3, steps=40)]
    sheet = campaign.sheet_midway()
    return [
        Case("DiF 1v1 (typical)", [_sky("dif", table.view_1v1())], GOAL_1V1_MS),
        Case("DiF 8v8", [_sky("dif", table.view_8v8())], GOAL_8V8_MS),
        Case(f"DiF 7v7, {len(game)} turns", game, GOAL_8V8_MS),
        Case("Locked-On 4v4", [_sky("lockedon", fight[len(fight) // 2])], GOAL_8V8_MS),
        Case("Eagles 3 fights", [_sky("eagles", eagles.three_dogfights())], GOAL_8V8_MS),
        Case("Zero! campaign", [lambda: layout_sheet(sheet)], GOAL_8V8_MS),
    ]


def _render(make: Callable[[], Layout]) -> tuple[bytes, list[float]]:
    """One picture as PNG, and the CPU ms of its layout, drawing and encoding."""
    times = [time.process_time()]
    layout = make()
    times.append(time.process_time())
    image = draw_layout(layout)
    times.append(time.process_time())
    png = encode_png(image)
    times.append(time.process_time())
    return png, [(b - a) * 1000 for a, b in itertools.pairwise(times)]


def _measure(case: Case, runs: int) -> dict[str, float]:
    """Median CPU ms of a render and of each of its steps, warm and cold.

    One picture is drawn once to fill the caches, then ``runs`` times. A game's
    pictures are drawn once each, in order, from empty caches: each turn finds in
    them what the earlier turns drew, as in a running bot.
    """
    clear_caches()
    repeats = runs if len(case.layouts) == 1 else 1
    if repeats > 1:
        _render(case.layouts[0])
    warm = [_render(make)[1] for make in case.layouts for _ in range(repeats)]
    cold = []
    for make in case.layouts:
        for _ in range(repeats):
            clear_caches()
            cold.append(sum(_render(make)[1]))
    figures = {
        step: statistics.median(times[i] for times in warm)
        for i, step in enumerate(("layout", "draw", "encode"))
    }
    figures["render"] = statistics.median(sum(times) for times in warm)
    figures["cold"] = statistics.median(cold)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=50, help="renders per picture")
    args = parser.parse_args(argv)

    print(
        f"CPU time (time.process_time), median of {args.runs} renders (a game: of its "
        f"turns); goals (issue 16): DiF 1v1 < {GOAL_1V1_MS:.0f} ms, 8v8 and the rest "
        f"< {GOAL_8V8_MS:.0f} ms, PNG < {GOAL_BYTES:,} bytes"
    )
    print(
        f"{'picture':22} {'size':>9}  {'warm':>6} {'goal':>6}  {'cold':>6}  "
        f"{'layout':>6} {'draw':>6} {'encode':>6}  {'png bytes':>9}"
    )
    failed = False
    for case in _cases():
        figures = _measure(case, args.runs)
        # The largest picture (of a game's turns): its size, and its PNG's.
        image = max((draw_layout(make()) for make in case.layouts), key=lambda i: i.height)
        png = encode_png(image)
        ok = figures["render"] < case.goal_ms and len(png) < GOAL_BYTES
        failed |= not ok
        print(
            f"{case.name:22} {image.width:>4}x{image.height:<4}  "
            f"{figures['render']:6.1f} {'< ' + format(case.goal_ms, '.0f'):>6}  "
            f"{figures['cold']:6.1f}  {figures['layout']:6.1f} {figures['draw']:6.1f} "
            f"{figures['encode']:6.1f}  {len(png):>9,}  {'ok' if ok else 'OVER GOAL'}"
        )
    print("ms of CPU; warm: caches full (a running bot), cold: emptied (after start-up)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
