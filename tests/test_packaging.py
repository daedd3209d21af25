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


def glob_match(path: str, pattern: str) -> bool:
    """Whether setuptools' package-data glob ``pattern`` takes ``path``: ``*`` stays
    within one folder (``migrations/*.sql`` leaves out ``migrations/postgres/``)."""
    parts, globs = path.split("/"), pattern.split("/")
    return len(parts) == len(globs) and all(map(fnmatch.fnmatchcase, parts, globs))


def test_runtime_files_are_declared_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    missing = []
    for top in ("bot", "cogs", "engine", "rendering", "data", "strings"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in RUNTIME_SUFFIXES or "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT)
            covered = False
            for package, patterns in package_data.items():
                base = Path(*package.split("."))
                if base in rel.parents:
                    inner = rel.relative_to(base).as_posix()
                    covered |= any(glob_match(inner, p) for p in patterns)
            if not covered:
                missing.append(rel.as_posix())
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"


def test_the_shipped_fonts_carry_their_license() -> None:
    fonts = ROOT / "rendering" / "fonts"
    assert list(fonts.glob("*.ttf")) and (fonts / "LICENSE-DejaVu.txt").is_file()


def test_the_image_copies_every_package_the_project_installs() -> None:
    """The Dockerfile copies sources by hand before ``pip install .``: a package left
    out installs nothing and the image cannot start (``strings/`` once was). No Docker
    engine runs where the tests do, so this reads the Dockerfile."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {p.rstrip("*") for p in patterns}
    copied = set()
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words[:1] == ["COPY"]:
            copied |= {w.rstrip("/") for w in words[1:-1]}
    assert {"pyproject.toml", "README.md"} <= copied
    assert sorted(packages - copied) == [], "COPY them in the Dockerfile"
    for package in packages:
        assert (ROOT / package / "__init__.py").is_file(), package
