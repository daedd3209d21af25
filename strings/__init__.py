"""The strings catalogue: every user-facing text by key, per language.

This package is the one place user-facing text lives, for the bot and for the
engine alike (it imports nothing but PyYAML, so the engine may use it). Each
language is a folder of YAML files (``en/bot.yaml``: the bot's and the cogs' texts;
``en/dif.yaml``: the Down in Flames engine's narration and refusals); nested
mappings are flattened to dotted keys (``config.saved``), and a key may be defined
in one file of a language only. English is complete; another language may
translate any subset, and :func:`t` falls back to English for the rest, so a
missing translation never shows a key or breaks a message.

Which language a reader gets (:func:`pick`): their Discord client's locale
(``interaction.locale``) if a catalogue exists for it, else the server's language
(``/config language``), else English. Texts everyone sees (the game thread) use the
server's language.

Keys are the contract: code names keys, never English sentences, so a translation
can change without touching code. Placeholders are ``str.format`` fields
(``{hours}``); a translation must use the same ones as English (a test checks).
``{side!c}`` puts a field's first letter in upper case, for a field that begins a
sentence (``the Allied side`` -> ``The Allied side has...``).

The engine's texts are :class:`Term` texts: a ``str`` holding the English text (the
canonical record: logs, conformance vectors and ``/game verify`` read English),
which remembers its key and fields, so the bot shows it in the reader's language
with :func:`tr`.

The narration's English wording is versioned (:data:`NARRATION`): a log file says
which wording it was written in, and ``strings/narration/<version>.yaml`` keeps, for
every key a later version reworded, what that version said, so that :func:`english`
gives a Term as an older version wrote it and old logs still verify word for word.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Callable, Mapping
from functools import cache, partial
from importlib import resources
from typing import Any

import yaml

__all__ = [
    "DEFAULT",
    "LANGUAGE_NAMES",
    "NARRATION",
    "SUPPORTED",
    "LazyTerm",
    "Term",
    "catalogue",
    "english",
    "has",
    "narration_wording",
    "normalize",
    "pick",
    "placeholders",
    "t",
    "tr",
]

log = logging.getLogger(__name__)

DEFAULT = "en"
"""The language every key exists in, and the last fallback."""
SUPPORTED: tuple[str, ...] = ("en", "fr")
"""Languages with a catalogue, English first."""
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
"""Each language in its own words (for menus)."""
NARRATION = 3
"""The version of the English wording of the record: the narration (the engine's
event texts, written in logs) and the verdicts stored with a result. Rewording any of
them makes a new version: bump this and write ``strings/narration/<previous>.yaml``
with what the previous version said for every key that changed (or is new, or fills
a field of one that did), so logs written before still verify."""


class _Formatter(string.Formatter):
    """``str.format`` plus the ``!c`` conversion: the field's first letter upper-cased."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "c":
            text = str(value)
            return text[:1].upper() + text[1:]
        return super().convert_field(value, conversion)


_FORMATTER = _Formatter()


def _format(text: str, fields: Mapping[str, Any]) -> str:
    """``text`` with its fields filled (``str.format``'s speed unless it uses ``!c``)."""
    return _FORMATTER.vformat(text, (), fields) if "!c}" in text else text.format(**fields)


def _flatten(tree: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if not isinstance(key, str):  # YAML 1.1 reads a bare on/off/yes/no as a bool
            raise ValueError(f"key {key!r} under {prefix!r} must be quoted")
        full = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, full + "."))
        elif value is not None:
            out[full] = str(value).rstrip("\n")
    return out


@cache
def catalogue(language: str) -> dict[str, str]:
    """The flattened catalogue of one supported language (empty if it has none):
    every ``<language>/*.yaml`` file of this package, merged."""
    if language not in SUPPORTED:
        return {}
    merged: dict[str, str] = {}
    folder = resources.files(__package__).joinpath(language)
    for file in sorted(folder.iterdir(), key=lambda f: f.name):
        if not file.name.endswith(".yaml"):
            continue
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        if not isinstance(data, Mapping):
            raise ValueError(f"strings/{language}/{file.name} must be a mapping of keys to texts")
        texts = _flatten(data)
        twice = sorted(set(texts) & set(merged))
        if twice:
            raise ValueError(f"strings/{language}/{file.name} defines again: {', '.join(twice)}")
        merged.update(texts)
    return merged


def normalize(locale: object | None) -> str | None:
    """The catalogue language for a Discord locale (``discord.Locale`` or its value,
    e.g. ``"fr"``, ``"en-GB"``), or None if there is no catalogue for it."""
    if locale is None:
        return None
    value = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-")
    base = value.split("-", 1)[0]
    return base if base in SUPPORTED else None


def pick(user_locale: object | None = None, server_language: str | None = None) -> str:
    """The language to answer in: the user's locale where translated, else the
    server's language, else English."""
    return normalize(user_locale) or normalize(server_language) or DEFAULT


def has(key: str, language: str = DEFAULT) -> bool:
    """Whether ``language``'s own catalogue holds ``key`` (no fallback)."""
    return key in catalogue(language)


def placeholders(text: str) -> set[str]:
    """The ``{field}`` names a text uses."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def t(key: str, locale: object | None = None, /, **kwargs: Any) -> str:
    """The text of ``key`` in ``locale``'s language (English where untranslated),
    formatted with ``kwargs``.

    ``locale`` is a language code, a Discord locale or None (English). A key missing
    from English is a bug: it is logged and the key itself is shown rather than
    failing the message.
    """
    if locale is None:  # English, as every Term is made (issue 16: the engine makes many)
        text = catalogue(DEFAULT).get(key)
        if text is not None:
            try:
                return _format(text, kwargs)
            except (KeyError, IndexError, ValueError):
                pass  # said below, as for any language
    language = normalize(locale) or DEFAULT
    if language != DEFAULT:  # a Term's own str is already its English text
        kwargs = {k: tr(v, language) if isinstance(v, Term) else v for k, v in kwargs.items()}
    raw: str | None = None
    for lang in dict.fromkeys((language, DEFAULT)):
        text = catalogue(lang).get(key)
        if text is None:
            continue
        raw = raw if raw is not None else text
        try:
            return _format(text, kwargs)
        except (KeyError, IndexError, ValueError):
            log.warning("bad placeholders in %s text %r", lang, key, exc_info=True)
    if raw is None:
        log.warning("missing text %r", key)
    return raw if raw is not None else key


class Term(str):
    """A catalogue text not yet put in a language: a ``str`` holding its English text
    (so code and tests that only need English use it as is), which remembers its key
    and fields so :func:`tr` can give it in the reader's language. Fields may be
    Terms themselves (a side's name inside a sentence)."""

    key: str
    fields: dict[str, Any]

    def __new__(cls, key: str, /, **fields: Any) -> Term:
        english = _ENGLISH.get(key)
        if english is None:
            english = _english(key)
        try:
            text = english(fields)
        except (KeyError, IndexError, ValueError):
            text = t(key, None, **fields)  # said and shown as t says
        self = super().__new__(cls, text)
        self.key = key
        self.fields = fields
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        # copy and pickle rebuild a Term from its key and fields, not its English text
        return (self.key,), self.fields

    def text(self, locale: object | None) -> str:
        return t(self.key, locale, **self.fields)


class LazyTerm:
    """A :class:`Term` not made yet: its key and fields, made a Term by :meth:`term`
    only when its text is wanted. A Term formats its English text when it is made;
    an engine that narrates every action (an event's text, read only when someone
    shows it: :class:`engine.core.events.Event`) or asks about many actions (a
    refusal, of which legality only needs to know whether there is one) makes one of
    these instead. Its fields must not change after it is made."""

    __slots__ = ("fields", "key")

    def __init__(self, key: str, /, **fields: Any) -> None:
        self.key = key
        self.fields = fields

    def term(self) -> Term:
        return Term(self.key, **self.fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, **{self.fields!r})"


_ENGLISH: dict[str, Callable[[dict[str, Any]], str]] = {}
"""Each key's English text as a function of a Term's fields, kept once asked for: a
:class:`Term` is made with every event the engine narrates, and this spares it
:func:`t`'s lookups (issue 16). The catalogue is read once per process."""


def _english(key: str) -> Callable[[dict[str, Any]], str]:
    """What :data:`_ENGLISH` keeps for ``key``: ``str.format`` of its English text
    (:func:`_format`), or :func:`t` itself for a key English lacks (logged, the key
    shown), not kept."""
    text = catalogue(DEFAULT).get(key)
    if text is None:
        return lambda fields: t(key, None, **fields)
    # _format's choice, made once: str.format's speed unless the text uses !c
    english: Callable[[dict[str, Any]], str] = (
        partial(_FORMATTER.vformat, text, ()) if "!c}" in text else text.format_map
    )
    _ENGLISH[key] = english
    return english


def tr(value: object, locale: object | None) -> str:
    """``value`` in ``locale``'s language if it is a :class:`Term`, else as it is."""
    return value.text(locale) if isinstance(value, Term) else str(value)


@cache
def narration_wording(version: int) -> Mapping[str, str]:
    """The English texts narration ``version`` had where they differ from today's,
    by key (empty for the current version): ``strings/narration/<v>.yaml`` for
    ``version`` and every later one, the oldest text of a key winning."""
    if not 1 <= version <= NARRATION:
        raise ValueError(f"no narration version {version} (1 to {NARRATION})")
    wording: dict[str, str] = {}
    folder = resources.files(__package__).joinpath("narration")
    for v in range(version, NARRATION):
        data = yaml.safe_load(folder.joinpath(f"{v}.yaml").read_text(encoding="utf-8")) or {}
        for key, text in _flatten(data).items():
            wording.setdefault(key, text)
    return wording


def english(value: object, wording: Mapping[str, str]) -> str:
    """``value``'s English text with ``wording``'s texts in place of the catalogue's
    for the keys it holds, in the Term and in the Terms of its fields: the text as an
    older narration version wrote it (:func:`narration_wording`)."""
    if not isinstance(value, Term) or not wording:
        return str(value)
    fields = {k: english(v, wording) if isinstance(v, Term) else v for k, v in value.fields.items()}
    text = wording.get(value.key)
    return t(value.key, None, **fields) if text is None else _format(text, fields)
