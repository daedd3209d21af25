"""The pictures in another language: the sky, the after-action report and a replay
frame drawn in French, legible and inside their boxes, with no English left; and a
static scan that keeps English sentences out of ``rendering/*.py``.

Every word a picture draws comes from the strings catalogue (``picture.*`` in
``strings/<lang>/picture.yaml``) or is an engine/bot :class:`~strings.Term` put in
the language with :func:`~strings.tr`; aircraft names, card names and seat ids stay
as printed. English stays pixel-identical: the golden images of ``test_table.py``
are drawn with the default ``language="en"``.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from engine.core.contract import SideInfo
from engine.dif.components import Position, Ruleset, Side
from engine.dif.view import DifView, PendingView, ResultView
from rendering import fonts
from rendering.dif import layout_table, render_table
from rendering.dif.sky import MIN_TEXT_SIZE, WIDTH, Layout, Text
from rendering.replay import frame_layout
from rendering.report import (
    FATES,
    AircraftLine,
    ExchangeLine,
    ReportView,
    layout_report,
    render_report,
)
from strings import Term, catalogue
from tests.textscan import literals, parse, skipped_nodes, text_of

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    """A sibling test module, by path (tests/ is no package; pytest imports by path)."""
    path = Path(__file__).parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_language_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


views = _load("test_table")


# --- views whose engine texts are Terms, as the engine makes them -------------------

STEPS = {"Play cards": "dif.step.play", "Respond": "dif.step.play", "Game over": "dif.step.over"}
PROMPTS = {"play": "dif.prompt.play", "respond": "dif.prompt.respond"}
PHASES = {"Bomb Turn": "dif.mission.phase.bomb"}


def termed(view: DifView) -> DifView:
    """``view`` with its step, prompts, verdict and mission phase as the engine gives
    them: Terms (the hand-built views of ``test_table.py`` hold plain English strings)."""
    update: dict[str, object] = {
        "step": Term(STEPS[str(view.step)]),
        "pending": tuple(
            p.model_copy(update={"prompt": Term(PROMPTS[p.kind])}) for p in view.pending
        ),
    }
    if view.result is not None:
        update["result"] = view.result.model_copy(update={"verdict": Term("dif.verdict.zero.axis")})
    if view.mission is not None:
        phase = Term(PHASES[str(view.mission.phase)])
        update["mission"] = view.mission.model_copy(update={"phase": phase})
    return view.model_copy(update=update)


def view_setup() -> DifView:
    """Before turn 1: one element has picked its secret altitude, one is picking; Full
    Throttle counters and pilot skills on show, an empty hand."""
    allied = views.element("A1", Side.ALLIED, "Buffalo I", None, hand_count=0)
    axis = views.element("J1", Side.AXIS, "Ki-43", None, hand_count=1)
    leader = axis.leader
    assert leader is not None
    axis = axis.model_copy(
        update={
            "altitude_chosen": True,
            "counters": 2,
            "leader": leader.model_copy(update={"pilot": ("A", "BU")}),
        }
    )
    return views.view_1v1(
        turn=0,
        step=Term("dif.step.setup"),
        active=None,
        elements=(allied, axis),
        engagements=(),
        pending=(PendingView(seat="A1", kind="altitude", prompt=Term("dif.prompt.altitude")),),
    )


def view_redraw() -> DifView:
    """The longest header: setup of a fight to the death, both seats redrawing (Combat
    Vision), with the longest prompt."""
    prompt = Term("dif.prompt.redraw")
    return view_setup().model_copy(
        update={
            "max_turns": None,
            "step": Term("dif.step.redraw"),
            "pending": tuple(
                PendingView(seat=seat, kind="redraw", prompt=prompt) for seat in ("A1", "J1")
            ),
        }
    )


def view_death() -> DifView:
    """To the death, Rise of the Luftwaffe: the side names and verdict of that ruleset."""
    vp = {Side.ALLIED: 5, Side.AXIS: 0}
    return views.view_2v2().model_copy(
        update={
            "max_turns": None,
            "turn": 9,
            "step": Term("dif.step.over"),
            "active": None,
            "exchange": None,
            "pending": (),
            "result": ResultView(
                vp=vp, winner=Side.ALLIED, verdict=Term("dif.verdict.rotl.allied_marginal")
            ),
            "vp": vp,
        }
    )


SKIES: dict[str, Callable[[], DifView]] = {
    **{name: (lambda make=make: termed(make())) for name, make in views.GOLDEN_VIEWS.items()},
    "setup": view_setup,
    "redraw": view_redraw,
    "death": view_death,
}

ENGLISH = (
    "Turn",
    "of",
    "Setup",
    "turns?",
    "to the death",
    "To move",
    "Waiting",
    "Deck",
    "Discard",
    "VP",
    "GAME OVER",
    "Final",
    "Attack",
    "respond",
    "pass",
    "NOT YET REVEALED",
    "OUT OF THE FIGHT",
    "empty",
    "TO MOVE",
    "WAITING",
    "Picking",
    "picked",
    "counters",
    "Pilot",
    "cards?",
    "No leader",
    "Wingman",
    "wingman",
    "Lost leader",
    "leader",
    "hits",
    "DAMAGED",
    "PROMOTED",
    "DESTROYED",
    "EVADED",
    "Tailing",
    "Tailed",
    "Advantaged",
    "Disadvantaged",
    "Neutral",
    "with",
    "by",
    "on",
    "shot down",
    "ALLIED",
    "ALLIES",
    "JAPANESE",
    "Allied",
    "Allies",
    "Japanese",
    "VERY HIGH",
    "HIGH",
    "MEDIUM",
    "LOW",
    "victory",
    "Victory",
    "Play cards",
    "Game over",
    "Replay",
)
"""English words the pictures drew before translation (regexes, matched as words)."""
LEFTOVER = re.compile(r"(?<![\w-])(?:" + "|".join(ENGLISH) + r")(?![\w-])")


def shown(layout: Layout) -> list[str]:
    return [item.text for item in layout.items if isinstance(item, Text)]


def english_in(layout: Layout) -> list[str]:
    return [text for text in shown(layout) if LEFTOVER.search(text)]


def _bbox(item: Text) -> tuple[int, int, int, int]:
    left, top, right, bottom = fonts.font(item.face, item.size).getbbox(
        item.text, anchor=item.anchor
    )
    return item.x + left, item.y + top, item.x + right, item.y + bottom


def check_legible(layout: Layout) -> None:
    """No text under :data:`MIN_TEXT_SIZE`; every text inside the canvas, inside the
    card it is written on, and clear of every other text (nothing overflows)."""
    assert layout.width == WIDTH
    texts = [item for item in layout.items if isinstance(item, Text)]
    boxes = [(item, _bbox(item)) for item in texts]
    cards = [r for name, r in layout.regions.items() if name.startswith("card:")]
    for item, (x0, y0, x1, y1) in boxes:
        assert item.size >= MIN_TEXT_SIZE, item
        assert x0 >= 0 and x1 <= layout.width and y0 >= 0 and y1 <= layout.height, item
        for card in cards:
            if card.x0 <= item.x < card.x1 and card.y0 <= item.y < card.y1:
                assert card.x0 <= x0 and x1 <= card.x1, (item, card)
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1) in boxes[i + 1 :]:
            # Side by side segments may touch: glyph side bearings overlap by a pixel.
            overlap_x = min(ax1, bx1) - max(ax0, bx0)
            overlap_y = min(ay1, by1) - max(ay0, by0)
            assert overlap_x <= 2 or overlap_y <= 0, (a, b)


# --- the picture of the sky ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SKIES))
def test_the_sky_in_english_is_legible_and_nothing_overlaps(name: str) -> None:
    check_legible(layout_table(SKIES[name]()))


@pytest.mark.parametrize("name", sorted(SKIES))
def test_the_sky_in_french_is_legible_and_has_no_english_left(name: str) -> None:
    layout = layout_table(SKIES[name](), language="fr")
    check_legible(layout)
    assert english_in(layout) == []


def test_the_sky_in_french_says_it_in_french() -> None:
    texts = shown(layout_table(termed(views.view_destroyed_wingman()), language="fr"))
    assert "Tour 4 sur 6" in texts
    assert "Jouer des cartes" in texts  # the engine's step, through tr()
    assert "Pioche 21 · Défausse 19" in texts
    assert "● ALLIÉS" in texts and "◆ JAPONAIS" in texts
    assert "BASSE" in texts and "MOYENNE" in texts
    assert "Attaque :" in texts
    assert "Buffalo I (A1) doit répondre ou passer" in texts
    assert "EN ATTENTE DU JOUEUR" in texts
    assert "ABATTU" in texts
    assert "2/3 coups" in texts
    assert "Avantagé" in texts  # the arrow: the engine's position, through tr()
    assert "◀ Désavantagé par Ki-43 (J1)" in texts

    texts = shown(layout_table(termed(views.view_2v2()), language="fr"))
    assert "Ailier · Bf-109E" not in texts and "Ailier" in texts
    assert "Ancien chef" in texts and "★ PROMU" in texts
    assert "Bf-109E (X1, ailier)" in " ".join(texts)  # as the French narration names it
    assert "En attente : Bf-109E (X1) — répondre, ou passer" not in texts  # the panel says it

    texts = shown(layout_table(termed(views.view_finished()), language="fr"))
    assert "FIN DE LA PARTIE" in texts and "Victoire japonaise" in texts
    assert "DÉGAGÉ" in texts and "HORS DU COMBAT" in texts and "PV finaux : " in texts


def test_french_plurals_use_the_singular_for_zero_and_one() -> None:
    view = view_setup()
    french = shown(layout_table(view, language="fr"))
    assert "0 carte" in french and "1 carte" in french
    assert "Mise en place · 6 tours" in french
    assert "✓ Altitude choisie, secrète" in french and "Choix de l'altitude en cours" in french
    assert "Pions Full Throttle : 2" in french and "Pilote : A, BU" in french
    english = shown(layout_table(view))
    assert "0 cards" in english and "1 card" in english
    one_turn = shown(layout_table(view.model_copy(update={"max_turns": 1})))
    assert "Setup · 1 turn" in one_turn


def test_a_language_without_a_catalogue_draws_english() -> None:
    view = views.view_1v1()
    assert render_table(view, language="de") == render_table(view)


def test_the_french_picture_is_deterministic() -> None:
    view = termed(views.view_8v8())
    png = render_table(view, language="fr")
    assert png == render_table(view, language="fr")
    assert Image.open(io.BytesIO(png)).width == WIDTH


# --- the after-action report -----------------------------------------------------------


def _plane(name: str, seat: str, role: str = "leader") -> Term:
    if role == "leader":
        return Term("dif.ui.plane.leader", name=name, seat=seat)
    return Term("dif.ui.plane.wingman", name=name, seat=seat)


def report_in_terms(exchanges: int = 1) -> ReportView:
    """A report as :func:`bot.report.after_action_report` makes it: Terms."""
    buffalo, oscar = _plane("Buffalo I", "A1"), _plane("Ki-43 Oscar", "X1", "wingman")
    shot = ExchangeLine(
        4,
        Term(
            "dif.ui.report.exchange",
            by=oscar,
            target=buffalo,
            card="In My Sights (2B/3D)",
            outcome=Term("dif.ui.report.fate.shot_down"),
        ),
    )
    return ReportView(
        title=Term("report.title", id=12),
        verdict=Term("dif.verdict.zero.axis"),
        sides=(
            SideInfo("allied", Side.ALLIED.label(Ruleset.ZERO)),
            SideInfo("axis", Side.AXIS.label(Ruleset.ZERO)),
        ),
        winner="axis",
        vp={"axis": 7, "allied": 2},
        turns=6,
        aircraft=(
            AircraftLine(
                "A1L",
                Side.ALLIED,
                buffalo,
                "alice",
                Term("dif.ui.report.fate.shot_down"),
                Term("dif.ui.report.by", plane=oscar, turn=4),
                5,
                2,
            ),
            AircraftLine(
                "A1W",
                Side.ALLIED,
                Term("dif.ui.plane.wingman_promoted", name="Buffalo I", seat="A1"),
                "alice",
                Term("dif.ui.report.fate.evaded"),
                Term("dif.ui.report.promoted_then", detail=Term("dif.ui.report.left_damaged")),
                3,
                0,
            ),
            AircraftLine("X1L", Side.AXIS, _plane("Ki-43 Oscar", "X1"), "bob", "damaged", "", 2, 3),
            AircraftLine(
                "X1W", Side.AXIS, oscar, "bob", Term("dif.ui.report.fate.unharmed"), "", 0, 0
            ),
        ),
        exchanges=(shot,) * exchanges,
    )


def test_the_report_in_french_is_legible_and_has_no_english_left() -> None:
    for report in (report_in_terms(), report_in_terms(0), report_in_terms(14)):
        layout = layout_report(report, language="fr")
        check_legible(layout)
        assert english_in(layout) == []
    texts = shown(layout_report(report_in_terms(14), language="fr"))
    assert "Combat #12 : rapport après action" in texts
    assert "Victoire japonaise" in texts
    assert {"ABATTU", "DÉGAGÉ", "ENDOMMAGÉ", "INDEMNE"} <= set(texts), "fates in words"
    assert any("Alliés 2 PV" in w and "Japonais 7 PV" in w and "6 tours de jeu" in w for w in texts)
    assert "Coups reçus 5 · coups donnés 2" in texts and "Aucun coup reçu ni donné" in texts
    assert "Échanges décisifs" in texts
    assert any(w.startswith("Tour 4 : Ki-43 Oscar (ailier de X1) → Buffalo I") for w in texts)
    assert "…et 2 de plus (voir /game log)." in texts
    none = shown(layout_report(report_in_terms(0), language="fr"))
    assert "Aucun appareil n'a été abattu ni endommagé." in none


def test_the_report_in_english_is_unchanged_by_terms() -> None:
    texts = shown(layout_report(report_in_terms()))
    assert {"SHOT DOWN", "EVADED", "DAMAGED", "UNHARMED"} <= set(texts)
    assert any(w.startswith("Turn 4: Ki-43 Oscar (wingman of X1)") for w in texts)
    png = render_report(report_in_terms(), language="fr")
    assert png == render_report(report_in_terms(), language="fr")


# --- a replay frame --------------------------------------------------------------------


def test_a_replay_frame_in_french() -> None:
    view = termed(views.view_damaged_leader())
    layout = frame_layout(layout_table(view, language="fr"), "", 0, 25, language="fr")
    check_legible(layout)
    assert english_in(layout) == []
    texts = shown(layout)
    assert texts[:2] == ["1/25", "Rediffusion"]
    assert "Tour 8 · jusqu'à la mort" in texts
    assert "▶ En poursuite de Ki-43 (J1)" in texts
    caption = "Ki-43 (X1) est abattu ! " * 3  # the narration, given in French already
    texts = shown(frame_layout(layout_table(view, language="fr"), caption, 3, 25, language="fr"))
    assert texts[1].startswith("Ki-43 (X1) est abattu !")


# --- the catalogue and the code agree ----------------------------------------------------

RENDERING = sorted((ROOT / "rendering").rglob("*.py"))
PLURALS = (
    "picture.sky.cards",
    "picture.sky.setup.turns",
    "picture.report.turns",
    "picture.campaign.more_rows",
    "picture.campaign.more_columns",
    "picture.campaign.earlier_missions",
    "picture.campaign.later_missions",
)
BUILT_KEYS = {
    *(f"picture.sky.note.{p.name.lower()}" for p in Position),
    *(f"{key}.{form}" for key in PLURALS for form in ("one", "other")),
    *(f"picture.report.fate.{fate.replace(' ', '_')}" for fate in FATES),
}
"""Keys the code builds at run time (f-strings)."""


def test_every_picture_key_is_used_and_exists() -> None:
    named: set[str] = set()
    for path in RENDERING:
        named |= set(re.findall(r"""["'](picture\.[a-z_.]+[a-z_])["']""", path.read_text()))
    named -= set(PLURALS)  # the stem of .one / .other
    en = {k for k in catalogue("en") if k.startswith("picture.")}
    assert sorted((named | BUILT_KEYS) - en) == [], "named in rendering/, missing in English"
    assert sorted(en - named - BUILT_KEYS) == [], "in strings/en/picture.yaml, never drawn"
    fr = {k for k in catalogue("fr") if k.startswith("picture.")}
    assert fr == en


# --- no English left inline in rendering/*.py -------------------------------------------

ALLOWED: dict[str, str] = {
    "lm": "a Pillow text anchor (left, middle)",
    "mm": "a Pillow text anchor (middle, middle)",
    "rm": "a Pillow text anchor (right, middle)",
    "GIF": "an image format name",
    "PNG": "an image format name",
    "RGB": "an image mode",
    "raw": "a Pillow decoder name",
    "fonts": "the package folder holding the font files",
    "rendering": "the package name, to read its fonts",
    "rendering.dif": "a module path (rendering.registry)",
    "rendering.lockedon": "a module path (rendering.registry)",
    "rendering.eagles": "a module path (rendering.registry)",
    "en": "the default language code",
    "fr": "a language code: French plurals take the singular for 0 and 1",
    "header": "a region id (Layout.regions)",
    "mission": "a region id (Layout.regions)",
    "track": "a region id (Layout.regions)",
    "turn:{}": "a region id (Layout.regions)",
    "exchange": "a region id (Layout.regions)",
    "result": "a region id (Layout.regions)",
    "band:hidden": "a region id (Layout.regions)",
    "band:out": "a region id (Layout.regions)",
    "band:{}": "a region id (Layout.regions)",
    "card:{}": "a region id (Layout.regions)",
    "formation:{}": "a region id (Layout.regions)",
    "destroyed": "a BomberView.status value, compared (engine/dif/view.py)",
    "plane:{}": "a region id (Layout.regions)",
    "arrow:{}>{}": "a region id (Layout.regions)",
    "chart": "a region id (Layout.regions, rendering/lockedon/sky.py)",
    "relations": "a region id (Layout.regions, rendering/lockedon/sky.py)",
    "chip:{}": "a region id (Layout.regions, rendering/lockedon/sky.py)",
    "dogfight:{}": "a region id (Layout.regions, rendering/eagles/display.py)",
    "vp": "a field of a finished engagement's record (EaglesView.results)",
    "missions": "a region id (Layout.regions, rendering/campaign.py)",
    "totals": "a region id (Layout.regions, rendering/campaign.py)",
    "next": "a region id (Layout.regions, rendering/campaign.py)",
    "secrets": "a region id (Layout.regions, rendering/campaign.py)",
    "legend": "a region id (Layout.regions, rendering/campaign.py)",
    "side:{}": "a region id (Layout.regions, rendering/campaign.py)",
    "mission:{}": "a region id (Layout.regions, rendering/campaign.py)",
    "table:{}": "a region id (Layout.regions, rendering/campaign.py)",
    "shot down": "a fate id (FATES, AircraftLine.fate); drawn as picture.report.fate.*",
    "damaged": "a fate id (FATES, AircraftLine.fate); drawn as picture.report.fate.*",
    "evaded": "a fate id (FATES, AircraftLine.fate); drawn as picture.report.fate.*",
    "hit": "a fate id (FATES, AircraftLine.fate); drawn as picture.report.fate.*",
    "unharmed": "a fate id (FATES, AircraftLine.fate); drawn as picture.report.fate.*",
    "one": "a plural form, the end of a catalogue key",
    "other": "a plural form, the end of a catalogue key",
}
"""Literals of ``rendering/*.py`` with letters in them that are no text for a reader."""

KEYED = frozenset({"t", "_plural", "plural"})
"""Calls whose first argument is a catalogue key."""
INTERNAL_ERRORS = frozenset({"ValueError", "TypeError", "KeyError", "AssertionError"})
"""Exceptions for programmers and logs (the bot turns them into catalogue texts)."""
WORDY = re.compile(r"[A-Za-z]{2,}")


def _not_texts(node: ast.AST) -> list[ast.AST]:
    """Dict keys and the font files' names (the ``Face`` enum): no texts for a reader."""
    if isinstance(node, ast.Dict):
        return [key for key in node.keys if key is not None]
    if isinstance(node, ast.DictComp):
        return [node.key]
    if isinstance(node, ast.ClassDef) and node.name == "Face":
        return [node]
    return []


def inline_words(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every literal with a word in it that is not skipped or allowed:
    skipped are docstrings, catalogue keys, dict keys, ``__all__``, font file names (the
    ``Face`` enum) and internal errors."""
    tree = ast.parse(source)
    skip = skipped_nodes(
        tree, keyed=KEYED, internal_errors=INTERNAL_ERRORS, methods=False, dropped=_not_texts
    )
    for line, literal in literals(tree, skip):
        if literal.startswith(("picture.", "lockedon.picture.")) or literal in ALLOWED:
            continue
        if WORDY.search(literal):
            yield line, literal


@pytest.mark.parametrize("path", RENDERING, ids=lambda p: p.name)
def test_no_english_is_left_inline_in_the_renderer(path: Path) -> None:
    found = sorted(inline_words(path.read_text(encoding="utf-8")))
    assert found == [], f"{path.name}: draw these with t('picture.…') or allow them with why"


def test_the_allow_list_is_still_needed() -> None:
    used: set[str] = set()
    for path in RENDERING:
        used |= {text for node in ast.walk(parse(path)) if (text := text_of(node)) is not None}
    assert sorted(set(ALLOWED) - used) == []


def test_the_scan_finds_inline_english() -> None:
    source = '''
def f(x):
    """A docstring is fine."""
    raise ValueError("an internal error for the log")
    draw(t("picture.sky.vp", language), anchor="mm")
    draw({"card": 1}, f"picture.sky.note.{x}")
    draw("DAMAGED", f"{x} hits", "Turn " + x, "▶ ")
'''
    assert [text for _, text in inline_words(source)] == ["DAMAGED", "{} hits", "Turn "]
