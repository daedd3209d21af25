"""Each system's information-set sampler (the contract's ``Sampling``)."""

from __future__ import annotations

import random

import pytest

from engine.core import registry
from engine.core.contract import Sampling
from tests.engine.ai.conftest import SYSTEMS, duel, midgame


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_sample_looks_the_same_to_the_seat_and_redeals_the_rest(system_id: str) -> None:
    system = registry.get(system_id)
    assert isinstance(system, Sampling)
    for seed, after in ((1, 0), (2, 12), (3, 30)):
        state, seat = midgame(system_id, seed, after=after)
        before = system.dump_state(state)
        sample = system.sample_state(state, seat, random.Random(seed))
        assert system.dump_state(state) == before  # untouched
        assert system.view(sample, seat) == system.view(state, seat)
        assert system.legal_actions(sample, seat) == system.legal_actions(state, seat)
        assert system.dump_state(sample) != before  # the deck (at least) re-dealt


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_sample_does_not_depend_on_what_the_seat_cannot_see(system_id: str) -> None:
    # Two states the seat cannot tell apart (other hands, deck order, generator differ)
    # give the same sample for the same generator.
    system = registry.get(system_id)
    assert isinstance(system, Sampling)
    state, seat = midgame(system_id, 5, after=10)
    other = system.sample_state(state, seat, random.Random(99))
    assert system.dump_state(other) != system.dump_state(state)
    one = system.sample_state(state, seat, random.Random(7))
    two = system.sample_state(other, seat, random.Random(7))
    assert system.dump_state(one) == system.dump_state(two)


def test_the_dif_sampler_picks_the_other_secret_altitude_again() -> None:
    # 4.5: before the reveal, X1's pick is hidden from A1: a sample picks it anew.
    system = registry.get("dif")
    assert isinstance(system, Sampling)
    state, _ = system.new_game(duel("dif"), 4)
    state, _ = system.apply(state, "X1", system.parse_action("alt H"))
    picks = {
        system.sample_state(state, "A1", random.Random(n)).elements["X1"].pick for n in range(20)
    }
    assert len(picks) > 1
