"""A game is (setup, seed, action log): replaying the log rebuilds the state byte for byte."""

from __future__ import annotations

import json
import random

from engine.dif.game import DifEngine
from engine.dif.setup import DifSetup
from engine.dif.state import GameState

from .conftest import random_game, random_setup


def dump(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def test_replaying_the_log_reproduces_every_state_byte_for_byte(engine: DifEngine) -> None:
    for seed in range(25):
        setup = random_setup(engine, random.Random(seed))
        log: list[tuple[str, str]] = []
        for i, step in enumerate(random_game(engine, seed, setup)):
            log.append((step.seat, str(step.action)))
            if i % 37 == 0 or step.after.step == "over":
                assert dump(engine.replay(setup, seed, log)) == dump(step.after)


def test_the_same_log_gives_the_same_events(engine: DifEngine) -> None:
    setup = random_setup(engine, random.Random(5))
    first = [
        (s.seat, str(s.action), [e.text for e in s.events]) for s in random_game(engine, 5, setup)
    ]
    again = [
        (s.seat, str(s.action), [e.text for e in s.events]) for s in random_game(engine, 5, setup)
    ]
    assert first == again


def test_a_different_seed_shuffles_differently(engine: DifEngine) -> None:
    setup = DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "f4f"},
                {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
            ],
        }
    )
    decks = {tuple(engine.new_game(setup, seed)[0].deck) for seed in range(5)}
    assert len(decks) == 5


def test_replay_with_a_fixed_setup_matches_apply(engine: DifEngine) -> None:
    setup = DifSetup.model_validate(
        {
            "ruleset": "rotl",
            "year": 1941,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "f4f"},
                {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
            ],
            "altitudes": {"A1": "M", "X1": "M"},
            "first_side": "allied",
            "hands": {"A1": ["MAN", "TIT", "VER", "IMS-1B1D", "BAR"]},
            "deck_top": ["TIT", "MAN"],
        }
    )
    log = [("A1", "stay"), ("A1", "play MAN X1L"), ("X1", "pass"), ("A1", "play VER down")]
    state, _ = engine.new_game(setup, 3)
    from engine.dif.actions import Action

    for seat, text in log:
        state, _ = engine.apply(state, seat, Action.from_text(text))
    assert dump(engine.replay(setup, 3, log)) == dump(state)
