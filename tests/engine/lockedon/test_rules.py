"""Rules of Locked-On that a vector shows less well, and the readings of
docs/rules-decisions.md ("Locked-On"), each pinned by a test named after it."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation, SetupError
from engine.lockedon import geometry, ratings
from engine.lockedon.actions import Action
from engine.lockedon.components import Altitude, Range
from engine.lockedon.game import LockedOnEngine
from engine.lockedon.setup import LockedOnSetup
from engine.lockedon.state import Launch

from .conftest import Act, Game, seats_of


def test_lo03_the_draw_stops_at_performance_without_afterburners_too(
    lo: LockedOnEngine, game: Game, act: Act
) -> None:
    state = game(
        seats=seats_of("A1 A kfir-c2", "B1 B mirage-iiicj"),
        hands={"A1": ["BR"] * 6, "B1": ["TT"]},
    )
    state = act(state, "A1", "ab off", "discard")
    assert len(state.planes["A1"].hand) == 7


def test_lo15_climbing_with_no_card_is_refused(lo: LockedOnEngine, game: Game, act: Act) -> None:
    state = game(seats=seats_of("A1 A sea-harrier-frs1", "B1 B a-4e"), hands={"A1": [], "B1": []})
    state = act(state, "A1", "discard")
    state.planes["A1"].hand = []  # the book's "holding 0 cards" (L221)
    assert not [a for a in lo.legal_actions(state, "A1") if a.verb == "climb"]
    with pytest.raises(RuleViolation, match="L220"):
        lo.apply(state, "A1", Action.from_text("climb BR"))


def test_altitude_changes_thrust_performance_and_ew(lo: LockedOnEngine, game: Game) -> None:
    """L207-216, G-L6: Low takes 1 Performance only from a 7 or more (skills counted)."""
    state = game(seats=seats_of("A1 A f-15a", "B1 B mig-21mf"))
    f15, mig = state.planes["A1"], state.planes["B1"]
    ac15, acmig = lo.ac(f15), lo.ac(mig)
    f15.altitude = mig.altitude = Altitude.HIGH
    assert ratings.performance(ac15, f15) == 9 and ratings.thrust(ac15, f15, post_turn=False) == 2
    assert ratings.ew(ac15, f15) == 1
    assert ratings.ew(acmig, mig) == -1, "EW '-' is modified too (L216)"
    f15.altitude = mig.altitude = Altitude.LOW
    assert ratings.performance(ac15, f15) == 7, "8 is 7 or higher"
    assert ratings.performance(acmig, mig) == 6, "the MiG-21MF's 6 is not"
    assert ratings.thrust(ac15, f15, post_turn=True) == 3 and ratings.ew(acmig, mig) == 1
    f15.mods = {"performance": -1}  # Grit: 7 "normally", still 7 or higher
    assert ratings.performance(ac15, f15) == 6
    f15.mods = {"performance": -2}
    assert ratings.performance(ac15, f15) == 6, "a 6 with skills is not reduced at Low"


def test_the_range_between_two_aircraft_is_capped_at_active_homing() -> None:
    assert geometry.band(Range.RADAR, Altitude.LOW, Range.ACTIVE, Altitude.HIGH) is Range.ACTIVE
    assert geometry.band(Range.GUN, Altitude.LOW, Range.GUN, Altitude.HIGH) is Range.RADAR


def test_a_missile_mini_hand_counts_the_altitude_both_ways(lo: LockedOnEngine, game: Game) -> None:
    """L255-256: +1 per level the target is below, -1 per level above."""
    state = game(seats=seats_of("A1 A f-4e", "B1 B mig-21mf"), ranges={"A1": "G", "B1": "G"})
    geometry.set_pos(state, "A1", "B1", 2)
    launch = Launch("A1", "B1", "aim-9e", 0)
    state.planes["A1"].altitude, state.planes["B1"].altitude = Altitude.HIGH, Altitude.LOW
    # Tailing 2, +2 levels below, -1 for the MiG's EW '-' made 1 at Low.
    assert lo.missile_cards(state, "A1", launch, 1) == 2 + 2 - 1
    state.planes["A1"].altitude, state.planes["B1"].altitude = Altitude.LOW, Altitude.HIGH
    # Tailing 2, -2 levels above, +1 for its EW '-' made -1 at High.
    assert lo.missile_cards(state, "A1", launch, 1) == 2 - 2 + 1


def test_split_s_against_a_missile_ends_the_turn(lo: LockedOnEngine, game: Game, act: Act) -> None:
    """L175: 'an Action card (from an Aircraft or Missile)'."""
    state = game(
        seats=seats_of("A1 A f-4e", "B1 B mig-21mf"),
        ab_left={"A1": 0, "B1": 0},
        ranges={"A1": "RH", "B1": "RH"},
        hands={"A1": ["TONE", "TT", "TT", "TT", "TT"], "B1": ["SPS"]},
        deck_top=["TT", "TT"],
    )
    state = act(state, "A1", "discard", "stay", "play TONE B1 aim-7e-2", "B1:pass", "launch")
    state = act(state, "B1", "react SPS")
    assert [str(a) for a in lo.legal_actions(state, "A1")] == ["pass"]
    state = act(state, "A1", "pass")
    assert state.active == "B1" and state.planes["B1"].flying and len(state.planes["B1"].hand) == 1


def test_start_skills_add_cards_after_the_first_hand(lo: LockedOnEngine) -> None:
    """Guided Intercept 2/3, Edge, Locked, Up the Sleeve, Tiger (L337-368)."""
    skills = {
        "guided-intercept-2": (8 + 2, []),
        "guided-intercept-3": (8 + 3, []),
        "edge": (9, ["RED"]),
        "locked": (9, ["TONES"]),
        "up-the-sleeve": (9, ["ACE"]),
        "tiger": (10, ["ACE", "TONES"]),
    }
    for skill, (n, codes) in skills.items():
        setup = LockedOnSetup.model_validate(
            {"seats": seats_of("A1 A f-15a", "B1 B mig-29", A1={"skills": [skill]})}
        )
        state, _ = lo.new_game(setup, 3)
        hand = lo.codes(state, state.planes["A1"].hand)
        assert len(hand) == n, skill
        assert all(hand.count(c) >= codes.count(c) for c in codes), skill


def test_a_second_deck_doubles_the_cards(lo: LockedOnEngine) -> None:
    """L414-415: two sets of Action cards combined."""
    setup = LockedOnSetup.model_validate(
        {"options": {"second_deck": True}, "seats": seats_of("A1 A f-15a", "B1 B mig-29")}
    )
    state, _ = lo.new_game(setup, 1)
    cards = state.deck + [c for p in state.planes.values() for c in p.hand]
    assert len(cards) == 2 * len(lo.one_deck) == 144 and len(set(cards)) == 144


def test_campaign_only_skills_are_refused_with_the_reason(lo: LockedOnEngine) -> None:
    for skill in ("angle-90", "angle-0", "nfod"):
        setup = LockedOnSetup.model_validate(
            {"seats": seats_of("A1 A f-15a", "B1 B mig-29", A1={"skills": [skill]})}
        )
        with pytest.raises(SetupError, match="outside of Campaigns"):
            lo.new_game(setup, 0)


def test_drift_factor_needs_a_team(lo: LockedOnEngine) -> None:
    setup = LockedOnSetup.model_validate(
        {"seats": seats_of("A1 A f-15a", "B1 B mig-29", A1={"skills": ["drift-factor"]})}
    )
    with pytest.raises(SetupError, match="L335"):
        lo.new_game(setup, 0)


def test_default_actions_are_the_passive_choices(lo: LockedOnEngine, game: Game, act: Act) -> None:
    setup = LockedOnSetup.model_validate({"seats": seats_of("A1 A f-15a", "B1 B mig-29")})
    state, _ = lo.new_game(setup, 0)
    assert str(lo.default_action(state, "A1")) == "alt M"
    state = game(ranges={"A1": "HS", "B1": "HS"}, hands={"A1": ["TT"] * 3, "B1": ["BR"]})
    assert str(lo.default_action(state, "A1")) == "ab off"
    state = act(state, "A1", "ab off")
    assert str(lo.default_action(state, "A1")) == "discard"
    state = act(state, "A1", "discard")
    assert str(lo.default_action(state, "A1")) == "stay"
    state = act(state, "A1", "stay")
    assert str(lo.default_action(state, "A1")) == "end"
    state = act(state, "A1", "play TT pos 1 B1")
    assert str(lo.default_action(state, "B1")) == "pass"
    with pytest.raises(RuleViolation):
        lo.default_action(state, "A1")


def test_a_stall_default_discards_one_card(lo: LockedOnEngine, game: Game, act: Act) -> None:
    state = game(
        seats=seats_of("A1 A super-etendard", "B1 B a-4e"),
        altitudes={"A1": "H", "B1": "M"},
        hands={"A1": ["TT", "BR"], "B1": []},
    )
    state = act(state, "A1", "discard", "stay", "end")
    assert len(lo.default_action(state, "A1").cards) == 1


def test_a_refused_action_names_the_rule_and_changes_nothing(
    lo: LockedOnEngine, game: Game
) -> None:
    state = game()
    before = state.to_json()
    with pytest.raises(RuleViolation) as refused:
        lo.apply(state, "B1", Action.from_text("ab on"))
    assert "waiting for A1" in str(refused.value)
    with pytest.raises(RuleViolation, match="expected ab"):
        lo.apply(state, "A1", Action.from_text("stay"))
    assert state.to_json() == before


def test_the_missile_attacker_cannot_touch_its_hand_not_even_with_timely(
    lo: LockedOnEngine, game: Game, act: Act
) -> None:
    """L250, L262: the aircraft's cards are put down during its Missile attack."""
    state = game(
        seats=seats_of("A1 A f-4e", "B1 B mig-21mf", A1={"skills": ["timely"]}),
        ab_left={"A1": 0, "B1": 0},
        ranges={"A1": "RH", "B1": "RH"},
        hands={"A1": ["TONE", "TT", "TT", "TT", "TT"], "B1": ["BRK"]},
        deck_top=["BRK", "BRK"],
    )
    state = act(state, "A1", "discard", "stay", "play TONE B1 aim-7e-2", "B1:pass", "launch")
    state = act(state, "B1", "react BRK")
    legal = {str(a) for a in lo.legal_actions(state, "A1")}
    assert legal == {"pass", "react BRK"}
    with pytest.raises(RuleViolation, match="L262"):
        lo.apply(state, "A1", Action.from_text("timely TT"))
