"""The Locked-On engine's texts come from the strings catalogue (strings/<lang>/lockedon.yaml).

English and French have the same keys and fields; every key the engine names exists;
every English key is used; refusals and narration are Terms, never English literals.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core.errors import RuleViolation
from engine.lockedon import exchange, flow, legality, present
from engine.lockedon.actions import Action
from engine.lockedon.components import Range
from engine.lockedon.game import LockedOnEngine
from strings import Term, catalogue, placeholders
from tests.textscan import callee, holds_text, parse, string_constants

from .conftest import Act, Game

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "engine" / "lockedon"


def _flatten(tree: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        assert isinstance(key, str), f"key {key!r} under {prefix!r} must be quoted"
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


def _file(language: str) -> dict[str, str]:
    path = ROOT / "strings" / language / "lockedon.yaml"
    return _flatten(yaml.safe_load(path.read_text(encoding="utf-8")))


def _literals() -> set[str]:
    out: set[str] = set()
    for path in sorted(PACKAGE.glob("*.py")):
        out |= {v for v in string_constants(parse(path)) if " " not in v}
    return out


def _used_keys() -> set[str]:
    literal = {k for k in _literals() if k.startswith("lockedon.")}
    runtime = set(present.STEPS.values()) | set(present.PROMPTS.values())
    runtime |= set(legality._DECISION.values()) | set(flow.ALTITUDE_KEYS.values())
    runtime |= set(exchange.POSITION_KEYS.values()) | set(legality._TYPE_KEYS.values())
    runtime |= set(exchange._TITLE_KEYS.values())
    runtime |= {f"lockedon.range.{r.code}" for r in Range}
    balance = string_constants(parse(PACKAGE / "balance.py"))
    runtime |= {f"lockedon.pick.{k}" for k in balance if re.fullmatch(r"[a-z_]+", k)}
    return literal | runtime


def test_english_and_french_have_the_same_keys_and_fields() -> None:
    en, fr = _file("en"), _file("fr")
    assert all(k.startswith("lockedon.") for k in en)
    assert sorted(set(en) ^ set(fr)) == []
    for key, text in en.items():
        assert placeholders(fr[key]) == placeholders(text), key
    assert set(en) <= set(catalogue("en")) and set(fr) <= set(catalogue("fr"))


OTHER_FILES = ("lockedon.ui.", "lockedon.help.", "lockedon.picture.")
"""Keys of the presenter, the help pages and the picture, in their own files
(lockedon-ui.yaml, lockedon-help.yaml, lockedon-picture.yaml; test_present checks the
presenter's)."""


def test_every_key_the_engine_names_exists_in_english() -> None:
    en = _file("en")
    named = {
        k
        for k in _literals()
        if k.startswith("lockedon.") and not k.endswith(".") and not k.startswith(OTHER_FILES)
    }
    assert sorted(k for k in named if k not in en) == []


def test_every_english_key_is_used() -> None:
    used = _used_keys()
    assert sorted(k for k in _file("en") if k not in used) == []


def test_no_refusal_or_narration_is_an_english_literal() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(parse(path)):
            if not isinstance(node, ast.Call):
                continue
            name = callee(node.func)
            if name == "Event":
                texts = node.args[1:2] + [k.value for k in node.keywords if k.arg == "text"]
            elif name in ("MalformedAction", "RuleViolation", "Why", "Term"):
                texts = node.args[:1] if name in ("MalformedAction", "RuleViolation") else []
            else:
                continue
            if any(holds_text(t) for t in texts):
                found.append(f"{path.name}:{node.lineno}: {name} with a literal text")
    assert found == []


def test_a_refusal_and_a_narration_are_terms_in_english_and_french(
    lo: LockedOnEngine, game: Game, act: Act
) -> None:
    state = game()
    why = lo.refusal(state, "B1", Action.from_text("ab on"))
    assert isinstance(why, Term)
    assert why == "It is not your move: waiting for A1."
    assert why.text("fr") == "Ce n'est pas à vous de jouer : on attend A1."
    with pytest.raises(RuleViolation) as refused:
        lo.apply(state, "A1", Action.from_text("stay"))
    assert refused.value.text("fr").startswith("Impossible de faire « stay »")
    after, events = lo.apply(state, "A1", Action.from_text("ab on"))
    assert [str(e.text) for e in events] == ["F-15A Eagle (A1) turns its Afterburners on."]
    assert events[0].text.text("fr") == "F-15A Eagle (A1) allume sa postcombustion."
    view = lo.view(after, "A1")
    assert str(view.step) == "Pre-Turn Discard/Draw"
    assert view.step.text("fr") == "Défausse/pioche de début de tour"  # type: ignore[attr-defined]
