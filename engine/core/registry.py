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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.campaign import CampaignSystem
from engine.core.contract import GameSystem
from engine.core.packs import Pack

__all__ = [
    "SYSTEMS",
    "SystemEntry",
    "UnknownSystem",
    "campaign_system",
    "campaign_system_ids",
    "campaign_with_content",
    "content_kinds",
    "get",
    "system_ids",
    "with_content",
]


@dataclass(frozen=True, slots=True)
class SystemEntry:
    """A registered system: its id, and where its ``system()`` factory lives."""

    id: str
    module: str
    """A module with a ``system()`` function returning the system, loaded once."""
    title: str
    """The game's published name (not translated: it is a title)."""
    campaigns: str | None = None
    """A module with a ``campaign_system()`` function returning the system's campaign
    game (:class:`engine.core.campaign.CampaignSystem`), if it has one."""


SYSTEMS: tuple[SystemEntry, ...] = (
    SystemEntry(
        "dif",
        "engine.dif.system",
        "Down in Flames",
        campaigns="engine.dif.campaign",
    ),
    SystemEntry(
        "lockedon",
        "engine.lockedon.system",
        "Down in Flames: Locked-On",
        campaigns="engine.lockedon.campaign",
    ),
    SystemEntry(
        "eagles",
        "engine.eagles.system",
        "Eagles in the Sky",
        campaigns="engine.eagles.campaign",
    ),
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


def content_kinds() -> dict[str, tuple[str, ...]]:
    """Each system's id with the sections a content pack may give it (its module's
    ``CONTENT_KINDS``: ``aircraft``..., then its campaign module's: ``campaigns``), in
    registry order."""
    found = {}
    for e in SYSTEMS:
        modules = [importlib.import_module(e.module)]
        if e.campaigns is not None:
            modules.append(importlib.import_module(e.campaigns))
        kinds = tuple(k for m in modules for k in getattr(m, "CONTENT_KINDS", ()))
        if kinds:
            found[e.id] = kinds
    return found


def with_content(system_id: str, packs: Sequence[Pack]) -> GameSystem[Any, Any, Any]:
    """The system with this id built over its shipped data and these content packs, in
    order (its module's ``system_with``): a new system each call, for the caller to keep.
    Raises ``engine.core.dataload.DataError`` naming the pack, entry and field of a
    problem."""
    module = importlib.import_module(entry(system_id).module)
    system: GameSystem[Any, Any, Any] = module.system_with(packs)
    return system


def campaign_with_content(system_id: str, packs: Sequence[Pack]) -> CampaignSystem[Any, Any] | None:
    """The campaign game of the system with this id built over its shipped data and
    these content packs, in order (its campaign module's ``campaign_system_with``): a
    new one each call, for the caller to keep. None for a system whose campaign game is
    not built over packs (it runs on its shipped data). Raises
    ``engine.core.dataload.DataError`` naming the pack, entry and field of a problem."""
    module_name = entry(system_id).campaigns
    if module_name is None:
        raise UnknownSystem(system_id)
    module = importlib.import_module(module_name)
    if not hasattr(module, "campaign_system_with"):
        return None
    system: CampaignSystem[Any, Any] = module.campaign_system_with(packs)
    return system


def campaign_system_ids() -> tuple[str, ...]:
    """The ids of the systems that have a campaign game, in registry order."""
    return tuple(e.id for e in SYSTEMS if e.campaigns is not None)


@functools.cache
def campaign_system(system_id: str) -> CampaignSystem[Any, Any]:
    """The campaign game of the system with this id, built on first use. Raises
    :class:`UnknownSystem` for a system without one."""
    module_name = entry(system_id).campaigns
    if module_name is None:
        raise UnknownSystem(system_id)
    system: CampaignSystem[Any, Any] = importlib.import_module(module_name).campaign_system()
    return system
