"""A leader attacks a bomber in a Zero! campaign mission (engine/dif/bombing.py;
§20.11, §20.22, §20.32, §20.41-§20.54): the formation seat answers from the
attacked bomber's defensive mini-hand."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dif.actions import Action
from engine.dif.components import Ruleset
from engine.dif.game import DifEngine, default_engine
from engine.dif.state import GameState
from engine.dif.ui import DifPresenter
from tests.engine.dif.test_mission_formations import KI21, bombers
from tests.engine.dif.test_mission_rules import at, drive, mission_setup, refused


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def card(engine: DifEngine, state: GameState, code: str, *, spoiled: bool) -> int:
    """A card of the deck by its code and its Rejected Attack symbol, taken out of
    wherever it lies now so that a test may place it."""
    c = next(
        c
        for c in engine.deck_ids[Ruleset.ZERO]
        if engine.code[c] == code and engine.cards[c].spoiled_attack is spoiled
    )
    for pile in (state.deck, state.discard, *(e.hand for e in state.elements.values())):
        if c in pile:
            pile.remove(c)
    return c


def at_play(
    engine: DifEngine, defence: list[tuple[str, bool]], crews: dict[str, Any] | None = None
) -> GameState:
    """A P-40B leader (A1) at Medium with two Ki-21s (X3, their ``crews``) there, its
    Zero escort (X1) at High; A1 holds an IMS-2B3D, an IMS-1B2D and a MAN; the
    formation's next draws are ``defence`` (§20.41: Ki-21 Turret Defensive 1 + the
    other's Support 1)."""
    setup = mission_setup(
        bombs={},
        elements=[
            {"seat": "A1", "side": "allied", "aircraft": "p-40b"},
            {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
        ],
        altitudes={"A1": "M", "X1": "H"},
        order=["A1", "X1"],
        arrival=1,
        mission={"formations": [KI21 | {"mode": "saturation", "crews": crews or {}}]},
    )
    state, _ = engine.new_game(setup, 2)
    state = drive(engine, state, at("play", "A1"))
    a1 = state.elements["A1"]
    state.discard.extend(a1.hand)
    a1.hand = [
        card(engine, state, "IMS-2B3D", spoiled=False),
        card(engine, state, "IMS-1B2D", spoiled=False),
        card(engine, state, "MAN", spoiled=True),
    ]
    drawn = [card(engine, state, code, spoiled=s) for code, s in defence]
    state.deck.extend(reversed(drawn))  # the deck is drawn from its end
    return state


def apply(engine: DifEngine, state: GameState, seat: str, text: str) -> GameState:
    state, _ = engine.apply(state, seat, Action.from_text(text))
    return state


def test_a_leader_attacks_the_designated_bomber_with_its_bursts(engine: DifEngine) -> None:
    state = at_play(engine, [("TIT", False), ("BAR", False)])
    legal = {str(a) for a in engine.legal_actions(state, "A1")}
    assert "play IMS-2B3D X3B1" in legal and "play IMS-1B2D X3B1" in legal
    assert "play IMS-2B3D X3B2" not in legal  # §20.32e: the formation's side designates
    assert "20.32e" in refused(engine, state, "A1", "play IMS-2B3D X3B2")
    assert engine.view(state, "A1").bursts_left == 1  # nothing attacked yet: its rating
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    assert engine.view(state, "A1").bursts_left == 1  # 1 + 2 (§20.22) - 2
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("X3", "respond")]
    # The TIT and the BAR answer no In My Sights (§20.51): only passing is left.
    assert [str(a) for a in engine.legal_actions(state, "X3")] == ["pass"]
    assert "20.51" in refused(engine, state, "X3", "respond TIT")
    state = apply(engine, state, "X3", "pass")
    assert bombers(state)["X3B1"]["hits"] == 3
    assert "play IMS-1B2D X3B1" in {str(a) for a in engine.legal_actions(state, "A1")}
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    state = apply(engine, state, "X3", "pass")
    assert bombers(state)["X3B1"]["hits"] == 5
    assert engine.view(state, "A1").bursts_left == 0


def test_an_evasive_action_crew_costs_the_leader_a_burst(engine: DifEngine) -> None:
    # §19.35 L1292: EA, -1 to the enemy Leader's Bursts when chosen as a Target.
    evasive = {"0": {"name": "Evans", "skills": ["EA"]}}
    state = at_play(engine, [("TIT", False), ("BAR", False)], crews=evasive)
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    assert engine.view(state, "A1").bursts_left == 0  # 1 + 2 (§20.22) - 1 (EA) - 2
    state = apply(engine, state, "X3", "pass")
    assert "play IMS-1B2D X3B1" not in {str(a) for a in engine.legal_actions(state, "A1")}


def test_the_defensive_minihand_is_the_formation_seats_alone(engine: DifEngine) -> None:
    state = at_play(engine, [("TIT", False), ("IMS-1B2D", False)])
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    mine = engine.view(state, "X3").mission
    theirs = engine.view(state, "A1").mission
    assert mine is not None and theirs is not None
    assert mine.formations[0].defence == 2 == theirs.formations[0].defence
    assert sorted(mine.formations[0].defence_cards or ()) == ["IMS-1B2D", "TIT"]
    assert theirs.formations[0].defence_cards is None
    lines = DifPresenter(engine).seat_lines(state, "X3", "en")
    assert "(20.41)" in lines[-1] and "**In My Sights" in lines[-1]


def test_a_rejected_attack_card_rejects_the_attack(engine: DifEngine) -> None:
    state = at_play(engine, [("MAN", True), ("TIT", False)])
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    state = apply(engine, state, "X3", "respond MAN")  # §20.53
    assert bombers(state)["X3B1"]["hits"] == 0
    assert state.exchange is None and engine.pending(state)[0].seat == "A1"


def test_a_counter_attack_hits_the_fighter_unless_it_answers(engine: DifEngine) -> None:
    state = at_play(engine, [("IMS-1B2D", False), ("TIT", False)])
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    state = apply(engine, state, "X3", "respond IMS-1B2D")  # §20.52: both hit
    assert bombers(state)["X3B1"]["hits"] == 3
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("A1", "respond")]
    state = apply(engine, state, "A1", "pass")
    a1 = state.elements["A1"].leader
    assert a1 is not None and a1.hits == 2
    assert state.exchange is None


def test_the_bomber_never_answers_the_fighters_answer(engine: DifEngine) -> None:
    state = at_play(engine, [("IMS-1B2D", False), ("TIT", False)])
    a1 = state.elements["A1"]
    a1.hand.append(card(engine, state, "TIT", spoiled=False))
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    state = apply(engine, state, "X3", "respond IMS-1B2D")
    state, events = engine.apply(state, "A1", Action.from_text("respond TIT"))
    assert state.exchange is None and any("(20.52)" in str(e.text) for e in events)
    leader = state.elements["A1"].leader
    assert leader is not None and leader.hits == 0


def test_the_minihand_is_discarded_at_the_end_of_the_turn(engine: DifEngine) -> None:
    state = at_play(engine, [("TIT", False), ("BAR", False)])
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    state = apply(engine, state, "X3", "pass")
    state = drive(engine, state, at("play", "X1"))
    assert state.mission is not None
    assert state.mission["formations"]["X3"]["defence"] == []


def test_an_assigned_leader_and_a_wingman_do_not_attack_bombers(engine: DifEngine) -> None:
    state = at_play(engine, [("TIT", False), ("BAR", False)])
    state.elements["X1"].altitude = state.elements["A1"].altitude
    engine._set_pos(state, "X1", "A1", 1)
    assert "20.11" in refused(engine, state, "A1", "play IMS-2B3D X3B1")
    # §20.11, 10.3a: the wingman of an Assigned leader attacks no bomber either.
    why = engine._wm_target_refusal(state, state.elements["A1"], "X3B1")
    assert why is not None and "20.11" in str(why.term())


def test_a_choice_nobody_can_answer_succeeds_and_adds_bursts(engine: DifEngine) -> None:
    # §20.32b: the Zero escort flies at High, so no NOT Assigned leader of the
    # formation's side is at Medium to answer the Maneuvering.
    state = at_play(engine, [("TIT", False), ("BAR", False)])
    state = apply(engine, state, "A1", "play MAN X3B2")
    assert state.exchange is None and state.t.target == "X3B2"
    assert engine.view(state, "A1").bursts_left == 4  # 1 + 2 + 1 (§20.22)
    assert "play IMS-2B3D X3B2" in {str(a) for a in engine.legal_actions(state, "A1")}
    state = apply(engine, state, "A1", "play IMS-2B3D X3B2")
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("X3", "respond")]


def test_a_not_assigned_leader_of_the_formations_side_answers_the_choice(
    engine: DifEngine,
) -> None:
    # §20.32b-e (the example L1406): a Tight Turn from the escort's hand answers the
    # Maneuvering; the attack fails and the side designates the bomber.
    state = at_play(engine, [("TIT", False), ("BAR", False)])
    x1 = state.elements["X1"]
    x1.altitude = state.elements["A1"].altitude
    x1.hand = [card(engine, state, "TIT", spoiled=False)]
    state = apply(engine, state, "A1", "play MAN X3B2")
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("X1", "respond")]
    assert "respond TIT" in {str(a) for a in engine.legal_actions(state, "X1")}
    state, events = engine.apply(state, "X1", Action.from_text("respond TIT"))
    assert str(events[-1].text) == "A6M2 Zero (X1) responds with Tight Turn."
    state = apply(engine, state, "A1", "pass")
    assert state.t.target is None and state.t.wm_bonus == 0
    assert "20.32e" in refused(engine, state, "A1", "play IMS-2B3D X3B2")
    assert "play IMS-2B3D X3B1" in {str(a) for a in engine.legal_actions(state, "A1")}


def test_an_ace_crew_gives_two_counter_attacks_a_rejected_attack(engine: DifEngine) -> None:
    # §19.35 AC: "any two (2) Counter-Attack Cards played during the Mission".
    ace = {"0": {"name": "Kelly", "skills": ["AC"]}}
    state = at_play(engine, [("IMS-2B2D", False), ("IMS-1B1D", False)], crews=ace)
    state = apply(engine, state, "A1", "play IMS-2B3D X3B1")
    legal = {str(a) for a in engine.legal_actions(state, "X3")}
    assert {"respond IMS-2B2D=ACE", "respond IMS-1B1D=ACE"} <= legal
    label = DifPresenter(engine).describe_action(state, Action.from_text("respond IMS-2B2D=ACE"))
    assert label.endswith("+ Ace Crew (Rejected Attack)")
    state, events = engine.apply(state, "X3", Action.from_text("respond IMS-2B2D=ACE"))
    assert any("(1 left, 19.35)" in str(e.text) for e in events)
    assert bombers(state)["X3B1"]["hits"] == 0  # rejected (§20.54)
    state = apply(engine, state, "A1", "pass")  # the counter-attack hits
    leader = state.elements["A1"].leader
    assert leader is not None and leader.hits == 2
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    state = apply(engine, state, "X3", "respond IMS-1B1D=ACE")
    assert state.mission is not None and state.mission["ace_crew"] == {"X3B1": 2}
    assert bombers(state)["X3B1"]["hits"] == 0


def test_the_ace_crew_is_its_own_bombers_and_spent_after_two(engine: DifEngine) -> None:
    defence = [("IMS-2B2D", False), ("MAN", True)]
    # The Ace Crew flies X3B2: it lends nothing through Turret Support (§19.35).
    lent = at_play(engine, defence, crews={"1": {"name": "Kelly", "skills": ["AC"]}})
    lent = apply(engine, lent, "A1", "play IMS-2B3D X3B1")
    assert "Turret Support (19.35)" in refused(engine, lent, "X3", "respond IMS-2B2D=ACE")
    spent = at_play(engine, defence, crews={"0": {"name": "Kelly", "skills": ["AC"]}})
    assert spent.mission is not None
    spent.mission["ace_crew"] = {"X3B1": 2}
    spent = apply(engine, spent, "A1", "play IMS-2B3D X3B1")
    assert "twice a mission (19.35)" in refused(engine, spent, "X3", "respond IMS-2B2D=ACE")
    assert "counter-attack card only" in refused(engine, spent, "X3", "respond MAN=ACE")
