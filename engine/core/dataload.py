"""Reading a system's component data: strict YAML, pydantic validation, readable errors.

Every system keeps its components in ``data/<system>/*.yaml`` (shipped as package
data, read through :mod:`importlib.resources`, so a wheel or a zip works) and a
server admin's content pack uses the same files. These helpers are the shared part
of every system's loader: a YAML loader that refuses a key given twice, and a
:class:`DataError` that names the file and the field of every problem, e.g.
``aircraft.yaml: [3].speed: Input should be greater than or equal to 0``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

__all__ = [
    "DATA_PACKAGE",
    "DataError",
    "StrictLoader",
    "field_path",
    "pack_picker",
    "parse_keyed_list",
    "parse_model",
    "parse_yaml",
    "problems",
    "read_path",
    "read_shipped",
    "validate_keyed_list",
]

M = TypeVar("M", bound=BaseModel)

DATA_PACKAGE = "data"


class DataError(Exception):
    """A data file is missing, is not valid YAML, or does not match the schema.

    ``file`` is the file's name as given to the loader (the bare name for shipped
    files, the full path for a content pack); ``problems`` holds one
    ``"<field path>: <message>"`` line per problem found. ``str(error)`` is every
    problem prefixed with the file name, one per line.
    """

    def __init__(self, file: str, problems: Sequence[str]) -> None:
        self.file = file
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{file}: {problem}" for problem in self.problems))

    def __reduce__(self) -> tuple[type[DataError], tuple[str, tuple[str, ...]]]:
        return (type(self), (self.file, self.problems))


def read_shipped(system: str, filename: str) -> str:
    """The text of a shipped data file, ``data/<system>/<filename>``."""
    try:
        resource = resources.files(DATA_PACKAGE) / system / filename
        return resource.read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as exc:
        raise DataError(filename, [f"cannot read the shipped file: {exc}"]) from exc


def shipped_exists(system: str, filename: str) -> bool:
    """Whether ``data/<system>/<filename>`` ships."""
    return (resources.files(DATA_PACKAGE) / system / filename).is_file()


def read_path(path: Path, default_name: str) -> tuple[str, str]:
    """(name used in messages, text) of a content-pack file, or of ``default_name``
    in a content-pack directory."""
    if path.is_dir():
        path = path / default_name
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), [f"cannot read the file: {exc}"]) from exc


class StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping.

    Plain PyYAML keeps the last value silently, which would hide a typo in a
    content pack (two ``speed:`` lines, say).
    """


def _construct_mapping(loader: StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in mapping:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (line {mark.line + 1})", mark
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
    return mapping


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_yaml(name: str, text: str) -> Any:
    """The YAML document in ``text``; :class:`DataError` (with the line) if it is not one."""
    try:
        return yaml.load(text, Loader=StrictLoader)  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise DataError(name, [f"{where}not valid YAML: {problem}"]) from exc


def field_path(loc: Sequence[int | str]) -> str:
    """``(3, 'leader', 'hand_size')`` -> ``[3].leader.hand_size``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or "(top level)"


def problems(exc: ValidationError, prefix: Sequence[int | str] = ()) -> list[str]:
    """One ``"<field path>: <message>"`` line per error of a pydantic validation."""
    lines = []
    for err in exc.errors(include_url=False):
        message = str(err["msg"]).removeprefix("Value error, ")
        lines.append(f"{field_path([*prefix, *err['loc']])}: {message}")
    return lines


def parse_model(name: str, text: str, model: type[M], expected: str) -> M:
    """A file holding one mapping validated as ``model``; ``expected`` says what the
    mapping holds, for the message when it is not one."""
    raw = parse_yaml(name, text)
    if not isinstance(raw, dict):
        raise DataError(name, [f"(top level): expected a mapping with {expected}"])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise DataError(name, problems(exc)) from exc


def parse_keyed_list(name: str, text: str, model: type[M], key: str = "id") -> dict[Any, M]:
    """A non-empty list of ``model`` mappings with unique ``key``s, keyed by it in file
    order; every problem of every entry is reported at once."""
    raw = parse_yaml(name, text)
    if not isinstance(raw, list) or not raw:
        raise DataError(name, ["(top level): expected a non-empty list"])
    return validate_keyed_list(name, raw, model, key)


def validate_keyed_list(
    name: str, raw: Sequence[Any], model: type[M], key: str = "id", prefix: str = ""
) -> dict[Any, M]:
    """The entries of a parsed list validated as ``model`` and keyed by ``key``, in
    order: the one validation of a shipped file and of a content pack's section
    (``prefix`` names the section in messages: ``dif.aircraft``). Every problem of every
    entry is reported at once, a key given twice included."""
    found: list[str] = []
    items: dict[Any, M] = {}
    first_index: dict[Any, int] = {}
    for index, entry in enumerate(raw):
        where: tuple[int | str, ...] = (prefix, index) if prefix else (index,)
        try:
            item = model.model_validate(entry)
        except ValidationError as exc:
            found += problems(exc, where)
            continue
        item_key = getattr(item, key)
        if item_key in items:
            first = first_index[item_key]
            found.append(
                f"{field_path([*where, key])}: duplicate {key} {item_key!r} "
                f"(already used by [{first}])"
            )
            continue
        items[item_key] = item
        first_index[item_key] = index
    if found:
        raise DataError(name, found)
    return items


def pack_picker(source: Path | str) -> Callable[[str], Path | None]:
    """The files of a content-pack directory: ``pick(filename)`` is the pack's file of
    that name, or None where the pack has none (the shipped one is kept). Raises
    :class:`DataError` when ``source`` is not a directory."""
    pack = Path(source)
    if not pack.is_dir():
        raise DataError(str(pack), ["a content pack for load_components is a directory"])

    def pick(filename: str) -> Path | None:
        return pack / filename if (pack / filename).is_file() else None

    return pick
