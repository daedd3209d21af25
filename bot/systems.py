"""The game systems as the bot hosts them, reached through the registry only.

A game's record names its system (``games.system``); everything the bot does with the
game's rules, words and menus goes through that system's contract
(:class:`~engine.core.contract.HostedSystem`) and presenter. Nothing here names a system:
adding one is a line in :mod:`engine.core.registry` (and its own packages).

Lobby formats are generic: ``NvN`` seats the same number of seats on every side, named
by the system (``seat_name``), and ``custom`` lets players add seats one at a time while
the system has room for one more (``room_refusal``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from engine.core import registry
from engine.core.contract import HostedSystem, SeatPick
from engine.core.present import Presenter

__all__ = [
    "FORMATS",
    "MAX_SEAT_NUMBER",
    "Hosted",
    "commitment_prefix",
    "format_seats",
    "hosted",
    "hosted_ids",
    "next_seat",
    "options_of",
    "picks_of",
    "presenter",
    "rulesets",
    "seat_number",
    "system_of_ruleset",
]

log = logging.getLogger(__name__)

Hosted = HostedSystem[Any, Any, Any]
FORMATS: tuple[str, ...] = ("1v1", "2v2", "custom")
"""Lobby formats: one or two seats a side, or seats added one at a time."""
MAX_SEAT_NUMBER = 99
"""Seats of a side are numbered 1 to 99 at most."""


@functools.cache
def hosted(system_id: str) -> Hosted:
    """The system with this id, as the bot hosts it (checked once)."""
    found = registry.get(system_id)
    if not isinstance(found, HostedSystem):
        raise TypeError(f"system {system_id!r} does not implement HostedSystem")
    return found


@functools.cache
def hosted_ids() -> tuple[str, ...]:
    """The registered systems the bot can host, in registry order. A system still
    being written (registered, but not yet a :class:`HostedSystem`) is left out, with
    a warning, rather than keeping the bot from starting."""
    out = []
    for system_id in registry.system_ids():
        if isinstance(registry.get(system_id), HostedSystem):
            out.append(system_id)
        else:
            log.warning("system %r is registered but cannot be hosted yet: left out", system_id)
    return tuple(out)


def presenter(system_id: str) -> Presenter:
    return hosted(system_id).presenter()


def rulesets() -> dict[str, str]:
    """Every ruleset id of every registered system, with its system's id."""
    return {r.id: system_id for system_id in hosted_ids() for r in hosted(system_id).rulesets}


def system_of_ruleset(ruleset: str) -> str:
    """The system a ruleset id belongs to (ruleset ids are unique across systems)."""
    found = rulesets().get(ruleset)
    if found is None:
        raise KeyError(ruleset)
    return found


def commitment_prefix(system_id: str) -> str:
    """What a game's seed commitment hashes first: ``tally-ho/<system>/seed/v1``. Bump
    the version if the scheme ever changes; old logs keep theirs."""
    return f"tally-ho/{system_id}/seed/v1"


def options_of(system: Hosted, ruleset: str, stored: Mapping[str, Any]) -> BaseModel:
    """A lobby's options (the system's ``options_model``) from the game's record: its
    ruleset column and the options JSON, whose other keys (the bot's: format, response
    mode, setup, commitment) are left out."""
    model = system.options_model
    data = {k: v for k, v in stored.items() if k in model.model_fields}
    if "ruleset" in model.model_fields:
        data["ruleset"] = ruleset
    return model.model_validate(data)


def picks_of(system: Hosted, seats: Iterable[Any]) -> list[SeatPick]:
    """Seat records (``seat``, ``side``, ``payload``) as the contract's seat picks."""
    return [SeatPick(s.seat, s.side, system.pick_model.model_validate(s.payload)) for s in seats]


def format_seats(system: Hosted, options: Any, format: str) -> tuple[tuple[str, str], ...]:
    """The ``(seat, side)`` of a fixed format, side after side (``custom``: none)."""
    if format not in FORMATS or format == "custom":
        return ()
    per_side = int(format.split("v")[0])
    return tuple(
        (system.seat_name(side.id, n), side.id)
        for side in system.lobby_sides(options)
        for n in range(1, per_side + 1)
    )


def seat_number(system: Hosted, side: str, seat: str) -> int | None:
    """The number of ``seat`` among the seats of ``side`` (None: not one of them)."""
    for n in range(1, MAX_SEAT_NUMBER + 1):
        if system.seat_name(side, n) == seat:
            return n
    return None


def next_seat(system: Hosted, taken: set[str], side: str) -> str:
    """The first seat of ``side`` nobody holds."""
    n = 1
    while system.seat_name(side, n) in taken:
        n += 1
    return system.seat_name(side, n)
