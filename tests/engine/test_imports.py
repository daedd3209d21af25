"""The engine is a library: importing all of it loads no Discord, asyncio, database or imaging."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FORBIDDEN = ("discord", "asyncio", "aiosqlite", "PIL")

SCRIPT = """
import importlib, pkgutil, sys
import engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
for name in names:
    importlib.import_module(name)
from engine.dif.game import default_engine
default_engine()  # loading the shipped data too
bad = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))
print(len(names), ",".join(bad))
"""


def test_importing_every_engine_module_loads_no_discord_asyncio_aiosqlite_or_pil() -> None:
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, *FORBIDDEN],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    count, bad = int(out[0]), out[1] if len(out) > 1 else ""
    assert count >= 15, "every engine module was found and imported"
    assert bad == "", f"the engine imported {bad}"
