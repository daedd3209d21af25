"""What a Zero! campaign mission's view shows for the picture: the turn track of the
mission's phases (§23.1-§23.7) and an aircraft's printed ceiling (§16.22 L1024)."""

from __future__ import annotations

import pytest

from engine.dif.alttext import picture_text
from engine.dif.components import Altitude
from engine.dif.game import DifEngine, default_engine
from engine.dif.loader import load_aircraft, load_decks
from engine.dif.view import DifView, MissionView
from tests.engine.dif.test_mission_rules import drive, mission_setup


@pytest.fixture(scope="module")
def engine() -> DifEngine:
    return default_engine()


def mission_of(view: DifView) -> MissionView:
    assert view.mission is not None
    return view.mission


def test_the_track_lists_each_game_turns_phase_in_order(engine: DifEngine) -> None:
    """§23.1 L1697: Turns of Arrival, the three Turns Over the Target (§23.4), then the
    Turns of Return Home; the current turn is the view's ``turn``."""
    state, _ = engine.new_game(mission_setup(arrival=2, home=2), 1)
    expected = ("arrival", "arrival", "ingress", "bomb", "egress", "home", "home")
    mission = mission_of(engine.view(state, None))
    assert mission.track == expected
    assert mission.phases == (
        ("arrival", (1, 2)),
        ("ingress", (3,)),
        ("bomb", (4,)),
        ("egress", (5,)),
        ("home", (6, 7)),
    )
    state = drive(engine, state, lambda s: s.turn == 3)
    view = engine.view(state, None)
    assert view.turn == 3 and mission_of(view).track[view.turn - 1] == "ingress"
    assert mission_of(engine.view(state, "A1")).track == expected, "public: every seat sees it"
    lines = picture_text(view, {}, "en").splitlines()
    assert lines[1:3] == [
        "Mission: Ingress Turn; Railway, 0 Damage (Untouched).",
        "Mission turns: Arrival 1-2, Ingress 3, Bomb 4, Egress 5, Return Home 6-7.",
    ], "the picture's text alternative reads the strip"
    french = picture_text(view, {}, "fr").splitlines()
    assert french[2] == (
        "Tours de la mission : arrivée 1-2, approche 3, bombardement 4, dégagement 5, retour 6-7."
    )


def test_the_track_without_turns_of_arrival_starts_over_the_target(engine: DifEngine) -> None:
    """§23.25 L1721: turns reduced to zero are skipped entirely."""
    state, _ = engine.new_game(mission_setup(arrival=0, home=1), 1)
    assert mission_of(engine.view(state, None)).track == ("ingress", "bomb", "egress", "home")


def test_the_track_follows_return_home_counted_again_at_the_egress(engine: DifEngine) -> None:
    """§23.7: 8 base Turns of Return Home less 6 (fighters and light bombers)."""
    state, _ = engine.new_game(mission_setup(home=4, mission={"home_base": 8}), 1)
    assert mission_of(engine.view(state, None)).track.count("home") == 4
    state = drive(engine, state, lambda s: s.turn == 4)
    assert mission_of(engine.view(state, None)).track == (
        "ingress",
        "bomb",
        "egress",
        "home",
        "home",
    )


def test_a_dogfight_mission_tracks_its_fixed_turns(engine: DifEngine) -> None:
    """§23.1: a Dogfight-kind mission lasts a fixed number of turns, with no phases."""
    setup = mission_setup(
        mission={"kind": "dogfight", "turns": 3, "target": None}, bombs={}, arrival=0
    )
    state, _ = engine.new_game(setup, 1)
    assert mission_of(engine.view(state, None)).track == ("dogfight",) * 3


def test_an_element_and_its_text_alternative_show_its_ceiling() -> None:
    """§16.22 L1024: the maximum Altitude printed on the card. No shipped aircraft
    prints one (data/dif/SOURCES.md), so a Ki-30 with a Medium ceiling stands in."""
    aircraft = load_aircraft()
    aircraft["ki-30"] = aircraft["ki-30"].model_copy(update={"ceiling": Altitude.MEDIUM})
    engine = DifEngine(load_decks(), aircraft)
    state, _ = engine.new_game(mission_setup(), 1)
    ceilings = {e.seat: e.ceiling for e in engine.view(state, None).elements}
    assert ceilings == {"A2": None, "X2": Altitude.MEDIUM, "A1": None, "X1": None}
    lines = picture_text(engine.view(state, None), {}, "en").splitlines()
    assert [line for line in lines if "ceiling" in line] == [
        "Ki-30 (X2), Japanese: Low; ceiling Medium; leader 0/3 hits; wingman 0/3 hits."
    ], "the text alternative says it too"
