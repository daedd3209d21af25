"""Ratings as they stand in play: the printed counter, changed by damage, altitude,
bombs, rockets and the pilot.

* Damage lowers printed ratings (§10.84 Wing: Dive -2, Agility -1; §10.85 Control:
  Agility -2; §10.86 Engine: Speed -2, Climb -1), never below 0 (§10.81).
* Bombs: Climb and Agility -1 (§15.31); Le Prieur rockets: Agility -1 until fired
  (§15.56).
* High altitude: Climb, Speed and Agility -2 unless the aircraft has a High Altitude
  Engine (§11.23), which an Engine hit loses (§13.42). McCudden always has one; he
  adds 1 to Speed; Guynemer adds 2 to Agility (§18.0).
* Aces' asterisked abilities are lost while wounded (§18.0, G-E1 in
  docs/rules-decisions.md).

The cap of §8.14 (a card's Maneuver Rating never above the Performance Rating it is
used with) and the pilot's -1 (§10.87 wounded, §14.22 Green, §14.31 Inexperienced)
are applied to the card in :func:`card_value`.
"""

from __future__ import annotations

from engine.eagles.components import Aircraft, Card, Characteristic, DefenceClass
from engine.eagles.state import Plane

__all__ = [
    "RATINGS",
    "card_value",
    "defence",
    "high_altitude_engine",
    "rating",
    "sustained_climb",
]

RATINGS = ("climb", "dive", "speed", "agility")
HIGH = 3
TREETOP = 0


def high_altitude_engine(ac: Aircraft, p: Plane) -> bool:
    """The High Altitude Engine (§13.4), lost with an Engine hit (§13.42); McCudden's
    aircraft always has one (§18.0: not asterisked)."""
    if p.has("high_altitude_engine"):
        return True
    return Characteristic.HIGH_ALTITUDE_ENGINE in ac.characteristics and not p.damage.get(
        "engine", 0
    )


def _damaged(ac: Aircraft, p: Plane, name: str) -> int:
    value: int = getattr(ac, name)
    wing = min(p.damage.get("wing", 0), 1)
    control = min(p.damage.get("control", 0), 1)
    engine = min(p.damage.get("engine", 0), 1)
    if name == "dive":
        value -= 2 * wing
    elif name == "agility":
        value -= wing + 2 * control
    elif name == "speed":
        value -= 2 * engine
    elif name == "climb":
        value -= engine
    return max(value, 0)


def rating(ac: Aircraft, p: Plane, name: str, *, altitude: int | None = None) -> int:
    """A Performance Rating now (``name``: climb, dive, speed, agility).

    May be negative at High altitude (§11.24 then forces a dive). ``altitude``: the
    rating at another altitude (may the aircraft climb there?)."""
    value = _damaged(ac, p, name)
    if p.bombs and name in ("climb", "agility"):
        value -= 1
    if p.rockets and name == "agility":
        value -= 1
    if name == "speed" and p.has("speed_plus_1"):
        value += 1
    if name == "agility" and p.has("agility_plus_2"):
        value += 2
    alt = p.altitude if altitude is None else altitude
    if alt == HIGH and name != "dive" and not high_altitude_engine(ac, p):
        value -= 2
    return value


def defence(ac: Aircraft, p: Plane) -> DefenceClass | None:
    """The defence class now: one step lower after the second Structure hit (the third
    of an AEG GIV, §10.83, §13.74); None: the hit that lowers Fragile shoots it down."""
    lowering = ac.structure_hits_to_destroy - 1
    if p.damage.get("structure", 0) >= lowering:
        if ac.defence is DefenceClass.FRAGILE:
            return None
        return DefenceClass(ac.defence - 1)
    return ac.defence


def sustained_climb(climb: int) -> int:
    """The Sustained Rate of Climb (§11.42): one third of the Climb Rating, rounded to
    the nearest (0-1: 0, 2-4: 1, 5-7: 2, 8-9: 3). The table stops at 9 (G-E11); the
    formula goes on."""
    if climb <= 1:
        return 0
    return (climb + 1) // 3


def card_value(
    ac: Aircraft,
    p: Plane,
    card: Card,
    symbol: str,
    *,
    capped: bool,
    as_medal: bool = False,
    plus: bool = False,
    pilot_penalty: bool = False,
) -> int:
    """The Maneuver Rating of ``card`` used with ``symbol``'s rating.

    ``capped``: §8.14 applies (Targeted Activations, Responses, Escapes, climbs),
    except for a Medal Maneuver, always 4 (Loerzer ignores §8.14, §18.0).
    ``pilot_penalty``: a Targeted Activation or Response, where a Green or
    Inexperienced pilot plays the card at -1 (§14.22, §14.31; not in a Fokker DVII,
    §13.72). A wounded pilot plays every card at -1 (§10.87). ``plus``: Rickenbacker's
    or Collishaw's +1, to which §8.14 still applies (§18.0).
    """
    medal = as_medal or card.special == "medal"
    value = 4 if medal else card.rating
    if plus:
        value += 1
    if p.crew.get("pilot") == "wounded":
        value -= 1
    if pilot_penalty and p.quality in ("green", "inexperienced") and not p.has("easy_handling"):
        value -= 1
    if capped and not medal and not p.has("ignores_performance_cap"):
        value = min(value, max(rating(ac, p, symbol), 0))
    return max(value, 0)
