"""The passive default a seat takes when it lets a decision go (deadlines, absent players)."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import RuleViolation
from engine.dif.game import DifEngine

from .conftest import GameFactory, random_game, random_setup


def test_default_of_each_kind_is_the_passive_choice(
    engine: DifEngine, new_game: GameFactory
) -> None:
    state = new_game(altitudes=None)
    assert str(engine.default_action(state, "A1")) == "alt M"  # RotL L57: no marker = Medium
    state = new_game()
    assert str(engine.default_action(state, "A1")) == "stay"
    with pytest.raises(RuleViolation):
        engine.default_action(state, "X1")  # not X1's move


@pytest.mark.parametrize("seed", range(40))
def test_default_is_always_legal_and_games_finish_on_defaults_alone(
    engine: DifEngine, seed: int
) -> None:
    """A game where every seat lets every decision go still ends, legally."""
    rng = random.Random(seed)
    setup = random_setup(engine, rng, [(1, 1), (2, 2), (3, 2)][seed % 3])
    state, _ = engine.new_game(setup, seed)
    for _ in range(5000):
        if state.step == "over":
            break
        seat = engine.pending(state)[0].seat
        action = engine.default_action(state, seat)
        assert action in engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, action)
    assert state.step == "over"


def test_default_for_every_pending_kind_in_random_games(engine: DifEngine) -> None:
    kinds: set[str] = set()
    for seed in range(60):
        for step in random_game(engine, 500 + seed):
            for p in engine.pending(step.before):
                a = engine.default_action(step.before, p.seat)
                assert a in engine.legal_actions(step.before, p.seat)
                kinds.add(p.kind)
    assert {"altitude", "play", "respond", "discard", "altitude_step"} <= kinds
