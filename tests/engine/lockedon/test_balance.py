"""Point-balanced dogfights: VP with and without missiles, the modifier rule, skill
costs (C-L1), custom loads, the year (C-L3) and what a pick may choose."""

from __future__ import annotations

from typing import Any

import pytest

from engine.lockedon import balance
from engine.lockedon.components import MissileLoad, Rating, pair_cost
from engine.lockedon.game import LockedOnEngine


def _value(lo: LockedOnEngine, aircraft: str, custom: Any = None, **kw: Any) -> int:
    return balance.aircraft_value(
        lo.aircraft[aircraft], custom, lo.missiles, catalogue=lo.skills, **kw
    )


def test_lo01_the_f15_is_62_or_92_less_14_when_no_enemy_has_missiles(lo: LockedOnEngine) -> None:
    assert _value(lo, "f-15a", enemy_missiles=True) == 92
    assert _value(lo, "f-15a", enemy_missiles=False) == 78
    assert _value(lo, "f-15a", (), enemy_missiles=True) == 62
    assert _value(lo, "f-15a", (), enemy_missiles=False) == 48


def test_lo23_nugget_costs_ten_as_listed_not_the_examples_five(lo: LockedOnEngine) -> None:
    """C-L1: the List of Skills (L329-331) wins over the A-7D example (L323)."""
    assert lo.skills["nugget"].cost == -10 and lo.skills["eagle-eyes"].cost == 2
    value = _value(lo, "a-7d", (), enemy_missiles=True, skills=["nugget", "eagle-eyes"])
    assert value == 26 - 10 + 2 == 18
    assert balance.skill_cost(["guided-intercept-2", "edge-of-envelope"], lo.skills) == 16


def test_lo24_missile_pairs_are_priced_by_the_table(lo: LockedOnEngine) -> None:
    assert pair_cost(6, 1) == 11 and pair_cost(6, 2) == 16
    one = (MissileLoad(missile="aim-9g", count=2),)
    two = (MissileLoad(missile="aim-9g", count=4), MissileLoad(missile="aim-7f", count=2))
    assert _value(lo, "f-15a", one, enemy_missiles=True) == 62 + 11
    assert _value(lo, "f-15a", two, enemy_missiles=True) == 62 + 16 + 13


def _problem(lo: LockedOnEngine, aircraft: str, **kw: Any) -> str | None:
    args: dict[str, Any] = {
        "skills": (),
        "ratings": {},
        "custom": None,
        "year": None,
        "custom_allowed": False,
    }
    args.update(kw)
    why = balance.pick_problem(
        lo.aircraft[aircraft],
        args["skills"],
        args["ratings"],
        args["custom"],
        lo.skills,
        lo.missiles,
        year=args["year"],
        custom_allowed=args["custom_allowed"],
    )
    return None if why is None else why[0]


def test_lo02_c_l3_an_aircraft_flies_from_its_service_year(lo: LockedOnEngine) -> None:
    """C-L3: 'does not exceed the agreed year' (L70): service year <= battle year. The
    Kfir C2 (1976) fits a battle of 1976 or later (the example's 'during or after
    1970', L71, read as the battles it may fly in)."""
    assert _problem(lo, "kfir-c2", year=1976) is None
    assert _problem(lo, "kfir-c2", year=1990) is None
    assert _problem(lo, "kfir-c2", year=1975) == "too_late"
    assert _problem(lo, "kfir-c2") is None, "no year agreed"
    assert _value(lo, "kfir-c2", enemy_missiles=True) == 45, "fits a 45-point battle"


@pytest.mark.parametrize(
    ("skills", "ratings", "why"),
    [
        (("green",), {}, "ratings_missing"),
        (("green",), {"green": {Rating.SPEED: -1}}, None),
        (("green",), {"green": {Rating.SPEED: -1, Rating.EW: -1}}, "ratings_count"),
        (("green",), {"green": {Rating.SPEED: 1}}, "ratings_direction"),
        (("newbie",), {"newbie": {Rating.PERFORMANCE: -2}}, None),
        (("newbie",), {"newbie": {Rating.SPEED: -2}}, "rating_floor"),
        (("newbie",), {"newbie": {Rating.SPEED: -1, Rating.GUN: -1}}, None),
        (("newbie",), {"newbie": {Rating.SPEED: -1}}, "ratings_total"),
        (("ace",), {"ace": {Rating.SPEED: 1, Rating.PERFORMANCE: 1, Rating.GUN: 1}}, None),
        (("ace",), {"ace": {Rating.SPEED: 1, Rating.EW: 1, Rating.GUN: 1}}, "rating_dash"),
        (
            ("veteran",),
            {"veteran": {Rating.SPEED: 1, Rating.EW: 1, Rating.GUN: 1}},
            "ratings_count",
        ),
        (("skilled",), {"green": {Rating.SPEED: -1}}, "ratings_without_skill"),
        (("green",), {"green": {Rating.GUN: -1}}, None),
        (
            ("green", "newbie"),
            {"green": {Rating.GUN: -1}, "newbie": {Rating.GUN: -2}},
            "rating_floor",
        ),
        (("skilled",), {"skilled": {Rating.AFTERBURNER: 1}}, "rating_dash"),
        (("fighter-pilot",), {}, None),
        (("angle-0",), {}, "campaign_only"),
        (("nfod",), {}, "campaign_only"),
        (("nonsense",), {}, "unknown_skill"),
    ],
)
def test_rating_skills_choose_within_their_limits(
    lo: LockedOnEngine, skills: tuple[str, ...], ratings: dict[str, Any], why: str | None
) -> None:
    """Green/Skilled one rating by 1; Newbie/Veteran up to 2 by 2; Ace up to 3 by 3
    (L317, L330-371); nothing below its least value, no '-' changed. The A-4E has Gun 1,
    no Afterburners."""
    assert _problem(lo, "a-4e", skills=skills, ratings=ratings) == why


def test_fighter_pilot_needs_a_gun(lo: LockedOnEngine) -> None:
    assert _problem(lo, "f-4b", skills=("fighter-pilot",)) == "needs_gun"


def test_custom_loads_need_the_option_pairs_and_the_year(lo: LockedOnEngine) -> None:
    pair = (MissileLoad(missile="aim-9l", count=2),)
    assert _problem(lo, "f-15a", custom=pair) == "no_custom_loads"
    assert _problem(lo, "f-15a", custom=pair, custom_allowed=True) is None
    assert _problem(lo, "f-15a", custom=(), custom_allowed=False) is None, "no missiles"
    odd = (MissileLoad(missile="aim-9l", count=3),)
    assert _problem(lo, "f-15a", custom=odd, custom_allowed=True) == "pairs"
    late = dict(custom=pair, custom_allowed=True, year=1976)
    assert _problem(lo, "f-15a", **late) == "missile_too_late"
