"""Every file the bot reads at run time ships in the wheel (package data).

The bot must work from an installed wheel, not only from a checkout: data YAML,
fonts and SQL migrations are package data, declared in pyproject.toml. This test
fails when a new such file would be left out of the wheel.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from bot.config import Settings, parse_shards

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


def _dockerignored(patterns: list[str]) -> Callable[[str, list[str]], set[str]]:
    """``copytree``'s ignore function for the ``.dockerignore`` patterns (``**/`` matches
    at any depth, the rest from the build context's root)."""

    def ignored(directory: str, names: list[str]) -> set[str]:
        inner = Path(directory).relative_to(ROOT)
        skipped = set()
        for name in names:
            rel = (inner / name).as_posix()
            for pattern in patterns:
                if pattern.startswith("**/"):
                    hit = fnmatch.fnmatch(name, pattern[3:])
                else:
                    hit = fnmatch.fnmatch(rel, pattern)
                if hit:
                    skipped.add(name)
        return skipped

    return ignored


def _runtime_distributions() -> Iterator[metadata.Distribution]:
    """The installed distributions the project needs at run time: its dependencies in
    ``pyproject.toml`` and theirs, markers evaluated for this interpreter, no extras."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pending = [Requirement(r) for r in config["project"]["dependencies"]]
    seen: set[str] = set()
    while pending:
        requirement = pending.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        if name in seen:
            continue
        seen.add(name)
        distribution = metadata.distribution(name)
        yield distribution
        pending.extend(Requirement(r) for r in distribution.requires or [])


def _link_dependencies(site_packages: Path) -> None:
    """Put the runtime dependencies of this environment in ``site_packages``, each of
    their top-level files and folders linked (the image installs them from PyPI; here
    they are the same versions, without the network)."""
    for distribution in _runtime_distributions():
        tops = {Path(f).parts[0] for f in distribution.files or [] if Path(f).parts[0] != ".."}
        for top in tops - {"__pycache__"}:
            target = site_packages / top
            if not target.exists():
                target.symlink_to(Path(str(distribution.locate_file(top))))


def _run(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_the_image_steps_give_a_bot_that_plays_and_starts(tmp_path: Path) -> None:
    """The Dockerfile's steps, without Docker: the build context is the repository less
    ``.dockerignore``, the wheel is built from it (``pip wheel --no-deps``), a clean
    virtualenv installs only that wheel and its dependencies, and, from a folder
    outside the checkout, ``python -m bot demo`` plays a game and ``python -m bot``
    without a token explains what to set. A package or a data file left out of the
    wheel fails here (``strings/`` once was left out of the image)."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert {".git", ".env", "*.sqlite3"} <= set(patterns), "no secrets nor databases in images"
    context = tmp_path / "context"
    shutil.copytree(ROOT, context, ignore=_dockerignored(patterns), symlinks=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DISCORD_TOKEN")}
    env = {k: v for k, v in env.items() if not k.startswith(("TALLYHO_", "PIP_"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    wheels = tmp_path / "wheels"
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, ".", cwd=context, env=env
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheels.glob("tally_ho-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    where = _run(
        python,
        "-c",
        "import sysconfig; print(sysconfig.get_path('purelib'))",
        cwd=tmp_path,
        env=env,
    )
    site_packages = Path(where.stdout.strip())
    _link_dependencies(site_packages)
    installed = _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--no-deps",
        "--no-index",
        wheel,
        cwd=tmp_path,
        env=env,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr

    outside = tmp_path / "run"  # no checkout to import, no .env to read
    outside.mkdir()
    found = _run(
        python, "-c", "import bot, cogs, strings; print(strings.__file__)", cwd=outside, env=env
    )
    assert Path(found.stdout.strip()).is_relative_to(site_packages), found.stdout + found.stderr
    demo = _run(python, "-m", "bot", "demo", "--seed", "1", cwd=outside, env=env)
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.splitlines()[-1].startswith("RESULT: ") and "Winner:" in demo.stdout
    start = _run(python, "-m", "bot", cwd=outside, env=env)
    assert start.returncode == 2 and "Traceback" not in start.stderr, start.stderr
    assert "DISCORD_TOKEN" in start.stderr and "python -m bot demo" in start.stderr


def test_compose_builds_the_image_with_its_volume_and_the_token() -> None:
    """``docker compose up``: the bot built from the Dockerfile, the database on a named
    volume at ``/data``, the token from the environment (or ``.env``), stopped by
    SIGTERM (a graceful shutdown) and restarted unless stopped."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["bot"]
    assert service["build"]["context"] == "." and service["build"]["dockerfile"] == "Dockerfile"
    assert (ROOT / service["build"]["dockerfile"]).is_file()
    volume, _, mount = service["volumes"][0].partition(":")
    assert mount == "/data" and volume in compose["volumes"]
    assert service["environment"]["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN")
    assert service["environment"]["TALLYHO_DATABASE"].startswith("/data/")
    assert service["restart"] == "unless-stopped" and service["init"] is True
    assert service["stop_signal"] == "SIGTERM"


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}`` with ``env``."""

    def value(found: re.Match[str]) -> str:
        name, how, rest = found[1], found[2], found[3]
        if name in env:
            return env[name]
        assert how == ":-", f"${{{name}}} is required: {rest}"
        return rest

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", value, text)


def test_compose_files_set_only_known_settings_that_validate() -> None:
    """Every variable a bot service sets is a setting of ``bot.config.Settings``, and
    the settings each service gets pass its validation (shards, database)."""
    known = {f.alias for f in Settings.model_fields.values()}
    env = {"DISCORD_TOKEN": "token", "POSTGRES_PASSWORD": "secret"}
    for name in ("compose.yaml", "compose.postgres.yaml"):
        compose = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
        bots = {k: s for k, s in compose["services"].items() if s.get("image") == "tally-ho"}
        assert bots, name
        for service_name, service in bots.items():
            variables = {k: interpolate(str(v), env) for k, v in service["environment"].items()}
            assert set(variables) <= known, (name, service_name, set(variables) - known)
            Settings(_env_file=None, **variables)  # type: ignore[call-arg]


def test_compose_postgres_runs_every_shard_once_on_one_database() -> None:
    """``compose.postgres.yaml``: PostgreSQL (on its volume, healthy before the bots
    start) and bot processes that together run every shard once, all on its database."""
    compose = yaml.safe_load((ROOT / "compose.postgres.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    db = services["db"]
    assert db["image"].startswith("postgres:") and "pg_isready" in " ".join(
        db["healthcheck"]["test"]
    )
    volume, _, mount = db["volumes"][0].partition(":")
    assert mount == "/var/lib/postgresql/data" and volume in compose["volumes"]
    user, database = db["environment"]["POSTGRES_USER"], db["environment"]["POSTGRES_DB"]
    bots = [s for s in services.values() if s.get("image") == "tally-ho"]
    assert len(bots) >= 2, "several processes"
    shards: list[int] = []
    counts = set()
    for bot in bots:
        assert bot["depends_on"]["db"]["condition"] == "service_healthy"
        assert bot["build"]["dockerfile"] == "Dockerfile" and bot["stop_signal"] == "SIGTERM"
        environment = bot["environment"]
        url = interpolate(environment["TALLYHO_DATABASE"], {"POSTGRES_PASSWORD": "secret"})
        assert url == f"postgresql://{user}:secret@db:5432/{database}"
        counts.add(int(environment["TALLYHO_SHARD_COUNT"]))
        shards.extend(parse_shards(str(environment["TALLYHO_SHARDS"])))
    [count] = counts
    assert sorted(shards) == list(range(count)), "every shard run by exactly one process"
