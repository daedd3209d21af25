"""GameState is plain data: JSON round trip, and clones that share nothing."""

from __future__ import annotations

import json

from engine.dif.game import DifEngine
from engine.dif.state import GameState

from .conftest import GameFactory, Play, Step


def dump(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def test_to_json_is_plain_json(sample_steps: list[Step]) -> None:
    for step in sample_steps[::50]:
        assert json.loads(json.dumps(step.after.to_json())) == step.after.to_json()


def test_from_json_restores_every_state_of_random_games(sample_steps: list[Step]) -> None:
    kinds = set()
    for step in sample_steps:
        state = step.after
        text = json.dumps(state.to_json())
        back = GameState.from_json(json.loads(text))
        assert back == state
        assert json.dumps(back.to_json()) == text
        kinds.add("exchange" if state.exchange else "follow" if state.follow else state.step)
        kinds.update("lost" for e in state.elements.values() if e.lost)
    assert {"exchange", "follow", "lost", "over", "play", "discard"} <= kinds, kinds


def test_clone_equals_the_original_and_shares_no_mutable_part(sample_steps: list[Step]) -> None:
    """Planes and elements are shared until changed: scribbled over through ``own``
    and ``own_element`` (the one way a rule changes a plane or an element,
    engine.dif.state), they leave the original as it was."""
    for step in sample_steps[::13]:
        state = step.after
        before = dump(state)
        copy = state.clone()
        assert copy == state
        # Scribble over every mutable part of the copy: the original must not move.
        copy.deck.append(999)
        copy.discard.append(999)
        copy.in_play.append(999)
        copy.positions["Z1|Z2"] = 1
        copy.order.append("Z9")
        t = copy.own_turn()
        t.bursts_used += 5
        t.target = "Z1L"
        for seat in list(copy.elements):
            e = copy.own_element(seat)
            e.hand.append(999)
            e.minihand.append(999)
            e.defence.append(999)
            e.altitude = 99
            for p in e.planes():
                mine = copy.own(p)
                mine.hits += 9
                mine.status = "destroyed"
            e.lost.append(e.lost[0] if e.lost else e.planes()[0])
        if copy.exchange is not None:
            copy.exchange.chain.append([999, "ACE"])
            if state.exchange and state.exchange.chain:
                copy.exchange.chain[0][1] = "XXX"
        if copy.follow is not None:
            copy.follow.direction = 7
        if copy.result is not None:
            copy.result["winner"] = "nobody"
        assert dump(state) == before


def test_a_state_stored_by_the_previous_release_loads_and_plays(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # The previous release stored TurnState without ``held`` (6.36), ``level`` and
    # ``roll_first`` (RotL L212-214). Such a state loads; those rules then fall back to
    # what that release did: any position may be given up, no altitude restriction.
    state = new_game(positions=[{"leader": "A1", "on": "X1", "position": "Advantaged"}])
    state = play(state, "A1", "stay")
    data = json.loads(json.dumps(state.to_json()))
    for name in ("held", "level", "roll_first"):
        assert name in data["t"]
        del data["t"][name]
    old = GameState.from_json(data)
    assert old.t.held is None and old.t.level is None and not old.t.roll_first
    assert "giveup" in {str(a) for a in engine.legal_actions(old, "A1")}
    after = play(old, "A1", "giveup")
    assert engine.pos(after, "A1", "X1") == 0
    assert GameState.from_json(json.loads(json.dumps(after.to_json()))) == after
