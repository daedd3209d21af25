"""Eagles in the Sky rules with no printed move sequence: the Glory Point ratio (§16.32
example) and the historical scenarios' set-ups (§17.0), with the hand sizes and
Initiative they imply (§6.0, §7.11)."""

from __future__ import annotations

import pytest

from engine.eagles.components import Side
from engine.eagles.game import EaglesEngine, default_engine
from engine.eagles.historical import attacker_of, scenario_setup
from engine.eagles.score import glory_vp
from engine.eagles.state import GameState

SEATS = {"allied": ("A1",), "german": ("G1",)}


@pytest.fixture(scope="module")
def e() -> EaglesEngine:
    return default_engine()


def start(e: EaglesEngine, number: int, seed: int = 1) -> GameState:
    seats = {"allied": ("A1",)} if number == 1 else SEATS
    state, _ = e.new_game(scenario_setup(e.components, number, seats), seed)
    return state


@pytest.mark.parametrize(
    ("mine", "theirs", "vp"),
    [(4, 2, 2), (2, 4, 0), (3, 0, 3), (2, 2, 0), (5, 2, 3), (7, 3, 2), (0, 0, 0)],
)
def test_glory_points_become_victory_points_by_their_ratio(mine: int, theirs: int, vp: int) -> None:
    """§16.32 example (L1037-1039): 4 against 2 gives 2 VP; only one side with Glory
    gets them all; equal gives none; 5 against 2 is 2.5, rounded up."""
    assert glory_vp(mine, theirs) == vp


def test_scenario_2_hand_sizes_and_initiative(e: EaglesEngine) -> None:
    """Voss alone: his Flying Rating (§7.11), 1 + 5 = 6 cards; McCudden's six SE5a:
    6 + Leadership 4 = 10. 'Initiative: Germans' (§17.0)."""
    s = start(e, 2)
    assert e.hand_limit(s, "german")[0] == 6 and len(s.hands["german"]) == 6
    assert e.hand_limit(s, "allied")[0] == 10 and len(s.hands["allied"]) == 10
    assert s.initiative == "german"
    voss = next(p for p in s.planes if p.leader == "voss")
    assert voss.aircraft == "fokker-dri" and voss.quality == "ace"
    assert s.setup["victory"] == "shoot_down_ace"


def test_scenario_3_two_aces_alone_and_no_random_events(e: EaglesEngine) -> None:
    """Guynemer and Udet fly alone: each 1 + Flying 4 = 5 cards; no Random Events."""
    s = start(e, 3)
    assert e.hand_limit(s, "allied")[0] == 5 and e.hand_limit(s, "german")[0] == 5
    assert "no_random_events" in s.setup["rules"]
    guynemer = next(p for p in s.planes if p.leader == "guynemer")
    assert guynemer.aircraft == "spad-vii"
    assert e.view(s, None).plane(guynemer.ref).ratings["agility"] == 4 + 2  # §18.0


def test_scenario_1_luke_either_rating_and_the_german_side_played_by_the_rules(
    e: EaglesEngine,
) -> None:
    """Luke and one more SPAD: either rating may set the hand (§7.11); the larger is
    Flying 4: 2 + 4 = 6. The Germans have no player: one balloon, no hand."""
    s = start(e, 1)
    assert s.hand_rating["allied"] == "flying"
    assert e.hand_limit(s, "allied")[0] == 6
    assert s.seats["german"] == [] and s.hands["german"] == []
    assert [p.aircraft for p in s.planes if p.side == "german"] == ["balloon"]
    assert all(p.incendiary for p in s.planes if p.side == "allied")
    assert s.turns == 4 and s.setup["engagements"] == 3
    assert [d.seat for d in e.pending(s)] == ["A1"]


def test_scenario_4_pilots_and_the_red_baron(e: EaglesEngine) -> None:
    """Six Camels (one green pilot, Taylor on his +1 Ace side) against six DrI (one
    inexperienced pilot, Richthofen)."""
    s = start(e, 4)
    allied = [p for p in s.planes if p.side == "allied"]
    german = [p for p in s.planes if p.side == "german"]
    assert sorted(p.quality for p in allied) == [
        "ace",
        "experienced",
        "experienced",
        "experienced",
        "experienced",
        "green",
    ]
    assert sorted(p.quality for p in german) == [
        "ace",
        "experienced",
        "experienced",
        "experienced",
        "experienced",
        "inexperienced",
    ]
    assert next(p for p in german if p.quality == "ace").leader == "richthofen"
    assert next(p for p in allied if p.quality == "ace").leader == "taylor"


def test_scenario_7_the_german_two_seater_comes_from_the_cup(e: EaglesEngine) -> None:
    """One of Albatros CXII, DFW CV, LVG CV per engagement, a mission aircraft; the
    Germans attack (an Artillery Spotting over the Allied Front Lines) but score no
    spotting VP."""
    s = start(e, 7)
    (german,) = [p for p in s.planes if p.side == "german"]
    assert german.aircraft in ("albatros-cxii", "dfw-cv", "lvg-cv") and german.mission
    assert attacker_of(e.components.scenarios[7]) == "german"
    assert "no_mission_vp" in s.setup["rules"]


def test_scenario_8_the_halberstadts_carry_bombs_as_mission_aircraft(e: EaglesEngine) -> None:
    s = start(e, 8)
    halberstadts = [p for p in s.planes if p.aircraft == "halberstadt-clii"]
    assert len(halberstadts) == 2
    assert all(p.mission and p.bombs > 0 for p in halberstadts)
    loerzer = next(p for p in s.planes if p.leader == "loerzer")
    assert loerzer.aircraft == "fokker-dvii"
    assert s.setup["attacker"] == "german" and s.setup["altitude"] == "T"


@pytest.mark.parametrize("number", range(1, 9))
def test_every_scenario_starts_as_printed(e: EaglesEngine, number: int) -> None:
    sc = e.components.scenarios[number]
    s = start(e, number)
    assert s.setup["engagement"] == sc.type.value
    assert s.setup["zone"] == sc.zone.value
    assert {p.altitude for p in s.planes if p.flying} == {int(sc.altitude)}
    for side in ("allied", "german"):
        force = sc.force(Side(side))
        planes = [p for p in s.planes if p.side == side and not p.balloon]
        assert len(planes) == force.aircraft_count
        if force.leader:
            assert any(p.leader == force.leader for p in planes)
        assert sum(1 for p in s.planes if p.side == side and p.balloon) == force.balloons


def test_the_outcome_carries_what_a_campaign_needs(e: EaglesEngine) -> None:
    """Each aircraft's fate with its damage, crew, pilot, kills, Glory and starting
    altitude (the campaign game's Safe Return, fatigue and aces read them)."""
    s = start(e, 2)
    voss = next(p for p in s.planes if p.leader == "voss")
    voss.damage = {"wing": 1}
    voss.crew["pilot"] = "wounded"
    mccudden = next(p for p in s.planes if p.leader == "mccudden")
    mccudden.kills = [voss.ref]
    voss.status, voss.by = "shot_down", mccudden.ref
    fates = {f.ref: f for f in e.outcome(s).fates}
    assert fates[voss.ref].record["damage"] == {"wing": 1}
    assert fates[voss.ref].record["crew"] == {"pilot": "wounded"}
    assert fates[voss.ref].record["pilot"] == "voss"
    assert fates[mccudden.ref].record["kills"] == [voss.ref]
    assert fates[mccudden.ref].record["glory"] == 6  # Voss's Glory Points (§18.0)
    assert fates[mccudden.ref].record["start_altitude"] == "L"


def test_a_forced_dive_is_offered_as_the_rules_take_it(e: EaglesEngine) -> None:
    """§11.24: an aircraft whose ratings fall below 0 at High must dive with its next
    activation, with any card; the move a one-symbol Dive card makes is offered in the
    form ``apply`` takes (bench/ai.py found ``dive A6 42`` offered and then refused)."""
    state = start(e, 2)
    while (e.deciding(state) or ("", ""))[0] != "activate":
        seat = e.pending(state)[0].seat
        state, _ = e.apply(state, seat, e.legal_actions(state, seat)[0])
    _, side = e.deciding(state) or ("", "")
    s = state.clone()
    plane = next(p for p in s.planes if p.side == side and p.flying and not p.balloon)
    plane.aircraft, plane.altitude = "be2c", 3  # Climb 1, so -1 at High (§11.24)
    dive = next(c.number for c in e.cards.values() if [x.value for x in c.symbols] == ["dive"])
    s.hands[side] = [*s.hands[side], dive]
    seat = s.seats[side][0]
    mine = [a for a in e.legal_actions(s, seat) if a.plane == plane.ref]
    assert mine and {a.verb for a in mine} == {"dive"}, "it must dive, with any card"
    assert f"dive {plane.ref} {dive}D" in {str(a) for a in mine}
    for a in mine:
        e.apply(s, seat, a)  # every move offered is taken
