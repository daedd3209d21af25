"""``apply`` pays for a copy of the state, never more, never less (issue 16).

Every state of a random game is kept: after the whole game each still dumps as it did
when it was made, so no later ``apply`` changed an earlier state through a part the
copy shares (Down in Flames' ``fates`` are copied on write, a plane's ``pilot`` list
replaced when the Ace's counter is spent), in every system. And
Down in Flames' ``legal_actions``, which builds only the attacks within reach (same
altitude, the turn's one target, an attack card), the responses that answer the last
card and a give-up or evasion before the first card, still lists every attack,
response and bare move that ``refusal`` allows.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core import registry
from engine.dif.actions import AS_KINDS, COUNTER, Action
from engine.dif.game import DifEngine, default_engine
from engine.dif.setup import DifSetup
from engine.dif.state import GameState
from tests.engine.ai.conftest import SYSTEMS, duel
from tests.engine.conftest import random_setup
from tests.engine.dif.test_mission_properties import random_mission

MAX_STEPS = 600


def _dif_setups(seed: int) -> Any:
    """A 4-v-4 dogfight, or a campaign mission (bombers, formations, its own state)."""
    rng = random.Random(seed)
    if seed % 2:
        return random_mission(default_engine(), rng)
    return random_setup(default_engine(), rng, (4, 4))


def _game(system_id: str, setup: Any, seed: int) -> list[Any]:
    """The states of one random game, in order (cut at ``MAX_STEPS``)."""
    system = registry.get(system_id)
    rng = random.Random(seed)
    state, _ = system.new_game(setup, seed)
    states = [state]
    while not system.is_over(state) and len(states) < MAX_STEPS:
        seat = system.pending(state)[0].seat
        state, _ = system.apply(state, seat, rng.choice(system.legal_actions(state, seat)))
        states.append(state)
    return states


def _unchanged_after_the_game(system_id: str, setup: Any, seed: int) -> None:
    system = registry.get(system_id)
    rng = random.Random(seed)
    state, _ = system.new_game(setup, seed)
    kept = [(state, system.dump_state(state))]
    while not system.is_over(state) and len(kept) < MAX_STEPS:
        seat = system.pending(state)[0].seat
        state, _ = system.apply(state, seat, rng.choice(system.legal_actions(state, seat)))
        kept.append((state, system.dump_state(state)))
    assert len(kept) > 2
    for n, (old, dumped) in enumerate(kept):
        assert system.dump_state(old) == dumped, f"state {n} of seed {seed} changed later"


@pytest.mark.parametrize("system_id", SYSTEMS)
@pytest.mark.parametrize("seed", range(3))
def test_no_apply_changes_an_earlier_state(system_id: str, seed: int) -> None:
    _unchanged_after_the_game(system_id, duel(system_id), seed)


@pytest.mark.parametrize("seed", range(6))
def test_no_apply_changes_an_earlier_state_in_team_games_and_missions(seed: int) -> None:
    _unchanged_after_the_game("dif", _dif_setups(seed), seed)


def _every_attack(engine: DifEngine, state: GameState, seat: str) -> list[Action]:
    """Every attack ``seat`` could name: each card code of its hand and a counter, as
    drawn or declared as anything, at every aircraft of the game; and every wingman
    target."""
    e = state.elements[seat]
    refs = [f"{s}{role}" for s in state.elements for role in "LW"]
    codes = sorted({engine.code[c] for c in e.hand} | {COUNTER})
    plays = [
        Action.play(code, ref, as_kind=as_kind)
        for code in codes
        for ref in refs
        for as_kind in (None, *AS_KINDS)
    ]
    return plays + [Action.wingman(ref) for ref in refs]


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_lists_every_attack_the_rules_allow(seed: int) -> None:
    engine = default_engine()
    asked = 0
    for state in _game("dif", _dif_setups(seed), seed):
        for p in engine.pending(state):
            if p.kind not in ("play", "wingman") or p.seat not in state.elements:
                continue
            legal = {str(a) for a in engine.legal_actions(state, p.seat)}
            allowed = {
                str(a)
                for a in _every_attack(engine, state, p.seat)
                if engine.refusal(state, p.seat, a) is None
            }
            assert allowed <= legal, f"seed {seed}: {sorted(allowed - legal)} not listed"
            asked += 1
    assert asked > 5


def _every_response(engine: DifEngine, state: GameState, seat: str) -> list[Action]:
    """Every response and bare move ``seat`` could name: each card code of its hand,
    mini-hands and a counter, as drawn or declared as anything."""
    e = state.elements[seat]
    codes = sorted({engine.code[c] for c in (*e.hand, *e.minihand, *e.defence)} | {COUNTER})
    responds = [Action.respond(code, as_kind=k) for code in codes for k in (None, *AS_KINDS)]
    bare = ["done", "giveup", "evade", "pass"]
    return responds + [Action.simple(verb) for verb in bare]


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_lists_every_response_the_rules_allow(seed: int) -> None:
    engine = default_engine()
    asked = set()
    for state in _game("dif", _dif_setups(seed), seed):
        for p in engine.pending(state):
            if p.kind not in ("play", "respond") or p.seat not in state.elements:
                continue
            legal = {str(a) for a in engine.legal_actions(state, p.seat)}
            allowed = {
                str(a)
                for a in _every_response(engine, state, p.seat)
                if engine.refusal(state, p.seat, a) is None
            }
            assert allowed <= legal, f"seed {seed}: {sorted(allowed - legal)} not listed"
            asked.add(p.kind)
    assert asked == {"play", "respond"}


def _dumped(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def test_the_ace_spent_changes_no_earlier_state() -> None:
    """A plane's ``pilot`` list is shared by its clones (engine.dif.state): spending
    the Ace's counter (a card declared ``ACE``) gives the plane a new list, so the
    states before still hold the ``A``."""
    engine = default_engine()
    setup = DifSetup.model_validate(
        {
            "ruleset": "rotl",
            "year": 1940,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "spitfire-i", "pilot": ["A"]},
                {"seat": "X1", "side": "axis", "aircraft": "bf-109e", "pilot": ["A"]},
            ],
        }
    )
    rng = random.Random(0)
    state, _ = engine.new_game(setup, 0)
    kept = [(state, _dumped(state))]
    spent = 0
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        legal = engine.legal_actions(state, seat)
        aces = [a for a in legal if a.as_kind == "ACE"]
        state, _ = engine.apply(state, seat, aces[0] if aces else rng.choice(legal))
        spent += bool(aces)
        kept.append((state, _dumped(state)))
    assert spent > 0
    for n, (old, dumped) in enumerate(kept):
        assert _dumped(old) == dumped, f"state {n} changed later"
