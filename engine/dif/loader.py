"""Load and validate the Down in Flames component data (action deck, aircraft).

The shipped files live in the ``data`` package (``data/dif/deck.yaml`` and
``data/dif/aircraft.yaml``) and are read once, through :mod:`importlib.resources`,
so the loader works from a source checkout, a wheel or a zip. A server admin's
content pack uses the same YAML schema and is validated the same way before use::

    deck = load_deck()                      # the shipped Zero! deck (cached)
    planes = load_aircraft(Path("/srv/pack"))  # /srv/pack/aircraft.yaml

Every problem is reported as a :class:`DataError` naming the file and the field,
e.g. ``aircraft.yaml: [3].leader.damaged.hand_size: Input should be greater than
or equal to 1``. What the rulebooks print and what we authored is recorded in
``data/dif/SOURCES.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import ValidationError

from engine.core.dataload import (
    DataError,
    field_path,
    parse_yaml,
    read_path,
    read_shipped,
    shipped_exists,
)
from engine.core.dataload import problems as _problems
from engine.core.packs import Pack, extend
from engine.dif.components import Aircraft, Card, CardType, Deck, Ruleset

__all__ = [
    "AIRCRAFT_FILE",
    "CONTENT_KINDS",
    "DECK_FILE",
    "ROTL_DECK_FILE",
    "DataError",
    "aircraft_with",
    "load_aircraft",
    "load_deck",
    "load_decks",
]

SYSTEM_DIR = "dif"
DECK_FILE = "deck.yaml"
ROTL_DECK_FILE = "deck-rotl.yaml"
"""The RotL/8AF deck (the Zero! deck plus Full Throttle cards); authored, see SOURCES.md."""
AIRCRAFT_FILE = "aircraft.yaml"
CONTENT_KINDS = ("aircraft",)
"""The sections a content pack's ``dif`` part may have (:mod:`engine.core.packs`)."""

# Keys the deck file's type entries add to CardType's own fields.
_COPIES = "copies"
# Card fields the loader fills in itself; a copy may not set them.
_DERIVED_CARD_FIELDS = frozenset({"id", "type"})


# --- public API --------------------------------------------------------------------


def load_deck(source: Path | str | None = None) -> Deck:
    """The action deck: the shipped one, or the one in a content pack.

    ``source`` is ``None`` for the shipped ``data/dif/deck.yaml`` (parsed once and
    cached; :class:`Deck` is immutable, so sharing it is safe), a directory holding
    a ``deck.yaml``, or the path of a YAML file. Raises :class:`DataError`.
    """
    if source is None:
        return _shipped_deck()
    name, text = read_path(Path(source), DECK_FILE)
    return _parse_deck(name, text)


def load_decks() -> dict[Ruleset, Deck]:
    """The shipped deck of each ruleset: Zero!'s, and RotL's (which adds Full Throttle
    cards). Until ``deck-rotl.yaml`` ships, RotL games use the Zero! deck."""
    zero = _shipped_deck()
    try:
        rotl = _shipped_rotl_deck()
    except DataError:
        if shipped_exists(SYSTEM_DIR, ROTL_DECK_FILE):
            raise
        rotl = zero
    return {Ruleset.ZERO: zero, Ruleset.ROTL: rotl}


def load_aircraft(source: Path | str | None = None) -> dict[str, Aircraft]:
    """Every aircraft, keyed by id, in file order.

    ``source`` is ``None`` for the shipped ``data/dif/aircraft.yaml`` (parsed once
    and cached; each call returns a new dict of the same immutable models), a
    directory holding an ``aircraft.yaml``, or the path of a YAML file. Raises
    :class:`DataError`, also for an id used twice.
    """
    if source is None:
        return dict(_shipped_aircraft())
    name, text = read_path(Path(source), AIRCRAFT_FILE)
    return _parse_aircraft(name, text)


def aircraft_with(packs: Sequence[Pack]) -> dict[str, Aircraft]:
    """The shipped aircraft with each content pack's ``dif.aircraft`` laid over them in
    turn (same schema, same validation; an id already there only with ``override``).
    Raises :class:`DataError` naming the pack's file, entry and field."""
    return extend(_shipped_aircraft(), packs, SYSTEM_DIR, "aircraft", Aircraft)


# --- shipped data ------------------------------------------------------------------


@functools.cache
def _shipped_deck() -> Deck:
    return _parse_deck(DECK_FILE, _read_shipped(DECK_FILE))


@functools.cache
def _shipped_rotl_deck() -> Deck:
    return _parse_deck(ROTL_DECK_FILE, _read_shipped(ROTL_DECK_FILE))


@functools.cache
def _shipped_aircraft() -> Mapping[str, Aircraft]:
    return _parse_aircraft(AIRCRAFT_FILE, _read_shipped(AIRCRAFT_FILE))


def _read_shipped(filename: str) -> str:
    return read_shipped(SYSTEM_DIR, filename)


# --- deck --------------------------------------------------------------------------


def _parse_deck(name: str, text: str) -> Deck:
    """Validate the deck file and expand each type's ``copies`` into cards.

    File shape: ``id``, ``name`` and ``types``, a list of card types (the
    :class:`CardType` fields) each with ``copies``, one annotation mapping
    (``bomb``, ``over_target``, ``spoiled_attack``) per physical card. Cards are
    numbered 0..n-1 in file order.
    """
    raw = parse_yaml(name, text)
    if not isinstance(raw, dict):
        raise DataError(name, ["(top level): expected a mapping with id, name and types"])
    problems: list[str] = []
    unknown = sorted(set(raw) - {"id", "name", "types"}, key=str)
    problems += [f"{key}: Extra inputs are not permitted" for key in unknown]
    for key in ("id", "name"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            problems.append(f"{key}: a non-empty string is required")
    types = raw.get("types")
    if not isinstance(types, list) or not types:
        problems.append("types: a non-empty list of card types is required")
        raise DataError(name, problems)

    cards: list[Card] = []
    seen: dict[str, int] = {}
    for t_index, entry in enumerate(types):
        where = f"types[{t_index}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: expected a mapping (a card type with its copies)")
            continue
        fields = {key: value for key, value in entry.items() if key != _COPIES}
        try:
            card_type = CardType.model_validate(fields)
        except ValidationError as exc:
            problems += _problems(exc, ("types", t_index))
            card_type = None
        if card_type is not None:
            if card_type.code in seen:
                first = seen[card_type.code]
                problems.append(
                    f"{where}: duplicate card type {card_type.code} (see types[{first}])"
                )
            else:
                seen[card_type.code] = t_index

        copies = entry.get(_COPIES)
        if not isinstance(copies, list) or not copies:
            problems.append(f"{where}.{_COPIES}: a non-empty list (one entry per card) is required")
            continue
        for c_index, copy in enumerate(copies):
            c_where = ("types", t_index, _COPIES, c_index)
            if not isinstance(copy, dict):
                problems.append(f"{field_path(c_where)}: expected a mapping of annotations")
                continue
            for key in sorted(_DERIVED_CARD_FIELDS & set(copy)):
                problems.append(f"{field_path([*c_where, key])}: set by the loader, not the file")
            if card_type is None or _DERIVED_CARD_FIELDS & set(copy):
                continue
            try:
                cards.append(Card.model_validate({**copy, "id": len(cards), "type": card_type}))
            except ValidationError as exc:
                problems += _problems(exc, c_where)

    if problems:
        raise DataError(name, problems)
    try:
        return Deck(id=raw["id"], name=raw["name"], cards=tuple(cards))
    except ValidationError as exc:  # pragma: no cover - ids are generated in order
        raise DataError(name, _problems(exc)) from exc


# --- aircraft ----------------------------------------------------------------------


def _parse_aircraft(name: str, text: str) -> dict[str, Aircraft]:
    """Validate the aircraft file: a list of :class:`Aircraft` mappings, ids unique."""
    raw = parse_yaml(name, text)
    if not isinstance(raw, list) or not raw:
        raise DataError(name, ["(top level): expected a non-empty list of aircraft"])
    problems: list[str] = []
    aircraft: dict[str, Aircraft] = {}
    first_index: dict[str, int] = {}
    for index, entry in enumerate(raw):
        try:
            plane = Aircraft.model_validate(entry)
        except ValidationError as exc:
            problems += _problems(exc, (index,))
            continue
        if plane.id in aircraft:
            first = first_index[plane.id]
            problems.append(f"[{index}].id: duplicate id {plane.id!r} (already used by [{first}])")
            continue
        aircraft[plane.id] = plane
        first_index[plane.id] = index
    if problems:
        raise DataError(name, problems)
    return aircraft
