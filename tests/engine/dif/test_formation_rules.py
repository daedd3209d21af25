"""Attacking bombers in formation, rule by rule (engine/dif/formation.py; Zero! §17.2,
§20, §21.6, §24.61), with the rulebook's worked examples Z-17, Z-18, Z-20 and Z-26."""

from __future__ import annotations

import pytest

from engine.dif.campaign_data import (
    AircraftClass,
    load_bombing_chart,
    load_scoresheets,
    load_targets,
)
from engine.dif.components import Altitude, Card, CardKind
from engine.dif.formation import (
    Angle,
    BomberAnswer,
    Supporter,
    answer,
    attack_refusal,
    award_vp,
    bomber_response_refusal,
    choice_bonus,
    defence_cards,
    formation_speed,
    leader_bursts,
    saturation_cards,
    wingman_minihand,
)
from engine.dif.game import default_engine

ENGINE = default_engine()
AIRCRAFT = ENGINE.aircraft
CHART = load_bombing_chart()


def card(code: str, *, rejected: bool) -> Card:
    """A card of the deck with this code, with (or without) a Rejected Attack."""
    return next(c for c in ENGINE.cards if c.type.code == code and c.spoiled_attack is rejected)


def bomber(aircraft: str, *, damaged: bool = False, crew: tuple[str, ...] = ()) -> Supporter:
    sides = AIRCRAFT[aircraft].formation
    assert sides is not None
    return Supporter(sides.damaged if damaged else sides.undamaged, crew)


def test_z17_a_wingman_draws_offensive_plus_defensive_against_bombers() -> None:
    # §20.13 L1315: a P-40B wingman draws three, an A6M2 Zero wingman four.
    p40 = AIRCRAFT["p-40b"].wingman
    zero = AIRCRAFT["a6m2"].wingman
    assert p40 is not None and zero is not None
    assert wingman_minihand(p40.undamaged) == 3
    assert wingman_minihand(zero.undamaged) == 4
    # §20.31: the Angle of Attack changes the Offensive part; §19.35 EA takes one off.
    assert wingman_minihand(zero.undamaged, angle=Angle.REAR) == 5
    assert wingman_minihand(zero.undamaged, angle=Angle.FRONTAL, evasive=True) == 2
    assert wingman_minihand(p40.undamaged, angle=Angle.FRONTAL, evasive=True) == 2


def test_a_leader_has_two_more_bursts_and_earns_more_with_man_and_hal() -> None:
    # §20.22: +2 against a bomber, +1 per successful MAN, +2 per successful HAL.
    ratings = AIRCRAFT["a6m2"].leader_card.undamaged
    gained = choice_bonus(CardKind.MAN) + choice_bonus(CardKind.HAL)
    assert gained == 3
    assert choice_bonus(CardKind.TIT) == 0
    assert leader_bursts(ratings) == ratings.bursts + 2
    assert leader_bursts(ratings, gained=gained) == ratings.bursts + 5
    assert leader_bursts(ratings, angle=Angle.REAR) == ratings.bursts + 3
    assert leader_bursts(ratings, angle=Angle.FRONTAL, evasive=True) == ratings.bursts


def test_only_man_hal_ims_and_oos_are_played_against_a_formation() -> None:
    # §20.42; a Loaded fighter's MAN / HAL are allowed against formations (§17.15).
    for kind in (CardKind.MAN, CardKind.HAL, CardKind.IMS, CardKind.OOS):
        assert attack_refusal(kind) is None
    for kind in (CardKind.SCI, CardKind.TIT, CardKind.FUT, CardKind.VER):
        why = attack_refusal(kind)
        assert why is not None and why.key == "dif.mission.refuse.formation_card"
        assert "20.42" in why.term()


def test_z18_the_b17s_defence_and_responses() -> None:
    # L1391-1408: a Zero wingman (mini-hand 4) attacks the B-17E with 7 Damage (still
    # undamaged: capacity 10) in a formation of two.
    assert wingman_minihand(AIRCRAFT["a6m2"].wingman.undamaged) == 4  # type: ignore[union-attr]
    target, other = bomber("b-17e"), bomber("b-17e")
    # §20.41: Turret Defensive 2 + the other's Turret Support 1.
    assert defence_cards(target, [other]) == 3
    # The Maneuvering that chose the bomber is not answerable by the bomber (§20.43).
    why = bomber_response_refusal(CardKind.MAN, card("IMS-1B1D", rejected=False))
    assert why is not None and why.key == "dif.mission.refuse.bomber_no_response"
    # The wingman's In My Sights: the B-17's Maneuvering with a Rejected Attack rejects
    # it, and nothing may answer that (§20.53).
    man = card("MAN", rejected=True)
    assert bomber_response_refusal(CardKind.IMS, man) is None
    assert answer(man) == BomberAnswer(rejected=True, counter=False)
    # C-Z10: the Out of the Sun "(2B/2D)" that scores 3 Damage is the deck's OOS-2B3D.
    oos = card("OOS-2B3D", rejected=False)
    assert oos.type.damage == 3
    # The B-17's In My Sights (2 Damage): the attack succeeds (7 + 3 = 10 Damage, the
    # B-17 is Damaged) and the Zero takes 2 unless it answers (§20.52).
    ims = card("IMS-1B2D", rejected=False)
    assert bomber_response_refusal(CardKind.OOS, ims) is None
    effect = answer(ims)
    assert not effect.rejected and effect.counter and ims.type.damage == 2
    assert 7 + oos.type.damage >= bomber("b-17e").ratings.damage_capacity
    # Damaged, it leaves the formation (§17.28): the other B-17 then draws alone.
    assert defence_cards(other, []) == 2


def test_a_bomber_answers_only_with_bursts_or_a_rejected_attack() -> None:
    # §20.51: a Tight Turn without a Rejected Attack is no answer.
    why = bomber_response_refusal(CardKind.OOS, card("TIT", rejected=False))
    assert why is not None and why.key == "dif.mission.refuse.bomber_response"
    assert "20.51" in why.term()
    # §20.54: an In My Sights with a Rejected Attack both rejects and counter-attacks.
    both = card("IMS-2B2D", rejected=True)
    assert bomber_response_refusal(CardKind.IMS, both) is None
    assert answer(both).rejected and answer(both).counter
    # §19.35 AC: the Ace Crew's counter-attack card gains a Rejected Attack.
    plain = card("IMS-2B2D", rejected=False)
    assert not answer(plain).rejected
    assert answer(plain, ace=True).rejected
    assert not answer(card("MAN", rejected=False), ace=True).rejected


def test_crews_and_the_angle_change_the_defence_in_total() -> None:
    target, other = bomber("b-17e", crew=("TD",)), bomber("b-17e", crew=("TS",))
    assert defence_cards(target, [other]) == 2 + 1 + 1 + 1
    # §20.31: Frontal one fewer, Rear two more, in total (not per bomber).
    plain = [bomber("b-17e"), bomber("b-17e")]
    assert defence_cards(plain[0], plain[1:], angle=Angle.FRONTAL) == 2
    assert defence_cards(plain[0], plain[1:], angle=Angle.REAR) == 5
    assert defence_cards(plain[0], plain[1:], angle=Angle.BEAM) == 3
    # A Damaged bomber's own side: Turret Defensive 1, never below 0 in Frontal.
    lone = bomber("b-17e", damaged=True)
    assert defence_cards(lone, []) == 1
    assert defence_cards(lone, [], angle=Angle.FRONTAL) == 0


def test_z20_saturation_with_the_norden_and_the_naval_errata() -> None:
    b17 = AIRCRAFT["b-17e"]
    # §21.62 L1521: Saturation 6, +2 Norden against a Ground Target.
    assert saturation_cards(CHART, b17, damaged=False, altitude=Altitude.HIGH, naval=False) == 8
    # C-Z11, errata L1193: no Norden cards against a Naval Target.
    assert saturation_cards(CHART, b17, damaged=False, altitude=Altitude.HIGH, naval=True) == 6
    # §17.27: Damaged, the damaged side's factor (3); §19.35 BD: one more.
    damaged = saturation_cards(
        CHART, b17, damaged=True, altitude=Altitude.HIGH, naval=False, crew=("BD",)
    )
    assert damaged == 3 + 2 + 1


def test_a_fighter_cannot_saturation_bomb() -> None:
    with pytest.raises(ValueError, match=r"21\.61"):
        saturation_cards(
            CHART, AIRCRAFT["a6m2"], damaged=False, altitude=Altitude.HIGH, naval=False
        )


def test_return_home_flies_at_the_slowest_surviving_bomber() -> None:
    # §23.7: a B-17E (5) with fighters (6): 5; nobody left: None.
    assert formation_speed([AIRCRAFT["b-17e"], AIRCRAFT["a6m2"]]) == 5
    assert formation_speed([]) is None


def test_z26_four_g4ms_and_two_zeros_against_two_p40s_at_the_docks() -> None:
    # §24.61 L1894 (errata): 8 Damage on the Docks, both P-40Bs destroyed, one G4M
    # destroyed, one damaged, two back undamaged from Over the Target; the Zeros too.
    land = load_scoresheets().land.awards
    g4m = land[AircraftClass.MEDIUM_BOMBER]
    fighter = land[AircraftClass.FIGHTER]
    japanese = load_targets()["docks"].level(8).vp
    allied = 0
    flown = [
        (g4m, True, False, True),
        (g4m, False, True, True),
        (g4m, False, False, True),
        (g4m, False, False, True),
        (fighter, False, False, True),
        (fighter, False, False, True),
    ]
    for award, destroyed, damaged, over in flown:
        theirs, ours = award_vp(award, destroyed=destroyed, damaged=damaged, over_target=over)
        allied += theirs
        japanese += ours
    for _ in range(2):  # the P-40Bs, destroyed defending the Docks
        theirs, _ours = award_vp(fighter, destroyed=True, damaged=False, over_target=False)
        japanese += theirs
    assert (japanese, allied) == (26, 15)
