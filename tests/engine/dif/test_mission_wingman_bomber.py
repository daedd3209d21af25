"""A wingman attacks a bomber in a Zero! campaign mission (engine/dif/bombing.py;
§20.13, §20.21, §20.32, §20.43, §20.5): a mini-hand of Offensive + Defensive cards, no
Burst limit, Maneuvering or Half Loop only to choose the bomber."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dif.actions import Action
from engine.dif.game import DifEngine, default_engine
from engine.dif.state import GameState
from engine.dif.ui import DifPresenter
from strings import tr
from tests.engine.dif.test_mission_bomber_attack import apply, card
from tests.engine.dif.test_mission_formations import KI21, bombers
from tests.engine.dif.test_mission_rules import at, drive, mission_setup, refused


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def at_wingman(
    engine: DifEngine,
    draws: list[tuple[str, bool]],
    *,
    escort: str = "H",
    loaded: bool = False,
    angle: bool = False,
    crews: dict[str, Any] | None = None,
) -> GameState:
    """A P-40B element (A1; ``loaded``: an SBD carrying its dive bombs) at Medium with
    two Ki-21s (X3) there, their Zero escort (X1) at ``escort``, at A1's Wingman Attack
    step on the Ingress Turn; the next draws are ``draws`` (the wingman's mini-hand
    first, then the bomber's defensive mini-hand); ``angle``: the Angle of Attack option
    (§20.31) is used; ``crews``: the Ki-21s' Skilled Crews (§19.35)."""
    setup = mission_setup(
        bombs={"A1": "dive"} if loaded else {},
        elements=[
            {"seat": "A1", "side": "allied", "aircraft": "sbd" if loaded else "p-40b"},
            {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
        ],
        altitudes={"A1": "M", "X1": escort},
        order=["X1", "A1"],
        arrival=0,
        mission=(
            {"attacker": "allied", "formations": [KI21 | {"side": "axis"}]}
            if loaded
            else {"formations": [KI21 | {"mode": "saturation", "crews": crews or {}}]}
        )
        | {"angle_of_attack": angle},
    )
    state, _ = engine.new_game(setup, 2)
    state = drive(engine, state, at("wingman", "A1"), {"jettison": "keep", "abandon": "continue"})
    drawn = [card(engine, state, code, spoiled=s) for code, s in draws]
    state.deck.extend(reversed(drawn))  # the deck is drawn from its end
    return state


def minihand(engine: DifEngine, state: GameState) -> list[str]:
    return sorted(engine.code[c] for c in state.elements["A1"].minihand)


def test_a_wingman_declares_the_designated_bomber_and_draws_offence_plus_defence(
    engine: DifEngine,
) -> None:
    # Z-17 (L1315): a P-40B wingman draws 1 + 2 = 3 cards against a bomber.
    state = at_wingman(engine, [("IMS-1B2D", False), ("OOS-2B3D", False), ("MAN", False)])
    legal = {str(a) for a in engine.legal_actions(state, "A1")}
    assert "wm X3B1" in legal and "wm X3B2" not in legal
    assert "20.32e" in refused(engine, state, "A1", "wm X3B2")
    state = apply(engine, state, "A1", "wm X3B1")
    assert minihand(engine, state) == ["IMS-1B2D", "MAN", "OOS-2B3D"]
    assert state.step == "wingman_attack"
    legal = {str(a) for a in engine.legal_actions(state, "A1")}
    assert {"play IMS-1B2D X3B1", "play MAN X3B2", "done"} <= legal
    assert "play IMS-1B2D X3B2" not in legal  # §20.32e: the designated one only
    assert "20.32d-e" in refused(engine, state, "A1", "play IMS-1B2D X3B2")


def test_a_wingman_has_no_burst_limit_and_the_formation_answers(engine: DifEngine) -> None:
    # §20.21: both its bursts go in (3 + 2 Bursts, more than a P-40B leader's 1 + 2).
    draws = [("IMS-1B2D", False), ("OOS-2B3D", False), ("TIT", False)]
    state = at_wingman(engine, [*draws, ("TIT", False), ("BAR", False)])
    state = apply(engine, state, "A1", "wm X3B1")
    state = apply(engine, state, "A1", "play OOS-2B3D X3B1")
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("X3", "respond")]
    mission = engine.view(state, "X3").mission
    assert mission is not None and mission.formations[0].defence == 2  # §20.41: 1 + 1
    state = apply(engine, state, "X3", "pass")
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    state = apply(engine, state, "X3", "pass")
    assert bombers(state)["X3B1"]["hits"] == 5
    # The Tight Turn is no card against a formation (§20.42): the attack ends.
    assert state.step == "altitude"
    assert state.elements["A1"].minihand == []
    assert state.mission is not None and state.mission["formations"]["X3"]["defence"] == []


def test_a_wingmans_choice_names_its_bomber_and_adds_no_bursts(engine: DifEngine) -> None:
    # §20.32b: the escort flies at High, nobody answers: the choice succeeds at once.
    state = at_wingman(engine, [("MAN", False), ("IMS-1B2D", False), ("OOS-2B3D", False)])
    state = apply(engine, state, "A1", "wm X3B1")
    state, events = engine.apply(state, "A1", Action.from_text("play MAN X3B2"))
    assert state.t.wm_target == "X3B2" and state.t.wm_bonus == 0
    assert str(events[-1].text) == "Ki-21 (X3B2) is chosen as the wingman's target (20.32d)."
    assert "20.32d-e" in refused(engine, state, "A1", "play IMS-1B2D X3B1")
    state = apply(engine, state, "A1", "play IMS-1B2D X3B2")
    state = apply(engine, state, "X3", "pass")
    assert bombers(state)["X3B2"]["hits"] == 2


def test_a_wingman_chooses_only_when_starting_its_attack(engine: DifEngine) -> None:
    # §20.32a "when starting the attack", §20.43: no Half Loop once it has fired.
    state = at_wingman(engine, [("IMS-1B2D", False), ("HAL", False), ("OOS-2B3D", False)])
    state = apply(engine, state, "A1", "wm X3B1")
    assert "play HAL X3B2" in {str(a) for a in engine.legal_actions(state, "A1")}
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    state = apply(engine, state, "X3", "pass")
    assert "20.32a" in refused(engine, state, "A1", "play HAL X3B2")
    assert "play OOS-2B3D X3B1" in {str(a) for a in engine.legal_actions(state, "A1")}


def test_a_not_assigned_leader_answers_a_wingmans_choice(engine: DifEngine) -> None:
    # §20.32b-c (Z-18, L1400): the escort's Tight Turn answers; the wingman's own
    # Tight Turn answers that; the escort cannot: the choice succeeds.
    draws = [("MAN", False), ("TIT", False), ("IMS-1B2D", False)]
    state = at_wingman(engine, draws, escort="M")
    x1 = state.elements["X1"]
    state.discard.extend(x1.hand)
    drawn = state.deck[-3:]
    x1.hand = [c for c in state.discard if engine.code[c] == "TIT" and c not in drawn][:1]
    state.discard.remove(x1.hand[0])
    state = apply(engine, state, "A1", "wm X3B1")
    state = apply(engine, state, "A1", "play MAN X3B2")
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("X1", "respond")]
    state = apply(engine, state, "X1", "respond TIT")
    assert "respond TIT" in {str(a) for a in engine.legal_actions(state, "A1")}
    state = apply(engine, state, "A1", "respond TIT")
    state = apply(engine, state, "X1", "pass")
    assert state.t.wm_target == "X3B2"


def test_a_leader_that_abandoned_answers_for_no_bomber(engine: DifEngine) -> None:
    # §23.53: over the target who Abandons fights only who Abandons; bombers never do.
    state = at_wingman(engine, [("MAN", False), ("IMS-1B2D", False), ("TIT", False)], escort="M")
    assert state.mission is not None
    state.mission["away"] = ["X1"]
    state = apply(engine, state, "A1", "wm X3B1")
    state = apply(engine, state, "A1", "play MAN X3B2")
    assert state.exchange is None and state.t.wm_target == "X3B2"


def test_the_bombers_counter_attack_is_answered_from_the_wingmans_minihand(
    engine: DifEngine,
) -> None:
    # §20.52: the bomber's In My Sights does its Damage unless the wingman answers it
    # from the cards it attacks with.
    draws = [("IMS-1B2D", False), ("BAR", False), ("MAN", False)]
    state = at_wingman(engine, [*draws, ("IMS-1B1D", False), ("TIT", False)])
    state = apply(engine, state, "A1", "wm X3B1")
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    state = apply(engine, state, "X3", "respond IMS-1B1D")
    assert bombers(state)["X3B1"]["hits"] == 2
    pending = engine.pending(state)
    assert [(p.seat, p.kind) for p in pending] == [("A1", "respond")]
    assert "respond BAR" in {str(a) for a in engine.legal_actions(state, "A1")}
    prompt = tr(DifPresenter(engine).prompt(state, pending[0]), "en")
    assert "with your wingman's mini-hand" in prompt
    state = apply(engine, state, "A1", "respond BAR")
    wingman = state.elements["A1"].wingman
    assert wingman is not None and wingman.hits == 0
    # Its Maneuvering may no longer choose (§20.32a): the attack is over.
    assert state.step == "altitude" and state.elements["A1"].minihand == []


def test_a_loaded_wingman_attacks_a_bomber_without_the_load_penalty(engine: DifEngine) -> None:
    # §17.15 Exceptions: no -1 Offensive, no ban on Maneuvering, no Assigned leader
    # needed against a formation.
    state = at_wingman(engine, [("MAN", False), ("IMS-1B2D", False), ("HAL", False)], loaded=True)
    assert state.mission is not None and "A1W" in state.mission["loaded"]
    state = apply(engine, state, "A1", "wm X3B1")
    assert minihand(engine, state) == ["HAL", "IMS-1B2D", "MAN"]
    assert "play MAN X3B2" in {str(a) for a in engine.legal_actions(state, "A1")}


def test_a_rear_angle_of_attack_gives_more_cards_to_both(engine: DifEngine) -> None:
    # §20.31 Rear: the wingman's Offensive +1 (1 + 1 + 2 = 4 cards), the formation two
    # more Defensive cards in total (1 + 1 + 2 = 4); one angle for the whole element.
    mine = [("IMS-1B2D", False), ("OOS-2B3D", False), ("MAN", False), ("TIT", False)]
    theirs = [("TIT", False), ("BAR", False), ("TIT", False), ("BAR", False)]
    state = at_wingman(engine, mine + theirs, angle=True)
    assert "angle rear" in {str(a) for a in engine.legal_actions(state, "A1")}
    state, events = engine.apply(state, "A1", Action.from_text("angle rear"))
    assert str(events[-1].text) == "P-40B (A1) declares its Angle of Attack: Rear (20.31)."
    assert state.step == "wingman"
    assert engine._bomber_budget(state, state.elements["A1"], "X3B1") == 4  # leader: 1 + 2 + 1
    assert "20.31" in refused(engine, state, "A1", "angle frontal")
    label = DifPresenter(engine).describe_action(state, Action.from_text("angle rear"))
    assert label == "Rear Angle of Attack"
    state = apply(engine, state, "A1", "wm X3B1")
    assert len(state.elements["A1"].minihand) == 4
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    mission = engine.view(state, "X3").mission
    assert mission is not None and mission.formations[0].defence == 4


def test_a_frontal_angle_of_attack_takes_one_from_both(engine: DifEngine) -> None:
    # §20.31 Frontal: Offensive -1 (0 + 2 = 2 cards), one Defensive card fewer (2 - 1).
    state = at_wingman(engine, [("IMS-1B2D", False), ("MAN", False), ("TIT", False)], angle=True)
    state = apply(engine, state, "A1", "angle frontal")
    state = apply(engine, state, "A1", "wm X3B1")
    assert minihand(engine, state) == ["IMS-1B2D", "MAN"]
    state = apply(engine, state, "A1", "play IMS-1B2D X3B1")
    mission = engine.view(state, "X3").mission
    assert mission is not None and mission.formations[0].defence == 1


def test_an_undeclared_angle_is_the_beam_and_the_option_may_be_off(engine: DifEngine) -> None:
    off = at_wingman(engine, [("IMS-1B2D", False), ("MAN", False), ("TIT", False)])
    assert "angle rear" not in {str(a) for a in engine.legal_actions(off, "A1")}
    assert "20.31" in refused(engine, off, "A1", "angle rear")
    state = at_wingman(engine, [("IMS-1B2D", False), ("MAN", False), ("TIT", False)], angle=True)
    assert state.mission is not None
    state.mission["away"] = ["A1"]  # §23.53: an element that Abandoned attacks no bomber
    assert "20.31" in refused(engine, state, "A1", "angle rear")
    state.mission["away"] = []
    state = apply(engine, state, "A1", "wm X3B1")  # no declaration: the Beam (no change)
    assert len(state.elements["A1"].minihand) == 3
    assert state.mission is not None and state.mission["angle"] == "beam"


def test_an_evasive_action_crew_shrinks_the_wingmans_offence(engine: DifEngine) -> None:
    # §19.35 L1292: EA, -1 to a Wingman's Offensive Rating when chosen as a Target.
    evasive = {"0": {"name": "Evans", "skills": ["EA"]}}
    draws = [("IMS-1B2D", False), ("OOS-2B3D", False), ("MAN", False)]
    state = at_wingman(engine, draws, crews=evasive)
    state = apply(engine, state, "A1", "wm X3B1")
    assert minihand(engine, state) == ["IMS-1B2D", "OOS-2B3D"]  # (1 - 1) + 2
