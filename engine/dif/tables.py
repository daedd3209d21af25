"""Numeric tables of the basic game, per ruleset, as printed in the rulebooks."""

from __future__ import annotations

from engine.dif.components import Altitude, CardKind, Position, Ruleset
from engine.dif.texts import fixed
from strings import Term

__all__ = [
    "EVASION_LEVELS",
    "burst_bonus",
    "draw_modifier",
    "evasion_level",
    "evasion_result",
    "evasion_shift",
    "follow_cost",
    "victory_verdict",
    "wingman_modifiers",
]

# Zero! 6.4 / RotL L172-174: +1 Advantaged, +3 Tailing, never more than +3.
_BURST_BONUS: dict[int, int] = {Position.NEUTRAL: 0, Position.ADVANTAGED: 1, Position.TAILING: 3}


def burst_bonus(position: int) -> int | None:
    """Extra bursts for a leader's position on its target; None: may not fire (6.4)."""
    return _BURST_BONUS.get(position)  # a Position is its int: the same key


def _effective(altitude: int, turbocharged: bool) -> int:
    """The altitude (an :class:`Altitude` or its value) whose modifiers apply."""
    # Turbocharged aircraft treat Very High as High and High as Medium
    # (Zero! 5.23 bis / 5.33, RotL L121). Zero! 7.4 reads "no change" instead (C-Z2);
    # we follow the specific turbocharger rules, which RotL's table (L119-120) repeats.
    if turbocharged and altitude >= Altitude.HIGH:
        return altitude - 1
    return altitude


_DRAW_MODIFIER: dict[int, int] = {
    Altitude.VERY_LOW: 1,
    Altitude.LOW: 1,
    Altitude.MEDIUM: 0,
    Altitude.HIGH: -1,
    Altitude.VERY_HIGH: -2,
}


def draw_modifier(altitude: int, turbocharged: bool) -> int:
    """Leader draw (Zero! Performance / RotL Horsepower) change at an altitude (7.4),
    an :class:`Altitude` or its value."""
    return _DRAW_MODIFIER[_effective(altitude, turbocharged)]


def wingman_modifiers(altitude: int, turbocharged: bool) -> tuple[int, int]:
    """(offensive, defensive) change of a wingman's ratings at an altitude (7.5), an
    :class:`Altitude` or its value."""
    eff = _effective(altitude, turbocharged)
    if eff == Altitude.VERY_HIGH:
        return (-1, -1)
    if eff == Altitude.HIGH:
        return (0, -1)
    return (0, 0)


def follow_cost(ruleset: Ruleset, follower: Position, climbing: bool, vertical: bool) -> int:
    """Cards a follower discards to follow an altitude change (7.21d, 7.22).

    Following in the Adjust Altitude step: Tailing is free, Advantaged discards one;
    climbing costs one more card (7.21b). After a Vertical Roll nobody follows for
    free. Zero! 7.22 and its 14.0 example (the Advantaged Ki-43 discards one card to
    follow a Vertical Roll dive) charge one card; RotL's quick reference (L88-98)
    charges Advantaged two and Tailing one (C-X5), so each ruleset uses its own.
    """
    if not vertical:
        base = 0 if follower is Position.TAILING else 1
    elif ruleset is Ruleset.ROTL:
        base = 1 if follower is Position.TAILING else 2
    else:
        base = 1
    return base + (1 if climbing else 0)


EVASION_LEVELS = "ABCDEFGHI"


def evasion_level(kind: CardKind, bursts: int, fuel_tank: bool) -> int:
    """Table level (0 = A ... 8 = I) of the card drawn (Zero! 12.0, RotL L294-306)."""
    if kind is CardKind.IMS:
        if fuel_tank:
            return 0
        return {3: 2, 2: 3, 1: 4}[bursts]
    if kind is CardKind.OOS:
        return 1
    if kind is CardKind.MAN:
        return 5
    if kind is CardKind.HAL:
        return 6
    if kind is CardKind.ACE:
        return 8
    return 7


def evasion_shift(
    ruleset: Ruleset,
    position: int,
    damaged: bool,
    enemies_present: bool,
    *,
    jet: bool = False,
    rocket: bool = False,
    fuel: bool = False,
    late_mission: int = 0,
    heavy_bomber: bool = False,
) -> int:
    """Level change, in table rows toward I, for an evasion / disengagement (Zero! 12.0
    table L864-901, RotL Disengagement Table L294-324), with every printed modifier.

    The tables say "down" (toward I, escaping) and "up" (toward A, destroyed):

    * position (a wingman uses its leader's): Tailing down 2, Advantaged down 1,
      Disadvantaged up 1, Tailed up 2; Damaged up 1; no enemy fighter at the same
      altitude down 3;
    * voluntary: Zero!'s "Voluntary Dispersal" down 1 for every aircraft; RotL's down 1
      only for aircraft with a Speed or Thrust rating (``jet``, C-X3);
    * RotL Fuel Disengagement (campaign): up 1, or up 3 for a rocket fighter; it
      replaces the voluntary row;
    * non-dogfight missions, attacker only: up 1 for each "6+ turns" condition met
      (``late_mission``: target-bound turn 6+, over target after 6+ target-bound
      turns, home-bound with 6+ turns to go);
    * a Heavy Bomber: RotL down 1, Zero! up 1 (the tables differ, C-X2).

    The basic game uses position, damage, enemies present and the voluntary row.
    """
    shift = int(position)
    if damaged:
        shift -= 1
    if not enemies_present:
        shift += 3
    if fuel and ruleset is Ruleset.ROTL:
        shift -= 3 if rocket else 1
    elif ruleset is Ruleset.ZERO or jet:
        shift += 1
    shift -= late_mission
    if heavy_bomber:
        shift += 1 if ruleset is Ruleset.ROTL else -1
    return shift


def evasion_result(ruleset: Ruleset, level: int, damaged: bool) -> str:
    """``destroyed``, ``damaged`` or ``escapes`` for a final level.

    A modified level beyond A or I is read as A or I (the tables are silent, G-R7).
    Level C destroys in Zero! but damages in RotL (C-X1). A "Damaged" result on an
    aircraft already damaged is a safe escape (both tables).
    """
    level = min(max(level, 0), 8)
    if level <= 1 or (level == 2 and ruleset is Ruleset.ZERO):
        return "destroyed"
    if level <= 4:
        return "escapes" if damaged else "damaged"
    return "escapes"


# RotL Basic Game Dogfight Victory Point Table (L67-76): one column per two aircraft
# from 4-5 up to 14-15. Each column c: decisive at 6 + 3c, marginal from 2 + c.
def victory_verdict(
    ruleset: Ruleset, axis_vp: int, allied_vp: int, aircraft: int
) -> tuple[str | None, Term]:
    """(winning side or None, verdict text) at the end of a dogfight."""
    if ruleset is Ruleset.ZERO:
        # Zero! 4.92: the side with the higher score wins; no graded table.
        if axis_vp == allied_vp:
            return None, fixed("dif.verdict.draw")
        if axis_vp > allied_vp:
            return "axis", fixed("dif.verdict.zero.axis")
        return "allied", fixed("dif.verdict.zero.allied")
    # The table has no column for 2-3 or 16+ aircraft (G-R6): use the nearest one.
    column = min(max((aircraft - 4) // 2, 0), 5)
    score = axis_vp - allied_vp
    decisive, marginal = 6 + 3 * column, 2 + column
    if score >= decisive:
        return "axis", fixed("dif.verdict.rotl.axis_decisive")
    if score >= marginal:
        return "axis", fixed("dif.verdict.rotl.axis_marginal")
    if score <= -decisive:
        return "allied", fixed("dif.verdict.rotl.allied_decisive")
    if score <= -marginal:
        return "allied", fixed("dif.verdict.rotl.allied_marginal")
    return None, fixed("dif.verdict.draw")
