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
from engine.dif.components import Side
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
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


def random_setup(engine: DifEngine, rng: random.Random) -> DifSetup:
    """Two elements of random aircraft, a random ruleset; altitudes picked in play or fixed."""
    by_side = {
        side: sorted(a.id for a in engine.aircraft.values() if a.side is side) for side in Side
    }
    data: dict[str, Any] = {
        "ruleset": rng.choice(["zero", "rotl"]),
        "year": 1942,
        "elements": [
            {
                "seat": "A1",
                "side": "allied",
                "aircraft": rng.choice(by_side[Side.ALLIED]),
                "wingman": rng.random() > 0.1,
            },
            {
                "seat": "X1",
                "side": "axis",
                "aircraft": rng.choice(by_side[Side.AXIS]),
                "wingman": rng.random() > 0.1,
            },
        ],
        "to_the_death": False,
    }
    if rng.random() < 0.5:  # half the games start at one shared random altitude: more combat
        alt = rng.choice(["VL", "L", "M", "H"])
        data["altitudes"] = {"A1": alt, "X1": alt}
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
