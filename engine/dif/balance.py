"""Balancing a dogfight (RotL "Balancing a Dogfight", Zero! 13.0).

Four ways are printed: VP versus superior aircraft (13.1), ganging up on better
aircraft (13.2), leaders without wingmen (13.3) and pilots (13.4). This module
computes the figures a lobby shows for them; the engine applies the VP bonus (13.1)
at the end of a game when the setup asks for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.dif.components import Aircraft, Ruleset, Side
from engine.dif.setup import ElementSetup
from strings import Term

__all__ = [
    "SidePoints",
    "aircraft_counts",
    "element_points",
    "side_points",
    "unequal_sides",
    "unequal_sides_warning",
    "vp_bonus",
]


def element_points(ac: Aircraft, *, wingman: bool, pilot_skills: int = 0) -> int | None:
    """Points of one element: its value with a wingman, its leader-only value without
    (RotL point-value table, Zero! 5.35), plus one per pilot skill (13.4).

    None when the card prints no value for that choice (RotL "–": no wingman exists).
    """
    base = ac.value if wingman else ac.leader_only_value
    return None if base is None else base + pilot_skills


@dataclass(frozen=True, slots=True)
class SidePoints:
    """What one side brings to a dogfight."""

    side: Side
    elements: int
    aircraft: int
    points: int
    """Aircraft points as flown (with or without each wingman) plus pilot skills."""
    with_wingmen: int
    """The same elements if every leader flew with its wingman (where one exists)."""
    leaders_only: int
    """The same elements if every leader flew alone."""
    pilot_points: int
    """Pilot skills, one point each (13.4)."""
    unpriced: tuple[str, ...] = ()
    """Aircraft without a printed value for the way they fly (counted as 0)."""


def side_points(
    elements: Iterable[ElementSetup], aircraft: Mapping[str, Aircraft]
) -> dict[Side, SidePoints]:
    """Each side's totals, for the lobby (13.1-13.4)."""
    acc: dict[Side, dict[str, int]] = {
        s: {"elements": 0, "aircraft": 0, "points": 0, "with": 0, "alone": 0, "pilots": 0}
        for s in Side
    }
    unpriced: dict[Side, list[str]] = {s: [] for s in Side}
    for e in elements:
        ac = aircraft[e.aircraft]
        a = acc[e.side]
        skills = len(e.pilot)
        a["elements"] += 1
        a["aircraft"] += 2 if e.wingman else 1
        a["pilots"] += skills
        flown = element_points(ac, wingman=e.wingman, pilot_skills=skills)
        if flown is None:
            unpriced[e.side].append(ac.name)
        a["points"] += flown or 0
        both = element_points(ac, wingman=ac.wingman is not None, pilot_skills=skills)
        a["with"] += both or 0
        a["alone"] += element_points(ac, wingman=False, pilot_skills=skills) or 0
    return {
        s: SidePoints(
            s,
            a["elements"],
            a["aircraft"],
            a["points"],
            a["with"],
            a["alone"],
            a["pilots"],
            tuple(unpriced[s]),
        )
        for s, a in acc.items()
    }


def vp_bonus(
    elements: Iterable[ElementSetup], aircraft: Mapping[str, Aircraft]
) -> tuple[Side | None, int]:
    """13.1 / RotL "VPs versus Superior Aircraft": the side with the lower aircraft
    points gets the difference as victory points. ``(None, 0)`` when equal."""
    pts = side_points(elements, aircraft)
    axis, allied = pts[Side.AXIS].points, pts[Side.ALLIED].points
    if axis == allied:
        return None, 0
    return (Side.AXIS, allied - axis) if axis < allied else (Side.ALLIED, axis - allied)


def aircraft_counts(elements: Iterable[ElementSetup]) -> dict[Side, int]:
    """Aircraft each side flies: a leader, and its wingman unless it flies alone."""
    count = dict.fromkeys(Side, 0)
    for e in elements:
        count[e.side] += 2 if e.wingman else 1
    return count


def unequal_sides(elements: Iterable[ElementSetup]) -> dict[Side, int] | None:
    """Each side's aircraft when the sides differ, else None.

    Zero! 4.2: "The number of players on each team can be unequal, but the number of
    aircraft must be the same" (a player may fly two elements, or a leader alone);
    RotL L51: it "should be the same". Neither refuses the game: the lobby warns.
    """
    count = aircraft_counts(elements)
    return count if count[Side.ALLIED] != count[Side.AXIS] else None


def unequal_sides_warning(ruleset: Ruleset, elements: Iterable[ElementSetup]) -> Term | None:
    """The lobby's warning when the sides differ (:func:`unequal_sides`), worded by
    each ruleset's rule (Zero! "must", RotL "should"), or None."""
    count = unequal_sides(elements)
    if count is None:
        return None
    key = "dif.setup.unequal.zero" if ruleset is Ruleset.ZERO else "dif.setup.unequal.rotl"
    return Term(
        key,
        allied=Side.ALLIED.label(ruleset),
        n_allied=count[Side.ALLIED],
        axis=Side.AXIS.label(ruleset),
        n_axis=count[Side.AXIS],
    )
