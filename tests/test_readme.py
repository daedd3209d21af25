"""The README's quick start holds true: its commands are those CI runs, and its
demo seed shows a fight (``.ci/run`` runs the README's install-and-test command)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    """The README's shell commands, in order (the lines of its ``sh`` blocks)."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_the_quick_start_makes_a_virtual_environment_before_installing() -> None:
    commands = _commands()
    venv = next(i for i, c in enumerate(commands) if c.startswith("python -m venv"))
    install = next(i for i, c in enumerate(commands) if "pip install" in c)
    assert venv < install and "activate" in commands[venv]
    assert "the full run takes a few minutes" in " ".join(README.split())


def test_ci_runs_the_readmes_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test = next(c for c in _commands() if c.endswith("python -m pytest"))
    assert test in ci.splitlines()


def test_the_readmes_demo_seed_shows_a_fight(capsys: pytest.CaptureFixture[str]) -> None:
    demo = next(c for c in _commands() if c.startswith("python -m bot demo --seed"))
    seed = re.search(r"--seed (\d+)", demo)
    assert seed is not None
    assert main(["demo", "--seed", seed[1]]) == 0
    out = capsys.readouterr().out
    assert "damage point" in out, "hits land"
    assert "is damaged" in out and "is shot down" in out
    assert "Fuel tank hit" in out, "the README says so"
