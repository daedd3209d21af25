"""Benchmark the spectators' picture: median render time and PNG size, 1v1 and 8v8.

Run from the repository root::

    python bench/render.py            # 50 renders of each view
    python bench/render.py -n 200

The views are the hand-built ones of ``tests/rendering/test_table.py`` (a typical
1v1 with an engagement; eight elements a side over every band). Not part of the
test suite: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(ROOT))

from rendering.dif import layout_table, render_table  # noqa: E402
from rendering.table import draw_layout, encode_png  # noqa: E402

GOAL_MS = 50.0
GOAL_BYTES = 300_000


def _test_views() -> ModuleType:
    """The test module holding the view builders, loaded by path (tests/ is no package)."""
    path = ROOT / "tests" / "rendering" / "test_table.py"
    spec = importlib.util.spec_from_file_location("_render_bench_views", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=50, help="renders per view")
    args = parser.parse_args(argv)

    views = _test_views()
    cases = {"1v1 (typical)": views.view_1v1(), "8v8": views.view_8v8()}
    print(f"median of {args.runs} renders; goals: < {GOAL_MS:.0f} ms, < {GOAL_BYTES:,} bytes")
    failed = False
    for name, view in cases.items():
        png = render_table(view)  # warm up: fonts load once per process
        layout = layout_table(view)
        image = draw_layout(layout)
        total = _median_ms(partial(render_table, view), args.runs)
        steps = {
            "layout": _median_ms(partial(layout_table, view), args.runs),
            "draw": _median_ms(partial(draw_layout, layout), args.runs),
            "encode": _median_ms(partial(encode_png, image), args.runs),
        }
        ok = total < GOAL_MS and len(png) < GOAL_BYTES
        failed |= not ok
        detail = ", ".join(f"{step} {ms:.1f}" for step, ms in steps.items())
        print(
            f"{name:14} {image.width}x{image.height}  "
            f"render {total:6.1f} ms (goal < {GOAL_MS:.0f})  "
            f"png {len(png):>8,} bytes (goal < {GOAL_BYTES:,})  "
            f"{'ok' if ok else 'OVER GOAL'}  [{detail} ms]"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
