"""Setting up a game: who may fly for which side, and equal sides (Zero! 4.2, 5.0)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import SetupError
from engine.dif import balance
from engine.dif.components import Ruleset, Side
from engine.dif.game import DifEngine
from engine.dif.setup import DifSetup, ElementSetup


def setup(ruleset: str, axis: str, **extra: Any) -> DifSetup:
    return DifSetup.model_validate(
        {
            "ruleset": ruleset,
            "year": 1941,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "hurricane-iib"},
                {"seat": "X1", "side": "axis", "aircraft": axis},
            ],
            **extra,
        }
    )


def test_zero_japanese_side_flies_japanese_aircraft_unless_mixed(engine: DifEngine) -> None:
    # Zero! 4.2: "One team flies the Japanese fighters and the other flies the Allied
    # fighters"; 5.0: "All aircraft with a red border are Japanese."
    why = engine.aircraft_refusal(Ruleset.ZERO, 1941, "bf-109e", Side.AXIS)
    assert why is not None and "4.2" in why and "mixed" in why
    assert engine.aircraft_refusal(Ruleset.ZERO, 1941, "bf-109e", Side.AXIS, mixed=True) is None
    assert engine.aircraft_refusal(Ruleset.ZERO, 1941, "bf-109e", None) is not None
    assert engine.aircraft_refusal(Ruleset.ZERO, 1941, "a6m2", Side.AXIS) is None
    assert engine.aircraft_refusal(Ruleset.ROTL, 1941, "bf-109e", Side.AXIS) is None
    # The Allied side flies Allied aircraft, European ones included (5.0).
    assert engine.aircraft_refusal(Ruleset.ZERO, 1941, "spitfire-i", Side.ALLIED) is None
    e = ElementSetup(seat="X1", side=Side.AXIS, aircraft="cr-42")
    assert engine.element_refusal(Ruleset.ZERO, 1941, e) is not None
    assert engine.element_refusal(Ruleset.ZERO, 1941, e, mixed=True) is None


def test_a_zero_game_refuses_european_aircraft_on_the_japanese_side(engine: DifEngine) -> None:
    with pytest.raises(SetupError, match=r"\(4\.2, 5\.0\)"):
        engine.new_game(setup("zero", "bf-109e", mixed=False), 0)
    engine.new_game(setup("zero", "bf-109e", mixed=True), 0)
    engine.new_game(setup("zero", "ki-43", mixed=False), 0)
    engine.new_game(setup("rotl", "bf-109e", mixed=False), 0)


def test_a_setup_stored_before_the_mixed_option_still_starts(engine: DifEngine) -> None:
    # Games started by the previous release stored their setup without ``mixed``; the
    # game is rebuilt from it (a replay), so it must start as it did.
    stored = setup("zero", "bf-109e").model_dump(mode="json")
    assert "mixed" not in stored, "an unchosen option dumps as the previous release did"
    old = DifSetup.model_validate(stored)
    assert old.mixed is None
    engine.new_game(old, 0)
    assert DifSetup.model_validate(setup("zero", "ki-43", mixed=False).model_dump()).mixed is False


def elements(allied: list[bool], axis: list[bool]) -> list[ElementSetup]:
    """Elements with (True) or without (False) their wingman."""
    out = []
    for side, flags, letter in ((Side.ALLIED, allied, "A"), (Side.AXIS, axis, "X")):
        for n, wingman in enumerate(flags, start=1):
            aircraft = "f4f" if side is Side.ALLIED else "a6m2"
            out.append(
                ElementSetup(seat=f"{letter}{n}", side=side, aircraft=aircraft, wingman=wingman)
            )
    return out


def test_unequal_sides_are_reported() -> None:
    # Zero! 4.2: "the number of aircraft must be the same"; RotL L51 "should be".
    assert balance.unequal_sides(elements([True], [True])) is None
    assert balance.unequal_sides(elements([True, False], [True, False])) is None
    assert balance.unequal_sides(elements([True], [False, False])) is None
    assert balance.unequal_sides(elements([True, True], [True])) == {Side.ALLIED: 4, Side.AXIS: 2}
    assert balance.unequal_sides(elements([False], [True])) == {Side.ALLIED: 1, Side.AXIS: 2}


def test_the_unequal_sides_warning_names_the_rule_of_each_ruleset() -> None:
    uneven = elements([True, True], [True])
    zero = balance.unequal_sides_warning(Ruleset.ZERO, uneven)
    rotl = balance.unequal_sides_warning(Ruleset.ROTL, uneven)
    assert zero is not None and "must" in zero and "4.2" in zero
    assert "Japanese 2" in zero and "Allied 4" in zero
    assert rotl is not None and "should" in rotl and "L51" in rotl
    assert balance.unequal_sides_warning(Ruleset.ZERO, elements([True], [True])) is None


def test_an_unknown_aircraft_is_quoted_short(engine: DifEngine) -> None:
    # A lobby pick is free text: a 3 MB one must not come back whole in the refusal.
    why = engine.aircraft_refusal(Ruleset.ROTL, 1941, "x" * 3_000_000)
    assert why is not None and len(why) < 200 and "Unknown aircraft 'xxx" in why
