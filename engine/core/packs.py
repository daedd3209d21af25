"""Content packs: a server's own components, in the schemas of the built-in data.

A pack is one YAML document a server admin uploads::

    pack: fictional-aces            # its name: lower-case letters, digits, dashes
    provenance: |                   # where its values come from (shown in /config pack list)
      Authored by the server's admins for a what-if campaign; not printed anywhere.
    dif:                            # a system's id, then its sections
      aircraft:                     # entries in exactly the schema of data/dif/aircraft.yaml
        - id: xp-77
          name: XP-77
          ...
        - id: a6m2                  # an id the built-in data (or an earlier pack) has:
          override: true            # refused unless the entry says it replaces it
          ...

Each section is validated by the same function as the built-in file
(:func:`engine.core.dataload.validate_keyed_list`, the same pydantic model), then
:func:`extend` lays the pack's entries over the built-in ones: the built-in data is the
first layer, each pack one more. A system says which sections it takes (its
``CONTENT_KINDS``) and builds itself from the layers (its ``system_with``; see
:func:`engine.core.registry.with_content`).

The document comes from a stranger, so :func:`read_pack` refuses before anything else
is done with it: more than :data:`MAX_BYTES` bytes, text that is not UTF-8, YAML anchors
and aliases (what a "YAML bomb" expands with; a pack never needs them), nesting deeper
than :data:`MAX_DEPTH`, more than :data:`MAX_ENTRIES` entries, a string longer than
:data:`MAX_TEXT` characters (:data:`MAX_PROVENANCE` for the provenance), and any string
that could ping or format when the bot shows it (:data:`UNSAFE`: mentions, markdown,
links outside the provenance). Such text is refused, not rewritten, so what the pack
says is what players read. Every refusal is a :class:`DataError` naming the file, the
entry and the field.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel

from engine.core.dataload import DataError, StrictLoader, field_path, validate_keyed_list

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "MAX_PROVENANCE",
    "MAX_TEXT",
    "OVERRIDE",
    "UNSAFE",
    "Pack",
    "PackEntry",
    "entry_places",
    "extend",
    "placed_problems",
    "read_pack",
]

M = TypeVar("M", bound=BaseModel)

MAX_BYTES = 65_536
"""A pack's size, checked before it is parsed (the built-in aircraft file is 24 KB)."""
MAX_DEPTH = 12
"""Nesting levels of the document (an aircraft's deepest field is at level 6)."""
MAX_ENTRIES = 200
"""Entries in all the sections of a pack together."""
MAX_TEXT = 100
"""Characters of any string but the provenance (an aircraft's name is about 20)."""
MAX_PROVENANCE = 2_000
"""Characters of the provenance."""
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
"""A pack's name: what ``/config pack remove`` is given."""
KEY = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
"""A mapping's key (a field's name: the schema refuses any it does not know)."""
OVERRIDE = "override"
"""The key an entry adds to replace an entry of the same id (removed before validation)."""

_MARKUP = r"[@<>`*~|\[\]\\#]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|[\x00-\x09\x0b-\x1f\x7f]"
UNSAFE = re.compile(_MARKUP + "|://")
"""What a pack's strings may not hold: a mention's characters (``@everyone``, ``<@1>``,
``<#2>``), markdown's (bold, italics, strike-through, spoilers, code, headings, masked
links, escapes; an underscore only inside a word, ``light_bomber``, which markdown leaves
alone), a link, a control character (a tab included). A newline is allowed in
the provenance only, and a link too (``https://`` is how one cites a source)."""
_UNSAFE_PROVENANCE = re.compile(_MARKUP)
_TOP = ("pack", "provenance")


@dataclass(frozen=True)
class PackEntry:
    """One entry of a section: its place in the section, its fields (``override``
    removed) and whether it replaces an entry of the same id."""

    index: int
    fields: Mapping[str, Any]
    override: bool


@dataclass(frozen=True)
class Pack:
    """A pack that passed :func:`read_pack`: its entries are not yet validated against
    their schema (a system does that, with :func:`extend`)."""

    file: str
    """The uploaded file's name, for messages."""
    name: str
    provenance: str
    digest: str
    """SHA-256 of the document's bytes: which version of a pack a game used."""
    sections: Mapping[str, Mapping[str, tuple[PackEntry, ...]]]
    """System id -> section (``aircraft``) -> entries, in the document's order."""

    def entries(self, system: str, kind: str) -> tuple[PackEntry, ...]:
        """The entries of one section (none if the pack has no such section)."""
        return self.sections.get(system, {}).get(kind, ())

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems the pack has sections for."""
        return tuple(self.sections)


# --- reading ---------------------------------------------------------------------------


def read_pack(file: str, data: bytes, kinds: Mapping[str, Sequence[str]]) -> Pack:
    """The pack in ``data`` (an uploaded file named ``file``), its shape checked:
    ``kinds`` maps each system id to the sections it takes. Raises :class:`DataError`
    naming the file, the entry and the field of every problem found."""
    if len(data) > MAX_BYTES:
        raise DataError(file, [f"(file): {len(data)} bytes, more than the {MAX_BYTES} allowed"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(file, [f"(file): not UTF-8 text ({exc.reason})"]) from exc
    raw = _parse(file, text)
    if not isinstance(raw, dict):
        raise DataError(
            file, ["(top level): expected a mapping with pack, provenance and sections"]
        )
    found = list(_unsafe_text(raw))
    found += _shape(raw, kinds)
    if found:
        raise DataError(file, found)
    sections: dict[str, dict[str, tuple[PackEntry, ...]]] = {}
    for system in (key for key in raw if key not in _TOP):
        for kind, entries in raw[system].items():
            sections.setdefault(system, {})[kind] = _entries(f"{system}.{kind}", entries, found)
    if found:
        raise DataError(file, found)
    return Pack(
        file=file,
        name=raw["pack"],
        provenance=raw["provenance"].strip(),
        digest=hashlib.sha256(data).hexdigest(),
        sections=sections,
    )


class _PackLoader(StrictLoader):
    """The strict loader, refusing anchors and aliases and capping the nesting: what
    makes a small document expand into a huge or endlessly deep one."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise yaml.composer.ComposerError(
                None,
                None,
                "anchors and aliases (& and *) are not allowed in a pack",
                event.start_mark,
            )
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(
                None, None, f"nested deeper than {MAX_DEPTH} levels", event.start_mark
            )
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _parse(file: str, text: str) -> Any:
    loader = _PackLoader(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(file, [f"{where}not valid YAML: {problem}"]) from exc
    except ValueError as exc:  # an integer of thousands of digits
        raise DataError(file, [f"not valid YAML: {exc}"]) from exc
    finally:
        loader.dispose()


def _unsafe_text(value: Any, path: tuple[int | str, ...] = ()) -> Iterator[str]:
    """One problem per string that is too long or could ping or format, and per key that
    is not a plain word (it would be repeated in the schema's message)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if not isinstance(key, str) or not KEY.match(key):
                yield f"{field_path([*path, '(key)'])}: a key is 1 to 40 letters, digits, - or _"
                continue
            yield from _unsafe_text(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _unsafe_text(inner, (*path, index))
    elif isinstance(value, str):
        if path == ("provenance",):
            yield from _check_text(value, path, MAX_PROVENANCE, _UNSAFE_PROVENANCE)
        else:
            yield from _check_text(value, path, MAX_TEXT, UNSAFE)


def _check_text(
    text: str, path: tuple[int | str, ...], limit: int, unsafe: re.Pattern[str]
) -> Iterator[str]:
    where = field_path(path)
    if len(text) > limit:
        yield f"{where}: {len(text)} characters, more than the {limit} allowed"
    found = unsafe.search(text)
    if found is not None:
        yield f"{where}: {found.group()!r} is not allowed (mentions, markdown and links are refused)"


def _shape(raw: dict[Any, Any], kinds: Mapping[str, Sequence[str]]) -> list[str]:
    """The top level's problems: name, provenance, known systems and sections, the
    number of entries."""
    found: list[str] = []
    name = raw.get("pack")
    if not isinstance(name, str) or not NAME.match(name):
        found.append("pack: a name of 1 to 32 lower-case letters, digits and dashes is required")
    provenance = raw.get("provenance")
    if not isinstance(provenance, str) or not provenance.strip():
        found.append("provenance: a text saying where the values come from is required")
    systems = [key for key in raw if key not in _TOP]
    if not systems:
        found.append(f"(top level): no section (a system's id: {', '.join(kinds)})")
    total = 0
    for system in systems:
        if system not in kinds:
            found.append(f"{system}: unknown system (one of {', '.join(kinds)})")
            continue
        sections = raw[system]
        if not isinstance(sections, dict) or not sections:
            found.append(f"{system}: expected a mapping of sections ({', '.join(kinds[system])})")
            continue
        for kind, entries in sections.items():
            if kind not in kinds[system]:
                found.append(
                    f"{system}.{kind}: unknown section (one of {', '.join(kinds[system])})"
                )
            elif not isinstance(entries, list) or not entries:
                found.append(f"{system}.{kind}: expected a non-empty list of entries")
            else:
                total += len(entries)
    if total > MAX_ENTRIES:
        found.append(f"(top level): {total} entries, more than the {MAX_ENTRIES} allowed")
    return found


def _entries(section: str, raw: list[Any], found: list[str]) -> tuple[PackEntry, ...]:
    """The section's entries with their ``override`` flag taken out; an entry that is
    not a mapping or an ``override`` that is not true or false is added to ``found``."""
    out = []
    for index, entry in enumerate(raw):
        where = field_path([section, index])
        if not isinstance(entry, dict):
            found.append(f"{where}: expected a mapping (one entry)")
            continue
        flag = entry.get(OVERRIDE, False)
        if not isinstance(flag, bool):
            found.append(f"{where}.{OVERRIDE}: true or false")
        fields = {key: value for key, value in entry.items() if key != OVERRIDE}
        out.append(PackEntry(index, fields, flag is True))
    return tuple(out)


# --- laying packs over the built-in data -----------------------------------------------


def extend(
    base: Mapping[Any, M],
    packs: Sequence[Pack],
    system: str,
    kind: str,
    model: type[M],
    key: str = "id",
) -> dict[Any, M]:
    """``base`` (the built-in entries, keyed by ``key``) with each pack's section
    ``system.kind`` laid over it in turn: a new key is added at the end, a key already
    there is replaced in place if its entry says ``override: true`` and refused if not.
    Each entry is validated by ``model`` as the built-in file is. Raises
    :class:`DataError` naming the pack's file, the entry and the field."""
    merged = dict(base)
    origin = {k: "the built-in data" for k in merged}
    for pack in packs:
        entries = pack.entries(system, kind)
        if not entries:
            continue
        prefix = f"{system}.{kind}"
        items = validate_keyed_list(pack.file, [e.fields for e in entries], model, key, prefix)
        found = []
        for entry, item_key in zip(entries, items, strict=True):
            where = f"{field_path([prefix, entry.index])}.{key}"
            if item_key in merged and not entry.override:
                found.append(
                    f"{where}: {item_key!r} is already in {origin[item_key]}; "
                    f"add '{OVERRIDE}: true' to the entry to replace it"
                )
            elif item_key not in merged and entry.override:
                found.append(f"{where}: {item_key!r} overrides nothing (no entry has this {key})")
        if found:
            raise DataError(pack.file, found)
        for item_key, item in items.items():
            merged[item_key] = item
            origin[item_key] = f"pack {pack.name!r}"
    return merged


def entry_places(
    packs: Sequence[Pack],
    system: str,
    kind: str,
    key: Callable[[Mapping[str, Any]], Any] = lambda fields: str(fields.get("id")),
) -> dict[Any, str]:
    """Where each entry of the packs' section ``system.kind`` is, by its key, for a
    cross-check's message (the data's checks run once every pack is laid over the
    built-in data, so a problem must say whose entry it is): the section and entry
    (``eagles.campaigns[0]``), after the pack's name unless it is the last, the one
    being checked (``pack 'older' eagles.campaigns[0]``). A later pack's entry of the
    same key wins; built-in entries are not listed (the caller names them)."""
    places: dict[Any, str] = {}
    for pack in packs:
        for entry in pack.entries(system, kind):
            where = f"{system}.{kind}[{entry.index}]"
            places[key(entry.fields)] = (
                where if pack is packs[-1] else f"pack {pack.name!r} {where}"
            )
    return places


def placed_problems(
    packs: Sequence[Pack],
    system: str,
    kind: str,
    label: str,
    items: Mapping[str, M],
    check: Callable[[M], Iterable[str]],
) -> list[str]:
    """The cross-check ``check`` (problems as ``<field>: <message>``) of every entry of
    ``items`` (the built-in ones and the packs' section ``system.kind``, laid over them
    by :func:`extend`), each problem after its entry's place: the pack's section and
    entry (:func:`entry_places`), or ``<label> <id>`` for a built-in entry
    (``built-in campaign malaya.options.japanese[1]: ...``)."""
    places = entry_places(packs, system, kind)
    return [
        f"{places.get(key, f'{label} {key}')}.{problem}"
        for key, item in items.items()
        for problem in check(item)
    ]
