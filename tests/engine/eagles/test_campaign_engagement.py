"""A Campaign Game's Engagement (``EaglesSetup.campaign``): the Engagement Special
Events on a Random Events draw of 101-110 (Campaign §11.11, §12), the Engine-out rule
(§5.64, §10.86), Exhausted pilots (§8.22, §8.32), several Flight Leaders (§5.41) and
what the outcome records for the campaign (§5.6, §9.32). A setup without ``campaign``
plays as before.

Each event is forced with ``deck_top``: turn 1 is passed three times, turn 2's Random
Events card is 105 (Special in every zone) and the next card's Fire Value reads the
setup's Special Events table (here often the same event seven times).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import ValidationError

from engine.core.errors import SetupError
from engine.core.present import Seating
from engine.core.rng import Rng
from engine.eagles.actions import Action
from engine.eagles.base import Run
from engine.eagles.components import DamageKind
from engine.eagles.game import EaglesEngine, default_engine
from engine.eagles.setup import REVISION, EaglesSetup
from engine.eagles.state import GameState
from strings import tr

from .conftest import system
from .test_present import check_menu

SPECIAL = 105
"""A Random Events card that is Special in every zone (L1767)."""
FV1, FV2, FV4, FV6, JAM = 50, 3, 10, 8, 9
"""Cards by Fire Value (9: Guns Jammed)."""
HANDS = {"allied": [4, 22], "german": [37, 12]}
"""Two cards each: with one Scout and no leader the hand size is 2, so turn 2's Card
Draw Phase draws nothing from ``deck_top``."""


@pytest.fixture(scope="module")
def e() -> EaglesEngine:
    return default_engine()


def campaign_setup(
    event: str | tuple[str, ...],
    *,
    allied: list[dict[str, Any]] | None = None,
    german: list[dict[str, Any]] | None = None,
    deck: tuple[int, ...] = (FV1,),
    phase: str = "morning",
    aces: bool = True,
    **fields: Any,
) -> EaglesSetup:
    events = (event,) * 7 if isinstance(event, str) else event
    data: dict[str, Any] = {
        "engagement": "patrol",
        "zone": "no_mans_land",
        "altitude": "M",
        "month": "1918-04",
        "initiative": "german",
        "allied": {"seats": ["A1"], "planes": allied or [{"aircraft": "spad-xiii"}]},
        "german": {"seats": ["G1"], "planes": german or [{"aircraft": "albatros-dva"}]},
        "hands": HANDS,
        "deck_top": (SPECIAL, *deck),
        "campaign": {"phase": phase, "special_events": events, "aces": aces},
        "revision": REVISION,  # as every campaign mission is created
    }
    data.update(fields)
    return EaglesSetup.model_validate(data)


def turn_2(e: EaglesEngine, setup: EaglesSetup, state: GameState | None = None) -> GameState:
    """Three passes end turn 1 (§4.4); turn 2 begins with its Random Event."""
    if state is None:
        state, _ = e.new_game(setup, 1)
    for seat in ("G1", "A1", "G1"):
        state, _ = e.apply(state, seat, Action("pass"))
    assert state.turn == 2
    return state


def said(events: list[Any], text: str) -> bool:
    return any(text in str(ev.text) for ev in events)


def step(e: EaglesEngine, state: GameState, seat: str, text: str) -> tuple[GameState, list[Any]]:
    return e.apply(state, seat, Action.from_text(text))


def discard_nothing(e: EaglesEngine, state: GameState) -> GameState:
    for seat in ("A1", "G1"):
        state, _ = step(e, state, seat, "discard")
    assert state.phase == "activation"
    return state


# -- the setup ------------------------------------------------------------------------
def test_the_special_events_table_has_seven_known_events() -> None:
    with pytest.raises(ValidationError, match="seven"):
        campaign_setup(("ace",) * 6)
    with pytest.raises(ValidationError, match="not a Special Event"):
        campaign_setup(("ace",) * 6 + ("dragons",))
    with pytest.raises(ValidationError):
        campaign_setup("ace", phase="evening")


def test_without_a_campaign_a_special_draw_is_no_event(e: EaglesEngine) -> None:
    setup = campaign_setup("lucky_shot").model_copy(update={"campaign": None})
    state, _ = e.new_game(setup, 1)
    for seat in ("G1", "A1"):
        state, _ = e.apply(state, seat, Action("pass"))
    state, events = e.apply(state, "G1", Action("pass"))
    assert said(events, f"Random Events, card {SPECIAL}: no event")
    assert not state.lucky_shot and state.leads == {}
    record = e.outcome(state).fates[0].record
    assert record["pilot_id"] is None and record["engine_out"] is False
    assert record["exhausted"] is False and record["weather"] == "clear"


def test_the_second_cards_fire_value_reads_the_table_a_jam_is_0(e: EaglesEngine) -> None:
    table = (
        "lucky_shot",
        "none",
        "none",
        "none",
        "none",
        "none",
        "clearing_skies",
    )
    state = turn_2(e, campaign_setup(table, deck=(JAM,)))
    assert state.lucky_shot
    state = turn_2(e, campaign_setup(table, deck=(FV6,)))
    assert not state.lucky_shot


# -- aircraft joining ---------------------------------------------------------------------
def test_ace_joins_the_side_drawn_as_add_aircraft_and_may_set_the_hand_size(
    e: EaglesEngine,
) -> None:
    """§12.1: FV 2 gives the Allies; the first Allied Ace of April 1918 in the data is
    Fonck, in his SPAD XIII; the Flight has no leader, so his Leadership sets the hand
    size (2 Scouts + 2)."""
    state = turn_2(e, campaign_setup("ace", deck=(FV1, FV2)))
    fonck = next(p for p in state.planes if p.leader == "fonck")
    assert (fonck.side, fonck.aircraft, fonck.quality, fonck.original) == (
        "allied",
        "spad-xiii",
        "ace",
        False,
    )
    assert fonck.altitude == 2  # where the aircraft are (§5.1)
    assert state.leads["allied"][0] == [fonck.ref, "leadership"]
    assert e.hand_limit(state, "allied") == (4, 2)
    assert state.specials == ["ace"]


def test_an_ace_who_would_give_fewer_cards_does_not_lead(e: EaglesEngine) -> None:
    """Collishaw (Leadership 3) leads the Allies: Fonck (2) joins but does not."""
    allied = [{"aircraft": "sopwith-camel", "leader": "collishaw", "quality": "ace"}]
    state = turn_2(e, campaign_setup("ace", allied=allied, deck=(FV1, FV2)))
    fonck = next(p for p in state.planes if p.leader == "fonck")
    assert state.leads["allied"][0][0] != fonck.ref
    assert state.leads["allied"][-1] == [fonck.ref, "leadership"]


def test_a_second_ace_event_is_a_lucky_shot(e: EaglesEngine) -> None:
    setup = campaign_setup("ace", deck=(FV1, FV2))
    state, _ = e.new_game(setup, 1)
    state.specials.append("ace")
    state = turn_2(e, setup, state)
    assert state.lucky_shot
    assert not any(p.leader == "fonck" for p in state.planes)


def test_without_aces_the_named_ace_events_are_lucky_shots(e: EaglesEngine) -> None:
    for event in ("ace", "squadron_56", "jasta_11"):
        state = turn_2(e, campaign_setup(event, aces=False, deck=(FV1, FV2)))
        assert state.lucky_shot, event
        assert len(state.planes) == 2


def test_56_squadron_three_se5a_mccudden_leads_the_hand(e: EaglesEngine) -> None:
    """§12.4: three SE5a join at the altitude with most aircraft, McCudden in one, two
    Experienced; his Leadership sets the hand size from then on (3 + 1 Scouts + 4)."""
    allied = [{"aircraft": "spad-xiii", "leader": "taylor"}]
    state = turn_2(e, campaign_setup("squadron_56", allied=allied))
    new = [p for p in state.planes if not p.original]
    assert [p.aircraft for p in new] == ["se5a"] * 3
    assert [p.quality for p in new] == ["ace", "experienced", "experienced"]
    assert new[0].leader == "mccudden" and {p.side for p in new} == {"allied"}
    assert {p.altitude for p in new} == {2}
    assert state.leads["allied"][0] == [new[0].ref, "leadership"]
    assert e.hand_limit(state, "allied")[0] == 4 + 4
    # McCudden leaves: back to the original Flight Leader (§12.4).
    new[0].status = "shot_down"
    assert e.hand_leader(state, "allied")[0] is state.plane("A1")


def test_jasta_11_three_dr1_with_richthofen_and_the_owner_places_them(e: EaglesEngine) -> None:
    """§12.5 with tied altitudes: one aircraft at Medium, one at Low: the Germans
    choose where their three Fokker DrI appear (§5.1), all together."""
    allied = [{"aircraft": "spad-xiii", "altitude": "L"}]
    state = turn_2(e, campaign_setup("jasta_11", allied=allied))
    assert state.pending is not None and state.pending.kind == "place"
    assert e.legal_actions(state, "G1") == [Action("place", word="L"), Action("place", word="M")]
    state, _ = step(e, state, "G1", "place L")
    new = [p for p in state.planes if not p.original]
    assert [p.aircraft for p in new] == ["fokker-dri"] * 3
    assert new[0].leader == "richthofen" and new[0].side == "german"
    assert {p.altitude for p in new} == {1}
    assert state.phase == "discard"


@pytest.mark.parametrize("revision", [1, 2])
def test_add_aircraft_counts_only_the_aircraft_already_on_the_mat(
    e: EaglesEngine, revision: int
) -> None:
    """§5.1 (a bug fixed with the group join, rules revision 2): the newcomer is not
    counted at Low, so Medium (two aircraft) wins over Low (one) without a choice. A
    game stored before (revision 1) replays as it was played: the newcomer counted,
    Low and Medium tied, its owner chooses."""
    setup = EaglesSetup.model_validate(
        {
            "revision": revision,
            "engagement": "patrol",
            "zone": "no_mans_land",
            "altitude": "M",
            "month": "1918-04",
            "initiative": "german",
            "allied": {"seats": ["A1"], "planes": [{"aircraft": "spad-xiii", "altitude": "L"}]},
            "german": {
                "seats": ["G1"],
                "planes": [{"aircraft": "albatros-dva"}, {"aircraft": "albatros-dva"}],
            },
            "hands": HANDS,
            "deck_top": (1, FV2),  # card 1: Add Aircraft over No Man's Land; FV 2: Allies
        }
    )
    state = turn_2(e, setup)
    added = state.planes[-1]
    assert not added.original and added.side == "allied"
    if revision == 2:
        assert added.altitude == 2 and state.phase == "discard"
    else:
        assert state.pending is not None and state.pending.kind == "place"


# -- weather ------------------------------------------------------------------------------
def test_clearing_skies_removes_the_clouds_and_the_rain(e: EaglesEngine) -> None:
    state = turn_2(e, campaign_setup("clearing_skies", weather="rain"))
    assert state.clouds is None and e.weather(state) == "clear"
    assert e.fire_bonus(state) == 0
    state = turn_2(e, campaign_setup("clearing_skies"))
    assert state.clouds is None and e.weather(state) == "clear"


def test_wind_change_once_and_the_record_reads_the_weather_of_each_departure(
    e: EaglesEngine,
) -> None:
    setup = campaign_setup("wind_change", weather="strong_prevailing_winds")
    state, _ = e.new_game(setup, 1)
    state.plane("A1").escaped_turn = 1
    state.plane("A1").status = "escaped"
    state.planes.append(state.plane("A1").clone())
    state.planes[-1].ref, state.planes[-1].status = "A2", "flying"
    state.planes[-1].escaped_turn = None
    state = turn_2(e, setup, state)
    assert e.weather(state) == "contrary_winds" and state.specials == ["wind_change"]
    records = {f.ref: f.record for f in e.outcome(state).fates}
    assert records["A1"]["weather"] == "strong_prevailing_winds"  # left before the change
    assert records["A2"]["weather"] == "contrary_winds"
    calm = turn_2(e, campaign_setup("wind_change", weather="cloudy"))
    assert calm.weather is None and calm.specials == []
    again, _ = e.new_game(setup, 1)
    again.specials.append("wind_change")  # once an Engagement: then No Event (§12.9)
    again = turn_2(e, setup, again)
    assert e.weather(again) == "strong_prevailing_winds"


def test_thunderstorm_everything_at_or_below_the_clouds_escapes_then_diving_in(
    e: EaglesEngine,
) -> None:
    """§12.8: Clouds at Medium (Cloudy): the aircraft at Medium and Low escape; one
    that later dives to Medium takes a Fire Value 4, 2-Guns attack and escapes."""
    allied = [{"aircraft": "spad-xiii", "altitude": "H"}, {"aircraft": "spad-xiii"}]
    german = [
        {"aircraft": "albatros-dva", "altitude": "H"},
        {"aircraft": "albatros-dva", "altitude": "L"},
    ]
    setup = campaign_setup(
        "thunderstorm", allied=allied, german=german, weather="cloudy", deck=(FV1, FV6)
    )
    state = turn_2(e, setup)
    assert state.storm == 2
    assert [p.status for p in state.planes] == ["flying", "escaped", "flying", "escaped"]
    state = discard_nothing(e, state)
    state, _ = step(e, state, "G1", "pass")
    state, events = step(e, state, "A1", "dive A1 22D")
    assert said(events, "thunderstorm on SPAD XIII (A1) at Fire Value 4: card 8, a miss")
    assert state.plane("A1").status == "escaped"
    assert said(events, "escapes the thunderstorm")
    no_clouds = turn_2(e, campaign_setup("thunderstorm"))
    assert no_clouds.storm is None and all(p.flying for p in no_clouds.planes)


def test_a_thunderstorm_that_empties_a_side_ends_the_engagement(e: EaglesEngine) -> None:
    allied = [{"aircraft": "spad-xiii", "altitude": "H"}]
    state = turn_2(e, campaign_setup("thunderstorm", allied=allied, weather="cloudy"))
    assert state.phase == "over" and state.plane("G1").status == "escaped"


# -- aircraft leaving ---------------------------------------------------------------------
def test_engine_trouble_the_most_fatigued_and_a_tie_is_the_owners_choice(
    e: EaglesEngine,
) -> None:
    """§12.3: the Allies' most fatigued (5) and the Germans' two at 5 qualify: A2
    escapes at once, the Germans choose between G1 and G2."""
    allied = [
        {"aircraft": "spad-xiii", "pilot": "a", "fatigue": 3},
        {"aircraft": "spad-xiii", "pilot": "b", "fatigue": 5},
    ]
    german = [
        {"aircraft": "albatros-dva", "pilot": "c", "fatigue": 5},
        {"aircraft": "albatros-dva", "pilot": "d", "fatigue": 5},
        {"aircraft": "albatros-dva"},
    ]
    state = turn_2(e, campaign_setup("engine_trouble", allied=allied, german=german))
    assert state.plane("A2").status == "escaped" and state.plane("A1").flying
    assert state.pending is not None and state.pending.kind == "trouble"
    assert e.legal_actions(state, "G1") == [
        Action("remove", word="G1"),
        Action("remove", word="G2"),
    ]
    assert e.pending(state)[0].kind == "trouble"
    state, events = step(e, state, "G1", "remove G2")
    assert said(events, '"engine trouble"')
    assert state.plane("G2").status == "escaped" and state.plane("G1").flying
    assert state.phase == "discard"
    record = {f.ref: f.record for f in e.outcome(state).fates}["A2"]
    assert record["escaped"] and record["pilot_id"] == "b"


def test_withdrawal_the_side_with_fewer_scouts_decides(e: EaglesEngine) -> None:
    """§12.10: one Allied Scout against two German: the Allies may withdraw; every
    aircraft escapes, the engagement is over, and a Patrol gives the Germans no +3 VP
    for being alone on turn 3 or earlier (the note's exception to §16.41)."""
    german = [{"aircraft": "albatros-dva"}, {"aircraft": "albatros-dva"}]
    setup = campaign_setup("withdrawal", german=german)
    state = turn_2(e, setup)
    assert state.pending is not None and state.pending.kind == "withdraw"
    assert e.legal_actions(state, "A1") == [Action("refuse"), Action("accept")]
    assert e.default_action(state, "A1") == Action("refuse")
    fought, events = step(e, state, "A1", "refuse")
    assert said(events, "fight on") and fought.phase == "discard"
    state, events = step(e, state, "A1", "accept")
    assert state.plane("A1").status == "escaped" and state.phase == "over"
    assert state.withdrew == "allied"
    assert e.tally(state).engagement["german"] == 0
    assert e.outcome(state).fates[0].record["escaped"]


@pytest.mark.parametrize(
    ("zone", "side"),
    [("german_front", "allied"), ("no_mans_land", "german"), ("allied_rear", "german")],
)
def test_withdrawal_with_as_many_scouts_goes_to_the_side_over_enemy_ground(
    e: EaglesEngine, zone: str, side: str
) -> None:
    state = turn_2(e, campaign_setup("withdrawal", zone=zone))
    assert state.pending is not None and state.pending.side == side


# -- the turn's attacks -------------------------------------------------------------------
def test_lucky_shot_the_first_attack_of_the_turn_hits(e: EaglesEngine) -> None:
    """§12.6: G1 tailing A1 gains Position Level 5 (Fire Value 5); its attack draws
    past the Guns Jammed card to card 8 (Fire Value 6), which hits anyway."""
    german = [{"aircraft": "albatros-dva", "tailing": "A1", "level": 1}]
    setup = campaign_setup("lucky_shot", german=german, deck=(FV1, JAM, FV6))
    state = discard_nothing(e, turn_2(e, setup))
    assert state.lucky_shot
    state, _ = step(e, state, "G1", "tail G1 37A A1")
    assert state.pending is not None and state.pending.kind == "respond"
    state, events = step(e, state, "A1", "pass")
    assert said(events, "Lucky Shot: Albatros DVa (G1)'s attack hits, card 8")
    assert said(events, "at Fire Value 5: card 8 (6), an Engine hit")
    assert not state.lucky_shot


def test_out_of_the_sun_one_unengaged_aircraft_attacks_without_a_response(
    e: EaglesEngine,
) -> None:
    """§12.7: in the morning the Germans have it, in the afternoon the Allies; the
    target may not play a Response card; once a turn."""
    german = [{"aircraft": "albatros-dva"}, {"aircraft": "albatros-dva"}]
    state = turn_2(e, campaign_setup("out_of_the_sun", phase="afternoon"))
    assert state.sun == "allied"
    state = discard_nothing(e, turn_2(e, campaign_setup("out_of_the_sun", german=german)))
    assert state.sun == "german"
    state, _ = step(e, state, "A1", "pass")  # fewer Scouts: the Allies have the Initiative
    sun = Action.from_text("tail G1 37A A1 sun")
    assert sun in e.legal_actions(state, "G1")
    plain, _ = step(e, state, "G1", "tail G1 37A A1")
    assert plain.pending is not None
    assert any(a.verb == "respond" for a in e.legal_actions(plain, "A1"))
    state, events = e.apply(state, "G1", sun)
    assert said(events, "out of the sun")
    assert state.sun is None
    # A1 holds an Agility card (4) but is not asked: it could neither respond nor fire.
    assert state.pending is None and said(events, "plays no response")


# -- engine out, exhaustion, leaders ------------------------------------------------------
def _run(state: GameState) -> Run:
    return Run(state.clone(), Rng(state.rng))


def test_a_second_engine_hit_leaves_the_mat_for_a_safe_return(e: EaglesEngine) -> None:
    """§10.86, Campaign §5.64: not shot down: it escapes at once, the record says
    ``engine_out`` and ``by`` names the last aircraft that damaged it (§9.32); no
    shoot-down VP. Without a campaign the same hit shoots it down."""
    german = [{"aircraft": "albatros-dva", "damage": {"engine": 1}, "pilot": "g-07"}]
    state, _ = e.new_game(campaign_setup("none", german=german), 1)
    run = _run(state)
    shooter = run.state.plane("A1")
    e.hit(run, run.state.plane("G1"), DamageKind.ENGINE, by=shooter)
    g1 = run.state.plane("G1")
    assert g1.status == "escaped" and g1.engine_out and not shooter.kills
    fate = {f.ref: f for f in e.outcome(run.state).fates}["G1"]
    assert fate.by == "A1" and fate.fate.value != "shot_down"
    assert (
        fate.record["engine_out"] and fate.record["escaped"] and fate.record["pilot_id"] == "g-07"
    )
    assert e.tally(run.state).standard["allied"] == 2  # damaged (§16.21), not shot down
    assert any("second Engine hit" in str(ev.text) for ev in run.events)

    single = campaign_setup("none", german=german).model_copy(update={"campaign": None})
    state, _ = e.new_game(single, 1)
    run = _run(state)
    e.hit(run, run.state.plane("G1"), DamageKind.ENGINE, by=run.state.plane("A1"))
    assert run.state.plane("G1").status == "shot_down"


def test_exhausted_pilots_fly_one_quality_lower(e: EaglesEngine) -> None:
    allied = [
        {"aircraft": "spad-xiii", "quality": "green", "exhausted": True},
        {"aircraft": "spad-xiii", "quality": "inexperienced", "exhausted": True},
        {"aircraft": "spad-xiii", "quality": "experienced", "exhausted": True, "pilot": "p3"},
        {"aircraft": "spad-xiii", "leader": "taylor", "exhausted": True},
    ]
    state, _ = e.new_game(campaign_setup("none", allied=allied), 1)
    assert [p.quality for p in state.planes[:4]] == ["green", "green", "inexperienced", "leader"]
    taylor = state.plane("A4")
    assert (e.leader_rating(taylor, "leadership"), e.leader_rating(taylor, "flying")) == (1, 2)
    taylor.crew["pilot"] = "wounded"
    assert e.leader_rating(taylor, "leadership") == 0  # never below 0
    record = {f.ref: f.record for f in e.outcome(state).fates}["A3"]
    assert record["exhausted"] and record["quality"] == "inexperienced"
    assert record["pilot_id"] == "p3"


def test_an_exhausted_ace_loses_his_asterisked_abilities(e: EaglesEngine) -> None:
    german = [{"aircraft": "fokker-dri", "leader": "richthofen", "exhausted": True}]
    allied = [{"aircraft": "se5a", "leader": "mccudden", "exhausted": True}]
    state, _ = e.new_game(campaign_setup("none", allied=allied, german=german), 1)
    richthofen, mccudden = state.plane("G1"), state.plane("A1")
    assert not richthofen.has("tailing_fire_plus_2")
    assert mccudden.has("gun_jam_redraw")  # not asterisked (G-E1)
    richthofen.tailing, richthofen.level = "A1", 3
    shot = e.tailing_fire(richthofen, mccudden)
    assert shot is not None and shot.fv == 4  # +1 as an Ace (§14.62), not +2


def test_an_exhausted_gunner_fires_at_minus_1(e: EaglesEngine) -> None:
    allied = [{"aircraft": "bristol-fighter", "exhausted": True}]
    german = [{"aircraft": "albatros-dva", "tailing": "A1", "level": 3}]
    state, _ = e.new_game(campaign_setup("none", allied=allied, german=german), 1)
    shot = e.gunner_fire(state.plane("A1"), state.plane("G1"))
    assert shot is not None and shot.fv == 3  # 4 at level 3 (§10.53), -1 (§8.32)
    state.plane("A1").crew["gunner"] = "wounded"
    shot = e.gunner_fire(state.plane("A1"), state.plane("G1"))
    assert shot is not None and shot.fv == 2


def test_several_flight_leaders_the_designated_one_leads_then_another_takes_over(
    e: EaglesEngine,
) -> None:
    """Campaign §5.41: McNamee designated (Leadership 2: 3 Scouts + 2); when he has
    left, Taylor takes over with the larger of his ratings (Flying 3: 2 + 3)."""
    allied = [
        {"aircraft": "spad-xiii", "leader": "taylor"},
        {"aircraft": "spad-xiii", "leader": "mcnamee"},
        {"aircraft": "spad-xiii"},
    ]
    setup = campaign_setup("none", allied=allied)
    setup = setup.model_copy(update={"allied": setup.allied.model_copy(update={"lead": "mcnamee"})})
    state, _ = e.new_game(setup, 1)
    assert e.hand_leader(state, "allied") == (state.plane("A2"), "leadership")
    assert e.hand_limit(state, "allied")[0] == 5
    state.plane("A2").status = "escaped"
    assert e.hand_leader(state, "allied") == (state.plane("A1"), "flying")
    assert e.hand_limit(state, "allied")[0] == 5
    bad = setup.model_copy(update={"allied": setup.allied.model_copy(update={"lead": "luke"})})
    with pytest.raises(SetupError):
        e.new_game(bad, 1)
    with pytest.raises(ValidationError, match="lead"):
        EaglesSetup.model_validate({**setup.model_dump(), "campaign": None})


def test_a_campaign_flight_needs_no_leader(e: EaglesEngine) -> None:
    """Campaign §5.41: no Flight Leader is drawn for a Flight without one (§3.6 is
    for single engagements)."""
    state, events = e.new_game(campaign_setup("none"), 1)
    assert all(p.leader is None for p in state.planes)
    assert not said(events, "Flight Leader")
    _, events = e.new_game(campaign_setup("none").model_copy(update={"campaign": None}), 1)
    assert said(events, "Flight Leader")


# -- in words -----------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_campaign_decisions_in_words(e: EaglesEngine, language: str) -> None:
    """Withdrawal's and "Engine Trouble"'s decisions and an attack out of the sun have
    prompts, menus and a step in words, reaching exactly the legal moves."""
    eagles = system()
    presenter = eagles.presenter()
    german = [
        {"aircraft": "albatros-dva", "pilot": "c"},
        {"aircraft": "albatros-dva", "pilot": "d"},
    ]
    states = [
        turn_2(e, campaign_setup("withdrawal", german=german)),
        turn_2(e, campaign_setup("engine_trouble", german=german)),
        discard_nothing(e, turn_2(e, campaign_setup("out_of_the_sun"))),
    ]
    for state in states:
        for d in eagles.pending(state):
            legal = {str(a) for a in e.legal_actions(state, d.seat)}
            menu = presenter.menu(state, d.seat, Seating(), language)
            assert check_menu(menu, legal, random.Random(1)) == []
            for text in (
                tr(presenter.prompt(state, d), language),
                tr(presenter.phase(state).step, language),
                presenter.picture_text(e.view(state, None), {}, language),
            ):
                assert "eagles." not in text and "{" not in text, text


def test_random_campaign_engagements_end_and_replay(e: EaglesEngine) -> None:
    """Seeded random play of campaign engagements (Special Events come on about one
    turn in ten): every decision has legal moves, every game ends, a log replays."""
    events = (
        "ace",
        "withdrawal",
        "engine_trouble",
        "squadron_56",
        "jasta_11",
        "thunderstorm",
        "out_of_the_sun",
    )
    allied = [
        {"aircraft": "spad-xiii", "leader": "taylor", "pilot": "a1", "fatigue": 2},
        {"aircraft": "bristol-fighter", "exhausted": True, "pilot": "a2", "fatigue": 9},
    ]
    german = [
        {"aircraft": "albatros-dva", "leader": "moritz", "pilot": "g1"},
        {"aircraft": "albatros-dva", "leader": "schneberk", "pilot": "g2", "fatigue": 9},
        {"aircraft": "fokker-dri", "quality": "green", "pilot": "g3"},
    ]
    setup = campaign_setup(events, allied=allied, german=german, weather="cloudy", hands=None)
    setup = setup.model_copy(
        update={"german": setup.german.model_copy(update={"lead": "schneberk"}), "deck_top": ()}
    )
    specials = 0
    for seed in range(16):
        rng = random.Random(seed)
        state, _ = e.new_game(setup, seed)
        log: list[tuple[str, str]] = []
        while not e.is_over(state) and len(log) < 3000:
            seat = rng.choice(sorted({d.seat for d in e.pending(state)}))
            legal = e.legal_actions(state, seat)
            assert legal
            a = rng.choice(legal)
            state, events = e.apply(state, seat, a)
            log.append((seat, str(a)))
            specials += said(events, "Special Events table")
        assert e.is_over(state) and e.outcome(state).over
        assert e.replay(setup, seed, log).dump() == state.dump()
    assert specials >= 5


def test_a_campaign_ace_without_a_leader_counter_fires_at_plus_1(e: EaglesEngine) -> None:
    """Campaign §9.31: a pilot with five kills "becomes an Ace and receives the +1 to
    his Fire Value on Tailing Attacks"; he has no Flight Leader counter."""
    allied = [{"aircraft": "spad-xiii", "ace": True, "pilot": "D"}, {"aircraft": "spad-xiii"}]
    state, _ = e.new_game(campaign_setup("none", allied=allied), 1)
    ace, plain, target = state.plane("A1"), state.plane("A2"), state.plane("G1")
    for p in (ace, plain):
        p.tailing, p.level = "G1", 3
    shot, other = e.tailing_fire(ace, target), e.tailing_fire(plain, target)
    assert shot is not None and other is not None and (shot.fv, other.fv) == (4, 3)
    assert ace.quality == "experienced"  # no leader: the hand size is unchanged
