"""A friendly leader helps defend a light bomber in a Zero! campaign mission
(engine/dif/bombing.py, §17.13b): against a Maneuvering or Half Loop at a NOT Assigned
Light Bomber, once it passes, a friendly NOT Assigned leader at its altitude may
answer from its hand."""

from __future__ import annotations

import pytest

from engine.dif.actions import Action
from engine.dif.game import DifEngine, default_engine
from engine.dif.state import GameState
from tests.engine.dif.test_mission_bomber_attack import apply
from tests.engine.dif.test_mission_rules import at, drive, mission_setup


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def give(engine: DifEngine, state: GameState, seat: str, codes: list[str]) -> None:
    """``seat``'s hand becomes ``codes``, taken from the deck (its old hand to the
    discard pile)."""
    e = state.elements[seat]
    state.discard.extend(e.hand)
    e.hand = []
    for code in codes:
        c = next(c for c in reversed(state.deck) if engine.code[c] == code)
        state.deck.remove(c)
        e.hand.append(c)


def at_x1_play(engine: DifEngine) -> GameState:
    """An SBD (A1, a light bomber, no bombs) and an F4F (A2) at Medium on an Allied
    raid; an A6M2 Zero (X1) there, at its Play Cards step holding a Maneuvering and an
    In My Sights; the SBD holds nothing that answers a Maneuvering, the F4F a Tight
    Turn."""
    setup = mission_setup(
        bombs={},
        elements=[
            {"seat": "A1", "side": "allied", "aircraft": "sbd"},
            {"seat": "A2", "side": "allied", "aircraft": "f4f"},
            {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
        ],
        altitudes={"A1": "M", "A2": "M", "X1": "M"},
        order=["A1", "A2", "X1"],
        arrival=1,
        mission={"attacker": "allied"},
    )
    state, _ = engine.new_game(setup, 4)
    state = drive(engine, state, at("play", "X1"))
    give(engine, state, "X1", ["MAN", "IMS-1B2D", "MAN"])
    give(engine, state, "A1", ["BAR", "VER"])
    give(engine, state, "A2", ["TIT"])
    return state


def waiting(engine: DifEngine, state: GameState) -> list[tuple[str, str]]:
    return [(p.seat, p.kind) for p in engine.pending(state)]


def test_a_friendly_leader_answers_for_the_light_bomber_once_it_passes(
    engine: DifEngine,
) -> None:
    state = at_x1_play(engine)
    state = apply(engine, state, "X1", "play MAN A1L")
    assert waiting(engine, state) == [("A1", "respond")]
    state, events = engine.apply(state, "A1", Action.from_text("pass"))
    assert str(events[-1].text) == "F4F Wildcat (A2) may answer for SBD Dauntless (A1) (17.13b)."
    assert waiting(engine, state) == [("A2", "respond")]
    assert "respond TIT" in {str(a) for a in engine.legal_actions(state, "A2")}
    state, events = engine.apply(state, "A2", Action.from_text("respond TIT"))
    assert str(events[-1].text) == "F4F Wildcat (A2) responds with Tight Turn."
    assert state.elements["A2"].hand == []
    assert waiting(engine, state) == [("X1", "respond")]
    state = apply(engine, state, "X1", "pass")
    assert engine.pos(state, "X1", "A1") == 0  # the Maneuvering is negated
    assert state.mission is not None and state.mission["helping"] is None


def test_when_every_defender_passes_the_maneuver_succeeds(engine: DifEngine) -> None:
    state = at_x1_play(engine)
    state = apply(engine, state, "X1", "play MAN A1L")
    state = apply(engine, state, "A1", "pass")
    state = apply(engine, state, "A2", "pass")
    assert engine.pos(state, "X1", "A1") == 1  # Advantaged
    # §17.13b: no help against an Assigned light bomber's position adjustment.
    state = apply(engine, state, "X1", "play MAN A1L")
    assert waiting(engine, state) == [("A1", "respond")]
    state = apply(engine, state, "A1", "pass")
    assert engine.pos(state, "X1", "A1") == 2 and state.exchange is None


def test_no_help_against_in_my_sights_nor_for_a_fighter(engine: DifEngine) -> None:
    state = at_x1_play(engine)
    fighter = apply(engine, state, "X1", "play MAN A2L")
    fighter = apply(engine, fighter, "A2", "pass")
    assert fighter.exchange is None and engine.pos(fighter, "X1", "A2") == 1
    state = apply(engine, state, "X1", "play IMS-1B2D A1L")
    state = apply(engine, state, "A1", "pass")
    assert state.exchange is None
    leader = state.elements["A1"].leader
    assert leader is not None and leader.hits == 2
