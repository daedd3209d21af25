"""Clouds Over the Target in a mission game (engine/dif/bombing.py; the Burma example
of §24.53, L1881): the draw at the start of the Ingress Turn, lower bombing results and
changed Anti-Aircraft Fire, never for a Torpedo attack."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.events import Event
from engine.dif.actions import Action
from engine.dif.game import DifEngine, default_engine
from engine.dif.state import GameState
from tests.engine.dif.test_mission_rules import at, drive, mission_setup

CLOUDS = {"draw": 1, "result_shift": 1, "aa": -1}
"""The Burma example's option: one card; Vital to Direct, Direct to Hit, Hit to Miss;
Anti-Aircraft Fire one less."""


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


HANDS = {
    "A2": ["BAR", "MAN", "MAN", "MAN", "TIT", "HAL"],
    "X2": ["MAN", "MAN", "TIT", "HAL"],
    "A1": ["MAN", "MAN", "TIT", "BAR", "SCI"],
    "X1": ["MAN", "MAN", "TIT", "BAR", "SCI", "BAR"],
}
"""Dealt hands: the clouds' card is the first drawn in the game."""


def clouds_game(engine: DifEngine, top: str, seed: int = 5, **extra: Any) -> GameState:
    extra.setdefault("hands", HANDS)
    setup = mission_setup(mission={"clouds": CLOUDS}, deck_top=[top], **extra)
    state, _ = engine.new_game(setup, seed)
    return state


@pytest.mark.parametrize(("top", "clouds"), [("BAR", True), ("TIT", True), ("SCI", False)])
def test_a_blue_bordered_card_brings_the_clouds(engine: DifEngine, top: str, clouds: bool) -> None:
    # Tight Turn and Barrel Roll are blue (Response cards, §2.2 L26-30); the white
    # Scissors is no blue-bordered card (docs/rules-decisions.md).
    state = clouds_game(engine, top)
    assert state.mission is not None and state.mission["clouds"] is None
    view = engine.view(state, "X2").mission
    assert view is not None and view.clouds is None
    state = drive(engine, state, lambda s: s.mission is not None and s.step != "abandon")
    assert state.mission is not None and state.mission["clouds"] is clouds
    view = engine.view(state, None).mission
    assert view is not None and view.clouds is clouds


def _bomb(engine: DifEngine, state: GameState, clouds: bool) -> list[Event]:
    """X2 drops its bombs from ``state`` with (or without) the clouds; every event
    until the fire and the bombs are resolved (the AA is never answered)."""
    s = state.clone()
    assert s.mission is not None
    s.mission["clouds"] = clouds
    s, events = engine.apply(s, "X2", Action.from_text("bomb"))
    out = list(events)
    while any(p.kind == "aa" for p in engine.pending(s)):
        seat = engine.pending(s)[0].seat
        s, events = engine.apply(s, seat, Action.from_text("pass"))
        out.extend(events)
    return out


def _leader(events: list[Event], kind: str) -> Event:
    """The leader's (the first) event of this kind."""
    return next(e for e in events if e.kind == kind and e.data.get("ref", "X2L") == "X2L")


def test_clouds_lower_the_bombing_and_the_anti_aircraft_fire(engine: DifEngine) -> None:
    # Seed 5: the Ki-30 leader's bomb card is a Hit; the Railway's AA draws 3 at Low.
    state = drive(engine, clouds_game(engine, "SCI"), at("bomb", "X2"))
    clear, cloudy = _bomb(engine, state, False), _bomb(engine, state, True)
    assert str(_leader(clear, "bombs").text) == str(_leader(cloudy, "bombs").text)
    # One Anti-Aircraft card fewer against the aircraft (the option's -1).
    assert len(_leader(clear, "fire").data["cards"]) == 3
    assert len(_leader(cloudy, "fire").data["cards"]) == 2
    # Its Hit becomes a Miss: no Damage to the target.
    assert "hit," in str(_leader(clear, "bombing").text)
    assert _leader(clear, "bombing").data["damage"] == 1
    assert "miss," in str(_leader(cloudy, "bombing").text)
    assert _leader(cloudy, "bombing").data["damage"] == 0


def test_clouds_spare_a_torpedo_attack(engine: DifEngine) -> None:
    elements = [
        {"seat": "X2", "side": "axis", "aircraft": "b5n2"},
        {"seat": "A1", "side": "allied", "aircraft": "f4f"},
    ]
    state = clouds_game(
        engine,
        "BAR",
        3,  # both Kates still carry their torpedoes on the Bomb Turn
        target="destroyer",
        elements=elements,
        bombs={"X2": "torpedo"},
        altitudes={"X2": "VL", "A1": "H"},
        order=["X2", "A1"],
        first_side="axis",
        hands={"X2": HANDS["X2"], "A1": HANDS["A1"]},
    )
    state = drive(engine, state, at("bomb", "X2"))
    assert state.mission is not None and state.mission["clouds"] is True
    assert sorted(state.mission["loaded"]) == ["X2L", "X2W"]
    clear, cloudy = _bomb(engine, state, False), _bomb(engine, state, True)
    assert [str(e.text) for e in clear] == [str(e.text) for e in cloudy]
