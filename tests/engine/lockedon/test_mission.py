"""Campaign missions (Playing a Campaign, L269-314): the setup's ``mission``, its VP,
SAM/AAA sites, 90° / 0° Angle and NFOD. The printed examples are conformance vectors
(``tests/conformance/lockedon/lo-20*.yaml``, ``lo-21-*.yaml``, ``rule-angle-*``,
``rule-nfod-*``); these tests pin the rest."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from engine.core.contract import Fate, Timing
from engine.core.errors import SetupError
from engine.lockedon.actions import Action
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.orders import order_action
from engine.lockedon.setup import LockedOnSetup, MissionRules
from engine.lockedon.state import GameState
from engine.lockedon.system import system
from strings import tr

from .conftest import Act, seats_of

MISSION_1: dict[str, Any] = {"number": 1, "title": "SA-7 Site", "vp": {"A": 47, "B": 46}}


def mission_setup(**extra: Any) -> dict[str, Any]:
    """Yom Kippur mission #1: a Mirage IIICJ (A1) against two MiG-17Fs, the SA-7 site
    of side B, everyone at Low, side A first."""
    data: dict[str, Any] = {
        "options": {"team_games": True},
        "mission": {**MISSION_1, "sites": {"B": ["sa-7"]}},
        "seats": seats_of("A1 A mirage-iiicj", "B1 B mig-17f", "B2 B mig-17f"),
        "altitudes": {"A1": "L", "B1": "L", "B2": "L"},
        "first_side": "A",
        "hands": {"B1": ["YOYO"], "B2": ["YOYO"]},
    }
    data.update(extra)
    return data


def start(lo: LockedOnEngine, seed: int = 1, **extra: Any) -> GameState:
    state, _ = lo.new_game(LockedOnSetup.model_validate(mission_setup(**extra)), seed)
    return state


def to_play(lo: LockedOnEngine, act: Act, state: GameState) -> GameState:
    """A1's turn up to the start of its Play Cards step (the site's check)."""
    return act(state, "A1", "ab off", "discard", "stay", "end")


# --- the setup ---------------------------------------------------------------------
DOGFIGHT = {
    "seats": seats_of("A1 A f-15a", "B1 B mig-29"),
    "altitudes": {"A1": "M", "B1": "L"},
}
DOGFIGHT_DUMP = (
    '{"options":{"vp_limit":null,"battle_year":null,"rounds":6,"missile_loads":false,'
    '"team_games":false,"teamwork":false,"free_for_all":false,"sides":2,'
    '"several_aircraft":false,"second_deck":false},"seats":[{"aircraft":"f-15a",'
    '"skills":[],"ratings":{},"missiles":null,"seat":"A1","side":"A"},{"aircraft":'
    '"mig-29","skills":[],"ratings":{},"missiles":null,"seat":"B1","side":"B"}],'
    '"altitudes":{"A1":1,"B1":0},"hands":null,"deck_top":[],"first_side":null,'
    '"ranges":{},"positions":[],"afterburners":{},"ab_left":{},"missiles":{},'
    '"countermeasures":{},"used":{}}'
)
"""How a dogfight's setup was dumped before missions existed (stored games, logs)."""


def test_a_dogfight_setup_dumps_byte_identical_to_before_missions() -> None:
    setup = LockedOnSetup.model_validate(DOGFIGHT)
    assert setup.mission is None
    assert json.dumps(setup.model_dump(mode="json"), separators=(",", ":")) == DOGFIGHT_DUMP
    assert setup.model_dump_json() == DOGFIGHT_DUMP
    assert "mission" not in setup.model_dump()


def test_a_mission_setup_round_trips_through_its_dump() -> None:
    setup = LockedOnSetup.model_validate(mission_setup())
    dumped = setup.model_dump(mode="json")
    assert dumped["mission"] == {**MISSION_1, "sites": {"B": ["sa-7"]}, "names": {}}
    assert LockedOnSetup.model_validate(dumped) == setup
    assert LockedOnSetup.model_validate_json(setup.model_dump_json()) == setup
    assert isinstance(setup.mission, MissionRules) and setup.mission.sites == {"B": ("sa-7",)}


def test_mission_rules_check_their_sides_and_vp() -> None:
    with pytest.raises(ValidationError):
        MissionRules(number=1, title="x", vp={"israel": 47})
    with pytest.raises(ValidationError):
        MissionRules(number=1, title="x", vp={"A": -1})


@pytest.mark.parametrize(
    ("mission", "why"),
    [
        ({**MISSION_1, "vp": {"A": 47}}, "two sides"),
        ({**MISSION_1, "sites": {"C": ["sa-7"]}}, "two sides"),
        ({**MISSION_1, "sites": {"B": ["sa-99"]}}, "no SAM/AAA site 'sa-99'"),
    ],
)
def test_an_impossible_mission_is_refused(lo: LockedOnEngine, mission: Any, why: str) -> None:
    with pytest.raises(SetupError, match=why):
        start(lo, mission=mission)


def test_campaign_only_skills_fly_only_in_a_mission(lo: LockedOnEngine) -> None:
    for skill in ("angle-90", "angle-0", "nfod"):
        seats = seats_of("A1 A mirage-iiicj", "B1 B mig-17f", A1={"skills": [skill]})
        with pytest.raises(SetupError, match="outside of Campaigns"):
            lo.new_game(LockedOnSetup.model_validate({"seats": seats}), 0)
        data = mission_setup(seats=seats, options={}, hands=None, altitudes=None)
        lo.new_game(LockedOnSetup.model_validate(data), 0)


def test_skill_costs_are_not_added_to_a_missions_aircraft(lo: LockedOnEngine) -> None:
    """L325: in a campaign the skills' VP are already in the mission."""
    seats = seats_of("A1 A mirage-iiicj", "B1 B mig-17f", A1={"skills": ["tiger"]})
    dogfight, _ = lo.new_game(LockedOnSetup.model_validate({"seats": seats}), 0)
    mission = start(lo, seats=seats, options={}, hands=None, altitudes=None)
    assert dogfight.planes["A1"].value == mission.planes["A1"].value + 10


# --- the mission's VP ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("down", "vp_a"),
    [(0, 0), (1, 16), (2, 32), (3, 47)],  # 47 / 3 = 15.67 -> 16; 94 / 3 = 31.33 -> 32
)
def test_mission_vp_are_apportioned_rounding_up(lo: LockedOnEngine, down: int, vp_a: int) -> None:
    state = start(
        lo,
        options={"team_games": True},
        seats=seats_of("A1 A mirage-iiicj", "B1 B mig-17f", "B2 B mig-17f", "B3 B mig-17f"),
        altitudes={"A1": "L", "B1": "L", "B2": "L", "B3": "L"},
        hands=None,
    )
    for seat in ("B1", "B2", "B3")[:down]:
        state.planes[seat].status = "destroyed"
        state.planes[seat].by = "A1"
    assert lo.victory_points(state) == {"A": vp_a, "B": 0}


def test_the_outcome_of_a_mission_names_the_site_and_scores_mission_vp(
    lo: LockedOnEngine, act: Act
) -> None:
    state = act(site_attack(lo, act, "sa-7", ["TT"]), "A1", "pass")
    out = system().outcome(state)
    assert out.over and out.winner == "B" and out.vp == {"A": 0, "B": 46}
    fate = next(f for f in out.fates if f.seat == "A1")
    assert (fate.fate, fate.by, fate.record) == (Fate.SHOT_DOWN, "sa-7", {})
    assert "Mission #1 SA-7 Site" in out.verdict


def test_equal_mission_vp_is_a_draw(lo: LockedOnEngine) -> None:
    state = start(lo, mission={**MISSION_1, "vp": {"A": 0, "B": 0}})
    lo._finish(state, None, [])
    assert state.result is not None and state.result["winner"] is None
    assert "a draw on mission VP (A 0, B 0)" in str(state.result["verdict"])


def test_nfod_points_are_in_the_side_vp_and_the_holders_record(lo: LockedOnEngine) -> None:
    seats = seats_of(
        "A1 A mirage-iiicj",
        "B1 B mig-17f",
        "B2 B mig-17f",
        B1={"skills": ["nfod"]},
        B2={"skills": ["nfod"]},
    )
    state = start(lo, seats=seats)
    assert state.mission is not None and state.mission.points == {"B1": 8}  # once a side
    assert lo.victory_points(state) == {"A": 0, "B": 8}
    fates = {f.seat: f.record for f in system().outcome(state).fates}
    assert fates == {"A1": {}, "B1": {"campaign_points": 8}, "B2": {}}


# --- sites ---------------------------------------------------------------------------
def site_attack(lo: LockedOnEngine, act: Act, site: str, hand: list[str], **extra: Any) -> Any:
    """A1 attacked by ``site`` (side B's) at the start of its Play Cards step: its
    hand is full (these cards, then Scissors: they react to neither Tone nor Guns), so
    it draws nothing, and the deck's top card is one the site looks for."""
    looks = {"sa-7": "TONE", "zsu-23-4": "GUN"}[site]
    state = start(
        lo,
        mission={**MISSION_1, "sites": {"B": [site]}},
        ranges={"A1": "G"},
        hands={"A1": [*hand, *["SCI"] * (6 - len(hand))], "B1": ["YOYO"], "B2": ["YOYO"]},
        deck_top=[looks],
        **extra,
    )
    state = to_play(lo, act, state)
    assert state.site is not None and state.site.target == "A1"
    return state


def test_a_site_attack_is_a_response_of_the_target_alone(lo: LockedOnEngine, act: Act) -> None:
    state = site_attack(lo, act, "sa-7", ["BRK", "TT"])
    [d] = lo.pending(state)
    assert (d.seat, d.kind, d.timing) == ("A1", "site", Timing.RESPONSE)
    assert lo.default_action(state, "A1") == Action("pass")  # as against a gun attack
    assert order_action(lo, state, "A1", ["defend"]) == Action("react", card="BRK")
    assert order_action(lo, state, "A1", ["pass-responses"]) is None


def test_countermeasures_answer_a_sam_but_not_aaa(lo: LockedOnEngine, act: Act) -> None:
    sam = site_attack(lo, act, "sa-7", ["TT"], countermeasures={"A1": 1})
    assert {str(a) for a in lo.legal_actions(sam, "A1")} == {"pass", "react CM"}
    assert order_action(lo, sam, "A1", ["defend"]) == Action("react", card="CM")
    after = act(sam, "A1", "react CM")
    assert after.planes["A1"].cm == 0 and after.site is None and after.step == "play"
    aaa = site_attack(lo, act, "zsu-23-4", ["TT"], countermeasures={"A1": 1})
    assert {str(a) for a in lo.legal_actions(aaa, "A1")} == {"pass", "react TT"}


def test_jink_answers_aaa_guns_as_a_gun_attack(lo: LockedOnEngine, act: Act) -> None:
    seats = seats_of("A1 A mirage-iiicj", "B1 B mig-17f", "B2 B mig-17f", A1={"skills": ["jink"]})
    aaa = site_attack(lo, act, "zsu-23-4", ["YOYO"], seats=seats)
    assert {str(a) for a in lo.legal_actions(aaa, "A1")} == {
        "pass",
        "react YOYO=ACE",
        "react SCI=ACE",
    }
    after = act(aaa, "A1", "react YOYO=ACE")
    assert after.planes["A1"].used == ["jink"] and after.planes["A1"].flying
    sam = site_attack(lo, act, "sa-7", ["YOYO"], seats=seats)
    assert {str(a) for a in lo.legal_actions(sam, "A1")} == {"pass"}


def test_sites_are_in_every_view(lo: LockedOnEngine) -> None:
    state = start(lo, mission={**MISSION_1, "sites": {"B": ["sa-7", "zsu-23-4"]}})
    view = lo.view(state, None)
    assert view.mission is not None and view.mission.vp == {"A": 47, "B": 46}
    assert [(s.id, s.name, s.side, s.cards) for s in view.sites] == [
        ("sa-7", "SA-7", "B", 5),
        ("zsu-23-4", "ZSU-23-4 Shilka", "B", 6),
    ]
    assert [r.code for r in view.sites[0].ranges] == ["G", "HS"]
    assert [a.code for a in view.sites[0].altitudes] == ["L", "M"]
    dogfight, _ = lo.new_game(LockedOnSetup.model_validate(DOGFIGHT), 0)
    assert lo.view(dogfight, None).sites == () and lo.view(dogfight, None).mission is None


def test_a_dogfight_state_json_has_no_mission_fields(lo: LockedOnEngine, act: Act) -> None:
    dogfight, _ = lo.new_game(LockedOnSetup.model_validate(DOGFIGHT), 0)
    assert not {"mission", "angles", "site_checks", "site"} & set(dogfight.to_json())
    state = site_attack(lo, act, "sa-7", ["BRK"])
    data = json.loads(json.dumps(state.to_json()))
    assert data["site"]["site"] == "sa-7"
    assert GameState.from_json(data) == state


def test_a_mission_names_its_sides_by_their_nations() -> None:
    named = {**MISSION_1, "names": {"A": "Israel", "B": "Egypt"}}
    setup = LockedOnSetup.model_validate({**mission_setup(), "mission": named})
    lo = system()
    state, _ = lo.new_game(setup, 1)
    assert [str(s.name) for s in lo.sides(state)] == ["Israel (side A)", "Egypt (side B)"]
    assert tr(lo.sides(state)[0].name, "fr") == "Israel (camp A)"
    assert lo.load_state(lo.dump_state(state)) == state
