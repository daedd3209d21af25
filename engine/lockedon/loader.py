"""Load and validate the Locked-On component data.

The shipped files live in the ``data`` package (``data/lockedon/deck.yaml``,
``aircraft.yaml``, ``missiles.yaml``, ``skills.yaml``, ``sites.yaml``) and are read
once, through :mod:`importlib.resources`. A server admin's content pack uses the same
YAML schema and is validated the same way before use::

    deck = load_deck()                           # the shipped deck (cached)
    planes = load_aircraft(Path("/srv/pack"))    # /srv/pack/aircraft.yaml
    everything = load_components(Path("/srv/pack"))  # pack files, shipped for the rest

Every problem is reported as a :class:`DataError` naming the file and the field, e.g.
``aircraft.yaml: [3].speed: Input should be greater than or equal to 0``. Duplicate
ids, duplicate YAML keys and references to unknown missiles or cards are refused.
What the rulebook prints and what we authored is in ``data/lockedon/SOURCES.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

from pydantic import BaseModel

from engine.core.dataload import (
    DataError,
    pack_picker,
    parse_keyed_list,
    parse_model,
    read_path,
    read_shipped,
)
from engine.core.packs import Pack, extend
from engine.lockedon.components import Aircraft, Deck, Missile, Site, Skill

__all__ = [
    "AIRCRAFT_FILE",
    "CONTENT_KINDS",
    "DECK_FILE",
    "MISSILES_FILE",
    "SITES_FILE",
    "SKILLS_FILE",
    "SYSTEM_DIR",
    "Components",
    "DataError",
    "components_with",
    "load_aircraft",
    "load_components",
    "load_deck",
    "load_missiles",
    "load_sites",
    "load_skills",
]

SYSTEM_DIR = "lockedon"
DECK_FILE = "deck.yaml"
AIRCRAFT_FILE = "aircraft.yaml"
MISSILES_FILE = "missiles.yaml"
SKILLS_FILE = "skills.yaml"
SITES_FILE = "sites.yaml"

CONTENT_KINDS = ("aircraft", "missiles", "skills", "sites")
"""The sections a content pack's ``lockedon`` part may have (:mod:`engine.core.packs`)."""

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Components:
    """Every Locked-On component, cross-checked: each aircraft's missiles exist, each
    card a skill names is in the deck. The mappings are read-only, keyed by id in file
    order."""

    deck: Deck
    aircraft: Mapping[str, Aircraft]
    missiles: Mapping[str, Missile]
    skills: Mapping[str, Skill]
    sites: Mapping[str, Site]


# --- public API ------------------------------------------------------------------------


def load_deck(source: Path | str | None = None) -> Deck:
    """The Action deck: the shipped one (``source`` None, parsed once and cached), a
    content-pack directory holding a ``deck.yaml``, or a YAML file's path."""
    if source is None:
        return _shipped_deck()
    name, text = read_path(Path(source), DECK_FILE)
    return _parse_deck(name, text)


def load_aircraft(source: Path | str | None = None) -> dict[str, Aircraft]:
    """Every aircraft keyed by id, in file order (shipped, pack directory or file).

    Each call returns a new dict of the same immutable models. Missile ids are only
    checked against ``missiles.yaml`` by :func:`load_components`.
    """
    return _load_list(source, AIRCRAFT_FILE, Aircraft, _shipped_aircraft)


def load_missiles(source: Path | str | None = None) -> dict[str, Missile]:
    """Every missile keyed by id, in file order (shipped, pack directory or file)."""
    return _load_list(source, MISSILES_FILE, Missile, _shipped_missiles)


def load_skills(source: Path | str | None = None) -> dict[str, Skill]:
    """Every skill keyed by id, in file order (shipped, pack directory or file)."""
    return _load_list(source, SKILLS_FILE, Skill, _shipped_skills)


def load_sites(source: Path | str | None = None) -> dict[str, Site]:
    """Every SAM/AAA site type keyed by id, in file order (shipped, pack directory or
    file)."""
    return _load_list(source, SITES_FILE, Site, _shipped_sites)


def load_components(source: Path | str | None = None) -> Components:
    """All five files, cross-checked. ``source`` None is the shipped data (cached); a
    content-pack directory replaces each file it holds and keeps the shipped one for
    the others. Raises :class:`DataError` naming the file and field of each problem."""
    if source is None:
        return _shipped_components()
    pick = pack_picker(source)

    return _bundle(
        load_deck(pick(DECK_FILE)),
        load_aircraft(pick(AIRCRAFT_FILE)),
        load_missiles(pick(MISSILES_FILE)),
        load_skills(pick(SKILLS_FILE)),
        load_sites(pick(SITES_FILE)),
        names={
            AIRCRAFT_FILE: str(pick(AIRCRAFT_FILE) or AIRCRAFT_FILE),
            SKILLS_FILE: str(pick(SKILLS_FILE) or SKILLS_FILE),
            SITES_FILE: str(pick(SITES_FILE) or SITES_FILE),
        },
    )


def components_with(packs: Sequence[Pack]) -> Components:
    """The shipped components with each content pack's ``lockedon`` sections
    (``aircraft``, ``missiles``, ``skills``, ``sites``) laid over them in turn, then
    cross-checked as the shipped files are (a pack's aircraft may carry a pack's
    missile). Raises :class:`DataError` naming the pack's file, entry and field; a
    cross-check's names the section and the entry's place among all of them."""
    last = packs[-1].file if packs else ""
    return _bundle(
        _shipped_deck(),
        extend(_shipped_aircraft(), packs, SYSTEM_DIR, "aircraft", Aircraft),
        extend(_shipped_missiles(), packs, SYSTEM_DIR, "missiles", Missile),
        extend(_shipped_skills(), packs, SYSTEM_DIR, "skills", Skill),
        extend(_shipped_sites(), packs, SYSTEM_DIR, "sites", Site),
        names={f: f"{last}: {SYSTEM_DIR}.{f.removesuffix('.yaml')}" for f in _SECTION_FILES}
        if packs
        else {},
    )


_SECTION_FILES = (AIRCRAFT_FILE, SKILLS_FILE, SITES_FILE)


# --- shipped data (cached) -------------------------------------------------------------


@functools.cache
def _shipped_deck() -> Deck:
    return _parse_deck(DECK_FILE, read_shipped(SYSTEM_DIR, DECK_FILE))


@functools.cache
def _shipped_aircraft() -> Mapping[str, Aircraft]:
    return parse_keyed_list(AIRCRAFT_FILE, read_shipped(SYSTEM_DIR, AIRCRAFT_FILE), Aircraft)


@functools.cache
def _shipped_missiles() -> Mapping[str, Missile]:
    return parse_keyed_list(MISSILES_FILE, read_shipped(SYSTEM_DIR, MISSILES_FILE), Missile)


@functools.cache
def _shipped_skills() -> Mapping[str, Skill]:
    return parse_keyed_list(SKILLS_FILE, read_shipped(SYSTEM_DIR, SKILLS_FILE), Skill)


@functools.cache
def _shipped_sites() -> Mapping[str, Site]:
    return parse_keyed_list(SITES_FILE, read_shipped(SYSTEM_DIR, SITES_FILE), Site)


@functools.cache
def _shipped_components() -> Components:
    return _bundle(
        _shipped_deck(),
        dict(_shipped_aircraft()),
        dict(_shipped_missiles()),
        dict(_shipped_skills()),
        dict(_shipped_sites()),
        names={},
    )


# --- parsing ---------------------------------------------------------------------------


def _load_list(
    source: Path | str | None,
    filename: str,
    model: type[M],
    shipped: Callable[[], Mapping[str, M]],
) -> dict[str, M]:
    if source is None:
        return dict(shipped())
    name, text = read_path(Path(source), filename)
    return parse_keyed_list(name, text, model)


def _parse_deck(name: str, text: str) -> Deck:
    """The deck file: a mapping with ``id``, ``name`` and ``types`` (a list of
    :class:`~engine.lockedon.components.CardType` mappings)."""
    return parse_model(name, text, Deck, "id, name and types")


def _bundle(
    deck: Deck,
    aircraft: dict[str, Aircraft],
    missiles: dict[str, Missile],
    skills: dict[str, Skill],
    sites: dict[str, Site],
    *,
    names: Mapping[str, str],
) -> Components:
    """Cross-file checks, then the read-only bundle. ``names`` maps a file to the name
    used in messages (a pack's path); shipped files go by their bare name."""
    missing: list[str] = []
    for index, plane in enumerate(aircraft.values()):
        for m_index, load in enumerate(plane.missiles):
            if load.missile not in missiles:
                missing.append(
                    f"[{index}].missiles[{m_index}].missile: unknown missile "
                    f"{load.missile!r} (not in {MISSILES_FILE})"
                )
    if missing:
        raise DataError(names.get(AIRCRAFT_FILE, AIRCRAFT_FILE), missing)
    codes = deck.by_code
    bad_cards: list[str] = []
    for index, skill in enumerate(skills.values()):
        for c_index, code in enumerate(skill.cards):
            if code not in codes:
                bad_cards.append(
                    f"[{index}].cards[{c_index}]: unknown card {code!r} (not in {DECK_FILE})"
                )
    if bad_cards:
        raise DataError(names.get(SKILLS_FILE, SKILLS_FILE), bad_cards)
    titles = {title for t in deck.types for title in t.titles}
    bad_sites = [
        f"[{index}].looks_for: no card in {DECK_FILE} is a {title!r}"
        for index, site in enumerate(sites.values())
        for title in sorted(site.looks_for - titles)
    ]
    if bad_sites:
        raise DataError(names.get(SITES_FILE, SITES_FILE), bad_sites)
    return Components(
        deck=deck,
        aircraft=MappingProxyType(aircraft),
        missiles=MappingProxyType(missiles),
        skills=MappingProxyType(skills),
        sites=MappingProxyType(sites),
    )
