"""Ratings as they stand in play: the printed card, changed by skills, then by altitude.

Skills change ratings once, at the start (Green, Newbie, Skilled, Veteran, Ace, Grit,
Fighter Pilot: L317, L330-371); the change is kept in :attr:`Plane.mods`. Altitude
changes Thrust/Afterburner, Performance and EW while the aircraft is there (L206-216).
"""

from __future__ import annotations

from engine.lockedon.components import Aircraft, Altitude, Rating
from engine.lockedon.state import Plane

__all__ = ["Ratings", "afterburner_draw", "ew", "gun", "performance", "speed", "thrust"]


def _mod(p: Plane, rating: Rating) -> int:
    return p.mods.get(rating.value, 0)


def _alt(p: Plane) -> Altitude:
    return Altitude(p.altitude if p.altitude is not None else Altitude.MEDIUM)


def speed(ac: Aircraft, p: Plane) -> int:
    """Speed (L15, L111); altitude does not change it."""
    return ac.speed + _mod(p, Rating.SPEED)


def performance(ac: Aircraft, p: Plane) -> int:
    """The hand limit when drawing (L16): High +1; Low -1 if the Performance is
    normally 7 or higher (L209, L214). "Normally" is the aircraft's Performance with
    its skills, at Medium (G-L6, docs/rules-decisions.md)."""
    base = ac.performance + _mod(p, Rating.PERFORMANCE)
    alt = _alt(p)
    if alt is Altitude.HIGH:
        return base + 1
    if alt is Altitude.LOW and base >= 7:
        return base - 1
    return base


def _altitude_draw(p: Plane, value: int) -> int:
    # L208, L213: Thrust/Afterburner ratings are 1 lower at High, 1 higher at Low.
    alt = _alt(p)
    if alt is Altitude.HIGH:
        return value - 1
    if alt is Altitude.LOW:
        return value + 1
    return value


def thrust(ac: Aircraft, p: Plane, *, post_turn: bool) -> int:
    """The Thrust draw (L17-18), or the A/B draw while the Afterburners are on (L101);
    may be -1 at High (stalling, L226)."""
    if p.ab_on and ac.has_afterburners:
        return afterburner_draw(ac, p, post_turn=post_turn)
    base = (ac.thrust_post if post_turn else ac.thrust_pre) + _mod(p, Rating.THRUST)
    return _altitude_draw(p, base)


def afterburner_draw(ac: Aircraft, p: Plane, *, post_turn: bool) -> int:
    """The A/B draw (L17, L101) with skills and altitude."""
    printed = ac.ab_post if post_turn else ac.ab_pre
    assert printed is not None
    return _altitude_draw(p, printed + _mod(p, Rating.AFTERBURNER))


def gun(ac: Aircraft, p: Plane) -> int | None:
    """The Gun Rating (L19); None for a "-": no gun attacks."""
    if ac.gun is None:
        return None
    return ac.gun + _mod(p, Rating.GUN)


def ew(ac: Aircraft, p: Plane) -> int:
    """The EW rating (L20): High -1, Low +1, also for a "-" EW, read as 0 (L210,
    L215-216). It may be -1: enemy missiles then draw one card more (L254)."""
    base = (ac.ew or 0) + _mod(p, Rating.EW)
    alt = _alt(p)
    if alt is Altitude.HIGH:
        return base - 1
    if alt is Altitude.LOW:
        return base + 1
    return base


class Ratings:
    """Every rating of one aircraft now, for views."""

    __slots__ = (
        "ab_post",
        "ab_pre",
        "ew",
        "gun",
        "performance",
        "speed",
        "thrust_post",
        "thrust_pre",
    )

    def __init__(self, ac: Aircraft, p: Plane) -> None:
        self.speed = speed(ac, p)
        self.performance = performance(ac, p)
        off = Plane(p.seat, p.side, p.aircraft, p.value, altitude=p.altitude, mods=p.mods)
        self.thrust_pre = thrust(ac, off, post_turn=False)
        self.thrust_post = thrust(ac, off, post_turn=True)
        self.ab_pre = afterburner_draw(ac, p, post_turn=False) if ac.has_afterburners else None
        self.ab_post = afterburner_draw(ac, p, post_turn=True) if ac.has_afterburners else None
        self.gun = gun(ac, p)
        self.ew = ew(ac, p)
