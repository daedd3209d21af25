"""Point-balanced dogfights: what each aircraft and each side is worth, and what a
lobby may take.

An aircraft is worth its top VP without missiles, or the one below its Standard
Missile Load with them (L23); a custom load is its non-missile value plus the Missile
VPs table's price of each pair bought (L377-385). If no opposing aircraft carries
missiles, its modifier is subtracted (L23-24). Skills add their cost (L321, L327).

Readings (docs/rules-decisions.md, "Locked-On"):

* C-L1: Nugget costs -10 as the List of Skills says (L329-331), not the -5 of the
  A-7D example (L323): that example comes to 18 VP here, not 23.
* C-L3: an aircraft may fly in a battle of year Y if it entered service by Y ("does
  not exceed the agreed upon ... year", L70); the Kfir (1976) of the "during or after
  1970" example (L71) flies in any battle from 1976 on. A missile bought for a custom
  load likewise.
* The agreed VP total (L68-70) bounds each side's total; in a duel that is the one
  aircraft's value, as the book says. Team games are "divided equally by Victory
  Points" (L389) by building both sides to the same agreed total.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from engine.lockedon.components import Aircraft, Missile, MissileLoad, Rating, Skill, load_cost

if TYPE_CHECKING:
    from engine.lockedon.base import EngineBase
    from engine.lockedon.setup import LockedOnPick

__all__ = [
    "aircraft_value",
    "carries_missiles",
    "load_of",
    "pick_problem",
    "side_values",
    "skill_cost",
]


def load_of(ac: Aircraft, custom: Sequence[MissileLoad] | None) -> tuple[MissileLoad, ...]:
    """The missiles an aircraft carries: its Standard Missile Load, or a custom one."""
    return tuple(ac.missiles) if custom is None else tuple(custom)


def carries_missiles(ac: Aircraft, custom: Sequence[MissileLoad] | None) -> bool:
    return bool(load_of(ac, custom))


def skill_cost(skills: Iterable[str], catalogue: Mapping[str, Skill]) -> int:
    """The VP cost of these skills (L321-327; C-L1: Nugget -10)."""
    return sum(catalogue[s].cost for s in skills)


def aircraft_value(
    ac: Aircraft,
    custom: Sequence[MissileLoad] | None,
    missiles: Mapping[str, Missile],
    *,
    enemy_missiles: bool,
    skills: Iterable[str] = (),
    catalogue: Mapping[str, Skill] | None = None,
) -> int:
    """An aircraft's VP in a dogfight (L23-24, L327, L377-379).

    ``custom`` None is the Standard Missile Load; ``()`` flies without missiles.
    ``enemy_missiles``: some opposing aircraft carries missiles (else the modifier is
    subtracted). F-15A, standard load, no enemy missiles: 92 - 14 = 78 (LO-01).
    """
    if custom is None:
        value = ac.vp_missiles if ac.missiles and ac.vp_missiles is not None else ac.vp
    else:
        value = ac.vp + load_cost(custom, missiles) if custom else ac.vp
    if not enemy_missiles:
        value -= ac.modifier
    if catalogue is not None:
        value += skill_cost(skills, catalogue)
    return value


def pick_problem(
    ac: Aircraft,
    skills: Sequence[str],
    ratings: Mapping[str, Mapping[Rating, int]],
    custom: Sequence[MissileLoad] | None,
    catalogue: Mapping[str, Skill],
    missiles: Mapping[str, Missile],
    *,
    year: int | None,
    custom_allowed: bool,
    campaign: bool = False,
) -> tuple[str, dict[str, object]] | None:
    """Why this aircraft, with these skills, rating changes and load, may not fly: a
    catalogue key (under ``lockedon.pick.``) and its fields, or None. Campaign-only
    skills only in a campaign mission (``campaign``)."""
    if year is not None and ac.year > year:
        return "too_late", {"aircraft": ac.name, "service": ac.year, "year": year}
    for s in skills:
        skill = catalogue.get(s)
        if skill is None:
            return "unknown_skill", {"skill": repr(s)}
        if skill.campaign_only and not campaign:
            return "campaign_only", {"skill": skill.name}
        if skill.requires_gun and ac.gun is None:
            return "needs_gun", {"skill": skill.name, "aircraft": ac.name}
    for s in ratings:
        if s not in skills:
            return "ratings_without_skill", {"skill": repr(s)}
    for s in skills:
        skill = catalogue[s]
        if skill.ratings is None:
            continue
        why = _rating_problem(ac, skill, ratings.get(s, {}))
        if why is not None:
            return why
    if custom:  # flying without missiles (``()``) is the card's top value, no option needed
        if not custom_allowed:
            return "no_custom_loads", {}
        seen: set[str] = set()
        for load in custom:
            m = missiles.get(load.missile)
            if m is None:
                return "unknown_missile", {"missile": repr(load.missile)}
            if load.missile in seen:
                return "missile_twice", {"missile": m.name}
            seen.add(load.missile)
            if load.count not in (2, 4):
                return "pairs", {"missile": m.name}
            if year is not None and m.year is not None and m.year > year:
                return "missile_too_late", {"missile": m.name, "service": m.year, "year": year}
    # Ratings after every skill must stay playable (no "-" changed, nothing below 0).
    totals: dict[Rating, int] = {}
    for s in skills:
        skill = catalogue[s]
        for rating, delta in list(skill.deltas.items()) + list(ratings.get(s, {}).items()):
            totals[rating] = totals.get(rating, 0) + delta
    for rating, delta in totals.items():
        why = _rating_floor(ac, rating, delta)
        if why is not None:
            return why
    return None


def _rating_problem(
    ac: Aircraft, skill: Skill, changes: Mapping[Rating, int]
) -> tuple[str, dict[str, object]] | None:
    """Green/Newbie/Skilled/Veteran/Ace: which ratings, by how much (L317, L330-371)."""
    rule = skill.ratings
    assert rule is not None
    n = len([d for d in changes.values() if d])
    total = sum(changes.values())
    sign = 1 if rule.total > 0 else -1
    fields: dict[str, object] = {
        "skill": skill.name,
        "most": rule.max_ratings,
        "total": abs(rule.total),
    }
    if not changes or n == 0:
        return "ratings_missing", fields
    if any(d * sign <= 0 for d in changes.values()):
        return "ratings_direction", fields
    if n > rule.max_ratings or (rule.exact_ratings and n != rule.max_ratings):
        return "ratings_count", fields
    if total != rule.total:
        return "ratings_total", fields
    for rating in changes:
        if _printed(ac, rating) is None:
            return "rating_dash", {"rating": rating.value}
    return None


def _printed(ac: Aircraft, rating: Rating) -> int | None:
    """The card's value of a rating (the lower of the pre- and post-turn numbers for
    Thrust and A/B); None for a "-"."""
    if rating is Rating.SPEED:
        return ac.speed
    if rating is Rating.PERFORMANCE:
        return ac.performance
    if rating is Rating.THRUST:
        return min(ac.thrust_pre, ac.thrust_post)
    if rating is Rating.AFTERBURNER:
        if ac.ab_pre is None or ac.ab_post is None:
            return None
        return min(ac.ab_pre, ac.ab_post)
    if rating is Rating.GUN:
        return ac.gun
    if rating is Rating.EW:
        return ac.ew
    return ac.countermeasures


def _rating_floor(ac: Aircraft, rating: Rating, delta: int) -> tuple[str, dict[str, object]] | None:
    """Every change together keeps a rating at its least value or above (Performance
    1, others 0); Grit's "+1 A/B" gives nothing to an aircraft without afterburners."""
    printed = _printed(ac, rating)
    if printed is None:
        return None if delta > 0 else ("rating_dash", {"rating": rating.value})
    floor = 1 if rating is Rating.PERFORMANCE else 0
    if printed + delta < floor:
        return "rating_floor", {"rating": rating.value}
    return None


def side_values(engine: EngineBase, seats: Sequence[tuple[str, LockedOnPick]]) -> dict[str, int]:
    """Each side's VP total (L24 "Aircraft's VPs are added up", L321, L327), with the
    modifier rule: an aircraft loses its modifier if no opposing aircraft carries
    missiles (L23-24)."""
    loads = {
        i: carries_missiles(engine.aircraft[pick.aircraft], pick.missiles)
        for i, (_, pick) in enumerate(seats)
    }
    out: dict[str, int] = {}
    for side, pick in seats:
        enemy_missiles = any(loads[j] for j, (other, _) in enumerate(seats) if other != side)
        ac = engine.aircraft[pick.aircraft]
        value = aircraft_value(
            ac,
            pick.missiles,
            engine.missiles,
            enemy_missiles=enemy_missiles,
            skills=pick.skills,
            catalogue=engine.skills,
        )
        out[side] = out.get(side, 0) + value
    return out
