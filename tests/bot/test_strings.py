"""The strings catalogue (bot/i18n): lookups, fallbacks, and the catalogues' shape."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import strings as i18n
from bot.systems import FORMATS
from cogs.help import PAGE_KEYS
from strings import DEFAULT, SUPPORTED, catalogue, normalize, pick, placeholders, t

PLURAL = ("one", "other")

ROOT = Path(__file__).resolve().parents[2]
USERS = sorted(
    str(p.relative_to(ROOT))
    for folder in ("bot", "cogs")
    for p in (ROOT / folder).glob("*.py")
    if p.name not in ("__init__.py", "__main__.py", "demo.py")
)
"""Modules whose user-facing texts come from the catalogue (the keys they name are checked)."""
KEY = re.compile(r"""(?:\bt|SettingsError|Refusal|Term|cmd_text|say)\(\s*["']([a-z_.0-9-]+)["']""")


def test_lookup_formats_and_falls_back_to_english() -> None:
    assert t("config.saved") == "✅ Saved."
    assert t("config.saved", "fr") == "✅ Enregistré."
    assert t("config.error.max_reminders", "fr", max=5) == "Au plus 5 rappels par décision."
    assert t("config.saved", "de") == t("config.saved")  # no German: English
    assert t("config.saved", None) == t("config.saved", DEFAULT)


def test_a_missing_translation_or_key_never_breaks_a_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fr = dict(catalogue("fr"))
    del fr["config.saved"]
    fr["config.error.hours"] = "{nope} heures"  # a broken translation
    monkeypatch.setattr(i18n, "catalogue", lambda lang: fr if lang == "fr" else catalogue(lang))
    assert i18n.t("config.saved", "fr") == "✅ Saved."
    assert i18n.t("config.error.hours", "fr", value=3, max=4).startswith("3 hours")
    assert i18n.t("no.such.key", "fr") == "no.such.key"


def test_locales() -> None:
    assert normalize("fr") == "fr" and normalize("en-GB") == "en" and normalize("en-US") == "en"
    assert normalize("pt-BR") is None and normalize(None) is None
    assert pick("de", "fr") == "fr" and pick("fr", "en") == "fr" and pick(None, None) == "en"
    assert pick("en-US", "fr") == "en"  # a translation exists for the user's own locale


@pytest.mark.parametrize("language", SUPPORTED[1:])
def test_translations_match_english(language: str) -> None:
    en, other = catalogue(DEFAULT), catalogue(language)
    assert set(other) <= set(en), f"keys unknown in English: {sorted(set(other) - set(en))}"
    for key, text in other.items():
        assert placeholders(text) == placeholders(en[key]), key


@pytest.mark.parametrize("language", ["fr"])
def test_french_covers_every_text(language: str) -> None:
    en, fr = catalogue(DEFAULT), catalogue(language)
    assert [k for k in en if k not in fr] == []


def test_every_key_the_code_names_exists_in_english() -> None:
    en = catalogue(DEFAULT)
    used: set[str] = set()
    for name in USERS:
        used |= set(KEY.findall((ROOT / name).read_text(encoding="utf-8")))
    # Keys built at run time (f-strings):
    for title, body in PAGE_KEYS.values():
        used |= {title, body}
    used |= {f"config.show.default_action.{a}" for a in ("pass", "computer")}
    used |= {f"config.show.abandon_action.{a}" for a in ("computer", "forfeit")}
    used |= {f"config.show.computer.{v}" for v in ("on", "off")}
    used |= {f"settings.{k}.{v}" for k in ("dm", "auto_pass") for v in ("on", "off")}
    used |= {f"language.{code}" for code in SUPPORTED}
    used |= {f"lobby.format.{f}" for f in FORMATS}
    used |= {f"lobby.mode.{m}" for m in ("fast", "fog")}
    used |= {f"lobby.open_seats.{v}" for v in ("take_one", "add_element")}
    used |= {"lobby.menu.new_element", "publish.ping"}
    used |= {f"narration.{k}" for k in ("orders", "fast")} | {"end.resigned", "end.forfeits"}
    used |= {"end.resigned_many", "end.forfeits_many"}
    # Seats (cogs.seats) and history (bot.archive, bot.verify):
    used |= {f"seats.ui.offer.{w}" for w in ("accept", "decline", "withdraw")}
    used |= {f"seats.ui.undo.{w}" for w in ("yes", "no")}
    used |= {f"seats.ui.closed.{w}" for w in ("decline", "withdraw")}
    used |= {f"history.what.{w}" for w in ("verify", "report", "replay")}
    used |= {f"verify.{k}_whole" for k in ("no_replay", "setup_refused")}
    used |= {"verify.failed", "seats.ui.declined"}
    assert len(used) > 50
    assert sorted(k for k in used if k not in en) == []


@pytest.mark.parametrize("language", SUPPORTED)
def test_command_texts_fit_discords_limits(language: str) -> None:
    for key, text in catalogue(language).items():
        if key.startswith(("cmd.", "choice.")) or ".cmd." in key:
            assert 1 <= len(text) <= 100, (key, len(text))
    for title, _ in PAGE_KEYS.values():
        assert len(t(title, language)) <= 100, title  # a select option's label


def test_a_bare_yaml_boolean_key_is_refused() -> None:
    with pytest.raises(ValueError, match="quoted"):
        i18n._flatten(yaml.safe_load("settings:\n  on: 'x'\n"))


def test_a_field_that_begins_a_sentence_gets_a_capital(monkeypatch: pytest.MonkeyPatch) -> None:
    en = {**catalogue("en"), "x.first": "{side!c} goes first; then {side}."}
    monkeypatch.setattr(i18n, "catalogue", lambda lang: en if lang == "en" else catalogue(lang))
    said = i18n.t("x.first", side="the Allied side")
    assert said == "The Allied side goes first; then the Allied side."
    assert placeholders(en["x.first"]) == {"side"}


def test_english_words_a_term_as_an_older_narration_did(monkeypatch: pytest.MonkeyPatch) -> None:
    en = {**catalogue("en"), "x.outer": "{who!c} plays {inner}.", "x.inner": "a new word"}
    monkeypatch.setattr(i18n, "catalogue", lambda lang: en if lang == "en" else catalogue(lang))
    term = i18n.Term("x.outer", who="the Allied side", inner=i18n.Term("x.inner"))
    assert term == "The Allied side plays a new word."
    assert i18n.english(term, {}) == term
    assert i18n.english(term, {"x.inner": "an old word"}) == "The Allied side plays an old word."
    assert (
        i18n.english(term, {"x.outer": "{who} played {inner}"})
        == "the Allied side played a new word"
    )
    assert i18n.english("not a term", {"x.inner": "old"}) == "not a term"


def test_every_older_narration_wording_names_known_keys_and_fields() -> None:
    """``strings/narration/<v>.yaml``: what narration version v said for each key
    reworded since; every key exists today and keeps its fields (the replay fills the
    old wording with today's fields)."""
    en = catalogue(DEFAULT)
    assert i18n.narration_wording(i18n.NARRATION) == {}
    for version in range(1, i18n.NARRATION):
        for key, text in i18n.narration_wording(version).items():
            assert key in en, (version, key)
            assert placeholders(text) <= placeholders(en[key]), (version, key)
