"""``apply`` does not ask again about a move ``legal_actions`` just listed for the same
state object and seat (issue 16), and still refuses every other move.

Down in Flames' :meth:`~engine.dif.legality.Legality.was_listed` is true exactly for
the actions of the latest ``legal_actions`` of that very state and seat; each of them
is one :meth:`refusal` allows, so skipping the question changes no answer.
"""

from __future__ import annotations

import random

import pytest

from engine.core.errors import RuleViolation
from engine.dif.actions import Action
from engine.dif.game import DifEngine
from engine.dif.state import GameState

from .conftest import GameFactory, random_setup


def test_a_listed_move_is_one_the_rules_allow(engine: DifEngine) -> None:
    rng = random.Random(7)
    state, _ = engine.new_game(random_setup(engine, rng, (2, 2)), 7)
    asked = 0
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        legal = engine.legal_actions(state, seat)
        for a in legal:
            assert engine.was_listed(state, seat, a)
            assert engine.refusal(state, seat, a) is None
        assert not engine.was_listed(state.clone(), seat, legal[0])  # another object
        assert not engine.was_listed(state, "Z9", legal[0])
        state, _ = engine.apply(state, seat, rng.choice(legal))
        asked += 1
    assert asked > 20


def test_a_move_not_listed_is_refused_after_legal_actions(
    engine: DifEngine, new_game: GameFactory
) -> None:
    state = new_game()
    legal = engine.legal_actions(state, "A1")
    wrong = Action.simple("pass")
    assert wrong not in legal and not engine.was_listed(state, "A1", wrong)
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, "A1", wrong)
    assert str(refused.value) == engine.refusal(state, "A1", wrong)


def test_a_move_listed_for_another_state_is_asked_about(
    engine: DifEngine, new_game: GameFactory
) -> None:
    state = new_game()
    dive = Action.simple("dive")
    assert dive in engine.legal_actions(state, "A1")
    low: GameState = new_game(altitudes={"A1": "VL", "X1": "VL"})
    assert engine.refusal(low, "A1", dive) is not None  # 7.1: nothing below Very Low
    with pytest.raises(RuleViolation):
        engine.apply(low, "A1", dive)
