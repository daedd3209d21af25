"""The engine's user-facing texts come from the strings catalogue (strings/<lang>/dif.yaml,
and dif-ui.yaml for what the bot shows of a game: engine/dif/ui.py and its modules).

Every key the engine names exists in English, every English key is used, the texts
the engine hands out are Terms (English ``str``, translatable with ``.text(lang)``),
and no engine module builds a refusal or a narration line from an English literal.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core.errors import RuleViolation
from engine.dif import game as game_module
from engine.dif import legality as legality_module
from engine.dif import present as present_module
from engine.dif import ui as ui_module
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.base import DECISIONS, DRAWS
from engine.dif.components import (
    RATED,
    Altitude,
    PilotSkill,
    Position,
    Ruleset,
    Side,
    rating_label,
)
from engine.dif.game import DifEngine
from engine.dif.menus import MENU_PLACEHOLDERS
from engine.dif.orders import Order
from engine.dif.state import GameState
from strings import Term, catalogue, english, narration_wording, placeholders, tr
from tests.textscan import callee, holds_text, parse, string_constants

from .conftest import GameFactory

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
KEY_CALL = r"""(?:Term|Why|fixed)\(\s*["']([A-Za-z_.0-9-]+)["']"""


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
    out: dict[str, str] = {}
    for name in ("dif.yaml", "dif-ui.yaml"):
        path = ROOT / "strings" / language / name
        out.update(_flatten(yaml.safe_load(path.read_text(encoding="utf-8"))))
    return out


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(ENGINE.rglob("*.py")):
        yield path, parse(path)


def _literal_keys() -> set[str]:
    """Every ``"dif.…"`` string literal in the engine: keys handed to Term / Why /
    fixed, and keys kept in tables or chosen in code before the call."""
    return {
        value
        for _, tree in _sources()
        for value in string_constants(tree)
        if value.startswith("dif.") and " " not in value
    }


def _runtime_keys() -> set[str]:
    """Keys the engine builds at run time (f-strings), as the engine builds them."""
    keys: set[str] = set()
    keys |= {a.label.key for a in Altitude}
    keys |= {p.label.key for p in Position}
    keys |= {k.label.key for k in PilotSkill}
    keys |= {s.label(rs).key for s in Side for rs in Ruleset}
    keys |= {s.phrase(rs).key for s in Side for rs in Ruleset}
    keys |= {getattr(rating_label(f, rs), "key", "") for f in RATED for rs in Ruleset}
    keys |= set(game_module.STEPS.values())
    keys |= set(present_module._PROMPTS.values())
    keys |= set(legality_module._DECISION.values())
    keys |= {key for pair in DRAWS.values() for key in pair}
    # The presenter (engine/dif/ui.py, menus.py, lobbytext.py):
    plural = ("one", "other")
    keys |= {f"dif.ui.decision.{k}" for k in DECISIONS}
    keys |= {f"dif.ui.menu.{v}" for v in (*MENU_PLACEHOLDERS, "choose", "discard", "redraw")}
    keys |= {f"dif.ui.action.{v}" for v in ui_module.SIMPLE_ACTIONS}
    keys |= {f"dif.ui.action.spend.{q}" for q in plural}
    keys |= {
        f"dif.ui.lobby.{n}.{q}" for n in ("element", "aircraft", "point", "pt") for q in plural
    }
    keys |= {f"dif.ui.lobby.bonus.even_{v}" for v in ("on", "off")}
    keys |= {f"dif.ui.dogfight.bonus_{v}" for v in ("on", "off")}
    keys |= {f"dif.ui.dogfight.tag.{v}" for v in ("agile", "turbo")}
    keys |= {f"dif.ui.ruleset.{rs.value}" for rs in Ruleset}
    keys |= {f"dif.ui.report.fate.{k}" for k in ("damaged", "shot_down", "shot_down_fuel")}
    return keys


def test_english_and_french_files_have_the_same_keys_and_fields() -> None:
    en, fr = _file("en"), _file("fr")
    assert all(k.startswith("dif.") for k in en), "engine keys live under dif:"
    assert sorted(set(en) ^ set(fr)) == []
    for key, text in en.items():
        assert placeholders(fr[key]) == placeholders(text), key
    # Both files are merged into the catalogues (no key defined twice anywhere).
    assert set(en) <= set(catalogue("en")) and set(fr) <= set(catalogue("fr"))


def test_every_key_the_engine_names_exists_in_english() -> None:
    en = _file("en")
    called: set[str] = set()
    for path, _ in _sources():
        found = re.findall(KEY_CALL, path.read_text(encoding="utf-8"))
        called |= {k for k in found if k.startswith("dif.")}  # other systems test their own
    literal, runtime = _literal_keys(), _runtime_keys()
    assert called <= literal, "a Term key written as a literal is also found by the AST scan"
    assert len(literal) > 150 and len(runtime) > 40
    plural = {k.rpartition(".")[0] for k in en if k.endswith((".one", ".other"))}
    assert sorted(k for k in literal | runtime if k not in en and k not in plural) == []


def test_every_english_key_is_used() -> None:
    used = _literal_keys() | _runtime_keys()
    assert sorted(k for k in _file("en") if k not in used) == []


def test_no_refusal_or_narration_is_an_english_literal() -> None:
    found = []
    tree = parse(ENGINE / "dif" / "legality.py")
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("__"):
            continue  # __repr__ is for developers
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and holds_text(node.value):
                found.append(f"legality.py:{node.lineno}: return of a literal text")
    for path, tree in _sources():
        if path.parent.name not in ("dif", "core"):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = callee(node.func)
            if name == "Event":
                texts = node.args[1:2] + [k.value for k in node.keywords if k.arg == "text"]
            elif name in ("MalformedAction", "RuleViolation"):
                texts = node.args[:1]
            else:
                continue
            if any(holds_text(t) for t in texts):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name} with a literal text")
    assert found == []


def _check(text: object, english: str, french: str) -> None:
    assert isinstance(text, Term), f"{text!r} is not a Term"
    assert str(text) == english and text == english
    assert text.text("fr") == french
    assert tr(text, "fr") == french and tr(text, "en") == english


def test_a_refusal_is_a_term_in_english_and_french(
    engine: DifEngine, new_game: GameFactory
) -> None:
    state = new_game()  # the Allied F4F's Adjust Altitude step, both at Medium
    _check(
        engine.refusal(state, "X1", Action.simple("stay")),
        "It is not your move: waiting for A1.",
        "Ce n'est pas à vous de jouer : on attend A1.",
    )
    why = engine.refusal(state, "A1", Action.from_text("play MAN X1L"))
    _check(
        why,
        "You cannot 'play' now: it is the adjust altitude step (expected stay / dive / climb).",
        "Impossible de faire « play » maintenant : c'est l'étape d'ajustement d'altitude "
        "(attendu : stay / dive / climb).",
    )
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, "A1", Action.from_text("play MAN X1L"))
    assert str(refused.value) == why
    assert isinstance(why, Term) and refused.value.text("fr") == why.text("fr")


def test_narration_is_a_term_in_english_and_french(
    engine: DifEngine, new_game: GameFactory
) -> None:
    state = new_game()
    after, events = engine.apply(state, "A1", Action.simple("stay"))
    assert [e.kind for e in events] == ["stay"]
    _check(
        events[0].text,
        "F4F Wildcat (A1) stays at Medium (adjust altitude step, 3.2).",
        "F4F Wildcat (A1) reste à l'altitude Moyenne (étape d'ajustement d'altitude, 3.2).",
    )
    # Every line of a whole game is a Term with a French text of its own.
    for e in _events_of_a_game(engine, after):
        assert isinstance(e.text, Term), e.text
        assert e.text.key.startswith("dif.event.") and e.text.text("fr") != e.text, e.text


def test_each_line_of_a_turn_adds_something_and_says_whose_draw_it_is(
    engine: DifEngine, new_game: GameFactory
) -> None:
    """Issue 15: a climb's discard and the discard step's, a dive's card and the Draw
    step's, a stay and a Vertical Roll after it, read as different things."""
    state = new_game(hands={"A1": ["TIT", "TIT", "VER", "MAN"], "X1": ["MAN"] * 5})
    said: list[str] = []
    for text in ("climb TIT", "play VER down", "done", "discard TIT"):
        state, events = engine.apply(state, "A1", Action.from_text(text))
        said += [e.text for e in events if e.public and e.kind != "player_turn"]
    assert said[:7] == [
        "F4F Wildcat (A1) climbs to High, discarding Tight Turn.",
        "F4F Wildcat (A1) plays Vertical Roll to dive.",
        "F4F Wildcat (A1) rolls down to Medium (7.22).",
        "F4F Wildcat (A1) draws 1 card for diving (7.21).",
        "F4F Wildcat (A1) discards Tight Turn (discard step, 3.4).",
        "F4F Wildcat (A1) draws 2 cards (draw step, 3.5).",
        "The Japanese side has A6M2 Zero (X1) to play second (4.7).",
    ]
    _check(
        Term("dif.event.draws.minihand.one", element="Ki-43 (X1)"),
        "Ki-43 (X1) draws 1 card for its wingman's mini-hand.",
        "Ki-43 (X1) pioche 1 carte pour la mini-main de son ailier.",
    )


@pytest.mark.parametrize("seed", range(12))
def test_no_line_of_narration_repeats_the_line_before(
    engine: DifEngine, new_game: GameFactory, seed: int
) -> None:
    state = new_game(seed=seed, allied="p-40b", axis="ki-43", altitudes=None, first_side=None)
    player = RandomPlayer(seed)
    before = ""
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        state, events = engine.apply(state, seat, player.choose(engine, state, seat))
        for e in (e for e in events if e.public):
            assert e.text != before, e.text
            if e.kind == "draw":  # what for, not a bare "draws 1 card."
                assert re.fullmatch(r".* draws \d+ cards?\.", e.text) is None, e.text
            before = e.text


def test_a_side_in_a_sentence_is_its_phrase_never_its_name_and_side() -> None:
    """Issue 15: RotL's allied side is named "Allies"; a sentence says "the Allied
    side", and a log written before (narration version 1) still reads as it did."""
    rotl, second = Ruleset.ROTL, Term("dif.ordinal.second")
    coin = Term("dif.event.initiative", side=Side.ALLIED.phrase(rotl))
    _check(
        coin,
        "Coin flip: the Allied side goes first (4.7).",
        "Pile ou face : le camp allié en premier (4.7).",
    )
    given = Term(
        "dif.event.order_given", side=Side.AXIS.phrase(rotl), element="Bf-109E (X1)", place=second
    )
    _check(
        given,
        "The Axis side has Bf-109E (X1) to play second (4.7).",
        "Le camp de l'Axe : Bf-109E (X1) joue en deuxième (4.7).",
    )
    wrong = Term(
        "dif.refuse.wrong_side",
        aircraft="Bf-109E",
        side=Side.AXIS.phrase(rotl),
        wanted=Side.ALLIED.phrase(rotl),
    )
    _check(
        wrong,
        "Bf-109E flies for the Axis side, not for the Allied side (4.2).",
        "Bf-109E vole pour le camp de l'Axe, pas pour le camp allié (4.2).",
    )
    v1 = narration_wording(1)
    assert english(coin, v1) == "Coin flip: the Allies side goes first (4.7)."
    assert english(given, v1) == "The Axis side has Bf-109E (X1) to play second (4.7)."


def _events_of_a_game(
    engine: DifEngine, state: GameState, keep: list[GameState] | None = None
) -> Iterator[Any]:
    """The events of a random game played on from ``state``; ``keep`` gets the last state."""
    player = RandomPlayer(3)
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        state, events = engine.apply(state, seat, player.choose(engine, state, seat))
        yield from events
    if keep is not None:
        keep.append(state)


def test_views_keep_their_texts_translatable(engine: DifEngine, new_game: GameFactory) -> None:
    view = engine.view(new_game(axis="ki-43"), "A1")
    _check(view.step, "Adjust altitude", "Ajuster l'altitude")
    _check(view.pending[0].prompt, "stay, climb or dive", "rester, monter ou piquer")
    abilities = next(e.abilities for e in view.elements if e.seat == "X1")
    _check(abilities[0], "agile", "agile")


def test_labels_are_terms() -> None:
    _check(Altitude.VERY_LOW.label, "Very Low", "Très basse")
    _check(Position.TAILING.label, "Tailing", "En poursuite")
    _check(Side.AXIS.label(Ruleset.ZERO), "Japanese", "Japonais")
    _check(PilotSkill.D.label, "Damage +1", "Dégâts +1")
    _check(
        Order.SAVE_ACE.label,
        "Never spend an Ace Pilot against a wingman's attack",
        "Ne jamais dépenser d'Ace Pilot contre l'attaque d'un ailier",
    )
    assert rating_label("damage_capacity", Ruleset.ROTL) == "Damage Capacity"


def test_a_verdict_is_translatable_after_a_json_round_trip(
    engine: DifEngine, new_game: GameFactory
) -> None:
    final: list[GameState] = []
    for _ in _events_of_a_game(engine, new_game(), keep=final):
        pass
    over = final[0]
    stored = GameState.from_json(json.loads(json.dumps(over.to_json())))
    assert over.result is not None and stored.result is not None
    assert type(stored.result["verdict"]) is str  # JSON keeps the English text only
    result = engine.view(stored, None).result
    assert result is not None
    verdict = result.verdict
    assert isinstance(verdict, Term) and verdict == over.result["verdict"]
    assert verdict.text("fr") in {"Match nul", "Victoire japonaise", "Victoire alliée"}
