"""Fixtures for the engine tests: the shipped engine, small game builders, random play."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from engine.core.events import Event
from engine.dif.actions import Action
from engine.dif.ai import RandomPlayer
from engine.dif.components import Ruleset, Side
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import MAX_AIRCRAFT, DifSetup
from engine.dif.state import GameState


@pytest.fixture(scope="session")
def engine() -> DifEngine:
    return default_engine()


GameFactory = Callable[..., GameState]


@pytest.fixture
def new_game(engine: DifEngine) -> GameFactory:
    """``new_game(allied="f4f", axis="a6m2", ruleset="zero", **setup)``: a started game.

    Altitudes default to Medium for both and the Allies move first, so the game
    starts at the Allied player's Adjust Altitude step; other DifSetup fields pass
    through (``hands``, ``positions``, ``hits``, ``deck_top``...).
    """

    def make(
        allied: str = "f4f", axis: str = "a6m2", ruleset: str = "zero", seed: int = 0, **setup: Any
    ) -> GameState:
        data: dict[str, Any] = {
            "ruleset": ruleset,
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": allied},
                {"seat": "X1", "side": "axis", "aircraft": axis},
            ],
            "altitudes": {"A1": "M", "X1": "M"},
            "first_side": "allied",
        }
        data.update(setup)
        state, _ = engine.new_game(DifSetup.model_validate(data), seed)
        return state

    return make


Play = Callable[[GameState, str, str], GameState]


@pytest.fixture
def play(engine: DifEngine) -> Play:
    """``play(state, seat, "play MAN X1L")``: the state after a legal action."""

    def step(state: GameState, seat: str, text: str) -> GameState:
        return engine.apply(state, seat, Action.from_text(text))[0]

    return step


@dataclass
class Step:
    """One action of a random game and the states around it."""

    before: GameState
    seat: str
    action: Action
    after: GameState
    events: list[Event]


def random_setup(
    engine: DifEngine, rng: random.Random, per_side: tuple[int, int] | None = None
) -> DifSetup:
    """Random elements (one a side unless ``per_side`` says), random aircraft of a random
    year (jets, rockets, gunners and heavy fighters included from 1944), some leaders
    without wingmen, some pilots, a random ruleset; altitudes picked in play or fixed."""
    year = rng.choice([1940, 1942, 1944, 1945])
    ruleset = rng.choice([Ruleset.ZERO, Ruleset.ROTL])
    allied_n, axis_n = per_side or (1, 1)
    skills = ["A", "BU", "CV", "D", "H", "P"]
    elements: list[dict[str, Any]] = []
    for side, n, letter in ((Side.ALLIED, allied_n, "A"), (Side.AXIS, axis_n, "X")):
        pool = sorted(
            a.id
            for a in engine.aircraft.values()
            if engine.aircraft_refusal(ruleset, year, a.id, side) is None
        )
        for i in range(1, n + 1):
            ac = engine.aircraft[rng.choice(pool)]
            pilot = rng.sample(skills, rng.choice([0, 0, 0, 1, 2]))
            if ac.leader.undamaged.gunner and rng.random() < 0.3:
                pilot.append("G")
            elements.append(
                {
                    "seat": f"{letter}{i}",
                    "side": side.value,
                    "aircraft": ac.id,
                    "wingman": ac.wingman is not None and rng.random() > 0.1,
                    "pilot": pilot,
                }
            )
    flying = sum(2 if e["wingman"] else 1 for e in elements)
    for e in rng.sample(elements, len(elements)):  # stay within the victory table (15)
        if flying <= MAX_AIRCRAFT:
            break
        if e["wingman"]:
            e["wingman"] = False
            flying -= 1
    data: dict[str, Any] = {
        "ruleset": ruleset.value,
        "year": year,
        "elements": elements,
        "to_the_death": False,
        "vp_bonus": rng.random() < 0.3,
    }
    if rng.random() < 0.5:  # half the games start at one shared random altitude: more combat
        alt = rng.choice(["VL", "L", "M", "H"])
        data["altitudes"] = {e["seat"]: alt for e in elements}
    return DifSetup.model_validate(data)


def random_game(engine: DifEngine, seed: int, setup: DifSetup | None = None) -> Iterator[Step]:
    """Every step of one game played to the end by random players."""
    rng = random.Random(seed)
    setup = setup or random_setup(engine, rng)
    state, _ = engine.new_game(setup, seed)
    players = {seat: RandomPlayer(seed * 31 + i) for i, seat in enumerate(state.elements)}
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        action = players[seat].choose(engine, state, seat)
        after, events = engine.apply(state, seat, action)
        yield Step(state, seat, action, after, events)
        state = after


@pytest.fixture(scope="session")
def sample_steps(engine: DifEngine) -> list[Step]:
    """Every step of 60 random games (shared by several modules)."""
    return [step for seed in range(60) for step in random_game(engine, seed)]
