"""One legality truth: ``legal_actions`` lists exactly what ``apply`` accepts.

For many states of random games: every legal action, written out and parsed back, is
accepted; a sample of other actions (legal elsewhere, or near misses) is refused
with a RuleViolation and leaves the state exactly as it was; ``refusal`` agrees with
``legal_actions`` on all of them.
"""

from __future__ import annotations

import random

from engine.core.errors import RuleViolation
from engine.lockedon.actions import Action
from engine.lockedon.game import LockedOnEngine

from .conftest import random_game


def test_legal_actions_are_accepted_and_others_refused_without_a_trace(
    lo: LockedOnEngine,
) -> None:
    rng = random.Random(7)
    pool: list[str] = []
    checked = refused = 0
    for seed in range(40):
        for i, step in enumerate(random_game(lo, seed)):
            state = step.before
            legal = {str(a) for a in lo.legal_actions(state, step.seat)}
            pool.extend(rng.sample(sorted(legal), min(3, len(legal))))
            if i % 5:
                continue
            snapshot = state.to_json()
            for text in rng.sample(sorted(legal), min(6, len(legal))):
                after, _ = lo.apply(state, step.seat, Action.from_text(text))
                assert after is not state
                checked += 1
            seats = list(state.planes)
            for text in rng.sample(pool, min(12, len(pool))):
                seat = rng.choice([step.seat, *seats])
                action = Action.from_text(text)
                allowed = str(action) in {str(a) for a in lo.legal_actions(state, seat)}
                why = lo.refusal(state, seat, action)
                assert (why is None) == allowed, (seed, seat, text, why)
                if allowed:
                    continue
                try:
                    lo.apply(state, seat, action)
                except RuleViolation as exc:
                    assert str(exc) == why
                    refused += 1
                else:
                    raise AssertionError(f"seed {seed}: {seat} {text!r} accepted but not legal")
            assert state.to_json() == snapshot, "a refused action changed the state"
    assert checked > 500 and refused > 500
