"""Formations of bombers flying a Zero! campaign mission (engine/dif/bombing.py;
§17.22-§17.28, §21.14, §21.6, §22, §23.63, §23.7, §24.61)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.contract import Fate
from engine.core.errors import SetupError
from engine.dif.campaign import LandState, OptionPick, campaign_system
from engine.dif.campaign_data import load_scoresheets
from engine.dif.campaign_targets import BombingMode
from engine.dif.components import Altitude
from engine.dif.game import DifEngine, default_engine
from engine.dif.mission import RECORD_KEYS
from engine.dif.setup import DifSetup
from engine.dif.state import GameState
from engine.dif.system import DifSystem
from engine.dif.ui import DifPresenter
from tests.engine.dif.test_mission_rules import TARGETS, drive, mission_setup

KI21 = {"seat": "X3", "side": "axis", "aircraft": ["ki-21", "ki-21"], "altitude": "M"}
SATURATION = KI21 | {"mode": "saturation"}


def raid(*formations: dict[str, Any], target: str = "railway", **mission: Any) -> DifSetup:
    """Bombers alone, no element on either side (§24.43: the defender only has guns)."""
    return DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": [],
            "mission": {
                "attacker": "axis",
                "target": TARGETS[target].model_dump(
                    mode="json", exclude={"id", "sheet", "printed"}
                ),
                "arrival": 1,
                "home": 1,
                "formations": list(formations),
                **mission,
            },
        }
    )


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def bombers(state: GameState) -> dict[str, dict[str, Any]]:
    assert state.mission is not None
    return {b["ref"]: b for f in state.mission["formations"].values() for b in f["bombers"]}


# -- setup ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("formation", "rule"),
    [
        (KI21 | {"aircraft": ["ki-21", "g4m"]}, r"17\.22c"),
        (KI21 | {"aircraft": ["ki-21"] * 3}, r"17\.22a"),
        (KI21 | {"aircraft": ["a6m2"]}, r"17\.22e"),
        (KI21 | {"mode": "level"}, r"21\.21"),
        (KI21 | {"aircraft": ["g4m"], "mode": "torpedo"}, r"21\.52"),
        (KI21 | {"mode": "saturation", "side": "allied"}, r"18\.11"),
        (KI21 | {"seat": "X1"}, "seat"),
    ],
)
def test_a_formation_that_may_not_fly_is_refused(
    engine: DifEngine, formation: dict[str, Any], rule: str
) -> None:
    with pytest.raises(SetupError, match=rule):
        engine.new_game(mission_setup(mission={"formations": [formation]}), 1)


def test_a_torpedo_formation_flies_at_very_low_only(engine: DifEngine) -> None:
    g4m = KI21 | {"aircraft": ["g4m"], "mode": "torpedo"}
    with pytest.raises(SetupError, match=r"21\.52"):
        engine.new_game(raid(g4m | {"altitude": "VL"}, target="docks"), 1)
    ship = next(t for t in TARGETS if TARGETS[t].naval)
    with pytest.raises(SetupError, match=r"17\.24"):
        engine.new_game(raid(g4m, target=ship), 1)
    state, _ = engine.new_game(raid(g4m | {"altitude": "VL"}, target=ship), 1)
    assert state.step == "over"


def test_the_attacker_needs_an_aircraft_and_the_defender_may_have_none(
    engine: DifEngine,
) -> None:
    with pytest.raises(SetupError, match=r"no element \(4\.2\)"):
        engine.new_game(raid(SATURATION | {"side": "allied", "mode": None}), 1)


# -- a raid by bombers alone --------------------------------------------------------------
def test_bombers_alone_fly_every_turn_bomb_and_end_the_game(engine: DifEngine) -> None:
    state, events = engine.new_game(raid(SATURATION), 4)
    assert state.step == "over" and state.result is not None
    kinds = [e.kind for e in events]
    # Ingress (turn 2): Discretionary Fire on each bomber; Bomb Turn (3): bombs and AA.
    assert kinds.count("fire") == 4 and kinds.count("bombs") == 2
    assert state.aircraft_at_start == 2
    outcome = DifSystem(engine).outcome(state)
    fates = {f.ref: f for f in outcome.fates}
    assert set(fates) == {"X3B1", "X3B2"}
    for f in fates.values():
        assert set(f.record) <= RECORD_KEYS
        assert f.record["over_target"] and not f.record["loaded"] and f.seat == "X3"
        assert f.record["role"] == "medium_bomber"
        assert f.hits_taken == bombers(state)[f.ref]["hits"]
    dealt = sum(f.record["damage_dealt"] for f in fates.values())
    assert dealt == state.result["target_damage"] > 0


def test_a_patrol_finds_its_success_as_bombing_but_drops_nothing(engine: DifEngine) -> None:
    """§23.64: the patrol draws its cards and takes its fire as if it bombed; what the
    Target Sheet scores is the mission's success, no bomb is dropped."""
    patrolled = bombed = 0
    for seed in range(1, 13):
        state, events = engine.new_game(raid(SATURATION, patrol=True), seed)
        assert state.step == "over" and state.result is not None
        fates = DifSystem(engine).outcome(state).fates
        assert not any(f.record["bombed"] for f in fates)
        assert sum(f.record["damage_dealt"] for f in fates) == state.result["target_damage"]
        patrolled += state.result["target_damage"]
        assert any(e.kind == "bombing" and "patrols" in str(e.text) for e in events)
        plain, _ = engine.new_game(raid(SATURATION), seed)
        assert plain.result is not None
        bombed += plain.result["target_damage"]
    assert patrolled == bombed > 0, "the same cards, fire and sheet as bombing"


def test_bombers_are_no_elements_and_have_no_player_turn(engine: DifEngine) -> None:
    state, _ = engine.new_game(mission_setup(mission={"formations": [SATURATION]}), 3)
    assert "X3" not in state.elements and "X3" not in state.order
    clone = state.clone()
    assert clone.mission == state.mission and clone.mission is not state.mission
    state = drive(engine, state, lambda s: False, {"bomb": "bomb"})
    assert state.step == "over"
    assert all(p.seat != "X3" for p in engine.pending(state))
    view = engine.view(state, None)
    assert view.mission is not None
    (formation,) = view.mission.formations
    assert formation.seat == "X3" and formation.mode == "saturation"
    assert [b.ref for b in formation.bombers] == ["X3B1", "X3B2"]
    assert {f.ref for f in DifSystem(engine).outcome(state).fates} >= {"X3B1", "X3B2"}


# -- damage -----------------------------------------------------------------------------
def test_a_damaged_bomber_leaves_its_formation_and_is_destroyed_past_its_capacity(
    engine: DifEngine,
) -> None:
    state, _ = engine.new_game(mission_setup(mission={"formations": [SATURATION]}), 3)
    b1 = bombers(state)["X3B1"]
    engine._hit_bomber(state, b1, 5, [])
    assert not b1["damaged"] and b1["group"] == "X3"
    engine._hit_bomber(state, b1, 1, [])  # 6: the Ki-21's undamaged capacity (17.28)
    assert b1["damaged"] and b1["group"] == "X3B1" and b1["status"] == "flying"
    engine._hit_bomber(state, b1, 4, [])  # 10: destroyed (L1675)
    assert b1["status"] == "destroyed"


def test_a_d_crew_takes_one_more_hit_on_each_side(engine: DifEngine) -> None:
    crews = {"0": {"name": "Tough", "skills": ["D"]}}
    state, _ = engine.new_game(raid(SATURATION | {"crews": crews}), 3)
    assert engine._bomber_capacity(state, {"ref": "X3B1", "aircraft": "ki-21"}) == (7, 11)
    assert engine._bomber_capacity(state, {"ref": "X3B2", "aircraft": "ki-21"}) == (6, 10)


def test_bd_adds_a_bomb_card_and_ns_spares_the_first_aa_attack(engine: DifEngine) -> None:
    crews = {"0": {"name": "Steady", "skills": ["BD", "NS"]}}
    state, _ = engine.new_game(
        mission_setup(mission={"formations": [SATURATION | {"crews": crews}]}), 3
    )
    target = TARGETS["railway"]
    b1, b2 = bombers(state)["X3B1"], bombers(state)["X3B2"]
    count = engine._bomber_bomb_count
    assert count(state, b1, BombingMode.SATURATION, Altitude.MEDIUM, target) == 2
    assert count(state, b2, BombingMode.SATURATION, Altitude.MEDIUM, target) == 1
    ims = [c for c in state.deck if engine.code[c] == "IMS-2B2D"][:2]
    engine._bomber_fire(state, b1, ims, [], spared=1)
    assert b1["hits"] == 2
    fates = {f.ref: f for f in DifSystem(engine).outcome(state).fates}
    assert fates["X3B1"].record["pilot"] == "Steady" and "pilot" not in fates["X3B2"].record


# -- the end -----------------------------------------------------------------------------
def test_return_home_reads_the_slowest_surviving_bomber(engine: DifEngine) -> None:
    setup = mission_setup(mission={"formations": [SATURATION], "home_base": 8})
    state, _ = engine.new_game(setup, 2)
    assert state.mission is not None
    engine._recompute_home(state, [])
    assert state.mission["home"] == 8 - 5  # the Ki-21's Formation Speed (23.7)
    for b in bombers(state).values():
        b["status"] = "destroyed"
    engine._recompute_home(state, [])
    assert state.mission["home"] == 8 - 6  # fighters and light bombers: 6 (23.24)


def test_z26_four_g4ms_and_two_zeros_against_two_p40s_at_the_docks(engine: DifEngine) -> None:
    # §24.61 L1894 (errata): 8 Damage on the Docks, both P-40Bs destroyed, one G4M
    # destroyed, one damaged, two back undamaged; the Zeros back too: 26 / 15.
    g4m = {"side": "axis", "aircraft": ["g4m", "g4m"], "altitude": "M", "mode": "saturation"}
    awards = load_scoresheets().land.model_dump(mode="json")
    setup = mission_setup(
        target="docks",
        bombs={},
        elements=[
            {"seat": "A1", "side": "allied", "aircraft": "p-40b"},
            {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
        ],
        altitudes={"A1": "M", "X1": "M"},
        order=["A1", "X1"],
        mission={
            "awards": awards,
            "formations": [g4m | {"seat": "X3"}, g4m | {"seat": "X4"}],
        },
    )
    state, _ = engine.new_game(setup, 1)
    assert state.mission is not None
    state.mission["damage"] = 8
    a1 = state.elements["A1"]
    for p in (a1.leader, a1.wingman):
        assert p is not None
        p.status = "destroyed"
    for ref in ("X1L", "X1W"):
        state.mission["records"][ref]["over_target"] = True
    g4ms = bombers(state)
    g4ms["X3B1"]["status"] = "destroyed"
    g4ms["X3B2"]["damaged"] = True
    vp = engine.victory_points(state)
    assert (vp[engine._setup_of(state).attacker], vp[engine._setup_of(state).defender]) == (
        26,
        15,
    )
    fates = {f.ref: f.fate for f in DifSystem(engine).outcome(state).fates}
    assert fates["X3B1"] is Fate.SHOT_DOWN and fates["X3B2"] is Fate.DAMAGED
    assert fates["X4B1"] is Fate.UNHARMED


@pytest.mark.parametrize(
    ("campaign", "target", "picks"), [("burma", 15, (2, 4)), ("malaya", 11, (5, 6))]
)
def test_a_land_campaigns_mission_with_bombers_plays_to_its_end(
    engine: DifEngine, campaign: str, target: int, picks: tuple[int, int]
) -> None:
    zc = campaign_system()
    state = zc.new_campaign({"campaign": campaign}, 5)
    assert isinstance(state, LandState)
    state = state.model_copy(update={"target": target})
    for side, number in zip(("japanese", "allied"), picks, strict=True):
        state = zc.apply(state, side, OptionPick(mission=state.mission, number=number))
    setup = zc.mission_setup(state).setup
    assert isinstance(setup, DifSetup) and setup.mission is not None
    assert setup.mission.formations
    game, _ = engine.new_game(setup, 7)
    game = drive(engine, game, lambda s: False)
    assert game.step == "over"
    fates = {f.ref: f for f in DifSystem(engine).outcome(game).fates}
    refs = {f"{f.seat}B{i}" for f in setup.mission.formations for i in (1, 2)}
    assert refs <= set(fates)
    assert all(fates[r].record["over_target"] for r in refs)


def test_clouds_lower_a_saturation_bombers_results(engine: DifEngine) -> None:
    # L1881: saturation is a bombing drop; a Direct three levels lower is a Miss.
    clouds = {"draw": 1, "result_shift": 3, "aa": 0}
    state, _ = engine.new_game(
        mission_setup(mission={"formations": [SATURATION], "clouds": clouds}), 3
    )
    assert state.mission is not None
    state.mission["clouds"] = True
    direct = next(c for c in state.deck if engine.cards[c].bomb.value == "direct")
    engine._score(state, "X3B1", "X3B1", BombingMode.SATURATION, [direct], 0, [])
    assert state.mission["damage"] == 0 and state.mission["records"]["X3B1"]["bombed"]
    state.mission["clouds"] = False
    engine._score(state, "X3B1", "X3B1", BombingMode.SATURATION, [direct], 0, [])
    assert state.mission["damage"] == TARGETS["railway"].damage.direct


def test_a_formation_seats_private_summary_lists_its_bombers(engine: DifEngine) -> None:
    """The player holding a formation's seat presses My hand: its bombers, their hits
    and that it has nothing to play (§23.63), never an error."""
    state, _ = engine.new_game(mission_setup(mission={"formations": [SATURATION]}), 3)
    lines = DifPresenter(engine).seat_lines(state, "X3", "en")
    assert lines[0] == "**Formation X3** at Medium"
    assert lines[1].startswith("X3B1 Ki-21: 0 hits") and lines[2].startswith("X3B2 Ki-21")
    assert "end of the Bomb Turn (23.63)" in lines[-1]
