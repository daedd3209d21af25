"""Rules checked one at a time, and one test named after each rules bug fixed."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.dif.actions import Action
from engine.dif.game import DifEngine
from engine.dif.setup import DifSetup
from engine.dif.state import GameState

from .conftest import GameFactory, Play


def test_bug_engaged_leader_attacked_the_enemy_wingman(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # Zero! 6.5, RotL L86: an engaged leader may only attack the leader it is engaged with.
    state = new_game(
        hands={"A1": ["IMS-1B1D", "MAN", "TIT", "BAR", "HAL"]},
        positions=[{"leader": "A1", "on": "X1", "position": "Advantaged"}],
    )
    state = play(state, "A1", "stay")
    assert "play IMS-1B1D X1W" not in {str(a) for a in engine.legal_actions(state, "A1")}
    with pytest.raises(RuleViolation, match=r"\(6\.5\)"):
        engine.apply(state, "A1", Action.from_text("play MAN X1W"))
    state = play(state, "A1", "giveup")
    state = play(state, "A1", "play MAN X1W")  # Neutral again: the wingman is fair game


def test_bug_evasion_from_tailing_moved_toward_destruction(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # Zero! 12.0 / RotL L311: Tailing moves *down* 2, toward I (escapes).
    state = new_game(
        ruleset="rotl",
        positions=[{"leader": "A1", "on": "X1", "position": "Tailing"}],
        deck_top=["OOS-1B2D", "OOS-2B3D"],
        hands={"A1": ["MAN", "TIT", "BAR"], "X1": ["MAN", "TIT"]},
    )
    state = play(state, "A1", "stay")
    state = play(state, "A1", "evade")
    a1 = state.elements["A1"]
    assert a1.leader is not None and a1.wingman is not None
    assert (a1.leader.status, a1.leader.damaged) == ("evaded", True)  # B + 2 = D: damaged
    assert (a1.wingman.status, a1.wingman.damaged) == ("evaded", True)


def test_bug_card_named_for_a_vertical_roll_climb_could_answer_in_that_exchange(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # The engine crashed resolving the climb: the named card had been played already.
    state = new_game(
        allied="buffalo-i",
        axis="ki-43",
        hands={"A1": ["VER", "ACE", "MAN"], "X1": ["VER", "TIT"]},
        positions=[{"leader": "X1", "on": "A1", "position": "Advantaged"}],
    )
    state = play(state, "A1", "stay")
    state = play(state, "A1", "play VER up ACE")
    state = play(state, "X1", "respond VER")
    assert [str(a) for a in engine.legal_actions(state, "A1")] == ["pass"]
    with pytest.raises(RuleViolation, match="set aside"):
        engine.apply(state, "A1", Action.from_text("respond ACE"))
    state = play(state, "A1", "pass")
    assert sorted(engine.code[c] for c in state.elements["A1"].hand) == ["ACE", "MAN"]


def test_bug_shooter_could_attack_the_promoted_wingman_in_the_same_turn(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    # 8.21: the promoted wingman is another aircraft than the leader shot down.
    state = new_game(
        hands={"A1": ["MAN", "MAN", "BAR", "TIT", "HAL"], "X1": ["MAN", "TIT"]},
        deck_top=["IMS-2BFT", "IMS-1B1D"],
    )
    for text in ("stay", "done", "discard"):
        state = play(state, "A1", text)
    state = play(state, "X1", "wm A1L")
    state = play(state, "X1", "play IMS-2BFT A1L")
    state = play(state, "A1", "pass")
    a1 = state.elements["A1"]
    assert a1.leader is not None and a1.leader.promoted and a1.leader.flying
    assert state.t.wm_target == "A1L-lost1"
    assert [p.seat + " " + p.kind for p in engine.pending(state)] == ["X1 altitude_step"]
    assert state.elements["X1"].minihand == []


def test_bug_leader_could_go_on_attacking_after_shooting_the_leader_down(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    state = new_game(
        allied="p-40e",
        hands={"A1": ["IMS-2BFT", "MAN", "TIT", "BAR", "HAL"]},
    )
    state = play(state, "A1", "stay")
    state = play(state, "A1", "play IMS-2BFT X1L")
    state = play(state, "X1", "pass")
    assert engine.view(state, None).bursts_left == 0
    legal = {str(a) for a in engine.legal_actions(state, "A1")}
    assert not any(a.startswith("play") for a in legal), legal
    with pytest.raises(RuleViolation, match="one aircraft per turn"):
        engine.apply(state, "A1", Action.from_text("play MAN X1L"))


def test_bug_turn_counter_ran_past_the_last_turn(engine: DifEngine, new_game: GameFactory) -> None:
    state = new_game(altitudes={"A1": "L", "X1": "H"})
    while state.step != "over":
        seat = engine.pending(state)[0].seat
        text = {"altitude_step": "stay", "play": "done", "discard": "discard"}[
            engine.pending(state)[0].kind
        ]
        state, _ = engine.apply(state, seat, Action.from_text(text))
    assert state.turn == 6 == state.max_turns
    assert engine.view(state, None).turn == 6


def test_bug_hands_fixed_for_one_seat_left_the_other_seat_empty_handed(
    engine: DifEngine, new_game: GameFactory
) -> None:
    state = new_game(hands={"A1": ["MAN"]})
    assert len(state.elements["A1"].hand) == 1
    assert len(state.elements["X1"].hand) == 6  # A6M2 hand size, dealt normally (4.6)


def test_bug_bursts_left_ignored_an_engaged_leaders_position_before_its_first_card(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    tailing = new_game(positions=[{"leader": "A1", "on": "X1", "position": "Tailing"}])
    assert engine.view(play(tailing, "A1", "stay"), None).bursts_left == 4
    tailed = new_game(positions=[{"leader": "X1", "on": "A1", "position": "Tailing"}])
    assert engine.view(play(tailed, "A1", "stay"), None).bursts_left == 0
    neutral = new_game()
    assert engine.view(play(neutral, "A1", "stay"), None).bursts_left == 1


def test_positions_are_symmetric(engine: DifEngine, new_game: GameFactory) -> None:
    state = new_game(positions=[{"leader": "X1", "on": "A1", "position": "Advantaged"}])
    assert engine.pos(state, "X1", "A1") == 1 and engine.pos(state, "A1", "X1") == -1
    assert engine.engaged_with(state, "A1") == "X1" and engine.engaged_with(state, "X1") == "A1"


def test_a_lone_leader_is_flown_without_a_wingman(engine: DifEngine) -> None:
    setup = DifSetup.model_validate(
        {
            "ruleset": "zero",
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "f4f", "wingman": False},
                {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
            ],
            "altitudes": {"A1": "M", "X1": "M"},
            "first_side": "axis",
        }
    )
    state, _ = engine.new_game(setup, 0)
    assert state.aircraft_at_start == 3
    state, _ = engine.apply(state, "X1", Action.simple("stay"))
    state, _ = engine.apply(state, "X1", Action.simple("done"))
    state, _ = engine.apply(state, "X1", Action.discard())
    assert [p.kind for p in engine.pending(state)] == ["altitude_step"]  # no wingman step
    assert "wm X1L" not in {str(a) for a in engine.legal_actions(state, "A1")}


def test_only_turbocharged_elements_may_start_at_very_high(engine: DifEngine) -> None:
    setup = DifSetup.model_validate(
        {
            "ruleset": "rotl",
            "year": 1942,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "f4f"},
                {"seat": "X1", "side": "axis", "aircraft": "bf-109e"},
            ],
        }
    )
    state, _ = engine.new_game(setup, 0)
    assert "alt VH" not in {str(a) for a in engine.legal_actions(state, "A1")}
    with pytest.raises(RuleViolation, match=r"\(4\.5\)"):
        engine.apply(state, "A1", Action.altitude("VH"))


def test_rotl_discards_each_exchange_zero_at_the_end_of_the_turn(
    engine: DifEngine, new_game: GameFactory, play: Play
) -> None:
    for ruleset, in_play in (("rotl", 0), ("zero", 2)):
        state = new_game(
            ruleset=ruleset,
            hands={"A1": ["MAN", "TIT", "BAR"], "X1": ["TIT", "BAR", "BAR", "MAN", "MAN", "HAL"]},
        )
        state = play(state, "A1", "stay")
        state = play(state, "A1", "play MAN X1L")
        state = play(state, "X1", "respond TIT")
        state = play(state, "A1", "pass")
        assert len(state.in_play) == in_play, ruleset
        state = play(state, "A1", "done")
        state = play(state, "A1", "discard")
        assert state.in_play == []


def _roll_game(engine: DifEngine, ruleset: str, position: dict[str, str]) -> GameState:
    """F4F (A1) and a Zero (X1) at Medium, a Ki-43 (X2) at High; the F4F moves first."""
    setup = DifSetup.model_validate(
        {
            "ruleset": ruleset,
            "year": 1941,
            "elements": [
                {"seat": "A1", "side": "allied", "aircraft": "f4f"},
                {"seat": "X1", "side": "axis", "aircraft": "a6m2"},
                {"seat": "X2", "side": "axis", "aircraft": "ki-43"},
            ],
            "altitudes": {"A1": "M", "X1": "M", "X2": "H"},
            "first_side": "allied",
            "order": ["A1", "X1", "X2"],
            "positions": [position] if position else [],
            "hands": {
                "A1": ["VER", "MAN", "IMS-1B1D", "TIT", "BAR"],
                "X1": ["MAN", "MAN", "TIT", "BAR", "BAR", "HAL"],
            },
        }
    )
    return engine.new_game(setup, 0)[0]


def test_bug_tailed_leader_rolled_away_and_attacked_another_enemy_rotl(
    engine: DifEngine, play: Play
) -> None:
    # RotL L212-214: Tailed by the Zero (Engaged), the F4F rolls up; the Zero lets it
    # go (no stop, no follow): Neutral at High, it still may not attack the Ki-43.
    tailed = {"leader": "X1", "on": "A1", "position": "Tailing"}
    state = _roll_game(engine, "rotl", tailed)
    for text in ("stay", "play VER up TIT"):
        state = play(state, "A1", text)
    state = play(state, "X1", "pass")
    state = play(state, "X1", "nofollow")
    assert state.elements["A1"].altitude == state.elements["X2"].altitude
    assert engine.engaged_with(state, "A1") is None
    legal = {str(a) for a in engine.legal_actions(state, "A1")}
    assert not {a for a in legal if a.startswith("play") and "X2" in a}, legal
    with pytest.raises(RuleViolation, match="L212-214"):
        engine.apply(state, "A1", Action.from_text("play MAN X2L"))


def test_a_leader_followed_through_its_roll_may_fight_its_follower_rotl(
    engine: DifEngine, play: Play
) -> None:
    # The Zero follows the F4F up (7.22): it was at the F4F's altitude, not found there.
    tailed = {"leader": "X1", "on": "A1", "position": "Tailing"}
    state = _roll_game(engine, "rotl", tailed)
    for text in ("stay", "play VER up TIT"):
        state = play(state, "A1", text)
    state = play(state, "X1", "pass")
    state = play(state, "X1", "follow BAR MAN")  # RotL: Tailing follows a VER climb for 1 + 1
    follow = next(a for a in engine.legal_actions(state, "A1") if str(a) == "play MAN X1L")
    state = engine.apply(state, "A1", follow)[0]
    assert [p.kind for p in engine.pending(state)] == ["respond"]


def test_a_leader_that_gave_up_its_position_may_roll_and_attack_rotl(
    engine: DifEngine, play: Play
) -> None:
    # RotL L170: giving up the position at the start of Play Cards frees the leader;
    # then the roll is its first card and it is not Engaged (L214).
    advantaged = {"leader": "A1", "on": "X1", "position": "Advantaged"}
    state = _roll_game(engine, "rotl", advantaged)
    for text in ("stay", "giveup", "play VER up TIT", "play MAN X2L"):
        state = play(state, "A1", text)
    assert [p.seat for p in engine.pending(state)] == ["X2"]


def test_a_roll_after_another_card_does_not_open_a_new_target_rotl(
    engine: DifEngine, play: Play
) -> None:
    # RotL L214 b: the roll must be the first card. (The one-target rule, 8.5b, already
    # keeps a leader that attacked the Zero from attacking anything else this turn.)
    state = _roll_game(engine, "rotl", {})
    for text in ("stay", "play MAN X1L"):
        state = play(state, "A1", text)
    state = play(state, "X1", "respond TIT")
    state = play(state, "A1", "pass")
    state = play(state, "A1", "play VER up TIT")
    assert not any(a.target == "X2L" for a in engine.legal_actions(state, "A1"))
    with pytest.raises(RuleViolation):
        engine.apply(state, "A1", Action.from_text("play MAN X2L"))
