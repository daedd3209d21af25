"""Load and validate the Eagles in the Sky component data.

The shipped files live in the ``data`` package (``data/eagles/deck.yaml``,
``aircraft.yaml``, ``leaders.yaml``, ``tables.yaml``, ``scenarios.yaml``) and are read
once, through :mod:`importlib.resources`. A server admin's content pack uses the same
YAML schema and is validated the same way before use::

    deck = load_deck()                               # the shipped deck (cached)
    planes = load_aircraft(Path("/srv/pack"))        # /srv/pack/aircraft.yaml
    everything = load_components(Path("/srv/pack"))  # pack files, shipped for the rest

Every problem is a :class:`DataError` naming the file and the field, e.g.
``aircraft.yaml: [3].speed: Input should be less than or equal to 9``. Duplicate ids,
duplicate YAML keys, tables that leave a card number uncovered, and references to
unknown aircraft or leaders are refused. What the rulebook prints and what we authored
is in ``data/eagles/SOURCES.md``.
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
from engine.core.packs import Pack, entry_places, extend
from engine.eagles.components import (
    Aircraft,
    Deck,
    FlightLeader,
    Scenario,
    Side,
    Tables,
)

__all__ = [
    "AIRCRAFT_FILE",
    "CONTENT_KINDS",
    "DECK_FILE",
    "LEADERS_FILE",
    "SCENARIOS_FILE",
    "SYSTEM_DIR",
    "TABLES_FILE",
    "Components",
    "DataError",
    "components_with",
    "load_aircraft",
    "load_components",
    "load_deck",
    "load_leaders",
    "load_scenarios",
    "load_tables",
]

SYSTEM_DIR = "eagles"
DECK_FILE = "deck.yaml"
AIRCRAFT_FILE = "aircraft.yaml"
LEADERS_FILE = "leaders.yaml"
TABLES_FILE = "tables.yaml"
SCENARIOS_FILE = "scenarios.yaml"

CONTENT_KINDS = ("aircraft", "leaders", "scenarios")
"""The sections a content pack's ``eagles`` part may have (:mod:`engine.core.packs`)."""

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Components:
    """Every Eagles in the Sky component, cross-checked: each Ace's aircraft, each
    mission aircraft of the Engagement types, each scenario's aircraft and leaders
    exist, on the right side and in service at the time. The mappings are read-only,
    keyed by id (scenarios by number) in file order."""

    deck: Deck
    aircraft: Mapping[str, Aircraft]
    leaders: Mapping[str, FlightLeader]
    tables: Tables
    scenarios: Mapping[int, Scenario]

    @property
    def aces(self) -> dict[str, FlightLeader]:
        """The Famous Aces of §18.0, keyed by id."""
        return {key: leader for key, leader in self.leaders.items() if leader.ace}


# --- public API ------------------------------------------------------------------------


def load_deck(source: Path | str | None = None) -> Deck:
    """The Maneuver deck: the shipped one (``source`` None, parsed once and cached), a
    content-pack directory holding a ``deck.yaml``, or a YAML file's path."""
    if source is None:
        return _shipped_deck()
    name, text = read_path(Path(source), DECK_FILE)
    return parse_model(name, text, Deck, "id, name and cards")


def load_aircraft(source: Path | str | None = None) -> dict[str, Aircraft]:
    """Every aircraft keyed by id, in file order (shipped, pack directory or file)."""
    return _load_list(source, AIRCRAFT_FILE, Aircraft, _shipped_aircraft)


def load_leaders(source: Path | str | None = None) -> dict[str, FlightLeader]:
    """Every Flight Leader and Ace keyed by id, in file order. Aces' aircraft are
    only checked against ``aircraft.yaml`` by :func:`load_components`."""
    return _load_list(source, LEADERS_FILE, FlightLeader, _shipped_leaders)


def load_tables(source: Path | str | None = None) -> Tables:
    """The set-up and event tables (shipped, pack directory or file)."""
    if source is None:
        return _shipped_tables()
    name, text = read_path(Path(source), TABLES_FILE)
    return parse_model(name, text, Tables, "the tables")


def load_scenarios(source: Path | str | None = None) -> dict[int, Scenario]:
    """Every historical scenario keyed by number, in file order."""
    if source is None:
        return dict(_shipped_scenarios())
    name, text = read_path(Path(source), SCENARIOS_FILE)
    return _parse_scenarios(name, text)


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
        load_leaders(pick(LEADERS_FILE)),
        load_tables(pick(TABLES_FILE)),
        load_scenarios(pick(SCENARIOS_FILE)),
        names={f: str(pick(f) or f) for f in (LEADERS_FILE, TABLES_FILE, SCENARIOS_FILE)},
    )


def components_with(packs: Sequence[Pack]) -> Components:
    """The shipped components with each content pack's ``eagles`` sections
    (``aircraft``, ``leaders``, ``scenarios``) laid over them in turn, then
    cross-checked as the shipped files are. Raises :class:`DataError` naming the pack's
    file, entry and field; a leader's cross-check names the section and the entry's
    place among all of them, a scenario's the pack and entry it came from (or the
    built-in scenario's number)."""
    if not packs:
        return _shipped_components()
    last = packs[-1].file
    scenarios = extend(_shipped_scenarios(), packs, SYSTEM_DIR, "scenarios", Scenario, "number")
    return _bundle(
        _shipped_deck(),
        extend(_shipped_aircraft(), packs, SYSTEM_DIR, "aircraft", Aircraft),
        extend(_shipped_leaders(), packs, SYSTEM_DIR, "leaders", FlightLeader),
        _shipped_tables(),
        scenarios,
        names={LEADERS_FILE: f"{last}: {SYSTEM_DIR}.leaders", SCENARIOS_FILE: last},
        places=entry_places(
            packs, SYSTEM_DIR, "scenarios", lambda fields: Scenario.model_validate(fields).number
        ),
    )


# --- shipped data (cached) -------------------------------------------------------------


@functools.cache
def _shipped_deck() -> Deck:
    return parse_model(DECK_FILE, read_shipped(SYSTEM_DIR, DECK_FILE), Deck, "id, name and cards")


@functools.cache
def _shipped_aircraft() -> Mapping[str, Aircraft]:
    return parse_keyed_list(AIRCRAFT_FILE, read_shipped(SYSTEM_DIR, AIRCRAFT_FILE), Aircraft)


@functools.cache
def _shipped_leaders() -> Mapping[str, FlightLeader]:
    return parse_keyed_list(LEADERS_FILE, read_shipped(SYSTEM_DIR, LEADERS_FILE), FlightLeader)


@functools.cache
def _shipped_tables() -> Tables:
    return parse_model(TABLES_FILE, read_shipped(SYSTEM_DIR, TABLES_FILE), Tables, "the tables")


@functools.cache
def _shipped_scenarios() -> Mapping[int, Scenario]:
    return _parse_scenarios(SCENARIOS_FILE, read_shipped(SYSTEM_DIR, SCENARIOS_FILE))


@functools.cache
def _shipped_components() -> Components:
    return _bundle(
        _shipped_deck(),
        dict(_shipped_aircraft()),
        dict(_shipped_leaders()),
        _shipped_tables(),
        dict(_shipped_scenarios()),
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


def _parse_scenarios(name: str, text: str) -> dict[int, Scenario]:
    return parse_keyed_list(name, text, Scenario, key="number")


# --- cross-file checks -----------------------------------------------------------------


def _bundle(
    deck: Deck,
    aircraft: dict[str, Aircraft],
    leaders: dict[str, FlightLeader],
    tables: Tables,
    scenarios: dict[int, Scenario],
    *,
    names: Mapping[str, str],
    places: Mapping[int, str] | None = None,
) -> Components:
    """Cross-file checks, then the read-only bundle. ``names`` maps a file to the name
    used in messages (a pack's path); shipped files go by their bare name. ``places``
    (content packs) says where each pack scenario is; the others are then named by
    number (``built-in scenario 4``), else by their place in the file (``[3]``)."""
    known = f"{AIRCRAFT_FILE} or a pack" if places is not None else AIRCRAFT_FILE

    def plane(ref: str, side: Side, where: str, problems: list[str]) -> Aircraft | None:
        found = aircraft.get(ref)
        if found is None:
            problems.append(f"{where}: unknown aircraft {ref!r} (not in {known})")
        elif found.side is not side:
            problems.append(f"{where}: {ref!r} is a {found.side.value} aircraft, not {side.value}")
        return found

    problems: list[str] = []
    for index, leader in enumerate(leaders.values()):
        for m_index, mount in enumerate(leader.aircraft_by_date):
            where = f"[{index}].aircraft_by_date[{m_index}].aircraft"
            found = plane(mount.aircraft, leader.side, where, problems)
            if found is not None and not (
                found.available(mount.first) and found.available(mount.last)
            ):
                problems.append(
                    f"{where}: {found.id} is in service {found.in_service_from} to "
                    f"{found.in_service_to}, not {mount.first} to {mount.last}"
                )
    if problems:
        raise DataError(names.get(LEADERS_FILE, LEADERS_FILE), problems)

    for index, spec in enumerate(tables.engagements):
        for side in Side:
            mission = spec.mission(side)
            if mission is None:
                continue
            for c_index, ref in enumerate(mission.choices):
                where = f"engagements[{index}].{side.value}.choices[{c_index}]"
                found = plane(ref, side, where, problems)
                if found is not None and found.cup:
                    problems.append(f"{where}: {ref!r} is a cup Scout, not a mission aircraft")
    if problems:
        raise DataError(names.get(TABLES_FILE, TABLES_FILE), problems)

    for index, scenario in enumerate(scenarios.values()):
        place = f"[{index}]"
        if places is not None:
            place = places.get(scenario.number, f"built-in scenario {scenario.number}")
        for side in Side:
            force = scenario.force(side)
            where = f"{place}.{side.value}"
            refs = [(f"aircraft[{i}].aircraft", e.aircraft) for i, e in enumerate(force.aircraft)]
            refs += [(f"drawn_from_cup[{i}]", ref) for i, ref in enumerate(force.drawn_from_cup)]
            for field, ref in refs:
                found = plane(ref, side, f"{where}.{field}", problems)
                if found is not None and not found.available(scenario.month):
                    problems.append(
                        f"{where}.{field}: {ref!r} is not in service in {scenario.month}"
                    )
            for i, entry in enumerate(force.aircraft):
                found = aircraft.get(entry.aircraft)
                if entry.bombs and found is not None and not found.bombs:
                    problems.append(f"{where}.aircraft[{i}].bombs: {entry.aircraft!r} has no bombs")
            if force.leader is not None:
                flown_by = leaders.get(force.leader)
                if flown_by is None:
                    problems.append(
                        f"{where}.leader: unknown leader {force.leader!r} (not in {LEADERS_FILE})"
                    )
                elif flown_by.side is not side:
                    problems.append(f"{where}.leader: {force.leader!r} is not {side.value}")
        if scenario.victory_ace is not None and scenario.victory_ace not in leaders:
            problems.append(f"{place}.victory_ace: unknown leader {scenario.victory_ace!r}")
    if problems:
        raise DataError(names.get(SCENARIOS_FILE, SCENARIOS_FILE), problems)

    return Components(
        deck=deck,
        aircraft=MappingProxyType(aircraft),
        leaders=MappingProxyType(leaders),
        tables=tables,
        scenarios=MappingProxyType(scenarios),
    )
