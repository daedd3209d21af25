"""The mechanics of the static scans (``ast``) that keep texts for a reader out of the
code: the literal text of a node, the nodes whose strings are no text for a reader
(docstrings, log calls, catalogue keys, internal exceptions, ``__all__``), and a walk
over the remaining literals that counts an f-string once, as a whole.

Each test module keeps its own policy (which modules it scans, which calls take a
catalogue key, what reads like a text, what is allowed and why) and hands it in.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path

Dropped = Callable[[ast.AST], Iterable[ast.AST]]
"""The nodes a test module's own policy skips, asked of every node of the tree."""


def parse(path: Path) -> ast.Module:
    """The syntax tree of a source file (a syntax error names the file)."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def text_of(node: ast.AST) -> str | None:
    """A str constant, or an f-string with ``{}`` for its fields."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
            for v in node.values
        )
    return None


def holds_text(node: ast.expr | None) -> bool:
    """A string literal, an f-string, or text glued to one ("a" + x, "a" "b", "a" if c else x)."""
    if isinstance(node, ast.BinOp):
        return holds_text(node.left) or holds_text(node.right)
    if isinstance(node, ast.IfExp):
        return holds_text(node.body) or holds_text(node.orelse)
    return node is not None and text_of(node) is not None


def callee(func: ast.expr, *, methods: bool = True) -> str:
    """The name a call is made by: ``f(`` is ``f``; ``x.f(`` too, unless not ``methods``."""
    if isinstance(func, ast.Name):
        return func.id
    if methods and isinstance(func, ast.Attribute):
        return func.attr
    return ""


def skipped_nodes(
    tree: ast.AST,
    *,
    keyed: Collection[str],
    internal_errors: Collection[str],
    log_methods: Collection[str] = (),
    logger: str = "log",
    console: Collection[str] = (),
    methods: bool = True,
    dropped: Dropped = lambda node: (),
) -> set[int]:
    """Ids of the nodes whose strings are not texts for a reader: docstrings (and
    attribute docstrings), the first argument of a ``keyed`` call (a catalogue key),
    ``logger.<log_methods>(...)`` and ``console`` calls, ``raise`` of an
    ``internal_errors`` exception, ``__all__``, and whatever ``dropped`` names.
    ``methods``: whether ``x.name(...)`` counts as a call of ``name`` (see :func:`callee`).
    """
    skip: set[int] = set()

    def drop(node: ast.AST) -> None:
        skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        for extra in dropped(node):
            drop(extra)
        if isinstance(node, ast.Expr) and text_of(node.value) is not None:
            drop(node)  # docstrings (and attribute docstrings)
        elif isinstance(node, ast.Call):
            name = callee(node.func, methods=methods)
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            logged = name in log_methods and isinstance(owner, ast.Name) and owner.id == logger
            if name in keyed and node.args:
                drop(node.args[0])
            elif logged or name in console:
                drop(node)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            if callee(node.exc.func, methods=methods) in internal_errors:
                drop(node.exc)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            drop(node)
    return skip


def literals(tree: ast.AST, skip: Collection[int] = frozenset()) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every literal of ``tree`` not in ``skip``, in walk order; an
    f-string is one text (see :func:`text_of`), nothing inside it counts again."""
    seen: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in seen:
            continue
        literal = text_of(node)
        if literal is None:
            continue
        if isinstance(node, ast.JoinedStr):
            seen.update(id(n) for n in ast.walk(node))
        yield getattr(node, "lineno", 0), literal


def string_constants(tree: ast.AST) -> Iterator[str]:
    """Every str constant of ``tree`` but the pieces of an f-string (each is part of a
    text, not a string of its own)."""
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            yield node.value
