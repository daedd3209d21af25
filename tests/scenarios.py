"""Games the tests of several layers replay: fixed set-ups and their moves."""

from __future__ import annotations

from engine.dif.game import default_engine
from engine.dif.setup import DifSetup

SHOOT_DOWN_SEED = 11
"""The seed :func:`shoot_down_game` is replayed with."""


def shoot_down_game() -> tuple[DifSetup, list[tuple[int, str, str]]]:
    """A 2v2 where Bob's P-40B (A2) shoots down the A6M2 leader of X2 on turn 1 and
    its wingman takes over (11.2), after an attack on X1's wingman is answered."""
    engine = default_engine()
    cap = engine.aircraft["a6m2"].leader.damaged.damage_capacity
    setup = DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "buffalo-i"},
                {"seat": "A2", "side": "allied", "aircraft": "p-40b", "pilot": "CV"},
                {"seat": "X1", "side": "axis", "aircraft": "ki-43"},
                {"seat": "X2", "side": "axis", "aircraft": "a6m2"},
            ],
            "altitudes": {"A1": "M", "A2": "M", "X1": "M", "X2": "M"},
            "first_side": "allied",
            "hands": {
                "A1": ["IMS-1B2D", "MAN", "MAN", "HAL", "IMS-1B1D"],
                "A2": ["IMS-1B2D", "MAN", "MAN", "HAL", "MAN"],
                "X1": ["MAN", "MAN", "MAN", "IMS-1B1D", "IMS-1B1D", "IMS-1B1D"],
                "X2": ["MAN", "MAN", "MAN", "MAN", "MAN"],
            },
            "deck_top": ["IMS-2B2D", "TIT", "MAN"],
            "hits": {"X2L": cap - 2},
        }
    )
    moves = [
        ("A2", "redraw MAN"),
        ("A1", "next A1"),
        ("A1", "stay"),
        ("A1", "play IMS-1B2D X1W"),
        ("X1", "respond TIT"),
        ("A1", "pass"),
        ("A1", "done"),
        ("A1", "discard"),
        ("X2", "next X2"),
        ("X2", "skip"),
        ("X2", "stay"),
        ("X2", "done"),
        ("X2", "discard"),
        ("A2", "skip"),
        ("A2", "stay"),
        ("A2", "play IMS-1B2D X2L"),
        ("X2", "pass"),
    ]
    return setup, [(i, seat, a) for i, (seat, a) in enumerate(moves, start=1)]
