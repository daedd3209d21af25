"""The computer players (engine/ai): legal moves, whole games, and no peeking."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import ai
from engine.ai.base import ScoredPolicy, Situation
from engine.ai.search import SearchPolicy
from engine.core import registry
from engine.core.contract import Sampling
from tests.engine.ai.conftest import SYSTEMS, duel, midgame

QUICK = {"iterations": 6, "seconds": None, "depth": 4}
"""A search budget small enough for the suite, and free of the clock."""


def quick_player(system_id: str, level: str, seed: int) -> Any:
    return ai.player(system_id, level, seed, **(QUICK if level == "search" else {}))


@pytest.mark.parametrize("system_id", SYSTEMS)
@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_player_never_reads_another_seats_hidden_cards(system_id: str, level: str) -> None:
    # Same view, same seed: the same choice, whatever the other hands, the deck order
    # and the game's generator hold.
    system = registry.get(system_id)
    assert isinstance(system, Sampling)
    for seed, after in ((11, 4), (12, 16), (13, 28)):
        state, seat = midgame(system_id, seed, after=after)
        other = system.sample_state(state, seat, random.Random(seed))
        assert system.view(other, seat) == system.view(state, seat)
        assert system.dump_state(other) != system.dump_state(state)
        first = quick_player(system_id, level, seed).choose(state, seat)
        assert quick_player(system_id, level, seed).choose(other, seat) == first


@pytest.mark.parametrize("system_id", SYSTEMS)
@pytest.mark.parametrize(("one", "two"), [("heuristic", "random"), ("search", "heuristic")])
def test_every_level_plays_a_whole_game_with_legal_moves(
    system_id: str, one: str, two: str
) -> None:
    system = registry.get(system_id)
    state, _ = system.new_game(duel(system_id), 21)
    players = {
        s: quick_player(system_id, (one, two)[i], 21 + i)
        for i, s in enumerate(sorted(seat for side in system.sides(state) for seat in side.seats))
    }
    for _ in range(3000):
        if system.is_over(state):
            break
        seat = system.pending(state)[0].seat
        action = players[seat].choose(state, seat)
        assert action in system.legal_actions(state, seat)
        state, _ = system.apply(state, seat, action)
    assert system.outcome(state).over


def test_the_policy_is_handed_the_view_and_the_legal_actions_only() -> None:
    seen: list[Situation] = []

    class Spy:
        wants_sampler = False

        def decide(self, situation: Situation) -> Any:
            seen.append(situation)
            return situation.legal[0]

    system = registry.get("dif")
    state, seat = midgame("dif", 3, after=6)
    ai.SeatPlayer(system, Spy()).choose(state, seat)
    (situation,) = seen
    assert situation.view == system.view(state, seat)
    assert list(situation.legal) == system.legal_actions(state, seat)
    assert situation.sample is None


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ai.UnknownLevel):
        ai.player("dif", "grandmaster", 1)


def test_the_dif_heuristic_fires_when_tailing_and_positions_before() -> None:
    # 8.2: a leader Tailing its target spends its bursts; 6.1: Neutral, it maneuvers.
    system = registry.get("dif")
    base: dict[str, Any] = duel("dif").model_dump(mode="json")
    base |= {
        "altitudes": {"A1": "M", "X1": "M"},
        "first_side": "allied",
        "hands": {"A1": ["IMS-2B3D", "MAN", "TIT", "BAR", "HAL"], "X1": ["MAN", "TIT"]},
    }
    tailing = base | {"positions": [{"leader": "A1", "on": "X1", "position": "Tailing"}]}
    for setup, expected in ((tailing, "play IMS-2B3D X1L"), (base, "play HAL X1L")):
        state, _ = system.new_game(type(duel("dif")).model_validate(setup), 1)
        state, _ = system.apply(state, "A1", system.parse_action("stay"))
        assert str(ai.player("dif", "heuristic", 1).choose(state, "A1")) == expected


def test_the_search_weighs_the_heuristics_best_actions_in_the_same_samples() -> None:
    # Its candidates are the heuristic's best-rated actions, its favourite first; each
    # round draws one sample and tries every candidate in it (common random numbers).
    system = registry.get("dif")
    assert isinstance(system, Sampling)
    state, seat = midgame("dif", 5, after=10)
    score = ai.heuristic("dif")
    drawn: list[int] = []

    def sample(rng: random.Random) -> Any:
        drawn.append(1)
        return system.sample_state(state, seat, rng)

    legal = system.legal_actions(state, seat)
    situation = Situation(seat, system.view(state, seat), legal, sample)
    search = SearchPolicy(system, score, 5, iterations=4, seconds=None, depth=6, width=3)
    candidates = search.candidates(situation)
    assert candidates[0] == ScoredPolicy(score, 5).decide(situation)
    rated = sorted((score(situation.view, a) for a in legal), reverse=True)
    assert [score(situation.view, a) for a in candidates] == rated[: len(candidates)]
    assert search.decide(situation) in candidates
    assert len(drawn) == 4
