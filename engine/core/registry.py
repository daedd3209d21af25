"""The explicit registry of game systems: the one place that lists them.

The bot, ``/config systems``, the conformance runner, the demo and the benches ask
it for a system by id and use it only through :class:`engine.core.contract.GameSystem`.
Each entry names the module that builds the system, imported on first use, so that
loading one system's data never waits on another's.

Adding a system is one line here (and its own packages): see CONTRIBUTING.md.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from engine.core.contract import GameSystem

__all__ = ["SYSTEMS", "SystemEntry", "UnknownSystem", "get", "system_ids"]


@dataclass(frozen=True, slots=True)
class SystemEntry:
    """A registered system: its id, and where its ``system()`` factory lives."""

    id: str
    module: str
    """A module with a ``system()`` function returning the system, loaded once."""
    title: str
    """The game's published name (not translated: it is a title)."""


SYSTEMS: tuple[SystemEntry, ...] = (
    SystemEntry("dif", "engine.dif.system", "Down in Flames"),
    SystemEntry("lockedon", "engine.lockedon.system", "Down in Flames: Locked-On"),
    SystemEntry("eagles", "engine.eagles.system", "Eagles in the Sky"),
)


class UnknownSystem(KeyError):
    """No system has this id."""


def system_ids() -> tuple[str, ...]:
    """Every registered system id, in registry order."""
    return tuple(e.id for e in SYSTEMS)


def entry(system_id: str) -> SystemEntry:
    for e in SYSTEMS:
        if e.id == system_id:
            return e
    raise UnknownSystem(system_id)


@functools.cache
def get(system_id: str) -> GameSystem[Any, Any, Any]:
    """The system with this id, built from its shipped data on first use."""
    module = importlib.import_module(entry(system_id).module)
    system: GameSystem[Any, Any, Any] = module.system()
    return system
