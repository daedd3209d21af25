"""No user-facing English left inline in the bot: every text a Discord user reads comes
from the strings catalogue (``strings/<lang>/*.yaml``), so it can be translated.

A static scan (``ast``) of the bot's and the cogs' modules: it flags string literals
and f-strings that read like English sentences (three words or more starting with a
capital letter or an emoji, or a run of three lowercase words), outside docstrings,
log calls, catalogue keys (``t(``, ``Term(``, ``Refusal(``...), internal exceptions
and the command line's output. A real exception goes in :data:`ALLOWED`, with why.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

from tests.textscan import literals, parse, skipped_nodes

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_MODULES = {
    "bot/__init__.py",
    "bot/__main__.py",  # the command line: an admin's terminal
    "cogs/demo.py",  # `python -m bot demo`: an admin's terminal
    "cogs/__init__.py",
}
PRESENTATION = ("ui.py", "menus.py", "lobbytext.py", "report.py", "alttext.py")
"""A system's modules of what the bot shows (its presenter: ``engine/<system>/ui.py``)."""
MODULES = sorted(
    [
        str(p.relative_to(ROOT))
        for folder in ("bot", "cogs")
        for p in (ROOT / folder).glob("*.py")
        if str(p.relative_to(ROOT)) not in SKIPPED_MODULES
    ]
    + [str(p.relative_to(ROOT)) for p in (ROOT / "engine").glob("*/*.py") if p.name in PRESENTATION]
)
"""Every module of the bot and the cogs but the command line (not ``bot/testing``, the
test harness, nor ``bot/storage``, which speaks to the database only), and every
system's presentation modules."""

KEYED = frozenset({"t", "Term", "Refusal", "SettingsError", "cmd_text", "has", "say", "locale_str"})
"""Calls whose first argument is a catalogue key, not a text."""
LOG_METHODS = frozenset({"debug", "info", "warning", "error", "exception", "critical"})
CONSOLE = frozenset({"write", "print"})
"""``sys.stdout.write``, ``print``: the command line (``python -m bot verify``)."""
INTERNAL_ERRORS = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "LookupError",
        "RuntimeError",
        "AssertionError",
        "ReplayError",
    }
)
"""Exceptions for programmers and logs (a player sees a ``UserError``/``Refusal``)."""

ALLOWED: dict[tuple[str, str], str] = {
    ("bot/actionlog.py", "undo_narration"): "an undo marker's line in the exported log and "
    "its verification: the canonical record, English in every language",
    ("bot/logfile.py", "export_log"): "the exported log file: the canonical record, English "
    "in every language (read back by parse_log and `python -m bot verify`)",
    ("bot/verify.py", "verify_main"): "`python -m bot verify`: the command line's output",
    ("bot/move.py", "move_main"): "`python -m bot export|import`: the command line's output",
    ("bot/move.py", "backup_main"): "`python -m bot backup`: the command line's output",
    ("bot/ratings.py", "ratings_main"): "`python -m bot ratings`: the command line's output",
    ("engine/dif/ui.py", "_hand_line"): "the exported full log's hand lines (canonical record)",
    ("engine/dif/ui.py", "final_lines"): "`python -m bot verify`: the command line's output",
    ("engine/dif/ui.py", "full_log_legend"): "the exported full log's header (canonical record)",
    ("engine/lockedon/ui.py", "final_lines"): "`python -m bot verify`: the command line's output",
    ("engine/eagles/ui.py", "final_lines"): "`python -m bot verify`: the command line's output",
    ("engine/eagles/ui.py", "full_log_legend"): "the exported full log's header (canonical record)",
    ("engine/eagles/ui.py", "log_fields"): "the exported log's header fields (canonical record)",
    (
        "engine/lockedon/ui.py",
        "full_log_legend",
    ): "the exported full log's header (canonical record)",
}
"""``(module, function)`` whose texts stay inline on purpose, with why."""

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
PHRASE = re.compile(r"(?<![\w{}/.:-])[a-z][a-z'’]*(?: [a-z][a-z'’]*){2,}(?![\w{}/.:-])")
"""Three lowercase words in a row: a piece of an English sentence."""


def _english(text: str) -> bool:
    """Whether a literal reads like English prose meant for a reader."""
    stripped = text.strip(" \n*_`•")
    if not stripped or re.fullmatch(r"[A-Z0-9_]+", stripped):  # empty, or a NAME
        return False
    words = WORD.findall(stripped)
    first = stripped[0]
    capital = first.isupper() or unicodedata.category(first) == "So"
    return (capital and len(words) >= 3) or bool(PHRASE.search(text))


def inline_texts(module: str, source: str | None = None) -> list[tuple[int, str]]:
    """``(line, text)`` of every literal of ``module`` that reads like English prose."""
    text = source if source is not None else (ROOT / module).read_text(encoding="utf-8")
    tree = ast.parse(text)

    def allowed(node: ast.AST) -> list[ast.AST]:
        """The functions of ``module`` in :data:`ALLOWED`: skipped whole."""
        listed = isinstance(node, ast.FunctionDef) and (module, node.name) in ALLOWED
        return [node] if listed else []

    skip = skipped_nodes(
        tree,
        keyed=KEYED,
        internal_errors=INTERNAL_ERRORS,
        log_methods=LOG_METHODS,
        logger="log",
        console=CONSOLE,
        dropped=allowed,
    )
    return sorted((line, literal) for line, literal in literals(tree, skip) if _english(literal))


@pytest.mark.parametrize("module", MODULES)
def test_no_english_sentence_is_left_inline(module: str) -> None:
    assert inline_texts(module) == [], (
        f"{module}: move these texts to strings/en/bot.yaml (and fr), or allow them with a reason"
    )


def test_the_allow_list_names_functions_still_there() -> None:
    for module, function in ALLOWED:
        tree = parse(ROOT / module)
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert function in names, (module, function)


def test_the_scan_finds_inline_english() -> None:
    source = '''
def f(x):
    """A docstring is fine."""
    log.info("Something went wrong in %s", x)
    raise ValueError("an internal error for the log")
    reply(t("config.saved", "en"))
    reply(f"Seat {x} is now flown by a computer player.")
    reply("⛔ Nothing was changed.")
    return f"{x}: the default applies"
'''
    found = [text for _, text in inline_texts("bot/example.py", source)]
    assert found == [
        "Seat {} is now flown by a computer player.",
        "⛔ Nothing was changed.",
        "{}: the default applies",
    ]
