"""Small games of every system for the computer players' tests."""

from __future__ import annotations

import random
from typing import Any

from engine.core import registry
from engine.dif.setup import DifSetup
from engine.eagles.setup import EaglesSetup, SideSetup
from engine.lockedon.setup import LockedOnSetup

SYSTEMS = ("dif", "lockedon", "eagles")


def duel(system_id: str) -> Any:
    """A one-against-one game of the system, secret altitudes picked in play."""
    if system_id == "dif":
        return DifSetup.model_validate(
            {
                "ruleset": "zero",
                "year": 1942,
                "elements": [
                    {"seat": "A1", "side": "allied", "aircraft": "f4f"},
                    {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
                ],
            }
        )
    if system_id == "lockedon":
        return LockedOnSetup.model_validate(
            {
                "seats": [
                    {"seat": "A1", "side": "A", "aircraft": "f-15a"},
                    {"seat": "B1", "side": "B", "aircraft": "mig-29"},
                ]
            }
        )
    return EaglesSetup(
        engagement="patrol",
        month="1917-06",
        allied=SideSetup(seats=("A1",), cup=2),
        german=SideSetup(seats=("G1",), cup=2),
    )


def midgame(system_id: str, seed: int, *, after: int) -> tuple[Any, str]:
    """A random game's first state, ``after`` decisions in, where the deciding seat has
    a real choice (two legal actions or more), and that seat."""
    system = registry.get(system_id)
    state, _ = system.new_game(duel(system_id), seed)
    rng = random.Random(seed)
    for n in range(5000):
        if system.is_over(state):
            return midgame(system_id, seed + 1000, after=after)
        seat = system.pending(state)[0].seat
        legal = system.legal_actions(state, seat)
        if n >= after and len(legal) > 1:
            return state, seat
        state, _ = system.apply(state, seat, rng.choice(legal))
    raise AssertionError("no choice found")
