"""Every file the bot reads at run time ships in the wheel (package data).

The bot must work from an installed wheel, not only from a checkout: data YAML,
fonts and SQL migrations are package data, declared in pyproject.toml. This test
fails when a new such file would be left out of the wheel.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME_SUFFIXES = {".yaml", ".yml", ".ttf", ".sql", ".json"}


def test_runtime_files_are_declared_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    missing = []
    for top in ("bot", "cogs", "engine", "rendering", "data"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in RUNTIME_SUFFIXES or "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT)
            covered = False
            for package, patterns in package_data.items():
                base = Path(*package.split("."))
                if base in rel.parents:
                    inner = rel.relative_to(base).as_posix()
                    covered |= any(fnmatch.fnmatch(inner, p) for p in patterns)
            if not covered:
                missing.append(rel.as_posix())
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"


def test_the_shipped_fonts_carry_their_license() -> None:
    fonts = ROOT / "rendering" / "fonts"
    assert list(fonts.glob("*.ttf")) and (fonts / "LICENSE-DejaVu.txt").is_file()
