"""The numeric tables of the basic game (engine/dif/tables.py), row by row."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dif import tables
from engine.dif.components import Altitude, CardKind, Position, Ruleset
from engine.dif.game import DifEngine

A = Altitude
P = Position
R = Ruleset


# --- bursts (Zero! 6.4, RotL L172-174) --------------------------------------------------
@pytest.mark.parametrize(
    ("position", "bonus"),
    [(P.TAILED, None), (P.DISADVANTAGED, None), (P.NEUTRAL, 0), (P.ADVANTAGED, 1), (P.TAILING, 3)],
)
def test_burst_bonus_by_position_and_none_when_the_leader_may_not_fire(
    position: Position, bonus: int | None
) -> None:
    assert tables.burst_bonus(position) == bonus


# --- draw (Zero! 5.23 / 7.4, RotL L100, L116-121) -----------------------------------------
@pytest.mark.parametrize(
    ("altitude", "normal", "turbo"),
    [
        (A.VERY_LOW, 1, 1),
        (A.LOW, 1, 1),
        (A.MEDIUM, 0, 0),
        (A.HIGH, -1, 0),  # turbocharged: High counts as Medium
        (A.VERY_HIGH, -2, -1),  # turbocharged: Very High counts as High (C-Z2, C-R1)
    ],
)
def test_draw_modifier_by_altitude_with_and_without_turbocharger(
    altitude: Altitude, normal: int, turbo: int
) -> None:
    assert tables.draw_modifier(altitude, turbocharged=False) == normal
    assert tables.draw_modifier(altitude, turbocharged=True) == turbo


# --- wingmen (Zero! 5.32-5.33 / 7.5, RotL L141-144) ---------------------------------------
@pytest.mark.parametrize(
    ("altitude", "normal", "turbo"),
    [
        (A.VERY_LOW, (0, 0), (0, 0)),
        (A.LOW, (0, 0), (0, 0)),
        (A.MEDIUM, (0, 0), (0, 0)),
        (A.HIGH, (0, -1), (0, 0)),
        (A.VERY_HIGH, (-1, -1), (0, -1)),
    ],
)
def test_wingman_offensive_and_defensive_modifiers_by_altitude(
    altitude: Altitude, normal: tuple[int, int], turbo: tuple[int, int]
) -> None:
    assert tables.wingman_modifiers(altitude, turbocharged=False) == normal
    assert tables.wingman_modifiers(altitude, turbocharged=True) == turbo


# --- following an altitude change (Zero! 7.21d, 7.22; RotL L88-98) ------------------------
@pytest.mark.parametrize(
    ("ruleset", "follower", "climbing", "vertical", "cost"),
    [
        # Adjust Altitude step: the same in both rulebooks.
        (R.ZERO, P.TAILING, False, False, 0),
        (R.ZERO, P.TAILING, True, False, 1),
        (R.ZERO, P.ADVANTAGED, False, False, 1),
        (R.ZERO, P.ADVANTAGED, True, False, 2),
        (R.ROTL, P.TAILING, False, False, 0),
        (R.ROTL, P.TAILING, True, False, 1),
        (R.ROTL, P.ADVANTAGED, False, False, 1),
        (R.ROTL, P.ADVANTAGED, True, False, 2),
        # Vertical Roll: RotL's quick reference L89-98 ...
        (R.ROTL, P.TAILING, False, True, 1),
        (R.ROTL, P.TAILING, True, True, 2),
        (R.ROTL, P.ADVANTAGED, False, True, 2),
        (R.ROTL, P.ADVANTAGED, True, True, 3),
        # ... and Zero! 7.22 / 14.0: one card instead of the free follow (C-X5).
        (R.ZERO, P.TAILING, False, True, 1),
        (R.ZERO, P.TAILING, True, True, 2),
        (R.ZERO, P.ADVANTAGED, False, True, 1),
        (R.ZERO, P.ADVANTAGED, True, True, 2),
    ],
)
def test_follow_cost_per_ruleset_position_direction_and_vertical_roll(
    ruleset: Ruleset, follower: Position, climbing: bool, vertical: bool, cost: int
) -> None:
    assert tables.follow_cost(ruleset, follower, climbing, vertical) == cost


# --- evasion (Zero! 12.0 table L864-901, RotL L294-324) -----------------------------------
def test_evasion_level_of_every_card_in_the_deck(engine: DifEngine) -> None:
    want = {
        "IMS-2BFT": "A",
        "OOS-1B2D": "B",
        "OOS-2B3D": "B",
        "OOS-3B4D": "B",
        "IMS-3B3D": "C",
        "IMS-2B2D": "D",
        "IMS-2B3D": "D",
        "IMS-1B1D": "E",
        "IMS-1B2D": "E",
        "MAN": "F",
        "HAL": "G",
        "TIT": "H",
        "BAR": "H",
        "VER": "H",
        "SCI": "H",
        "ACE": "I",
        "FUT": "H",  # RotL deck only: "Any Other Card"
    }
    got = {}
    for card in engine.cards:
        t = card.type
        got[t.code] = tables.EVASION_LEVELS[tables.evasion_level(t.kind, t.bursts, t.fuel_tank)]
    assert got == want
    assert tables.EVASION_LEVELS[tables.evasion_level(CardKind.FUT, 0, False)] == "H"


@pytest.mark.parametrize(
    ("level", "zero", "rotl"),
    [
        ("A", "destroyed", "destroyed"),
        ("B", "destroyed", "destroyed"),
        ("C", "destroyed", "damaged"),  # C-X1
        ("D", "damaged", "damaged"),
        ("E", "damaged", "damaged"),
        ("F", "escapes", "escapes"),
        ("G", "escapes", "escapes"),
        ("H", "escapes", "escapes"),
        ("I", "escapes", "escapes"),
    ],
)
def test_evasion_result_of_every_level_in_both_rulesets(level: str, zero: str, rotl: str) -> None:
    n = tables.EVASION_LEVELS.index(level)
    assert tables.evasion_result(R.ZERO, n, damaged=False) == zero
    assert tables.evasion_result(R.ROTL, n, damaged=False) == rotl


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_a_damaged_result_on_a_damaged_aircraft_is_an_escape(ruleset: Ruleset) -> None:
    for n in range(9):
        undamaged = tables.evasion_result(ruleset, n, damaged=False)
        damaged = tables.evasion_result(ruleset, n, damaged=True)
        assert damaged == ("escapes" if undamaged == "damaged" else undamaged)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_evasion_levels_past_a_or_i_read_as_a_or_i(ruleset: Ruleset) -> None:
    assert tables.evasion_result(ruleset, -4, damaged=False) == "destroyed"
    assert tables.evasion_result(ruleset, 12, damaged=False) == "escapes"


@pytest.mark.parametrize(
    ("position", "damaged", "enemies", "zero", "rotl"),
    [
        (P.NEUTRAL, False, True, 1, 0),  # Zero! Voluntary Dispersal down 1; RotL: jets only
        (P.TAILING, False, True, 3, 2),  # down 2 = toward I (escape)
        (P.ADVANTAGED, False, True, 2, 1),
        (P.DISADVANTAGED, False, True, 0, -1),  # up 1 = toward A
        (P.TAILED, False, True, -1, -2),
        (P.NEUTRAL, True, True, 0, -1),  # damaged up 1
        (P.NEUTRAL, False, False, 4, 3),  # no enemy at the same altitude down 3
        (P.TAILED, True, False, 1, 0),
    ],
)
def test_evasion_shift_direction_and_modifiers(
    position: Position, damaged: bool, enemies: bool, zero: int, rotl: int
) -> None:
    assert tables.evasion_shift(R.ZERO, position, damaged, enemies) == zero
    assert tables.evasion_shift(R.ROTL, position, damaged, enemies) == rotl


@pytest.mark.parametrize(
    ("ruleset", "flags", "shift"),
    [
        (R.ROTL, {"jet": True}, 1),  # RotL: voluntary, Speed or Thrust rating: down 1
        (R.ROTL, {"fuel": True}, -1),  # Fuel Disengagement, non-rocket: up 1
        (R.ROTL, {"fuel": True, "rocket": True, "jet": True}, -3),  # rocket: up 3
        (R.ROTL, {"late_mission": 2}, -2),  # two "6+ turns" conditions: up 1 each
        (R.ZERO, {"late_mission": 1}, 0),  # Zero!: voluntary down 1, then up 1
        (R.ROTL, {"heavy_bomber": True}, 1),  # RotL: Heavy Bomber down 1
        (R.ZERO, {"heavy_bomber": True}, 0),  # Zero!: Heavy Bomber up 1 (after down 1)
    ],
)
def test_evasion_shift_campaign_modifiers(
    ruleset: Ruleset, flags: dict[str, Any], shift: int
) -> None:
    assert tables.evasion_shift(ruleset, P.NEUTRAL, False, True, **flags) == shift


# --- victory (Zero! 4.92; RotL table L67-75) ----------------------------------------------
# One row per column of the RotL table: (aircraft, decisive from, marginal from).
ROTL_COLUMNS = [(4, 6, 2), (6, 9, 3), (8, 12, 4), (10, 15, 5), (12, 18, 6), (14, 21, 7)]


@pytest.mark.parametrize(("low", "decisive", "marginal"), ROTL_COLUMNS)
def test_rotl_victory_table_every_column_and_boundary(
    low: int, decisive: int, marginal: int
) -> None:
    for aircraft in (low, low + 1):  # each column covers two counts, e.g. "4 to 5"

        def verdict(score: int, n: int = aircraft) -> str:
            axis, allied = (score, 0) if score >= 0 else (0, -score)
            return tables.victory_verdict(R.ROTL, axis, allied, n)[1]

        assert verdict(decisive) == "Axis Decisive Victory"
        assert verdict(decisive + 10) == "Axis Decisive Victory"
        assert verdict(decisive - 1) == "Axis Marginal Victory"
        assert verdict(marginal) == "Axis Marginal Victory"
        assert verdict(marginal - 1) == "Draw"
        assert verdict(0) == "Draw"
        assert verdict(-(marginal - 1)) == "Draw"
        assert verdict(-marginal) == "Allies Marginal Victory"
        assert verdict(-(decisive - 1)) == "Allies Marginal Victory"
        assert verdict(-decisive) == "Allies Decisive Victory"


def test_rotl_verdict_names_the_winning_side() -> None:
    assert tables.victory_verdict(R.ROTL, 7, 0, 4) == ("axis", "Axis Decisive Victory")
    assert tables.victory_verdict(R.ROTL, 0, 3, 4) == ("allied", "Allies Marginal Victory")
    assert tables.victory_verdict(R.ROTL, 2, 2, 4) == (None, "Draw")


@pytest.mark.parametrize(("aircraft", "column_of"), [(2, 4), (3, 4), (16, 14), (17, 14), (40, 14)])
def test_rotl_aircraft_counts_outside_the_table_use_the_nearest_column(
    aircraft: int, column_of: int
) -> None:
    # G-R6: the table starts at 4-5 and stops at 14-15 aircraft.
    for score in range(-25, 26):
        axis, allied = (score, 0) if score >= 0 else (0, -score)
        assert tables.victory_verdict(R.ROTL, axis, allied, aircraft) == tables.victory_verdict(
            R.ROTL, axis, allied, column_of
        )


def test_zero_higher_score_wins_else_a_draw() -> None:
    # 4.92 example: Japanese 4, Allies 7 - the Allies win.
    assert tables.victory_verdict(R.ZERO, 4, 7, 4) == ("allied", "Allied victory")
    assert tables.victory_verdict(R.ZERO, 1, 0, 4) == ("axis", "Japanese victory")
    assert tables.victory_verdict(R.ZERO, 5, 5, 12) == (None, "Draw")
