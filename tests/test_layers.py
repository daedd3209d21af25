"""The layers of ``docs/architecture.md``, checked on the source (``ast``, nothing run).

* Imports run one way: ``cogs -> bot -> engine``, ``rendering -> engine``; ``strings``
  imports nothing of ours; ``bot/`` never imports ``cogs/``, not even for type hints.
* ``bot/`` and ``cogs/`` are generic: from ``engine/`` they import ``engine.core`` only
  (a system is reached through the registry), and no system's pictures
  (``rendering.<system>``); they name no system's terms in code.
* No import cycles among our modules, imports inside functions included (only
  ``if TYPE_CHECKING:`` imports, which never run, are left out).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "engine", "rendering", "strings")
SYSTEMS = ("dif", "lockedon", "eagles")
"""Every system package there is or is planned (the registry lists the ones that work)."""

ALLOWED: dict[str, tuple[str, ...]] = {
    "strings": ("strings",),
    "engine": ("engine", "strings"),
    "rendering": ("rendering", "engine", "strings"),
    "bot": ("bot", "engine", "rendering", "strings"),
    "cogs": ("cogs", "bot", "engine", "rendering", "strings"),
}
"""Which of our top-level packages each one may import."""


@dataclass(frozen=True, slots=True)
class Import:
    module: str
    """The importing module."""
    target: str
    """The module imported (``from a.b import c``: ``a.b.c`` if it is a module, else ``a.b``)."""
    line: int
    type_only: bool
    """Inside ``if TYPE_CHECKING:``: never runs."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _ours(name: str) -> str | None:
    """The longest prefix of ``name`` that is one of our modules."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports() -> Iterator[Import]:
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text("utf-8"))
        hidden = {id(inner) for n in ast.walk(tree) if _type_checking(n) for inner in ast.walk(n)}
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package[: len(package) - (node.level - 1)]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets = [
                    f"{base}.{a.name}" if _ours(f"{base}.{a.name}") else base for a in node.names
                ]
            for name in targets:
                target = _ours(name)
                if target is not None and target != module:
                    yield Import(module, target, getattr(node, "lineno", 0), id(node) in hidden)


IMPORTS = list(imports())


def test_the_scan_sees_the_code() -> None:
    assert {"bot.service", "cogs.app", "engine.core.contract", "rendering", "strings"} <= set(
        MODULES
    )
    assert len(IMPORTS) > 200


def test_imports_run_one_way() -> None:
    wrong = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in IMPORTS
        if i.target.split(".")[0] not in ALLOWED[i.module.split(".")[0]]
    ]
    assert not wrong, "\n".join(wrong)


def test_bot_never_imports_cogs() -> None:
    wrong = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in IMPORTS
        if i.module.split(".")[0] == "bot" and i.target.split(".")[0] == "cogs"
    ]
    assert not wrong, "\n".join(wrong)
    assert not [i for i in IMPORTS if i.target == "bot.__main__"], "nothing imports the CLI"


def _system_module(target: str) -> bool:
    parts = target.split(".")
    if parts[0] == "engine":
        return len(parts) > 1 and parts[1] != "core"
    return parts[0] == "rendering" and len(parts) > 1 and parts[1] in SYSTEMS


def test_bot_and_cogs_import_no_system_package() -> None:
    wrong = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in IMPORTS
        if i.module.split(".")[0] in ("bot", "cogs") and _system_module(i.target)
    ]
    assert not wrong, "\n".join(wrong)


TERMS = re.compile(
    r"\bwingman\b|\bwingmen\b|\bRuleset\b|\bSide\.|\bDif[A-Z]\w*|\bElementSetup\b|\bbursts?\b"
    r"|\bCardKind\b|\bAltitude\b|\bFull Throttle\b|\bVertical Roll\b|\bleader\b"
)
"""Down in Flames' terms (its rules' nouns, its modules' types)."""
LITERALS = re.compile(r"^(dif|zero|rotl|lockedon|eagles)$|^(dif|lockedon|eagles)\.")
"""A system's or a ruleset's id, or a key of a system's strings, as a string in code."""


def _code_words(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Names, attributes, arguments and strings of the code (docstrings left out: every
    string standing alone as a statement, a module's, a class's, a function's or an
    attribute's)."""
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, f"{ast.unparse(node.value)}.{node.attr}"
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield line, node.name
        elif isinstance(node, ast.alias):
            yield line, node.asname or node.name
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield line, node.value


def test_bot_and_cogs_name_no_system_terms() -> None:
    wrong = []
    for module, path in MODULES.items():
        if module.split(".")[0] not in ("bot", "cogs") or module.startswith("bot.testing"):
            continue
        for line, word in _code_words(ast.parse(path.read_text("utf-8"))):
            if TERMS.search(word) or LITERALS.search(word):
                wrong.append(f"{module}:{line}: {word!r}")
    assert not wrong, "\n".join(wrong)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in IMPORTS:
        if i.type_only:
            continue
        edges[i.module].add(i.target)
        # importing a.b.c runs a/__init__ and a/b/__init__ first
        parent = i.target.rpartition(".")[0]
        while parent:
            if parent in MODULES and not i.module.startswith(parent + "."):
                edges[i.module].add(parent)
            parent = parent.rpartition(".")[0]
    cycles = _cycles(edges)
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)
