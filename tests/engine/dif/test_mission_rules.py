"""A Zero! campaign mission's rules, one by one (engine/dif/bombing.py; §15.2-§23)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.core.errors import RuleViolation, SetupError
from engine.dif.actions import Action
from engine.dif.campaign_data import load_scoresheets, load_targets
from engine.dif.game import DifEngine, default_engine
from engine.dif.mission import RECORD_KEYS
from engine.dif.setup import DifSetup
from engine.dif.state import GameState
from engine.dif.system import DifSystem

TARGETS = load_targets()


def mission_setup(
    *,
    target: str = "railway",
    bombs: dict[str, str] | None = None,
    altitudes: dict[str, str] | None = None,
    arrival: int = 0,
    home: int = 0,
    elements: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> DifSetup:
    """Japanese Ki-30s (loaded, level) and Ki-43s against Hurricanes and Buffalos."""
    mission: dict[str, Any] = {
        "attacker": "axis",
        "target": TARGETS[target].model_dump(mode="json", exclude={"id", "sheet", "printed"}),
        "arrival": arrival,
        "home": home,
        "bombs": {"X2": "level"} if bombs is None else bombs,
    }
    mission.update(extra.pop("mission", {}))
    return DifSetup.model_validate(
        {
            "ruleset": extra.pop("ruleset", "zero"),
            "year": 1942,
            "elements": elements
            or [
                {"seat": "A2", "side": "allied", "aircraft": "hurricane-iib"},
                {"seat": "X2", "side": "axis", "aircraft": "ki-30"},
                {"seat": "A1", "side": "allied", "aircraft": "buffalo-i"},
                {"seat": "X1", "side": "axis", "aircraft": "ki-43"},
            ],
            "altitudes": altitudes or {"A2": "L", "X2": "L", "A1": "M", "X1": "M"},
            "first_side": "allied",
            "order": ["A2", "X2", "A1", "X1"],
            "mission": mission,
            **extra,
        }
    )


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def drive(
    engine: DifEngine,
    state: GameState,
    until: Callable[[GameState], bool],
    choose: dict[str, str] | None = None,
) -> GameState:
    """Play passive moves (or ``choose``: decision kind -> action text) until ``until``."""
    for _ in range(500):
        if until(state) or state.step == "over":
            return state
        p = engine.pending(state)[0]
        text = (choose or {}).get(p.kind)
        if text is not None and engine.refusal(state, p.seat, Action.from_text(text)) is None:
            action = Action.from_text(text)
        else:
            action = engine.default_action(state, p.seat)
        state, _ = engine.apply(state, p.seat, action)
    raise AssertionError("never reached")


def refused(engine: DifEngine, state: GameState, seat: str, text: str) -> str:
    why = engine.refusal(state, seat, Action.from_text(text))
    assert why is not None, f"{text} was allowed"
    with pytest.raises(RuleViolation):
        engine.apply(state, seat, Action.from_text(text))
    return str(why)


def at(kind: str, seat: str | None = None) -> Callable[[GameState], bool]:
    def reached(s: GameState) -> bool:
        return any(
            p.kind == kind and (seat is None or p.seat == seat) for p in default_engine().pending(s)
        )

    return reached


# -- setup ------------------------------------------------------------------------------
def test_a_mission_is_zero_only_and_refuses_what_is_not_built(engine: DifEngine) -> None:
    with pytest.raises(SetupError, match="Zero! rules only"):
        engine.new_game(mission_setup(ruleset="rotl"), 1)
    with pytest.raises(SetupError, match=r"21\.52"):
        engine.new_game(mission_setup(bombs={"X2": "torpedo"}), 1)
    with pytest.raises(SetupError, match=r"18\.11"):
        engine.new_game(mission_setup(bombs={"A2": "level"}), 1)
    with pytest.raises(SetupError, match=r"21\.21"):
        engine.new_game(mission_setup(bombs={"X2": "dive"}), 1)


def test_a_loaded_element_fights_a_dogfight_mission_with_its_load(engine: DifEngine) -> None:
    """Pearl Harbor's fighters meet an Element on its way to the Target: a
    dogfight-kind mission (no target) whose Loaded Element keeps its Load Penalty and
    may jettison (§15.2, §17.15); its record says whether it still carries bombs."""
    setup = mission_setup(mission={"kind": "dogfight", "target": None, "turns": 2})
    state, _ = engine.new_game(setup, 1)
    assert state.mission is not None and set(state.mission["loaded"]) == {"X2L", "X2W"}
    assert state.max_turns == 2
    assert engine.mission_record(state, "X2", "X2L")["loaded"] is True
    assert engine.mission_record(state, "X1", "X1L")["loaded"] is False


def test_a_dogfight_state_dumps_as_before(engine: DifEngine) -> None:
    fighters = [
        {"seat": "A2", "side": "allied", "aircraft": "hurricane-iib"},
        {"seat": "X2", "side": "axis", "aircraft": "ki-43"},
        {"seat": "A1", "side": "allied", "aircraft": "buffalo-i"},
        {"seat": "X1", "side": "axis", "aircraft": "ki-43"},
    ]
    setup = mission_setup(elements=fighters, bombs={}).model_copy(update={"mission": None})
    state, _ = engine.new_game(setup, 1)
    assert "mission" not in state.to_json()
    assert "mission" not in setup.model_dump()
    state, _ = engine.new_game(mission_setup(), 1)
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


def test_light_bombers_fly_only_in_missions(engine: DifEngine) -> None:
    setup = mission_setup().model_copy(update={"mission": None})
    with pytest.raises(SetupError):
        engine.new_game(setup, 1)


# -- duration and declarations (§23) ------------------------------------------------------
def test_duration_and_dogfight_missions(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(arrival=2, home=3), 1)
    assert state.max_turns == 8
    dogfight = mission_setup(bombs={}, mission={"kind": "dogfight", "target": None, "turns": 4})
    state, _ = engine.new_game(dogfight, 1)
    assert state.max_turns == 4
    state = drive(engine, state, lambda s: False)
    assert state.step == "over" and state.turn <= 4
    assert state.result is not None and "target_damage" in state.result


def test_defenders_declare_first_and_abandoned_elements_fight_only_each_other(
    engine: DifEngine,
) -> None:
    state, _ = engine.new_game(mission_setup(), 1)
    assert [(p.seat, p.kind) for p in engine.pending(state)] == [("A2", "abandon")]
    for seat, verb in (("A2", "continue"), ("A1", "abandon"), ("X2", "continue")):
        assert engine.pending(state)[0].seat == seat
        state, _ = engine.apply(state, seat, Action.from_text(verb))
    state, _ = engine.apply(state, "X1", Action.from_text("continue"))
    assert state.mission is not None and state.mission["away"] == ["A1"]
    state = drive(engine, state, at("play", "A1"))
    assert "23.53" in refused(engine, state, "A1", "play MAN X1L")


def test_return_home_is_recomputed_at_the_egress(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(home=4, mission={"home_base": 8}), 1)
    assert state.max_turns == 7
    state = drive(engine, state, lambda s: s.turn == 4)
    # 23.7: 8 less the slowest aircraft left, fighters and light bombers counting 6.
    assert state.mission is not None and state.mission["home"] == 2 and state.max_turns == 5


# -- Load Penalty and jettison (§17.15, §18.22) -------------------------------------------
def test_a_loaded_leader_plays_no_maneuvering_and_may_jettison(engine: DifEngine) -> None:
    setup = mission_setup(hands={"X2": ["MAN", "HAL", "TIT", "IMS-1B1D"]})
    state, _ = engine.new_game(setup, 2)
    state = drive(engine, state, at("jettison", "X2"))
    assert {str(a) for a in engine.legal_actions(state, "X2")} == {"jettison", "keep"}
    state, _ = engine.apply(state, "X2", Action.from_text("keep"))
    state = drive(engine, state, at("play", "X2"))
    assert "17.15" in refused(engine, state, "X2", "play MAN A2L")
    assert "17.15" in refused(engine, state, "X2", "play HAL A2L")
    assert engine.refusal(state, "X2", Action.from_text("play IMS-1B1D A2L")) is not None
    # Out of the way: jettisoned, the penalty ends.
    state2, _ = engine.new_game(setup, 2)
    state2 = drive(engine, state2, at("jettison", "X2"), {"jettison": "jettison"})
    state2, _ = engine.apply(state2, "X2", Action.from_text("jettison"))
    assert state2.mission is not None and not state2.mission["loaded"]
    state2 = drive(engine, state2, at("play", "X2"))
    assert engine.refusal(state2, "X2", Action.from_text("play MAN A2L")) is None


def test_a_loaded_wingman_attacks_only_when_its_leader_is_assigned(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(), 4)
    state = drive(engine, state, lambda s: s.turn == 2 and s.active == "X2")
    state, _ = engine.apply(state, "X2", Action.from_text("keep"))
    # 17.15: the wingman step is skipped, it may attack nobody.
    assert state.step == "altitude"
    assert engine.refusal(state, "X2", Action.wingman("A2L")) is not None
    engaged = mission_setup(positions=[{"leader": "X2", "on": "A2", "position": "Advantaged"}])
    state, _ = engine.new_game(engaged, 4)
    state = drive(engine, state, at("jettison", "X2"))  # turn 1, second to play
    state, _ = engine.apply(state, "X2", Action.from_text("keep"))
    assert state.step == "wingman"
    assert engine.refusal(state, "X2", Action.wingman("A2L")) is None


def test_a_damaged_fighter_jettisons_its_bombs(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(hits={"X2W": 2}), 1)
    assert state.mission is not None and "X2W" in state.mission["loaded"]
    wingman = state.elements["X2"].wingman
    assert wingman is not None
    events: list[Any] = []
    engine._hit(state, wingman, 1, events)  # 3 hits: its card flips (18.22)
    assert wingman.damaged and "X2W" not in state.mission["loaded"]
    assert any("jettisons" in str(e.text) for e in events)


# -- bombing, strafing, Anti-Aircraft Fire (§21, §22.2) ------------------------------------
def test_bombing_altitudes_and_strafing_altitude(engine: DifEngine) -> None:
    state, _ = engine.new_game(
        mission_setup(altitudes={"A2": "M", "X2": "M", "A1": "M", "X1": "M"}), 1
    )
    state = drive(engine, state, at("bomb", "X2"))
    assert "21.2" in refused(engine, state, "X2", "bomb")
    state = drive(engine, state, at("strafe", "X2"), {"bomb": "hold"})
    assert not at("strafe", "X2")(state)  # at Medium: no strafing (21.71)
    state, _ = engine.new_game(mission_setup(bombs={}), 1)
    state = drive(engine, state, at("bomb", "X2"))
    assert "18.21" in refused(engine, state, "X2", "bomb")


def test_a_defender_never_strafes(engine: DifEngine) -> None:
    alts = {"A2": "VL", "X2": "L", "A1": "M", "X1": "M"}
    state, _ = engine.new_game(mission_setup(altitudes=alts), 1)
    state = drive(engine, state, at("bomb", "A2"))
    state, _ = engine.apply(state, "A2", Action.from_text("hold"))
    state = drive(engine, state, lambda s: s.active != "A2" or s.step == "play")
    assert state.step != "strafe"


def test_dive_bombing_drops_a_level_and_draws_factor_plus_two(engine: DifEngine) -> None:
    elements = [
        {"seat": "X2", "side": "axis", "aircraft": "d3a1"},
        {"seat": "A1", "side": "allied", "aircraft": "f4f"},
    ]
    setup = mission_setup(
        elements=elements,
        bombs={"X2": "dive"},
        altitudes={"X2": "L", "A1": "H"},
        order=["X2", "A1"],
        first_side="axis",
        hands={"X2": ["MAN", "MAN", "TIT", "HAL"], "A1": ["MAN", "MAN", "TIT", "HAL", "SCI"]},
        deck_top=["TIT", "BAR"],  # the Discretionary Fire: no damage
    )
    state, _ = engine.new_game(setup, 7)
    state = drive(engine, state, at("bomb", "X2"))
    after, events = engine.apply(state, "X2", Action.from_text("bomb"))
    assert after.elements["X2"].altitude == 0  # §21.42: Low to Very Low, no card
    bombs = [e for e in events if e.kind == "bombs"]
    # §21.44: the Val's factor 1 + 2 at Very Low, for the leader.
    assert bombs and str(bombs[0].text).count(",") == 2


def test_over_target_aircraft_face_anti_aircraft_and_bombing_leader_skips_play(
    engine: DifEngine,
) -> None:
    state, _ = engine.new_game(mission_setup(), 3)
    state = drive(engine, state, at("bomb", "X2"))
    state = drive(
        engine,
        state,
        lambda s: s.active == "X2" and s.step in ("discard", "play"),
        {"bomb": "bomb", "aa": "pass"},
    )
    assert state.step == "discard"  # §23.62: a leader who bombs skips Play Cards
    record = state.mission["records"]["X2L"] if state.mission else {}
    assert record["bombed"] is True and record["over_target"] is True


def test_a_response_to_aa_must_answer_an_in_my_sights(engine: DifEngine) -> None:
    setup = mission_setup(
        hands={
            "A2": ["BAR", "MAN", "MAN", "MAN", "TIT", "HAL"],
            "X2": ["MAN", "MAN", "TIT", "HAL"],
            "A1": ["MAN", "MAN", "TIT", "BAR", "SCI"],
            "X1": ["MAN", "MAN", "TIT", "BAR", "SCI", "BAR"],
        },
        altitudes={"A2": "L", "X2": "L", "A1": "H", "X1": "H"},
        # the Discretionary Fire (8 aircraft), then the AA against the Hurricane leader
        deck_top=["TIT", "TIT", "TIT", "TIT", "BAR", "BAR", "SCI", "SCI", "IMS-1B1D", "MAN", "TIT"],
    )
    state, _ = engine.new_game(setup, 1)
    state = drive(engine, state, at("bomb", "A2"))
    state, events = engine.apply(state, "A2", Action.from_text("hold"))
    assert "In My Sights (1B/1D), Maneuvering, Tight Turn." in str(events[0].text)  # 3 at Low
    assert at("aa", "A2")(state)
    assert "22.26" in refused(engine, state, "A2", "respond MAN")
    assert engine.refusal(state, "A2", Action.from_text("respond TIT")) is None
    after, _ = engine.apply(state, "A2", Action.from_text("respond BAR"))
    leader = after.elements["A2"].leader
    assert leader is not None and leader.hits == 0


def test_unopposed_leaders_may_not_discard(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(), 1)
    for e in state.elements.values():
        if e.side == "allied":
            for p in (e.leader, e.wingman):
                if p is not None:
                    p.status = "destroyed"
    state = drive(engine, state, at("discard"))
    seat = engine.pending(state)[0].seat
    card = engine.code[state.elements[seat].hand[0]]
    assert "23.7" in refused(engine, state, seat, f"discard {card}")


# -- the end (§24.61) ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("damage", "level", "vp"),
    [
        (0, "Untouched", 0),
        (1, "Untouched", 0),
        (2, "Reduced", 1),
        (3, "Reduced", 1),
        (4, "Disorganized", 3),
        (5, "Disorganized", 3),
        (6, "Wrecked", 5),
        (9, "Wrecked", 5),
    ],
)
def test_ground_forces_levels(engine: DifEngine, damage: int, level: str, vp: int) -> None:
    state, _ = engine.new_game(
        mission_setup(target="ground-forces", mission={"target_damage": damage}), 1
    )
    assert engine.victory_points(state)[engine._setup_of(state).attacker] == vp
    assert TARGETS["ground-forces"].level(damage).name == level


def test_awards_and_the_outcome_records(engine: DifEngine) -> None:
    awards = load_scoresheets().land.model_dump(mode="json")
    setup = mission_setup(
        mission={"awards": awards, "pilots": {"X1": {"name": "Sakai", "skills": ["A", "BV"]}}}
    )
    state, _ = engine.new_game(setup, 5)
    assert state.elements["X1"].leader is not None
    assert {"A", "BU"} <= set(state.elements["X1"].leader.pilot)
    state = drive(engine, state, lambda s: False, {"bomb": "bomb"})
    outcome = DifSystem(engine).outcome(state)
    assert outcome.over
    refs = {f.ref for f in outcome.fates}
    assert refs == {"A1L", "A1W", "A2L", "A2W", "X1L", "X1W", "X2L", "X2W"}
    for fate in outcome.fates:
        assert set(fate.record) <= RECORD_KEYS and {"over_target", "role", "bombed"} <= set(
            fate.record
        )
    x1 = next(f for f in outcome.fates if f.ref == "X1L")
    assert x1.record["pilot"] == "Sakai"
    assert state.result is not None and {"target_damage", "target_level"} <= set(state.result)


def test_a_torpedo_bomber_stays_at_very_low(engine: DifEngine) -> None:
    elements = [
        {"seat": "X2", "side": "axis", "aircraft": "b5n2"},
        {"seat": "A1", "side": "allied", "aircraft": "f4f"},
    ]
    setup = mission_setup(
        target="destroyer",
        elements=elements,
        bombs={"X2": "torpedo"},
        altitudes={"X2": "VL", "A1": "H"},
        order=["X2", "A1"],
        first_side="axis",
        hands={"X2": ["MAN", "MAN", "TIT", "HAL"]},
    )
    state, _ = engine.new_game(setup, 3)
    state = drive(engine, state, at("altitude_step", "X2"))
    assert "21.53" in refused(engine, state, "X2", "climb MAN")


def test_the_view_shows_the_mission_and_no_hand(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(), 1)
    state = drive(engine, state, at("bomb"))
    view = engine.view(state, None)
    assert view.mission is not None
    assert str(view.mission.phase) == "Bomb Turn"
    assert state.mission is not None and view.mission.target == "Railway"
    assert view.mission.loaded == tuple(sorted(state.mission["loaded"]))
    assert all(e.hand is None for e in view.elements)
    plain = mission_setup().model_copy(update={"mission": None})
    fighters = [
        e.model_copy(update={"aircraft": "ki-43"}) if e.side == "axis" else e
        for e in plain.elements
    ]
    state, _ = engine.new_game(plain.model_copy(update={"elements": tuple(fighters)}), 1)
    assert engine.view(state, None).mission is None
